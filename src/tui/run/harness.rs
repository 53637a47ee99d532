//! A headless driver of the TUI for tests and benchmarks: key presses go
//! through the real keymap, dispatcher and `update`; jobs run inline on
//! the caller's thread; saves go to disk; clipboard copies are recorded
//! (or go through a real clipboard a test hands over, an OSC 52 one
//! writing into a buffer, say); frames render into a ratatui `TestBackend`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use crossterm::event::{KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::core::model::{ProjectFile, Settings};
use crate::core::project::Project;
use crate::core::sources::Sources;
use crate::core::walk;
use crate::tui::clipboard::Clipboard;
use crate::tui::input::keymap::Key;
use crate::tui::messages::{EditPurpose, Effect, Event, Job};
use crate::tui::navigate::follow_cursor;
use crate::tui::project_sync::{DiskSync, SyncOutcome};
use crate::tui::render::{self, ViewState};
use crate::tui::run::app;
use crate::tui::run::dispatch;
use crate::tui::run::effects;
use crate::tui::run::jobs;
use crate::tui::state::State;
use crate::tui::state::clock::Clock;
use crate::tui::state::model::CopyFailure;
use crate::tui::undo::recompose;
use crate::tui::update::update;

/// The TUI without a terminal.
pub struct Harness {
    pub state: State,
    pub cache: Sources,
    /// Every text copied to the clipboard, in order.
    pub copied: Vec<String>,
    /// A real clipboard for the copies (see [`Harness::use_clipboard`]);
    /// `None`: every copy succeeds into [`Harness::copied`].
    clipboard: Option<Box<dyn Clipboard>>,
    /// How many saves wrote the file.
    pub saves: usize,
    /// The editor's scripted answers, taken in order by `e` / `E` (no
    /// editor is ever run): the text saved, or why there is none. An
    /// empty queue answers with an error.
    pub editor_answers: std::collections::VecDeque<Result<String, String>>,
    /// The texts handed to the editor, in order.
    pub edited: Vec<(EditPurpose, String)>,
    /// A save that found the project lock held by another process: the
    /// app's saver would wait for it; the harness keeps it until
    /// [`Harness::retry_save`] (saves never block a test).
    pub pending_save: Option<ProjectFile>,
    sync: DiskSync,
    view: ViewState,
    terminal: Terminal<TestBackend>,
}

impl Harness {
    /// Open the project at `root` (global config from `global`, if any)
    /// in a `width`×`height` terminal, with the whole walk delivered.
    /// Nothing is trusted (see [`Harness::open_project`]).
    pub fn open(root: &Path, global: Option<&Path>, width: u16, height: u16) -> Result<Harness> {
        Harness::open_project(Project::open_at(root, global)?, width, height)
    }

    /// [`Harness::open`] on a project opened by the caller (with the
    /// consents of a trust store, say).
    pub fn open_project(project: Project, width: u16, height: u16) -> Result<Harness> {
        let root = project.root.clone();
        let root = root.as_path();
        let (mut state, _) = app::startup(project);
        // Time moves only when a test says so (`Harness::wait`).
        state.clock = Clock::manual();
        let sync = DiskSync::new(state.project.path.clone(), state.project.file.clone());
        let cache = state.project.file_cache();
        cache.set_policy(state.compose_options().read);
        let mut h = Harness {
            sync,
            state,
            cache,
            copied: Vec::new(),
            clipboard: None,
            saves: 0,
            editor_answers: Default::default(),
            edited: Vec::new(),
            pending_save: None,
            view: ViewState::default(),
            terminal: Terminal::new(TestBackend::new(width, height))?,
        };
        h.send(Event::Resize { width, height });
        let walked = walk::walk_files_noted(
            root,
            &walk::WalkPatterns::from_settings(&h.state.project.settings),
        );
        h.send(Event::Walked(walked.files));
        h.send(Event::WalkNotes(walk::notes_lines(&walked.notes)));
        h.send(Event::WalkDone);
        let mut effects = recompose(&mut h.state);
        effects.extend(follow_cursor(&mut h.state));
        h.run(effects);
        Ok(h)
    }

    /// Send the copies through `clipboard`, as the app sends them through
    /// the one its settings build (`clipboard::from_settings`): its
    /// refusals are the app's. What it took is still in
    /// [`Harness::copied`].
    pub fn use_clipboard(&mut self, clipboard: Box<dyn Clipboard>) {
        self.clipboard = Some(clipboard);
    }

