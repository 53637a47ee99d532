//! The one writer every line of the CLI goes through: to a terminal, each
//! character [`sanitize::needs_escape`] names (ESC, C1 controls, bidi and
//! invisible characters; CR) is shown as its picture or `\u{…}` escape,
//! and bytes that are not UTF-8 as `\x{…}`; newline and tab pass. To a pipe
//! or a file it is a plain pass-through, so piped output stays byte-exact.
//!
//! `main` wraps stdout and stderr in it once, so a subcommand cannot forget
//! to sanitize a file name, a note or a project setting it prints: the rule
//! is the TUI's ([`sanitize`]), applied to the byte stream.

use std::io::{self, Write};

use crate::text::sanitize;

/// A [`Write`] that makes everything written through it safe for a
/// terminal when `escape` is on, and passes it through untouched when off.
pub struct TerminalWriter<W: Write> {
    inner: W,
    escape: bool,
    /// The start of a UTF-8 sequence cut by the end of the last write.
    pending: Vec<u8>,
}

impl<W: Write> TerminalWriter<W> {
    /// `escape`: whether `inner` is a terminal.
    pub fn new(inner: W, escape: bool) -> Self {
        TerminalWriter {
            inner,
            escape,
            pending: Vec::new(),
        }
    }

    /// Whether output is escaped (the writer goes to a terminal).
    pub fn escapes(&self) -> bool {
        self.escape
    }

    /// The safe text of `bytes` (after any pending bytes); an incomplete
    /// UTF-8 sequence at the end is kept for the next write.
    fn safe_text(&mut self, bytes: &[u8]) -> String {
        let mut data = std::mem::take(&mut self.pending);
        data.extend_from_slice(bytes);
        let mut out = String::with_capacity(data.len());
        let mut rest: &[u8] = &data;
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    push_safe(&mut out, text);
                    break;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    // `good` is valid UTF-8 by `valid_up_to`.
                    push_safe(&mut out, std::str::from_utf8(good).unwrap_or_default());
                    match e.error_len() {
                        Some(n) => {
                            for b in &bad[..n] {
                                out.push_str(&format!("\\x{{{b:02x}}}"));
                            }
                            rest = &bad[n..];
                        }
                        None => {
                            self.pending = bad.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        out
    }
}

/// Appends `text` to `out` with newline and tab kept and everything else
/// [`sanitize::needs_escape`] names made visible.
fn push_safe(out: &mut String, text: &str) {
    for c in text.chars() {
        if c == '\n' || c == '\t' {
            out.push(c);
        } else {
            sanitize::push_visible(out, c);
        }
    }
}

impl<W: Write> Write for TerminalWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.escape {
            return self.inner.write(buf);
        }
        let text = self.safe_text(buf);
        self.inner.write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for TerminalWriter<W> {
    /// A sequence still cut at the end was never completed: shown as bytes.
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let text: String = self
                .pending
                .iter()
                .map(|b| format!("\\x{{{b:02x}}}"))
                .collect();
            let _ = self.inner.write_all(text.as_bytes());
            let _ = self.inner.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(escape: bool, writes: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut w = TerminalWriter::new(&mut out, escape);
            for bytes in writes {
                w.write_all(bytes).unwrap();
            }
            w.flush().unwrap();
        }
        out
    }

    /// A byte that starts a terminal command, or a char that reorders or
    /// hides text, written out independently of `needs_escape`.
    fn unsafe_for_a_terminal(out: &[u8]) -> bool {
        let Ok(text) = std::str::from_utf8(out) else {
            return true; // a lone C1 byte is a command on 8-bit terminals
        };
        out.iter().any(|&b| b == 0x1b || b == 0x07 || b == b'\r')
            || text.chars().any(|c| {
                ('\u{80}'..='\u{9f}').contains(&c)
                    || ('\u{202a}'..='\u{202e}').contains(&c)
                    || ('\u{2066}'..='\u{2069}').contains(&c)
            })
    }

    #[test]
    fn a_terminal_gets_no_escape_sequence() {
        let evil: &[u8] = b"a\x1b]52;c;aGk=\x07 b\x1b[2J \xc2\x9b31m \xe2\x80\xae c\r\n\td\n";
        let shown = through(true, &[evil]);
        assert!(!unsafe_for_a_terminal(&shown), "{shown:?}");
        assert_eq!(
            String::from_utf8(shown).unwrap(),
            "a␛]52;c;aGk=␇ b␛[2J \\u{9b}31m \\u{202e} c␍\n\td\n"
        );
    }

    #[test]
    fn a_pipe_gets_the_bytes_unchanged() {
        let evil: &[u8] = b"a\x1b]52;c;aGk=\x07\x9b\xc2\x9b\r\n";
        assert_eq!(through(false, &[evil]), evil);
    }

    #[test]
    fn raw_c1_and_invalid_bytes_are_shown_as_hex() {
        let shown = through(true, &[b"x\x9by\xff"]);
        assert_eq!(String::from_utf8(shown).unwrap(), "x\\x{9b}y\\x{ff}");
    }

    #[test]
    fn a_character_split_across_writes_is_joined() {
        // U+202E is e2 80 ae; U+00E9 is c3 a9.
        let shown = through(true, &[b"a\xe2", b"\x80", b"\xae\xc3", b"\xa9"]);
        assert_eq!(String::from_utf8(shown).unwrap(), "a\\u{202e}é");
        // Cut at the very end: never completed, shown as bytes.
        let shown = through(true, &[b"z\xe2\x80"]);
        assert_eq!(String::from_utf8(shown).unwrap(), "z\\x{e2}\\x{80}");
    }
}
