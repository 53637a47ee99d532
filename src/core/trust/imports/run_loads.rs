//! What a Perl, Ruby or Node script decides to load only as it runs
//! (recheck 15, F5), for a consent to `perl tools/s.pl` and the like:
//!
//! - Perl: `do`, `require` and `eval` of anything but a literal (`do
//!   "./$f"` over a `glob`, `require "./plugins/$f"` over a `readdir`,
//!   `eval $c` of a file's contents), and a `use lib` / `@INC` folder
//!   that is not a literal one ([`perl_unknown`], [`perl_libs`]).
//! - Ruby: `require`, `require_relative`, `load` of a computed name
//!   (`Dir.glob(…).each { |f| require f }`), `eval` of a computed string
//!   ([`ruby_unknown`]).
//! - Node: the folders a script adds to `module.paths` (also
//!   `require.main.paths`, `Module.globalPaths`): literal project
//!   folders are searched for bare names, computed ones and replaced
//!   resolver functions (`Module._nodeModulePaths = …`) are refused
//!   ([`node_paths`]).
//!
//! Each refusal is the line, cut to 80 characters. Lines are read, not
//! parsed: a keyword inside a string or heredoc may be read too (more
//! refusals, never fewer).

use std::path::{Path, PathBuf};

use crate::core::paths::lexical;

/// Refusals at most per file (the rest say nothing new).
const MAX_SHOWN: usize = 16;

fn shown(line: &str) -> String {
    line.trim().chars().take(80).collect()
}

/// The lines of Perl `text` that are code: POD (`=head1` … `=cut`) and
/// what follows `__END__` / `__DATA__` are not.
fn perl_code(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut pod = false;
    for line in text.lines() {
        if line.starts_with("__END__") || line.starts_with("__DATA__") {
            break;
        }
        if line.starts_with('=') && line[1..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            pod = !line.starts_with("=cut");
            continue;
        }
        if pod {
            continue;
        }
        // A line is read whole, its `#` comment too (recheck 21, item 5):
        // a string that an earlier line opened may hold the `#`
        // (`my $s = "⏎# "; do $w;`), and only a lexer of Perl could say.
        out.push(line.trim_start());
    }
    out
}

/// What follows each whole-word `keyword` of `line` (the keyword not
/// part of a longer word, a variable, a method or a hash key), its
/// leading spaces cut.
fn after_keyword<'a>(line: &'a str, keyword: &str) -> Vec<&'a str> {
    after_word(line, keyword, false)
}

/// [`after_keyword`], and with `method` also where the keyword is called
/// on a receiver (Ruby's `Foo.class_eval(…)`, `obj.instance_eval <<~X`).
fn after_word<'a>(line: &'a str, keyword: &str, method: bool) -> Vec<&'a str> {
    line.match_indices(keyword)
        .filter(|(at, _)| {
            let before = line[..*at].chars().next_back();
            if method && before == Some('.') {
                let after = line[at + keyword.len()..].chars().next();
                return after.is_some_and(|c| c.is_whitespace() || c == '(');
            }
            let after = line[at + keyword.len()..].chars().next();
            // Ruby's `"#{load(x)}"` runs it (round 10).
            let interpolated = line[..*at].ends_with("#{");
            !before.is_some_and(|c| {
                c.is_alphanumeric()
                    || matches!(
                        c,
                        '_' | '$' | '@' | '%' | '&' | ':' | '.' | '>' | '{' | '\'' | '"' | '-'
                    ) && !(c == '{' && interpolated)
            }) && after.is_some_and(|c| c.is_whitespace() || c == '(' || c == '\'' || c == '"')
        })
        .map(|(at, _)| line[at + keyword.len()..].trim_start())
        .collect()
}

/// Whether `arg` opens with a string written out whole: single quotes,
/// or double quotes holding none of `interpolates`; a heredoc whose
/// marker is single-quoted (`<<'EOF'`, `<<~'EOF'`) too. A string that
/// goes on past its line is judged by what the line holds of it.
fn literal_string(arg: &str, interpolates: &[&str]) -> bool {
    let arg = arg.trim_start_matches('(').trim_start();
    if let Some(rest) = arg.strip_prefix("<<") {
        return rest.trim_start_matches(['~', '-']).starts_with('\'');
    }
    let Some(quote) = arg.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    let inner = &arg[1..];
    let end = inner.find(quote).unwrap_or(inner.len());
    quote == '\'' || !interpolates.iter().any(|i| inner[..end].contains(i))
}

