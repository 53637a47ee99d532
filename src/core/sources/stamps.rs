//! What each file's content hash was when it was last read, by its stamp
//! (size, modification and change times, inode), kept in the project's disk
//! cache, so a warm run finds what it derived from a file (terms, imports,
//! names) with a `stat` instead of reading and hashing it again: at 100,000
//! files, 600 MB a task build no longer reads.
//!
//! A stamp is trusted as git trusts its index: a file changed within the
//! same clock tick keeps its size and times, so a stamp is remembered only
//! once the file has been still for [`SETTLED`]; a younger one is read
//! every time. The index is one sealed cache entry (a clone cannot plant
//! one), loaded on first use and written when the [`Sources`] holding it
//! goes, only if it learned something.
//!
//! [`Sources`]: super::Sources

use std::collections::HashMap;
use std::fs;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::core::store::{DiskCache, disk::MAX_ENTRY};

/// What identifies a version of a file on disk without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stamp {
    pub len: u64,
    modified: (i64, u32),
    changed: (i64, u32),
    inode: u64,
    device: u64,
}

impl Stamp {
    /// The stamp of what `meta` describes.
    pub fn of(meta: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let nanos = |n: i64| u32::try_from(n).unwrap_or(0);
            Stamp {
                len: meta.len(),
                modified: (meta.mtime(), nanos(meta.mtime_nsec())),
                changed: (meta.ctime(), nanos(meta.ctime_nsec())),
                inode: meta.ino(),
                device: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            let since = |t: std::io::Result<SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or((0, 0), |d| {
                        (i64::try_from(d.as_secs()).unwrap_or(0), d.subsec_nanos())
                    })
            };
            Stamp {
                len: meta.len(),
                modified: since(meta.modified()),
                changed: since(meta.modified()),
                inode: 0,
                device: 0,
            }
        }
    }

    /// The stamp as bytes ([`Stamp::BYTES`] of them, [`Stamp::read`]
    /// reads them back).
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.len.to_le_bytes());
        for (secs, nanos) in [self.modified, self.changed] {
            out.extend_from_slice(&secs.to_le_bytes());
            out.extend_from_slice(&nanos.to_le_bytes());
        }
        out.extend_from_slice(&self.inode.to_le_bytes());
        out.extend_from_slice(&self.device.to_le_bytes());
    }

    /// Bytes of a stamp as [`Stamp::write`] writes it.
    pub const BYTES: usize = 8 + 12 + 12 + 8 + 8;

    /// The stamp as [`Stamp::write`] writes it, for a key over many files.
    pub fn bytes(&self) -> [u8; Stamp::BYTES] {
        let mut out = Vec::with_capacity(Stamp::BYTES);
        self.write(&mut out);
        out.try_into().unwrap_or([0; Stamp::BYTES])
    }

    /// The stamp [`Stamp::write`] wrote.
    pub fn read(bytes: &[u8; Stamp::BYTES]) -> Stamp {
        let u64_at = |at: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            b
        };
        let u32_at = |at: usize| {
            let mut b = [0; 4];
            b.copy_from_slice(&bytes[at..at + 4]);
            u32::from_le_bytes(b)
        };
        Stamp {
            len: u64::from_le_bytes(u64_at(0)),
            modified: (i64::from_le_bytes(u64_at(8)), u32_at(16)),
            changed: (i64::from_le_bytes(u64_at(20)), u32_at(28)),
            inode: u64::from_le_bytes(u64_at(32)),
            device: u64::from_le_bytes(u64_at(40)),
        }
    }

    /// Whether the file has been still for `settle` before `now`, so that
    /// a change would have moved its times.
    pub fn settled(&self, now: SystemTime, settle: Duration) -> bool {
        let Some(line) = now
            .checked_sub(settle)
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        else {
            return false;
        };
        let line = (
            i64::try_from(line.as_secs()).unwrap_or(i64::MAX),
            line.subsec_nanos(),
        );
        self.modified <= line && self.changed <= line
    }
}

/// How long a file must have been still for its stamp to be remembered.
pub const SETTLED: Duration = Duration::from_secs(3);

/// The bucket and name of the index in the disk cache.
const BUCKET: &str = "stamps";
const NAME: &[u8] = b"stamps-v1";

/// Bytes of one entry besides its path: the path's length, the stamp, the
/// hash.
const ENTRY_FIXED: usize = 2 + Stamp::BYTES + 32;

/// Content hashes by path and stamp.
#[derive(Debug, Default)]
pub struct Stamps {
    known: HashMap<String, (Stamp, [u8; 32])>,
    /// Where it was loaded from (and is written back to).
    disk: Option<DiskCache>,
    /// Learned something since it was loaded.
    changed: bool,
    /// How long a file must be still ([`SETTLED`] unless a test says).
    settle: Option<Duration>,
}

impl Stamps {
    /// The hash `rel` had at `stamp`, if it was read then (the index is
    /// read from `disk` on first use).
    pub fn hash(&mut self, disk: &DiskCache, rel: &str, stamp: &Stamp) -> Option<[u8; 32]> {
        self.load(disk);
        self.known
            .get(rel)
            .filter(|(known, _)| known == stamp)
            .map(|(_, hash)| *hash)
    }

