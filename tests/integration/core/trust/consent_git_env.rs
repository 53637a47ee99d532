//! Environments that escape the summary's hooks-off settings (consent
//! round 8, item 1): a child given an environment of its own (Node's
//! `env: {…}` without `...process.env`, execa's `extendEnv: false`,
//! Python's `env={…}`, shell `env -i`) that runs git or a shell or
//! interpreter, and git's settings variables (`GIT_CONFIG_PARAMETERS`,
//! `GIT_CONFIG_COUNT`, `GIT_CONFIG_GLOBAL`, `GIT_DIR`, `GIT_EXEC_PATH`, …)
//! set by a script itself.

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused};

fn case(command: &'static str, path: &'static str, text: &'static str) -> (&'static str, Files) {
    (command, Box::leak(Box::new([(path, text)])))
}

fn node(text: &'static str) -> (&'static str, Files) {
    case("node tools/s.js", "tools/s.js", text)
}

fn python(text: &'static str) -> (&'static str, Files) {
    case("python3 tools/s.py", "tools/s.py", text)
}

fn shell(text: &'static str) -> (&'static str, Files) {
    case("sh tools/s.sh", "tools/s.sh", text)
}

/// A Node, Python or shell child with an environment of its own that
/// runs git (a subcommand that may write) or a shell or interpreter
/// with a script: refused.
#[test]
fn a_child_given_an_environment_of_its_own_that_runs_git_or_a_shell_is_refused() {
    assert_each_refused(&[
        node(
            "const cp = require('child_process')\n\
             cp.spawnSync('git', ['-C', '.none', 'status'], { env: { PATH: process.env.PATH } })\n",
        ),
        node(
            "const { execSync } = require('child_process')\nexecSync('git -C .none status', { env: {} })\n",
        ),
        node(
            "const cp = require('child_process')\n\
             cp.execFileSync('sh', ['tools/w.sh'], { env: { PATH: '/usr/bin:/bin' } })\n",
        ),
        node(
            "const cp = require('child_process')\nconst env = { PATH: '/usr/bin:/bin' }\n\
             cp.spawnSync('git', ['-C', '.none', 'branch', 'c8'], { env })\n",
        ),
        node(
            "const { execa } = require('execa')\n\
             execa('git', ['-C', '.none', 'branch', 'c8'], { extendEnv: false, env: { PATH: '/bin' } })\n",
        ),
        node(
            "const spawn = require('cross-spawn')\n\
             spawn.sync('git', ['-C', '.none', 'status'], { env: {} })\n",
        ),
        node("const cp = require('child_process')\ncp.fork('tools/w.js', [], { env: {} })\n"),
        python(
            "import os, subprocess\n\
             subprocess.run(['git', '-C', '.none', 'status'], env={'PATH': os.environ['PATH']})\n",
        ),
        python("import subprocess\nsubprocess.run(['sh', 'tools/w.sh'], env={'PATH': '/bin'})\n"),
        python("import subprocess\nsubprocess.run(['sh', '-c', 'git -C .none status'], env={})\n"),
        shell("env -i PATH=/usr/bin:/bin sh tools/w.sh\n"),
        shell("env -i PATH=/usr/bin:/bin sh -c 'git -C .none status'\n"),
    ]);
}

