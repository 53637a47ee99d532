//! Copying text out of the TUI (`y`/`Y`): to the system clipboard, to the
//! terminal's clipboard with OSC 52, or nowhere.
//!
//! The event loop runs a copy effect through one [`Clipboard`] trait object
//! built once by [`from_mode`] from the `clipboard = auto|system|osc52|off`
//! setting ([`ClipboardMode`]) and the environment ([`EnvProbe`]). The
//! returned [`Destination`] is what the status line reports.
//!
//! `auto` (docs/ARCHITECTURE.md, "tui::clipboard"): over SSH, or with no display, the system
//! clipboard is on the wrong machine or absent, so the text goes to the
//! terminal as an OSC 52 sequence ([`Osc52Clipboard`]); otherwise the
//! system clipboard is tried first and, on any error, OSC 52 from then on
//! ([`FallbackClipboard`]).
//!
//! OSC 52 tells the truth about where it went. Inside tmux with
//! `set-clipboard on`, tmux reads the sequence itself, fills its paste
//! buffer (`tmux show-buffer`) and forwards it to the outer terminal if
//! that terminal supports it; with `external` or `off` tmux drops it, so
//! the copy is wrapped in tmux's passthrough where `allow-passthrough` is
//! on and refused, saying how to fix it, where not ([`tmux`]). Text over
//! the terminal's OSC 52 limit ([`limits`]) is refused, never sent to be
//! dropped; the TUI then offers to write it to the output file and copy
//! that file's path instead ([`ClipboardError::too_large`], the
//! `tui::overlays` confirm).

pub mod limits;
pub mod tmux;

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crossterm::Command as _;
use crossterm::clipboard::CopyToClipboard;
use thiserror::Error;

/// The `clipboard` setting (typed in the core, where settings are read).
pub use crate::core::model::ClipboardMode;
pub use limits::{DEFAULT_OSC52_MAX_BYTES, Osc52Limit};
pub use tmux::{SetClipboard, TmuxAnswer, TmuxClipboard, TmuxProbe};

/// Where a copy went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destination {
    /// The desktop's clipboard (arboard).
    System,
    /// The terminal's clipboard, via an OSC 52 sequence (not in tmux).
    Osc52,
    /// Inside tmux with `set-clipboard on`: tmux's paste buffer, and the
    /// outer terminal's clipboard if it takes OSC 52.
    Osc52ViaTmux,
    /// Inside tmux whose `set-clipboard` drops OSC 52, wrapped in its
    /// passthrough (`allow-passthrough on`): the outer terminal only.
    Osc52Passthrough,
    /// Inside tmux, which did not say whether it passes OSC 52 on.
    Osc52TmuxUnknown,
    /// Nowhere: the clipboard is switched off.
    Off,
}

impl fmt::Display for Destination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Destination::System => "system clipboard",
            Destination::Osc52 => "terminal clipboard (OSC 52)",
            Destination::Osc52ViaTmux => "terminal clipboard (OSC 52) through tmux (set-clipboard on)",
            Destination::Osc52Passthrough => {
                "outer terminal's clipboard (OSC 52 through tmux passthrough; not tmux's buffer)"
            }
            Destination::Osc52TmuxUnknown => {
                "terminal clipboard (OSC 52), if tmux passes it on (tmux did not say its set-clipboard)"
            }
            Destination::Off => "nowhere (clipboard is off)",
        })
    }
}

/// Why a copy failed. `Display` is one line; the underlying cause of
/// [`ClipboardError::System`] and [`ClipboardError::Terminal`] is its
/// [`source`](std::error::Error::source), so show the chain (`{:#}` of an
/// `anyhow::Error`) to the user.
#[derive(Debug, Error)]
pub enum ClipboardError {
    /// The system clipboard could not be opened or written.
    #[error("system clipboard unavailable")]
    System(#[source] arboard::Error),
    /// Writing the OSC 52 sequence to the terminal failed.
    #[error("cannot write to the terminal clipboard (OSC 52)")]
    Terminal(#[source] io::Error),
    /// The text is over the OSC 52 size cap; nothing was sent, because a
    /// terminal that drops or truncates it would leave a wrong clipboard.
    #[error(
        "{len} bytes is too much for the terminal clipboard (OSC 52 limit {max} bytes{})",
        for_terminal(terminal)
    )]
    TooLarge {
        len: usize,
        max: usize,
        /// The terminal whose limit it is ([`limits::OTHER`]: unknown).
        terminal: String,
        /// Inside tmux that drops programs' OSC 52 (no passthrough):
        /// nothing of any size would arrive, not even a file's path.
        tmux_drops: Option<SetClipboard>,
    },
    /// Inside tmux whose `set-clipboard` drops programs' OSC 52, with no
    /// passthrough allowed: nothing was sent, since nothing would arrive.
    #[error(
        "tmux's set-clipboard is {}, so tmux drops OSC 52 from programs: nothing was copied \
         ({})",
        setting.name(),
        TMUX_FIX
    )]
    TmuxDrops { setting: SetClipboard },
    /// The system clipboard failed and so did the OSC 52 fallback.
    #[error("system clipboard failed ({system}), and so did OSC 52 ({osc52})")]
    BothFailed {
        system: Box<ClipboardError>,
        osc52: Box<ClipboardError>,
    },
}

