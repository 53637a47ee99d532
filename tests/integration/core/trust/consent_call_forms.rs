//! Recheck 21: the forms a Ruby or PHP run takes that the line reader
//! missed. A run called on a receiver (`Kernel::system`, `Process.exec`,
//! `PTY.spawn`), a PHP call spread over lines, code after a string that
//! spans lines and holds `#` or `//`, and a run named by a string or a
//! symbol (`array_map('system', …)`, `:system.to_proc`,
//! `send(computed)`): each is refused as the plain call is.

use super::consent_ruby_php::{assert_trusted, php, ruby};
use super::consent_runtime::{Files, RUN_SH, assert_each_refused, leak};

/// Item 3: any receiver form of Ruby's run methods.
#[test]
fn a_ruby_run_on_a_receiver_is_refused() {
    assert_each_refused(&[
        ruby("Kernel::system(w)\n"),
        ruby("::Kernel.system(w)\n"),
        ruby("::Kernel::exec(w)\n"),
        ruby("Process.exec(w)\n"),
        ruby("Process::spawn(w)\n"),
        ruby("Kernel.spawn(w)\n"),
        ruby("require 'pty'\nPTY.spawn(w)\n"),
        ruby("IO::popen(w)\n"),
    ]);
}

/// Item 4: a PHP run whose name and `(` are on separate lines, or whose
/// arguments go on after a trailing comma; and Ruby's alike.
#[test]
fn a_run_spread_over_lines_is_read_as_one_statement() {
    assert_each_refused(&[
        php("system\n($w);\n"),
        php("system(\n  'sh',\n  $w\n);\n"),
        php("exec('sh ' .\n  $w);\n"),
        php("$p = proc_open(\n  ['sh', $w],\n  [],\n  $pipes\n);\n"),
        ruby("system('sh',\n  w)\n"),
        ruby("system 'sh',\n  w\n"),
    ]);
}

/// Item 5: a string that spans lines and holds `#`, `//` or `/*` does
/// not make the code after it a comment.
#[test]
fn code_after_a_multiline_string_holding_a_comment_mark_is_read() {
    let python = |text: &str| -> (&'static str, Files) {
        let text = leak(format!(
            "import os\nw = open('tools/which').read().strip()\n{text}"
        ));
        (
            "python3 tools/s.py",
            Box::leak(Box::new([
                ("tools/s.py", text),
                ("tools/which", "tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ])),
        )
    };
    let perl = |text: &str| -> (&'static str, Files) {
        let text = leak(format!(
            "open(my $h, '<', 'tools/which');\nmy $w = <$h>;\n{text}"
        ));
        (
            "perl tools/s.pl",
            Box::leak(Box::new([
                ("tools/s.pl", text),
                ("tools/which", "tools/w.sh\n"),
                ("tools/w.sh", RUN_SH),
            ])),
        )
    };
    assert_each_refused(&[
        perl("my $s = \"\n# \"; system(\"sh $w\");\n"),
        perl("my $s = '\n# '; do $w;\n"),
        perl("my $s = 'a\n x # '; system(\"sh $w\");\n"),
        php("$s = \"\n# \"; system($w);\n"),
        php("$s = '\n// '; system($w);\n"),
        php("$s = '\n/* '; system($w); $t = '*/';\n"),
        ruby("s = \"\n# \"; system(w)\n"),
        ruby("s = '\n# '; exec(w)\n"),
        ruby("s = %q(\n# ); system(w)\n"),
        python("s = '''\n# '''; os.system('sh ' + w)\n"),
        python("s = \"\"\"\n# \"\"\"; os.system('sh ' + w)\n"),
        python("s = 'x\\\n# '; os.system('sh ' + w)\n"),
    ]);
    assert_trusted(&[
        php("// system($w);\n# exec($w);\n/* passthru($w); */\nsystem('sh tools/w.sh');\n"),
        ruby("# system(w)\n=begin\nexec(w)\n=end\nsystem('sh', 'tools/w.sh')\n"),
    ]);
}

/// Item 6: a PHP run or eval function named by a string.
#[test]
fn a_php_function_passed_by_name_is_refused() {
    assert_each_refused(&[
        php("array_map('system', [$w]);\n"),
        php("('system')($w);\n"),
        php("(new ReflectionFunction('system'))->invoke($w);\n"),
        php("$f = 'sys' . 'tem';\n$f($w);\n"),
        php("register_shutdown_function('system', $w);\n"),
        php("$c = Closure::fromCallable('exec');\n$c($w);\n"),
        php("$a = [$w, $w];\nusort($a, 'passthru');\n"),
        php("$a = [$w];\narray_walk($a, 'SYSTEM');\n"),
        php("call_user_func(\"shell_exec\", $w);\n"),
        php("$f = \"pas\" . \"sthru\"; $f($w);\n"),
    ]);
    assert_trusted(&[php(
        "if (function_exists('proc_open')) { echo 1; }\n$m = ['exec' => 1];\n\
         array_map('trim', [$w]);\nsystem('sh tools/w.sh');\n",
    )]);
}

/// Item 7: a Ruby run, load or eval reached through a symbol or string
/// naming it, a computed method name, or a loader method.
#[test]
fn a_ruby_run_named_by_a_symbol_or_a_computed_method_is_refused() {
    assert_each_refused(&[
        ruby("public_method(:system).call(w)\n"),
        ruby(":system.to_proc.call(Kernel, w)\n"),
        ruby("[w].each(&method(:system))\n"),
        ruby("m = :system\nsend(m, w)\n"),
        ruby("m = File.read('tools/m').strip\npublic_send(m, w)\n"),
        ruby("Kernel.method('exec').call(w)\n"),
        ruby("RubyVM::InstructionSequence.compile(File.read(w)).eval\n"),
        ruby("autoload(:Foo, w)\nFoo\n"),
        ruby("Gem::Specification.load(w)\n"),
        ruby("require 'rake'\nRake.load_rakefile(w)\n"),
        ruby("require 'erb'\nputs ERB.new(File.read(w)).result\n"),
        ruby("x = %w[sys tem].join\nsend(x, w)\n"),
        ruby("args = [File.read('tools/m').strip, w]\nsend(*args)\n"),
    ]);
    assert_trusted(&[ruby(
        "send(:puts, w)\nputs w.to_sym.inspect\nsystem('sh', 'tools/w.sh')\n",
    )]);
}
