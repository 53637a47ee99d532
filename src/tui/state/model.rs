//! The TUI's plain data: what the worker's jobs send back (a composition
//! and where each file stands in it, a file's symbols, a file's block for
//! the preview) and text waiting to be copied. A leaf of the TUI's module graph:
//! it imports no other TUI module, so the messages, the state and
//! rendering can all use it (see docs/ARCHITECTURE.md, "src/tui").

use std::collections::HashMap;
use std::sync::Arc;

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
    /// The first finding shown: the list scrolls when it is longer than
    /// the screen has room for.
    pub scroll: usize,
}

impl PendingCopy {
    /// The question's height on a screen `height` rows tall: its findings,
    /// a heading, a blank line, the keys and the border, as the panes
    /// allow (the gauge and the status line stay in sight, with a row of
    /// the panes above and below).
    pub fn height(&self, height: u16) -> u16 {
        let wanted = u16::try_from(self.findings.len().saturating_add(5)).unwrap_or(u16::MAX);
        wanted.min(height.saturating_sub(4)).max(6)
    }

    /// How many findings fit at once on a screen `height` rows tall.
    pub fn rows_shown(&self, height: u16) -> usize {
        usize::from(self.height(height).saturating_sub(5))
            .min(self.findings.len())
            .max(1)
    }

    /// The last useful scroll: the last page of findings.
    pub fn max_scroll(&self, height: u16) -> usize {
        self.findings.len().saturating_sub(self.rows_shown(height))
    }
}

/// Why a copy did not happen: the message for the status line and, when
/// the text was only too large for the terminal's OSC 52 cap, what a
/// smaller copy (the output file's path) needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyFailure {
    pub message: String,
    pub over_cap: Option<OverCap>,
}

impl From<String> for CopyFailure {
    fn from(message: String) -> Self {
        CopyFailure {
            message,
            over_cap: None,
        }
    }
}

/// A copy refused because it is larger than the terminal takes over
/// OSC 52 (`tui::clipboard::limits`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverCap {
    /// The text's size.
    pub bytes: usize,
    /// The cap, in bytes of text.
    pub max: usize,
    /// The terminal whose cap it is (`None`: no terminal recognised, the
    /// default cap).
    pub terminal: Option<String>,
    /// Why nothing at all arrives over OSC 52 (tmux drops it), with the
    /// fix: then not even a path can be copied.
    pub unreachable: Option<String>,
}

impl OverCap {
    /// `kitty takes at most 6.1 KB over OSC 52`, or the default cap's
    /// wording when no terminal was recognised.
    pub fn cap_phrase(&self) -> String {
        let max = crate::text::words::bytes(self.max);
        match &self.terminal {
            Some(terminal) => format!("{terminal} takes at most {max} over OSC 52"),
            None => format!("the terminal clipboard (OSC 52) takes at most {max} here"),
        }
    }
}

/// A copy over the OSC 52 cap, held while the user is asked whether to
/// write it to the output file (as `w` does) and copy that file's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingWrite {
    /// The text the copy would have carried: the file gets exactly it.
    pub text: String,
    pub label: String,
    /// The text's likely secrets, and whether the user has let them leave
    /// (the secrets question, answered before the copy): the file is
    /// written through the same gate as `w`'s.
    pub findings: Vec<Finding>,
    pub allow_secrets: bool,
    pub over: OverCap,
    /// When the question opened (see `overlays::CONFIRM_PAUSE`).
    pub opened: std::time::Instant,
}

impl PendingWrite {
    /// What the confirm key does: `writes it and copies the path`.
    pub fn confirm_verb(&self) -> &'static str {
        if self.over.unreachable.is_some() {
            "writes it"
        } else {
            "writes it and copies the path"
        }
    }
}

/// One file's place in the composition.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedFile {
    pub path: String,
    /// How it was rendered (`sources::render_key`).
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
    /// Tokens of the repo map section (0: no map).
    pub map_tokens: usize,
    /// Files of the preset left out as binary or oversize, sorted.
    pub skipped: Vec<String>,
    /// What the composition said about the preset and the walk (a bad
    /// glob, a glob matching nothing, folders not walked), without the
    /// notes on files left out (the tree marks those).
    pub problems: Vec<String>,
}

impl Composed {
    /// `true` when the preset includes `path` but the composition left it
    /// out as binary or oversize.
    pub fn is_skipped(&self, path: &str) -> bool {
        self.skipped
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }

    /// How many files under folder `dir` the preset includes but the
    /// composition left out (a binary search over the sorted list).
    pub fn skipped_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self
            .skipped
            .partition_point(|p| p.as_str() < prefix.as_str());
        self.skipped[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .count()
    }
}

/// The symbols pane's content.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolsView {
    pub path: String,
    /// `None`: the file type has no grammar (or could not be read).
    pub tree: Option<Arc<SymbolTree>>,
    /// Each symbol's cost in tokens, in the pane's depth-first order:
    /// what hiding it takes off its file shown in full, children
    /// included (`core::syntax::costs`), so a person can choose what to
    /// mask by cost. Empty when the file has no symbols.
    pub tokens: Vec<usize>,
    /// The tokenizer `tokens` were counted with.
    pub tokenizer: TokenizerKind,
}

/// What a file the composition does not hold would add to it: its block
/// rendered by the core exactly as `build` renders an included file
/// (`core::compose::render_file`, the `Y` path), for the preview.
#[derive(Debug, Clone, PartialEq)]
pub struct FileBlock {
    pub path: String,
    /// The render key of the entry it would have (`sources::render_key`).
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
