//! Rust imports: `mod x;` declarations and the paths of `use` trees
//! (`crate::`, `super::`, `self::`, or a module declared at the crate
//! root), resolved to the file of the deepest module the path names.

use std::sync::LazyLock;

use regex::Regex;

use super::{join, parent};
use crate::core::discovery::graph::resolve::{FileSet, Resolution};
use crate::core::discovery::graph::stdlib;

static RUST_MOD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
        .expect("a constant pattern")
});

/// `mod x` for each `mod x;` and `use p` for each path of each `use`
/// (groups expanded: `use crate::{a, b::c}` is `crate::a`, `crate::b::c`).
pub(super) fn encode(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut statement: Option<String> = None;
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or(line);
        if let Some(open) = statement.as_mut() {
            open.push(' ');
            open.push_str(code);
        } else if let Some(c) = RUST_MOD.captures(code) {
            out.push(format!("mod {}", &c[1]));
            continue;
        } else {
            let t = code.trim_start();
            let t = t
                .strip_prefix("pub ")
                .or_else(|| t.strip_prefix("pub(crate) "))
                .unwrap_or(t);
            match t.strip_prefix("use ") {
                Some(rest) => statement = Some(rest.to_string()),
                None => continue,
            }
        }
        if let Some(text) = statement.take_if(|s| s.contains(';')) {
            let body = text.split(';').next().unwrap_or("");
            let mut paths = Vec::new();
            expand("", body, &mut paths);
            out.extend(paths.into_iter().map(|p| format!("use {p}")));
        } else if statement.as_ref().is_some_and(|s| s.len() > 4096) {
            statement = None;
        }
    }
    out
}

/// The paths of a `use` tree (`a::{b, c::{d}}`), each without `as`
/// renames; `self` in a group names the group's module.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        let path = path.strip_suffix("::self").unwrap_or(path);
        // The empty item after a trailing comma (`{ a, b, }`).
        if path.is_empty() {
            return;
        }
        let full = match (prefix.is_empty(), path) {
            (_, "self") => prefix.trim_end_matches("::").to_string(),
            (true, _) => path.to_string(),
            (false, _) => format!("{prefix}{path}"),
        };
        if !full.is_empty() && full != "*" {
            out.push(full.trim_end_matches("::*").to_string());
        }
        return;
    };
    let head = format!("{prefix}{}", &tree[..open]);
    let rest = tree[open + 1..].trim_end();
    let inner = rest.strip_suffix('}').unwrap_or(rest);
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&head, &inner[start..i], out);
                start = i + 1;
            }
            _ => {}
        }
    }
    expand(&head, &inner[start..], out);
}

/// The crate root file above `from_file`: the nearest `lib.rs` or
/// `main.rs` in its folder or a folder above.
fn crate_root<'a>(set: &FileSet<'a>, from_file: &str) -> Option<&'a str> {
    let mut dir = parent(from_file);
    loop {
        for root in ["lib.rs", "main.rs"] {
            if let Some(f) = set.get(&join(dir, root)) {
                return Some(f);
            }
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent(dir);
    }
}

/// The folder where the submodules of `file` live: its own folder for
/// `lib.rs`, `main.rs` and `mod.rs`, else `folder/stem`.
fn module_dir(file: &str) -> String {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    match name {
        "lib.rs" | "main.rs" | "mod.rs" => dir.to_string(),
        _ => join(dir, name.trim_end_matches(".rs")),
    }
}

/// `dir/name.rs` or `dir/name/mod.rs`, whichever the project has.
fn module_file<'a>(set: &FileSet<'a>, dir: &str, name: &str) -> Option<&'a str> {
    set.get(&join(dir, &format!("{name}.rs")))
        .or_else(|| set.get(&join(&join(dir, name), "mod.rs")))
}

