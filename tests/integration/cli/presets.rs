//! `ctxcurate preset …` and global presets through the real binary.

use crate::common;

use common::{Project, stderr};

#[test]
fn save_apply_rename_delete() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    p.ok(&["preset", "save", "bugfix"]);
    p.ok(&["add", "src/util.c"]);
    assert_eq!(p.ok(&["preset", "list"]), "* bugfix\n  default\n");
    p.ok(&["preset", "apply", "default"]);
    let text = p.ok(&["build"]);
    assert!(text.contains("src/app.py") && !text.contains("src/util.c"));
    let text = p.ok(&["build", "--preset", "bugfix"]);
    assert!(text.contains("src/util.c"));

    p.ok(&["preset", "rename", "bugfix", "parser"]);
    assert_eq!(p.ok(&["preset", "list"]), "* default\n  parser\n");
    let show = p.ok(&["preset", "show", "parser"]);
    assert_eq!(
        show,
        "preset parser (project)\n  src/app.py  [full]\n  src/util.c  [full]\n"
    );
    p.ok(&["preset", "delete", "parser"]);
    assert_eq!(p.ok(&["preset", "list"]), "* default\n");

    for args in [
        &["preset", "apply", "nope"][..],
        &["preset", "rename", "nope", "x"],
        &["preset", "delete", "nope"],
        &["preset", "save", "default"],
    ] {
        let out = p.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn global_presets_are_listed_and_project_ones_override_them() {
    let p = Project::fixture();
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(
        &global,
        r#"
[project]
tokenizer = "cl100k"

[presets.review]
description = "API review"
files = ["src/util.c"]

[presets.notes]
files = ["src/util.c"]

[presets.shared]
files = ["docs/guide.md"]
"#,
    )
    .unwrap();
    p.write(
        "ctxcurate.toml",
        "[presets.shared]\nfiles = [\"src/app.py\"]\n",
    );
    assert_eq!(
        p.ok(&["preset", "list"]),
        "  notes (global)\n  review (global)  — API review\n  shared\n"
    );
    let out = p.run(&["build", "--preset", "review"]);
    assert!(out.status.success());
    assert!(common::stdout(&out).contains("### src/util.c"));
    assert!(stderr(&out).contains("(cl100k)"), "global settings apply");
    assert!(
        p.ok(&["build", "--preset", "shared"])
            .contains("### src/app.py")
    );

    // Editing a global preset copies it into the project; the global file
    // is never written.
    // The user is told: their own preset now lives where the team reads
    // it, and a later edit of the copy says nothing more.
    let before = std::fs::read_to_string(&global).unwrap();
    let out = p.run(&["add", "src/app.py", "--preset", "review"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("note: preset review was your own (global config)")
            && err.contains("copied it whole into ctxcurate.toml"),
        "{err}"
    );
    let out = p.run(&["task", "set", "Review the API.", "--preset", "review"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("note: preset"), "{}", stderr(&out));
    let out = p.run(&["task", "set", "Take notes.", "--preset", "notes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("note: preset notes was your own"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&global).unwrap(), before);
    assert_eq!(
        p.ok(&["preset", "list"]),
        "  notes\n  review  — API review\n  shared\n"
    );
    assert!(!p.read("ctxcurate.toml").contains("cl100k"));
}

#[test]
fn bad_global_config_is_reported_and_the_defaults_keep_working() {
    let p = Project::fixture();
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(&global, "[project\n").unwrap();
    p.ok(&["add", "docs/guide.md"]);
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(err.contains("config.toml:1:"), "{err}");
    assert!(err.contains("global config ignored"), "{err}");
    assert!(common::stdout(&out).contains("### docs/guide.md"));
}

/// A team's file: comments, a team default preset and tokenizer.
const TEAM_FILE: &str = "# the team's presets: keep this comment\n\n\
[project]\nactive_preset = \"default\"   # the team default\ntokenizer = \"cl100k\"\n\n\
[presets.default]\nfiles = [\"src/app.py\"]\n\n\
[presets.tables]\ndescription = \"the tables\"\nfiles = [\"src/util.c\"]\n\
targets = [\"src/util.c\"]\nrepo_map = 500\ntask = \"Fix the tables.\"\n";

/// Applying a preset is the user's own choice: `ctxcurate.toml` keeps its
/// bytes (git sees nothing), the choice holds for the next commands in
/// this checkout, and the team's default is still what a fresh clone gets.
#[test]
fn preset_apply_leaves_the_shared_file_byte_identical() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM_FILE);
    common::git::init_and_commit(&p, p.root(), "team");
    let out = p.ok(&["preset", "apply", "tables"]);
    assert_eq!(
        out,
        "active preset is now tables (for you, in this checkout)\n"
    );
    assert_eq!(p.read("ctxcurate.toml"), TEAM_FILE);
    assert_eq!(
        p.ok(&["preset", "list"]),
        "  default\n* tables  — the tables\n"
    );
    let text = p.ok(&["build"]);
    assert!(text.contains("### src/util.c") && !text.contains("### src/app.py"));
    // Saving a copy makes it active for this user too; the shared file
    // gains the preset, not the switch.
    p.ok(&["preset", "save", "mine"]);
    let text = p.read("ctxcurate.toml");
    assert!(text.starts_with(TEAM_FILE), "{text}");
    assert!(!text[TEAM_FILE.len()..].contains("active_preset"), "{text}");
    assert!(p.ok(&["preset", "list"]).contains("* mine"));
    p.ok(&["preset", "apply", "default"]);
    let status = std::process::Command::new("git")
        .args(["status", "--porcelain", "--", "ctxcurate.toml"])
        .current_dir(p.root())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        " M ctxcurate.toml\n",
        "only the saved preset changed the file"
    );
    common::git::git(&p, p.root(), &["checkout", "--", "ctxcurate.toml"]);
    p.ok(&["preset", "apply", "tables"]);
    p.ok(&["preset", "apply", "default"]);
    let diff = std::process::Command::new("git")
        .args(["diff", "--exit-code", "--stat"])
        .current_dir(p.root())
        .output()
        .unwrap();
    assert!(
        diff.status.success(),
        "switching left a diff: {}",
        String::from_utf8_lossy(&diff.stdout)
    );
}

/// Two clones of one project keep their own active preset.
#[test]
fn two_checkouts_keep_their_own_active_preset() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM_FILE);
    let other = tempfile::tempdir().unwrap();
    for rel in ["ctxcurate.toml", "src/app.py", "src/util.c"] {
        let to = other.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(p.path(rel), to).unwrap();
    }
    p.ok(&["preset", "apply", "tables"]);
    let list = |dir: &std::path::Path| stdout_of(&p.run_in(dir, &["preset", "list"]));
    assert_eq!(list(p.root()), "  default\n* tables  — the tables\n");
    assert_eq!(list(other.path()), "* default\n  tables  — the tables\n");
}

