//! Kotlin imports: `import a.b.C` (or `a.b.C.Inner`, `a.b.topLevelFun`,
//! `a.b.*`, `... as Alias`) resolved to the project files that declare
//! `package a.b` and define `C` at their top level, else to `a/b/C.kt`
//! by folders as for Java. Kotlin needs the first rule: a file's name and
//! folder need not follow its package, and one file may define many
//! top-level classes and functions (`Extensions.kt`).
//!
//! Each Kotlin file's package and top-level names are read off its text
//! with a line scan (a declaration at column 0, after annotations and
//! modifiers), when the graph's packages are read: the first
//! [`HEAD_LIMIT`] bytes of each file, no parse. An import into a package
//! the project declares that names nothing found there is unresolved; any
//! other (the JDK, Android, a library) is external. `a.b.*` resolves to
//! the package, of which the graph keeps the files whose names the
//! importer uses. A class the project
//! writes in Java (`a/b/C.java`) is found by the Java rules ([`or_java`]). Swift has no file
//! imports (`import Foundation` names a module, and a module's files see
//! each other without one), so it has no reader here.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use super::super::resolve::Resolution;
use crate::core::paths::beneath::{Links, open_beneath};

/// The most bytes read of one file for its package and names.
const HEAD_LIMIT: u64 = 1 << 20;

/// The import paths of a Kotlin file, without `as` aliases (`a.b.C`,
/// `a.b.*`).
pub(super) fn imports(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("import ")?;
            let path = rest.split(" as ").next()?;
            let path = path.split("//").next()?.trim().trim_end_matches(';').trim();
            let ok = !path.is_empty()
                && path
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '*' | '`'));
            ok.then(|| path.replace('`', ""))
        })
        .collect()
}

/// The package a Kotlin file declares (`package a.b` → `a.b`; none: the
/// default package, `""`).
fn package(source: &str) -> String {
    source
        .lines()
        .find_map(|line| line.trim().strip_prefix("package "))
        .map(|p| p.split(';').next().unwrap_or(p).trim().replace('`', ""))
        .unwrap_or_default()
}

/// Words that may stand before a top-level declaration's keyword.
const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "internal",
    "protected",
    "data",
    "sealed",
    "abstract",
    "open",
    "final",
    "enum",
    "annotation",
    "inline",
    "value",
    "suspend",
    "const",
    "operator",
    "infix",
    "tailrec",
    "external",
    "expect",
    "actual",
    "lateinit",
    "inner",
];

/// The names a Kotlin file defines at its top level: classes, objects,
/// interfaces, functions, properties and type aliases (extension
/// functions by their own name: `fun Point.scale` defines `scale`).
pub(super) fn top_level_names(source: &str) -> HashSet<String> {
    source.lines().filter_map(top_level_name).collect()
}

fn top_level_name(line: &str) -> Option<String> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let mut words = line.split_whitespace().peekable();
    let mut keyword = None;
    while let Some(word) = words.next() {
        if word.starts_with('@') || MODIFIERS.contains(&word) {
            continue;
        }
        // `fun interface Runner`.
        if word == "fun" && words.peek() == Some(&"interface") {
            continue;
        }
        if matches!(
            word,
            "class" | "interface" | "object" | "fun" | "val" | "var" | "typealias"
        ) {
            keyword = Some(word);
        }
        break;
    }
    keyword?;
    let rest = without_type_arguments(&words.collect::<Vec<_>>().join(" "));
    // `fun <T> List<T>.second()`: past the type parameters.
    let head = rest
        .trim_start()
        .split(['(', ':', '=', '{', ' '])
        .next()
        .unwrap_or("");
    // `Point.scale` (an extension) defines `scale`.
    let name = head.rsplit('.').next().unwrap_or(head).trim_matches('`');
    let ok = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    ok.then(|| name.to_string())
}

/// A Kotlin import's resolution, completed by the Java files of the
/// project (Android modules mix the two: Kotlin imports `a.b.C` from
/// `a/b/C.java`): files found either way win; unresolved if either says
/// the import names the project.
pub(super) fn or_java<'a>(
    kotlin: Resolution<'a>,
    java: impl FnOnce() -> Resolution<'a>,
) -> Resolution<'a> {
    match (kotlin, java()) {
        (Resolution::Files(files), _) | (_, Resolution::Files(files)) => Resolution::Files(files),
        (Resolution::Package(files), _) | (_, Resolution::Package(files)) => {
            Resolution::Package(files)
        }
        (Resolution::External, Resolution::External) => Resolution::External,
        _ => Resolution::Unresolved,
    }
}

