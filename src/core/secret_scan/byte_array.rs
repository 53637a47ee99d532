//! Byte-array literals read as the bytes they spell (round 18b, F17-2): a
//! key file's bytes written out by `xxd -i` (`unsigned char key_der[] = {
//! 0x30, 0x82, … };`), Go's `[]byte{0x30, …}`, Rust's `&[0x30u8, …]`,
//! Python's `bytes([48, 130, …])`, JS `[48,130,…]`, Java's `{(byte)0x30,
//! -126, …}`, C's 16- and 32-bit word arrays (`uint16_t k[] = {0x3082, …}`,
//! read in both byte orders, round 19; in decimal too, `12418`, round 20),
//! and strings of escapes
//! (`b"\x30\x82…"`, C's `"\x2d\x2d…"`, octal `"\060\202…"` in C, Python,
//! Ruby, PHP; adjacent literals joined). A run of [`MIN_BYTES`] or more
//! (of [`MIN_PACKED`] when it opens as a compressed stream) is decoded and
//! judged as base64 is: bytes that are text are scanned (a PEM private
//! key, a `.env`); other bytes are read as DER (their base64 goes through
//! the rules: a private key's header, a PKCS#12 store) and as an archive or
//! keystore ([`RuleSet::decoded`]). Tables of bytes that are none of these
//! (fonts, CRC tables, certificates) pass. An archive or compressed stream
//! that cannot be read whole (cut short, a bomb, a member that cannot be
//! opened, or longer than the bytes kept of a run) is reported as not fully
//! checked, as its base64 is (round 19); only bytes that open with an
//! archive's magic can be, so other tables stay quiet. In a project's tests
//! such a finding is a fixture (archive libraries test with broken and
//! encrypted archives); a secret read in one is not.
//!
//! The text is read once, left to right; each run's bytes are judged in
//! windows of [`MAX_RUN`], all runs' kept up to [`MAX_TOTAL`].

use std::ops::Range;

use super::{Hit, RuleSet, Verdict, binary, line_of, mask, streams, tar, zip};

/// Fewer bytes than this are no key file (an Ed25519 PKCS#8 key, the
/// smallest, is 48; shorter arrays are everywhere in code).
const MIN_BYTES: usize = 48;
/// Fewer bytes than this are no compressed stream holding a secret (a
/// gzip header and trailer alone are 18).
const MIN_PACKED: usize = 24;
/// A string of escapes needs this many `\x` or octal (`\060`) escapes to
/// be read as bytes
/// (an ordinary string is scanned as the text it is).
const MIN_ESCAPES: usize = 16;
/// The bytes of one run judged at once (a key file and its chain are far
/// smaller); a longer run is judged in windows of this many bytes, each
/// overlapping the one before by [`OVERLAP`] (round 22: a key file after
/// 256 KiB of a bundle's other files was not read).
const MAX_RUN: usize = 256 << 10;
/// How much of a window the next one reads again: more than a key file.
const OVERLAP: usize = 16 << 10;
/// The bytes of all runs of a text kept for judging, and of one run read.
const MAX_TOTAL: usize = 4 << 20;

/// A byte-array literal: where it is written and the bytes it spells.
#[derive(Debug)]
pub(super) struct Run {
    pub span: Range<usize>,
    pub bytes: Vec<u8>,
    /// The literal spells more bytes than `bytes` keeps.
    pub cut: bool,
}

impl RuleSet {
    /// The hits of the byte-array literals of `text` (lines at `starts`)
    /// whose bytes hold a secret, each reported at its first line.
    pub(super) fn byte_array_hits(&self, text: &str, starts: &[usize]) -> Vec<(usize, Hit)> {
        let mut reported: Option<Range<usize>> = None;
        find(text)
            .into_iter()
            .filter_map(|run| {
                // One finding a run: its later windows are not judged.
                if reported.as_ref() == Some(&run.span) {
                    return None;
                }
                let (rule, kind) = match self.bytes_kind(&run)? {
                    Found::Secret(kind) => ("byte-array".into(), kind),
                    Found::Unchecked => (
                        self.unchecked_bytes.0.clone(),
                        self.unchecked_bytes.1.to_string(),
                    ),
                };
                reported = Some(run.span.clone());
                let hit = Hit {
                    line: line_of(starts, run.span.start) + 1,
                    rule,
                    kind: format!("{kind} (byte array)").into(),
                    masked: mask(&text[run.span.clone()]),
                    start: run.span.start,
                    span: run.span,
                };
                Some((usize::MAX, hit))
            })
            .collect()
    }

