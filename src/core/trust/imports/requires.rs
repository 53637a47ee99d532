//! What a Ruby, PHP, Lua or Perl script loads from the project by a
//! statement that names a file or a module, for a consent to `ruby
//! tools/sum.rb` and the like, and where each interpreter looks for it:
//!
//! - Ruby: `require_relative "x"` beside the script; `require "./x"` and
//!   `load "x.rb"` from the current folder (the root: a project command
//!   runs there). A bare `require "x"` searches `$LOAD_PATH`: the
//!   folders the command adds (`-I dir`, `RUBYLIB=`) and those a script
//!   adds (`$LOAD_PATH << File.expand_path("lib", __dir__)`,
//!   `$:.unshift "lib"`), in each of which it is looked for; with none,
//!   it is a gem's or the standard library's and left.
//! - PHP: `require`/`include` (and `_once`) of `__DIR__ . '/x.php'` or
//!   `dirname(__FILE__) . '/x.php'` beside the script (`dirname(__DIR__)`
//!   one up); of a plain `'x.php'` from the include path (`.`, the root)
//!   and then beside the script. And the classes it names (`use A\B;`,
//!   `new \A\C`, `D::f()` in its namespace): composer's autoloader loads
//!   them from the files the project's `composer.json` maps them to
//!   (`core::module_maps::composer`, the import graph's reader).
//! - Lua: `require "a.b"` as `./a/b.lua` then `./a/b/init.lua` (the
//!   default `package.path`'s project part); `dofile`/`loadfile("x.lua")`
//!   from the root.
//! - Perl: `use lib "dir"`, `unshift @INC, "dir"` and `push @INC, …`
//!   (from the root, or from the script's folder when the path starts at
//!   `$FindBin::Bin`/`$Bin`/`dirname(__FILE__)`), the command's `-I dir`
//!   and `PERL5LIB=`, and then `use A::B` / `require A::B` as
//!   `dir/A/B.pm` in each; `require`/`do "./x.pl"` from the root.
//!
//! Lines are read, not parsed: more than the interpreter would, never
//! less of what a line says. A name built at run time (`require $x`) is
//! not followed.

use std::path::{Path, PathBuf};

mod perl;
mod php;
mod php_includes;
mod ruby;

pub(super) use perl::perl;
pub(super) use php::php;
pub(super) use ruby::ruby;

/// Folders on Ruby's load path at most (the command's and the scripts'
/// additions): each bare `require` is looked for in every one.
const MAX_LOAD_PATH: usize = 64;

/// One file a statement may load: the places to look, in the order the
/// interpreter looks (the first that holds a file is the one).
pub(super) type Candidates = Vec<PathBuf>;

/// The string literal `text` opens with, whatever it holds.
fn leading_quoted(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &text[1..];
    Some(&inner[..inner.find(quote)?])
}

/// Lua: what each `require`, `dofile` and `loadfile` names, run from
/// `root`.
pub(super) fn lua(text: &str, root: &Path) -> Vec<Candidates> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split("--").next().unwrap_or("");
        for arg in call_args(line, "require") {
            let Some(module) = leading_string(arg.trim_start_matches('(').trim_start()) else {
                continue;
            };
            if !module
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '-')
            {
                continue;
            }
            let path = module.replace('.', "/");
            out.push(vec![
                root.join(format!("{path}.lua")),
                root.join(&path).join("init.lua"),
            ]);
        }
        for keyword in ["dofile", "loadfile"] {
            for arg in call_args(line, keyword) {
                if let Some(name) = leading_string(arg.trim_start_matches('(').trim_start()) {
                    out.push(vec![root.join(name)]);
                }
            }
        }
    }
    out
}

/// The lines of `text` with what follows `comment` cut (a `#` inside a
/// string cuts too much only of what that line says after it).
fn code_lines(text: &str, comment: char) -> impl Iterator<Item = &str> {
    text.lines().map(move |l| {
        let l = l.trim_start();
        if l.starts_with(comment) { "" } else { l }
    })
}

/// What follows each whole-word `keyword` of `line`, its leading spaces
/// cut.
fn call_args<'a>(line: &'a str, keyword: &str) -> Vec<&'a str> {
    line.match_indices(keyword)
        .filter(|(at, _)| {
            let before = line[..*at].chars().next_back();
            let after = line[at + keyword.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':')
                && after.is_some_and(|c| c.is_whitespace() || c == '(' || c == '\'' || c == '"')
        })
        .map(|(at, _)| line[at + keyword.len()..].trim_start())
        .collect()
}

