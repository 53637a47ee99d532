//! Bouncy Castle keystores (BKS, and UBER, its encrypted kin), as
//! `BcKeyStoreSpi` writes them: no magic, but a header of its own — a
//! version (1 or 2), the salt's length (20) and the salt, an iteration
//! count (1024 plus ten random bits) — then, in BKS, the entries in the
//! clear: a type byte (1 a certificate, 2 a key, 3 a secret, 4 a sealed
//! key; 0 ends them), an alias, a date, a chain of certificates and the
//! entry. A key, secret or sealed entry is a private or secret key; a
//! store of certificates alone is a truststore (Android apps ship them).
//! UBER keeps its entries encrypted under the store's password: after the
//! same header, no entry reads, so it is taken as a keystore that may hold
//! a private key, refused as a PKCS#12 file is.

use super::keystore::Keystore;

/// The salt's length Bouncy Castle writes.
const SALT: usize = 20;

/// At most this many entries are walked (a truststore holds a few
/// hundred certificates at most); more: not read whole.
const MAX_ENTRIES: usize = 4096;

/// What the Bouncy Castle store `bytes` holds, or `None` when `bytes` does
/// not open with its header.
pub(super) fn read(bytes: &[u8]) -> Option<Keystore> {
    let version = u32_at(bytes, 0)?;
    if !matches!(version, 1 | 2) || u32_at(bytes, 4)? != SALT as u32 {
        return None;
    }
    let iterations = u32_at(bytes, 8 + SALT)?;
    if !(1024..=2047).contains(&iterations) {
        return None;
    }
    let mut r = Reader {
        bytes,
        at: 12 + SALT,
    };
    Some(r.entries())
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let n = u32_at(self.bytes, self.at)?;
        self.at += 4;
        Some(n)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.at.checked_add(n)?;
        (end <= self.bytes.len()).then(|| self.at = end)
    }

    /// Java's `writeUTF`: a two-byte length and that many bytes.
    fn utf(&mut self) -> Option<()> {
        let b = self.bytes.get(self.at..self.at.checked_add(2)?)?;
        let n = usize::from(u16::from_be_bytes([b[0], b[1]]));
        self.skip(2 + n)
    }

    /// `encodeCertificate`: its type's name, then a length and its bytes.
    fn certificate(&mut self) -> Option<()> {
        self.utf()?;
        let n = usize::try_from(self.u32()?).ok()?;
        self.skip(n)
    }

    /// The entries: a key entry is a key; the end after certificates alone
    /// a truststore; a first type byte no BKS writes an UBER store's
    /// encrypted entries; anything cut short not read whole.
    fn entries(&mut self) -> Keystore {
        for index in 0..MAX_ENTRIES {
            let Some(&kind) = self.bytes.get(self.at) else {
                return Keystore::Unreadable;
            };
            self.at += 1;
            match kind {
                0 => return Keystore::Certificates,
                2..=4 => return Keystore::Key,
                1 => {
                    if self.certificate_entry().is_none() {
                        return Keystore::Unreadable;
                    }
                }
                // UBER: the bytes after the header are ciphertext.
                _ if index == 0 => return Keystore::Key,
                _ => return Keystore::Unreadable,
            }
        }
        Keystore::Unreadable
    }

    /// A certificate entry after its type byte: alias, date, chain, the
    /// certificate.
    fn certificate_entry(&mut self) -> Option<()> {
        self.utf()?;
        self.skip(8)?;
        let chain = self.u32()?;
        for _ in 0..chain.min(64) {
            self.certificate()?;
        }
        if chain > 64 {
            return None;
        }
        self.certificate()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A BKS store (version 2) of `entries` (type, alias) as Bouncy Castle
    /// writes one, a made-up certificate or key in each, and its MAC.
    pub(crate) fn bks(entries: &[(u8, &str)]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(2u32.to_be_bytes());
        out.extend((SALT as u32).to_be_bytes());
        out.extend((0..SALT as u8).map(|i| i.wrapping_mul(37)));
        out.extend(1500u32.to_be_bytes());
        let cert = |out: &mut Vec<u8>| {
            out.extend(5u16.to_be_bytes());
            out.extend(b"X.509");
            out.extend(3u32.to_be_bytes());
            out.extend([0x30, 0x01, 0x00]);
        };
        for (kind, alias) in entries {
            out.push(*kind);
            out.extend(u16::try_from(alias.len()).expect("short").to_be_bytes());
            out.extend(alias.as_bytes());
            out.extend([0u8; 8]);
            out.extend(0u32.to_be_bytes());
            match kind {
                1 => cert(&mut out),
                _ => {
                    out.push(0);
                    out.extend(5u16.to_be_bytes());
                    out.extend(b"PKCS8");
                    out.extend(3u16.to_be_bytes());
                    out.extend(b"RSA");
                    out.extend(4u32.to_be_bytes());
                    out.extend([0x30, 0x02, 0x01, 0x00]);
                }
            }
        }
        out.push(0);
        out.extend([0x5a; 20]);
        out
    }

    #[test]
    fn a_key_entry_is_a_key_certificates_are_not() {
        assert_eq!(read(&bks(&[(1, "ca"), (2, "server")])), Some(Keystore::Key));
        assert_eq!(read(&bks(&[(4, "sealed")])), Some(Keystore::Key));
        assert_eq!(read(&bks(&[(3, "aes")])), Some(Keystore::Key));
        let trust = bks(&[(1, "ca"), (1, "intermediate")]);
        assert_eq!(read(&trust), Some(Keystore::Certificates));
        assert_eq!(read(&trust[..40]), Some(Keystore::Unreadable));
        // UBER: the same header, then ciphertext.
        let mut uber = trust[..12 + SALT].to_vec();
        uber.extend([0x9c, 0x41, 0x07, 0xee, 0x12]);
        assert_eq!(read(&uber), Some(Keystore::Key));
        // Not the header: another salt's length, an iteration count out of
        // Bouncy Castle's range, a version it never wrote, too short.
        let mut other = trust.clone();
        other[7] = 16;
        assert_eq!(read(&other), None);
        let mut other = trust.clone();
        other[8 + SALT..12 + SALT].copy_from_slice(&100u32.to_be_bytes());
        assert_eq!(read(&other), None);
        let mut other = trust.clone();
        other[3] = 7;
        assert_eq!(read(&other), None);
        assert_eq!(read(&trust[..10]), None);
        assert_eq!(read(b"PK\x03\x04"), None);
    }
}
