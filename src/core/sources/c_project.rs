//! The C/C++ macros of a project as its parses read them: the user's
//! `[syntax] c_macros`, then the `-D` flags of the project's
//! `compile_commands.json` and the `#define`s of its own C/C++ files
//! (headers first, then sources, each in path order), read once, on the
//! first C/C++ parse (see `syntax::CMacros`).
//!
//! Each file's definitions are kept in the project's disk cache with its
//! stamp and content hash, in [`SHARDS`] sealed entries split by path: a
//! run over an unchanged project reads no C/C++ file to build its macro
//! table (a `stat` each, as [`stamps`](super::stamps) trusts them: only a
//! stamp still for [`SETTLED`](super::stamps::SETTLED) is kept), and an
//! edited header is read again alone, rewriting the one entry that holds
//! it. A bad entry (cut, not sealed by this user, of another format) is a
//! miss: its files are read again.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::stamps::{SETTLED, Stamp};
use crate::core::paths::beneath::{Links, read_small_text};
use crate::core::store::{DiskCache, build_id, disk::MAX_ENTRY};
use crate::core::syntax::{CDefines, CMacroTable, CMacros};
use crate::core::walk::{self, Content, ReadPolicy, WalkPatterns};

/// Extensions of C/C++ headers (and implementation files included like
/// them).
const HEADERS: [&str; 9] = ["h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tcc", "tpp"];
/// Extensions of C/C++ sources.
const SOURCES: [&str; 5] = ["c", "cc", "cpp", "cxx", "c++"];

/// Where a compilation database may be, from the root.
const COMPILE_COMMANDS: [&str; 2] = ["compile_commands.json", "build/compile_commands.json"];

/// The cache bucket of the kept definitions.
const BUCKET: &str = "c-defines";

/// Entries the kept definitions are split into, by path.
const SHARDS: usize = 16;

/// `user` with the macros of the project at `root`, its files as the walk
/// with `patterns` finds them and read under `policy`, their definitions
/// kept in the project's disk cache.
pub fn project_macros(
    user: CMacros,
    root: &Path,
    patterns: WalkPatterns,
    policy: ReadPolicy,
) -> CMacros {
    // For benchmarks alone (issue 36's time target): the same run without
    // reading the project's definitions.
    if std::env::var_os("CTXCURATE_BENCH_NO_PROJECT_MACROS").is_some() {
        return user;
    }
    let id = root.display().to_string();
    let root: PathBuf = root.to_path_buf();
    user.with_table(id, Vec::new(), move || {
        let phases = crate::core::profile::Phases::start();
        let files = walk::walk_files_with(&root, &patterns);
        phases.mark("c macros: walked");
        let disk = DiskCache::open(&root);
        let (table, read) = project_table(&root, &files, &policy, &disk, SETTLED);
        phases.mark(&format!("c macros: {read} read"));
        table
    })
}

/// The project's C/C++ files among `files`: headers first, then sources,
/// each in the order given.
fn ordered_c_files(files: &[String]) -> Vec<&String> {
    let ext = |f: &String| {
        let name = f.rsplit('/').next().unwrap_or(f);
        name.rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default()
    };
    let headers = files.iter().filter(|f| HEADERS.contains(&ext(f).as_str()));
    let sources = files.iter().filter(|f| SOURCES.contains(&ext(f).as_str()));
    headers.chain(sources).collect()
}

/// One file's definitions as kept: the stamp it had when read (`None`
/// when it had not settled), its content hash, and where in its shard's
/// bytes the definitions are (as [`CDefines::encode`] writes them).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Kept {
    stamp: Option<Stamp>,
    hash: [u8; 32],
    defines: Range<usize>,
}

/// One shard of the kept definitions: its files by path, and its bytes
/// once definitions are needed (fetched again then: a warm run needs
/// only the stamps and hashes, and keeps no definition in memory).
#[derive(Debug)]
struct Shard {
    at: usize,
    files: HashMap<String, Kept>,
    bytes: OnceLock<Option<Vec<u8>>>,
}

