//! The use-case layer, the top of the core: every build, pack and save of
//! a front end (the CLI, the TUI, a server) goes through here, so "compose
//! → scan for secrets → count → deliver" is written once, in one order.
//!
//! A front end opens a [`Workspace`] (the context every step needs: the
//! root, the settings, the per-file engine `Sources`, the walk) and hands
//! it plain requests ([`BuildRequest`]); what comes back is plain data
//! ([`Built`]) or a typed refusal ([`Refused`]) that the front end words
//! for its users. The front ends decide only *what* to build and how to
//! show the result.
//!
//! Submodules, one step each: `ask` (a build as the user said it,
//! resolved into a request: the preset by name, `--changed`, the task,
//! the diff, the targets as typed), `request` (what to build and what came
//! out), `error` (the refusals), `build` (compose or pack, scan, count),
//! `stream` (a composition written, counted and scanned as its files are
//! rendered, so memory does not grow with the output), `deliver` (the
//! secret rule and the destinations), `files` (one file's
//! block and copy, the gauge's totals), `map` (the repo map on its own,
//! and a map as the user said it),
//! `changes` (git's changed files and diff, filtered by the walk and the
//! preset), `inspect` (one file's entry and symbols) and `output_file`
//! (the numbered output file of `build --save` and the TUI's `w`).

pub mod ask;
mod build;
mod changes;
mod deliver;
mod error;
mod files;
mod inspect;
mod map;
pub mod output_file;
mod request;
mod stream;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::core::model::Settings;
use crate::core::project::Project;
use crate::core::sources::{Codebase, Sources};
use crate::core::walk::{self, IgnoreFileNote, WalkPatterns};

/// What a preset's repo map needs besides the compose options (a
/// [`BuildRequest`] holds one).
pub use crate::core::discovery::context::MapOptions;
pub use ask::{
    Answered, AskError, AskRefused, Asked, BuildAsk, Said, TargetError, TaskText, build_asked,
};
pub use error::{BuildError, Refused};
pub use files::{EXACT_TOTAL_LIMIT, FileBlock, FileCopy};
pub use map::{MapAnswered, MapAsk, MapBuilt, map_asked};
pub use request::{BuildKind, BuildRequest, Built, Destination, PackReport, Spooled};

/// The context every use case needs, built once per command (the CLI) or
/// per job (the TUI's worker): the project's root and settings, the
/// per-file engine that reads, renders and counts, and the project's walk
/// once someone made it.
#[derive(Debug)]
pub struct Workspace<'s> {
    root: PathBuf,
    settings: Settings,
    sources: &'s Sources,
    /// The ignore patterns of the walk the workspace makes itself (and
    /// that the consent gate asks).
    patterns: WalkPatterns,
    /// The project's files, when walked (or handed over by the caller).
    walked: Option<Arc<Vec<String>>>,
    /// What the walk said about ignore files below the root, until a
    /// build reports it.
    walk_notes: Vec<IgnoreFileNote>,
    /// A workspace for one command lets its sources go once the files
    /// are scanned, and its walk once a streamed build planned over it
    /// and needs it no more (see [`Workspace::open`]); a long-lived one
    /// keeps them for the next composition.
    one_shot: bool,
}

impl<'s> Workspace<'s> {
    /// The workspace of one command on `project` (the CLI): its settings,
    /// its ignore patterns, and `sources` (usually `Project::run_cache`).
    /// A build lets the sources' texts go once it has scanned them, and
    /// drops its own copy of the secret rules, so the files' texts and the
    /// composed text are never all held at once.
    pub fn open(project: &Project, sources: &'s Sources) -> Self {
        Workspace {
            one_shot: true,
            ..Workspace::shared(&project.root, project.settings.clone(), sources)
        }
    }

    /// A long-lived workspace over `root` (the TUI's worker): its sources
    /// stay warm between builds, since the next keystroke composes again.
    pub fn shared(root: &Path, settings: Settings, sources: &'s Sources) -> Self {
        Workspace {
            root: root.to_path_buf(),
            patterns: WalkPatterns::from_settings(&settings),
            settings,
            sources,
            walked: None,
            walk_notes: Vec::new(),
            one_shot: false,
        }
    }

    /// A build here lets the sources go once it has scanned them, as a
    /// one-shot workspace does (the TUI's `w`, so a save peaks no higher
    /// than `ctxcurate build --save`; the next composition reads the files
    /// again).
    pub fn releasing(mut self) -> Self {
        self.one_shot = true;
        self
    }

    /// With the project's files already walked (the TUI walks in the
    /// background and hands each job its list).
    pub fn with_walk(mut self, files: Arc<Vec<String>>) -> Self {
        self.walked = Some(files);
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The per-file engine (reads, renders, summarises, counts).
    pub fn sources(&self) -> &'s Sources {
        self.sources
    }

    /// The project's files: the walk handed over, or one made now (once;
    /// its notes go to the next build's [`Built::walk_notes`]).
    pub fn walk(&mut self) -> Arc<Vec<String>> {
        if let Some(files) = &self.walked {
            return files.clone();
        }
        let walked = walk::walk_files_noted(&self.root, &self.patterns);
        self.walk_notes = walked.notes;
        let files = Arc::new(walked.files);
        self.walked = Some(files.clone());
        files
    }

    /// The walk, if there is one already.
    fn walked(&self) -> Option<&[String]> {
        self.walked.as_deref().map(Vec::as_slice)
    }

    /// The project as composition, discovery and the secret scan read it:
    /// the root, the sources, and the walk if there is one already.
    pub fn codebase(&self) -> Codebase<'_> {
        Codebase {
            root: &self.root,
            sources: self.sources,
            walked: self.walked(),
        }
    }
}