    /// Feed one event and run every effect it causes, to quiescence.
    pub fn send(&mut self, event: Event) {
        let effects = update(&mut self.state, event);
        self.run(effects);
    }

    /// Run effects (jobs inline, feeding their events back) to quiescence,
    /// through the event loop's own interpreter ([`effects::run`]).
    pub fn run(&mut self, effects: Vec<Effect>) {
        let mut inline = Inline {
            root: self.state.project.root.clone(),
            sync: &mut self.sync,
            cache: &self.cache,
            copied: &mut self.copied,
            clipboard: self.clipboard.as_deref_mut(),
            saves: &mut self.saves,
            editor_answers: &mut self.editor_answers,
            edited: &mut self.edited,
            pending_save: &mut self.pending_save,
        };
        effects::run(&mut self.state, effects, &mut inline);
        self.settle_finder();
    }

    /// Wait until the finder's matcher threads have ranked every path for
    /// the current query (the app is woken for their results instead), so
    /// a test sees the final list; gives up after about ten seconds.
    pub fn settle_finder(&mut self) {
        for _ in 0..500 {
            let running = self.state.finder.as_mut().is_some_and(|f| f.tick(20));
            if !running {
                break;
            }
        }
    }

    /// Look at the user's state file as the app's idle tick does, and
    /// take in what another program changed there.
    pub fn check_personal(&mut self) {
        if let Some(disk) = self.state.project.personal_on_disk() {
            self.send(Event::PersonalChanged(Box::new(disk)));
        }
    }

    /// What the app does as it ends: remember where the user is (the
    /// tree's cursor and open folders) with their own settings, in the
    /// project's personal store (see `State::remember`).
    pub fn remember(&mut self) -> Result<bool, crate::core::project::PersonalError> {
        self.state.remember()
    }

    /// Try the save that waits for the project lock again (as the app's
    /// saver does once the lock is free), feeding its outcome back.
    pub fn retry_save(&mut self) {
        // The app's saver writes the newest snapshot: the state's file.
        if self.pending_save.take().is_some() {
            self.run(vec![Effect::Save]);
        }
    }

    /// What the event loop does when idle: look for outside changes to
    /// the project file.
    pub fn check_disk(&mut self) {
        let outcome = self.sync.check();
        self.send(Event::Disk(Box::new(outcome)));
    }

    /// Let `ms` milliseconds pass on the TUI's clock (nothing sleeps).
    pub fn wait(&mut self, ms: u64) {
        self.state
            .clock
            .advance(std::time::Duration::from_millis(ms));
    }

    /// Press one key and return the effects `update` asked for, without
    /// running them (benchmarks time `update` and the jobs separately).
    pub fn press(&mut self, spec: &str) -> Vec<Effect> {
        let key = Key::parse(spec).unwrap_or_else(|e| panic!("bad key in test: {e}"));
        let mut mods = KeyModifiers::NONE;
        if key.ctrl {
            mods |= KeyModifiers::CONTROL;
        }
        if key.alt {
            mods |= KeyModifiers::ALT;
        }
        match dispatch::key_event(&self.state, &KeyEvent::new(key.code, mods)) {
            Some(event) => {
                self.state.status = None;
                update(&mut self.state, event)
            }
            None => Vec::new(),
        }
    }

    /// Press one key, named as in the keymap (`j`, `space`, `ctrl-r`, `G`).
    pub fn key(&mut self, spec: &str) {
        let effects = self.press(spec);
        self.run(effects);
    }

    /// Press keys separated by spaces: `"j j space m"`.
    pub fn keys(&mut self, specs: &str) {
        for spec in specs.split_whitespace() {
            self.key(spec);
        }
    }