impl Shard {
    /// The kept definitions of a file of this shard, as bytes; `None`
    /// when the shard changed on disk since it was loaded (another run
    /// wrote it) or is gone.
    fn defines(&self, disk: &DiskCache, kept: &Kept) -> Option<&[u8]> {
        self.bytes
            .get_or_init(|| {
                let (files, bytes) = disk
                    .get(BUCKET, &shard_key(self.at))
                    .and_then(decode_shard)?;
                (files == self.files).then_some(bytes)
            })
            .as_ref()?
            .get(kept.defines.clone())
    }
}

/// What a file's definitions come from in this run.
enum Found {
    /// Its kept entry, at the stamp it has now: not read (its hash, and
    /// its definitions once decoded).
    Kept([u8; 32], Option<CDefines>),
    /// Read now: its stamp (if settled), hash and definitions.
    Read(Option<Stamp>, [u8; 32], CDefines),
}

impl Found {
    fn hash(&self) -> &[u8; 32] {
        match self {
            Found::Kept(hash, _) | Found::Read(_, hash, _) => hash,
        }
    }
}

/// The macro table of the project at `root` (the `-D` flags of its
/// compilation database, then the definitions of its C/C++ files among
/// `files`, headers first), and how many files were read: the table kept
/// by an earlier run of this build of ctxcurate over the same contents,
/// else one built from each file's definitions, kept in `disk` when the
/// file's stamp is the one kept (a stamp is kept once still for
/// `settle`), else read. What changed is written back.
fn project_table(
    root: &Path,
    files: &[String],
    policy: &ReadPolicy,
    disk: &DiskCache,
    settle: Duration,
) -> (CMacroTable, usize) {
    let flags = flag_defines(root);
    let ordered = ordered_c_files(files);
    let shards: Vec<Shard> = if ordered.is_empty() {
        Vec::new()
    } else {
        (0..SHARDS)
            .into_par_iter()
            .map(|shard| load_shard(disk, shard))
            .collect()
    };
    let now = SystemTime::now();
    let read_now = |rel: &str| {
        let (content, meta) = walk::read_content_stamped(root, rel, policy, false);
        let Content::Text { text, .. } = content else {
            return None;
        };
        let hash: [u8; 32] = Sha256::digest(text.as_bytes()).into();
        let stamp = meta
            .as_ref()
            .map(Stamp::of)
            .filter(|s| s.settled(now, settle));
        Some(Found::Read(stamp, hash, CDefines::scan(&text)))
    };
    let known = |rel: &str| {
        let shard = shards.get(shard_of(rel))?;
        Some((shard, shard.files.get(rel)?))
    };
    let mut found: Vec<Option<Found>> = ordered
        .par_iter()
        .map(|rel| {
            let known = known(rel);
            if let Some((_, kept)) = known
                && let Some(stamp) = kept.stamp
                && policy.may_read(rel)
                && stamp.len <= policy.max_file_size
                && std::fs::metadata(root.join(rel.as_str()))
                    .map(|m| Stamp::of(&m))
                    .ok()
                    == Some(stamp)
            {
                return Some(Found::Kept(kept.hash, None));
            }
            read_now(rel)
        })
        .collect();
    let digest = inputs_digest(&flags, &ordered, &found);
    let table = match load_table(disk, &digest) {
        Some(table) => table,
        None => {
            // Every kept file's definitions decoded; one whose entry does
            // not decode is read again.
            found.par_iter_mut().zip(&ordered).for_each(|(found, rel)| {
                if let Some(Found::Kept(_, defines @ None)) = found {
                    let kept = known(rel).and_then(|(s, k)| s.defines(disk, k));
                    match kept.and_then(CDefines::decode) {
                        Some(decoded) => *defines = Some(decoded),
                        None => *found = read_now(rel),
                    }
                }
            });
            let flag_defines = CDefines::scan(&flags);
            let mut groups = vec![&flag_defines];
            groups.extend(found.iter().flatten().filter_map(|found| match found {
                Found::Kept(_, defines) => defines.as_ref(),
                Found::Read(_, _, defines) => Some(defines),
            }));
            let table = CMacroTable::build(&[], &groups);
            // The inputs again: a file read just now may have changed.
            store_table(disk, &inputs_digest(&flags, &ordered, &found), &table);
            table
        }
    };
    let read = found
        .iter()
        .filter(|f| matches!(f, Some(Found::Read(..))))
        .count();
    if !ordered.is_empty() {
        write_back(disk, &shards, &ordered, &found);
    }
    (table, read)
}

