//! Saves keep what the user wrote (issue 10 §4): the real binary edits a
//! commented, hand-ordered `ctxcurate.toml`, and the text changes only
//! where the edit is — a one-line edit is a one-line diff — for file
//! entries as `[[…files]]` blocks, as inline tables and as bare paths.

use crate::common;

use common::Project;

/// A hand-written file: comments everywhere, keys out of the model's
/// order, an unknown key, an explicit default, both entry forms.
const HAND: &str = r#"# Context for the parser work — keep this comment!

[presets.bugfix]   # the one we use
# what the model needs to know
description = "parser bugfix"
owner = "me"        # unknown to ctxcurate, kept

# The app itself.
[[presets.bugfix.files]]
view_mode = "masked"          # keys in my order
path = "src/app.py"
ast_mask = { "App.run" = "def", "App._cache" = "hide" }
force_full = false            # an explicit default

[[presets.bugfix.files]]
path = "src/util.c"

[presets.inline]
files = [
    "docs/guide.md",                                # bare path
    { path = "src/util.c", view_mode = "outline" }, # inline table
]

[project]
active_preset = "bugfix"
budget = 32000   # tokens
"#;

/// The lines only in `old` and the lines only in `new`, by a longest
/// common subsequence of lines.
fn line_diff(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let w = b.len() + 1;
    let mut len = vec![0usize; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            len[i * w + j] = if a[i] == b[j] {
                len[(i + 1) * w + j + 1] + 1
            } else {
                len[(i + 1) * w + j].max(len[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut gone, mut came) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && len[(i + 1) * w + j] >= len[i * w + j + 1]) {
            gone.push(a[i].to_string());
            i += 1;
        } else {
            came.push(b[j].to_string());
            j += 1;
        }
    }
    (gone, came)
}

fn hand_project() -> Project {
    let p = Project::fixture();
    p.write("ctxcurate.toml", HAND);
    p
}

/// Run an edit and return what changed in the file.
fn edit(p: &Project, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let before = p.read("ctxcurate.toml");
    p.ok(args);
    line_diff(&before, &p.read("ctxcurate.toml"))
}

#[test]
fn a_one_line_edit_changes_one_line() {
    let p = hand_project();
    let (gone, came) = edit(&p, &["set", "src/util.c", "--mode", "skeleton"]);
    assert_eq!(gone, Vec::<String>::new());
    assert_eq!(came, ["view_mode = \"skeleton\""]);

    // A key written in the file is changed where it is, comment kept.
    let (gone, came) = edit(&p, &["set", "src/app.py", "--mode", "outline"]);
    assert_eq!(gone, ["view_mode = \"masked\"          # keys in my order"]);
    assert_eq!(
        came,
        ["view_mode = \"outline\"          # keys in my order"]
    );
}

#[test]
fn changing_a_mask_changes_its_line() {
    let p = hand_project();
    p.write("src/app.py", common::APP_PY);
    let (gone, came) = edit(&p, &["mask", "src/app.py", "App.run", "hide"]);
    // Already masked: only the inline mask changes, in place.
    assert_eq!(
        gone,
        ["ast_mask = { \"App.run\" = \"def\", \"App._cache\" = \"hide\" }"]
    );
    assert_eq!(
        came,
        ["ast_mask = { \"App.run\" = \"hide\", \"App._cache\" = \"hide\" }"]
    );
}

#[test]
fn adding_and_removing_entries_touch_only_those_entries() {
    let p = hand_project();
    let (gone, came) = edit(&p, &["add", "docs/guide.md"]);
    assert_eq!(gone, Vec::<String>::new());
    let came: Vec<&String> = came.iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        came,
        ["[[presets.bugfix.files]]", "path = \"docs/guide.md\""]
    );

    // Removing the first block leaves the others, comments and all.
    let (gone, _) = edit(&p, &["rm", "src/app.py"]);
    assert!(
        gone.iter().any(|l| l.starts_with("path = \"src/app.py\"")),
        "{gone:?}"
    );
    let text = p.read("ctxcurate.toml");
    assert!(
        text.contains("[presets.bugfix]   # the one we use"),
        "{text}"
    );
    assert!(text.contains("path = \"src/util.c\""), "{text}");
    assert!(text.contains("owner = \"me\""), "{text}");
    // The block, its header and the blank line before the next block: six
    // lines. Its comment stays: nothing the user wrote is lost (DESIGN
    // §13, issue 38).
    assert_eq!(gone.len(), 6, "only the app's block went: {gone:?}");
    assert!(!gone.contains(&"# The app itself.".to_string()), "{gone:?}");
    assert!(text.contains("# The app itself."), "{text}");
}

