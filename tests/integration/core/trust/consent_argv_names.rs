//! What a Python script runs through a name it imported or an alias
//! (consent round 6, item 1): `from subprocess import run; run(x)`,
//! `from os import system`, `import subprocess as sp; sp.run(x)`,
//! `from subprocess import run as r`; the git commands that run the
//! repository's hooks in an argv or a shell line (item 2); and the
//! reading limits of round 5 that refused a known argv (item 4):
//! bindings read per function, a parameter wrapped in a call, sinks
//! told apart by module.

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);

fn script(text: &'static str) -> (&'static str, Files) {
    (
        "python3 tools/s.py",
        Box::leak(Box::new([("tools/s.py", text), WHICH, W])),
    )
}

/// A name imported from `subprocess` or `os`, or a module's alias,
/// running a computed argv or line: refused as `subprocess.run(…)` is.
#[test]
fn a_python_script_running_a_computed_argv_through_an_imported_name_is_refused() {
    assert_each_refused(&[
        script(
            "from subprocess import run, Popen, call, check_output\n\
             w = open('tools/which').read().strip()\nrun(['sh', w])\n",
        ),
        script(
            "from subprocess import call\nw = open('tools/which').read().strip()\n\
             call(['sh', w])\n",
        ),
        script(
            "from os import system, execv, popen\nw = open('tools/which').read().strip()\n\
             system(f'sh {w}')\n",
        ),
        script("from os import execv\nw = open('tools/which').read().strip()\nexecv(w, [w])\n"),
        script(
            "from os import popen\nw = open('tools/which').read().strip()\n\
             print(popen('sh ' + w).read())\n",
        ),
        script(
            "import subprocess as sp\nw = open('tools/which').read().strip()\n\
             sp.run(['sh', w])\n",
        ),
        script(
            "from subprocess import run as r\nw = open('tools/which').read().strip()\n\
             r(['sh', w])\n",
        ),
        script("import os as o\nw = open('tools/which').read().strip()\no.system('sh ' + w)\n"),
        script(
            "import subprocess\nrun = subprocess.run\nw = open('tools/which').read().strip()\n\
             run(['sh', w])\n",
        ),
        script(
            "from subprocess import (\n    check_output as co,\n)\n\
             w = open('tools/which').read().strip()\nprint(co(['sh', w]))\n",
        ),
    ]);
}

/// Literal argvs through an imported name stay covered, and a method
/// of the script's own named like one is not read as it.
#[test]
fn an_imported_name_given_a_literal_argv_is_covered() {
    let case = |text: &'static str| Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", text), W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case("from subprocess import run\nrun(['sh', 'tools/w.sh'])\n"),
        case("from os import system\nsystem('sh tools/w.sh')\n"),
        case(
            "import subprocess as sp\nfrom subprocess import run\n\
             class Job:\n    def run(self, x):\n        return x\n\
             w = open('tools/w.sh').read()\nJob().run(w)\nsp.run(['sh', 'tools/w.sh'])\n",
        ),
    ]);
}

/// A git command that runs the repository's hooks, in an argv or a
/// shell line a Python script runs: refused as in the shell text.
#[test]
fn a_python_script_running_a_git_command_that_runs_hooks_is_refused() {
    assert_each_refused(&[
        script("import subprocess\nsubprocess.run(['git', '-C', '.none', 'commit', '-qm', 'x'])\n"),
        script("import os\nos.system('git -C .none commit -qm x')\n"),
        script("from subprocess import check_call\ncheck_call('git -C .none push', shell=True)\n"),
        script(
            "import subprocess\nb = open('tools/which').read().strip()\n\
             subprocess.call(['git', '-C', '.none', 'checkout', b])\n",
        ),
        script("from subprocess import run\nGIT = 'git'\nrun([GIT, '-C', '.none', 'pull'])\n"),
    ]);
    let case = |text: &'static str| Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", text), W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[case(
        "import os, subprocess\nsubprocess.run(['git', 'log', '-1'], capture_output=True)\n\
         os.system('git status >/dev/null 2>&1; git diff --stat >/dev/null 2>&1')\n\
         subprocess.run(['git', 'show', 'HEAD'], capture_output=True)\n\
         os.system('sh tools/w.sh')\n",
    )]);
}

/// Round 5's reading limits: a name bound to a string in one function
/// and a list in another (jaraco), a parameter wrapped in a call (pip's
/// `Popen(reveal_command_args(cmd))`) whose callers pass literals, and
/// a call of another module's function named like a sink: covered.
#[test]
fn known_argvs_that_round_five_could_not_read_are_covered() {
    const UTIL: (&str, &str) = (
        "tools/util.py",
        "import os\n\ndef run(cmd):\n    return os.system(cmd)\n",
    );
    const OTHER: (&str, &str) = ("tools/other.py", "def run(x):\n    return len(x)\n");
    let case = |files: Files| Case {
        command: "python3 tools/s.py",
        files,
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case(&[
            (
                "tools/s.py",
                "import subprocess\n\ndef a():\n    cmd = 'git status >/dev/null 2>&1'\n    \
                 subprocess.run(cmd, shell=True)\n\ndef b():\n    cmd = ['sh', 'tools/w.sh']\n    \
                 subprocess.run(cmd)\n\na()\nb()\n",
            ),
            W,
        ]),
        case(&[
            (
                "tools/s.py",
                "import subprocess\n\ndef reveal(args):\n    return [str(a) for a in args]\n\n\
                 def call(cmd):\n    return subprocess.Popen(reveal(cmd)).wait()\n\n\
                 call(['sh', 'tools/w.sh'])\n",
            ),
            W,
        ]),
        case(&[
            (
                "tools/s.py",
                "import util, other\nw = open('tools/which').read()\nother.run(w)\n\
                 util.run('sh tools/w.sh')\n",
            ),
            UTIL,
            OTHER,
            WHICH,
            W,
        ]),
    ]);
    // What those readings still refuse.
    assert_each_refused(&[
        script(
            "import subprocess\n\ndef a():\n    cmd = 'git status'\n    \
             subprocess.run(cmd, shell=True)\n\ndef b():\n    \
             cmd = ['sh', open('tools/which').read().strip()]\n    subprocess.run(cmd)\n\na()\nb()\n",
        ),
        script(
            "import subprocess\n\ndef reveal(args):\n    return [str(a) for a in args]\n\n\
             def call(cmd):\n    return subprocess.Popen(reveal(cmd)).wait()\n\n\
             call(['sh', open('tools/which').read().strip()])\n",
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "from util import run\nw = open('tools/which').read()\nrun(f'sh {w}')\n",
                ),
                UTIL,
                WHICH,
                W,
            ],
        ),
        // A package that hands `util`'s `run` on is read as `util`.
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "from pkg import run\nw = open('tools/which').read()\nrun(f'sh {w}')\n",
                ),
                ("tools/pkg/__init__.py", "from .util import run\n"),
                (
                    "tools/pkg/util.py",
                    "import os\n\ndef run(cmd):\n    return os.system(cmd)\n",
                ),
                WHICH,
                W,
            ],
        ),
    ]);
}