    /// What secret the bytes of `run` hold, if any: the kind of the first
    /// finding in them as text, or in their base64 (DER), or a keystore or
    /// archive holding one; an archive or compressed stream not read whole
    /// (cut short, a bomb, longer than the run keeps) is unchecked.
    fn bytes_kind(&self, run: &Run) -> Option<Found> {
        let bytes = &run.bytes;
        let first = |text: &str| {
            self.scan_at(text, true, None)
                .first()
                .map(|hit| Found::Secret(hit.kind.to_string()))
        };
        let archive = zip::is_zip(bytes) || tar::is_header(bytes);
        if std::str::from_utf8(bytes).is_ok() {
            // Text is read as it is (its control bytes as line breaks);
            // a zip or a tar may be all UTF-8 too.
            if let Some(found) = first(&super::unpack::as_text(bytes)) {
                return Some(found);
            }
            if !archive {
                return None;
            }
        } else if let Some(found) = first(&base64(bytes)) {
            return Some(found);
        }
        match self.decoded(bytes) {
            Verdict::Secret => Some(Found::Secret("private key or credentials".to_string())),
            Verdict::Unchecked => Some(Found::Unchecked),
            Verdict::Clean if run.cut && (archive || binary::is_packed(bytes)) => {
                Some(Found::Unchecked)
            }
            Verdict::Clean => None,
        }
    }
}

/// What the bytes of a run hold.
enum Found {
    /// A secret of this kind.
    Secret(String),
    /// An archive or compressed stream not read whole.
    Unchecked,
}

/// Every byte-array literal of [`MIN_BYTES`] or more in `text`: lists of
/// hex or decimal numbers, strings of `\x` or octal escapes.
pub(super) fn find(text: &str) -> Vec<Run> {
    let mut runs = lists(text.as_bytes());
    let octal = || {
        text.match_indices('\\')
            .any(|(at, _)| matches!(text.as_bytes().get(at + 1), Some(b'0'..=b'7')))
    };
    if text.contains("\\x") || octal() {
        runs.extend(strings(text.as_bytes()));
        runs.sort_by_key(|run| run.span.start);
    }
    let mut total = 0;
    let mut windows = Vec::new();
    for mut run in runs {
        let keep = MAX_TOTAL - total;
        run.cut |= run.bytes.len() > keep;
        run.bytes.truncate(keep);
        total += run.bytes.len();
        if run.bytes.is_empty() {
            continue;
        }
        windows.extend(windows_of(run));
    }
    windows
}

/// `run` as the runs of its windows of [`MAX_RUN`] bytes, each after the
/// first starting [`OVERLAP`] bytes before the one before ends, all with
/// its span; the first is cut when more follow (an archive longer than a
/// window is not read whole), the others are not (their bytes open no
/// archive of their own).
fn windows_of(run: Run) -> Vec<Run> {
    if run.bytes.len() <= MAX_RUN {
        return vec![run];
    }
    let mut out = Vec::new();
    let mut from = 0;
    loop {
        let to = (from + MAX_RUN).min(run.bytes.len());
        out.push(Run {
            span: run.span.clone(),
            bytes: run.bytes[from..to].to_vec(),
            cut: from == 0,
        });
        if to == run.bytes.len() {
            return out;
        }
        from = to - OVERLAP;
    }
}

/// Whether the byte before `i` lets a number start there (not inside a
/// word or another number).
fn boundary(b: &[u8], i: usize) -> bool {
    i == 0 || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'.' | b'-'))
}

/// The base of a list's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    /// Decimal numbers spelling this many hex digits' worth: bytes (`48`,
    /// `-126`: 2), 16-bit words (`12418`: 4), 32-bit words (8).
    Decimal(usize),
    /// Hex numbers of up to this many digits (`0x30`: 2, `0x3082`: 4).
    Hex(usize),
}

