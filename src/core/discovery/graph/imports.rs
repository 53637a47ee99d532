//! Import statements read out of source text, without a parser: Python
//! `import a.b as c, d` and `from ..pkg import (x, y)`, and C/C++
//! `#include "…"` / `#include <…>`. A line scanner is enough for these
//! statements and is fast on whole trees; text inside Python triple-quoted
//! strings and after `#` comments is skipped so docstring examples do not
//! become edges. Each Python import carries its [`ImportKind`], read off the
//! blocks it sits in by indentation: under `if TYPE_CHECKING:` it is
//! type-only, inside a `def` function-local, `from x import *` a re-export.

use super::kind::ImportKind;

/// One Python import statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyImport {
    /// Leading dots of a relative import (0: absolute).
    pub level: usize,
    /// The dotted module after the dots (may be empty: `from . import x`).
    pub module: String,
    /// The names of a `from` import (`*` kept as is); empty for `import m`.
    pub names: Vec<String>,
    /// How the statement is used where it stands.
    pub kind: ImportKind,
}

/// One C/C++ include.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    pub path: String,
    /// `<…>` rather than `"…"`.
    pub angled: bool,
    /// `#include NAME`: the file is chosen by a macro (`path` holds its
    /// text), so it cannot be resolved without preprocessing.
    pub is_macro: bool,
}

impl std::fmt::Display for PyImport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let module = format!("{}{}", ".".repeat(self.level), self.module);
        if self.names.is_empty() && self.level == 0 {
            write!(f, "import {module}")
        } else if self.names.is_empty() {
            write!(f, "from {module} import")
        } else {
            write!(f, "from {module} import {}", self.names.join(", "))
        }
    }
}

impl std::fmt::Display for Include {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.is_macro, self.angled) {
            (true, _) => write!(f, "#include {}", self.path),
            (false, true) => write!(f, "#include <{}>", self.path),
            (false, false) => write!(f, "#include \"{}\"", self.path),
        }
    }
}

/// The import statements of a source in a line format that caches well
/// (`py`/`inc` records, tab-separated): see [`decode`].
pub fn encode(lang_is_python: bool, source: &str) -> String {
    let mut out = String::new();
    if lang_is_python {
        for i in python(source) {
            out.push_str(&format!(
                "py\t{}\t{}\t{}\t{}\n",
                i.level,
                i.module,
                i.names.join(","),
                i.kind.code()
            ));
        }
    } else {
        for i in includes(source) {
            if !i.path.contains(['\t', '\n']) {
                let kind = if i.is_macro { 2 } else { u8::from(i.angled) };
                out.push_str(&format!("inc\t{kind}\t{}\n", i.path));
            }
        }
    }
    out
}

/// The statements [`encode`] wrote; malformed records are skipped.
pub fn decode(text: &str) -> (Vec<PyImport>, Vec<Include>) {
    let mut py = Vec::new();
    let mut inc = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[..] {
            ["py", level, module, names] | ["py", level, module, names, _] => {
                let kind = ImportKind::from_code(fields.get(4).copied().unwrap_or(""));
                if let Ok(level) = level.parse() {
                    py.push(PyImport {
                        level,
                        module: module.to_string(),
                        names: names
                            .split(',')
                            .filter(|n| !n.is_empty())
                            .map(str::to_string)
                            .collect(),
                        kind,
                    });
                }
            }
            ["inc", kind, path] => inc.push(Include {
                path: path.to_string(),
                angled: kind == "1",
                is_macro: kind == "2",
            }),
            _ => {}
        }
    }
    (py, inc)
}

/// Every import statement of a Python source, in order, each with its
/// kind.
pub fn python(source: &str) -> Vec<PyImport> {
    let mut out = Vec::new();
    let mut blocks = Blocks::default();
    logical_lines(source, |indent, stmt| {
        if let Some(kind) = blocks.enter(indent, stmt) {
            for part in stmt.split(';') {
                parse_statement(part.trim(), kind, &mut out);
            }
        }
        blocks.innermost()
    });
    out
}

/// A block that changes how the imports inside it are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`).
    TypeChecking,
    /// A `def` or `async def` body, or `if __name__ == "__main__":` (a
    /// module's demo or command line, run only as a script): imports
    /// there run only on that path.
    Function,
}

/// The blocks open at the current line, by the indentation of the line
/// that opened each; a line indented no deeper than an opener closes it.
#[derive(Debug, Default)]
struct Blocks(Vec<(usize, Block)>);

