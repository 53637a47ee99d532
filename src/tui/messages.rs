//! What flows through the event loop: [`Event`]s go into `update`,
//! [`Effect`]s come out of it, and [`Job`]s are the heavy effects that run
//! on the worker thread and come back as events.

use std::sync::Arc;

use crate::core::compose::{ComposeOptions, Composition};
use crate::core::discovery::pack::{PackOptions, Packed};
use crate::core::engine::MapOptions;
use crate::core::git::ChangedInProject;
use crate::core::model::{FileItem, Preset, TokenizerKind};
use crate::core::secrets::Finding;
use crate::core::walk::ResolvedItem;
use crate::core::watch::Changes;

use crate::tui::input::action::Action;
use crate::tui::project_sync::SyncOutcome;
use crate::tui::state::model::{Composed, FileBlock, PendingWrite, SymbolsView};
use crate::tui::state::walked::NextWalk;

/// Everything `update` reacts to.
#[derive(Debug, Clone)]
pub enum Event {
    /// A user action (from the keymap).
    Action(Action),
    /// A typed character while a prompt is open.
    InputChar(char),
    /// Backspace while a prompt is open.
    InputBackspace,
    /// Ctrl-u while a prompt is open: clear it.
    InputClear,
    /// A key (as people name it) with no action in the focused pane.
    Unbound(String),
    /// The terminal's new size.
    Resize { width: u16, height: u16 },
    /// A batch of files from the background walk.
    Walked(Vec<String>),
    /// The walk finished.
    WalkDone,
    /// What a whole walk said about the ignore files below the root
    /// (`walk::notes_lines`: skipped, cut, or a folder not walked), sent
    /// before [`Event::WalkDone`] and after a walk for changes on disk.
    WalkNotes(Vec<String>),
    /// Files changed on disk (from the project's watch, `core::watch`).
    FilesChanged(Changes),
    /// Another program (`ctxcurate preset apply`) changed the user's own
    /// state file for this checkout: the app takes the change in.
    PersonalChanged(Box<crate::core::project::CheckoutState>),
    /// Watching the project stopped (why): said once; `R` still walks.
    WatchFailed(String),
    /// A whole walk made after files changed on disk, sorted: it replaces
    /// the tree's files at once (the cursor stays on its path).
    Rewalked(Vec<String>),
    /// The changed paths looked at again (files changed on disk, a few
    /// named): the walk and the tree are patched there only.
    Rescanned(crate::core::walk::WalkDelta),
    /// A composition finished.
    Composed(Composed),
    /// Block counts of single files: (path, render key, tokens).
    Counted(Vec<(String, String, usize)>),
    /// A file's symbols were parsed.
    Symbols(SymbolsView),
    /// A file's raw text was read (for slicing).
    RawText {
        path: String,
        lines: Arc<Vec<String>>,
    },
    /// Text is ready to go to the clipboard (after a question when it
    /// holds likely secrets).
    CopyReady {
        text: String,
        label: String,
        tokens: usize,
        tokenizer: TokenizerKind,
        findings: Vec<Finding>,
    },
    /// Where copied text went (or why it did not).
    Copied {
        label: String,
        tokens: usize,
        tokenizer: TokenizerKind,
        result: Result<String, String>,
    },
    /// A copy was too large for the terminal's OSC 52 cap: ask whether
    /// to write the output file and copy its path instead.
    CopyOverCap(Box<PendingWrite>),
    /// The output file for a copy over the cap was written (or not).
    WroteForCopy(WroteForCopy),
    /// Where the written file's path went (or why it did not).
    PathCopied {
        /// What was written: `.ctxcurate/out/context_001.md (2.1 MB)`.
        wrote: String,
        result: Result<String, String>,
    },
    /// The output file was written (or not).
    Wrote(Result<String, String>),
    /// What saving or checking the project file found.
    Disk(Box<SyncOutcome>),
    /// A discovery finished: the pack, and its text laid out for the
    /// preview (`generation`: the composition it was asked for).
    Discovered {
        generation: u64,
        packed: Box<Packed>,
        composed: Box<Composed>,
    },
    /// The disk cache was cleared: how many entries, or why not.
    CacheCleared(Result<usize, String>),
    /// How far the worker's current job has come (`core::progress`):
    /// its phase and steps done of the total.
    Progress {
        phase: &'static str,
        done: usize,
        total: usize,
    },
    /// What git reports changed, through the project's walk (or why it
    /// could not say); `include`: the user asked to include them too.
    Changed {
        include: bool,
        result: Result<ChangedInProject, String>,
    },
    /// A job failed unexpectedly (the message says which).
    JobFailed(String),
    /// The block a file outside the composition would add (the preview).
    Block(Arc<FileBlock>),
    /// The finder's matcher threads have new results: take them.
    FinderResults,
    /// The mouse, at a cell of the screen (`tree_top`: the first tree row
    /// on screen when it happened, from the tree widget's scroll).
    Mouse {
        kind: MouseKind,
        column: u16,
        row: u16,
        tree_top: usize,
    },
    /// The picker's preset totals came back: (key, tokens, exact) per
    /// preset (`tokens::preset_key`).
    PresetTotals(Vec<(u64, usize, bool)>),
    /// The external editor closed: the text as it was handed over
    /// (`before`), and as saved, or why there is none.
    Edited {
        purpose: EditPurpose,
        before: String,
        result: Result<String, String>,
    },
}

