//! Joins spelled as calls or statements rather than operators: the
//! literal arguments of `concat(…)` (SQL's `CONCAT`, Rust's `concat!`,
//! JavaScript's `"a".concat(…)`) and of `"".join([…])` or `"-".join((…))`
//! (the separator put between), a name built by `+=` or PHP's `.=`
//! (`k = "AKIA…"` then `k += "…"`), and a split through one name
//! (`"ab" + x + "cd"`, the name's literal looked up by the caller). Each
//! is found from one quote looking a bounded way back, and read forward
//! once.

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

/// The longest name a split through a name is read with.
const MAX_NAME: usize = 64;

/// A split through one name: the quote at `start` closes a literal, then
/// an operator (`+`, `.`, `..`, `&`, `||`), a name (PHP's `$x` too), an
/// operator and the same quote on the line. The name's range and the end
/// after that quote.
pub(super) fn through_name(bytes: &[u8], start: usize) -> Option<(Range<usize>, usize)> {
    let quote = bytes[start];
    let operator = |i: usize| match bytes.get(i..) {
        Some([b'.', b'.', ..] | [b'|', b'|', ..]) => i + 2,
        Some([b'+' | b'.' | b'&', ..]) => i + 1,
        _ => i,
    };
    let i = blanks(bytes, start + 1);
    let j = operator(i);
    if j == i {
        return None;
    }
    let name = blanks(bytes, j);
    let mut i = name + usize::from(bytes.get(name) == Some(&b'$'));
    if bytes.get(i).is_none_or(u8::is_ascii_digit) {
        return None;
    }
    while bytes.get(i).copied().is_some_and(ident) && i - name <= MAX_NAME {
        i += 1;
    }
    let name = name..i;
    if name.is_empty() || name.len() > MAX_NAME {
        return None;
    }
    let i = blanks(bytes, i);
    let j = operator(i);
    if j == i {
        return None;
    }
    let i = blanks(bytes, j);
    (bytes.get(i) == Some(&quote)).then_some((name, i + 1))
}

/// The end of a `+=` join whose first quote, at `start`, closes a literal
/// assigned to a name (`k = "…"`, `k := "…"`, `k += "…"`, `k = k + "…"`):
/// blanks, an optional `;`, at most one line break, the same name, `+=`
/// or `.=` (or `= k +`, `= k .`) and a quote.
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
    if matches!(bytes.get(i..i + 2), Some(b"+=" | b".=")) {
        i = blanks(bytes, i + 2);
    } else {
        // `k = k + "…"` (PHP's `$k = $k . '…'`).
        if bytes.get(i) != Some(&b'=') || bytes.get(i + 1) == Some(&b'=') {
            return None;
        }
        i = blanks(bytes, i + 1);
        if bytes.get(i..i + name.len()) != Some(name) {
            return None;
        }
        i = blanks(bytes, i + name.len());
        if !matches!(bytes.get(i), Some(b'+' | b'.')) {
            return None;
        }
        i = blanks(bytes, i + 1);
    }
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
    let i = back_blanks(open);
    // `k = k + "…"`: the name, `=`, the same name and an operator.
    if i > 0 && matches!(bytes[i - 1], b'+' | b'.') {
        let end = back_blanks(i - 1);
        let mut j = end;
        while j > 0 && ident(bytes[j - 1]) {
            j -= 1;
        }
        let same = &bytes[j..end];
        let k = back_blanks(j);
        if same.is_empty() || k == 0 || bytes[k - 1] != b'=' {
            return None;
        }
        return assigned_to(bytes, k - 1).filter(|name| *name == same);
    }
    if i == 0 || bytes[i - 1] != b'=' {
        return None;
    }
    assigned_to(bytes, i - 1)
}

