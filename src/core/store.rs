//! The on-disk cache under `.ctxcurate/cache`: small values (token counts,
//! summaries) keyed by a SHA-256 of what produced them, kept across runs.
//!
//! Each entry is one file, `cache/{bucket}/{kk}/{key}`, holding a magic
//! line, the SHA-256 of the payload, and the payload. A read checks both and
//! treats any mismatch (a truncated write, a corrupted or hand-edited file)
//! as a miss and removes the entry, so a bad entry is recomputed, never
//! served. Writes go to a temporary file in the same directory and are
//! renamed into place, so a reader never sees half an entry, and the CLI and
//! the TUI can share one cache. The cache is an optimisation: every failure
//! to read or write it is silent and costs only the recomputation.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::core::tokens::hex;

/// The first line of every entry; a new format gets a new magic.
const MAGIC: &[u8] = b"ctxcurate-cache 1\n";

/// The cache directory of the project at `root`.
pub fn cache_dir(root: &Path) -> PathBuf {
    root.join(".ctxcurate").join("cache")
}

/// A key: the SHA-256 of every part, each prefixed by its length so that
/// `("ab", "c")` and `("a", "bc")` differ.
pub fn key(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

/// Entries and bytes of one bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BucketStats {
    pub name: String,
    pub entries: usize,
    pub bytes: u64,
}

/// A handle on one project's disk cache; cheap to clone and share. The
/// default handle is disabled.
#[derive(Debug, Clone, Default)]
pub struct DiskCache {
    dir: Option<PathBuf>,
}

impl DiskCache {
    /// The cache of the project at `root`.
    pub fn open(root: &Path) -> Self {
        DiskCache {
            dir: Some(cache_dir(root)),
        }
    }

    /// A cache in `dir` itself (benchmarks over trees that must not be
    /// written to).
    pub fn at(dir: &Path) -> Self {
        DiskCache {
            dir: Some(dir.to_path_buf()),
        }
    }

    /// A cache that stores nothing (tests, read-only use).
    pub fn disabled() -> Self {
        DiskCache { dir: None }
    }

