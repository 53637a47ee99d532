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