impl ClipboardError {
    /// The refusal for size alone ([`ClipboardError::TooLarge`]), also
    /// when it is the OSC 52 half of [`ClipboardError::BothFailed`]: the
    /// copy that a smaller text (a file's path) could still make.
    pub fn too_large(&self) -> Option<&ClipboardError> {
        match self {
            ClipboardError::TooLarge { .. } => Some(self),
            ClipboardError::BothFailed { osc52, .. } => osc52.too_large(),
            _ => None,
        }
    }
}

/// Why nothing reaches the clipboard over OSC 52 inside tmux with
/// `set-clipboard` at `setting` and no passthrough, and how to fix it.
pub fn tmux_drops_why(setting: SetClipboard) -> String {
    format!(
        "tmux's set-clipboard is {}, so tmux drops OSC 52 from programs ({TMUX_FIX})",
        setting.name()
    )
}

/// How to make tmux take a copy, and when that counts: tmux is asked
/// again at each copy, so the next `y` after the command uses it.
pub const TMUX_FIX: &str = "run `tmux set -g set-clipboard on` (or `set -g allow-passthrough on`) \
     and copy again, it counts at once; put it in ~/.tmux.conf to keep it";

/// ` for kitty` after a limit that is a known terminal's.
fn for_terminal(terminal: &str) -> String {
    if terminal == limits::OTHER || terminal.is_empty() {
        String::new()
    } else {
        format!(" for {terminal}; the osc52_limits setting changes it")
    }
}

/// Something that can take a copy of text.
pub trait Clipboard: Send {
    /// Puts `text` on the clipboard and says where it went.
    fn copy(&mut self, text: &str) -> Result<Destination, ClipboardError>;
}

/// The environment variables that decide `auto`, captured once so the
/// decision is a pure function ([`route`]) that tests can drive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvProbe {
    /// `SSH_TTY`: set by sshd for an interactive session.
    pub ssh_tty: Option<String>,
    /// `SSH_CONNECTION`: set by sshd for any session.
    pub ssh_connection: Option<String>,
    /// `DISPLAY`: the X11 server.
    pub display: Option<String>,
    /// `WAYLAND_DISPLAY`: the Wayland compositor. arboard is built for X11
    /// only, so this counts as a display because Wayland sessions usually
    /// run XWayland; if not, the fallback to OSC 52 covers it.
    pub wayland_display: Option<String>,
    /// `TMUX`: inside tmux, whose options decide where OSC 52 goes.
    pub tmux: Option<String>,
    /// `TERM` (`xterm-kitty`), `TERM_PROGRAM` (`Tabby`),
    /// `KITTY_WINDOW_ID` and `TERMUX_VERSION`: which terminal this is,
    /// for its OSC 52 limit ([`limits::detect`]).
    pub term: Option<String>,
    pub term_program: Option<String>,
    pub kitty_window_id: Option<String>,
    pub termux_version: Option<String>,
}

impl EnvProbe {
    /// Reads the variables named by the fields. A value that is not UTF-8 still counts as set.
    pub fn from_env() -> Self {
        let var =
            |name: &str| std::env::var_os(name).map(|value| value.to_string_lossy().into_owned());
        EnvProbe {
            ssh_tty: var("SSH_TTY"),
            ssh_connection: var("SSH_CONNECTION"),
            display: var("DISPLAY"),
            wayland_display: var("WAYLAND_DISPLAY"),
            tmux: var("TMUX"),
            term: var("TERM"),
            term_program: var("TERM_PROGRAM"),
            kitty_window_id: var("KITTY_WINDOW_ID"),
            termux_version: var("TERMUX_VERSION"),
        }
    }