impl Blocks {
    /// Take in a logical line at `indent` (`None`: it continues a string
    /// and closes nothing) and return the kind of an import on it (`None`
    /// for a blank line), opening the block it starts, if any.
    fn enter(&mut self, indent: Option<usize>, stmt: &str) -> Option<ImportKind> {
        let code = stmt.trim();
        if code.is_empty() {
            return None;
        }
        if let Some(indent) = indent {
            while self.0.last().is_some_and(|(at, _)| *at >= indent) {
                self.0.pop();
            }
        }
        let kind = if self.0.iter().any(|(_, b)| *b == Block::TypeChecking) {
            ImportKind::TypeOnly
        } else if self.0.iter().any(|(_, b)| *b == Block::Function) {
            ImportKind::Local
        } else {
            ImportKind::Runtime
        };
        let opens =
            if code.starts_with("def ") || code.starts_with("async def ") || is_main_if(code) {
                Some(Block::Function)
            } else if is_type_checking_if(code) {
                Some(Block::TypeChecking)
            } else {
                None
            };
        if let (Some(block), Some(indent)) = (opens, indent) {
            self.0.push((indent, block));
        }
        Some(kind)
    }

    /// The indentation at or below which a line closes a block (that of
    /// the innermost one), `None` when none is open.
    fn innermost(&self) -> Option<usize> {
        self.0.last().map(|(at, _)| *at)
    }
}

/// `if TYPE_CHECKING:` or `if <module>.TYPE_CHECKING:`.
fn is_type_checking_if(code: &str) -> bool {
    code.strip_prefix("if ")
        .and_then(|c| c.trim_end().strip_suffix(':'))
        .map(str::trim)
        .is_some_and(|c| {
            c == "TYPE_CHECKING"
                || c.rsplit_once('.')
                    .is_some_and(|(m, name)| name == "TYPE_CHECKING" && is_dotted_name(m))
        })
}

/// `if __name__ == "__main__":` (strings are blanked by then: `""`).
fn is_main_if(code: &str) -> bool {
    code.strip_prefix("if ")
        .and_then(|c| c.trim_end().strip_suffix(':'))
        .is_some_and(|c| {
            let c: String = c.chars().filter(|ch| !ch.is_whitespace()).collect();
            c == "__name__==\"\"" || c == "\"\"==__name__"
        })
}

/// How deep a line is indented (spaces and tabs alike).
fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// Each logical line outside triple-quoted strings, with comments cut,
/// bracketed and backslash continuations joined, given to `each` with
/// the indentation of its first physical line (`None` for the code after
/// a closing triple quote, which continues a statement). `each` returns
/// the indentation at or below which a line must be read even when it
/// holds no import (it may close a block).
fn logical_lines(source: &str, mut each: impl FnMut(Option<usize>, &str) -> Option<usize>) {
    let mut in_string: Option<&str> = None;
    let mut pending = String::new();
    let mut pending_indent: Option<usize> = None;
    let mut depth = 0i32;
    let mut watch: Option<usize> = None;
    for raw in source.lines() {
        let mut line = raw;
        // The code after a closing triple quote continues a statement.
        let mut continues_string = false;
        if let Some(quote) = in_string {
            match line.find(quote) {
                Some(end) => {
                    in_string = None;
                    line = &line[end + 3..];
                    continues_string = true;
                }
                None => continue,
            }
        }
        // Most lines hold no quote, bracket, continuation or import, and
        // open or close no block: skip them without allocating (the block
        // checks, dearer, only for the lines that would be skipped).
        if pending.is_empty()
            && !line.contains("import")
            && !line
                .bytes()
                .any(|b| matches!(b, b'"' | b'\'' | b'(' | b'\\'))
        {
            let code = line.trim_start();
            let opens = code.starts_with("if ") && code.contains("TYPE_CHECKING");
            let closes = !continues_string
                && watch.is_some_and(|w| indentation(line) <= w)
                && !code.is_empty()
                && !code.starts_with('#');
            if !opens && !closes {
                continue;
            }
        }
        let indent = (!continues_string).then(|| indentation(line));
        let (code, opens) = strip_strings(line);
        if opens.is_some() {
            in_string = opens;
        }
        let code = code.trim_end();
        let continued = code.ends_with('\\');
        if pending.is_empty() {
            pending_indent = indent;
        }
        pending.push_str(code.trim_end_matches('\\'));
        pending.push(' ');
        depth += code.matches('(').count() as i32 - code.matches(')').count() as i32;
        if depth > 0 && pending.len() < 4096 || continued {
            continue;
        }
        depth = 0;
        watch = each(pending_indent, &std::mem::take(&mut pending));
    }
    if !pending.trim().is_empty() {
        each(pending_indent, &pending);
    }
}

