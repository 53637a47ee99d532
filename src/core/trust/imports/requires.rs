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

use crate::core::module_maps::composer::{Autoload, use_names};
use crate::core::paths::lexical;

/// Folders on Ruby's load path at most (the command's and the scripts'
/// additions): each bare `require` is looked for in every one.
const MAX_LOAD_PATH: usize = 64;

/// One file a statement may load: the places to look, in the order the
/// interpreter looks (the first that holds a file is the one).
pub(super) type Candidates = Vec<PathBuf>;

/// Ruby: what each `require_relative`, `require` and `load` names, for
/// the script `file` run from `root`; the folders it adds to
/// `$LOAD_PATH` are added to `load_path` (the process's, which the files
/// it loads share) before its bare `require`s are looked for there.
pub(super) fn ruby(
    text: &str,
    file: &Path,
    root: &Path,
    load_path: &mut Vec<PathBuf>,
    unknown: &mut Vec<String>,
) -> Vec<Candidates> {
    let here = file.parent().unwrap_or(root);
    // A path built of literals and the script's folder
    // (`File.join(__dir__, "x")`) is known; any other computed name is
    // a refusal.
    let built = |arg: &str| {
        let arg = arg.trim_start_matches('(').trim_start();
        arg.starts_with("File.") && ruby_dir(&format!("$: << {arg}"), file, root).is_some()
    };
    unknown.extend(super::run_loads::ruby_unknown(text, built));
    for line in code_lines(text, '#') {
        let Some(at) = ["$LOAD_PATH", "$:"].iter().find_map(|v| line.find(v)) else {
            continue;
        };
        let rest = &line[at..];
        let adds = [
            "<<", ".unshift", ".push", ".prepend", ".insert", ".concat", ".append",
        ]
        .iter()
        .any(|op| rest.contains(op));
        let dir = adds.then(|| ruby_dir(rest, file, root));
        if dir == Some(None) {
            unknown.push(line.trim().chars().take(80).collect());
        }
        if let Some(dir) = dir.flatten()
            && !load_path.contains(&dir)
            && load_path.len() < MAX_LOAD_PATH
        {
            load_path.push(dir);
        }
    }
    let mut out = Vec::new();
    for line in code_lines(text, '#') {
        for (keyword, relative) in [
            ("require_relative", true),
            ("require", false),
            ("load", false),
        ] {
            for arg in call_args(line, keyword) {
                let Some(name) = leading_string(arg) else {
                    let arg = arg.trim_start_matches('(').trim_start();
                    if built(arg)
                        && let Some(path) = ruby_dir(&format!("$: << {arg}"), file, root)
                    {
                        let rb = path.with_file_name(format!("{}.rb", file_name(&path)));
                        out.push(vec![rb, path]);
                    }
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
                } else if !name.starts_with('/') && !load_path.is_empty() {
                    out.push(load_path.iter().flat_map(|dir| with_rb(dir)).collect());
                }
            }
        }
    }
    out
}

