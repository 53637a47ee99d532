//! Private keys written as JSON Web Keys (RFC 7517): an object with a
//! `"kty"` member and a private one — `"d"` for an EC, OKP or RSA key,
//! RSA's primes and exponents (`"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`), or
//! `"k"` for a symmetric (`"oct"`) key — whose value is base64url. A
//! public key (`"x"`, `"y"`, `"n"`, `"e"` alone) is none.
//!
//! The members of an object come in any order (`sort_keys` puts `"d"`
//! before `"kty"`), so no line-bound rule can pair them: each `kty` opens
//! the object around it, found by its braces within [`REACH`] bytes, and
//! the object's own members are read. JSON in a string (`\"d\":`), a
//! Python dict (`'d':`), a JavaScript object (`d:`), YAML's and TOML's
//! inline tables (`{kty: EC, d: …}`, `{ kty = "EC", … }`) and a Go struct
//! literal (`Kty: "EC", D: "…"`) read alike. Without braces around it, a
//! `kty` is a member of a YAML mapping or a TOML table: its object is the
//! lines beside it at its indentation ([`block`]). The example keys the
//! JOSE RFCs publish are none ([`super::jwk_examples`]).
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::entropy;

/// How far from its `kty` an object's braces are looked for: an RSA-4096
/// private JWK is about 3.2 KB.
const REACH: usize = 16 << 10;

/// A private member's value is at least this long (an Ed25519 or P-256
/// `d` is 43 characters, a 128-bit `k` 22) and this random.
const MIN_VALUE: usize = 20;
const MIN_ENTROPY: f64 = 3.5;

/// A private JWK member: the member's name and its value.
pub(super) struct Member {
    pub name: Range<usize>,
    pub span: Range<usize>,
}

/// The first private member of each JSON Web Key in `text`.
pub(super) fn find(text: &str) -> Vec<Member> {
    static KTY: OnceLock<Regex> = OnceLock::new();
    let kty = KTY.get_or_init(|| Regex::new("(?i)kty").expect("a valid pattern"));
    let mut found: Vec<Member> = Vec::new();
    // Where the search for an object's `{` stops: the end of the last
    // object read (a key's `kty` is read once), or the last `kty` no
    // object was found around (the bytes before it hold no `{` left
    // open). Each byte is looked back at once: the search stays linear
    // in the text however many `kty` it holds.
    let mut floor = 0;
    for m in kty.find_iter(text) {
        let at = m.start();
        if at < floor || !is_member_name(text, at, m.end()) {
            continue;
        }
        let object = enclosing_object(text, floor, at).or_else(|| block(text, floor, at));
        floor = object.as_ref().map_or(at, |o| o.end);
        if let Some(member) = object.and_then(|o| private_member(text, o)) {
            found.push(member);
        }
    }
    found
}

/// Whether `text[start..end]` is a member's name: quoted (or bare) and
/// followed by a colon (an `=` in TOML).
fn is_member_name(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].trim_end_matches(['"', '\'', '\\']);
    let opened =
        before.len() < start || before.is_empty() || before.ends_with(['{', ',', ' ', '\t', '\n']);
    let after = text[end..].trim_start_matches(['"', '\'', '\\', ' ', '\t']);
    opened && after.starts_with([':', '='])
}

/// The YAML mapping or TOML table whose member `kty` at byte `at` is
/// (after `floor`): the lines around its own whose keys stand at its
/// column (a `- ` list item's first line counts its marker as
/// indentation), skipping blank, comment and deeper lines, up to a line
/// further left, a list item's next marker or a TOML header; within
/// [`REACH`] either side. `None` when the `kty` does not open its line.
fn block(text: &str, floor: usize, at: usize) -> Option<Range<usize>> {
    let low = at.saturating_sub(REACH).max(floor);
    let start = text[low..at].rfind('\n').map(|i| low + i + 1)?;
    let lead = &text[start..at];
    let key = lead.trim_end_matches(['"', '\'']);
    let item = key.trim_start_matches([' ', '\t']).starts_with('-');
    if !key.chars().all(|c| matches!(c, ' ' | '\t' | '-')) {
        return None;
    }
    let column = key.len();
    let mut first = start;
    // Up, line by line, from the one above `kty`'s (a list item's first
    // line is its block's first); a line cut by `low` is not read.
    let mut cursor = start;
    while !item && cursor > low {
        let newline = cursor - 1;
        let above = match text[low..newline].rfind('\n') {
            Some(i) => low + i + 1,
            None if low == 0 || text.as_bytes()[low - 1] == b'\n' => low,
            None => break,
        };
        match sibling(&text[above..newline], column) {
            Line::Skip => {}
            Line::Member => first = above,
            Line::Item => {
                first = above;
                break;
            }
            Line::End => break,
        }
        cursor = above;
    }
    let high = (at + REACH).min(text.len());
    let mut last = text[at..high].find('\n').map_or(high, |i| at + i);
    let mut cursor = last;
    while cursor < high {
        let below = cursor + 1;
        let end = text[below..high].find('\n').map_or(high, |i| below + i);
        match sibling(&text[below..end], column) {
            Line::Skip => {}
            Line::Member => last = end,
            Line::Item | Line::End => break,
        }
        cursor = end;
    }
    Some(first..last)
}

