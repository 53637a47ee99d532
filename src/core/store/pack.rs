//! Pack files: many sealed cache entries written as one file,
//! `cache/packs/{name}.pack`, so that a build that makes thousands of
//! entries creates one file instead of thousands (creating files, not
//! writing bytes, was a fifth of a cold skeleton build).
//!
//! A pack is written once to a temporary file and renamed into place, and
//! never changed after. It starts with a header (magic line, entry count,
//! index length and an HMAC of the index under the user's seal key), then
//! the index (bucket, key, offset and length of each entry), then the
//! entries, each sealed as a loose entry is ([`super::disk::seal`]).
//!
//! `.ctxcurate/cache` may come with a cloned repository, so a pack is
//! hostile until its index's seal holds: the file must be a regular file
//! reached without a link, the declared index must fit the file and
//! [`MAX_INDEX_BYTES`], and it is streamed through the HMAC with a fixed
//! buffer before a single entry is parsed or stored. What all packs may
//! make a process read before that check is bounded ([`INDEX_BUDGET`]),
//! as is what verified indexes may hold ([`MAX_ENTRIES`]), so a planted
//! folder of sparse or forged packs costs bounded time and no memory. A
//! pack that fails any check is skipped whole; each payload is still
//! checked under the seal key when read.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::Path;

use hmac::Mac;

use super::seal::{MAX_ENTRY, SealKey, is_lower_hex, mac, open_regular};

/// The first line of every pack; a new format gets a new magic (packs of
/// format 1 had no sealed index: they are now skipped, and recomputed).
const MAGIC: &[u8] = b"ctxcurate-pack 2\n";

/// Magic, entry count (u32), index length (u64), index HMAC (32 bytes).
const HEADER_LEN: usize = MAGIC.len() + 4 + 8 + 32;

/// The folder of the packs inside the cache folder (never a bucket name).
pub const DIR: &str = "packs";

/// The file name suffix of a pack.
const SUFFIX: &str = ".pack";

/// Prefix and suffix of a pack being written.
pub const TEMP_PREFIX: &str = ".tmp-pack-";
pub const TEMP_SUFFIX: &str = ".tmp";

/// All packs of a cache together hold at most this many entries (a bound
/// on the memory of the loaded indexes; later packs are left out, their
/// entries recomputed). A build writes a few per file.
pub const MAX_ENTRIES: usize = 1 << 21;

/// One pack's index is at most this long (a record is ~60 bytes: over a
/// million entries).
pub const MAX_INDEX_BYTES: u64 = 64 << 20;

/// How many index bytes all packs together may make a process read (and
/// hash) before their seals are checked; packs past it are skipped.
pub const INDEX_BUDGET: u64 = 256 << 20;

/// The buffer indexes are streamed through while their seal is checked.
const CHUNK: usize = 64 << 10;

/// One entry to write: bucket, key and the sealed bytes.
pub type Entry = (String, [u8; 32], Vec<u8>);

/// Where an entry is: which pack, at what offset, how long.
#[derive(Debug, Clone, Copy)]
struct Place {
    pack: usize,
    offset: u64,
    len: u64,
}

/// The entries of every pack in a cache folder, as found when loaded.
#[derive(Debug, Default)]
pub struct Packs {
    files: Vec<File>,
    /// The bucket names seen (a handful): places name them by index.
    buckets: Vec<String>,
    /// By bucket and key; the keys are SHA-256 digests, so a plain fast
    /// hash spreads them.
    places: rustc_hash::FxHashMap<(usize, [u8; 32]), Place>,
    /// Index bytes read before their seal was checked (at most
    /// [`INDEX_BUDGET`]).
    unverified: u64,
}

/// What loading may still spend: index bytes to read, entries to hold.
struct Budget {
    bytes: u64,
    entries: usize,
}

