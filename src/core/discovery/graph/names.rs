//! Package imports narrowed to the names used (docs/ARCHITECTURE.md,
//! "Discovery"). A statement naming a whole package (a Go package, a Go file's own
//! package, Java's `import p.*;`, a C# namespace, Kotlin's `import p.*`)
//! leads to an edge from the importer to a file of the package only when
//! the importer's text (outside comments and string literals) uses a name
//! that file defines at its top level: its symbol tree's top-level
//! symbols (through namespaces), Go's vars and consts, Kotlin's top-level
//! names. A Go method's name counts only when one file of the package
//! defines it (`String` on thirty types says nothing), and a name more
//! than [`PACKAGE_EDGE_CAP`] files define (Go's `init` in every file) not
//! at all. Each name used weighs by how rare it is among the package's
//! importers (a type every importer uses counts less than a helper one
//! uses), each statement's edges together weigh one, a file that is not
//! a test never gets a test file,
//! and a file keeps its [`PACKAGE_EDGE_CAP`] strongest package edges: a
//! wildcard import over a package of N files holds at most N × cap
//! edges, and none from a file that uses nothing.
//!
//! The names a file defines are cached per content (memory and disk) as
//! import statements are; the identifiers a file uses are read off its
//! text once, and only the package names among them kept (at most
//! [`MAX_NAMES_USED`] a package).

use std::collections::HashMap;
#[cfg(test)]
use std::collections::HashSet;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::PACKAGE_EDGE_CAP;
use super::kind::ImportKind;
use super::modules;
use super::test_files::is_test;
use crate::core::sources::Codebase;
use crate::core::syntax::{Lang, Symbol, SymbolKind};

/// The cache key of the names a file defines.
const CACHE_KEY: &str = "package-names-1";

/// A package as statements named it: its files, sorted, shared.
pub(super) type Package<'a> = Arc<[&'a str]>;

/// The package edges of one file, and how many more the cap left out.
pub(super) struct Narrowed<'a> {
    pub edges: Vec<(&'a str, f64, ImportKind)>,
    pub capped: usize,
}

/// The most names of one package a file's uses are kept of (a file
/// naming every class of a huge package counts by its first ones).
const MAX_NAMES_USED: usize = 4096;

