//! Round 10: Ruby and PHP measured on Debian's gems and PHP libraries
//! (`benches/consent_refusals.sh … ruby php`). PHP's `@proc_open(…)` is a
//! run, its own `function exec(` is none, and `sprintf('stty %s', …)`
//! names its program. The review's bypasses of the narrowings tried
//! first (REVIEW_C10 B1–B4: a Ruby `open` of a path "that cannot start
//! with `|`", a `def` of a run or load, a word "in prose" across lines)
//! stay refused.

use super::consent::hostile;
use super::consent_runtime::{Files, RUN_SH, assert_each_refused, leak};
use crate::common::Project;

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);

pub(super) fn ruby(text: &str) -> (&'static str, Files) {
    let text = leak(format!("w = File.read('tools/which').strip\n{text}"));
    (
        "ruby tools/s.rb",
        Box::leak(Box::new([("tools/s.rb", text), WHICH, W])),
    )
}

pub(super) fn php(text: &str) -> (&'static str, Files) {
    let text = leak(format!(
        "<?php\n$w = trim(file_get_contents('tools/which'));\n{text}"
    ));
    (
        "php tools/s.php",
        Box::leak(Box::new([("tools/s.php", text), WHICH, W])),
    )
}

/// Trusted, and the review covers tools/w.sh, which each script runs.
pub(super) fn assert_trusted(cases: &[(&'static str, Files)]) {
    for (command, files) in cases {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in *files {
            p.write(path, text);
        }
        let shown = p.ok(&["trust", "--yes"]);
        assert!(shown.contains("tools/w.sh"), "{}: {shown}", files[0].1);
    }
}

/// REVIEW_C10 B1, B2: an `open` whose argument only looks like a path
/// (a local changed after the line above assigned it, an empty or
/// escaped first string) may start with `|`.
#[test]
fn a_ruby_open_of_a_computed_path_is_refused() {
    assert_each_refused(&[
        ruby(
            "source = File.expand_path('data.txt', __dir__)\n\
             print open(source).read if source.replace(w)\n",
        ),
        ruby("source = w\nsource = __dir__ +\n  open(source).read\n"),
        ruby("source = w\nsource = __dir__\n  .then { open(source) }\n"),
        ruby(
            "source = w\nsource = File.expand_path('data.txt', __dir__) + '' if ARGV.include?('-l')\n\
             print open(source).read\n",
        ),
        ruby(
            "source = w\nif ARGV.include?('--local')\n  source = File.expand_path('d', __dir__)\n\
             else print open(source).read\nend\n",
        ),
        ruby(
            "def source = File.read('tools/which').strip\n\
             source = File.expand_path('data.txt', __dir__)\ndef fetch = open(source).read\nprint fetch\n",
        ),
        ruby(
            "source = w\nnote = %q{\nx\nsource = File.expand_path('tools')\n} && print(open(source).read)\n",
        ),
        ruby(
            "source = File.expand_path('data.txt', __dir__)\n\
             print open(source).read if binding.local_variable_set('sour' + 'ce', w)\n",
        ),
        ruby("print open('' + w).read\n"),
        ruby("print open(File.join(\"\") + w).read\n"),
        ruby("print open(File.join(\"\\x7c\") + w).read\n"),
        ruby("def get(source)\n  open(source) { |f| f.read }\nend\nget(w)\n"),
        ruby("open(File.join(w, 'x'))\n"),
        ruby("open(w, 'w') { |f| f.write('x') }\n"),
    ]);
}

/// REVIEW_C10 B3, B4: a `def` of a load or a run may call it through
/// `super`, and a word after a string or `%` literal that an earlier
/// line opened is code.
#[test]
fn a_ruby_redefined_load_or_run_and_a_word_after_a_multiline_string_are_refused() {
    assert_each_refused(&[
        ruby("def require(name)\n  super(File.read('tools/which').strip)\nend\nrequire 'json'\n"),
        ruby("def require(n) = super(File.read('tools/which').strip)\nrequire 'json'\n"),
        ruby("def system(*args)\n  super(w)\nend\nsystem('date')\n"),
        ruby("def load(fn)\n  super(w)\nend\nload 'x.rb'\n"),
        ruby("puts \"Plugins:\n\"; load w\n"),
        ruby("note = %q(\n  see #1) + load(w).to_s\n"),
        ruby("note = \"\n  eval here\" + eval(w).to_s\n"),
        ruby("x = %r{ # }; load(w)\n"),
        ruby("x = /'/; load(w); y = /'/\n"),
        ruby("exec(w)\n"),
        ruby("def run(c)\n  exec(c)\nend\nrun(w)\n"),
    ]);
}

#[test]
fn a_php_run_silenced_by_at_is_read_and_a_sprintf_names_its_program() {
    assert_each_refused(&[
        // PHP's function names in any case (recheck 20).
        php("SYSTEM($w);\n"),
        php("echo Shell_Exec($w);\n"),
        php("$h = PoPen($w, 'r');\n"),
        php("$p = @proc_open($w, [], $pipes);\n"),
        php("@exec($w);\n"),
        php("shell_exec(sprintf('%s', $w));\n"),
        php("shell_exec(sprintf(\"sh $w %s\", 'x'));\n"),
        php("function go($c) { exec($c); }\ngo($w);\n"),
        // REVIEW_C10 B5: a known first program, then more shell.
        php("echo shell_exec(sprintf('stty -g 2>/dev/null; sh %s', $w));\n"),
        php("echo shell_exec(sprintf(\"\\x73h %s\", $w));\n"),
        php("exec(\"stty; sh $w\");\n"),
        php("exec(\"cd tools && sh $w\");\n"),
        ruby("system(\"cd x && sh #{w}\")\n"),
        ruby("system(\"date; sh #{w}\")\n"),
        ruby("system(\"\\x73h #{w}\")\n"),
    ]);
    assert_trusted(&[php("$m = 'sane';\nshell_exec(sprintf('stty %s', $m));\n\
         function exec_all($c) { return 1; }\nfunction exec($c) {\n  return 1;\n}\n\
         system('sh tools/w.sh');\n")]);
}

/// Item 3a: a Ruby `"#{…}"` interpolation is code.
#[test]
fn a_ruby_call_inside_an_interpolation_is_read() {
    assert_each_refused(&[
        ruby("puts \"#{system(File.read('tools/which'))}\"\n"),
        ruby("puts \"a #{exec(w)} b\"\n"),
        ruby("puts \"#{load(w)}\"\n"),
        ruby("x = \"#{require(w)}\"\n"),
        ruby("banner = <<~TXT\n#{`sh #{w}`}\nTXT\nputs banner\n"),
        ruby("banner = <<~TXT\n#{load(w)}\nTXT\nputs banner\n"),
        ruby("puts \"#{{a: 1}[:a]} #{system(w)}\"\n"),
    ]);
    assert_trusted(&[ruby(
        "puts \"could not run #{w}: system error\"\nputs 'a #{system(w)}'\n\
         system('sh', 'tools/w.sh')\n",
    )]);
}

/// Items 3b, 3e: a quote in a PHP `/* */` comment hides no call, and a
/// line opening with PHP 8's `#[` is code.
#[test]
fn a_php_call_after_a_comment_or_an_attribute_is_read() {
    assert_each_refused(&[
        php("/* don't */ echo shell_exec($w);\n"),
        php("/* it's\n   here */ exec($w);\n"),
        php("#[Attr] function go() { return shell_exec($GLOBALS['w']); }\ngo();\n"),
        php("#[Attr]\nfunction go() { return 1; } passthru($w);\n"),
    ]);
    assert_trusted(&[php(
        "/**\n * `array|\\Monolog\\LogRecord $record`\n */\n// exec($w);\n# exec($w);\n\
         system('sh tools/w.sh');\n",
    )]);
}

/// Item 3c: a Ruby string opening with an escape may write the `|`.
#[test]
fn a_ruby_open_of_a_string_opening_with_an_escape_is_refused() {
    assert_each_refused(&[
        ruby("print open(\"\\x7c\" + w).read\n"),
        ruby("print open(\"\\174sh \" + w).read\n"),
        ruby("print IO.read(\"\\u007c\" + w)\n"),
    ]);
}

/// Item 3d: a run or a load called by another name.
#[test]
fn a_run_or_a_load_by_another_name_is_refused() {
    assert_each_refused(&[
        ruby("Kernel.load(w)\n"),
        ruby("Kernel.eval(File.read(w))\n"),
        ruby("Kernel.system(w)\n"),
        ruby("Kernel.exec(w)\n"),
        ruby("binding.eval(File.read(w))\n"),
        ruby("send(:system, w)\n"),
        ruby("public_send(:system, 'sh', w)\n"),
        ruby("__send__(:load, w)\n"),
        ruby("method(:load).call(w)\n"),
        ruby("alias sh system\nsh(w)\n"),
        php("call_user_func('exec', $w);\n"),
        php("call_user_func_array('shell_exec', [$w]);\n"),
        php("$f = 'exec';\n$f($w);\n"),
    ]);
    assert_trusted(&[ruby(
        "Kernel.require 'json'\nsend(:puts, w)\nsystem('sh', 'tools/w.sh')\n",
    )]);
}

/// Item 3f: a run whose arguments go on the next line is not read, so
/// it is refused.
#[test]
fn a_run_whose_arguments_go_on_the_next_line_is_refused() {
    assert_each_refused(&[
        ruby("system(\n  File.read('tools/which').strip)\n"),
        ruby("exec(\n  w\n)\n"),
        php("exec(\n  $w\n);\n"),
        php("echo shell_exec(\n  $w);\n"),
    ]);
}

/// As REVIEW_C10 B3 for `open`: a script's own `def open` that may call
/// Kernel's through `super`.
#[test]
fn a_ruby_def_open_that_calls_super_is_refused() {
    assert_each_refused(&[
        ruby("def open(*a)\n  super('|' + File.read('tools/which').strip)\nend\nopen('x')\n"),
        ruby("def open(path) = super(w)\nopen('x')\n"),
    ]);
    assert_trusted(&[ruby(
        "def initialize\n  super\nend\ndef open(path)\n  path\nend\nopen('x')\n\
         system('sh', 'tools/w.sh')\n",
    )]);
}

/// Recheck 20: a wrapper program (`nice`, `nohup`, `timeout`, `setsid`)
/// runs the words after it, so a computed script after one is refused;
/// a written one is reviewed.
#[test]
fn a_run_through_a_wrapper_program_is_read() {
    assert_each_refused(&[
        ruby("system('nice', 'sh', w)\n"),
        ruby("system('nohup', 'sh', w)\n"),
        ruby("system('timeout', '5', 'sh', w)\n"),
        ruby("system('setsid', w)\n"),
    ]);
    assert_trusted(&[ruby("system('nice', '-n', '5', 'sh', 'tools/w.sh')\n")]);
}
