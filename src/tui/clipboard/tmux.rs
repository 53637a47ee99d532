//! What tmux does with an OSC 52 sequence a program in one of its panes
//! writes, asked of tmux itself, so a copy is never claimed that tmux
//! dropped.
//!
//! tmux's `set-clipboard` decides: `on` takes the sequence (its paste
//! buffer, and the outer terminal if that supports it); `external` and
//! `off` drop sequences from programs (`external` only lets tmux's own
//! copy mode set the outer clipboard). With `allow-passthrough` on, a
//! sequence wrapped in tmux's DCS passthrough still reaches the outer
//! terminal, though not tmux's paste buffer.
//!
//! The question is asked once, on a thread of its own ([`TmuxProbe::ask`])
//! with a time limit, so a hung or slow tmux never stalls the UI; until it
//! answers a copy goes out plainly and says tmux's setting is unknown.

use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// tmux's `set-clipboard` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetClipboard {
    /// Programs may set the clipboard.
    On,
    /// Only tmux itself may (copy mode); programs' sequences are dropped.
    External,
    /// Nobody may.
    Off,
}

impl SetClipboard {
    /// The option's value as tmux prints it.
    pub fn name(self) -> &'static str {
        match self {
            SetClipboard::On => "on",
            SetClipboard::External => "external",
            SetClipboard::Off => "off",
        }
    }
}

/// What tmux said about its clipboard options for our pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TmuxClipboard {
    pub set_clipboard: SetClipboard,
    /// `allow-passthrough` is `on` (or `all`): a wrapped sequence passes.
    pub passthrough: bool,
}

impl TmuxClipboard {
    /// Reads the answer to [`QUERY`]: `external 0`, `on 1`, `off all`.
    /// tmux before 3.3 has no `allow-passthrough` (an empty second word:
    /// no passthrough). Anything else is no answer.
    pub fn parse(out: &str) -> Option<TmuxClipboard> {
        let mut words = out.split_whitespace();
        let set_clipboard = match words.next()? {
            "on" => SetClipboard::On,
            "external" => SetClipboard::External,
            "off" => SetClipboard::Off,
            _ => return None,
        };
        let passthrough = matches!(words.next(), Some("1" | "on" | "all"));
        Some(TmuxClipboard {
            set_clipboard,
            passthrough,
        })
    }
}

/// The format asked of tmux: both options, as they apply to our pane
/// (tmux finds the pane from `$TMUX_PANE`).
pub const QUERY: &str = "#{set-clipboard} #{allow-passthrough}";

/// How long tmux may take to answer before the question is given up.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(2);

/// What is known of tmux's answer at the moment of a copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TmuxAnswer {
    /// Not inside tmux (no `$TMUX`).
    NotInTmux,
    /// Inside tmux, and it has not answered (yet, or at all).
    Unknown,
    Known(TmuxClipboard),
}

/// tmux's answer, filled once by a background question.
#[derive(Debug, Clone)]
pub struct TmuxProbe {
    in_tmux: bool,
    answer: Arc<OnceLock<Option<TmuxClipboard>>>,
}

impl TmuxProbe {
    /// Outside tmux: nothing to ask.
    pub fn not_in_tmux() -> Self {
        TmuxProbe {
            in_tmux: false,
            answer: Arc::default(),
        }
    }

    /// Inside tmux with a known answer (`None`: tmux did not answer), for
    /// tests and callers that asked already.
    pub fn answered(answer: Option<TmuxClipboard>) -> Self {
        let probe = TmuxProbe {
            in_tmux: true,
            answer: Arc::default(),
        };
        let _ = probe.answer.set(answer);
        probe
    }

    /// Inside tmux: asks `tmux display-message -p` [`QUERY`] on a thread
    /// of its own, killed after [`QUERY_TIMEOUT`]. Returns at once.
    pub fn ask() -> Self {
        let probe = TmuxProbe {
            in_tmux: true,
            answer: Arc::default(),
        };
        let slot = Arc::clone(&probe.answer);
        let spawned = std::thread::Builder::new()
            .name("tmux-clipboard".into())
            .spawn(move || {
                let _ = slot.set(query_tmux());
            });
        if spawned.is_err() {
            let _ = probe.answer.set(None);
        }
        probe
    }

    /// What tmux has said so far.
    pub fn answer(&self) -> TmuxAnswer {
        match (self.in_tmux, self.answer.get()) {
            (false, _) => TmuxAnswer::NotInTmux,
            (true, Some(Some(known))) => TmuxAnswer::Known(*known),
            (true, _) => TmuxAnswer::Unknown,
        }
    }
}

/// Runs the query; `None` when tmux fails, says something else, or takes
/// longer than [`QUERY_TIMEOUT`] (then it is killed).
fn query_tmux() -> Option<TmuxClipboard> {
    let mut child = Command::new("tmux")
        .args(["display-message", "-p", QUERY])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(None) if started.elapsed() < QUERY_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(10));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    TmuxClipboard::parse(&String::from_utf8_lossy(&out.stdout))
}

/// `sequence` wrapped in tmux's DCS passthrough (`ESC P tmux; … ESC \`,
/// each ESC inside doubled), which tmux hands to the outer terminal as is
/// when `allow-passthrough` is on.
pub fn passthrough(sequence: &str) -> String {
    format!("\x1bPtmux;{}\x1b\\", sequence.replace('\x1b', "\x1b\x1b"))
}