impl Packs {
    /// Read the index of every pack in `cache_dir/packs` whose index is
    /// sealed under `key`; packs that fail a check, or come after the
    /// budgets ran out, are left out.
    /// Packs are opened beneath `root` (see `open_regular`).
    pub fn load(root: &Path, cache_dir: &Path, key: &SealKey) -> Packs {
        use rayon::prelude::*;
        let mut packs = Packs::default();
        let mut budget = Budget {
            bytes: INDEX_BUDGET,
            entries: MAX_ENTRIES,
        };
        // Which indexes may be read is settled in order, from their
        // headers; they are checked and parsed in parallel.
        let mut heads = Vec::new();
        for path in pack_paths(cache_dir) {
            if budget.bytes == 0 {
                break;
            }
            let Some(file) = open_regular(root, &path) else {
                continue;
            };
            let before = budget.bytes;
            let head = read_head(&file, &mut budget);
            packs.unverified += before - budget.bytes;
            if let Some(head) = head {
                heads.push((file, head));
            }
        }
        let indexes: Vec<Option<Index>> = heads
            .par_iter()
            .map(|(file, head)| parse_index(file, key, head))
            .collect();
        let total: usize = indexes.iter().flatten().map(Index::len).sum();
        packs.places.reserve(total.min(budget.entries));
        for ((file, _), index) in heads.into_iter().zip(indexes) {
            let Some(index) = index else {
                continue;
            };
            if index.len() > budget.entries {
                continue;
            }
            budget.entries -= index.len();
            let pack = packs.files.len();
            packs.files.push(file);
            let buckets: Vec<usize> = index
                .buckets
                .into_iter()
                .map(
                    |bucket| match packs.buckets.iter().position(|b| *b == bucket) {
                        Some(at) => at,
                        None => {
                            packs.buckets.push(bucket);
                            packs.buckets.len() - 1
                        }
                    },
                )
                .collect();
            for (bucket, key, offset, len) in index.records {
                packs.places.insert(
                    (buckets[usize::from(bucket)], key),
                    Place { pack, offset, len },
                );
            }
        }
        packs
    }

    /// Each pack file in `cache_dir/packs` (named as packs are) with its
    /// number of entries (0 for a pack that fails the checks).
    pub fn files(root: &Path, cache_dir: &Path, key: &SealKey) -> Vec<(std::path::PathBuf, usize)> {
        let mut budget = Budget {
            bytes: INDEX_BUDGET,
            entries: MAX_ENTRIES,
        };
        pack_paths(cache_dir)
            .into_iter()
            .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
            .map(|path| {
                let entries = open_regular(root, &path)
                    .and_then(|f| read_index(&f, key, &mut budget))
                    .map_or(0, |index| index.len());
                (path, entries)
            })
            .collect()
    }

    /// How many index bytes were read before their seal was checked.
    #[cfg(test)]
    pub fn unverified_bytes(&self) -> u64 {
        self.unverified
    }

    /// The sealed bytes of `bucket`/`key`, if a pack holds them.
    pub fn get(&self, bucket: &str, key: &[u8; 32]) -> Option<Vec<u8>> {
        let place = self.place(bucket, key)?;
        let file = self.files.get(place.pack)?;
        // The length comes from a sealed index, and is at most MAX_ENTRY.
        let mut bytes = vec![0; usize::try_from(place.len).ok()?];
        read_exact_at(file, &mut bytes, place.offset).ok()?;
        Some(bytes)
    }

    /// Whether a pack holds `bucket`/`key`.
    pub fn contains(&self, bucket: &str, key: &[u8; 32]) -> bool {
        self.place(bucket, key).is_some()
    }

    fn place(&self, bucket: &str, key: &[u8; 32]) -> Option<&Place> {
        let bucket = self.buckets.iter().position(|b| b == bucket)?;
        self.places.get(&(bucket, *key))
    }

