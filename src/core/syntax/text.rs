//! Text helpers for the syntax views: byte→line mapping, whitespace
//! folding for one-line signatures, doc-line extraction from docstrings and
//! comments, and the blank-line normalisation of rendered output. All of
//! them take any input without panicking (slicing goes through
//! [`slice`]).

use std::ops::Range;

/// `source[range]`, or `""` when the range is out of bounds or not on char
/// boundaries (a tree used with a different source than it was parsed
/// from must not panic).
pub(super) fn slice(source: &str, range: Range<usize>) -> &str {
    source.get(range).unwrap_or("")
}

/// Byte offsets of line starts, to turn byte offsets into 1-based lines.
pub(super) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(super) fn new(source: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub(super) fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1)
    }
}

/// Where the line holding `offset` starts, if only spaces and tabs precede
/// `offset` on it. Scans back over the indentation only, so it stays cheap
/// on a megabyte-long line.
pub(super) fn indent_start(source: &str, offset: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut i = offset.min(bytes.len());
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    (i == 0 || bytes[i - 1] == b'\n').then_some(i)
}

/// The whitespace before `offset` on its line, or `""` if code precedes it.
pub(super) fn indent_before(source: &str, offset: usize) -> &str {
    indent_start(source, offset).map_or("", |start| slice(source, start..offset))
}

/// Whether only spaces/tabs precede `offset` on its line.
pub(super) fn starts_line(source: &str, offset: usize) -> bool {
    indent_start(source, offset).is_some()
}

/// Whether the line ending just before `line_start` (a line start) is
/// blank, looking no further back than `floor`.
pub(super) fn blank_line_before(source: &str, line_start: usize, floor: usize) -> bool {
    let bytes = source.as_bytes();
    if line_start <= floor || line_start > bytes.len() || bytes[line_start - 1] != b'\n' {
        return false;
    }
    let mut i = line_start - 1;
    while i > floor && matches!(bytes[i - 1], b' ' | b'\t' | b'\r') {
        i -= 1;
    }
    i > floor && bytes[i - 1] == b'\n' || i == 0
}

/// `text` on one line: line continuations dropped, whitespace runs folded
/// to one space, no space just inside brackets, trimmed.
pub(super) fn fold(text: &str) -> String {
    let text = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let glue = out.ends_with(['(', '[']) || word.starts_with([')', ']', ',']);
        if !out.is_empty() && !glue {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `text` cut to at most `max` chars, marked with `...` when cut.
pub(super) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(3)).collect();
    format!("{}...", kept.trim_end())
}

/// The longest doc line we keep (module docs, agg summaries).
const DOC_MAX: usize = 120;

/// The first line of a string literal's content that says something:
/// prefix letters and quotes stripped.
pub(super) fn doc_from_string(literal: &str) -> Option<String> {
    let body = literal.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let body = ["\"\"\"", "'''", "\"", "'"]
        .iter()
        .find_map(|q| body.strip_prefix(q).map(|b| b.strip_suffix(q).unwrap_or(b)))
        .unwrap_or(body);
    first_meaningful_line(body.lines())
}

/// The first line of a comment block that says something: `//`, `/*`,
/// `*/`, leading `*` and `#` markers stripped, and Lua's `--`, `--[[`,
/// `]]`.
pub(super) fn doc_from_comment(comment: &str) -> Option<String> {
    first_meaningful_line(comment.lines().map(strip_comment_markers))
}

fn strip_comment_markers(line: &str) -> &str {
    let line = line.trim();
    let line = line.strip_suffix("*/").unwrap_or(line);
    let line = line.trim_start_matches('/');
    let line = line.trim_start_matches(['*', '!', '#']);
    let line = line.strip_prefix("--").map_or(line, |l| {
        let l = l.trim_start_matches('-');
        l.strip_prefix("[[").unwrap_or(l)
    });
    let line = line.trim_end();
    line.strip_suffix("]]").unwrap_or(line).trim()
}

/// The first line with a letter or digit, control characters (a lone
/// `\r`, which Python reads as a line break) turned into spaces so the
/// line can sit inside a one-line comment.
fn first_meaningful_line<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    let line = lines
        .map(str::trim)
        .find(|l| l.chars().any(char::is_alphanumeric))?;
    let clean: String = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    Some(truncate(clean.trim(), DOC_MAX))
}

/// Rendered output tidied: whitespace-only lines emptied, runs of three or
/// more blank lines collapsed to one, no leading blank lines, exactly one
/// final newline (or nothing at all).
pub(super) fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    let mut blanks: Vec<&str> = Vec::new();
    for line in text.split('\n') {
        if line.trim().is_empty() {
            blanks.push(if line.ends_with('\r') { "\r" } else { "" });
            continue;
        }
        if !out.is_empty() {
            let keep = if blanks.len() >= 3 { 1 } else { blanks.len() };
            for blank in blanks.iter().take(keep) {
                out.push_str(blank);
                out.push('\n');
            }
        }
        blanks.clear();
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_joins_lines_and_tightens_brackets() {
        assert_eq!(fold("def f(\n    a,\n    b,\n)"), "def f(a, b,)");
        assert_eq!(
            fold("  int   add (int a,\tint b) "),
            "int add (int a, int b)"
        );
        assert_eq!(fold("#define X \\\n  1"), "#define X 1");
    }

    #[test]
    fn doc_lines_skip_markers_and_rules() {
        assert_eq!(
            doc_from_string("r'''\n\n  Run it.\n  More.'''").as_deref(),
            Some("Run it.")
        );
        assert_eq!(doc_from_string("\"x\"").as_deref(), Some("x"));
        assert_eq!(
            doc_from_comment("/*****\n * Adds two.\n */").as_deref(),
            Some("Adds two.")
        );
        assert_eq!(
            doc_from_comment("/// Docs.\n/// more").as_deref(),
            Some("Docs.")
        );
        assert_eq!(doc_from_comment("/* ---- */"), None);
        assert_eq!(doc_from_string("'a\rb\tc'").as_deref(), Some("a b c"));
    }

    #[test]
    fn tidy_collapses_long_blank_runs_only() {
        assert_eq!(tidy("\n\na\n\n\nb\n  \n\t\n\n\nc"), "a\n\n\nb\n\nc\n");
        assert_eq!(tidy(""), "");
        assert_eq!(tidy("\n \n"), "");
        assert_eq!(tidy("x\r\n\r\n\r\n\r\n\r\ny\r\n"), "x\r\n\r\ny\r\n");
    }

    #[test]
    fn lines_and_indents() {
        let src = "a\n  bc\n";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_of(0), 1);
        assert_eq!(idx.line_of(4), 2);
        assert_eq!(idx.line_of(99), 3);
        assert_eq!(indent_before(src, 4), "  ");
        assert_eq!(indent_before(src, 5), "");
        assert!(starts_line(src, 4));
        assert!(!starts_line(src, 5));
        assert_eq!(indent_start(src, 0), Some(0));
        assert_eq!(slice(src, 5..99), "");
        let blanks = "a\n \r\nb\nc\n";
        assert!(blank_line_before(blanks, 5, 0));
        assert!(!blank_line_before(blanks, 7, 0));
        assert!(!blank_line_before(blanks, 5, 5));
    }
}
