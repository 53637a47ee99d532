//! The user's own state (issue 28, "Shared file, personal state"): through
//! the real keymap, switching presets (`2`, `]`, the picker) and the
//! toggles (`t`, `T`) leave `ctxcurate.toml` byte-identical; a restart in
//! the same checkout brings back the preset, the toggles, the open folders
//! and the cursor; the cursor starts at the top of a large tree.

use crate::common;

use common::Project;
use ctxcurate::core::model::{Strategy, TokenizerKind};
use ctxcurate::core::project::{PersonalStore, Project as CoreProject};
use ctxcurate::tui::run::harness::Harness;

/// A team's file, with comments and a team default preset and tokenizer.
const TEAM: &str = "# the team's context: keep this comment\n\n\
[project]\nactive_preset = \"a\"   # the team default\ntokenizer = \"cl100k\"\n\n\
[presets.a]\nfiles = [\"src/app.py\"]\n\n\
[presets.b]\nfiles = [\"src/util.c\"]\n\n\
[presets.c]\nfiles = [\"docs/guide.md\"]\n";

/// The TUI on `p` with the user's state kept in `state`.
fn open_with(p: &Project, state: &std::path::Path) -> Harness {
    let mut project = CoreProject::open_at(p.root(), None).expect("open the project");
    project.use_personal(PersonalStore::at(state));
    Harness::open_project(project, 100, 20).expect("open the TUI")
}

#[test]
fn switching_presets_and_toggles_leave_the_shared_file_byte_identical() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM);
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    assert_eq!(
        h.state.project.active_preset_name(),
        "a",
        "the team default"
    );
    h.key("2");
    h.key("]");
    h.keys("p k enter");
    assert_eq!(h.state.project.active_preset_name(), "b");
    h.keys("T t");
    assert_eq!(h.state.project.settings.tokenizer, TokenizerKind::Estimate);
    assert_eq!(h.state.project.settings.strategy, Strategy::Summarize);
    assert!(h.composed_text().contains("src/util.c"));
    assert_eq!(p.read("ctxcurate.toml"), TEAM, "not a byte changed");
    // `u` takes the toggle back, as any step.
    h.key("u");
    assert_eq!(h.state.project.settings.strategy, Strategy::Auto);
    h.key("t");
    assert_eq!(p.read("ctxcurate.toml"), TEAM);

    // The next start in this checkout is where the user left it; the
    // team's values are still what the file says.
    drop(h);
    let h = open_with(&p, state.path());
    assert_eq!(h.state.project.active_preset_name(), "b");
    assert_eq!(h.state.project.settings.tokenizer, TokenizerKind::Estimate);
    assert_eq!(h.state.project.settings.strategy, Strategy::Summarize);
    assert_eq!(
        h.state.project.file.project.get_str("active_preset"),
        Some("a")
    );
    // Another checkout (no state of its own) gets the team's choice.
    let fresh = tempfile::tempdir().unwrap();
    let h = open_with(&p, fresh.path());
    assert_eq!(h.state.project.active_preset_name(), "a");
    assert_eq!(h.state.project.settings.tokenizer, TokenizerKind::Cl100k);
}

#[test]
fn a_restart_brings_back_the_open_folders_and_the_cursor() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM);
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    h.goto("src/util.c");
    h.remember().expect("remember");
    let before = h.screen();
    drop(h);
    let mut h = open_with(&p, state.path());
    assert_eq!(h.state.tree.current_row().unwrap().path, "src/util.c");
    assert!(h.state.tree.open_dirs.contains("src"));
    assert_eq!(h.screen(), before);
    insta::assert_snapshot!("restart_restores_the_cursor", h.screen());
    // A place that no longer exists: the top.
    std::fs::remove_file(p.path("src/util.c")).unwrap();
    std::fs::remove_file(p.path("src/app.py")).unwrap();
    let h = open_with(&p, state.path());
    assert_eq!(h.state.tree.cursor, 0);
}

/// On a large tree whose preset names a file in the last folder, the
/// first screen still begins at the first folder: files streaming in
/// above the cursor do not carry it down.
#[test]
fn the_cursor_starts_at_the_top_of_a_large_tree() {
    let p = Project::empty();
    for d in 0..150 {
        for f in 0..20 {
            p.write(&format!("pkg{d:03}/mod{f:02}.py"), "x = 1\n");
        }
    }
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"pkg149/mod19.py\"]\n",
    );
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    assert_eq!(h.state.tree.files.len(), 3000);
    assert_eq!(h.state.tree.cursor, 0);
    assert_eq!(h.state.tree.current_row().unwrap().path, "pkg000");
    let screen = h.screen();
    let first = screen.lines().nth(1).unwrap_or_default();
    assert!(first.contains("pkg000"), "{screen}");
}

/// Proposals shown when the app closed are shown again at the next start
/// (packed anew from the same preset and targets).
#[test]
fn a_restart_shows_the_last_discovery_again() {
    let p = Project::empty();
    p.write("app.py", "from pkg import util\n\nutil.helper()\n");
    p.write("pkg/__init__.py", "");
    p.write("pkg/util.py", "def helper():\n    return 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\ntargets = [\"app.py\"]\nfiles = [\"app.py\"]\n",
    );
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    h.keys("i");
    let proposed = h
        .state
        .discovery
        .as_ref()
        .expect("proposals")
        .proposed
        .clone();
    assert!(
        proposed.iter().any(|(path, _)| path == "pkg/util.py"),
        "{proposed:?}"
    );
    h.remember().expect("remember");
    drop(h);
    let mut h = open_with(&p, state.path());
    let again = h.state.discovery.as_ref().expect("proposals again");
    assert_eq!(again.proposed, proposed);
    // Discarded: the next start has none.
    h.keys("o");
    h.remember().expect("remember");
    drop(h);
    let h = open_with(&p, state.path());
    assert!(h.state.discovery.is_none());
}
