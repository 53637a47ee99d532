//! Git in the TUI, through the real keymap and dispatcher: `Ctrl-g` marks
//! the files git sees changed (± in the tree, folders count them), `+`
//! includes them as one undoable step — the same files `ctxcurate add
//! --changed` adds — and outside a git repository both say so and change
//! nothing.

mod common;

use std::path::Path;
use std::process::Command;

use common::Project;
use ctxcurate::core::model::ProjectFile;
use ctxcurate::tui::harness::Harness;
use ctxcurate::tui::state::Level;

/// Run git in `dir` with no system or user configuration.
fn git(p: &Project, dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", p.config_home.path())
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One commit (`src/a.py`, `src/b.py`, `keep.md`, a `.gitignore` for
/// `build/`), then `src/a.py` modified, `src/b.py` deleted, `src/c.py`
/// staged, `d.py` untracked, `build/e.py` ignored by git, and
/// `notes.txt` changed but ignored by the project's own
/// `.ctxcurateignore`.
fn repo() -> Project {
    let p = Project::empty();
    git(&p, p.root(), &["init", "-q", "-b", "main"]);
    p.write("src/a.py", "x = 1\n");
    p.write("src/b.py", "y = 1\n");
    p.write("keep.md", "# Keep\n");
    p.write("notes.txt", "one\n");
    p.write(".gitignore", "build/\n");
    p.write(".ctxcurateignore", "notes.txt\n");
    git(&p, p.root(), &["add", "-A"]);
    git(
        &p,
        p.root(),
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "one",
        ],
    );
    p.write("src/a.py", "x = 2\n");
    std::fs::remove_file(p.path("src/b.py")).expect("rm");
    p.write("src/c.py", "z = 3\n");
    git(&p, p.root(), &["add", "src/c.py"]);
    p.write("d.py", "w = 4\n");
    p.write("build/e.py", "gen = 5\n");
    p.write("notes.txt", "two\n");
    p
}

fn open(p: &Project) -> Harness {
    Harness::open(p.root(), None, 100, 20).expect("open the TUI")
}

fn preset_paths(p: &Project) -> Vec<String> {
    if !p.path("ctxcurate.toml").exists() {
        return Vec::new();
    }
    let file: ProjectFile = toml::from_str(&p.read("ctxcurate.toml")).expect("parses");
    file.presets
        .get("default")
        .map(|preset| preset.files.iter().map(|f| f.path.clone()).collect())
        .unwrap_or_default()
}

fn status(h: &Harness) -> (String, Level) {
    h.state.status.clone().expect("a status message")
}

#[test]
fn ctrl_g_marks_the_changed_files_in_the_tree_and_again_unmarks_them() {
    let p = repo();
    let mut h = open(&p);
    h.key("ctrl-g");
    let marks = h.state.changed.clone().expect("changed files marked");
    assert_eq!(marks.against, "HEAD");
    assert_eq!(marks.paths, ["d.py", "src/a.py", "src/c.py"]);
    let (text, level) = status(&h);
    assert_eq!(level, Level::Info);
    assert!(
        text.starts_with("3 changed files against HEAD marked ± in the tree · + includes them"),
        "{text}"
    );
    assert!(text.contains("1 deleted file(s) left out"), "{text}");
    h.goto("src/a.py");
    let screen = h.screen();
    insta::assert_snapshot!("changed_marks", screen);
    assert!(screen.contains("src/ ±2"), "{screen}");
    assert!(screen.contains("a.py ±"), "{screen}");
    assert!(!screen.contains("keep.md ±"), "{screen}");
    assert!(preset_paths(&p).is_empty(), "marking edits nothing");

    h.key("ctrl-g");
    assert!(h.state.changed.is_none());
    assert!(!h.screen().contains('±'));
}

#[test]
fn plus_includes_the_changed_files_as_add_changed_does_and_u_undoes_it() {
    let p = repo();
    let mut h = open(&p);
    // The user curated one of them already, in another mode.
    h.goto("src/a.py");
    h.keys("space m");
    assert_eq!(preset_paths(&p), ["src/a.py"]);
    let mode_before = h.state.item_for("src/a.py").map(|i| i.view_mode);

    h.key("+");
    assert_eq!(preset_paths(&p), ["d.py", "src/a.py", "src/c.py"]);
    assert_eq!(
        h.state.item_for("src/a.py").map(|i| i.view_mode),
        mode_before,
        "a file already in keeps its curation"
    );
    let (text, _) = status(&h);
    assert!(
        text.starts_with("included 2 changed files against HEAD (1 already in)"),
        "{text}"
    );
    assert!(h.composed_text().contains("### src/c.py"));
    assert!(h.state.changed.is_some(), "the files are marked too");

    // Pressed again: nothing left to add, nothing written.
    let saved = p.read("ctxcurate.toml");
    h.key("+");
    assert_eq!(p.read("ctxcurate.toml"), saved);
    assert!(status(&h).0.contains("none to add"), "{:?}", status(&h));

    // One undoable step.
    h.key("u");
    assert_eq!(preset_paths(&p), ["src/a.py"]);

    // The same files as the CLI adds on an identical repository.
    let q = repo();
    let out = q.run(&["add", "--changed"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(preset_paths(&q), ["d.py", "src/a.py", "src/c.py"]);
    let p2 = repo();
    let mut h3 = open(&p2);
    h3.key("+");
    assert_eq!(p2.read("ctxcurate.toml"), q.read("ctxcurate.toml"));
}

#[test]
fn outside_a_git_repository_both_keys_say_so_and_change_nothing() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let mut h = open(&p);
    for key in ["ctrl-g", "+"] {
        h.key(key);
        let (text, level) = status(&h);
        assert_eq!(level, Level::Error, "{key}: {text}");
        assert!(text.contains("is not in a git repository"), "{key}: {text}");
        assert!(text.ends_with("(nothing changed)"), "{key}: {text}");
        assert!(h.state.changed.is_none());
        assert!(!p.path("ctxcurate.toml").exists(), "{key} wrote nothing");
    }
}

#[test]
fn hostile_changed_names_are_shown_escaped() {
    let p = repo();
    p.write("evil\u{1b}[31mred.py", "x = 1\n");
    p.write("line\nbreak.py", "x = 1\n");
    let mut h = open(&p);
    h.key("ctrl-g");
    let marks = h.state.changed.clone().expect("marked");
    assert!(
        marks.paths.iter().any(|p| p.starts_with("evil")),
        "{marks:?}"
    );
    let screen = h.screen();
    assert!(!screen.contains('\u{1b}'), "{screen}");
    h.key("+");
    assert!(preset_paths(&p).iter().any(|p| p.starts_with("evil")));
    assert!(!h.screen().contains('\u{1b}'));
}
