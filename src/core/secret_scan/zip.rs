//! Zip archives (a zip, a jar, a docx) decoded from base64: their members
//! by the central directory, each stored or deflated one to be read as
//! text; a member encrypted, compressed another way, in zip64 or past
//! [`MAX_MEMBERS`] cannot be read, and says so.

use std::ops::Range;

/// The most members read: more than a credential bundle ever holds; an
/// archive with more is read that far and reported as not read whole.
pub(super) const MAX_MEMBERS: usize = 1000;

/// One member of an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Member {
    /// Stored as it is: its bytes' range in the archive.
    Stored(Range<usize>),
    /// Deflated: the compressed bytes' range.
    Deflated(Range<usize>),
    /// Encrypted, another method, zip64, or its data out of the archive.
    Unreadable,
}

/// Whether `bytes` open with a zip's local file header.
pub(super) fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

fn u16_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 2)?;
    Some(usize::from(u16::from_le_bytes([b[0], b[1]])))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 4)?;
    usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
}

/// The members of the zip `bytes` (at most [`MAX_MEMBERS`]) and whether
/// there were more; `None` when its central directory cannot be found
/// (a cut archive: not read).
pub(super) fn members(bytes: &[u8]) -> Option<(Vec<Member>, bool)> {
    // The end of central directory record: 22 bytes and a comment of at
    // most 64 KiB, so it is looked for in the archive's last 64 KiB.
    let from = bytes.len().saturating_sub(22 + 0xFFFF);
    let end = (from..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x05\x06"))?;
    let count = u16_at(bytes, end + 10)?;
    let mut at = u32_at(bytes, end + 16)?;
    let mut found = Vec::new();
    for _ in 0..count.min(MAX_MEMBERS) {
        if !bytes.get(at..)?.starts_with(b"PK\x01\x02") {
            return None;
        }
        let flags = u16_at(bytes, at + 8)?;
        let method = u16_at(bytes, at + 10)?;
        let size = u32_at(bytes, at + 20)?;
        let local = u32_at(bytes, at + 42)?;
        found.push(member(bytes, flags, method, size, local));
        at += 46 + u16_at(bytes, at + 28)? + u16_at(bytes, at + 30)? + u16_at(bytes, at + 32)?;
    }
    Some((found, count > MAX_MEMBERS))
}

/// The member whose local header is at `local`.
fn member(bytes: &[u8], flags: usize, method: usize, size: usize, local: usize) -> Member {
    let data = || {
        if !bytes.get(local..)?.starts_with(b"PK\x03\x04") {
            return None;
        }
        let start = local + 30 + u16_at(bytes, local + 26)? + u16_at(bytes, local + 28)?;
        let end = start.checked_add(size)?;
        (end <= bytes.len()).then_some(start..end)
    };
    // Encrypted (bit 0), or sizes in a zip64 record.
    if flags & 1 != 0 || size == 0xFFFF_FFFF {
        return Member::Unreadable;
    }
    match (method, data()) {
        (0, Some(range)) => Member::Stored(range),
        (8, Some(range)) => Member::Deflated(range),
        _ => Member::Unreadable,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A zip of `members` (name, bytes, deflated or stored), as `zip`
    /// writes one.
    pub(crate) fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        use std::io::Write;
        let mut out = Vec::new();
        let mut central = Vec::new();
        for (name, data, deflate) in members {
            let body = if *deflate {
                let mut d =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
                d.write_all(data).expect("in memory");
                d.finish().expect("in memory")
            } else {
                data.to_vec()
            };
            let n = |x: usize| u32::try_from(x).expect("small").to_le_bytes();
            let method: u16 = if *deflate { 8 } else { 0 };
            let offset = out.len();
            out.extend(b"PK\x03\x04\x14\x00\x00\x00");
            out.extend(method.to_le_bytes());
            out.extend([0u8; 8]); // time, date, crc (not checked here)
            out.extend(n(body.len()));
            out.extend(n(data.len()));
            out.extend(u16::try_from(name.len()).expect("short").to_le_bytes());
            out.extend([0u8; 2]);
            out.extend(name.as_bytes());
            out.extend(&body);
            central.extend(b"PK\x01\x02\x14\x00\x14\x00\x00\x00");
            central.extend(method.to_le_bytes());
            central.extend([0u8; 8]);
            central.extend(n(body.len()));
            central.extend(n(data.len()));
            central.extend(u16::try_from(name.len()).expect("short").to_le_bytes());
            central.extend([0u8; 12]);
            central.extend(n(offset));
            central.extend(name.as_bytes());
        }
        let dir = out.len();
        let count = u16::try_from(members.len()).expect("few").to_le_bytes();
        out.extend(&central);
        out.extend(b"PK\x05\x06\x00\x00\x00\x00");
        out.extend(count);
        out.extend(count);
        out.extend(u32::try_from(central.len()).expect("small").to_le_bytes());
        out.extend(u32::try_from(dir).expect("small").to_le_bytes());
        out.extend([0u8; 2]);
        out
    }

    #[test]
    fn stored_and_deflated_members_are_found() {
        let z = zip(&[("a.txt", b"hello", false), (".env", b"K=v\n", true)]);
        let (found, more) = members(&z).expect("a zip");
        assert!(!more);
        assert!(matches!(&found[0], Member::Stored(r) if &z[r.clone()] == b"hello"));
        assert!(matches!(found[1], Member::Deflated(_)));
        // Cut short: no central directory.
        assert_eq!(members(&z[..z.len() / 2]), None);
    }
}
