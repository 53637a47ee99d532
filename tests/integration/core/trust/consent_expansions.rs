//! Consent covers what a script's expansions run (recheck of consent
//! round 11, F-A and F-B): the line of a command substitution
//! (`x=$(sh tools/w.sh)`) is a command line, and the word a parameter
//! expansion falls back to (`${S:-tools/w.sh}`) is a value the variable
//! takes; both are covered as a literal command or assignment is.

use super::consent_runtime::{Case, RUN_SH, assert_cases_lapse, assert_refused};

/// A script that runs `w.sh` for its output.
const W_SH: &str = "#!/bin/sh\necho SUMMARY\n";

/// `$(…)` inside a script: assigned, quoted, from Python, in a function.
#[test]
fn consent_covers_what_a_script_s_command_substitutions_run() {
    assert_cases_lapse(&[
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "x=$(sh tools/w.sh)\necho \"$x\"\n"),
                ("tools/w.sh", W_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "out=$(python3 tools/w.py)\necho \"$out\"\n"),
                ("tools/w.py", "print('SUMMARY')\n"),
            ],
            executable: &[],
            edited: "tools/w.py",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "echo \"$(sh tools/w.sh)\"\n"),
                ("tools/w.sh", W_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "bash tools/s.sh",
            files: &[
                (
                    "tools/s.sh",
                    "f() { local x; x=$(echo \"$(sh tools/w.sh)\"); echo \"$x\"; }\nf\n",
                ),
                ("tools/w.sh", W_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
    ]);
}

