//! The progress line of a long build (issue 15): on a terminal's stderr it
//! follows the core's phases and is cleared before the summary; with
//! `--quiet`, or when stderr is a pipe, nothing of it is written; stdout is
//! the same bytes in every case. `CTXCURATE_PROGRESS_DELAY_MS=0` shows it
//! at once instead of after a second.

use crate::common;

use common::pty::stderr_on_terminal;
use common::{Project, stderr, stdout};

fn project() -> Project {
    let p = Project::empty();
    for i in 0..40 {
        p.write(
            &format!("pkg/m{i}.py"),
            &format!("import os\n\ndef f_{i}(x):\n    return x + {i}\n"),
        );
    }
    p.ok(&["add", "pkg/**"]);
    p
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_terminal_sees_the_phases_and_stdout_stays_the_same() {
    let p = project();
    let piped = p.run(&["build"]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert!(
        !stderr(&piped).contains("counting tokens"),
        "no progress on a pipe: {}",
        stderr(&piped)
    );

    let mut cmd = p.cmd(&["build"]);
    cmd.env("CTXCURATE_PROGRESS_DELAY_MS", "0");
    let (ok, out, seen) = stderr_on_terminal(cmd);
    assert!(ok, "{}", text(&seen));
    assert_eq!(text(&out), stdout(&piped), "stdout is unchanged");
    let seen = text(&seen);
    // The phase running when the work ends is drawn at least once (earlier
    // ones may pass between two ticks of the line).
    assert!(seen.contains("counting tokens"), "{seen:?}");
    // The summary comes after the line is cleared, on its own.
    let line = seen.rfind("counting tokens").expect("the line");
    let summary = seen.rfind("40 files, ").expect("the summary");
    assert!(line < summary, "{seen:?}");

    // A build quicker than the delay (a second) shows no line at all.
    let (ok, _, seen) = stderr_on_terminal(p.cmd(&["build"]));
    let seen = text(&seen);
    assert!(ok && !seen.contains('\x1b'), "{seen:?}");

    // A packed build shows its own phases.
    let mut cmd = p.cmd(&["build", "--target", "pkg/m1.py", "--budget", "2000"]);
    cmd.env("CTXCURATE_PROGRESS_DELAY_MS", "0");
    let (ok, _, seen) = stderr_on_terminal(cmd);
    let seen = text(&seen);
    assert!(ok, "{seen}");
    assert!(seen.contains("scanning for secrets"), "{seen:?}");
}

#[test]
fn quiet_shows_no_progress_on_a_terminal() {
    let p = project();
    let mut cmd = p.cmd(&["build", "--quiet"]);
    cmd.env("CTXCURATE_PROGRESS_DELAY_MS", "0");
    let (ok, out, seen) = stderr_on_terminal(cmd);
    let seen = text(&seen);
    assert!(ok, "{seen}");
    assert!(!seen.contains("counting tokens"), "{seen:?}");
    assert!(!seen.contains('\x1b'), "nothing but the summary: {seen:?}");
    assert!(seen.contains("40 files, "), "{seen:?}");
    assert!(text(&out).contains("### pkg/m0.py"));
}
