//! The TUI's whole state: the project (presets and settings, from the
//! core), the file tree, cursors, overlays, the last composition and the
//! undo history. `update` is the only code that changes it; rendering
//! only reads it.

pub mod clock;
pub mod model;

use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::core::compose::ComposeOptions;
use crate::core::discovery::context::MapOptions;
use crate::core::model::{FileItem, Preset, ProjectFile};
use crate::core::project::Project;
use crate::core::sources::render_key;
use crate::core::walk::{self, ResolvedItem};

use crate::tui::finder::Finder;
use crate::tui::input::keymap::{Context, Keymap};
use crate::tui::state::clock::Clock;
use crate::tui::state::model::{
    ChangedMarks, Composed, ComposedFile, Discovery, FileBlock, PendingCopy, PreviewSearch,
    SymbolsView,
};
use crate::tui::tree::{FileTree, Row};

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
    /// Quit without the save that waits for another process's lock?
    ConfirmQuit,
    /// The fuzzy file finder (its matcher is `State::finder`).
    Finder,
    /// Where the tokens go: the included files by tokens (`b`), with
    /// the file under the cursor (it keeps the cursor as the order moves).
    Tokens {
        path: Option<String>,
    },
}

/// How serious a status message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

/// What the budget gauge shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gauge {
    pub used: usize,
    /// Files whose count is still being computed.
    pub pending: usize,
    /// `used` is the exact count of the current composition.
    pub exact: bool,
    /// How far the worker's composition has come while it runs (phase,
    /// done, total), so a first count over a huge tree shows it moving.
    pub work: Option<(&'static str, usize, usize)>,
}

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

/// Undo and redo stacks of whole project-file snapshots.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub undo: Vec<ProjectFile>,
    pub redo: Vec<ProjectFile>,
}

/// How many undo steps are kept.
pub const HISTORY_LIMIT: usize = 200;

/// The tree pane: the project's files, which folders are open, the
/// filter, the visible rows and the cursor over them.
#[derive(Debug, Default)]
pub struct TreePane {
    pub files: FileTree,
    pub open_dirs: HashSet<String>,
    pub filter: String,
    /// Visible tree rows (derived from files, open_dirs and filter).
    pub rows: Vec<Row>,
    pub cursor: usize,
    /// Where a range selection (`v`) started.
    pub range_anchor: Option<usize>,
}

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
    /// The preset's files as resolved by the last `refresh`.
    pub resolved: Vec<ResolvedItem>,
}

/// The symbols pane: the current file's symbols and the cursor over them.
#[derive(Debug, Default)]
pub struct SymbolsPane {
    pub view: Option<SymbolsView>,
    pub cursor: usize,
}

/// The composition and the budget gauge: the last composition, the
/// counts known per file, and the gauge's sum over them.
#[derive(Debug, Default)]
pub struct Composition {
    pub composed: Option<Composed>,
    /// Generation of the newest compose request.
    pub generation: u64,
    /// Per file, the render key its count is for and the count (a fast
    /// hash: the gauge looks every included file up on every edit).
    pub block_tokens: FxHashMap<String, (String, usize)>,
    /// The gauge's sum over the included files, patched through small
    /// edits (see [`State::refresh_gauge`]); `None`: summed anew next time.
    sum: Option<GaugeSum>,
    /// Tokens of the composition outside the file blocks (headings,
    /// joins, other sections), from the last exact count.
    pub overhead: i64,
    pub gauge: Gauge,
}

/// The terminal as the panes see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// Terminal width and height (where a mouse click lands).
    pub size: (u16, u16),
    /// Terminal height, for page moves.
    pub page: usize,
    /// The focused pane takes the whole width (`z`).
    pub zoom: bool,
}

impl Default for Screen {
    fn default() -> Screen {
        Screen {
            size: (80, 24),
            page: 20,
            zoom: false,
        }
    }
}

