//! Imports of the languages beyond Python and C: Rust `mod` declarations
//! and `use crate::`/`super::`/`self::` paths, JavaScript/TypeScript
//! relative imports (`./x`, `../y/index`), Go packages under the module
//! path of a `go.mod` (an edge to each non-test file of the package), Java
//! imports to the class's file by its package folders (`a.b.C` is
//! `.../a/b/C.java`), Kotlin imports by the packages the files declare
//! (`kotlin`). Read off the text line by line
//! (a few statement shapes, no full parse: the graph is built for every
//! file of a project and cached per content), encoded as `mod`/`use`/`js`
//! records next to the Python and C ones (which `imports::decode` skips),
//! and resolved against the project's files. Not done yet: `tsconfig.json`
//! `paths`, `package.json` `exports`, C# and the other languages.

mod kotlin;

mod lua;
mod ruby;

use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::imports;
use super::resolve::{FileSet, Resolution};
use crate::core::syntax::Lang;

/// The import statements of `source` in the cache's line format: the
/// Python/C records of `imports::encode`, or this module's.
pub fn encode(lang: Option<Lang>, source: &str) -> String {
    match lang {
        Some(Lang::Rust) => records("rs", rust(source)),
        Some(Lang::TypeScript | Lang::Tsx | Lang::JavaScript) => records("js", script(source)),
        Some(Lang::Go) => records("go", go(source)),
        Some(Lang::Java) => records("java", java(source)),
        Some(Lang::Kotlin) => records("kt", kotlin::imports(source)),
        Some(Lang::Ruby) => ruby::encode(source),
        Some(Lang::Lua) => lua::encode(source),
        Some(Lang::Python) => imports::encode(true, source),
        Some(Lang::C | Lang::Cpp) => imports::encode(false, source),
        _ => String::new(),
    }
}

/// The cache key of [`encode`]'s output for a language: the Python/C key
/// as before, a new one for the languages this module reads.
pub fn cache_key(lang: Option<Lang>) -> &'static str {
    match lang {
        Some(Lang::Python | Lang::C | Lang::Cpp) | None => "imports-2",
        // Read since their readers came (`ruby`, `lua`): not the empty
        // records cached before.
        Some(Lang::Ruby | Lang::Lua) => "imports-ruby-lua-1",
        Some(_) => "imports-modules-1",
    }
}

fn records(tag: &str, specs: Vec<String>) -> String {
    specs
        .into_iter()
        .filter(|s| !s.contains(['\t', '\n']))
        .map(|s| format!("{tag}\t{s}\n"))
        .collect()
}

/// One statement read back from the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    /// A Rust `mod name;` or `use path;` (`mod x`, `use crate::a::B`).
    Rust(String),
    /// A JavaScript/TypeScript module specifier (`./x`, `react`).
    Script(String),
    /// A Go import path (`example.com/app/internal/db`, `fmt`).
    Go(String),
    /// A Java import (`com.acme.util.Strings`, `com.acme.util.*`).
    Java(String),
    /// A Kotlin import (`com.acme.Point`, `com.acme.*`; see `kotlin`).
    Kotlin(String),
    /// A Ruby `require_relative 'x'`.
    RubyRelative(String),
    /// A Ruby `require 'x'`.
    Ruby(String),
    /// A Lua `require("a.b")`.
    Lua(String),
}

/// The statements [`encode`] wrote for this module's languages.
pub fn decode(text: &str) -> Vec<Statement> {
    text.lines()
        .filter_map(|line| match line.split_once('\t')? {
            ("rs", s) => Some(Statement::Rust(s.to_string())),
            ("js", s) => Some(Statement::Script(s.to_string())),
            ("go", s) => Some(Statement::Go(s.to_string())),
            ("java", s) => Some(Statement::Java(s.to_string())),
            ("kt", s) => Some(Statement::Kotlin(s.to_string())),
            ("rbrel", s) => Some(Statement::RubyRelative(s.to_string())),
            ("rb", s) => Some(Statement::Ruby(s.to_string())),
            ("lua", s) => Some(Statement::Lua(s.to_string())),
            _ => None,
        })
        .collect()
}

impl std::fmt::Display for Statement {
    /// The statement as written (`mod x;`, `use crate::a::B;`,
    /// `import "./x"`), as unresolved imports are reported.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Statement::Rust(s) => write!(f, "{s};"),
            Statement::Script(s) => write!(f, "import \"{s}\""),
            Statement::Go(s) => write!(f, "import \"{s}\""),
            Statement::Java(s) => write!(f, "import {s};"),
            Statement::Kotlin(s) => write!(f, "import {s}"),
            Statement::RubyRelative(s) => write!(f, "require_relative \"{s}\""),
            Statement::Ruby(s) => write!(f, "require \"{s}\""),
            Statement::Lua(s) => write!(f, "require(\"{s}\")"),
        }
    }
}

