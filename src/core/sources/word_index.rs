//! An inverted index over one derived text of every file (each file's
//! terms, its identifiers), so a task asks for the files of a few words
//! instead of reading every file's text: on 100,000 files a warm task reads
//! a header and the few chunks that hold its words.
//!
//! The derived texts it indexes are lines `word` or `word N` (`N` the
//! line's value, 0 when absent). The index is kept in the project's disk
//! cache as sealed entries: a header (the files it was built from, each
//! with the key of its derived text, and the sorted words with where their
//! postings are) and chunks of postings (index of the file, value), each
//! chunk naming the generation of its header so a header and chunks of
//! different builds never mix.
//!
//! A file whose derived text is not the one indexed (changed, new, or too
//! young to be known by its stamp) is read as before and answered from its
//! own text; the index is built again when more than [`REBUILD_SHARE`] of
//! the files asked about differ from it, but only once most files are
//! known by their stamps: a first run over a new checkout, or after the
//! cache was cleared, answers from the texts it derives, and the next run
//! (which finds them cached) builds the index.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::store::{DiskCache, disk::MAX_ENTRY};

/// The bucket of headers and chunks.
const BUCKET: &str = "word-index";

/// The index is built again when more than `1 / REBUILD_SHARE` of the
/// files asked about (and more than [`REBUILD_MIN`]) are not in it.
pub const REBUILD_SHARE: usize = 16;
const REBUILD_MIN: usize = 64;

/// Bytes of postings per chunk.
const CHUNK_BYTES: usize = 1 << 20;

/// Bytes of one posting: the file's index and the value.
const POSTING: usize = 8;

/// One file's derived text as the index needs it: its path, the key of the
/// text (content, name, version) and the text.
pub struct Indexed<'a> {
    pub rel: &'a str,
    pub key: [u8; 32],
    pub text: Arc<str>,
}

/// An index as loaded or built.
#[derive(Debug)]
pub struct WordIndex {
    generation: [u8; 32],
    /// The files it was built from, sorted by path, each with its text's
    /// key.
    files: Vec<(Box<str>, [u8; 32])>,
    /// The sorted words, each with its chunk, first posting and count.
    words: Vec<(Box<str>, u32, u32, u32)>,
    chunks: Vec<OnceLock<Option<Arc<[u8]>>>>,
}

/// The word and value of one line of a derived text.
pub fn split_line(line: &str) -> (&str, u32) {
    match line.rsplit_once(' ') {
        Some((word, n)) => match n.parse() {
            Ok(n) => (word, n),
            Err(_) => (line, 0),
        },
        None => (line, 0),
    }
}

impl WordIndex {
    /// The index of `name` in `disk`, if one is there and intact.
    pub fn load(disk: &DiskCache, name: &str) -> Option<WordIndex> {
        let bytes = disk.get(BUCKET, &header_key(name))?;
        decode_header(&bytes)
    }

