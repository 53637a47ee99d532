//! Values spelled in escapes (round 24): `"\u0043\u0076…"` (or `\u{43}`) in JSON or a
//! `.properties` file, `"\x43\x76…"` in a string literal, a URL's
//! password written wholly in `%XX` (`postgres://app:%43%76…@db`), and
//! YAML's or SQL's doubled quote inside a single-quoted value
//! (`'Cv''Fr…'`). Each escape is cut for the character it spells (a
//! doubled quote for nothing, as a value's `'` would end the rules'
//! match), so the copy reads the value as it is meant and the rules
//! judge it. Only escapes of printable ASCII other than quotes and `\`
//! are read: those are what a hidden value is made of, and what stands
//! for them never opens or closes a literal in the copy.

use super::Cut;

/// How many `%XX` of letters and digits in a row make a value written in
/// escapes: fewer are a URL's ordinary encoding (or a format's `%4d`).
const PERCENT_RUN: usize = 4;

/// The cuts of every escape of `text` that spells a printable character.
/// One pass: each byte is looked at a bounded number of times.
pub(super) fn cuts(text: &str) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Single quotes since the line's start, for a doubled quote inside a
    // literal (an odd count before it).
    let mut singles = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                singles = 0;
                i += 1;
            }
            // An escaped backslash escapes nothing after it.
            b'\\' if bytes.get(i + 1) == Some(&b'\\') => i += 2,
            b'\\' => match backslash_escape(bytes, i) {
                Some((len, c)) => {
                    out.push(Cut::standing(i..i + len, c));
                    i += len;
                }
                None => i += 1,
            },
            b'%' => {
                let mut end = i;
                let mut run = Vec::new();
                while let Some(c) = percent_escape(bytes, end) {
                    run.push(Cut::standing(end..end + 3, c));
                    end += 3;
                }
                if run.len() >= PERCENT_RUN {
                    out.append(&mut run);
                }
                i = end.max(i + 1);
            }
            b'\'' => {
                let doubled = bytes.get(i + 1) == Some(&b'\'')
                    && singles % 2 == 1
                    && i.checked_sub(1).is_some_and(|b| value_byte(bytes[b]))
                    && bytes.get(i + 2).is_some_and(|&b| value_byte(b));
                if doubled {
                    out.push(Cut::removed(i..i + 2));
                    singles += 2;
                    i += 2;
                } else {
                    singles += 1;
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The length and character of a `\uXXXX`, `\u{X…}` or `\xXX` escape at `i`, when it
/// spells a character a value is made of.
fn backslash_escape(bytes: &[u8], i: usize) -> Option<(usize, char)> {
    // ES6's and Rust's `\u{43}`.
    if bytes.get(i + 1..i + 3) == Some(b"u{") {
        let len = bytes
            .get(i + 3..)?
            .iter()
            .take(7)
            .position(|&b| b == b'}')?;
        let code = hex_value(&bytes[i + 3..i + 3 + len]).filter(|_| len > 0)?;
        return Some((len + 4, spelled(code)?));
    }
    let digits = match bytes.get(i + 1)? {
        b'u' => 4,
        b'x' => 2,
        _ => return None,
    };
    let code = hex_value(bytes.get(i + 2..i + 2 + digits)?)?;
    Some((2 + digits, spelled(code)?))
}

/// The letter or digit a `%XX` at `i` spells.
fn percent_escape(bytes: &[u8], i: usize) -> Option<char> {
    if bytes.get(i) != Some(&b'%') {
        return None;
    }
    let c = spelled(hex_value(bytes.get(i + 1..i + 3)?)?)?;
    c.is_ascii_alphanumeric().then_some(c)
}

/// The value of hex digits.
fn hex_value(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |acc, &d| {
        let v = char::from(d).to_digit(16)?;
        Some(acc * 16 + v)
    })
}

/// The character of `code` when it is printable ASCII other than a quote
/// or a backslash.
fn spelled(code: u32) -> Option<char> {
    let c = char::from_u32(code)?;
    (c.is_ascii_graphic() && !matches!(c, '"' | '\'' | '`' | '\\')).then_some(c)
}

/// A byte a value holds on either side of a doubled quote.
fn value_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'_' | b'-'
                | b'.'
                | b'!'
                | b'@'
                | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'*'
                | b'+'
                | b'/'
                | b'='
                | b'?'
                | b'^'
                | b'~'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with its cuts made, each stand-in in place.
    fn spelled_out(text: &str) -> String {
        super::super::with_cuts_made(text, cuts(text))
    }

    #[test]
    fn unicode_and_hex_escapes_spell_their_characters() {
        assert_eq!(
            spelled_out(r#"{"password": "\u0043\u0076F\u0052x9"}"#),
            r#"{"password": "CvFRx9"}"#
        );
        assert_eq!(spelled_out(r#"k = "\x41\x42c""#), r#"k = "ABc""#);
        assert_eq!(spelled_out("db.password=\\u0041b"), "db.password=Ab");
        assert_eq!(spelled_out(r#"p = "\u{56}\u{0062}x""#), r#"p = "Vbx""#);
        assert!(cuts(r#"p = "\u{}\u{1234567}\u{22}""#).is_empty());
    }

    #[test]
    fn escapes_of_quotes_controls_and_other_scripts_stay() {
        for text in [
            r#"s = "\u0022\u0027\u005c\x60""#,
            r#"s = "\u00e9\u4e2d\x00\x0a""#,
            r#"s = "\\u0041 \\x41""#,
            r#"s = "\u00" + "\x4""#,
        ] {
            assert!(cuts(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn only_a_run_of_percent_escapes_of_letters_and_digits_is_read() {
        assert_eq!(
            spelled_out("u = 'pg://a:%43%76%46%52@db'"),
            "u = 'pg://a:CvFR@db'"
        );
        for text in [
            "u = 'pg://a:p%40ss%21@db'",
            "f = '%4d%4d%4d'",
            "q = 'a%20b%20c%20d%20e'",
        ] {
            assert!(cuts(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_doubled_quote_inside_a_single_quoted_value_is_cut() {
        assert_eq!(
            spelled_out("  password: 'CvFRCH''QVgG'\n"),
            "  password: 'CvFRCHQVgG'\n"
        );
        // An empty literal, a doubled quote outside one, or before a blank
        // is no escape within a value.
        for text in ["x = ''\n", "a = 'b' ''c\n", "s = 'it'' s'\n", "x = ''y''\n"] {
            assert!(cuts(text).is_empty(), "{text}");
        }
        // Counting starts again on each line.
        assert!(cuts("a = 'x\nb = c''d'\n").is_empty());
    }

    /// A hostile line of escapes is read in one pass.
    #[test]
    fn a_megabyte_of_escapes_is_read_once() {
        let line = "\\x41%41%42%43%44''\\\\".repeat(1 << 16);
        assert_eq!(cuts(&line).len(), 5 << 16);
    }
}