/// Resolve one statement of `from_file`: project files, external (a
/// crate or package), or naming the project but no file of it.
pub fn resolve<'a>(
    set: &FileSet<'a>,
    packages: &Packages<'a>,
    from_file: &str,
    stmt: &Statement,
) -> Resolution<'a> {
    match stmt {
        Statement::Rust(s) => resolve_rust(set, from_file, s),
        Statement::Script(s) => resolve_script(set, from_file, s),
        Statement::Go(s) => packages.resolve_go(s),
        Statement::Java(s) => packages.resolve_java(s),
        Statement::Kotlin(s) => {
            kotlin::or_java(packages.kotlin.resolve(s), || packages.resolve_java(s))
        }
        Statement::RubyRelative(s) => ruby::resolve_relative(set, from_file, s),
        Statement::Ruby(s) => ruby::resolve_require(set, from_file, s),
        Statement::Lua(s) => lua::resolve(set, from_file, s),
    }
}

/// The packages of a project: each `go.mod`'s folder and module path and
/// the non-test `.go` files of each folder; the `.java` files by name and
/// by folder.
#[derive(Debug, Default)]
pub struct Packages<'a> {
    modules: Vec<(String, String)>,
    packages: HashMap<&'a str, Vec<&'a str>>,
    java_by_name: HashMap<&'a str, Vec<&'a str>>,
    java_folders: HashMap<&'a str, Vec<&'a str>>,
    kotlin: kotlin::Index<'a>,
}

impl<'a> Packages<'a> {
    /// Read every `go.mod` among `files` (relative to `root`); a project
    /// without one has no Go edges.
    pub fn read(root: &Path, files: &'a [String]) -> Self {
        let mut modules = Vec::new();
        let mut packages: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut java_by_name: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut java_folders: HashMap<&str, Vec<&str>> = HashMap::new();
        for f in files {
            if f == "go.mod" || f.ends_with("/go.mod") {
                let text = std::fs::read_to_string(root.join(f)).unwrap_or_default();
                let module = text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("module "))
                    .map(|m| m.trim().trim_matches('"').to_string());
                if let Some(module) = module {
                    modules.push((parent(f).to_string(), module));
                }
            } else if f.ends_with(".go") && !f.ends_with("_test.go") {
                packages.entry(parent(f)).or_default().push(f);
            } else if f.ends_with(".java") {
                let name = f.rsplit('/').next().unwrap_or(f);
                java_by_name.entry(name).or_default().push(f);
                java_folders.entry(parent(f)).or_default().push(f);
            }
        }
        // The longest module path first: a nested module wins.
        modules.sort_by_key(|(_, m)| std::cmp::Reverse(m.len()));
        Packages {
            modules,
            packages,
            java_by_name,
            java_folders,
            kotlin: kotlin::Index::read(root, files),
        }
    }

    /// A Java import: the file of its class (`a.b.C` in `.../a/b/C.java`,
    /// a static import's member dropped), every file of the package for
    /// `a.b.*`. A package the project has whose class it does not is
    /// unresolved; any other import is external (the JDK, a library).
    fn resolve_java(&self, import: &str) -> Resolution<'a> {
        let segments: Vec<&str> = import.split('.').collect();
        if segments.last() == Some(&"*") {
            let folder = segments[..segments.len() - 1].join("/");
            return match self.java_package(&folder) {
                Some(files) => {
                    let weight = 1.0 / files.len() as f64;
                    Resolution::Files(files.iter().map(|f| (*f, weight)).collect())
                }
                None => Resolution::External,
            };
        }
        // `a.b.C`, else `a.b.C.member` (static) or `a.b.C.Inner`.
        for end in (2..=segments.len()).rev() {
            let path = format!("{}.java", segments[..end].join("/"));
            let name = format!("{}.java", segments[end - 1]);
            let found = self.java_by_name.get(name.as_str()).and_then(|files| {
                files
                    .iter()
                    .find(|f| **f == path || f.ends_with(&format!("/{path}")))
            });
            if let Some(f) = found {
                return Resolution::Files(vec![(*f, 1.0)]);
            }
        }
        let package = segments[..segments.len().saturating_sub(1)].join("/");
        match self.java_package(&package) {
            Some(_) => Resolution::Unresolved,
            None => Resolution::External,
        }
    }

    /// The files of the project's folder for a package path (`a/b`).
    fn java_package(&self, folder: &str) -> Option<&Vec<&'a str>> {
        if folder.is_empty() {
            return None;
        }
        let suffix = format!("/{folder}");
        self.java_folders
            .iter()
            .find(|(dir, _)| **dir == folder || dir.ends_with(&suffix))
            .map(|(_, files)| files)
    }

    /// An import path under a module of the project: its package's files
    /// (each weighted so the package counts once), or unresolved when the
    /// folder holds no Go file; any other path is external.
    fn resolve_go(&self, path: &str) -> Resolution<'a> {
        for (dir, module) in &self.modules {
            let rest = match path.strip_prefix(module.as_str()) {
                Some("") => "",
                Some(rest) if rest.starts_with('/') => &rest[1..],
                _ => continue,
            };
            let folder = match (dir.is_empty(), rest.is_empty()) {
                (_, true) => dir.clone(),
                (true, false) => rest.to_string(),
                (false, false) => format!("{dir}/{rest}"),
            };
            return match self.packages.get(folder.as_str()) {
                Some(files) if !files.is_empty() => {
                    let weight = 1.0 / files.len() as f64;
                    Resolution::Files(files.iter().map(|f| (*f, weight)).collect())
                }
                _ => Resolution::Unresolved,
            };
        }
        Resolution::External
    }
}

