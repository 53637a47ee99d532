//! Editing a text in the user's own editor from the running TUI (`e`, `E`):
//! the event loop pauses its input thread, hands the terminal over (leaves
//! the alternate screen, turns raw mode off, shows the cursor), runs the
//! editor synchronously on a private temporary file, then takes the
//! terminal back and forces a full redraw.
//!
//! The editor is `$VISUAL`, else `$EDITOR`, else `vi` — from the
//! environment only, never from a project file (a cloned repository must
//! not choose what runs). Like git, the value is run by `sh -c` so it may
//! carry arguments (`code -w`, `emacs -nw`). The temporary file is made by
//! `tempfile` (mode 0600, a fresh name) and removed afterwards.
//!
//! A termination signal while the editor runs ends the editor (SIGTERM,
//! SIGKILL two seconds later) and the wait for it, so the app can save,
//! give the terminal back and exit as for `q`, its temporary file gone.

use std::io::{self, Write};
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crossterm::cursor::Show;
use crossterm::event;
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// How long one wait of the input thread for a key lasts. On Unix it
/// blocks: [`InputGate::pause`] wakes it (crossterm's own SIGWINCH
/// handler ends the wait), so it needs no timeout to notice a pause and
/// the bound only keeps crossterm's deadline finite. Elsewhere it polls,
/// and this is the delay before an editor opens, at worst.
#[cfg(unix)]
pub const INPUT_POLL: Duration = Duration::from_secs(3600);
#[cfg(not(unix))]
pub const INPUT_POLL: Duration = Duration::from_millis(100);

/// The editor command from the environment: `$VISUAL`, else `$EDITOR`,
/// else `vi` (a blank variable counts as unset).
pub fn editor_command(var: impl Fn(&str) -> Option<String>) -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| var(name))
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".to_string())
}

/// Let the user edit `text` with `editor` on a private temporary file
/// (named `ctxcurate-<what>-….md`): the text as saved, or why there is
/// none (the editor failed, the file is gone or not UTF-8). The caller
/// must have handed the terminal over.
pub fn edit_text(editor: &str, what: &str, text: &str) -> Result<String, String> {
    let mut file = tempfile::Builder::new()
        .prefix(&format!("ctxcurate-{what}-"))
        .suffix(".md")
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write the temporary file: {e}"))?;
    let child = Command::new("sh")
        .arg("-c")
        .arg(shell_line(editor))
        .arg(editor)
        .arg(file.path())
        .spawn()
        .map_err(|e| format!("cannot run {editor}: {e}"))?;
    let status = wait_unless_ending(child).map_err(|e| format!("cannot run {editor}: {e}"))?;
    if ENDING.load(Ordering::SeqCst) {
        return Err("the app is ending (a termination signal)".to_string());
    }
    if !status.success() {
        return Err(format!("{editor} ended with {status}"));
    }
    // Read by name: an editor may have replaced the file rather than
    // written into it.
    let bytes =
        std::fs::read(file.path()).map_err(|e| format!("cannot read the edited text back: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "the edited text is not UTF-8".to_string())
}

/// The line `sh -c` runs: the editor with the file's name; a plain
/// command (words only, as `vim` or `code -w`) is `exec`ed, so the
/// process the app waits for, and ends on a signal, is the editor itself
/// and not a shell above it.
fn shell_line(editor: &str) -> String {
    let plain = !editor.contains([
        ';', '&', '|', '(', ')', '{', '}', '<', '>', '`', '$', '\n', '\\', '\'', '"', '#', '=',
    ]) && !editor.trim_start().starts_with("exec ");
    if plain {
        format!("exec {editor} \"$@\"")
    } else {
        format!("{editor} \"$@\"")
    }
}

/// A termination signal came (see [`interrupt`]): an editor running now
/// is ended, and one asked for later is not waited for.
static ENDING: AtomicBool = AtomicBool::new(false);

/// How often the wait for the editor looks at [`ENDING`] (only while an
/// editor runs).
const EDITOR_CHECK: Duration = Duration::from_millis(50);

/// How long an editor has to end after SIGTERM before it is killed.
const EDITOR_GRACE: Duration = Duration::from_secs(2);

/// A termination signal came while the app may be waiting for the editor
/// (called from the signals thread): the editor gets SIGTERM, its wait
/// ends, the temporary file is removed, and the loop quits as for `q`
/// (the save, the terminal restored) instead of waiting for the user.
pub fn interrupt() {
    ENDING.store(true, Ordering::SeqCst);
}

/// Wait for the editor; once [`ENDING`] is set, end it (SIGTERM, then
/// SIGKILL after [`EDITOR_GRACE`]).
fn wait_unless_ending(mut child: Child) -> io::Result<ExitStatus> {
    let mut asked_at: Option<Instant> = None;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if ENDING.load(Ordering::SeqCst) {
            match asked_at {
                None => {
                    end_child(&child);
                    asked_at = Some(Instant::now());
                }
                Some(at) if at.elapsed() > EDITOR_GRACE => {
                    let _ = child.kill();
                    return child.wait();
                }
                Some(_) => {}
            }
        }
        std::thread::sleep(EDITOR_CHECK);
    }
}

/// SIGTERM to the editor's shell, which (a single command, as editors
/// are run) `sh` has usually replaced with the editor itself.
#[cfg(unix)]
fn end_child(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) on our own child's pid, not yet reaped.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
}