    /// An index over `texts` (their paths distinct), written to `disk`
    /// (chunks first, then the header) when it fits the cache's entries.
    pub fn build(disk: &DiskCache, name: &str, texts: &[Indexed<'_>]) -> WordIndex {
        let mut files: Vec<(Box<str>, [u8; 32], &str)> = texts
            .iter()
            .map(|t| (Box::from(t.rel), t.key, &*t.text))
            .collect();
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        files.dedup_by(|a, b| a.0 == b.0);
        // Words come from the files: a keyed hash, so no file can make
        // them collide.
        let mut by_word: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
        for (i, (_, _, text)) in files.iter().enumerate() {
            let Ok(i) = u32::try_from(i) else { break };
            for line in text.lines() {
                let (word, value) = split_line(line);
                let postings = by_word.entry(word).or_default();
                // A word's first line in a file counts, as when read.
                if postings.last().is_none_or(|p| p.0 != i) {
                    postings.push((i, value));
                }
            }
        }
        let mut sorted: Vec<(&str, Vec<(u32, u32)>)> = by_word.into_iter().collect();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut words = Vec::with_capacity(sorted.len());
        let mut chunks: Vec<Vec<u8>> = vec![Vec::new()];
        for (word, postings) in sorted {
            if chunks.last().is_some_and(|c| c.len() >= CHUNK_BYTES) {
                chunks.push(Vec::new());
            }
            let at = chunks.len() - 1;
            let chunk = &mut chunks[at];
            let start = chunk.len() / POSTING;
            for (file, value) in &postings {
                chunk.extend_from_slice(&file.to_le_bytes());
                chunk.extend_from_slice(&value.to_le_bytes());
            }
            words.push((
                Box::from(word),
                u32::try_from(at).unwrap_or(u32::MAX),
                u32::try_from(start).unwrap_or(u32::MAX),
                u32::try_from(postings.len()).unwrap_or(u32::MAX),
            ));
        }
        let files: Vec<(Box<str>, [u8; 32])> = files.into_iter().map(|(r, k, _)| (r, k)).collect();
        let generation = generation_of(&files);
        let index = WordIndex {
            generation,
            files,
            words,
            chunks: chunks
                .iter()
                .map(|c| OnceLock::from(Some(Arc::from(c.as_slice()))))
                .collect(),
        };
        index.write(disk, name, &chunks);
        index
    }

    fn write(&self, disk: &DiskCache, name: &str, chunks: &[Vec<u8>]) {
        let header = encode_header(self);
        let fits = |n: usize| (n as u64) < MAX_ENTRY - 1024;
        if !fits(header.len()) || chunks.iter().any(|c| !fits(c.len() + 32)) {
            return;
        }
        for (i, chunk) in chunks.iter().enumerate() {
            let mut payload = Vec::with_capacity(32 + chunk.len());
            payload.extend_from_slice(&self.generation);
            payload.extend_from_slice(chunk);
            disk.put_loose(BUCKET, &chunk_key(name, i), &payload);
        }
        disk.put_loose(BUCKET, &header_key(name), &header);
    }

    /// The key each indexed file's text had, by path.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8; 32])> {
        self.files.iter().map(|(r, k)| (&**r, k))
    }

    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// The postings of `word`: (index of the file, value); `None` when a
    /// chunk is missing or of another generation (the index is then of no
    /// use: build it again).
    pub fn postings(&self, disk: &DiskCache, name: &str, word: &str) -> Option<Vec<(u32, u32)>> {
        let Ok(at) = self.words.binary_search_by(|w| (*w.0).cmp(word)) else {
            return Some(Vec::new());
        };
        let (_, chunk, start, count) = &self.words[at];
        let chunk = usize::try_from(*chunk).ok()?;
        let bytes = self
            .chunks
            .get(chunk)?
            .get_or_init(|| self.load_chunk(disk, name, chunk))
            .clone()?;
        let start = usize::try_from(*start).ok()? * POSTING;
        let end = start + usize::try_from(*count).ok()? * POSTING;
        let slice = bytes.get(start..end)?;
        Some(
            slice
                .chunks_exact(POSTING)
                .map(|p| {
                    let n = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    (n(&p[..4]), n(&p[4..]))
                })
                .collect(),
        )
    }

    fn load_chunk(&self, disk: &DiskCache, name: &str, chunk: usize) -> Option<Arc<[u8]>> {
        let bytes = disk.get(BUCKET, &chunk_key(name, chunk))?;
        let (generation, postings) = bytes.split_at_checked(32)?;
        (generation == self.generation).then(|| Arc::from(postings))
    }
}

/// What [`answer`] found: each word's postings as (index into the files
/// asked about, value).
pub type Answer = Vec<Vec<(usize, u32)>>;

