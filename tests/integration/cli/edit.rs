//! Headless curation through the real binary: `add`, `rm`, `set`, `mask`,
//! `slice`, `view`, `symbols`, `tokens`, and what they leave in
//! `ctxcurate.toml` (round trip, malformed files left untouched).

use crate::common;

use common::{Project, stderr, stdout};
use ctxcurate::core::model::{MaskState, ProjectFile, ViewMode};

fn project_file(p: &Project) -> ProjectFile {
    toml::from_str(&p.read("ctxcurate.toml")).expect("ctxcurate.toml parses")
}

#[test]
fn first_edit_creates_project_file_with_default_preset() {
    let p = Project::fixture();
    assert!(!p.path("ctxcurate.toml").exists());
    let out = p.ok(&["add", "src/app.py", "--mode", "skeleton"]);
    assert!(out.contains("added 1 entry to preset default"), "{out}");
    let f = project_file(&p);
    let item = &f.presets["default"].files[0];
    assert_eq!(item.path, "src/app.py");
    assert_eq!(item.view_mode, ViewMode::Skeleton);
}

#[test]
fn add_from_a_subdirectory_stores_root_relative_paths() {
    let p = Project::fixture();
    p.ok(&["add", "docs/guide.md"]);
    let out = p
        .cmd(&["add", "app.py", "*.c", "."])
        .current_dir(p.path("src"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let paths: Vec<String> = project_file(&p).presets["default"]
        .files
        .iter()
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(paths, ["docs/guide.md", "src/app.py", "src/*.c", "src/**"]);
}

/// The project root itself, however it is written, is the whole project:
/// `**`, as a folder's `dir/**`; adding it again says it is listed.
#[test]
fn add_of_the_root_adds_the_whole_project() {
    let p = Project::fixture();
    p.ok(&["add", "src"]);
    p.ok(&["rm", "src/util.c"]);
    let out = p.ok(&["add", "."]);
    assert_eq!(out, "added 1 entry to preset default: **\n");
    let f = project_file(&p);
    let paths: Vec<&str> = f.presets["default"]
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["src/**", "**"]);
    // As a folder: the exclusions under it go.
    assert!(f.presets["default"].exclude.is_empty());
    let root = p.root().canonicalize().expect("root");
    let name = root
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let up = format!("../{name}");
    let abs = root.to_string_lossy().into_owned();
    for (dir, arg) in [
        (p.root().to_path_buf(), "./"),
        (p.root().to_path_buf(), abs.as_str()),
        (p.root().to_path_buf(), up.as_str()),
        (p.path("src"), ".."),
        (p.path("docs"), "../"),
    ] {
        let out = p.run_in(&dir, &["add", arg]);
        assert!(out.status.success(), "{arg}: {}", stderr(&out));
        assert_eq!(stdout(&out), "added 0 entries to preset default\n", "{arg}");
        assert_eq!(stderr(&out), "note: ** was already listed\n", "{arg}");
    }
    assert_eq!(project_file(&p).presets["default"].files.len(), 2);
    // The build takes every text file once.
    let out = p.ok(&["build"]);
    for file in ["src/app.py", "src/util.c", "docs/guide.md"] {
        assert_eq!(out.matches(&format!("### {file}\n")).count(), 1, "{out}");
    }
    assert_eq!(out.matches("### ").count(), 3, "{out}");
}

#[test]
fn add_refuses_missing_and_outside_paths() {
    let p = Project::fixture();
    let out = p.run(&["add", "nope.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("nope.py: no such file or directory"));
    // There, but not a file: said so, not "no such file".
    let fifo = std::process::Command::new("mkfifo")
        .arg(p.path("pipe"))
        .status();
    if fifo.is_ok_and(|s| s.success()) {
        let out = p.run(&["add", "pipe"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains("pipe: not a regular file"),
            "{}",
            stderr(&out)
        );
    }
    let out = p.run(&["add", "../outside.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("outside the project root"));
    assert!(
        !p.path("ctxcurate.toml").exists(),
        "a failed add must not save"
    );
}

#[test]
fn rm_set_and_flags() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py", "src/util.c", "docs/guide.md"]);
    p.ok(&["rm", "docs/guide.md"]);
    p.ok(&["set", "src/util.c", "--mode", "outline", "--force-full"]);
    p.ok(&[
        "set",
        "src/app.py",
        "--no-aggregate",
        "--mask-default",
        "hide",
    ]);
    let f = project_file(&p);
    let files = &f.presets["default"].files;
    assert_eq!(files.len(), 2);
    assert_eq!(files[1].view_mode, ViewMode::Outline);
    assert!(files[1].force_full);
    assert!(!files[0].auto_aggregate);
    assert_eq!(files[0].mask_default, MaskState::Hide);
    assert_eq!(
        p.ok(&["set", "src/util.c", "--no-force-full"]),
        "src/util.c [outline] in preset default\n"
    );
    assert!(!project_file(&p).presets["default"].files[1].force_full);
    // A file the preset does not take is added by `set`, and it says so.
    assert_eq!(
        p.ok(&["set", "docs/guide.md", "--mode", "summary"]),
        "added docs/guide.md [summary] to preset default\n"
    );
    p.ok(&["rm", "docs/guide.md"]);
    let out = p.run(&["rm", "docs/guide.md"]);
    assert_eq!(out.status.code(), Some(1));
    // A file a glob pulls in is excluded rather than refused.
    p.ok(&["add", "docs/*.md"]);
    p.ok(&["rm", "docs/guide.md"]);
    assert_eq!(
        project_file(&p).presets["default"].exclude,
        ["docs/guide.md"]
    );
    assert!(!p.ok(&["build"]).contains("docs/guide.md"));
}

#[test]
fn mask_checks_the_symbol_and_switches_to_masked() {
    let p = Project::fixture();
    p.ok(&["mask", "src/app.py", "App.run", "sig"]);
    p.ok(&["mask", "src/app.py", "main", "hide"]);
    let f = project_file(&p);
    let item = &f.presets["default"].files[0];
    assert_eq!(item.view_mode, ViewMode::Masked);
    assert_eq!(item.ast_mask["App.run"], MaskState::Sig);
    assert_eq!(item.ast_mask["main"], MaskState::Hide);
    let out = p.run(&["mask", "src/app.py", "App.runn", "def"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("did you mean `App.run`"),
        "{}",
        stderr(&out)
    );
    // `rot` is two edits from `run`: too far for a three-letter name.
    let out = p.run(&["mask", "src/app.py", "App.rot", "def"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no symbol `App.rot` (see `ctxcurate symbols src/app.py`)"),
        "{}",
        stderr(&out)
    );
    let text = p.ok(&["build"]);
    assert!(text.contains("### src/app.py [masked]"));
    assert!(!text.contains("def main"), "{text}");
    assert!(text.contains("def run(self, x: int) -> bool:"), "{text}");
    assert!(!text.contains("return x > 0"), "{text}");
}

/// The first mask on a file shown in full changes only the symbol it
/// names (issue 38): the build keeps every other body, and `mask` says
/// so; switching the mode itself starts from signatures.
#[test]
fn a_first_mask_on_a_full_file_keeps_the_other_bodies() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let full = p.ok(&["build"]);
    let said = p.ok(&["mask", "src/app.py", "App._cache", "hide"]);
    assert_eq!(
        said.trim(),
        "src/app.py: App._cache = hide in preset default (masked view; the other symbols stay in full)"
    );
    let item = project_file(&p).presets["default"].files[0].clone();
    assert_eq!(item.mask_default, MaskState::Def);
    let text = p.ok(&["build"]);
    for kept in ["return x > 0", "App().run(1)", "\"\"\"Run once.\"\"\""] {
        assert!(
            full.contains(kept) && text.contains(kept),
            "{kept}:\n{text}"
        );
    }
    assert!(
        full.contains("return {}") && !text.contains("return {}"),
        "{text}"
    );
    // A second mask changes nothing else.
    let said = p.ok(&["mask", "src/app.py", "main", "sig"]);
    assert_eq!(said.trim(), "src/app.py: main = sig in preset default");
    assert!(p.ok(&["build"]).contains("return x > 0"));
    // Switching the mode itself starts from signatures, and says so.
    p.ok(&["add", "src/util.c"]);
    let said = p.ok(&["set", "src/util.c", "--mode", "masked"]);
    assert_eq!(
        said.trim(),
        "src/util.c [masked] (symbols without a mask of their own: sig) in preset default"
    );
}

#[test]
fn slice_stores_anchors_and_renders() {
    let p = Project::fixture();
    p.ok(&[
        "slice",
        "src/util.c",
        "9",
        "11",
        "--tag",
        "add",
        "--comment",
        "the sum",
    ]);
    let f = project_file(&p);
    let item = &f.presets["default"].files[0];
    assert_eq!(item.view_mode, ViewMode::Custom);
    let s = &item.custom_slices[0];
    assert_eq!((s.start_line, s.end_line), (9, 11));
    assert_eq!(s.anchor_before, ["    int y;", "};", ""]);
    assert!(s.anchor_after.is_empty());
    assert_eq!(s.content_hash.as_ref().map(String::len), Some(64));
    assert_eq!(
        p.ok(&["build"]),
        "## Directory Tree\n\n```\nsrc/\n  util.c\n```\n\n\
         ## Files\n\n### src/util.c [custom]\n\n```c\n--- slice [add] (the sum), lines 9-11 ---\n\
         int add(int a, int b) {\n    return a + b;\n}\n```\n"
    );
    let out = p.run(&["slice", "src/util.c", "5", "99"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("(11 lines)"));
}

#[test]
fn edited_file_makes_slice_stale_not_wrong() {
    let p = Project::fixture();
    p.ok(&["slice", "src/util.c", "9", "11"]);
    p.write("src/util.c", "int add(int a, int b) { return b + a; }\n");
    let text = p.ok(&["build"]);
    assert!(
        text.contains("> note: stale slice (was lines 9-11)"),
        "{text}"
    );
    assert!(!text.contains("return a + b"));
}

#[test]
fn malformed_toml_is_reported_and_left_untouched() {
    let p = Project::fixture();
    let cases = [
        ("[project]\nbudget = \"lots\"\n", "ctxcurate.toml:2:10"),
        ("[project]\nstrategy = auto\n", "ctxcurate.toml:2:"),
        (
            "[presets.default]\n[[presets.default.files]]\npath = \"a\"\nview_mode = \"bogus\"\n",
            "ctxcurate.toml:4:",
        ),
    ];
    for (bad, location) in cases {
        p.write("ctxcurate.toml", bad);
        for args in [
            &["add", "src/app.py"][..],
            &["build"],
            &["preset", "save", "x"],
        ] {
            let out = p.run(args);
            assert_eq!(out.status.code(), Some(1), "{args:?} on {bad:?}");
            let err = stderr(&out);
            assert!(err.contains(location), "{args:?}: {err} lacks {location}");
            assert_eq!(err.trim_end().lines().count(), 1, "one-line reason: {err}");
            assert_eq!(p.read("ctxcurate.toml"), bad, "file must be untouched");
        }
    }
}

#[test]
fn toml_round_trip_keeps_every_field_and_unknown_keys() {
    let p = Project::fixture();
    let original = r#"
[project]
namespace = "ctx"
output_dir = "out"
strategy = "summarize"
summary_only = true
tokenizer = "cl100k"
budget = 5000
format = "xml"
active_preset = "default"
max_messages = 4
include_dirs = ["include"]
shiny_new_setting = 3

[presets.default]
description = "what this is for"
screenshots = ["docs/ui.png"]
exclude = ["src/gen", "**/*_test.py"]

[[presets.default.files]]
path = "src/app.py"
view_mode = "masked"
force_full = true
auto_aggregate = false
mask_default = "sig"
ast_mask = { "App.run" = "def", "App._cache" = "hide" }
pinned = "yes"

[[presets.default.files.custom_slices]]
start_line = 2
end_line = 3
tag = "t"
comment = "c"
content_hash = "abc"
anchor_before = ["x"]
anchor_after = ["y", "z"]

[[presets.default.discussion]]
role = "User"
content = "hello"

[presets.other]
files = ["src/util.c"]
"#;
    p.write("ctxcurate.toml", original);
    let before: ProjectFile = toml::from_str(original).unwrap();
    let out = p.run(&["preset", "apply", "default"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("shiny_new_setting"),
        "unknown keys are reported"
    );
    let after = project_file(&p);
    assert_eq!(after, before);
    assert!(p.read("ctxcurate.toml").contains("shiny_new_setting = 3"));
}

#[test]
fn view_works_without_a_project_file() {
    let p = Project::fixture();
    let full = p.ok(&["view", "src/util.c"]);
    assert_eq!(full, common::UTIL_C);
    let none = p.ok(&["view", "src/util.c", "--mode", "none"]);
    assert_eq!(none, "(context excluded)\n");
    // A Markdown skeleton is its headings.
    let headings = p.ok(&["view", "docs/guide.md", "--mode", "skeleton"]);
    assert_eq!(headings, "# Guide\n");
    p.write("docs/notes.txt", "Read this first. Then more.\n");
    let summary = p.run(&["view", "docs/notes.txt", "--mode", "skeleton"]);
    // No grammar, and too small to summarize: the file is its own summary.
    assert_eq!(stdout(&summary), "Read this first. Then more.\n");
    assert!(stderr(&summary).contains("showing summary"));
    let out = p.run(&["view", "missing.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing.py: file not found"));
    assert!(!p.path("ctxcurate.toml").exists());
}

#[test]
fn symbols_json_has_the_documented_fields() {
    let p = Project::fixture();
    let json: serde_json::Value =
        serde_json::from_str(&p.ok(&["symbols", "src/app.py", "--json"])).unwrap();
    let top = json.as_array().unwrap();
    let app = &top[0];
    for key in [
        "path",
        "name",
        "kind",
        "start_line",
        "end_line",
        "signature",
        "children",
    ] {
        assert!(app.get(key).is_some(), "missing {key} in {app}");
    }
    assert_eq!(app["path"], "App");
    assert_eq!(app["kind"], "class");
    assert_eq!(app["start_line"], 5);
    assert_eq!(app["end_line"], 13);
    let run = &app["children"][0];
    assert_eq!(run["path"], "App.run");
    assert_eq!(run["kind"], "method");
    assert_eq!(run["signature"], "def run(self, x: int) -> bool");
    assert_eq!(top[1]["path"], "main");
    let text = p.ok(&["symbols", "src/util.c"]);
    // The kind is said once: a C tag's path says it already.
    assert!(
        text.contains("\nstruct Point  L") || text.starts_with("struct Point  L"),
        "{text}"
    );
    assert!(!text.contains("struct struct"), "{text}");
    assert!(text.contains("function add"), "{text}");
    // Markdown's symbols are its sections; a file without a grammar has none.
    let sections = p.ok(&["symbols", "docs/guide.md"]);
    assert!(sections.contains("section Guide"), "{sections}");
    p.write("docs/notes.txt", "Read this first.\n");
    let out = p.run(&["symbols", "docs/notes.txt"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn tokens_counts_files_and_total() {
    let p = Project::fixture();
    let out = p.ok(&["tokens", "src/app.py", "src/util.c", "logo.bin"]);
    let count =
        |t: &str| ctxcurate::core::tokens::count(ctxcurate::core::model::TokenizerKind::O200k, t);
    let (a, c) = (count(common::APP_PY), count(common::UTIL_C));
    assert_eq!(
        out,
        format!(
            "{a:>9}  src/app.py\n{c:>9}  src/util.c\n{:>9}  logo.bin (binary file skipped)\n{:>9}  total (o200k)\n",
            "-",
            a + c
        )
    );
    p.ok(&["add", "src/util.c"]);
    let preset = p.ok(&["tokens", "--tokenizer", "estimate"]);
    assert_eq!(
        preset,
        format!(
            "{:>9}  src/util.c\n{:>9}  total (estimate)\n",
            common::UTIL_C.len().div_ceil(4),
            common::UTIL_C.len().div_ceil(4)
        )
    );
}

#[test]
fn rm_of_a_glob_matches_what_add_stored() {
    let p = Project::fixture();
    let run_in_src = |args: &[&str]| {
        let out = p.cmd(args).current_dir(p.path("src")).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    p.ok(&["add", "docs/guide.md"]);
    run_in_src(&["add", "*.py"]);
    assert_eq!(
        project_file(&p).presets["default"].files[1].path,
        "src/*.py"
    );
    run_in_src(&["rm", "*.py"]);
    assert_eq!(project_file(&p).presets["default"].files.len(), 1);
}

#[test]
fn blacklisted_files_are_refused_by_every_edit() {
    let p = Project::fixture();
    p.write("history.toml", "x = 1\n");
    for args in [
        &["add", "history.toml"][..],
        &["set", "history.toml", "--mode", "full"],
        &["slice", "history.toml", "1", "1"],
    ] {
        let out = p.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("never included"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn names_from_files_are_printed_escaped() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.\"evil\\u001b]0;T\\u0007\"]\ndescription = \"\\u001b[2J\"\nfiles = [\"src/app.py\"]\n",
    );
    let out = p.ok(&["preset", "list"]);
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    assert!(out.contains("evil␛]0;T␇"), "{out:?}");
}

/// `add DIR`, `rm DIR` and edits of files a glob includes do what Space and
/// `f` do in the TUI (one `core::curation`).
#[test]
fn folders_and_globbed_files_are_edited_as_in_the_tui() {
    let p = Project::fixture();
    p.ok(&["add", "src"]);
    p.ok(&["rm", "src/util.c"]);
    assert_eq!(project_file(&p).presets["default"].exclude, ["src/util.c"]);
    // Adding the folder again takes the exclusion back.
    let out = p.run(&["add", "src"]);
    assert!(stderr(&out).contains("note: src/** was already listed"));
    let f = project_file(&p);
    assert!(f.presets["default"].exclude.is_empty());
    // Excluded, then added: the exclusion goes, the glob includes it.
    p.ok(&["rm", "src/util.c"]);
    let out = p.run(&["add", "src/util.c"]);
    assert!(
        stderr(&out).contains("note: src/util.c is no longer excluded (a glob includes it)"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("added 0 entries"), "{}", stdout(&out));
    assert_eq!(project_file(&p).presets["default"].files.len(), 1);
    // `set` on a globbed file copies the glob's entry (here `skeleton`).
    p.ok(&["set", "src/**", "--mode", "skeleton"]);
    p.ok(&["set", "src/app.py", "--no-aggregate"]);
    let f = project_file(&p);
    let app = f.presets["default"]
        .item("src/app.py")
        .expect("explicit entry");
    assert_eq!(app.view_mode, ViewMode::Skeleton);
    assert!(!app.auto_aggregate);
    // Back to what the glob gives: the entry goes.
    p.ok(&["set", "src/app.py", "--aggregate"]);
    let paths: Vec<String> = project_file(&p).presets["default"]
        .files
        .iter()
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(paths, ["src/**"]);
    // `add` of a file a glob includes names it, as a copy of the glob's.
    p.ok(&["add", "src/util.c"]);
    let f = project_file(&p);
    assert_eq!(
        f.presets["default"].item("src/util.c").map(|i| i.view_mode),
        Some(ViewMode::Skeleton)
    );
    // The folder out: every entry under it.
    p.ok(&["rm", "src"]);
    assert!(project_file(&p).presets["default"].files.is_empty());
    assert!(project_file(&p).presets["default"].exclude.is_empty());
    let out = p.run(&["rm", "src"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("src is not in preset default"),
        "{}",
        stderr(&out)
    );
    let out = p.run(&["rm", "docs/guide.md"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("docs/guide.md is not in preset default"));
}

/// A file named to `add` that a build would leave out is said at once,
/// with what brings it in; a file it keeps says nothing more.
#[test]
fn add_warns_of_a_file_a_build_leaves_out() {
    let p = Project::fixture();
    let toml = "[project]\nmax_file_size = 4000\n";
    p.write("ctxcurate.toml", toml);
    p.write("big.py", &"x = 1\n".repeat(1000));
    let out = p.run(&["add", "logo.bin", "big.py", "src/app.py"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: logo.bin is binary: a build leaves it out\n\
         warning: big.py is 6000 bytes, over max_file_size (4000): a build leaves it out \
         unless `ctxcurate set big.py --force-full`\n"
    );
    assert_eq!(
        stdout(&out),
        "added 3 entries to preset default: logo.bin, big.py, src/app.py\n"
    );
    p.ok(&["set", "big.py", "--force-full"]);
    let out = p.run(&["add", "big.py"]);
    assert_eq!(stderr(&out), "note: big.py was already listed\n");
    let text = p.ok(&["build"]);
    assert!(text.contains("### big.py\n"), "{text}");
}

/// Unknown keys are named, twenty of them; the rest are counted in one
/// line (500,000 keys made as many warnings, sweep 12 N7), and every one
/// is kept when the file is edited.
#[test]
fn many_unknown_keys_are_named_twenty_and_counted() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write("b.py", "y = 1\n");
    let keys: String = (0..30).map(|i| format!("k{i} = {i}\n")).collect();
    p.write(
        "ctxcurate.toml",
        &format!("[presets.default]\n{keys}[[presets.default.files]]\npath = \"a.py\"\n"),
    );
    let out = p.run(&["add", "b.py"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.matches(": unknown key ").count(), 20, "{err}");
    assert!(err.contains("and 10 more unknown keys"), "{err}");
    let saved = p.read("ctxcurate.toml");
    assert!(
        saved.contains("k0 = 0") && saved.contains("k29 = 29"),
        "{saved}"
    );
}

/// A project file over 4 MiB is refused with a reason, and an edit that
/// would make one is not written: reading one took about 130 bytes of
/// memory per byte (sweep 12, N7), and a file the tool wrote must read
/// back.
#[test]
fn a_project_file_over_its_bound_is_refused_and_never_written() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    let keys: String = (0..600_000).map(|i| format!("k{i} = {i}\n")).collect();
    let big = format!("[presets.default]\n{keys}");
    assert!(big.len() > 4 << 20);
    p.write("ctxcurate.toml", &big);
    for args in [&["stats"][..], &["add", "a.py"]] {
        let out = p.run(args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("larger than 4 MiB"), "{args:?}: {err}");
    }
    assert_eq!(p.read("ctxcurate.toml"), big);

    // Under the bound, an edit that would cross it is refused: saving a
    // copy of a preset of 2.5 MB of entries.
    let entries: String = (0..90_000)
        .map(|i| format!("[[presets.default.files]]\npath = \"f{i}.py\"\n"))
        .collect();
    assert!(entries.len() > 2 << 20 && entries.len() < 4 << 20);
    p.write("ctxcurate.toml", &entries);
    let out = p.run(&["preset", "save", "copy"]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("over the 4 MiB a project file may hold"),
        "{err}"
    );
    assert_eq!(p.read("ctxcurate.toml"), entries);
}
