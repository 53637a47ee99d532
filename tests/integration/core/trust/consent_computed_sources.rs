//! Recheck 21: where a Ruby, PHP or Perl script's code comes from when
//! data decides it. A `require`/`include` of a computed name, a shell
//! reading its script on stdin from a computed file or pipe, a
//! `BASH_ENV`/`ENV` set from data before a shell starts, and a file the
//! command line loads (`ruby -r./x`): each runs what no review covers,
//! so each is refused; the written forms stay trusted.

use super::consent_ruby_php::{assert_trusted, php, ruby};
use super::consent_runtime::{Files, RUN_SH, assert_each_refused};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);

fn perl(text: &str) -> (&'static str, Files) {
    let text = super::consent_runtime::leak(format!(
        "open(my $h, '<', 'tools/which');\nmy $w = <$h>;\n{text}"
    ));
    (
        "perl tools/s.pl",
        Box::leak(Box::new([("tools/s.pl", text), WHICH, W])),
    )
}

/// Item 1: a computed `require`/`require_relative`, PHP `include`/
/// `require` (`_once`) and `set_include_path`.
#[test]
fn a_computed_require_or_include_is_refused() {
    assert_each_refused(&[
        ruby("require File.read('tools/which').strip\n"),
        ruby("name = w\nrequire_relative \"#{name}\"\n"),
        ruby("require(ENV['X'])\n"),
        ruby("require_relative(w)\n"),
        php("include $w;\n"),
        php("include_once($w);\n"),
        php("require_once $w;\n"),
        php("$name = $w;\nrequire __DIR__ . '/' . $name . '.php';\n"),
        php("require __DIR__ . \"/$w\";\n"),
        php("include 'tools/' . $w;\n"),
        php("set_include_path($w);\ninclude 'x.php';\n"),
        php("set_include_path(get_include_path() . PATH_SEPARATOR . $w);\n"),
    ]);
    assert_trusted(&[
        ruby("require 'json'\nrequire File.join(__dir__, 'x')\nsystem('sh', 'tools/w.sh')\n"),
        php(
            "require __DIR__ . '/x.php';\ninclude_once dirname(__DIR__) . '/tools/y.php';\n\
             set_include_path(__DIR__ . '/lib');\nsystem('sh tools/w.sh');\n",
        ),
    ]);
}

/// Item 2: an interpreter whose script is its stdin, fed from a
/// computed file or pipe.
#[test]
fn a_shell_reading_a_computed_script_on_stdin_is_refused() {
    assert_each_refused(&[
        ruby("system(\"sh < #{w}\")\n"),
        ruby("system(\"cat #{w} | sh\")\n"),
        ruby("system(\"bash -s < #{w}\")\n"),
        ruby("puts `cat #{w} | bash -s x`\n"),
        php("passthru(\"php < $w\");\n"),
        php("system(\"bash -s < $w\");\n"),
        php("system(\"cat $w | sh\");\n"),
        php("system('sh < ' . $w);\n"),
        perl("system(\"sh < $w\");\n"),
        perl("system(\"cat $w | sh -s\");\n"),
    ]);
    assert_trusted(&[ruby("system(\"sh tools/w.sh < /dev/null\")\n")]);
}

/// Item 8: a computed `BASH_ENV` or `ENV` set before a shell starts.
#[test]
fn a_computed_bash_env_is_refused() {
    assert_each_refused(&[
        ruby("ENV['BASH_ENV'] = w\nsystem('bash', '-c', 'true')\n"),
        ruby("ENV[\"ENV\"] = w\nsystem('sh -i -c true')\n"),
        ruby("ENV.store('BASH_ENV', w)\nsystem('bash', '-c', 'true')\n"),
        ruby("system({'BASH_ENV' => w}, 'bash', '-c', 'true')\n"),
        php("putenv(\"BASH_ENV=$w\");\nsystem('bash -c true');\n"),
        php("putenv('BASH_ENV=' . $w);\nsystem('bash -c true');\n"),
        php("putenv(\"ENV=$w\");\nsystem('sh -c true');\n"),
        perl("$ENV{BASH_ENV} = $w;\nsystem('bash', '-c', 'true');\n"),
        perl("local $ENV{'ENV'} = $w;\nsystem('sh -c true');\n"),
    ]);
}

/// Item 9: a project file the command line loads (`ruby -r./x`) runs
/// first; it is covered or refused, never left out.
#[test]
fn a_file_the_command_line_requires_is_covered_or_refused() {
    let p = crate::common::Project::empty();
    super::consent::hostile(&p, "ruby -r./tools/q tools/s.rb");
    p.write("tools/s.rb", "puts 'x'\n");
    p.write("tools/q.rb", "puts 'q'\n");
    let out = p.run(&["trust", "--yes"]);
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        shown.contains("tools/q.rb") || !out.status.success(),
        "{shown}"
    );
}

/// Item 9: the Gemfile `require 'bundler/setup'` evaluates and the
/// Rakefile `rake` loads are covered (named in the consent).
#[test]
fn a_gemfile_behind_bundler_setup_and_a_rakefile_are_covered() {
    let p = crate::common::Project::empty();
    super::consent::hostile(&p, "ruby tools/s.rb");
    p.write("tools/s.rb", "require 'bundler/setup'\nputs 'x'\n");
    p.write("Gemfile", "source 'https://rubygems.org'\n");
    let shown = p.ok(&["trust", "--yes"]);
    assert!(shown.contains("Gemfile"), "{shown}");
    let p = crate::common::Project::empty();
    super::consent::hostile(&p, "rake summary");
    p.write("Rakefile", "task :summary do\n  puts 'x'\nend\n");
    let shown = p.ok(&["trust", "--yes"]);
    assert!(shown.contains("Rakefile"), "{shown}");
}
