//! Built-in ignores without any `.gitignore`: the exact walked file list,
//! a real `build` of `folder/**` with no binary or oversize error sections
//! (plain and packed), `.ctxcurateignore` ignoring and un-ignoring, and the
//! `[project] ignore`/`unignore` patterns.

use crate::common;

use common::{Project, machine, stderr, stdout};
use ctxcurate::core::walk::{self, walk_files};

/// A project folder full of what no one wants in a context.
fn noisy() -> Project {
    let p = Project::empty();
    for (rel, text) in [
        ("proj/app.py", "print('hi')\n"),
        ("proj/__pycache__/app.cpython-311.pyc", "x"),
        ("proj/old.pyo", "x"),
        ("proj/node_modules/left-pad/index.js", "x"),
        ("proj/venv/pyvenv.cfg", "home = /usr/bin\n"),
        ("proj/venv/lib/site.py", "x"),
        ("proj/rs/Cargo.toml", "[package]\n"),
        ("proj/rs/src/main.rs", "fn main() {}\n"),
        ("proj/rs/target/debug/out.rs", "x"),
        ("proj/notcargo/target/keep.txt", "kept\n"),
        ("proj/build/gen.py", "x"),
        ("proj/dist/pkg.py", "x"),
        ("proj/.tox/x.py", "x"),
        ("proj/small/Cargo.lock", "# small lock\n"),
        ("ctxcurate.toml", "[project]\n"),
    ] {
        p.write(rel, text);
    }
    p.write("proj/package-lock.json", &"{}\n".repeat(40_000));
    std::fs::write(p.path("proj/logo.png"), b"\x89PNG\0\0\x01").expect("write");
    p
}

#[test]
fn walk_skips_builtin_ignores() {
    let p = noisy();
    assert_eq!(
        walk_files(p.root()),
        [
            "proj/app.py",
            "proj/logo.png",
            "proj/notcargo/target/keep.txt",
            "proj/rs/Cargo.toml",
            "proj/rs/src/main.rs",
            "proj/small/Cargo.lock",
        ]
    );
}

#[test]
fn build_of_a_folder_has_no_binary_error_sections() {
    let p = noisy();
    p.ok(&["add", "proj/**"]);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("ERROR"), "{text}");
    assert!(!text.contains("logo.png"), "{text}");
    assert!(text.contains("### proj/app.py"), "{text}");
    assert!(!text.contains("pyc"), "{text}");
    assert!(
        stderr(&out).contains("warning: skipped 1 file (1 binary): proj/logo.png\n"),
        "{}",
        stderr(&out)
    );
    // Named explicitly, a binary is left out the same way: one note, no
    // error section.
    p.ok(&["add", "proj/logo.png"]);
    let out = p.run(&["build"]);
    let text = stdout(&out);
    assert!(
        !text.contains("ERROR") && !text.contains("logo.png"),
        "{text}"
    );
    assert!(stderr(&out).contains("skipped 1 file (1 binary): proj/logo.png"));
}

#[test]
fn binary_and_oversize_files_are_one_note_in_plain_and_packed_builds() {
    let p = noisy();
    p.write("ctxcurate.toml", "[project]\nmax_file_size = 1000\n");
    p.write("proj/big.txt", &"word ".repeat(400));
    std::fs::write(p.path("proj/data.bin"), b"\0\x01\x02").expect("write");
    p.ok(&["add", "proj/**", "proj/big.txt"]);
    for args in [
        &["build"][..],
        &["build", "--target", "proj/app.py", "--budget", "4000"],
    ] {
        let out = p.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(!text.contains("ERROR"), "{args:?}: {text}");
        assert!(
            !text.contains("big.txt") && !text.contains("data.bin"),
            "{text}"
        );
        assert!(text.contains("print('hi')"), "{args:?}: {text}");
        let err = stderr(&out);
        let notes: Vec<&str> = err.lines().filter(|l| l.contains("skipped")).collect();
        assert_eq!(
            notes,
            [
                "warning: skipped 3 files (2 binary, 1 over max_file_size = 1000; \
              force_full = true on its entry reads it): proj/data.bin, proj/logo.png, \
              proj/big.txt (2000 bytes)"
            ],
            "{args:?}: {err}"
        );
    }
}

#[test]
fn project_ignore_and_unignore_patterns() {
    let p = noisy();
    p.write(
        "ctxcurate.toml",
        "[project]\nignore = [\"*.toml\", \"proj/notcargo/\"]\nunignore = [\"build/\", \"*.pyo\"]\n",
    );
    let project = ctxcurate::core::project::Project::open_at(p.root(), None).expect("open");
    let patterns = walk::WalkPatterns::from_settings(&project.settings);
    assert_eq!(
        walk::walk_files_with(p.root(), &patterns),
        [
            "proj/app.py",
            "proj/build/gen.py",
            "proj/logo.png",
            "proj/old.pyo",
            "proj/rs/src/main.rs",
            "proj/small/Cargo.lock",
        ]
    );
    // The binary applies them to globs.
    p.ok(&["add", "proj/**/*.py"]);
    let text = p.ok(&["build"]);
    assert!(text.contains("### proj/build/gen.py"), "{text}");
    assert!(!text.contains("venv"), "{text}");
}

