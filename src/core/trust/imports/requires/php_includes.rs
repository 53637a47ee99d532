//! PHP's `include`/`require` (`_once`) and `set_include_path` of a name
//! known only as the script runs (recheck 21, item 1): `include $f;`,
//! `require __DIR__ . '/' . $name . '.php';`. Each is refused, as a
//! computed Ruby `load` is. Known: literals, `__DIR__`, `__FILE__`,
//! `dirname(…)` of them, `PATH_SEPARATOR`, `DIRECTORY_SEPARATOR`,
//! `get_include_path()`, joined by `.`; and an item of an array the
//! file binds only to literal strings (`require __DIR__ .
//! $classes[$cn];` of a generated autoloader), each of whose items is
//! then a file it may load.

use std::path::Path;

use super::super::env_path::{split_top, top_level_until};
use super::Candidates;

const KEYWORDS: [&str; 4] = ["require_once", "include_once", "require", "include"];

/// Lines refused at most, and assignments of an array read.
const MAX_SHOWN: usize = 16;
const MAX_ASSIGNMENTS: usize = 8;
/// Arrays read at most per file (each reading goes over its text).
const MAX_ARRAYS: usize = 8;
/// How far an array's assignment is read (it spans lines).
const MAX_ARRAY: usize = 64 * 1024;

/// What the loads of PHP `code` (comments blanked) in `here` that are
/// not written out name: the lines known only as the script runs go to
/// `unknown`; the files an array item may name are given back.
pub(super) fn computed(code: &str, here: &Path, unknown: &mut Vec<String>) -> Vec<Candidates> {
    let mut out = Vec::new();
    // Each array read once (each reading goes over the whole text).
    let mut arrays: std::collections::HashMap<String, Option<Vec<String>>> = Default::default();
    for line in code.lines() {
        let mut exprs: Vec<(&str, bool)> = Vec::new();
        for keyword in KEYWORDS {
            exprs.extend(call_args(line, keyword).into_iter().map(|a| (a, true)));
        }
        exprs.extend(
            call_args(line, "set_include_path")
                .into_iter()
                .map(|a| (a, false)),
        );
        for (arg, load) in exprs {
            let arrays_read = arrays.len();
            let expr = top_level_until(arg, |rest| rest.starts_with([';', ',']));
            let expr = unwrapped(expr.trim());
            match parts_known(expr) {
                Known::Yes => {}
                Known::Item(name) if load => match arrays.entry(name.clone()).or_insert_with(|| {
                    // Past a few arrays, not read (refused).
                    (arrays_read < MAX_ARRAYS).then(|| literal_array(code, &name))?
                }) {
                    Some(files) => out.push(
                        files
                            .iter()
                            .map(|f| here.join(f.trim_start_matches('/')))
                            .collect(),
                    ),
                    None => push(unknown, line),
                },
                _ => push(unknown, line),
            }
        }
    }
    out
}

fn push(unknown: &mut Vec<String>, line: &str) {
    let shown: String = line.trim().chars().take(80).collect();
    if !unknown.contains(&shown) && unknown.len() < MAX_SHOWN {
        unknown.push(shown);
    }
}

/// What follows each `keyword` of `line` that is PHP's own: not part of
/// a longer name, a variable, a method (`->include(`), a constant
/// (`X::include`) or inside a string.
fn call_args<'a>(line: &'a str, keyword: &str) -> Vec<&'a str> {
    line.match_indices(keyword)
        .filter(|(at, _)| {
            let before = line[..*at].chars().next_back();
            let after = line[at + keyword.len()..].chars().next();
            !before.is_some_and(|c| {
                c.is_alphanumeric() || matches!(c, '_' | '$' | '>' | ':' | '\\' | '\'' | '"')
            }) && after.is_some_and(|c| c.is_whitespace() || matches!(c, '(' | '\'' | '"' | '$'))
                && !in_quotes(&line[..*at])
        })
        .map(|(at, _)| line[at + keyword.len()..].trim_start())
        .collect()
}

/// Whether the end of `before` is inside a `'…'` or `"…"` string.
fn in_quotes(before: &str) -> bool {
    let mut quote = None;
    let mut escaped = false;
    for c in before.chars() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            _ => {}
        }
    }
    quote.is_some()
}

/// `expr` without parentheses around all of it.
fn unwrapped(expr: &str) -> &str {
    let mut expr = expr;
    while let Some(inner) = expr.strip_prefix('(').and_then(|e| e.strip_suffix(')')) {
        if top_level_until(inner, |_| false).len() != inner.len() {
            break;
        }
        expr = inner.trim();
    }
    expr
}

enum Known {
    Yes,
    /// Known but for one `$name[…]` item.
    Item(String),
    No,
}

