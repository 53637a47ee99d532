//! Java keystores (JKS, magic `FE ED FE ED`; JCEKS, `CE CE CE CE`) decoded
//! from base64 or found in an archive: their entries walked to tell a
//! keystore holding a private or secret key from a truststore of public
//! certificates, which is no secret. (Round eighteen: Bouncy Castle's BKS
//! and UBER stores, which have no magic, are read by the `bks` module; the
//! unpacking tries both.)

/// What a keystore holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keystore {
    /// A private-key (tag 1) or, in JCEKS, a secret-key (tag 3) entry.
    Key,
    /// Trusted certificates only, every entry read.
    Certificates,
    /// Cut short or not as Java writes one: not read whole.
    Unreadable,
}

/// Whether `bytes` open with a keystore's magic.
pub(super) fn is_keystore(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xFE, 0xED, 0xFE, 0xED]) || bytes.starts_with(&[0xCE, 0xCE, 0xCE, 0xCE])
}

/// What the keystore `bytes` holds (as `JavaKeyStore.engineLoad` reads
/// it: magic, version, count, then per entry a tag, an alias, a date and
/// the entry's data). `None` when `bytes` is no keystore.
pub(super) fn read(bytes: &[u8]) -> Option<Keystore> {
    if !is_keystore(bytes) {
        return None;
    }
    let mut r = Reader { bytes, at: 4 };
    Some(r.entries().unwrap_or(Keystore::Unreadable))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let b = self.bytes.get(self.at..self.at + 4)?;
        self.at += 4;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.at.checked_add(n)?;
        (end <= self.bytes.len()).then(|| self.at = end)
    }

    /// Java's `readUTF`: a two-byte length and that many bytes.
    fn utf(&mut self) -> Option<()> {
        let b = self.bytes.get(self.at..self.at + 2)?;
        let n = usize::from(u16::from_be_bytes([b[0], b[1]]));
        self.skip(2 + n)
    }

    /// A four-byte length and that many bytes.
    fn data(&mut self) -> Option<()> {
        let n = usize::try_from(self.u32()?).ok()?;
        self.skip(n)
    }

    fn entries(&mut self) -> Option<Keystore> {
        let version = self.u32()?;
        if !matches!(version, 1 | 2) {
            return None;
        }
        let count = self.u32()?;
        for _ in 0..count {
            match self.u32()? {
                1 | 3 => return Some(Keystore::Key),
                2 => {
                    self.utf()?;
                    self.skip(8)?;
                    if version == 2 {
                        self.utf()?;
                    }
                    self.data()?;
                }
                _ => return None,
            }
        }
        Some(Keystore::Certificates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A keystore of `entries` (tag, alias), as Java writes one.
    fn keystore(magic: u8, entries: &[(u32, &str)]) -> Vec<u8> {
        let mut out = if magic == 0xFE {
            vec![0xFE, 0xED, 0xFE, 0xED]
        } else {
            vec![magic; 4]
        };
        out.extend(2u32.to_be_bytes());
        out.extend(u32::try_from(entries.len()).expect("few").to_be_bytes());
        for (tag, alias) in entries {
            out.extend(tag.to_be_bytes());
            out.extend(u16::try_from(alias.len()).expect("short").to_be_bytes());
            out.extend(alias.as_bytes());
            out.extend([0u8; 8]);
            if *tag == 2 {
                out.extend(5u16.to_be_bytes());
                out.extend(b"X.509");
            }
            out.extend(3u32.to_be_bytes());
            out.extend([0x30, 0x01, 0x00]);
        }
        out.extend([0u8; 20]);
        out
    }

    #[test]
    fn a_private_key_entry_is_a_key_certificates_are_not() {
        let jks = keystore(0xFE, &[(2, "ca"), (1, "server")]);
        assert_eq!(read(&jks), Some(Keystore::Key));
        let jceks = keystore(0xCE, &[(3, "aes")]);
        assert_eq!(read(&jceks), Some(Keystore::Key));
        let trust = keystore(0xFE, &[(2, "ca"), (2, "intermediate")]);
        assert_eq!(read(&trust), Some(Keystore::Certificates));
        assert_eq!(read(&trust[..30]), Some(Keystore::Unreadable));
        assert_eq!(read(b"PK\x03\x04"), None);
    }
}
