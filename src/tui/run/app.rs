//! The event loop: terminal set-up and restore (on quit, error and panic),
//! the input, walker, worker and saver threads, and the running of the
//! effects `update` returns. Everything heavy happens off this thread.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use crossterm::event::{self as term, Event as TermEvent};

use crate::core::model::{ProjectFile, Settings};
use crate::core::progress::Progress;
use crate::core::project::Project;
use crate::core::sources::Sources;
use crate::core::walk;
use crate::core::watch::{ProjectWatch, WatchReport};
use crate::text::error_chain;
use crate::tui::clipboard::{self, Clipboard, ClipboardMode, EnvProbe};
use crate::tui::input::keymap::Keymap;
use crate::tui::messages::{EditPurpose, Effect, Event, Job};
use crate::tui::navigate::follow_cursor;
use crate::tui::project_sync::{DiskSync, SyncOutcome};
use crate::tui::render::{self, ViewState};
use crate::tui::run::dispatch;
use crate::tui::run::editor::{self, InputGate};
use crate::tui::run::effects;
use crate::tui::run::jobs;
use crate::tui::run::signals;
use crate::tui::state::model::{CopyFailure, OverCap};
use crate::tui::state::{Level, Overlay, State};
use crate::tui::undo::recompose;
use crate::tui::update::update;

/// What arrives at the loop.
enum Msg {
    Term(TermEvent),
    App(Event),
    /// A termination signal (see [`signals`]): quit as `q` does.
    Signal(i32),
}

/// How the app ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit.
    Quit,
    /// A termination signal ended it (after the save and the restore).
    Signal(i32),
}

impl Ended {
    /// The process exit status for this ending.
    pub fn exit_status(self) -> u8 {
        match self {
            Ended::Quit => 0,
            Ended::Signal(sig) => u8::try_from(signals::exit_status(sig)).unwrap_or(u8::MAX),
        }
    }
}

/// How many walked paths travel in one message.
const WALK_BATCH: usize = 2000;

/// Run the TUI on the project around `cwd` until the user quits or a
/// termination signal arrives; the terminal is restored either way.
pub fn run(cwd: &Path) -> Result<Ended> {
    // Opening and the personal layer each resolve the settings: one scan
    // of the command's scripts serves both. Later resolves (an edit, an
    // undo) read the disk again.
    let (state, mode) = crate::core::trust::one_scan::run(|| Project::open(cwd).map(startup))?;
    let (tx, rx) = mpsc::channel::<Msg>();
    // Watch before the terminal changes, so no signal finds it raw.
    let signal_tx = tx.clone();
    signals::watch(move |sig| {
        // The loop may be waiting for the user's editor: end that wait.
        editor::interrupt();
        let _ = signal_tx.send(Msg::Signal(sig));
    })
    .context("cannot watch for termination signals")?;
    // The last resort for exits that pass by the loop and the panic hook
    // (abort, `process::exit`, fatal signals): armed before the terminal
    // changes.
    signals::guard_terminal();
    let mut terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            signals::restore_terminal();
            return Err(e).context("cannot set up the terminal");
        }
    };
    install_panic_hook();
    if state.project.settings.mouse
        && let Err(e) = crossterm::execute!(io::stdout(), term::EnableMouseCapture)
    {
        signals::restore_terminal();
        return Err(e).context("cannot turn mouse capture on");
    }
    let result = event_loop(&mut terminal, state, mode, (tx, rx));
    signals::restore_terminal();
    result
}

/// The state the app starts in, with what went wrong loading the user's
/// settings (unknown keys, a bad keymap entry, a bad clipboard mode) in
/// the status line: reported, never fatal.
pub fn startup(project: Project) -> (State, ClipboardMode) {
    let (keymap, problems) = Keymap::load(project.global.extra.get("keymap"));
    // Typed and checked when the settings were loaded (a bad mode is one
    // of the project's warnings).
    let mode = project.settings.clipboard;
    let mut state = State::new(project, keymap);
    let mut warnings = state.project.warnings.clone();
    if !problems.is_empty() {
        warnings.push(format!("keymap: {} (defaults kept)", problems.join("; ")));
    }
    if !warnings.is_empty() {
        state.say(Level::Warn, warnings.join(" · "));
    }
    (state, mode)
}

