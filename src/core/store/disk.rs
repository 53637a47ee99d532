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
//! [`MAX_ENTRY`] bytes, and a large one is streamed through its seal check
//! before it is held in memory; nothing is written or deleted through a link that
//! leaves the project; and [`DiskCache::clear`] deletes only files named
//! as the cache names its entries.
//!
//! Nor can a repository plant entries: a checksum anyone can compute would
//! let a cloned `.ctxcurate/cache` serve a forged summary or view for a
//! file's content hash. So every entry is sealed with an HMAC-SHA256 under
//! a per-user key ([`user_key`], created once in the user's state
//! directory, never in a project): an entry written by anyone else — or by
//! this user on another machine — is a miss. Without a state directory
//! there is no key, and the disk cache stores nothing.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use std::sync::{Arc, Mutex, OnceLock};

use hmac::Mac;
use sha2::{Digest, Sha256};

use super::pack::{self, Packs};
pub use super::seal::{MAX_ENTRY, SealKey};
use super::seal::{is_lower_hex, mac, open_regular};
use crate::core::paths::confine::{STATE_DIR, check_inside, ensure_state_dir};
use crate::core::tokens::hex;

/// Prefix and suffix of an entry being written (renamed into place).
const TEMP_PREFIX: &str = ".tmp-entry-";
const TEMP_SUFFIX: &str = ".tmp";

/// The first line of every entry; a new format gets a new magic.
const MAGIC: &[u8] = b"ctxcurate-cache 2\n";

/// The name of the key file in the user's state directory.
const KEY_FILE: &str = "cache.key";

/// The user's seal key, read from (or created in) the user's state
/// directory once per process; `None` when there is no state directory or
/// the key cannot be read or made (the disk cache is then off).
pub fn user_key() -> Option<SealKey> {
    static KEY: OnceLock<Option<SealKey>> = OnceLock::new();
    *KEY.get_or_init(|| {
        // Unit tests must not touch the state of whoever runs them.
        if cfg!(test) {
            return Some([7; 32]);
        }
        let dir = crate::core::paths::user_state_dir()?;
        load_or_create_key(&dir.join(KEY_FILE)).ok()
    })
}

/// The key stored at `path` (64 hex digits), made with fresh randomness
/// (readable by the user only) when there is none yet. Two processes
/// racing to make it both end up with the one that was written first.
pub fn load_or_create_key(path: &Path) -> std::io::Result<SealKey> {
    use std::io::ErrorKind;
    let invalid = || std::io::Error::new(ErrorKind::InvalidData, "not a cache key");
    let read = |path: &Path| -> std::io::Result<SealKey> {
        if !fs::symlink_metadata(path)?.is_file() {
            return Err(invalid());
        }
        let mut text = String::new();
        fs::File::open(path)?.take(128).read_to_string(&mut text)?;
        parse_hex_key(text.trim()).ok_or_else(invalid)
    };
    match read(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        other => return other,
    }
    if let Some(dir) = path.parent() {
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)?;
    }
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(hex(&key).as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            Ok(key)
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => read(path),
        Err(e) => Err(e),
    }
}

fn parse_hex_key(text: &str) -> Option<SealKey> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(key)
}

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
    /// Seals every entry written and checks every entry read.
    key: SealKey,
    /// The packs' indexes, read on the first miss of a loose entry (and
    /// forgotten by [`DiskCache::clear`]).
    packs: Arc<Mutex<Option<Arc<Packs>>>>,
    /// When set ([`DiskCache::batched`]), entries wait here and are
    /// written together as packs.
    batch: Option<Arc<Batch>>,
}

/// Entries waiting to be written as one pack (see `pack`): written when
/// they pass [`BATCH_BYTES`], on [`DiskCache::flush`], and when the last
/// handle goes.
#[derive(Debug)]
struct Batch {
    cache: DiskCache,
    waiting: Mutex<Waiting>,
}

/// The entries of a batch, found by bucket and key.
#[derive(Debug, Default)]
struct Waiting {
    entries: Vec<pack::Entry>,
    at: std::collections::HashMap<(String, [u8; 32]), usize>,
    bytes: usize,
}

/// A batch this large is written out at once (a bound on what it holds).
const BATCH_BYTES: usize = 64 << 20;

/// Fewer entries than this are written as loose files, not as a pack (so
/// small runs do not pile up small packs).
const PACK_FROM: usize = 32;

impl Batch {
    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The sealed bytes of a waiting entry.
    fn get(&self, bucket: &str, key: &[u8; 32]) -> Option<Vec<u8>> {
        let waiting = self.lock();
        let at = *waiting.at.get(&(bucket.to_string(), *key))?;
        waiting.entries.get(at).map(|(_, _, bytes)| bytes.clone())
    }

