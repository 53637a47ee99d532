//! A tool's failure as the client sees it: a message in the tool's result
//! (`isError`), never a protocol error or a crashed server.

use thiserror::Error;

/// Why a tool call could not answer, worded for the model that asked.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ToolError(pub String);

impl ToolError {
    /// An error whose text is safe to show: what it quotes (a path the
    /// agent sent, a file's name) has its controls and invisible
    /// characters (U+202E, ESC) made visible, as every other front end
    /// shows them; its line breaks and tabs stay.
    pub fn new(why: impl Into<String>) -> Self {
        use ctxcurate::text::sanitize::{needs_escape, push_visible};
        let why: String = why.into();
        if !why
            .chars()
            .any(|c| needs_escape(c) && c != '\n' && c != '\t')
        {
            return ToolError(why);
        }
        let mut shown = String::with_capacity(why.len() + 8);
        for c in why.chars() {
            match c {
                '\n' | '\t' => shown.push(c),
                c => push_visible(&mut shown, c),
            }
        }
        ToolError(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file name's U+202E or ESC quoted in an error is shown escaped
    /// (sweep round 10: `file not found: zz\u{202e}.py` came raw); line breaks
    /// stay.
    #[test]
    fn what_an_error_quotes_is_made_visible() {
        let e = ToolError::new("file not found: zz\u{202e}.py\nand \u{1b}[2J");
        assert!(
            !e.0.contains('\u{202e}') && !e.0.contains('\u{1b}'),
            "{}",
            e.0
        );
        assert!(e.0.contains("\\u{202e}") && e.0.contains('\n'), "{}", e.0);
        assert_eq!(ToolError::new("plain\ttext").0, "plain\ttext");
    }
}