/// A panic on the UI thread restores the terminal before the message is
/// printed; a panic on a background thread is caught there (the job
/// becomes an error in the status line) and must not touch the screen.
fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if thread::current().name() == Some("main") {
            signals::restore_terminal();
            default(info);
        }
    }));
}

/// The text of a caught panic.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    mut state: State,
    mode: ClipboardMode,
    channel: (Sender<Msg>, Receiver<Msg>),
) -> Result<Ended> {
    let mut lp = Loop::start(terminal, &mut state, mode, channel);
    lp.first_frame(&mut state);
    let mut ended = Ended::Quit;
    loop {
        while !state.quit && lp.drawn.is_ok() {
            let working = lp.follow_progress(&mut state);
            // While the worker counts a lot, the gauge follows it (a tick
            // every 100 ms); idle, the loop wakes once a second.
            let tick = Duration::from_millis(if working { 100 } else { 1000 });
            let msg = match lp.rx.recv_timeout(tick) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    lp.on_tick(&mut state, working);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if let Some(sig) = lp.handle_waiting(&mut state, msg) {
                ended = Ended::Signal(sig);
                state.quit = true;
            }
            if !state.quit {
                lp.draw(&state);
            }
        }
        // The user quit: the last save is flushed with the screen still
        // up, so a save that waits for a lock brings the question back.
        // A signal, a lost terminal or a dropped save end it as they are.
        if ended != Ended::Quit || lp.drawn.is_err() || state.drop_pending_save {
            break;
        }
        match lp.flush(&mut state) {
            Flushed::Done => break,
            Flushed::Signal(sig) => {
                ended = Ended::Signal(sig);
                break;
            }
            Flushed::Asked => lp.draw(&state),
        }
    }
    lp.finish(&mut state, ended)
}

/// How flushing the last save on quit ended.
enum Flushed {
    /// The saver is done with it (saved, or failed for a reason that
    /// waiting does not change: reported on exit).
    Done,
    /// A termination signal came meanwhile.
    Signal(i32),
    /// The save waits for a lock another process holds: the question is
    /// up, and the loop goes on.
    Asked,
}

/// What the event loop holds besides the state: the terminal, the
/// channel, the threads it hands work to, the clipboard, and the widgets'
/// scroll state.
struct Loop<'t> {
    terminal: &'t mut ratatui::DefaultTerminal,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    gate: Arc<InputGate>,
    worker: Worker,
    save_tx: Sender<SyncMsg>,
    saver: thread::JoinHandle<Option<String>>,
    /// How far the worker's counting has come, and what the gauge shows.
    progress: Arc<Progress>,
    shown_progress: (usize, usize),
    clipboard: Box<dyn Clipboard>,
    view: ViewState,
    /// The last draw: a terminal that fails (hung up: SIGHUP, a closed SSH
    /// session) ends the loop, but the last save still happens.
    drawn: io::Result<()>,
    /// The project's watch (files changed on disk); stops when dropped.
    watch: ProjectWatch,
}

