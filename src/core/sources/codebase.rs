//! [`Codebase`]: the project's files as the core reads them — the root,
//! the per-file engine ([`Sources`]) over it, and the walk when someone
//! made one. Composition, discovery and the secret scan take it as one
//! value (STYLE.md 16: context travels as one value); a call's own inputs
//! (the preset, the targets, the options) are its only other arguments.
//! `core::engine::Workspace::codebase` makes one for each use case (the
//! engine sits above this module, so only names it).

use std::path::Path;

use super::Sources;

/// The project at `root`, read through `sources`; `walked` is its file
/// list (sorted, root-relative, `/`-separated) when the caller has one.
/// A composition walks by itself only when something needs the list and
/// none was handed over; discovery ranks only what `walked` holds
/// ([`Codebase::files`]).
#[derive(Debug, Clone, Copy)]
pub struct Codebase<'a> {
    pub root: &'a Path,
    pub sources: &'a Sources,
    pub walked: Option<&'a [String]>,
}

impl<'a> Codebase<'a> {
    /// The project at `root` read through `sources`, not walked yet.
    pub fn new(root: &'a Path, sources: &'a Sources) -> Self {
        Codebase {
            root,
            sources,
            walked: None,
        }
    }

    /// With the project's files already walked.
    pub fn with_walk(self, files: &'a [String]) -> Self {
        Codebase {
            walked: Some(files),
            ..self
        }
    }

    /// The project's files as discovery sees them: the walk handed over,
    /// or none (discovery never walks by itself; its callers walk with the
    /// project's ignore patterns and hand the list over).
    pub fn files(&self) -> &'a [String] {
        self.walked.unwrap_or_default()
    }
}
