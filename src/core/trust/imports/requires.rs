//! What a Ruby, PHP, Lua or Perl script loads from the project by a
//! statement that names a file or a module, for a consent to `ruby
//! tools/sum.rb` and the like, and where each interpreter looks for it:
//!
//! - Ruby: `require_relative "x"` beside the script; `require "./x"` and
//!   `load "x.rb"` from the current folder (the root: a project command
//!   runs there). A bare `require "x"` searches `$LOAD_PATH`, which holds
//!   no project folder unless the command says so (`-I`), so it is left.
//! - PHP: `require`/`include` (and `_once`) of `__DIR__ . '/x.php'` or
//!   `dirname(__FILE__) . '/x.php'` beside the script (`dirname(__DIR__)`
//!   one up); of a plain `'x.php'` from the include path (`.`, the root)
//!   and then beside the script.
//! - Lua: `require "a.b"` as `./a/b.lua` then `./a/b/init.lua` (the
//!   default `package.path`'s project part); `dofile`/`loadfile("x.lua")`
//!   from the root.
//! - Perl: `use lib "dir"` (from the root, or `$FindBin::Bin`/`$Bin`:
//!   the script's folder) and then `use A::B` / `require A::B` as
//!   `dir/A/B.pm` in each; `require`/`do "./x.pl"` from the root.
//!
//! Lines are read, not parsed: more than the interpreter would, never
//! less of what a line says. A name built at run time (`require $x`) is
//! not followed.

use std::path::{Path, PathBuf};

/// One file a statement may load: the places to look, in the order the
/// interpreter looks (the first that holds a file is the one).
pub(super) type Candidates = Vec<PathBuf>;

/// Ruby: what each `require_relative`, `require "./…"` and `load` names,
/// for a script in `here` run from `root`.
pub(super) fn ruby(text: &str, here: &Path, root: &Path) -> Vec<Candidates> {
    let mut out = Vec::new();
    for line in code_lines(text, '#') {
        for (keyword, relative) in [
            ("require_relative", true),
            ("require", false),
            ("load", false),
        ] {
            for arg in call_args(line, keyword) {
                let Some(name) = leading_string(arg) else {
                    continue;
                };
                let with_rb = |base: &Path| {
                    let path = base.join(name);
                    if name.ends_with(".rb") {
                        vec![path]
                    } else {
                        vec![
                            path.with_file_name(format!("{}.rb", file_name(&path))),
                            path,
                        ]
                    }
                };
                if relative {
                    out.push(with_rb(here));
                } else if keyword == "load" || name.starts_with("./") || name.starts_with("../") {
                    out.push(with_rb(root));
                }
            }
        }
    }
    out
}

/// PHP: what each `require`/`include` (`_once`) names, for a script in
/// `here` run from `root`.
pub(super) fn php(text: &str, here: &Path, root: &Path) -> Vec<Candidates> {
    let mut out = Vec::new();
    for line in code_lines(text, '#') {
        let line = line.split("//").next().unwrap_or("");
        for keyword in ["require_once", "include_once", "require", "include"] {
            for arg in call_args(line, keyword) {
                let expr = arg.split(';').next().unwrap_or("");
                let Some(quote_at) = expr.find(['\'', '"']) else {
                    continue;
                };
                let Some(name) = leading_string(&expr[quote_at..]) else {
                    continue;
                };
                let prefix: String = expr[..quote_at]
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let prefix = prefix.trim_start_matches('(');
                let dir = if prefix.is_empty() {
                    None
                } else if prefix == "__DIR__." || prefix == "dirname(__FILE__)." {
                    Some(here.to_path_buf())
                } else if prefix == "dirname(__DIR__)." {
                    here.parent().map(Path::to_path_buf)
                } else {
                    // Built from a variable or a call: not followed.
                    continue;
                };
                let name = name.trim_start_matches('/');
                match dir {
                    Some(dir) => out.push(vec![dir.join(name)]),
                    None if name.starts_with("./") || name.starts_with("../") => {
                        out.push(vec![root.join(name)]);
                    }
                    None => out.push(vec![root.join(name), here.join(name)]),
                }
            }
        }
    }
    out
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

/// Perl: the modules `use`d or `require`d in the folders `use lib` names,
/// and the files `require`/`do` name by a relative path, for a script in
/// `here` run from `root`.
pub(super) fn perl(text: &str, here: &Path, root: &Path) -> Vec<Candidates> {
    let lines: Vec<&str> = code_lines(text, '#').collect();
    let mut libs: Vec<PathBuf> = Vec::new();
    for line in &lines {
        for arg in call_args(line, "use lib") {
            let Some(dir) = leading_string(arg.trim_start_matches(['(', 'q', 'w']).trim_start())
            else {
                continue;
            };
            let local = ["$FindBin::Bin", "$FindBin::RealBin", "$Bin", "$RealBin"]
                .iter()
                .find_map(|v| dir.strip_prefix(v));
            let lib = match local {
                Some(rest) => here.join(rest.trim_start_matches('/')),
                None if dir.contains('$') || dir.starts_with('/') => continue,
                None => root.join(dir),
            };
            libs.push(lib);
        }
    }
    let mut out = Vec::new();
    for line in &lines {
        for keyword in ["use", "require", "do"] {
            for arg in call_args(line, keyword) {
                if let Some(name) = leading_string(arg.trim_start_matches('(').trim_start()) {
                    if name.starts_with("./") || name.starts_with("../") {
                        out.push(vec![root.join(name)]);
                    }
                    continue;
                }
                let module: String = arg
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if keyword == "do" || module.is_empty() || module == "lib" {
                    continue;
                }
                let rel = format!("{}.pm", module.replace("::", "/"));
                if !libs.is_empty() {
                    out.push(libs.iter().map(|lib| lib.join(&rel)).collect());
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
    use super::*;

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
            shown(ruby(text, Path::new("/r/tools"), Path::new("/r"))),
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
            shown(php(text, Path::new("/r/tools"), Path::new("/r"))),
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

    #[test]
    fn perl_reads_modules_in_the_lib_folders_it_names() {
        let text = "use strict;\nuse FindBin qw($Bin);\nuse lib \"$FindBin::Bin/lib\";\nuse lib 'vendor';\n\
                    use My::Helper;\nrequire './conf.pl';\ndo \"./more.pl\";\n# use No::Such;\n";
        let got = shown(perl(text, Path::new("/r/tools"), Path::new("/r")));
        assert!(
            got.contains(&vec![
                "/r/tools/lib/My/Helper.pm".to_string(),
                "/r/vendor/My/Helper.pm".to_string()
            ]),
            "{got:?}"
        );
        assert!(got.contains(&vec!["/r/./conf.pl".to_string()]), "{got:?}");
        assert!(got.contains(&vec!["/r/./more.pl".to_string()]), "{got:?}");
        assert!(
            !got.iter().flatten().any(|p| p.contains("No/Such")),
            "{got:?}"
        );
    }
}