impl<'t> Loop<'t> {
    /// Start the input, walker, worker and saver threads.
    fn start(
        terminal: &'t mut ratatui::DefaultTerminal,
        state: &mut State,
        mode: ClipboardMode,
        (tx, rx): (Sender<Msg>, Receiver<Msg>),
    ) -> Loop<'t> {
        let root = state.project.root.clone();
        // The finder's matcher threads wake the loop when they have results
        // (at most once between two of its ticks), so the list redraws.
        let wake_tx = tx.clone();
        state.wake = Arc::new(move || {
            let _ = wake_tx.send(Msg::App(Event::FinderResults));
        });
        let gate = Arc::new(InputGate::default());
        spawn_input(tx.clone(), gate.clone());
        spawn_walker(root.clone(), patterns(state), tx.clone());
        let watch = spawn_watch(&root, patterns(state), tx.clone());
        // Counts, parsed views and summaries (the summary command runs on the
        // worker) go through the project's disk cache, shared with the CLI.
        let cache = Arc::new(state.project.file_cache());
        cache.set_policy(state.compose_options().read);
        let progress = cache.progress();
        let worker = spawn_worker(root.clone(), cache, tx.clone());
        let (save_tx, saver) = spawn_sync(
            state.project.path.clone(),
            state.project.file.clone(),
            tx.clone(),
        );
        let clipboard: Box<dyn Clipboard> = clipboard::from_settings(
            mode,
            &state.project.settings.osc52_limits,
            &EnvProbe::from_env(),
            io::stdout(),
        );
        Loop {
            terminal,
            tx,
            rx,
            gate,
            worker,
            save_tx,
            saver,
            progress,
            shown_progress: (0, 0),
            clipboard,
            view: ViewState::default(),
            drawn: Ok(()),
            watch,
        }
    }

    /// The terminal's size, the first composition, the panes following
    /// the cursor, and the first frame.
    fn first_frame(&mut self, state: &mut State) {
        if let Ok(size) = self.terminal.size() {
            let effects = update(
                state,
                Event::Resize {
                    width: size.width,
                    height: size.height,
                },
            );
            self.run_effects(state, effects);
        }
        let mut first = recompose(state);
        first.extend(follow_cursor(state));
        self.run_effects(state, first);
        self.draw(state);
    }

    fn draw(&mut self, state: &State) {
        let view = &mut self.view;
        self.drawn = self
            .terminal
            .draw(|f| render::render(state, view, f))
            .map(drop);
    }

    fn run_effects(&mut self, state: &mut State, effects: Vec<Effect>) {
        run_effects(
            state,
            effects,
            &self.tx,
            &self.worker,
            &self.save_tx,
            self.clipboard.as_mut(),
            (&mut *self.terminal, &self.gate, &self.watch),
        );
    }

    /// Show the worker's progress in the gauge when it moved; whether the
    /// worker is busy counting.
    fn follow_progress(&mut self, state: &mut State) -> bool {
        let (done, total) = self.progress.get();
        let working = done < total;
        if (done, total) != self.shown_progress {
            self.shown_progress = (done, total);
            let phase = self.progress.phase();
            update(state, Event::Progress { phase, done, total });
            if !working {
                self.draw(state);
            }
        }
        working
    }

    /// Nothing arrived for a tick: redraw the moving gauge, or (idle) look
    /// for outside changes to the project file and to the user's own
    /// state file (a `preset apply` from a shell; a small file, read here).
    fn on_tick(&mut self, state: &mut State, working: bool) {
        if working {
            self.draw(state);
            return;
        }
        let _ = self.save_tx.send(SyncMsg::Check);
        if let Some(disk) = state.project.personal_on_disk() {
            // A change that waits (a preset this project file does not
            // hold yet) is seen on every tick: drawn only once taken in.
            let said = state.status.clone();
            let effects = update(state, Event::PersonalChanged(Box::new(disk)));
            let changed = !effects.is_empty() || state.status != said;
            self.run_effects(state, effects);
            if changed {
                self.draw(state);
            }
        }
    }

    /// Handle `msg` and everything else waiting (for at most 12 ms) before
    /// the next frame is drawn; a termination signal stops it and is
    /// returned.
    fn handle_waiting(&mut self, state: &mut State, msg: Msg) -> Option<i32> {
        let deadline = Instant::now() + Duration::from_millis(12);
        let mut next = Some(msg);
        while let Some(msg) = next.take() {
            if let Msg::Signal(sig) = msg {
                return Some(sig);
            }
            // The project file changed on disk: the saver looks now, not
            // at the next idle tick.
            if let Msg::App(Event::FilesChanged(changes)) = &msg
                && crate::tui::live::project_file(state).is_some_and(|f| changes.touches(&f))
            {
                let _ = self.save_tx.send(SyncMsg::Check);
            }
            let effects = handle(state, msg, self.view.tree.get_offset());
            self.run_effects(state, effects);
            if state.quit || Instant::now() > deadline {
                break;
            }
            next = self.rx.try_recv().ok();
        }
        None
    }

    /// Hand the saver the app's last state and wait until it is done with
    /// it. What arrives meanwhile is handled, but keys and the mouse (the
    /// user quit); a save that has waited a second for the lock another
    /// process holds asks whether to quit without it. The saver says so
    /// while it still waits for an earlier save too (`q` right after a
    /// change), so `q` never turns into a silent wait.
    fn flush(&mut self, state: &mut State) -> Flushed {
        let (done_tx, done_rx) = mpsc::channel();
        let file = Box::new(state.project.file.clone());
        if self.save_tx.send(SyncMsg::Flush(file, done_tx)).is_err() {
            return Flushed::Done;
        }
        loop {
            if !matches!(done_rx.try_recv(), Err(mpsc::TryRecvError::Empty)) {
                return Flushed::Done;
            }
            let msg = match self.rx.recv_timeout(Duration::from_millis(20)) {
                Ok(msg) => msg,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Flushed::Done,
            };
            match msg {
                Msg::Signal(sig) => return Flushed::Signal(sig),
                Msg::Term(TermEvent::Key(_) | TermEvent::Mouse(_) | TermEvent::Paste(_)) => {}
                msg => {
                    let locked = matches!(&msg, Msg::App(Event::Disk(o)) if matches!(**o, SyncOutcome::Locked(_)));
                    let effects = handle(state, msg, self.view.tree.get_offset());
                    self.run_effects(state, effects);
                    if locked {
                        state.quit = false;
                        state.quit_after_save = true;
                        state.overlay = Some(Overlay::ConfirmQuit);
                        return Flushed::Asked;
                    }
                }
            }
        }
    }

    /// The loop is over: flush the last save (unless the user chose to
    /// drop it), then report a broken terminal or a save that failed.
    fn finish(self, state: &mut State, ended: Ended) -> Result<Ended> {
        // Where the user was, for the next start (their own state file,
        // never behind the project lock). A convenience: a state directory
        // that cannot be written was said in the status line at the first
        // save of the session, and does not fail the exit.
        let _ = state.remember();
        if state.drop_pending_save {
            // The user chose to quit without the save that waits for another
            // process's lock: the saver is left to the process's end.
            self.drawn.context("cannot draw to the terminal")?;
            return Ok(ended);
        }
        // Flush the last save before leaving (and before reporting a broken
        // terminal: the curation matters more). A lock another process holds
        // is waited for within its bound, then reported.
        let _ = self
            .save_tx
            .send(SyncMsg::Save(Box::new(state.project.file.clone())));
        drop(self.save_tx);
        let saved = self.saver.join();
        self.drawn.context("cannot draw to the terminal")?;
        match saved {
            Ok(None) => Ok(ended),
            Ok(Some(problem)) => Err(anyhow::anyhow!("the curation was not saved: {problem}")),
            Err(_) => Err(anyhow::anyhow!(
                "the curation may not be saved: the saver crashed"
            )),
        }
    }
}