/// What a table is made from: this build of ctxcurate, the flags, and
/// each readable file's path and content hash, in order.
fn inputs_digest(flags: &str, ordered: &[&String], found: &[Option<Found>]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(build_id());
    h.update((flags.len() as u64).to_le_bytes());
    h.update(flags.as_bytes());
    for (rel, found) in ordered.iter().zip(found) {
        if let Some(found) = found {
            h.update((rel.len() as u64).to_le_bytes());
            h.update(rel.as_bytes());
            h.update(found.hash());
        }
    }
    h.finalize().into()
}

fn table_key() -> [u8; 32] {
    crate::core::store::disk::key(&[b"c-macro-table-v1"])
}

/// The kept table, if it was made from the inputs of `digest`.
fn load_table(disk: &DiskCache, digest: &[u8; 32]) -> Option<CMacroTable> {
    let bytes = disk.get(BUCKET, &table_key())?;
    let (made_from, table) = bytes.split_at_checked(32)?;
    (made_from == digest).then(|| CMacroTable::decode(table))?
}

fn store_table(disk: &DiskCache, digest: &[u8; 32], table: &CMacroTable) {
    let mut bytes = digest.to_vec();
    bytes.extend_from_slice(&table.encode());
    if (bytes.len() as u64) < MAX_ENTRY - 1024 {
        disk.put_loose(BUCKET, &table_key(), &bytes);
    }
}

/// Write each shard whose files changed (read anew with another stamp or
/// content, gone, or new) as the files are now.
fn write_back(disk: &DiskCache, shards: &[Shard], ordered: &[&String], found: &[Option<Found>]) {
    // Per shard: each file's path and what it was found as.
    let mut now: Vec<Vec<(&str, &Found)>> = vec![Vec::new(); SHARDS];
    let mut dirty = [false; SHARDS];
    for (rel, found) in ordered.iter().zip(found) {
        let shard = shard_of(rel);
        let old = shards.get(shard).and_then(|s| s.files.get(rel.as_str()));
        match found {
            // Unreadable now: no longer kept.
            None => dirty[shard] |= old.is_some(),
            Some(found @ Found::Kept(..)) => now[shard].push((rel, found)),
            Some(found @ Found::Read(stamp, hash, _)) => {
                dirty[shard] |= !old.is_some_and(|o| o.stamp == *stamp && o.hash == *hash);
                now[shard].push((rel, found));
            }
        }
    }
    for (at, files) in now.iter().enumerate() {
        let Some(shard) = shards.get(at) else {
            continue;
        };
        // A file kept that is gone, or no longer a C/C++ file.
        if !dirty[at] && files.len() == shard.files.len() {
            continue;
        }
        let mut out = Vec::new();
        out.extend_from_slice(&build_id());
        let mut encoded = Vec::new();
        for (rel, found) in files {
            match found {
                Found::Read(stamp, hash, defines) => {
                    encoded.clear();
                    defines.encode(&mut encoded);
                    encode_entry(&mut out, rel, *stamp, hash, &encoded);
                }
                Found::Kept(hash, _) => {
                    // A shard another run rewrote meanwhile: the file
                    // is read again next time.
                    if let Some(kept) = shard.files.get(*rel)
                        && let Some(defines) = shard.defines(disk, kept)
                    {
                        encode_entry(&mut out, rel, kept.stamp, hash, defines);
                    }
                }
            }
        }
        if (out.len() as u64) < MAX_ENTRY - 1024 {
            disk.put_loose(BUCKET, &shard_key(at), &out);
        }
    }
}

/// The shard of the kept definitions that holds `rel`.
fn shard_of(rel: &str) -> usize {
    usize::from(crate::core::store::disk::key(&[rel.as_bytes()])[0]) % SHARDS
}

