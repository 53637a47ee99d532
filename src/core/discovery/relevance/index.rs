//! What the lexical score needs of each file, cached by content hash as
//! token counts are: the terms of its text with their counts, and the
//! names it defines (a light, language-agnostic scan for the identifier
//! after `def`, `class`, `fn`, `func`, `struct`, … and for `NAME =` /
//! `const NAME` bindings, so a TypeScript `export const focusManager = …`
//! counts as defined). A second task on an unchanged project reads these
//! from the cache instead of the files' terms anew.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use regex::Regex;
use rustc_hash::FxHashMap;

use crate::core::sources::Codebase;

use super::terms;

/// The derived-text name (and so the cache key) of a file's terms; bump
/// the version when the format or the term rules change.
const DERIVED: &str = "relevance-terms-v1";

/// A file's terms, as cached: `D` lines (defined names' terms), then `B`
/// lines (body terms), each `Dterm count`, then `L total` (the body's
/// length in terms).
pub struct FileTerms {
    text: Arc<str>,
}

/// One field's counts of the terms a query asks for.
#[derive(Debug, Default, Clone)]
pub struct Counts {
    /// Term index in the query → count.
    pub defs: HashMap<usize, u32>,
    pub body: HashMap<usize, u32>,
    /// Body length in terms.
    pub len: u32,
}

impl FileTerms {
    /// The terms of `rel` from the cache, or made from its text and
    /// stored; `None` for a file that is not readable text.
    pub fn of(codebase: &Codebase, rel: &str) -> Option<FileTerms> {
        let text = codebase
            .sources
            .derived_from_text(codebase.root, rel, DERIVED, encode)?;
        Some(FileTerms { text })
    }

    /// The counts of the `wanted` terms (term → its index in the query):
    /// each looked up by bisection of the sorted lines, so a file costs a
    /// few comparisons per term, not a pass over its every term.
    pub fn counts(&self, wanted: &HashMap<&str, usize>) -> Counts {
        let mut out = Counts::default();
        let text: &str = &self.text;
        out.len = text
            .rfind("L total ")
            .and_then(|at| text[at + "L total ".len()..].trim_end().parse().ok())
            .unwrap_or(0);
        for (term, &i) in wanted {
            for (tag, field) in [(b'D', &mut out.defs), (b'B', &mut out.body)] {
                if let Some(n) = find(text, tag, term) {
                    *field.entry(i).or_default() += n;
                }
            }
        }
        out
    }
}

/// The place of a tag among the sections: the defined names, the body,
/// the length.
fn section(tag: u8) -> u8 {
    match tag {
        b'D' => 0,
        b'B' => 1,
        _ => 2,
    }
}

/// The count on the line `{tag}{term} {count}` of `text` (lines sorted by
/// section, then term), by bisection over its bytes.
fn find(text: &str, tag: u8, term: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    let want = (section(tag), term.as_bytes());
    let (mut lo, mut hi) = (0usize, bytes.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        // The line holding `mid`: from after the previous line break.
        let start = bytes[lo..mid]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(lo, |p| lo + p + 1);
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |p| start + p);
        let line = &bytes[start..end];
        let (&line_tag, rest) = line.split_first()?;
        let space = rest.iter().rposition(|&b| b == b' ').unwrap_or(rest.len());
        let have = (section(line_tag), &rest[..space]);
        match have.cmp(&want) {
            std::cmp::Ordering::Equal => {
                return std::str::from_utf8(&rest[space..])
                    .ok()?
                    .trim()
                    .parse()
                    .ok();
            }
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    None
}

/// A file's text as the cached lines of [`FileTerms`].
fn encode(text: &str) -> String {
    let mut defs: HashMap<String, u32> = HashMap::new();
    for name in defined_names(text) {
        terms::for_each_term(name, |t| *defs.entry(t.to_string()).or_default() += 1);
    }
    // A word's terms do not depend on where it stands: each distinct word
    // is split and stemmed once, its terms counted as often as it occurs.
    let mut words: FxHashMap<&str, u32> = FxHashMap::default();
    for word in terms::words(text) {
        *words.entry(word).or_default() += 1;
    }
    let mut body: HashMap<String, u32> = HashMap::new();
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
            out.push_str(tag);
            out.push_str(term);
            out.push(' ');
            out.push_str(&count.to_string());
            out.push('\n');
        }
    }
    out.push_str(&format!("L total {len}\n"));
    out
}

/// The names `text` defines, by keyword (`def`, `class`, `fn`, `func`,
/// `struct`, …), by a binding at the start of a line (`NAME = …`,
/// `export const NAME = …`, `var NAME =`) or by `#define`, each as often
/// as it is defined.
pub fn defined_names(text: &str) -> impl Iterator<Item = &str> {
    static DEF: OnceLock<Option<Regex>> = OnceLock::new();
    let re = DEF.get_or_init(|| {
        Regex::new(concat!(
            r"(?m)\b(?:def|class|fn|func|function|struct|enum|union|trait|interface|type|",
            r"typedef|mod|module|namespace|record|object|protocol|extension|impl|macro_rules!)",
            r"[ \t]+(?:\([^)\n]{0,80}\)[ \t]*)?\*?[ \t]*([A-Za-z_$][\w$]*)",
            r"|^(?:export[ \t]+(?:default[ \t]+)?|pub(?:\([^)\n]*\))?[ \t]+)?",
            r"(?:(?:const|let|var|val|static)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]{0,80})?=[^=]",
            r"|#[ \t]*define[ \t]+([A-Za-z_]\w*)",
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
        let src = "def parse_url(x):\n    pass\nclass Router:\n  pass\n\
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
    fn bisection_finds_every_term_a_pass_would() {
        // Real text with many terms: every term of either section is found
        // with the count a line-by-line read gives, and absent ones are not.
        let stdlib = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/core/discovery/relevance.rs"
        ))
        .unwrap_or_default();
        let text = encode(&stdlib);
        let file = FileTerms {
            text: Arc::from(text.as_str()),
        };
        let mut lines = 0;
        for line in text.lines() {
            let (tag, rest) = line.split_at(1);
            let (term, count) = rest.rsplit_once(' ').unwrap();
            let tag = tag.as_bytes()[0];
            if tag == b'L' {
                continue;
            }
            assert_eq!(find(&text, tag, term), count.parse().ok(), "{line}");
            lines += 1;
        }
        assert!(lines > 200, "{lines}");
        for absent in ["", "aaaa", "zzzzzz", "mid_absent_term"] {
            assert_eq!(find(&text, b'B', absent), None);
            assert_eq!(find(&text, b'D', absent), None);
        }
        let wanted: HashMap<&str, usize> = [("scor", 0)].into();
        assert!(file.counts(&wanted).len > 1000);
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
        let text = encode("def route_match(x):\n    return match(x) or match_all\n");
        let file = FileTerms {
            text: Arc::from(text),
        };
        let wanted: HashMap<&str, usize> = [("match", 0), ("rout", 1), ("zzz", 2)].into();
        let counts = file.counts(&wanted);
        assert_eq!(counts.defs.get(&0), Some(&1));
        assert_eq!(counts.defs.get(&1), Some(&1));
        assert_eq!(counts.body.get(&0), Some(&3));
        assert_eq!(counts.body.get(&2), None);
        assert!(counts.len >= 6, "{}", counts.len);
    }
}
