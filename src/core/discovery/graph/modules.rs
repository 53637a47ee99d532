//! Imports of the languages beyond Python and C, one file per language
//! under `modules/`: Rust `mod` declarations and `use` paths,
//! JavaScript/TypeScript specifiers (with `tsconfig.json` paths and the
//! project's own packages), Go packages under the module path of a
//! `go.mod`, Java imports by package folders, Kotlin imports by the
//! packages the files declare, PHP `use` through composer autoload maps,
//! C# `using` to the files declaring the namespace, Ruby `require` and
//! `require_relative`, Lua `require`. Read off the text line by line (a
//! few statement shapes, no full parse: the graph is built for every file
//! of a project and cached per content), encoded as one `tag\tstatement`
//! record a line next to the Python and C ones (which `imports::decode`
//! skips), and resolved against the project's files. This file only
//! dispatches: a language adds its file, a tag, a [`Statement`] variant
//! and, when it needs to know more of the project than its file list, a
//! [`Packages`] field.

mod csharp;
mod go;
mod java;
mod kotlin;
mod lua;
mod php;
mod ruby;
mod rust;
mod script;

use std::path::Path;
use std::sync::Arc;

use super::imports;
use super::kind::ImportKind;
use super::resolve::{FileSet, Resolution};
use crate::core::syntax::Lang;

/// The import statements of `source` in the cache's line format: the
/// Python/C records of `imports::encode`, or this module's.
pub fn encode(lang: Option<Lang>, source: &str) -> String {
    match lang {
        Some(Lang::Rust) => records("rs", rust::encode(source)),
        Some(Lang::TypeScript | Lang::Tsx | Lang::JavaScript) => {
            kinded_records("js", script::encode_kinded(source))
        }
        Some(Lang::Go) => records("go", go::encode(source)),
        Some(Lang::Java) => records("java", java::encode(source)),
        Some(Lang::Php) => records("php", php::encode(source)),
        Some(Lang::CSharp) => {
            records("cs", csharp::encode(source)) + &records("csns", csharp::declarations(source))
        }
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
        Some(Lang::Python | Lang::C | Lang::Cpp) | None => "imports-3",
        Some(_) => "imports-modules-5",
    }
}

fn records(tag: &str, specs: Vec<String>) -> String {
    specs
        .into_iter()
        .filter(|s| !s.contains(['\t', '\n']))
        .map(|s| format!("{tag}\t{s}\n"))
        .collect()
}

/// Records whose statements carry a kind: `tag\tstatement`, then
/// `\tkind` unless it is a runtime import.
fn kinded_records(tag: &str, specs: Vec<(String, ImportKind)>) -> String {
    specs
        .into_iter()
        .filter(|(s, _)| !s.contains(['\t', '\n']))
        .map(|(s, kind)| match kind {
            ImportKind::Runtime => format!("{tag}\t{s}\n"),
            kind => format!("{tag}\t{s}\t{}\n", kind.code()),
        })
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
    /// A PHP `use` of a class (`App\Model\User`).
    Php(String),
    /// A C# `using` of a namespace or type (`Acme.Core`).
    CSharp(String),
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
    decode_kinded(text).into_iter().map(|(s, _)| s).collect()
}

