//! What a front end asks the engine to build ([`BuildRequest`]) and what
//! comes out ([`Built`]): plain data, so the CLI turns flags into one and
//! the other into stderr lines, the TUI a job into one and the other into
//! an event, and a server its own messages.

use std::path::PathBuf;
use std::sync::Arc;

use crate::core::compose::changes::Changes;
use crate::core::compose::{ComposeOptions, Composition, RenderedFile};
use crate::core::discovery::context::MapOptions;
use crate::core::discovery::pack::{MissingTarget, PackStats, PackedItem};
use crate::core::model::{Preset, Settings, TokenizerKind};
use crate::core::secrets::Finding;
use crate::core::walk::IgnoreFileNote;

/// Compose the preset as it is, or pack it into a budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BuildKind {
    /// Pack when something asks for a budget (`ctxcurate build`'s rule):
    /// targets named in the request, a budget, or a task with a model
    /// window to fit; else compose.
    #[default]
    Auto,
    /// Compose the preset's files as they are (the TUI's `y` and `w`).
    Compose,
    /// Pack into the budget around the targets.
    Pack,
}

/// Where the built text goes once it passed the secret rule.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Destination {
    /// Back to the caller, who prints or copies it (stdout, the
    /// clipboard): the engine writes nothing.
    #[default]
    Caller,
    /// This file (its folders are made).
    Path(PathBuf),
    /// The project's next numbered output file (see `output_file`).
    NextOutputFile,
    /// Back to the caller as a [`Spooled`] text in a temporary file
    /// (`ctxcurate build` to a pipe): a large build is never held in
    /// memory, and nothing is handed back before the secret rule passed.
    Stream,
}

/// A built text kept in a temporary file ([`Destination::Stream`]): the
/// text before the files section, the files section in the file, the
/// text after it.
#[derive(Debug, Clone)]
pub struct Spooled {
    pub head: String,
    /// Unnamed (gone from the file system as it is made), so no kill
    /// leaves it behind.
    pub file: Arc<std::fs::File>,
    pub tail: String,
}

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    pub preset: Preset,
    /// How to compose: format, strategy, focus, sections (tree, changes),
    /// the consent for the preset's explicit entries, how files are read.
    pub compose: ComposeOptions,
    /// The repo map of a preset with `repo_map = N`; its tokenizer counts
    /// the whole build.
    pub map: MapOptions,
    pub kind: BuildKind,
    /// Targets the user named for this build, besides the preset's
    /// (kept even when the preset's own entry for them is held).
    pub targets: Vec<String>,
    /// The pack's budget (default: what the model window leaves, else
    /// the settings' budget).
    pub budget: Option<usize>,
    /// The pack's repo map budget (default: the settings').
    pub map_budget: Option<usize>,
    /// git's changes (`build --diff`), shown in a `## Changes` section; a
    /// pack fits them to its budget first.
    pub changes: Option<Changes>,
    /// Build without the targets or diffs that do not fit, rather than
    /// refuse.
    pub allow_partial: bool,
    pub destination: Destination,
    /// Deliver even with likely secrets (the caller warns).
    pub allow_secrets: bool,
    /// A composition made already (the TUI's shown discovery): scanned,
    /// counted and delivered as it is, not built again.
    pub reuse: Option<Arc<Composition>>,
}

impl BuildRequest {
    /// `preset` as `settings` say, composed (or packed when something
    /// asks for a budget, see [`BuildKind::Auto`]), back to the caller.
    pub fn new(preset: Preset, settings: &Settings) -> Self {
        BuildRequest {
            preset,
            compose: ComposeOptions::from_settings(settings),
            map: MapOptions::from_settings(settings),
            kind: BuildKind::Auto,
            targets: Vec::new(),
            budget: None,
            map_budget: None,
            changes: None,
            allow_partial: false,
            destination: Destination::Caller,
            allow_secrets: false,
            reuse: None,
        }
    }

    /// What the build is counted with.
    pub fn tokenizer(&self) -> TokenizerKind {
        self.map.tokenizer
    }
}

/// What a packed build did besides its text.
#[derive(Debug, Clone)]
pub struct PackReport {
    /// Each candidate, with its role and the mode it got (or none).
    pub items: Vec<PackedItem>,
    pub stats: PackStats,
    /// Targets that did not fit (built without them only with
    /// `allow_partial`).
    pub missing_targets: Vec<MissingTarget>,
}

/// What a build made, in the order a front end reports it.
#[derive(Debug, Clone)]
pub struct Built {
    pub text: String,
    /// The files, rendered; a file's body may have been let go once its
    /// text was written (its `body_at` says where it stands in `text`).
    /// A build that went to a file or a spool keeps here only the files
    /// with more to tell than their text (an error, a note, left out),
    /// without their render keys; the others are in `plain`.
    pub files: Vec<RenderedFile>,
    /// The paths of the files shown whole with nothing more to tell, in
    /// a build that went to a file or a spool (see
    /// [`crate::core::compose::Parts::plain`]); empty otherwise.
    pub plain: Vec<String>,
    /// The tokens of `text`; `exact` is false when it is a sum of the
    /// files' counts.
    pub tokens: usize,
    pub exact: bool,
    pub tokenizer: TokenizerKind,
    /// Tokens of a composition's repo map section (a preset's
    /// `repo_map`; 0: none; a pack's map is in `packed`).
    pub map_tokens: usize,
    /// The likely secrets in `text`.
    pub findings: Vec<Finding>,
    /// Ignore files below the root that the build's walk skipped or cut.
    pub walk_notes: Vec<IgnoreFileNote>,
    /// The files whose diffs were left out to fit the budget.
    pub changes_dropped: Vec<String>,
    /// A pack's note on the explicit entries held for consent (a
    /// composition says it among its `problems`).
    pub held: Option<String>,
    /// Problems with the preset (bad globs, files left out, …).
    pub problems: Vec<String>,
    /// Set when the build packed.
    pub packed: Option<PackReport>,
    /// Where the text was written (`None`: back to the caller).
    pub written: Option<PathBuf>,
    /// The text, when it came back as a file ([`Destination::Stream`];
    /// `text` is empty then).
    pub spooled: Option<Spooled>,
}

impl Built {
    /// Nothing built yet, to be counted with `tokenizer`.
    pub fn empty(tokenizer: TokenizerKind) -> Self {
        Built {
            text: String::new(),
            files: Vec::new(),
            plain: Vec::new(),
            tokens: 0,
            exact: true,
            tokenizer,
            map_tokens: 0,
            findings: Vec::new(),
            walk_notes: Vec::new(),
            changes_dropped: Vec::new(),
            held: None,
            problems: Vec::new(),
            packed: None,
            written: None,
            spooled: None,
        }
    }

    /// The files shown in the text (not merely listed).
    pub fn rendered(&self) -> usize {
        self.files.iter().filter(|f| f.aggregate).count() + self.plain.len()
    }

    /// The paths of every file of the build (`files` and `plain`).
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .map(|f| f.path.as_str())
            .chain(self.plain.iter().map(String::as_str))
    }

    /// The files shown as an error instead of their text.
    pub fn with_errors(&self) -> usize {
        self.files.iter().filter(|f| f.error.is_some()).count()
    }
}
