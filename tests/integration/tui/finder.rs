//! The fuzzy file finder (`Ctrl-p`) driven by key presses through the real
//! keymap, dispatcher and `update`: typing narrows, Up/Down move, Space
//! includes without leaving, Enter goes to the file in the tree with the
//! panes following, Esc closes; a snapshot of the overlay; and pip's real
//! sources, where `reqinst` must find `req/req_install.py` first.

use crate::common;

use std::path::Path;

use common::{Project, machine};
use ctxcurate::tui::messages::Event;
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::{Overlay, Pane};

fn open(p: &Project, w: u16, h: u16) -> Harness {
    Harness::open(p.root(), None, w, h).expect("open the TUI")
}

fn selected(h: &Harness) -> Option<String> {
    h.state.finder.as_ref().and_then(|f| f.selected_path())
}

fn finder_is_open(h: &Harness) -> bool {
    h.state.overlay == Some(Overlay::Finder) && h.state.finder.is_some()
}

#[test]
fn ctrl_p_opens_the_finder_over_every_file_and_typing_narrows() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("ctrl-p");
    assert!(finder_is_open(&h));
    let finder = h.state.finder.as_ref().expect("finder");
    assert_eq!(finder.total(), h.state.walk.walked.len());
    assert_eq!(finder.matched(), finder.total(), "an empty query lists all");
    let screen = h.screen();
    assert!(screen.contains("Find a file · 4/4"), "{screen}");

    h.type_text("utl");
    assert_eq!(selected(&h).as_deref(), Some("src/util.c"));
    assert_eq!(h.state.finder.as_ref().map(|f| f.matched()), Some(1));
    assert!(h.screen().contains("Find a file · 1/4"));
    // Keys of the tree do not apply while typing: `j` is a letter here.
    h.key("backspace");
    h.key("backspace");
    assert_eq!(h.state.finder.as_ref().map(|f| f.query()), Some("u"));
    h.key("ctrl-u");
    assert_eq!(h.state.finder.as_ref().map(|f| f.query()), Some(""));
    assert_eq!(h.state.finder.as_ref().map(|f| f.matched()), Some(4));
    h.key("esc");
    assert!(h.state.overlay.is_none());
    assert!(h.state.finder.is_none(), "closing ends the matcher");
}

#[test]
fn up_down_and_the_control_keys_move_the_selection() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("ctrl-p");
    let at = |h: &Harness| h.state.finder.as_ref().map_or(99, |f| f.selected());
    assert_eq!(at(&h), 0);
    h.key("down");
    assert_eq!(at(&h), 1);
    h.key("ctrl-n");
    assert_eq!(at(&h), 2);
    h.key("ctrl-j");
    assert_eq!(at(&h), 3);
    h.key("ctrl-j");
    assert_eq!(at(&h), 3, "stays on the last match");
    h.key("up");
    h.key("ctrl-p");
    assert_eq!(at(&h), 1, "Ctrl-p inside the finder moves up");
    h.key("ctrl-k");
    h.key("ctrl-k");
    assert_eq!(at(&h), 0);
    h.key("ctrl-c");
    assert!(h.state.overlay.is_none());
}

#[test]
fn enter_goes_to_the_file_and_the_panes_follow() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    // From another pane, with every folder closed.
    h.key("tab");
    assert_eq!(h.state.focus, Pane::Symbols);
    assert!(h.state.tree.open_dirs.is_empty());
    h.key("ctrl-p");
    h.type_text("util");
    h.key("enter");
    assert!(h.state.overlay.is_none() && h.state.finder.is_none());
    assert_eq!(h.state.focus, Pane::Tree);
    assert_eq!(h.state.current_file(), Some("src/util.c"));
    assert!(h.state.tree.open_dirs.contains("src"));
    assert_eq!(
        h.state.symbols.view.as_ref().map(|s| s.path.as_str()),
        Some("src/util.c"),
        "the symbols pane follows"
    );
    let screen = h.screen();
    assert!(
        screen.contains("Symbols") && screen.contains("util.c"),
        "{screen}"
    );
}

#[test]
fn enter_clears_a_tree_filter_that_hides_the_file() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("/");
    h.type_text("guide");
    h.key("enter");
    assert_eq!(h.state.tree.filter, "guide");
    h.key("ctrl-p");
    h.type_text("app.py");
    h.key("enter");
    assert!(h.state.tree.filter.is_empty());
    assert_eq!(h.state.current_file(), Some("src/app.py"));
    // A file the filter shows keeps the filter.
    h.key("/");
    h.type_text("py");
    h.key("enter");
    h.key("ctrl-p");
    h.type_text("app");
    h.key("enter");
    assert_eq!(h.state.tree.filter, "py");
    assert_eq!(h.state.current_file(), Some("src/app.py"));
}

#[test]
fn the_preview_follows_an_included_file() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"docs/guide.md\", \"src/util.c\"]\n",
    );
    let mut h = open(&p, 120, 24);
    let before = h.state.preview.scroll;
    h.key("ctrl-p");
    h.type_text("util.c");
    h.key("enter");
    let line = h
        .state
        .composed_file("src/util.c")
        .map(|f| f.line)
        .expect("util.c is composed");
    assert_ne!(line, before);
    assert_eq!(h.state.preview.scroll, line, "the preview scrolls to it");
}

