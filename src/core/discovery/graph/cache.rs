//! The import graph of an unchanged project kept on disk: a warm build
//! loads its edges instead of reading every file's statements and
//! resolving them again (at 100,000 files, most of the graph's second).
//!
//! The graph is a function of the walked files (their paths and
//! contents, metadata files among them), a few metadata files read even
//! when the walk leaves them out, `include_dirs`, the preset's hidden
//! symbols, the read policy, the user's C/C++ macros and the resolver's
//! code. The entry's key stands for all of them, with each file known by
//! its stamp (size, times, inode), as git's index knows it: a build whose
//! files are not all settled (`sources/stamps.rs`) neither reads nor writes the
//! entry. The resolver's code is known by the running binary's own stamp,
//! so a new build of ctxcurate never reads a graph an older one resolved.
//! Not in the key: a tsconfig that an ignored folder's config `extends`
//! (a relative path into a folder the walk leaves out), edited alone.
//!
//! One entry per slot (the inputs that are not files) is rewritten in
//! place, so the cache holds one graph per project view, not one per edit.
//! It is sealed like every cache entry, and read back with every index
//! and length checked: a bad entry is a miss.
//!

use std::collections::HashMap;

use super::{Edge, ImportKind, UnresolvedImport};
use crate::core::sources::Codebase;
use crate::core::store::disk as store;

/// The bucket of the entries.
const BUCKET: &str = "graph";

/// Changes with the entry's layout.
const FORMAT: &[u8] = b"import-graph-1";

/// Metadata files the resolvers read beneath the root whether or not the
/// walk holds them (`layout.rs`).
const EXTRA_INPUTS: [&str; 4] = [
    "pyproject.toml",
    "setup.cfg",
    "compile_commands.json",
    "build/compile_commands.json",
];

/// A graph in the order the builder made it: nodes are the code files in
/// order, edges go from each node in turn, by target.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Parts {
    pub edges: Vec<(u32, u32, Edge)>,
    pub unresolved: Vec<UnresolvedImport>,
    pub capped: Vec<(String, usize)>,
    pub config_limits: Vec<String>,
}

/// Where a graph is kept and what it must have been made from.
pub(super) struct Key {
    slot: [u8; 32],
    content: [u8; 32],
}