/// Git's settings variables set (or the summary's own removed) by the
/// script itself, in each language read: refused.
#[test]
fn a_script_that_sets_git_s_settings_variables_is_refused() {
    assert_each_refused(&[
        shell("export GIT_CONFIG_PARAMETERS=\"'core.hookspath'='tools/h'\"\ngit -C .none status\n"),
        shell("unset GIT_CONFIG_COUNT\ngit -C .none status\n"),
        shell("GIT_EXEC_PATH=tools git -C .none log\n"),
        shell("export GIT_CONFIG_GLOBAL=tools/gitconfig\n"),
        python("import os\nos.environ['GIT_CONFIG_COUNT'] = '0'\n"),
        python("import os\nos.putenv('GIT_DIR', '.none')\n"),
        python(
            "import os, subprocess\n\
             subprocess.run(['git', 'log'], env={**os.environ, 'GIT_EXEC_PATH': 'tools'})\n",
        ),
        python("import os\ndel os.environ['GIT_CONFIG_KEY_0']\n"),
        node("process.env.GIT_CONFIG_PARAMETERS = \"'core.hookspath'='tools/h'\"\n"),
        node(
            "const cp = require('child_process')\n\
             cp.spawnSync('git', ['log'], { env: { ...process.env, GIT_DIR: '.none' } })\n",
        ),
        case(
            "perl tools/s.pl",
            "tools/s.pl",
            "$ENV{GIT_CONFIG_GLOBAL} = 'tools/gc';\n",
        ),
        case(
            "ruby tools/s.rb",
            "tools/s.rb",
            "ENV['GIT_DIR'] = '.none'\n",
        ),
        case(
            "php tools/s.php",
            "tools/s.php",
            "<?php\nputenv('GIT_CONFIG_SYSTEM=tools/gc');\n",
        ),
    ]);
}

/// What stays trusted: a Node or Python child whose environment is the
/// inherited one plus more, a git that writes nothing in an environment
/// of its own, reading or removing `GIT_DIR`; each lapses on an edit of
/// the script it runs.
#[test]
fn an_inherited_environment_and_reads_of_git_s_variables_stay_covered() {
    let lapse = |command: &'static str, path: &'static str, text: &'static str| Case {
        command,
        files: Box::leak(Box::new([(path, text), ("tools/w.sh", RUN_SH)])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        lapse(
            "node tools/s.js",
            "tools/s.js",
            "const cp = require('child_process')\n\
             cp.spawnSync('git', ['-C', '.none', 'log', '-1'], { env: { PATH: process.env.PATH } })\n\
             const d = process.env.GIT_DIR || '.git'\n\
             cp.spawnSync('sh', ['tools/w.sh'], { env: { ...process.env, A: '1' }, stdio: ['ignore', 'inherit', 'inherit'] })\n",
        ),
        lapse(
            "python3 tools/s.py",
            "tools/s.py",
            "import os, subprocess\nd = os.environ.get('GIT_DIR')\nenv = os.environ.copy()\n\
             subprocess.run(['sh', 'tools/w.sh'], env=env, stdin=subprocess.DEVNULL)\n",
        ),
        lapse(
            "perl tools/s.pl",
            "tools/s.pl",
            "delete $ENV{GIT_DIR};\nsystem('sh tools/w.sh </dev/null');\n",
        ),
        lapse(
            "sh tools/s.sh",
            "tools/s.sh",
            "unset GIT_DIR\nsh tools/w.sh\n",
        ),
    ]);
}

/// Round 9, item 1: `GIT_DIR`, `GIT_COMMON_DIR` and `GIT_WORK_TREE` set
/// in shell text (a command's own line or a script's) before a git run:
/// git reads a repository's config and aliases, or a tree's attributes,
/// that no review found. Refused (round 8 let them be).
#[test]
fn a_repository_or_work_tree_named_in_shell_text_is_refused() {
    assert_each_refused(&[
        shell("export GIT_DIR=/tmp/elsewhere/.git\ngit log -1\n"),
        shell("GIT_DIR=.none git -C . log -1\n"),
        shell("env GIT_COMMON_DIR=.none git log -1\n"),
        shell("GIT_WORK_TREE=/tmp git diff --stat\n"),
        case("GIT_DIR=other.git git log -1", "tools/s.sh", "x\n"),
    ]);
}