    fn contains(&self, bucket: &str, key: &[u8; 32]) -> bool {
        self.lock().at.contains_key(&(bucket.to_string(), *key))
    }

    /// Add an entry; `true` when the batch should be written now.
    fn add(&self, bucket: &str, key: &[u8; 32], sealed: Vec<u8>) -> bool {
        let mut waiting = self.lock();
        let w = &mut *waiting;
        w.bytes += sealed.len();
        match w.at.entry((bucket.to_string(), *key)) {
            std::collections::hash_map::Entry::Occupied(at) => {
                if let Some(entry) = w.entries.get_mut(*at.get()) {
                    entry.2 = sealed;
                }
            }
            std::collections::hash_map::Entry::Vacant(at) => {
                at.insert(w.entries.len());
                w.entries.push((bucket.to_string(), *key, sealed));
            }
        }
        w.bytes >= BATCH_BYTES
    }

    /// Write what waits: one pack, or loose entries when they are few.
    fn flush(&self) {
        let entries = std::mem::take(&mut *self.lock()).entries;
        let Some(dir) = &self.cache.dir else {
            return;
        };
        if entries.len() < PACK_FROM {
            for (bucket, key, bytes) in &entries {
                if let Some(path) = self.cache.entry_path(bucket, key)
                    && self.cache.confined(&path)
                {
                    let _ = self.cache.write_sealed(&path, bytes);
                }
            }
        } else if self.cache.confined(&dir.join(pack::DIR)) {
            let _ = self.cache.ignore_in_git();
            let _ = pack::write(dir, &self.cache.key, &entries);
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.flush();
    }
}

impl DiskCache {
    /// The cache of the project at `root`.
    /// The cache of the project at `root`, sealed with the [`user_key`]
    /// (disabled when there is none).
    pub fn open(root: &Path) -> Self {
        match user_key() {
            Some(key) => DiskCache::sealed(cache_dir(root), root, key),
            None => DiskCache::disabled(),
        }
    }

    /// A cache in `dir` itself (benchmarks over trees that must not be
    /// written to), sealed with the [`user_key`].
    pub fn at(dir: &Path) -> Self {
        match user_key() {
            Some(key) => DiskCache::sealed(dir.to_path_buf(), dir, key),
            None => DiskCache::disabled(),
        }
    }

    /// A cache in `dir`, confined to `root`, sealed with `key`.
    pub fn sealed(dir: PathBuf, root: &Path, key: SealKey) -> Self {
        DiskCache {
            dir: Some(dir),
            root: Some(root.to_path_buf()),
            key,
            ..DiskCache::default()
        }
    }

    /// This cache with its writes batched: entries are kept (and served)
    /// in memory and written together as packs, when the batch is large,
    /// on [`DiskCache::flush`], or when the last handle goes. For one-shot
    /// runs that make many entries (a CLI build); a long-lived process
    /// writes each entry at once.
    pub fn batched(mut self) -> Self {
        if self.dir.is_some() && self.batch.is_none() {
            let cache = DiskCache {
                batch: None,
                ..self.clone()
            };
            self.batch = Some(Arc::new(Batch {
                cache,
                waiting: Mutex::default(),
            }));
        }
        self
    }

    /// Write the batched entries now (nothing when not batched).
    pub fn flush(&self) {
        if let Some(batch) = &self.batch {
            batch.flush();
        }
    }

    /// The packs' indexes, loaded once.
    fn packs(&self) -> Option<Arc<Packs>> {
        let dir = self.dir.as_ref()?;
        let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        Some(
            packs
                .get_or_insert_with(|| Arc::new(Packs::load(self.within(dir), dir, &self.key)))
                .clone(),
        )
    }

    /// A cache that stores nothing (tests, read-only use).
    pub fn disabled() -> Self {
        DiskCache::default()
    }

    /// Whether writing or deleting `path` stays inside the root.
    fn confined(&self, path: &Path) -> bool {
        self.root
            .as_deref()
            .is_some_and(|root| check_inside(root, path).is_ok())
    }