/// The imports of a Java file (`import a.b.C;`, `import static
/// a.b.C.m;`, `import a.b.*;`).
fn java(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("import ")?;
            let rest = rest.strip_prefix("static ").unwrap_or(rest);
            let name = rest.split(';').next()?.trim();
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '*' || c == '$');
            ok.then(|| name.to_string())
        })
        .collect()
}

/// The import paths of a Go file: `import "x"`, `import alias "x"` and
/// each line of an `import ( ... )` block.
fn go(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in source.lines() {
        let t = line.split("//").next().unwrap_or(line).trim();
        let spec = if in_block {
            if t.starts_with(')') {
                in_block = false;
                continue;
            }
            t
        } else if let Some(rest) = t.strip_prefix("import") {
            let rest = rest.trim_start();
            if rest.starts_with('(') {
                in_block = !rest.contains(')');
                rest.trim_start_matches('(')
            } else {
                rest
            }
        } else {
            continue;
        };
        if let Some(path) = spec.split('"').nth(1).filter(|p| !p.is_empty()) {
            out.push(path.to_string());
        }
    }
    out
}

static RUST_MOD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
        .expect("a constant pattern")
});

/// `mod x` for each `mod x;` and `use p` for each path of each `use`
/// (groups expanded: `use crate::{a, b::c}` is `crate::a`, `crate::b::c`).
fn rust(source: &str) -> Vec<String> {
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

/// The folder of a path (`""` at the top).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
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

fn resolve_rust<'a>(set: &FileSet<'a>, from_file: &str, stmt: &str) -> Resolution<'a> {
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
        Some(first) if module_file(set, root_dir, first).is_some() && !first.is_empty() => {
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

static SCRIPT_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[^.\w$])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^.\w$])import\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)"#,
    )
    .expect("a constant pattern")
});

/// Every module specifier imported, exported from or required.
fn script(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in source.lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with('*') {
            continue;
        }
        // A multi-line `import { a,\n b } from "x"` is read as one line.
        let text = if !pending.is_empty() {
            pending.push(' ');
            pending.push_str(line);
            if !line.contains('}') && pending.len() < 4096 {
                continue;
            }
            std::mem::take(&mut pending)
        } else if (t.starts_with("import ") || t.starts_with("export "))
            && t.contains('{')
            && !t.contains('}')
        {
            pending = line.to_string();
            continue;
        } else {
            line.to_string()
        };
        for c in SCRIPT_SPEC.captures_iter(&text) {
            if let Some(m) = c.get(1).or(c.get(2)).or(c.get(3)) {
                out.push(m.as_str().to_string());
            }
        }
    }
    out
}

/// The extensions tried after a relative specifier, in order.
const SCRIPT_EXTENSIONS: [&str; 9] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];

fn resolve_script<'a>(set: &FileSet<'a>, from_file: &str, spec: &str) -> Resolution<'a> {
    if !(spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == "..") {
        return Resolution::External;
    }
    let Some(base) = normalize(parent(from_file), spec) else {
        return Resolution::Unresolved;
    };
    // TypeScript written for ES modules imports `./x.js` for `./x.ts`.
    let stem = [".js", ".jsx", ".mjs", ".cjs"]
        .iter()
        .find_map(|e| base.strip_suffix(e))
        .unwrap_or(&base);
    let mut candidates = vec![base.clone()];
    for root in [stem, base.as_str()] {
        candidates.extend(SCRIPT_EXTENSIONS.iter().map(|e| format!("{root}.{e}")));
    }
    candidates.extend(
        SCRIPT_EXTENSIONS
            .iter()
            .map(|e| join(&base, &format!("index.{e}"))),
    );
    match candidates.iter().find_map(|c| set.get(c)) {
        Some(f) => Resolution::Files(vec![(f, 1.0)]),
        None => Resolution::Unresolved,
    }
}

