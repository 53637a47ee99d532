//! Consent to a command covers every project file it can run (recheck of
//! sweep round 10, F5, F6, F8, F15): a line a script hands a shell, a
//! command held in a variable, the programs of a project folder put in
//! `PATH`, the files a Node script runs through `child_process`, the
//! modules Python imports through `exec` or from folders it adds to its
//! search. And a command whose script is decided only as it runs (by a
//! command's output, or a folder known only then) cannot be trusted.

use crate::common;

use common::{Project, stderr, stdout};

use super::consent::{assert_consent_lapsed, hostile};

/// The summary a script prints after reading what it is given.
pub(super) const RUN_SH: &str = "#!/bin/sh\ncat >/dev/null; echo SUMMARY\n";

/// A project's files: path and text.
pub(super) type Files = &'static [(&'static str, &'static str)];

/// One case: the command, the files of the project (the executable ones
/// marked), and the file edited or added after consent.
pub(super) struct Case {
    pub(super) command: &'static str,
    pub(super) files: Files,
    pub(super) executable: &'static [&'static str],
    pub(super) edited: &'static str,
}

/// What an edited file does instead: leave `pwned.txt`.
pub(super) fn payload(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("py") => "open('pwned.txt', 'w')\n",
        Some("pth") => "import os; open('pwned.txt', 'w')\n",
        Some("js") => "require('fs').writeFileSync('pwned.txt', '')\n",
        _ => "#!/bin/sh\ntouch pwned.txt\n",
    }
}

/// Make the project a git repository (its config is then written over).
pub(super) fn git_init(p: &Project) {
    let status = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(p.root())
        .status()
        .expect("git");
    assert!(status.success());
}

/// Each case (a command, the files it finds, the file then edited):
/// `trust` lists the edited file when it exists, and after the edit the
/// build says the consent lapsed (the command's tools need not be here).
pub(super) fn assert_edits_lapse(cases: &[(&str, Files, &str)]) {
    for &(command, files, edited) in cases {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in files {
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

/// Each case: trusted, the command runs; after the edit it does not, and
/// the build says the consent lapsed.
pub(super) fn assert_cases_lapse(cases: &[Case]) {
    for case in cases {
        let p = Project::empty();
        hostile(&p, case.command);
        if case.files.iter().any(|(path, _)| path.starts_with(".git/")) {
            git_init(&p);
        }
        for (path, text) in case.files {
            p.write(path, text);
        }
        for path in case.executable {
            common::files::make_executable(&p.path(path));
        }
        let shown = p.ok(&["trust", "--yes"]);
        let out = p.run(&["build"]);
        assert!(
            stdout(&out).contains("SUMMARY"),
            "{}: {shown}\n{}",
            case.command,
            stderr(&out)
        );
        let existed = p.path(case.edited).exists();
        p.write(case.edited, payload(case.edited));
        if !existed {
            common::files::make_executable(&p.path(case.edited));
        }
        assert_consent_lapsed(&p, &format!("{} {}", case.command, case.edited));
    }
}

/// A script's quoted line for a shell, a command kept in a variable, and
/// the programs of a project folder put in `PATH` (at the command's
/// start or in the script) are covered.
#[test]
fn consent_covers_what_shell_lines_variables_and_path_folders_run() {
    assert_cases_lapse(&[
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "bash -c \"sh tools/w.sh\"\n"),
                ("tools/w.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                ("tools/s.sh", "R=\"sh tools/w.sh\"\n$R\n"),
                ("tools/w.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "PATH=bin:$PATH sh tools/s.sh",
            files: &[("tools/s.sh", "helper\n"), ("bin/helper", RUN_SH)],
            executable: &["bin/helper"],
            edited: "bin/helper",
        },
        Case {
            // A program added to the folder shadows one the scripts run.
            command: "PATH=bin:$PATH sh tools/s.sh",
            files: &[("tools/s.sh", "helper\n"), ("bin/helper", RUN_SH)],
            executable: &["bin/helper"],
            edited: "bin/cat",
        },
        Case {
            command: "sh tools/s.sh",
            files: &[
                (
                    "tools/s.sh",
                    "PATH=\"$(dirname \"$0\")/../bin:$PATH\"\nhelper\n",
                ),
                ("bin/helper", RUN_SH),
            ],
            executable: &["bin/helper"],
            edited: "bin/helper",
        },
    ]);
}

/// What a Node script runs through `child_process` (a shell line, or
/// `node` with a script) is covered as a Python script's `os.system`
/// and `subprocess` literals are.
#[test]
fn consent_covers_what_a_node_script_runs_through_child_process() {
    assert_cases_lapse(&[
        Case {
            command: "node tools/s.js",
            files: &[
                (
                    "tools/s.js",
                    "require('child_process').execSync(\"sh tools/w.sh\", {stdio: 'inherit'})\n",
                ),
                ("tools/w.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/w.sh",
        },
        Case {
            command: "node tools/s.js",
            files: &[
                (
                    "tools/s.js",
                    "const cp = require('child_process')\n\
                     cp.spawnSync(\"node\", [\"tools/w.js\"], {stdio: 'inherit'})\n",
                ),
                ("tools/w.js", "process.stdout.write('SUMMARY')\n"),
            ],
            executable: &[],
            edited: "tools/w.js",
        },
    ]);
}

/// What Python imports through a string it `exec`s, from a folder it
/// puts in `sys.path`, and the `.pth` files of a folder it hands
/// `site.addsitedir`, are covered.
#[test]
fn consent_covers_what_python_imports_by_exec_and_added_folders() {
    assert_cases_lapse(&[
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import sys\nexec(\"import helper\")\nprint('SUMMARY')\n",
                ),
                ("tools/helper.py", "X = 1\n"),
            ],
            executable: &[],
            edited: "tools/helper.py",
        },
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import os, sys\n\
                     sys.path.insert(0, os.path.join(os.path.dirname(__file__), \"..\", \"vendor\"))\n\
                     import vv\nprint('SUMMARY')\n",
                ),
                ("vendor/vv.py", "X = 1\n"),
            ],
            executable: &[],
            edited: "vendor/vv.py",
        },
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import site\nsite.addsitedir(\"tools/sd\")\nprint('SUMMARY')\n",
                ),
                ("tools/sd/keep.txt", "\n"),
            ],
            executable: &[],
            edited: "tools/sd/x.pth",
        },
    ]);
}

