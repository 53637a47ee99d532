//! Package imports narrowed to the names used (DESIGN §13; issues 35 and
//! 37). A statement naming a whole package (a Go package, a Go file's own
//! package, Java's `import p.*;`, a C# namespace, Kotlin's `import p.*`)
//! leads to an edge from the importer to a file of the package only when
//! the importer's text (outside comments and string literals) uses a name
//! that file defines at its top level: its symbol tree's top-level
//! symbols (through namespaces), Go's vars and consts, Kotlin's top-level
//! names. A Go method's name counts only when one file of the package
//! defines it (`String` on thirty types says nothing). Each name used
//! weighs by how rare it is among the package's files (a type every file
//! uses counts less than a helper one file uses), each statement's edges
//! together weigh one, a file that is not a test never gets a test file,
//! and a file keeps its [`PACKAGE_EDGE_CAP`] strongest package edges: a
//! wildcard import over a package of N files holds at most N × cap
//! edges, and none from a file that uses nothing.
//!
//! The names a file defines are cached per content (memory and disk) as
//! import statements are; the identifiers a file uses are read off its
//! text when needed, never kept.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use super::kind::ImportKind;
use super::modules;
use super::test_files::is_test;
use super::PACKAGE_EDGE_CAP;
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
    let indexes: Vec<Index> = packages
        .par_iter()
        .map(|p| Index::build(codebase, p))
        .collect();
    code.par_iter()
        .zip(refs)
        .map(|(path, list)| {
            if list.is_empty() {
                return Narrowed {
                    edges: Vec::new(),
                    capped: 0,
                };
            }
            let file = codebase.sources.file(codebase.root, path);
            let used = identifiers(file.text().unwrap_or(""));
            narrow(path, &used, list, |p| &indexes[ids[&key(p)]])
        })
        .collect()
}

/// A package's identity: where its shared list lives, and its length.
fn key(package: &Package<'_>) -> (usize, usize) {
    (Arc::as_ptr(package) as *const () as usize, package.len())
}

/// The edges of the file at `path`, which uses `used`, through the
/// packages it names.
fn narrow<'a, 'i>(
    path: &str,
    used: &HashSet<&str>,
    refs: &[(Package<'a>, ImportKind)],
    index: impl Fn(&Package<'a>) -> &'i Index,
) -> Narrowed<'a> {
    let skip_tests = !is_test(path);
    // The strongest kind a package is named with, each package once.
    let mut named: Vec<(&Package<'a>, ImportKind)> = Vec::new();
    for (package, kind) in refs {
        match named.iter_mut().find(|(p, _)| key(p) == key(package)) {
            Some((_, k)) => *k = (*k).min(*kind),
            None => named.push((package, *kind)),
        }
    }
    let mut scored: HashMap<&'a str, (f64, ImportKind)> = HashMap::new();
    for (package, kind) in named {
        let index = index(package);
        // A file of the package does not import what it defines itself.
        let own = package.binary_search(&path).ok().map(|i| i as u32);
        let mut scores: HashMap<u32, f64> = HashMap::new();
        for word in used {
            let Some(entry) = index.names.get(*word).map(|&i| &index.entries[i as usize]) else {
                continue;
            };
            if own.is_some_and(|own| entry.files.contains(&own)) {
                continue;
            }
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
            let edge = scored.entry(package[f as usize]).or_insert((0.0, kind));
            edge.0 += score / total;
            edge.1 = edge.1.min(kind);
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
    names: HashMap<String, u32>,
    entries: Vec<Entry>,
}

struct Entry {
    /// Positions in the package of the files defining the name.
    files: Vec<u32>,
    /// How rare the name is among the package's files:
    /// `ln(1 + files / files using it)`.
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
        let mut names: HashMap<String, u32> = HashMap::new();
        let mut entries: Vec<Entry> = Vec::new();
        for (name, (strong, methods)) in by_name {
            let files = match (strong.len(), methods.len()) {
                // A name on every file says nothing of which one is used.
                (1..=PACKAGE_EDGE_CAP, _) => strong,
                (0, 1) => methods,
                _ => continue,
            };
            names.insert(name, entries.len() as u32);
            entries.push(Entry { files, weight: 1.0 });
        }
        // How many of the package's files use each name, counted a part
        // of the package at a time.
        let uses = package
            .par_iter()
            .fold(
                || vec![0u32; entries.len()],
                |mut uses, f| {
                    let file = codebase.sources.file(codebase.root, f);
                    for w in identifiers(file.text().unwrap_or("")) {
                        if let Some(&i) = names.get(w) {
                            uses[i as usize] += 1;
                        }
                    }
                    uses
                },
            )
            .reduce(
                || vec![0u32; entries.len()],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                    a
                },
            );
        let n = package.len().max(1) as f64;
        for (entry, uses) in entries.iter_mut().zip(uses) {
            entry.weight = (1.0 + n / f64::from(uses.max(1))).ln();
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
/// and string and character literals (`"…"`, `"""…"""`, Go's `` `…` ``).
pub(super) fn identifiers(text: &str) -> HashSet<&str> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    let after = |from: usize, pat: &str| {
        text.get(from..)
            .and_then(|rest| rest.find(pat))
            .map_or(b.len(), |at| from + at + pat.len())
    };
    let mut out = HashSet::new();
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
                let run = b[i..].iter().take_while(|&&c| ident(c) || c == b'.').count();
                i + run
            }
            c if ident(c) => {
                let run = b[i..].iter().take_while(|&&c| ident(c)).count();
                if let Some(word) = text.get(i..i + run) {
                    out.insert(word);
                }
                i + run
            }
            _ => i + 1,
        };
    }
    out
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
            ["Other_1", "Used", "c", "d", "f", "func", "p", "package", "q", "s"]
        );
        // Unclosed literals and non-ASCII names do not panic or run away.
        let odd = "x := \"open\ny := 'z\nnamé := `never closed";
        let mut words: Vec<&str> = identifiers(odd).into_iter().collect();
        words.sort();
        assert_eq!(words, ["namé", "x", "y", "z"]);
    }
}