/// The folder a `$LOAD_PATH` addition names (`rest` from the variable
/// on): its string from the root; from the script's folder with
/// `__dir__`, `File.dirname(__FILE__)` or `#{__dir__}`; from the script
/// itself with `File.expand_path("../lib", __FILE__)`. `None` for one
/// built otherwise.
fn ruby_dir(rest: &str, file: &Path, root: &Path) -> Option<PathBuf> {
    let here = file.parent().unwrap_or(root);
    // Only these words may build the folder (`ENV["X"]`, a variable or
    // another call make it one known at run time only).
    const KNOWN: [&str; 13] = [
        "LOAD_PATH",
        "unshift",
        "push",
        "prepend",
        "insert",
        "concat",
        "append",
        "File",
        "expand_path",
        "join",
        "dirname",
        "__dir__",
        "__FILE__",
    ];
    let mut unquoted = String::new();
    let mut quote = None;
    for c in rest.split(';').next().unwrap_or("").chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None => unquoted.push(c),
        }
    }
    let words_known = unquoted
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .all(|w| KNOWN.contains(&w));
    if !words_known {
        return None;
    }
    let string = rest
        .find(['\'', '"'])
        .and_then(|at| leading_quoted(&rest[at..]));
    let from_file = rest.contains("expand_path") && rest.contains("__FILE__");
    let from_dir = rest.contains("__dir__") || rest.contains("dirname(__FILE__)");
    let dir = match string {
        Some(s) if s.starts_with("#{__dir__}") || s.starts_with("#{File.dirname(__FILE__)}") => {
            here.join(s.split_once('}')?.1.trim_start_matches('/'))
        }
        Some(s) if s.contains("#{") || s.starts_with('/') => return None,
        Some(s) if from_file => file.join(s),
        Some(s) if from_dir => here.join(s.trim_start_matches('/')),
        Some(s) => root.join(s),
        None if from_dir => here.to_path_buf(),
        None => return None,
    };
    Some(lexical(&dir))
}

/// The string literal `text` opens with, whatever it holds.
fn leading_quoted(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &text[1..];
    Some(&inner[..inner.find(quote)?])
}

/// PHP: what each `require`/`include` (`_once`) names, for a script in
/// `here` run from `root`, and the files `autoload` maps the classes it
/// names to.
pub(super) fn php(text: &str, here: &Path, root: &Path, autoload: &Autoload) -> Vec<Candidates> {
    let mut out: Vec<Candidates> = Vec::new();
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
    // After the files it names (the caller reads a bounded number).
    out.extend(
        php_classes(text)
            .iter()
            .map(|class| {
                let (files, _) = autoload.candidates(class);
                files.iter().map(|f| root.join(f)).collect::<Candidates>()
            })
            .filter(|c| !c.is_empty()),
    );
    out
}

