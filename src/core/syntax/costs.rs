//! What each symbol costs: the text masking it `hide` drops from its file's
//! masked view (its leading comment and decorators, its whole lines and the
//! blank lines after it, as `mask` removes it), with every byte counted
//! once. A symbol's text is cut into the pieces that are its own (between
//! its children) and the pieces of its children; each piece is counted
//! once and a symbol's cost is the sum over itself and everything nested
//! in it. So a class costs its header, its methods and what lies between
//! them: about what hiding the class takes off the gauge, as a method's
//! cost is about what hiding the method does (the counts of pieces add up
//! to the count of the whole up to a token or so where a piece ends,
//! because the tokenizer would merge across the cut).

use std::ops::Range;

use super::mask::{next_lead, whole_lines};
use super::text::indent_start;
use super::{Lang, Symbol, SymbolTree};

/// Where the costs of a file's symbols come from: per symbol, in
/// depth-first order (the symbols pane's), the byte ranges that are its
/// own, and how many symbols its subtree holds (itself included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CostPlan {
    /// Per symbol: the pieces of its hidden span outside its children's.
    pub own: Vec<Vec<Range<usize>>>,
    /// Per symbol: itself and its descendants, the next `subtree[i]`
    /// entries from `i`.
    pub subtree: Vec<usize>,
}

impl CostPlan {
    /// Every piece, in order: no two overlap, so counting each once counts
    /// every byte of the symbols once.
    pub fn pieces(&self) -> impl Iterator<Item = &Range<usize>> {
        self.own.iter().flatten()
    }

    /// Each symbol's cost from the count of each of its own pieces
    /// (`own_counts[i]`, the sum over symbol `i`'s pieces): its own plus
    /// its descendants'.
    pub fn totals(&self, own_counts: &[usize]) -> Vec<usize> {
        (0..self.own.len())
            .map(|i| {
                let end = (i + self.subtree[i]).min(own_counts.len());
                own_counts.get(i..end).map_or(0, |c| c.iter().sum())
            })
            .collect()
    }
}

/// The cost plan of `tree` over `source` (its parse).
pub fn plan(tree: &SymbolTree, source: &str) -> CostPlan {
    let mut planner = Planner {
        source,
        lang: tree.lang,
        plan: CostPlan {
            own: Vec::new(),
            subtree: Vec::new(),
        },
    };
    planner.siblings(0..source.len(), &tree.symbols);
    planner.plan
}

/// Each symbol's cost in depth-first order, counting every piece of
/// [`plan`] once with `count`.
pub fn symbol_costs(
    tree: &SymbolTree,
    source: &str,
    mut count: impl FnMut(&str) -> usize,
) -> Vec<usize> {
    let plan = plan(tree, source);
    let own: Vec<usize> = plan
        .own
        .iter()
        .map(|pieces| {
            pieces
                .iter()
                .filter_map(|r| source.get(r.clone()))
                .map(&mut count)
                .sum()
        })
        .collect();
    plan.totals(&own)
}

struct Planner<'a> {
    source: &'a str,
    lang: Lang,
    plan: CostPlan,
}

impl Planner<'_> {
    /// The symbols `children` inside `region`, each hidden as
    /// `mask::Masker::splice` hides one while its siblings show: the
    /// symbol's span from where the previous sibling ends, widened to its
    /// whole lines.
    fn siblings(&mut self, region: Range<usize>, children: &[Symbol]) -> Vec<Range<usize>> {
        let mut spans = Vec::new();
        let mut cursor = region.start;
        for (i, child) in children.iter().enumerate() {
            let span = child.spans.lead.max(cursor)..child.range.end.min(region.end);
            let hidden = if span.start > span.end {
                // Not rendered in its own place (mask skips it): nothing
                // of it to drop, but it keeps its row.
                span.start..span.start
            } else {
                let bounds = cursor..next_lead(children, i, region.end);
                let lines = last_lines(self.source, span.clone(), bounds, region.end);
                cursor = span.end;
                lines
            };
            self.symbol(child, hidden.clone());
            spans.push(hidden);
        }
        spans
    }

    /// Plan `symbol`, whose hidden span is `hidden`, and its descendants.
    fn symbol(&mut self, symbol: &Symbol, hidden: Range<usize>) {
        let at = self.plan.own.len();
        self.plan.own.push(Vec::new());
        self.plan.subtree.push(1);
        // Where mask renders the children: inside a Python body, else
        // the symbol's whole text.
        let region = match &symbol.spans.inner {
            Some(inner) if self.lang == Lang::Python => inner.clone(),
            _ => symbol.spans.lead..symbol.range.end,
        };
        let children = self.siblings(region, &symbol.children);
        self.plan.own[at] = outside(hidden, &children);
        self.plan.subtree[at] = self.plan.own.len() - at;
    }
}