/// `dir` joined with a relative specifier, `.` and `..` folded; `None`
/// when it climbs above the project.
fn normalize(dir: &str, spec: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::Layout;

    fn set(files: &[String]) -> FileSet<'_> {
        FileSet::new(files, Layout::default())
    }

    fn files(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn targets<'a>(r: Resolution<'a>) -> Option<Vec<&'a str>> {
        match r {
            Resolution::Files(f) => Some(f.into_iter().map(|(p, _)| p).collect()),
            _ => None,
        }
    }

    #[test]
    fn rust_mods_and_uses_are_read_with_groups_expanded() {
        let src = "mod a;\npub(crate) mod b;\nmod inline { }\nuse std::fmt;\n\
                   use crate::{x::Y, z::{self, W as V}};\nuse super::q::*;\n\
                   pub use self::a::A;\nuse crate::long::{\n    One,\n    Two,\n};\n";
        assert_eq!(
            rust(src),
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
        let r = |from: &str, stmt: &str| targets(resolve_rust(&set, from, stmt));
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
    fn go_imports_resolve_to_the_package_files_of_the_module() {
        let src = "package main\n\nimport \"fmt\"\nimport (\n\t\"example.com/app/internal/db\"\n\
                   \tlog \"example.com/app/pkg/log\" // logging\n\t_ \"example.com/app/gone\"\n)\n";
        assert_eq!(
            go(src),
            [
                "fmt",
                "example.com/app/internal/db",
                "example.com/app/pkg/log",
                "example.com/app/gone"
            ]
        );
        let list = files(&[
            "main.go",
            "internal/db/db.go",
            "internal/db/tx.go",
            "internal/db/db_test.go",
            "pkg/log/log.go",
        ]);
        let mut go = Packages::read(Path::new("/nonexistent"), &list);
        go.modules
            .push((String::new(), "example.com/app".to_string()));
        let r = |p: &str| targets(go.resolve_go(p));
        assert_eq!(
            r("example.com/app/internal/db"),
            Some(vec!["internal/db/db.go", "internal/db/tx.go"])
        );
        assert_eq!(r("example.com/app/pkg/log"), Some(vec!["pkg/log/log.go"]));
        assert!(matches!(
            go.resolve_go("example.com/app/gone"),
            Resolution::Unresolved
        ));
        assert!(matches!(go.resolve_go("fmt"), Resolution::External));
    }

    #[test]
    fn java_imports_resolve_by_package_folders() {
        let src = "package a;\nimport java.util.List;\nimport static com.acme.util.Strings.join;\n\
                   import com.acme.model.*;\nimport com.acme.util.Gone;\n";
        assert_eq!(
            java(src),
            [
                "java.util.List",
                "com.acme.util.Strings.join",
                "com.acme.model.*",
                "com.acme.util.Gone"
            ]
        );
        let list = files(&[
            "src/main/java/com/acme/util/Strings.java",
            "src/main/java/com/acme/model/User.java",
            "src/main/java/com/acme/model/Role.java",
        ]);
        let p = Packages::read(Path::new("/nonexistent"), &list);
        let r = |i: &str| targets(p.resolve_java(i));
        assert_eq!(
            r("com.acme.util.Strings.join"),
            Some(vec!["src/main/java/com/acme/util/Strings.java"])
        );
        assert_eq!(r("com.acme.model.*").map(|v| v.len()), Some(2));
        assert!(matches!(
            p.resolve_java("com.acme.util.Gone"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            p.resolve_java("java.util.List"),
            Resolution::External
        ));
    }

    #[test]
    fn script_specifiers_and_relative_resolution() {
        let src = "import React from 'react';\nimport {\n  a,\n  b,\n} from \"./util\";\n\
                   export * from './types.js';\nconst x = require('../lib/x');\n\
                   const y = await import('./lazy');\nimport './side-effect';\n";
        assert_eq!(
            script(src),
            [
                "react",
                "./util",
                "./types.js",
                "../lib/x",
                "./lazy",
                "./side-effect"
            ]
        );
        let list = files(&[
            "src/app.ts",
            "src/util.ts",
            "src/types.ts",
            "src/lazy/index.tsx",
            "lib/x.cjs",
        ]);
        let set = set(&list);
        let r = |spec: &str| targets(resolve_script(&set, "src/app.ts", spec));
        assert_eq!(r("./util"), Some(vec!["src/util.ts"]));
        assert_eq!(r("./types.js"), Some(vec!["src/types.ts"]));
        assert_eq!(r("./lazy"), Some(vec!["src/lazy/index.tsx"]));
        assert_eq!(r("../lib/x"), Some(vec!["lib/x.cjs"]));
        assert_eq!(r("./missing"), None);
        assert!(matches!(
            resolve_script(&set, "src/app.ts", "./missing"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            resolve_script(&set, "src/app.ts", "react"),
            Resolution::External
        ));
    }
}