    /// Type text into an open prompt, character by character.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            let ev = KeyEvent::new(crossterm::event::KeyCode::Char(c), KeyModifiers::NONE);
            if let Some(event) = dispatch::key_event(&self.state, &ev) {
                self.send(event);
            }
        }
    }

    /// Move the tree cursor to `path` (opening its folders).
    pub fn goto(&mut self, path: &str) {
        for (i, _) in path.match_indices('/') {
            self.state.tree.open_dirs.insert(path[..i].to_string());
        }
        self.state.refresh_rows();
        if let Some(i) = self.state.tree.rows.iter().position(|r| r.path == path) {
            self.state.tree.cursor = i;
        }
        let effects = follow_cursor(&mut self.state);
        self.run(effects);
    }

    /// The latest composition's text (empty before the first one).
    pub fn composed_text(&self) -> String {
        self.state
            .composition
            .composed
            .as_ref()
            .map(|c| c.text.to_string())
            .unwrap_or_default()
    }

    /// The first tree row on screen at the last frame (what a mouse
    /// event carries as `tree_top`).
    pub fn tree_top(&self) -> usize {
        self.view.tree.get_offset()
    }

    /// Resize the terminal.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
        self.send(Event::Resize { width, height });
    }

    /// Render a frame and return the cells drawn, styles included (for
    /// tests of highlights).
    pub fn buffer(&mut self) -> ratatui::buffer::Buffer {
        let _ = self.screen();
        self.terminal.backend().buffer().clone()
    }

    /// Render a frame and return the screen as text, one line per row.
    pub fn screen(&mut self) -> String {
        let state = &self.state;
        let view = &mut self.view;
        if let Err(e) = self.terminal.draw(|f| render::render(state, view, f)) {
            return format!("draw failed: {e}");
        }
        let buffer = self.terminal.backend().buffer().clone();
        let width = buffer.area.width as usize;
        let mut out = String::new();
        for (i, cell) in buffer.content.iter().enumerate() {
            out.push_str(cell.symbol());
            if (i + 1) % width == 0 {
                out.push('\n');
            }
        }
        out
    }
}

/// The harness's way of carrying out effects: everything inline, on the
/// caller's thread; the clipboard is a list.
struct Inline<'a> {
    root: PathBuf,
    sync: &'a mut DiskSync,
    cache: &'a Sources,
    copied: &'a mut Vec<String>,
    clipboard: Option<&'a mut (dyn Clipboard + 'static)>,
    saves: &'a mut usize,
    editor_answers: &'a mut std::collections::VecDeque<Result<String, String>>,
    edited: &'a mut Vec<(EditPurpose, String)>,
    pending_save: &'a mut Option<ProjectFile>,
}

impl effects::Runtime for Inline<'_> {
    fn save(&mut self, file: &ProjectFile) -> Option<Event> {
        // Never waits: a held lock leaves the save pending, as the app's
        // saver leaves it waiting.
        let outcome = self.sync.try_save(file);
        if outcome == SyncOutcome::Saved {
            *self.saves += 1;
        }
        *self.pending_save = matches!(outcome, SyncOutcome::Locked(_)).then(|| file.clone());
        Some(Event::Disk(Box::new(outcome)))
    }

    fn job(&mut self, job: Job, settings: &Settings) -> Option<Event> {
        Some(jobs::run(job, &self.root, self.cache, settings))
    }

    fn apart(&mut self, root: &Path, job: Job) -> Option<Event> {
        Some(jobs::run_apart(job, root))
    }

    fn walk(&mut self, root: &Path, patterns: walk::WalkPatterns) -> Vec<Event> {
        let walked = walk::walk_files_noted(root, &patterns);
        vec![
            Event::Walked(walked.files),
            Event::WalkNotes(walk::notes_lines(&walked.notes)),
            Event::WalkDone,
        ]
    }

    fn rewalk(&mut self, root: &Path, patterns: walk::WalkPatterns) -> Vec<Event> {
        let walked = walk::walk_files_noted(root, &patterns);
        vec![
            Event::Rewalked(walked.files),
            Event::WalkNotes(walk::notes_lines(&walked.notes)),
        ]
    }

    fn rescan(
        &mut self,
        root: &Path,
        patterns: walk::WalkPatterns,
        changed: Vec<String>,
    ) -> Vec<Event> {
        vec![Event::Rescanned(walk::rescan(root, &patterns, &changed))]
    }

    fn copy(&mut self, text: &str) -> Result<String, CopyFailure> {
        let went = match self.clipboard.as_deref_mut() {
            Some(clipboard) => app::copy_with(clipboard, text)?,
            None => "the test clipboard".to_string(),
        };
        self.copied.push(text.to_string());
        Ok(went)
    }

    fn edit(&mut self, purpose: EditPurpose, text: &str) -> Result<String, String> {
        self.edited.push((purpose, text.to_string()));
        self.editor_answers
            .pop_front()
            .unwrap_or_else(|| Err("no scripted editor answer".to_string()))
    }
}