/// Preset totals for the picker, by [`crate::tui::tokens::preset_key`].
#[derive(Debug, Default)]
pub struct PresetTotals {
    /// Tokens, and whether that is an exact count of the whole text.
    pub by_key: HashMap<u64, (usize, bool)>,
    /// A preset-totals job is running (not asked again until it is back).
    pub pending: bool,
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
    pub preset_totals: PresetTotals,
}

/// The gauge's sum over the included files under `opts`: the counts
/// known for their current form, and the files without one (by path).
#[derive(Debug)]
struct GaugeSum {
    opts: ComposeOptions,
    sum: usize,
    missing: BTreeMap<String, ResolvedItem>,
}

impl State {
    /// A fresh state over `project`; the file list starts with the
    /// preset's explicitly named files and grows as the walk streams in.
    pub fn new(project: Project, keymap: Keymap) -> State {
        let mut state = State {
            project,
            keymap,
            tree: TreePane::default(),
            walk: Walk::default(),
            focus: Pane::Tree,
            symbols: SymbolsPane::default(),
            preview: PreviewState::default(),
            composition: Composition::default(),
            overlay: None,
            history: History::default(),
            status: None,
            parked: HashMap::new(),
            discovery: None,
            finder: None,
            wake: Arc::new(|| {}),
            clock: Clock::system(),
            changed: None,
            screen: Screen::default(),
            quit: false,
            save_locked: None,
            drop_pending_save: false,
            preset_totals: PresetTotals::default(),
        };
        state.add_explicit_files();
        state.refresh();
        state
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
        self.tree.files = FileTree::new();
        self.walk.walked = Arc::new(Vec::new());
        self.walk.done = false;
        self.add_explicit_files();
        self.refresh_rows();
    }

