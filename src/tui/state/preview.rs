//! The preview pane's own state: where it is scrolled, the raw view and
//! its cursor, the blocks of files outside the composition, the highlight
//! and the search. A leaf the `state` holds (it imports only plain data).

use std::collections::HashMap;
use std::sync::Arc;

use crate::tui::state::model::{Composed, FileBlock};
use crate::tui::state::tree::Row;

/// The preview pane's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PreviewState {
    pub scroll: usize,
    /// Showing the current file's raw text instead of the composition.
    pub raw: bool,
    pub raw_text: Option<(String, Arc<Vec<String>>)>,
    pub raw_cursor: usize,
    pub slice_anchor: Option<usize>,
    /// The blocks files outside the composition would add, by path (see
    /// `preview::block_of`; dropped when the preset changes).
    pub blocks: HashMap<String, Arc<FileBlock>>,
    /// Lines of the view shown in the symbol highlight (inclusive).
    pub highlight: Option<(usize, usize)>,
    /// The last search (`/`), highlighted in the lines shown.
    pub search: Option<PreviewSearch>,
}

impl PreviewState {
    /// The line the preview moves: the raw text's cursor, or the top of
    /// the lines shown.
    pub fn top(&self) -> usize {
        if self.raw {
            self.raw_cursor
        } else {
            self.scroll
        }
    }

    /// Bring line `line` of the lines shown into view: at the top of the
    /// preview, or under the raw text's cursor.
    pub fn set_top(&mut self, line: usize) {
        if self.raw {
            self.raw_cursor = line;
        } else {
            self.scroll = line;
        }
    }

    /// Scroll the composition to the heading of `row`'s file (a folder:
    /// of its first file); the raw text keeps its own cursor.
    pub fn follow_row(&mut self, row: Option<&Row>, composed: Option<&Composed>) {
        if self.raw {
            return;
        }
        let (Some(row), Some(composed)) = (row, composed) else {
            return;
        };
        let line = composed
            .files
            .iter()
            .find(|f| {
                f.path == row.path || (row.is_dir && f.path.starts_with(&format!("{}/", row.path)))
            })
            .map(|f| f.line);
        if let Some(line) = line {
            self.scroll = line;
        }
    }

    /// The current file's raw text arrived (`r`): its cursor at the top,
    /// no slice begun.
    pub fn show_raw(&mut self, path: String, lines: Arc<Vec<String>>) {
        self.raw_cursor = 0;
        self.slice_anchor = None;
        self.raw_text = Some((path, lines));
    }
}

/// The search in the preview (`/`, `n`, `N`): the query and the line of
/// the current match in the lines shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreviewSearch {
    pub query: String,
    pub line: Option<usize>,
}
