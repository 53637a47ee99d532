//! Quitting while another process holds the project lock (issue 22 §4):
//! the TUI's save used to wait for `.ctxcurate/lock` forever, and `q`
//! waited with it. Now a save that finds the lock held is left waiting,
//! and `q` asks whether to quit without it. Keys go through the real
//! keymap and dispatcher (the harness).

use crate::common;

use std::fs::File;
use std::time::Duration;

use common::Project;
use ctxcurate::tui::input::action::Action;
use ctxcurate::tui::input::keymap::Context;
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::Overlay;

const TOML: &str = "# ours\n[presets.default]\nfiles = [\"src/app.py\", \"src/util.c\"]\n";

/// The project lock, held by someone else than the app.
fn hold_lock(p: &Project) -> File {
    std::fs::create_dir_all(p.path(".ctxcurate")).unwrap();
    let lock = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(p.path(".ctxcurate/lock"))
        .unwrap();
    lock.lock().unwrap();
    lock
}

/// The key the confirm question takes as "yes", from the keymap.
fn confirm_key(h: &Harness) -> String {
    h.state
        .keymap
        .keys_for(Action::Confirm)
        .into_iter()
        .find(|(ctx, _)| *ctx == Context::Confirm)
        .map(|(_, key)| key.to_string().to_lowercase())
        .expect("a confirm key")
}

/// Run `test` on its own thread; a test still running after two minutes
/// (a save that waits for the lock forever, as before) fails.
fn bounded(test: impl FnOnce() + Send + 'static) {
    let (tx, rx) = std::sync::mpsc::channel();
    let runner = std::thread::spawn(move || {
        test();
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(()) => runner.join().unwrap(),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = runner.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("the TUI hangs while another process holds the lock")
        }
    }
}

#[test]
fn q_asks_and_quits_without_the_save_that_waits_for_the_lock() {
    bounded(|| {
        let p = Project::fixture();
        p.write("ctxcurate.toml", TOML);
        let mut h = Harness::open(p.root(), None, 100, 24).expect("open the TUI");
        let held = hold_lock(&p);
        h.goto("src/util.c");
        h.keys("m");
        assert!(h.pending_save.is_some(), "the save waits for the lock");
        let waiting = h.state.save_locked.clone().expect("the app knows it waits");
        assert!(waiting.contains("held by another process"), "{waiting}");
        assert_eq!(p.read("ctxcurate.toml"), TOML, "nothing written yet");

        // q asks instead of quitting (or hanging); Esc keeps waiting.
        h.key("q");
        assert!(!h.state.quit);
        assert!(matches!(h.state.overlay, Some(Overlay::ConfirmQuit)));
        let screen = h.screen();
        assert!(screen.contains("Quit without saving?"), "{screen}");
        h.key("esc");
        assert!(!h.state.quit && h.state.overlay.is_none());
        // A stray key decides nothing.
        h.key("q");
        h.key("j");
        assert!(!h.state.quit);
        assert!(matches!(h.state.overlay, Some(Overlay::ConfirmQuit)));
        // Yes: quit, and the event loop drops the waiting save.
        let yes = confirm_key(&h);
        h.key(&yes);
        assert!(h.state.quit && h.state.drop_pending_save);
        drop(held);
        assert_eq!(
            p.read("ctxcurate.toml"),
            TOML,
            "the dropped change stays unsaved"
        );
    });
}

#[test]
fn once_the_lock_is_free_the_save_happens_and_q_just_quits() {
    bounded(|| {
        let p = Project::fixture();
        p.write("ctxcurate.toml", TOML);
        let mut h = Harness::open(p.root(), None, 100, 24).expect("open the TUI");
        let held = hold_lock(&p);
        h.goto("src/util.c");
        h.keys("m");
        assert!(h.state.save_locked.is_some());
        drop(held);
        h.retry_save();
        assert!(h.state.save_locked.is_none() && h.pending_save.is_none());
        assert!(p.read("ctxcurate.toml").contains("view_mode = \"summary\""));
        h.key("q");
        assert!(h.state.quit && !h.state.drop_pending_save);
    });
}
