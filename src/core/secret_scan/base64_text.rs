//! Base64 of a plain text: a `.env`, an `.npmrc` or a `.pgpass` in a
//! Kubernetes Secret's `data:` (what `kubectl create secret generic
//! --from-file` writes), or any base64 value that decodes to text. The
//! decoded text is scanned with the rules, as that file would be: the
//! rules read content, not names, so `.env:`, `.npmrc:`, `config:` and an
//! unnamed value are read alike. Only runs in a value's place are read
//! (after a blank, a quote, `=`, `:`, a bracket; before a blank, a quote,
//! a separator), at least [`MIN_RUN`] long, whose first bytes decode to
//! text; a value wrapped over lines of base64 alone (`base64`'s 76
//! columns, a YAML block scalar) is read joined. However long, a value is
//! decoded and scanned in windows of [`WINDOW`] characters, each
//! overlapping the one before by [`OVERLAP`]: linear time, bounded memory.
//! A window that is not text (an image, a font, a key's DER) is skipped.
//! Round seventeen: the URL-safe alphabet (`-`, `_`) is read too (a run
//! of one alphabet: one mixing both is none), a value wrapped by `\n`
//! escapes inside a string (JSON) is read joined and a run may open
//! after such an escape, and a run shorter than [`MIN_RUN`] (down to
//! [`MIN_SHORT`]) is read when it decodes to one credential-like line.

use std::ops::Range;

/// Shortest run read whatever it decodes to: the base64 of 18 bytes
/// (`PASSWORD=Xk9mQ2vL`).
const MIN_RUN: usize = 24;

/// Shortest run read at all: the base64 of 12 bytes (`pwd=Xk9mQ2vL`,
/// the shortest line a rule reads as a credential). A run shorter than
/// [`MIN_RUN`] is read only when it decodes to one line of printable
/// ASCII holding `=` or `:` (`DB_PASSWORD=x9Kq2Lm`, 28 characters, was
/// read before; `TOKEN=Xk9mQ2vL`, 20, was not).
const MIN_SHORT: usize = 16;

/// Base64 characters decoded and scanned at once (a multiple of 4).
const WINDOW: usize = 256 << 10;

/// How much of a window the next one reads again (a multiple of 4):
/// longer than any one credential line.
const OVERLAP: usize = 16 << 10;

/// One base64 value whose text holds a secret: where it is (its first
/// line's run to its last line's), the span of its first run, and the
/// kind of the first secret found in it.
pub(super) struct Found {
    pub extent: Range<usize>,
    pub first: Range<usize>,
    pub kind: String,
}

/// Every base64 value in `text` whose decoded text `secret_in` finds a
/// secret in (it returns the first secret's kind), or whose decoded
/// binary (its first window) `binary_in` finds one in (round 22: a raw
/// deflate stream has no magic of its own to be told by).
pub(super) fn find(
    text: &str,
    mut secret_in: impl FnMut(&str) -> Option<String>,
    mut binary_in: impl FnMut(&[u8]) -> Option<String>,
) -> Vec<Found> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_base64(bytes[i]) {
            i += 1;
            continue;
        }
        // A run after a `\n` escape starts past its `n`.
        let start = if bytes[i] == b'n' && i > 0 && bytes[i - 1] == b'\\' {
            i + 1
        } else {
            i
        };
        while i < bytes.len() && is_base64(bytes[i]) {
            i += 1;
        }
        if start >= i {
            continue;
        }
        let end = padded_end(bytes, i);
        let after = bytes.get(end).copied();
        let Some(alphabet) = Alphabet::of(&bytes[start..i]) else {
            i = end;
            continue;
        };
        if i - start < MIN_SHORT || !opens_value(bytes, start) || !closes_value(after) {
            i = end;
            continue;
        }
        let binary = !is_text(&decode(&text[start..start + 4]));
        if binary && i - start < MIN_RUN {
            i = end;
            continue;
        }
        if !binary && i - start < MIN_RUN && !is_credential_line(&decode(&text[start..end])) {
            i = end;
            continue;
        }
        let pieces = value_pieces(text, start..end, end == i, alphabet);
        let last = pieces.last().map_or(end, |p| p.end);
        let kind = if binary {
            binary_secret(text, &pieces, &mut binary_in)
        } else {
            first_secret(text, &pieces, &mut secret_in, &mut binary_in)
        };
        if let Some(kind) = kind {
            found.push(Found {
                extent: start..last,
                first: start..end,
                kind,
            });
        }
        i = last;
    }
    found
}