/// What a text handed to the external editor is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditPurpose {
    /// The active preset's task.
    Task,
    /// A new discussion message (in `core::curation::discussion`'s
    /// template: a `role:` line, then the text).
    Message,
}

/// What the mouse did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseKind {
    /// The left button went down.
    Click,
    ScrollUp,
    ScrollDown,
}

/// A side effect requested by `update`, run by the event loop.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Save the project file (coalesced on the saver thread).
    Save,
    /// Run a job on the worker.
    Job(Box<Job>),
    /// Walk the project again (the walk streams `Walked` events).
    Walk,
    /// Walk the project again in the background and deliver the whole
    /// list at once as [`Event::Rewalked`] (files changed on disk: the
    /// tree stays as it is meanwhile).
    Rewalk,
    /// Look at these changed paths again in the background (by the
    /// walk's rules) and deliver what the walk shows there as
    /// [`Event::Rescanned`]: no whole walk for a few files.
    Rescan(Vec<String>),
    /// Put text on the clipboard and report where it went. Too large
    /// for OSC 52, it comes back as [`Event::CopyOverCap`]: `findings`
    /// and `allow_secrets` (the user's answer to the secrets question)
    /// then gate the output file the user may choose instead.
    Copy {
        text: String,
        label: String,
        tokens: usize,
        tokenizer: TokenizerKind,
        findings: Vec<Finding>,
        allow_secrets: bool,
    },
    /// Put the path of the file written for a copy over the cap on the
    /// clipboard; comes back as [`Event::PathCopied`].
    CopyPath {
        /// Absolute, so it means the same wherever it is pasted.
        path: String,
        wrote: String,
    },
    /// Hand the terminal to the user's editor on `initial_text`; what was
    /// saved comes back as [`Event::Edited`].
    Edit {
        purpose: EditPurpose,
        initial_text: String,
    },
}

/// Heavy work, run off the UI thread: each kind's inputs in a struct of
/// its own, which `tui::jobs` turns into a request to `core::engine`.
#[derive(Debug, Clone)]
pub enum Job {
    Compose(ComposeJob),
    /// Count the blocks of a few files (for the gauge, ahead of a compose).
    Count(CountJob),
    /// Read a file's symbols and what each costs (by the tokenizer the
    /// job names: the pane's numbers follow `T` and its undo).
    Symbols(SymbolsJob),
    Raw(String),
    /// Compose fresh (or take `ready`, the packed composition a shown
    /// discovery holds) and count exactly, for the clipboard.
    Yank(YankJob),
    /// One file's view, for the clipboard.
    YankFile(FileJob),
    /// Write the numbered output file: the preset composed fresh, or
    /// `ready` (as for `Yank`).
    WriteOutput(WriteJob),
    /// Write a copy too large for OSC 52 to the numbered output file.
    WriteForCopy(WriteForCopyJob),
    /// Pack the budget around the targets (discovery).
    Discover(DiscoverJob),
    /// Empty the on-disk cache (and the rendered views made from it).
    ClearCache,
    /// Ask git which files changed against `HEAD` (working tree, index
    /// and untracked files), kept to the files the walk shows.
    Changed(ChangedJob),
    /// Compose and count each preset once, for the picker's totals.
    PresetTotals(TotalsJob),
    /// Render the block `item` would add to the composition made for
    /// `generation` (the preview of a file outside it).
    Block(BlockJob),
}

/// Compose the preset for the preview and the gauge.
#[derive(Debug, Clone)]
pub struct ComposeJob {
    pub generation: u64,
    pub preset: Preset,
    pub opts: ComposeOptions,
    pub map: MapOptions,
    pub tokenizer: TokenizerKind,
    pub walked: Arc<Vec<String>>,
}

/// See [`Job::Symbols`].
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolsJob {
    pub path: String,
    pub tokenizer: TokenizerKind,
}

