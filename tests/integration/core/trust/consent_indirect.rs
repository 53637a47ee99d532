//! What a script reaches a program-running call through other than a
//! plain import or attribute (consent round 7): Python's `getattr(m,
//! "run")`, `__import__("m")`, `importlib.import_module("m")`, a module
//! bound by assignment, `functools.partial(subprocess.run, …)`; read as
//! the call they name (a computed program refused, a literal covered),
//! and a function chosen by a computed name refused. Node's sinks
//! beyond `child_process` (`util.promisify`, `execa`, `cross-spawn`,
//! `shelljs`) read as `child_process`'s are, and a `PATH` folder built
//! from `__dirname` and a literal covered.

use super::consent_runtime::{
    Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused, assert_refused, leak,
};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);
const READ: &str = "w = open('tools/which').read().strip()\n";

fn python(text: &str) -> (&'static str, Files) {
    let text = leak(format!("{READ}{text}"));
    (
        "python3 tools/s.py",
        Box::leak(Box::new([("tools/s.py", text), WHICH, W])),
    )
}

fn python_case(text: &'static str) -> Case {
    Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", text), W])),
        executable: &[],
        edited: "tools/w.sh",
    }
}

/// A sink reached by `getattr`, `__import__`, `import_module`, a module
/// bound by assignment or `functools.partial`, given a computed argv or
/// line: refused as `subprocess.run(…)` is; a function of `subprocess`
/// or `os` chosen by a computed name: refused.
#[test]
fn a_python_sink_reached_indirectly_with_a_computed_argv_is_refused() {
    assert_each_refused(&[
        python("import subprocess\ngetattr(subprocess, 'run')(['sh', w])\n"),
        python("import os\ngetattr(os, \"system\")('sh ' + w)\n"),
        python("import subprocess\ngetattr(subprocess, w)(['sh', 'tools/w.sh'])\n"),
        python("__import__('subprocess').run(['sh', w])\n"),
        python("import importlib\nsp = importlib.import_module('subprocess')\nsp.run(['sh', w])\n"),
        python("import importlib\nimportlib.import_module('os').system('sh ' + w)\n"),
        python(
            "import functools, subprocess\np = functools.partial(subprocess.run, ['sh', w])\n\
             p()\n",
        ),
        python(
            "import subprocess\nfrom functools import partial\n\
             runner = partial(subprocess.check_call, shell=True)\nrunner('sh ' + w)\n",
        ),
        python("import subprocess\nsp = subprocess\nsp.run(['sh', w])\n"),
        python("import subprocess as s\nsp = s\nrun = getattr(sp, 'run')\nrun(['sh', w])\n"),
        python("import os\ngetattr(os, 'system')('git -C .none commit -qm x')\n"),
        python(
            "import os, subprocess\nos.environ['PATH'] = f\"{w}:{os.environ['PATH']}\"\n\
             subprocess.run(['app'])\n",
        ),
    ]);
}

/// The same forms given literals stay covered (an edit of the script
/// they run lapses), and `getattr` of a module's other names is let be.
#[test]
fn a_python_sink_reached_indirectly_with_a_literal_argv_is_covered() {
    assert_cases_lapse(&[
        python_case("import subprocess\ngetattr(subprocess, 'run')(['sh', 'tools/w.sh'])\n"),
        python_case(
            "import functools, subprocess\n\
             p = functools.partial(subprocess.run, ['sh', 'tools/w.sh'])\np()\n",
        ),
        python_case("import subprocess\nsp = subprocess\nsp.run(['sh', 'tools/w.sh'])\n"),
        python_case("__import__('os').system('sh tools/w.sh')\n"),
        python_case(
            "import os, subprocess\nb = getattr(os, 'O_BINARY', 0)\nd = getattr(os, 'getcwd')()\n\
             subprocess.run(['sh', 'tools/w.sh'])\n",
        ),
    ]);
}

const JS_READ: &str =
    "const fs = require('fs')\nconst w = fs.readFileSync('tools/which', 'utf8').trim()\n";

