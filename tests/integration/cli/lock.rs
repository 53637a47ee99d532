//! A project lock held by another process (issue 22 §4): the CLI used to
//! wait for `.ctxcurate/lock` silently and forever. It now says what it
//! waits for after about a second and gives up with an error after a
//! bound (`CTXCURATE_LOCK_TIMEOUT` seconds, 5 by default).

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::Project;
use common::files::hold_lock;

/// Wait for `child`; a child that is still running after a minute is
/// killed and the test fails (the old code waited forever).
fn finish(mut child: Child) -> (std::process::ExitStatus, String) {
    let end = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the CLI still waits for the lock after a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).unwrap();
    }
    (status, err)
}

#[test]
fn a_held_lock_is_announced_and_given_up_with_an_error() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", "# mine\n");
    let _held = hold_lock(&p);
    let child = p
        .cmd(&["add", "src/app.py"])
        .env("CTXCURATE_LOCK_TIMEOUT", "2")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, err) = finish(child);
    assert_eq!(status.code(), Some(1), "{err}");
    let lock = p.path(".ctxcurate/lock");
    assert!(
        err.contains(&format!(
            "waiting for {} held by another process",
            lock.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "gave up after 2 s waiting for {} held by another process",
            lock.display()
        )),
        "{err}"
    );
    assert_eq!(p.read("ctxcurate.toml"), "# mine\n", "nothing written");
}

#[test]
fn the_edit_goes_on_once_the_lock_is_released() {
    let p = Project::fixture();
    let held = hold_lock(&p);
    let mut child = p
        .cmd(&["add", "src/app.py"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Released once the CLI has said what it waits for (a CLI that
    // never says it is killed after a minute).
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(err).read_line(&mut line);
        let _ = tx.send(line);
    });
    let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the CLI waited a minute without a word");
    };
    assert!(line.contains("held by another process"), "{line}");
    drop(held);
    let (status, _) = finish(child);
    assert!(status.success());
    assert!(p.read("ctxcurate.toml").contains("src/app.py"));
}

/// Round 3: a lock held by a hung process bounds `add` to a few seconds
/// by default (it waited 30 s), with the error naming the lock.
#[test]
fn add_gives_up_within_seconds_by_default() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", "# mine\n");
    let _held = hold_lock(&p);
    let started = Instant::now();
    let out = common::output_within(p.cmd(&["add", "src/app.py"]), Duration::from_secs(30));
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert!(took < Duration::from_secs(10), "waited {took:?}");
    let err = common::stderr(&out);
    assert!(
        err.contains(&format!(
            "gave up after 5 s waiting for {} held by another process",
            p.path(".ctxcurate/lock").display()
        )),
        "{err}"
    );
    assert_eq!(p.read("ctxcurate.toml"), "# mine\n", "nothing written");
}

/// The real TUI on a terminal, the lock held by another process from the
/// start: `q` quits it.
#[test]
fn the_tui_quits_on_q_while_another_process_holds_the_lock() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n",
    );
    let _held = hold_lock(&p);
    let status = common::pty::tui_typed(
        &p,
        &[],
        Duration::from_secs(3),
        b"q",
        Duration::from_secs(10),
    );
    let status = status.expect("the TUI did not quit on q");
    assert!(status.success(), "{status:?}");
}

/// The same with an edit first: Space must save under the lock another
/// process holds, and `q` typed with it asks (it used to wait for the
/// lock twice over, then exit 2 saying the curation was not saved);
/// `c` then quits at once without the save.
#[test]
fn the_tui_quits_on_q_after_an_edit_while_the_lock_is_held() {
    let p = Project::fixture();
    let toml = "[[presets.default.files]]\npath = \"src/**\"\n";
    p.write("ctxcurate.toml", toml);
    let _held = hold_lock(&p);
    let status = common::pty::tui_typed_steps(
        &p,
        &[],
        &[
            (Duration::from_secs(3), b" q"),
            (Duration::from_secs(3), b"c"),
        ],
        Duration::from_secs(12),
    );
    let status = status.expect("the TUI did not quit on q and c");
    assert!(status.success(), "{status:?}");
    assert_eq!(p.read("ctxcurate.toml"), toml, "the change stays unsaved");
}
