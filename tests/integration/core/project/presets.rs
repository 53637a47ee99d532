//! The project's presets and settings layers: global under project,
//! copy-on-write of global presets, save-as / rename / delete, and the
//! missing-files check (docs/ARCHITECTURE.md, "core::project").

use std::fs;
use std::path::PathBuf;

use ctxcurate::core::model::{FileItem, TokenizerKind};
use ctxcurate::core::paths::PROJECT_FILE;
use ctxcurate::core::project::{PersonalStore, Project, ProjectError, Scope, load_file};

use crate::common::files::write_project;

/// A global config with a budget, a `shared` and a `review` preset, and a
/// project overriding the tokenizer and `shared`.
fn layered() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let global = dir.path().join("global.toml");
    fs::write(
        &global,
        r#"
[project]
budget = 5000
tokenizer = "cl100k"
mood = "x"

[keymap]
quit = ["q"]

[presets.shared]
description = "global shared"

[presets.review]
description = "global review"
files = ["api.py"]
"#,
    )
    .unwrap();
    let root = dir.path().join("proj");
    fs::create_dir(&root).unwrap();
    write_project(
        &root,
        "[project]\ntokenizer = \"estimate\"\n\n[presets.shared]\ndescription = \"project shared\"\n",
    );
    (dir, global)
}

#[test]
fn project_layers_over_global_over_embedded_defaults() {
    let (dir, global) = layered();
    let root = dir.path().join("proj");
    let project = Project::open_at(&root, Some(&global)).unwrap();

    assert_eq!(project.settings.budget, 5000, "from the global config");
    assert_eq!(project.settings.tokenizer, TokenizerKind::Estimate);
    assert_eq!(project.settings.namespace, "context", "embedded default");
    assert_eq!(
        project.preset_names(),
        [
            ("review".to_string(), Scope::Global),
            ("shared".to_string(), Scope::Project)
        ]
    );
    let (shared, scope) = project.preset("shared").unwrap();
    assert_eq!(
        (shared.description.as_str(), scope),
        ("project shared", Scope::Project)
    );
    // `keymap` belongs to the global config; `mood` is unknown.
    assert_eq!(
        project.warnings,
        [format!("{}: unknown key project.mood", global.display())]
    );

    // Saving writes the project's own layer only.
    project.save().unwrap();
    let saved = load_file(&root.join(PROJECT_FILE)).unwrap().unwrap();
    assert_eq!(saved, project.file);
    assert_eq!(saved.project.get("budget"), None);
    assert!(!saved.presets.contains_key("review"));
    let text = fs::read_to_string(root.join(PROJECT_FILE)).unwrap();
    assert!(!text.contains("5000") && !text.contains("keymap"), "{text}");

    // So a later change to the global config still applies.
    fs::write(&global, "[project]\nbudget = 7000\n").unwrap();
    let again = Project::open_at(&root, Some(&global)).unwrap();
    assert_eq!(again.settings.budget, 7000);
    assert_eq!(again.settings.tokenizer, TokenizerKind::Estimate);
}

#[test]
fn editing_a_global_preset_copies_it_into_the_project() {
    let (dir, global) = layered();
    let root = dir.path().join("proj");
    let mut project = Project::open_at(&root, Some(&global)).unwrap();

    let state = tempfile::tempdir().unwrap();
    let store = PersonalStore::at(state.path());
    project.use_personal(store.clone());
    project.apply("review").unwrap();
    assert_eq!(project.active_preset_name(), "review");
    // The user's own choice: not in the shared file's layer.
    assert_eq!(project.file.project.get_str("active_preset"), None);
    assert_eq!(
        project.file.personal.get_str("active_preset"),
        Some("review")
    );
    assert!(
        !project.file.presets.contains_key("review"),
        "not copied yet"
    );
    assert_eq!(project.active_preset().description, "global review");

    project
        .active_preset_mut()
        .files
        .push(FileItem::new("new.py"));
    let (copy, scope) = project.preset("review").unwrap();
    assert_eq!(scope, Scope::Project);
    let paths: Vec<&str> = copy.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["api.py", "new.py"]);
    assert_eq!(copy.description, "global review");
    assert_eq!(
        project.global.presets["review"].files.len(),
        1,
        "global untouched"
    );

    project.save().unwrap();
    assert!(project.save_personal().unwrap());
    let global_text = fs::read_to_string(&global).unwrap();
    assert!(!global_text.contains("new.py"));
    assert!(
        !fs::read_to_string(&project.path)
            .unwrap()
            .contains("active_preset")
    );
    let mut reopened = Project::open_at(&root, Some(&global)).unwrap();
    assert_eq!(
        reopened.active_preset_name(),
        "default",
        "not without the store"
    );
    reopened.use_personal(store);
    assert_eq!(reopened.active_preset_name(), "review");
    assert_eq!(reopened.active_preset().files.len(), 2);
}

