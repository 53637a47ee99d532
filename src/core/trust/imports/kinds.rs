//! Which program runs a file the scan reaches: by its extension, its
//! `#!` line, or what the command or an earlier script said runs it
//! (`runpy.run_path("tools/app")`: Python). Moved out of `imports.rs`
//! (consent round 7); no change of behaviour.

use super::{MAX_NAMES, literal};
use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// What file `rel` (at `real`, holding `text`) is read as: by its name
/// or `#!` line, else as the program that runs it reads it. A folder's
/// `__main__.py`, and a Python file known by the program that runs it,
/// run with their folder first in `search` (`python3 tools/app`,
/// `runpy.run_path("tools/app")`).
pub(super) fn kind_of(
    rel: &str,
    real: &Path,
    text: &str,
    run_by: &HashMap<PathBuf, String>,
    search: &mut Vec<PathBuf>,
) -> Kind {
    let kind = match Kind::of(rel, text) {
        Kind::Other => Kind::of_program(run_by.get(real).map_or("", String::as_str)),
        kind => kind,
    };
    let by_program = kind == Kind::Python && Kind::of(rel, text) == Kind::Other;
    if (rel.ends_with("__main__.py") || by_program)
        && let Some(dir) = real.parent()
        && search.first().is_none_or(|first| first != dir)
    {
        search.insert(0, dir.to_path_buf());
    }
    kind
}

/// The program that runs each file (by its canonical path), as the
/// command's lines and the scripts read so far say, and the files read
/// as nothing in particular (`Kind::Other`) before one did.
pub(super) struct Programs {
    pub(super) of: HashMap<PathBuf, String>,
    pub(super) read_as_other: BTreeSet<PathBuf>,
}

impl Programs {
    /// Learn what program a script of `kind` (in folder `here`, holding
    /// `text`) runs each file it names with
    /// (`subprocess.run([sys.executable, "tools/app"])`,
    /// `runpy.run_path("tools/app")`, `sh tools/app`): the files already
    /// read as nothing in particular, to be read again as that program
    /// reads them.
    pub(super) fn learn(
        &mut self,
        real_root: &Path,
        here: &Path,
        kind: Kind,
        text: &str,
    ) -> Vec<PathBuf> {
        let named = match kind {
            Kind::Python => literal::python_programs(text),
            Kind::Shell => literal::shell_programs(text),
            Kind::Node => literal::js_programs(text),
            _ => Vec::new(),
        };
        let mut again = Vec::new();
        for (word, program) in named.into_iter().take(MAX_NAMES) {
            for base in [here, real_root] {
                let Ok(real) = fs::canonicalize(base.join(&word)) else {
                    continue;
                };
                if !real.starts_with(real_root) || self.of.contains_key(&real) {
                    continue;
                }
                self.of.insert(real.clone(), program.clone());
                if self.read_as_other.remove(&real) {
                    again.push(real);
                }
            }
        }
        again
    }
}

/// The files Ruby tools load by name, without an extension (consent
/// round 12, item 3): rake's and Bundler's.
const RUBY_FILES: [&str; 3] = ["Rakefile", "rakefile", "Gemfile"];

/// What a file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Python,
    Shell,
    /// JavaScript or TypeScript (Node, Deno, Bun, tsx, ts-node).
    Node,
    Ruby,
    Php,
    Lua,
    Perl,
    Other,
}

impl Kind {
    /// What a program (`python3`, `/bin/sh`, `node`) reads its script as.
    pub(super) fn of_program(program: &str) -> Kind {
        let name = program.rsplit('/').next().unwrap_or(program);
        match name {
            "" => Kind::Other,
            _ => Kind::of("", &format!("#!{name}\n")),
        }
    }

    pub(super) fn of(rel: &str, text: &str) -> Kind {
        let first = text.lines().next().unwrap_or("");
        let shebang = first.strip_prefix("#!").unwrap_or("");
        // The interpreter: a word of the shebang, its folder cut
        // (`/usr/bin/env -S deno run`, `/usr/bin/node`).
        let words: Vec<&str> = shebang
            .split_whitespace()
            .map(|w| w.rsplit('/').next().unwrap_or(w))
            .collect();
        let ext = rel.rsplit_once('.').map_or("", |(_, e)| e);
        let named = |names: &[&str]| words.iter().any(|w| names.iter().any(|n| w.starts_with(n)));
        // A `.pth` file's `import` lines run as Python starts.
        if matches!(ext, "py" | "pyw" | "pth") || shebang.contains("python") {
            Kind::Python
        } else if matches!(ext, "sh" | "bash")
            || shebang.ends_with("sh")
            || shebang.contains("bash")
        {
            Kind::Shell
        } else if matches!(
            ext,
            "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx"
        ) || named(&["node", "nodejs", "deno", "bun", "tsx", "ts-node"])
        {
            Kind::Node
        } else if matches!(ext, "rb" | "rake" | "gemspec" | "gemfile")
            || RUBY_FILES.contains(&rel.rsplit('/').next().unwrap_or(rel))
            || rel
                .rsplit('/')
                .next()
                .is_some_and(|n| n.starts_with("Gemfile."))
            || named(&["ruby"])
        {
            Kind::Ruby
        } else if ext == "php" || named(&["php"]) {
            Kind::Php
        } else if ext == "lua" || named(&["lua", "luajit"]) {
            Kind::Lua
        } else if matches!(ext, "pl" | "pm") || named(&["perl"]) {
            Kind::Perl
        } else {
            Kind::Other
        }
    }
}