/// Whether `text` is base64 alone (blank lines and padding aside, one
/// alphabet), at least [`MIN_SHORT`] characters: what a decoded value that
/// was base64 twice over decodes to the first time.
pub(super) fn is_base64_text(text: &str) -> bool {
    let body = text.trim();
    // Each line base64, padding (two `=` at most) only at its end.
    let lines_are_base64 = body.lines().all(|line| {
        let line = line.trim();
        let run = line.trim_end_matches('=');
        line.len() - run.len() <= 2 && run.bytes().all(is_base64)
    });
    body.len() >= MIN_SHORT && lines_are_base64 && Alphabet::of(body.as_bytes()).is_some()
}

/// A base64 character of either alphabet (standard `+/`, URL-safe `-_`).
fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_')
}

/// Which base64 alphabet a run is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Alphabet {
    Standard,
    UrlSafe,
}

impl Alphabet {
    /// The alphabet of `run`; none when it mixes both (`a+b-c`: no base64).
    fn of(run: &[u8]) -> Option<Alphabet> {
        let standard = run.iter().any(|b| matches!(b, b'+' | b'/'));
        let url = run.iter().any(|b| matches!(b, b'-' | b'_'));
        match (standard, url) {
            (true, true) => None,
            (false, true) => Some(Alphabet::UrlSafe),
            _ => Some(Alphabet::Standard),
        }
    }

    /// Whether `b` is one of this alphabet's characters.
    fn holds(self, b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || match self {
                Alphabet::Standard => matches!(b, b'+' | b'/'),
                Alphabet::UrlSafe => matches!(b, b'-' | b'_'),
            }
    }
}

/// The bytes of base64 in either alphabet (padding optional).
fn decode(base64: &str) -> Vec<u8> {
    if base64.contains(['-', '_']) {
        let standard: String = base64
            .chars()
            .map(|c| match c {
                '-' => '+',
                '_' => '/',
                c => c,
            })
            .collect();
        return super::key_body::decode(&standard);
    }
    super::key_body::decode(base64)
}

/// Whether `bytes` are one line of printable ASCII (a line end allowed
/// at the end) holding `=` or `:`: a credential line, the only thing a
/// run shorter than [`MIN_RUN`] is read for.
fn is_credential_line(bytes: &[u8]) -> bool {
    let line = bytes
        .strip_suffix(b"\n")
        .map_or(bytes, |l| l.strip_suffix(b"\r").unwrap_or(l));
    line.iter().all(|b| (0x20..=0x7e).contains(b)) && line.iter().any(|b| matches!(b, b'=' | b':'))
}

/// Where the run ending at `i` ends with its padding (at most two `=`).
fn padded_end(bytes: &[u8], i: usize) -> usize {
    let mut end = i;
    while end < bytes.len() && end - i < 2 && bytes[end] == b'=' {
        end += 1;
    }
    end
}

/// Whether a value may start at byte `start` of `bytes`: at the text's
/// start, after a blank, a quote, `=`, `:`, a bracket, or a `\n` escape
/// (base64 on the next line of a string).
fn opens_value(bytes: &[u8], start: usize) -> bool {
    let Some(b) = start.checked_sub(1) else {
        return true;
    };
    b" \t\r\n\"'`=:,([{>|".contains(&bytes[b])
        || (bytes[b] == b'n' && b > 0 && bytes[b - 1] == b'\\')
}

/// Whether a value may end before `after` (none: the text's end).
fn closes_value(after: Option<u8>) -> bool {
    after.is_none_or(|b| b" \t\r\n\"'`,;)]}<\\".contains(&b))
}