/// Each of `words`' postings among `files`, from `index` for the files
/// whose key (`keys`, `None` when unknown) it holds, and from `read` for
/// the others; `None` when too many differ from the index (or it fails),
/// so the caller builds it again.
pub fn answer(
    index: &WordIndex,
    disk: &DiskCache,
    name: &str,
    files: &[&str],
    keys: &[Option<[u8; 32]>],
    words: &[&str],
    read: impl Fn(&[usize]) -> Vec<Option<Arc<str>>>,
) -> Option<Answer> {
    let mut asked: HashMap<&str, usize> = HashMap::with_capacity(files.len());
    for (i, rel) in files.iter().enumerate() {
        asked.insert(rel, i);
    }
    // The index's file → the file asked about, where the texts agree.
    let mut live: Vec<Option<usize>> = vec![None; index.file_count()];
    let mut covered = vec![false; files.len()];
    for (at, (rel, key)) in index.files().enumerate() {
        if let Some(&i) = asked.get(rel)
            && keys[i].as_ref() == Some(key)
            && !covered[i]
        {
            live[at] = Some(i);
            covered[i] = true;
        }
    }
    let others: Vec<usize> = (0..files.len()).filter(|&i| !covered[i]).collect();
    // A file with no text (an image, a binary) is in no index: only the
    // others that have one say the index is behind. Counting them all
    // had a project with many binaries (Django's 1,384) ask for a rebuild
    // on every run, and answer nothing from the rebuilt index either.
    // Read in parts, so an index far behind is known after a part, not
    // after every changed file was read twice (here and by the rebuild).
    let limit = REBUILD_MIN + files.len() / REBUILD_SHARE;
    let mut texts = Vec::with_capacity(others.len());
    let mut behind = 0;
    for part in others.chunks(limit + 1) {
        let read_now = read(part);
        behind += read_now.iter().filter(|t| t.is_some()).count();
        if behind > limit {
            return None;
        }
        texts.extend(read_now);
    }
    let mut out: Answer = vec![Vec::new(); words.len()];
    for (w, word) in words.iter().enumerate() {
        for (file, value) in index.postings(disk, name, word)? {
            let Some(&Some(i)) = live.get(file as usize) else {
                continue;
            };
            out[w].push((i, value));
        }
    }
    add_texts(&mut out, words, &others, &texts);
    Some(out)
}

/// Add to `out` (each of `words`' postings) what the texts of the files
/// at `at` say, read line by line.
pub fn add_texts(out: &mut Answer, words: &[&str], at: &[usize], texts: &[Option<Arc<str>>]) {
    let mut wanted: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (w, word) in words.iter().enumerate() {
        wanted.entry(word).or_default().push(w);
    }
    // Each file's lines read in parallel: (word asked, file, value).
    let found: Vec<Vec<(usize, usize, u32)>> = at
        .par_iter()
        .zip(texts)
        .map(|(i, text)| {
            let mut hits = Vec::new();
            let Some(text) = text else { return hits };
            let mut seen: FxHashSet<&str> = FxHashSet::default();
            for line in text.lines() {
                let (word, value) = split_line(line);
                if let Some(asked) = wanted.get(word)
                    && seen.insert(word)
                {
                    hits.extend(asked.iter().map(|&w| (w, *i, value)));
                }
            }
            hits
        })
        .collect();
    for (w, i, value) in found.into_iter().flatten() {
        out[w].push((i, value));
    }
}

fn header_key(name: &str) -> [u8; 32] {
    crate::core::store::disk::key(&[b"word-index-v1", name.as_bytes()])
}

fn chunk_key(name: &str, chunk: usize) -> [u8; 32] {
    crate::core::store::disk::key(&[
        b"word-index-chunk-v1",
        name.as_bytes(),
        &chunk.to_le_bytes(),
    ])
}

