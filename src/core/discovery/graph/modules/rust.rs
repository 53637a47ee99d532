//! Rust imports: `mod x;` declarations and the paths of `use` trees
//! (`crate::`, `super::`, `self::`, or a module declared at the crate
//! root), resolved to the file of the deepest module the path names.

use std::sync::LazyLock;

use regex::Regex;

mod braces;

use std::path::Path;

use super::{join, parent};
use crate::core::discovery::graph::layout::read_small;
use crate::core::discovery::graph::resolve::{FileSet, Resolution};
use crate::core::module_maps::stdlib;
use braces::Braces;

/// The library crates of the project: each `Cargo.toml`'s library name
/// (`[lib] name`, else `[package] name` with `-` as `_`) and its root file
/// (`[lib] path`, else `src/lib.rs`), for `use name::…` from the crate's
/// tests, examples and binaries and from the other crates of a workspace.
#[derive(Debug, Default)]
pub(super) struct Crates {
    libs: Vec<(String, String)>,
}

impl Crates {
    /// Read every `Cargo.toml` among `files`; one that does not parse is
    /// skipped.
    pub(super) fn read(root: &Path, files: &[String]) -> Self {
        let mut libs = Vec::new();
        for f in files
            .iter()
            .filter(|f| f.as_str() == "Cargo.toml" || f.ends_with("/Cargo.toml"))
        {
            let Some(doc) =
                read_small(root, f).and_then(|t| t.parse::<toml_edit::DocumentMut>().ok())
            else {
                continue;
            };
            let lib = doc.get("lib");
            let name = lib
                .and_then(|l| l.get("name"))
                .or_else(|| doc.get("package").and_then(|p| p.get("name")))
                .and_then(|n| n.as_str())
                .map(|n| n.replace('-', "_"));
            let path = lib
                .and_then(|l| l.get("path"))
                .and_then(|p| p.as_str())
                .unwrap_or("src/lib.rs");
            let file = super::super::layout::normalize(&join(parent(f), path));
            if let (Some(name), Some(file)) = (name, file) {
                libs.push((name, file));
            }
        }
        Crates { libs }
    }

    /// The root file of the project's library crate `name`, when the
    /// project has it.
    fn lib<'a>(&self, set: &FileSet<'a>, name: &str) -> Option<&'a str> {
        self.libs
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, f)| set.get(f))
    }
}

static RUST_MOD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
        .expect("a constant pattern")
});

static INLINE_MOD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
        .expect("a constant pattern")
});

static PATH_ATTR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*#\[path\s*=\s*"([^"]+)"\s*\]\s*$"#).expect("a constant pattern")
});

/// `mod x` for each `mod x;` (`#[path = "p"] mod x` when an attribute
/// names its file) and `use p` for each path of each `use` (groups
/// expanded: `use crate::{a, b::c}` is `crate::a`, `crate::b::c`). Inside
/// an inline `mod name { … }` a `use super::…` names the file's own module
/// (`#[cfg(test)] mod tests { use super::*; }`), so one `super` is taken
/// off per inline level: it is written `use self` or `use self::…`.
pub(super) fn encode(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut statement: Option<(String, usize)> = None;
    let mut path_attr: Option<String> = None;
    let mut braces = Braces::default();
    // The brace depth inside each inline module open here, and its name.
    let mut inline: Vec<(usize, String)> = Vec::new();
    for line in source.lines() {
        let depth = braces.depth;
        let code = braces.line(line);
        if let Some(c) = INLINE_MOD.captures(&code) {
            inline.push((depth + 1, c[1].to_string()));
        }
        inline.retain(|(d, _)| *d <= braces.depth);
        if let Some((open, _)) = statement.as_mut() {
            open.push(' ');
            open.push_str(&code);
        } else if let Some(c) = PATH_ATTR.captures(&code) {
            path_attr = Some(c[1].to_string());
            continue;
        } else if let Some(c) = RUST_MOD.captures(&code) {
            // Inside `mod a { … }`, `mod b;` is the file `a/b.rs`: written
            // `mod a::b`.
            let mut name: Vec<&str> = inline
                .iter()
                .filter(|(d, _)| *d <= depth)
                .map(|(_, n)| n.as_str())
                .collect();
            name.push(&c[1]);
            let name = name.join("::");
            out.push(match path_attr.take() {
                Some(p) if !p.contains('"') => format!("#[path = \"{p}\"] mod {name}"),
                _ => format!("mod {name}"),
            });
            continue;
        } else {
            let t = code.trim_start();
            let t = t
                .strip_prefix("pub ")
                .or_else(|| t.strip_prefix("pub(crate) "))
                .unwrap_or(t);
            let levels = inline.iter().filter(|(d, _)| *d <= depth).count();
            match t.strip_prefix("use ") {
                Some(rest) => statement = Some((rest.to_string(), levels)),
                None => {
                    if !t.starts_with("#[") {
                        path_attr = None;
                    }
                    continue;
                }
            }
        }
        if let Some((text, levels)) = statement.take_if(|(s, _)| s.contains(';')) {
            let body = text.split(';').next().unwrap_or("");
            let mut paths = Vec::new();
            expand("", body, &mut paths);
            out.extend(
                paths
                    .into_iter()
                    .map(|p| format!("use {}", out_of_inline(&p, levels))),
            );
        } else if statement.as_ref().is_some_and(|(s, _)| s.len() > 4096) {
            statement = None;
        }
    }
    out
}

