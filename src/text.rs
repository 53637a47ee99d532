//! Pure text rules shared by the core, the CLI and the TUI: how text from a
//! project is shown safely ([`sanitize`]: pictures and escapes for control,
//! bidi and invisible characters) and the writer that applies that rule to
//! everything the CLI prints to a terminal ([`terminal`]). No terminal
//! crate here: these take text and return text.

pub mod invisible;
pub mod sanitize;
pub mod terminal;
pub mod words;

/// An error and its sources on one line.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}
