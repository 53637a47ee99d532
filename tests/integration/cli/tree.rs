//! The directory tree before the files (`[project] tree`, `build --tree`),
//! run as the real binary: exact trees on a fixture in every mode and
//! format, the setting and its override, the gauge counting it, hostile
//! names, and a real tree (a package of the Python standard library).

use crate::common;
use crate::common::machine;

use std::path::Path;

use common::{Project, stderr, stdout};
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::tokens;

fn fixture() -> Project {
    let p = Project::fixture();
    p.write("src/core/deep/x.py", "x = 1\n");
    p.ok(&["add", "src/app.py", "docs/guide.md", "src/core/deep/x.py"]);
    p
}

const INCLUDED: &str = "## Directory Tree\n\n```\ndocs/\n  guide.md\nsrc/\n  core/deep/\n    x.py\n  app.py\n```\n\n## Files\n\n### docs/guide.md\n";

#[test]
fn included_is_the_default_a_compact_tree_before_the_files() {
    let p = fixture();
    let text = p.ok(&["build"]);
    assert!(text.starts_with(INCLUDED), "{text}");
    assert_eq!(text.matches("## Directory Tree").count(), 1);
}

#[test]
fn all_shows_the_walked_project_and_none_shows_no_tree() {
    let p = fixture();
    let all = p.ok(&["build", "--tree", "all"]);
    // util.c and logo.bin are in the project, not in the context;
    // ctxcurate.toml is a built-in ignore.
    assert!(
        all.starts_with(
            "## Directory Tree\n\n```\ndocs/\n  guide.md\nsrc/\n  core/deep/\n    x.py\n  app.py\n  util.c\nlogo.bin\n```\n\n## Files\n\n"
        ),
        "{all}"
    );
    assert!(!all.contains("### src/util.c"), "{all}");
    let none = p.ok(&["build", "--tree", "none"]);
    assert!(
        none.starts_with("## Files\n\n### docs/guide.md\n"),
        "{none}"
    );
    assert_eq!(
        all.split_once("## Files").map(|(_, rest)| rest),
        none.split_once("## Files").map(|(_, rest)| rest),
        "the files are the same"
    );
}

/// The tree names what the model is about to read: an included file left
/// out (binary, over `max_file_size`), one that cannot be read (deleted)
/// and one listed by name only are not in the
/// `included` tree, in either format; a file in the `none` view is (its
/// block says its content is left out). `all` still shows the project.
#[test]
fn skipped_unreadable_and_listed_only_files_are_not_in_the_included_tree() {
    let p = fixture();
    let toml = p.read("ctxcurate.toml");
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nmax_file_size = 4000\n\n{toml}"),
    );
    p.write("src/big.py", &"x = 1\n".repeat(1000));
    p.write("src/listed.py", "y = 2\n");
    p.ok(&[
        "add",
        "logo.bin",
        "src/big.py",
        "src/listed.py",
        "src/util.c",
    ]);
    p.ok(&["set", "src/listed.py", "--no-aggregate"]);
    p.ok(&["set", "src/util.c", "--mode", "none"]);
    // A file deleted after it was added.
    p.write("src/gone.py", "z = 3\n");
    p.ok(&["add", "src/gone.py"]);
    std::fs::remove_file(p.path("src/gone.py")).expect("rm");
    let out = p.run(&["build"]);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "## Directory Tree\n\n```\ndocs/\n  guide.md\nsrc/\n  core/deep/\n    x.py\n  app.py\n  util.c\n```\n\n## Files\n\n"
        ),
        "{text}"
    );
    // Each is still accounted for where it belongs.
    assert!(stderr(&out).contains("logo.bin"), "{}", stderr(&out));
    assert!(text.contains("### src/util.c [none]"), "{text}");
    assert!(
        text.contains("ERROR: file not found: src/gone.py"),
        "{text}"
    );
    assert!(text.contains("- `src/listed.py`"), "{text}");
    let xml = p.ok(&["build", "--format", "xml"]);
    assert!(
        xml.contains(
            "<directory_tree>\ndocs/\n  guide.md\nsrc/\n  core/deep/\n    x.py\n  app.py\n  util.c\n</directory_tree>"
        ),
        "{xml}"
    );
    let all = p.ok(&["build", "--tree", "all"]);
    for name in ["  big.py\n", "  listed.py\n", "logo.bin\n"] {
        assert!(all.contains(name), "{name}: {all}");
    }
}