    /// Whether we run in an SSH session (the system clipboard, if any, is
    /// the remote machine's, not the user's).
    pub fn over_ssh(&self) -> bool {
        is_set(&self.ssh_tty) || is_set(&self.ssh_connection)
    }

    /// Whether we run inside tmux.
    pub fn in_tmux(&self) -> bool {
        is_set(&self.tmux)
    }

    /// Whether a graphical session is reachable. macOS and Windows always
    /// have a clipboard; elsewhere it takes `DISPLAY` or `WAYLAND_DISPLAY`.
    pub fn has_display(&self) -> bool {
        cfg!(any(target_os = "macos", windows))
            || is_set(&self.display)
            || is_set(&self.wayland_display)
    }
}

/// An empty variable counts as unset, as shells and X clients treat it.
fn is_set(value: &Option<String>) -> bool {
    value.as_deref().is_some_and(|v| !v.is_empty())
}

/// The clipboard chain a mode resolves to in an environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// [`NoClipboard`].
    Off,
    /// [`SystemClipboard`] alone.
    System,
    /// [`Osc52Clipboard`] alone.
    Osc52,
    /// System first; on any error OSC 52, for this and every later copy.
    SystemThenOsc52,
}

/// Which chain `mode` uses under `env`. Only `auto` looks at the env.
pub fn route(mode: ClipboardMode, env: &EnvProbe) -> Route {
    match mode {
        ClipboardMode::Off => Route::Off,
        ClipboardMode::System => Route::System,
        ClipboardMode::Osc52 => Route::Osc52,
        ClipboardMode::Auto if env.over_ssh() || !env.has_display() => Route::Osc52,
        ClipboardMode::Auto => Route::SystemThenOsc52,
    }
}

/// Builds the clipboard for `mode`, with the OSC 52 limits the terminal
/// has by default ([`from_settings`] with no `osc52_limits`).
pub fn from_mode(
    mode: ClipboardMode,
    env: &EnvProbe,
    terminal: impl Write + Send + 'static,
) -> Box<dyn Clipboard> {
    from_settings(mode, &BTreeMap::new(), env, terminal)
}

/// Builds the clipboard for `mode`. `terminal` is where OSC 52 sequences
/// are written (the TUI passes stdout); OSC 52 is capped at the limit of
/// the terminal `env` names, `osc52_limits` overriding ([`limits`]), and
/// inside tmux asks tmux, in the background, what it does with OSC 52
/// ([`TmuxProbe::ask`]). Nothing else is opened yet: the system clipboard
/// connects on first use.
pub fn from_settings(
    mode: ClipboardMode,
    osc52_limits: &BTreeMap<String, usize>,
    env: &EnvProbe,
    terminal: impl Write + Send + 'static,
) -> Box<dyn Clipboard> {
    let osc52 = |terminal| {
        let tmux = if env.in_tmux() {
            TmuxProbe::ask()
        } else {
            TmuxProbe::not_in_tmux()
        };
        Osc52Clipboard::new(terminal)
            .with_limit(limits::limit_for(env, osc52_limits))
            .with_tmux(tmux)
    };
    match route(mode, env) {
        Route::Off => Box::new(NoClipboard),
        Route::System => Box::new(SystemClipboard::new()),
        Route::Osc52 => Box::new(osc52(terminal)),
        Route::SystemThenOsc52 => Box::new(FallbackClipboard::new(
            Box::new(SystemClipboard::new()),
            Box::new(osc52(terminal)),
        )),
    }
}

/// `clipboard = off`: accepts every copy and keeps nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoClipboard;

impl Clipboard for NoClipboard {
    fn copy(&mut self, _text: &str) -> Result<Destination, ClipboardError> {
        Ok(Destination::Off)
    }
}

/// The `auto` chain when a display is present: the system clipboard, and
/// after its first failure OSC 52 for good (a clipboard that failed once,
/// say no X server, would only fail again and cost a timeout each time).
pub struct FallbackClipboard {
    system: Box<dyn Clipboard>,
    osc52: Box<dyn Clipboard>,
    system_failed: bool,
}

impl FallbackClipboard {
    /// `system` is tried first, `osc52` after it fails. Any [`Clipboard`]
    /// fits either slot, which is how tests fake a broken system clipboard.
    pub fn new(system: Box<dyn Clipboard>, osc52: Box<dyn Clipboard>) -> Self {
        FallbackClipboard {
            system,
            osc52,
            system_failed: false,
        }
    }

