//! The TUI's saves keep what the user wrote (issue 10 §4): a keypress in
//! the real keymap and dispatcher changes one line of a commented,
//! hand-ordered `ctxcurate.toml`; an edit made by the CLI while the app is
//! open is loaded and kept by the app's next save (both hold one lock).

use crate::common;

use common::Project;
use ctxcurate::tui::run::harness::Harness;

const HAND: &str = r#"# Our context — keep this comment.
[presets.default]
files = [
    "src/app.py",   # the app
    "src/util.c",   # helpers
]
note = "unknown keys stay"

[project]
budget = 9000 # tokens
"#;

#[test]
fn a_keypress_changes_one_line_and_cli_edits_survive() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", HAND);
    let mut h = Harness::open(p.root(), None, 120, 24).expect("open the TUI");
    h.goto("src/util.c");
    h.keys("m");
    assert_eq!(
        p.read("ctxcurate.toml"),
        HAND.replace(
            "    \"src/util.c\",   # helpers",
            "    { path = \"src/util.c\", view_mode = \"summary\" },   # helpers"
        )
    );

    // The CLI adds a file while the app is open; the app loads it and its
    // next change keeps it.
    p.ok(&["add", "docs/guide.md"]);
    h.check_disk();
    h.goto("src/app.py");
    h.keys("m");
    let text = p.read("ctxcurate.toml");
    assert!(text.contains("\"docs/guide.md\""), "{text}");
    assert!(
        text.contains("{ path = \"src/app.py\", view_mode = \"summary\" },   # the app"),
        "{text}"
    );
    assert!(
        text.starts_with("# Our context — keep this comment.\n"),
        "{text}"
    );
    assert!(text.contains("note = \"unknown keys stay\""), "{text}");
    assert!(text.contains("budget = 9000 # tokens"), "{text}");
}

#[test]
fn an_edit_of_a_global_preset_says_it_was_copied_into_the_project() {
    let p = Project::fixture();
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(&global, "[presets.default]\nfiles = [\"src/app.py\"]\n").unwrap();
    let mut h = Harness::open(p.root(), Some(&global), 120, 24).expect("open the TUI");
    h.goto("src/util.c");
    h.keys("space");
    let said = h
        .state
        .status
        .as_ref()
        .map(|(text, _)| text.clone())
        .unwrap_or_default();
    assert!(
        said.contains("your global preset default copied into ctxcurate.toml"),
        "{said}"
    );
    assert!(p.read("ctxcurate.toml").contains("src/util.c"));
    // The copy is the project's now: the next edit says nothing of it.
    h.goto("src/app.py");
    h.keys("m");
    let said = h
        .state
        .status
        .as_ref()
        .map(|(text, _)| text.clone())
        .unwrap_or_default();
    assert!(!said.contains("global preset"), "{said}");
}