/// The key of the graph over `code` (the sorted code files among the
/// walked ones) with `shown` texts; `None` when a file is too young or
/// unreadable, or the binary unknown.
pub(super) fn key(
    codebase: &Codebase,
    include_dirs: &[String],
    code: &[&String],
    shown: &HashMap<String, String>,
) -> Option<Key> {
    let exe = std::env::current_exe()
        .and_then(std::fs::metadata)
        .ok()
        .map(|m| binary_stamp(&m))?;
    let mut shown: Vec<(&String, &String)> = shown.iter().collect();
    shown.sort();
    let mut slot_parts: Vec<&[u8]> = vec![FORMAT, env!("CARGO_PKG_VERSION").as_bytes()];
    let policy = format!("{:?}", codebase.sources.policy());
    let macros = codebase.sources.user_macros_key();
    let root = codebase.root.to_string_lossy();
    slot_parts.push(policy.as_bytes());
    slot_parts.push(macros.as_bytes());
    slot_parts.push(root.as_bytes());
    for dir in include_dirs {
        slot_parts.push(dir.as_bytes());
    }
    let shown_hashes: Vec<[u8; 32]> = shown
        .iter()
        .map(|(path, text)| store::key(&[path.as_bytes(), text.as_bytes()]))
        .collect();
    for hash in &shown_hashes {
        slot_parts.push(hash);
    }
    let slot = store::key(&slot_parts);

    let files = codebase.files();
    let extras: Vec<&str> = EXTRA_INPUTS
        .iter()
        .copied()
        .filter(|rel| codebase.root.join(rel).exists())
        .collect();
    let mut all: Vec<&str> = files.iter().map(String::as_str).collect();
    all.extend(&extras);
    let stamps = codebase.sources.settled_stamps(codebase.root, &all)?;
    let mut h = sha2::Sha256::default();
    use sha2::Digest;
    h.update(slot);
    // Not in the slot: a new build of ctxcurate replaces the entry.
    h.update(exe);
    h.update((files.len() as u64).to_le_bytes());
    h.update((code.len() as u64).to_le_bytes());
    for (rel, stamp) in all.iter().zip(&stamps) {
        h.update((rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update(stamp);
    }
    for rel in code {
        h.update((rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
    }
    Some(Key {
        slot,
        content: h.finalize().into(),
    })
}

/// The running binary's size and modification time.
fn binary_stamp(meta: &std::fs::Metadata) -> [u8; 24] {
    let since = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .unwrap_or_default();
    let mut out = [0; 24];
    out[..8].copy_from_slice(&meta.len().to_le_bytes());
    out[8..16].copy_from_slice(&since.as_secs().to_le_bytes());
    out[16..20].copy_from_slice(&since.subsec_nanos().to_le_bytes());
    out
}

/// The graph kept under `key` for `code`, if it was made from the same
/// inputs and reads back whole.
pub(super) fn load(codebase: &Codebase, key: &Key, code: &[&String]) -> Option<Parts> {
    let bytes = codebase.sources.stored(BUCKET, &key.slot)?;
    decode(&bytes, &key.content, code)
}

/// Keep `parts` under `key` (nothing when it would not fit an entry).
pub(super) fn store(codebase: &Codebase, key: &Key, code: &[&String], parts: &Parts) {
    if let Some(bytes) = encode(&key.content, code, parts) {
        codebase.sources.store_loose(BUCKET, &key.slot, &bytes);
    }
}

fn encode(content: &[u8; 32], code: &[&String], parts: &Parts) -> Option<Vec<u8>> {
    let index: HashMap<&str, u32> = code
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i as u32))
        .collect();
    let mut out = Vec::with_capacity(48 + parts.edges.len() * 17);
    out.extend_from_slice(content);
    put_u32(&mut out, u32::try_from(code.len()).ok()?);
    put_u32(&mut out, u32::try_from(parts.edges.len()).ok()?);
    for (from, to, edge) in &parts.edges {
        put_u32(&mut out, *from);
        put_u32(&mut out, *to);
        out.extend_from_slice(&edge.weight.to_bits().to_le_bytes());
        out.push(kind_byte(edge.kind));
    }
    put_u32(&mut out, u32::try_from(parts.unresolved.len()).ok()?);
    for u in &parts.unresolved {
        put_u32(&mut out, *index.get(u.file.as_str())?);
        put_str(&mut out, &u.import)?;
    }
    put_u32(&mut out, u32::try_from(parts.capped.len()).ok()?);
    for (file, cut) in &parts.capped {
        put_u32(&mut out, *index.get(file.as_str())?);
        out.extend_from_slice(&(*cut as u64).to_le_bytes());
    }
    put_u32(&mut out, u32::try_from(parts.config_limits.len()).ok()?);
    for line in &parts.config_limits {
        put_str(&mut out, line)?;
    }
    (out.len() as u64 <= store::MAX_ENTRY / 2).then_some(out)
}

fn decode(bytes: &[u8], content: &[u8; 32], code: &[&String]) -> Option<Parts> {
    let mut r = Reader(bytes);
    if r.take(32)? != content || r.u32()? as usize != code.len() {
        return None;
    }
    let node = |i: u32| (i as usize) < code.len();
    let count = r.count(17)?;
    let mut edges = Vec::with_capacity(count);
    for _ in 0..count {
        let (from, to) = (r.u32()?, r.u32()?);
        let weight = f64::from_bits(r.u64()?);
        let kind = byte_kind(r.take(1)?[0])?;
        if !node(from) || !node(to) || !weight.is_finite() {
            return None;
        }
        edges.push((from, to, Edge { weight, kind }));
    }
    let count = r.count(8)?;
    let mut unresolved = Vec::with_capacity(count);
    for _ in 0..count {
        let file = code.get(r.u32()? as usize)?;
        unresolved.push(UnresolvedImport {
            file: (*file).clone(),
            import: r.string()?,
        });
    }
    let count = r.count(12)?;
    let mut capped = Vec::with_capacity(count);
    for _ in 0..count {
        let file = code.get(r.u32()? as usize)?;
        capped.push(((*file).clone(), usize::try_from(r.u64()?).ok()?));
    }
    let count = r.count(4)?;
    let mut config_limits = Vec::with_capacity(count);
    for _ in 0..count {
        config_limits.push(r.string()?);
    }
    r.0.is_empty().then_some(Parts {
        edges,
        unresolved,
        capped,
        config_limits,
    })
}

fn kind_byte(kind: ImportKind) -> u8 {
    match kind {
        ImportKind::Runtime => 0,
        ImportKind::ReExport => 1,
        ImportKind::Local => 2,
        ImportKind::TypeOnly => 3,
    }
}

fn byte_kind(byte: u8) -> Option<ImportKind> {
    Some(match byte {
        0 => ImportKind::Runtime,
        1 => ImportKind::ReExport,
        2 => ImportKind::Local,
        3 => ImportKind::TypeOnly,
        _ => return None,
    })
}

fn put_u32(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) -> Option<()> {
    put_u32(out, u32::try_from(s.len()).ok()?);
    out.extend_from_slice(s.as_bytes());
    Some(())
}

/// Bytes read from the front, every read bounded by what is left.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// A count of records of at least `least` bytes each, refused when
    /// what is left could not hold them.
    fn count(&mut self, least: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(least)? <= self.0.len()).then_some(n)
    }

    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> Parts {
        Parts {
            edges: vec![
                (
                    0,
                    1,
                    Edge {
                        weight: 1.5,
                        kind: ImportKind::Runtime,
                    },
                ),
                (
                    1,
                    0,
                    Edge {
                        weight: 0.2,
                        kind: ImportKind::TypeOnly,
                    },
                ),
            ],
            unresolved: vec![UnresolvedImport {
                file: "b.py".into(),
                import: "from .gone import x".into(),
            }],
            capped: vec![("a.py".into(), 7)],
            config_limits: vec!["tsconfig paths cut".into()],
        }
    }

    #[test]
    fn a_graph_reads_back_as_written_and_a_cut_or_other_key_is_a_miss() {
        let (a, b) = ("a.py".to_string(), "b.py".to_string());
        let code = [&a, &b];
        let content = [7; 32];
        let bytes = encode(&content, &code, &parts()).expect("fits");
        assert_eq!(decode(&bytes, &content, &code), Some(parts()));
        assert_eq!(decode(&bytes, &[8; 32], &code), None);
        assert_eq!(decode(&bytes, &content, &code[..1]), None);
        for cut in 0..bytes.len() {
            assert_eq!(decode(&bytes[..cut], &content, &code), None, "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer, &content, &code), None);
    }

    #[test]
    fn an_edge_to_no_node_or_an_unknown_kind_is_a_miss() {
        let (a, b) = ("a.py".to_string(), "b.py".to_string());
        let code = [&a, &b];
        let content = [7; 32];
        let bytes = encode(&content, &code, &parts()).expect("fits");
        // The first edge's target, then its kind.
        let mut far = bytes.clone();
        far[32 + 8 + 4..32 + 8 + 8].copy_from_slice(&9u32.to_le_bytes());
        assert_eq!(decode(&far, &content, &code), None);
        let mut odd = bytes;
        odd[32 + 8 + 16] = 9;
        assert_eq!(decode(&odd, &content, &code), None);
    }

    /// A project of three modules, `a` importing `b`.
    fn project() -> (tempfile::TempDir, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.py"), "from b import f\n").unwrap();
        std::fs::write(dir.path().join("b.py"), "def f(): pass\n").unwrap();
        std::fs::write(dir.path().join("c.py"), "def g(): pass\n").unwrap();
        (dir, vec!["a.py".into(), "b.py".into(), "c.py".into()])
    }

    fn graph(
        root: &std::path::Path,
        files: &[String],
        disk: &DiskCache,
        settle: bool,
    ) -> (super::super::ImportGraph, usize) {
        let sources = Sources::with_disk(disk.clone());
        if settle {
            sources.settle_after(std::time::Duration::ZERO);
        }
        let codebase = Codebase::new(root, &sources).with_walk(files);
        let graph = super::super::ImportGraph::build(&codebase, &[]);
        let read = sources.memory_stats()[0].1.entries;
        (graph, read)
    }

    use crate::core::sources::Sources;
    use crate::core::store::DiskCache;

    /// Every statement the cache under `root` held, gone: a build must
    /// read the files again unless a kept graph answers.
    fn forget_statements(root: &std::path::Path) {
        for bucket in ["derived", "bundles", "packs"] {
            let _ = std::fs::remove_dir_all(root.join("cache").join(bucket));
        }
    }

    #[test]
    fn a_second_build_loads_the_graph_reading_no_file_and_an_edit_is_seen() {
        let (dir, files) = project();
        let root = dir.path();
        let disk = DiskCache::at(&root.join("cache"));
        let (first, _) = graph(root, &files, &disk, true);
        assert_eq!(first.imports_of("a.py"), ["b.py"]);
        assert!(root.join("cache/graph").exists());
        // With every statement the cache held gone, only the kept graph
        // can answer without reading a file.
        forget_statements(root);
        let (second, read) = graph(root, &files, &disk, true);
        assert_eq!(read, 0, "a file was read");
        assert_eq!(second.edges(), first.edges());
        std::fs::write(root.join("a.py"), "from c import g\n").unwrap();
        let (third, read) = graph(root, &files, &disk, true);
        assert!(read > 0);
        assert_eq!(third.imports_of("a.py"), ["c.py"]);
        // A new file changes the walk, and so the key.
        std::fs::write(root.join("d.py"), "import a\n").unwrap();
        let mut more = files.clone();
        more.push("d.py".into());
        let (fourth, _) = graph(root, &more, &disk, true);
        assert_eq!(fourth.imports_of("d.py"), ["a.py"]);
    }

    #[test]
    fn young_files_keep_no_graph_and_a_spoiled_entry_is_a_miss() {
        let (dir, files) = project();
        let root = dir.path();
        let disk = DiskCache::at(&root.join("cache"));
        let (young, _) = graph(root, &files, &disk, false);
        assert_eq!(young.imports_of("a.py"), ["b.py"]);
        assert!(!root.join("cache/graph").exists());
        graph(root, &files, &disk, true);
        let mut spoiled = 0;
        for entry in walkdir(&root.join("cache/graph")) {
            std::fs::write(&entry, b"not a graph").unwrap();
            spoiled += 1;
        }
        assert_eq!(spoiled, 1);
        forget_statements(root);
        let (again, read) = graph(root, &files, &disk, true);
        assert!(read > 0);
        assert_eq!(again.imports_of("a.py"), ["b.py"]);
    }

    fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walkdir(&path));
            } else {
                out.push(path);
            }
        }
        out
    }
}
