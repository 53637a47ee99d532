//! The repo map (docs/ARCHITECTURE.md, "Discovery"): the project's files in rank order, the top
//! ones with a compact outline of their symbols, the rest as bare paths.
//! Its size is found by binary search over how many files get an outline
//! and then how many are listed, counting the exact tokens of every
//! candidate, so the map never exceeds its budget and stops only where one
//! more line would not fit.

use std::collections::HashSet;
use std::fmt::Write;
use std::sync::Arc;

use crate::core::discovery::graph::Ranked;
use crate::core::model::TokenizerKind;
use crate::core::sources::Codebase;
use crate::core::syntax::Symbol;
use crate::core::tokens;
use crate::text::sanitize::escape_line;

/// The heading of the map section.
pub const HEADING: &str = "## Repo Map";
/// At most this many outline lines per file; a longer outline ends with a
/// line saying how many were left out.
const MAX_OUTLINE_LINES: usize = 30;

/// A sized repo map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RepoMap {
    /// The section, heading included; empty when not even the heading fits.
    pub text: String,
    /// Exact tokens of `text`.
    pub tokens: usize,
    /// Files shown with an outline.
    pub outlined: usize,
    /// Files listed, outlined ones included.
    pub listed: usize,
    /// Files that could have been listed.
    pub candidates: usize,
}

/// The map of `ranked` (minus `skip`) that best fills `budget` tokens,
/// the outlines read from `codebase`.
pub fn build(
    codebase: &Codebase,
    ranked: &[Ranked],
    skip: &HashSet<&str>,
    budget: usize,
    tokenizer: TokenizerKind,
) -> RepoMap {
    let files: Vec<&str> = ranked
        .iter()
        .map(|r| r.path.as_str())
        .filter(|p| !skip.contains(p))
        .collect();
    let mut sizer = Sizer {
        codebase: *codebase,
        files: &files,
        outlines: vec![None; files.len()],
        tokenizer,
        budget,
    };
    sizer.fit()
}

struct Sizer<'a> {
    codebase: Codebase<'a>,
    files: &'a [&'a str],
    /// Each file's outline block, rendered on first use.
    outlines: Vec<Option<Arc<str>>>,
    tokenizer: TokenizerKind,
    budget: usize,
}

impl Sizer<'_> {
    fn fit(&mut self) -> RepoMap {
        let n = self.files.len();
        let empty = self.measure(0, 0);
        if empty.tokens > self.budget || n == 0 {
            return RepoMap {
                candidates: n,
                ..RepoMap::default()
            };
        }
        // Outlined files first: gallop to an upper bound, then bisect.
        let fits = |s: &mut Self, k: usize| s.measure(k, k).tokens <= s.budget;
        let mut lo = 0; // fits
        let mut hi = 1; // first size not known to fit
        while hi <= n && fits(self, hi) {
            lo = hi;
            hi *= 2;
        }
        let mut hi = hi.min(n + 1);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(self, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let k = lo;
        // Then bare paths after them. Every line is at least one token,
        // which bounds the search.
        let mut m = k;
        let mut over = n.min(k + self.budget) + 1;
        while over - m > 1 {
            let mid = m + (over - m) / 2;
            if self.measure(k, mid).tokens <= self.budget {
                m = mid;
            } else {
                over = mid;
            }
        }
        if m == 0 {
            // A heading over no files helps nobody.
            return RepoMap {
                candidates: n,
                ..RepoMap::default()
            };
        }
        self.measure(k, m)
    }

    /// The map with the first `k` files outlined and the first `m` listed.
    fn measure(&mut self, k: usize, m: usize) -> RepoMap {
        let mut body = String::new();
        let mut outlined = 0;
        for i in 0..m {
            body.push('\n');
            // A name with a newline must not forge a line of the map.
            body.push_str(&escape_line(self.files[i]));
            if i < k {
                let block = self.outline(i);
                outlined += usize::from(!block.is_empty());
                body.push_str(block);
            }
        }
        let mut text = format!(
            "{HEADING}\n\nProject files ranked by relevance \
             ({outlined} with outlines, {m} of {} listed):\n{body}\n",
            self.files.len()
        );
        text.shrink_to_fit();
        RepoMap {
            tokens: tokens::count(self.tokenizer, &text),
            text,
            outlined,
            listed: m,
            candidates: self.files.len(),
        }
    }

    fn outline(&mut self, i: usize) -> &str {
        if self.outlines[i].is_none() {
            let Codebase { root, sources, .. } = self.codebase;
            let block = sources
                .derived(root, self.files[i], "repo-map-outline", |tree| {
                    outline_block(&tree.symbols)
                })
                .unwrap_or_else(|| Arc::from(""));
            self.outlines[i] = Some(block);
        }
        self.outlines[i].as_deref().unwrap_or_default()
    }
}

