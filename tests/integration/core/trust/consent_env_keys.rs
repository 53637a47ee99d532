//! Consent round 12, item 5: a script that runs programs after writing
//! an environment variable whose name it builds as it runs is refused
//! when the name may be one that makes a started program load a file
//! (`BASH_ENV`, `LD_PRELOAD`, `NODE_OPTIONS`, `PYTHONPATH`, `PHPRC`, …),
//! not only one of git's (round 9): `ENV['BASH' + '_ENV'] = w` ran `w`
//! through `bash -c`. A name whose written parts rule all of those out
//! (`"PIP_" + k`) is let be, and so is every computed key the script
//! writes when it runs no program.

use super::consent_ruby_php::{assert_trusted, php, ruby};
use super::consent_runtime::{Files, RUN_SH, assert_each_refused, leak};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);

fn with(command: &'static str, path: &'static str, text: String) -> (&'static str, Files) {
    (command, Box::leak(Box::new([(path, leak(text)), WHICH, W])))
}

fn python(text: &str) -> (&'static str, Files) {
    let head = "import os, subprocess\nw = open('tools/which').read().strip()\n";
    with("python3 tools/s.py", "tools/s.py", format!("{head}{text}"))
}

fn node(text: &str) -> (&'static str, Files) {
    let head = "const cp = require('child_process')\n\
                const w = require('fs').readFileSync('tools/which', 'utf8').trim()\n";
    with("node tools/s.js", "tools/s.js", format!("{head}{text}"))
}

fn perl(text: &str) -> (&'static str, Files) {
    let head = "open(my $h, '<', 'tools/which');\nmy $w = <$h>;\n";
    with("perl tools/s.pl", "tools/s.pl", format!("{head}{text}"))
}

#[test]
fn a_built_name_that_may_load_a_file_is_refused() {
    assert_each_refused(&[
        ruby("ENV['BASH' + '_ENV'] = w\nsystem('bash', '-c', 'true')\n"),
        ruby("ENV[\"BASH_#{ARGV[0]}\"] = w\nsystem('bash -c true')\n"),
        ruby("ENV.store('RUBY' + 'OPT', '-r' + w)\nsystem('ruby -e 1')\n"),
        php("putenv('BASH' . '_ENV=' . $w);\nsystem('bash -c true');\n"),
        perl("$ENV{'BASH' . '_ENV'} = $w;\nsystem('bash -c true');\n"),
        python("os.environ['BASH' + '_ENV'] = w\nsubprocess.run(['bash', '-c', 'true'])\n"),
        python("os.environ['PYTHON' + 'PATH'] = w\nsubprocess.run(['python3', '-c', '1'])\n"),
        node("process.env['NODE_' + 'OPTIONS'] = '-r ' + w\ncp.execSync('node -e 1')\n"),
        node("process.env[`LD_${process.argv[2]}`] = w\ncp.execSync('true')\n"),
    ]);
    // Computed keys of any name (round 9) stay refused.
    assert_each_refused(&[
        ruby("k = ARGV[0]\nENV[k] = w\nsystem('bash', '-c', 'true')\n"),
        ruby("ENV.update(JSON.parse(File.read('e')))\nsystem('bash -c true')\n"),
        php("$k = $argv[1];\nputenv(\"$k=$w\");\nsystem('bash -c true');\n"),
        perl("my $k = $ARGV[0];\n$ENV{$k} = $w;\nsystem('bash -c true');\n"),
        python("os.environ.update(d)\nsubprocess.run(['bash', '-c', 'true'])\n"),
        node("Object.assign(process.env, x)\ncp.execSync('bash -c true')\n"),
    ]);
}

#[test]
fn a_built_name_ruled_out_by_its_written_parts_is_let_be() {
    assert_trusted(&[
        ruby("ENV['PIP_' + ARGV[0]] = 'x'\nsystem('sh', 'tools/w.sh')\n"),
        php("putenv('APP_' . $argv[1] . '=1');\nsystem('sh tools/w.sh');\n"),
        ruby("ENV['X_' + ARGV[0]] = '1'\nsystem('sh', 'tools/w.sh')\n"),
    ]);
}

/// A variable that makes a program load a file, set on the command
/// line to what a command prints, is refused (`LD_PRELOAD=$(cat f)`).
#[test]
fn a_loader_variable_the_command_line_computes_is_refused() {
    let with = |command: &'static str| -> (&'static str, Files) {
        (command, &[WHICH, W, ("tools/s.py", "print('SUMMARY')\n")])
    };
    assert_each_refused(&[
        with("BASH_ENV=$(cat tools/which) bash -c 'python3 tools/s.py'"),
        with("LD_PRELOAD=$(cat tools/which) python3 tools/s.py"),
        with("PYTHONPATH=$(cat tools/which) python3 tools/s.py"),
        with("RUBYLIB=$(cat tools/which) ruby -e 1; python3 tools/s.py"),
        with("export PERL5LIB=`cat tools/which`; python3 tools/s.py"),
        with("NODE_PATH=$(cat tools/which) python3 tools/s.py"),
    ]);
}