pub(super) fn resolve<'a>(set: &FileSet<'a>, from_file: &str, stmt: &str) -> Resolution<'a> {
    if let Some(name) = stmt.strip_prefix("mod ") {
        return match module_file(set, &module_dir(from_file), name) {
            Some(f) => Resolution::Files(vec![(f, 1.0)]),
            None => Resolution::Unresolved,
        };
    }
    let Some(path) = stmt.strip_prefix("use ") else {
        return Resolution::External;
    };
    let Some(root) = crate_root(set, from_file) else {
        return Resolution::External;
    };
    let root_dir = parent(root);
    let mut segments: Vec<&str> = path.split("::").map(str::trim).collect();
    // The module the path starts from, as a folder of submodules and the
    // file that defines it.
    let (mut dir, mut file) = match segments.first().copied() {
        Some("crate") => (root_dir.to_string(), root),
        Some("self") => (module_dir(from_file), from_file_in(set, from_file, root)),
        Some("super") => {
            let mut dir = module_dir(from_file);
            let mut file = from_file_in(set, from_file, root);
            while segments.first() == Some(&"super") {
                segments.remove(0);
                if dir.len() <= root_dir.len() {
                    return Resolution::Unresolved;
                }
                dir = parent(&dir).to_string();
                file = defining_file(set, &dir, root_dir).unwrap_or(root);
            }
            segments.insert(0, "super");
            (dir, file)
        }
        // A module declared at the crate root (`use config::Settings` in
        // `main.rs`) is the project's; any other first segment is a crate.
        // `std`, `core` and `alloc` are the standard library's even where
        // the crate has a module of that name.
        Some(first)
            if module_file(set, root_dir, first).is_some()
                && !first.is_empty()
                && !stdlib::is_rust(first) =>
        {
            segments.insert(0, "crate");
            (root_dir.to_string(), root)
        }
        _ => return Resolution::External,
    };
    for name in segments.iter().skip(1) {
        match module_file(set, &dir, name) {
            Some(f) => {
                file = f;
                dir = join(&dir, name);
            }
            // The rest names items of the module reached.
            None => break,
        }
    }
    Resolution::Files(vec![(file, 1.0)])
}

/// `from_file` as the project holds it (the root if it does not).
fn from_file_in<'a>(set: &FileSet<'a>, from_file: &str, root: &'a str) -> &'a str {
    set.get(from_file).unwrap_or(root)
}

/// The file that defines the module whose submodules live in `dir`:
/// `dir.rs`, `dir/mod.rs`, or the crate root for the root folder.
fn defining_file<'a>(set: &FileSet<'a>, dir: &str, root_dir: &str) -> Option<&'a str> {
    if dir == root_dir {
        return None;
    }
    let (up, name) = dir.rsplit_once('/').unwrap_or(("", dir));
    module_file(set, up, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::modules::testing::{files, set, targets};

    #[test]
    fn rust_mods_and_uses_are_read_with_groups_expanded() {
        let src = "mod a;\npub(crate) mod b;\nmod inline { }\nuse std::fmt;\n\
                   use crate::{x::Y, z::{self, W as V}};\nuse super::q::*;\n\
                   pub use self::a::A;\nuse crate::long::{\n    One,\n    Two,\n};\n";
        assert_eq!(
            encode(src),
            [
                "mod a",
                "mod b",
                "use std::fmt",
                "use crate::x::Y",
                "use crate::z",
                "use crate::z::W",
                "use super::q",
                "use self::a::A",
                "use crate::long::One",
                "use crate::long::Two",
            ]
        );
    }

    #[test]
    fn rust_paths_resolve_to_module_files() {
        let list = files(&[
            "src/lib.rs",
            "src/a.rs",
            "src/a/b.rs",
            "src/c/mod.rs",
            "src/c/d.rs",
        ]);
        let set = set(&list);
        let r = |from: &str, stmt: &str| targets(resolve(&set, from, stmt));
        assert_eq!(r("src/lib.rs", "mod a"), Some(vec!["src/a.rs"]));
        assert_eq!(r("src/lib.rs", "mod c"), Some(vec!["src/c/mod.rs"]));
        assert_eq!(r("src/a.rs", "mod b"), Some(vec!["src/a/b.rs"]));
        assert_eq!(r("src/c/mod.rs", "mod d"), Some(vec!["src/c/d.rs"]));
        assert_eq!(r("src/lib.rs", "mod gone"), None);
        assert_eq!(
            r("src/c/d.rs", "use crate::a::b::Thing"),
            Some(vec!["src/a/b.rs"])
        );
        assert_eq!(
            r("src/c/d.rs", "use super::Helper"),
            Some(vec!["src/c/mod.rs"])
        );
        assert_eq!(
            r("src/a/b.rs", "use super::super::c::d"),
            Some(vec!["src/c/d.rs"])
        );
        assert_eq!(
            r("src/c/mod.rs", "use self::d::X"),
            Some(vec!["src/c/d.rs"])
        );
        assert_eq!(r("src/c/d.rs", "use crate::Root"), Some(vec!["src/lib.rs"]));
        assert_eq!(r("src/lib.rs", "use a::f"), Some(vec!["src/a.rs"]));
        assert_eq!(r("src/lib.rs", "use serde::Serialize"), None);
    }

    #[test]
    fn standard_crates_are_not_root_modules() {
        let list = files(&["src/lib.rs", "src/core.rs", "src/config.rs"]);
        let set = set(&list);
        let r = |stmt: &str| targets(resolve(&set, "src/lib.rs", stmt));
        assert_eq!(r("use core::mem"), None);
        assert_eq!(r("use crate::core::Thing"), Some(vec!["src/core.rs"]));
        assert_eq!(r("use config::Settings"), Some(vec!["src/config.rs"]));
    }
}
