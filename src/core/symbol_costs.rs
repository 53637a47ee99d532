//! What each symbol of a file costs in tokens (the symbols pane's column),
//! counted once per content and tokenizer and then kept, in memory and in
//! the disk cache, as every other count is: revisiting a file, or opening
//! it in a new run, counts nothing. The rule of what a cost is (the text
//! hiding the symbol drops, each byte counted once, a container's cost
//! holding its children's) is `core::syntax::costs`; this module counts
//! its pieces and keeps the result.
//!
//! The entry is keyed by the file's content hash, its path (which picks
//! the grammar), the C/C++ macros and the tokenizer (`Sources::derived`'s
//! key): the symbols' spans follow from those, so a changed file, another
//! tokenizer or other macros never see an older entry. The entry also
//! names the content hash it was counted from and how many symbols it
//! has, and is served only when both match the parse at hand: a file
//! that changes while it is read is counted again, never given another
//! version's numbers.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::core::model::TokenizerKind;
use crate::core::sources::Sources;
use crate::core::syntax::costs;
use crate::core::syntax::{Symbol, SymbolKind, SymbolTree};
use crate::core::tokens;

/// A file's symbols and each one's cost, in depth-first order (the
/// symbols pane's), counted with `tokenizer`.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolCosts {
    pub tree: Arc<SymbolTree>,
    pub costs: Vec<usize>,
    pub tokenizer: TokenizerKind,
}

/// `symbols` for JSON (each with `path`, `name`, `kind`, `start_line`,
/// `end_line`, `signature`, `tokens`, `children`), `tokens` being each
/// one's cost from `costs` in depth-first order as [`SymbolCosts::costs`]
/// has them (left out where `costs` runs short): what `ctxcurate symbols
/// --json` and the MCP `symbols` tool give.
pub fn with_costs<'a>(symbols: &'a [Symbol], costs: &[usize]) -> Vec<CostedSymbol<'a>> {
    costed(symbols, &mut costs.iter())
}

/// A symbol as [`with_costs`] gives it.
#[derive(Debug, Serialize)]
pub struct CostedSymbol<'a> {
    path: &'a str,
    name: &'a str,
    kind: SymbolKind,
    start_line: usize,
    end_line: usize,
    signature: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<usize>,
    children: Vec<CostedSymbol<'a>>,
}

fn costed<'a>(symbols: &'a [Symbol], costs: &mut std::slice::Iter<usize>) -> Vec<CostedSymbol<'a>> {
    symbols
        .iter()
        .map(|s| {
            // Its cost comes before its children's.
            let tokens = costs.next().copied();
            CostedSymbol {
                path: &s.path,
                name: &s.name,
                kind: s.kind,
                start_line: s.start_line,
                end_line: s.end_line,
                signature: &s.signature,
                tokens,
                children: costed(&s.children, costs),
            }
        })
        .collect()
}

/// How many times a file that changes under the reader is read again
/// before its symbols are given without costs.
const ATTEMPTS: usize = 3;

/// The symbols of `rel` and their costs by `tokenizer`; `None` for a file
/// without a grammar or one that cannot be read. `costs` is empty only if
/// the file kept changing while it was read.
pub fn symbol_costs(
    sources: &Sources,
    root: &Path,
    rel: &str,
    tokenizer: TokenizerKind,
) -> Option<SymbolCosts> {
    symbol_costs_with(sources, root, rel, tokenizer, |text| {
        tokens::count(tokenizer, text)
    })
}

/// [`symbol_costs`] counting with `count` (a test counts the counts).
pub fn symbol_costs_with(
    sources: &Sources,
    root: &Path,
    rel: &str,
    tokenizer: TokenizerKind,
    count: impl Fn(&str) -> usize + Sync,
) -> Option<SymbolCosts> {
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let file = sources.file(root, rel);
        let text = file.text()?;
        let tree = sources.symbols(root, rel)?;
        // The tree is the parse of `file` only if the file did not change
        // between the two reads (a change makes a new entry).
        if !Arc::ptr_eq(&file, &sources.file(root, rel)) {
            last = Some(tree);
            continue;
        }
        let hash = tokens::hex(file.hash());
        let n = tree.symbols.iter().map(|s| s.iter().count()).sum::<usize>();
        let name = format!("symbol-costs/1/{tokenizer}");
        let stored = sources.derived_from_text(root, rel, &name, |_| {
            encode(&hash, &counted(&tree, text, &count))
        });
        let costs = match stored.as_deref().and_then(|s| decode(s, &hash, n)) {
            Some(costs) => costs,
            // Kept for another version of the file (it changed while the
            // entry was made): count this one, keep nothing.
            None => counted(&tree, text, &count),
        };
        return Some(SymbolCosts {
            tree,
            costs,
            tokenizer,
        });
    }
    last.map(|tree| SymbolCosts {
        tree,
        costs: Vec::new(),
        tokenizer,
    })
}

/// The costs, each piece of the plan counted once (the pieces on every
/// core: a large file has thousands).
fn counted(tree: &SymbolTree, text: &str, count: &(impl Fn(&str) -> usize + Sync)) -> Vec<usize> {
    let plan = costs::plan(tree, text);
    let own: Vec<usize> = plan
        .own
        .par_iter()
        .map(|pieces| {
            pieces
                .iter()
                .filter_map(|r| text.get(r.clone()))
                .map(count)
                .sum()
        })
        .collect();
    plan.totals(&own)
}

/// `{hash} {n} {cost} {cost} …`: the content hash counted, how many
/// symbols, their costs.
fn encode(hash: &str, costs: &[usize]) -> String {
    let mut out = format!("{hash} {}", costs.len());
    for c in costs {
        out.push(' ');
        out.push_str(&c.to_string());
    }
    out
}