/// Whether each `.`-joined part of `expr` is written out.
fn parts_known(expr: &str) -> Known {
    if expr.is_empty() {
        return Known::No;
    }
    let mut item = None;
    for part in split_top(expr, '.') {
        let part = part.trim().trim_start_matches('\\');
        let part = unwrapped(part);
        let literal = part.len() >= 2
            && (part.starts_with('\'')
                && part.ends_with('\'')
                && !part[1..part.len() - 1].contains('\'')
                || part.starts_with('"')
                    && part.ends_with('"')
                    && !part[1..part.len() - 1].contains(['"', '$', '{', '\\']));
        let named = matches!(
            part,
            "__DIR__"
                | "__FILE__"
                | "PATH_SEPARATOR"
                | "DIRECTORY_SEPARATOR"
                | "get_include_path()"
        ) || part
            .strip_prefix("dirname(")
            .and_then(|p| p.strip_suffix(')'))
            .is_some_and(|inner| {
                let first = inner.split(',').next().unwrap_or("").trim();
                matches!(first, "__DIR__" | "__FILE__")
                    && inner
                        .split(',')
                        .skip(1)
                        .all(|n| n.trim().chars().all(|c| c.is_ascii_digit()))
            });
        if literal || named {
            continue;
        }
        match array_item(part) {
            Some(name) if item.is_none() => item = Some(name),
            _ => return Known::No,
        }
    }
    item.map_or(Known::Yes, Known::Item)
}

/// `$classes[$cn]`: the array's name.
fn array_item(part: &str) -> Option<String> {
    let rest = part.strip_prefix('$')?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let (name, index) = rest.split_at(end);
    let inner = index.strip_prefix('[')?.strip_suffix(']')?;
    (!name.is_empty() && !inner.contains(['[', ']'])).then(|| format!("${name}"))
}

/// The strings of the array `name` is bound to, when every assignment
/// of it in `code` is an array of string literals (`'k' => 'v'` or
/// `'v'`: the values) or `null`.
fn literal_array(code: &str, name: &str) -> Option<Vec<String>> {
    let mut values = Vec::new();
    let mut seen = 0;
    for (at, _) in code.match_indices(name) {
        let after = &code[at + name.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let after = after.trim_start();
        // Assignments only (`$x[…] = …` adds an item: not known).
        let value = match after.strip_prefix('=') {
            Some(v) if !v.starts_with(['=', '>']) => v,
            _ if after.starts_with('[') && after.contains("] =") => return None,
            _ if [".=", "+="].iter().any(|op| after.starts_with(op)) => return None,
            _ => continue,
        };
        seen += 1;
        if seen > MAX_ASSIGNMENTS {
            return None;
        }
        let window = &value[..floor(value, MAX_ARRAY)];
        let value = top_level_until(window, |rest| rest.starts_with(';')).trim();
        if value == "null" {
            continue;
        }
        let inner = value
            .strip_prefix("array(")
            .and_then(|v| v.strip_suffix(')'))
            .or_else(|| value.strip_prefix('[').and_then(|v| v.strip_suffix(']')))?;
        for item in split_top(inner, ',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let v = item.rsplit_once("=>").map_or(item, |(_, v)| v).trim();
            let quoted = v.len() >= 2
                && (v.starts_with('\'') && v.ends_with('\'')
                    || v.starts_with('"') && v.ends_with('"') && !v.contains('$'));
            if !quoted || v[1..v.len() - 1].contains(['\'', '"', '\\']) {
                return None;
            }
            values.push(v[1..v.len() - 1].to_string());
        }
    }
    (seen > 0).then_some(values)
}

/// The largest char boundary of `text` at most `max`.
fn floor(text: &str, max: usize) -> usize {
    let mut at = max.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(code: &str) -> Vec<String> {
        let mut unknown = Vec::new();
        computed(code, Path::new("/r/t"), &mut unknown);
        unknown
    }

    #[test]
    fn a_computed_include_is_refused_and_a_written_one_is_not() {
        for line in [
            "include $w;",
            "include_once($w);",
            "require __DIR__ . '/' . $name . '.php';",
            "require __DIR__ . \"/$w\";",
            "set_include_path($w);",
            "set_include_path(get_include_path() . PATH_SEPARATOR . $w);",
            "require $x[0];",
        ] {
            assert_eq!(refused(line).len(), 1, "{line}");
        }
        for line in [
            "require __DIR__ . '/x.php';",
            "require_once(dirname(__FILE__).'/lib/a.php');",
            "include_once dirname(__DIR__, 2) . \"/boot.php\";",
            "include 'conf.php';",
            "set_include_path(__DIR__ . '/lib' . PATH_SEPARATOR . get_include_path());",
            "$include = 1; $this->include($x);",
            "throw new E('run \"composer require x\".');",
            "$o = ['include' => true];",
        ] {
            assert!(refused(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn many_array_includes_are_read_in_bounded_time() {
        let mut code = "$a = array('x');\n".repeat(10_000);
        for n in 0..20_000 {
            code.push_str(&format!("require __DIR__ . $a{n}[$k];\n"));
        }
        assert_eq!(refused(&code).len(), MAX_SHOWN);
        // No timed assertion (benchmarks time things): a quadratic reading
        // of this input would not end.
    }

    #[test]
    fn an_item_of_a_literal_array_names_its_files() {
        let code = "static $classes = null;\nif ($classes === null) {\n  $classes = array(\n\
                    'a\\\\b' => '/B.php',\n    'c' => '/C.php'\n  );\n}\n\
                    require __DIR__ . $classes[$cn];\n";
        let mut unknown = Vec::new();
        let got = computed(code, Path::new("/r/t"), &mut unknown);
        assert!(unknown.is_empty(), "{unknown:?}");
        assert_eq!(
            got,
            [vec![
                Path::new("/r/t/B.php").to_path_buf(),
                Path::new("/r/t/C.php").to_path_buf()
            ]]
        );
        let code = "$classes = array('c' => '/C.php');\n$classes[$k] = $w;\nrequire __DIR__ . $classes[$k];\n";
        assert_eq!(refused(code).len(), 1);
    }
}
