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
//! OSC 52 is written plainly, never wrapped in tmux's DCS passthrough. Inside
//! tmux with `set-clipboard on`, tmux reads the sequence itself, fills its
//! paste buffer (`tmux show-buffer`) and forwards it to the outer terminal
//! if that terminal supports it; with `set-clipboard off` tmux drops it.

use std::fmt;
use std::io::{self, Write};

use crossterm::clipboard::CopyToClipboard;
use thiserror::Error;

/// The `clipboard` setting (typed in the core, where settings are read).
pub use crate::core::model::ClipboardMode;

/// Where a copy went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destination {
    /// The desktop's clipboard (arboard).
    System,
    /// The terminal's clipboard, via an OSC 52 sequence.
    Osc52,
    /// Nowhere: the clipboard is switched off.
    Off,
}

impl fmt::Display for Destination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Destination::System => "system clipboard",
            Destination::Osc52 => "terminal clipboard (OSC 52)",
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
    #[error("{len} bytes is too much for the terminal clipboard (OSC 52 limit {max} bytes)")]
    TooLarge { len: usize, max: usize },
    /// The system clipboard failed and so did the OSC 52 fallback.
    #[error("system clipboard failed ({system}), and so did OSC 52 ({osc52})")]
    BothFailed {
        system: Box<ClipboardError>,
        osc52: Box<ClipboardError>,
    },
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
}

impl EnvProbe {
    /// Reads `SSH_TTY`, `SSH_CONNECTION`, `DISPLAY` and `WAYLAND_DISPLAY`.
    /// A value that is not UTF-8 still counts as set.
    pub fn from_env() -> Self {
        let var =
            |name: &str| std::env::var_os(name).map(|value| value.to_string_lossy().into_owned());
        EnvProbe {
            ssh_tty: var("SSH_TTY"),
            ssh_connection: var("SSH_CONNECTION"),
            display: var("DISPLAY"),
            wayland_display: var("WAYLAND_DISPLAY"),
        }
    }

    /// Whether we run in an SSH session (the system clipboard, if any, is
    /// the remote machine's, not the user's).
    pub fn over_ssh(&self) -> bool {
        is_set(&self.ssh_tty) || is_set(&self.ssh_connection)
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

/// Builds the clipboard for `mode`. `terminal` is where OSC 52 sequences
/// are written (the TUI passes stdout); OSC 52 uses the default size cap
/// [`DEFAULT_OSC52_MAX_BYTES`]. Nothing is opened yet: the system
/// clipboard connects on first use.
pub fn from_mode(
    mode: ClipboardMode,
    env: &EnvProbe,
    terminal: impl Write + Send + 'static,
) -> Box<dyn Clipboard> {
    match route(mode, env) {
        Route::Off => Box::new(NoClipboard),
        Route::System => Box::new(SystemClipboard::new()),
        Route::Osc52 => Box::new(Osc52Clipboard::new(terminal)),
        Route::SystemThenOsc52 => Box::new(FallbackClipboard::new(
            Box::new(SystemClipboard::new()),
            Box::new(Osc52Clipboard::new(terminal)),
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

/// The default OSC 52 cap on the text, in bytes: 768 000, whose base64
/// (1 024 000 bytes) plus the `52;c;` header stays under the 1 MiB limit on
/// one escape sequence in tmux (`INPUT_BUF_LIMIT`; longer sequences are
/// silently dropped). Many terminals accept less (some only ~100 KB, and
/// some have OSC 52 off entirely); we cannot detect that, so this cap only
/// rules out copies that are certain to be lost.
pub const DEFAULT_OSC52_MAX_BYTES: usize = 768_000;

/// Copies by writing an OSC 52 sequence (`ESC ] 52 ; c ; <base64> ESC \`,
/// built by crossterm) to the terminal, which puts the text on the
/// clipboard of the machine the user sits at, over SSH too.
///
/// Text over the cap ([`DEFAULT_OSC52_MAX_BYTES`] unless changed with
/// [`Osc52Clipboard::with_max_bytes`]) is refused with
/// [`ClipboardError::TooLarge`] instead of sent: a terminal that drops or
/// cuts a long sequence would leave the user pasting the wrong context.
/// A successful copy only means the bytes were written; no terminal says
/// whether it honoured them.
pub struct Osc52Clipboard<W> {
    terminal: W,
    max_bytes: usize,
}

impl<W: Write> Osc52Clipboard<W> {
    /// Writes sequences to `terminal` (stdout in the TUI).
    pub fn new(terminal: W) -> Self {
        Osc52Clipboard {
            terminal,
            max_bytes: DEFAULT_OSC52_MAX_BYTES,
        }
    }

    /// Refuses text longer than `max_bytes` bytes (before base64).
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The writer, for tests that inspect what was sent.
    pub fn into_inner(self) -> W {
        self.terminal
    }
}

impl<W: Write + Send> Clipboard for Osc52Clipboard<W> {
    fn copy(&mut self, text: &str) -> Result<Destination, ClipboardError> {
        if text.len() > self.max_bytes {
            return Err(ClipboardError::TooLarge {
                len: text.len(),
                max: self.max_bytes,
            });
        }
        // `execute!` writes the whole sequence, then flushes.
        crossterm::execute!(self.terminal, CopyToClipboard::to_clipboard_from(text))
            .map_err(ClipboardError::Terminal)?;
        Ok(Destination::Osc52)
    }
}

/// The desktop clipboard through arboard (X11 on Linux).
///
/// One `arboard::Clipboard` is opened on the first copy and kept for the
/// life of this value, which must be the life of the app: on X11 the
/// copying program owns the selection and serves it to whoever pastes, so
/// the text vanishes once the owning instance is dropped. Opening lazily
/// keeps startup free of an X connection nobody may use; if opening fails,
/// the next copy tries again.
#[derive(Default)]
pub struct SystemClipboard {
    inner: Option<arboard::Clipboard>,
}

impl SystemClipboard {
    /// A clipboard that connects on first use.
    pub fn new() -> Self {
        SystemClipboard { inner: None }
    }
}

impl Clipboard for SystemClipboard {
    fn copy(&mut self, text: &str) -> Result<Destination, ClipboardError> {
        let clipboard = match &mut self.inner {
            Some(clipboard) => clipboard,
            empty => empty.insert(arboard::Clipboard::new().map_err(ClipboardError::System)?),
        };
        clipboard.set_text(text).map_err(ClipboardError::System)?;
        Ok(Destination::System)
    }
}

#[cfg(test)]
mod tests;
