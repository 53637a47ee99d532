//! Ruby's comments blanked before its lines are read (recheck 21, item
//! 5): a string that spans lines and holds `#` made the code after it
//! look like a comment (`s = "⏎# "; system(w)`). One pass keeps the
//! state across lines: strings (`'…'`, `"…"`, `` `…` ``, `:"…"`, `%q(…)`
//! and the other `%` literals, nested brackets counted), `#{…}`
//! interpolations (code inside a string), regular expressions, heredocs
//! (`<<~ID`, `<<-ID`, `<<ID`, quoted), `=begin`/`=end` and what follows
//! `__END__`. Only comments are blanked; a string is kept. Where Ruby's
//! own reading is ambiguous to a lexer (`?"` a character or a ternary,
//! `foo /x/` a regular expression or a division, `x %(y)`, `a <<B`),
//! nothing more is blanked from there on: more code read, never less.

/// One level of what is open.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Frame {
    /// Code; in an interpolation, the `{`s open in it.
    Code { braces: usize },
    /// A string or `%` literal: its closing byte, its opening byte when
    /// it nests (`%q(…(…)…)`), how deep, whether `#{` interpolates.
    Str {
        close: u8,
        open: Option<u8>,
        depth: usize,
        interp: bool,
    },
    /// A `/…/` regular expression (interpolates; a `/` in `[…]` is none).
    Regex { class: bool },
}

/// What the last token was: whether a `/`, `%`, `?` or `<<` after it
/// starts a literal.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Last {
    /// Start of a statement, an operator, a keyword: a literal follows.
    Op,
    /// A value (`)`, `]`, a number, a closed string): an operator follows.
    Value,
    /// A name: a method's argument or a variable; ambiguous when a space
    /// comes before the mark and none after.
    Name,
}

/// A heredoc waiting for the line's end: its identifier, and whether
/// its end may be indented (`<<~`, `<<-`).
struct Pending {
    id: String,
    indented: bool,
}

struct Lexer {
    stack: Vec<Frame>,
    last: Last,
    spaced: bool,
    pending: Vec<Pending>,
    unsure: bool,
}

const KEYWORDS: &[&str] = &[
    "if", "elsif", "unless", "when", "and", "or", "not", "return", "while", "until", "case", "in",
    "then", "do", "yield", "else", "puts", "print", "p",
];

/// `text` with each comment's characters but its newlines made spaces.
pub(super) fn blanked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lx = Lexer {
        stack: vec![Frame::Code { braces: 0 }],
        last: Last::Op,
        spaced: false,
        pending: Vec::new(),
        unsure: false,
    };
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let base = lx.stack.len() == 1 && !lx.unsure;
        if base && line.starts_with("=begin") && !starts_name(&line[6..]) {
            blank_line(line, &mut out);
            for line in lines.by_ref() {
                blank_line(line, &mut out);
                if line.starts_with("=end") && !starts_name(&line[4..]) {
                    break;
                }
            }
            continue;
        }
        if base && line.trim_end() == "__END__" {
            blank_line(line, &mut out);
            lines.by_ref().for_each(|l| blank_line(l, &mut out));
            break;
        }
        // A line that starts inside a quoted string opens with its
        // quote: each line read alone then knows its string from code.
        if let Some(Frame::Str {
            close, open: None, ..
        }) = lx.stack.last()
            && matches!(close, b'"' | b'\'' | b'`')
        {
            out.push(*close as char);
        }
        lx.line(line, &mut out);
        // A `/…/` open at the line's end: Ruby's `/x` flag spans lines,
        // a division misread does not; unsure.
        if matches!(lx.stack.last(), Some(Frame::Regex { .. })) {
            lx.unsure = true;
        }
        for heredoc in std::mem::take(&mut lx.pending) {
            for body in lines.by_ref() {
                out.push_str(body);
                let t = match heredoc.indented {
                    true => body.trim(),
                    false => body.trim_end_matches(['\n', '\r']),
                };
                if t == heredoc.id {
                    break;
                }
            }
        }
    }
    out
}