/// Every walk a command makes honours the patterns: the whole-project tree
/// (`tree = "all"`), which a build walks by itself, and removing a folder.
#[test]
fn project_ignore_patterns_reach_every_walk() {
    let p = noisy();
    p.write(
        "ctxcurate.toml",
        "[project]\ntree = \"all\"\nignore = [\"proj/small/\"]\nunignore = [\"build/\"]\n",
    );
    p.ok(&["add", "proj/app.py", "proj/build/gen.py"]);
    let text = p.ok(&["build"]);
    let tree = text.split("## Files").next().unwrap_or_default();
    assert!(
        tree.contains("gen.py"),
        "unignored file in the tree:\n{tree}"
    );
    assert!(
        !tree.contains("Cargo.lock"),
        "ignored file in the tree:\n{tree}"
    );
    // `rm` of a folder removes the files the walk shows there.
    p.ok(&["rm", "proj/build"]);
    let text = p.ok(&["build"]);
    assert!(!text.contains("### proj/build/gen.py"), "{text}");
}

#[test]
fn ctxcurateignore_ignores_and_unignores() {
    let p = noisy();
    p.write(".ctxcurateignore", "!build/\n*.png\n");
    let files = walk_files(p.root());
    assert!(
        files.contains(&"proj/build/gen.py".to_string()),
        "{files:?}"
    );
    assert!(!files.contains(&"proj/logo.png".to_string()), "{files:?}");
    assert!(
        !files.iter().any(|f| f.contains("node_modules")),
        "{files:?}"
    );
}

/// Copy the tree at `from` to `to` (regular files and folders only).
fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let kind = entry.file_type().expect("file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every file under `dir` as a `/`-separated path relative to `base`.
fn files_under(base: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let entry = entry.expect("entry");
        if entry.file_type().expect("file type").is_dir() {
            files_under(base, &entry.path(), out);
        } else {
            let rel = entry.path().strip_prefix(base).expect("inside").to_owned();
            out.push(walk::rel_string(&rel));
        }
    }
}

/// A real untidy tree: pip's installed package (with its real
/// `__pycache__/*.pyc`, vendored `.exe` launchers, `cacert.pem`) next to a
/// virtualenv, `node_modules`, `build/`, `dist/` and an oversize file.
/// `build` of `**` gives exactly pip's text files, in full, and one note
/// for the binaries and the big file.
#[test]
fn a_real_untidy_tree_composes_only_its_text() {
    let Some(pip) = machine::pip() else {
        return;
    };
    let p = Project::empty();
    copy_tree(&pip, &p.path("src/pip"));
    for (rel, text) in [
        ("src/pip/__pycache__/fake.cpython-311.pyc", "x"),
        (".venv/pyvenv.cfg", "home = /usr/bin\n"),
        (".venv/lib/python3.11/site-packages/six.py", "x = 1\n"),
        ("env/pyvenv.cfg", "home = /usr/bin\n"),
        ("env/lib/site.py", "x = 1\n"),
        ("node_modules/left-pad/index.js", "module.exports = 1;\n"),
        ("build/lib/pip/__init__.py", "x = 1\n"),
        ("dist/pip-24.2.tar.gz", "x"),
    ] {
        p.write(rel, text);
    }
    p.write("src/pip/huge.txt", &"0123456789\n".repeat(100_000));

    // What should be there: pip's files, minus caches, credentials,
    // binaries and the file over 1 MiB.
    let mut all = Vec::new();
    files_under(p.root(), &p.path("src/pip"), &mut all);
    let (mut binary, mut expected) = (Vec::new(), Vec::new());
    for rel in all {
        let bytes = std::fs::read(p.path(&rel)).expect("read");
        if rel.contains("/__pycache__/") || rel.ends_with(".pyc") || walk::is_sensitive(&rel) {
            continue;
        }
        if bytes[..bytes.len().min(8000)].contains(&0) {
            binary.push(rel);
        } else if bytes.len() > 1024 * 1024 {
            assert_eq!(rel, "src/pip/huge.txt");
        } else {
            expected.push(rel);
        }
    }
    assert!(expected.len() > 300, "{}", expected.len());
    assert!(!binary.is_empty(), "pip vendors .exe launchers");

    p.ok(&["add", "**"]);
    // XML, so a file's name is told from its content's `###` lines.
    let out = p.run(&["build", "--tokenizer", "estimate", "--format", "xml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut sources: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("<source>")?.strip_suffix("</source>"))
        .map(str::to_owned)
        .collect();
    sources.sort();
    expected.sort();
    let extra: Vec<&String> = sources.iter().filter(|s| !expected.contains(s)).collect();
    let missing: Vec<&String> = expected.iter().filter(|s| !sources.contains(s)).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "extra {extra:?}, missing {missing:?}"
    );
    assert_eq!(sources.len(), expected.len(), "no file twice");
    assert!(
        !text.contains("<document_content>\nERROR: "),
        "an error section"
    );
    let err = stderr(&out);
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("skipped")).collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(
        notes[0].starts_with(&format!(
            "warning: skipped {} files ({} binary, 1 over max_file_size = 1048576; ",
            binary.len() + 1,
            binary.len()
        )),
        "{err}"
    );
}

/// In the TUI, including a binary adds nothing: the gauge's estimate
/// counts it as 0 tokens (not an error block) and the composed text,
/// which `y` copies, leaves it out.
#[test]
fn the_tui_gauge_counts_a_binary_as_nothing() {
    let p = Project::fixture();
    let mut h = ctxcurate::tui::run::harness::Harness::open(p.root(), None, 120, 24).expect("open");
    h.goto("src/app.py");
    h.key("space");
    let before = h.state.composition.gauge.used;
    h.goto("logo.bin");
    let effects = h.press("space");
    assert!(h.state.is_included("logo.bin"));
    h.run(effects);
    assert_eq!(
        h.state
            .composition
            .block_tokens
            .get("logo.bin")
            .map(|(_, n)| *n),
        Some(0)
    );
    assert_eq!(
        h.state.composition.gauge.used, before,
        "the exact total is unchanged"
    );
    let text = h.composed_text();
    assert!(
        text.contains("### src/app.py") && !text.contains("logo.bin"),
        "{text}"
    );
}