    /// Where the entries live, when enabled.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn entry_path(&self, bucket: &str, key: &[u8; 32]) -> Option<PathBuf> {
        let name = hex(key);
        Some(self.dir.as_ref()?.join(bucket).join(&name[..2]).join(name))
    }

    /// The payload stored under `key`, if present and intact.
    pub fn get(&self, bucket: &str, key: &[u8; 32]) -> Option<Vec<u8>> {
        let path = self.entry_path(bucket, key)?;
        let bytes = fs::read(&path).ok()?;
        match decode(&bytes) {
            Some(payload) => Some(payload.to_vec()),
            None => {
                // Corrupt: drop it so it is rewritten by the next put.
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// `true` when an entry exists under `key` (not checked: for marks
    /// and statistics; [`DiskCache::get`] checks before serving).
    pub fn contains(&self, bucket: &str, key: &[u8; 32]) -> bool {
        self.entry_path(bucket, key).is_some_and(|p| p.is_file())
    }

    /// The payload under `key` as UTF-8 text.
    pub fn get_text(&self, bucket: &str, key: &[u8; 32]) -> Option<String> {
        String::from_utf8(self.get(bucket, key)?).ok()
    }

    /// Store `payload` under `key`; failures are ignored (it is a cache).
    pub fn put(&self, bucket: &str, key: &[u8; 32], payload: &[u8]) {
        let Some(path) = self.entry_path(bucket, key) else {
            return;
        };
        let _ = self.write_entry(&path, payload);
    }

    fn write_entry(&self, path: &Path, payload: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().ok_or(std::io::ErrorKind::InvalidInput)?;
        if !dir.is_dir() {
            fs::create_dir_all(dir)?;
            self.ignore_in_git();
        }
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        tmp.write_all(&encode(payload))?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Keep `.ctxcurate/` out of version control without touching the
    /// user's own `.gitignore`.
    fn ignore_in_git(&self) {
        // Only the project's own `.ctxcurate/`: a cache placed elsewhere
        // (`DiskCache::at`) must not hide its parent from git.
        let Some(state) = self
            .dir
            .as_ref()
            .and_then(|d| d.parent())
            .filter(|p| p.file_name().is_some_and(|n| n == ".ctxcurate"))
        else {
            return;
        };
        let ignore = state.join(".gitignore");
        if !ignore.exists() {
            let _ = fs::write(ignore, "# written by ctxcurate: caches and outputs\n*\n");
        }
    }

    /// Entries and bytes per bucket, sorted by bucket name.
    pub fn stats(&self) -> Vec<BucketStats> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let Ok(buckets) = fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut out: Vec<BucketStats> = buckets
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| {
                let mut s = BucketStats {
                    name: e.file_name().to_string_lossy().into_owned(),
                    ..BucketStats::default()
                };
                for shard in fs::read_dir(e.path()).into_iter().flatten().flatten() {
                    for entry in fs::read_dir(shard.path()).into_iter().flatten().flatten() {
                        if let Ok(m) = entry.metadata()
                            && m.is_file()
                        {
                            s.entries += 1;
                            s.bytes += m.len();
                        }
                    }
                }
                s
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// Remove every entry (all buckets); returns how many were removed.
    pub fn clear(&self) -> std::io::Result<usize> {
        let Some(dir) = &self.dir else {
            return Ok(0);
        };
        let removed = self.stats().iter().map(|b| b.entries).sum();
        match fs::remove_dir_all(dir) {
            Ok(()) => Ok(removed),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
            Err(e) => Err(e),
        }
    }
}

fn encode(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 65 + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(hex(&Sha256::digest(payload)).as_bytes());
    out.push(b'\n');
    out.extend_from_slice(payload);
    out
}

fn decode(bytes: &[u8]) -> Option<&[u8]> {
    let rest = bytes.strip_prefix(MAGIC)?;
    if rest.len() < 65 || rest[64] != b'\n' {
        return None;
    }
    let (sum, payload) = (&rest[..64], &rest[65..]);
    (hex(&Sha256::digest(payload)).as_bytes() == sum).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_persistence() {
        let dir = tempfile::tempdir().unwrap();
        let k = key(&[b"content", b"v1"]);
        let cache = DiskCache::open(dir.path());
        assert_eq!(cache.get("summary", &k), None);
        cache.put("summary", &k, b"hello");
        // A second handle (another run) sees it.
        let again = DiskCache::open(dir.path());
        assert_eq!(again.get_text("summary", &k).as_deref(), Some("hello"));
        assert_eq!(again.get("tokens", &k), None, "buckets are separate");
        let stats = again.stats();
        assert_eq!(stats.len(), 1);
        assert_eq!((stats[0].name.as_str(), stats[0].entries), ("summary", 1));
        assert!(dir.path().join(".ctxcurate/.gitignore").exists());
    }

    #[test]
    fn a_cache_elsewhere_leaves_its_parent_alone() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::at(&dir.path().join("c"));
        cache.put("b", &key(&[b"1"]), b"1");
        assert_eq!(cache.get_text("b", &key(&[b"1"])).as_deref(), Some("1"));
        assert!(!dir.path().join(".gitignore").exists());
    }

    #[test]
    fn key_parts_are_delimited() {
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"ab", b"c"]), key(&[b"ab", b"c"]));
    }

    #[test]
    fn corrupt_entries_are_misses_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path());
        let k = key(&[b"x"]);
        cache.put("summary", &k, b"the summary");
        let path = cache.entry_path("summary", &k).unwrap();
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert_eq!(cache.get("summary", &k), None);
        assert!(!path.exists(), "the corrupt entry is dropped");
        fs::write(path.with_file_name("junk"), b"not a cache file").unwrap();
        cache.put("summary", &k, b"again");
        assert_eq!(cache.get_text("summary", &k).as_deref(), Some("again"));
        // Truncated to nothing.
        fs::write(&path, b"").unwrap();
        assert_eq!(cache.get("summary", &k), None);
    }

    #[test]
    fn clear_removes_everything() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path());
        cache.put("a", &key(&[b"1"]), b"1");
        cache.put("b", &key(&[b"2"]), b"2");
        assert_eq!(cache.clear().unwrap(), 2);
        assert!(cache.stats().is_empty());
        assert_eq!(cache.get("a", &key(&[b"1"])), None);
        assert_eq!(cache.clear().unwrap(), 0);
    }

    #[test]
    fn disabled_stores_nothing() {
        let cache = DiskCache::disabled();
        cache.put("a", &key(&[b"1"]), b"1");
        assert_eq!(cache.get("a", &key(&[b"1"])), None);
        assert_eq!(cache.clear().unwrap(), 0);
    }
}