fn shard_key(shard: usize) -> [u8; 32] {
    crate::core::store::disk::key(&[b"c-defines-v1", &shard.to_le_bytes()])
}

/// The kept files of `shard` (none when absent, bad, or kept by another
/// build of ctxcurate), their definitions left on disk.
fn load_shard(disk: &DiskCache, shard: usize) -> Shard {
    let files = disk
        .get(BUCKET, &shard_key(shard))
        .and_then(decode_shard)
        .map(|(files, _)| files)
        .unwrap_or_default();
    Shard {
        at: shard,
        files,
        bytes: OnceLock::new(),
    }
}

fn encode_entry(
    out: &mut Vec<u8>,
    rel: &str,
    stamp: Option<Stamp>,
    hash: &[u8; 32],
    defines: &[u8],
) {
    let len = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes();
    out.extend_from_slice(&len(rel.len()));
    out.extend_from_slice(rel.as_bytes());
    match &stamp {
        Some(stamp) => {
            out.push(1);
            stamp.write(out);
        }
        None => out.push(0),
    }
    out.extend_from_slice(hash);
    out.extend_from_slice(&len(defines.len()));
    out.extend_from_slice(defines);
}

/// A shard [`write_back`] wrote; `None` when cut short, of another build,
/// or otherwise not one (a path not UTF-8, a flag neither 0 nor 1).
fn decode_shard(bytes: Vec<u8>) -> Option<(HashMap<String, Kept>, Vec<u8>)> {
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(head)
    }
    fn len(bytes: &mut &[u8]) -> Option<usize> {
        usize::try_from(u32::from_le_bytes(take(bytes, 4)?.try_into().ok()?)).ok()
    }
    let mut rest = bytes.as_slice();
    if take(&mut rest, 32)? != build_id() {
        return None;
    }
    let mut files = HashMap::new();
    while !rest.is_empty() {
        let n = len(&mut rest)?;
        let rel = std::str::from_utf8(take(&mut rest, n)?).ok()?;
        let stamp = match take(&mut rest, 1)? {
            [0] => None,
            [1] => Some(Stamp::read(take(&mut rest, Stamp::BYTES)?.try_into().ok()?)),
            _ => return None,
        };
        let hash: [u8; 32] = take(&mut rest, 32)?.try_into().ok()?;
        let n = len(&mut rest)?;
        let start = bytes.len() - rest.len();
        take(&mut rest, n)?;
        files.insert(
            rel.to_string(),
            Kept {
                stamp,
                hash,
                defines: start..start + n,
            },
        );
    }
    Some((files, bytes))
}

/// A compilation database at `rel` under `root`: a regular file beneath
/// the root (opened without blocking: a FIFO is refused at once), at most
/// 64 MiB.
fn read_database(root: &Path, rel: &str) -> Option<String> {
    read_small_text(root, rel, Links::Inside, 64 << 20)
}

/// The `-D` flags of the project's `compile_commands.json` as `#define`
/// lines (the first definition of a name wins; empty without a database
/// or with one that does not parse).
fn flag_defines(root: &Path) -> String {
    let Some(text) = COMPILE_COMMANDS.iter().find_map(|p| read_database(root, p)) else {
        return String::new();
    };
    let Ok(serde_json::Value::Array(entries)) = serde_json::from_str::<serde_json::Value>(&text)
    else {
        return String::new();
    };
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    for entry in &entries {
        let args: Vec<String> = match (entry.get("arguments"), entry.get("command")) {
            (Some(serde_json::Value::Array(args)), _) => args
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect(),
            (_, Some(serde_json::Value::String(command))) => {
                command.split_whitespace().map(str::to_string).collect()
            }
            _ => continue,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let flag = match arg.strip_prefix("-D") {
                Some("") => args.next().unwrap_or_default(),
                Some(flag) => flag.to_string(),
                None => continue,
            };
            out.push_str(&define_line(&flag, &mut seen));
        }
    }
    out
}

