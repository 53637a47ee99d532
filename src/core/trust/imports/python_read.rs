//! Reading a Python file's text for what the import search follows:
//! its import statements (`import a.b`, `from . import c`, continued
//! over lines), the lines that are Python code (docstrings and comments
//! passed over), the module a dotted name and level stand for, and the
//! strings it hands a shell as lines. Moved out of `imports.rs` (consent
//! round 7); no change of behaviour.

use super::{SHELLS, env_path, literal};
use std::path::{Path, PathBuf};

/// The strings of Python `text` that hold a `$` when the file hands a
/// shell a line: it calls `os.system`, `os.popen`, `getoutput`, or
/// passes `shell=True`, or its strings name a shell and then `-c`
/// (`["sh", "-c", "sh \"$RUNNER\""]`). A file that does neither has no
/// shell lines (a `$` in a regular expression or a `string.Template`
/// is no command). The whole file counts, not the line: a call spans
/// lines.
pub(super) fn python_shell_lines(text: &str) -> Vec<String> {
    if !text.contains('$') {
        return Vec::new();
    }
    let strings: Vec<String> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(env_path::literals)
        .collect();
    let calls = [
        "os.system(",
        "os.popen(",
        "shell=True",
        "getoutput(",
        "getstatusoutput(",
    ];
    let with_c = strings.windows(2).any(|w| {
        let name = w[0].rsplit('/').next().unwrap_or(&w[0]);
        SHELLS.contains(&name)
            && w[1].starts_with('-')
            && !w[1].starts_with("--")
            && w[1].contains('c')
    });
    if !with_c && !calls.iter().any(|c| text.contains(c)) {
        return Vec::new();
    }
    strings.into_iter().filter(|s| s.contains('$')).collect()
}

/// One imported name: how many dots lead it (`from ..a import b`: 2) and
/// its dotted parts (`["a", "b"]`, or `["b"]` for `from . import b`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Name {
    pub(super) level: usize,
    pub(super) parts: Vec<String>,
}

/// The names the import statements of a Python text name: `import a.b
/// as c, d`; `from a.b import c, d` (`a.b`, and `a.b.c`, `a.b.d` which
/// may be submodules); the relative forms; `import_module("a")` and
/// `__import__("a")`.
pub(super) fn python_imports(text: &str) -> Vec<Name> {
    let mut out = Vec::new();
    for line in python_lines(text) {
        let line = line.split('#').next().unwrap_or("").trim();
        for stmt in line.split(';').map(str::trim) {
            if let Some(rest) = stmt.strip_prefix("import ") {
                for item in rest.split(',') {
                    let module = item.split(" as ").next().unwrap_or("").trim();
                    out.extend(dotted(module, 0));
                }
            } else if let Some(rest) = stmt.strip_prefix("from ") {
                let Some((module, names)) = rest.split_once(" import ") else {
                    continue;
                };
                let module = module.trim();
                let level = module.chars().take_while(|&c| c == '.').count();
                let module = &module[level..];
                let base = dotted(module, level);
                let names = names
                    .trim()
                    .trim_start_matches('(')
                    .trim_end_matches([')', '\\']);
                for item in names.split(',') {
                    let item = item.split(" as ").next().unwrap_or("").trim();
                    if item.is_empty() || item == "*" {
                        continue;
                    }
                    let full = if module.is_empty() {
                        item.to_string()
                    } else {
                        format!("{module}.{item}")
                    };
                    out.extend(dotted(&full, level));
                }
                out.extend(base);
            }
            // conftest.py's `pytest_plugins = ["tools.plug"]`: modules
            // pytest imports.
            if stmt.starts_with("pytest_plugins") && stmt.contains('=') {
                for name in literal::string_literals(stmt) {
                    out.extend(dotted(name, 0));
                }
            }
            // `runpy.run_module("other")` runs a module as `-m` would
            // (recheck 25: not read, it ran unreviewed).
            for call in ["import_module(", "__import__(", "run_module("] {
                for (at, _) in stmt.match_indices(call) {
                    let arg = stmt[at + call.len()..].trim_start();
                    let arg = arg
                        .strip_prefix("mod_name")
                        .and_then(|a| a.trim_start().strip_prefix('='))
                        .map_or(arg, str::trim_start);
                    let Some(quote) = arg.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                        continue;
                    };
                    let inner = &arg[1..];
                    if let Some(end) = inner.find(quote) {
                        out.extend(dotted(&inner[..end], 0));
                    }
                }
            }
        }
    }
    out
}