/// Perl: the lines that `do`, `require` or `eval` what is known only as
/// the script runs. `do {…}`, `eval {…}`, `require Module`, `require
/// 5.010` and literal strings are known.
pub(super) fn perl_unknown(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in perl_code(text) {
        let computed = ["do", "require", "eval"].iter().any(|keyword| {
            after_keyword(line, keyword)
                .into_iter()
                .any(|arg| perl_computed(keyword, arg))
        });
        if computed && out.len() < MAX_SHOWN {
            out.push(shown(line));
        }
    }
    out
}

/// Whether what follows `keyword` loads what is known only as it runs:
/// a variable (`$VERSION` and the like for `eval`: a version string),
/// a readline (`<$h>`), or a string that interpolates. A word after
/// `do` is prose more often than a call (`print "what to do with
/// $x"`), so it is passed over. An `eval` string is code built at run
/// time, yet one that loads nothing (`eval "\$x =~ $re"`) runs no
/// file: it counts only when it starts with an interpolation (`eval
/// "$code"`) or names `require`, `use` or `do` (`eval "require
/// $class"`).
fn perl_computed(keyword: &str, arg: &str) -> bool {
    let inner = arg.trim_start_matches('(').trim_start();
    if inner.starts_with(['$', '@', '&']) {
        let name: String = inner[1..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | ':'))
            .collect();
        return !(keyword == "eval" && name.ends_with("VERSION"));
    }
    if !inner.starts_with(['"', '\'', '<']) || literal_string(inner, &["$", "@"]) {
        return false;
    }
    if keyword != "eval" || !inner.starts_with('"') {
        return true;
    }
    let body = inner[1..].split('"').next().unwrap_or("").trim_start();
    body.starts_with(['$', '@'])
        || ["require", "use", "do"]
            .iter()
            .any(|load| !after_keyword(body, load).is_empty())
}

/// The folders each `use lib` and `@INC` addition of Perl `text` names
/// (`dir_of` for each item of its list, the requires reader's
/// `perl_dir`; `qw(…)` words from `root`); the lines naming one known
/// only as it runs are added to `unknown`. An absolute folder is outside
/// the project.
pub(super) fn perl_libs(
    text: &str,
    root: &Path,
    dir_of: impl Fn(&str) -> Option<PathBuf>,
    unknown: &mut Vec<String>,
) -> Vec<PathBuf> {
    let mut libs = Vec::new();
    for line in perl_code(text) {
        let mut exprs: Vec<&str> = after_keyword(line, "use lib")
            .into_iter()
            .chain(after_keyword(line, "no lib"))
            .collect();
        for op in ["unshift", "push", "splice"] {
            for arg in after_keyword(line, op) {
                let arg = arg.trim_start_matches('(').trim_start();
                if let Some(rest) = arg.strip_prefix("@INC") {
                    exprs.push(rest.trim_start().trim_start_matches(',').trim_start());
                }
            }
        }
        // `@INC = ('lib', @INC)`: its literal items are folders.
        let assigned = line.split_once("@INC").map(|(_, r)| r.trim_start());
        if let Some(value) = assigned
            .and_then(|r| r.strip_prefix('='))
            .filter(|r| !r.starts_with(['=', '~']))
        {
            let value = value.split(';').next().unwrap_or("").trim();
            let value = value.strip_prefix('(').unwrap_or(value);
            let value = value.strip_suffix(')').unwrap_or(value);
            exprs.push(value);
        }
        for expr in exprs {
            let expr = expr.split(';').next().unwrap_or("").trim();
            // `unshift(@INC, "x")`: the call's own `)`.
            let unbalanced = expr.matches(')').count() > expr.matches('(').count();
            let expr = match unbalanced {
                true => expr.strip_suffix(')').unwrap_or(expr),
                false => expr,
            };
            for item in items(expr).into_iter().filter(|i| i.trim() != "@INC") {
                match item_dirs(item, root, &dir_of) {
                    Some(dirs) => libs.extend(dirs),
                    None if unknown.len() < MAX_SHOWN => unknown.push(shown(line)),
                    None => {}
                }
            }
        }
    }
    libs
}