    /// The walk is complete: sort the file list globs expand over.
    pub fn finish_walk(&mut self) {
        self.walk.done = true;
        let walked = Arc::make_mut(&mut self.walk.walked);
        walked.sort_unstable();
        walked.dedup();
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
            walk::ResolveChange::Patched(touched) => self.patch_gauge_sum(touched),
            walk::ResolveChange::Rebuilt => self.composition.sum = None,
        }
        self.refresh_rows();
    }

    /// How many included files folder `dir` holds (a binary search over
    /// the sorted resolved list).
    pub fn included_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self
            .walk
            .resolved
            .partition_point(|r| r.path.as_str() < prefix.as_str());
        self.walk.resolved[start..]
            .iter()
            .take_while(|r| r.path.starts_with(&prefix))
            .count()
    }

    /// Update the gauge from the cached counts; returns the included files
    /// with no count for their current form. The sum over the included
    /// files is kept between calls and patched where an edit or a count
    /// touched a few paths, so a keypress costs the same at 100,000 files
    /// as at 100; it is summed anew after a full resolution, a
    /// composition's counts or a change of the compose options.
    pub fn refresh_gauge(&mut self) -> Vec<ResolvedItem> {
        let opts = self.compose_options();
        if self.composition.sum.as_ref().is_none_or(|g| g.opts != opts) {
            self.composition.sum = Some(self.sum_gauge(opts));
        }
        let Some(g) = &self.composition.sum else {
            return Vec::new();
        };
        let (sum, missing) = (g.sum, g.missing.values().cloned().collect::<Vec<_>>());
        let current = self.composition.composed.as_ref().filter(|c| {
            c.generation == self.composition.generation && c.exact && missing.is_empty()
        });
        let work = self.composition.gauge.work;
        self.composition.gauge = match current {
            Some(c) => Gauge {
                used: c.total_tokens,
                pending: 0,
                exact: true,
                work,
            },
            None => Gauge {
                used: usize::try_from((sum as i64 + self.composition.overhead).max(0)).unwrap_or(0),
                pending: missing.len(),
                exact: false,
                work,
            },
        };
        missing
    }

    /// The sum over every included file (see [`State::refresh_gauge`]).
    fn sum_gauge(&self, opts: ComposeOptions) -> GaugeSum {
        let mut g = GaugeSum {
            opts,
            sum: 0,
            missing: BTreeMap::new(),
        };
        // Every file of one entry renders with the same key.
        let mut keys: Vec<Option<String>> = Vec::new();
        for r in self.walk.resolved.iter().filter(|r| r.item.auto_aggregate) {
            if keys.len() <= r.entry && r.entry != usize::MAX {
                keys.resize(r.entry + 1, None);
            }
            let fresh;
            let key = match keys.get_mut(r.entry) {
                Some(slot) => {
                    &*slot.get_or_insert_with(|| render_key(&r.item, g.opts.mode_for(&r.item)))
                }
                None => {
                    fresh = render_key(&r.item, g.opts.mode_for(&r.item));
                    &fresh
                }
            };
            match self.composition.block_tokens.get(&r.path) {
                Some((k, n)) if k == key => g.sum += n,
                _ => {
                    g.missing.insert(r.path.clone(), r.clone());
                }
            }
        }
        g
    }

    /// What `r` adds to the gauge's sum: `None` when it is not rendered,
    /// `Some(None)` when its current form has no count yet.
    fn gauge_share(&self, opts: &ComposeOptions, r: &ResolvedItem) -> Option<Option<usize>> {
        if !r.item.auto_aggregate {
            return None;
        }
        let key = render_key(&r.item, opts.mode_for(&r.item));
        Some(match self.composition.block_tokens.get(&r.path) {
            Some((k, n)) if *k == key => Some(*n),
            _ => None,
        })
    }

    /// Take `r`'s share out of (`add == false`) or into the kept sum.
    fn move_share(&mut self, r: &ResolvedItem, add: bool) {
        let Some(mut g) = self.composition.sum.take() else {
            return;
        };
        match self.gauge_share(&g.opts, r) {
            None => {}
            Some(Some(n)) if add => g.sum += n,
            Some(Some(n)) => g.sum = g.sum.saturating_sub(n),
            Some(None) if add => {
                g.missing.insert(r.path.clone(), r.clone());
            }
            Some(None) => {
                g.missing.remove(&r.path);
            }
        }
        self.composition.sum = Some(g);
    }

    /// The resolution was patched at `touched` (each with its item
    /// before): move those files' shares.
    fn patch_gauge_sum(&mut self, touched: Vec<(String, Option<ResolvedItem>)>) {
        if self.composition.sum.is_none() {
            return;
        }
        for (path, before) in touched {
            if let Some(before) = before {
                self.move_share(&before, false);
            }
            if let Some(now) = self.resolved_for(&path).cloned() {
                self.move_share(&now, true);
            }
        }
    }

    /// `Err` with both sums when the kept sum differs from one made anew
    /// (for tests: a patch that missed a path shows here).
    pub fn verify_gauge_sum(&self) -> Result<(), String> {
        let Some(kept) = &self.composition.sum else {
            return Ok(());
        };
        let fresh = self.sum_gauge(kept.opts.clone());
        let paths = |g: &GaugeSum| g.missing.keys().cloned().collect::<Vec<_>>();
        if fresh.sum == kept.sum && paths(&fresh) == paths(kept) {
            Ok(())
        } else {
            Err(format!(
                "kept sum {} (missing {:?}), anew {} (missing {:?})",
                kept.sum,
                paths(kept),
                fresh.sum,
                paths(&fresh)
            ))
        }
    }

    /// Take in the count of one file's block (the worker counted it).
    pub fn learn_count(&mut self, path: String, key: String, n: usize) {
        let included = self.resolved_for(&path).cloned();
        if let Some(r) = &included {
            self.move_share(r, false);
        }
        self.composition.block_tokens.insert(path, (key, n));
        if let Some(r) = &included {
            self.move_share(r, true);
        }
    }

    /// Take in a composition's per-file counts.
    pub fn learn_counts(&mut self, composed: &Composed) {
        self.composition.sum = None;
        let mut sum = 0i64;
        for f in &composed.files {
            sum += f.tokens as i64;
            self.composition
                .block_tokens
                .insert(f.path.clone(), (f.key.clone(), f.tokens));
        }
        if composed.exact {
            self.composition.overhead = composed.total_tokens as i64 - sum;
        }
    }

    /// Clear the tree filter with the cursor still on the row it was on:
    /// the folders above it are opened, so it stays visible unfiltered.
    pub fn clear_filter(&mut self) {
        let current = self.current_row().map(|r| r.path.clone());
        self.tree.filter.clear();
        if let Some(path) = current {
            for (i, _) in path.match_indices('/') {
                self.tree.open_dirs.insert(path[..i].to_string());
            }
        }
        self.refresh_rows();
    }

    /// Recompute the visible rows, keeping the cursor on the same path.
    pub fn refresh_rows(&mut self) {
        let current = self.current_row().map(|r| r.path.clone());
        self.tree.rows = self
            .tree
            .files
            .rows(&self.tree.open_dirs, &self.tree.filter);
        if let Some(path) = current
            && let Some(i) = self.tree.rows.iter().position(|r| r.path == path)
        {
            self.tree.cursor = i;
        }
        self.tree.cursor = self.tree.cursor.min(self.tree.rows.len().saturating_sub(1));
    }

    /// How many rows the symbols pane lists for the current file.
    pub fn symbol_count(&self) -> usize {
        self.symbols
            .view
            .as_ref()
            .and_then(|s| s.tree.as_ref())
            .map_or(0, |t| crate::tui::symbols::flat_symbols(t).len())
    }

    /// The row under the tree cursor.
    pub fn current_row(&self) -> Option<&Row> {
        self.tree.rows.get(self.tree.cursor)
    }

    /// The file under the tree cursor (not a folder).
    pub fn current_file(&self) -> Option<&str> {
        self.current_row()
            .filter(|r| !r.is_dir)
            .map(|r| r.path.as_str())
    }

    /// How `path` is included, if it is (a binary search).
    pub fn resolved_for(&self, path: &str) -> Option<&ResolvedItem> {
        self.walk
            .resolved
            .binary_search_by(|r| r.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.walk.resolved[i])
    }

    /// `true` when the preset includes `path`.
    pub fn is_included(&self, path: &str) -> bool {
        self.resolved_for(path).is_some()
    }

    /// Every included file, sorted.
    pub fn included_paths(&self) -> Vec<&str> {
        self.walk.resolved.iter().map(|r| r.path.as_str()).collect()
    }

    /// The preset entry that renders `path`: its explicit entry, or the
    /// glob entry that includes it (with the concrete path).
    pub fn item_for(&self, path: &str) -> Option<FileItem> {
        self.resolved_for(path).map(|r| r.item.clone())
    }

    /// The keymap context for the current focus and overlay.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Picker { .. }) => Context::Picker,
            Some(Overlay::ConfirmCopy(_) | Overlay::ConfirmQuit) => Context::Confirm,
            Some(Overlay::Tokens { .. }) => Context::Tokens,
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

    /// What a preset's repo map needs, from the current settings.
    pub fn map_options(&self) -> MapOptions {
        MapOptions::from_settings(&self.project.settings)
    }

    /// Set the status line.
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        self.status = Some((text.into(), level));
    }

    /// The range of rows selected with `v` (inclusive), if any.
    pub fn selection(&self) -> Option<(usize, usize)> {
        let anchor = self.tree.range_anchor?;
        Some((anchor.min(self.tree.cursor), anchor.max(self.tree.cursor)))
    }

    /// The composed file entry of `path`, if it is in the composition.
    pub fn composed_file(&self, path: &str) -> Option<&ComposedFile> {
        let c = self.composition.composed.as_ref()?;
        c.index.get(path).and_then(|i| c.files.get(*i))
    }
}