#[cfg(not(unix))]
fn end_child(_child: &Child) {}

/// Give the terminal to `run` and take it back: leave the alternate
/// screen and raw mode, run, then restore both. The caller redraws in
/// full afterwards (the screen holds whatever the editor left).
pub fn with_terminal_released<T>(run: impl FnOnce() -> T) -> io::Result<T> {
    let mut out = io::stdout();
    execute!(out, LeaveAlternateScreen, Show)?;
    disable_raw_mode()?;
    let result = run();
    enable_raw_mode()?;
    execute!(out, EnterAlternateScreen)?;
    Ok(result)
}

/// Lets the event loop stop the input thread from reading the terminal
/// while an editor owns it (otherwise the two would race for keys).
#[derive(Default)]
pub struct InputGate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    /// The loop asks the input thread to stop reading.
    paused: bool,
    /// The input thread has stopped and waits.
    parked: bool,
}

impl InputGate {
    /// The input thread's loop: wait while paused, then read one event if
    /// one comes within [`INPUT_POLL`]. `None` when the terminal fails.
    pub fn next_event(&self) -> Option<Option<event::Event>> {
        {
            let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            while st.paused {
                st.parked = true;
                self.changed.notify_all();
                st = self
                    .changed
                    .wait(st)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            st.parked = false;
        }
        match event::poll(INPUT_POLL) {
            // Woken for a pause (the wake-up is a resize event, left for
            // after it, when it makes a full redraw anyway): read nothing
            // the editor should have.
            Ok(true) if self.paused() => Some(None),
            Ok(true) => event::read().ok().map(Some),
            Ok(false) => Some(None),
            Err(_) => None,
        }
    }

    /// Stop the input thread reading and wait until it has (at most a
    /// second: a thread that is gone does not hold the handover up).
    pub fn pause(&self) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.paused = true;
        wake_input();
        let deadline = std::time::Instant::now() + Duration::from_secs(1);
        while !st.parked {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn paused(&self) -> bool {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .paused
    }

    /// Let the input thread read again.
    pub fn resume(&self) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.paused = false;
        self.changed.notify_all();
    }
}

/// End the input thread's wait for a key: crossterm listens for SIGWINCH
/// (a terminal resize) in that wait, so one raised here returns it at
/// once. Where nothing listens yet its default is to be ignored.
#[cfg(unix)]
fn wake_input() {
    // A failed raise leaves the wait to end at the next key or resize.
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGWINCH);
}

#[cfg(not(unix))]
fn wake_input() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_comes_from_visual_then_editor_then_vi() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            editor_command(env(&[("VISUAL", "nano"), ("EDITOR", "ed")])),
            "nano"
        );
        assert_eq!(
            editor_command(env(&[("VISUAL", " "), ("EDITOR", "ed")])),
            "ed"
        );
        assert_eq!(editor_command(env(&[])), "vi");
    }

    #[cfg(unix)]
    #[test]
    fn an_editor_script_edits_a_private_file_that_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("seen");
        let script = format!(
            "f() {{ ls -l \"$1\" > '{0}'; echo \"$1\" >> '{0}'; printf 'new text\\n' > \"$1\"; }}; f",
            seen.display()
        );
        let out = edit_text(&script, "task", "old\n").unwrap();
        assert_eq!(out, "new text\n");
        let seen = std::fs::read_to_string(&seen).unwrap();
        assert!(seen.starts_with("-rw-------"), "{seen}");
        let path = seen.lines().nth(1).unwrap();
        assert!(
            path.contains("ctxcurate-task-") && path.ends_with(".md"),
            "{path}"
        );
        assert!(
            !std::path::Path::new(path).exists(),
            "the temp file is removed"
        );
        assert_eq!(shell_line("code -w"), "exec code -w \"$@\"");
        assert_eq!(shell_line("f() { :; }; f"), "f() { :; }; f \"$@\"");
        let failed = edit_text("false", "task", "x").unwrap_err();
        assert!(failed.contains("false ended with"), "{failed}");
        let binary = edit_text("f() { printf '\\377' > \"$1\"; }; f", "task", "x");
        assert_eq!(binary.unwrap_err(), "the edited text is not UTF-8");
    }
}
