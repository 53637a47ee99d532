//! The TUI's whole state, in parts: the project (presets and settings,
//! from the core), the walk and its resolution (`walked`), the composition
//! and gauge (`composition`), the overlay, and one part per feature, each
//! a leaf module here (`tree`, `symbols`, `preview`, `finder`, `history`,
//! `proposal`, `marks`, `totals`, `screen`), below every feature's keys
//! and drawing. `update` is the only code that changes it; rendering only
//! reads it.

pub mod clock;
pub mod composition;
pub mod finder;
pub mod history;
pub mod marks;
pub mod model;
pub mod preview;
pub mod proposal;
pub mod screen;
pub mod symbols;
pub mod totals;
pub mod tree;
pub mod walked;

use std::collections::HashMap;
use std::sync::Arc;

use crate::core::compose::ComposeOptions;
use crate::core::discovery::context::MapOptions;
use crate::core::model::{FileItem, Preset};
use crate::core::project::Project;
use crate::core::walk::{self, ResolvedItem};

use crate::tui::input::keymap::{Context, Keymap};
use crate::tui::state::clock::Clock;
use crate::tui::state::finder::Finder;
use crate::tui::state::history::History;
use crate::tui::state::marks::ChangedMarks;
use crate::tui::state::model::{ComposedFile, PendingCopy, PendingWrite};
use crate::tui::state::preview::PreviewState;
use crate::tui::state::proposal::Discovery;
use crate::tui::state::screen::Screen;
use crate::tui::state::symbols::SymbolsPane;
use crate::tui::state::totals::PresetTotals;
use crate::tui::state::tree::{FileTree, Row, TreePane};
use crate::tui::state::walked::NextWalk;
pub use composition::{Composition, Gauge};
pub use walked::Walk;

/// The panes, in Tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Tree,
    Symbols,
    Preview,
}

impl Pane {
    pub fn next(self) -> Pane {
        match self {
            Pane::Tree => Pane::Symbols,
            Pane::Symbols => Pane::Preview,
            Pane::Preview => Pane::Tree,
        }
    }

    pub fn prev(self) -> Pane {
        self.next().next()
    }

    /// The keymap context of the pane.
    pub fn context(self) -> Context {
        match self {
            Pane::Tree => Context::Tree,
            Pane::Symbols => Context::Symbols,
            Pane::Preview => Context::Preview,
        }
    }
}

/// What a text prompt is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    Filter,
    NewPreset,
    RenamePreset(String),
    SliceTag {
        path: String,
        start: usize,
        end: usize,
    },
    /// `:` in the preview: a line number of the lines shown.
    GotoLine,
    /// `/` in the preview: text to look for in the lines shown.
    Search,
    /// `i` with no target and no task: what the task is (saved as the
    /// preset's `task`; discovery then ranks every file for it).
    Task,
}

/// A modal layer over the panes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    Help {
        scroll: usize,
    },
    Picker {
        cursor: usize,
    },
    Input {
        prompt: Prompt,
        buffer: String,
    },
    /// Copy a text that holds likely secrets? (names each file and line)
    ConfirmCopy(Box<PendingCopy>),
    /// A copy is over the terminal's OSC 52 cap: write it to the output
    /// file and copy that path instead?
    ConfirmWrite(Box<PendingWrite>),
    /// Quit without the save that waits for another process's lock?
    ConfirmQuit,
    /// The fuzzy file finder (its matcher is `State::finder`).
    Finder,
    /// Where the tokens go: the included files by tokens (`b`), with
    /// the file under the cursor (it keeps the cursor as the order moves).
    Tokens {
        path: Option<String>,
    },
    /// The curation history as a list (`U`), the cursor on a row of
    /// `History::entries`.
    History {
        cursor: usize,
    },
    /// The status messages of the session, whole (`!`).
    Messages,
}

/// How many status messages the log keeps.
pub const MESSAGES_KEPT: usize = 100;

/// How serious a status message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

