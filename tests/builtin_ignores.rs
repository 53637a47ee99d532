//! Built-in ignores without any `.gitignore`: the exact walked file list,
//! a real `build` of `folder/**` with no binary or oversize error sections
//! (plain and packed), `.ctxcurateignore` ignoring and un-ignoring, and the
//! `[project] ignore`/`unignore` patterns.

mod common;

use common::{Project, stderr, stdout};
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
