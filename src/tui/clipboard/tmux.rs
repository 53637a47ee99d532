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
//! The question is asked first at start, on a thread of its own
//! ([`TmuxProbe::ask`]), and again at each copy once the last answer is
//! more than [`FRESH_FOR`] old ([`TmuxProbe::answer_now`]): a `set -g
//! set-clipboard` typed while the app runs counts from the next copy. Each
//! question has a time limit, so a hung tmux never holds the UI for long;
//! without an answer a copy goes out plainly and says tmux's setting is
//! unknown.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
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

/// How long tmux may take to answer before the question is given up
/// (the first question, off the UI thread).
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a question at a copy may take (the UI waits for it).
pub const COPY_QUERY_TIMEOUT: Duration = Duration::from_millis(500);

/// An answer younger than this is used as it is; an older one is asked
/// again at the next copy.
pub const FRESH_FOR: Duration = Duration::from_secs(1);

/// What is known of tmux's answer at the moment of a copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TmuxAnswer {
    /// Not inside tmux (no `$TMUX`).
    NotInTmux,
    /// Inside tmux, and it has not answered (yet, or at all).
    Unknown,
    Known(TmuxClipboard),
}

/// An answer (`None`: tmux gave none) and when it came.
type Dated = (Instant, Option<TmuxClipboard>);

/// Asks tmux, within a time limit (`None`: no answer).
pub type Asker = dyn Fn(Duration) -> Option<TmuxClipboard> + Send + Sync;

/// tmux's answer, asked at start and again when a copy finds it stale.
#[derive(Clone)]
pub struct TmuxProbe {
    in_tmux: bool,
    asker: Arc<Asker>,
    /// The last answer and when it came (`None`: not yet).
    last: Arc<Mutex<Option<Dated>>>,
    fresh_for: Duration,
}

impl std::fmt::Debug for TmuxProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TmuxProbe")
            .field("in_tmux", &self.in_tmux)
            .field("answer", &self.answer())
            .finish()
    }
}

impl TmuxProbe {
    /// Outside tmux: nothing to ask.
    pub fn not_in_tmux() -> Self {
        TmuxProbe {
            in_tmux: false,
            asker: Arc::new(|_| None),
            last: Arc::default(),
            fresh_for: FRESH_FOR,
        }
    }

    /// Inside tmux with a known answer that never changes (`None`: tmux
    /// does not answer), for tests and callers that asked already.
    pub fn answered(answer: Option<TmuxClipboard>) -> Self {
        TmuxProbe::asking(Arc::new(move |_| answer))
    }

    /// Inside tmux, asking `asker` at each copy whose last answer is
    /// stale (the seam tests drive; [`TmuxProbe::ask`] asks tmux).
    pub fn asking(asker: Arc<Asker>) -> Self {
        TmuxProbe {
            in_tmux: true,
            asker,
            last: Arc::default(),
            fresh_for: FRESH_FOR,
        }
    }

    /// An answer is asked again once older than `fresh_for`.
    pub fn fresh_for(mut self, fresh_for: Duration) -> Self {
        self.fresh_for = fresh_for;
        self
    }

    /// Inside tmux: asks `tmux display-message -p` [`QUERY`] now on a
    /// thread of its own, killed after [`QUERY_TIMEOUT`], and again at
    /// copies. Returns at once.
    pub fn ask() -> Self {
        let probe = TmuxProbe::asking(Arc::new(query_tmux));
        let first = probe.clone();
        let _ = std::thread::Builder::new()
            .name("tmux-clipboard".into())
            .spawn(move || {
                let answer = query_tmux(QUERY_TIMEOUT);
                first.store(answer);
            });
        probe
    }

    fn store(&self, answer: Option<TmuxClipboard>) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some((Instant::now(), answer));
        }
    }

    /// What tmux has said so far (no new question).
    pub fn answer(&self) -> TmuxAnswer {
        if !self.in_tmux {
            return TmuxAnswer::NotInTmux;
        }
        match self.last.lock().ok().and_then(|l| *l) {
            Some((_, Some(known))) => TmuxAnswer::Known(known),
            _ => TmuxAnswer::Unknown,
        }
    }

    /// What tmux says at this moment: the last answer while fresh, else
    /// asked again (within [`COPY_QUERY_TIMEOUT`]). A question that gets
    /// no answer leaves it unknown, never the old answer.
    pub fn answer_now(&self) -> TmuxAnswer {
        if !self.in_tmux {
            return TmuxAnswer::NotInTmux;
        }
        let fresh = self
            .last
            .lock()
            .ok()
            .and_then(|l| *l)
            .is_some_and(|(at, _)| at.elapsed() < self.fresh_for);
        if !fresh {
            self.store((self.asker)(COPY_QUERY_TIMEOUT));
        }
        self.answer()
    }
}

/// Runs the query; `None` when tmux fails, says something else, or takes
/// longer than `timeout` (then it is killed).
fn query_tmux(timeout: Duration) -> Option<TmuxClipboard> {
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
            Ok(None) if started.elapsed() < timeout => {
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