fn node(text: &str) -> (&'static str, Files) {
    let text = leak(format!("{JS_READ}{text}"));
    (
        "node tools/s.js",
        Box::leak(Box::new([("tools/s.js", text), WHICH, W])),
    )
}

/// A program or line known only as it runs, handed to a promisified
/// `child_process` function, `execa` (its functions, its `$` template),
/// `cross-spawn` or `shelljs`'s `exec`: refused; and a git command that
/// runs hooks through them.
#[test]
fn a_node_script_running_a_computed_program_through_another_module_is_refused() {
    assert_each_refused(&[
        node(
            "const util = require('util')\nconst cp = require('child_process')\n\
             const exec = util.promisify(cp.exec)\nexec('sh ' + w)\n",
        ),
        node(
            "const { promisify } = require('util')\nconst child_process = require('child_process')\n\
             const run = promisify(child_process.execFile)\nrun('sh', [w])\n",
        ),
        node(
            "const { execFile } = require('node:child_process')\n\
             const run = require('util').promisify(execFile)\nrun(w, [])\n",
        ),
        node("import { execa } from 'execa'\nawait execa('sh', [w])\n"),
        node("import { execaSync } from 'execa'\nexecaSync(w)\n"),
        node("const execa = require('execa')\nexeca.command(`sh ${w}`)\n"),
        node("import { execaCommand } from 'execa'\nawait execaCommand('sh ' + w)\n"),
        node("import { $ } from 'execa'\nawait $`sh ${w}`\n"),
        node("const spawn = require('cross-spawn')\nspawn.sync('sh', [w], { stdio: 'inherit' })\n"),
        node("const spawn = require('cross-spawn')\nspawn(w, [], { stdio: 'inherit' })\n"),
        node("const shell = require('shelljs')\nshell.exec('sh ' + w)\n"),
        node("import { exec } from 'shelljs'\nexec(`${w}`)\n"),
        node(
            "import { execa } from 'execa'\nawait execa('git', ['-C', '.none', 'commit', '-qm', 'x'])\n",
        ),
        node("const shell = require('shelljs')\nshell.exec('git -C .none push')\n"),
        node(
            "const cp = require('child_process')\nconst path = require('path')\n\
             process.env.PATH = path.join(__dirname, w) + path.delimiter + process.env.PATH\n\
             cp.execFileSync('app', { stdio: 'inherit' })\n",
        ),
        node(
            "const cp = require('child_process')\n\
             const env = { ...process.env, PATH: `${w}:${process.env.PATH}` }\n\
             cp.execFileSync('app', { stdio: 'inherit', env })\n",
        ),
    ]);
}

/// A promisified function given a literal stays covered, and a `PATH`
/// folder built from `__dirname` and a literal has its programs covered
/// (an edit of `tools/bin/app` lapses).
#[test]
fn a_node_script_s_literal_runs_and_dirname_path_folders_are_covered() {
    let case = |text: &'static str, edited: &'static str| Case {
        command: "node tools/s.js",
        files: Box::leak(Box::new([
            ("tools/s.js", text),
            W,
            ("tools/bin/app", RUN_SH),
        ])),
        executable: &["tools/bin/app"],
        edited,
    };
    assert_cases_lapse(&[
        case(
            "const util = require('util')\nconst cp = require('child_process')\n\
             const exec = util.promisify(cp.exec)\n\
             exec('sh tools/w.sh </dev/null').then(r => process.stdout.write(r.stdout))\n",
            "tools/w.sh",
        ),
        case(
            "const cp = require('child_process')\nconst path = require('path')\n\
             process.env.PATH = path.join(__dirname, 'bin') + path.delimiter + process.env.PATH\n\
             cp.execFileSync('app', { stdio: 'inherit' })\n",
            "tools/bin/app",
        ),
        case(
            "const cp = require('child_process')\n\
             const env = { ...process.env, PATH: `${__dirname}/bin:${process.env.PATH}` }\n\
             cp.execFileSync('app', { stdio: 'inherit', env })\n",
            "tools/bin/app",
        ),
    ]);
}