/// The code of a line with comments and single-line strings blanked, and
/// the triple quote left open at its end, if any.
fn strip_strings(line: &str) -> (String, Option<&'static str>) {
    let mut code = String::with_capacity(line.len());
    let bytes = line.as_bytes();
    // Quotes and `#` are ASCII, so every cut below is on a char boundary.
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'#' {
            break;
        }
        if c != b'"' && c != b'\'' {
            i += 1;
            continue;
        }
        code.push_str(&line[from..i]);
        code.push_str("\"\"");
        let triple: &'static str = if c == b'"' { "\"\"\"" } else { "'''" };
        if line[i..].starts_with(triple) {
            match line[i + 3..].find(triple) {
                Some(end) => i += 3 + end + 3,
                None => return (code, Some(triple)),
            }
        } else {
            // A one-line string: skip to its closing quote.
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != c {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
        }
        from = i.min(bytes.len());
    }
    code.push_str(&line[from..i.min(bytes.len())]);
    (code, None)
}

fn parse_statement(stmt: &str, kind: ImportKind, out: &mut Vec<PyImport>) {
    if let Some(rest) = stmt.strip_prefix("import ") {
        for part in rest.split(',') {
            let module = part.split_whitespace().next().unwrap_or("");
            if is_dotted_name(module) {
                out.push(PyImport {
                    level: 0,
                    module: module.to_string(),
                    names: Vec::new(),
                    kind,
                });
            }
        }
    } else if let Some(rest) = stmt.strip_prefix("from ") {
        let Some((source, names)) = rest.split_once(" import ") else {
            return;
        };
        let source = source.trim();
        let level = source.chars().take_while(|c| *c == '.').count();
        let module = &source[level..];
        if !(module.is_empty() && level > 0 || is_dotted_name(module)) {
            return;
        }
        let names = names
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split(',')
            .filter_map(|n| n.split_whitespace().next())
            .filter(|n| *n == "*" || is_dotted_name(n))
            .map(str::to_string)
            .collect::<Vec<_>>();
        // `from x import *` passes the module's names on: a re-export
        // (unless it is weaker already, under a function or for types).
        let kind = if kind == ImportKind::Runtime && names.iter().any(|n| n == "*") {
            ImportKind::ReExport
        } else {
            kind
        };
        out.push(PyImport {
            level,
            module: module.to_string(),
            names,
            kind,
        });
    }
}