/// The runs of the value whose first run is `first` (in `alphabet`):
/// with the lines of base64 alone that follow when `first` ends its line
/// unpadded, a multiple of 4 long (a value wrapped at 64 or 76 columns);
/// the last joined line is the one holding padding, or the one before a
/// line of anything else. A value wrapped by `\n` escapes inside a string
/// is joined the same way ([`escaped_pieces`]).
fn value_pieces(
    text: &str,
    first: Range<usize>,
    unpadded: bool,
    alphabet: Alphabet,
) -> Vec<Range<usize>> {
    let mut pieces = vec![first.clone()];
    if !unpadded || !first.len().is_multiple_of(4) {
        return pieces;
    }
    if text[first.end..].starts_with("\\n") || text[first.end..].starts_with("\\r\\n") {
        escaped_pieces(text, first.end, alphabet, &mut pieces);
        return pieces;
    }
    let rest_of_line = text[first.end..].split('\n').next().unwrap_or_default();
    let ends_line = rest_of_line.trim().trim_matches(['"', '\'']).is_empty();
    if !ends_line {
        return pieces;
    }
    let mut at = first.end + rest_of_line.len() + 1;
    while at < text.len() {
        let line = text[at..].split('\n').next().unwrap_or_default();
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let trimmed = trimmed.trim_end();
        let body = trimmed.trim_end_matches('=');
        let is_base64 = body.bytes().any(|b| b.is_ascii_alphanumeric())
            && trimmed.len() - body.len() <= 2
            && body.bytes().all(|b| alphabet.holds(b));
        if !is_base64 {
            break;
        }
        pieces.push(at + lead..at + lead + trimmed.len());
        if body.len() < trimmed.len() {
            break;
        }
        at += line.len() + 1;
    }
    pieces
}

/// The runs after the first of a value wrapped by `\n` (or `\r\n`) escapes
/// in a string (`"UEsD…\nAAAA…\n"`), from byte `at` (an escape): each run
/// of `alphabet` after an escape, until one that is padded, not a
/// multiple of 4 long, or not followed by another escape and more base64.
fn escaped_pieces(text: &str, mut at: usize, alphabet: Alphabet, pieces: &mut Vec<Range<usize>>) {
    let bytes = text.as_bytes();
    loop {
        let rest = &text[at..];
        let escape = if rest.starts_with("\\r\\n") {
            4
        } else if rest.starts_with("\\n") {
            2
        } else {
            return;
        };
        let start = at + escape;
        let mut end = start;
        while end < bytes.len() && alphabet.holds(bytes[end]) {
            end += 1;
        }
        if end == start {
            return;
        }
        let run = end - start;
        let padded = padded_end(bytes, end);
        pieces.push(start..padded);
        if padded > end || !run.is_multiple_of(4) {
            return;
        }
        at = end;
    }
}

/// The kind of the first secret in the text the base64 of `pieces` (joined)
/// decodes to, read in windows.
fn first_secret(
    text: &str,
    pieces: &[Range<usize>],
    secret_in: &mut impl FnMut(&str) -> Option<String>,
    binary_in: &mut impl FnMut(&[u8]) -> Option<String>,
) -> Option<String> {
    let mut window = String::new();
    let mut full = false;
    for piece in pieces {
        let mut chars = &text[piece.clone()];
        while !chars.is_empty() {
            let take = chars.len().min(WINDOW - window.len());
            window.push_str(&chars[..take]);
            chars = &chars[take..];
            if window.len() == WINDOW {
                if let Some(kind) = window_secret(&window, secret_in, !full, binary_in) {
                    return Some(kind);
                }
                window.drain(..WINDOW - OVERLAP);
                full = true;
            }
        }
    }
    // The last window, unless all of it was read in the one before.
    if !window.is_empty() && (!full || window.len() > OVERLAP) {
        return window_secret(&window, secret_in, !full, binary_in);
    }
    None
}

/// What `binary_in` finds in the bytes the first window of the base64 of
/// `pieces` (joined) decodes to.
fn binary_secret(
    text: &str,
    pieces: &[Range<usize>],
    binary_in: &mut impl FnMut(&[u8]) -> Option<String>,
) -> Option<String> {
    let mut window = String::new();
    for piece in pieces {
        let chars = &text[piece.clone()];
        window.push_str(&chars[..chars.len().min(WINDOW - window.len())]);
        if window.len() == WINDOW {
            break;
        }
    }
    binary_in(&decode(&window))
}

