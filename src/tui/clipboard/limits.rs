//! How much text one OSC 52 sequence may carry, per terminal.
//!
//! Many terminals drop a long OSC 52 sequence silently, far below tmux's
//! 1 MiB, so a copy that "worked" leaves nothing (or the old clipboard)
//! behind. Where a terminal's limit is known the cap is that terminal's
//! ([`KNOWN`], each with where the number comes from); elsewhere it is
//! [`DEFAULT_OSC52_MAX_BYTES`]. The `osc52_limits` setting overrides any
//! of them by terminal name (`other` for the rest).
//!
//! The terminal is told by the variables it sets for its children
//! ([`detect`]); inside tmux those of the outer terminal are often still
//! there (`KITTY_WINDOW_ID`), and where they are not, the default applies.

use std::collections::BTreeMap;

use super::EnvProbe;

/// The cap on the text (before base64) where no terminal's limit is
/// known: 768 000 bytes, whose base64 (1 024 000 bytes) plus the `52;c;`
/// header stays under the 1 MiB limit on one escape sequence in tmux
/// (`INPUT_BUF_LIMIT`; longer sequences are silently dropped).
pub const DEFAULT_OSC52_MAX_BYTES: usize = 768_000;

/// The name `osc52_limits` uses for every terminal not in [`KNOWN`].
pub const OTHER: &str = "other";

/// Terminals whose OSC 52 limit is known: name, cap on the text in bytes,
/// and where the number comes from (kept with the number so that a
/// changed terminal can be checked against its source).
pub const KNOWN: &[(&str, usize, &str)] = &[
    (
        "kitty",
        6_138,
        "kitty issue #3031: 6,138 bytes of text copied, 6,139 dropped \
         (kitty's escape-code buffer; larger copies need its own protocol)",
    ),
    (
        "tabby",
        768,
        "Tabby issues #6001 and #10925: base64 payloads over about 1 KB \
         are dropped (1,024 bytes of base64 is 768 of text)",
    ),
    (
        "termux",
        4_096,
        "termux-app issue #5324: copies fail from about 6-7 KB of \
         sequence; 4 KiB of text is about 5.5 KB of base64",
    ),
];

/// The OSC 52 cap in force, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Osc52Limit {
    /// The terminal it applies to ([`OTHER`] when unknown).
    pub terminal: String,
    /// Most bytes of text one copy may carry.
    pub max_bytes: usize,
}

/// The terminal the environment names, if it is one of [`KNOWN`].
pub fn detect(env: &EnvProbe) -> Option<&'static str> {
    let is =
        |v: &Option<String>, want: &str| v.as_deref().is_some_and(|v| v.eq_ignore_ascii_case(want));
    let set = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.is_empty());
    if set(&env.kitty_window_id) || is(&env.term, "xterm-kitty") {
        Some("kitty")
    } else if is(&env.term_program, "tabby") {
        Some("tabby")
    } else if set(&env.termux_version) {
        Some("termux")
    } else {
        None
    }
}

/// The cap for the terminal `env` names: the user's `osc52_limits` entry
/// for it, else its [`KNOWN`] limit, else the user's `other` entry, else
/// [`DEFAULT_OSC52_MAX_BYTES`].
pub fn limit_for(env: &EnvProbe, overrides: &BTreeMap<String, usize>) -> Osc52Limit {
    let terminal = detect(env);
    let name = terminal.unwrap_or(OTHER);
    let known = terminal.and_then(|t| KNOWN.iter().find(|(n, ..)| *n == t));
    let max_bytes = overrides
        .get(name)
        .copied()
        .or(known.map(|(_, bytes, _)| *bytes))
        .unwrap_or(DEFAULT_OSC52_MAX_BYTES);
    Osc52Limit {
        terminal: name.to_string(),
        max_bytes,
    }
}
