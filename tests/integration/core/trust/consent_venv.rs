//! Consent to a command run by the Python of a real virtual environment
//! inside the project (`python3 -m venv`, with pip and, before Python
//! 3.12, setuptools' distutils shim): trusted as it is, withdrawn by an
//! edit to what its Python runs as it starts.

use super::consent::{assert_consent_lapsed, hostile};
use crate::common::{Project, stderr};
use std::path::PathBuf;
use std::process::Command;

/// A project whose command runs `tools/s.py` with the Python of a fresh
/// `.venv`, and that environment's `site-packages`; `None` (the test
/// says so) where this Python cannot make one.
fn venv_project(script: &str) -> Option<(Project, PathBuf)> {
    let p = Project::empty();
    let made = Command::new("python3")
        .args(["-m", "venv", ".venv"])
        .current_dir(p.root())
        .output();
    if !made.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 -m venv failed here");
        return None;
    }
    let lib = p.path(".venv/lib");
    let site = std::fs::read_dir(&lib)
        .ok()?
        .flatten()
        .map(|e| e.path().join("site-packages"))
        .find(|s| s.is_dir())?;
    hostile(&p, ".venv/bin/python tools/s.py");
    p.write("tools/s.py", script);
    Some((p, site))
}

/// Session 27: a fresh Python 3.11 environment was refused (setuptools'
/// shim was read into pip's code). Trusted now; a `.pth` file added, or
/// the shim's module edited, withdraws the consent.
#[test]
fn a_fresh_virtualenv_running_a_script_is_trusted() {
    let Some((p, site)) = venv_project("import sys\nprint('SUMMARY', sys.stdin.read()[:5])\n")
    else {
        return;
    };
    let shown = p.ok(&["trust", "--yes"]);
    assert!(shown.contains("runs tools/s.py (content"), "{shown}");
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("ignoring summary_command"),
        "{}",
        stderr(&out)
    );
    let pwned = p.path("pwned.txt").display().to_string();
    std::fs::write(
        site.join("zz.pth"),
        format!("import os; open({pwned:?}, 'w')\n"),
    )
    .unwrap();
    assert_consent_lapsed(&p, "a .pth file added to the environment");

    let hack = site.join("_distutils_hack/__init__.py");
    if !hack.is_file() {
        eprintln!("no setuptools shim in this Python's environments");
        return;
    }
    std::fs::remove_file(site.join("zz.pth")).unwrap();
    p.ok(&["trust", "--yes"]);
    let mut text = std::fs::read_to_string(&hack).unwrap();
    text.push_str(&format!("\nopen({pwned:?}, 'w')\n"));
    std::fs::write(&hack, text).unwrap();
    // Read as any module now, it leads into pip: refused outright.
    p.ok(&["cache", "clear"]);
    let out = p.run(&["build"]);
    assert!(!p.path("pwned.txt").exists(), "the edited shim ran");
    assert!(
        stderr(&out).contains("ignoring summary_command"),
        "{}",
        stderr(&out)
    );
}

/// The shim's module as a release ships it is covered, not read into
/// setuptools; edited, it is read as any module: a project module its
/// functions import is then covered too.
#[test]
fn an_edited_shim_is_read_as_any_module() {
    let Some((p, site)) = venv_project("print('SUMMARY')\n") else {
        return;
    };
    let hack = site.join("_distutils_hack/__init__.py");
    if !hack.is_file() {
        eprintln!("no setuptools shim in this Python's environments");
        return;
    }
    let shown = p.ok(&["trust", "--yes"]);
    assert!(
        shown.contains("_distutils_hack/__init__.py (content"),
        "{shown}"
    );
    assert!(!shown.contains("setuptools/"), "{shown}");
    let mut text = std::fs::read_to_string(&hack).unwrap();
    text.push_str("\ndef later():\n    import evil_helper\n");
    std::fs::write(&hack, text).unwrap();
    p.write("tools/evil_helper.py", "X = 1\n");
    std::fs::write(site.join("evil_helper.py"), "X = 1\n").unwrap();
    let shown = p.run(&["trust", "--yes"]);
    let listing = format!("{}{}", crate::common::stdout(&shown), stderr(&shown));
    assert!(listing.contains("evil_helper.py (content"), "{listing}");
}

/// `import distutils` where the shim runs loads `setuptools._distutils`:
/// followed there (with a real setuptools this reaches pip, whose
/// `sys.path` changes cannot be reviewed: refused).
#[test]
fn importing_distutils_follows_the_shim_into_setuptools() {
    let Some((p, site)) = venv_project("import distutils.core\nprint('SUMMARY')\n") else {
        return;
    };
    if !site.join("_distutils_hack/__init__.py").is_file() {
        eprintln!("no setuptools shim in this Python's environments");
        return;
    }
    let out = p.run(&["trust", "--yes"]);
    let listing = format!("{}{}", crate::common::stdout(&out), stderr(&out));
    assert!(!out.status.success(), "{listing}");
    assert!(listing.contains("known only as it runs"), "{listing}");
}

/// Recheck 28: Python runs a checked hash-based `.pyc` carrying its
/// source's hash whatever code follows, and imports a package's
/// `__init__` extension before its `__init__.py`: one added later
/// withdraws the consent.
#[test]
fn compiled_files_python_loads_instead_of_the_source_withdraw_consent() {
    let p = Project::empty();
    hostile(&p, "python3 tools/s.py");
    p.write("tools/s.py", "import helper, pkg\nprint('SUMMARY')\n");
    p.write("tools/helper.py", "X = 1\n");
    p.write("tools/pkg/__init__.py", "Y = 1\n");
    p.ok(&["trust", "--yes"]);
    let compiled = Command::new("python3")
        .args([
            "-c",
            "import py_compile as p; p.compile('tools/helper.py', \
             invalidation_mode=p.PycInvalidationMode.CHECKED_HASH)",
        ])
        .current_dir(p.root())
        .status();
    assert!(compiled.is_ok_and(|s| s.success()));
    assert_consent_lapsed(&p, "a checked hash-based pyc added");
    let said = stderr(&p.run(&["build"]));
    assert!(
        said.contains("tools/__pycache__/helper.*.pyc (hash-based) is now helper."),
        "{said}"
    );

    std::fs::remove_dir_all(p.path("tools/__pycache__")).unwrap();
    p.ok(&["trust", "--yes"]);
    p.write("tools/pkg/__init__.abi3.so", "\x7fELF");
    assert_consent_lapsed(&p, "an __init__ extension added");
}
