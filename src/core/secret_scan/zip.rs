//! Zip archives (a zip, a jar, a docx) decoded from base64: their members
//! by the central directory, each stored or deflated one to be read as
//! text; a member encrypted, compressed another way or past
//! [`MAX_MEMBERS`] cannot be read, and says so. Zip64 (round seventeen):
//! the end record's count and offset from the zip64 end record, an
//! entry's sizes and offset from its zip64 extra field (what `zip -fz`
//! writes, and any archive past 4 GiB or 65,535 entries).

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
    /// Encrypted, another method, zip64 sizes not found, or its data out
    /// of the archive.
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

fn u64_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    usize::try_from(u64::from_le_bytes(b)).ok()
}

/// A 32-bit field saying its value is in a zip64 record.
const IN_ZIP64: usize = 0xFFFF_FFFF;

/// The count of entries and the central directory's offset from the
/// zip64 end record, found by its locator right before the end record at
/// `end`.
fn zip64_end(bytes: &[u8], end: usize) -> Option<(usize, usize)> {
    let locator = end.checked_sub(20)?;
    if !bytes.get(locator..)?.starts_with(b"PK\x06\x07") {
        return None;
    }
    let record = u64_at(bytes, locator + 8)?;
    if !bytes.get(record..)?.starts_with(b"PK\x06\x06") {
        return None;
    }
    Some((u64_at(bytes, record + 32)?, u64_at(bytes, record + 48)?))
}

/// The compressed size and local header offset of the central entry at
/// `at` (`size`, `plain` the uncompressed size, `local` as its 32-bit
/// fields read), those marked [`IN_ZIP64`] taken from its zip64 extra
/// field (id 1: the uncompressed size, the compressed size, the offset,
/// each there only when its field is marked).
fn zip64_sizes(
    bytes: &[u8],
    at: usize,
    (size, plain, local): (usize, usize, usize),
) -> Option<(usize, usize)> {
    if size != IN_ZIP64 && plain != IN_ZIP64 && local != IN_ZIP64 {
        return Some((size, local));
    }
    let name = u16_at(bytes, at + 28)?;
    let start = at + 46 + name;
    let extra = bytes.get(start..start + u16_at(bytes, at + 30)?)?;
    let mut i = 0;
    while i + 4 <= extra.len() {
        let id = u16_at(extra, i)?;
        let len = u16_at(extra, i + 2)?;
        let data = extra.get(i + 4..i + 4 + len)?;
        if id == 1 {
            let mut k = 0;
            let mut next = |marked: bool, value: usize| -> Option<usize> {
                if !marked {
                    return Some(value);
                }
                let v = u64_at(data, k)?;
                k += 8;
                Some(v)
            };
            next(plain == IN_ZIP64, plain)?;
            let size = next(size == IN_ZIP64, size)?;
            let local = next(local == IN_ZIP64, local)?;
            return Some((size, local));
        }
        i += 4 + len;
    }
    None
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
    let mut count = u16_at(bytes, end + 10)?;
    let mut at = u32_at(bytes, end + 16)?;
    if count == 0xFFFF || at == IN_ZIP64 {
        (count, at) = zip64_end(bytes, end)?;
    }
    let mut found = Vec::new();
    for _ in 0..count.min(MAX_MEMBERS) {
        if !bytes.get(at..)?.starts_with(b"PK\x01\x02") {
            return None;
        }
        let flags = u16_at(bytes, at + 8)?;
        let method = u16_at(bytes, at + 10)?;
        let marked = (
            u32_at(bytes, at + 20)?,
            u32_at(bytes, at + 24)?,
            u32_at(bytes, at + 42)?,
        );
        found.push(match zip64_sizes(bytes, at, marked) {
            Some((size, local)) => member(bytes, flags, method, size, local),
            None => Member::Unreadable,
        });
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
    // Encrypted (bit 0).
    if flags & 1 != 0 {
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

    /// `zip` of one stored member rewritten as `zip -fz` writes it: the
    /// central entry's sizes and offset in a zip64 extra field, the end
    /// record's count and offset in a zip64 end record.
    pub(crate) fn zip64(name: &str, data: &[u8]) -> Vec<u8> {
        let plain = zip(&[(name, data, false)]);
        let local_len = 30 + name.len() + data.len();
        let mut out = plain[..local_len].to_vec();
        let dir = out.len();
        let mut central = plain[local_len..local_len + 46 + name.len()].to_vec();
        central[20..28].copy_from_slice(&[0xFF; 8]);
        central[42..46].copy_from_slice(&[0xFF; 4]);
        central[30..32].copy_from_slice(&28u16.to_le_bytes());
        central.extend(1u16.to_le_bytes());
        central.extend(24u16.to_le_bytes());
        for v in [data.len(), data.len(), 0] {
            central.extend((v as u64).to_le_bytes());
        }
        out.extend(&central);
        let record = out.len();
        out.extend(b"PK\x06\x06");
        out.extend(44u64.to_le_bytes());
        out.extend([0u8; 12]);
        out.extend(1u64.to_le_bytes());
        out.extend(1u64.to_le_bytes());
        out.extend((central.len() as u64).to_le_bytes());
        out.extend((dir as u64).to_le_bytes());
        out.extend(b"PK\x06\x07\x00\x00\x00\x00");
        out.extend((record as u64).to_le_bytes());
        out.extend(1u32.to_le_bytes());
        out.extend(
            b"PK\x05\x06\x00\x00\x00\x00\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x00\x00",
        );
        out
    }

    #[test]
    fn a_zip64_member_is_found() {
        let z = zip64(".env", b"K=v\n");
        let (found, more) = members(&z).expect("a zip64");
        assert!(!more);
        assert!(matches!(&found[..], [Member::Stored(r)] if &z[r.clone()] == b"K=v\n"));
        // Its extra field cut: not read.
        let mut cut = z.clone();
        let extra = 30 + 4 + 4 + 46 + 4;
        cut[extra..extra + 2].copy_from_slice(&9u16.to_le_bytes());
        assert_eq!(
            members(&cut).map(|(f, _)| f),
            Some(vec![Member::Unreadable])
        );
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