fn stdout_of(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    common::stdout(out)
}

/// A typo gets the nearest name and the list, for `preset apply`,
/// `preset show` and `build -p` alike (one function).
#[test]
fn an_unknown_preset_name_suggests_the_nearest() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM_FILE);
    for args in [
        &["preset", "apply", "tabels"][..],
        &["preset", "show", "tabels"],
        &["build", "-p", "tabels"],
    ] {
        let out = p.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            "ctxcurate: no preset named `tabels`; did you mean `tables`? (presets: default, tables)\n",
            "{args:?}"
        );
    }
    assert_eq!(p.read("ctxcurate.toml"), TEAM_FILE);
}

#[test]
fn preset_show_lists_targets_map_and_task() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM_FILE);
    assert_eq!(
        p.ok(&["preset", "show", "tables"]),
        "preset tables (project)\n  the tables\n  src/util.c  [full]\n  target src/util.c\n  \
         repo map 500 tokens\n  task Fix the tables.\n"
    );
}

/// A state file that does not parse is set aside with a note naming
/// both places; the command works from the team's defaults, and the next
/// choice is saved afresh.
#[test]
fn a_corrupt_state_file_is_moved_aside_not_fatal() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", TEAM_FILE);
    let store = ctxcurate::core::project::PersonalStore::at(
        p.config_home.path().join("state/ctxcurate/checkouts"),
    );
    let file = store.path(p.root());
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "active_preset = [\n").unwrap();
    let out = p.run(&["preset", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(common::stdout(&out), "* default\n  tables  — the tables\n");
    let aside = file.with_extension("toml.bad");
    let err = stderr(&out);
    assert!(
        err.contains("could not be read") && err.contains(&aside.display().to_string()),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&aside).unwrap(),
        "active_preset = [\n"
    );
    p.ok(&["preset", "apply", "tables"]);
    assert!(p.ok(&["preset", "list"]).contains("* tables"));
    assert!(aside.exists(), "the bad file is kept");
}

/// Before the first edit, the active preset exists for `build` (empty):
/// `preset show` shows it as such, `build` says how to fill it; a preset
/// named on the command line must exist.
#[test]
fn the_active_preset_before_its_first_edit() {
    let p = Project::fixture();
    assert_eq!(
        p.ok(&["preset", "show"]),
        "preset default (no files yet; `ctxcurate add PATH` adds some)\n"
    );
    let out = p.run(&["preset", "show", "default"]);
    assert_eq!(out.status.code(), Some(1));
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .starts_with("note: preset default has no files yet: `ctxcurate add PATH` adds some\n"),
        "{}",
        stderr(&out)
    );
    p.ok(&["add", "src/app.py"]);
    p.ok(&["discuss", "add", "hello"]);
    let shown = p.ok(&["preset", "show"]);
    assert!(shown.ends_with("  1 discussion message\n"), "{shown}");
    let out = p.run(&["build"]);
    assert!(!stderr(&out).contains("no files yet"), "{}", stderr(&out));
}

/// One name rule for every way a preset is made: `preset save`, `preset
/// rename` and an edit's `--preset` refuse a right-to-left override or a
/// zero-width space as they refuse ESC (sweep 12, N4), and leave the
/// project file as it was.
#[test]
fn every_command_that_names_a_new_preset_refuses_a_bidi_or_invisible_character() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let before = p.read("ctxcurate.toml");
    for name in ["a\u{202e}b", "a\u{200b}b", "a\u{1b}b"] {
        for args in [
            &["preset", "save", name][..],
            &["preset", "rename", "default", name],
            &["add", "src/util.c", "--preset", name],
        ] {
            let out = p.run(args);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains("invalid preset name"),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    assert_eq!(p.read("ctxcurate.toml"), before);
}