    /// Whether the system clipboard has failed and been given up on.
    pub fn system_failed(&self) -> bool {
        self.system_failed
    }
}

impl Clipboard for FallbackClipboard {
    fn copy(&mut self, text: &str) -> Result<Destination, ClipboardError> {
        if self.system_failed {
            return self.osc52.copy(text);
        }
        let system = match self.system.copy(text) {
            Ok(destination) => return Ok(destination),
            Err(err) => err,
        };
        self.system_failed = true;
        self.osc52
            .copy(text)
            .map_err(|osc52| ClipboardError::BothFailed {
                system: Box::new(system),
                osc52: Box::new(osc52),
            })
    }
}

/// Copies by writing an OSC 52 sequence (`ESC ] 52 ; c ; <base64> ESC \`,
/// built by crossterm) to the terminal, which puts the text on the
/// clipboard of the machine the user sits at, over SSH too.
///
/// Text over the cap ([`DEFAULT_OSC52_MAX_BYTES`] unless changed with
/// [`Osc52Clipboard::with_limit`]) is refused with
/// [`ClipboardError::TooLarge`] instead of sent: a terminal that drops or
/// cuts a long sequence would leave the user pasting the wrong context.
/// Inside tmux, what tmux said of its options decides ([`tmux`]). A
/// successful copy only means the bytes were written; no terminal says
/// whether it honoured them.
pub struct Osc52Clipboard<W> {
    terminal: W,
    limit: Osc52Limit,
    tmux: TmuxProbe,
}

impl<W: Write> Osc52Clipboard<W> {
    /// Writes sequences to `terminal` (stdout in the TUI).
    pub fn new(terminal: W) -> Self {
        Osc52Clipboard {
            terminal,
            limit: Osc52Limit {
                terminal: limits::OTHER.to_string(),
                max_bytes: DEFAULT_OSC52_MAX_BYTES,
            },
            tmux: TmuxProbe::not_in_tmux(),
        }
    }

    /// Refuses text longer than `max_bytes` bytes (before base64).
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.limit.max_bytes = max_bytes;
        self
    }

    /// Refuses text over `limit`, naming its terminal when it does.
    pub fn with_limit(mut self, limit: Osc52Limit) -> Self {
        self.limit = limit;
        self
    }

    /// Inside tmux: what it does with OSC 52 decides the copy.
    pub fn with_tmux(mut self, tmux: TmuxProbe) -> Self {
        self.tmux = tmux;
        self
    }

    /// The writer, for tests that inspect what was sent.
    pub fn into_inner(self) -> W {
        self.terminal
    }
}

impl<W: Write + Send> Clipboard for Osc52Clipboard<W> {
    fn copy(&mut self, text: &str) -> Result<Destination, ClipboardError> {
        if text.len() > self.limit.max_bytes {
            let tmux_drops = match self.tmux.answer_now() {
                TmuxAnswer::Known(TmuxClipboard {
                    set_clipboard,
                    passthrough: false,
                }) if set_clipboard != SetClipboard::On => Some(set_clipboard),
                _ => None,
            };
            return Err(ClipboardError::TooLarge {
                len: text.len(),
                max: self.limit.max_bytes,
                terminal: self.limit.terminal.clone(),
                tmux_drops,
            });
        }
        let (wrap, destination) = match self.tmux.answer_now() {
            TmuxAnswer::NotInTmux => (false, Destination::Osc52),
            TmuxAnswer::Unknown => (false, Destination::Osc52TmuxUnknown),
            TmuxAnswer::Known(TmuxClipboard {
                set_clipboard: SetClipboard::On,
                ..
            }) => (false, Destination::Osc52ViaTmux),
            TmuxAnswer::Known(TmuxClipboard {
                passthrough: true, ..
            }) => (true, Destination::Osc52Passthrough),
            TmuxAnswer::Known(TmuxClipboard { set_clipboard, .. }) => {
                return Err(ClipboardError::TmuxDrops {
                    setting: set_clipboard,
                });
            }
        };
        let mut sequence = String::new();
        CopyToClipboard::to_clipboard_from(text)
            .write_ansi(&mut sequence)
            .map_err(|_| ClipboardError::Terminal(io::Error::other("cannot format OSC 52")))?;
        if wrap {
            sequence = tmux::passthrough(&sequence);
        }
        self.terminal
            .write_all(sequence.as_bytes())
            .and_then(|()| self.terminal.flush())
            .map_err(ClipboardError::Terminal)?;
        Ok(destination)
    }
}

