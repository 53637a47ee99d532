//! Settings in one place: the embedded defaults ← the global config ← the
//! project file, merged as tables and deserialized once; a bad value is an
//! error naming the file, the key and its line (and a project file that
//! fails is never written over); a project's guarded key counts only once
//! the project is trusted.

use crate::common;

use common::{Project, stderr};
use ctxcurate::core::model::{ClipboardMode, Format, TokenizerKind};
use ctxcurate::core::project::{Project as CoreProject, ProjectError};
use ctxcurate::core::trust::{Standing, TrustStore, fingerprint};

#[test]
fn a_bad_value_in_the_project_file_names_file_key_and_line() {
    let p = Project::fixture();
    let text = "# mine\n[project]\nbudget = 5\nclipboard = \"clipboard-please\"\n";
    p.write("ctxcurate.toml", text);

    match CoreProject::open_at(p.root(), None) {
        Err(ProjectError::Parse {
            path,
            line,
            col,
            message,
        }) => {
            assert_eq!(path, p.path("ctxcurate.toml"));
            assert_eq!((line, col), (4, 13), "{message}");
            assert!(
                message.starts_with("unknown variant `clipboard-please`"),
                "{message}"
            );
            assert!(message.ends_with(" (key `project.clipboard`)"), "{message}");
            assert!(
                message.contains("osc52"),
                "lists the valid values: {message}"
            );
        }
        other => panic!("expected a parse error, got {other:?}"),
    }

    // The binary says the same, and an edit does not touch the file.
    let out = p.run(&["add", "src/app.py"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("ctxcurate.toml:4:13: unknown variant"),
        "{err}"
    );
    assert!(err.contains("(key `project.clipboard`)"), "{err}");
    assert_eq!(p.read("ctxcurate.toml"), text);
}

#[test]
fn a_wrong_type_is_an_error_too() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", "[project]\nbudget = \"lots\"\n");
    let err = CoreProject::open_at(p.root(), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with(
            "ctxcurate.toml:2:10: invalid type: string \"lots\", expected usize \
             (key `project.budget`)"
        ),
        "{err}"
    );
}

#[test]
fn a_bad_value_in_the_global_config_names_file_key_and_line() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", "[project]\nbudget = 7\n");
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(
        &global,
        "[project]\nformat = \"xml\"\n\ntokenizer = \"gpt2\"\n",
    )
    .unwrap();

    let project = CoreProject::open_at(p.root(), Some(&global)).unwrap();
    let warning = project
        .warnings
        .iter()
        .find(|w| w.contains("tokenizer"))
        .unwrap_or_else(|| panic!("{:?}", project.warnings));
    let at = format!("{}:4:13: unknown variant `gpt2`", global.display());
    assert!(warning.starts_with(&at), "{warning}");
    assert!(warning.contains("(key `project.tokenizer`)"), "{warning}");
    assert!(warning.contains("o200k"), "{warning}");
    // The broken global file is left out as a whole; the defaults and the
    // project's own values apply.
    assert_eq!(project.settings.tokenizer, TokenizerKind::O200k);
    assert_eq!(project.settings.format, Format::Markdown);
    assert_eq!(project.settings.budget, 7);

    // The binary reports it and still works.
    p.ok(&["add", "src/app.py"]);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(":4:13: unknown variant `gpt2`"), "{err}");
    assert!(err.contains("(key `project.tokenizer`)"), "{err}");
}

#[test]
fn defaults_then_global_then_project() {
    let p = Project::fixture();
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(
        &global,
        "[project]\nbudget = 5\nformat = \"xml\"\nclipboard = \"osc52\"\nignore = [\"g\"]\n",
    )
    .unwrap();
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 7\nignore = [\"p\"]\nfuture_key = 1\n",
    );
    let project = CoreProject::open_at(p.root(), Some(&global)).unwrap();
    let s = &project.settings;
    assert_eq!(s.budget, 7, "project over global");
    let ignore: Vec<&str> = s.ignore.iter().map(|p| p.as_str()).collect();
    assert_eq!(ignore, ["p"], "a list is replaced, not appended");
    assert_eq!(s.format, Format::Xml, "global over defaults");
    assert_eq!(s.clipboard, ClipboardMode::Osc52);
    assert_eq!(s.tokenizer, TokenizerKind::O200k, "defaults");
    assert_eq!(s.max_file_size, 1_048_576);
    // An unknown key is kept and reported, not an error.
    assert!(
        project
            .warnings
            .iter()
            .any(|w| w.ends_with("unknown key project.future_key")),
        "{:?}",
        project.warnings
    );
}

#[test]
fn a_guarded_key_of_an_untrusted_project_is_ignored() {
    let p = Project::fixture();
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(&global, "[project]\nsummary_timeout = 3\n").unwrap();
    p.write(
        "ctxcurate.toml",
        "[project]\nsummary_command = \"id\"\nallow_outside_root = true\nbudget = 9\n",
    );
    let state = tempfile::tempdir().unwrap();
    let store = TrustStore::at(state.path());

    let untrusted = CoreProject::open_with(p.root(), Some(&global), Some(&store)).unwrap();
    let s = &untrusted.settings;
    assert_eq!(s.summary_command.argv(), None);
    assert!(!s.allow_outside_root);
    assert_eq!((s.budget, s.summary_timeout), (9, 3), "the rest applies");
    let resolved = untrusted.resolve();
    assert_eq!(resolved.standing, Standing::Untrusted);
    assert_eq!(resolved.ignored, ["summary_command", "allow_outside_root"]);

    store
        .grant(p.root(), &fingerprint(&untrusted.file.project))
        .unwrap();
    let trusted = CoreProject::open_with(p.root(), Some(&global), Some(&store)).unwrap();
    assert_eq!(
        trusted.settings.summary_command.argv().unwrap(),
        ["sh", "-c", "id"]
    );
    assert!(trusted.settings.allow_outside_root);
}