/// What a line near a block member at `column` is to its block.
enum Line {
    /// Blank, a comment, or deeper: inside the block, not read as one
    /// of its members' lines.
    Skip,
    /// A member at the same column.
    Member,
    /// A list item's first line at the same column: the block's first.
    Item,
    /// Further left, a TOML header or a YAML document marker.
    End,
}

fn sibling(line: &str, column: usize) -> Line {
    let line = line.trim_end_matches('\r');
    let body = line.trim_start_matches([' ', '\t']);
    if body.is_empty() || body.starts_with('#') {
        return Line::Skip;
    }
    let indent = line.len() - body.len();
    if body.starts_with('[') || body.starts_with("---") {
        return Line::End;
    }
    let marked = body
        .strip_prefix('-')
        .map(|b| b.trim_start_matches([' ', '\t']));
    let key_column = match marked {
        Some(rest) => line.len() - rest.len(),
        None => indent,
    };
    match (key_column.cmp(&column), marked.is_some()) {
        (std::cmp::Ordering::Less, _) => Line::End,
        (std::cmp::Ordering::Greater, false) => Line::Skip,
        (std::cmp::Ordering::Greater, true) if indent >= column => Line::Skip,
        (std::cmp::Ordering::Greater, true) => Line::End,
        (std::cmp::Ordering::Equal, false) => Line::Member,
        (std::cmp::Ordering::Equal, true) => Line::Item,
    }
}

/// A key's object nests a few levels at most (`{"keys": [{…}]}`).
const MAX_DEPTH: usize = 16;