/// `path` written inside `levels` inline modules, as seen from the file's
/// own module: each leading `super` climbs one inline level first.
fn out_of_inline(path: &str, levels: usize) -> String {
    let mut rest = path;
    let mut climbed = 0;
    while climbed < levels {
        match rest.strip_prefix("super") {
            Some("") => return "self".to_string(),
            Some(r) if r.starts_with("::") => {
                rest = &r[2..];
                climbed += 1;
            }
            _ => break,
        }
    }
    if climbed == 0 || rest.starts_with("super") {
        rest.to_string()
    } else {
        format!("self::{rest}")
    }
}

/// Groups nested deeper than this in a `use` tree are left out: real
/// trees nest a few levels, and one planted 10,000 deep must cost neither
/// stack nor quadratic time.
const MAX_GROUP_DEPTH: usize = 32;

/// The paths of a `use` tree (`a::{b, c::{d}}`), each without `as`
/// renames; `self` in a group names the group's module. Walked with a
/// stack of its own, not recursion (a tree's depth is the file's to say).
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let mut todo = vec![(prefix.to_string(), tree, 0usize)];
    while let Some((prefix, tree, depth)) = todo.pop() {
        let tree = tree.trim();
        let Some(open) = tree.find('{') else {
            leaf(&prefix, tree, out);
            continue;
        };
        if depth >= MAX_GROUP_DEPTH {
            continue;
        }
        let head = format!("{prefix}{}", &tree[..open]);
        let rest = tree[open + 1..].trim_end();
        let inner = rest.strip_suffix('}').unwrap_or(rest);
        let mut items = Vec::new();
        let mut level = 0i64;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => level += 1,
                '}' => level -= 1,
                ',' if level == 0 => {
                    items.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        items.push(&inner[start..]);
        // Reversed onto the stack: the paths come out in the tree's order.
        todo.extend(
            items
                .into_iter()
                .rev()
                .map(|item| (head.clone(), item, depth + 1)),
        );
    }
}

/// One path of a `use` tree, `prefix` the groups' heads above it.
fn leaf(prefix: &str, tree: &str, out: &mut Vec<String>) {
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
}

/// Whether `file` is a crate root by where it is: `lib.rs`, `main.rs`,
/// `build.rs`, and each file directly in `src/bin/` or in the `tests/`,
/// `examples/` or `benches/` folder next to a `Cargo.toml` (cargo makes
/// each a crate; a `tests/` folder inside `src/` is a module).
fn own_root(set: &FileSet, file: &str) -> bool {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    let (up, folder) = dir.rsplit_once('/').unwrap_or(("", dir));
    matches!(name, "lib.rs" | "main.rs" | "build.rs")
        || (matches!(folder, "tests" | "examples" | "benches")
            && set.get(&join(up, "Cargo.toml")).is_some())
        || folder == "bin" && (up == "src" || up.ends_with("/src"))
}

/// The crate root file above `from_file`: itself when it is one, else
/// the nearest `lib.rs` or `main.rs` in its folder or a folder above.
fn crate_root<'a>(set: &FileSet<'a>, from_file: &str) -> Option<&'a str> {
    if own_root(set, from_file) {
        return set.get(from_file);
    }
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
/// `mod.rs` and a crate root, else `folder/stem`.
fn module_dir(set: &FileSet, file: &str) -> String {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    if name == "mod.rs" || own_root(set, file) {
        dir.to_string()
    } else {
        join(dir, name.trim_end_matches(".rs"))
    }
}