/// One message for `update`; `tree_top` is the tree's first row on
/// screen (where a click lands).
fn handle(state: &mut State, msg: Msg, tree_top: usize) -> Vec<Effect> {
    match msg {
        // Debug builds: F12 with CTXCURATE_TEST_DIE set ends the process
        // as a crash would (tests/integration/tui/tmux.rs checks the
        // terminal after).
        #[cfg(debug_assertions)]
        Msg::Term(TermEvent::Key(key))
            if key.code == crossterm::event::KeyCode::F(12)
                && std::env::var_os("CTXCURATE_TEST_DIE").is_some() =>
        {
            signals::test_die();
            Vec::new()
        }
        Msg::Term(TermEvent::Key(key)) => match dispatch::key_event(state, &key) {
            Some(ev) => {
                state.status = None;
                update(state, ev)
            }
            None => Vec::new(),
        },
        Msg::Term(TermEvent::Resize(width, height)) => {
            update(state, Event::Resize { width, height })
        }
        Msg::Term(TermEvent::Mouse(mouse)) => match dispatch::mouse_event(&mouse, tree_top) {
            Some(ev) => {
                state.status = None;
                update(state, ev)
            }
            None => Vec::new(),
        },
        Msg::Term(_) => Vec::new(),
        Msg::App(ev) => update(state, ev),
        // Handled by the loop before it gets here.
        Msg::Signal(_) => Vec::new(),
    }
}