    /// Entries and bytes per bucket.
    pub fn stats(&self) -> HashMap<String, (usize, u64)> {
        let mut out: HashMap<String, (usize, u64)> = HashMap::new();
        for ((bucket, _), place) in &self.places {
            let s = out.entry(self.buckets[*bucket].clone()).or_default();
            s.0 += 1;
            s.1 += place.len;
        }
        out
    }
}

/// Write `entries` as one pack in `cache_dir/packs`, its index sealed
/// under `key`.
pub fn write(cache_dir: &Path, key: &SealKey, entries: &[Entry]) -> std::io::Result<()> {
    let dir = cache_dir.join(DIR);
    fs::create_dir_all(&dir)?;
    let count = u32::try_from(entries.len()).map_err(std::io::Error::other)?;
    let index_len: usize = entries
        .iter()
        .map(|(bucket, _, _)| 1 + bucket.len() + 32 + 16)
        .sum();
    let mut offset = (HEADER_LEN + index_len) as u64;
    let mut index = Vec::with_capacity(index_len);
    let mut name = sha2::Sha256::default();
    for (bucket, entry_key, bytes) in entries {
        let bucket = bucket.as_bytes();
        index.push(u8::try_from(bucket.len()).map_err(std::io::Error::other)?);
        index.extend_from_slice(bucket);
        index.extend_from_slice(entry_key);
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        offset += bytes.len() as u64;
        sha2::Digest::update(&mut name, entry_key);
    }
    let index_len = index.len() as u64;
    if index_len > MAX_INDEX_BYTES {
        return Err(std::io::Error::other("pack index too large"));
    }
    let mut seal = mac(key);
    seal.update(&count.to_le_bytes());
    seal.update(&index_len.to_le_bytes());
    seal.update(&index);
    let name = crate::core::tokens::hex(&sha2::Digest::finalize(name)[..16]);
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(&dir)?;
    {
        let mut out = std::io::BufWriter::new(tmp.as_file_mut());
        out.write_all(MAGIC)?;
        out.write_all(&count.to_le_bytes())?;
        out.write_all(&index_len.to_le_bytes())?;
        out.write_all(&seal.finalize().into_bytes())?;
        out.write_all(&index)?;
        for (_, _, bytes) in entries {
            out.write_all(bytes)?;
        }
        out.flush()?;
    }
    tmp.persist(dir.join(format!("{name}{SUFFIX}")))
        .map_err(|e| e.error)?;
    Ok(())
}

/// A pack is named by 32 hex digits.
pub fn is_pack_name(name: &str) -> bool {
    name.strip_suffix(SUFFIX)
        .is_some_and(|stem| is_lower_hex(stem, 32))
}

/// The pack files in `cache_dir/packs`, sorted (none when the folder is
/// missing or a link).
fn pack_paths(cache_dir: &Path) -> Vec<std::path::PathBuf> {
    let dir = cache_dir.join(DIR);
    if !fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
        return Vec::new();
    }
    let mut paths: Vec<std::path::PathBuf> = fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| is_pack_name(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    paths.sort();
    paths
}

/// One index record: bucket (by its place in [`Index::buckets`]), key,
/// offset and length of an entry.
type Record = (u16, [u8; 32], u64, u64);

/// A pack's index: its bucket names (a handful) and records.
struct Index {
    buckets: Vec<String>,
    records: Vec<Record>,
}

impl Index {
    fn len(&self) -> usize {
        self.records.len()
    }
}

/// What a pack's header declares, checked against the file and budget.
struct Head {
    bytes: [u8; HEADER_LEN],
    count: usize,
    index_len: u64,
    file_len: u64,
}

/// A pack's index, when its seal holds under `key` and every record fits
/// the file; the index bytes read are taken from `budget` (all of them
/// before the seal is known), the records from its entries.
fn read_index(file: &File, key: &SealKey, budget: &mut Budget) -> Option<Index> {
    let head = read_head(file, budget)?;
    let index = parse_index(file, key, &head)?;
    budget.entries = budget.entries.checked_sub(index.len())?;
    Some(index)
}