/// `dir/name.rs` or `dir/name/mod.rs`, whichever the project has.
fn module_file<'a>(set: &FileSet<'a>, dir: &str, name: &str) -> Option<&'a str> {
    set.get(&join(dir, &format!("{name}.rs")))
        .or_else(|| set.get(&join(&join(dir, name), "mod.rs")))
}

pub(super) fn resolve<'a>(
    set: &FileSet<'a>,
    crates: &Crates,
    from_file: &str,
    stmt: &str,
) -> Resolution<'a> {
    if let Some(rest) = stmt.strip_prefix("#[path = \"") {
        // `#[path = "p"] mod x`: `p` from the file's folder.
        let file = rest
            .split_once('"')
            .and_then(|(p, _)| super::super::layout::normalize(&join(parent(from_file), p)))
            .and_then(|p| set.get(&p));
        return match file {
            Some(f) => Resolution::Files(vec![(f, 1.0)]),
            None => Resolution::Unresolved,
        };
    }
    if let Some(name) = stmt.strip_prefix("mod ") {
        // `mod a::b`: `mod b;` inside an inline `mod a { … }`.
        let (inline, name) = name.rsplit_once("::").unwrap_or(("", name));
        let dir = join(&module_dir(set, from_file), &inline.replace("::", "/"));
        let dir = dir.trim_end_matches('/');
        return match module_file(set, dir, name) {
            Some(f) => Resolution::Files(vec![(f, 1.0)]),
            None => Resolution::Unresolved,
        };
    }
    let Some(path) = stmt.strip_prefix("use ") else {
        return Resolution::External;
    };
    let mut segments: Vec<&str> = path.split("::").map(str::trim).collect();
    let first = segments.first().copied().unwrap_or_default();
    let Some(root) = crate_root(set, from_file) else {
        // Outside any crate's source folder (`tests/`, `examples/`,
        // `benches/`): a project crate by its name, or a dependency.
        return match crates.lib(set, first) {
            Some(lib) => {
                segments[0] = "crate";
                walk_modules(set, segments, parent(lib).to_string(), lib)
            }
            None => Resolution::External,
        };
    };
    let root_dir = parent(root);
    // The module the path starts from, as a folder of submodules and the
    // file that defines it.
    let (dir, file) = match segments.first().copied() {
        Some("crate") => (root_dir.to_string(), root),
        Some("self") => (
            module_dir(set, from_file),
            from_file_in(set, from_file, root),
        ),
        Some("super") => {
            let mut dir = module_dir(set, from_file);
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
        // A module declared at the crate root, used from the root
        // (`use config::Settings` in `main.rs`), is the project's; any
        // other first segment is a crate (elsewhere a module is reached
        // through `crate::`). `std`, `core` and `alloc` are the standard
        // library's even where the crate has a module of that name.
        Some(first)
            if from_file == root
                && !first.is_empty()
                && !stdlib::is_rust(first)
                && module_file(set, root_dir, first).is_some() =>
        {
            segments.insert(0, "crate");
            (root_dir.to_string(), root)
        }
        // Another crate of the workspace (or this one's library from its
        // binary) by its name.
        Some(first) if crates.lib(set, first).is_some() => {
            let lib = crates.lib(set, first).unwrap_or(root);
            segments[0] = "crate";
            (parent(lib).to_string(), lib)
        }
        _ => return Resolution::External,
    };
    walk_modules(set, segments, dir, file)
}