fn starts_name(rest: &str) -> bool {
    rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

fn blank_line(line: &str, out: &mut String) {
    out.extend(line.chars().map(|c| if c == '\n' { c } else { ' ' }));
}

impl Lexer {
    /// Read one line (its newline included) into `out`.
    fn line(&mut self, line: &str, out: &mut String) {
        let bytes = line.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let b = bytes[at];
            let step = match self.stack.last().copied() {
                Some(Frame::Str {
                    close,
                    open,
                    depth,
                    interp,
                }) => self.in_string(bytes, at, (close, open, depth, interp)),
                Some(Frame::Regex { class }) => self.in_regex(bytes, at, class),
                _ => {
                    if b == b'#' && !self.unsure {
                        if self.stack.len() == 1 {
                            blank_line(&line[at..], out);
                            return;
                        }
                        // A comment inside `#{…}` swallows its `}`.
                        self.unsure = true;
                    }
                    self.in_code(line, at)
                }
            };
            let end = (at + step.max(1)).min(bytes.len());
            // Never cut a character: move on to the next boundary.
            let end = (end..=bytes.len())
                .find(|e| line.is_char_boundary(*e))
                .unwrap_or(bytes.len());
            out.push_str(&line[at..end]);
            at = end;
        }
    }

    /// One step in a string at `at`: how many bytes it takes.
    fn in_string(
        &mut self,
        bytes: &[u8],
        at: usize,
        (close, open, depth, interp): (u8, Option<u8>, usize, bool),
    ) -> usize {
        let b = bytes[at];
        if b == b'\\' {
            return 2;
        }
        if interp && b == b'#' && bytes.get(at + 1) == Some(&b'{') {
            self.stack.push(Frame::Code { braces: 0 });
            self.last = Last::Op;
            return 2;
        }
        if let Some(Frame::Str { depth: d, .. }) = self.stack.last_mut() {
            if Some(b) == open {
                *d += 1;
            } else if b == close && depth > 0 {
                *d -= 1;
            } else if b == close {
                self.stack.pop();
                self.last = Last::Value;
                self.spaced = false;
            }
        }
        1
    }

    fn in_regex(&mut self, bytes: &[u8], at: usize, class: bool) -> usize {
        let b = bytes[at];
        match b {
            b'\\' => return 2,
            b'#' if bytes.get(at + 1) == Some(&b'{') => {
                self.stack.push(Frame::Code { braces: 0 });
                self.last = Last::Op;
                return 2;
            }
            b'[' => self.set_class(true),
            b']' => self.set_class(false),
            b'/' if !class => {
                self.stack.pop();
                self.last = Last::Value;
                self.spaced = false;
            }
            _ => {}
        }
        1
    }

    fn set_class(&mut self, on: bool) {
        if let Some(Frame::Regex { class }) = self.stack.last_mut() {
            *class = on;
        }
    }

    /// One step in code at `at`: how many bytes it takes.
    fn in_code(&mut self, line: &str, at: usize) -> usize {
        let bytes = line.as_bytes();
        let b = bytes[at];
        let next = bytes.get(at + 1).copied();
        let spaced_after = next.is_none_or(|n| n.is_ascii_whitespace());
        let spaced_before = self.spaced;
        // Whether a mark here opens a literal: after an operator, or a
        // name with a space before and none after (unsure).
        let opens = |lx: &mut Lexer| match lx.last {
            Last::Op => true,
            Last::Value => false,
            Last::Name if spaced_before && !spaced_after => {
                lx.unsure = true;
                true
            }
            Last::Name => false,
        };
        if b.is_ascii_whitespace() {
            self.spaced = true;
            return 1;
        }
        if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 {
            let len = line[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '?' || c == '!'))
                .unwrap_or(line.len() - at);
            let word = &line[at..at + len];
            let after_dot = line[..at].ends_with('.');
            self.last = match () {
                _ if b.is_ascii_digit() => Last::Value,
                _ if KEYWORDS.contains(&word) && !after_dot => Last::Op,
                _ => Last::Name,
            };
            self.spaced = false;
            return len.max(1);
        }
        self.spaced = false;
        match b {
            b'"' | b'\'' | b'`' => {
                self.push_str(b, None, b != b'\'');
                1
            }
            b'$' | b'@' => {
                self.last = Last::Value;
                // `$"`, `$'`, `` $` ``: globals, not strings.
                let name = line[at + 1..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '@'))
                    .unwrap_or(line.len() - at - 1);
                1 + name.max(usize::from(b == b'$'))
            }
            b'?' if next.is_some_and(|n| b"\"'`#%/\\<".contains(&n)) => {
                self.unsure = true;
                1
            }
            b'/' if opens(self) => {
                self.stack.push(Frame::Regex { class: false });
                1
            }
            b'%' if opens(self) => self.percent(bytes, at),
            b'<' if line[at..].starts_with("<<") => self.heredoc(line, at),
            b':' if next == Some(b'`') => 2,
            b'{' => {
                if let Some(Frame::Code { braces }) = self.stack.last_mut() {
                    *braces += 1;
                }
                self.last = Last::Op;
                1
            }
            b'}' => {
                let depth = self.stack.len();
                match self.stack.last_mut() {
                    Some(Frame::Code { braces }) if *braces > 0 => *braces -= 1,
                    _ if depth > 1 => {
                        self.stack.pop();
                    }
                    _ => {}
                }
                self.last = Last::Value;
                1
            }
            b')' | b']' => {
                self.last = Last::Value;
                1
            }
            _ => {
                self.last = Last::Op;
                1
            }
        }
    }

    fn push_str(&mut self, close: u8, open: Option<u8>, interp: bool) {
        self.stack.push(Frame::Str {
            close,
            open,
            depth: 0,
            interp,
        });
    }

    /// A `%` literal at `at` (`%q(…)`, `%w[…]`, `%(…)`): its opening's
    /// length; a `%` that opens none is an operator.
    fn percent(&mut self, bytes: &[u8], at: usize) -> usize {
        let (kind, delim_at) = match bytes.get(at + 1) {
            Some(k) if b"qQwWiIxrs".contains(k) => (Some(*k), at + 2),
            _ => (None, at + 1),
        };
        let Some(&delim) = bytes.get(delim_at) else {
            self.last = Last::Op;
            return 1;
        };
        if delim.is_ascii_alphanumeric() || delim.is_ascii_whitespace() || delim >= 0x80 {
            if kind.is_some() {
                // `%q x` or `%qx`: not read; unsure.
                self.unsure = true;
            }
            self.last = Last::Op;
            return 1;
        }
        let close = match delim {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            d => d,
        };
        let open = (close != delim).then_some(delim);
        let interp = !matches!(kind, Some(b'q' | b'w' | b'i' | b's'));
        self.push_str(close, open, interp);
        delim_at + 1 - at
    }

    /// A `<<` at `at`: a heredoc's opening (its body read at the line's
    /// end), or a shift.
    fn heredoc(&mut self, line: &str, at: usize) -> usize {
        let rest = &line[at + 2..];
        let indented = rest.starts_with(['~', '-']);
        let head = if indented { &rest[1..] } else { rest };
        let quoted = head.starts_with(['"', '\'', '`']);
        let named = quoted || head.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let upper = quoted || head.starts_with(|c: char| c.is_ascii_uppercase() || c == '_');
        // After a name, `<<~X` opens a heredoc for a method (`puts
        // <<~X`) and shifts a local variable (`x <<-X`, recheck 21):
        // which, the file's scopes say; unsure.
        let heredoc = named && (indented || upper);
        let opens = match self.last {
            Last::Op => true,
            Last::Value => false,
            Last::Name => {
                self.unsure |= heredoc;
                true
            }
        };
        if !(heredoc && opens) {
            self.last = Last::Op;
            return 2;
        }
        let id: String = match quoted {
            true => {
                let q = head.as_bytes()[0] as char;
                let near = head.get(1..head.len().min(256)).unwrap_or("");
                match near.find(q) {
                    Some(end) => head[1..1 + end].to_string(),
                    None => {
                        self.unsure = true;
                        return 2;
                    }
                }
            }
            false => head
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect(),
        };
        let len = 2 + usize::from(indented) + id.len() + 2 * usize::from(quoted);
        if self.pending.len() < 16 {
            self.pending.push(Pending { id, indented });
        } else {
            self.unsure = true;
        }
        self.last = Last::Value;
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_blanked_and_strings_spanning_lines_are_not() {
        assert_eq!(
            blanked("# system(w)\nx = 1 # y\n"),
            "           \nx = 1    \n"
        );
        let text = "s = \"\n# \"; system(w)\n";
        assert_eq!(blanked(text), "s = \"\n\"# \"; system(w)\n");
        let text = "s = %q(\n(# ) still\n# ); system(w)\n";
        assert_eq!(blanked(text), text);
        let text = "s = \"#{x # }\"\n# y\n";
        assert_eq!(blanked(text), text);
        let text = "s = <<~X\n  # not a comment\n  X\n# a comment\n";
        assert_eq!(
            blanked(text),
            "s = <<~X\n  # not a comment\n  X\n           \n"
        );
        let text = "=begin\nexec(w)\n=end\nx\n__END__\nsystem(w)\n";
        assert_eq!(
            blanked(text),
            "      \n       \n    \nx\n       \n         \n"
        );
        for text in [
            "x = $\" + '\n# '; exec(w)\n",
            "x = a / b; y = '\n# '; exec(w)\n",
            "x = y =~ /'/; z = '\n# '; exec(w)\n",
        ] {
            assert_eq!(blanked(text), text.replace("\n#", "\n'#"));
        }
    }

    #[test]
    fn an_ambiguous_mark_blanks_nothing_after_it() {
        for text in [
            "x = ?\"\n# \"; exec(w)\n",
            "foo /\"/\n# \"; exec(w)\n",
            "a <<B\n# B; exec(w)\n",
            "x = 1\ny = x <<-EOS\ns = \"\nEOS\n# \"; exec(w)\n",
            "y = x<<~EOS\ns = \"\nEOS\n# \"; exec(w)\n",
            "x = /a\n# /; exec(w)\n",
        ] {
            assert!(blanked(text).contains("# "), "{text}");
        }
    }
}
