//! The symbols pane's list: a file's symbol tree flattened depth-first,
//! each with its nesting depth, in the order the pane shows them.

pub mod render;

use crate::core::syntax::{Symbol, SymbolTree};
use crate::tui::state::model::SymbolsView;

/// Every symbol of `tree`, depth-first, with its depth.
pub fn flat_symbols(tree: &SymbolTree) -> Vec<(usize, &Symbol)> {
    let mut out = Vec::new();
    fn walk<'a>(symbols: &'a [Symbol], depth: usize, out: &mut Vec<(usize, &'a Symbol)>) {
        for s in symbols {
            out.push((depth, s));
            walk(&s.children, depth + 1, out);
        }
    }
    walk(&tree.symbols, 0, &mut out);
    out
}

/// The symbols pane: the current file's symbols and the cursor over them.
#[derive(Debug, Default)]
pub struct SymbolsPane {
    pub view: Option<SymbolsView>,
    pub cursor: usize,
}

impl SymbolsPane {
    /// How many rows the pane lists for the current file.
    pub fn count(&self) -> usize {
        self.view
            .as_ref()
            .and_then(|s| s.tree.as_ref())
            .map_or(0, |t| flat_symbols(t).len())
    }
}