    /// Remember that `rel` hashed to `hash` at `stamp` (once the file is
    /// settled).
    pub fn learn(&mut self, disk: &DiskCache, rel: &str, stamp: Stamp, hash: [u8; 32]) {
        let settle = self.settle.unwrap_or(SETTLED);
        if !stamp.settled(SystemTime::now(), settle) || rel.len() > usize::from(u16::MAX) {
            return;
        }
        self.load(disk);
        if self.known.get(rel) != Some(&(stamp, hash)) {
            self.known.insert(rel.to_string(), (stamp, hash));
            self.changed = true;
        }
    }

    /// How long a file must be still for its stamp to stand for its
    /// content.
    pub fn settle(&self) -> Duration {
        self.settle.unwrap_or(SETTLED)
    }

    /// Remember files still for only `settle` (tests, whose files are new).
    #[cfg(test)]
    pub fn settle_after(&mut self, settle: Duration) {
        self.settle = Some(settle);
    }

    fn load(&mut self, disk: &DiskCache) {
        if self.disk.is_some() {
            return;
        }
        self.disk = Some(disk.clone());
        if let Some(bytes) = disk.get(BUCKET, &key()) {
            self.known = decode(&bytes).unwrap_or_default();
        }
    }
}

impl Drop for Stamps {
    /// Write the index if it learned something (nothing over the cache's
    /// entry cap: a project that large reads its files again).
    fn drop(&mut self) {
        let Some(disk) = self.disk.as_ref().filter(|_| self.changed) else {
            return;
        };
        let bytes = encode(&self.known);
        if (bytes.len() as u64) < MAX_ENTRY - 1024 {
            disk.put_loose(BUCKET, &key(), &bytes);
        }
    }
}

fn key() -> [u8; 32] {
    crate::core::store::disk::key(&[NAME])
}

fn encode(known: &HashMap<String, (Stamp, [u8; 32])>) -> Vec<u8> {
    let size: usize = known.keys().map(|p| p.len() + ENTRY_FIXED).sum();
    let mut out = Vec::with_capacity(size);
    for (path, (s, hash)) in known {
        // `learn` keeps no path over u16::MAX bytes.
        let Ok(len) = u16::try_from(path.len()) else {
            continue;
        };
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(path.as_bytes());
        s.write(&mut out);
        out.extend_from_slice(hash);
    }
    out
}

/// The index written by [`encode`]; `None` when it is cut short or not
/// UTF-8 (the seal makes that unlikely; the index is then made anew).
fn decode(mut bytes: &[u8]) -> Option<HashMap<String, (Stamp, [u8; 32])>> {
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(head)
    }
    fn array<const N: usize>(bytes: &mut &[u8]) -> Option<[u8; N]> {
        take(bytes, N)?.try_into().ok()
    }
    let mut known = HashMap::new();
    while !bytes.is_empty() {
        let len = u16::from_le_bytes(array(&mut bytes)?);
        let path = std::str::from_utf8(take(&mut bytes, usize::from(len))?).ok()?;
        let stamp = Stamp::read(&array(&mut bytes)?);
        known.insert(path.to_string(), (stamp, array(&mut bytes)?));
    }
    Some(known)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(secs: i64) -> Stamp {
        Stamp {
            len: 10,
            modified: (secs, 5),
            changed: (secs, 7),
            inode: 42,
            device: 3,
        }
    }

    #[test]
    fn the_index_reads_back_what_it_wrote_and_refuses_a_cut() {
        let mut known = HashMap::new();
        known.insert("a/b.py".to_string(), (stamp(100), [1; 32]));
        known.insert("ü.rs".to_string(), (stamp(200), [2; 32]));
        let bytes = encode(&known);
        assert_eq!(decode(&bytes), Some(known));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(&[]), Some(HashMap::new()));
    }

    #[test]
    fn only_a_settled_file_is_remembered() {
        let now = SystemTime::now();
        let secs = now
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        assert!(stamp(secs - 60).settled(now, SETTLED));
        assert!(!stamp(secs).settled(now, SETTLED));
        assert!(!stamp(secs - 2).settled(now, SETTLED));
        let mut young = stamp(secs - 60);
        young.changed = (secs, 0);
        assert!(
            !young.settled(now, SETTLED),
            "a change of owner or mode is a change"
        );
        let disk = DiskCache::disabled();
        let mut stamps = Stamps::default();
        stamps.learn(&disk, "new.py", stamp(secs), [9; 32]);
        assert_eq!(stamps.hash(&disk, "new.py", &stamp(secs)), None);
        stamps.learn(&disk, "old.py", stamp(secs - 60), [9; 32]);
        assert_eq!(
            stamps.hash(&disk, "old.py", &stamp(secs - 60)),
            Some([9; 32])
        );
        assert_eq!(stamps.hash(&disk, "old.py", &stamp(secs - 59)), None);
    }
}