/// Round 9, item 2: an environment variable whose name is built as the
/// script runs (`"GIT_" + "DIR"`, `` `GIT_${x}` ``, `$ENV{$k}`, `"$n=x"`,
/// or into a copy a child is handed: `env[k] = v; run(…, env=env)`) in
/// a script that runs a program: it may be git's, which no reading can
/// tell. Refused.
#[test]
fn a_variable_whose_name_is_built_as_it_runs_is_refused() {
    assert_each_refused(&[
        python(
            "import os, subprocess\nos.environ['GIT_' + 'DIR'] = '.none'\n\
             subprocess.run(['git', 'log', '-1'])\n",
        ),
        python(
            "import os, subprocess\nk = open('tools/which').read().strip()\nos.environ[k] = '.none'\n\
             subprocess.run(['git', 'log', '-1'])\n",
        ),
        python(
            "import os, subprocess\nos.environ.update({f'GIT_{x}': '.none' for x in ['DIR']})\n\
             subprocess.run(['git', 'log', '-1'])\n",
        ),
        node(
            "const cp = require('child_process')\nconst x = 'DIR'\nprocess.env[`GIT_${x}`] = '.none'\n\
             cp.execFileSync('git', ['log', '-1'])\n",
        ),
        node(
            "const cp = require('child_process')\nObject.assign(process.env, JSON.parse(process.argv[2]))\n\
             cp.execFileSync('git', ['log', '-1'])\n",
        ),
        case(
            "perl tools/s.pl",
            "tools/s.pl",
            "my $k = 'GIT_' . 'DIR';\n$ENV{$k} = '.none';\nsystem('git', 'log', '-1');\n",
        ),
        case(
            "ruby tools/s.rb",
            "tools/s.rb",
            "x = 'DIR'\nENV['GIT_' + x] = '.none'\nsystem('git', 'log', '-1')\n",
        ),
        python(
            "import os, subprocess\nk = open('tools/which').read().strip()\nenv = os.environ.copy()\n\
             env[k] = '.none'\nsubprocess.run(['git', 'log', '-1'], env=env)\n",
        ),
        node(
            "const cp = require('child_process')\nconst x = 'DIR'\nconst env = { ...process.env }\n\
             env[`GIT_${x}`] = '.none'\ncp.execFileSync('git', ['log', '-1'], { env })\n",
        ),
        shell("n=GIT_DIR\nexport \"$n=.none\"\ngit log -1\n"),
        shell("export GIT_$(cat tools/which)=.none\ngit log -1\n"),
    ]);
}

/// What stays trusted in round 9: a built name that cannot be git's
/// (`"PIP_" + k`, `` `npm_config_${k}` ``), and a built name in a script
/// that runs no program; each lapses on an edit of what it covers.
#[test]
fn a_built_name_that_cannot_be_git_s_or_runs_nothing_stays_covered() {
    let lapse = |command: &'static str, path: &'static str, text: &'static str| Case {
        command,
        files: Box::leak(Box::new([(path, text), ("tools/w.sh", RUN_SH)])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        lapse(
            "python3 tools/s.py",
            "tools/s.py",
            "import os, subprocess\nfor k in ['A']:\n    os.environ['PIP_' + k] = '1'\n\
             subprocess.run(['sh', 'tools/w.sh'], stdin=subprocess.DEVNULL)\n",
        ),
        lapse(
            "node tools/s.js",
            "tools/s.js",
            "const cp = require('child_process')\nconst k = 'a'\nprocess.env[`npm_config_${k}`] = '1'\n\
             cp.spawnSync('sh', ['tools/w.sh'], { stdio: ['ignore', 'inherit', 'inherit'] })\n",
        ),
        lapse(
            "sh tools/s.sh",
            "tools/s.sh",
            "p=X\nexport \"${p}_HOME=1\"\nsh tools/w.sh\n",
        ),
    ]);
    let p = crate::common::Project::empty();
    super::consent::hostile(&p, "python3 tools/s.py");
    p.write(
        "tools/s.py",
        "import os, sys\nfor k, v in [('A', '1')]:\n    os.environ[k] = v\nprint('SUMMARY', sys.stdin.read()[:5])\n",
    );
    p.ok(&["trust", "--yes"]);
}