#[test]
fn a_missing_active_preset_is_created_empty_on_first_edit() {
    let dir = tempfile::tempdir().unwrap();
    let mut project = Project::open_at(dir.path(), None).unwrap();
    assert!(!project.exists_on_disk());
    assert_eq!(project.active_preset_name(), "default");
    assert_eq!(project.active_preset(), Default::default());
    assert!(project.preset_names().is_empty());

    project
        .active_preset_mut()
        .files
        .push(FileItem::new("a.py"));
    assert_eq!(
        project.preset_names(),
        [("default".to_string(), Scope::Project)]
    );
    project.save().unwrap();
    assert!(project.exists_on_disk());
    assert_eq!(
        fs::read_to_string(&project.path).unwrap(),
        // No empty `[project]` table (issue 10 §4).
        "[[presets.default.files]]\npath = \"a.py\"\n"
    );
}

#[test]
fn save_as_rename_and_delete() {
    let (dir, global) = layered();
    let root = dir.path().join("proj");
    let mut p = Project::open_at(&root, Some(&global)).unwrap();

    p.apply("shared").unwrap();
    p.save_as("mine").unwrap();
    assert_eq!(p.active_preset_name(), "mine");
    assert_eq!(p.active_preset().description, "project shared");
    assert!(matches!(p.save_as("mine"), Err(ProjectError::PresetExists(n)) if n == "mine"));
    assert!(matches!(
        p.save_as("review"),
        Err(ProjectError::PresetExists(_))
    ));
    assert!(matches!(
        p.save_as("  "),
        Err(ProjectError::InvalidPresetName(_))
    ));
    assert!(matches!(
        p.save_as("a\nb"),
        Err(ProjectError::InvalidPresetName(_))
    ));
    // A name is a key a person picks: 128 characters at most, shown cut
    // in the error (MCP took a 1 MB one; sweep 10, F19).
    let long = "x".repeat(1_000_000);
    match p.save_as(&long) {
        Err(ProjectError::InvalidPresetName(shown)) => assert!(shown.len() < 100, "{shown}"),
        other => panic!("{other:?}"),
    }
    assert!(ctxcurate::core::project::check_preset_name(&"é".repeat(128)).is_ok());
    // A name shows as what it is: no bidi control, no invisible character
    // (the terminal escaping's own classes; sweep 12, N4).
    for name in [
        "a\u{202e}b",
        "a\u{200b}b",
        "a\u{feff}b",
        "a\u{e0041}b",
        "a\u{2028}b",
    ] {
        assert!(
            matches!(p.save_as(name), Err(ProjectError::InvalidPresetName(_))),
            "{name:?}"
        );
    }
    assert!(ctxcurate::core::project::check_preset_name("日本語 🚀").is_ok());

    // Renaming the active preset keeps it active; other renames do not
    // change the active one.
    p.rename("mine", "ours").unwrap();
    assert_eq!(p.active_preset_name(), "ours");
    assert_eq!(p.file.personal.get_str("active_preset"), Some("ours"));
    assert_eq!(p.file.project.get_str("active_preset"), None);
    assert!(p.preset("mine").is_none());
    p.save_as("spare").unwrap();
    p.apply("ours").unwrap();
    p.rename("spare", "extra").unwrap();
    assert_eq!(p.active_preset_name(), "ours");
    assert!(
        matches!(p.rename("review", "r2"), Err(ProjectError::GlobalPreset(n)) if n == "review")
    );
    assert!(matches!(p.rename("nope", "x"), Err(ProjectError::NoSuchPreset(n, _)) if n == "nope"));
    assert!(matches!(
        p.rename("extra", "review"),
        Err(ProjectError::PresetExists(_))
    ));
    assert!(matches!(
        p.apply("nope"),
        Err(ProjectError::NoSuchPreset(..))
    ));
    assert_eq!(
        p.active_preset_name(),
        "ours",
        "a failed apply changes nothing"
    );

    // Deleting the active preset falls back to `default`.
    p.delete("ours").unwrap();
    assert_eq!(p.active_preset_name(), "default");
    assert!(p.preset("ours").is_none());
    assert!(matches!(
        p.delete("review"),
        Err(ProjectError::GlobalPreset(_))
    ));
    assert!(matches!(
        p.delete("ours"),
        Err(ProjectError::NoSuchPreset(..))
    ));
    // Deleting a project preset that hid a global one uncovers it.
    p.delete("shared").unwrap();
    let (shared, scope) = p.preset("shared").unwrap();
    assert_eq!(
        (shared.description.as_str(), scope),
        ("global shared", Scope::Global)
    );

    p.save().unwrap();
    let saved = load_file(&p.path).unwrap().unwrap();
    let names: Vec<&String> = saved.presets.keys().collect();
    assert_eq!(names, ["extra"]);
    assert_eq!(saved.project.get_str("active_preset"), None);
    assert_eq!(p.file.personal.get_str("active_preset"), Some("default"));
}

#[test]
fn missing_files_lists_plain_paths_that_do_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("src")).unwrap();
    fs::write(dir.path().join("src/here.py"), "").unwrap();
    write_project(
        dir.path(),
        r#"[presets.default]
files = ["src/here.py", "src/gone.py", "src/**/*.c", "lib/?.h", "docs/old.md"]
"#,
    );
    let project = Project::open_at(dir.path(), None).unwrap();
    assert_eq!(
        project.missing_files(&project.active_preset()),
        ["src/gone.py", "docs/old.md"]
    );
}