/// `text` without its `<...>` groups (nested ones too).
fn without_type_arguments(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .filter(|c| {
            match c {
                '<' => depth += 1,
                '>' if depth > 0 => {
                    depth -= 1;
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// Every Kotlin file of the project by the package it declares, with its
/// top-level names, and by its path.
#[derive(Debug, Default)]
pub(super) struct Index<'a> {
    packages: HashMap<String, Vec<(&'a str, HashSet<String>)>>,
    /// Each package's files, sorted, for `a.b.*`.
    wildcards: HashMap<String, Arc<[&'a str]>>,
    files: Vec<&'a str>,
}

impl<'a> Index<'a> {
    /// Read the head of every `.kt`/`.kts` file among `files` (relative to
    /// `root`); a file that cannot be read is left out.
    pub(super) fn read(root: &Path, files: &'a [String]) -> Self {
        let kotlin = files
            .iter()
            .filter(|f| f.ends_with(".kt") || f.ends_with(".kts"))
            .filter_map(|f| Some((f.as_str(), head(root, f)?)));
        let texts: Vec<(&'a str, String)> = kotlin.collect();
        Self::from_texts(texts.iter().map(|(f, t)| (*f, t.as_str())))
    }

    /// The index of these files and texts.
    pub(super) fn from_texts<'t>(texts: impl Iterator<Item = (&'a str, &'t str)>) -> Self {
        let mut index = Index::default();
        for (file, text) in texts {
            index
                .packages
                .entry(package(text))
                .or_default()
                .push((file, top_level_names(text)));
            index.files.push(file);
        }
        index.wildcards = index
            .packages
            .iter()
            .map(|(package, files)| {
                let mut files: Vec<&'a str> = files.iter().map(|(f, _)| *f).collect();
                files.sort_unstable();
                (package.clone(), files.into())
            })
            .collect();
        index
    }

    /// Resolve one import (see the module header).
    pub(super) fn resolve(&self, import: &str) -> Resolution<'a> {
        let segments: Vec<&str> = import.split('.').collect();
        if segments.last() == Some(&"*") {
            let package = segments[..segments.len() - 1].join(".");
            if let Some(files) = self.wildcards.get(&package) {
                return Resolution::Package(files.clone());
            }
            // `a.b.C.*`: the members of a class.
            return self.resolve(&package);
        }
        // `a.b.C`, else `a.b.C.member` or `a.b.C.Inner`.
        for end in (1..segments.len()).rev() {
            let package = segments[..end].join(".");
            let name = segments[end];
            if let Some(found) = self.defining(&package, name) {
                return found;
            }
            let path = format!("{}/{name}.kt", segments[..end].join("/"));
            if let Some(file) = self
                .files
                .iter()
                .find(|f| f.ends_with(&format!("/{path}")) || **f == path)
            {
                return Resolution::Files(vec![(*file, 1.0)]);
            }
        }
        let package = segments[..segments.len().saturating_sub(1)].join(".");
        if self.packages.contains_key(&package) {
            Resolution::Unresolved
        } else {
            Resolution::External
        }
    }

    /// The files of `package` that define `name` at their top level.
    fn defining(&self, package: &str, name: &str) -> Option<Resolution<'a>> {
        let files: Vec<&'a str> = self
            .packages
            .get(package)?
            .iter()
            .filter(|(_, names)| names.contains(name))
            .map(|(f, _)| *f)
            .collect();
        if files.is_empty() {
            return None;
        }
        let weight = 1.0 / files.len() as f64;
        Some(Resolution::Files(
            files.into_iter().map(|f| (f, weight)).collect(),
        ))
    }
}

/// The first [`HEAD_LIMIT`] bytes of the file `rel` under `root` as text
/// (invalid UTF-8 replaced), or `None` if it cannot be read. Opened
/// beneath the root without blocking, and only a regular file is read: a
/// FIFO swapped in after the walk is refused at once.
fn head(root: &Path, rel: &str) -> Option<String> {
    let file = open_beneath(root, Path::new(rel), Links::Inside).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(HEAD_LIMIT).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(r: Resolution<'_>) -> Option<Vec<&str>> {
        match r {
            Resolution::Files(files) => Some(files.into_iter().map(|(f, _)| f).collect()),
            Resolution::Package(files) => Some(files.to_vec()),
            _ => None,
        }
    }

    #[test]
    fn imports_are_read_without_aliases() {
        let src = "package a.b\n\nimport kotlin.math.sqrt\nimport com.acme.util.*\n\
                   import com.acme.model.User as U // the user\nimport com.acme.`fun`.X\n\
                   val imported = 1\n  import com.acme.Indented\n";
        assert_eq!(
            imports(src),
            [
                "kotlin.math.sqrt",
                "com.acme.util.*",
                "com.acme.model.User",
                "com.acme.fun.X",
                "com.acme.Indented"
            ]
        );
    }

    #[test]
    fn top_level_names_after_annotations_and_modifiers() {
        let src = "package a\n@Target(AnnotationTarget.CLASS)\nannotation class Marker\n\
                   internal data class Point(val x: Int) {\n    fun inner() {}\n}\n\
                   fun <T> List<T>.second(): T = this[1]\nfun Point.scale(k: Int) = k\n\
                   private const val MAX = 3\nsealed interface Expr\nobject Registry\n\
                   typealias Points = List<Point>\nfun interface Runner { fun run() }\n\
                   val String.lastChar: Char get() = this[0]\n";
        let mut names: Vec<String> = top_level_names(src).into_iter().collect();
        names.sort();
        assert_eq!(
            names,
            [
                "Expr", "MAX", "Marker", "Point", "Points", "Registry", "Runner", "lastChar",
                "scale", "second"
            ]
        );
    }

    #[test]
    fn imports_resolve_by_package_and_name_then_by_folders() {
        let texts = [
            (
                "app/src/main/java/com/acme/Point.kt",
                "package com.acme\n\ndata class Point(val x: Int)\n",
            ),
            (
                "app/src/main/java/com/acme/Extensions.kt",
                "package com.acme\n\nfun Point.scale(k: Int) = k\nclass Helper\n",
            ),
            // A file whose folder does not follow its package.
            (
                "app/src/main/kotlin/Models.kt",
                "package com.acme.model\n\nclass User\nclass Role\n",
            ),
            (
                "lib/src/main/java/org/lib/Util.kt",
                "// no package line\nobject Util\n",
            ),
        ];
        let index = Index::from_texts(texts.iter().map(|(f, t)| (*f, *t)));
        let r = |i: &str| targets(index.resolve(i));
        assert_eq!(
            r("com.acme.Point"),
            Some(vec!["app/src/main/java/com/acme/Point.kt"])
        );
        assert_eq!(
            r("com.acme.scale"),
            Some(vec!["app/src/main/java/com/acme/Extensions.kt"])
        );
        assert_eq!(
            r("com.acme.model.User"),
            Some(vec!["app/src/main/kotlin/Models.kt"])
        );
        // A nested class or a member: the file of the outer class.
        assert_eq!(
            r("com.acme.Point.Companion"),
            Some(vec!["app/src/main/java/com/acme/Point.kt"])
        );
        assert_eq!(r("com.acme.Helper.*"), r("com.acme.Helper"));
        // By folders when no package line says it.
        assert_eq!(
            r("org.lib.Util"),
            Some(vec!["lib/src/main/java/org/lib/Util.kt"])
        );
        let star = r("com.acme.*").unwrap_or_default();
        assert_eq!(star.len(), 2);
        assert!(matches!(
            index.resolve("com.acme.Gone"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            index.resolve("kotlin.math.sqrt"),
            Resolution::External
        ));
        assert!(matches!(
            index.resolve("android.os.Bundle"),
            Resolution::External
        ));
    }

    /// A `.kt` file swapped for a FIFO (issue 37) is left out at once: a
    /// blocking open would wait for a writer forever.
    #[cfg(unix)]
    #[test]
    fn a_fifo_among_the_files_is_left_out_without_waiting() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.kt"), "package p\nfun a() = 1\n").expect("write");
        let fifo = dir.path().join("b.kt");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let root = dir.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let files = vec!["a.kt".to_string(), "b.kt".to_string()];
            let index = Index::read(&root, &files);
            let _ = tx.send(
                index
                    .files
                    .iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>(),
            );
        });
        let read = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the index was read without waiting on the FIFO");
        assert_eq!(read, ["a.kt"]);
    }
}
