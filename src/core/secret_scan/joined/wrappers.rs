//! A value wrapped on its assignment's line (round 21): `DB_PASSWORD =
//! ("…")`, `= str("…")`, a triple-quoted string (`"""…"""`, or `'''`
//! with the value alone on the next line), a format filled with a literal
//! (`"%s" % "…"`, `"{}".format("…")`). What stands between the `=` and
//! the literal's quote is cut, and a triple quote's extra quotes, so the
//! copy reads `DB_PASSWORD ="…"` and the rules judge the assignment.
//! Round 22: a triple-quoted value closed on a line below, and a template
//! literal whose value stands alone on the next line.

use std::ops::Range;

use super::next_line::{assignments, blanks, prefix_end};

/// Calls that return their string argument as it is.
const WRAPPERS: [&[u8]; 5] = [b"str(", b"String(", b"strval(", b"String.new(", b"unicode("];

/// Formats that a `%` or `.format(` fills with the literal after them.
const FORMATS: [&[u8]; 3] = [b"%s", b"{}", b"{0}"];

/// The ranges to cut for each assignment (`=`, `:=`, `=>`) whose value
/// is a wrapped literal on its line.
pub(super) fn cuts(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for value in assignments(bytes) {
        let i = blanks(bytes, value);
        let mut j = i;
        for _ in 0..2 {
            if bytes.get(j) == Some(&b'(') {
                j = blanks(bytes, j + 1);
            } else if let Some(w) = WRAPPERS.iter().find(|w| bytes[j..].starts_with(w)) {
                j = blanks(bytes, j + w.len());
            }
        }
        let q = prefix_end(bytes, j);
        let Some(&quote) = bytes.get(q).filter(|b| matches!(b, b'"' | b'\'' | b'`')) else {
            continue;
        };
        let long = if bytes[q..].starts_with(&[quote; 3]) {
            Some(3)
        } else {
            (quote == b'`').then_some(1)
        };
        if let Some(n) = long {
            if let Some(mut inner) = multiline(bytes, q, n) {
                if j > i {
                    out.push(value..j);
                }
                out.append(&mut inner);
            }
        } else if let Some(second) = filled_format(bytes, q) {
            out.push(value..second);
        } else if j > i {
            out.push(value..j);
        }
    }
    out
}

/// The cuts that make the string at `q`, opened by `n` quotes (a triple
/// quote, or a template literal's one backtick), one quoted value: its
/// extra opening quotes; when its value stands alone on the next line
/// (round 22: or on the opening line, closed on a line below), the line
/// end before it and the blanks and extra quotes after. A template
/// literal is read only when its value stands alone below.
fn multiline(bytes: &[u8], q: usize, n: usize) -> Option<Vec<Range<usize>>> {
    let quote = bytes[q];
    let body = q + n;
    let newline = match bytes.get(body) {
        Some(b'\n') => 1,
        Some(b'\r') if bytes.get(body + 1) == Some(&b'\n') => 2,
        _ if n == 1 => return None,
        _ => 0,
    };
    let start = blanks(bytes, body + newline);
    let end = bytes[start..]
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .map_or(bytes.len(), |n| start + n);
    let mut close = end;
    while bytes.get(close).is_some_and(|b| b.is_ascii_whitespace()) && close - end < 256 {
        close += 1;
    }
    let closed = end > start && bytes[close..].starts_with(&vec![quote; n]);
    let below = bytes[end..close].contains(&b'\n');
    if closed && (newline > 0 || below) {
        Some(vec![q + 1..start, end..close + n - 1])
    } else if newline == 0 {
        // On one line: the extra quotes alone.
        Some(std::iter::once(q + 1..q + 3).collect())
    } else {
        None
    }
}

/// Where the literal filling the format literal at `q` starts (`"%s" %
/// "…"`, `'{}'.format('…')`), if it is one.
fn filled_format(bytes: &[u8], q: usize) -> Option<usize> {
    let quote = bytes[q];
    let format = FORMATS.iter().find(|f| bytes[q + 1..].starts_with(f))?;
    let close = q + 1 + format.len();
    if bytes.get(close) != Some(&quote) {
        return None;
    }
    let after = blanks(bytes, close + 1);
    let second = if bytes.get(after) == Some(&b'%') {
        blanks(bytes, after + 1)
    } else if bytes[after..].starts_with(b".format(") {
        blanks(bytes, after + b".format(".len())
    } else {
        return None;
    };
    let second = prefix_end(bytes, second);
    matches!(bytes.get(second), Some(b'"' | b'\'')).then_some(second)
}
