//! The last guard of a save: no comment of the file is lost. The merge of
//! `preserve.rs` edits the text in place, but a comment sits with the
//! item below or beside it, so removing that item (a file entry excluded,
//! a setting taken back by an undo) would take the comment too, and the
//! clean layout written when a merge cannot be trusted has none at all.
//! Each comment of the old text the new text lacks is put back on a line
//! of its own, after the line it followed in the old text (or where that
//! line's nearest surviving predecessor is), with its indentation.

/// One line of TOML text split into its code and its comment.
struct Line<'a> {
    /// The code part, trimmed (`""` for a blank or comment-only line).
    code: &'a str,
    /// The comment, from its `#` to the end of the line, trimmed.
    comment: Option<&'a str>,
    /// The line's leading blanks.
    indent: &'a str,
    /// Whether the line ends inside a multi-line string (no line may be
    /// put after it).
    open: bool,
}

/// Where a scan stands at the start of a line.
#[derive(Clone, Copy, PartialEq)]
enum In {
    Code,
    /// `"""…"""`
    Basic,
    /// `'''…'''`
    Literal,
}

/// `text`'s lines, split (strings are skipped, so a `#` in one is no
/// comment).
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut state = In::Code;
    let mut out = Vec::new();
    for raw in text.lines() {
        let bytes = raw.as_bytes();
        let mut i = 0;
        let mut comment_at = None;
        while i < bytes.len() {
            match state {
                In::Basic => {
                    if bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if bytes[i..].starts_with(b"\"\"\"") {
                        state = In::Code;
                        i += 3;
                        continue;
                    }
                }
                In::Literal => {
                    if bytes[i..].starts_with(b"'''") {
                        state = In::Code;
                        i += 3;
                        continue;
                    }
                }
                In::Code => match bytes[i] {
                    b'#' => {
                        comment_at = Some(i);
                        break;
                    }
                    b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                        state = In::Basic;
                        i += 3;
                        continue;
                    }
                    b'\'' if bytes[i..].starts_with(b"'''") => {
                        state = In::Literal;
                        i += 3;
                        continue;
                    }
                    b'"' => i = skip_string(bytes, i, b'"'),
                    b'\'' => i = skip_string(bytes, i, b'\''),
                    _ => {}
                },
            }
            i += 1;
        }
        let code_end = comment_at.unwrap_or(raw.len());
        let indent_len = raw.len() - raw.trim_start().len();
        out.push(Line {
            code: raw[..code_end].trim(),
            comment: comment_at.map(|c| raw[c..].trim_end()),
            indent: &raw[..indent_len.min(code_end)],
            open: state != In::Code,
        });
    }
    out
}

