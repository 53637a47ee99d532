//! A program a Python script runs itself by an argv or shell line it
//! computes (consent round 5, item 1): `subprocess.run(["sh",
//! os.environ["R"]])`, `[sys.executable, name]`, `os.execv(x, …)`,
//! `os.system(f"sh {name}")`. What runs is decided only as the script
//! runs, so the command is refused; a literal (or a name bound only to
//! literals) is covered as before, and a computed argument to a program
//! that is no interpreter (`["git", "log", ref]`) runs no project file.

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_refused};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);

/// Each computed program or script: refused, nothing runs.
#[test]
fn consent_is_refused_for_a_program_a_python_script_runs_by_a_computed_argv() {
    let cases: &[(&str, Files)] = &[
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os, subprocess\nos.environ['R'] = open('tools/which').read().strip()\n\
                     subprocess.run(['sh', os.environ['R']])\n",
                ),
                WHICH,
                W,
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import subprocess, sys\nsome_var = open('tools/which').read().strip()\n\
                     subprocess.call([sys.executable, some_var])\n",
                ),
                WHICH,
                ("tools/w.sh", "print('SUMMARY')\n"),
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os\nx = open('tools/which').read().strip()\n\
                     os.execv(x, [x])\n",
                ),
                WHICH,
                W,
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os\nname = open('tools/which').read().strip()\n\
                     os.system(f\"sh {name}\")\n",
                ),
                WHICH,
                W,
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import subprocess\nw = open('tools/which').read().strip()\n\
                     subprocess.Popen(\"sh \" + w, shell=True).wait()\n",
                ),
                WHICH,
                W,
            ],
        ),
    ];
    assert_refused(cases);
}

/// A literal, a name bound only to literals, and a computed argument of
/// a program that is no interpreter: trusted, the script covered.
#[test]
fn consent_covers_a_python_argv_that_is_literal_or_runs_no_computed_script() {
    let case = |script: &'static str| Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", script), W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case("import subprocess\nsubprocess.run(['sh', 'tools/w.sh'])\n"),
        case("import subprocess\nw = 'tools/w.sh'\nsubprocess.run(['sh', w])\n"),
        case(
            "import subprocess\nref = open('tools/w.sh').read()[:0] or 'HEAD'\n\
             subprocess.run(['git', 'log', '-1', ref], capture_output=True)\n\
             subprocess.run(['sh', 'tools/w.sh'])\n",
        ),
        case("import os\nos.system('sh tools/w.sh')\n"),
    ]);
}

/// A project module's function that hands its parameter to a shell or
/// as an argv (`def run(cmd): os.system(cmd)`) is a sink (consent round
/// 5, item 4): a caller that hands it a computed line or argv, in the
/// same file or one that imports it, even through a function of its
/// own, is refused; one that hands it a literal is covered.
#[test]
fn consent_reads_what_a_script_hands_a_project_function_that_runs_it() {
    const UTIL: (&str, &str) = (
        "tools/util.py",
        "import os, subprocess\n\ndef run(cmd):\n    return os.system(cmd)\n\n\
         def call(argv, check=True):\n    return subprocess.run(argv, check=check)\n",
    );
    let cases: &[(&str, Files)] = &[
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "from util import run\nname = open('tools/which').read().strip()\n\
                     run(f\"sh {name}\")\n",
                ),
                UTIL,
                WHICH,
                W,
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os\nimport util\nos.environ['R'] = open('tools/which').read().strip()\n\
                     util.call(['sh', os.environ['R']])\n",
                ),
                UTIL,
                WHICH,
                W,
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "from util import run\n\ndef go(line):\n    run(line)\n\n\
                     go('sh ' + open('tools/which').read().strip())\n",
                ),
                UTIL,
                WHICH,
                W,
            ],
        ),
        // A literal handed to a shell sink is a shell line: `$RUNNER`,
        // given a computed value here, runs what the review never saw.
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os\nfrom util import run\n\
                     os.environ['RUNNER'] = open('tools/which').read().strip()\n\
                     run('sh \"$RUNNER\"')\n",
                ),
                UTIL,
                WHICH,
                W,
            ],
        ),
    ];
    assert_refused(cases);
    let case = |script: &'static str| Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", script), UTIL, W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case("from util import run\nrun('sh tools/w.sh')\n"),
        case("import util\nutil.call(['sh', 'tools/w.sh'])\n"),
    ]);
}

/// A program that prints the summary, run by its bare name.
const APP: (&str, &str) = ("tools/app", "#!/bin/sh\necho SUMMARY\n");

/// A Python script that puts a project folder in its children's `PATH`
/// (consent round 5, item 3) runs that folder's programs by a bare name
/// (`RUNNER = "app"; subprocess.run([RUNNER])`): each is covered, as for
/// a shell script's `PATH=tools:$PATH`; a folder known only as it runs
/// is refused.
#[test]
fn consent_covers_a_program_a_python_script_runs_by_a_bare_name_from_its_path() {
    let case = |script: &'static str| Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", script), APP])),
        executable: &["tools/app"],
        edited: "tools/app",
    };
    assert_cases_lapse(&[
        case(
            "import os, subprocess\nos.environ['PATH'] = 'tools' + os.pathsep + os.environ['PATH']\n\
             RUNNER = 'app'\nsubprocess.run([RUNNER])\n",
        ),
        case(
            "import os, subprocess\n\
             os.environ['PATH'] = os.path.dirname(os.path.abspath(__file__)) + ':' + os.environ['PATH']\n\
             subprocess.run(['app'])\n",
        ),
        case(
            "import os, subprocess\nenv = dict(os.environ, PATH='tools:/usr/bin:/bin')\n\
             subprocess.run(['app'], env=env)\n",
        ),
    ]);
    assert_refused(&[(
        "python3 tools/s.py",
        &[
            (
                "tools/s.py",
                "import os, subprocess\n\
                 os.environ['PATH'] = open('tools/which').read().strip() + ':' + os.environ['PATH']\n\
                 subprocess.run(['app'])\n",
            ),
            ("tools/which", "tools\n"),
            APP,
        ],
    )]);
}