/// The application state: the project, and one part per pane and feature
/// (as yazi's `Core { mgr, tasks, pick, input, … }`), so a handler can
/// take the part it changes.
pub struct State {
    pub project: Project,
    pub keymap: Keymap,
    pub tree: TreePane,
    pub walk: Walk,
    pub focus: Pane,
    pub symbols: SymbolsPane,
    pub preview: PreviewState,
    pub composition: Composition,
    pub overlay: Option<Overlay>,
    pub history: History,
    pub status: Option<(String, Level)>,
    /// The latest status messages, oldest first (at most
    /// [`MESSAGES_KEPT`]), shown whole by `show_message`.
    pub messages: std::collections::VecDeque<(String, Level)>,
    /// Entries excluded with Space this session, so including the file
    /// again brings its view mode, masks and slices back.
    pub parked: HashMap<String, FileItem>,
    /// Files the last discovery proposes to add, until accepted or
    /// discarded.
    pub discovery: Option<Discovery>,
    /// The fuzzy file finder while `Overlay::Finder` is open: it holds
    /// nucleo's matcher threads, so it lives here and not in the overlay
    /// (which is cloned and compared).
    pub finder: Option<Finder>,
    /// Wakes the event loop from a background thread (the finder's
    /// matcher has new results); a no-op where nothing waits (the harness).
    pub wake: Arc<dyn Fn() + Send + Sync>,
    /// "Now" for time-based gates (the system's; the harness's moves by
    /// hand).
    pub clock: Clock,
    /// The files git sees changed, marked in the tree (`mark_changed`).
    pub changed: Option<ChangedMarks>,
    pub screen: Screen,
    pub quit: bool,
    /// A save waits for the project lock another process holds (the
    /// message says which): `q` asks before quitting without it.
    pub save_locked: Option<String>,
    /// The user chose to quit without the waiting save: the event loop
    /// neither sends a last save nor waits for the saver.
    pub drop_pending_save: bool,
    /// The user asked to quit while the last save waits for the lock (the
    /// question is up): once it is saved the app quits, and a save that
    /// gave up on the lock is tried again, the question still up, so a
    /// `q` is never forgotten (recheck 15, F6: the app stayed for good).
    pub quit_after_save: bool,
    pub preset_totals: PresetTotals,
}

impl State {
    /// A fresh state over `project`; the file list starts with the
    /// preset's explicitly named files and grows as the walk streams in.
    pub fn new(project: Project, keymap: Keymap) -> State {
        let patterns = walk::WalkPatterns::from_settings(&project.settings);
        let mut state = State {
            project,
            keymap,
            tree: TreePane::default(),
            walk: Walk {
                patterns,
                ..Walk::default()
            },
            focus: Pane::Tree,
            symbols: SymbolsPane::default(),
            preview: PreviewState::default(),
            composition: Composition::default(),
            overlay: None,
            history: History::default(),
            status: None,
            messages: Default::default(),
            parked: HashMap::new(),
            discovery: None,
            finder: None,
            wake: Arc::new(|| {}),
            clock: Clock::system(),
            changed: None,
            screen: Screen::default(),
            quit: false,
            save_locked: None,
            quit_after_save: false,
            drop_pending_save: false,
            preset_totals: PresetTotals::default(),
        };
        state.restore_view();
        state.add_explicit_files();
        state.refresh();
        state
    }

    /// Open the folders the user had open in this checkout and start the
    /// cursor at the path it was on (the top when nothing is remembered):
    /// see `core::project::personal`.
    fn restore_view(&mut self) {
        let view = self.project.view.clone();
        let inside = |p: &String| walk::is_inside(p) && !walk::is_glob(p);
        self.tree
            .open_dirs
            .extend(view.expanded.iter().filter(|p| inside(p)).cloned());
        self.tree.start_at(view.cursor.filter(inside));
    }

    /// Remember where the user is (the tree's cursor and open folders)
    /// with their own settings, in their state directory, for the next
    /// start in this checkout.
    pub fn remember(&mut self) -> Result<bool, crate::core::project::PersonalError> {
        self.project.view = crate::core::project::ViewState {
            cursor: self.tree.current_row().map(|r| r.path.clone()),
            expanded: self.tree.open_folders(),
            discovery: self.discovery.is_some(),
        };
        self.project.save_personal()
    }