/// A pack's header, when it declares an index that fits the file and
/// `budget` (whose bytes it takes: they are read before the seal is
/// known) and may hold the entries budget.
fn read_head(file: &File, budget: &mut Budget) -> Option<Head> {
    let file_len = file.metadata().ok()?.len();
    let mut head = [0u8; HEADER_LEN];
    read_exact_at(file, &mut head, 0).ok()?;
    let (magic, rest) = head.split_at(MAGIC.len());
    if magic != MAGIC {
        return None;
    }
    let (count, rest) = rest.split_at(4);
    let index_len = &rest[..8];
    let count = usize::try_from(u32::from_le_bytes(count.try_into().ok()?)).ok()?;
    let index_len = u64::from_le_bytes(index_len.try_into().ok()?);
    // Rejected before a byte of the index is read: more than it may hold,
    // longer than the file, shorter than its records.
    let fits = (HEADER_LEN as u64)
        .checked_add(index_len)
        .is_some_and(|end| end <= file_len);
    let min_len = (count as u64).saturating_mul(1 + 32 + 16);
    if count > budget.entries || !fits || index_len > MAX_INDEX_BYTES || index_len < min_len {
        return None;
    }
    if index_len > budget.bytes {
        budget.bytes = 0;
        return None;
    }
    budget.bytes -= index_len;
    Some(Head {
        bytes: head,
        count,
        index_len,
        file_len,
    })
}

/// The index `head` declares, when its seal holds under `key` and every
/// record fits the file.
fn parse_index(file: &File, key: &SealKey, head: &Head) -> Option<Index> {
    let Head {
        count,
        index_len,
        file_len,
        ..
    } = *head;
    if !index_sealed(file, key, &head.bytes, index_len) {
        return None;
    }
    let mut reader = std::io::BufReader::with_capacity(CHUNK, file);
    std::io::Seek::seek(&mut reader, std::io::SeekFrom::Start(HEADER_LEN as u64)).ok()?;
    let mut reader = reader.take(index_len);
    let mut index = Index {
        buckets: Vec::new(),
        records: Vec::with_capacity(count),
    };
    let mut name = [0u8; 255];
    for _ in 0..count {
        let [bucket_len] = read_array::<1>(&mut reader)?;
        let name = &mut name[..usize::from(bucket_len)];
        reader.read_exact(name).ok()?;
        let bucket = match index.buckets.iter().position(|b| b.as_bytes() == name) {
            Some(at) => at,
            None => {
                index.buckets.push(String::from_utf8(name.to_vec()).ok()?);
                index.buckets.len() - 1
            }
        };
        let entry_key: [u8; 32] = read_array(&mut reader)?;
        let offset = u64::from_le_bytes(read_array(&mut reader)?);
        let len = u64::from_le_bytes(read_array(&mut reader)?);
        let fits = offset.checked_add(len).is_some_and(|end| end <= file_len);
        if !fits || len > MAX_ENTRY {
            return None;
        }
        index
            .records
            .push((u16::try_from(bucket).ok()?, entry_key, offset, len));
    }
    Some(index)
}

/// Whether the `index_len` bytes after the header hash, with the header's
/// count and length, to the header's HMAC under `key`: streamed through a
/// fixed buffer, so a forged index costs reading, never memory.
fn index_sealed(file: &File, key: &SealKey, head: &[u8; HEADER_LEN], index_len: u64) -> bool {
    let counts = &head[MAGIC.len()..MAGIC.len() + 12];
    let sum = &head[MAGIC.len() + 12..];
    let mut seal = mac(key);
    seal.update(counts);
    let mut buf = vec![0u8; CHUNK];
    let mut at = HEADER_LEN as u64;
    let end = at + index_len;
    while at < end {
        let n = usize::try_from((end - at).min(CHUNK as u64)).unwrap_or(CHUNK);
        if read_exact_at(file, &mut buf[..n], at).is_err() {
            return false;
        }
        seal.update(&buf[..n]);
        at += n as u64;
    }
    seal.verify_slice(sum).is_ok()
}