/// [`whole_lines`], and for a symbol that ends its parent's region (a
/// Python class's last method) from the start of its first line too: what
/// is left of that line is whitespace, which the masked view's tidying
/// drops with the symbol.
fn last_lines(source: &str, span: Range<usize>, bounds: Range<usize>, end: usize) -> Range<usize> {
    let lines = whole_lines(source, span.clone(), bounds.clone());
    if lines != span || span.end != end {
        return lines;
    }
    match indent_start(source, span.start) {
        Some(start) if start >= bounds.start => start..span.end,
        _ => span,
    }
}

/// The parts of `whole` outside every range of `holes` (in order; any
/// overlap or part outside `whole` is ignored, so no byte is in two
/// results), empty parts left out.
fn outside(whole: Range<usize>, holes: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut cursor = whole.start;
    for hole in holes {
        let start = hole.start.clamp(cursor, whole.end);
        if start > cursor {
            out.push(cursor..start);
        }
        cursor = cursor.max(hole.end.min(whole.end));
    }
    if whole.end > cursor {
        out.push(cursor..whole.end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::MaskState;
    use crate::core::syntax::{Lang, masked, parse};
    use std::collections::BTreeMap;

    const PY: &str = "\
import os

class App:
    \"\"\"The app.\"\"\"

    def run(self):
        \"\"\"Run it.\"\"\"
        return 1

    def stop(self):
        return 2


def main():
    App().run()
";

    fn bytes(text: &str) -> usize {
        text.len()
    }

    /// Counting bytes: every symbol costs the bytes hiding it drops from
    /// the masked view, and a class its methods' too, each byte once.
    #[test]
    fn a_cost_is_what_hiding_the_symbol_drops_each_byte_once() {
        let tree = parse(Lang::Python, PY);
        let costs = symbol_costs(&tree, PY, bytes);
        let paths: Vec<&str> = tree
            .symbols
            .iter()
            .flat_map(|s| s.iter())
            .map(|s| s.path.as_str())
            .collect();
        assert_eq!(paths, ["App", "App.run", "App.stop", "main"]);
        assert_eq!(masked(&tree, PY, MaskState::Def, &BTreeMap::new()), PY);
        let drops: Vec<usize> = paths
            .iter()
            .map(|path| {
                let mask = BTreeMap::from([(path.to_string(), MaskState::Hide)]);
                PY.len() - masked(&tree, PY, MaskState::Def, &mask).len()
            })
            .collect();
        // By hand: `run` is its 4 lines and the blank line after (19 + 22
        // + 17 + 1 bytes); `stop` its 2 lines (20 + 16); `main` its 2
        // lines (12 + 16); the class its header and docstring line and
        // the blank line (11 + 19 + 1), both methods and the 3 line breaks
        // after `stop`.
        assert_eq!(costs, [31 + 59 + 36 + 3, 59, 36, 28]);
        // What hiding drops: the same, but for the last symbol of a body
        // or of the file, whose hiding also folds the blank lines around
        // it (the view keeps one blank line at most, none at the end).
        assert_eq!(drops, [129, 59, 36 + 3, 28 + 2]);
        // Each byte once: the pieces never overlap.
        let plan = plan(&tree, PY);
        let mut pieces: Vec<_> = plan.pieces().cloned().collect();
        pieces.sort_by_key(|r| r.start);
        assert!(
            pieces.windows(2).all(|w| w[0].end <= w[1].start),
            "{pieces:?}"
        );
        assert_eq!(plan.subtree, [3, 1, 1, 1]);
    }

    /// With a tokenizer the pieces are counted apart and summed: here the
    /// class's cost is the count of its text whole.
    #[test]
    fn tokens_of_the_pieces_add_up_to_the_whole() {
        use crate::core::model::TokenizerKind::O200k;
        use crate::core::tokens::count;
        let tree = parse(Lang::Python, PY);
        let costs = symbol_costs(&tree, PY, |t| count(O200k, t));
        assert_eq!(costs, [33, 15, 9, 8]);
        let class = PY.find("class").unwrap_or(0)..PY.find("def main").unwrap_or(0);
        assert_eq!(count(O200k, &PY[class]), 33);
    }

    #[test]
    fn outside_leaves_out_the_holes_once() {
        assert_eq!(outside(0..10, &[2..4, 6..8]), [0..2, 4..6, 8..10]);
        let all = [0..10, 3..5];
        assert_eq!(outside(0..10, &all), Vec::<Range<usize>>::new());
        // Overlapping or stray holes never make a byte count twice.
        assert_eq!(outside(0..10, &[2..6, 4..8, 12..14]), [0..2, 8..10]);
        assert_eq!(outside(5..5, &[]), Vec::<Range<usize>>::new());
    }

    /// C++: a namespace holds its functions; braces are its own text.
    #[test]
    fn a_namespace_costs_its_functions_and_its_braces() {
        let src = "namespace n {\nint f() { return 1; }\n\nint g() { return 2; }\n}\n";
        let tree = parse(Lang::Cpp, src);
        let costs = symbol_costs(&tree, src, bytes);
        // Its own text: the opening line, the blank line between the
        // functions (which belongs to neither) and the closing line.
        assert_eq!(costs, [14 + 1 + 2 + 22 + 22, 22, 22]);
    }
}