    /// Put the preset's explicitly named files in the tree, so they show
    /// (and can be removed) even when the walk skips them (ignored, missing).
    pub fn add_explicit_files(&mut self) {
        let root = self.project.root.clone();
        for item in self.project.active_preset().files {
            let path = item.path.trim_end_matches('/');
            // A folder named as an entry is not a file of the tree.
            if !walk::is_glob(path) && walk::is_inside(path) && !root.join(path).is_dir() {
                self.tree.files.insert(path);
            }
        }
    }

    /// Merge a batch of walked files (the list is sorted once the walk is
    /// done, in [`State::finish_walk`]).
    pub fn add_walked(&mut self, batch: Vec<String>) {
        for path in &batch {
            self.tree.files.insert(path);
        }
        Arc::make_mut(&mut self.walk.walked).extend(batch);
    }

    /// Forget the walked files before a new walk (the preset's own files
    /// stay listed).
    pub fn begin_walk(&mut self) {
        // The cursor comes back to its path once the new walk lists it.
        let here = self.tree.current_row().map(|r| r.path.clone());
        self.tree.start_at(here);
        self.tree.files = FileTree::new();
        self.walk.walked = Arc::new(Vec::new());
        self.walk.done = false;
        self.add_explicit_files();
        self.refresh_rows();
    }

    /// The walk for the changes on disk seen so far (see `tui::live`):
    /// whole when it must be, else a rescan of the paths named; `None`
    /// when nothing waits. It is marked under way.
    pub fn next_walk_for_changes(&mut self) -> Option<NextWalk> {
        let live = &mut self.walk.live;
        live.again = false;
        let pending = std::mem::take(&mut live.pending);
        let next = if std::mem::take(&mut live.whole) {
            NextWalk::Whole
        } else if pending.is_empty() {
            return None;
        } else {
            NextWalk::Paths(pending.into_iter().collect())
        };
        live.in_flight = true;
        Some(next)
    }

    /// The ignore settings (`[project] ignore`/`unignore`) differ from
    /// those the tree was walked with (`ctxcurate.toml` reloaded, an undo
    /// over such a change): walk the whole project again with them once
    /// no walk is under way (the watch follows the new ones then).
    pub fn follow_ignore_settings(&mut self) -> Option<NextWalk> {
        let now = walk::WalkPatterns::from_settings(&self.project.settings);
        if now == self.walk.patterns {
            return None;
        }
        self.walk.patterns = now;
        let live = &mut self.walk.live;
        live.whole = true;
        // What any pane holds may be of a file now ignored.
        live.overflowed = true;
        if live.in_flight || !self.walk.done {
            live.again = true;
            return None;
        }
        self.next_walk_for_changes()
    }

    /// The active preset (a clone; empty when it does not exist yet).
    pub fn preset(&self) -> Preset {
        self.project.active_preset()
    }

    /// The active preset's targets (borrowed: the tree asks per row).
    pub fn preset_targets(&self) -> &[String] {
        self.project
            .preset(self.project.active_preset_name())
            .map_or(&[], |(p, _)| p.targets.as_slice())
    }

    /// The active preset's screenshots (borrowed: the tree asks per row).
    pub fn preset_screenshots(&self) -> &[String] {
        self.project
            .preset(self.project.active_preset_name())
            .map_or(&[], |(p, _)| p.screenshots.as_slice())
    }

    /// Recompute the derived parts: inclusion and visible rows.
    pub fn refresh(&mut self) {
        let preset = self.preset();
        // Patched at the paths an edit touched, when only those changed.
        let change = self.walk.resolver.resolve(
            &preset.files,
            &preset.exclude,
            &self.walk.walked,
            &mut self.walk.globs,
            &mut self.walk.resolved,
        );
        match change {
            walk::ResolveChange::Patched(touched) => {
                self.composition.patch_sum(&self.walk, touched)
            }
            walk::ResolveChange::Rebuilt => self.composition.forget_sum(),
        }
        self.refresh_rows();
    }

    /// The walk became `to` (files on disk came and went, by `applied`):
    /// the preset's resolution and the gauge's sum are patched at those
    /// paths (the glob answers carried over), or made anew at the next
    /// [`State::refresh`] when they cannot be.
    pub fn follow_walk(&mut self, to: Vec<String>, applied: &walk::Applied) {
        let from = std::mem::replace(&mut self.walk.walked, Arc::new(to));
        let preset = self.preset();
        let patched = self.walk.resolver.follow_walk(
            &preset.files,
            &preset.exclude,
            (&from, &self.walk.walked),
            applied,
            &mut self.walk.globs,
            &mut self.walk.resolved,
        );
        match patched {
            Some(touched) => self.composition.patch_sum(&self.walk, touched),
            None => self.composition.forget_sum(),
        }
    }