#[test]
fn space_includes_the_selected_file_in_one_undoable_step() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("ctrl-p");
    h.type_text("app");
    assert_eq!(selected(&h).as_deref(), Some("src/app.py"));
    let undo = h.state.history.undo.len();
    h.key("space");
    assert!(finder_is_open(&h), "Space stays in the finder");
    assert_eq!(h.state.finder.as_ref().map(|f| f.query()), Some("app"));
    assert!(h.state.is_included("src/app.py"));
    assert_eq!(h.state.history.undo.len(), undo + 1);
    assert!(p.read("ctxcurate.toml").contains("src/app.py"));
    let screen = h.screen();
    assert!(screen.contains("● src/app.py"), "{screen}");
    // Tab does the same: out again.
    h.key("tab");
    assert!(!h.state.is_included("src/app.py"));
    h.key("tab");
    assert!(h.state.is_included("src/app.py"));
    // `u` is a letter in the finder; after Esc it undoes.
    h.key("esc");
    h.key("u");
    assert!(!h.state.is_included("src/app.py"));
    assert!(!p.read("ctxcurate.toml").contains("src/app.py"));
}

#[test]
fn a_query_without_matches_is_quiet() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("ctrl-p");
    h.type_text("zzzzqqq");
    assert_eq!(h.state.finder.as_ref().map(|f| f.matched()), Some(0));
    assert!(h.screen().contains("(no file matches)"));
    let undo = h.state.history.undo.len();
    h.keys("space down up");
    assert_eq!(h.state.history.undo.len(), undo);
    let cursor = h.state.tree.cursor;
    h.key("enter");
    assert!(h.state.overlay.is_none());
    assert_eq!(h.state.tree.cursor, cursor, "nothing to go to");
}

#[test]
fn odd_names_are_found_shown_safely_and_gone_to() {
    let p = Project::fixture();
    for name in [
        "a b/ç.py",
        "日本/語.c",
        "x\ny.txt",
        "\u{202e}evil.py",
        "esc\u{1b}[31mred.py",
    ] {
        p.write(name, "x = 1\n");
    }
    let long = format!("{}/deep.py", ["folder"; 30].join("/"));
    p.write(&long, "x = 1\n");
    let mut h = open(&p, 80, 24);
    h.key("ctrl-p");
    let screen = h.screen();
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{202e}'));
    for q in ["語", "\\", "^$", "!x", "'", "ç", "\u{202e}", "evil", "red"] {
        h.key("ctrl-u");
        h.type_text(q);
        let screen = h.screen();
        assert!(!screen.contains('\u{1b}') && !screen.contains('\u{202e}'));
    }
    // Any terminal size draws.
    for (w, ht) in [(1, 1), (10, 3), (20, 5), (200, 60)] {
        h.resize(w, ht);
        let _ = h.screen();
    }
    h.resize(80, 24);
    h.key("ctrl-u");
    h.type_text("deep");
    assert!(h.screen().contains("…"), "a long path is cut on the left");
    assert!(h.screen().contains("deep.py"), "keeping the file name");
    h.key("enter");
    assert_eq!(h.state.current_file(), Some(long.as_str()));
    h.key("ctrl-p");
    h.type_text("語");
    h.key("enter");
    assert_eq!(h.state.current_file(), Some("日本/語.c"));
    h.key("ctrl-p");
    h.type_text("xy");
    h.key("enter");
    assert_eq!(h.state.current_file(), Some("x\ny.txt"));
}

#[test]
fn finder_overlay_snapshot() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"src/app.py\"]\n",
    );
    let mut h = open(&p, 80, 24);
    h.key("ctrl-p");
    h.type_text("s");
    h.key("down");
    insta::assert_snapshot!("finder_overlay", h.screen());
}

/// Copy the tree at `from` to `to` (regular files and folders only), so
/// the app's cache is not written into the installed pip.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let kind = entry.file_type().expect("file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn reqinst_finds_req_install_first_in_pip() {
    let Some(pip) = machine::pip() else {
        return;
    };
    let p = Project::empty();
    copy_tree(&pip, p.root());
    let mut h = open(&p, 120, 30);
    h.key("ctrl-p");
    let total = h.state.finder.as_ref().map_or(0, |f| f.total());
    assert_eq!(total, h.state.walk.walked.len(), "every walked file");
    assert!(total > 300, "pip has hundreds of files: {total}");
    h.type_text("reqinst");
    let hits = h
        .state
        .finder
        .as_ref()
        .map(|f| f.hits(0, 5))
        .unwrap_or_default();
    assert_eq!(
        hits.first().map(|hit| hit.path.as_str()),
        Some("_internal/req/req_install.py"),
        "{hits:?}"
    );
    h.key("enter");
    assert_eq!(h.state.current_file(), Some("_internal/req/req_install.py"));
    assert_eq!(
        h.state.symbols.view.as_ref().map(|s| s.path.as_str()),
        Some("_internal/req/req_install.py")
    );
}

#[test]
fn files_walked_after_the_finder_opens_are_found_too() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    // A walk that is still streaming in when the finder opens.
    h.state.begin_walk();
    h.send(Event::Walked(vec!["src/app.py".to_string()]));
    h.key("ctrl-p");
    assert_eq!(h.state.finder.as_ref().map(|f| f.total()), Some(1));
    assert!(h.screen().contains("1/1 · scanning…"));
    h.send(Event::Walked(vec![
        "src/util.c".to_string(),
        "docs/guide.md".to_string(),
    ]));
    h.send(Event::WalkDone);
    assert!(finder_is_open(&h), "the walk does not close the finder");
    assert_eq!(h.state.finder.as_ref().map(|f| f.total()), Some(3));
    assert!(h.screen().contains("Find a file · 3/3 "));
    h.type_text("guide");
    h.key("enter");
    assert_eq!(h.state.current_file(), Some("docs/guide.md"));
}
