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
//!
//! `.ctxcurate/` may come with a cloned repository, so the cache trusts
//! nothing it finds there: an entry is read only if it is a regular file
//! (never through a link, never a FIFO or a device) and only up to
//! [`MAX_ENTRY`] bytes; nothing is written or deleted through a link that
//! leaves the project; and [`DiskCache::clear`] deletes only files named
//! as the cache names its entries.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::core::project::confine::{STATE_DIR, check_inside, ensure_state_dir};
use crate::core::tokens::hex;

/// The largest entry read back; a bigger file is a miss (entries hold
/// counts, summaries and views of files that are themselves capped).
pub const MAX_ENTRY: u64 = 64 << 20;

/// Prefix and suffix of an entry being written (renamed into place).
const TEMP_PREFIX: &str = ".tmp-entry-";
const TEMP_SUFFIX: &str = ".tmp";

/// The first line of every entry; a new format gets a new magic.
const MAGIC: &[u8] = b"ctxcurate-cache 1\n";

/// The cache directory of the project at `root`.
pub fn cache_dir(root: &Path) -> PathBuf {
    root.join(STATE_DIR).join("cache")
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
    /// Writes and deletes stay inside this folder (the project root).
    root: Option<PathBuf>,
}

impl DiskCache {
    /// The cache of the project at `root`.
    pub fn open(root: &Path) -> Self {
        DiskCache {
            dir: Some(cache_dir(root)),
            root: Some(root.to_path_buf()),
        }
    }

    /// A cache in `dir` itself (benchmarks over trees that must not be
    /// written to).
    pub fn at(dir: &Path) -> Self {
        DiskCache {
            dir: Some(dir.to_path_buf()),
            root: Some(dir.to_path_buf()),
        }
    }

    /// A cache that stores nothing (tests, read-only use).
    pub fn disabled() -> Self {
        DiskCache {
            dir: None,
            root: None,
        }
    }

    /// Whether writing or deleting `path` stays inside the root.
    fn confined(&self, path: &Path) -> bool {
        self.root
            .as_deref()
            .is_some_and(|root| check_inside(root, path).is_ok())
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
        let bytes = read_entry(&path)?;
        match decode(&bytes) {
            Some(payload) => Some(payload.to_vec()),
            None => {
                // Corrupt: drop it so it is rewritten by the next put.
                if self.confined(&path) {
                    let _ = fs::remove_file(&path);
                }
                None
            }
        }
    }

    /// `true` when an entry exists under `key` (not checked: for marks
    /// and statistics; [`DiskCache::get`] checks before serving).
    pub fn contains(&self, bucket: &str, key: &[u8; 32]) -> bool {
        self.entry_path(bucket, key)
            .and_then(|p| fs::symlink_metadata(p).ok())
            .is_some_and(|m| m.is_file())
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
        if self.confined(&path) {
            let _ = self.write_entry(&path, payload);
        }
    }

