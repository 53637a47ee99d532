//! Imports of the languages beyond Python and C, one file per language
//! under `modules/`: Rust `mod` declarations and `use` paths,
//! JavaScript/TypeScript specifiers (with `tsconfig.json` paths and the
//! project's own packages), Go packages under the module path of a
//! `go.mod`, Java imports by package folders, PHP `use` through composer
//! autoload maps, C# `using` to the files declaring the namespace. Read off
//! the text line by line (a few statement shapes, no full parse: the graph
//! is built for every file of a project and cached per content), encoded
//! as one `tag\tstatement` record a line next to the Python and C ones
//! (which `imports::decode` skips), and resolved against the project's
//! files. This file only dispatches: a language adds its file, a tag, a
//! [`Statement`] variant and, when it needs to know more of the project
//! than its file list, a [`Packages`] field.

mod csharp;
mod go;
mod java;
mod php;
mod rust;
mod script;

use std::path::Path;

use super::imports;
use super::resolve::{FileSet, Resolution};
use crate::core::syntax::Lang;

/// The import statements of `source` in the cache's line format: the
/// Python/C records of `imports::encode`, or this module's.
pub fn encode(lang: Option<Lang>, source: &str) -> String {
    match lang {
        Some(Lang::Rust) => records("rs", rust::encode(source)),
        Some(Lang::TypeScript | Lang::Tsx | Lang::JavaScript) => {
            records("js", script::encode(source))
        }
        Some(Lang::Go) => records("go", go::encode(source)),
        Some(Lang::Java) => records("java", java::encode(source)),
        Some(Lang::Php) => records("php", php::encode(source)),
        Some(Lang::CSharp) => {
            records("cs", csharp::encode(source)) + &records("csns", csharp::declarations(source))
        }
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
        Some(_) => "imports-modules-2",
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
    /// A PHP `use` of a class (`App\Model\User`).
    Php(String),
    /// A C# `using` of a namespace or type (`Acme.Core`).
    CSharp(String),
}

/// The statements [`encode`] wrote for this module's languages.
pub fn decode(text: &str) -> Vec<Statement> {
    text.lines()
        .filter_map(|line| match line.split_once('\t')? {
            ("rs", s) => Some(Statement::Rust(s.to_string())),
            ("js", s) => Some(Statement::Script(s.to_string())),
            ("go", s) => Some(Statement::Go(s.to_string())),
            ("java", s) => Some(Statement::Java(s.to_string())),
            ("php", s) => Some(Statement::Php(s.to_string())),
            ("cs", s) => Some(Statement::CSharp(s.to_string())),
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
        Statement::Php(s) => packages.php.resolve(set, s),
        Statement::CSharp(s) => packages.csharp.resolve(s),
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
            rust: rust::Crates::read(root, files),
            script: script::Project::read(root, files),
            php: php::Autoload::read(root, files),
            csharp: csharp::Namespaces::read(declared),
        }
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

    /// The files of a resolution, `None` when it resolved to none.
    pub fn targets(r: Resolution<'_>) -> Option<Vec<&str>> {
        match r {
            Resolution::Files(f) => Some(f.into_iter().map(|(p, _)| p).collect()),
            _ => None,
        }
    }
}