/// A command whose script is what another command prints, at its top
/// level or in a script it runs, or whose module search is a folder known
/// only as it runs, cannot be trusted (nothing is recorded, nothing runs).
#[test]
fn consent_is_refused_for_what_is_decided_only_as_it_runs() {
    for (command, files) in [
        (
            "sh $(cat tools/which)",
            &[("tools/which", "tools/s.sh\n"), ("tools/s.sh", RUN_SH)][..],
        ),
        (
            "python3 `cat tools/n`",
            &[
                ("tools/n", "tools/s.py\n"),
                ("tools/s.py", "print('SUMMARY')\n"),
            ],
        ),
        (
            "sh tools/s.sh",
            &[
                ("tools/s.sh", "R=$(cat tools/cmd)\n$R\n"),
                ("tools/cmd", "sh tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ],
        ),
        (
            "python3 tools/s.py",
            &[(
                "tools/s.py",
                "import os, sys\nsys.path.insert(0, os.environ.get('V', 'x'))\nprint('SUMMARY')\n",
            )],
        ),
    ] {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in files {
            p.write(path, text);
        }
        let out = p.run(&["trust", "--yes"]);
        assert!(!out.status.success(), "{command}: trusted");
        assert!(
            stderr(&out).contains("decided only as it runs"),
            "{command}: {}",
            stderr(&out)
        );
        let out = p.run(&["build"]);
        assert!(!stdout(&out).contains("SUMMARY"), "{command}: ran");
        let shown = p.run(&["trust", "--show"]);
        assert!(
            stdout(&shown).contains("(cannot be trusted; name each file it runs)"),
            "{command}: {}",
            stdout(&shown)
        );
    }
}

/// `node .` runs the file the folder's `package.json` names as `main`,
/// and an npm script's `$npm_package_config_NAME` is the file's
/// `config.NAME`: both are covered (trust listed neither).
#[test]
fn consent_covers_a_package_s_main_and_its_config_values() {
    assert_cases_lapse(&[
        Case {
            command: "node .",
            files: &[
                ("package.json", r#"{"main": "tools/m.js"}"#),
                ("tools/m.js", "process.stdout.write('SUMMARY')\n"),
            ],
            executable: &[],
            edited: "tools/m.js",
        },
        Case {
            command: "npm run -s summary",
            files: &[
                (
                    "package.json",
                    r#"{"config": {"script": "tools/s.js"},
                        "scripts": {"summary": "node $npm_package_config_script"}}"#,
                ),
                ("tools/s.js", "process.stdout.write('SUMMARY')\n"),
            ],
            executable: &[],
            edited: "tools/s.js",
        },
    ]);
}

/// `git sum`, where the repository's `.git/config` makes `sum` an alias
/// of a shell line (`!sh tools/s.sh`), runs that line: the config and the
/// script are covered; an alias set with `-c` is read as well.
#[test]
fn consent_covers_what_a_git_alias_runs() {
    const CONFIG: &str = "[core]\n\tbare = false\n[alias]\n\tsum = !sh tools/s.sh\n";
    assert_cases_lapse(&[
        Case {
            command: "git sum",
            files: &[(".git/config", CONFIG), ("tools/s.sh", RUN_SH)],
            executable: &[],
            edited: "tools/s.sh",
        },
        Case {
            command: "git sum",
            files: &[(".git/config", CONFIG), ("tools/s.sh", RUN_SH)],
            executable: &[],
            edited: ".git/config",
        },
        Case {
            command: "git -c alias.x='!sh tools/s.sh' x",
            files: &[
                (".git/config", "[core]\n\tbare = false\n"),
                ("tools/s.sh", RUN_SH),
            ],
            executable: &[],
            edited: "tools/s.sh",
        },
    ]);
    let p = Project::empty();
    hostile(&p, "git sum");
    git_init(&p);
    p.write(".git/config", "[alias]\n\tsum = !sh $(cat tools/which)\n");
    let out = p.run(&["trust", "--yes"]);
    assert!(!out.status.success(), "an alias running a command's output");
}

/// What a runner reads before the script runs is covered (read without
/// running it, as the runners may be missing here): deno's `--config`
/// import map targets, `bundle exec`'s Gemfile and the files it
/// `eval_gemfile`s, `uv run`'s `pyproject.toml` and a `setup.py` that
/// appears, `pytest`'s `conftest.py` files, its ini and the plugin its
/// `addopts` load.
#[test]
fn consent_covers_what_runners_read_before_the_script() {
    let cases: &[(&str, Files, &str)] = &[
        (
            "deno run --config other.json tools/s.ts",
            &[
                ("other.json", r#"{"imports": {"h": "./tools/h.ts"}}"#),
                ("tools/s.ts", "import \"h\";\n"),
                ("tools/h.ts", "export const x = 1;\n"),
            ],
            "tools/h.ts",
        ),
        (
            "bundle exec ruby tools/s.rb",
            &[
                (
                    "Gemfile",
                    "source 'https://rubygems.org'\neval_gemfile \"tools/extra.gemfile\"\n",
                ),
                ("tools/extra.gemfile", "gem 'rake'\n"),
                ("tools/s.rb", "puts 1\n"),
            ],
            "tools/extra.gemfile",
        ),
        (
            "bundle exec ruby tools/s.rb",
            &[
                ("Gemfile", "source 'https://rubygems.org'\n"),
                ("tools/s.rb", "puts 1\n"),
            ],
            "Gemfile",
        ),
        (
            "uv run tools/s.py",
            &[
                (
                    "pyproject.toml",
                    "[project]\nname = \"x\"\nversion = \"1\"\n",
                ),
                ("tools/s.py", "print(1)\n"),
            ],
            "pyproject.toml",
        ),
        (
            "uv run tools/s.py",
            &[
                (
                    "pyproject.toml",
                    "[project]\nname = \"x\"\nversion = \"1\"\n",
                ),
                ("tools/s.py", "print(1)\n"),
            ],
            "setup.py",
        ),
        (
            "python3 -m pytest -q tools/test_s.py",
            &[
                ("tools/test_s.py", "def test_a():\n    pass\n"),
                ("tools/conftest.py", "X = 1\n"),
                ("pytest.ini", "[pytest]\naddopts = -p myplugin\n"),
                ("myplugin.py", "X = 1\n"),
            ],
            "tools/conftest.py",
        ),
        (
            "python3 -m pytest -q tools/test_s.py",
            &[
                ("tools/test_s.py", "def test_a():\n    pass\n"),
                ("pytest.ini", "[pytest]\naddopts = -p myplugin\n"),
                ("myplugin.py", "X = 1\n"),
            ],
            "myplugin.py",
        ),
        (
            "python3 -m pytest -q tools/test_s.py",
            &[("tools/test_s.py", "def test_a():\n    pass\n")],
            "conftest.py",
        ),
    ];
    assert_edits_lapse(cases);
}

/// Each case (a command and the files it finds): `trust` refuses because
/// what runs is decided only as it runs, and the build runs nothing.
pub(super) fn assert_refused(cases: &[(&str, Files)]) {
    for &(command, files) in cases {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in files {
            p.write(path, text);
        }
        let out = p.run(&["trust", "--yes"]);
        assert!(!out.status.success(), "{command} {files:?}: trusted");
        assert!(
            stderr(&out).contains("decided only as it runs"),
            "{command}: {}",
            stderr(&out)
        );
        assert!(
            !stdout(&p.run(&["build"])).contains("SUMMARY"),
            "{command}: ran"
        );
    }
}

/// A Python script that sets `PYTHONPATH` for a Python child (in
/// `os.environ`, a child's `env=`, `os.putenv`) makes the child import
/// from that folder: what it imports there is covered (V36: editing
/// `vendor/vv.py` ran new code), and so for a Node script's `NODE_PATH`;
/// a value known only as it runs is a refusal.
#[test]
fn consent_covers_what_a_python_child_imports_from_the_pythonpath_it_is_given() {
    const VV: (&str, &str) = ("vendor/vv.py", "print('SUMMARY')\n");
    assert_cases_lapse(&[
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import os, subprocess, sys\nos.environ[\"PYTHONPATH\"] = \"vendor\"\n\
                     subprocess.run([sys.executable, \"-c\", \"import vv\"])\n",
                ),
                VV,
            ],
            executable: &[],
            edited: "vendor/vv.py",
        },
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import os, subprocess\n\
                     subprocess.run([\"python3\", \"tools/w.py\"],\n    \
                     env={**os.environ, \"PYTHONPATH\": \"vendor\"})\n",
                ),
                ("tools/w.py", "import vv\n"),
                VV,
            ],
            executable: &[],
            edited: "vendor/vv.py",
        },
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import os\nos.putenv('PYTHONPATH', 'vendor' + os.pathsep + 'lib')\n\
                     os.system('python3 -m vv')\n",
                ),
                VV,
            ],
            executable: &[],
            edited: "vendor/vv.py",
        },
        Case {
            command: "node tools/s.js",
            files: &[
                (
                    "tools/s.js",
                    "process.env.NODE_PATH = 'vendor'
                     require('child_process').spawnSync('node', ['-e', \"require('vv')\"],
                         {stdio: 'inherit'})
",
                ),
                ("vendor/vv.js", "process.stdout.write('SUMMARY')\n"),
            ],
            executable: &[],
            edited: "vendor/vv.js",
        },
    ]);
    assert_refused(&[(
        "python3 tools/s.py",
        &[
            (
                "tools/s.py",
                "import os, subprocess, sys\n\
                 os.environ['PYTHONPATH'] = open('tools/where').read().strip()\n\
                 subprocess.run([sys.executable, '-c', 'import vv'])\n",
            ),
            ("tools/where", "vendor\n"),
            VV,
        ],
    )]);
}