/// `NAME=VALUE` (or `NAME`, which is `1`) as a `#define` line, or nothing
/// for a name seen before or a flag that names nothing.
fn define_line(flag: &str, seen: &mut std::collections::HashSet<String>) -> String {
    let (head, value) = flag.split_once('=').unwrap_or((flag, "1"));
    let name: String = head
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() || value.contains('\n') || !seen.insert(name) {
        return String::new();
    }
    let value = value.trim_matches(|c| c == '"' || c == '\'');
    format!("#define {head} {value}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::syntax::{self, Lang};

    fn macros_of(root: &Path) -> CMacros {
        project_macros(
            CMacros::new(&[]),
            root,
            WalkPatterns::default(),
            ReadPolicy::default(),
        )
    }

    /// A project's header decides its parses and their cache key; another
    /// project's parse is untouched; a changed definition is read again
    /// after a reload and changes the key.
    #[test]
    fn a_projects_headers_decide_its_parses_and_keys_alone() {
        let a = tempfile::tempdir().expect("tempdir");
        let b = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(a.path().join("include")).expect("mkdir");
        std::fs::write(
            a.path().join("include/api.h"),
            "#define MYLIB_BEGIN(name) namespace name {\n#define MYLIB_END(name) }\n",
        )
        .expect("write");
        let file = "MYLIB_BEGIN(mylib)\nint g(void);\nMYLIB_END(mylib)\n";
        let paths = |macros: &CMacros| -> Vec<String> {
            syntax::parse_with(Lang::Cpp, file, macros)
                .iter()
                .map(|s| s.path.clone())
                .collect()
        };
        let in_a = macros_of(a.path());
        let in_b = macros_of(b.path());
        assert_eq!(paths(&in_a), ["mylib", "mylib::g"]);
        assert_eq!(paths(&in_b), ["g"]);
        let key = in_a.key();
        assert!(key.starts_with("project="), "{key}");
        assert_eq!(in_b.key(), "");
        assert_eq!(in_a.entries_key(), "");
        std::fs::write(
            a.path().join("include/api.h"),
            "#define MYLIB_BEGIN(name)\n",
        )
        .expect("write");
        assert_eq!(in_a.key(), key, "read once");
        let again = in_a.reloaded();
        assert_ne!(again.key(), key);
    }

    /// A project of two headers and a source, its cache in `cache`.
    fn kept_project() -> (tempfile::TempDir, Vec<String>) {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("include")).expect("mkdir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        let files = [
            (
                "include/api.h",
                "#define MYLIB_BEGIN(name) namespace name {\n#define MYLIB_END(name) }\n",
            ),
            (
                "include/inline.h",
                "#if 0\n#define MYLIB_INLINE static\n#else\n#define MYLIB_INLINE inline\n#endif\n#define MYLIB_INLINE extern\n",
            ),
            ("src/a.cpp", "#define LOCAL 1\nint f();\n"),
            ("README.md", "#define NOT_C 1\n"),
        ];
        for (rel, text) in files {
            std::fs::write(dir.path().join(rel), text).expect("write");
        }
        let files = files.iter().map(|(rel, _)| rel.to_string()).collect();
        (dir, files)
    }

    /// The symbol paths of a C++ file using the macros of `table`, and
    /// their key.
    fn read_as(table: &CMacroTable) -> (Vec<String>, String) {
        let bytes = table.encode();
        let macros = CMacros::new(&[]).with_table("p".into(), Vec::new(), move || {
            CMacroTable::decode(&bytes).unwrap_or_default()
        });
        let file = "MYLIB_BEGIN(mylib)\nMYLIB_INLINE int g(void) { return 0; }\nMYLIB_END(mylib)\n";
        let paths = syntax::parse_with(Lang::Cpp, file, &macros)
            .iter()
            .map(|s| s.path.clone())
            .collect();
        (paths, macros.key())
    }

    /// The entries of the cache's bucket, each with its bytes.
    fn entries(cache: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        for dir in std::fs::read_dir(cache.join(BUCKET))
            .expect("bucket")
            .flatten()
        {
            for entry in std::fs::read_dir(dir.path()).expect("shard dir").flatten() {
                out.push((entry.path(), std::fs::read(entry.path()).expect("entry")));
            }
        }
        out.sort();
        out
    }

    fn entry_path(cache: &Path, key: &[u8; 32]) -> PathBuf {
        let name = crate::core::tokens::hex(key);
        cache.join(BUCKET).join(&name[..2]).join(name)
    }

    /// A second run makes the same table without reading a file (from the
    /// kept table, or from each file's kept definitions); an edited
    /// header is read again alone and rewrites the one shard that holds
    /// it; a file gone is dropped.
    #[test]
    fn a_second_run_reads_no_file_and_an_edit_is_read_alone() {
        let (dir, files) = kept_project();
        let root = dir.path();
        let cache = tempfile::tempdir().expect("tempdir");
        let disk = DiskCache::at(cache.path());
        let policy = ReadPolicy::default();
        let run = |files: &[String]| project_table(root, files, &policy, &disk, Duration::ZERO);
        let (first, read) = run(&files);
        assert_eq!(read, 3, "headers and the source, not the README");
        let (paths, key) = read_as(&first);
        assert_eq!(paths, ["mylib", "mylib::g"], "the first live branch");
        let texts: Vec<String> = files[..3]
            .iter()
            .map(|f| std::fs::read_to_string(root.join(f)).expect("read"))
            .collect();
        let fresh = CMacros::new(&[]).with_texts(texts.iter().map(String::as_str));
        assert_eq!(fresh.key(), key, "the table the texts make");
        let (second, read) = run(&files);
        assert_eq!(read, 0, "every file known by its stamp");
        assert_eq!(second, first);
        // Without the kept table, from each file's kept definitions.
        std::fs::remove_file(entry_path(cache.path(), &table_key())).expect("table");
        assert_eq!(run(&files), (first, 0));
        let shards_before: Vec<_> = entries(cache.path())
            .into_iter()
            .filter(|(p, _)| *p != entry_path(cache.path(), &table_key()))
            .collect();
        std::fs::write(
            root.join("include/api.h"),
            "#define MYLIB_BEGIN(name)\n#define MYLIB_END(name)\n",
        )
        .expect("write");
        let (third, read) = run(&files);
        assert_eq!(read, 1, "the edited header alone");
        let (paths, edited_key) = read_as(&third);
        assert_eq!(paths, ["g"], "the edit is seen");
        assert_ne!(edited_key, key);
        let shards_after: Vec<_> = entries(cache.path())
            .into_iter()
            .filter(|(p, _)| *p != entry_path(cache.path(), &table_key()))
            .collect();
        assert_eq!(shards_before.len(), shards_after.len());
        let changed = shards_before
            .iter()
            .zip(&shards_after)
            .filter(|(b, a)| b != a)
            .count();
        assert_eq!(changed, 1, "one shard rewritten");
        assert_eq!(run(&files), (third, 0));
        // A file gone is read by no one and kept no longer.
        std::fs::remove_file(root.join("src/a.cpp")).expect("remove");
        assert_eq!(run(&files).1, 0);
        let kept: usize = (0..SHARDS).map(|s| load_shard(&disk, s).files.len()).sum();
        assert_eq!(kept, 2);
    }

    /// A kept entry cut short, not sealed, of another format or naming
    /// definitions that do not decode is a miss: its files are read again
    /// or the table built again (never a panic), and the entry made anew.
    #[test]
    fn a_bad_entry_is_refused_and_made_anew() {
        let (dir, files) = kept_project();
        let root = dir.path();
        let cache = tempfile::tempdir().expect("tempdir");
        let disk = DiskCache::at(cache.path());
        let policy = ReadPolicy::default();
        let run = || project_table(root, &files, &policy, &disk, Duration::ZERO);
        let (want, _) = run();
        let want = || CMacroTable::decode(&want.encode()).expect("same");
        let table = entry_path(cache.path(), &table_key());
        // Every entry cut in half on disk.
        for (path, bytes) in entries(cache.path()) {
            std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("cut");
        }
        assert_eq!(run(), (want(), 3));
        assert_eq!(run().1, 0, "made anew");
        // Sealed, but garbage.
        let shards: Vec<usize> = (0..SHARDS)
            .filter(|s| !load_shard(&disk, *s).files.is_empty())
            .collect();
        for shard in &shards {
            disk.put_loose(BUCKET, &shard_key(*shard), b"\xff\x00garbage");
        }
        disk.put_loose(BUCKET, &table_key(), &[0; 40]);
        assert_eq!(run(), (want(), 3));
        // A kept table of the same inputs, cut inside: built again from
        // the kept definitions, no file read.
        let payload = disk.get(BUCKET, &table_key()).expect("table");
        disk.put_loose(BUCKET, &table_key(), &payload[..payload.len() - 3]);
        assert_eq!(run().1, 0);
        let made = disk.get(BUCKET, &table_key()).expect("made anew");
        assert_eq!(made[..32], payload[..32]);
        assert_eq!(CMacroTable::decode(&made[32..]), Some(want()));
        // Shards of the right framing whose definitions do not decode,
        // and no table: those files are read again.
        for shard in &shards {
            let old = load_shard(&disk, *shard);
            let mut bytes = build_id().to_vec();
            for (rel, kept) in &old.files {
                let defines = old.defines(&disk, kept).expect("kept");
                encode_entry(
                    &mut bytes,
                    rel,
                    kept.stamp,
                    &kept.hash,
                    &defines[..defines.len() - 1],
                );
            }
            disk.put_loose(BUCKET, &shard_key(*shard), &bytes);
        }
        std::fs::remove_file(&table).expect("table");
        assert_eq!(run(), (want(), 3));
        assert_eq!(run().1, 0);
        // A shard of another build of ctxcurate is no shard.
        let mut other = disk.get(BUCKET, &shard_key(shards[0])).expect("shard");
        other[0] ^= 1;
        assert!(decode_shard(other).is_none());
    }

    /// A file still changing (its stamp not yet settled) is read on every
    /// run until it is.
    #[test]
    fn a_file_not_settled_is_read_again() {
        let (dir, files) = kept_project();
        let root = dir.path();
        let cache = tempfile::tempdir().expect("tempdir");
        let disk = DiskCache::at(cache.path());
        let policy = ReadPolicy::default();
        let hour = Duration::from_secs(3600);
        let read = |settle| project_table(root, &files, &policy, &disk, settle).1;
        assert_eq!(read(hour), 3);
        assert_eq!(read(hour), 3);
        assert_eq!(read(Duration::ZERO), 3);
        assert_eq!(read(Duration::ZERO), 0);
    }

    #[test]
    fn kept_definitions_read_back() {
        let defines = CDefines::scan(
            "#define A\n#define B(x, ...) f(x, __VA_ARGS__)\n#define C() \"\\t\" \n#define D_\u{e9} 1\n",
        );
        assert_eq!(defines.len(), 4);
        let mut bytes = Vec::new();
        defines.encode(&mut bytes);
        assert_eq!(CDefines::decode(&bytes), Some(defines));
        for cut in 0..bytes.len() {
            assert_eq!(CDefines::decode(&bytes[..cut]), None, "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(CDefines::decode(&longer), None);
        assert_eq!(CDefines::decode(&[255, 255, 255, 255]), None);
    }

    #[test]
    fn flags_of_the_compilation_database_are_defines() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("compile_commands.json"),
            r#"[{"directory": ".", "command": "cc -DAPI= -D ONE -DTWO=2 -Iinc -c a.c", "file": "a.c"},
                {"directory": ".", "arguments": ["cc", "-DAPI=extern", "-DTHREE=3"], "file": "b.c"}]"#,
        )
        .expect("write");
        assert_eq!(
            flag_defines(dir.path()),
            "#define API \n#define ONE 1\n#define TWO 2\n#define THREE 3\n"
        );
        std::fs::write(dir.path().join("compile_commands.json"), "not json").expect("write");
        assert_eq!(flag_defines(dir.path()), "");
    }

    /// A compilation database swapped for a FIFO is refused at once.
    #[test]
    fn a_fifo_for_a_compilation_database_is_not_waited_on() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("compile_commands.json");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let root = dir.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(flag_defines(&root));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("not waited on");
        assert_eq!(got, "");
    }
}
