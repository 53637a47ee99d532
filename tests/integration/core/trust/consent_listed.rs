//! Scripts a command takes from a list it reads as it runs (recheck 14,
//! F7): `xargs python3 < tools/list.txt`, `python3 "$(head -1
//! tools/list.txt)"` and `find … -exec python3 {} ;` ran the script the
//! list (or a pattern) names, while the consent covered only the list;
//! an edit of that script or of what it imports ran unreviewed. Each is
//! a refusal; what names its script itself stays covered. So is a git
//! command that runs the repository's hooks (consent round 5's item 6).

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_refused};

const SUMMARIZE: (&str, &str) = (
    "tools/summarize.py",
    "import helper, sys\nprint('SUMMARY', helper.f(sys.stdin.read()))\n",
);
const HELPER: (&str, &str) = ("tools/helper.py", "def f(d):\n    return len(d)\n");
const LIST: (&str, &str) = ("tools/list.txt", "tools/summarize.py\n");

#[test]
fn a_script_named_by_a_list_the_command_reads_cannot_be_trusted() {
    const FILES: Files = &[SUMMARIZE, HELPER, LIST];
    assert_refused(&[
        ("xargs python3 < tools/list.txt", FILES),
        ("cat tools/list.txt | xargs -n 1 python3", FILES),
        ("python3 \"$(head -1 tools/list.txt)\"", FILES),
        ("python3 $(tail -n 1 tools/list.txt)", FILES),
        ("xargs -I{} sh -c 'python3 {}' < tools/list.txt", FILES),
        (
            "find tools -name 'summ*.py' -exec python3 {} \\;",
            &[SUMMARIZE, HELPER],
        ),
        (
            "sh tools/run.sh",
            &[
                ("tools/run.sh", "xargs sh < tools/list.txt\n"),
                ("tools/list.txt", "tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ],
        ),
    ]);
}

#[test]
fn a_list_handed_to_a_script_named_in_the_command_is_covered() {
    assert_cases_lapse(&[Case {
        command: "xargs python3 tools/summarize.py < tools/list.txt",
        files: &[SUMMARIZE, HELPER, ("tools/list.txt", "a.py\n")],
        executable: &[],
        edited: "tools/helper.py",
    }]);
}

/// A git command that runs the repository's hooks (`git commit` runs
/// `.git/hooks/pre-commit`, `git checkout` `post-checkout`, …) runs what
/// the hooks folder holds then, which no review covers: refused, in the
/// command and in a script it runs. Reading commands stay trusted.
#[test]
fn a_git_command_that_runs_hooks_cannot_be_trusted() {
    assert_refused(&[
        ("git commit --allow-empty -qm summary", &[]),
        (
            "sh tools/run.sh",
            &[("tools/run.sh", "git -C . checkout -q main\ncat\n")],
        ),
    ]);
    assert_cases_lapse(&[Case {
        command: "git log -1 --format=%s >/dev/null; sh tools/w.sh",
        files: &[("tools/w.sh", RUN_SH)],
        executable: &[],
        edited: "tools/w.sh",
    }]);
}