    /// The row under the tree cursor.
    pub fn current_row(&self) -> Option<&Row> {
        self.tree.current_row()
    }

    /// `true` when the preset includes `path`.
    pub fn is_included(&self, path: &str) -> bool {
        self.walk.is_included(path)
    }

    /// Every included file, sorted.
    pub fn included_paths(&self) -> Vec<&str> {
        self.walk.included_paths()
    }

    /// Recompute the visible tree rows, keeping the cursor on the same path.
    pub fn refresh_rows(&mut self) {
        self.tree.refresh_rows();
    }

    /// The walk is complete: sort the file list globs expand over, and
    /// let the cursor go from where it started (`tree::Start`).
    pub fn finish_walk(&mut self) {
        self.walk.finish();
        self.refresh_rows();
        self.tree.start = None;
    }

    /// Update the gauge from the cached counts (see
    /// [`Composition::refresh_gauge`]); returns the included files with no
    /// count for their current form.
    pub fn refresh_gauge(&mut self) -> Vec<ResolvedItem> {
        let opts = self.compose_options();
        self.composition.refresh_gauge(&self.walk, opts)
    }

    /// `Err` with both sums when the gauge's kept sum differs from one
    /// made anew (for tests: a patch that missed a path shows here).
    pub fn verify_gauge_sum(&self) -> Result<(), String> {
        self.composition.verify_sum(&self.walk)
    }

    /// Take in the count of one file's block (the worker counted it).
    pub fn learn_count(&mut self, path: String, key: String, n: usize) {
        self.composition.learn_count(&self.walk, path, key, n);
    }

    /// The file under the tree cursor (not a folder).
    pub fn current_file(&self) -> Option<&str> {
        self.tree.current_file()
    }

    /// The preset entry that renders `path`: its explicit entry, or the
    /// glob entry that includes it (with the concrete path).
    pub fn item_for(&self, path: &str) -> Option<FileItem> {
        self.walk.resolved_for(path).map(|r| r.item().into_owned())
    }

    /// The keymap context for the current focus and overlay.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Picker { .. }) => Context::Picker,
            Some(Overlay::ConfirmCopy(_) | Overlay::ConfirmWrite(_) | Overlay::ConfirmQuit) => {
                Context::Confirm
            }
            Some(Overlay::Tokens { .. }) => Context::Tokens,
            Some(Overlay::History { .. }) => Context::History,
            _ => self.focus.context(),
        }
    }

    /// Compose options from the current settings, with what the active
    /// preset's explicit entries may read (`trust::entries`).
    pub fn compose_options(&self) -> ComposeOptions {
        ComposeOptions {
            consent: self
                .project
                .entry_consent(self.project.active_preset_name()),
            ..ComposeOptions::from_settings(&self.project.settings)
        }
    }

    /// Where `w` writes: `.ctxcurate/out/context_NNN.md`, NNN the next
    /// free number when it writes (`core::engine::output_file`; the
    /// `output_dir` and `namespace` settings).
    pub fn output_file_pattern(&self) -> String {
        let s = &self.project.settings;
        format!(
            "{}/{}_NNN.{}",
            s.output_dir,
            s.namespace,
            crate::core::engine::output_file::extension(self.compose_options().format)
        )
    }

    /// What a preset's repo map needs, from the current settings.
    pub fn map_options(&self) -> MapOptions {
        MapOptions::from_settings(&self.project.settings)
    }

    /// Set the status line (and keep the message for the log).
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        let text = text.into();
        if self.messages.len() >= MESSAGES_KEPT {
            self.messages.pop_front();
        }
        self.messages.push_back((text.clone(), level));
        self.status = Some((text, level));
    }

    /// The composed file entry of `path`, if it is in the composition.
    pub fn composed_file(&self, path: &str) -> Option<&ComposedFile> {
        let c = self.composition.composed.as_ref()?;
        c.index.get(path).and_then(|i| c.files.get(*i))
    }
}