/// The suffixes a number may carry (`0x30u8`, `0x3082U`, `0x30820000UL`,
/// `0x3082000001020304ULL`), longest first.
const SUFFIXES: [&[u8]; 16] = [
    b"u8", b"u16", b"u32", b"u64", b"i64", b"ULL", b"ull", b"UL", b"ul", b"LL", b"ll", b"U", b"u",
    b"L", b"l", b"i32",
];

/// One element of a list at `i`: `0x30`, `0x30u8`, `48`, `-126`, `(byte)
/// 0x82`, and words of 16, 32 or 64 bits in hex (`0x3082`,
/// `0x30820000U`, `0x3082000001020304ULL`) or in decimal (`12418`,
/// `813827261`: round twenty; signed, `-2128535552`, and 64-bit: round 21);
/// its value (a negative one as it is, read in two's complement at the
/// list's width), where it ends, and its base.
fn element(b: &[u8], mut i: usize) -> Option<(i64, usize, Base)> {
    if b[i..].starts_with(b"(byte)") {
        i += 6;
        while b.get(i).is_some_and(|c| *c == b' ') {
            i += 1;
        }
    }
    let negative = b.get(i) == Some(&b'-');
    if negative {
        i += 1;
    }
    let hex = !negative && b.get(i) == Some(&b'0') && matches!(b.get(i + 1), Some(b'x' | b'X'));
    let (radix, most, mut j) = if hex { (16, 16, i + 2) } else { (10, 20, i) };
    let digits = j;
    let mut value: u64 = 0;
    while j - digits <= most {
        let Some(d) = b.get(j).and_then(|c| char::from(*c).to_digit(radix)) else {
            break;
        };
        value = value
            .checked_mul(u64::from(radix))?
            .checked_add(u64::from(d))?;
        j += 1;
    }
    let len = j - digits;
    if len == 0 || len > most {
        return None;
    }
    if let Some(suffix) = SUFFIXES.iter().find(|s| b[j..].starts_with(s)) {
        j += suffix.len();
    }
    if b.get(j)
        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
    {
        return None;
    }
    if hex {
        return Some((value as i64, j, Base::Hex(len)));
    }
    // A decimal word (`12418` for `0x3082`) is as wide as its value; a
    // negative one as the signed type that holds it.
    let width = match (negative, value) {
        (false, 0..=0xff) | (true, 1..=0x80) => 2,
        (false, 0x100..=0xffff) | (true, 0x81..=0x8000) => 4,
        (false, 0x1_0000..=0xffff_ffff) | (true, 0x8001..=0x8000_0000) => 8,
        (false, _) => 16,
        (true, 0x8000_0001..=0x8000_0000_0000_0000) => 16,
        (true, _) => return None,
    };
    let value = match negative {
        true => (value as i64).wrapping_neg(),
        false => value as i64,
    };
    Some((value, j, Base::Decimal(width)))
}

/// The lists of numbers in `b`: elements of one base apart by a comma
/// and blanks (line feeds too). A list of hex numbers of up to 2 digits
/// spells bytes; of 3–4 digits, 16-bit words; of 5–8, 32-bit words
/// (`uint16_t k[] = {0x3082, …}`). How words were meant to be read is not
/// written: `0x3082` is `30 82` to whoever wrote the bytes out in order,
/// `82 30` in the memory of a little-endian host (every common one), where
/// code reading the array as bytes finds it. Both orders are kept, as two
/// runs over the same literal, so neither way of writing a key hides it.
fn lists(b: &[u8]) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = matches!(b[i], b'0'..=b'9' | b'-' | b'(') && boundary(b, i);
        let Some((value, mut end, base)) = starts.then(|| element(b, i)).flatten() else {
            i += 1;
            continue;
        };
        let hex = matches!(base, Base::Hex(_));
        let digits = |base: Base| match base {
            Base::Hex(n) | Base::Decimal(n) => n,
        };
        let mut widest = digits(base);
        // Elements of more than two hex digits.
        let mut wide = usize::from(widest > 2);
        let mut values = vec![value];
        loop {
            let mut k = end;
            while b.get(k).is_some_and(|c| c.is_ascii_whitespace()) {
                k += 1;
            }
            if b.get(k) != Some(&b',') {
                break;
            }
            k += 1;
            while b.get(k).is_some_and(|c| c.is_ascii_whitespace()) {
                k += 1;
            }
            match (k < b.len()).then(|| element(b, k)).flatten() {
                Some((next, next_end, next_base)) if matches!(next_base, Base::Hex(_)) == hex => {
                    widest = widest.max(digits(next_base));
                    wide += usize::from(digits(next_base) > 2);
                    // One past the bound: the run is seen to be cut.
                    if values.len() <= MAX_TOTAL {
                        values.push(next);
                    }
                    end = next_end;
                }
                _ => break,
            }
        }
        let width = match widest {
            0..=2 => 1,
            3..=4 => 2,
            5..=8 => 4,
            _ => 8,
        };
        if values.len() * width >= MIN_PACKED {
            let orders: &[bool] = if width == 1 { &[true] } else { &[true, false] };
            for &big_endian in orders {
                let bytes = spelled(&values, width, big_endian);
                if long_enough(&bytes) {
                    runs.push(Run {
                        span: i..end,
                        bytes,
                        cut: false,
                    });
                }
            }
        }
        // A byte array with a few wider numbers among its bytes (`0x100`
        // added to an `xxd -i` list: a C compiler keeps the low byte) is
        // read as bytes too, so one wide number does not hide the rest.
        if width > 1 && wide * 2 < values.len() && values.len() >= MIN_BYTES {
            runs.push(Run {
                span: i..end,
                bytes: spelled(&values, 1, true),
                cut: false,
            });
        }
        i = end.max(i + 1);
    }
    runs
}