/// Top-level symbols and their direct children, one signature a line,
/// each line starting with a newline.
fn outline_block(symbols: &[Symbol]) -> String {
    let mut lines = Vec::new();
    for s in symbols {
        lines.push(format!("  {}", one_line(&s.signature)));
        for c in &s.children {
            lines.push(format!("    {}", one_line(&c.signature)));
        }
    }
    let mut out = String::new();
    let shown = lines.len().min(MAX_OUTLINE_LINES);
    for line in &lines[..shown] {
        out.push('\n');
        out.push_str(line);
    }
    if lines.len() > shown {
        let _ = write!(out, "\n  … {} more", lines.len() - shown);
    }
    out
}

/// A signature on one line, whitespace runs collapsed.
fn one_line(sig: &str) -> String {
    sig.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sources::Sources;

    fn ranked(paths: &[&str]) -> Vec<Ranked> {
        paths
            .iter()
            .map(|p| Ranked {
                path: p.to_string(),
                score: 0.0,
            })
            .collect()
    }

    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..40 {
            let body: String = (0..5)
                .map(|j| format!("def function_{i}_{j}(a, b):\n    return a + b\n\n"))
                .collect();
            std::fs::write(dir.path().join(format!("m{i:02}.py")), body).unwrap();
        }
        dir
    }

    #[test]
    fn never_over_and_tight() {
        let dir = project();
        let names: Vec<String> = (0..40).map(|i| format!("m{i:02}.py")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let ranked = ranked(&refs);
        let sources = Sources::new();
        let codebase = Codebase::new(dir.path(), &sources);
        for budget in [0, 10, 40, 100, 333, 1000, 5000] {
            let map = build(
                &codebase,
                &ranked,
                &HashSet::new(),
                budget,
                TokenizerKind::O200k,
            );
            assert!(map.tokens <= budget, "{budget}: {}", map.tokens);
            assert_eq!(map.tokens, tokens::count(TokenizerKind::O200k, &map.text));
            if map.listed < 40 && budget > 0 {
                // One more path would not fit.
                let mut sizer = Sizer {
                    codebase,
                    files: &refs,
                    outlines: vec![None; 40],
                    tokenizer: TokenizerKind::O200k,
                    budget,
                };
                let more = sizer.measure(map.outlined, map.listed + 1);
                assert!(more.tokens > budget, "{budget}: could list more");
            }
        }
        let all = build(
            &codebase,
            &ranked,
            &HashSet::new(),
            100_000,
            TokenizerKind::O200k,
        );
        assert_eq!((all.outlined, all.listed), (40, 40));
        assert!(all.text.contains("m00.py\n  def function_0_0(a, b)\n"));
    }

    #[test]
    fn skipped_files_are_not_listed() {
        let dir = project();
        let sources = Sources::new();
        let skip: HashSet<&str> = ["m00.py"].into_iter().collect();
        let map = build(
            &Codebase::new(dir.path(), &sources),
            &ranked(&["m00.py", "m01.py"]),
            &skip,
            1000,
            TokenizerKind::O200k,
        );
        assert!(!map.text.contains("m00.py"));
        assert!(map.text.contains("m01.py"));
        assert_eq!(map.candidates, 1);
    }
}