    fn write_entry(&self, path: &Path, payload: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().ok_or(std::io::ErrorKind::InvalidInput)?;
        if !dir.is_dir() {
            self.ignore_in_git()?;
            fs::create_dir_all(dir)?;
        }
        let mut tmp = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(dir)?;
        tmp.write_all(&encode(payload))?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Keep `.ctxcurate/` out of version control without touching the
    /// user's own `.gitignore`.
    fn ignore_in_git(&self) -> std::io::Result<()> {
        // Only the project's own `.ctxcurate/`: a cache placed elsewhere
        // (`DiskCache::at`) must not hide its parent from git.
        let Some(root) = self
            .dir
            .as_ref()
            .and_then(|d| d.parent())
            .filter(|p| p.file_name().is_some_and(|n| n == STATE_DIR))
            .and_then(|p| p.parent())
        else {
            return Ok(());
        };
        ensure_state_dir(root).map(drop)
    }

    /// Entries and bytes per bucket, sorted by bucket name. Only what the
    /// cache wrote is counted: real folders, files named as entries.
    pub fn stats(&self) -> Vec<BucketStats> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let mut out: Vec<BucketStats> = real_dirs(dir)
            .map(|bucket| {
                let mut s = BucketStats {
                    name: bucket.file_name().to_string_lossy().into_owned(),
                    ..BucketStats::default()
                };
                for entry in bucket_entries(&bucket.path()) {
                    if let Ok(m) = entry.metadata()
                        && m.is_file()
                        && is_entry_name(&entry.file_name().to_string_lossy())
                    {
                        s.entries += 1;
                        s.bytes += m.len();
                    }
                }
                s
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// Remove every entry (all buckets); returns how many were removed.
    /// Only files the cache itself writes are deleted (entries and their
    /// temporaries, in their bucket and shard folders, never through a
    /// link); anything else found there stays. A cache folder that is a
    /// link leading out of the project is an error, and nothing is deleted.
    pub fn clear(&self) -> std::io::Result<usize> {
        let Some(dir) = &self.dir else {
            return Ok(0);
        };
        if let Some(root) = &self.root {
            check_inside(root, dir).map_err(std::io::Error::other)?;
        }
        match fs::symlink_metadata(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(e),
            Ok(_) => {}
        }
        let mut removed = 0;
        for bucket in real_dirs(dir) {
            for shard in real_dirs(&bucket.path()) {
                for entry in fs::read_dir(shard.path()).into_iter().flatten().flatten() {
                    let name = entry.file_name();
                    let name = name.to_string_lossy();
                    let is_entry = is_entry_name(&name);
                    let is_temp = name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX);
                    let is_file = entry.file_type().is_ok_and(|t| t.is_file());
                    if is_file && (is_entry || is_temp) && fs::remove_file(entry.path()).is_ok() {
                        removed += usize::from(is_entry);
                    }
                }
                // Only empty folders go.
                let _ = fs::remove_dir(shard.path());
            }
            let _ = fs::remove_dir(bucket.path());
        }
        let _ = fs::remove_dir(dir);
        Ok(removed)
    }
}

/// The real (not linked) sub-folders of `dir`.
fn real_dirs(dir: &Path) -> impl Iterator<Item = fs::DirEntry> {
    fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
}

/// Every file in the shard folders (two hex digits) of a bucket.
fn bucket_entries(bucket: &Path) -> impl Iterator<Item = fs::DirEntry> {
    real_dirs(bucket)
        .filter(|shard| is_shard_name(&shard.file_name().to_string_lossy()))
        .flat_map(|shard| fs::read_dir(shard.path()).into_iter().flatten().flatten())
}

fn is_lower_hex(name: &str, len: usize) -> bool {
    name.len() == len && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn is_shard_name(name: &str) -> bool {
    is_lower_hex(name, 2)
}

/// An entry is named by the 64 hex digits of its key.
fn is_entry_name(name: &str) -> bool {
    is_lower_hex(name, 64)
}

/// The bytes of the entry at `path` if it is a regular file (not a link,
/// FIFO or device) of at most [`MAX_ENTRY`] bytes.
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // No link is followed, and opening a FIFO does not wait for a
        // writer; the type is checked on the opened file itself.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    if !fs::symlink_metadata(path).ok()?.is_file() {
        return None;
    }
    let file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_ENTRY {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).ok()?);
    file.take(MAX_ENTRY + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_ENTRY).then_some(bytes)
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
    fn clear_deletes_only_what_the_cache_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path());
        let k = key(&[b"1"]);
        cache.put("a", &k, b"1");
        let shard = cache.entry_path("a", &k).unwrap();
        let shard = shard.parent().unwrap();
        let foreign = [
            shard.join("notes.txt"),
            cache_dir(dir.path()).join("README"),
            cache_dir(dir.path()).join("a/keep/deadbeef"),
        ];
        for f in &foreign {
            fs::create_dir_all(f.parent().unwrap()).unwrap();
            fs::write(f, "mine").unwrap();
        }
        assert_eq!(cache.clear().unwrap(), 1);
        assert_eq!(cache.get("a", &k), None);
        for f in &foreign {
            assert_eq!(fs::read_to_string(f).unwrap(), "mine", "{}", f.display());
        }
    }

    #[cfg(unix)]
    #[test]
    fn linked_entries_are_misses_and_never_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path());
        let k = key(&[b"x"]);
        cache.put("b", &k, b"real");
        let path = cache.entry_path("b", &k).unwrap();
        // A valid entry, but reached through a link: not served.
        let target = outside.path().join("entry");
        fs::rename(&path, &target).unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        assert_eq!(cache.get("b", &k), None);
        assert!(!cache.contains("b", &k));
        cache.clear().unwrap();
        assert!(target.exists(), "the link's target is left alone");
    }

    #[test]
    fn disabled_stores_nothing() {
        let cache = DiskCache::disabled();
        cache.put("a", &key(&[b"1"]), b"1");
        assert_eq!(cache.get("a", &key(&[b"1"])), None);
        assert_eq!(cache.clear().unwrap(), 0);
    }
}