/// The kind of the first secret in the text `base64` decodes to, if it is
/// text; if it is not, and is the value's `first` window, what
/// `binary_in` finds in its bytes.
fn window_secret(
    base64: &str,
    secret_in: &mut impl FnMut(&str) -> Option<String>,
    first: bool,
    binary_in: &mut impl FnMut(&[u8]) -> Option<String>,
) -> Option<String> {
    let bytes = decode(base64);
    if !is_text(&bytes) {
        return if first { binary_in(&bytes) } else { None };
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        // A character cut at the window's end.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    secret_in(text)
}

/// Whether `bytes` look like text: no control character but tab, line
/// feed and carriage return (bytes past ASCII are checked as UTF-8 later).
fn is_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|&b| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7e | 0x80..))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(bytes: &[u8]) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for c in bytes.chunks(3) {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for k in 0..=c.len() {
                out.push(char::from(A[(n >> (18 - 6 * k)) as usize & 63]));
            }
        }
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
        out
    }

    /// The decoded texts `find` hands over, in order.
    fn read(text: &str) -> Vec<String> {
        let mut seen = Vec::new();
        find(
            text,
            |t| {
                seen.push(t.to_string());
                None
            },
            |_| None,
        );
        seen
    }

    #[test]
    fn a_value_in_a_secret_is_read_as_text() {
        let env = "DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
        let yaml = format!("data:\n  .env: {}\n", b64(env.as_bytes()));
        assert_eq!(read(&yaml), [env]);
        let found = find(
            &yaml,
            |t| t.contains("DB_PASSWORD").then(|| "k".to_string()),
            |_| None,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(&yaml[found[0].first.clone()], b64(env.as_bytes()));
    }

    #[test]
    fn a_wrapped_value_is_read_joined() {
        let env = "A=1\n".repeat(40) + "DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
        let encoded = b64(env.as_bytes());
        let wrapped: Vec<&str> = encoded
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap_or_default())
            .collect();
        let yaml = format!(
            "data:\n  .env: |\n    {}\nkind: Secret\n",
            wrapped.join("\n    ")
        );
        assert_eq!(read(&yaml), [env]);
    }

    #[test]
    fn binary_words_and_misplaced_runs_are_not_read() {
        let png = b64(&[
            0x89, b'P', b'N', b'G', 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 1, 0,
        ]);
        let text = format!(
            "icon = \"{png}\"\nThisIsAVeryLongIdentifierName = 1\nx_{}\n",
            b64(b"PASSWORD=Vb6nQ1xZ8kLm3Wu")
        );
        assert!(read(&text).is_empty(), "{:?}", read(&text));
    }

    #[test]
    fn url_safe_escaped_and_short_runs_are_read() {
        let env = "NOTE=~~~??>>\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
        let url = b64(env.as_bytes())
            .trim_end_matches('=')
            .replace('+', "-")
            .replace('/', "_");
        assert_eq!(read(&format!("v: {url}\n")), [env]);
        // Mixed alphabets are no base64.
        assert!(read(&format!("v: {}+{url}\n", &url[..8])).is_empty());
        // Wrapped by `\n` escapes in a JSON string: one value.
        let long = "A=1\n".repeat(40);
        let encoded = b64(long.as_bytes());
        let escaped = format!("{{\"v\": \"{}\\n{}\"}}", &encoded[..76], &encoded[76..]);
        assert_eq!(read(&escaped), [long]);
        // A short run is read only for a credential line.
        assert_eq!(
            read(&format!("v: {}\n", b64(b"pwd=Xk9mQ2vL"))),
            ["pwd=Xk9mQ2vL"]
        );
        assert!(read(&format!("v: {}\n", b64(b"hello world, ok"))).is_empty());
    }

    #[test]
    fn base64_text_is_told() {
        assert!(is_base64_text("QUJDREVGR0hJSktMTU5PUA==\n"));
        assert!(!is_base64_text("DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n"));
        assert!(!is_base64_text("QUJD"));
    }

    #[test]
    fn a_long_value_is_read_in_overlapping_windows() {
        let line = "A=1\n";
        let text = line.repeat(300_000 / line.len()) + "DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
        let value = b64(text.as_bytes());
        let seen = read(&format!("v: {value}\n"));
        assert!(seen.len() >= 2, "{}", seen.len());
        assert!(seen.iter().all(|t| t.len() <= WINDOW / 4 * 3));
        assert!(
            seen.last()
                .is_some_and(|t| t.ends_with("DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n"))
        );
    }
}
