//! The names a Python file gives what it runs (consent round 6): its
//! imports (`from subprocess import run as r`, `import subprocess as
//! sp`), the function around a place (its span and parameters), and the
//! bindings seen there, read per function and, for a name the function
//! does not bind, from the whole file (round 5 read them file-wide only:
//! `cmd` bound to a string in one function and to a list in another was
//! unknown in both). Text, not a parse.

use std::collections::HashMap;

use super::{Bound, Lang, MAX_CALLS, arguments, is_identifier};

/// One name an `import` or `from … import …` statement binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Import {
    /// The module as written (`subprocess`, `tools.util`, `.util`).
    pub(super) module: String,
    /// The name taken from it (`run`, `*`), or `None` for the module.
    pub(super) name: Option<String>,
    /// The name bound in the file (`r` of `run as r`; `tools` of
    /// `import tools.util`).
    pub(super) local: String,
}

impl Import {
    /// The last part of the module a local name stands for: the
    /// module's own (`util` of `tools.util`), or for `from pkg import
    /// util` the name taken (it may be a submodule). Empty for `from .
    /// import x`.
    pub(super) fn module_stem(&self) -> &str {
        self.module.rsplit('.').next().unwrap_or("")
    }
}

/// The most import statements read from one file.
const MAX_IMPORTS: usize = 512;

/// The imports of Python `code` (comments blanked), at any indent
/// (`try:` blocks), a parenthesized list read over its lines.
pub(super) fn imports(code: &str) -> Vec<Import> {
    let mut out = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        if out.len() >= MAX_IMPORTS {
            break;
        }
        let mut text = line.trim().to_string();
        if !text.starts_with("import ") && !text.starts_with("from ") {
            continue;
        }
        // `from m import (` … `)`, or a line ending in `\`.
        let mut more = 0;
        while (text.contains('(') && !text.contains(')') || text.ends_with('\\')) && more < 64 {
            let Some(next) = lines.next() else { break };
            text = text.trim_end_matches('\\').to_string();
            text.push(' ');
            text.push_str(next.trim());
            more += 1;
        }
        let text = text.replace(['(', ')', '\\'], " ");
        // `import a; import b`: the first statement only is read here;
        // the rest is rare enough to leave (more refusals, never fewer).
        let text = text.split(';').next().unwrap_or("");
        if let Some(rest) = text.strip_prefix("import ") {
            for item in rest.split(',') {
                let mut words = item.split_whitespace();
                let Some(module) = words.next() else { continue };
                let local = match (words.next(), words.next()) {
                    (Some("as"), Some(alias)) => alias.to_string(),
                    _ => module.split('.').next().unwrap_or(module).to_string(),
                };
                out.push(Import {
                    module: module.to_string(),
                    name: None,
                    local,
                });
            }
        } else if let Some(rest) = text.strip_prefix("from ")
            && let Some((module, names)) = rest.split_once(" import ")
        {
            for item in names.split(',') {
                let mut words = item.split_whitespace();
                let Some(name) = words.next() else { continue };
                let local = match (words.next(), words.next()) {
                    (Some("as"), Some(alias)) => alias,
                    _ => name,
                };
                out.push(Import {
                    module: module.trim().to_string(),
                    name: Some(name.to_string()),
                    local: local.to_string(),
                });
            }
        }
    }
    out
}

/// A function definition around a place.
pub(super) struct Def {
    pub(super) name: String,
    /// Its positional parameters' names (`self`, `cls` left out,
    /// `*args` as `args`).
    pub(super) params: Vec<String>,
    /// Where its `def` line starts, and where its body ends.
    start: usize,
    end: usize,
}

/// The function whose body holds `at` (the innermost).
pub(super) fn enclosing_def(code: &str, at: usize) -> Option<Def> {
    let line_start = code[..at].rfind('\n').map_or(0, |s| s + 1);
    let mut limit = indent(&code[line_start..]);
    let mut end = line_start;
    for _ in 0..2000 {
        let start = code[..end.saturating_sub(1)]
            .rfind('\n')
            .map_or(0, |s| s + 1);
        let line = &code[start..end.saturating_sub(1).max(start)];
        // A signature's `) -> str:`, a list's `]`, a blanked docstring's
        // closing quotes (at the line's start): no block of its own.
        let closing = no_block(line);
        if !line.trim().is_empty() && indent(line) < limit && !closing {
            let body = line.trim_start();
            let body = body.strip_prefix("async ").unwrap_or(body);
            if let Some(rest) = body.strip_prefix("def ") {
                let (name, after) = rest.split_once('(')?;
                let from = start + (line.len() - after.len());
                let params = arguments(&code[from..])
                    .iter()
                    .map(|p| {
                        let p = p.split([':', '=']).next().unwrap_or("");
                        p.trim().trim_start_matches('*').to_string()
                    })
                    .filter(|p| !p.is_empty() && p != "self" && p != "cls" && p != "/")
                    .collect();
                return Some(Def {
                    name: name.trim().to_string(),
                    params,
                    start,
                    end: body_end(code, start),
                });
            }
            limit = indent(line);
            if limit == 0 {
                return None;
            }
        }
        if start == 0 {
            return None;
        }
        end = start;
    }
    None
}

impl Def {
    /// Where its `def` line starts.
    pub(super) fn start(&self) -> usize {
        self.start
    }
}

