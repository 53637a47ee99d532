//! A file's outline for the repo map: its top-level symbols and their
//! direct children, one line each, with the variants of one name (the
//! thirty `#define BROTLI_INLINE` of a header's `#if` branches, a
//! function's declaration and definition, `@overload`s) collapsed into
//! one line that says how many there are.

use std::fmt::Write;

use crate::core::syntax::{Symbol, SymbolKind};

/// One outline line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 0 for a top-level symbol, 1 for a child.
    pub depth: u8,
    /// The symbol's name, which references are counted by.
    pub name: String,
    /// The line without its indentation: the signature on one line, and
    /// ` (N definitions)` when variants were collapsed.
    pub text: String,
}

/// The outline of `symbols`, variants collapsed.
pub fn entries(symbols: &[Symbol]) -> Vec<Entry> {
    let mut out = Vec::new();
    for group in collapse(symbols) {
        out.push(entry(0, &group));
        let children: Vec<&Symbol> = group.iter().flat_map(|s| &s.children).collect();
        for child in collapse_refs(&children) {
            out.push(entry(1, &child));
        }
    }
    out
}

/// Symbols of one name and kind, in the order they first appear.
fn collapse(symbols: &[Symbol]) -> Vec<Vec<&Symbol>> {
    let refs: Vec<&Symbol> = symbols.iter().collect();
    collapse_refs(&refs)
}

fn collapse_refs<'a>(symbols: &[&'a Symbol]) -> Vec<Vec<&'a Symbol>> {
    let mut groups: Vec<Vec<&Symbol>> = Vec::new();
    let mut index: std::collections::HashMap<(&str, SymbolKind), usize> =
        std::collections::HashMap::new();
    for s in symbols {
        // A nameless symbol is its own entry: there is nothing to match.
        if s.name.is_empty() {
            groups.push(vec![s]);
            continue;
        }
        match index.get(&(s.name.as_str(), s.kind)) {
            Some(&i) => groups[i].push(s),
            None => {
                index.insert((s.name.as_str(), s.kind), groups.len());
                groups.push(vec![s]);
            }
        }
    }
    groups
}

/// A signature longer than this many characters is cut, ending in `…`:
/// a constructor with twenty keyword arguments would cost a map as much as
/// ten other files' first lines.
const MAX_SIGNATURE_CHARS: usize = 120;

fn entry(depth: u8, group: &[&Symbol]) -> Entry {
    let first = group[0];
    let mut text = one_line(&first.signature);
    if let Some((cut, _)) = text.char_indices().nth(MAX_SIGNATURE_CHARS) {
        text.truncate(cut);
        text.push('…');
    }
    if group.len() > 1 {
        let _ = write!(text, " ({} definitions)", group.len());
    }
    Entry {
        depth,
        name: first.name.clone(),
        text,
    }
}

/// A signature on one line, whitespace runs collapsed.
fn one_line(sig: &str) -> String {
    sig.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `entries` as text, for the per-content cache: one line each,
/// `depth \t name \t text` (the fields hold no tab or newline: the text is
/// folded by [`one_line`], the name is folded the same way).
pub fn encode(entries: &[Entry]) -> String {
    let mut out = String::new();
    for e in entries {
        let _ = writeln!(out, "{}\t{}\t{}", e.depth, one_line(&e.name), e.text);
    }
    out
}

/// The entries [`encode`] wrote; a malformed line is skipped.
pub fn decode(text: &str) -> Vec<Entry> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, '\t');
            let depth = parts.next()?.parse().ok()?;
            let name = parts.next()?.to_string();
            let text = parts.next()?.to_string();
            Some(Entry { depth, name, text })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::syntax::{Lang, parse};

    fn outline(lang: Lang, src: &str) -> Vec<(u8, String)> {
        let tree = parse(lang, src);
        entries(&tree.symbols)
            .into_iter()
            .map(|e| (e.depth, e.text))
            .collect()
    }

    #[test]
    fn preprocessor_variants_of_one_name_are_one_line() {
        let src = "#if defined(A)\n#define INLINE inline __attribute__((always_inline))\n\
                   #elif defined(B)\n#define INLINE __forceinline\n\
                   #else\n#define INLINE\n#endif\n\
                   #define OTHER 1\nint f(void);\nint f(void) { return 0; }\n";
        let got = outline(Lang::C, src);
        let inline: Vec<_> = got.iter().filter(|(_, t)| t.contains("INLINE")).collect();
        assert_eq!(inline.len(), 1, "{got:?}");
        // The C pre-pass drops the empty `#else` one.
        assert!(inline[0].1.ends_with(" (2 definitions)"), "{got:?}");
        assert!(
            got.contains(&(0, "int f(void) (2 definitions)".to_string())),
            "{got:?}"
        );
        assert_eq!(got.iter().filter(|(_, t)| t.contains("OTHER")).count(), 1);
        assert!(
            !got.iter()
                .any(|(_, t)| t.contains("OTHER") && t.contains("definitions"))
        );
    }

    #[test]
    fn long_signatures_are_cut_on_a_char_boundary() {
        let params: String = (0..40).map(|i| format!("é{i}: int, ")).collect();
        let got = outline(Lang::Python, &format!("def f({params}):\n    pass\n"));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1.chars().count(), MAX_SIGNATURE_CHARS + 1);
        assert!(got[0].1.starts_with("def f(é0: int, é1: int"), "{got:?}");
        assert!(got[0].1.ends_with('…'), "{got:?}");
    }

    #[test]
    fn round_trips_through_the_cache_text() {
        let e = vec![
            Entry {
                depth: 0,
                name: "A".into(),
                text: "class A (2 definitions)".into(),
            },
            Entry {
                depth: 1,
                name: "run".into(),
                text: "def run(self)".into(),
            },
        ];
        assert_eq!(decode(&encode(&e)), e);
        assert_eq!(decode("garbage\n0\tx\n"), vec![]);
    }
}
