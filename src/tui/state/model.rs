//! The TUI's plain data: what the worker's jobs send back (a composition
//! and where each file stands in it, a file's symbols), text waiting to be
//! copied, and what a discovery proposes. A leaf of the TUI's module graph:
//! it imports no other TUI module, so the messages, the state and
//! rendering can all use it (see docs/ARCHITECTURE.md, "src/tui").

use std::collections::HashMap;
use std::sync::Arc;

use crate::core::compose::Composition;
use crate::core::discovery::pack::PackStats;
use crate::core::model::{TokenizerKind, ViewMode};
use crate::core::secrets::Finding;
use crate::core::syntax::SymbolTree;

/// Text held back from the clipboard until the user confirms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingCopy {
    pub text: String,
    pub label: String,
    pub tokens: usize,
    pub tokenizer: TokenizerKind,
    pub findings: Vec<Finding>,
    /// When the question opened: a confirm arriving sooner is refused
    /// (see `overlays::CONFIRM_PAUSE`).
    pub opened: std::time::Instant,
}

/// One file's place in the composition.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedFile {
    pub path: String,
    /// How it was rendered (`cache::render_key`).
    pub key: String,
    /// Line of its `### path` heading in the composed text.
    pub line: usize,
    pub tokens: usize,
    pub error: bool,
    /// Its summary is in the on-disk cache.
    pub summary_cached: bool,
    /// Slices that no longer resolve (shown as notes, never as lines).
    pub stale_slices: usize,
    /// The mode its block was rendered in (after fallbacks).
    pub mode: ViewMode,
}

/// The latest composition, from the worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    pub generation: u64,
    pub text: Arc<str>,
    /// The text split into lines (for the preview).
    pub lines: Arc<Vec<String>>,
    pub files: Vec<ComposedFile>,
    /// Path → index into `files`.
    pub index: HashMap<String, usize>,
    pub total_tokens: usize,
    /// `total_tokens` counts the whole text (else it sums the files).
    pub exact: bool,
    /// Files of the preset left out as binary or oversize, sorted.
    pub skipped: Vec<String>,
}

impl Composed {
    /// `true` when the preset includes `path` but the composition left it
    /// out as binary or oversize.
    pub fn is_skipped(&self, path: &str) -> bool {
        self.skipped
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }
}

/// The symbols pane's content.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolsView {
    pub path: String,
    /// `None`: the file type has no grammar (or could not be read).
    pub tree: Option<Arc<SymbolTree>>,
}

/// What the last discovery proposed.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// Files the pack includes that the preset does not, with the mode
    /// they were packed in, sorted by path.
    pub proposed: Vec<(String, ViewMode)>,
    /// The preset's own files the pack reduced (`Some(mode)`) or left out
    /// (`None`) to fit the budget: accepting applies these too, so the
    /// accepted preset composes to the packed total.
    pub changed: Vec<(String, Option<ViewMode>)>,
    pub stats: PackStats,
    /// Files the pack dropped for lack of room.
    pub dropped: usize,
    /// The packed composition itself: while the proposals are shown, the
    /// preview shows it, the gauge counts it, and `y` and `w` copy and
    /// write exactly it.
    pub composition: Arc<Composition>,
    /// The tokens of the pack's repo map (0: none): accepting keeps it as
    /// the preset's `repo_map`, so the preset composes to the same map.
    pub map_tokens: usize,
}

impl Discovery {
    /// How many proposed files folder `dir` holds.
    pub fn count_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self
            .proposed
            .partition_point(|(p, _)| p.as_str() < prefix.as_str());
        self.proposed[start..]
            .iter()
            .take_while(|(p, _)| p.starts_with(&prefix))
            .count()
    }

    /// The proposed mode of `path`, if it is proposed.
    pub fn mode_of(&self, path: &str) -> Option<ViewMode> {
        self.proposed
            .binary_search_by(|(p, _)| p.as_str().cmp(path))
            .ok()
            .map(|i| self.proposed[i].1)
    }
}

/// The changed files marked in the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedMarks {
    /// What they were compared with (`HEAD`).
    pub against: String,
    /// The changed files the walk shows, sorted.
    pub paths: Vec<String>,
}

impl ChangedMarks {
    /// `true` when `path` is one of the changed files.
    pub fn contains(&self, path: &str) -> bool {
        self.paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }

    /// How many changed files folder `dir` holds.
    pub fn count_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self.paths.partition_point(|p| p.as_str() < prefix.as_str());
        self.paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .count()
    }
}

/// What a file the composition does not hold would add to it: its block
/// rendered by the core exactly as `build` renders an included file
/// (`core::compose::render_file`, the `Y` path), for the preview.
#[derive(Debug, Clone, PartialEq)]
pub struct FileBlock {
    pub path: String,
    /// The render key of the entry it would have (`cache::render_key`).
    pub key: String,
    /// The composition it was made for (the preset as it was).
    pub generation: u64,
    /// The mode it renders in (after fallbacks: `summary` for a file
    /// without a grammar, say).
    pub mode: ViewMode,
    /// The block as the composition would hold it, split into lines.
    pub lines: Arc<Vec<String>>,
    /// Tokens of the block.
    pub tokens: usize,
    /// Why it cannot be shown (unreadable, binary, too large).
    pub problem: Option<String>,
}

/// The search in the preview (`/`, `n`, `N`): the query and the line of
/// the current match in the lines shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreviewSearch {
    pub query: String,
    pub line: Option<usize>,
}
