//! What the lexical score needs of each file, cached by content hash as
//! token counts are: the terms of its text with their counts, and the
//! names it defines (a light, language-agnostic scan for the identifier
//! after `def`, `class`, `fn`, `func`, `struct`, … and for `NAME =` /
//! `const NAME` bindings, so a TypeScript `export const focusManager = …`
//! counts as defined). A second task on an unchanged project reads these
//! from the cache instead of the files' terms anew.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;
use rustc_hash::FxHashMap;

use crate::core::sources::Codebase;

use super::terms;

/// The derived-text name (and so the cache key) of a file's terms; bump
/// the version when the format or the term rules change.
const DERIVED: &str = "relevance-terms-v2";

/// One file's counts of the terms a query asks for.
#[derive(Debug, Default, Clone)]
pub struct Counts {
    /// Term index in the query → count.
    pub defs: HashMap<usize, u32>,
    pub body: HashMap<usize, u32>,
    /// Body length in terms.
    pub len: u32,
}

/// The line of a file's body length.
const LENGTH: &str = "L total";

/// Each of `files`' counts of `terms` (the query's, by index), `None` for
/// a file that is not readable text. A file's terms are cached lines: `D`
/// lines (defined names' terms), then `B` lines (body terms), each `Dterm
/// count`, then `L total N`; the project's word index over them answers
/// for the files unchanged since it was built, so a second task on an
/// unchanged project reads the postings of its few terms, not every file.
pub fn counts(codebase: &Codebase, files: &[&str], terms: &[String]) -> Vec<Option<Counts>> {
    let mut words: Vec<String> = vec![LENGTH.to_string()];
    for term in terms {
        words.push(format!("D{term}"));
        words.push(format!("B{term}"));
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let found = codebase
        .sources
        .word_postings(codebase.root, files, DERIVED, encode, &words);
    let mut out: Vec<Option<Counts>> = vec![None; files.len()];
    for (w, postings) in found.iter().enumerate() {
        for &(file, n) in postings {
            let Some(slot) = out.get_mut(file) else {
                continue;
            };
            let counts = slot.get_or_insert_with(Counts::default);
            match (w, (w + 1) % 2) {
                (0, _) => counts.len = n,
                (_, 0) => *counts.defs.entry((w - 1) / 2).or_default() += n,
                _ => *counts.body.entry((w - 1) / 2).or_default() += n,
            }
        }
    }
    out
}

/// A file's text as the cached lines [`counts`] reads.
fn encode(text: &str) -> String {
    let mut defs: FxHashMap<String, u32> = FxHashMap::default();
    for name in defined_names(text) {
        terms::for_each_term(name, |t| *defs.entry(t.to_string()).or_default() += 1);
    }
    // A word's terms do not depend on where it stands: each distinct word
    // is split and stemmed once, its terms counted as often as it occurs.
    let mut words: FxHashMap<&str, u32> = FxHashMap::default();
    for word in terms::words(text) {
        *words.entry(word).or_default() += 1;
    }
    let mut body: FxHashMap<String, u32> = FxHashMap::default();
    let mut len = 0u32;
    for (word, times) in words {
        terms::for_each_term(word, |t| {
            len = len.saturating_add(times);
            match body.get_mut(t) {
                Some(n) => *n = n.saturating_add(times),
                None => {
                    body.insert(t.to_string(), times);
                }
            }
        });
    }
    let mut out = String::with_capacity(body.len() * 12);
    for (tag, map) in [("D", &defs), ("B", &body)] {
        let mut sorted: Vec<(&String, &u32)> = map.iter().collect();
        sorted.sort_unstable();
        for (term, count) in sorted {
            use std::fmt::Write as _;
            let _ = writeln!(out, "{tag}{term} {count}");
        }
    }
    out.push_str(&format!("L total {len}\n"));
    out
}

/// The names `text` defines, by keyword (`def`, `class`, `fn`, `func`,
/// `struct`, …), by a binding at the start of a line (`NAME = …`,
/// `export const NAME = …`, `var NAME =`) or by `#define`, each as often
/// as it is defined. Names are ASCII, as [`terms::words`] reads them: the
/// ASCII `\b` keeps the regex on its DFA where a file holds any other
/// text (Unicode `\b` sent such files to the slow engine; a cold task
/// build of the standard library spent 8% of its time here).
pub fn defined_names(text: &str) -> impl Iterator<Item = &str> {
    static DEF: OnceLock<Option<Regex>> = OnceLock::new();
    let re = DEF.get_or_init(|| {
        Regex::new(concat!(
            r"(?m)(?-u:\b)(?:def|class|fn|func|function|struct|enum|union|trait|interface|type|",
            r"typedef|mod|module|namespace|record|object|protocol|extension|impl|macro_rules!)",
            r"[ \t]+(?:\([^)\n]{0,80}\)[ \t]*)?\*?[ \t]*([A-Za-z_$][0-9A-Za-z_$]*)",
            r"|^(?:export[ \t]+(?:default[ \t]+)?|pub(?:\([^)\n]*\))?[ \t]+)?",
            r"(?:(?:const|let|var|val|static)[ \t]+)?([A-Za-z_$][0-9A-Za-z_$]*)[ \t]*(?::[^=\n]{0,80})?=[^=]",
            r"|#[ \t]*define[ \t]+([A-Za-z_][0-9A-Za-z_]*)",
        ))
        .ok()
    });
    re.iter().flat_map(move |re| {
        re.captures_iter(text).filter_map(|c| {
            c.get(1)
                .or_else(|| c.get(2))
                .or_else(|| c.get(3))
                .map(|m| m.as_str())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_are_found_by_keyword_and_binding() {
        // Text beyond ASCII (a comment in German) leaves the names as they are.
        let src = "# Größe, naïve\ndef parse_url(x):\n    pass\nclass Router:\n  pass\n\
                   export const focusManager = new FocusManager()\n\
                   func (t *Tree) addRoute(path string) {}\n\
                   MAX_SIZE = 10\n#define BROTLI_MODEL(M) x\n";
        let names: Vec<&str> = defined_names(src).collect();
        for want in [
            "parse_url",
            "Router",
            "focusManager",
            "addRoute",
            "MAX_SIZE",
            "BROTLI_MODEL",
        ] {
            assert!(names.contains(&want), "{want} in {names:?}");
        }
    }

    #[test]
    fn each_word_counted_once_gives_the_counts_of_every_occurrence() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/core/discovery/pack.rs"
        ))
        .unwrap_or_default();
        let mut want: HashMap<String, u32> = HashMap::new();
        let mut len = 0;
        terms::for_each_term(&text, |t| {
            len += 1;
            *want.entry(t.to_string()).or_default() += 1;
        });
        let encoded = encode(&text);
        let mut got: HashMap<String, u32> = HashMap::new();
        for line in encoded.lines() {
            let (term, count) = line[1..].rsplit_once(' ').unwrap();
            match &line[..1] {
                "B" => {
                    got.insert(term.to_string(), count.parse().unwrap());
                }
                "L" => assert_eq!(count, len.to_string()),
                _ => {}
            }
        }
        assert!(want.len() > 300, "{}", want.len());
        assert_eq!(got, want);
    }

    #[test]
    fn counts_read_back_what_encode_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("r.py"),
            "def route_match(x):\n    return match(x) or match_all\n",
        )
        .unwrap();
        std::fs::write(root.join("bin.dat"), b"\xff\x00\xfe").unwrap();
        let sources = crate::core::sources::Sources::new();
        let codebase = Codebase::new(root, &sources);
        let terms: Vec<String> = ["match", "rout", "zzz"].map(String::from).into();
        let got = counts(&codebase, &["r.py", "bin.dat", "gone.py"], &terms);
        let counts = got[0].as_ref().unwrap();
        assert_eq!(counts.defs.get(&0), Some(&1));
        assert_eq!(counts.defs.get(&1), Some(&1));
        assert_eq!(counts.body.get(&0), Some(&3));
        assert_eq!(counts.body.get(&2), None);
        assert!(counts.len >= 6, "{}", counts.len);
        assert!(got[1].is_none() && got[2].is_none(), "{got:?}");
    }
}
