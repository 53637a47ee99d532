//! The TUI's whole state: the project (presets and settings, from the
//! core), the file tree, cursors, overlays, the last composition and the
//! undo history. `update` is the only code that changes it; rendering
//! only reads it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::core::compose::ComposeOptions;
use crate::core::model::{FileItem, Preset, ProjectFile};
use crate::core::project::Project;
use crate::core::syntax::SymbolTree;
use crate::core::walk;

use super::keymap::{Context, Keymap};
use super::tree::{FileTree, Row};

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
}

/// A modal layer over the panes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    Help { scroll: usize },
    Picker { cursor: usize },
    Input { prompt: Prompt, buffer: String },
}

/// How serious a status message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

/// One file's place in the composition.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedFile {
    pub path: String,
    /// Line of its `### path` heading in the composed text.
    pub line: usize,
    pub tokens: usize,
    pub error: bool,
}

/// The latest composition, from the worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    pub generation: u64,
    pub text: Arc<str>,
    /// The text split into lines (for the preview).
    pub lines: Arc<Vec<String>>,
    pub files: Vec<ComposedFile>,
    pub total_tokens: usize,
    /// `total_tokens` counts the whole text (else it sums the files).
    pub exact: bool,
}

/// The symbols pane's content.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolsView {
    pub path: String,
    /// `None`: the file type has no grammar (or could not be read).
    pub tree: Option<Arc<SymbolTree>>,
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
}

/// Undo and redo stacks of whole project-file snapshots.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub undo: Vec<ProjectFile>,
    pub redo: Vec<ProjectFile>,
}

/// How many undo steps are kept.
pub const HISTORY_LIMIT: usize = 200;

/// The application state.
pub struct State {
    pub project: Project,
    pub keymap: Keymap,
    pub files: FileTree,
    /// Every walked file, sorted (what globs expand over).
    pub walked: Arc<Vec<String>>,
    pub walk_done: bool,
    pub open_dirs: HashSet<String>,
    pub filter: String,
    /// Visible tree rows (derived from files, open_dirs and filter).
    pub rows: Vec<Row>,
    pub cursor: usize,
    pub range_anchor: Option<usize>,
    /// Included file → index of the preset entry that includes it
    /// (derived from the preset and the file list).
    pub included: HashMap<String, usize>,
    /// Folder → how many included files it holds (derived with `included`).
    pub included_under: HashMap<String, usize>,
    pub focus: Pane,
    pub symbols: Option<SymbolsView>,
    pub symbol_cursor: usize,
    pub preview: PreviewState,
    pub composed: Option<Composed>,
    /// Generation of the newest compose request.
    pub generation: u64,
    pub overlay: Option<Overlay>,
    pub history: History,
    pub status: Option<(String, Level)>,
    /// Terminal height, for page moves.
    pub page: usize,
    pub quit: bool,
}

impl State {
    /// A fresh state over `project`; the file list starts with the
    /// preset's explicitly named files and grows as the walk streams in.
    pub fn new(project: Project, keymap: Keymap) -> State {
        let mut state = State {
            project,
            keymap,
            files: FileTree::new(),
            walked: Arc::new(Vec::new()),
            walk_done: false,
            open_dirs: HashSet::new(),
            filter: String::new(),
            rows: Vec::new(),
            cursor: 0,
            range_anchor: None,
            included: HashMap::new(),
            included_under: HashMap::new(),
            focus: Pane::Tree,
            symbols: None,
            symbol_cursor: 0,
            preview: PreviewState::default(),
            composed: None,
            generation: 0,
            overlay: None,
            history: History::default(),
            status: None,
            page: 20,
            quit: false,
        };
        state.add_explicit_files();
        state.refresh();
        state
    }

    /// Put the preset's explicitly named files in the tree, so they show
    /// (and can be removed) even when the walk skips them (ignored, missing).
    pub fn add_explicit_files(&mut self) {
        for item in self.project.active_preset().files {
            if !walk::is_glob(&item.path) && walk::is_inside(&item.path) {
                self.files.insert(&item.path);
            }
        }
    }

    /// Merge a batch of walked files.
    pub fn add_walked(&mut self, batch: Vec<String>) {
        for path in &batch {
            self.files.insert(path);
        }
        let walked = Arc::make_mut(&mut self.walked);
        walked.extend(batch);
        walked.sort_unstable();
        walked.dedup();
    }

    /// The active preset (a clone; empty when it does not exist yet).
    pub fn preset(&self) -> Preset {
        self.project.active_preset()
    }

    /// Recompute the derived parts: inclusion and visible rows.
    pub fn refresh(&mut self) {
        let preset = self.preset();
        let (resolved, _) = walk::expand_over(&preset.files, &self.walked);
        let mut under: HashMap<String, usize> = HashMap::new();
        for r in &resolved {
            for (i, _) in r.path.match_indices('/') {
                *under.entry(r.path[..i].to_string()).or_default() += 1;
            }
        }
        self.included_under = under;
        self.included = resolved.into_iter().map(|r| (r.path, r.entry)).collect();
        self.refresh_rows();
    }

    /// Recompute the visible rows, keeping the cursor on the same path.
    pub fn refresh_rows(&mut self) {
        let current = self.current_row().map(|r| r.path.clone());
        self.rows = self.files.rows(&self.open_dirs, &self.filter);
        if let Some(path) = current
            && let Some(i) = self.rows.iter().position(|r| r.path == path)
        {
            self.cursor = i;
        }
        self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
    }

    /// The row under the tree cursor.
    pub fn current_row(&self) -> Option<&Row> {
        self.rows.get(self.cursor)
    }

    /// The file under the tree cursor (not a folder).
    pub fn current_file(&self) -> Option<&str> {
        self.current_row()
            .filter(|r| !r.is_dir)
            .map(|r| r.path.as_str())
    }

    /// The preset entry that renders `path`: its explicit entry, or the
    /// glob entry that includes it (with the concrete path).
    pub fn item_for(&self, path: &str) -> Option<FileItem> {
        let idx = *self.included.get(path)?;
        let mut item = self.preset().files.get(idx)?.clone();
        item.path = path.to_string();
        Some(item)
    }

    /// The keymap context for the current focus and overlay.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Picker { .. }) => Context::Picker,
            _ => match self.focus {
                Pane::Tree => Context::Tree,
                Pane::Symbols => Context::Symbols,
                Pane::Preview => Context::Preview,
            },
        }
    }

    /// Compose options from the current settings.
    pub fn compose_options(&self) -> ComposeOptions {
        ComposeOptions::from_settings(&self.project.settings)
    }

    /// Set the status line.
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        self.status = Some((text.into(), level));
    }

    /// The range of rows selected with `v` (inclusive), if any.
    pub fn selection(&self) -> Option<(usize, usize)> {
        let anchor = self.range_anchor?;
        Some((anchor.min(self.cursor), anchor.max(self.cursor)))
    }

    /// The composed file entry of `path`, if it is in the composition.
    pub fn composed_file(&self, path: &str) -> Option<&ComposedFile> {
        self.composed
            .as_ref()
            .and_then(|c| c.files.iter().find(|f| f.path == path))
    }
}
