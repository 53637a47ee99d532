//! A value written on the line after its assignment (round twenty):
//! `DB_PASSWORD = (` then `"…"` (Python), `password =` then `"…"`
//! (JavaScript, Ruby, PHP), `x = \` then `"…"`, `"password" =>` then
//! `'…'`. The `(`, the `\`, the line's end and the blanks before the
//! literal are cut, so the copy reads `DB_PASSWORD ="…"` and the rules
//! judge it as the assignment it is.

use std::ops::Range;

/// How many bytes of blanks around the line's end are looked through.
const BLANKS: usize = 256;

/// The ranges to cut: from just after each assignment's `=` (`:=`, `=>`)
/// that ends its line (but for blanks and an optional `(` or `\`) to the
/// literal that opens the next line (its `r`/`b`/`u`/`f` prefix, or its
/// quote). An `=` inside a string on its line (an odd count of `"` or `'`
/// before it), or one of `==`, `!=`, `<=`, `>=`, is no assignment.
pub(super) fn cuts(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in (0..bytes.len()).filter(|&i| bytes[i] == b'=') {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        if matches!(before, Some(b'=' | b'!' | b'<' | b'>')) {
            continue;
        }
        let mut i = at + 1;
        match bytes.get(i) {
            Some(b'=') => continue,
            Some(b'>') => i += 1,
            _ => {}
        }
        i = blanks(bytes, i);
        if matches!(bytes.get(i), Some(b'(' | b'\\')) {
            i = blanks(bytes, i + 1);
        }
        if bytes.get(i) == Some(&b'\r') {
            i += 1;
        }
        if bytes.get(i) != Some(&b'\n') {
            continue;
        }
        let literal = blanks(bytes, i + 1);
        let mut quote = literal;
        while quote - literal < 2 && bytes.get(quote).is_some_and(|b| b"rRbBuUfF".contains(b)) {
            quote += 1;
        }
        if !matches!(bytes.get(quote), Some(b'"' | b'\'' | b'`')) || in_string(bytes, at) {
            continue;
        }
        out.push(at + 1 + usize::from(bytes[at + 1] == b'>')..literal);
    }
    out
}

/// Past the blanks from `i`, at most [`BLANKS`] of them.
fn blanks(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while j - i < BLANKS && bytes.get(j).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        j += 1;
    }
    j
}

/// Whether byte `at` is inside a `"…"` or `'…'` string on its line (an
/// odd count of either quote before it on the line).
fn in_string(bytes: &[u8], at: usize) -> bool {
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    let line = &bytes[start..at];
    let odd = |q: u8| line.iter().filter(|&&b| b == q).count() % 2 == 1;
    odd(b'"') || odd(b'\'')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> String {
        let mut out = text.to_string();
        for range in cuts(text).into_iter().rev() {
            out.replace_range(range, "");
        }
        out
    }

    #[test]
    fn a_value_on_the_next_line_is_read_after_its_assignment() {
        assert_eq!(cut("P = (\n    \"v\"\n)\n"), "P =\"v\"\n)\n");
        assert_eq!(cut("p =\n  'v';\n"), "p ='v';\n");
        assert_eq!(cut("p = \\\r\n  f\"v\"\n"), "p =f\"v\"\n");
        assert_eq!(cut("'p' =>\n  'v',\n"), "'p' =>'v',\n");
        assert_eq!(cut("p := (\n  `v`)\n"), "p :=`v`)\n");
        for text in [
            "if a ==\n  'v':\n",
            "a = b\n'v'\n",
            "x = '=\n'v'\n",
            "a <=\n 'v'\n",
            "p = (\n  x + 'v')\n",
            "p = f(\n  'v')\n",
        ] {
            assert_eq!(cut(text), text, "{text:?}");
        }
    }
}