/// One `use lib` item's folders (`qw(a b)` holds several; none for
/// an absolute string, outside the project, or a number, `splice`'s
/// place); `None` when known only as it runs.
fn item_dirs(
    item: &str,
    root: &Path,
    dir_of: impl Fn(&str) -> Option<PathBuf>,
) -> Option<Vec<PathBuf>> {
    let item = item.trim();
    if item.chars().all(|c| c.is_ascii_digit()) {
        return Some(Vec::new());
    }
    if let Some(words) = item.strip_prefix("qw") {
        let words = words.trim().get(1..)?;
        let words = words.get(..words.len().saturating_sub(1))?;
        if words.contains(['$', '@']) {
            return None;
        }
        return Some(
            words
                .split_whitespace()
                .filter(|w| !w.starts_with('/'))
                .map(|w| lexical(&root.join(w)))
                .collect(),
        );
    }
    if item.starts_with('\'') || item.starts_with('"') {
        let inner = item.get(1..item.len().saturating_sub(1)).unwrap_or("");
        if inner.starts_with('/') && !inner.contains(['$', '@']) {
            return Some(Vec::new());
        }
    }
    dir_of(item).map(|dir| vec![dir])
}

/// The items of a Perl or JavaScript list (`"a", "b"`, `qw(a b)` is one
/// item, split by [`item_dir`]'s caller): commas outside quotes and
/// brackets split.
fn items(expr: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None, 0);
    for (at, c) in expr.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if matches!(c, '(' | '[' | '{') => depth += 1,
            None if matches!(c, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            None if c == ',' && depth == 0 => {
                out.push(&expr[start..at]);
                start = at + 1;
            }
            None => {}
        }
    }
    out.push(&expr[start..]);
    out.into_iter().filter(|i| !i.trim().is_empty()).collect()
}

/// Ruby: the lines that `require`, `require_relative` or `load` a name
/// other than a literal string or a `File.expand_path`/`File.join` of
/// literals and the script's folder (`known_path`), or that `eval` a
/// computed string (`instance_eval`/`class_eval` with a block are
/// known).
pub(super) fn ruby_unknown(text: &str, known_path: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    for (n, line) in lines.iter().copied().enumerate() {
        if line.starts_with('#') && !line.starts_with("#{") {
            continue;
        }
        let loads = ["require_relative", "require", "load"]
            .iter()
            .any(|keyword| {
                after_keyword(line, keyword).into_iter().any(|arg| {
                    !literal_string(arg, &["#{"])
                        && !known_path(arg)
                        && !arg.starts_with([')', '=', ',', '}'])
                })
            });
        let evals = ["eval", "instance_eval", "class_eval", "module_eval"]
            .iter()
            .any(|keyword| {
                after_word(line, keyword, *keyword != "eval")
                    .into_iter()
                    .any(|arg| {
                        let inner = arg.trim_start_matches('(').trim_start();
                        !(inner.starts_with('{')
                            || inner.starts_with("do")
                            || inner.starts_with("<<") && heredoc_written(inner, &lines[n + 1..])
                            || inner.is_empty()
                            || literal_string(arg, &["#{"]))
                    })
            });
        if (loads || evals) && out.len() < MAX_SHOWN {
            out.push(shown(line));
        }
    }
    out
}

/// Whether the heredoc `<<~RUBY` (`<<-X`, `<<X`, `<<~'X'`) that `start`
/// opens, its body in `rest`, is code written out: one that does not
/// interpolate (`<<~'X'`) or whose body holds no `#{…}`. One that does
/// (`class_eval <<~RUBY … def #{name}`) is code built as it runs (round
/// 7), as is one whose end is not found.
fn heredoc_written(start: &str, rest: &[&str]) -> bool {
    let marker = start[2..].trim_start_matches(['~', '-']);
    let quoted = marker.starts_with('\'');
    let marker: String = marker
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if marker.is_empty() {
        return false;
    }
    let Some(end) = rest.iter().take(10_000).position(|l| l.trim() == marker) else {
        return false;
    };
    quoted || !rest[..end].iter().any(|l| l.contains("#{"))
}

/// What a Node script does to its module search: the folders it adds
/// to `module.paths` (`require.main.paths`, `module.parent.paths`,
/// `Module.globalPaths`) that are literal (a string from the root, or
/// `__dirname` joined with strings), and the lines that add a computed
/// one or replace the resolver (`Module._nodeModulePaths = …`,
/// `_resolveFilename`, `_findPath`, `_load`, `paths = …`).
#[derive(Debug, Default)]
pub(super) struct NodePaths {
    pub(super) folders: Vec<PathBuf>,
    pub(super) unknown: Vec<String>,
}

