//! End to end in tmux (issue 37, F14): `q` pressed right after a change,
//! while another process holds the project lock. The save had not yet
//! waited a second, so the app did not know it waited: `q` quit at once
//! into a silent wait for the lock (twice its bound), then exited 2. Now
//! quitting hands the saver the last state and keeps the screen: a save
//! that waits brings the question up.

use crate::common;

use common::Project;
use common::files::{HeldLock, hold_lock};
use common::tmux::Tmux;

const TOML: &str = "# ours\n[presets.default]\nfiles = [\"src/app.py\"]\n";

/// The app started in `p` (the save's wait for the lock bounded to
/// `lock_timeout` seconds), the lock taken by another process, then
/// util.c included and `q` on the heels of it: the question is up. The
/// lock is held until the guard returned is dropped.
fn asked_while_locked(tmux: &Tmux, p: &Project, lock_timeout: &str) -> HeldLock {
    p.write("ctxcurate.toml", TOML);
    let home = p.config_home.path().to_str().expect("a UTF-8 temp path");
    let env = [
        ("CTXCURATE_CONFIG", "/dev/null"),
        ("HOME", home),
        ("CTXCURATE_LOCK_TIMEOUT", lock_timeout),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    let held = hold_lock(p);
    tmux.keys(&["j", "l", "j", "j", "Space", "q"]);
    tmux.wait("the question", |t| {
        t.running() && t.screen().contains("Quit without saving?")
    });
    held
}

#[test]
fn q_right_after_a_change_asks_while_another_process_holds_the_lock() {
    let Some(tmux) = Tmux::new("lock-quit") else {
        return;
    };
    let p = Project::fixture();
    // The save waits for the lock for as long as the test needs.
    let held = asked_while_locked(&tmux, &p, "120");
    assert_eq!(p.read("ctxcurate.toml"), TOML, "nothing written yet");
    // `n` keeps waiting (the app stays); then the lock is let go, and
    // `q` quits with the change saved.
    tmux.keys(&["n"]);
    tmux.wait("the question gone", |t| {
        t.running() && !t.screen().contains("Quit without saving?")
    });
    drop(held);
    tmux.wait("the save once the lock is free", |_| {
        p.read("ctxcurate.toml").contains("\"src/util.c\"")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}

#[test]
fn yes_quits_at_once_without_the_save_that_waits() {
    let Some(tmux) = Tmux::new("lock-quit-yes") else {
        return;
    };
    let p = Project::fixture();
    p.write("ctxcurate.toml", TOML);
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    let _held = hold_lock(&p);
    tmux.keys(&["j", "l", "j", "j", "Space", "q"]);
    tmux.wait("the question", |t| {
        t.running() && t.screen().contains("Quit without saving?")
    });
    tmux.keys(&["c"]);
    tmux.wait("the app to quit", |t| !t.running());
    assert_eq!(p.read("ctxcurate.toml"), TOML, "the change stays unsaved");
}

/// Recheck 15, F6: `q` asked while the save waited for the lock, then the
/// saver gave up on it (its bound, 2 s here): the question went away and
/// so did the quit — the app stayed for good, even after the lock was let
/// go. Now the quit outlasts a save that gave up: the save is tried
/// again with the question still up, and once the lock is free the app
/// saves and quits by itself.
#[test]
fn a_quit_outlasts_a_save_that_gave_up_on_the_lock() {
    let Some(tmux) = Tmux::new("lock-quit-retry") else {
        return;
    };
    let p = Project::fixture();
    let held = asked_while_locked(&tmux, &p, "2");
    // Past two of the saver's bounds: it gave up at least once.
    std::thread::sleep(std::time::Duration::from_secs(5));
    assert!(tmux.running(), "{}", tmux.screen());
    assert!(
        tmux.screen().contains("Quit without saving?"),
        "{}",
        tmux.screen()
    );
    assert_eq!(p.read("ctxcurate.toml"), TOML, "nothing written yet");
    drop(held);
    tmux.wait("the app to save and quit by itself", |t| !t.running());
    assert!(p.read("ctxcurate.toml").contains("\"src/util.c\""));
}
