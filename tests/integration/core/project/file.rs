//! The project file on disk: round trips, located parse errors, atomic
//! saves and root discovery (docs/ARCHITECTURE.md, "core::project").

use std::fs;
use std::path::{Path, PathBuf};

use ctxcurate::core::model::{
    FileItem, Format, MaskState, ProjectFile, Strategy, TokenizerKind, ViewMode,
};
use ctxcurate::core::paths::{PROJECT_FILE, find_root};
use ctxcurate::core::project::{Project, ProjectError, Scope, load_file, save_atomic};

/// A project file naming every field of `core::model`, plus unknown keys at
/// each level a user could put one.
const EVERY_FIELD: &str = r#"
schema = 2

[project]
namespace = "ctx"
output_dir = "out/ctx"
strategy = "summarize"
summary_only = true
tokenizer = "cl100k"
budget = 32000
format = "xml"
active_preset = "bugfix"
max_messages = 4
include_dirs = ["include", "third_party/inc"]
colour = "auto"

[presets.bugfix]
description = "what this composition is for"
screenshots = ["docs/ui.png"]
owner = "me"

[[presets.bugfix.files]]
path = "src/app.py"
view_mode = "masked"
force_full = true
auto_aggregate = false
mask_default = "sig"
ast_mask = { "App.run" = "def", "App._cache" = "hide", "App.go" = "agg" }
pinned = true

[[presets.bugfix.files.custom_slices]]
start_line = 10
end_line = 25
tag = "parser"
comment = "the tokenizer loop"
content_hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
anchor_before = ["def tokenize(self):", "    i = 0"]
anchor_after = ["    return out"]
weight = 3

[[presets.bugfix.files]]
path = "src/**/*.c"
view_mode = "skeleton"

[[presets.bugfix.discussion]]
role = "User"
content = """Why does the "parser" loop
hang on empty input?"""
at = 1700000000

[[presets.bugfix.discussion]]
role = "Compaction"
content = "summary so far"

[presets."review api"]
files = ["api.py"]
"#;

fn write_project(root: &Path, text: &str) -> PathBuf {
    let path = root.join(PROJECT_FILE);
    fs::write(&path, text).unwrap();
    path
}

/// The names in `dir`, but `.ctxcurate` (a save's lock lives there, see
/// [`state_dir_holds_only_the_lock`]).
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".ctxcurate")
        .collect();
    names.sort();
    names
}

#[test]
fn every_field_round_trips_and_unknown_keys_are_kept_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_project(dir.path(), EVERY_FIELD);
    let project = Project::open_at(dir.path(), None).unwrap();

    // Every field was read as itself, not swept into `extra`.
    let s = &project.settings;
    assert_eq!(
        (s.namespace.as_str(), s.output_dir.as_str()),
        ("ctx", "out/ctx")
    );
    assert_eq!(s.strategy, Strategy::Summarize);
    assert!(s.summary_only);
    assert_eq!(s.tokenizer, TokenizerKind::Cl100k);
    assert_eq!((s.budget, s.max_messages), (32000, 4));
    assert_eq!(s.format, Format::Xml);
    assert_eq!(s.include_dirs, ["include", "third_party/inc"]);
    assert_eq!(project.active_preset_name(), "bugfix");
    let preset = project.active_preset();
    assert_eq!(preset.description, "what this composition is for");
    assert_eq!(preset.screenshots, ["docs/ui.png"]);
    let app = &preset.files[0];
    assert_eq!(app.view_mode, ViewMode::Masked);
    assert!(app.force_full && !app.auto_aggregate);
    assert_eq!(app.mask_default, MaskState::Sig);
    assert_eq!(app.ast_mask["App.go"], MaskState::Agg);
    assert_eq!(app.ast_mask["App._cache"], MaskState::Hide);
    let slice = &app.custom_slices[0];
    assert_eq!((slice.start_line, slice.end_line), (10, 25));
    assert_eq!(slice.tag.as_deref(), Some("parser"));
    assert_eq!(slice.comment.as_deref(), Some("the tokenizer loop"));
    assert_eq!(slice.content_hash.as_deref().map(str::len), Some(64));
    assert_eq!(slice.anchor_before.len(), 2);
    assert_eq!(slice.anchor_after, ["    return out"]);
    assert_eq!(preset.files[1].view_mode, ViewMode::Skeleton);
    assert_eq!(preset.discussion[0].role, "User");
    assert!(
        preset.discussion[0]
            .content
            .contains("\"parser\" loop\nhang")
    );
    assert_eq!(preset.discussion[1].role, "Compaction");
    let (review, scope) = project.preset("review api").unwrap();
    assert_eq!(
        (review.files[0].path.as_str(), scope),
        ("api.py", Scope::Project)
    );

    let shown = path.display();
    let expected: Vec<String> = [
        "schema",
        "project.colour",
        "presets.bugfix.owner",
        "presets.bugfix.files[0].pinned",
        "presets.bugfix.files[0].custom_slices[0].weight",
        "presets.bugfix.discussion[0].at",
    ]
    .iter()
    .map(|k| format!("{shown}: unknown key {k}"))
    .collect();
    assert_eq!(project.warnings, expected);

    // Save, reload: the same file, unknown keys included.
    project.save().unwrap();
    let saved = fs::read_to_string(&path).unwrap();
    let reloaded = load_file(&path).unwrap().unwrap();
    assert_eq!(reloaded, project.file);
    assert_eq!(reloaded.extra["schema"].as_integer(), Some(2));
    assert_eq!(
        reloaded.presets["bugfix"].files[0].extra["pinned"].as_bool(),
        Some(true)
    );
    // A save edits the text: the hand-written layout is what was loaded.
    assert_eq!(saved, EVERY_FIELD);
    // Deterministic: saving what was loaded from the saved text changes
    // no byte, and a fresh layout of it reads back the same.
    let again = Project::open_at(dir.path(), None).unwrap();
    again.save().unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), saved);
    save_atomic(&path, &reloaded).unwrap();
    assert_eq!(load_file(&path).unwrap().unwrap(), reloaded);
    assert_eq!(files_in(dir.path()), [PROJECT_FILE]);
    state_dir_holds_only_the_lock(dir.path());
}

