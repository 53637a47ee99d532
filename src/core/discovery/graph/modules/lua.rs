//! Lua's imports: `require("a.b")` (or `require "a.b"`, `require 'a.b'`)
//! loads `a/b.lua` or `a/b/init.lua` from the package path, which for a
//! project's own modules is its top folder or a folder above the
//! requiring file (a `lua/` or `src/` tree): each is tried, nearest
//! first. A module found nowhere is the standard library or a rock
//! (external), unless its first segment is the requiring file's top
//! folder or the folder right below a `lua/` or `src/` it sits in
//! (`require "pl.missing"` from `pl/utils.lua`): that names the project,
//! and no file of it. Read off the text line by line.

use std::sync::LazyLock;

use regex::Regex;

use super::{Resolution, join, parent};
use crate::core::discovery::graph::resolve::FileSet;

/// `require("a.b")`, `require "a.b"`, `require 'a.b'`, anywhere on a line
/// (`local x = require "a.b"`).
static REQUIRE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\brequire\s*\(?\s*(?:'([A-Za-z0-9_.\-]+)'|"([A-Za-z0-9_.\-]+)")"#)
        .expect("a constant pattern")
});

/// The records of a Lua file: `lua\ta.b` for each `require`, comment lines
/// skipped.
pub(super) fn encode(source: &str) -> String {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.split("--").next().unwrap_or(line);
        for c in REQUIRE.captures_iter(code) {
            let (Some(whole), Some(name)) = (c.get(0), c.get(1).or(c.get(2))) else {
                continue;
            };
            // `require("pl." .. name)` names a module only at run time.
            let joined = code[whole.end()..].trim_start().starts_with("..");
            if !joined && !name.as_str().ends_with('.') {
                out.push(name.as_str().to_string());
            }
        }
    }
    super::records("lua", out)
}

/// The folders that can be a module's first segment for a file: the top
/// one of its path and the one right below each `lua/` or `src/`.
fn namespaces(file: &str) -> impl Iterator<Item = &str> {
    let parts: Vec<&str> = parent(file).split('/').filter(|p| !p.is_empty()).collect();
    let below = parts
        .windows(2)
        .filter(|w| matches!(w[0], "lua" | "src"))
        .map(|w| w[1])
        .collect::<Vec<_>>();
    parts.first().copied().into_iter().chain(below)
}

/// `require("a.b")`: see the module header.
pub(super) fn resolve<'a>(set: &FileSet<'a>, from_file: &str, module: &str) -> Resolution<'a> {
    let path = module.replace('.', "/");
    let mut dir = parent(from_file);
    loop {
        let file = join(dir, &format!("{path}.lua"));
        let init = join(dir, &format!("{path}/init.lua"));
        if let Some(f) = set.get(&file).or_else(|| set.get(&init)) {
            return Resolution::Files(vec![(f, 1.0)]);
        }
        if dir.is_empty() {
            break;
        }
        dir = parent(dir);
    }
    let first = module.split('.').next().unwrap_or(module);
    let names_project = module.contains('.') && namespaces(from_file).any(|d| d == first);
    if names_project {
        Resolution::Unresolved
    } else {
        Resolution::External
    }
}
