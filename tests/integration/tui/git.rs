//! Git in the TUI, through the real keymap and dispatcher: `Ctrl-g` marks
//! the files git sees changed (± in the tree, folders count them), `+`
//! includes them as one undoable step — the same files `ctxcurate add
//! --changed` adds — and outside a git repository both say so and change
//! nothing.

use crate::common;

use common::Project;
use common::git::{git, init, make_stat_dirty, preset_paths};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::Level;

/// One commit (`src/a.py`, `src/b.py`, `keep.md`, a `.gitignore` for
/// `build/`), then `src/a.py` modified, `src/b.py` deleted, `src/c.py`
/// staged, `d.py` untracked, `build/e.py` ignored by git, and
/// `notes.txt` changed but ignored by the project's own
/// `.ctxcurateignore`.
fn repo() -> Project {
    let p = Project::empty();
    init(&p, p.root());
    p.write("src/a.py", "x = 1\n");
    p.write("src/b.py", "y = 1\n");
    p.write("keep.md", "# Keep\n");
    p.write("notes.txt", "one\n");
    p.write(".gitignore", "build/\n");
    p.write(".ctxcurateignore", "notes.txt\n");
    git(&p, p.root(), &["add", "-A"]);
    git(&p, p.root(), &["commit", "-qm", "one"]);
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
    assert!(text.contains("1 deleted file left out"), "{text}");
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

/// A repository's clean and process filters (in `.git/config` and in a
/// file only an include names, chosen by `.gitattributes` and
/// `.git/info/attributes`) never run from `Ctrl-g` or `+`, on a tree git
/// must read in full.
#[test]
fn the_changed_files_keys_run_no_filter_a_repository_configures() {
    let p = repo();
    let marker = p.config_home.path().join("ran");
    let touch = format!("touch '{}'; cat", marker.display());
    let included = p.config_home.path().join("more.cfg");
    std::fs::write(
        &included,
        format!(
            "[filter \"hidden\"]\n\tprocess = \"touch '{}'\"\n",
            marker.display()
        ),
    )
    .expect("write");
    git(&p, p.root(), &["config", "filter.evil.clean", &touch]);
    git(&p, p.root(), &["config", "filter.evil.required", "true"]);
    git(
        &p,
        p.root(),
        &["config", "include.path", &included.display().to_string()],
    );
    p.write(".gitattributes", "*.py filter=evil\n");
    std::fs::create_dir_all(p.path(".git/info")).expect("mkdir");
    std::fs::write(p.path(".git/info/attributes"), "*.md filter=hidden\n").expect("write");
    let mut h = open(&p);
    make_stat_dirty(p.root());
    h.key("ctrl-g");
    let marks = h.state.changed.clone().expect("changed files marked");
    assert_eq!(marks.paths, ["d.py", "src/a.py", "src/c.py"]);
    make_stat_dirty(p.root());
    h.key("+");
    assert_eq!(preset_paths(&p), ["d.py", "src/a.py", "src/c.py"]);
    assert!(!marker.exists(), "a repository filter ran");
}

/// `+` never includes a changed file the preset excludes, and says so.
#[test]
fn plus_leaves_out_the_changed_files_the_preset_excludes() {
    let p = repo();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"keep.md\"]\nexclude = [\"src/c.py\", \"d.*\"]\n",
    );
    let mut h = open(&p);
    h.key("+");
    assert_eq!(preset_paths(&p), ["keep.md", "src/a.py"]);
    let (text, _) = status(&h);
    assert!(
        text.contains("2 changed files the preset excludes left out: src/c.py, d.py"),
        "{text}"
    );
    assert!(!h.composed_text().contains("### src/c.py"));
    assert!(!h.composed_text().contains("### d.py"));
}

/// A `.git` file planted to lead to another repository: both keys say
/// why and change nothing.
#[test]
fn a_gitdir_file_to_another_repository_turns_the_keys_off() {
    let victim = repo();
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write(
        ".git",
        &format!("gitdir: {}\n", victim.path(".git").display()),
    );
    let mut h = open(&p);
    for key in ["ctrl-g", "+"] {
        h.key(key);
        let (text, level) = status(&h);
        assert_eq!(level, Level::Error, "{key}: {text}");
        assert!(
            text.contains("is in a git repository that is not its own"),
            "{key}: {text}"
        );
        assert!(h.state.changed.is_none());
        assert!(!p.path("ctxcurate.toml").exists(), "{key} wrote nothing");
    }
}

/// A tracked credential file git reports as changed (`prod.tfvars`) is
/// neither marked nor included by `+`, and the status line says why.
#[test]
fn plus_never_includes_a_changed_credential_file() {
    let p = repo();
    p.write("prod.tfvars", "db_password = \"old\"\n");
    git(&p, p.root(), &["add", "prod.tfvars"]);
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
            "vars",
            // Only it: `src/c.py` stays staged.
            "--",
            "prod.tfvars",
        ],
    );
    p.write("prod.tfvars", "db_password = \"realpw\"\n");
    let mut h = open(&p);
    h.key("+");
    assert_eq!(preset_paths(&p), ["d.py", "src/a.py", "src/c.py"]);
    let (text, _) = status(&h);
    assert!(
        text.contains("1 changed credential file left out: prod.tfvars"),
        "{text}"
    );
    let marks = h.state.changed.clone().expect("marked");
    assert!(!marks.paths.iter().any(|p| p.ends_with(".tfvars")));
    assert!(!h.composed_text().contains("realpw"));
}
