//! The walked files and what the active preset's entries resolve to among
//! them: the list globs expand over, kept sorted once the walk is done,
//! and the resolution the tree, the gauge and the curation keys ask
//! "is this file included, and how?".

use std::sync::Arc;

use crate::core::walk::{self, ResolvedItem};

/// The walked files and what the active preset's entries resolve to
/// among them.
#[derive(Default)]
pub struct Walk {
    /// Every walked file, sorted (what globs expand over).
    pub walked: Arc<Vec<String>>,
    /// What the preset's globs match in `walked`, kept across edits.
    pub globs: walk::GlobIndex,
    /// The last resolution's inputs, so an edit re-resolves only the
    /// paths it touched.
    pub resolver: walk::Resolver,
    /// The walk is complete.
    pub done: bool,
    /// The `[project]` patterns the tree was walked with (a change walks
    /// it again: `State::follow_ignore_settings`).
    pub patterns: walk::WalkPatterns,
    /// The preset's files as resolved by the last `refresh`.
    pub resolved: Vec<ResolvedItem>,
    /// Following the files on disk (see `tui::live`).
    pub live: Live,
    /// What the last whole walk said about the ignore files (said when it
    /// changes: `Event::WalkNotes`).
    pub notes: Vec<String>,
}

/// The walks made because files changed on disk: one at a time, the
/// changes seen meanwhile gathered for the next.
#[derive(Default)]
pub struct Live {
    /// A walk for changes on disk is under way.
    pub in_flight: bool,
    /// Changes arrived while a walk was under way: walk again after it.
    pub again: bool,
    /// The paths changed since the last walk for changes was applied
    /// (what the panes forget then).
    pub changed: std::collections::BTreeSet<String>,
    /// The paths changed that no rescan has looked at yet.
    pub pending: std::collections::BTreeSet<String>,
    /// More changed than was named: anything may have.
    pub overflowed: bool,
    /// The next walk for changes must be whole: the report overflowed,
    /// or an ignore file or the ignore settings changed (what any path
    /// shows may differ).
    pub whole: bool,
    /// Watching stopped (and the user was told once).
    pub failed: bool,
}

/// The walk the changes on disk call for
/// (`State::next_walk_for_changes`); the event loop runs it as
/// `Effect::Rewalk` or `Effect::Rescan`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextWalk {
    /// Walk the whole project again.
    Whole,
    /// Look at these changed paths again.
    Paths(Vec<String>),
}

impl Walk {
    /// The walk is complete: sort the file list globs expand over.
    pub fn finish(&mut self) {
        self.done = true;
        let walked = Arc::make_mut(&mut self.walked);
        walked.sort_unstable();
        walked.dedup();
    }

    /// How `path` is included, if it is (a binary search).
    pub fn resolved_for(&self, path: &str) -> Option<&ResolvedItem> {
        self.resolved
            .binary_search_by(|r| r.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.resolved[i])
    }

    /// `true` when the preset includes `path`.
    pub fn is_included(&self, path: &str) -> bool {
        self.resolved_for(path).is_some()
    }

    /// Every included file, sorted.
    pub fn included_paths(&self) -> Vec<&str> {
        self.resolved.iter().map(|r| r.path.as_str()).collect()
    }

    /// How many included files folder `dir` holds (a binary search over
    /// the sorted resolved list).
    pub fn included_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self
            .resolved
            .partition_point(|r| r.path.as_str() < prefix.as_str());
        self.resolved[start..]
            .iter()
            .take_while(|r| r.path.starts_with(&prefix))
            .count()
    }
}