/// Ruby code built as it runs by `class_eval`/`instance_eval`/`eval` of
/// a heredoc that interpolates: refused (decision only: the test needs
/// no ruby). A Perl `eval "require Foo"` of a literal stays trusted.
#[test]
fn ruby_eval_of_an_interpolating_heredoc_is_refused_and_a_literal_perl_eval_is_not() {
    for text in [
        "name = File.read('tools/which').strip\nclass Foo\n  class_eval <<~RUBY, __FILE__, __LINE__ + 1\n    \
         def #{name}; end\n  RUBY\nend\n",
        "code = File.read('tools/which')\nFoo.instance_eval <<-SRC\n  #{code}\n  SRC\n",
        "x = File.read('tools/which')\neval <<~X\n#{x}\nX\n",
    ] {
        assert_refused(&[(
            "ruby tools/s.rb",
            Box::leak(Box::new([("tools/s.rb", text), WHICH, W])),
        )]);
    }
    assert_cases_lapse(&[Case {
        command: "perl tools/s.pl",
        files: &[
            (
                "tools/s.pl",
                "eval \"require Foo\";\neval \"require Foo::Bar; 1\" or 1;\ndo \"./tools/w.pl\";\n",
            ),
            ("tools/w.pl", "print \"SUMMARY\\n\";\n"),
        ],
        executable: &[],
        edited: "tools/w.pl",
    }]);
}

/// A Perl script's shell line naming a project script (`system('sh
/// tools/w.sh')`, backticks, `exec`): the script is covered (an edit
/// lapses), as a Python or Node script's literal is. Found in this
/// round: ctx-s12d ran an edited tools/w.sh unreviewed.
#[test]
fn a_perl_script_s_literal_program_lines_are_covered() {
    let case = |text: &'static str| Case {
        command: "perl tools/s.pl",
        files: Box::leak(Box::new([("tools/s.pl", text), W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case("system('sh tools/w.sh');\n"),
        case("my $out = `sh tools/w.sh </dev/null`;\nprint $out;\n"),
        case("system('sh', 'tools/w.sh');\n"),
    ]);
}

/// A Perl, Ruby, PHP or Lua script running a program or script known
/// only as it runs (`system("sh $w")`, backticks, `qx`, an argv whose
/// script is computed), or a git command that runs hooks: refused. The
/// Ruby, PHP and Lua cases are decisions only (no interpreter needed).
#[test]
fn a_perl_ruby_php_or_lua_script_running_a_computed_program_is_refused() {
    let perl = |text: &'static str| -> (&'static str, Files) {
        let text = leak(format!(
            "open(my $h, '<', 'tools/which');\nmy $w = <$h>;\n{text}"
        ));
        (
            "perl tools/s.pl",
            Box::leak(Box::new([("tools/s.pl", text), WHICH, W])),
        )
    };
    let other =
        |command: &'static str, path: &'static str, text: &'static str| -> (&'static str, Files) {
            (command, Box::leak(Box::new([(path, text), WHICH, W])))
        };
    assert_each_refused(&[
        perl("system(\"sh $w\");\n"),
        perl("system('sh', $w);\n"),
        perl("print `sh $w`;\n"),
        perl("print qx{sh $w};\n"),
        perl("exec $w;\n"),
        perl("system('git -C .none commit -qm x');\n"),
        other(
            "ruby tools/s.rb",
            "tools/s.rb",
            "w = File.read('tools/which').strip\nsystem(\"sh #{w}\")\n",
        ),
        other(
            "ruby tools/s.rb",
            "tools/s.rb",
            "w = File.read('tools/which').strip\nputs `sh #{w}`\n",
        ),
        other(
            "ruby tools/s.rb",
            "tools/s.rb",
            "w = File.read('tools/which').strip\nIO.popen(['sh', w]).read\n",
        ),
        other(
            "php tools/s.php",
            "tools/s.php",
            "<?php\n$w = trim(file_get_contents('tools/which'));\nsystem(\"sh $w\");\n",
        ),
        other(
            "lua tools/s.lua",
            "tools/s.lua",
            "local w = io.open('tools/which'):read('l')\nos.execute('sh ' .. w)\n",
        ),
    ]);
}
