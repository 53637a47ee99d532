//! Git hooks that read-only-looking commands run (consent round 7,
//! item 3): `git status` writes the index and runs `post-index-change`,
//! any ref update (`git branch x`) runs `reference-transaction`
//! (githooks(5)). A summary command runs with hooks off (`core.hooksPath
//! =/dev/null` in the environment, which no config file overrides), and
//! the commands that write the index or say where hooks are, in shell
//! text, are refused.

use super::consent::hostile;
use super::consent_runtime::{
    Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused, git_init,
};
use crate::common::{Project, stdout};

const HOOK: &str = "#!/bin/sh\ntouch \"$(git rev-parse --show-toplevel)/pwned.txt\"\n";

/// A trusted summary command running `git status` and `git branch` in
/// a repository whose hooks (written after the consent) would leave
/// `pwned.txt`: the summary is made and no hook ran.
#[test]
fn a_summary_command_s_git_runs_no_hook() {
    let p = Project::empty();
    let command = "sh tools/s.sh";
    hostile(&p, command);
    p.write(
        "tools/s.sh",
        "git status >/dev/null 2>&1\ngit branch c7-x >/dev/null 2>&1\ncat >/dev/null\necho SUMMARY\n",
    );
    git_init(&p);
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "core.hooksPath=/dev/null",
            ])
            .args(args)
            .current_dir(p.root())
            .status()
            .expect("git");
        assert!(status.success(), "git {args:?}");
    };
    git(&["add", "-A"]);
    git(&["commit", "-qm", "init"]);
    p.ok(&["trust", "--yes"]);
    for hook in ["post-index-change", "reference-transaction", "pre-commit"] {
        let path = format!(".git/hooks/{hook}");
        p.write(&path, HOOK);
        crate::common::files::make_executable(&p.path(&path));
    }
    // Stat-dirty: `git status` refreshes and writes the index.
    p.write("a.py", "x = 2\n");
    let out = p.run(&["build"]);
    assert!(
        stdout(&out).contains("SUMMARY"),
        "{}",
        crate::common::stderr(&out)
    );
    assert!(!p.path("pwned.txt").exists(), "a hook ran");
}

fn script(text: &'static str) -> (&'static str, Files) {
    ("sh tools/s.sh", Box::leak(Box::new([("tools/s.sh", text)])))
}

/// Commands that write the index (running `post-index-change`) or name
/// where hooks are found, in shell text: refused, for a script that
/// runs git with an environment of its own (`env -i`) drops the
/// summary's settings.
#[test]
fn a_git_command_that_writes_the_index_or_names_the_hooks_is_refused() {
    assert_each_refused(&[
        script("git -C .none add tools\n"),
        script("git -C .none rm -q --cached x\n"),
        script("git -C .none restore --staged x\n"),
        script("git -C .none update-index --refresh\n"),
        script("git -C .none -c core.hooksPath=.githooks status\n"),
        script("git -c core.fsmonitor=tools/m.sh -C .none diff\n"),
    ]);
}

/// A git run with an environment of its own (`env -i`, a `GIT_CONFIG_…=`
/// assignment, Python's `env={…}` not built from `os.environ`) does not
/// get the summary's hooks-off settings: any subcommand that may write
/// the index or a ref (`status`, `branch`) is refused; one that writes
/// nothing (`log`), or an environment built from `os.environ`, is not.
#[test]
fn a_git_run_with_an_environment_of_its_own_is_refused_unless_it_writes_nothing() {
    let python = |text: &'static str| -> (&'static str, Files) {
        (
            "python3 tools/s.py",
            Box::leak(Box::new([("tools/s.py", text)])),
        )
    };
    assert_each_refused(&[
        script("env -i PATH=/usr/bin:/bin git -C .none status\n"),
        script("GIT_CONFIG_COUNT=0 git -C .none branch c7-x\n"),
        python(
            "import subprocess\nsubprocess.run(['git', '-C', '.none', 'status'], env={'PATH': '/usr/bin:/bin'})\n",
        ),
    ]);
    let case = |command: &'static str, path: &'static str, text: &'static str| Case {
        command,
        files: Box::leak(Box::new([(path, text), ("tools/w.sh", RUN_SH)])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case(
            "sh tools/s.sh",
            "tools/s.sh",
            "env -i PATH=/usr/bin:/bin git -C .none log -1 >/dev/null 2>&1\nsh tools/w.sh\n",
        ),
        case(
            "python3 tools/s.py",
            "tools/s.py",
            "import os, subprocess\n\
             subprocess.run(['git', '-C', '.none', 'status'], env=dict(os.environ, A='1'), capture_output=True)\n\
             subprocess.run(['sh', 'tools/w.sh'])\n",
        ),
    ]);
}
