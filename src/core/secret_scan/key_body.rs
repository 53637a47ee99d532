//! Private-key bodies that lost their `-----BEGIN … PRIVATE KEY-----` line
//! (a slice of a key file, a key pasted without its armor): runs of
//! full-width base64 lines, 64 columns as PEM writes them or 70 as
//! OpenSSH does, that read as random numbers.
//!
//! A body that keeps its first line is found by the `private-key-der`
//! rule (the DER header's base64 is a keyword); this finds the rest, a
//! slice from the middle, which has no literal to look for. What else is
//! wrapped at those widths in source code: certificates, CSRs, CRLs and
//! PGP public keys, armored (a `BEGIN` line stands just above; a private
//! key's own `BEGIN` is the `private-key` rule's) or sliced (then their
//! decoded bytes show the X.509 object identifiers and the readable names
//! that key material, big random integers, never holds); and hex digests
//! (too few symbols for the entropy bar).
//!
//! Lines are picked by their width alone, so no keyword is needed and the
//! cost is one look at each line's length.

use std::ops::Range;

use super::{entropy, line_end};

/// A likely key body: the 0-based line it starts on and its first line's
/// base64, the part a finding shows masked.
pub(super) struct Body {
    pub line: usize,
    pub span: Range<usize>,
}

/// PEM's line width (RFC 7468) and OpenSSH's.
const PEM: usize = 64;
const OPENSSH: usize = 70;
/// At least this many full lines (192 bytes of key material at 64
/// columns; an RSA-2048 body has 25).
const MIN_LINES: usize = 4;
/// A `-----BEGIN` line this close above a run makes it an armored block;
/// an `-----END` line of something else than a private key this close
/// below makes it the tail of a certificate or a public key (whose
/// signature bytes read as random as a key's).
const LOOK_ABOVE: usize = 6;
const LOOK_BELOW: usize = 2;
/// Random base64 carries close to 6 bits a character; hex at most 4.
const MIN_ENTROPY: f64 = 5.0;
/// Decoded bytes holding this many printable ASCII characters in a row are
/// text (a certificate's names, a PGP user id), not a key.
const MAX_READABLE: usize = 12;
/// Byte strings of the object identifiers certificates, CSRs and CRLs
/// hold and key bodies do not: X.500 attribute types (`06 03 55 04`),
/// X.509 extensions (`06 03 55 1d`), PKCS#1 and PKCS#9 identifiers
/// (signature algorithms, e-mail addresses) and ECDSA signatures.
const CERT_MARKERS: [&[u8]; 4] = [
    &[0x06, 0x03, 0x55, 0x04],
    &[0x06, 0x03, 0x55, 0x1d],
    &[0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01],
    &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04],
];

/// Every run of full-width base64 lines in `text` (whose lines start at
/// `starts`) that reads as a private key's body.
pub(super) fn find(text: &str, starts: &[usize]) -> Vec<Body> {
    let mut found = Vec::new();
    // The current run: its first line, its width and its lines' base64.
    let mut run: Option<(usize, usize, Vec<Range<usize>>)> = None;
    for line in 0..=starts.len() {
        let core = (line < starts.len())
            .then(|| base64_core(text, starts[line], line_end(text, starts, line)))
            .flatten();
        match (&mut run, core) {
            (Some((_, width, cores)), Some(core)) if core.len() == *width => cores.push(core),
            (_, core) => {
                if let Some((first, width, cores)) = run.take()
                    && is_key_body(text, starts, first, width, &cores)
                {
                    found.push(Body {
                        line: first,
                        span: cores[0].clone(),
                    });
                }
                run = core.map(|c| (line, c.len(), vec![c]));
            }
        }
    }
    found
}

/// The base64 of one line of a wrapped block (inside quotes, a string
/// concatenation or a `\n` escape as code writes it), when the line is
/// full width.
fn base64_core(text: &str, start: usize, end: usize) -> Option<Range<usize>> {
    if end - start < PEM {
        return None;
    }
    let line = &text.as_bytes()[start..end];
    let lead = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'"' | b'\'' | b'+'))
        .count();
    let mut rest = &line[lead..];
    loop {
        let trimmed = rest
            .strip_suffix(b"\\n")
            .or_else(|| rest.strip_suffix(b"\\r"))
            .or_else(|| {
                rest.split_last().and_then(|(last, init)| {
                    matches!(
                        last,
                        b' ' | b'\t' | b'\r' | b'"' | b'\'' | b',' | b';' | b'+' | b')'
                    )
                    .then_some(init)
                })
            });
        match trimmed {
            Some(t) => rest = t,
            None => break,
        }
    }
    let width = rest.len();
    let base64 = rest
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/');
    (base64 && (width == PEM || width == OPENSSH)).then(|| start + lead..start + lead + width)
}