fn generation_of(files: &[(Box<str>, [u8; 32])]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (rel, key) in files {
        h.update((rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update(key);
    }
    // The time too: an index built again over the same files gets new
    // chunks, and a header must never meet the chunks of another build.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.update(nanos.to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    h.finalize().into()
}

fn encode_header(index: &WordIndex) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&index.generation);
    put_u32(&mut out, index.files.len());
    for (rel, key) in &index.files {
        put_str(&mut out, rel);
        out.extend_from_slice(key);
    }
    put_u32(&mut out, index.words.len());
    for (word, chunk, start, count) in &index.words {
        put_str(&mut out, word);
        for n in [chunk, start, count] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
    put_u32(&mut out, index.chunks.len());
    out
}

fn put_u32(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// The header written by [`encode_header`]; `None` when cut short, not
/// UTF-8, or naming places outside its chunks.
fn decode_header(mut bytes: &[u8]) -> Option<WordIndex> {
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(head)
    }
    fn u32_of(bytes: &mut &[u8]) -> Option<u32> {
        Some(u32::from_le_bytes(take(bytes, 4)?.try_into().ok()?))
    }
    fn str_of<'a>(bytes: &mut &'a [u8]) -> Option<&'a str> {
        let len = usize::try_from(u32_of(bytes)?).ok()?;
        std::str::from_utf8(take(bytes, len)?).ok()
    }
    let generation: [u8; 32] = take(&mut bytes, 32)?.try_into().ok()?;
    let count = usize::try_from(u32_of(&mut bytes)?).ok()?;
    // Each file takes at least 36 bytes: a count past that is a lie.
    let mut files = Vec::with_capacity(count.min(bytes.len() / 36));
    for _ in 0..count {
        let rel = str_of(&mut bytes)?;
        let key: [u8; 32] = take(&mut bytes, 32)?.try_into().ok()?;
        files.push((Box::from(rel), key));
    }
    let count = usize::try_from(u32_of(&mut bytes)?).ok()?;
    let mut words = Vec::with_capacity(count.min(bytes.len() / 16));
    for _ in 0..count {
        let word = str_of(&mut bytes)?;
        let place = (
            u32_of(&mut bytes)?,
            u32_of(&mut bytes)?,
            u32_of(&mut bytes)?,
        );
        words.push((Box::from(word), place.0, place.1, place.2));
    }
    let chunks = usize::try_from(u32_of(&mut bytes)?).ok()?;
    let sorted =
        files.windows(2).all(|w| w[0].0 < w[1].0) && words.windows(2).all(|w| w[0].0 < w[1].0);
    let in_chunks = words.iter().all(|w| (w.1 as usize) < chunks);
    if !bytes.is_empty() || !sorted || !in_chunks || chunks > 1 << 20 {
        return None;
    }
    Some(WordIndex {
        generation,
        files,
        words,
        chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(files: &[(&'static str, u8, &str)]) -> Vec<Indexed<'static>> {
        files
            .iter()
            .map(|(rel, key, text)| Indexed {
                rel,
                key: [*key; 32],
                text: Arc::from(*text),
            })
            .collect()
    }

    #[test]
    fn lines_split_into_word_and_value() {
        assert_eq!(split_line("Broute 3"), ("Broute", 3));
        assert_eq!(split_line("L total 120"), ("L total", 120));
        assert_eq!(split_line("name"), ("name", 0));
        assert_eq!(split_line("a b"), ("a b", 0));
    }

    #[test]
    fn the_header_reads_back_and_refuses_a_cut() {
        let disk = DiskCache::disabled();
        let index = WordIndex::build(
            &disk,
            "t",
            &texts(&[("b.py", 2, "x 1\ny 2"), ("a.py", 1, "x 5")]),
        );
        let bytes = encode_header(&index);
        let back = decode_header(&bytes).unwrap();
        assert_eq!(back.generation, index.generation);
        assert_eq!(back.files, index.files);
        assert_eq!(back.words, index.words);
        assert_eq!(back.chunks.len(), index.chunks.len());
        for cut in [1, 40, bytes.len() - 1] {
            assert!(decode_header(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut unsorted = index;
        unsorted.files.swap(0, 1);
        assert!(decode_header(&encode_header(&unsorted)).is_none());
    }

    #[test]
    fn a_file_that_changed_is_answered_from_its_own_text() {
        let disk = DiskCache::disabled();
        let index = WordIndex::build(
            &disk,
            "t",
            &texts(&[
                ("a.py", 1, "x 5\ny 1"),
                ("b.py", 2, "x 2"),
                ("c.py", 3, "y 7"),
            ]),
        );
        // b.py changed (another key), d.py is new, c.py is not asked about.
        let files = ["a.py", "b.py", "d.py"];
        let keys = [Some([1; 32]), Some([9; 32]), None];
        let read = |at: &[usize]| -> Vec<Option<Arc<str>>> {
            assert_eq!(at, [1, 2]);
            vec![Some(Arc::from("y 4")), Some(Arc::from("x 1\nx 3"))]
        };
        let got = answer(&index, &disk, "t", &files, &keys, &["x", "y", "z"], read).unwrap();
        let sorted = |mut v: Vec<(usize, u32)>| {
            v.sort_unstable();
            v
        };
        assert_eq!(
            sorted(got[0].clone()),
            [(0, 5), (2, 1)],
            "a line counts once"
        );
        assert_eq!(sorted(got[1].clone()), [(0, 1), (1, 4)]);
        assert!(got[2].is_empty());
    }

    #[test]
    fn a_word_asked_twice_or_written_twice_counts_as_read() {
        let disk = DiskCache::disabled();
        let index = WordIndex::build(&disk, "t", &texts(&[("a.py", 1, "x 5\nx 6")]));
        let read = |at: &[usize]| -> Vec<Option<Arc<str>>> {
            at.iter().map(|_| Some(Arc::from("x 2\nx 3"))).collect()
        };
        let files = ["a.py", "b.py"];
        let keys = [Some([1; 32]), None];
        let got = answer(&index, &disk, "t", &files, &keys, &["x", "x"], read).unwrap();
        for postings in got {
            let mut postings = postings;
            postings.sort_unstable();
            assert_eq!(postings, [(0, 5), (1, 2)]);
        }
    }

    #[test]
    fn too_many_changes_ask_for_a_rebuild() {
        let disk = DiskCache::disabled();
        let index = WordIndex::build(&disk, "t", &texts(&[("a.py", 1, "x")]));
        let files: Vec<String> = (0..200).map(|i| format!("f{i}.py")).collect();
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let keys = vec![None; files.len()];
        let read = |at: &[usize]| vec![Some(Arc::from("x 1")); at.len()];
        assert!(answer(&index, &disk, "t", &files, &keys, &["x"], read).is_none());
    }

    /// Files without a text (binaries) are in no index and never make it
    /// look behind: 200 of them beside one indexed file are answered.
    #[test]
    fn files_without_a_text_ask_for_no_rebuild() {
        let disk = DiskCache::disabled();
        let index = WordIndex::build(&disk, "t", &texts(&[("a.py", 1, "x 3")]));
        let mut files: Vec<String> = (0..200).map(|i| format!("img{i}.png")).collect();
        files.push("a.py".to_string());
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let mut keys = vec![None; files.len()];
        keys[200] = Some([1; 32]);
        let read = |at: &[usize]| vec![None; at.len()];
        let got = answer(&index, &disk, "t", &files, &keys, &["x"], read);
        assert_eq!(got, Some(vec![vec![(200, 3)]]));
    }

    #[test]
    fn chunks_of_another_build_are_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskCache::at(dir.path());
        let first = WordIndex::build(&disk, "t", &texts(&[("a.py", 1, "x 1")]));
        let header = disk.get(BUCKET, &header_key("t")).unwrap();
        // A second build writes new chunks; the first header meets them.
        WordIndex::build(&disk, "t", &texts(&[("a.py", 1, "x 2")]));
        let stale = decode_header(&header).unwrap();
        assert_eq!(stale.generation, first.generation);
        assert_eq!(stale.postings(&disk, "t", "x"), None);
        let fresh = WordIndex::load(&disk, "t").unwrap();
        assert_eq!(fresh.postings(&disk, "t", "x"), Some(vec![(0, 2)]));
        assert_eq!(fresh.postings(&disk, "t", "absent"), Some(vec![]));
    }
}