/// The loop's way of carrying out effects (see [`effects`]): saves go to
/// the sync thread, jobs to the worker, walks to a new walker thread;
/// their results come back through the channel. Copies happen here, and
/// edits: the terminal is handed to the editor while the loop waits.
struct Threads<'a> {
    walk_tx: &'a Sender<Msg>,
    jobs: &'a Worker,
    save: &'a Sender<SyncMsg>,
    clipboard: &'a mut dyn Clipboard,
    terminal: &'a mut ratatui::DefaultTerminal,
    gate: &'a InputGate,
    /// Every whole walk hands its patterns to the watch too (the ignore
    /// settings may have changed: it watches what the walk enters).
    watch: &'a ProjectWatch,
}

impl effects::Runtime for Threads<'_> {
    fn save(&mut self, file: &ProjectFile) -> Option<Event> {
        let _ = self.save.send(SyncMsg::Save(Box::new(file.clone())));
        None
    }

    fn job(&mut self, job: Job, settings: &Settings) -> Option<Event> {
        self.jobs.send(job, settings);
        None
    }

    fn apart(&mut self, root: &Path, job: Job) -> Option<Event> {
        let (tx, root) = (self.walk_tx.clone(), root.to_path_buf());
        thread::spawn(move || {
            let _ = tx.send(Msg::App(jobs::run_apart(job, &root)));
        });
        None
    }

    fn walk(&mut self, root: &Path, patterns: walk::WalkPatterns) -> Vec<Event> {
        self.watch.set_patterns(patterns.clone());
        spawn_walker(root.to_path_buf(), patterns, self.walk_tx.clone());
        Vec::new()
    }

    fn rewalk(&mut self, root: &Path, patterns: walk::WalkPatterns) -> Vec<Event> {
        self.watch.set_patterns(patterns.clone());
        let (tx, root) = (self.walk_tx.clone(), root.to_path_buf());
        thread::spawn(move || {
            let walked = walk::walk_files_noted(&root, &patterns);
            let _ = tx.send(Msg::App(Event::Rewalked(walked.files)));
            let notes = walk::notes_lines(&walked.notes);
            let _ = tx.send(Msg::App(Event::WalkNotes(notes)));
        });
        Vec::new()
    }

    fn rescan(
        &mut self,
        root: &Path,
        patterns: walk::WalkPatterns,
        changed: Vec<String>,
    ) -> Vec<Event> {
        let (tx, root) = (self.walk_tx.clone(), root.to_path_buf());
        thread::spawn(move || {
            let delta = walk::rescan(&root, &patterns, &changed);
            let _ = tx.send(Msg::App(Event::Rescanned(delta)));
        });
        Vec::new()
    }

    fn copy(&mut self, text: &str) -> Result<String, CopyFailure> {
        copy_with(self.clipboard, text)
    }

    fn edit(&mut self, purpose: EditPurpose, text: &str) -> Result<String, String> {
        let what = match purpose {
            EditPurpose::Task => "task",
            EditPurpose::Message => "message",
        };
        let command = editor::editor_command(|name| std::env::var(name).ok());
        self.gate.pause();
        let result = editor::with_terminal_released(|| editor::edit_text(&command, what, text));
        // Whatever the editor left on the screen goes: the whole screen is
        // cleared and the next draw is full (at the size the terminal has
        // now). Not `Terminal::clear`: it asks the terminal where the
        // cursor is, a round trip a busy terminal may not answer in time,
        // and the edit would be lost for it. A failed clear leaves the
        // screen to the next draw; the edit is kept.
        let _ = self.terminal.size().and_then(|size| {
            self.terminal
                .resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
        });
        self.gate.resume();
        match result {
            Ok(edited) => edited,
            Err(e) => Err(format!("cannot hand the terminal over: {e}")),
        }
    }
}