fn is_dotted_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|part| {
            let mut chars = part.chars();
            chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && chars.all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// Every `#include` of a C/C++ source, in order; one whose file a macro
/// names (`#include CONFIG_H`) is kept with `is_macro`.
pub fn includes(source: &str) -> Vec<Include> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let (close, angled) = match rest.chars().next()? {
                '"' => ('"', false),
                '<' => ('>', true),
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let name: String = rest
                        .split(|c: char| c.is_whitespace() || c == '/')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    return Some(Include {
                        path: name,
                        angled: false,
                        is_macro: true,
                    });
                }
                _ => return None,
            };
            let inner = &rest[1..];
            let end = inner.find(close)?;
            let path = inner[..end].trim();
            (!path.is_empty()).then(|| Include {
                path: path.to_string(),
                angled,
                is_macro: false,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imp(level: usize, module: &str, names: &[&str]) -> PyImport {
        PyImport {
            level,
            module: module.to_string(),
            names: names.iter().map(|s| s.to_string()).collect(),
            kind: ImportKind::Runtime,
        }
    }

    /// The module and kind of each import of `src`.
    fn kinds(src: &str) -> Vec<(String, ImportKind)> {
        python(src)
            .into_iter()
            .map(|i| (i.module, i.kind))
            .collect()
    }

    #[test]
    fn type_checking_blocks_hold_type_only_imports() {
        let src = "\
from typing import TYPE_CHECKING
import typing
if TYPE_CHECKING:
    from .console import Console

    # a comment at the left margin does not close the block
# nor does this one
    from .text import (
        Text,
    )
else:
    from .fallback import Console
if typing.TYPE_CHECKING:  # pragma: no cover
    import a.b
if not TYPE_CHECKING:
    import runs
from .after import x
";
        use ImportKind::*;
        let want = [
            ("typing", Runtime),
            ("typing", Runtime),
            ("console", TypeOnly),
            ("text", TypeOnly),
            ("fallback", Runtime),
            ("a.b", TypeOnly),
            ("runs", Runtime),
            ("after", Runtime),
        ];
        assert_eq!(kinds(src), want.map(|(m, k)| (m.to_string(), k)).to_vec());
    }

    #[test]
    fn imports_in_functions_are_local_and_star_imports_re_export() {
        let src = "\
import top
class A:
    def method(self):
        x = 1
        from .lazy import thing
        return x
    y = 2
    async def run(self):
        s = \"\"\"
import not_a_module
\"\"\"
        import inside
def f(): pass
if __name__ == \"__main__\":
    from .demo import run
import again
from .x import *
def g():
    if TYPE_CHECKING:
        from .y import *
    from .z import *
";
        use ImportKind::*;
        let want = [
            ("top", Runtime),
            ("lazy", Local),
            ("inside", Local),
            ("demo", Local),
            ("again", Runtime),
            ("x", ReExport),
            ("y", TypeOnly),
            ("z", Local),
        ];
        assert_eq!(kinds(src), want.map(|(m, k)| (m.to_string(), k)).to_vec());
    }

    #[test]
    fn python_statements() {
        let src = "\
import os, sys as system
import a.b.c as d
from . import sibling
from ..pkg.mod import (
    one,   # comment
    two as deux,
)
from .x import *
from y import \\
    z
if True: import lazy; from q import r
";
        assert_eq!(
            python(src),
            vec![
                imp(0, "os", &[]),
                imp(0, "sys", &[]),
                imp(0, "a.b.c", &[]),
                imp(1, "", &["sibling"]),
                imp(2, "pkg.mod", &["one", "two"]),
                PyImport {
                    kind: ImportKind::ReExport,
                    ..imp(1, "x", &["*"])
                },
                imp(0, "y", &["z"]),
                imp(0, "q", &["r"]),
            ]
        );
    }

    /// Broken and odd sources never panic and never invent a block: a
    /// block opener at the end, tabs, an unterminated string, a dedent
    /// inside brackets, a `def` whose signature never closes.
    #[test]
    fn odd_sources_keep_their_kinds_sane() {
        let odd = [
            "if TYPE_CHECKING:",
            "if TYPE_CHECKING:\n",
            "\tdef f(:\n\t\timport x\nimport y\n",
            "def f(\n  a,\nimport z\n",
            "\"\"\"never closed\nimport inside_string\n",
            "x = (\n1,\n)\nimport after\n",
            "if TYPE_CHECKING :\n    import spaced\n",
            "  \n\t\n#\n",
            "é = 1\n  é = 2\nimport u\n",
        ];
        for src in odd {
            let _ = python(src);
        }
        use ImportKind::*;
        // Tabs indent as spaces do.
        assert_eq!(
            kinds("\tdef f():\n\t\timport x\nimport y\n"),
            [("x".to_string(), Local), ("y".to_string(), Runtime)]
        );
        assert!(kinds("\"\"\"never closed\nimport inside_string\n").is_empty());
        assert_eq!(
            kinds("if TYPE_CHECKING :\n    import spaced\nimport top\n"),
            [
                ("spaced".to_string(), TypeOnly),
                ("top".to_string(), Runtime)
            ]
        );
    }

    #[test]
    fn a_closing_docstring_line_ends_the_string() {
        let src = "\"\"\"\nDoc.\n\"\"\"\nimport os\n";
        assert_eq!(python(src), vec![imp(0, "os", &[])]);
    }

    #[test]
    fn docstrings_and_strings_are_not_imports() {
        let src = r#"
"""Example:

import not_a_module
from nope import x
"""
s = "import fake"
t = '''one line''' ; import real
def f():
    '''
    from also_not import y
    '''
    from inner import thing
"#;
        assert_eq!(
            python(src),
            vec![
                imp(0, "real", &[]),
                PyImport {
                    kind: ImportKind::Local,
                    ..imp(0, "inner", &["thing"])
                }
            ]
        );
    }

    #[test]
    fn encoded_statements_decode_the_same() {
        let src = "from ..a.b import (c, d)\nimport e as f\nfrom . import g\n\
                   if TYPE_CHECKING:\n    import h\ndef i():\n    import j\nfrom k import *\n";
        assert_eq!(decode(&encode(true, src)).0, python(src));
        // A record from before kinds were kept reads as a runtime import.
        assert_eq!(decode("py\t0\tm\t\n").0, vec![imp(0, "m", &[])]);
        let c = "#include \"x.h\"\n#include <y/z.h>\n#include CONFIG(x)\n";
        assert_eq!(decode(&encode(false, c)).1, includes(c));
        assert_eq!(decode("garbage\npy\tx\ty\tz\n"), (Vec::new(), Vec::new()));
    }

    #[test]
    fn c_includes() {
        let src = "#include \"a.h\"\n  #  include <stdio.h>\n#include \"../up/b.h\" // c\n#define X\n#include MACRO\n";
        let got: Vec<(String, bool, bool)> = includes(src)
            .into_iter()
            .map(|i| (i.path, i.angled, i.is_macro))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a.h".to_string(), false, false),
                ("stdio.h".to_string(), true, false),
                ("../up/b.h".to_string(), false, false),
                ("MACRO".to_string(), false, true),
            ]
        );
    }
}