/// The object around byte `at`: from the nearest `{` before it (and
/// after `floor`) that is not closed before it, to its matching `}`,
/// within [`REACH`] and [`MAX_DEPTH`].
fn enclosing_object(text: &str, floor: usize, at: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let low = at.saturating_sub(REACH).max(floor);
    let mut depth = 0usize;
    let mut start = None;
    for i in (low..at).rev() {
        match bytes[i] {
            b'}' if depth == MAX_DEPTH => return None,
            b'}' => depth += 1,
            b'{' if depth == 0 => {
                start = Some(i);
                break;
            }
            b'{' => depth -= 1,
            _ => {}
        }
    }
    let start = start?;
    let high = (at + REACH).min(bytes.len());
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().take(high).skip(start) {
        match b {
            b'{' if depth == MAX_DEPTH => return None,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(start..i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A member's value, quoted or bare.
fn value<'h>(c: &regex::Captures<'h>) -> Option<regex::Match<'h>> {
    c.name("value").or_else(|| c.name("bare"))
}

/// The object's first private member with a random base64url value.
fn private_member(text: &str, object: Range<usize>) -> Option<Member> {
    static MEMBER: OnceLock<Regex> = OnceLock::new();
    let member = MEMBER.get_or_init(|| {
        Regex::new(
            r#"(?m)(?:^|[{,\s])\\?["']?(?P<name>(?i:d|p|q|dp|dq|qi|k|kty))\\?["']?[ \t]*[:=][ \t]*(?:\\?["'](?P<value>[A-Za-z0-9_-]+={0,2})\\?["']|(?P<bare>[A-Za-z0-9_-]+={0,2})(?:[\s,}]|$))"#,
        )
        .expect("a valid pattern")
    });
    let body = &text[object.clone()];
    let symmetric = member.captures_iter(body).any(|c| {
        c["name"].eq_ignore_ascii_case("kty")
            && value(&c).is_some_and(|v| v.as_str().eq_ignore_ascii_case("oct"))
    });
    member.captures_iter(body).find_map(|c| {
        let (name, value) = (c.name("name")?, value(&c)?);
        let private = match name.as_str().to_ascii_lowercase().as_str() {
            "kty" => false,
            "k" => symmetric,
            _ => true,
        };
        let random = value.len() >= MIN_VALUE && entropy(value.as_str()) >= MIN_ENTROPY;
        let example =
            private && random && super::jwk_examples::is_published_example(&continued(body, value));
        (private && random && !example).then(|| Member {
            name: object.start + name.start()..object.start + name.end(),
            span: object.start + value.start()..object.start + value.end(),
        })
    })
}

/// A quoted `value` with the literals that continue it, as one: a long
/// member split over Python's or C's implicit concatenation or `+`
/// (`"d": "AAhR…"` then `"…"` on the next line), as test suites print the
/// RFCs' keys. At most [`REACH`] bytes.
fn continued<'h>(body: &'h str, value: regex::Match<'h>) -> std::borrow::Cow<'h, str> {
    let bytes = body.as_bytes();
    let Some(&quote) = bytes.get(value.end()).filter(|q| matches!(q, b'"' | b'\'')) else {
        return value.as_str().into();
    };
    let mut joined = std::borrow::Cow::Borrowed(value.as_str());
    let mut at = value.end() + 1;
    loop {
        let mut next = at;
        while next < bytes.len() && matches!(bytes[next], b' ' | b'\t' | b'\r' | b'\n' | b'+') {
            next += 1;
        }
        if bytes.get(next) != Some(&quote) {
            return joined;
        }
        let start = next + 1;
        let len = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'='))
            .count();
        if len == 0 || bytes.get(start + len) != Some(&quote) || joined.len() + len > REACH {
            return joined;
        }
        joined.to_mut().push_str(&body[start..start + len]);
        at = start + len + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "NWs0RZZSx5I7t-OkBqi_MFUEh0evbSK-60qdeBoJfiI";
    const X: &str = "NXf75SrSIjLgWpTaUk7TneJYxY8hM8vargQwTko4d04";

    fn values(text: &str) -> Vec<&str> {
        find(text).into_iter().map(|m| &text[m.span]).collect()
    }

    #[test]
    fn a_private_key_is_found_whatever_the_order_of_its_members() {
        for text in [
            format!(r#"{{"kty": "EC", "crv": "P-256", "x": "{X}", "d": "{D}"}}"#),
            format!(
                "{{\n  \"crv\": \"P-256\",\n  \"d\": \"{D}\",\n  \"kty\": \"EC\",\n  \"x\": \"{X}\"\n}}"
            ),
            format!(r#"key = {{'kty': 'OKP', 'crv': 'Ed25519', 'x': '{X}', 'd': '{D}'}}"#),
            format!(r#"s = "{{\"kty\":\"EC\",\"x\":\"{X}\",\"d\":\"{D}\"}}""#),
            format!(r#"const k = {{ kty: "EC", x: "{X}", d: "{D}" }};"#),
            format!(r#"{{"keys": [{{"kty": "RSA", "n": "{X}", "e": "AQAB", "p": "{D}"}}]}}"#),
            format!(r#"{{"kty": "oct", "k": "{D}"}}"#),
        ] {
            assert_eq!(values(&text), [D], "{text}");
        }
    }

    #[test]
    fn a_public_key_or_a_placeholder_is_none() {
        for text in [
            format!(r#"{{"kty": "EC", "crv": "P-256", "x": "{X}", "y": "{X}"}}"#),
            format!(r#"{{"kty": "RSA", "n": "{X}", "e": "AQAB"}}"#),
            r#"data = {"kty": "oct", "k": "..."}"#.to_string(),
            r#"{"kty": "EC", "d": "<private exponent>"}"#.to_string(),
            r#"if "kty" in data: key_type = data["kty"]"#.to_string(),
            format!(r#"{{"kty": "EC", "d": "{}"}}"#, "a".repeat(43)),
            // A `k` is secret only in a symmetric key.
            format!(r#"{{"kty": "EC", "x": "{X}", "k": "{D}"}}"#),
            // The member of another object.
            format!(r#"{{"kty": "EC", "x": "{X}"}}, {{"d": "{D}"}}"#),
        ] {
            assert!(values(&text).is_empty(), "{text}");
        }
    }

    /// A megabyte of `kty` members, in objects never closed, closed
    /// before they open or nested past the depth, makes no key (its time,
    /// quadratic without the floor, is `benches/secret_scan.rs`'s).
    #[test]
    fn many_kty_on_one_line_make_no_key() {
        for piece in [
            "{\"kty\": 1, ",
            "\"kty\": 1, ",
            "}\"kty\": 1, ",
            "{{\"kty\": 1}, ",
        ] {
            let line = piece.repeat((1 << 20) / piece.len());
            assert!(find(&line).is_empty(), "{piece}");
        }
    }

    #[test]
    fn an_unclosed_object_or_a_far_one_is_read_within_its_reach() {
        let open = format!("{{\"kty\": \"EC\", \"d\": \"{D}\"");
        assert!(values(&open).is_empty());
        let far = format!(
            "{{{}\"kty\": \"EC\", \"d\": \"{D}\"}}",
            " ".repeat(REACH + 1)
        );
        assert!(values(&far).is_empty());
    }
}
