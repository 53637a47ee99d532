//! What a pass over every file of the project derives (each file's terms,
//! imports, identifiers), kept as a few sealed cache entries per name
//! instead of one per file, so a warm task build on 100,000 files reads 64
//! entries per name, not 100,000: one read and one seal check each, where
//! a lookup per file cost a read, a seal check and a key of its own.
//!
//! A bundle is split into [`SHARDS`] shards by the file's path, so an edit
//! rewrites the one shard that holds the file, and each shard stays far
//! below the cache's entry cap. Entries are keyed by the derived text's
//! own key (content hash, path, name, version), so a shard can never serve
//! a text for content it was not made from: a stale entry is only unused.
//! A shard is loaded on its first lookup and written back when the
//! [`Sources`] holding it goes, only if this run added to it or used less
//! than half of it (what it did not use is dropped: the file changed or
//! went). Loaded shards count against a byte cap; past it, lookups fall
//! back to the per-file entries, which are still written.
//!
//! [`Sources`]: super::Sources

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use rustc_hash::FxHashMap;

use crate::core::store::{DiskCache, disk::MAX_ENTRY};

/// Shards per bundle name.
pub const SHARDS: usize = 64;

/// The cache bucket of every shard.
const BUCKET: &str = "bundles";

/// Bytes of entry framing: the key and the text's length.
const FRAME: usize = 32 + 4;

/// What loaded shards may hold in all, by default (a bound on memory: a
/// project past it reads its per-file entries, as before).
pub const DEFAULT_CAP: usize = 256 << 20;

/// Every bundle of one cache, by name.
#[derive(Debug, Default)]
pub struct Bundles {
    by_name: RwLock<HashMap<String, Arc<Bundle>>>,
    /// Bytes of the shards loaded so far.
    loaded: AtomicUsize,
    /// What they may hold ([`DEFAULT_CAP`] unless set).
    cap: OnceLock<usize>,
    /// The cache shards are read from and written to (set on first use).
    disk: OnceLock<DiskCache>,
}

/// One name's shards.
#[derive(Debug)]
struct Bundle {
    name: String,
    shards: Vec<OnceLock<Option<Shard>>>,
}

/// One shard as loaded: its entries, which of them this run used, and what
/// it added.
#[derive(Debug)]
struct Shard {
    entries: FxHashMap<[u8; 32], (Arc<str>, usize)>,
    used: Vec<AtomicBool>,
    added: Mutex<Vec<([u8; 32], Arc<str>)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn read<T>(m: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(m: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(|e| e.into_inner())
}

impl Bundles {
    /// Bound what loaded shards hold to `bytes` (before the first lookup).
    pub fn set_cap(&self, bytes: usize) {
        let _ = self.cap.set(bytes);
    }

    /// The text under `key` in `name`'s shard for `rel`, if a bundle holds
    /// it (the shard is loaded from `disk` on first use).
    pub fn get(&self, disk: &DiskCache, name: &str, rel: &str, key: &[u8; 32]) -> Option<Arc<str>> {
        self.with_shard(disk, name, rel, |shard| {
            let (text, at) = shard.entries.get(key)?;
            shard.used.get(*at)?.store(true, Ordering::Relaxed);
            Some(text.clone())
        })?
    }

    /// Keep `text` under `key` in `name`'s shard for `rel`, to be written
    /// when the bundles go.
    pub fn add(&self, disk: &DiskCache, name: &str, rel: &str, key: [u8; 32], text: Arc<str>) {
        self.with_shard(disk, name, rel, |shard| {
            lock(&shard.added).push((key, text))
        });
    }

    /// `f` of the shard of `name` that holds `rel`, loaded; `None` without
    /// a disk cache or past the cap.
    fn with_shard<R>(
        &self,
        disk: &DiskCache,
        name: &str,
        rel: &str,
        f: impl FnOnce(&Shard) -> R,
    ) -> Option<R> {
        disk.dir()?;
        let _ = self.disk.set(disk.clone());
        let known = read(&self.by_name).get(name).cloned();
        let bundle = match known {
            Some(bundle) => bundle,
            None => write(&self.by_name)
                .entry(name.to_string())
                .or_insert_with(|| {
                    Arc::new(Bundle {
                        name: name.to_string(),
                        shards: (0..SHARDS).map(|_| OnceLock::new()).collect(),
                    })
                })
                .clone(),
        };
        let at = shard_of(rel);
        let shard = bundle
            .shards
            .get(at)?
            .get_or_init(|| self.load(disk, name, at));
        shard.as_ref().map(f)
    }

    fn load(&self, disk: &DiskCache, name: &str, at: usize) -> Option<Shard> {
        let cap = *self.cap.get_or_init(|| DEFAULT_CAP);
        let bytes = disk.get(BUCKET, &shard_key(name, at));
        let size = bytes.as_ref().map_or(0, Vec::len);
        if self.loaded.fetch_add(size, Ordering::Relaxed) + size > cap {
            return None;
        }
        let (entries, count) = bytes.and_then(|b| decode(&b)).unwrap_or_default();
        let used = (0..count).map(|_| AtomicBool::new(false)).collect();
        Some(Shard {
            entries,
            used,
            added: Mutex::new(Vec::new()),
        })
    }

    /// Write each shard this run added to, or used less than half of,
    /// with what it used and added.
    pub fn save(&self) {
        let Some(disk) = self.disk.get() else {
            return;
        };
        let bundles: Vec<Arc<Bundle>> = read(&self.by_name).values().cloned().collect();
        for bundle in bundles {
            for (at, slot) in bundle.shards.iter().enumerate() {
                let Some(Some(shard)) = slot.get() else {
                    continue;
                };
                let added = std::mem::take(&mut *lock(&shard.added));
                let used = shard
                    .used
                    .iter()
                    .filter(|u| u.load(Ordering::Relaxed))
                    .count();
                if added.is_empty() && 2 * used >= shard.entries.len() {
                    continue;
                }
                let mut keep: Vec<([u8; 32], &str)> = shard
                    .entries
                    .iter()
                    .filter(|(_, (_, i))| {
                        shard
                            .used
                            .get(*i)
                            .is_some_and(|u| u.load(Ordering::Relaxed))
                    })
                    .map(|(k, (t, _))| (*k, &**t))
                    .collect();
                keep.extend(added.iter().map(|(k, t)| (*k, &**t)));
                keep.sort_unstable_by_key(|e| e.0);
                keep.dedup_by(|a, b| a.0 == b.0);
                let bytes = encode(&keep);
                if (bytes.len() as u64) < MAX_ENTRY - 1024 {
                    disk.put_loose(BUCKET, &shard_key(&bundle.name, at), &bytes);
                }
            }
        }
    }
}

impl Drop for Bundles {
    fn drop(&mut self) {
        self.save();
    }
}

/// Which shard holds `rel` (FNV-1a of the path: stable across runs and
/// machines).
fn shard_of(rel: &str) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rel.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % SHARDS as u64) as usize
}

