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

    /// The error cut to at most `max` bytes (the server's `--max-result`,
    /// as every result is): what it quotes came from the agent, and a
    /// 9 MB path came back whole in "file not found: …".
    pub fn within(self, max: usize) -> Self {
        ToolError(cut_to(self.0, max))
    }
}

/// `text` within `max` bytes: its head, cut at a character boundary, and
/// how much was left out.
pub fn cut_to(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    // Room for the note: "… (N more bytes not shown)".
    let mut end = max.saturating_sub(48);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let left = text.len() - end;
    format!("{}… ({left} more bytes not shown)", &text[..end])
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

    /// An error within the server's result bound: cut on a character,
    /// saying how much is left out (sweep 10 F4: a 9 MB path came back).
    #[test]
    fn an_error_keeps_within_the_result_bound() {
        let long = ToolError::new(format!("file not found: {}", "é".repeat(5000)));
        let cut = long.within(1000);
        assert!(cut.0.len() <= 1000, "{}", cut.0.len());
        assert!(cut.0.starts_with("file not found: éé"), "{}", cut.0);
        assert!(cut.0.ends_with("more bytes not shown)"), "{}", cut.0);
        let short = ToolError::new("no tool named `x`");
        assert_eq!(short.clone().within(1000), short);
        assert!(ToolError::new("x".repeat(50)).within(10).0.len() < 60);
    }
}