/// The classes a PHP text may make the autoloader load, fully qualified
/// without the leading `\`: those its `use` statements import, each
/// qualified name it writes (`\A\B`, and `A\B` both as written and in
/// the file's namespace), and each bare name it instantiates, calls
/// statically, extends or implements (`new C`, `C::f()`) in its
/// namespace.
fn php_classes(text: &str) -> Vec<String> {
    let mut out = use_names(text);
    let mut imported: Vec<String> = out
        .iter()
        .map(|n| n.rsplit('\\').next().unwrap_or(n).to_string())
        .collect();
    let mut namespace = None;
    let mut code = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(ns) = t.strip_prefix("namespace ") {
            let ns = ns.trim().trim_end_matches([';', '{']).trim();
            namespace = (!ns.is_empty()).then(|| ns.to_string());
        } else if t.starts_with("use ") {
            // Aliases (`use A\B as C`) name what `use_names` has.
            imported.extend(t.split(" as ").skip(1).map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            }));
        } else {
            code.push(line);
        }
    }
    let in_namespace = |name: &str| match &namespace {
        Some(ns) => format!("{ns}\\{name}"),
        None => name.to_string(),
    };
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '\\';
    for line in code {
        let mut at = 0;
        while let Some(start) = line[at..].find(word).map(|s| at + s) {
            let end = line[start..]
                .find(|c| !word(c))
                .map_or(line.len(), |e| start + e);
            at = end;
            let name = &line[start..end];
            let before = line[..start].trim_end();
            let after = line[end..].trim_start();
            let segments_ok = name
                .trim_start_matches('\\')
                .split('\\')
                .all(|s| s.starts_with(|c: char| c.is_alphabetic() || c == '_'));
            if !segments_ok || before.ends_with('$') || before.ends_with("->") {
                continue;
            }
            if let Some(absolute) = name.strip_prefix('\\') {
                out.push(absolute.to_string());
            } else if name.contains('\\') {
                out.push(name.to_string());
                out.push(in_namespace(name));
            } else {
                let keyword = |k: &&str| {
                    before.ends_with(k)
                        && !before[..before.len() - k.len()].ends_with(|c: char| word(c))
                };
                let used = ["new", "extends", "implements", "instanceof"]
                    .iter()
                    .any(keyword)
                    || (before.ends_with(',') && before.contains("implements"))
                    || after.starts_with("::");
                let special = ["self", "static", "parent"].contains(&name);
                if used && !special && !imported.iter().any(|i| i == name) {
                    out.push(in_namespace(name));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|n| !n.is_empty() && seen.insert(n.clone()));
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

/// Perl: the modules `use`d or `require`d in the folders `use lib` and
/// `@INC` additions name, then in `load_path` (the command's `-I` and
/// `PERL5LIB`), and the files `require`/`do` name by a relative path, for
/// a script in `here` run from `root`.
pub(super) fn perl(
    text: &str,
    here: &Path,
    root: &Path,
    load_path: &mut Vec<PathBuf>,
    unknown: &mut Vec<String>,
) -> Vec<Candidates> {
    let lines: Vec<&str> = code_lines(text, '#').collect();
    // `@INC` is the process's: what one file adds, the files it loads
    // search too.
    let dir_of = |expr: &str| perl_dir(expr, here, root);
    for dir in super::run_loads::perl_libs(text, root, dir_of, unknown) {
        if !load_path.contains(&dir) && load_path.len() < MAX_LOAD_PATH {
            load_path.push(dir);
        }
    }
    let libs = load_path.clone();
    let mut out = Vec::new();
    for line in &lines {
        for keyword in ["use", "require", "do"] {
            for arg in call_args(line, keyword) {
                if let Some(name) = leading_string(arg.trim_start_matches('(').trim_start()) {
                    if name.starts_with("./") || name.starts_with("../") {
                        out.push(vec![root.join(name)]);
                    } else if !name.starts_with('/') && !libs.is_empty() {
                        // `do "conf.pl"` searches `@INC` (not `.`).
                        out.push(libs.iter().map(|lib| lib.join(name)).collect());
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

/// The folder a `use lib` or `@INC` addition names (`expr`, what follows
/// it): from the script's folder when it starts at `$FindBin::Bin`,
/// `$Bin` (`RealBin` too), `dirname(__FILE__)` or `dirname($0)`, the
/// strings that follow joined below it (`"$Bin/lib"`,
/// `File::Spec->catdir($Bin, 'lib')`, `dirname(__FILE__) . '/lib'`); a
/// plain string from the root; `None` for one built otherwise.
fn perl_dir(expr: &str, here: &Path, root: &Path) -> Option<PathBuf> {
    const SCRIPT_DIR: [&str; 6] = [
        "$FindBin::RealBin",
        "$FindBin::Bin",
        "$RealBin",
        "$Bin",
        "dirname(__FILE__)",
        "dirname($0)",
    ];
    let expr = expr.trim_start_matches(['(', 'q', 'w']).trim_start();
    let local = SCRIPT_DIR.iter().any(|v| expr.contains(v));
    let mut pieces = Vec::new();
    let mut rest = expr;
    while let Some(at) = rest.find(['\'', '"']) {
        let Some(s) = leading_quoted(&rest[at..]) else {
            break;
        };
        rest = &rest[at + s.len() + 2..];
        let s = SCRIPT_DIR
            .iter()
            .fold(s, |s, v| s.strip_prefix(v).unwrap_or(s));
        if s.contains('$') || (!local && s.starts_with('/')) {
            return None;
        }
        pieces.push(s.trim_matches('/'));
    }
    let below = pieces.join("/");
    let dir = match (local, pieces.is_empty()) {
        (true, _) => here.join(below),
        (false, true) => return None,
        (false, false) if pieces.len() > 1 => return None,
        (false, false) => root.join(below),
    };
    Some(lexical(&dir))
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
                &Autoload::default()
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
            got.contains(&vec![
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
