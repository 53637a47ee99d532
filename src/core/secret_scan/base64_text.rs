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

use std::ops::Range;

/// Shortest run read: the base64 of 18 bytes (`PASSWORD=Xk9mQ2vL`).
const MIN_RUN: usize = 24;

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
/// secret in (it returns the first secret's kind).
pub(super) fn find(text: &str, mut secret_in: impl FnMut(&str) -> Option<String>) -> Vec<Found> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_base64(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_base64(bytes[i]) {
            i += 1;
        }
        let end = padded_end(bytes, i);
        let before = start.checked_sub(1).map(|b| bytes[b]);
        let after = bytes.get(end).copied();
        if i - start < MIN_RUN || !opens_value(before) || !closes_value(after) {
            i = end;
            continue;
        }
        if !is_text(&super::key_body::decode(&text[start..start + 4])) {
            i = end;
            continue;
        }
        let pieces = value_pieces(text, start..end, end == i);
        let last = pieces.last().map_or(end, |p| p.end);
        if let Some(kind) = first_secret(text, &pieces, &mut secret_in) {
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

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

/// Where the run ending at `i` ends with its padding (at most two `=`).
fn padded_end(bytes: &[u8], i: usize) -> usize {
    let mut end = i;
    while end < bytes.len() && end - i < 2 && bytes[end] == b'=' {
        end += 1;
    }
    end
}

/// Whether a value may start after `before` (none: the text's start).
fn opens_value(before: Option<u8>) -> bool {
    before.is_none_or(|b| b" \t\r\n\"'`=:,([{>|".contains(&b))
}

/// Whether a value may end before `after` (none: the text's end).
fn closes_value(after: Option<u8>) -> bool {
    after.is_none_or(|b| b" \t\r\n\"'`,;)]}<\\".contains(&b))
}

/// The runs of the value whose first run is `first`: with the lines of
/// base64 alone that follow when `first` ends its line unpadded, a
/// multiple of 4 long (a value wrapped at 64 or 76 columns); the last
/// joined line is the one holding padding, or the one before a line of
/// anything else.
fn value_pieces(text: &str, first: Range<usize>, unpadded: bool) -> Vec<Range<usize>> {
    let mut pieces = vec![first.clone()];
    let rest_of_line = text[first.end..].split('\n').next().unwrap_or_default();
    let ends_line = rest_of_line.trim().trim_matches(['"', '\'']).is_empty();
    if !unpadded || !ends_line || !first.len().is_multiple_of(4) {
        return pieces;
    }
    let mut at = first.end + rest_of_line.len() + 1;
    while at < text.len() {
        let line = text[at..].split('\n').next().unwrap_or_default();
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let trimmed = trimmed.trim_end();
        let body = trimmed.trim_end_matches('=');
        let is_base64 =
            !body.is_empty() && trimmed.len() - body.len() <= 2 && body.bytes().all(is_base64);
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

/// The kind of the first secret in the text the base64 of `pieces` (joined)
/// decodes to, read in windows.
fn first_secret(
    text: &str,
    pieces: &[Range<usize>],
    secret_in: &mut impl FnMut(&str) -> Option<String>,
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
                if let Some(kind) = window_secret(&window, secret_in) {
                    return Some(kind);
                }
                window.drain(..WINDOW - OVERLAP);
                full = true;
            }
        }
    }
    // The last window, unless all of it was read in the one before.
    if !window.is_empty() && (!full || window.len() > OVERLAP) {
        return window_secret(&window, secret_in);
    }
    None
}

/// The kind of the first secret in the text `base64` decodes to, if it is
/// text.
fn window_secret(
    base64: &str,
    secret_in: &mut impl FnMut(&str) -> Option<String>,
) -> Option<String> {
    let bytes = super::key_body::decode(base64);
    if !is_text(&bytes) {
        return None;
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
        find(text, |t| {
            seen.push(t.to_string());
            None
        });
        seen
    }

    #[test]
    fn a_value_in_a_secret_is_read_as_text() {
        let env = "DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
        let yaml = format!("data:\n  .env: {}\n", b64(env.as_bytes()));
        assert_eq!(read(&yaml), [env]);
        let found = find(&yaml, |t| {
            t.contains("DB_PASSWORD").then(|| "k".to_string())
        });
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