    /// The folder reads stay beneath: the root (`dir` itself without one).
    fn within<'a>(&'a self, dir: &'a Path) -> &'a Path {
        self.root.as_deref().unwrap_or(dir)
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
        self.dir.as_ref()?;
        // What this run has batched, then the packs (a warm build finds
        // everything there, without a failed open per entry), then the
        // loose entry. A bad entry in a pack stays there (packs are never
        // changed): the loose entry written after the miss is read next.
        let packed = match self.batch.as_ref().and_then(|b| b.get(bucket, key)) {
            Some(bytes) => Some(bytes),
            None => self.packs().and_then(|p| p.get(bucket, key)),
        };
        if let Some(payload) = packed.as_deref().and_then(|b| open_sealed(&self.key, b)) {
            return Some(payload.to_vec());
        }
        let path = self.entry_path(bucket, key)?;
        match read_entry(self.within(&path), &path, &self.key) {
            Loose::Missing => None,
            Loose::Sealed(payload) => Some(payload),
            Loose::Bad => {
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
            || self.batch.as_ref().is_some_and(|b| b.contains(bucket, key))
            || self.packs().is_some_and(|p| p.contains(bucket, key))
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
        let sealed = seal(&self.key, payload);
        if let Some(batch) = &self.batch {
            if batch.add(bucket, key, sealed) {
                batch.flush();
            }
            return;
        }
        if self.confined(&path) {
            let _ = self.write_sealed(&path, &sealed);
        }
    }

    /// Store `payload` under `key` as its own file, never in a pack: an
    /// entry rewritten often (one per project, say) replaces itself
    /// instead of leaving a copy in each pack. Failures are ignored.
    pub fn put_loose(&self, bucket: &str, key: &[u8; 32], payload: &[u8]) {
        let Some(path) = self.entry_path(bucket, key) else {
            return;
        };
        if self.confined(&path) {
            let _ = self.write_sealed(&path, &seal(&self.key, payload));
        }
    }

    fn write_sealed(&self, path: &Path, sealed: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().ok_or(std::io::ErrorKind::InvalidInput)?;
        if !dir.is_dir() {
            self.ignore_in_git()?;
            fs::create_dir_all(dir)?;
        }
        let mut tmp = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(dir)?;
        tmp.write_all(sealed)?;
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
            .filter(|bucket| bucket.file_name() != pack::DIR)
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
        // Entries in packs count with their bucket (fresh from disk: the
        // packs may have changed since this process first read them).
        for (name, (entries, bytes)) in Packs::load(self.within(dir), dir, &self.key).stats() {
            match out.iter_mut().find(|b| b.name == name) {
                Some(b) => {
                    b.entries += entries;
                    b.bytes += bytes;
                }
                None => out.push(BucketStats {
                    name,
                    entries,
                    bytes,
                }),
            }
        }
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
        *self.packs.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let packs = dir.join(pack::DIR);
        if fs::symlink_metadata(&packs).is_ok_and(|m| m.is_dir()) {
            for (file, entries) in Packs::files(self.within(dir), dir, &self.key) {
                if fs::remove_file(&file).is_ok() {
                    removed += entries;
                }
            }
            for entry in fs::read_dir(&packs).into_iter().flatten().flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let is_temp =
                    name.starts_with(pack::TEMP_PREFIX) && name.ends_with(pack::TEMP_SUFFIX);
                if is_temp && entry.file_type().is_ok_and(|t| t.is_file()) {
                    let _ = fs::remove_file(entry.path());
                }
            }
            let _ = fs::remove_dir(&packs);
        }
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

fn is_shard_name(name: &str) -> bool {
    is_lower_hex(name, 2)
}

/// An entry is named by the 64 hex digits of its key.
fn is_entry_name(name: &str) -> bool {
    is_lower_hex(name, 64)
}

/// What reading a loose entry found.
enum Loose {
    /// No regular file there (or one over [`MAX_ENTRY`], or unreadable).
    Missing,
    /// A file whose seal does not hold: damaged, or planted.
    Bad,
    /// The payload of an entry sealed under the user's key.
    Sealed(Vec<u8>),
}

/// Entries up to this size are read whole before their seal is checked;
/// a larger one is first streamed through the HMAC with a buffer this
/// size, so a planted entry costs reading, never its size in memory.
const READ_WHOLE: u64 = 64 << 10;

/// The entry at `path` if it is a regular file (not a link, FIFO or
/// device) of at most [`MAX_ENTRY`] bytes sealed under `key`.
fn read_entry(root: &Path, path: &Path, key: &SealKey) -> Loose {
    let Some(file) = open_regular(root, path) else {
        return Loose::Missing;
    };
    let Some(len) = file.metadata().ok().map(|m| m.len()) else {
        return Loose::Missing;
    };
    if len > MAX_ENTRY {
        return Loose::Missing;
    }
    if len > READ_WHOLE && !streamed_seal_holds(&file, key) {
        return Loose::Bad;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    let mut reader = &file;
    if std::io::Seek::rewind(&mut reader).is_err()
        || reader.take(len).read_to_end(&mut bytes).is_err()
    {
        return Loose::Missing;
    }
    // Checked again on the bytes kept: the file may have changed since.
    match open_sealed(key, &bytes) {
        Some(payload) => {
            let start = bytes.len() - payload.len();
            bytes.drain(..start);
            Loose::Sealed(bytes)
        }
        None => Loose::Bad,
    }
}

/// Whether the entry in `file` (read from its start, through a fixed
/// buffer) is sealed under `key`.
fn streamed_seal_holds(file: &fs::File, key: &SealKey) -> bool {
    let mut reader = std::io::BufReader::with_capacity(READ_WHOLE as usize, file);
    let mut head = [0u8; MAGIC.len() + 65];
    if reader.read_exact(&mut head).is_err() || &head[..MAGIC.len()] != MAGIC {
        return false;
    }
    let sum = &head[MAGIC.len()..];
    if sum[64] != b'\n' {
        return false;
    }
    let Some(sum) = std::str::from_utf8(&sum[..64]).ok().and_then(parse_hex_key) else {
        return false;
    };
    let mut m = mac(key);
    let mut buf = vec![0u8; READ_WHOLE as usize];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => m.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    m.verify_slice(&sum).is_ok()
}

/// An entry's bytes: the magic line, the HMAC-SHA256 of the payload under
/// `key` in hex, and the payload.
pub fn seal(key: &SealKey, payload: &[u8]) -> Vec<u8> {
    let mut m = mac(key);
    m.update(payload);
    let mut out = Vec::with_capacity(MAGIC.len() + 65 + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(hex(&m.finalize().into_bytes()).as_bytes());
    out.push(b'\n');
    out.extend_from_slice(payload);
    out
}

/// The payload of an entry sealed under `key`, or `None` for anything else.
fn open_sealed<'a>(key: &SealKey, bytes: &'a [u8]) -> Option<&'a [u8]> {
    let rest = bytes.strip_prefix(MAGIC)?;
    if rest.len() < 65 || rest[64] != b'\n' {
        return None;
    }
    let (sum, payload) = (&rest[..64], &rest[65..]);
    let sum = parse_hex_key(std::str::from_utf8(sum).ok()?)?;
    let mut m = mac(key);
    m.update(payload);
    m.verify_slice(&sum).ok().map(|()| payload)
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
    fn large_entries_are_checked_streaming_before_they_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path());
        let k = key(&[b"big"]);
        let big = vec![b'v'; 3 * READ_WHOLE as usize + 7];
        cache.put("views", &k, &big);
        assert_eq!(cache.get("views", &k).as_deref(), Some(&big[..]));
        // A planted entry as large as an entry may be (sparse: zeros),
        // and a real one damaged at its end: misses, and removed.
        let path = cache.entry_path("views", &k).unwrap();
        let mut bytes = fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert_eq!(cache.get("views", &k), None);
        assert!(!path.exists());
        let planted = fs::File::create(&path).unwrap();
        planted.set_len(MAX_ENTRY).unwrap();
        assert!(matches!(
            read_entry(dir.path(), &path, &cache.key),
            Loose::Bad
        ));
        assert_eq!(cache.get("views", &k), None);
        assert!(!path.exists());
    }

    #[test]
    fn disabled_stores_nothing() {
        let cache = DiskCache::disabled();
        cache.put("a", &key(&[b"1"]), b"1");
        assert_eq!(cache.get("a", &key(&[b"1"])), None);
        assert_eq!(cache.clear().unwrap(), 0);
    }

    #[test]
    fn entries_sealed_by_someone_else_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let k = key(&[b"summary of", b"some content hash"]);
        let theirs = DiskCache::sealed(cache_dir(root), root, [1; 32]);
        theirs.put("summary", &k, b"FORGED SUMMARY");
        assert_eq!(
            theirs.get("summary", &k).as_deref(),
            Some(&b"FORGED SUMMARY"[..])
        );
        // The same entry, read with this user's key.
        let mine = DiskCache::sealed(cache_dir(root), root, [2; 32]);
        assert_eq!(mine.get("summary", &k), None);

        // What anyone can compute (the unkeyed SHA-256 of the payload, the
        // format before entries were sealed) is no entry either.
        let path = mine.entry_path("summary", &k).unwrap();
        let mut forged = MAGIC.to_vec();
        forged.extend_from_slice(hex(&Sha256::digest(b"FORGED")).as_bytes());
        forged.push(b'\n');
        forged.extend_from_slice(b"FORGED");
        std::fs::write(&path, &forged).unwrap();
        assert_eq!(mine.get("summary", &k), None);
        let mut old = b"ctxcurate-cache 1\n".to_vec();
        old.extend_from_slice(&forged[MAGIC.len()..]);
        std::fs::write(&path, &old).unwrap();
        assert_eq!(mine.get("summary", &k), None);
    }

    #[test]
    fn the_user_key_is_made_once_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/ctxcurate").join(KEY_FILE);
        let first = load_or_create_key(&path).unwrap();
        assert_eq!(load_or_create_key(&path).unwrap(), first);
        assert_ne!(first, [0; 32]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Another file gives another key; a damaged file is an error,
        // never silently replaced (another process may be using it).
        let other = load_or_create_key(&dir.path().join("other.key")).unwrap();
        assert_ne!(other, first);
        std::fs::write(&path, "not hex\n").unwrap();
        assert!(load_or_create_key(&path).is_err());
    }
}