/// `${VAR:-word}` and its relatives, at the top level and in scripts,
/// quoted or not, sourced, in a function.
#[test]
fn consent_covers_the_word_a_parameter_expansion_falls_back_to() {
    assert_cases_lapse(&[
        Case {
            command: "sh ${S:-tools/w.sh}",
            files: &[("tools/w.sh", RUN_SH)],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "sh \"${S-tools/w.sh}\"",
            files: &[("tools/w.sh", RUN_SH)],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "S=${S:-tools/w.sh}\nsh \"$S\"\n"),
                ("tools/w.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", ". ${LIB:=tools/lib.sh}\ncat >/dev/null\n"),
                ("tools/lib.sh", "echo SUMMARY\n"),
            ],
            executable: &[],
            edited: "tools/lib.sh",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "X=1\nsh ${X:+tools/w.sh}\n"),
                ("tools/w.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "bash tools/s.sh",
            files: &[
                ("tools/s.sh", "run() { sh \"${1:-tools/w.sh}\"; }\nrun\n"),
                ("tools/w.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
    ]);
}

/// A variable one script exports and another runs (`. tools/env.sh &&
/// sh tools/run.sh`, run.sh `sh "$RUNNER"`): set to a literal, the file
/// is covered; set from what a command prints, it is a refusal as it is
/// within one script.
#[test]
fn a_variable_one_script_exports_and_another_runs_is_covered_or_refused() {
    assert_cases_lapse(&[Case {
        command: ". tools/env.sh && sh tools/run.sh",
        files: &[
            ("tools/env.sh", "export RUNNER=tools/w.sh\n"),
            ("tools/run.sh", "sh \"$RUNNER\"\n"),
            ("tools/w.sh", RUN_SH),
        ],
        executable: &[],
        edited: "tools/w.sh",
    }]);
    assert_refused(&[
        (
            ". tools/env.sh && sh tools/run.sh",
            &[
                ("tools/env.sh", "export RUNNER=$(cat tools/which)\n"),
                ("tools/run.sh", "sh \"$RUNNER\"\n"),
                ("tools/which", "tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ],
        ),
        (
            "export RUNNER=$(cat tools/which); sh tools/run.sh",
            &[
                ("tools/run.sh", "sh \"$RUNNER\"\n"),
                ("tools/which", "tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ],
        ),
        (
            "sh tools/run.sh",
            &[
                ("tools/run.sh", ". tools/env.sh\nsh tools/sub.sh\n"),
                ("tools/env.sh", "RUNNER=`cat tools/which`; export RUNNER\n"),
                ("tools/sub.sh", "sh \"$RUNNER\"\n"),
                ("tools/which", "tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ],
        ),
    ]);
}

/// A variable a Python script gives its children's environment
/// (`os.environ["RUNNER"] = …`, `env={…}`) and a shell child runs (`sh
/// -c 'sh "$RUNNER"'`, or a shell script doing `sh "$RUNNER"`): a
/// literal is covered; a value known only as it runs is a refusal, as
/// from one shell script to another (round 13).
#[test]
fn a_variable_a_python_script_gives_a_shell_child_is_covered_or_refused() {
    assert_cases_lapse(&[Case {
        command: "python3 tools/s.py",
        files: &[
            (
                "tools/s.py",
                "import os, subprocess\nos.environ['RUNNER'] = 'tools/w.sh'\n\
                 subprocess.run(['sh', 'tools/run.sh'])\n",
            ),
            ("tools/run.sh", "sh \"$RUNNER\"\n"),
            ("tools/w.sh", RUN_SH),
        ],
        executable: &[],
        edited: "tools/w.sh",
    }]);
    const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
    const W: (&str, &str) = ("tools/w.sh", RUN_SH);
    assert_refused(&[
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os, subprocess\n\
                     os.environ[\"RUNNER\"] = open(\"tools/which\").read().strip()\n\
                     subprocess.run([\"sh\", \"-c\", \"sh \\\"$RUNNER\\\"\"])\n",
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
                    "import os, subprocess\nw = open('tools/which').read().strip()\n\
                     subprocess.run(['sh', 'tools/run.sh'], env={**os.environ, 'RUNNER': w})\n",
                ),
                ("tools/run.sh", "sh \"$RUNNER\"\n"),
                WHICH,
                W,
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import os\nos.putenv('RUNNER', open('tools/which').read().strip())\n\
                     os.system('$RUNNER')\n",
                ),
                WHICH,
                W,
            ],
        ),
    ]);
}

/// Node's `process.env.X = …`, `Object.assign(process.env, {…})` and a
/// child's `env: {…}` (consent round 5, item 2): a literal is covered;
/// a value known only as it runs, run by a shell child, is a refusal.
#[test]
fn a_variable_a_node_script_gives_a_shell_child_is_covered_or_refused() {
    assert_cases_lapse(&[Case {
        command: "node tools/s.js",
        files: &[
            (
                "tools/s.js",
                "const cp = require('child_process')\nprocess.env.RUNNER = 'tools/w.sh'\n\
                 cp.spawnSync('sh', ['tools/run.sh'], {stdio: 'inherit'})\n",
            ),
            ("tools/run.sh", "sh \"$RUNNER\" </dev/null\n"),
            ("tools/w.sh", RUN_SH),
        ],
        executable: &[],
        edited: "tools/w.sh",
    }]);
    const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
    const W: (&str, &str) = ("tools/w.sh", RUN_SH);
    const RUN: (&str, &str) = ("tools/run.sh", "sh \"$RUNNER\"\n");
    assert_refused(&[
        (
            "node tools/s.js",
            &[
                (
                    "tools/s.js",
                    "const fs = require('fs'), cp = require('child_process')\n\
                     process.env.RUNNER = fs.readFileSync('tools/which', 'utf8').trim()\n\
                     process.stdout.write(cp.execSync('sh \"$RUNNER\"'))\n",
                ),
                WHICH,
                W,
            ],
        ),
        (
            "node tools/s.js",
            &[
                (
                    "tools/s.js",
                    "const fs = require('fs'), cp = require('child_process')\n\
                     Object.assign(process.env, {RUNNER: fs.readFileSync('tools/which', 'utf8').trim()})\n\
                     cp.spawnSync('sh', ['tools/run.sh'], {stdio: 'inherit'})\n",
                ),
                RUN,
                WHICH,
                W,
            ],
        ),
        (
            "node tools/s.js",
            &[
                (
                    "tools/s.js",
                    "const fs = require('fs'), cp = require('child_process')\n\
                     const w = fs.readFileSync('tools/which', 'utf8').trim()\n\
                     cp.spawnSync('sh', ['tools/run.sh'], {\n  stdio: 'inherit',\n  env: {\n    ...process.env,\n    RUNNER: w,\n  },\n})\n",
                ),
                RUN,
                WHICH,
                W,
            ],
        ),
    ]);
}