/// A copy through `clipboard`: where it went, or why not, with what a
/// refusal for size alone needs for the offer of the output file.
pub fn copy_with(clipboard: &mut dyn Clipboard, text: &str) -> Result<String, CopyFailure> {
    clipboard
        .copy(text)
        .map(|dest| dest.to_string())
        .map_err(|e| CopyFailure {
            message: error_chain(&e),
            over_cap: match e.too_large() {
                Some(clipboard::ClipboardError::TooLarge {
                    len,
                    max,
                    terminal,
                    tmux_drops,
                }) => Some(OverCap {
                    bytes: *len,
                    max: *max,
                    terminal: (terminal != clipboard::limits::OTHER).then(|| terminal.clone()),
                    unreachable: tmux_drops.map(clipboard::tmux_drops_why),
                }),
                _ => None,
            },
        })
}

fn run_effects(
    state: &mut State,
    effects: Vec<Effect>,
    walk_tx: &Sender<Msg>,
    jobs: &Worker,
    save: &Sender<SyncMsg>,
    clipboard: &mut dyn Clipboard,
    (terminal, gate, watch): (&mut ratatui::DefaultTerminal, &InputGate, &ProjectWatch),
) {
    let mut threads = Threads {
        walk_tx,
        jobs,
        save,
        clipboard,
        terminal,
        gate,
        watch,
    };
    effects::run(state, effects, &mut threads);
}

/// Read terminal events until the terminal fails or the loop is gone;
/// the gate stops it while an editor owns the terminal.
fn spawn_input(tx: Sender<Msg>, gate: Arc<InputGate>) {
    thread::spawn(move || {
        while let Some(ev) = gate.next_event() {
            if let Some(ev) = ev
                && tx.send(Msg::Term(ev)).is_err()
            {
                break;
            }
        }
    });
}

/// Watch the project's files: what changed (or why watching stopped)
/// comes to the loop as an event, from the watch's own thread.
fn spawn_watch(root: &Path, patterns: walk::WalkPatterns, tx: Sender<Msg>) -> ProjectWatch {
    ProjectWatch::start(root, patterns, move |report| {
        let event = match report {
            // Nothing to show: the tree is walked already.
            WatchReport::Watching { .. } => return true,
            WatchReport::Changed(changes) => Event::FilesChanged(changes),
            WatchReport::Failed(e) => Event::WatchFailed(error_chain(&e)),
        };
        tx.send(Msg::App(event)).is_ok()
    })
}

/// The `[project] ignore`/`unignore` patterns the walk applies.
fn patterns(state: &State) -> walk::WalkPatterns {
    walk::WalkPatterns::from_settings(&state.project.settings)
}

fn spawn_walker(root: PathBuf, patterns: walk::WalkPatterns, tx: Sender<Msg>) {
    thread::spawn(move || {
        let mut batch = Vec::with_capacity(WALK_BATCH);
        let mut last = Instant::now();
        let mut open = true;
        let notes = walk::walk_each_noted(&root, &patterns, |rel| {
            batch.push(rel);
            if batch.len() >= WALK_BATCH || last.elapsed() > Duration::from_millis(100) {
                let full = std::mem::take(&mut batch);
                open = tx.send(Msg::App(Event::Walked(full))).is_ok();
                last = Instant::now();
            }
            open
        });
        if !open {
            return;
        }
        let _ = tx.send(Msg::App(Event::Walked(batch)));
        let _ = tx.send(Msg::App(Event::WalkNotes(walk::notes_lines(&notes))));
        let _ = tx.send(Msg::App(Event::WalkDone));
    });
}

/// The app's handle on the worker thread: jobs wait in its
/// [`jobs::Waiting`] (newest composition and preview block win) until the
/// worker takes them; dropping the handle lets the worker end once
/// nothing waits.
struct Worker {
    shared: Arc<WorkerShared>,
}

/// What the app and the worker share: the waiting jobs, whether the app
/// has let go, and the signal that something changed.
#[derive(Default)]
struct WorkerShared {
    waiting: Mutex<Waiting>,
    changed: Condvar,
}

/// The jobs waiting for the worker, with the project's settings as the
/// app had them when it last handed one over (a job runs with the newest).
#[derive(Default)]
struct Waiting {
    jobs: jobs::Waiting,
    settings: Arc<Settings>,
    let_go: bool,
}