/// Whether a run of `bytes` is read: [`MIN_BYTES`] of them, or
/// [`MIN_PACKED`] that open as a compressed stream or an archive (one
/// credential line in zstd is some 40 bytes, round 21).
fn long_enough(bytes: &[u8]) -> bool {
    bytes.len() >= MIN_BYTES
        || bytes.len() >= MIN_PACKED && (streams::kind(bytes).is_some() || zip::is_zip(bytes))
}

/// The bytes of `values`, each `width` bytes long (a negative value in
/// two's complement, a wider one cut to its low bytes, as a C compiler
/// does), in the byte order asked.
fn spelled(values: &[i64], width: usize, big_endian: bool) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(values.len() * width);
    for &value in values {
        let be = (value as u64).to_be_bytes();
        let word = &be[8 - width..];
        if big_endian {
            bytes.extend_from_slice(word);
        } else {
            bytes.extend(word.iter().rev());
        }
    }
    bytes
}

/// The strings of escapes in `b`: a literal in `"` or `'` on one line,
/// joined with the literals that follow it (blanks, line feeds, a `+` or
/// a `b` prefix between), decoded.
fn strings(b: &[u8]) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !matches!(b[i], b'"' | b'\'') {
            i += 1;
            continue;
        }
        let start = i;
        let mut bytes = Vec::new();
        let mut escapes = 0;
        let mut end = None;
        let mut at = i;
        while let Some(close) = literal(b, at, &mut bytes, &mut escapes) {
            end = Some(close);
            let mut k = close;
            while b
                .get(k)
                .is_some_and(|c| c.is_ascii_whitespace() || matches!(c, b'+' | b'b' | b'B'))
            {
                k += 1;
            }
            if b.get(k) != Some(&b[start]) {
                break;
            }
            at = k;
        }
        let Some(end) = end else {
            i += 1;
            continue;
        };
        if escapes >= MIN_ESCAPES && long_enough(&bytes) {
            runs.push(Run {
                span: start..end,
                bytes,
                cut: false,
            });
        }
        i = end;
    }
    runs
}