/// The only thing a save adds to the user's tree is `.ctxcurate/` with its
/// lock file and a `.gitignore` keeping it out of git.
fn state_dir_holds_only_the_lock(root: &Path) {
    let mut names: Vec<String> = fs::read_dir(root.join(".ctxcurate"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".gitignore", "lock"]);
}

#[test]
fn saved_text_is_readable_toml_without_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let mut file = ProjectFile::default();
    file.project.set("budget", 5000);
    let mut item = FileItem::new("src/app.py");
    item.view_mode = ViewMode::Outline;
    file.presets.entry("b".into()).or_default().files = vec![item, FileItem::new("README.md")];
    file.presets.entry("a".into()).or_default().description = "first".into();
    let path = dir.path().join(PROJECT_FILE);
    save_atomic(&path, &file).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        r#"[project]
budget = 5000

[presets.a]
description = "first"

[[presets.b.files]]
path = "src/app.py"
view_mode = "outline"

[[presets.b.files]]
path = "README.md"
"#
    );
}

/// (file text, line, column, part of the message)
const MALFORMED: &[(&str, usize, usize, &str)] = &[
    // Syntax: the table header is never closed.
    (
        "[project]\nbudget = 1\n[presets.a\n",
        3,
        11,
        "unclosed table",
    ),
    // Wrong type.
    (
        "[project]\nnamespace = \"x\"\nbudget = \"x\"\n",
        3,
        10,
        "invalid type: string \"x\"",
    ),
    // Bad enum value in a files table.
    (
        "[presets.a]\n\n[[presets.a.files]]\npath = \"x.py\"\nview_mode = \"bogus\"\n",
        5,
        13,
        "unknown variant `bogus`",
    ),
    // Bad enum value in an inline entry; columns count characters.
    (
        "[presets.a]\nfiles = [\"é.py\", { path = \"ü.py\", view_mode = \"bogus\" }]\n",
        2,
        47,
        "unknown variant `bogus`",
    ),
    // Bad mask state.
    (
        "[[presets.a.files]]\npath = \"x.py\"\nast_mask = { \"A.run\" = \"full\" }\n",
        3,
        24,
        "unknown variant `full`",
    ),
    // Wrong type inside a slice.
    (
        "[[presets.a.files]]\npath = \"x\"\n[[presets.a.files.custom_slices]]\nstart_line = \"q\"\nend_line = 2\n",
        4,
        14,
        "invalid type",
    ),
    // A key given twice.
    ("[project]\nbudget = 1\nbudget = 2\n", 3, 1, "duplicate key"),
];

#[test]
fn malformed_files_name_line_and_column_and_are_never_touched() {
    for (i, (text, line, col, fragment)) in MALFORMED.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_project(dir.path(), text);
        let err = Project::open_at(dir.path(), None).expect_err(text);
        match &err {
            ProjectError::Parse {
                path: p,
                line: l,
                col: c,
                message,
            } => {
                assert_eq!(p, &path, "case {i}");
                assert_eq!((*l, *c), (*line, *col), "case {i}: {err}");
                assert!(message.contains(fragment), "case {i}: {message}");
            }
            other => panic!("case {i}: expected a parse error, got {other:?}"),
        }
        let shown = err.to_string();
        assert!(
            shown.starts_with(&format!("{}:{line}:{col}: ", path.display())),
            "case {i}: {shown}"
        );
        assert!(!shown.contains('\n'), "case {i}: one line: {shown}");
        // Nothing was written: same bytes, no temporary files.
        assert_eq!(fs::read_to_string(&path).unwrap(), *text, "case {i}");
        assert_eq!(files_in(dir.path()), [PROJECT_FILE], "case {i}");
    }
}