/// The index of the quote closing a one-line string opened at `start`
/// (or the line's end).
fn skip_string(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        if quote == b'"' && bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if bytes[i] == quote {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

/// `new` with every comment of `old` it lacks put back (see the module
/// doc). A comment `new` holds as often as `old` is not added again.
pub fn keep_comments(old: &str, new: &str) -> String {
    let old_lines = lines(old);
    let new_lines = lines(new);
    let mut have: std::collections::HashMap<&str, usize> = Default::default();
    for c in new_lines.iter().filter_map(|l| l.comment) {
        *have.entry(c).or_default() += 1;
    }
    // (line of `new` to insert after, or None for the top; the text).
    let mut inserts: Vec<(Option<usize>, String)> = Vec::new();
    let mut last_anchor: Option<usize> = None;
    for (i, line) in old_lines.iter().enumerate() {
        if !line.code.is_empty() {
            // A code line that survived: later comments go after it.
            if let Some(at) = find_code(&new_lines, line.code, last_anchor) {
                last_anchor = Some(at);
            }
        }
        let Some(comment) = line.comment else {
            continue;
        };
        match have.get_mut(comment) {
            Some(n) if *n > 0 => *n -= 1,
            _ => {
                let at = if line.code.is_empty() {
                    last_anchor
                } else {
                    // A comment beside a line that went: after what came before it.
                    old_lines[..i]
                        .iter()
                        .rev()
                        .filter(|l| !l.code.is_empty())
                        .find_map(|l| find_code(&new_lines, l.code, None))
                        .or(last_anchor)
                };
                let at = settle(&new_lines, at);
                inserts.push((at, format!("{}{comment}", line.indent)));
            }
        }
    }
    if inserts.is_empty() {
        return new.to_owned();
    }
    let mut out = String::with_capacity(new.len() + 64);
    let top: Vec<&String> = inserts
        .iter()
        .filter(|(at, _)| at.is_none())
        .map(|(_, t)| t)
        .collect();
    for t in top {
        out.push_str(t);
        out.push('\n');
    }
    // Each line as it was, its line end with it: a CR before the LF may
    // be part of a multi-line string's value (found by the fuzz target:
    // `x = """ 1\r\n"""` read back as another value, so every comment
    // the edit took was lost to the fallback).
    for (n, raw) in new.split_inclusive('\n').enumerate() {
        out.push_str(raw);
        let mut after = inserts.iter().filter(|(at, _)| *at == Some(n)).peekable();
        if after.peek().is_some() && !raw.ends_with('\n') {
            out.push('\n');
        }
        for (_, t) in after {
            out.push_str(t);
            out.push('\n');
        }
    }
    if !new.ends_with('\n') && !new.is_empty() && out.ends_with('\n') {
        // No final line end the text had not.
        out.pop();
    }
    out
}

/// The first line of `lines` at or after `from` (then anywhere) with
/// this code.
fn find_code(lines: &[Line<'_>], code: &str, from: Option<usize>) -> Option<usize> {
    let start = from.unwrap_or(0);
    lines[start..]
        .iter()
        .position(|l| l.code == code)
        .map(|p| start + p)
        .or_else(|| lines.iter().position(|l| l.code == code))
}

/// `at`, moved down past lines that end inside a multi-line string.
fn settle(lines: &[Line<'_>], at: Option<usize>) -> Option<usize> {
    let mut at = at?;
    while lines.get(at).is_some_and(|l| l.open) {
        at += 1;
    }
    Some(at.min(lines.len().saturating_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `project_file` fuzz target: a CR before a line's LF
    /// inside a multi-line string is part of its value; the lines the
    /// guard wrote back lost it, so the text read back otherwise and the
    /// save fell back to the text without the comments.
    #[test]
    fn a_carriage_return_in_a_multi_line_string_is_kept() {
        let old = "x = \"\"\" 1\r\n\"\"\" # kept\n# gone with y\ny = 1\nz = 2\n";
        let new = "x = \"\"\" 1\r\n\"\"\" # kept\nz = 2\n";
        let kept = keep_comments(old, new);
        assert_eq!(
            kept,
            "x = \"\"\" 1\r\n\"\"\" # kept\n# gone with y\nz = 2\n"
        );
        // No final line end is added, with or without a comment after it.
        assert_eq!(keep_comments("a = 1\n# c\n", "a = 1"), "a = 1\n# c");
        assert_eq!(keep_comments("a = 1 # c", "a = 1 # c"), "a = 1 # c");
    }

    /// Found by the `project_file` fuzz target: an escape before a
    /// character of two bytes in a multi-line string (`"""\ȍ"""`) put
    /// the scan inside it, and slicing the line there panicked.
    #[test]
    fn an_escape_before_a_wide_character_in_a_string_is_no_panic() {
        let old = "a = \"\"\"x\\ȍ\"\"\" # kept\nb = \"\"\"\nx\\ȍ\"\"\" # too\nc = \"\\ȍ\" # and\n";
        let new = "a = \"\"\"x\\ȍ\"\"\"\nb = \"\"\"\nx\\ȍ\"\"\"\nc = \"\\ȍ\"\n";
        let kept = keep_comments(old, new);
        for comment in ["# kept", "# too", "# and"] {
            assert!(kept.contains(comment), "{kept}");
        }
    }

    #[test]
    fn a_comment_of_a_removed_line_stays_where_it_was() {
        let old = "# top\n[project]\nbudget = 5 # small\n# the team's window\nmodel_window = 9\n\n[presets.a]\nfiles = [\"x\"]\n";
        let new = "[project]\nbudget = 5 # small\n\n[presets.a]\nfiles = [\"x\"]\n";
        assert_eq!(
            keep_comments(old, new),
            "# top\n[project]\nbudget = 5 # small\n# the team's window\n\n[presets.a]\nfiles = [\"x\"]\n"
        );
    }

    #[test]
    fn an_inline_comment_of_a_removed_entry_gets_its_own_line() {
        let old = "files = [\n    \"a.py\",  # the core\n    \"b.py\",\n]\n";
        let new = "files = [\n    \"b.py\",\n]\n";
        assert_eq!(
            keep_comments(old, new),
            "files = [\n    # the core\n    \"b.py\",\n]\n"
        );
    }

    #[test]
    fn hashes_in_strings_are_no_comments_and_nothing_goes_into_a_string() {
        let old = "a = \"x # y\"\nb = '''\n# in\n'''\n# gone\nc = 1\n";
        let new = "a = \"x # y\"\nb = '''\n# in\n'''\n";
        let out = keep_comments(old, new);
        assert_eq!(out, "a = \"x # y\"\nb = '''\n# in\n'''\n# gone\n");
        // Nothing lost: the same text back.
        assert_eq!(keep_comments(new, new), new);
    }
}