/// Python runs a folder's (or a zip's) `__main__.py` with the folder
/// first in its search, for `runpy.run_path("tools/app")` as for
/// `python3 tools/app` and `python3 -m pkg`; and a script without an
/// extension is read as what its interpreter reads. What each imports
/// is covered, and running the command (which writes `__pycache__`)
/// keeps the consent.
#[test]
fn consent_covers_what_python_runs_from_a_folder_or_a_file_without_an_extension() {
    let app = |command: &'static str, edited: &'static str| Case {
        command,
        files: &[
            ("tools/s.py", "import runpy\nrunpy.run_path('tools/app')\n"),
            ("tools/app/__main__.py", "import h\nprint(h.X)\n"),
            ("tools/app/h.py", "X = 'SUMMARY'\n"),
        ],
        executable: &[],
        edited,
    };
    assert_cases_lapse(&[
        app("python3 tools/s.py", "tools/app/h.py"),
        app("python3 tools/s.py", "tools/app/__main__.py"),
        app("python3 tools/app", "tools/app/h.py"),
        Case {
            command: "python3 tools/app",
            files: &[
                ("tools/app", "import hh\nprint(hh.X)\n"),
                ("tools/hh.py", "X = 'SUMMARY'\n"),
            ],
            executable: &[],
            edited: "tools/hh.py",
        },
        Case {
            command: "sh tools/app",
            files: &[("tools/app", "sh tools/w.sh\n"), ("tools/w.sh", RUN_SH)],
            executable: &[],
            edited: "tools/w.sh",
        },
    ]);
    for command in ["python3 -m pkg", "python3 tools/app"] {
        let p = Project::empty();
        hostile(&p, command);
        p.write("pkg/__init__.py", "");
        p.write("pkg/__main__.py", "from pkg import h\nprint(h.X)\n");
        p.write("pkg/h.py", "X = 'SUMMARY'\n");
        p.write("tools/app/__main__.py", "import h\nprint(h.X)\n");
        p.write("tools/app/h.py", "X = 'SUMMARY'\n");
        p.ok(&["trust", "--yes"]);
        for _ in 0..2 {
            let out = p.run(&["build"]);
            assert!(
                stdout(&out).contains("SUMMARY"),
                "{command}: {}",
                stderr(&out)
            );
        }
    }
}

