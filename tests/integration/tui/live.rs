//! Files that change on disk while the TUI runs: the project's real watch
//! (`core::watch`) reports them, and its report goes through the real
//! event path (`update` → a walk in the background → the whole list at
//! once): a new file appears, a deleted one leaves (its preset entry stays,
//! shown missing), a written one is composed again — gauge and preview —
//! and the cursor stays on its path throughout.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common;

use common::Project;
use ctxcurate::core::walk::WalkPatterns;
use ctxcurate::core::watch::{Changes, ProjectWatch, WatchReport};
use ctxcurate::tui::messages::Event;
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::Level;

/// The watch's reports until they name all of `expected` (a loaded
/// machine may split one burst over two spells), as one change.
fn changes_naming(rx: &mpsc::Receiver<WatchReport>, expected: &[&str]) -> Changes {
    let mut all = Changes::default();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !expected.iter().all(|e| all.paths.iter().any(|p| p == e)) {
        assert!(Instant::now() < deadline, "{all:?}");
        if let Ok(WatchReport::Changed(c)) = rx.recv_timeout(Duration::from_millis(500)) {
            all.paths.extend(c.paths);
            all.overflowed |= c.overflowed;
        }
    }
    all.paths.sort();
    all.paths.dedup();
    all
}

fn project() -> Project {
    let p = Project::empty();
    p.write("src/a.py", "def a():\n    return 1\n");
    p.write("src/b.py", "def b():\n    return 2\n");
    p.write("src/gone.py", "def gone():\n    return 3\n");
    p.write("notes.log", "noise\n");
    p.write(".gitignore", "*.log\n");
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/**\"\n\n\
         [[presets.default.files]]\npath = \"src/gone.py\"\nview_mode = \"outline\"\n",
    );
    p
}

#[test]
fn a_change_on_disk_updates_the_tree_gauge_and_preview_with_the_cursor_kept() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    h.goto("src/b.py");
    let used_before = h.state.composition.gauge.used;
    let (tx, rx) = mpsc::channel();
    let _watch = ProjectWatch::start(p.root(), WalkPatterns::default(), move |r| {
        tx.send(r).is_ok()
    });
    assert!(matches!(
        rx.recv_timeout(Duration::from_secs(5)),
        Ok(WatchReport::Watching { .. })
    ));

    p.write("src/new.py", "def fresh():\n    return 4\n");
    std::fs::remove_file(p.path("src/gone.py")).expect("rm");
    p.write(
        "src/b.py",
        "def b():\n    return 2\n\n\ndef b_grew():\n    return 'a longer body than before'\n",
    );
    p.write("more.log", "ignored\n");
    let changes = changes_naming(&rx, &["src/b.py", "src/gone.py", "src/new.py"]);
    assert_eq!(changes.paths, ["src/b.py", "src/gone.py", "src/new.py"]);
    h.send(Event::FilesChanged(changes));

    assert!(h.state.tree.files.contains("src/new.py"));
    // The preset names it: it stays in the tree, and the tree says so.
    assert!(h.state.tree.files.contains("src/gone.py"));
    assert!(!h.state.tree.files.contains("more.log"));
    assert_eq!(h.state.current_file(), Some("src/b.py"), "cursor kept");
    let text = h.composed_text();
    assert!(text.contains("def fresh():"), "{text}");
    assert!(text.contains("b_grew"), "{text}");
    assert!(h.state.composition.gauge.used > used_before);
    assert!(!h.state.walk.live.in_flight);
    let screen = h.screen();
    assert!(screen.contains("new.py"), "{screen}");
    assert!(screen.contains("b_grew"), "the preview follows: {screen}");
    insta::assert_snapshot!("live_change_on_disk", screen);
}

#[test]
fn changes_during_a_walk_wait_for_it_and_a_failed_watch_says_so_once() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    // `R` began a walk that has not finished: the change waits for it…
    h.state.begin_walk();
    let effects = ctxcurate::tui::update::update(
        &mut h.state,
        Event::FilesChanged(Changes {
            paths: vec!["src/late.py".into()],
            overflowed: false,
        }),
    );
    assert!(effects.is_empty(), "{effects:?}");
    p.write("src/late.py", "x = 1\n");
    // …and once it is done, one more walk picks it up.
    h.send(Event::Walked(ctxcurate::core::walk::walk_files(p.root())));
    h.send(Event::WalkDone);
    assert!(h.state.tree.files.contains("src/late.py"));
    assert!(!h.state.walk.live.again && !h.state.walk.live.in_flight);

    // The project file alone (the app's own save, say) walks nothing.
    let effects = ctxcurate::tui::update::update(
        &mut h.state,
        Event::FilesChanged(Changes {
            paths: vec!["ctxcurate.toml".into()],
            overflowed: false,
        }),
    );
    assert!(effects.is_empty(), "{effects:?}");

    h.send(Event::WatchFailed("the limit".into()));
    let (text, level) = h.state.status.clone().expect("a status");
    assert_eq!(level, Level::Warn);
    assert_eq!(
        text,
        "files are no longer followed live: the limit (R rescans)"
    );
    h.state.status = None;
    h.send(Event::WatchFailed("the limit".into()));
    assert!(h.state.status.is_none(), "said once");
}

/// A folder replaced whole (another moved in over it) is reported by its
/// own path: what the panes held for the files under it is read again,
/// as for a file reported by name (here: the preview's raw text, `r`).
#[test]
fn a_folder_replaced_whole_is_read_again_below_it() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    h.goto("src/b.py");
    h.keys("tab tab r");
    assert!(h.state.preview.raw_text.is_some(), "the raw text is shown");
    let screen = h.screen();
    assert!(screen.contains("def b"), "{screen}");
    p.write("next/a.py", "def a():\n    return 1\n");
    p.write("next/b.py", "def moved_in():\n    return 2\n");
    p.write("next/gone.py", "def gone():\n    return 3\n");
    std::fs::rename(p.path("src"), p.path("old")).expect("mv");
    std::fs::rename(p.path("next"), p.path("src")).expect("mv");
    std::fs::remove_dir_all(p.path("old")).expect("rm");
    h.send(Event::FilesChanged(Changes {
        paths: vec!["next".into(), "old".into(), "src".into()],
        overflowed: false,
    }));
    let screen = h.screen();
    assert!(screen.contains("moved_in"), "the raw text: {screen}");
}