fn shard_key(name: &str, at: usize) -> [u8; 32] {
    crate::core::store::disk::key(&[b"bundle-v1", name.as_bytes(), &at.to_le_bytes()])
}

fn encode(entries: &[([u8; 32], &str)]) -> Vec<u8> {
    let size: usize = entries.iter().map(|(_, t)| FRAME + t.len()).sum();
    let mut out = Vec::with_capacity(size);
    for (key, text) in entries {
        let Ok(len) = u32::try_from(text.len()) else {
            continue;
        };
        out.extend_from_slice(key);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    out
}

/// The entries written by [`encode`], each with its place, and how many
/// places there are; `None` when cut short or not UTF-8 (the seal makes
/// that unlikely: the shard is then made anew).
type Decoded = (FxHashMap<[u8; 32], (Arc<str>, usize)>, usize);

fn decode(mut bytes: &[u8]) -> Option<Decoded> {
    let mut entries = FxHashMap::default();
    let mut count = 0;
    while !bytes.is_empty() {
        let (key, rest) = bytes.split_at_checked(32)?;
        let (len, rest) = rest.split_at_checked(4)?;
        let len = usize::try_from(u32::from_le_bytes(len.try_into().ok()?)).ok()?;
        let (text, rest) = rest.split_at_checked(len)?;
        let text: Arc<str> = std::str::from_utf8(text).ok()?.into();
        entries.insert(key.try_into().ok()?, (text, count));
        count += 1;
        bytes = rest;
    }
    Some((entries, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_reads_back_what_it_wrote_and_refuses_a_cut() {
        let entries = [([1; 32], "alpha\n"), ([2; 32], ""), ([3; 32], "ü")];
        let bytes = encode(&entries);
        let (decoded, count) = decode(&bytes).unwrap();
        assert_eq!(count, 3);
        for (key, text) in entries {
            assert_eq!(decoded.get(&key).map(|(t, _)| &**t), Some(text));
        }
        assert!(decode(&bytes[..bytes.len() - 1]).is_none());
        assert!(decode(&bytes[..10]).is_none());
        assert_eq!(decode(&[]).map(|d| d.1), Some(0));
    }

    #[test]
    fn a_key_twice_keeps_every_place_in_bounds() {
        let bytes = encode(&[([7; 32], "one"), ([7; 32], "two")]);
        let (decoded, count) = decode(&bytes).unwrap();
        assert_eq!(decoded.len(), 1);
        assert!(decoded.values().all(|(_, at)| *at < count));
    }

    #[test]
    fn unused_entries_are_dropped_and_a_cap_stops_loading() {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskCache::at(dir.path());
        let (a, b) = ([1; 32], [2; 32]);
        {
            let bundles = Bundles::default();
            bundles.add(&disk, "n", "x.py", a, "A".into());
            bundles.add(&disk, "n", "x.py", b, "B".into());
            bundles.add(&disk, "n", "x.py", [3; 32], "C".into());
        }
        {
            // Only `a` is used, less than half: the shard is rewritten
            // without the others.
            let bundles = Bundles::default();
            assert_eq!(bundles.get(&disk, "n", "x.py", &a).as_deref(), Some("A"));
        }
        let bundles = Bundles::default();
        assert_eq!(bundles.get(&disk, "n", "x.py", &b), None);
        assert_eq!(bundles.get(&disk, "n", "x.py", &a).as_deref(), Some("A"));

        let capped = Bundles::default();
        capped.set_cap(1);
        assert_eq!(capped.get(&disk, "n", "x.py", &a), None);
        assert_eq!(
            Bundles::default().get(&DiskCache::disabled(), "n", "x.py", &a),
            None
        );
    }
}