/// The lines of Python source `text` as its statements run on: a line
/// ended by `\\` goes on with the next, and `from m import (` with the
/// lines up to its `)` (64 at most).
pub(super) fn python_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // The last line goes on; lines left inside `import (`.
    let mut joining = false;
    let mut open = 0usize;
    for line in text.lines() {
        let (body, continues) = match line.strip_suffix('\\') {
            Some(body) => (body, true),
            None => (line, false),
        };
        match out.last_mut() {
            Some(last) if joining => {
                last.push(' ');
                last.push_str(body.trim());
            }
            _ => out.push(body.to_string()),
        }
        let code = body.split('#').next().unwrap_or("");
        if open > 0 {
            open = if code.contains([')', ']']) {
                0
            } else {
                open - 1
            };
        } else if (code.trim_start().starts_with("from ") && code.contains("import (")
            || code.trim_start().starts_with("pytest_plugins") && code.contains(['[', '(']))
            && !code.contains([')', ']'])
        {
            open = 64;
        }
        joining = continues || open > 0;
    }
    out
}

/// `a.b.c` as a [`Name`], `None` when it is not a dotted name.
pub(super) fn dotted(module: &str, level: usize) -> Option<Name> {
    if module.is_empty() {
        return (level > 0).then_some(Name {
            level,
            parts: Vec::new(),
        });
    }
    let parts: Vec<String> = module.split('.').map(str::to_string).collect();
    let ok = parts.iter().all(|p| {
        !p.is_empty()
            && p.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !p.starts_with(|c: char| c.is_ascii_digit())
    });
    ok.then_some(Name { level, parts })
}

/// The folder `level` dots name from a module in `here` (`.`: `here`).
pub(super) fn package_dir(here: &Path, level: usize) -> Option<PathBuf> {
    let mut dir = here.to_path_buf();
    for _ in 1..level {
        dir = dir.parent()?.to_path_buf();
    }
    Some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_statements_are_read_as_python_reads_them() {
        let names = |text: &str| -> Vec<(usize, String)> {
            python_imports(text)
                .into_iter()
                .map(|n| (n.level, n.parts.join(".")))
                .collect()
        };
        assert_eq!(
            names("import json, os.path as p\nfrom helper import run, Tool as T\n"),
            [
                (0, "json".to_string()),
                (0, "os.path".to_string()),
                (0, "helper.run".to_string()),
                (0, "helper.Tool".to_string()),
                (0, "helper".to_string()),
            ]
        );
        assert_eq!(
            names(
                "from . import a\nfrom ..b import c  # x\nm = importlib.import_module('plug.x')\n"
            ),
            [
                (1, "a".to_string()),
                (1, String::new()),
                (2, "b.c".to_string()),
                (2, "b".to_string()),
                (0, "plug.x".to_string()),
            ]
        );
        assert_eq!(
            names("runpy.run_module(\"other\")\nrunpy.run_module(mod_name='tools.w')\n"),
            [(0, "other".to_string()), (0, "tools.w".to_string())]
        );
        assert!(names("x = 'import'\nprint(1)\n").is_empty());
    }

    /// An import continued by `\\` or inside `from m import (` names
    /// what follows (recheck of sweep 10: `import os, \\` / `helper` was
    /// read as `os` alone).
    #[test]
    fn continued_imports_are_read_whole() {
        let names = |text: &str| -> Vec<String> {
            python_imports(text)
                .into_iter()
                .map(|n| n.parts.join("."))
                .collect()
        };
        assert_eq!(
            names("import os, \\\n    helper\nx = 1\n"),
            ["os", "helper"]
        );
        assert_eq!(
            names("from . import (\n    a,\n    b,  # c\n)\nimport d\n"),
            // `""`: the package itself (`from . import`).
            ["a", "b", "", "d"]
        );
    }

    /// A Python file's strings are shell lines only when it hands a
    /// shell a line (round 13: pip's `$base` scheme templates and a
    /// regular expression's `$(?:…)` read as commands were refusals).
    #[test]
    fn strings_a_python_file_hands_a_shell_are_its_shell_lines() {
        assert_eq!(
            python_shell_lines("subprocess.run(['sh', '-c', 'sh \"$R\"'])\n"),
            ["sh \"$R\""]
        );
        assert_eq!(
            python_shell_lines("subprocess.run('x $R',\n    shell=True)\n"),
            ["x $R"]
        );
        assert!(
            python_shell_lines("re.compile(r'^a$(?:b|c)')\nt = Template('$base/lib')\n").is_empty()
        );
    }
}