/// The costs of an entry made for content `hash` with `n` symbols; `None`
/// for anything else.
fn decode(entry: &str, hash: &str, n: usize) -> Option<Vec<usize>> {
    let mut words = entry.split(' ');
    if words.next()? != hash || words.next()?.parse::<usize>().ok()? != n {
        return None;
    }
    let costs: Vec<usize> = words.map(|w| w.parse().ok()).collect::<Option<_>>()?;
    (costs.len() == n).then_some(costs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::store::DiskCache;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const PY: &str = "class App:\n    def run(self):\n        return 1\n\n    def stop(self):\n        return 2\n";

    /// Each symbol gets its cost in depth-first order, in the fields'
    /// documented order; costs that run short leave the rest without one.
    #[test]
    fn symbols_with_costs_in_depth_first_order() {
        let tree = crate::core::syntax::parse(crate::core::syntax::Lang::Python, PY);
        let json = serde_json::to_string(&with_costs(&tree.symbols, &[7, 3, 4])).expect("json");
        assert!(
            json.starts_with(r#"[{"path":"App","name":"App","kind":"class","start_line":1,"end_line":6,"signature":"class App","tokens":7,"children":[{"path":"App.run""#),
            "{json}"
        );
        assert!(json.contains(r#""path":"App.stop","name":"stop","kind":"method","start_line":5,"end_line":6,"signature":"def stop(self)","tokens":4,"children":[]"#), "{json}");
        let short = serde_json::to_string(&with_costs(&tree.symbols, &[7])).expect("json");
        assert_eq!(short.matches("tokens").count(), 1, "{short}");
    }

    /// Counts with o200k and tallies the texts counted.
    fn counting(calls: &AtomicUsize) -> impl Fn(&str) -> usize + Sync + '_ {
        |text| {
            calls.fetch_add(1, Ordering::Relaxed);
            tokens::count(TokenizerKind::O200k, text)
        }
    }

    #[test]
    fn a_revisit_and_a_new_run_count_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::write(root.join("app.py"), PY).expect("write");
        let disk = || DiskCache::at(&root.join("cache"));
        let calls = AtomicUsize::new(0);
        let o200k = TokenizerKind::O200k;
        let sources = Sources::with_disk(disk());
        let first = symbol_costs_with(&sources, root, "app.py", o200k, counting(&calls));
        let first = first.expect("a Python file has symbols");
        assert_eq!(first.costs.len(), 3);
        let counted_once = calls.load(Ordering::Relaxed);
        assert!(counted_once >= 3, "{counted_once}");
        // The same file again: from memory.
        let again = symbol_costs_with(&sources, root, "app.py", o200k, counting(&calls));
        assert_eq!(again.map(|c| c.costs), Some(first.costs.clone()));
        assert_eq!(calls.load(Ordering::Relaxed), counted_once);
        // A new run over the same disk cache: from disk.
        let fresh = Sources::with_disk(disk());
        let again = symbol_costs_with(&fresh, root, "app.py", o200k, counting(&calls));
        assert_eq!(again.map(|c| c.costs), Some(first.costs.clone()));
        assert_eq!(calls.load(Ordering::Relaxed), counted_once);
        // And what it is: the tokenizer's counts of the pieces.
        assert_eq!(
            symbol_costs(&Sources::new(), root, "app.py", o200k).map(|c| c.costs),
            Some(first.costs)
        );
    }

    #[test]
    fn another_tokenizer_or_content_is_counted_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::write(root.join("app.py"), PY).expect("write");
        let sources = Sources::new();
        let o200k = symbol_costs(&sources, root, "app.py", TokenizerKind::O200k);
        assert_eq!(o200k.map(|c| c.costs), Some(vec![23, 10, 9]));
        // Another tokenizer is another entry: counted, not served o200k's.
        let calls = AtomicUsize::new(0);
        let estimate = symbol_costs_with(&sources, root, "app.py", TokenizerKind::Estimate, |t| {
            calls.fetch_add(1, Ordering::Relaxed);
            tokens::count(TokenizerKind::Estimate, t)
        });
        let estimate = estimate.expect("costs");
        assert_eq!(estimate.tokenizer, TokenizerKind::Estimate);
        assert!(calls.load(Ordering::Relaxed) >= 3);
        // chars / 4 per piece: `stop`'s 2 lines are 36 characters.
        assert_eq!(estimate.costs[2], 9);
        // A longer method (a new size: the file is read again).
        std::fs::write(
            root.join("app.py"),
            PY.replace("return 2", "return 2 + 2 + 2 + 2"),
        )
        .expect("write");
        let changed = symbol_costs(&sources, root, "app.py", TokenizerKind::Estimate);
        assert_eq!(changed.map(|c| c.costs[2]), Some(12));
    }

    #[test]
    fn an_entry_for_another_content_or_shape_is_refused() {
        let costs = [3, 1, 2];
        let entry = encode("ab", &costs);
        assert_eq!(entry, "ab 3 3 1 2");
        assert_eq!(decode(&entry, "ab", 3), Some(costs.to_vec()));
        assert_eq!(decode(&entry, "cd", 3), None);
        assert_eq!(decode(&entry, "ab", 4), None);
        assert_eq!(decode("ab 3 3 1", "ab", 3), None);
        assert_eq!(decode("ab 3 3 x 2", "ab", 3), None);
        assert_eq!(decode("", "ab", 0), None);
    }

    #[test]
    fn no_grammar_or_no_file_has_no_costs() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notes.txt"), "hello\n").expect("write");
        let sources = Sources::new();
        for rel in ["notes.txt", "missing.py"] {
            assert_eq!(
                symbol_costs(&sources, dir.path(), rel, TokenizerKind::O200k),
                None
            );
        }
    }
}