/// For each of `code`, the edges its package statements (`refs`: each
/// package it names, with the statement's kind) lead to.
pub(super) fn package_edges<'a>(
    codebase: &Codebase,
    code: &[&'a String],
    refs: &[Vec<(Package<'a>, ImportKind)>],
) -> Vec<Narrowed<'a>> {
    // Each package once, however many statements name it.
    let mut ids: HashMap<(usize, usize), usize> = HashMap::new();
    let mut packages: Vec<&Package<'a>> = Vec::new();
    for list in refs {
        for (package, _) in list {
            ids.entry(key(package)).or_insert_with(|| {
                packages.push(package);
                packages.len() - 1
            });
        }
    }
    let mut indexes: Vec<Index> = packages
        .par_iter()
        .map(|p| Index::build(codebase, p))
        .collect();
    // What each file uses of each package it names: one read of its text.
    let uses: Vec<Vec<Use>> = code
        .par_iter()
        .zip(refs)
        .map(|(path, list)| {
            if list.is_empty() {
                return Vec::new();
            }
            let named = strongest(list, |p| ids[&key(p)]);
            let file = codebase.sources.file(codebase.root, path);
            names_used(path, file.text().unwrap_or(""), named, &packages, &indexes)
        })
        .collect();
    // A name few of a package's importers use weighs more than one all do.
    let mut importers = vec![0usize; indexes.len()];
    for u in uses.iter().flatten() {
        importers[u.package] += 1;
        for &name in &u.names {
            indexes[u.package].entries[name as usize].users += 1;
        }
    }
    for (index, importers) in indexes.iter_mut().zip(importers) {
        for entry in &mut index.entries {
            entry.weight = (1.0 + importers as f64 / entry.users.max(1) as f64).ln();
        }
    }
    code.par_iter()
        .zip(uses)
        .map(|(path, uses)| narrow(path, &uses, &packages, &indexes))
        .collect()
}

/// A package's identity: where its shared list lives, and its length.
fn key(package: &Package<'_>) -> (usize, usize) {
    (Arc::as_ptr(package) as *const () as usize, package.len())
}

/// Each package of `refs` once (by its id), with the strongest kind it
/// is named with.
fn strongest<'a>(
    refs: &[(Package<'a>, ImportKind)],
    id: impl Fn(&Package<'a>) -> usize,
) -> Vec<(usize, ImportKind)> {
    let mut named: Vec<(usize, ImportKind)> = Vec::new();
    for (package, kind) in refs {
        let i = id(package);
        match named.iter_mut().find(|(p, _)| *p == i) {
            Some((_, k)) => *k = (*k).min(*kind),
            None => named.push((i, *kind)),
        }
    }
    named
}

/// What one file uses of one package it names.
struct Use {
    package: usize,
    kind: ImportKind,
    /// The package's names (entries) used, each once.
    names: Vec<u32>,
}

/// The names of each package in `named` that the file at `path` (with
/// `text`) uses and does not define itself.
fn names_used(
    path: &str,
    text: &str,
    named: Vec<(usize, ImportKind)>,
    packages: &[&Package<'_>],
    indexes: &[Index],
) -> Vec<Use> {
    let mut uses: Vec<Use> = named
        .into_iter()
        .map(|(package, kind)| Use {
            package,
            kind,
            names: Vec::new(),
        })
        .collect();
    // A file of the package does not import what it defines itself.
    let own: Vec<Option<u32>> = uses
        .iter()
        .map(|u| {
            packages[u.package]
                .binary_search(&path)
                .ok()
                .map(|i| i as u32)
        })
        .collect();
    // Each word once (a file names far fewer words than it writes),
    // then each package it names.
    let mut words: FxHashSet<&str> = FxHashSet::default();
    for_each_identifier(text, |word| {
        words.insert(word);
    });
    for word in words {
        for (u, own) in uses.iter_mut().zip(&own) {
            let index = &indexes[u.package];
            let Some(&name) = index.names.get(word) else {
                continue;
            };
            let files = &index.entries[name as usize].files;
            if u.names.len() < MAX_NAMES_USED && !own.is_some_and(|own| files.contains(&own)) {
                u.names.push(name);
            }
        }
    }
    uses.retain(|u| !u.names.is_empty());
    uses
}

/// The edges of the file at `path` from what it uses of each package.
fn narrow<'a>(
    path: &str,
    uses: &[Use],
    packages: &[&Package<'a>],
    indexes: &[Index],
) -> Narrowed<'a> {
    let skip_tests = !is_test(path);
    let mut scored: HashMap<&'a str, (f64, ImportKind)> = HashMap::new();
    for u in uses {
        let (package, index) = (packages[u.package], &indexes[u.package]);
        let mut scores: HashMap<u32, f64> = HashMap::new();
        for &name in &u.names {
            let entry = &index.entries[name as usize];
            let share = entry.weight / entry.files.len() as f64;
            for &f in &entry.files {
                let to = package[f as usize];
                if to != path && !(skip_tests && is_test(to)) {
                    *scores.entry(f).or_default() += share;
                }
            }
        }
        let total: f64 = scores.values().sum();
        for (f, score) in scores {
            let edge = scored.entry(package[f as usize]).or_insert((0.0, u.kind));
            edge.0 += score / total;
            edge.1 = edge.1.min(u.kind);
        }
    }
    let mut edges: Vec<(&'a str, f64, ImportKind)> =
        scored.into_iter().map(|(f, (w, k))| (f, w, k)).collect();
    edges.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let capped = edges.len().saturating_sub(PACKAGE_EDGE_CAP);
    edges.truncate(PACKAGE_EDGE_CAP);
    Narrowed { edges, capped }
}

/// The names of one package: which of its files define each, and how
/// much a use of it weighs.
struct Index {
    names: FxHashMap<String, u32>,
    entries: Vec<Entry>,
}

struct Entry {
    /// Positions in the package of the files defining the name.
    files: Vec<u32>,
    /// How many of the package's importers use it.
    users: usize,
    /// How rare the name is among the importers:
    /// `ln(1 + importers / importers using it)`.
    weight: f64,
}

impl Index {
    fn build(codebase: &Codebase, package: &Package<'_>) -> Self {
        let defined: Vec<Defined> = package
            .par_iter()
            .map(|f| Defined::of(codebase, f))
            .collect();
        // name -> (files defining it as a top-level name, as a method).
        let mut by_name: HashMap<String, (Vec<u32>, Vec<u32>)> = HashMap::new();
        for (i, d) in defined.into_iter().enumerate() {
            let i = i as u32;
            for name in d.names {
                let e = by_name.entry(name).or_default();
                if e.0.last() != Some(&i) {
                    e.0.push(i);
                }
            }
            for name in d.methods {
                let e = by_name.entry(name).or_default();
                if e.1.last() != Some(&i) {
                    e.1.push(i);
                }
            }
        }
        let mut names: FxHashMap<String, u32> = FxHashMap::default();
        let mut entries: Vec<Entry> = Vec::new();
        for (name, (strong, methods)) in by_name {
            let files = match (strong.len(), methods.len()) {
                // A name on every file says nothing of which one is used.
                (1..=PACKAGE_EDGE_CAP, _) => strong,
                (0, 1) => methods,
                _ => continue,
            };
            names.insert(name, entries.len() as u32);
            entries.push(Entry {
                files,
                users: 0,
                weight: 1.0,
            });
        }
        Index { names, entries }
    }
}

/// The names one file defines at its top level.
#[derive(Default)]
struct Defined {
    names: Vec<String>,
    /// Go methods (`func (t T) Name()`).
    methods: Vec<String>,
}

impl Defined {
    /// Read from the cache, or from the file's symbol tree and text.
    fn of(codebase: &Codebase, path: &str) -> Self {
        let Codebase { root, sources, .. } = *codebase;
        let Some(text) = sources.derived_from_text(root, path, CACHE_KEY, |text| {
            let mut out = String::new();
            if let Some(tree) = sources.symbols(root, path) {
                top_level(&tree.symbols, &mut out);
            }
            for name in modules::extra_names(Lang::from_path(path), text) {
                out.push_str(&name);
                out.push('\n');
            }
            out
        }) else {
            return Defined::default();
        };
        let mut d = Defined::default();
        for line in text.lines() {
            match line.strip_prefix("m\t") {
                Some(method) => d.methods.push(method.to_string()),
                None => d.names.push(line.to_string()),
            }
        }
        d
    }
}

/// The top-level names of `symbols` (through namespaces and modules), one
/// a line, a method's after `m\t`.
fn top_level(symbols: &[Symbol], out: &mut String) {
    for s in symbols {
        match s.kind {
            SymbolKind::Namespace | SymbolKind::Module => top_level(&s.children, out),
            _ if s.name.is_empty() || s.name.contains(['\n', '\t']) => {}
            SymbolKind::Method => {
                out.push_str("m\t");
                out.push_str(&s.name);
                out.push('\n');
            }
            _ => {
                out.push_str(&s.name);
                out.push('\n');
            }
        }
    }
}

/// The identifiers of C-like source text outside comments (`//`, `/* */`)
/// and string and character literals (`"…"`, `"""…"""`, Go's `` `…` ``),
/// each once.
#[cfg(test)]
fn identifiers(text: &str) -> HashSet<&str> {
    let mut out = HashSet::new();
    for_each_identifier(text, |w| {
        out.insert(w);
    });
    out
}

/// Each identifier of C-like source text, as [`identifiers`] reads them,
/// in order, repeats included.
fn for_each_identifier<'t>(text: &'t str, mut f: impl FnMut(&'t str)) {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    let after = |from: usize, pat: &str| {
        text.get(from..)
            .and_then(|rest| rest.find(pat))
            .map_or(b.len(), |at| from + at + pat.len())
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i = match c {
            b'/' if b.get(i + 1) == Some(&b'/') => after(i, "\n"),
            b'/' if b.get(i + 1) == Some(&b'*') => after(i + 2, "*/"),
            b'"' if text.get(i..i + 3) == Some("\"\"\"") => after(i + 3, "\"\"\""),
            b'"' => string_end(b, i + 1),
            b'`' => after(i + 1, "`"),
            b'\'' => b[i + 1..]
                .iter()
                .take(12)
                .position(|&c| c == b'\'' || c == b'\n')
                .filter(|&at| b[i + 1 + at] == b'\'')
                .map_or(i + 1, |at| i + at + 2),
            c if c.is_ascii_digit() => {
                let run = b[i..]
                    .iter()
                    .take_while(|&&c| ident(c) || c == b'.')
                    .count();
                i + run
            }
            c if ident(c) => {
                let run = b[i..].iter().take_while(|&&c| ident(c)).count();
                if let Some(word) = text.get(i..i + run) {
                    f(word);
                }
                i + run
            }
            _ => i + 1,
        };
    }
}

/// Past the `"` closing a string that opened before `from` (a backslash
/// escapes; a string ends at the line's end at the latest).
fn string_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' | b'\n' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_outside_comments_and_literals() {
        let src = "/* Doc names Hidden */\npackage p // and Gone\n\nfunc f() {\n\
                   \ts := \"Quoted \\\" still\" + `Raw\nMulti`\n\tc := 'x'; d := '\\''\n\
                   \tUsed(0x1F, 2.5e3, Other_1)\n\tq := \"\"\"Text Block\"\"\"\n}\n";
        let mut words: Vec<&str> = identifiers(src).into_iter().collect();
        words.sort();
        assert_eq!(
            words,
            [
                "Other_1", "Used", "c", "d", "f", "func", "p", "package", "q", "s"
            ]
        );
        // Unclosed literals and non-ASCII names do not panic or run away.
        let odd = "x := \"open\ny := 'z\nnamé := `never closed";
        let mut words: Vec<&str> = identifiers(odd).into_iter().collect();
        words.sort();
        assert_eq!(words, ["namé", "x", "y", "z"]);
    }
}