/// A script that runs a file without an extension or `#!` line as
/// Python (`runpy.run_path("tools/app")`, `subprocess.run(["python3",
/// "tools/app"])`, `[sys.executable, …]`, a shell script's `python3
/// tools/app`) makes it read as Python: what it imports is covered
/// (round 13, left undone by round 12).
#[test]
fn consent_covers_what_a_script_s_extensionless_python_file_imports() {
    const APP: (&str, &str) = ("tools/app", "import hh\nprint(hh.X)\n");
    const HH: (&str, &str) = ("tools/hh.py", "X = 'SUMMARY'\n");
    let case = |command: &'static str, files: Files| Case {
        command,
        files,
        executable: &[],
        edited: "tools/hh.py",
    };
    assert_cases_lapse(&[
        case(
            "python3 tools/s.py",
            &[
                ("tools/s.py", "import runpy\nrunpy.run_path('tools/app')\n"),
                APP,
                HH,
            ],
        ),
        case(
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import subprocess\nsubprocess.run([\"python3\", \"tools/app\"])\n",
                ),
                APP,
                HH,
            ],
        ),
        case(
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import subprocess, sys\nsubprocess.run([sys.executable, '-u', 'tools/app'])\n",
                ),
                APP,
                HH,
            ],
        ),
        case(
            "sh tools/s.sh",
            &[("tools/s.sh", "python3 tools/app\n"), APP, HH],
        ),
    ]);
}

/// Each case refused on its own: the scripts trusted.
pub(super) fn assert_each_refused(cases: &[(&'static str, Files)]) {
    let trusted: Vec<String> = cases
        .iter()
        .filter(|case| std::panic::catch_unwind(|| assert_refused(&[**case])).is_err())
        .map(|(_, files)| files[0].1.to_string())
        .collect();
    assert!(trusted.is_empty(), "not refused: {trusted:#?}");
}

/// `text` for a case table of `&'static str`s.
pub(super) fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}