/// The name assigned by the `=` at `eq` (`k =`, `k :=`, `k +=`, `k .=`;
/// not a comparison), read back.
fn assigned_to(bytes: &[u8], eq: usize) -> Option<&[u8]> {
    let back_blanks = |mut i: usize| {
        while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        i
    };
    let mut i = eq;
    match i.checked_sub(1).map(|j| bytes[j]) {
        Some(b'+' | b':' | b'.') => i -= 1,
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

/// The literals a call joins: the cuts between them, the range of the
/// separator put in each cut's place (`"-".join`), the last literal's
/// closing quote.
pub(super) type Call = (Vec<Range<usize>>, Option<Range<usize>>, usize);

/// The literal arguments of a call that joins them, when the quote at
/// `open` opens the first: `concat(`, `CONCAT(`, `concat!(`,
/// `"".join([`, `''.join((` or `"-".join([`. Returns the cuts between
/// consecutive literal arguments (from one's closing quote to the next's
/// opening one; for `"a".concat("b")`, also from the receiver's closing
/// quote), the separator, and the last literal's closing quote. A
/// non-literal argument ends the reading.
pub(super) fn call_at(bytes: &[u8], open: usize) -> Option<Call> {
    let (receiver, separator) = match opens_call(bytes, open)? {
        Opens::Concat(receiver) => (receiver, None),
        Opens::Join(separator) => (None, separator),
    };
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
    (!cuts.is_empty()).then_some((cuts, separator, last))
}

/// The longest separator of a `.join` read: a dash, an underscore, a dot.
const MAX_SEPARATOR: usize = 3;

/// What a call that joins literals opens with.
enum Opens {
    /// `concat(`: with the receiver's closing quote of `"a".concat(`.
    Concat(Option<usize>),
    /// `"sep".join(`: the separator's characters, when not empty.
    Join(Option<Range<usize>>),
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
/// call, and which.
fn opens_call(bytes: &[u8], open: usize) -> Option<Opens> {
    let before = |i: usize| i.checked_sub(1).map(|j| bytes[j]);
    // Blanks and line breaks before a quote stand before it alone: each
    // is read back once.
    let mut i = open;
    while before(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i -= 1;
    }
    // `"".join([` / `"-".join((`: a list or tuple inside the call.
    if let Some(b'[' | b'(') = before(i) {
        let mut j = i - 1;
        while before(j).is_some_and(|b| b.is_ascii_whitespace()) {
            j -= 1;
        }
        if before(j) == Some(b'(') && j >= 8 && &bytes[j - 6..j - 1] == b".join" {
            // The separator's literal, closing just before `.join`.
            let close = j - 7;
            let quote = bytes[close];
            if matches!(quote, b'"' | b'\'') {
                let sep_open = (close.saturating_sub(MAX_SEPARATOR + 1)..close)
                    .rev()
                    .find(|&k| bytes[k] == quote)?;
                let separator = sep_open + 1..close;
                let plain = bytes[separator.clone()]
                    .iter()
                    .all(|b| !matches!(b, b'\\' | b'\n' | b'"' | b'\''));
                if plain {
                    return Some(Opens::Join((!separator.is_empty()).then_some(separator)));
                }
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
    Some(Opens::Concat(receiver))
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
        // PHP's `.=`.
        assert_eq!(plus_assign(b"$k = 'ab';\n$k .= 'cd';\n", 8), Some(18));
        // `k = k + "…"`, twice; another name on the right is not.
        let text = b"k = \"ab\"\nk = k + \"cd\"\nk = k + \"ef\"\n";
        assert_eq!(plus_assign(text, 7), Some(18));
        assert_eq!(plus_assign(text, 20), Some(31));
        assert_eq!(plus_assign(b"k = \"ab\"\nk = j + \"cd\"\n", 7), None);
    }

    #[test]
    fn a_split_through_one_name_is_read() {
        let text = b"t = \"ab\" + x + \"cd\"";
        assert_eq!(through_name(text, 7), Some((11..12, 16)));
        let text = b"$t = 'ab' . $mid . 'cd';";
        assert_eq!(through_name(text, 8), Some((12..16, 20)));
        // A call, an attribute, or one operator is not.
        assert_eq!(through_name(b"\"ab\" + f(x) + \"cd\"", 3), None);
        assert_eq!(through_name(b"\"ab\" + x.y + \"cd\"", 3), None);
        assert_eq!(through_name(b"\"ab\" x + \"cd\"", 3), None);
    }

    /// The cuts of a call and its last literal's closing quote.
    fn cut_at(text: &[u8], open: usize) -> Option<(Range<usize>, usize)> {
        call_at(text, open).and_then(|(cuts, _, last)| {
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
        // A separator is put between.
        let text = b"\"-\".join([\"ab\", \"cd\"])";
        assert_eq!(cut_at(text, 10), Some((13..17, 19)));
        assert_eq!(call_at(text, 10).and_then(|(_, sep, _)| sep), Some(1..2));
        assert_eq!(call_at(b"x.join([\"ab\", \"cd\"])", 8), None);
        assert_eq!(call_at(b"myconcat('ab', 'cd')", 9), None);
    }
}