#[test]
fn inline_and_bare_path_entries_keep_their_form() {
    let p = hand_project();
    let (gone, came) = edit(
        &p,
        &[
            "set",
            "src/util.c",
            "--mode",
            "skeleton",
            "--preset",
            "inline",
        ],
    );
    assert_eq!(
        gone,
        ["    { path = \"src/util.c\", view_mode = \"outline\" }, # inline table"]
    );
    assert_eq!(
        came,
        ["    { path = \"src/util.c\", view_mode = \"skeleton\" }, # inline table"]
    );
    // A bare path that gains a mode becomes an inline table on its line.
    let (gone, came) = edit(
        &p,
        &[
            "set",
            "docs/guide.md",
            "--mode",
            "summary",
            "--preset",
            "inline",
        ],
    );
    assert_eq!(
        gone,
        ["    \"docs/guide.md\",                                # bare path"]
    );
    assert_eq!(
        came,
        [
            "    { path = \"docs/guide.md\", view_mode = \"summary\" },                                # bare path"
        ]
    );
    // A new entry in an inline array is a bare path on its own line, in
    // path order among the explicit entries (core::curation); the comments
    // stay on their lines.
    let (gone, came) = edit(&p, &["add", "src/app.py", "--preset", "inline"]);
    assert_eq!(gone, Vec::<String>::new());
    assert_eq!(came, ["    \"src/app.py\","]);
    assert!(p.read("ctxcurate.toml").contains(
        "# bare path\n    \"src/app.py\",\n    { path = \"src/util.c\", view_mode = \"skeleton\" }, # inline table\n]"
    ));
}

#[test]
fn presets_are_added_and_renamed_in_place() {
    let p = hand_project();
    let (gone, came) = edit(&p, &["preset", "rename", "inline", "docs"]);
    assert_eq!(gone, ["[presets.inline]"]);
    assert_eq!(came, ["[presets.docs]"]);

    // The active preset follows a rename: one key line changes.
    let (gone, came) = edit(&p, &["preset", "rename", "bugfix", "parser"]);
    let mut expected_gone = vec![
        "[presets.bugfix]   # the one we use".to_string(),
        "[[presets.bugfix.files]]".into(),
        "[[presets.bugfix.files]]".into(),
        "active_preset = \"bugfix\"".into(),
    ];
    expected_gone.sort();
    let mut gone = gone;
    gone.sort();
    assert_eq!(gone, expected_gone);
    assert_eq!(came.len(), 4, "{came:?}");
    assert!(came.contains(&"[presets.parser]   # the one we use".to_string()));

    // Saving the active preset as a new one adds it; switching to it is
    // the user's own choice, kept out of the shared file.
    let (gone, came) = edit(&p, &["preset", "save", "copy"]);
    assert_eq!(gone, Vec::<String>::new());
    assert!(came.contains(&"[presets.copy]".to_string()), "{came:?}");
    assert!(
        !came.iter().any(|l| l.contains("active_preset")),
        "{came:?}"
    );
    assert!(p.ok(&["preset", "list"]).contains("* copy"));
    let text = p.read("ctxcurate.toml");
    assert!(text.starts_with("# Context for the parser work — keep this comment!\n"));
    assert!(text.contains("budget = 32000   # tokens"), "{text}");
}

#[test]
fn a_new_file_has_a_clean_layout_without_an_empty_project_table() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    assert_eq!(
        p.read("ctxcurate.toml"),
        "[[presets.default.files]]\npath = \"src/app.py\"\n"
    );
    p.ok(&["set", "src/app.py", "--mode", "skeleton"]);
    assert_eq!(
        p.read("ctxcurate.toml"),
        "[[presets.default.files]]\npath = \"src/app.py\"\nview_mode = \"skeleton\"\n"
    );
}

#[test]
fn an_unchanged_save_changes_no_byte() {
    let p = hand_project();
    // Already listed, same mode: nothing to change.
    p.ok(&["add", "src/util.c", "--preset", "bugfix"]);
    assert_eq!(p.read("ctxcurate.toml"), HAND);
}