/// From the module defined by `file` (its submodules in `dir`), follow
/// `segments` past the first down the modules the project has; the rest
/// names items of the module reached.
fn walk_modules<'a>(
    set: &FileSet<'a>,
    segments: Vec<&str>,
    mut dir: String,
    mut file: &'a str,
) -> Resolution<'a> {
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
        let r = |from: &str, stmt: &str| targets(resolve(&set, &Crates::default(), from, stmt));
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
        let r = |stmt: &str| targets(resolve(&set, &Crates::default(), "src/lib.rs", stmt));
        assert_eq!(r("use core::mem"), None);
        assert_eq!(r("use crate::core::Thing"), Some(vec!["src/core.rs"]));
        assert_eq!(r("use config::Settings"), Some(vec!["src/config.rs"]));
    }

    #[test]
    fn crates_are_used_by_name_from_tests_and_other_crates() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("Cargo.toml", "[workspace]\nmembers = [\"core\", \"app\"]\n");
        write("core/Cargo.toml", "[package]\nname = \"acme-core\"\n");
        write(
            "app/Cargo.toml",
            "[package]\nname = \"app\"\n[lib]\npath = \"lib/root.rs\"\n",
        );
        write("bad/Cargo.toml", "[package\nname = ");
        let list = files(&[
            "Cargo.toml",
            "core/Cargo.toml",
            "core/src/lib.rs",
            "core/src/model.rs",
            "core/tests/it.rs",
            "app/Cargo.toml",
            "app/lib/root.rs",
            "app/src/main.rs",
            "bad/Cargo.toml",
        ]);
        let set = set(&list);
        let crates = Crates::read(dir.path(), &list);
        let r = |from: &str, stmt: &str| targets(resolve(&set, &crates, from, stmt));
        assert_eq!(
            r("core/tests/it.rs", "use acme_core::model::User"),
            Some(vec!["core/src/model.rs"])
        );
        assert_eq!(
            r("app/src/main.rs", "use acme_core::Thing"),
            Some(vec!["core/src/lib.rs"])
        );
        assert_eq!(
            r("app/src/main.rs", "use app::X"),
            Some(vec!["app/lib/root.rs"])
        );
        assert_eq!(r("core/tests/it.rs", "use serde::Serialize"), None);
        assert!(matches!(
            resolve(&set, &crates, "core/tests/it.rs", "use acme::x"),
            Resolution::External
        ));
    }

    #[test]
    fn inline_modules_path_attributes_and_own_roots() {
        let src = "#[path = \"support/panic.rs\"]\nmod panic;\nuse super::x;\n\
                   const S: &str = \"{ not a brace\";\nfn f() { let c = '{'; }\n\
                   const R: &str = r#\"{ \"raw\" {\"#; /* { */ const M: &str = \"a\\\"{\";\n\
                   #[cfg(test)]\nmod tests {\n    use super::*;\n    use super::helper::H;\n\
                   // }\n    mod deeper {\n        use super::super::Y;\n        use super::super::super::Z;\n        mod file;\n    }\n}\nuse super::after;\n";
        assert_eq!(
            encode(src),
            [
                "#[path = \"support/panic.rs\"] mod panic",
                "use super::x",
                "use self",
                "use self::helper::H",
                "use self::Y",
                "use super::Z",
                "mod tests::deeper::file",
                "use super::after",
            ]
        );
        let list = files(&[
            "Cargo.toml",
            "src/lib.rs",
            "src/a.rs",
            "src/a/tests/mod.rs",
            "src/a/tests/loom.rs",
            "tests/it.rs",
            "tests/support/io_uring.rs",
            "tests/support/panic.rs",
            "tests/common/mod.rs",
            "src/bin/tool.rs",
            "src/bin/tool/args.rs",
        ]);
        let set = set(&list);
        let r = |from: &str, stmt: &str| targets(resolve(&set, &Crates::default(), from, stmt));
        assert_eq!(
            r("tests/it.rs", "#[path = \"support/panic.rs\"] mod panic"),
            Some(vec!["tests/support/panic.rs"])
        );
        assert_eq!(r("tests/it.rs", "#[path = \"../../x.rs\"] mod x"), None);
        assert_eq!(
            r("tests/it.rs", "mod common"),
            Some(vec!["tests/common/mod.rs"])
        );
        assert_eq!(
            r("tests/it.rs", "use crate::common::Helper"),
            Some(vec!["tests/common/mod.rs"])
        );
        assert_eq!(r("src/a.rs", "use self"), Some(vec!["src/a.rs"]));
        assert_eq!(
            r("tests/it.rs", "mod support::io_uring"),
            Some(vec!["tests/support/io_uring.rs"])
        );
        // A `tests/` folder inside `src/` holds modules, not crates.
        assert_eq!(
            r("src/a/tests/mod.rs", "mod loom"),
            Some(vec!["src/a/tests/loom.rs"])
        );
        assert_eq!(
            r("src/a/tests/loom.rs", "use super::X"),
            Some(vec!["src/a/tests/mod.rs"])
        );
        assert_eq!(
            r("src/a/tests/loom.rs", "use crate::a::Y"),
            Some(vec!["src/a.rs"])
        );
        // A root module's name is a crate's away from the root.
        assert_eq!(r("src/a/tests/loom.rs", "use a::Y"), None);
        assert_eq!(r("src/bin/tool.rs", "mod args"), None);
    }
}
