//! The preview pane's own state: where it is scrolled, the raw view and
//! its cursor, the blocks of files outside the composition, the highlight
//! and the search. A leaf the `state` holds (it imports only plain data).

use std::collections::HashMap;
use std::sync::Arc;

use crate::tui::state::model::FileBlock;

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

/// The search in the preview (`/`, `n`, `N`): the query and the line of
/// the current match in the lines shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreviewSearch {
    pub query: String,
    pub line: Option<usize>,
}