/// See [`Job::Count`].
#[derive(Debug, Clone)]
pub struct CountJob {
    pub files: Vec<ResolvedItem>,
    pub opts: ComposeOptions,
    pub tokenizer: TokenizerKind,
}

/// See [`Job::Yank`].
#[derive(Debug, Clone)]
pub struct YankJob {
    pub preset: Preset,
    pub opts: ComposeOptions,
    pub map: MapOptions,
    pub tokenizer: TokenizerKind,
    pub walked: Arc<Vec<String>>,
    pub ready: Option<Arc<Composition>>,
}

/// One file's view (see [`Job::YankFile`]).
#[derive(Debug, Clone)]
pub struct FileJob {
    pub item: FileItem,
    pub opts: ComposeOptions,
    pub tokenizer: TokenizerKind,
}

/// See [`Job::WriteOutput`].
#[derive(Debug, Clone)]
pub struct WriteJob {
    pub preset: Preset,
    pub opts: ComposeOptions,
    pub walked: Arc<Vec<String>>,
    pub ready: Option<Arc<Composition>>,
}

/// See [`Job::WriteForCopy`].
#[derive(Debug, Clone)]
pub struct WriteForCopyJob {
    /// Exactly the text the copy would have carried.
    pub text: String,
    pub findings: Vec<Finding>,
    pub allow_secrets: bool,
    /// The output format, for the file's extension (as `w`).
    pub format: crate::core::model::Format,
    /// Why no path can be copied either (see `OverCap::unreachable`).
    pub unreachable: Option<String>,
}

/// What [`Job::WriteForCopy`] did.
#[derive(Debug, Clone)]
pub struct WroteForCopy {
    /// The file's absolute path, and as shown (from the project root),
    /// or why nothing was written.
    pub result: Result<(String, String), String>,
    pub bytes: usize,
    pub unreachable: Option<String>,
}

/// See [`Job::Discover`].
#[derive(Debug, Clone)]
pub struct DiscoverJob {
    pub generation: u64,
    pub preset: Preset,
    pub targets: Vec<String>,
    pub opts: PackOptions,
    /// What the preset's explicit entries may read (the worker gates
    /// the preset before packing it, as `build` does).
    pub consent: crate::core::trust::entries::EntryConsent,
    pub walked: Arc<Vec<String>>,
}

/// See [`Job::Changed`].
#[derive(Debug, Clone)]
pub struct ChangedJob {
    pub include: bool,
    pub walked: Arc<Vec<String>>,
    /// The active preset's `exclude`: those files are left out.
    pub exclude: Vec<String>,
}

/// See [`Job::PresetTotals`].
#[derive(Debug, Clone)]
pub struct TotalsJob {
    /// (key, preset)
    pub presets: Vec<(u64, Preset)>,
    pub opts: ComposeOptions,
    pub map: MapOptions,
    pub tokenizer: TokenizerKind,
    pub walked: Arc<Vec<String>>,
}

/// See [`Job::Block`].
#[derive(Debug, Clone)]
pub struct BlockJob {
    pub item: FileItem,
    pub generation: u64,
    pub opts: ComposeOptions,
    pub tokenizer: TokenizerKind,
}

impl From<NextWalk> for Effect {
    fn from(next: NextWalk) -> Self {
        match next {
            NextWalk::Whole => Effect::Rewalk,
            NextWalk::Paths(paths) => Effect::Rescan(paths),
        }
    }
}

impl Effect {
    /// Run `job` on the worker.
    pub fn job(job: Job) -> Effect {
        Effect::Job(Box::new(job))
    }
}

impl Job {
    /// What the job does, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Job::Compose { .. } => "composing".into(),
            Job::Count { .. } => "counting tokens".into(),
            Job::Symbols(job) => format!("reading the symbols of {}", job.path),
            Job::Raw(p) => format!("reading {p}"),
            Job::Yank { .. } => "composing for the clipboard".into(),
            Job::YankFile(FileJob { item, .. }) => format!("rendering {}", item.path),
            Job::WriteOutput { .. } | Job::WriteForCopy { .. } => "writing the output file".into(),
            Job::Discover { .. } => "discovering".into(),
            Job::ClearCache => "clearing the cache".into(),
            Job::Changed { .. } => "asking git what changed".into(),
            Job::PresetTotals { .. } => "counting the presets".into(),
            Job::Block(BlockJob { item, .. }) => format!("rendering {}", item.path),
        }
    }

    /// A job that may wait on something outside the process however long
    /// it likes (git, on what a repository holds: a FIFO index, a hung
    /// filesystem, until its deadline): it runs on a thread of its own,
    /// never on the worker, so compositions and `y` never wait for it.
    pub fn runs_apart(&self) -> bool {
        matches!(self, Job::Changed { .. })
    }
}