#[test]
fn a_malformed_global_config_is_reported_and_the_defaults_apply() {
    let dir = tempfile::tempdir().unwrap();
    let global = dir.path().join("global.toml");
    fs::write(&global, "[project]\ntokenizer = \"gpt2\"\n").unwrap();
    let project = Project::open_at(dir.path(), Some(&global)).unwrap();
    assert!(
        project.warnings.iter().any(|w| w.starts_with(&format!(
            "{}:2:13: unknown variant `gpt2`",
            global.display()
        ))),
        "{:?}",
        project.warnings
    );
    assert_eq!(
        project.settings,
        ctxcurate::core::model::Settings::default()
    );
    assert_eq!(
        fs::read_to_string(&global).unwrap(),
        "[project]\ntokenizer = \"gpt2\"\n"
    );
}

#[test]
fn find_root_from_a_nested_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap().join("proj");
    let nested = root.join("src/pkg/deep");
    fs::create_dir_all(&nested).unwrap();
    write_project(&root, "[project]\nbudget = 42\n");
    assert_eq!(find_root(&nested), root);
    let project = Project::open_at(&find_root(&nested), None).unwrap();
    assert_eq!(project.path, root.join(PROJECT_FILE));
    assert_eq!(project.settings.budget, 42);
}

#[test]
fn save_into_a_missing_directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/dir").join(PROJECT_FILE);
    let err = save_atomic(&path, &ProjectFile::default()).unwrap_err();
    assert!(matches!(err, ProjectError::Io { .. }), "{err:?}");
    assert!(std::error::Error::source(&err).is_some());
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

#[cfg(unix)]
mod unix {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn save_keeps_permissions_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_project(dir.path(), "[project]\nbudget = 1\n");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let mut project = Project::open_at(dir.path(), None).unwrap();
        project.file.project.set("budget", 2);
        project.save().unwrap();
        assert_eq!(mode(&path), 0o640);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "[project]\nbudget = 2\n"
        );
        assert_eq!(files_in(dir.path()), [PROJECT_FILE]);

        fs::set_permissions(&path, fs::Permissions::from_mode(0o604)).unwrap();
        project.save().unwrap();
        assert_eq!(mode(&path), 0o604);
    }

    #[test]
    fn a_new_file_gets_ordinary_permissions() {
        let dir = tempfile::tempdir().unwrap();
        // What the umask gives any new file here.
        let probe = dir.path().join("probe");
        fs::write(&probe, "").unwrap();
        let path = dir.path().join(PROJECT_FILE);
        save_atomic(&path, &ProjectFile::default()).unwrap();
        assert_eq!(mode(&path), mode(&probe));
        assert_eq!(files_in(dir.path()), [PROJECT_FILE, "probe"]);
    }

    #[test]
    fn a_project_file_linked_inside_the_root_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        fs::create_dir_all(root.join("conf")).unwrap();
        let shared = root.join("conf/shared.toml");
        fs::write(&shared, "[project]\nbudget = 1\n").unwrap();
        symlink(&shared, root.join(PROJECT_FILE)).unwrap();

        let mut project = Project::open_at(&root, None).unwrap();
        assert_eq!(project.settings.budget, 1);
        project.file.project.set("budget", 9);
        project.save().unwrap();
        let link = fs::symlink_metadata(root.join(PROJECT_FILE)).unwrap();
        assert!(link.file_type().is_symlink());
        assert_eq!(
            fs::read_to_string(&shared).unwrap(),
            "[project]\nbudget = 9\n"
        );
        assert_eq!(files_in(&root), ["conf", PROJECT_FILE]);
    }

    #[test]
    fn a_project_file_linked_out_of_the_root_is_read_but_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("shared.toml");
        fs::write(&shared, "[project]\nbudget = 1\n").unwrap();
        let root = dir.path().join("proj");
        fs::create_dir(&root).unwrap();
        symlink(&shared, root.join(PROJECT_FILE)).unwrap();

        let mut project = Project::open_at(&root, None).unwrap();
        assert_eq!(project.settings.budget, 1);
        project.file.project.set("budget", 9);
        let err = project.save().unwrap_err();
        assert!(err.to_string().contains("outside the project"), "{err}");
        assert_eq!(
            fs::read_to_string(&shared).unwrap(),
            "[project]\nbudget = 1\n"
        );
        assert_eq!(files_in(dir.path()), ["proj", "shared.toml"]);
    }
}