/// Whether `line` starts no block though it is indented less: it
/// closes a bracket, or it is the closing quotes of a docstring whose
/// inside `python_code` blanked (its indent with it).
fn no_block(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with([')', ']', '}'])
        || trimmed.starts_with("\"\"\"")
        || trimmed.starts_with("'''")
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Where the body of the `def` whose line starts at `start` ends: the
/// first later line indented no deeper than the `def` that closes no
/// bracket (a signature's `) -> str:`).
fn body_end(code: &str, start: usize) -> usize {
    let first = code[start..]
        .find('\n')
        .map_or(code.len(), |e| start + e + 1);
    let depth = indent(&code[start..first]);
    let mut at = first;
    for line in code[first..].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if !trimmed.is_empty() && indent(line) <= depth && !no_block(line) {
            return at;
        }
        at += line.len();
    }
    code.len()
}

/// The names a script binds ([`Bound`]), and the lists it writes over
/// several lines (`cmd = [` … `]`, which [`Bound`] reads as `[`): each
/// name's first such list, joined.
pub(super) struct Names {
    bound: Bound,
    pub(super) lists: HashMap<String, String>,
}

impl std::ops::Deref for Names {
    type Target = Bound;
    fn deref(&self) -> &Bound {
        &self.bound
    }
}

impl Names {
    /// The names of `code` (a file), bound as `bound` reads them.
    pub(super) fn read(code: &str, bound: Bound) -> Names {
        Names {
            bound,
            lists: lists(code),
        }
    }

    /// The names seen in the body of `def`: the function's own bindings
    /// (its parameters are bound as it is called), and for a name it
    /// does not bind, or declares `global`/`nonlocal`, the file's.
    pub(super) fn in_def(code: &str, def: &Def, file: &Names) -> Names {
        let text = &code[def.start..def.end.max(def.start)];
        let mut bound = Bound::read(text, Lang::Python);
        for param in &def.params {
            bound.assigned.remove(param);
            bound.loose.insert(param.clone());
        }
        for line in text.lines() {
            let line = line.trim();
            let declared = line
                .strip_prefix("global ")
                .or_else(|| line.strip_prefix("nonlocal "));
            for name in declared.into_iter().flat_map(|d| d.split(',')) {
                bound.assigned.remove(name.trim());
                bound.loose.remove(name.trim());
            }
        }
        let mut lists = lists(text);
        let own = |b: &Bound, name: &str| b.assigned.contains_key(name) || b.loose.contains(name);
        for (name, values) in &file.assigned {
            if !own(&bound, name) {
                bound.assigned.insert(name.clone(), values.clone());
            }
        }
        for name in &file.loose {
            if !bound.assigned.contains_key(name) {
                bound.loose.insert(name.clone());
            }
        }
        for (name, list) in &file.lists {
            lists.entry(name.clone()).or_insert_with(|| list.clone());
        }
        Names { bound, lists }
    }
}

/// The lists `code` writes over several lines, by name.
fn lists(code: &str) -> HashMap<String, String> {
    let mut lists = HashMap::new();
    for (at, _) in code
        .match_indices("= [\n")
        .chain(code.match_indices("= (\n"))
    {
        let start = code[..at].rfind('\n').map_or(0, |s| s + 1);
        let name = code[start..at].trim();
        if !is_identifier(name) || lists.contains_key(name) {
            continue;
        }
        // `at` is the `=`; the bracket follows its blank.
        let open = at + 2;
        let (opened, close) = match code[open..].starts_with('[') {
            true => ('[', ']'),
            false => ('(', ')'),
        };
        let inner = arguments(&code[open + 1..]).join(",");
        lists.insert(name.to_string(), format!("{opened}{inner}{close}"));
        if lists.len() >= MAX_CALLS {
            break;
        }
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::super::python_code;
    use super::*;

    #[test]
    fn imports_and_their_local_names_are_read() {
        let code = python_code(
            "import subprocess as sp, os\nfrom subprocess import (\n    run as r,\n    call,\n)\n\
             try:\n    from os import system\nexcept ImportError:\n    pass\n\
             import tools.util\nfrom . import x\n",
        );
        let got: Vec<(String, Option<String>, String)> = imports(&code)
            .into_iter()
            .map(|i| (i.module, i.name, i.local))
            .collect();
        let want = [
            ("subprocess", None, "sp"),
            ("os", None, "os"),
            ("subprocess", Some("run"), "r"),
            ("subprocess", Some("call"), "call"),
            ("os", Some("system"), "system"),
            ("tools.util", None, "tools"),
            (".", Some("x"), "x"),
        ]
        .map(|(m, n, l)| (m.to_string(), n.map(String::from), l.to_string()));
        assert_eq!(got, want);
    }

    #[test]
    fn a_name_is_read_in_its_function_then_in_the_file() {
        let code = python_code(
            "G = 'g'\ncmd = 'top'\n\ndef a(p):\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    cmd = 'x'\n    return cmd, p, G\n\n\
             def b():\n    cmd = ['y']\n    return cmd\n\ndef c():\n    global cmd\n    \
             return cmd\n",
        );
        let file = Names::read(&code, Bound::read(&code, Lang::Python));
        let scope = |needle: &str| {
            let at = code.find(needle).unwrap_or(0);
            let def = enclosing_def(&code, at).expect("a def");
            Names::in_def(&code, &def, &file)
        };
        let a = scope("return cmd, p");
        assert_eq!(a.values("cmd"), Some(vec!["x".to_string()]));
        assert_eq!(a.values("G"), Some(vec!["g".to_string()]));
        assert!(a.loose.contains("p"));
        let b = scope("return cmd\n\ndef c");
        assert_eq!(b.assigned.get("cmd").map(Vec::len), Some(1));
        assert_eq!(file.assigned.get("cmd").map(Vec::len), Some(3));
        let c = scope("global cmd");
        assert_eq!(c.assigned.get("cmd").map(Vec::len), Some(3));
    }
}