impl WorkerShared {
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        // A panic while holding the lock leaves a whole queue (every
        // change is one call): carry on with it.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next job, waiting for one; `None` once the app has let go and
    /// nothing waits.
    fn take(&self) -> Option<(Job, Arc<Settings>)> {
        let mut guard = self.lock();
        loop {
            if let Some(job) = guard.jobs.take() {
                return Some((job, guard.settings.clone()));
            }
            if guard.let_go {
                return None;
            }
            guard = self
                .changed
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Worker {
    fn send(&self, job: Job, settings: &Settings) {
        let mut waiting = self.shared.lock();
        if *waiting.settings != *settings {
            waiting.settings = Arc::new(settings.clone());
        }
        waiting.jobs.push(job);
        drop(waiting);
        self.shared.changed.notify_one();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.shared.lock().let_go = true;
        self.shared.changed.notify_one();
    }
}

/// The worker thread: runs the jobs it takes, one at a time, and sends
/// back their events (a panic becomes a failed job).
fn spawn_worker(root: PathBuf, cache: Arc<Sources>, tx: Sender<Msg>) -> Worker {
    let shared = Arc::new(WorkerShared::default());
    let taken = shared.clone();
    thread::spawn(move || {
        while let Some((job, settings)) = taken.take() {
            let what = job.describe();
            let run = std::panic::AssertUnwindSafe(|| jobs::run(job, &root, &cache, &settings));
            let event = std::panic::catch_unwind(run).unwrap_or_else(|p| {
                Event::JobFailed(format!(
                    "internal error while {what}: {}",
                    panic_text(p.as_ref())
                ))
            });
            if tx.send(Msg::App(event)).is_err() {
                return;
            }
        }
    });
    Worker { shared }
}

/// What the sync thread is asked to do.
enum SyncMsg {
    Save(Box<ProjectFile>),
    /// A save on quit: the sender hears when the saver is done with it.
    Flush(Box<ProjectFile>, Sender<()>),
    Check,
}

/// The sync thread: writes the newest snapshot it is sent (through
/// [`DiskSync`], so an outside change is loaded, not overwritten) and
/// checks the file for outside changes when asked.
fn spawn_sync(
    path: PathBuf,
    loaded: ProjectFile,
    tx: Sender<Msg>,
) -> (Sender<SyncMsg>, thread::JoinHandle<Option<String>>) {
    let (sync_tx, sync_rx): (Sender<SyncMsg>, Receiver<SyncMsg>) = mpsc::channel();
    let handle = thread::spawn(move || {
        let mut sync = DiskSync::new(path, loaded);
        let sync_locked_message = sync.locked_message();
        // The problem of the last save, reported after the terminal is
        // restored if the app quits with it unresolved.
        let mut last_problem = None;
        while let Ok(msg) = sync_rx.recv() {
            let mut newest = None;
            let mut flushed = Vec::new();
            for m in std::iter::once(msg).chain(sync_rx.try_iter()) {
                match m {
                    SyncMsg::Save(file) => newest = Some(*file),
                    SyncMsg::Flush(file, done) => {
                        newest = Some(*file);
                        flushed.push(done);
                    }
                    SyncMsg::Check => {}
                }
            }
            let saving = newest.is_some();
            let mut waited = false;
            let outcome = match newest {
                Some(file) => sync.save_waiting(&file, &mut |_: &Path| {
                    // A second into the wait: the app can offer to quit.
                    waited = true;
                    let locked = SyncOutcome::Locked(sync_locked_message.clone());
                    let _ = tx.send(Msg::App(Event::Disk(Box::new(locked))));
                }),
                None => sync.check(),
            };
            if saving {
                last_problem = match &outcome {
                    SyncOutcome::Failed(e) | SyncOutcome::Invalid(e) => Some(e.clone()),
                    SyncOutcome::Conflict { .. } => Some(
                        "ctxcurate.toml changed on disk; the app's last change was not saved"
                            .to_string(),
                    ),
                    _ => None,
                };
            }
            if outcome != SyncOutcome::Unchanged || waited {
                // The loop may be gone (quitting): the outcome still counts.
                // After a wait it is always sent: the app stops waiting.
                let _ = tx.send(Msg::App(Event::Disk(Box::new(outcome))));
            }
            for done in flushed {
                let _ = done.send(());
            }
        }
        last_problem
    });
    (sync_tx, handle)
}
