//! How often the project uses a name (aider's repo map ranks by
//! references, not just definitions): the identifiers of each code file,
//! found by a cheap tokenizer pass and cached per content, counted as the
//! number of files that name each one. A symbol's weight in the map grows
//! with the files that use it; dunders and private names nobody else uses
//! weigh little.

use std::collections::HashSet;
use std::sync::Mutex;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::sources::Codebase;
use crate::core::syntax::Lang;

use super::outline::Entry;

/// How many files of a ranking name each name asked so far, kept across
/// the maps of one ranking.
#[derive(Debug, Default)]
pub struct Naming {
    all: Mutex<FxHashMap<String, usize>>,
}

/// How many code files of `paths` name each name of `wanted` (counted
/// in parallel: a task build counts over every file of the project).
/// Prose that names a function does not use it.
fn count_naming<'w>(
    codebase: &Codebase,
    paths: &[&str],
    wanted: &FxHashSet<&'w str>,
) -> FxHashMap<&'w str, usize> {
    let code: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|path| Lang::from_path(path).is_some_and(Lang::is_code))
        .collect();
    let names: Vec<&'w str> = wanted.iter().copied().collect();
    let found = codebase.sources.word_postings(
        codebase.root,
        &code,
        "repo-map-identifiers",
        identifiers,
        &names,
    );
    names
        .into_iter()
        .zip(found)
        .filter(|(_, files)| !files.is_empty())
        .map(|(name, files)| (name, files.len()))
        .collect()
}

/// How many files name each identifier.
#[derive(Debug, Default)]
pub struct References {
    files_naming: FxHashMap<String, usize>,
    /// How many of the outlined files define each name.
    files_defining: FxHashMap<String, usize>,
}

impl References {
    /// How many code files among `ranked` but not in `skip` name each name
    /// the `outlines` define, and how many of the outlined files define
    /// it: `render` defined in twenty classes is not used by them. Only
    /// defined names are counted, so a big project costs lookups, not a
    /// table of every word in it; `cache` keeps the counts over all of
    /// `ranked` for the next map of the same ranking (a pack sizes several),
    /// and only the skipped files are taken off each time.
    pub fn count(
        codebase: &Codebase,
        ranked: &[&str],
        skip: &HashSet<&str>,
        outlines: &[Vec<Entry>],
        cache: &Naming,
    ) -> References {
        let mut files_defining: FxHashMap<String, usize> = FxHashMap::default();
        for entries in outlines {
            let defined: FxHashSet<&str> = entries.iter().map(|e| e.name.as_str()).collect();
            for name in defined {
                *files_defining.entry(name.to_string()).or_default() += 1;
            }
        }
        let mut all = cache.all.lock().unwrap_or_else(|e| e.into_inner());
        let new: FxHashSet<&str> = files_defining
            .keys()
            .map(String::as_str)
            .filter(|n| !all.contains_key(*n))
            .collect();
        if !new.is_empty() {
            let counts = count_naming(codebase, ranked, &new);
            for name in &new {
                all.insert((*name).to_string(), counts.get(name).copied().unwrap_or(0));
            }
        }
        let mut files_naming: FxHashMap<String, usize> = files_defining
            .keys()
            .map(|name| (name.clone(), all.get(name).copied().unwrap_or(0)))
            .collect();
        drop(all);
        let wanted: FxHashSet<&str> = files_defining.keys().map(String::as_str).collect();
        let ranked_set: FxHashSet<&str> = ranked.iter().copied().collect();
        let skipped: Vec<&str> = skip
            .iter()
            .copied()
            .filter(|p| ranked_set.contains(p))
            .collect();
        for (name, by) in count_naming(codebase, &skipped, &wanted) {
            if let Some(n) = files_naming.get_mut(name) {
                *n = n.saturating_sub(by);
            }
        }
        files_naming.retain(|_, n| *n > 0);
        References {
            files_naming,
            files_defining,
        }
    }

    /// Files other than the definers that name `name` (a name asked about
    /// has at least one definer, which names it itself).
    pub fn by_others(&self, name: &str) -> usize {
        let naming = self.files_naming.get(name).copied().unwrap_or(0);
        let defining = self.files_defining.get(name).copied().unwrap_or(0);
        naming.saturating_sub(defining.max(1))
    }

    /// A symbol's weight: grows with the log of the files using it, so a
    /// name used everywhere does not drown the rest; a dunder or a private
    /// name no other file uses is kept for last.
    pub fn weight(&self, name: &str) -> f64 {
        let others = self.by_others(name);
        let base = 1.0 + (1.0 + others as f64).ln();
        if others > 0 {
            base
        } else if is_dunder(name) {
            0.1
        } else if name.starts_with('_') {
            0.3
        } else {
            base
        }
    }
}

/// `__repr__`, `__bool__`: hooks the language calls, rarely by name.
fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// The distinct ASCII identifiers of `text` (two characters or more), one
/// a line, sorted.
pub fn identifiers(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            // ASCII bytes only, so the slice is on char boundaries.
            if i - start >= 2 {
                seen.insert(&text[start..i]);
            }
        } else if b.is_ascii_digit() {
            // `0x1F`, `1e5`: a number's letters are not a name.
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    let mut out: Vec<&str> = seen.into_iter().collect();
    out.sort_unstable();
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_distinct_names_not_numbers() {
        assert_eq!(
            identifiers("x = foo(bar, 0x1F) + foo.baz_2 # é_q _a"),
            "_a\n_q\nbar\nbaz_2\nfoo"
        );
        assert_eq!(identifiers(""), "");
    }

    #[test]
    fn weights_follow_other_files() {
        let refs = References {
            files_naming: [("used", 5), ("alone", 1), ("__repr__", 1), ("__init__", 9)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            files_defining: FxHashMap::default(),
        };
        assert!(refs.weight("used") > refs.weight("alone"));
        assert!(refs.weight("alone") > refs.weight("_private"));
        assert!(refs.weight("_private") > refs.weight("__repr__"));
        assert!(refs.weight("__init__") > refs.weight("alone"));
    }
}
