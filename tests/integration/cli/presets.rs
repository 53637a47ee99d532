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
        "  review (global)  — API review\n  shared\n"
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
    let before = std::fs::read_to_string(&global).unwrap();
    p.ok(&["add", "src/app.py", "--preset", "review"]);
    assert_eq!(std::fs::read_to_string(&global).unwrap(), before);
    assert_eq!(
        p.ok(&["preset", "list"]),
        "  review  — API review\n  shared\n"
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