/// The string literal `text` opens with (`'…'` or `"…"`), when it has no
/// interpolation.
fn leading_string(text: &str) -> Option<&str> {
    let text = text.trim_start_matches('(').trim_start();
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &text[1..];
    let name = &inner[..inner.find(quote)?];
    let dynamic =
        name.contains("#{") || (quote == '"' && name.contains('$') && !name.starts_with('$'));
    (!name.is_empty() && !dynamic).then_some(name)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::php::php_classes;
    use super::*;
    use crate::core::module_maps::composer::Autoload;

    fn shown(all: Vec<Candidates>) -> Vec<Vec<String>> {
        all.into_iter()
            .map(|c| c.iter().map(|p| p.display().to_string()).collect())
            .collect()
    }

    #[test]
    fn ruby_reads_relative_requires_and_loads() {
        let text = "require 'json'\nrequire_relative 'helper'\nrequire_relative(\"lib/x.rb\")\n\
                    require './local'\nload 'tasks.rb'\n# require_relative 'no'\nrequire \"#{x}\"\n";
        assert_eq!(
            shown(ruby(
                text,
                Path::new("/r/tools/sum.rb"),
                Path::new("/r"),
                &mut Vec::new(),
                &mut Vec::new()
            )),
            [
                vec!["/r/tools/helper.rb", "/r/tools/helper"],
                vec!["/r/tools/lib/x.rb"],
                vec!["/r/local.rb", "/r/./local"],
                vec!["/r/tasks.rb"],
            ]
        );
    }

    #[test]
    fn php_reads_includes_by_where_they_start() {
        let text = "<?php\nrequire __DIR__ . '/helper.php';\nrequire_once(dirname(__FILE__).'/lib/a.php');\n\
                    include 'conf.php';\ninclude_once dirname(__DIR__) . \"/boot.php\";\n\
                    require $path . '/x.php';\n// require 'no.php';\n";
        assert_eq!(
            shown(php(
                text,
                Path::new("/r/tools"),
                Path::new("/r"),
                &Autoload::default(),
                &mut Vec::new()
            )),
            [
                vec!["/r/tools/helper.php"],
                vec!["/r/tools/lib/a.php"],
                vec!["/r/conf.php", "/r/tools/conf.php"],
                vec!["/r/boot.php"],
            ]
        );
    }

    #[test]
    fn lua_reads_requires_as_the_default_path_finds_them() {
        let text = "local h = require \"tools.helper\"\nlocal j = require('json')\n\
                    dofile(\"conf.lua\")\n-- require 'no'\n";
        assert_eq!(
            shown(lua(text, Path::new("/r"))),
            [
                vec!["/r/tools/helper.lua", "/r/tools/helper/init.lua"],
                vec!["/r/json.lua", "/r/json/init.lua"],
                vec!["/r/conf.lua"],
            ]
        );
    }

    /// Each statement's places without the `.pmc` beside each `.pm` and the
    /// version and architecture folders of this machine's perl.
    fn plain_pm(got: &[Vec<String>]) -> Vec<Vec<String>> {
        let extra = perl::perl_config()
            .map(|(arch, version)| [format!("/{arch}/"), format!("/{version}/")]);
        got.iter()
            .map(|c| {
                c.iter()
                    .filter(|p| !p.ends_with(".pmc"))
                    .filter(|p| {
                        !extra
                            .as_ref()
                            .is_some_and(|e| e.iter().any(|d| p.contains(d.as_str())))
                    })
                    .cloned()
                    .collect()
            })
            .collect()
    }

    #[test]
    fn perl_reads_modules_in_the_lib_folders_it_names() {
        let text = "use strict;\nuse FindBin qw($Bin);\nuse lib \"$FindBin::Bin/lib\";\nuse lib 'vendor';\n\
                    use My::Helper;\nrequire './conf.pl';\ndo \"./more.pl\";\n# use No::Such;\n";
        let (mut path, mut unknown) = (Vec::new(), Vec::new());
        let got = shown(perl(
            text,
            Path::new("/r/tools"),
            Path::new("/r"),
            &mut path,
            &mut unknown,
        ));
        assert!(unknown.is_empty(), "{unknown:?}");
        assert!(
            plain_pm(&got).contains(&vec![
                "/r/tools/lib/My/Helper.pm".to_string(),
                "/r/vendor/My/Helper.pm".to_string()
            ]),
            "{got:?}"
        );
        // In each folder `.pmc` first, and the folders `lib.pm` puts ahead
        // (recheck 16 F-PMC: a new `Helper.pmc` or `5.36.0/Helper.pm` ran).
        let helper = got
            .iter()
            .find(|c| c.iter().any(|p| p.ends_with("My/Helper.pm")))
            .expect("My::Helper");
        let at = |p: &str| helper.iter().position(|q| q == p);
        assert!(at("/r/tools/lib/My/Helper.pmc") < at("/r/tools/lib/My/Helper.pm"));
        if let Some((arch, version)) = perl::perl_config() {
            for dir in [format!("{version}/{arch}"), version.clone(), arch.clone()] {
                let pmc = format!("/r/tools/lib/{dir}/My/Helper.pmc");
                let pm = format!("/r/tools/lib/{dir}/My/Helper.pm");
                assert!(at(&pmc).is_some() && at(&pmc) < at(&pm), "{helper:?}");
                assert!(at(&pm) < at("/r/tools/lib/My/Helper.pm"), "{helper:?}");
            }
        }
        assert!(got.contains(&vec!["/r/./conf.pl".to_string()]), "{got:?}");
        assert!(got.contains(&vec!["/r/./more.pl".to_string()]), "{got:?}");
        assert!(
            !got.iter().flatten().any(|p| p.contains("No/Such")),
            "{got:?}"
        );
    }

    #[test]
    fn ruby_load_path_additions_are_searched() {
        let mut path = vec![PathBuf::from("/r/vendor")];
        let text = "$LOAD_PATH.unshift File.expand_path('../lib', __dir__)\n\
                    $: << File.expand_path('../../ext', __FILE__)\n\
                    $LOAD_PATH << \"#{__dir__}/more\"\n$LOAD_PATH.push 'top'\n\
                    $LOAD_PATH << File.join(ENV['X'], \"#{y}\")\nrequire 'fmt/a'\n";
        let mut unknown = Vec::new();
        let got = shown(ruby(
            text,
            Path::new("/r/tools/sum.rb"),
            Path::new("/r"),
            &mut path,
            &mut unknown,
        ));
        assert_eq!(unknown, ["$LOAD_PATH << File.join(ENV['X'], \"#{y}\")"]);
        assert_eq!(
            path,
            ["/r/vendor", "/r/lib", "/r/ext", "/r/tools/more", "/r/top"].map(PathBuf::from)
        );
        assert_eq!(
            got,
            [[
                "/r/vendor/fmt/a.rb",
                "/r/vendor/fmt/a",
                "/r/lib/fmt/a.rb",
                "/r/lib/fmt/a",
                "/r/ext/fmt/a.rb",
                "/r/ext/fmt/a",
                "/r/tools/more/fmt/a.rb",
                "/r/tools/more/fmt/a",
                "/r/top/fmt/a.rb",
                "/r/top/fmt/a",
            ]]
        );
        // With no folder of the project on the load path, a gem's.
        assert!(
            shown(ruby(
                "require 'json'\n",
                Path::new("/r/s.rb"),
                Path::new("/r"),
                &mut Vec::new(),
                &mut Vec::new()
            ))
            .is_empty()
        );
    }

    #[test]
    fn perl_inc_additions_and_the_commands_folders_are_searched() {
        let text = "use File::Basename;\nBEGIN { unshift @INC, dirname(__FILE__) . '/plib'; }\n\
                    push(@INC, 'vendor');\nuse lib File::Spec->catdir($FindBin::Bin, 'lib');\n\
                    unshift @INC, $ENV{HOME};\nuse Sum::Fmt;\n";
        let (mut path, mut unknown) = (vec![PathBuf::from("/r/inc")], Vec::new());
        let got = shown(perl(
            text,
            Path::new("/r/tools"),
            Path::new("/r"),
            &mut path,
            &mut unknown,
        ));
        assert_eq!(unknown, ["unshift @INC, $ENV{HOME};"]);
        assert!(
            plain_pm(&got).contains(&vec![
                "/r/inc/Sum/Fmt.pm".to_string(),
                "/r/tools/plib/Sum/Fmt.pm".to_string(),
                "/r/vendor/Sum/Fmt.pm".to_string(),
                "/r/tools/lib/Sum/Fmt.pm".to_string(),
            ]),
            "{got:?}"
        );
    }

    #[test]
    fn php_names_the_classes_the_autoloader_may_load() {
        let text = "<?php\nnamespace App\\Cmd;\nuse App\\Text\\Fmt;\nuse Other\\Thing as T;\n\
                    $x = new Helper();\n$y = \\App\\Util\\Clock::now();\nclass Sum extends Base implements One, Two {\n\
                    function f() { return self::g() + T::h() + $this->k + Fmt::first(); }\n}\n";
        assert_eq!(
            php_classes(text),
            [
                "App\\Text\\Fmt",
                "Other\\Thing",
                "App\\Cmd\\Helper",
                "App\\Util\\Clock",
                "App\\Cmd\\Base",
                "App\\Cmd\\One",
                "App\\Cmd\\Two",
            ]
        );
    }
}
