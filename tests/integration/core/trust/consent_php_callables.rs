//! Consent round 12, item 6: a PHP call through a callable the script
//! takes from outside itself (`$argv`, `getenv`, a file read,
//! `json_decode`) or builds to hide a name (`strrev`, `base64_decode`,
//! `str_rot13`, `implode`, `.=`, written pieces joined) is refused: it
//! may be `system`. A callable the program holds (a written name that
//! runs nothing, a parameter, a property) is let be, as real libraries
//! dispatch on them.

use super::consent_ruby_php::{assert_trusted, php};
use super::consent_runtime::assert_each_refused;

#[test]
fn a_php_callable_from_outside_or_hidden_is_refused() {
    assert_each_refused(&[
        php("$f = $argv[1];\n$f($w);\n"),
        php("$f = getenv('RUNNER');\ncall_user_func($f, $w);\n"),
        php("$f = trim(file_get_contents('tools/which'));\ncall_user_func_array($f, [$w]);\n"),
        php("$f = json_decode('\"system\"');\narray_map($f, [$w]);\n"),
        php("$m = $argv[1];\n$obj = new ArrayObject([]);\n$obj->$m($w);\n"),
        php("$c = $argv[1];\n$m = $argv[2];\n[$c, $m]($w);\n"),
        php("$f = strrev('metsys');\n$f($w);\n"),
        php("$f = base64_decode('c3lzdGVt');\n$f($w);\n"),
        php("$f = str_rot13('flfgrz');\ncall_user_func($f, $w);\n"),
        php("$f = implode('', ['sys', 'tem']);\n$f($w);\n"),
        php("$f = 'sys';\n$f .= 'tem';\n$f($w);\n"),
        php("$a = 'sys';\n$b = 'tem';\n$f = $a . $b;\n$f($w);\n"),
        php("strrev('metsys')($w);\n"),
        php("$f = sprintf('%s%s', 'sys', 'tem');\n$f($w);\n"),
        php("$f = substr('xsystem', 1);\ncall_user_func($f, $w);\n"),
        php("foreach (json_decode('[\"system\"]') as $f) {\n  $f($w);\n}\n"),
    ]);
}

#[test]
fn a_php_callable_the_program_holds_is_let_be() {
    assert_trusted(&[
        php("$f = 'trim';\necho $f(' x ');\nsystem('sh tools/w.sh');\n"),
        php("function apply($f, $x) { return $f($x); }\n\
             echo apply('strtoupper', 'x');\nsystem('sh tools/w.sh');\n"),
        php(
            "echo implode(',', array_map('trim', file('tools/which')));\nsystem('sh tools/w.sh');\n",
        ),
    ]);
}