/// The literal opened by the quote at `open`, decoded onto `bytes`
/// (`\x` escapes counted in `escapes`); where it ends, after its closing
/// quote, or `None` when the line ends first.
fn literal(b: &[u8], open: usize, bytes: &mut Vec<u8>, escapes: &mut usize) -> Option<usize> {
    let quote = b[open];
    let mut i = open + 1;
    // One past the bound: the run is seen to be cut.
    let keep = |bytes: &mut Vec<u8>, byte: u8| {
        if bytes.len() <= MAX_TOTAL {
            bytes.push(byte);
        }
    };
    loop {
        let c = *b.get(i)?;
        match c {
            b'\n' => return None,
            _ if c == quote => return Some(i + 1),
            b'\\' => {
                let e = *b.get(i + 1)?;
                i += 2;
                match e {
                    b'x' => {
                        let mut value = 0u8;
                        let digits = i;
                        while i - digits < 2 {
                            let Some(d) = b.get(i).and_then(|c| char::from(*c).to_digit(16)) else {
                                break;
                            };
                            value = value * 16 + d as u8;
                            i += 1;
                        }
                        if i == digits {
                            return None;
                        }
                        *escapes += 1;
                        keep(bytes, value);
                    }
                    b'0'..=b'7' => {
                        let mut value = u32::from(e - b'0');
                        while i < b.len() && matches!(b[i], b'0'..=b'7') && value < 32 {
                            value = value * 8 + u32::from(b[i] - b'0');
                            i += 1;
                        }
                        *escapes += 1;
                        keep(bytes, (value & 0xff) as u8);
                    }
                    b'n' => keep(bytes, b'\n'),
                    b'r' => keep(bytes, b'\r'),
                    b't' => keep(bytes, b'\t'),
                    b'a' => keep(bytes, 7),
                    b'b' => keep(bytes, 8),
                    b'f' => keep(bytes, 12),
                    b'v' => keep(bytes, 11),
                    b'\n' => {}
                    other => keep(bytes, other),
                }
            }
            _ => {
                keep(bytes, c);
                i += 1;
            }
        }
    }
}

/// Standard base64 of `bytes`, padded.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &byte)| n | u32::from(byte) << (16 - 8 * k));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * k) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spelled(text: &str) -> Vec<Vec<u8>> {
        find(text).into_iter().map(|run| run.bytes).collect()
    }

    #[test]
    fn lists_and_strings_spell_their_bytes() {
        let want: Vec<u8> = (0..80u8).map(|k| k.wrapping_mul(37)).collect();
        let hex: Vec<String> = want.iter().map(|b| format!("0x{b:02x}")).collect();
        let dec: Vec<String> = want.iter().map(u8::to_string).collect();
        let java: Vec<String> = want.iter().map(|&b| (b as i8).to_string()).collect();
        let esc: String = want.iter().map(|b| format!("\\x{b:02x}")).collect();
        let (a, z) = esc.split_at(40 * 4);
        for text in [
            format!("unsigned char k[] = {{\n  {}\n}};\n", hex.join(",\n  ")),
            format!("var K = []byte{{{}}}\n", hex.join(", ")),
            format!("let k = &[{}u8];\n", hex.join("u8, ")),
            format!("k = bytes([{}])\n", dec.join(", ")),
            format!("const k = [{}];\n", dec.join(",")),
            format!("byte[] k = {{{}}};\n", java.join(", ")),
            format!("k = b\"{esc}\"\n"),
            format!("const char *k = \"{a}\"\n    \"{z}\";\n"),
        ] {
            assert_eq!(spelled(&text), vec![want.clone()], "{text}");
        }
    }

    #[test]
    fn short_runs_words_and_mixed_bases_spell_nothing() {
        let short: Vec<String> = (0..47).map(|k| format!("0x{k:02x}")).collect();
        let mixed: Vec<String> = (0..80)
            .map(|k| {
                if k % 2 == 0 {
                    format!("0x{k:02x}")
                } else {
                    k.to_string()
                }
            })
            .collect();
        let big: Vec<String> = (0..80).map(|k| (k * 100).to_string()).collect();
        let few: String = (0..10).map(|k| format!("\\x{k:02x}")).collect();
        for text in [
            format!("{{{}}}", short.join(", ")),
            format!("{{{}}}", mixed.join(", ")),
            format!("s = \"{few}{}\"", "a".repeat(100)),
            "v1.2, 3.4, 5.6".repeat(40),
        ] {
            assert!(spelled(&text).is_empty(), "{text}");
        }
        // Decimal numbers past a byte are 16-bit words (round twenty),
        // read in both byte orders: `100` is `00 64`, then `64 00`.
        let words = spelled(&format!("{{{}}}", big.join(", ")));
        assert_eq!(words.len(), 2);
        assert_eq!(words[0][2..4], [0x00, 0x64]);
        assert_eq!(words[1][2..4], [0x64, 0x00]);
    }

    #[test]
    fn base64_is_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(&[0x30, 0x82, 0xff, 0x00]), "MIL/AA==");
    }
}
