//! Pack files: many sealed cache entries written as one file,
//! `cache/packs/{name}.pack`, so that a build that makes thousands of
//! entries creates one file instead of thousands (creating files, not
//! writing bytes, was a fifth of a cold skeleton build).
//!
//! A pack is written once to a temporary file and renamed into place, and
//! never changed after. It starts with a magic line and an index (bucket,
//! key, offset and length of each entry), then the entries, each sealed as
//! a loose entry is ([`super::disk::seal`]). Everything read from a pack is
//! checked like a loose entry: the file must be a regular file reached
//! without a link, the index must fit the file, and each payload must open
//! under the user's seal key. A pack that fails any check is skipped whole.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::Path;

use super::disk::{MAX_ENTRY, is_lower_hex, open_regular};

/// The first line of every pack; a new format gets a new magic.
const MAGIC: &[u8] = b"ctxcurate-pack 1\n";

/// The folder of the packs inside the cache folder (never a bucket name).
pub const DIR: &str = "packs";

/// The file name suffix of a pack.
const SUFFIX: &str = ".pack";

/// Prefix and suffix of a pack being written.
pub const TEMP_PREFIX: &str = ".tmp-pack-";
pub const TEMP_SUFFIX: &str = ".tmp";

/// A pack holds at most this many entries (a bound on the index read).
const MAX_ENTRIES: usize = 1 << 20;

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
    places: HashMap<(usize, [u8; 32]), Place>,
}

impl Packs {
    /// Read the index of every pack in `cache_dir/packs`; packs that fail
    /// a check are left out.
    pub fn load(cache_dir: &Path) -> Packs {
        let mut packs = Packs::default();
        for path in pack_paths(cache_dir) {
            let Some(file) = open_regular(&path) else {
                continue;
            };
            let Some(index) = read_index(&file) else {
                continue;
            };
            let pack = packs.files.len();
            packs.files.push(file);
            for (bucket, key, offset, len) in index {
                let bucket = match packs.buckets.iter().position(|b| *b == bucket) {
                    Some(at) => at,
                    None => {
                        packs.buckets.push(bucket);
                        packs.buckets.len() - 1
                    }
                };
                packs
                    .places
                    .insert((bucket, key), Place { pack, offset, len });
            }
        }
        packs
    }

    /// Each pack file in `cache_dir/packs` (named as packs are) with its
    /// number of entries (0 for a pack that fails the checks).
    pub fn files(cache_dir: &Path) -> Vec<(std::path::PathBuf, usize)> {
        pack_paths(cache_dir)
            .into_iter()
            .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
            .map(|path| {
                let entries = open_regular(&path)
                    .and_then(|f| read_index(&f))
                    .map_or(0, |index| index.len());
                (path, entries)
            })
            .collect()
    }

    /// The sealed bytes of `bucket`/`key`, if a pack holds them.
    pub fn get(&self, bucket: &str, key: &[u8; 32]) -> Option<Vec<u8>> {
        let place = self.place(bucket, key)?;
        let file = self.files.get(place.pack)?;
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

/// Write `entries` as one pack in `cache_dir/packs`.
pub fn write(cache_dir: &Path, entries: &[Entry]) -> std::io::Result<()> {
    let dir = cache_dir.join(DIR);
    fs::create_dir_all(&dir)?;
    let mut index = Vec::new();
    index.extend_from_slice(MAGIC);
    index.extend_from_slice(
        &u32::try_from(entries.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    let index_len: usize = MAGIC.len()
        + 4
        + entries
            .iter()
            .map(|(bucket, _, _)| 1 + bucket.len() + 32 + 16)
            .sum::<usize>();
    let mut offset = index_len as u64;
    let mut name = sha2::Sha256::default();
    for (bucket, key, bytes) in entries {
        let bucket = bucket.as_bytes();
        index.push(u8::try_from(bucket.len()).map_err(std::io::Error::other)?);
        index.extend_from_slice(bucket);
        index.extend_from_slice(key);
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        offset += bytes.len() as u64;
        sha2::Digest::update(&mut name, key);
    }
    let name = crate::core::tokens::hex(&sha2::Digest::finalize(name)[..16]);
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(&dir)?;
    {
        let mut out = std::io::BufWriter::new(tmp.as_file_mut());
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

/// A pack's index, checked against the file's length.
#[allow(clippy::type_complexity)]
fn read_index(file: &File) -> Option<Vec<(String, [u8; 32], u64, u64)>> {
    let file_len = file.metadata().ok()?.len();
    let mut head = std::io::BufReader::new(file);
    let mut magic = vec![0; MAGIC.len()];
    head.read_exact(&mut magic).ok()?;
    if magic != MAGIC {
        return None;
    }
    let count = usize::try_from(u32::from_le_bytes(read_array(&mut head)?)).ok()?;
    if count > MAX_ENTRIES {
        return None;
    }
    let mut index = Vec::with_capacity(count.min(4096));
    for _ in 0..count {
        let [bucket_len] = read_array::<1>(&mut head)?;
        let mut bucket = vec![0; usize::from(bucket_len)];
        head.read_exact(&mut bucket).ok()?;
        let bucket = String::from_utf8(bucket).ok()?;
        let key: [u8; 32] = read_array(&mut head)?;
        let offset = u64::from_le_bytes(read_array(&mut head)?);
        let len = u64::from_le_bytes(read_array(&mut head)?);
        let fits = offset.checked_add(len).is_some_and(|end| end <= file_len);
        if !fits || len > MAX_ENTRY {
            return None;
        }
        index.push((bucket, key, offset, len));
    }
    Some(index)
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
    use super::super::disk::{DiskCache, cache_dir, key};
    use super::*;

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
        Packs::files(&cache_dir(root))
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
            b"ctxcurate-pack 1\n\xff\xff\xff\xff".to_vec(),
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

    #[test]
    fn pack_names() {
        assert!(is_pack_name("0123456789abcdef0123456789abcdef.pack"));
        assert!(!is_pack_name("0123456789abcdef0123456789abcdef.pack.tmp"));
        assert!(!is_pack_name("0123456789ABCDEF0123456789abcdef.pack"));
        assert!(!is_pack_name("x.pack"));
    }
}