pub(super) fn node_paths(text: &str, here: &Path, root: &Path) -> NodePaths {
    let mut out = NodePaths::default();
    for line in text.lines().map(str::trim_start) {
        if line.starts_with("//") {
            continue;
        }
        let replaced = [
            "_nodeModulePaths",
            "_resolveFilename",
            "_findPath",
            "_load",
            "_resolveLookupPaths",
        ]
        .iter()
        .any(|f| {
            line.match_indices(f).any(|(at, _)| {
                let rest = line[at + f.len()..].trim_start();
                rest.starts_with('=') && !rest.starts_with("==")
            })
        });
        let mut computed = replaced;
        for list in ["paths", "globalPaths"] {
            for (at, _) in line.match_indices(&format!("{list}.")) {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = &line[at + list.len() + 1..];
                let Some(args) = ["unshift(", "push(", "splice("]
                    .iter()
                    .find_map(|op| rest.strip_prefix(op))
                else {
                    continue;
                };
                let args = closed(args);
                for item in items(args) {
                    match js_folder(item, here, root) {
                        Some(dir) if dir.starts_with(root) => out.folders.push(dir),
                        Some(_) => {}
                        None => computed = true,
                    }
                }
            }
            let assigned = format!(".{list} =");
            if line.contains(&assigned) && !line.contains(&format!("{assigned}=")) {
                computed = true;
            }
        }
        if computed && out.unknown.len() < MAX_SHOWN {
            out.unknown.push(shown(line));
        }
    }
    out
}

/// What `text` holds up to the `)` that closes the call it opens in.
fn closed(text: &str) -> &str {
    let (mut depth, mut quote) = (0usize, None);
    for (at, c) in text.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if c == '(' => depth += 1,
            None if c == ')' && depth == 0 => return &text[..at],
            None if c == ')' => depth -= 1,
            None => {}
        }
    }
    text
}