#[test]
fn the_setting_picks_the_mode_and_the_flag_overrides_it() {
    let p = fixture();
    let toml = p.read("ctxcurate.toml");
    p.write(
        "ctxcurate.toml",
        &format!("[project]\ntree = \"none\"\n\n{toml}"),
    );
    assert!(p.ok(&["build"]).starts_with("## Files\n"));
    assert!(p.ok(&["build", "--tree", "included"]).starts_with(INCLUDED));
    // A bad value names the file, the line and the choices, and builds nothing.
    p.write(
        "ctxcurate.toml",
        &format!("[project]\ntree = \"some\"\n\n{toml}"),
    );
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("ctxcurate.toml:2:"), "{err}");
    assert!(err.contains("`included`, `all`, `none`"), "{err}");
    assert!(stdout(&out).is_empty());
    let out = p.run(&["build", "--tree", "some"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("included, all, none"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_token_total_counts_the_tree() {
    let p = fixture();
    for tree in ["included", "all", "none"] {
        let out = p.run(&["build", "--tree", tree]);
        let n = tokens::count(TokenizerKind::O200k, &stdout(&out));
        assert!(
            stderr(&out).contains(&format!("3 files, {n} tokens (o200k)")),
            "{tree}: {}",
            stderr(&out)
        );
    }
    let with = p.run(&["build"]);
    let without = p.run(&["build", "--tree", "none"]);
    assert!(stdout(&with).len() > stdout(&without).len());
}

#[test]
fn a_packed_build_shows_the_tree_and_holds_its_budget() {
    let p = fixture();
    let included = "docs/\n  guide.md\nsrc/\n  core/deep/\n    x.py\n  app.py\n```";
    let all = "docs/\n  guide.md\nsrc/\n  core/deep/\n    x.py\n  app.py\n  util.c\nlogo.bin\n```";
    for (tree, first) in [("included", included), ("all", all)] {
        let out = p.run(&[
            "build",
            "--target",
            "src/app.py",
            "--budget",
            "400",
            "--tree",
            tree,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.starts_with(&format!("## Directory Tree\n\n```\n{first}")),
            "{tree}: {text}"
        );
        assert!(tokens::count(TokenizerKind::O200k, &text) <= 400);
    }
}

#[test]
fn xml_has_one_root_and_the_tree_before_the_documents() {
    let p = fixture();
    p.write("src/a<b>&c]]>.py", "y = 2\n");
    p.ok(&["add", "src/a<b>&c]]>.py"]);
    for tree in ["included", "all"] {
        let xml = p.ok(&["build", "--format", "xml", "--tree", tree]);
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "documents");
        let children: Vec<&str> = root
            .children()
            .filter(|n| n.is_element())
            .map(|n| n.tag_name().name())
            .collect();
        assert_eq!(
            children,
            [
                "directory_tree",
                "document",
                "document",
                "document",
                "document"
            ],
            "{xml}"
        );
        let tree_text = root
            .first_element_child()
            .and_then(|n| n.text())
            .unwrap_or_default();
        assert!(tree_text.contains("\n  a<b>&c]]>.py\n"), "{tree_text:?}");
    }
}

#[test]
fn hostile_names_stay_one_line_each() {
    let p = fixture();
    p.write("src/x\n## Files\n.py", "z = 3\n");
    p.write("# top.md", "# hi\n");
    p.write("````fence.md", "f\n");
    p.ok(&["add", "src/x\n## Files\n.py", "# top.md", "````fence.md"]);
    let text = p.ok(&["build"]);
    let (tree, _) = text.split_once("\n## Files\n").expect("files section");
    assert!(tree.contains("\n  x␊## Files␊.py\n"), "{tree}");
    assert!(tree.contains("\n./# top.md\n"), "{tree}");
    // The fence outgrows the backticks in a name.
    assert!(tree.starts_with("## Directory Tree\n\n`````\n"), "{tree}");
    assert!(tree.ends_with("\n````fence.md\n`````\n"), "{tree}");
    assert_eq!(text.lines().filter(|l| l.starts_with("## ")).count(), 2);
}

/// A real tree: the `json` and `email` packages of the Python standard
/// library, copied into a project and included with globs. The tree
/// names each file once, under its folders, in as many lines as there are
/// files and folders (no folder chain to join here).
#[test]
fn real_stdlib_packages() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let p = Project::empty();
    let mut files = Vec::new();
    let mut folders = std::collections::BTreeSet::new();
    for pkg in ["json", "email"] {
        copy_py(
            &stdlib.join(pkg),
            &p.path(pkg),
            pkg,
            &mut files,
            &mut folders,
        );
    }
    assert!(files.len() > 20, "{files:?}");
    p.ok(&["add", "json/**", "email/**"]);
    let text = p.ok(&["build", "--strategy", "summarize"]);
    let tree = text
        .strip_prefix("## Directory Tree\n\n```\n")
        .and_then(|t| t.split_once("```\n\n## Files (Summary)\n"))
        .map(|(tree, _)| tree)
        .expect("the tree first");
    assert_eq!(tree.lines().count(), files.len() + folders.len(), "{tree}");
    for file in &files {
        let (dir, name) = file.rsplit_once('/').expect("in a package");
        let depth = dir.matches('/').count() + 1;
        let line = format!("{}{name}", "  ".repeat(depth));
        assert!(tree.lines().any(|l| l == line), "{file}: {tree}");
    }
    assert!(tree.starts_with("email/\n  mime/\n"), "{tree}");
}

fn copy_py(
    from: &Path,
    to: &Path,
    rel: &str,
    files: &mut Vec<String>,
    folders: &mut std::collections::BTreeSet<String>,
) {
    folders.insert(rel.to_string());
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .expect("read stdlib")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if path.is_dir() && name != "__pycache__" {
            copy_py(
                &path,
                &to.join(&name),
                &format!("{rel}/{name}"),
                files,
                folders,
            );
        } else if name.ends_with(".py") {
            std::fs::create_dir_all(to).expect("mkdir");
            std::fs::copy(&path, to.join(&name)).expect("copy");
            files.push(format!("{rel}/{name}"));
        }
    }
}
