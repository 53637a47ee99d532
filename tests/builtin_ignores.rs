//! Built-in ignores without any `.gitignore`: the exact walked file list,
//! a real `build` of `folder/**` with no binary error sections, and
//! `.ctxcurateignore` ignoring and un-ignoring.

mod common;

use common::{Project, stderr, stdout};
use ctxcurate::core::walk::walk_files;

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
    assert!(stderr(&out).contains("1 binary file(s) matched by globs skipped"));
    // Named explicitly, a binary still shows why it is not there.
    p.ok(&["add", "proj/logo.png"]);
    let text = stdout(&p.run(&["build"]));
    assert!(text.contains("binary file skipped"), "{text}");
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