/// [`decode`], each statement with how it is imported (runtime where the
/// language's records say nothing).
pub fn decode_kinded(text: &str) -> Vec<(Statement, ImportKind)> {
    text.lines()
        .filter_map(|line| {
            let (tag, rest) = line.split_once('\t')?;
            let (s, kind) = match rest.split_once('\t') {
                Some((s, code)) => (s, ImportKind::from_code(code)),
                None => (rest, ImportKind::Runtime),
            };
            Some((tag, s, kind))
        })
        .filter_map(|(tag, s, kind)| {
            let stmt = match tag {
                "rs" => Statement::Rust(s.to_string()),
                "js" => Statement::Script(s.to_string()),
                "go" => Statement::Go(s.to_string()),
                "java" => Statement::Java(s.to_string()),
                "php" => Statement::Php(s.to_string()),
                "cs" => Statement::CSharp(s.to_string()),
                "kt" => Statement::Kotlin(s.to_string()),
                "rbrel" => Statement::RubyRelative(s.to_string()),
                "rb" => Statement::Ruby(s.to_string()),
                "lua" => Statement::Lua(s.to_string()),
                _ => return None,
            };
            Some((stmt, kind))
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
            Statement::Php(s) => write!(f, "use {s};"),
            Statement::CSharp(s) => write!(f, "using {s};"),
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
        Statement::Rust(s) => rust::resolve(set, &packages.rust, from_file, s),
        Statement::Script(s) => script::resolve(set, &packages.script, from_file, s),
        Statement::Go(s) => packages.go.resolve(s),
        Statement::Java(s) => packages.java.resolve(s),
        Statement::Php(s) => php::resolve(&packages.php, set, s),
        Statement::CSharp(s) => packages.csharp.resolve(s),
        Statement::Kotlin(s) => {
            kotlin::or_java(packages.kotlin.resolve(s), || packages.java.resolve(s))
        }
        Statement::RubyRelative(s) => ruby::resolve_relative(set, from_file, s),
        Statement::Ruby(s) => ruby::resolve_require(set, from_file, s),
        Statement::Lua(s) => lua::resolve(set, from_file, s),
    }
}

/// The package `file` belongs to and uses without a statement (a Go
/// file's own package), when its language has one.
pub fn own_package<'a>(packages: &Packages<'a>, file: &str) -> Option<Arc<[&'a str]>> {
    packages.go.own(file)
}

/// The names a file of `lang` defines at its top level that its symbol
/// tree leaves out: Go's vars and consts, Kotlin's top-level properties
/// and functions (read as the Kotlin index reads them).
pub fn extra_names(lang: Option<Lang>, source: &str) -> Vec<String> {
    match lang {
        Some(Lang::Go) => go::values(source),
        Some(Lang::Kotlin) => {
            let mut names: Vec<String> = kotlin::top_level_names(source).into_iter().collect();
            names.sort();
            names
        }
        _ => Vec::new(),
    }
}

/// What resolving needs to know of the project beyond its file list, one
/// field per language that has any: Rust's library crates, Go's modules
/// and packages, Java's classes, the tsconfig/package.json mappings of JavaScript/TypeScript,
/// PHP's composer autoload maps, C#'s namespaces.
#[derive(Debug, Default)]
pub struct Packages<'a> {
    go: go::Modules<'a>,
    java: java::Classes<'a>,
    kotlin: kotlin::Index<'a>,
    rust: rust::Crates,
    script: script::Project,
    php: php::Autoload,
    csharp: csharp::Namespaces<'a>,
}

impl<'a> Packages<'a> {
    /// Read the project's `files` (relative to `root`) and the metadata
    /// files among them; `encoded` is each code file's [`encode`]d text,
    /// for what files declare (C# namespaces).
    pub fn read<'s>(
        root: &Path,
        files: &'a [String],
        encoded: impl IntoIterator<Item = (&'a str, &'s str)>,
    ) -> Self {
        let declared = encoded.into_iter().filter_map(|(file, text)| {
            let namespaces: Vec<String> = text
                .lines()
                .filter_map(|l| l.strip_prefix("csns\t").map(String::from))
                .collect();
            (!namespaces.is_empty()).then_some((file, namespaces))
        });
        Packages {
            go: go::Modules::read(root, files),
            java: java::Classes::read(files),
            kotlin: kotlin::Index::read(root, files),
            rust: rust::Crates::read(root, files),
            script: script::Project::read(root, files),
            php: php::Autoload::read(root, files),
            csharp: csharp::Namespaces::read(declared),
        }
    }
}

impl Packages<'_> {
    /// What a bound cut while reading the project's metadata (tsconfig
    /// `paths`, composer autoload maps, too many manifests), one line each.
    pub fn limits(&self) -> Vec<String> {
        let mut out = self.script.limits.clone();
        out.extend(self.php.limits.iter().cloned());
        out
    }
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

/// Helpers the languages' tests share.
#[cfg(test)]
mod testing {
    use crate::core::discovery::graph::Layout;
    use crate::core::discovery::graph::resolve::{FileSet, Resolution};

    pub fn set(files: &[String]) -> FileSet<'_> {
        FileSet::new(files, Layout::default())
    }

    pub fn files(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// The files of a resolution (every file of a package), `None` when
    /// it resolved to none.
    pub fn targets(r: Resolution<'_>) -> Option<Vec<&str>> {
        match r {
            Resolution::Files(f) => Some(f.into_iter().map(|(p, _)| p).collect()),
            Resolution::Package(f) => Some(f.to_vec()),
            _ => None,
        }
    }
}
