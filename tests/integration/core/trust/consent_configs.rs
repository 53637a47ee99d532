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
use super::consent_runtime::{
    Case, Files, RUN_SH, assert_cases_lapse, assert_edits_lapse, payload,
};

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

/// `git init -q --bare` in `dir` of the project.
fn git_init_bare(p: &Project, dir: &str) {
    let status = Command::new("git")
        .args(["init", "-q", "--bare", dir])
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
    let cases: &[(&str, Files, &str)] = &[
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
    assert_edits_lapse(cases);
}

/// A literal list put before `sys.path` (`sys.path[0:0] = ["vendor"]`)
/// is a folder like `insert`'s (it was refused); and a lapse says what
/// changed in words a user reads: an empty listing as "(none)", a place
/// newly looked at after what made it so, the root as "the project
/// root".
#[test]
fn a_literal_sys_path_slice_is_covered_and_lapses_read_plainly() {
    assert_cases_lapse(&[Case {
        command: "python3 tools/s.py",
        files: &[
            (
                "tools/s.py",
                "import sys\nsys.path[0:0] = [\"vendor\"]\nimport vv\nprint('SUMMARY')\n",
            ),
            ("vendor/vv.py", "X = 1\n"),
        ],
        executable: &[],
        edited: "vendor/vv.py",
    }]);

    let p = Project::empty();
    hostile(&p, "python3 tools/s.py");
    p.write(
        "tools/s.py",
        "import site\nsite.addsitedir(\"tools/sd\")\nprint('SUMMARY')\n",
    );
    p.write("tools/sd/keep.txt", "\n");
    p.ok(&["trust", "--yes"]);
    p.write("tools/sd/x.pth", "import os; open('pwned.txt', 'w')\n");
    p.ok(&["cache", "clear"]);
    let said = stderr(&p.run(&["build"]));
    assert!(!p.path("pwned.txt").exists(), "ran unreviewed");
    let changed = said
        .split("changed since you trusted this project: ")
        .nth(1)
        .unwrap_or_default();
    assert!(
        changed.starts_with(
            "tools/sd/ was .pth files (none), now .pth files x.pth; \
             tools/sd/x.pth is new to what the command runs; "
        ),
        "{said}"
    );
    assert!(!changed.contains("is now nothing"), "{said}");

    let p = Project::empty();
    hostile(&p, "python3 -m pytest -q tests/test_a.py");
    p.write("tests/test_a.py", "def test_a():\n    pass\n");
    let shown = p.ok(&["trust", "--yes"]);
    assert!(!shown.contains("modules in /"), "{shown}");
}

/// What pytest's configuration says it collects is read, from each file
/// it reads options from (and one `-c` names): `python_files` (a new
/// file matching its pattern withdraws the consent, as a new `test_*.py`
/// does), `testpaths`, `norecursedirs` (replacing the folders left out
/// by default).
#[test]
fn consent_covers_what_pytest_s_configuration_says_it_collects() {
    const CHECK: &str = "def test_a():\n    pass\n";
    let cases: &[(&str, Files, &str)] = &[
        (
            "python3 -m pytest -q -s",
            &[
                ("pytest.ini", "[pytest]\npython_files = check_*.py\n"),
                ("tests/check_a.py", CHECK),
            ],
            "tests/check_b.py",
        ),
        (
            "pytest -q",
            &[
                (
                    "pytest.ini",
                    "[pytest]\npython_files =\n    check_*.py\n    *_spec.py\n",
                ),
                ("tests/check_a.py", CHECK),
                ("tests/a_spec.py", CHECK),
            ],
            "tests/a_spec.py",
        ),
        (
            "pytest",
            &[
                (
                    "pyproject.toml",
                    "[tool.pytest.ini_options]\npython_files = [\"check_*.py\"]\n",
                ),
                ("tests/check_a.py", CHECK),
            ],
            "tests/deep/check_b.py",
        ),
        (
            "pytest",
            &[
                ("tox.ini", "[tox]\n\n[pytest]\npython_files = check_*.py\n"),
                ("tests/check_a.py", CHECK),
            ],
            "tests/check_a.py",
        ),
        (
            "pytest",
            &[
                ("setup.cfg", "[tool:pytest]\npython_files = check_*.py\n"),
                ("tests/check_a.py", CHECK),
            ],
            "tests/check_b.py",
        ),
        (
            "pytest",
            &[
                (
                    "pytest.ini",
                    "[pytest]\ntestpaths = t2\npython_files = check_*.py\n",
                ),
                ("t2/check_a.py", CHECK),
            ],
            "t2/deep/check_b.py",
        ),
        (
            "pytest",
            &[
                ("pytest.ini", "[pytest]\nnorecursedirs = foo\n"),
                ("build/test_b.py", CHECK),
            ],
            "build/test_b.py",
        ),
        (
            "pytest -c tools/other.ini",
            &[
                ("tools/other.ini", "[pytest]\npython_files = check_*.py\n"),
                ("tests/check_a.py", CHECK),
            ],
            "tests/check_b.py",
        ),
        (
            "pytest -o 'python_files=check_*.py'",
            &[("tests/check_a.py", CHECK)],
            "tests/check_b.py",
        ),
    ];
    assert_edits_lapse(cases);
}

/// `git -C sub sum` where `sub/.git` is a file (`gitdir:
/// ../.git/modules/sub`, as a submodule has): the config it points to
/// defines the alias, and is covered with what the alias runs; one
/// leading out of the project cannot be trusted. `--git-dir=…` names
/// the repository the same way (`GIT_DIR=…` is refused, round 9), and
/// a bare one's example hooks are no scripts. A section's first key on its header's
/// line and a value continued with `\` are read as git reads them.
#[test]
fn consent_covers_the_config_a_git_file_or_git_dir_points_to() {
    const ALIAS: &str = "[core]\n\tbare = false\n[alias]\n\tsum = !sh ../tools/s.sh\n";
    let submodule = |edited: &str| {
        let p = Project::empty();
        hostile(&p, "git -C sub sum");
        git_init_bare(&p, ".git/modules/sub");
        std::fs::create_dir_all(p.path("sub")).expect("mkdir");
        p.write("sub/.git", "gitdir: ../.git/modules/sub\n");
        p.write(".git/modules/sub/config", ALIAS);
        p.write("tools/s.sh", RUN_SH);
        let shown = p.ok(&["trust", "--yes"]);
        assert!(shown.contains("runs tools/s.sh (content"), "{shown}");
        assert!(stdout(&p.run(&["build"])).contains("SUMMARY"));
        match edited {
            "tools/s.sh" => p.write(edited, payload(edited)),
            _ => p.write(
                edited,
                &ALIAS.replace("sh ../tools/s.sh", "touch pwned.txt"),
            ),
        }
        assert_consent_lapsed(&p, edited);
        assert!(!p.path("sub/pwned.txt").exists(), "ran unreviewed in sub");
    };
    submodule("tools/s.sh");
    submodule(".git/modules/sub/config");

    let outside = tempfile::tempdir().expect("tempdir");
    let p = Project::empty();
    hostile(&p, "git -C sub sum");
    std::fs::create_dir_all(p.path("sub")).expect("mkdir");
    p.write(
        "sub/.git",
        &format!("gitdir: {}\n", outside.path().display()),
    );
    let out = p.run(&["trust", "--yes"]);
    assert!(!out.status.success(), "a repository outside the project");

    for command in ["git --git-dir=other.git sum", "GIT_DIR=other.git git sum"] {
        let p = Project::empty();
        hostile(&p, command);
        git_init_bare(&p, "other.git");
        p.write(
            "other.git/config",
            "[core]\n\tbare = true\n[alias]\n\tsum = !sh tools/s.sh\n",
        );
        p.write("tools/s.sh", RUN_SH);
        // Round 9: `GIT_DIR` set in shell text is refused (a script
        // that inherits it would read that repository unreviewed).
        if command.starts_with("GIT_DIR=") {
            assert!(!p.run(&["trust", "--yes"]).status.success(), "{command}");
            continue;
        }
        p.ok(&["trust", "--yes"]);
        p.write("tools/s.sh", payload("tools/s.sh"));
        assert_consent_lapsed(&p, command);
    }

    assert_cases_lapse(&[
        Case {
            command: "git sum",
            files: &[
                (
                    ".git/config",
                    "[core]\n\tbare = false\n[alias] sum = !sh tools/s.sh\n",
                ),
                ("tools/s.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/s.sh",
        },
        Case {
            command: "git sum",
            files: &[
                (
                    ".git/config",
                    "[core]\n\tbare = false\n[alias]\n\tsum = !sh \\\n tools/s.sh\n",
                ),
                ("tools/s.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/s.sh",
        },
    ]);
}

/// Run `git args…` in `dir`, which must succeed.
fn git_in(dir: &std::path::Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.email=t@t", "-c", "user.name=t"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git");
    assert!(status.success(), "git {args:?}");
}

/// The project root is itself a linked work tree (`git worktree add`)
/// or a submodule's checkout: its `.git` is a file git wrote, leading
/// out of the project (round 12's decision). A `git …` command is
/// trusted, the repository's config it reads is covered (an edit there
/// withdraws the consent), and a `.git` file git did not write (no way
/// back to the root, as a tarball could ship) is still refused.
#[test]
fn consent_covers_the_repository_of_a_root_that_is_a_work_tree_or_submodule() {
    const COMMAND: &str = "git log -1 --format=SUMMARY";
    let main = tempfile::tempdir().expect("tempdir");
    git_in(main.path(), &["init", "-q"]);
    git_in(main.path(), &["commit", "-q", "--allow-empty", "-m", "x"]);
    let p = Project::empty();
    let root = p.root().display().to_string();
    git_in(main.path(), &["worktree", "add", "-q", "--detach", &root]);
    hostile(&p, COMMAND);
    let shown = p.ok(&["trust", "--yes"]);
    assert!(stdout(&p.run(&["build"])).contains("SUMMARY"), "{shown}");
    assert!(
        shown.contains("git's config, outside the project"),
        "{shown}"
    );
    let config = main.path().join(".git/config");
    let text = std::fs::read_to_string(&config).expect("config");
    std::fs::write(
        &config,
        format!("{text}[core]\n\tpager = touch pwned.txt\n"),
    )
    .expect("write");
    assert_consent_lapsed(&p, "the main repository's config");

    // A submodule's checkout: its repository says `core.worktree`.
    let outside = tempfile::tempdir().expect("tempdir");
    let modules = outside.path().join("modules/sub");
    git_in(outside.path(), &["init", "-q", "--bare", "modules/sub"]);
    let p = Project::empty();
    hostile(&p, COMMAND);
    let sub_config = modules.join("config");
    std::fs::write(
        &sub_config,
        format!(
            "[core]\n\tbare = false\n\tworktree = {}\n",
            p.root().display()
        ),
    )
    .expect("write");
    p.write(".git", &format!("gitdir: {}\n", modules.display()));
    p.ok(&["trust", "--yes"]);
    std::fs::write(
        &sub_config,
        format!(
            "[core]\n\tbare = false\n\tworktree = {}\n\tpager = touch pwned.txt\n",
            p.root().display()
        ),
    )
    .expect("write");
    assert_consent_lapsed(&p, "the submodule's config");

    // No way back: refused as before.
    let p = Project::empty();
    hostile(&p, COMMAND);
    git_in(outside.path(), &["init", "-q", "--bare", "other"]);
    p.write(
        ".git",
        &format!("gitdir: {}\n", outside.path().join("other").display()),
    );
    let out = p.run(&["trust", "--yes"]);
    assert!(!out.status.success(), "a .git git did not write");
    assert!(
        stderr(&out).contains("outside the project"),
        "{}",
        stderr(&out)
    );
}
