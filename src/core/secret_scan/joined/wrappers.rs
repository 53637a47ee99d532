//! A value wrapped on its assignment's line (round 21): `DB_PASSWORD =
//! ("…")`, `= str("…")`, a triple-quoted string (`"""…"""`, or `'''`
//! with the value alone on the next line), a format filled with a literal
//! (`"%s" % "…"`, `"{}".format("…")`). What stands between the `=` and
//! the literal's quote is cut, and a triple quote's extra quotes, so the
//! copy reads `DB_PASSWORD ="…"` and the rules judge the assignment.
//! Round 22: a triple-quoted value closed on a line below, and a template
//! literal whose value stands alone on the next line. Round 23: a template
//! literal opened on the assignment's line and closed below, and a quoted
//! key's triple-quoted or template value closed below (`"password":
//! """…` in a dict).

use super::Cut;
use super::next_line::{assignments, blanks, prefix_end};

/// Calls that return their string argument as it is.
const WRAPPERS: [&[u8]; 5] = [b"str(", b"String(", b"strval(", b"String.new(", b"unicode("];

/// Formats that a `%` or `.format(` fills with the literal after them.
const FORMATS: [&[u8]; 3] = [b"%s", b"{}", b"{0}"];

/// The ranges to cut for each assignment (`=`, `:=`, `=>`) whose value
/// is a wrapped literal on its line.
pub(super) fn cuts(text: &str) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let each = assignments(bytes)
        .map(|at| (at, false))
        .chain(keyed(bytes).map(|at| (at, true)));
    for (value, key) in each {
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
        // A `"` or `'` ending its line opens a value alone below (a
        // dotenv file's or a shell's quoted value over lines, round 23).
        let opens_line = matches!(bytes.get(q + 1), Some(b'\n' | b'\r'));
        let long = if bytes[q..].starts_with(&[quote; 3]) {
            Some(3)
        } else {
            (quote == b'`' || opens_line).then_some(1)
        };
        // A quoted key's value is read here only when it spans lines (a
        // dict's `"password": """…` closed below): on one line the rules
        // read the key and its literal as they stand.
        if key && (long.is_none() || j > i) {
            continue;
        }
        if let Some(n) = long {
            if let Some((mut inner, spans)) = multiline(bytes, q, n)
                && (spans || !key)
            {
                if j > i {
                    out.push(Cut::removed(value..j));
                }
                out.append(&mut inner);
            }
        } else if let Some(second) = filled_format(bytes, q) {
            out.push(Cut::removed(value..second));
        } else if j > i {
            out.push(Cut::removed(value..j));
        }
    }
    out
}

/// The cuts that make the string at `q`, opened by `n` quotes (a triple
/// quote, or a template literal's one backtick), one quoted value: its
/// extra opening quotes; when its value stands alone on the next line
/// (round 22: or on the opening line, closed on a line below), the line
/// end before it and the blanks and extra quotes after. A template
/// literal is read only when it spans lines.
/// Whether the value spans lines comes with the cuts. A template literal
/// opened on its line and closed below has its backtick and its close
/// each cut for a `"` (a cut before the value, as a match must span one).
fn multiline(bytes: &[u8], q: usize, n: usize) -> Option<(Vec<Cut>, bool)> {
    let quote = bytes[q];
    let body = q + n;
    let newline = match bytes.get(body) {
        Some(b'\n') => 1,
        Some(b'\r') if bytes.get(body + 1) == Some(&b'\n') => 2,
        _ => 0,
    };
    let start = blanks(bytes, body + newline);
    // The value ends at a blank or at its closing quote (C#'s `@"` with
    // `…";` below, round 24).
    let end = bytes[start..]
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == quote)
        .map_or(bytes.len(), |n| start + n);
    let mut close = end;
    while bytes.get(close).is_some_and(|b| b.is_ascii_whitespace()) && close - end < 256 {
        close += 1;
    }
    let closed = end > start && bytes[close..].starts_with(&vec![quote; n]);
    let below = bytes[end..close].contains(&b'\n');
    if closed && (newline > 0 || below) {
        let cuts = if start == q + 1 {
            vec![Cut::quoted(q..q + 1), Cut::quoted(end..close + 1)]
        } else {
            let mut cuts = vec![Cut::removed(q + 1..start)];
            if close + n - 1 > end {
                cuts.push(Cut::removed(end..close + n - 1));
            }
            cuts
        };
        Some((cuts, true))
    } else if newline == 0 && n == 3 {
        // On one line: the extra quotes alone.
        Some((vec![Cut::removed(q + 1..q + 3)], false))
    } else {
        None
    }
}

/// Where the value of each quoted key's `:` may start (`"password": `,
/// `'token' :`), just past the `:` (not `::`).
fn keyed(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    (0..bytes.len())
        .filter(|&at| bytes[at] == b':')
        .filter_map(move |at| {
            let key = bytes[..at]
                .iter()
                .rev()
                .take(8)
                .find(|b| !matches!(b, b' ' | b'\t'));
            let keyed = matches!(key, Some(b'"' | b'\''))
                && bytes.get(at + 1) != Some(&b':')
                && at.checked_sub(1).is_none_or(|b| bytes[b] != b':');
            keyed.then_some(at + 1)
        })
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