/// The desktop clipboard through arboard (X11 on Linux).
///
/// On X11 the copying program owns the selection and serves it to whoever
/// pastes, so the text vanishes when the owner exits. So each copy is
/// handed to a small detached process of our own binary (the hidden
/// `ctxcurate clipboard-hold`, see [`serve`]) that takes the selection
/// and serves it until another program takes it over, then exits, as
/// xclip does: a yanked context stays on the clipboard after the app
/// quits. Where no holder can start (not our binary, or it fails), this
/// process owns the selection itself, for as long as it runs. Opening is
/// lazy: startup makes no X connection nobody may use.
#[derive(Default)]
pub struct SystemClipboard {
    inner: Option<arboard::Clipboard>,
    /// The binary whose `clipboard-hold` command serves copies.
    holder: Option<PathBuf>,
    /// Holders started by this process, reaped once they exit.
    holders: Vec<Child>,
}

/// The hidden subcommand that [`serve`]s stdin's text.
pub const HOLD_COMMAND: &str = "clipboard-hold";

/// What a holder prints once it owns the selection.
const READY: &str = "ready";

/// How long a holder may take to own the selection.
const HOLD_TIMEOUT: Duration = Duration::from_secs(3);

impl SystemClipboard {
    /// A clipboard that connects on first use and hands copies to a
    /// holder process when this is the `ctxcurate` binary.
    pub fn new() -> Self {
        let holder = std::env::current_exe()
            .ok()
            .filter(|exe| exe.file_stem().is_some_and(|s| s == "ctxcurate"));
        SystemClipboard {
            inner: None,
            holder,
            holders: Vec::new(),
        }
    }

    /// A clipboard whose copies are served by `exe clipboard-hold`.
    pub fn with_holder(exe: PathBuf) -> Self {
        SystemClipboard {
            holder: Some(exe),
            ..Self::default()
        }
    }

    /// Start a holder for `text` and wait until it owns the selection.
    fn hand_off(&mut self, exe: &Path, text: &str) -> io::Result<()> {
        self.holders
            .retain_mut(|c| !matches!(c.try_wait(), Ok(Some(_)) | Err(_)));
        let mut command = Command::new(exe);
        command
            .arg(HOLD_COMMAND)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: Ctrl-C or a hangup of the app's terminal
        // does not take the clipboard with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let started = (|| {
            let mut stdin = child
                .stdin
                .take()
                .ok_or_else(|| io::Error::other("no stdin"))?;
            stdin.write_all(text.as_bytes())?;
            drop(stdin);
            let stdout = child
                .stdout
                .take()
                .ok_or_else(|| io::Error::other("no stdout"))?;
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let mut line = String::new();
                let _ = io::BufReader::new(stdout).read_line(&mut line);
                let _ = tx.send(line);
            });
            match rx.recv_timeout(HOLD_TIMEOUT) {
                Ok(line) if line.trim_end() == READY => Ok(()),
                _ => Err(io::Error::other("the clipboard holder did not start")),
            }
        })();
        match started {
            Ok(()) => {
                self.holders.push(child);
                Ok(())
            }
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(e)
            }
        }
    }
}

impl Clipboard for SystemClipboard {
    fn copy(&mut self, text: &str) -> Result<Destination, ClipboardError> {
        if let Some(exe) = self.holder.clone()
            && self.hand_off(&exe, text).is_ok()
        {
            return Ok(Destination::System);
        }
        let clipboard = match &mut self.inner {
            Some(clipboard) => clipboard,
            empty => empty.insert(arboard::Clipboard::new().map_err(ClipboardError::System)?),
        };
        clipboard.set_text(text).map_err(ClipboardError::System)?;
        Ok(Destination::System)
    }
}

/// The holder's side (`ctxcurate clipboard-hold`): read the text from
/// `input`, take the selection, write `ready` to `ready_to`, and serve the
/// text until another program takes the selection over.
pub fn serve(mut input: impl Read, mut ready_to: impl Write) -> io::Result<()> {
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let mut clipboard = arboard::Clipboard::new().map_err(io::Error::other)?;
    clipboard
        .set_text(text.as_str())
        .map_err(io::Error::other)?;
    writeln!(ready_to, "{READY}")?;
    ready_to.flush()?;
    drop(ready_to);
    #[cfg(target_os = "linux")]
    {
        use arboard::SetExtLinux;
        clipboard
            .set()
            .wait()
            .text(text)
            .map_err(io::Error::other)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
