//! The TUI over a checkout whose ignore files are FIFOs (issue 22, §3):
//! it opens (today's walk blocked in `open` forever), shows the files,
//! and says in its status line which root ignore file it skipped.
//!
//! The harness runs on a thread with a deadline, so a regression fails
//! here instead of hanging the test run.

use crate::common;

use std::sync::mpsc;
use std::time::Duration;

use common::Project;
use common::files::mkfifo;

/// How long opening a tiny project may take on a loaded machine before it
/// counts as hung (a guard, not a measurement).
const HANG_GUARD: Duration = Duration::from_secs(120);

#[test]
fn fifo_ignore_files_neither_hang_nor_go_unsaid() {
    let p = Project::fixture();
    mkfifo(&p.path(".gitignore"));
    mkfifo(&p.path("src/.ignore"));
    mkfifo(&p.path(".git/info/exclude"));
    let root = p.root().to_path_buf();
    let (tx, rx) = mpsc::channel();
    // Left running if it hangs: the test fails at the deadline anyway.
    std::thread::spawn(move || {
        let mut h =
            ctxcurate::tui::run::harness::Harness::open(&root, None, 120, 24).expect("open");
        let status = h.state.status.clone().map(|(s, _)| s).unwrap_or_default();
        let _ = tx.send((h.screen(), h.state.walk.walked.clone(), status));
    });
    let (screen, walked, status) = rx
        .recv_timeout(HANG_GUARD)
        .expect("the TUI hung on a FIFO ignore file");
    assert!(walked.iter().any(|f| f == "src/app.py"), "{walked:?}");
    assert!(screen.contains("src/"), "{screen}");
    assert!(
        status.contains("ignore file .gitignore: not a regular file")
            && status.contains("ignore file .git/info/exclude: not a regular file")
            && status.contains("ignore file src/.ignore: not a regular file"),
        "{status}"
    );
}
