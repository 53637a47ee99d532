//! The symbols pane: a file's symbol tree flattened depth-first, each with
//! its nesting depth and its size in tokens, in the order the pane shows
//! them; the cursor over them, and the filter `/` types (its keys are
//! `tui::symbols::filter`): while one is set, the pane lists and the keys
//! move over the matching symbols only.

use crate::core::model::TokenizerKind;
use crate::core::syntax::{Symbol, SymbolTree};
use crate::core::views;
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

/// The symbols pane: the current file's symbols, the cursor over them
/// (an index into [`flat_symbols`], whatever the filter), and the filter.
#[derive(Debug, Default)]
pub struct SymbolsPane {
    pub view: Option<SymbolsView>,
    pub cursor: usize,
    /// Symbols whose path contains this (any case) are listed; empty: all.
    pub filter: String,
    /// `/` was pressed: typed keys go to the filter until Enter or Esc.
    pub typing: bool,
    /// The file and tokenizer whose symbols were asked for last and have
    /// not come yet.
    pub asked: Option<(String, TokenizerKind)>,
}

impl SymbolsPane {
    /// The worker read the symbols of `view.path`: they show if that is
    /// still the file under the tree cursor (`current`) and they were
    /// counted with the active `tokenizer` (an older answer is dropped:
    /// the newer one is on its way, see [`SymbolsPane::to_ask`]). The
    /// cursor stays on its symbol when the same file's symbols come again
    /// (new costs after `T`), else goes to the first one listed. The
    /// filter stays until Esc clears it, as the tree's does (the pane's
    /// title names it).
    pub fn show(&mut self, current: Option<&str>, tokenizer: TokenizerKind, view: SymbolsView) {
        if current != Some(view.path.as_str()) || view.tokenizer != tokenizer {
            return;
        }
        if self.asked.as_ref() == Some(&(view.path.clone(), view.tokenizer)) {
            self.asked = None;
        }
        let same_file = self.view.as_ref().is_some_and(|v| v.path == view.path);
        self.view = Some(view);
        if !(same_file && self.cursor < self.count()) {
            self.cursor = self.visible().first().copied().unwrap_or(0);
        }
    }

    /// The file whose symbols to ask the worker for, so that the pane
    /// shows those of `current` counted with `tokenizer`; `None` when it
    /// does, or (unless `again`: the file may have changed) when they
    /// were asked for already. Another file's symbols go at once; this
    /// file's stay, cursor and all, until the new costs come.
    pub fn to_ask(
        &mut self,
        current: Option<&str>,
        tokenizer: TokenizerKind,
        again: bool,
    ) -> Option<String> {
        let Some(path) = current else {
            self.view = None;
            return None;
        };
        let wanted = (path.to_string(), tokenizer);
        match &self.view {
            Some(v) if v.path == path && v.tokenizer == tokenizer => return None,
            Some(v) if v.path == path => {}
            _ => self.view = None,
        }
        if !again && self.asked.as_ref() == Some(&wanted) {
            return None;
        }
        self.asked = Some(wanted);
        Some(path.to_string())
    }

    /// Whether `path` has a grammar: its extension says; for a name
    /// without one, this pane, once the worker read the file (its `#!`
    /// line names the language); before that, every mode is kept (the
    /// render falls back to the summary if it has none).
    pub fn has_grammar(&self, path: &str) -> bool {
        views::grammar_by_name(path).unwrap_or_else(|| {
            self.view
                .as_ref()
                .filter(|v| v.path == path)
                .is_none_or(|v| v.tree.is_some())
        })
    }

    /// How many symbols the file has (filtered or not).
    pub fn count(&self) -> usize {
        self.tree().map_or(0, |t| flat_symbols(t).len())
    }

    fn tree(&self) -> Option<&SymbolTree> {
        self.view.as_ref().and_then(|s| s.tree.as_deref())
    }

    /// The rows the pane lists: indices into [`flat_symbols`] of the
    /// symbols that match the filter (all of them without one).
    pub fn visible(&self) -> Vec<usize> {
        let Some(tree) = self.tree() else {
            return Vec::new();
        };
        let needle = self.filter.to_lowercase();
        flat_symbols(tree)
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| needle.is_empty() || s.path.to_lowercase().contains(&needle))
            .map(|(i, _)| i)
            .collect()
    }

    /// The symbol under the cursor, if it is listed (a filter that
    /// matches nothing leaves none: the mask keys then do nothing).
    pub fn selected(&self) -> Option<&Symbol> {
        let tree = self.tree()?;
        if !self.visible().contains(&self.cursor) {
            return None;
        }
        flat_symbols(tree).get(self.cursor).map(|(_, s)| *s)
    }

    /// The cursor moved to row `row` of the listed ones (clamped).
    pub fn go_to_row(&mut self, row: usize) {
        let visible = self.visible();
        if let Some(i) = visible.get(row.min(visible.len().saturating_sub(1))) {
            self.cursor = *i;
        }
    }

    /// The cursor's row among the listed ones (0 when it is not listed).
    pub fn row(&self) -> usize {
        self.visible()
            .iter()
            .position(|i| *i == self.cursor)
            .unwrap_or(0)
    }
}