/// A JavaScript folder written out: a string (from the root, where a
/// project command runs), or `__dirname` with strings joined to it (`+`,
/// `path.join`/`path.resolve`, a template's `${__dirname}`); `None` when
/// anything else builds it. `splice`'s numbers are no folder: `Some`
/// of the root, which holds no bare name of its own.
pub(super) fn js_folder(item: &str, here: &Path, root: &Path) -> Option<PathBuf> {
    let item = item.trim();
    if item.chars().all(|c| c.is_ascii_digit()) {
        return Some(root.to_path_buf());
    }
    let item = item
        .replace("require(\"path\")", "path")
        .replace("require('path')", "path")
        .replace("`${__dirname}", "__dirname + `");
    let mut pieces: Vec<String> = Vec::new();
    let mut rest = String::new();
    let mut quote = None;
    let mut piece = String::new();
    for c in item.chars() {
        match quote {
            Some(q) if c == q => {
                pieces.push(std::mem::take(&mut piece));
                quote = None;
            }
            Some('`') if c == '$' => return None,
            Some(_) => piece.push(c),
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None => rest.push(c),
        }
    }
    let mut words = rest.clone();
    for known in ["path.posix.join", "path.join", "path.resolve", "__dirname"] {
        words = words.replace(known, " ");
    }
    if words
        .chars()
        .any(|c| !matches!(c, ' ' | '+' | ',' | '(' | ')'))
    {
        return None;
    }
    let local = rest.contains("__dirname");
    let below = pieces
        .iter()
        .map(|p| p.trim_matches('/'))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/");
    let dir = match (local, pieces.first()) {
        (true, _) => here.join(below),
        (false, Some(p)) if p.starts_with('/') => PathBuf::from(p),
        (false, Some(_)) => root.join(below),
        (false, None) => return None,
    };
    Some(lexical(&dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_loads_by_a_computed_name_are_named_and_literal_ones_are_not() {
        let text = "do \"./$f\" for glob 'p/*.pl';\nrequire \"./tools/plugins/$f\";\n\
                    eval $c;\neval \"require $m\";\nrequire $class;\ndo($file);\n\
                    do \"./conf.pl\";\nrequire Foo::Bar;\nrequire 5.010;\nuse strict;\n\
                    my $c = do { local $/; <$h> };\neval { f() };\neval 'use X; 1';\n\
                    # require $x\n=pod\n\nrequire $y\n\n=cut\n$h{require} = 1;\n\
                    require Config; # once we do $^O\n$VERSION = eval $VERSION;\n'eval' => sub { 1 },\n\
                    eval \"no warnings; $s =~ /$re/\";\nmy $r = eval 'no warnings \"x\";\n\neval \"use $m; 1\";\neval(\"$cmd\");\n\
                    eval \"require Foo\";\neval \"require Foo::Bar; 1\" or die;\neval \"use Foo ()\";\n\
                    __END__\nrequire $z\n";
        assert_eq!(
            perl_unknown(text),
            vec![
                "do \"./$f\" for glob 'p/*.pl';",
                "require \"./tools/plugins/$f\";",
                "eval $c;",
                "eval \"require $m\";",
                "require $class;",
                "do($file);",
                // Comment lines and comments are read (recheck 21, item 5).
                "# require $x",
                "require Config; # once we do $^O",
                "eval \"use $m; 1\";",
                "eval(\"$cmd\");",
            ]
        );
    }

    #[test]
    fn perl_lib_lists_are_each_a_folder_or_known_only_as_it_runs() {
        let (here, root) = (Path::new("/r/tools"), Path::new("/r"));
        let mut unknown = Vec::new();
        let text = "use lib \"tools/a\", 'tools/b';\nuse lib qw(x y);\nuse lib '/usr/share/perl';\n\
                    BEGIN { unshift @INC, \"c\"; push(@INC, \"$FindBin::Bin/d\"); }\n\
                    use lib $ENV{X};\nunshift @INC, sub { 1 };\nlocal @INC = @INC;\n\
                    local @INC = ('e', @INC);\nlocal @INC = ($root, @INC);\n";
        let dir_of = |e: &str| {
            let s = e.trim().trim_matches(['"', '\'']);
            let s = s.strip_prefix("$FindBin::Bin/").map(|s| here.join(s));
            s.or_else(|| {
                (!e.contains('$') && !e.contains("sub"))
                    .then(|| root.join(e.trim().trim_matches(['"', '\''])))
            })
        };
        let libs = perl_libs(text, root, dir_of, &mut unknown);
        let libs: Vec<String> = libs.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(
            libs,
            vec![
                "/r/tools/a",
                "/r/tools/b",
                "/r/x",
                "/r/y",
                "/r/c",
                "/r/tools/d",
                "/r/e"
            ]
        );
        assert_eq!(
            unknown,
            vec![
                "use lib $ENV{X};",
                "unshift @INC, sub { 1 };",
                "local @INC = ($root, @INC);"
            ]
        );
    }

    #[test]
    fn ruby_loads_by_a_computed_name_are_named() {
        let text = "Dir.glob('p/*.rb').each { |f| require f }\nload ENV['X']\n\
                    require_relative name\neval(File.read('t.txt'))\nrequire 'json'\n\
                    require_relative \"conf\"\nrequire File.join(__dir__, 'x')\n\
                    class_eval do\nend\nclass_eval <<~RUBY\n# require x\nRUBY\n\
                    class_eval <<~RUBY, __FILE__, __LINE__ + 1\n  def #{name}; end\nRUBY\n\
                    instance_eval <<-'SRC'\n  x = \"#{y}\"\n  SRC\nmodule_eval(<<~CODE)\nCODE\n\
                    Foo.class_eval(src)\nFoo.class_eval do\nend\n\
                    eval <<~X\n#{code}\nX\neval <<~NOEND\n";
        let known = |arg: &str| arg.starts_with("File.join(__dir__");
        assert_eq!(
            ruby_unknown(text, known),
            vec![
                "Dir.glob('p/*.rb').each { |f| require f }",
                "load ENV['X']",
                "require_relative name",
                "eval(File.read('t.txt'))",
                "class_eval <<~RUBY, __FILE__, __LINE__ + 1",
                "Foo.class_eval(src)",
                "eval <<~X",
                "eval <<~NOEND",
            ]
        );
    }

    #[test]
    fn node_module_paths_are_folders_or_known_only_as_it_runs() {
        let (here, root) = (Path::new("/r/tools"), Path::new("/r"));
        let text = "module.paths.unshift(__dirname + \"/a\");\n\
                    module.paths.push(require(\"path\").join(__dirname, \"b\"));\n\
                    require.main.paths.push(`${__dirname}/c`, 'vendor');\n\
                    module.paths.unshift(process.env.X);\n\
                    Module._nodeModulePaths = (d) => [];\nmodule.paths = [x];\n\
                    if (Module._load === f) {}\n";
        let got = node_paths(text, here, root);
        let folders: Vec<String> = got
            .folders
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert_eq!(
            folders,
            vec!["/r/tools/a", "/r/tools/b", "/r/tools/c", "/r/vendor"]
        );
        assert_eq!(
            got.unknown,
            vec![
                "module.paths.unshift(process.env.X);",
                "Module._nodeModulePaths = (d) => [];",
                "module.paths = [x];",
            ]
        );
    }
}
