//! Joins spelled as calls or statements rather than operators: the
//! literal arguments of `concat(…)` (SQL's `CONCAT`, Rust's `concat!`,
//! JavaScript's `"a".concat(…)`) and of `"".join([…])`, and a name built
//! by `+=` (`k = "AKIA…"` then `k += "…"`). Each is found from one quote
//! looking a bounded way back, and read forward once.

use std::ops::Range;

fn blanks(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        i += 1;
    }
    i
}

fn spaces(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The end of a `+=` join whose first quote, at `start`, closes a literal
/// assigned to a name (`k = "…"`, `k := "…"`, `k += "…"`): blanks, an
/// optional `;`, at most one line break, the same name, `+=` and a quote.
pub(super) fn plus_assign(bytes: &[u8], start: usize) -> Option<usize> {
    let quote = bytes[start];
    let mut i = blanks(bytes, start + 1);
    // The statement ends: a `;` or the line's end (else no name is read,
    // so the text after most literals is not).
    let ends = i;
    if bytes.get(i) == Some(&b';') {
        i = blanks(bytes, i + 1);
    }
    if bytes.get(i) == Some(&b'\r') {
        i += 1;
    }
    if bytes.get(i) == Some(&b'\n') {
        i = blanks(bytes, i + 1);
    }
    if i == ends {
        return None;
    }
    let name = i;
    while bytes.get(i).copied().is_some_and(ident) {
        i += 1;
    }
    if i == name {
        return None;
    }
    let name = &bytes[name..i];
    i = blanks(bytes, i);
    if bytes.get(i..i + 2) != Some(b"+=") {
        return None;
    }
    i = blanks(bytes, i + 2);
    (bytes.get(i) == Some(&quote) && assigned_name(bytes, start) == Some(name)).then_some(i + 1)
}

/// The name the literal closing at `close` is assigned to (`k = "…"`,
/// `k := "…"`, `k += "…"`), read back on its line.
fn assigned_name(bytes: &[u8], close: usize) -> Option<&[u8]> {
    let quote = bytes[close];
    let mut open = close;
    loop {
        open = open.checked_sub(1)?;
        match bytes[open] {
            b'\n' => return None,
            q if q == quote && (open == 0 || bytes[open - 1] != b'\\') => break,
            _ => {}
        }
    }
    let back_blanks = |mut i: usize| {
        while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        i
    };
    let mut i = back_blanks(open);
    if i == 0 || bytes[i - 1] != b'=' {
        return None;
    }
    i -= 1;
    match i.checked_sub(1).map(|j| bytes[j]) {
        Some(b'+' | b':') => i -= 1,
        Some(b'=' | b'!' | b'<' | b'>' | b'-' | b'*' | b'/' | b'|' | b'&') => return None,
        _ => {}
    }
    let end = back_blanks(i);
    let mut i = end;
    while i > 0 && ident(bytes[i - 1]) {
        i -= 1;
    }
    (i < end).then(|| &bytes[i..end])
}

/// The literal arguments of a call that joins them, when the quote at
/// `open` opens the first: `concat(`, `CONCAT(`, `concat!(`,
/// `"".join([` or `''.join((`. Returns the cuts between consecutive
/// literal arguments (from one's closing quote to the next's opening one;
/// for `"a".concat("b")`, also from the receiver's closing quote) and the
/// last literal's closing quote. A non-literal argument ends the reading.
pub(super) fn call_at(bytes: &[u8], open: usize) -> Option<(Vec<Range<usize>>, usize)> {
    let receiver = opens_call(bytes, open)?;
    let mut cuts: Vec<Range<usize>> = receiver.map(|r| r..open + 1).into_iter().collect();
    let mut at = open;
    let last = loop {
        let close = literal_end(bytes, at)?;
        let mut i = spaces(bytes, close + 1);
        if bytes.get(i) != Some(&b',') {
            break close;
        }
        i = spaces(bytes, i + 1);
        if !matches!(bytes.get(i), Some(b'"' | b'\'')) {
            break close;
        }
        cuts.push(close..i + 1);
        at = i;
    };
    (!cuts.is_empty()).then_some((cuts, last))
}

/// The closing quote of the literal opened at `open`, on its line.
fn literal_end(bytes: &[u8], open: usize) -> Option<usize> {
    let quote = bytes[open];
    let mut i = open + 1;
    loop {
        match *bytes.get(i)? {
            b'\\' => i += 2,
            b'\n' => return None,
            b if b == quote => return Some(i),
            _ => i += 1,
        }
    }
}

/// Whether the quote at `open` opens the first argument of a joining
/// call; with it, the receiver's closing quote of `"a".concat(`.
fn opens_call(bytes: &[u8], open: usize) -> Option<Option<usize>> {
    let before = |i: usize| i.checked_sub(1).map(|j| bytes[j]);
    // Blanks and line breaks before a quote stand before it alone: each
    // is read back once.
    let mut i = open;
    while before(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i -= 1;
    }
    // `"".join([` / `"".join((`: a list or tuple inside the call.
    if let Some(b'[' | b'(') = before(i) {
        let mut j = i - 1;
        while before(j).is_some_and(|b| b.is_ascii_whitespace()) {
            j -= 1;
        }
        if before(j) == Some(b'(') && j >= 8 {
            let head = &bytes[j - 8..j - 1];
            if head == b"\"\".join" || head == b"''.join" {
                return Some(None);
            }
        }
    }
    if before(i) != Some(b'(') {
        return None;
    }
    i -= 1;
    if before(i) == Some(b'!') {
        i -= 1;
    }
    let word = i.checked_sub(6).map(|w| &bytes[w..i])?;
    if !word.eq_ignore_ascii_case(b"concat") {
        return None;
    }
    let w = i - 6;
    match before(w) {
        Some(b'.') => Ok(()),
        Some(b) if ident(b) => Err(()),
        _ => Ok(()),
    }
    .ok()?;
    // `"a".concat(`: the receiver's closing quote joins too.
    let receiver = (before(w) == Some(b'.'))
        .then(|| w - 1)
        .and_then(|dot| dot.checked_sub(1))
        .filter(|&q| matches!(bytes[q], b'"' | b'\''));
    Some(receiver)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_built_by_plus_assign_joins() {
        let text = b"k = \"ab\"\nk += \"cd\"\n";
        assert_eq!(plus_assign(text, 7), Some(15));
        let text = b"k = \"ab\"; k += \"cd\";\n";
        assert_eq!(plus_assign(text, 7), Some(16));
        // Another name, or a comparison, is no join.
        assert_eq!(plus_assign(b"k = \"ab\"\nj += \"cd\"\n", 7), None);
        assert_eq!(plus_assign(b"k == \"ab\"\nk += \"cd\"\n", 8), None);
    }

    /// The cuts of a call and its last literal's closing quote.
    fn cut_at(text: &[u8], open: usize) -> Option<(Range<usize>, usize)> {
        call_at(text, open).and_then(|(cuts, last)| {
            assert_eq!(cuts.len(), 1, "{cuts:?}");
            cuts.into_iter().next().map(|c| (c, last))
        })
    }

    #[test]
    fn literal_arguments_of_joining_calls_are_cut_between() {
        let text = b"CONCAT('ab', 'cd', x, 'ef')";
        assert_eq!(cut_at(text, 7), Some((10..14, 16)));
        let text = b"t = \"\".join([\"ab\",\n  \"cd\"])";
        assert_eq!(cut_at(text, 13), Some((16..22, 24)));
        let text = b"\"ab\".concat(\"cd\")";
        assert_eq!(cut_at(text, 12), Some((3..13, 15)));
        // Not a joining call.
        assert_eq!(call_at(b"f('ab', 'cd')", 2), None);
        assert_eq!(call_at(b"\"-\".join([\"ab\", \"cd\"])", 10), None);
        assert_eq!(call_at(b"myconcat('ab', 'cd')", 9), None);
    }
}