fn read_array<const N: usize>(from: &mut impl Read) -> Option<[u8; N]> {
    let mut out = [0; N];
    from.read_exact(&mut out).ok()?;
    Some(out)
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut file = file;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

#[cfg(test)]
mod tests {
    use super::super::disk::{DiskCache, cache_dir, key, seal, user_key};
    use super::*;

    fn seal_key() -> SealKey {
        user_key().unwrap()
    }

    /// `n` entries put through a batched cache in `root`, then written.
    fn batched(root: &Path, n: usize) -> Vec<[u8; 32]> {
        let cache = DiskCache::open(root).batched();
        let keys: Vec<[u8; 32]> = (0..n).map(|i| key(&[i.to_string().as_bytes()])).collect();
        for (i, k) in keys.iter().enumerate() {
            cache.put("views", k, format!("view {i}").as_bytes());
        }
        // Served from the batch before anything is written.
        assert_eq!(cache.get_text("views", &keys[0]).as_deref(), Some("view 0"));
        assert!(cache.contains("views", &keys[0]));
        keys
    }

    fn pack_files(root: &Path) -> Vec<std::path::PathBuf> {
        Packs::files(root, &cache_dir(root), &seal_key())
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    }

    #[test]
    fn a_batch_becomes_one_pack_that_a_later_run_reads() {
        let dir = tempfile::tempdir().unwrap();
        let keys = batched(dir.path(), 100);
        // Written when the last handle went: one file, no loose entries.
        let packs = pack_files(dir.path());
        assert_eq!(packs.len(), 1);
        assert!(!cache_dir(dir.path()).join("views").exists());
        let again = DiskCache::open(dir.path());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(again.get_text("views", k), Some(format!("view {i}")));
        }
        assert!(again.contains("views", &keys[99]));
        assert_eq!(again.get("other", &keys[0]), None, "buckets are separate");
        let stats = again.stats();
        assert_eq!(stats.len(), 1, "{stats:?}");
        assert_eq!((stats[0].name.as_str(), stats[0].entries), ("views", 100));
        assert_eq!(again.clear().unwrap(), 100);
        assert!(pack_files(dir.path()).is_empty());
        assert_eq!(again.get("views", &keys[0]), None, "forgotten after clear");
        assert!(dir.path().join(".ctxcurate/.gitignore").exists());
    }

    #[test]
    fn a_small_batch_is_written_as_loose_entries() {
        let dir = tempfile::tempdir().unwrap();
        let keys = batched(dir.path(), 3);
        assert!(pack_files(dir.path()).is_empty());
        let again = DiskCache::open(dir.path());
        assert_eq!(again.get_text("views", &keys[2]).as_deref(), Some("view 2"));
        assert_eq!(again.clear().unwrap(), 3);
    }

    #[test]
    fn a_loose_entry_stands_in_for_a_bad_packed_one() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let keys = batched(root, 40);
        // The last entry's payload damaged: that entry fails its seal...
        let pack = pack_files(root).remove(0);
        let mut bytes = fs::read(&pack).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&pack, &bytes).unwrap();
        assert_eq!(DiskCache::open(root).get("views", &keys[39]), None);
        // ...and the loose entry written after the miss is served.
        DiskCache::open(root).put("views", &keys[39], b"again");
        let again = DiskCache::open(root);
        assert_eq!(again.get_text("views", &keys[39]).as_deref(), Some("again"));
        assert_eq!(again.get_text("views", &keys[1]).as_deref(), Some("view 1"));
    }

    #[test]
    fn damaged_or_foreign_packs_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let keys = batched(root, 40);
        let pack = pack_files(root).remove(0);
        let good = fs::read(&pack).unwrap();
        let read_all = || {
            let cache = DiskCache::open(root);
            keys.iter()
                .filter(|k| cache.get("views", k).is_some())
                .count()
        };
        assert_eq!(read_all(), 40);
        // Truncated: the index no longer fits the file.
        fs::write(&pack, &good[..good.len() / 2]).unwrap();
        assert_eq!(read_all(), 0);
        // A payload changed: that entry alone fails its seal.
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        fs::write(&pack, &bad).unwrap();
        assert_eq!(read_all(), 39);
        // Garbage, an absurd count, an empty file.
        for junk in [
            b"ctxcurate-pack 2\n\xff\xff\xff\xff".to_vec(),
            b"not a pack".to_vec(),
            Vec::new(),
        ] {
            fs::write(&pack, &junk).unwrap();
            assert_eq!(read_all(), 0);
        }
        // Sealed under someone else's key.
        fs::remove_file(&pack).unwrap();
        let theirs = DiskCache::sealed(cache_dir(root), root, [9; 32]).batched();
        for k in &keys {
            theirs.put("views", k, b"FORGED");
        }
        drop(theirs);
        assert_eq!(pack_files(root).len(), 1);
        assert_eq!(read_all(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn linked_packs_are_not_read_or_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path();
        let keys = batched(root, 40);
        let pack = pack_files(root).remove(0);
        let target = outside.path().join("p.pack");
        fs::rename(&pack, &target).unwrap();
        std::os::unix::fs::symlink(&target, &pack).unwrap();
        assert_eq!(DiskCache::open(root).get("views", &keys[0]), None);
        DiskCache::open(root).clear().unwrap();
        assert!(target.exists(), "the link's target is left alone");
        // The packs folder itself a link: not read, nothing deleted there.
        let packs = cache_dir(root).join(DIR);
        let _ = fs::remove_file(&pack);
        let _ = fs::remove_dir_all(&packs);
        fs::create_dir_all(outside.path().join("packs")).unwrap();
        let planted = outside.path().join("packs").join(pack.file_name().unwrap());
        fs::copy(&target, &planted).unwrap();
        std::os::unix::fs::symlink(outside.path().join("packs"), &packs).unwrap();
        assert_eq!(DiskCache::open(root).get("views", &keys[0]), None);
        DiskCache::open(root).clear().unwrap();
        assert!(planted.exists());
    }

    #[test]
    fn a_large_batch_is_written_as_it_grows() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path()).batched();
        let big = vec![b'x'; 1 << 20];
        for i in 0..70u32 {
            cache.put("views", &key(&[&i.to_le_bytes()]), &big);
        }
        // Past the batch bound once already, before the handle goes.
        assert_eq!(pack_files(dir.path()).len(), 1);
        drop(cache);
        assert_eq!(pack_files(dir.path()).len(), 1, "6 MB left: loose");
    }

    /// A pack in the format before indexes were sealed (magic, count,
    /// records, payloads), as anyone can write one: `entries` of `views`
    /// under `k`, each pointing at `payload`.
    fn unsealed_pack(k: &[u8; 32], entries: u32, payload: &[u8]) -> Vec<u8> {
        let mut out = b"ctxcurate-pack 1\n".to_vec();
        out.extend_from_slice(&entries.to_le_bytes());
        let index_end = out.len() as u64 + u64::from(entries) * (1 + 5 + 32 + 16);
        for _ in 0..entries {
            out.push(5);
            out.extend_from_slice(b"views");
            out.extend_from_slice(k);
            out.extend_from_slice(&index_end.to_le_bytes());
            out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        }
        out.extend_from_slice(payload);
        out
    }

    /// Attack: a repository ships `.ctxcurate/cache/packs` full of
    /// indexes (forged, huge, sparse). Nothing of an index is parsed or
    /// kept before its seal holds, and what is read before is bounded.
    #[test]
    fn planted_indexes_are_refused_before_they_are_parsed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let packs = cache_dir(root).join(DIR);
        fs::create_dir_all(&packs).unwrap();
        let k = key(&[b"a file's content hash"]);
        let plant = |n: u8, bytes: &[u8]| {
            let path = packs.join(format!("{:032x}.pack", n));
            fs::write(&path, bytes).unwrap();
            path
        };
        // A well-formed index with a payload sealed under someone's key,
        // in the old unsealed format and in the new one with a forged seal.
        let forged = seal(&[1; 32], b"FORGED VIEW");
        plant(1, &unsealed_pack(&k, 3, &forged));
        let mut new = MAGIC.to_vec();
        new.extend_from_slice(&1u32.to_le_bytes());
        new.extend_from_slice(&(1 + 5 + 32 + 16u64).to_le_bytes());
        new.extend_from_slice(&[0xab; 32]);
        new.extend_from_slice(&unsealed_pack(&k, 1, &forged)[MAGIC.len() + 4..]);
        plant(2, &new);
        // Sparse files that declare the most they can: a huge count, a
        // huge index, and one that is read in full (16 MiB) and fails.
        let sparse = |n: u8, count: u32, index_len: u64| {
            let mut head = MAGIC.to_vec();
            head.extend_from_slice(&count.to_le_bytes());
            head.extend_from_slice(&index_len.to_le_bytes());
            head.extend_from_slice(&[0; 32]);
            let path = plant(n, &head);
            fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(1 << 32)
                .unwrap();
        };
        sparse(3, u32::MAX, 1 << 30);
        sparse(4, 1000, MAX_INDEX_BYTES + 1);
        sparse(5, 1000, 16 << 20);
        sparse(6, 1000, u64::MAX);

        let loaded = Packs::load(root, &cache_dir(root), &seal_key());
        assert!(loaded.stats().is_empty(), "{:?}", loaded.stats());
        assert!(loaded.places.is_empty() && loaded.files.is_empty());
        assert!(loaded.unverified_bytes() <= INDEX_BUDGET);
        assert_eq!(
            loaded.unverified_bytes(),
            (1 + 5 + 32 + 16) + (16 << 20),
            "only the forged-seal index and the 16 MiB one are read"
        );
        let cache = DiskCache::open(root);
        assert!(
            !cache.contains("views", &k),
            "a planted index marks nothing"
        );
        assert_eq!(cache.get("views", &k), None);
        assert!(cache.stats().is_empty());
        // The cache still works: a batch written now is found next run.
        let keys = batched(root, 40);
        let again = DiskCache::open(root);
        assert_eq!(again.get_text("views", &keys[3]).as_deref(), Some("view 3"));
    }

    #[test]
    fn the_index_budget_stops_reading() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        batched(root, 40);
        let mut budget = Budget {
            bytes: 10,
            entries: MAX_ENTRIES,
        };
        let file = open_regular(root, &pack_files(root)[0]).unwrap();
        assert!(read_index(&file, &seal_key(), &mut budget).is_none());
        assert_eq!(budget.bytes, 0, "spent: no later pack is read");
        let mut budget = Budget {
            bytes: INDEX_BUDGET,
            entries: 39,
        };
        assert!(read_index(&file, &seal_key(), &mut budget).is_none());
        let mut budget = Budget {
            bytes: INDEX_BUDGET,
            entries: MAX_ENTRIES,
        };
        assert_eq!(
            read_index(&file, &seal_key(), &mut budget).unwrap().len(),
            40
        );
        assert_eq!(budget.entries, MAX_ENTRIES - 40);
    }

    #[test]
    fn pack_names() {
        assert!(is_pack_name("0123456789abcdef0123456789abcdef.pack"));
        assert!(!is_pack_name("0123456789abcdef0123456789abcdef.pack.tmp"));
        assert!(!is_pack_name("0123456789ABCDEF0123456789abcdef.pack"));
        assert!(!is_pack_name("x.pack"));
    }
}