/// Whether the run of `cores` (starting on line `first`, `width` wide) is
/// key material rather than a certificate, a public key or a digest.
fn is_key_body(
    text: &str,
    starts: &[usize],
    first: usize,
    width: usize,
    cores: &[Range<usize>],
) -> bool {
    if cores.len() < MIN_LINES {
        return false;
    }
    let above = starts[first.saturating_sub(LOOK_ABOVE)];
    if text[above..starts[first]].contains("-----BEGIN") {
        return false;
    }
    let after = first + cores.len();
    let below_end = starts
        .get(after + LOOK_BELOW)
        .copied()
        .unwrap_or(text.len());
    let below = text.get(starts.get(after).copied().unwrap_or(text.len())..below_end);
    if below.is_some_and(|b| {
        b.lines()
            .any(|l| l.contains("-----END") && !l.contains("PRIVATE KEY"))
    }) {
        return false;
    }
    let joined: String = cores.iter().map(|r| &text[r.clone()]).collect();
    if entropy(&joined) < MIN_ENTROPY {
        return false;
    }
    // An OpenSSH body holds its key type and comment as text, and its
    // 70-column lines do not start on a byte boundary: only PEM's
    // decoded bytes are read.
    if width != PEM {
        return true;
    }
    let bytes = decode(&joined);
    let readable = bytes
        .split(|b| !(0x20..=0x7e).contains(b))
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    readable < MAX_READABLE
        && !CERT_MARKERS
            .iter()
            .any(|m| bytes.windows(m.len()).any(|w| w == *m))
}

/// The bytes of base64 in the standard or the URL-safe alphabet (padding
/// optional; `-` reads as `+` and `_` as `/`, round 21; the caller checked
/// the alphabet: another character reads as `/`).
pub(super) fn decode(base64: &str) -> Vec<u8> {
    let base64 = base64.trim_end_matches('=');
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' | b'-' => 62,
            _ => 63,
        }
    };
    let mut out = Vec::with_capacity(base64.len() / 4 * 3);
    for quad in base64.as_bytes().chunks(4) {
        let n = quad.iter().fold(0u32, |n, &c| (n << 6) | value(c)) << (6 * (4 - quad.len()));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // A last group of 2 or 3 characters holds 1 or 2 bytes.
        out.extend_from_slice(&bytes[..(quad.len() * 6 / 8).min(3)]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::secret_scan::line_starts;

    fn bodies(text: &str) -> Vec<usize> {
        find(text, &line_starts(text))
            .into_iter()
            .map(|b| b.line)
            .collect()
    }

    /// Random-looking base64 lines of `width` from a fixed seed.
    fn lines(seed: u64, n: usize, width: usize) -> String {
        const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut x = seed;
        let mut out = String::new();
        for _ in 0..n {
            for _ in 0..width {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                out.push(B64[(x % 64) as usize] as char);
            }
            out.push('\n');
        }
        out
    }

    /// `bytes` as 64-column base64 (whole quads only).
    fn encode(bytes: &[u8]) -> String {
        const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut s = String::new();
        for c in bytes.chunks_exact(3) {
            let n = (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2]);
            for i in 0..4 {
                s.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        s.as_bytes()
            .chunks(64)
            .map(|l| format!("{}\n", String::from_utf8_lossy(l)))
            .collect()
    }

    #[test]
    fn a_sliced_body_is_found_where_it_starts() {
        let text = format!("x = 1\n{}", lines(7, 6, 64));
        assert_eq!(bodies(&text), [1]);
        let quoted: String = lines(9, 5, 64)
            .lines()
            .map(|l| format!("    \"{l}\\n\"\n"))
            .collect();
        assert_eq!(bodies(&format!("KEY = (\n{quoted})\n")), [1]);
        assert_eq!(bodies(&lines(11, 5, 70)), [0]);
        assert_eq!(decode("TWFu"), b"Man");
        assert_eq!(decode("TWE="), b"Ma");
        assert_eq!(decode("TQ=="), b"M");
    }

    #[test]
    fn armored_blocks_digests_and_certificates_are_not_bodies() {
        let body = lines(7, 6, 64);
        // Three lines are too few; an armored block is another rule's.
        assert!(bodies(&lines(7, 3, 64)).is_empty());
        for armor in [
            "-----BEGIN CERTIFICATE-----",
            "-----BEGIN RSA PRIVATE KEY-----",
        ] {
            assert!(bodies(&format!("{armor}\n{body}")).is_empty(), "{armor}");
        }
        let pgp = format!("-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: x\n\n{body}");
        assert!(bodies(&pgp).is_empty());
        // A certificate's tail (its signature, random bytes) above its END
        // line; a key's END line does not clear a body.
        let tail = format!("{body}Zm9v\n-----END CERTIFICATE-----\n");
        assert!(bodies(&tail).is_empty());
        let key_tail = format!("{body}Zm9v\n-----END RSA PRIVATE KEY-----\n");
        assert_eq!(bodies(&key_tail), [0]);
        // Hex digests: 64 columns, too few symbols.
        let hex: String = (0..6)
            .map(|i| format!("{}\n", &format!("{i}f3a9c0b7e1d2").repeat(5)[..64]))
            .collect();
        assert!(bodies(&hex).is_empty());
        // A certificate's middle: random bytes around a subject name.
        let random = decode(&body.replace('\n', ""));
        assert_eq!(bodies(&encode(&random)), [0], "the bytes alone are a body");
        let mut der: Vec<u8> = decode(&body.replace('\n', ""));
        der[100..104].copy_from_slice(&[0x06, 0x03, 0x55, 0x04]);
        assert!(bodies(&encode(&der)).is_empty());
        let mut der: Vec<u8> = decode(&body.replace('\n', ""));
        der[150..166].copy_from_slice(b"Example Org Ltd.");
        assert!(bodies(&encode(&der)).is_empty());
        // Not base64: prose and code of the same width.
        let prose = "a".repeat(63) + " \n";
        assert!(bodies(&prose.repeat(6)).is_empty());
    }
}
