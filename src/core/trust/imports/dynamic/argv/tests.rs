//! The argv reader's unit tests: computed and known argvs, sinks and
//! their callers, imported names, git hook commands.

use super::super::{Lang, python_code};
use super::*;

fn refused(text: &str) -> Vec<String> {
    let code = python_code(text);
    python(&code, &Bound::read(&code, Lang::Python)).unknown
}

#[test]
fn a_computed_program_or_script_is_named_and_a_known_one_is_not() {
    for text in [
        "import os, subprocess\nsubprocess.run([\"sh\", os.environ[\"R\"]])\n",
        "import subprocess, sys\nsubprocess.call([sys.executable, some_var])\n",
        "import os\nos.execv(x, [x])\n",
        "import os\nos.system(f\"sh {name}\")\n",
        "import os\nos.system(cmd)\n",
        "import subprocess\nsubprocess.Popen(\"bash \" + w, shell=True)\n",
        "import subprocess\nsubprocess.run(cmd)\n",
        "import subprocess\ncmd = ['python3']\ncmd.append(x)\nsubprocess.run(cmd)\n",
        "import os\nos.execl('/bin/sh', 'sh', script)\n",
        "import subprocess\nsubprocess.run(['env', 'A=1', 'sh', w])\n",
        "import subprocess\nsubprocess.run(['sh', '-c', line])\n",
        "import subprocess\nsubprocess.check_output(['node'] + args)\n",
    ] {
        assert_eq!(refused(text).len(), 1, "{text}");
    }
    for text in [
        "import subprocess\nsubprocess.run(['sh', 'tools/w.sh'])\n",
        "import subprocess\nw = 'tools/w.sh'\nsubprocess.run(['sh', w])\n",
        "import subprocess\nsubprocess.run(['git', 'log', ref])\n",
        "import subprocess\nsubprocess.run(['python3', '--version'])\n",
        "import subprocess, sys\nsubprocess.run([sys.executable, '-m', 'pip', x])\n",
        "import os\nos.system('sh tools/w.sh')\n",
        "import os\nos.system(f\"git log {ref}\")\n",
        "import os\nos.system(\"rm -rf \" + tmp)\n",
        "import os\nos.system(\"sh tools/w.sh %s\" % arg)\n",
        "import subprocess\nsubprocess.run(' '.join(['sh', 'tools/w.sh']), shell=True)\n",
        "import subprocess\ncmd = ['git', 'status']\nsubprocess.run(cmd)\n",
        "import os\nos.execv('/bin/ls', ['ls', d])\n",
        "def Popen(x):\n    pass\n",
        "import subprocess\nsubprocess.run(['bash', '-c', \"ls '{p}'\".format(p=x)])\n",
        "import subprocess\ncmd = [\n    'git',\n    'status',\n]\nsubprocess.run(cmd + [x])\n",
        "import subprocess\nexe = 'git' if x else 'hg'\nsubprocess.run([exe, 'clone', u])\n",
    ] {
        assert_eq!(refused(text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn a_function_that_runs_its_parameter_is_a_sink_and_its_callers_are_read() {
    let text = "import os, subprocess\n\ndef run(\n    cmd: str,\n) -> int:\n    try:\n        \
                return os.system(cmd)\n    finally:\n        pass\n\n\
                class A:\n    def call(self, argv, check=True):\n        \
                return subprocess.run(argv, check=check)\n";
    let code = python_code(text);
    let runs = python(&code, &Bound::read(&code, Lang::Python));
    assert_eq!(runs.unknown, Vec::<String>::new());
    let names: Vec<(&str, usize, bool)> = runs
        .sinks
        .iter()
        .map(|s| (s.name.as_str(), s.index, s.shell))
        .collect();
    assert_eq!(names, [("call", 0, false), ("run", 0, true)]);
    let caller = "from util import run, A\nrun('sh tools/w.sh')\nrun(f'sh {x}')\n\
                  A().call(['sh', w])\nA().call(argv=['git', y])\n\
                  def go(line):\n    run(line)\n";
    let found = sink_calls(&python_code(caller), &runs.sinks, "s", &Defined::new());
    assert_eq!(found.unknown, ["A().call(['sh', w])", "run(f'sh {x}')"]);
    assert!(found.hands_a_shell);
    assert_eq!(found.sinks.len(), 1);
    assert_eq!(found.sinks[0].name, "go");
}

#[test]
fn an_imported_name_or_a_module_alias_is_read_as_the_call_it_names() {
    for text in [
        "from subprocess import run, Popen\nrun(['sh', w])\n",
        "from subprocess import run as r\nr(cmd)\n",
        "from os import system\nsystem(f'sh {w}')\n",
        "from os import *\nexecv(w, [w])\n",
        "import subprocess as sp\nsp.call(['python3', w])\n",
        "import os as o\no.popen('sh ' + w)\n",
        "from subprocess import (\n    check_output as co,\n)\nco(['sh', w])\n",
        "import subprocess\nrun = subprocess.run\nrun(['sh', w])\n",
        "import subprocess as sp\np = sp.Popen\nq = p\nq(['python3', w])\n",
        "import os\nsh = os.system\nsh(f'sh {w}')\n",
    ] {
        assert_eq!(refused(text).len(), 1, "{text}");
    }
    for text in [
        "from subprocess import run\nrun(['sh', 'tools/w.sh'])\nself.run(w)\njob.run(w)\n",
        "import subprocess\nrun(w)\n",
        "from os import system\ndef system(x):\n    pass\n",
        "import os\nsh = os.system\nsh('sh tools/w.sh')\nx = os.path\nx(w)\n",
    ] {
        assert_eq!(refused(text), Vec::<String>::new(), "{text}");
    }
}

fn refusals(text: &str) -> Vec<(String, String)> {
    let code = python_code(text);
    python(&code, &Bound::read(&code, Lang::Python)).refusals
}

#[test]
fn a_known_git_argv_or_shell_line_that_runs_hooks_is_refused() {
    for text in [
        "import subprocess\nsubprocess.run(['git', '-C', d, 'commit', '-m', m])\n",
        "import os\nos.system('git push -q')\n",
        "import os\nos.system(f'git commit -m {m}')\n",
        "import subprocess\nsubprocess.run('git checkout main', shell=True)\n",
        "import subprocess\nsubprocess.run(['bash', '-c', 'git pull'])\n",
        "import os\nos.execvp('git', ['git', 'rebase', b])\n",
        "from subprocess import run\nGIT = 'git'\nrun([GIT, 'merge', b])\n",
        "import os\nos.system('ls | xargs sh')\n",
    ] {
        assert_eq!(refusals(text).len(), 1, "{text}");
    }
    for text in [
        "import subprocess\nsubprocess.run(['git', 'log', '-1', ref])\n",
        "import os\nos.system('git status; git diff --stat')\n",
        "import subprocess\nsubprocess.run(['git', sub])\n",
        "import os\nos.system(f'git show {ref}')\n",
    ] {
        assert_eq!(refusals(text), Vec::new(), "{text}");
    }
}

#[test]
fn a_sink_is_told_from_another_module_s_function_of_its_name() {
    let code = python_code("import os\ndef run(cmd):\n    return os.system(cmd)\n");
    let runs = python(&code, &Bound::read(&code, Lang::Python));
    let sinks: Vec<Sink> = runs
        .sinks
        .into_iter()
        .map(|s| s.in_module("util"))
        .collect();
    // `other` defines a `run` of its own; `pkg` hands util's on.
    let defined: Defined = [("other".to_string(), "run".to_string())].into();
    let called =
        |text: &str, stem: &str| sink_calls(&python_code(text), &sinks, stem, &defined).unknown;
    for (text, stem) in [
        ("import util\nutil.run(w)\n", "s"),
        ("import tools.util\ntools.util.run(w)\n", "s"),
        ("import util as u\nu.run(w)\n", "s"),
        ("from util import run\nrun(w)\n", "s"),
        ("x.run(w)\n", "s"),
        ("run(w)\n", "util"),
        ("from pkg import run\nrun(w)\n", "s"),
        ("import pkg\npkg.run(w)\n", "s"),
    ] {
        assert_eq!(called(text, stem).len(), 1, "{text}");
    }
    for text in [
        "import other\nother.run(w)\n",
        "from other import run\nrun(w)\n",
        "import tools.other\ntools.other.run(w)\n",
    ] {
        assert!(called(text, "s").is_empty(), "{text}");
    }
}

#[test]
fn a_parameter_wrapped_in_a_call_makes_a_sink_and_bindings_are_read_per_function() {
    let code = python_code(
        "import subprocess\ndef call(cmd):\n    return subprocess.Popen(reveal(cmd))\n\
         def other(path):\n    return subprocess.run(open(path).read(), shell=True)\n\
         def a():\n    cmd = 'git status'\n    subprocess.run(cmd, shell=True)\n\
         def b():\n    cmd = ['sh', 'tools/w.sh']\n    subprocess.run(cmd)\n",
    );
    let runs = python(&code, &Bound::read(&code, Lang::Python));
    assert_eq!(runs.sinks.len(), 1, "{:?}", runs.sinks);
    assert_eq!(runs.sinks[0].name, "call");
    assert_eq!(runs.unknown.len(), 1, "{:?}", runs.unknown);
    assert!(runs.unknown[0].contains("open(path)"));
}

#[test]
fn each_command_of_a_written_start_is_read() {
    for start in [
        "stty -g 2>/dev/null; sh ",
        "cd t && sh ",
        "date\nsh ",
        "date\\nsh ",
        "ls | xargs ",
        "echo $(",
        "echo `",
        "(sh ",
        "\\x73h ",
        "exec sh ",
        "nohup ",
        ". ",
        "if true; then sh ",
        "perl -e 'x; y ",
        "command sh ",
        "sh < ",
        "bash -s < ",
        "php <",
        "sh 2>/dev/null <",
        "cat x | sh -",
        "sh $X ",
    ] {
        assert!(!start_known(start), "{start:?}");
    }
    for start in [
        "command -v -- ",
        "stty ",
        "stty -g 2>/dev/null; ls ",
        "cd t && sh x.sh ",
        "rm -rf ",
        "git log ",
        "sh x.sh < ",
        "sh 2>/dev/null x.sh ",
    ] {
        assert!(start_known(start), "{start:?}");
    }
}
