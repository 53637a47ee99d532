//! Discovery in the TUI, driven by keys through the real keymap: `*` marks
//! targets, `i` packs around them and shows the proposals in the tree with
//! the packed total on the gauge, `I` accepts them as one undoable step,
//! `o` discards them.

mod common;

use common::Project;
use ctxcurate::core::model::{ProjectFile, ViewMode};
use ctxcurate::tui::harness::Harness;

fn project() -> Project {
    let p = Project::empty();
    p.write("app.py", "from pkg.core import App\n\nApp().run()\n");
    p.write("pkg/__init__.py", "");
    p.write(
        "pkg/core.py",
        "from . import util\n\nclass App:\n    def run(self):\n        return util.helper()\n",
    );
    p.write(
        "pkg/util.py",
        "from .deep import x\n\ndef helper():\n    return 1\n",
    );
    p.write("pkg/deep.py", "x = 1\n");
    p.write("other.py", "import os\n");
    p
}

fn saved(p: &Project) -> ProjectFile {
    toml::from_str(&p.read("ctxcurate.toml")).expect("saved file parses")
}

fn files(p: &Project) -> Vec<(String, ViewMode)> {
    saved(p).presets["default"]
        .files
        .iter()
        .map(|f| (f.path.clone(), f.view_mode))
        .collect()
}

#[test]
fn mark_discover_accept_undo_discard() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    assert!(
        h.screen()
            .contains("no targets: mark the files you work on with *"),
        "{}",
        h.screen()
    );
    h.goto("app.py");
    h.keys("*");
    assert_eq!(saved(&p).presets["default"].targets, ["app.py"]);
    h.keys("i");
    let proposed: Vec<(String, ViewMode)> = h
        .state
        .discovery
        .as_ref()
        .expect("a discovery")
        .proposed
        .clone();
    assert_eq!(
        proposed,
        [
            ("app.py".to_string(), ViewMode::Full),
            ("pkg/core.py".to_string(), ViewMode::Full),
            ("pkg/deep.py".to_string(), ViewMode::Skeleton),
            ("pkg/util.py".to_string(), ViewMode::Skeleton),
        ]
    );
    h.keys("g l");
    insta::assert_snapshot!("discovery_proposed", h.screen());

    // Accept: one step adds every proposal in its packed mode.
    h.keys("I");
    assert!(h.state.discovery.is_none());
    assert_eq!(files(&p), proposed);
    h.keys("u");
    assert!(files(&p).is_empty(), "one undo takes them all back");
    assert_eq!(
        saved(&p).presets["default"].targets,
        ["app.py"],
        "targets stay"
    );

    // Discard: nothing changes.
    h.keys("i o");
    assert!(h.state.discovery.is_none());
    assert!(files(&p).is_empty());
    assert!(
        h.screen().contains("discarded 4 proposed files"),
        "{}",
        h.screen()
    );

    // `*` again unmarks.
    h.goto("app.py");
    h.keys("*");
    assert!(saved(&p).presets["default"].targets.is_empty());
}

#[test]
fn the_gauge_shows_the_packed_total() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 90\n\n[presets.default]\ntargets = [\"app.py\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    let packed = h
        .state
        .discovery
        .as_ref()
        .expect("a discovery")
        .stats
        .tokens;
    assert!(packed > 0 && packed <= 90, "{packed}");
    let screen = h.screen();
    assert!(
        screen.contains(&format!("packed {packed} / 90 tokens")),
        "{screen}"
    );
}
