//! What tools read from project configuration before they run code
//! (recheck of consent round 11, F-F, F-G and the Low items): a git
//! config's included files and a nested repository's aliases are
//! covered; git's example hooks are no scripts; what pytest collects
//! by pattern is covered with its folders' listings, and the modules
//! `pytest_plugins` names; a literal list put before `sys.path` is a
//! folder like `insert`'s.

use std::process::Command;

use crate::common;

use common::{Project, stderr, stdout};

use super::consent::{assert_consent_lapsed, hostile};
use super::consent_runtime::{Case, RUN_SH, assert_cases_lapse, payload};

/// `git init -q` in `dir` of the project.
fn git_init_in(p: &Project, dir: &str) {
    std::fs::create_dir_all(p.path(dir)).expect("mkdir");
    let status = Command::new("git")
        .args(["init", "-q", dir])
        .current_dir(p.root())
        .status()
        .expect("git");
    assert!(status.success());
}

/// An alias in a file `.git/config` includes (`include.path`,
/// `includeIf`): the file and what the alias runs are covered.
#[test]
fn consent_covers_a_git_alias_from_an_included_config() {
    const ALIAS: &str = "[alias]\n\tsum = !sh tools/s.sh\n";
    const INCLUDE: &str = "[core]\n\tbare = false\n[include]\n\tpath = ../tools/git.cfg\n";
    const INCLUDE_IF: &str =
        "[core]\n\tbare = false\n[includeIf \"gitdir:**\"]\n\tpath = ../tools/git.cfg\n";
    let case = |config: &'static str, edited: &'static str| Case {
        command: "git sum",
        files: Box::leak(Box::new([
            (".git/config", config),
            ("tools/git.cfg", ALIAS),
            ("tools/s.sh", RUN_SH),
        ])),
        executable: &[],
        edited,
    };
    assert_cases_lapse(&[
        case(INCLUDE, "tools/s.sh"),
        case(INCLUDE, "tools/git.cfg"),
        case(INCLUDE_IF, "tools/s.sh"),
    ]);
}

/// `git -C sub sum` runs the alias of `sub`'s own repository, in `sub`;
/// and `git -C sub log` on a fresh clone (its `.git/hooks/*.sample`
/// never run) can be trusted.
#[test]
fn consent_covers_a_nested_repository_s_alias_and_not_its_sample_hooks() {
    let p = Project::empty();
    hostile(&p, "git -C sub sum");
    git_init_in(&p, "sub");
    // Without the example hooks: the alias alone is what this checks.
    std::fs::remove_dir_all(p.path("sub/.git/hooks")).expect("rm hooks");
    p.write(
        "sub/.git/config",
        "[core]\n\tbare = false\n[alias]\n\tsum = !sh ../tools/s.sh\n",
    );
    p.write("tools/s.sh", RUN_SH);
    p.ok(&["trust", "--yes"]);
    assert!(stdout(&p.run(&["build"])).contains("SUMMARY"));
    p.write("tools/s.sh", payload("tools/s.sh"));
    assert_consent_lapsed(&p, "git -C sub sum");
    assert!(!p.path("sub/pwned.txt").exists(), "ran unreviewed in sub");

    let p = Project::empty();
    hostile(
        &p,
        "sh -c 'git -C sub log -1 --format=%s 2>/dev/null; head -n 5' _",
    );
    git_init_in(&p, "sub");
    let out = p.run(&["trust", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stdout(&out).contains(".sample"),
        "sample hooks listed: {}",
        stdout(&out)
    );
}

/// `pytest` with no path collects every `test_*.py`, `*_test.py` and
/// `conftest.py` below where it runs: each is covered, and a new one
/// withdraws the consent; the modules a conftest's `pytest_plugins`
/// names are covered. Read without running pytest (it may be missing).
#[test]
fn consent_covers_what_pytest_collects_and_its_plugins() {
    let cases: &[(&str, &[(&str, &str)], &str)] = &[
        (
            "python3 -m pytest -q -s",
            &[
                ("tests/test_a.py", "def test_a():\n    pass\n"),
                ("tests/conftest.py", "X = 1\n"),
            ],
            "tests/conftest.py",
        ),
        (
            "pytest -q",
            &[("tests/test_a.py", "def test_a():\n    pass\n")],
            "tests/test_b.py",
        ),
        (
            "pytest -q -k smoke",
            &[("tests/deep/a_test.py", "def test_a():\n    pass\n")],
            "tests/deep/a_test.py",
        ),
        (
            "python3 -m pytest -q -s tests/test_a.py",
            &[
                ("tests/test_a.py", "def test_a():\n    pass\n"),
                (
                    "conftest.py",
                    "pytest_plugins = [\n    \"tools.plug\",\n]\n",
                ),
                ("tools/plug.py", "X = 1\n"),
            ],
            "tools/plug.py",
        ),
    ];
    for (command, files, edited) in cases {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in *files {
            p.write(path, text);
        }
        let shown = p.ok(&["trust", "--yes"]);
        if p.path(edited).exists() {
            assert!(
                shown.contains(&format!("runs {edited} (content")),
                "{command}: {shown}"
            );
        }
        p.write(edited, payload(edited));
        let out = p.run(&["build"]);
        assert!(
            stderr(&out).contains("changed since you trusted this project"),
            "{command} {edited}: {}",
            stderr(&out)
        );
    }
}
