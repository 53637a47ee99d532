//! Decoded or inflated bytes that are not UTF-8 text (a tar archive, a
//! binary file before a key file): the text runs in them, to be scanned as
//! text, and whether they hold an archive member packed again (a `.gz` or
//! `.zip` in a tar), which the scanner cannot read.

/// The text runs of `bytes`: its valid UTF-8 with every other byte (and
/// every control character but tab and line breaks) made a line break, a
/// run of them one. A key file stored in a tar stands on lines of its own,
/// as it does in the file it came from. A terminal's escape sequence
/// (`ESC [ 0 m`) is a break whole (round 21), so the line after it starts
/// where its text does.
pub(super) fn text_runs(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    let mut broken = true;
    let push_break = |text: &mut String, broken: &mut bool| {
        if !*broken {
            text.push('\n');
            *broken = true;
        }
    };
    for chunk in bytes.utf8_chunks() {
        let mut chars = chunk.valid().chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\x1b' && chars.next_if_eq(&'[').is_some() {
                // A CSI sequence: parameters and intermediates, then one
                // final byte (`@` to `~`).
                while chars.next_if(|p| matches!(p, ' '..='?')).is_some() {}
                chars.next_if(|f| matches!(f, '@'..='~'));
                push_break(&mut text, &mut broken);
            } else if c.is_control() && !matches!(c, '\t' | '\n' | '\r') {
                push_break(&mut text, &mut broken);
            } else {
                text.push(c);
                broken = c == '\n';
            }
        }
        if !chunk.invalid().is_empty() {
            push_break(&mut text, &mut broken);
        }
    }
    text
}

/// Whether `text` holds a control character [`text_runs`] makes a break
/// (a NUL, an escape; not a tab or a line break).
pub(super) fn has_controls(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// Whether `bytes` read as text: no more than one in 32 of them a control
/// byte other than a tab or a line break (a NUL or an escape between
/// lines is text still; noise has one in eight), and UTF-8.
pub(super) fn mostly_text(bytes: &[u8]) -> bool {
    let controls = bytes
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f)
        .count();
    // UTF-8 but for a character cut at the end.
    let utf8 = std::str::from_utf8(bytes).map_or_else(|e| e.error_len().is_none(), |_| true);
    controls * 32 <= bytes.len() && utf8
}

/// A tar block's size: headers and members start on its multiples.
const BLOCK: usize = 512;

/// Whether `window`, bytes of an inflated stream from byte `offset` of it,
/// holds a tar header whose member is compressed or archived again (gzip,
/// zip, bzip2, xz, zstd by their magic): its text is not readable here.
/// A header whose member starts past the window is seen again in the next
/// window, which starts with this one's end.
pub(super) fn packed_member(window: &[u8], offset: u64) -> bool {
    let misaligned = (offset % BLOCK as u64) as usize;
    let first = (BLOCK - misaligned) % BLOCK;
    (first..window.len())
        .step_by(BLOCK)
        .filter(|&at| is_tar_header(&window[at..]))
        .any(|at| window.get(at + BLOCK..).is_some_and(is_packed))
}

/// Whether `block` opens with a tar header (POSIX `ustar\0` or GNU's
/// `ustar  ` at byte 257).
fn is_tar_header(block: &[u8]) -> bool {
    block.get(257..262) == Some(b"ustar")
}

/// Whether `data` opens with the magic of a compressed or archived file.
pub(super) fn is_packed(data: &[u8]) -> bool {
    const MAGICS: &[&[u8]] = &[
        &[0x1f, 0x8b],
        b"PK\x03\x04",
        b"BZh",
        &[0xfd, b'7', b'z', b'X', b'Z', 0],
        &[0x28, 0xb5, 0x2f, 0xfd],
    ];
    MAGICS.iter().any(|m| data.starts_with(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_bytes_break_lines_and_text_stays() {
        let bytes = b"\x00\x01\xffab\x00\x00cd\n\xc3\xa9e\x80";
        assert_eq!(text_runs(bytes), "ab\ncd\n\u{e9}e\n");
        assert_eq!(text_runs(b"plain\ttext\r\n"), "plain\ttext\r\n");
    }

    fn header() -> Vec<u8> {
        let mut h = vec![0u8; BLOCK];
        h[..7].copy_from_slice(b"inner.z");
        h[257..263].copy_from_slice(b"ustar\0");
        h
    }

    #[test]
    fn a_compressed_member_of_a_tar_is_seen() {
        let mut tar = vec![b'x'; BLOCK];
        tar.extend_from_slice(&header());
        tar.extend_from_slice(&[0x1f, 0x8b, 8, 0]);
        tar.resize(3 * BLOCK, 0);
        assert!(packed_member(&tar, 0));
        // The same bytes seen from a window starting mid-block.
        assert!(packed_member(&tar[100..], 100));
        assert!(!packed_member(&tar[100..], 0));
        // A text member is no packed one.
        let mut text = header();
        text.extend_from_slice(b"KEY=value\n");
        assert!(!packed_member(&text, 0));
        // The magic alone, no tar header: not a member.
        let mut loose = vec![0u8; BLOCK];
        loose.extend_from_slice(&[0x1f, 0x8b, 8, 0]);
        assert!(!packed_member(&loose, 0));
    }
}
