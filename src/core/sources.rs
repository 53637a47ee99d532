//! `Sources` is the per-file engine (its on-disk half is `store::disk`,
//! the [`DiskCache`]) shared by composition and the TUI: one file's content
//! (re-read only when its size or mtime changes), its symbol tree (parsed
//! once per content), its rendered view per entry settings, and token
//! counts per rendered text. A text is read once into an `Arc<str>` that a
//! `full` view and the composition share; the in-memory maps are
//! `core::lru` maps bounded by the `memory_cache` setting (MiB).
//! `Project::file_cache` (the TUI) and `Project::run_cache` (one CLI
//! command, batching its disk writes) make one.
//!
//! Every key includes the content hash, so a changed file can never be
//! served a stale view or count.
//!
//! With a [`DiskCache`] attached, the costly results (token counts, views
//! that need a parse, outlines derived from symbols) are also kept on disk
//! under the same keys, so a new run over an unchanged project neither
//! parses nor tokenizes again. Summaries are not kept in the view bucket:
//! they may come from an external summarizer with its own cache.
//! Summaries go through the cache's [`Summarizer`], which keeps them on
//! disk across runs in its own bucket.
//!
//! [`Codebase`] (submodule `codebase`) is the value composition, discovery
//! and the secret scan take: a root, its `Sources`, and the walk.

mod bundles;
pub mod c_project;
mod codebase;
mod stamps;
pub mod word_index;

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use sha2::{Digest, Sha256};

use crate::core::lru::{Lru, LruStats};
use crate::core::model::{FileItem, TokenizerKind, ViewMode};
use crate::core::progress::Progress;
pub use crate::core::store::DiskCache;
use crate::core::store::disk as store;
use crate::core::summary::Summarizer;
use crate::core::syntax::{self, CMacros, Lang, SymbolTree};
use crate::core::tokens::TokenCache;
use crate::core::views::{self, View};
use crate::core::walk::{self, Content, FileProblem, ReadPolicy};
pub use codebase::Codebase;
use stamps::{Stamp, Stamps};

/// One file as last read.
#[derive(Debug)]
pub struct CachedFile {
    stamp: Option<Stamp>,
    pub content: Content,
    /// SHA-256 of the text (zero for unreadable files), made on first
    /// use: a file shown in full needs none.
    hash: OnceLock<[u8; 32]>,
    symbols: OnceLock<Option<Arc<SymbolTree>>>,
}

impl CachedFile {
    fn new(content: Content, stamp: Option<Stamp>) -> Self {
        CachedFile {
            stamp,
            content,
            hash: OnceLock::new(),
            symbols: OnceLock::new(),
        }
    }

    /// SHA-256 of the text (zero for unreadable files).
    pub fn hash(&self) -> &[u8; 32] {
        self.hash.get_or_init(|| match &self.content {
            Content::Text { text, .. } => Sha256::digest(text.as_bytes()).into(),
            Content::Unreadable(_) => [0; 32],
        })
    }

    /// The text, if the file is readable.
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            Content::Text { text, .. } => Some(text),
            Content::Unreadable(_) => None,
        }
    }
}

/// Key of a rendered view: content, path (views depend on the extension),
/// the entry's settings and the mode.
type ViewKey = ([u8; 32], String, String, ViewMode);

/// Each of a list of files' derived-text key, where known without a read.
type Keys = Arc<Vec<Option<[u8; 32]>>>;

/// A file's stamp as a snapshot took it, and its content hash once known.
type Seen = (Option<Stamp>, Option<[u8; 32]>);

/// The shared cache. Cheap to clone handles to via `Arc`; safe across threads.
#[derive(Debug, Default)]
pub struct Sources {
    /// How files are read; changing it forgets what was read before.
    policy: Mutex<ReadPolicy>,
    files: Mutex<Lru<String, Arc<CachedFile>>>,
    /// Files over the size cap, read in full for entries that force it.
    forced: Mutex<Lru<String, Arc<CachedFile>>>,
    views: Mutex<Lru<ViewKey, Arc<View>>>,
    /// Texts derived per content ([`Sources::derived`]), by their key.
    derived: Mutex<Lru<[u8; 32], Arc<str>>>,
    tokens: TokenCache,
    disk: DiskCache,
    summarizer: Summarizer,
    /// The project's extra C/C++ macros: every parse reads them, every key
    /// of what a parse produces names them.
    c_macros: Mutex<CMacros>,
    /// Content hashes by stamp, kept across runs ([`stamps`]).
    stamps: Mutex<Stamps>,
    /// What passes over every file derived, a few entries per name
    /// ([`bundles`]).
    bundles: bundles::Bundles,
    /// The word indexes loaded or built, by derived name ([`word_index`]).
    word_indexes: Mutex<std::collections::HashMap<String, Arc<word_index::WordIndex>>>,
    /// In a [`Snapshot`], the keys [`Sources::word_postings`] found for a
    /// list of files, by a hash of the name and the list: a pack asks
    /// several times over the same files.
    word_keys: Mutex<std::collections::HashMap<u64, Keys>>,
    /// The derived names whose texts this build made anew for most files:
    /// no word index is built for them until the next build (the outermost
    /// snapshot's end), in this process or another.
    word_fresh: Mutex<std::collections::HashSet<String>>,
    /// The stamps taken in the [`Snapshot`] open now, each file's once
    /// (`None` outside one: every look at a file takes its stamp again).
    /// With each, the content hash once known ([`Sources::known_hash`]).
    checked: Mutex<Option<std::collections::HashMap<String, Seen>>>,
    /// How far the composition or pack running through this cache has
    /// come (for a front end's progress line).
    progress: Arc<Progress>,
}

/// The default bound on what one process keeps in memory (1 GiB; the
/// `memory_cache` setting, in MiB, overrides it).
pub const DEFAULT_MEMORY_BOUND: usize = 1 << 30;

/// Each in-memory map's share of the bound (`bytes / share`): read files
/// most, then views; derived texts and token counts are small.
const MEMORY_SHARES: &[(&str, usize)] = &[
    ("files", 2),
    ("forced", 8),
    ("views", 4),
    ("derived", 16),
    ("tokens", 16),
];

/// The share of the memory bound that loaded [`bundles`] may hold.
const BUNDLE_SHARE: usize = 4;

/// Bytes counted for an entry besides its text (keys, maps, `Arc`s).
const ENTRY_OVERHEAD: usize = 128;

/// Bumped whenever a view renderer or derived text changes, so entries
/// written by an older version are never served.
const DISK_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "/7");

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere cannot leave these maps half-updated: every
    // insert is a single call.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sources {
    /// Heuristic summaries, nothing on disk.
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache that also keeps its costly results in `disk`.
    pub fn with_disk(disk: DiskCache) -> Self {
        Sources {
            disk,
            ..Self::default()
        }
    }

    /// Summaries made (and cached on disk) by `summarizer`.
    pub fn with_summarizer(summarizer: Summarizer) -> Self {
        Sources {
            summarizer,
            ..Self::default()
        }
    }

    /// The cache of a project: costly results in `disk`, summaries from
    /// `summarizer` (what the CLI and the TUI use).
    pub fn for_project(disk: DiskCache, summarizer: Summarizer) -> Self {
        Sources {
            disk,
            summarizer,
            ..Self::default()
        }
    }

    /// Keep at most `bytes` in memory (read files, rendered views, derived
    /// texts and token counts, each an LRU share of it); what is let go is
    /// read, rendered or found on disk again when next needed.
    pub fn set_memory_bound(&self, bytes: usize) {
        for (name, share) in MEMORY_SHARES {
            let cap = bytes / share;
            match *name {
                "files" => lock(&self.files).set_capacity(cap),
                "forced" => lock(&self.forced).set_capacity(cap),
                "views" => lock(&self.views).set_capacity(cap),
                "derived" => lock(&self.derived).set_capacity(cap),
                _ => self.tokens.set_capacity(cap),
            }
        }
        self.bundles.set_cap(bytes / BUNDLE_SHARE);
    }

    /// What each in-memory map holds, its bound and what it let go.
    pub fn memory_stats(&self) -> Vec<(&'static str, LruStats)> {
        vec![
            ("files", lock(&self.files).stats()),
            ("forced", lock(&self.forced).stats()),
            ("views", lock(&self.views).stats()),
            ("derived", lock(&self.derived).stats()),
            ("tokens", self.tokens.stats()),
        ]
    }

    /// The counters of the work running through this cache.
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// The summarizer behind the summary view.
    pub fn summarizer(&self) -> &Summarizer {
        &self.summarizer
    }

    /// `true` when the summary of `rel`'s current content is on disk.
    pub fn summary_cached(&self, root: &Path, rel: &str) -> bool {
        let file = self.file(root, rel);
        file.text().is_some() && self.summarizer.is_cached(rel, file.hash())
    }

    /// Read files as `policy` says from now on (a no-op when unchanged;
    /// otherwise everything read before is forgotten).
    pub fn set_policy(&self, policy: ReadPolicy) {
        let mut current = lock(&self.policy);
        if *current != policy {
            *current = policy;
            drop(current);
            self.clear();
        }
    }

    /// Parse C and C++ with these extra macros (`[syntax] c_macros`) from
    /// now on (a no-op when unchanged; otherwise everything parsed or
    /// rendered before is forgotten).
    pub fn set_c_macros(&self, macros: CMacros) {
        let mut current = lock(&self.c_macros);
        if *current != macros {
            *current = macros;
            drop(current);
            self.clear();
        }
    }

    /// The policy files are read with.
    pub fn policy(&self) -> ReadPolicy {
        *lock(&self.policy)
    }

    /// The file `rel` under `root`, re-read only when its size or mtime
    /// changed since the last call.
    pub fn file(&self, root: &Path, rel: &str) -> Arc<CachedFile> {
        self.file_in(&self.files, root, rel, false)
    }

    /// [`Sources::file`], but with `force` a file over the size cap is
    /// read in full (kept apart, so unforced entries never see it).
    pub fn file_forced(&self, root: &Path, rel: &str, force: bool) -> Arc<CachedFile> {
        let file = self.file(root, rel);
        if force
            && matches!(
                file.content,
                Content::Unreadable(FileProblem::TooLarge { .. })
            )
        {
            return self.file_in(&self.forced, root, rel, true);
        }
        file
    }

    fn file_in(
        &self,
        map: &Mutex<Lru<String, Arc<CachedFile>>>,
        root: &Path,
        rel: &str,
        force: bool,
    ) -> Arc<CachedFile> {
        let policy = self.policy();
        // Only a file read before needs a look at its stamp first; any
        // other is opened at once, its stamp taken from the descriptor (a
        // `stat` a file saved on a 100,000-file build).
        let cached = lock(map).get(rel);
        if let Some(cached) = cached
            && policy.may_read(rel)
            && cached.stamp.is_some()
            && cached.stamp == self.stat(root, rel)
        {
            if !force
                && cached.text().is_some()
                && let Some(seen) = lock(&self.checked).as_mut().and_then(|c| c.get_mut(rel))
            {
                seen.1 = Some(*cached.hash());
            }
            return cached;
        }
        // A file gone (or refused) is read anyway, so the problem is named
        // exactly (not found, symlink loop, …); it has no stamp.
        let (content, meta) = walk::read_content_stamped(root, rel, &policy, force);
        let stamp = meta.as_ref().map(Stamp::of);
        let file = Arc::new(CachedFile::new(content, stamp));
        if let Some(checked) = lock(&self.checked).as_mut() {
            // A file read past the size cap (forced) is no file the
            // derived texts know.
            let hash = file.text().filter(|_| !force).map(|_| *file.hash());
            checked.insert(rel.to_string(), (stamp, hash));
        }
        // The text, and about as much again for its symbol tree once parsed.
        let bytes = 2 * file.text().map_or(0, str::len) + rel.len() + ENTRY_OVERHEAD;
        lock(map).insert(rel.to_string(), file.clone(), bytes);
        file
    }

    /// The stamp of `rel` on disk now: taken once per file in a
    /// [`Snapshot`], at every call outside one.
    fn stat(&self, root: &Path, rel: &str) -> Option<Stamp> {
        if let Some((stamp, _)) = lock(&self.checked).as_ref().and_then(|c| c.get(rel)) {
            return *stamp;
        }
        let stamp = std::fs::metadata(root.join(rel))
            .ok()
            .map(|m| Stamp::of(&m));
        if let Some(checked) = lock(&self.checked).as_mut() {
            checked.insert(rel.to_string(), (stamp, None));
        }
        stamp
    }

    /// The stamp of each of `files` where the file has been still long
    /// enough to be known by it ([`stamps`]), or `None` for all of them
    /// when one is missing, unreadable or younger (a key over them would
    /// not stand for their content).
    pub fn settled_stamps(&self, root: &Path, files: &[&str]) -> Option<Vec<[u8; Stamp::BYTES]>> {
        use rayon::prelude::*;
        let settle = lock(&self.stamps).settle();
        let now = std::time::SystemTime::now();
        files
            .par_iter()
            .map(|rel| {
                let stamp = self.stat(root, rel)?;
                stamp.settled(now, settle).then(|| stamp.bytes())
            })
            .collect()
    }

    /// Know files by their stamp once still for `settle` (tests, whose
    /// files are new).
    #[cfg(test)]
    pub fn settle_after(&self, settle: std::time::Duration) {
        lock(&self.stamps).settle_after(settle);
    }

    /// Look at each file's stamp once until the snapshot is dropped: for
    /// one build, which reads a file several times (its imports, its
    /// terms, its names) and should see one version of it. Snapshots
    /// nest; the outermost ends it.
    pub fn snapshot(&self) -> Snapshot<'_> {
        let mut checked = lock(&self.checked);
        let outer = checked.is_none();
        if outer {
            *checked = Some(std::collections::HashMap::new());
        }
        Snapshot {
            sources: self,
            outer,
        }
    }

    /// The content hash of `rel` without reading it: known when this run
    /// read it at the stamp it has now, or the [`stamps`] index knows that
    /// stamp. `None` when unknown (the caller reads the file).
    fn known_hash(&self, root: &Path, rel: &str) -> Option<[u8; 32]> {
        let policy = self.policy();
        if !policy.may_read(rel) {
            return None;
        }
        // Asked before in this snapshot (a build asks per derived name), or
        // read in it: the hash is kept with the stamp.
        let seen = lock(&self.checked).as_ref().map(|c| c.get(rel).copied());
        let stamp = match seen {
            Some(Some((_, Some(hash)))) => return Some(hash),
            Some(Some((stamp, None))) => stamp?,
            _ => self.stat(root, rel)?,
        };
        if stamp.len > policy.max_file_size {
            return None;
        }
        // Outside a snapshot, a file read before at this stamp.
        let cached = match seen {
            None => lock(&self.files).get(rel),
            Some(_) => None,
        };
        let hash = match cached {
            Some(file) if file.stamp == Some(stamp) => file.text().map(|_| *file.hash()),
            _ => lock(&self.stamps).hash(&self.disk, rel, &stamp),
        }?;
        if let Some(seen) = lock(&self.checked).as_mut().and_then(|c| c.get_mut(rel)) {
            seen.1 = Some(hash);
        }
        Some(hash)
    }

    /// The symbol tree of `rel`, parsed once per content; `None` for files
    /// without a grammar or unreadable ones.
    pub fn symbols(&self, root: &Path, rel: &str) -> Option<Arc<SymbolTree>> {
        let file = self.file(root, rel);
        self.parsed(&file, rel)
    }

    /// The symbol tree of a cached file, parsed on first use; the file's
    /// entry in the memory cache then counts the tree as it is (a file of
    /// many small functions holds several times its text in symbols).
    fn parsed(&self, file: &CachedFile, rel: &str) -> Option<Arc<SymbolTree>> {
        let mut fresh = false;
        let tree = self.parsed_once(file, rel, &mut fresh);
        if fresh && let Some(tree) = &tree {
            let text = file.text().map_or(0, str::len);
            let bytes = (text + tree.weight() + rel.len() + ENTRY_OVERHEAD)
                .max(2 * text + rel.len() + ENTRY_OVERHEAD);
            for map in [&self.files, &self.forced] {
                lock(map).reweigh(rel, bytes, |held| std::ptr::eq(&**held, file));
            }
        }
        tree
    }

    /// [`Sources::parsed`]'s parse (or its disk copy); `fresh` is set when
    /// this call made it.
    fn parsed_once(
        &self,
        file: &CachedFile,
        rel: &str,
        fresh: &mut bool,
    ) -> Option<Arc<SymbolTree>> {
        file.symbols
            .get_or_init(|| {
                *fresh = true;
                let text = file.text()?;
                let lang = Lang::detect(rel, text)?;
                // Kept on disk by content, for this build only: a new task
                // masks the files an earlier one parsed without a parse.
                let key = store::key(&[
                    DISK_VERSION.as_bytes(),
                    b"symbol-tree",
                    &crate::core::store::build_id(),
                    file.hash(),
                    rel.as_bytes(),
                    self.c_macros_key(rel).as_bytes(),
                ]);
                let stored = self.disk.get("trees", &key);
                if let Some(tree) = stored.and_then(|b| syntax::tree_from_bytes(lang, &b)) {
                    return Some(Arc::new(tree));
                }
                let macros = lock(&self.c_macros).clone();
                let tree = syntax::parse_with(lang, text, &macros);
                if let Some(bytes) = syntax::tree_bytes(&tree) {
                    self.disk.put("trees", &key, &bytes);
                }
                Some(Arc::new(tree))
            })
            .clone()
    }

    /// `rel` rendered as `item` asks in `mode`, from the cache when the
    /// content and settings are unchanged. `None` for unreadable files.
    pub fn view(
        &self,
        root: &Path,
        rel: &str,
        item: &FileItem,
        mode: ViewMode,
    ) -> Result<(Arc<View>, bool), FileProblem> {
        let file = self.file_forced(root, rel, item.force_full);
        let (text, lossy) = match &file.content {
            Content::Text { text, lossy } => (text, *lossy),
            Content::Unreadable(p) => return Err(p.clone()),
        };
        // A full view is the text itself: nothing to make, keep or key.
        if mode == ViewMode::Full {
            let view = View {
                mode,
                text: text.clone(),
                notes: Vec::new(),
            };
            return Ok((Arc::new(view), lossy));
        }
        let key: ViewKey = (*file.hash(), rel.to_string(), item_fingerprint(item), mode);
        if let Some(v) = lock(&self.views).get(&key) {
            return Ok((v.clone(), lossy));
        }
        let needs_parse = matches!(
            mode,
            ViewMode::Skeleton | ViewMode::Outline | ViewMode::Masked
        );
        let disk_key = store::key(&[
            DISK_VERSION.as_bytes(),
            file.hash(),
            rel.as_bytes(),
            key.2.as_bytes(),
            mode.as_str().as_bytes(),
            self.c_macros_key(rel).as_bytes(),
        ]);
        let stored = needs_parse
            .then(|| self.disk.get("views", &disk_key))
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<View>(&bytes).ok());
        let view = Arc::new(match stored {
            Some(view) => view,
            None => {
                let view = views::render_parsed(
                    text,
                    mode,
                    item,
                    || self.parsed(&file, rel),
                    || self.summarizer.summarize(rel, text, file.hash()),
                );
                if needs_parse
                    && view.mode == mode
                    && let Ok(json) = serde_json::to_vec(&view)
                {
                    self.disk.put("views", &disk_key, &json);
                }
                view
            }
        });
        let bytes = view.text.len()
            + view.notes.iter().map(|n| n.len()).sum::<usize>()
            + key.1.len()
            + key.2.len()
            + ENTRY_OVERHEAD;
        lock(&self.views).insert(key, view.clone(), bytes);
        Ok((view, lossy))
    }

    /// A text derived from the symbol tree of `rel` by `derive` (named
    /// `name`), kept in memory and on disk per content; `None` for files
    /// without a grammar or unreadable ones.
    pub fn derived(
        &self,
        root: &Path,
        rel: &str,
        name: &str,
        derive: impl FnOnce(&SymbolTree) -> String,
    ) -> Option<Arc<str>> {
        Lang::from_path(rel)?;
        self.memo(root, rel, name, false, |file| {
            Some(derive(&*self.parsed(file, rel)?))
        })
    }

    /// The symbols of `rel` as `path<TAB>name` lines, kept in memory and on
    /// disk per content, so what needs only their names (the symbols a
    /// task is about) reads them without a parse; `None` for files without
    /// a grammar or unreadable ones.
    pub fn symbol_names(&self, root: &Path, rel: &str) -> Option<Arc<str>> {
        self.memo(root, rel, "symbol-names-v1", false, |file| {
            let tree = self.parsed(file, rel)?;
            let mut out = String::new();
            for symbol in tree.iter() {
                // A name never holds a line break or a tab; a path made of
                // names neither.
                out.push_str(&symbol.path.replace(['\t', '\n'], " "));
                out.push('\t');
                out.push_str(&symbol.name.replace(['\t', '\n'], " "));
                out.push('\n');
            }
            Some(out)
        })
    }

    /// A text derived from the content of `rel` by `derive` (named
    /// `name`), kept in memory and on disk per content; `None` for
    /// unreadable files.
    pub fn derived_from_text(
        &self,
        root: &Path,
        rel: &str,
        name: &str,
        derive: impl FnOnce(&str) -> String,
    ) -> Option<Arc<str>> {
        self.memo(root, rel, name, false, |file| file.text().map(derive))
    }

    /// [`Sources::derived_from_text`] for a pass that needs every file's
    /// text (the import graph's statements): kept in [`bundles`] as well,
    /// so the next pass reads a few entries, not one per file.
    pub fn scanned_from_text(
        &self,
        root: &Path,
        rel: &str,
        name: &str,
        derive: impl FnOnce(&str) -> String,
    ) -> Option<Arc<str>> {
        self.memo(root, rel, name, true, |file| file.text().map(derive))
    }

    /// For each of `words`, the files among `files` whose text `name`
    /// (made by `derive`: lines `word` or `word N`) has a line for it,
    /// with the line's value, as (index into `files`, value): from the
    /// project's [`word_index`] for the files it holds as they are now,
    /// from each file's text for the others. The index is built again
    /// when too many differ from it.
    pub fn word_postings(
        &self,
        root: &Path,
        files: &[&str],
        name: &str,
        derive: impl Fn(&str) -> String + Sync,
        words: &[&str],
    ) -> word_index::Answer {
        use rayon::prelude::*;
        use word_index::{Indexed, WordIndex};
        // How many texts this call derived anew (not found cached).
        let derived = std::sync::atomic::AtomicUsize::new(0);
        let counted = |text: &str| {
            derived.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            derive(text)
        };
        let read = |at: &[usize]| -> Vec<Option<Arc<str>>> {
            at.par_iter()
                .map(|&i| self.derived_from_text(root, files[i], name, counted))
                .collect()
        };
        let keys = self.word_keys(root, files, name);
        let loaded = lock(&self.word_indexes).get(name).cloned();
        let loaded = loaded.or_else(|| {
            let index = Arc::new(WordIndex::load(&self.disk, name)?);
            lock(&self.word_indexes).insert(name.to_string(), index.clone());
            Some(index)
        });
        if let Some(index) = loaded
            && let Some(out) =
                word_index::answer(&index, &self.disk, name, files, &keys, words, read)
        {
            return out;
        }
        let all: Vec<usize> = (0..files.len()).collect();
        let texts = read(&all);
        let kept = texts.clone();
        // Most texts derived just now (a new checkout, a cache just
        // cleared), in this call or an earlier one of this build (the
        // snapshot open now): the index is built by the next build, which
        // finds them cached.
        let fresh = 2 * derived.load(std::sync::atomic::Ordering::Relaxed) > files.len();
        if fresh {
            lock(&self.word_fresh).insert(name.to_string());
        }
        if fresh || lock(&self.word_fresh).contains(name) {
            let mut out = vec![Vec::new(); words.len()];
            word_index::add_texts(&mut out, words, &all, &texts);
            return out;
        }
        // Built again from every file's text (each now read, so its key is
        // known).
        let indexed: Vec<Indexed<'_>> = files
            .par_iter()
            .zip(texts)
            .zip(keys.par_iter())
            .filter_map(|((rel, text), key)| {
                let text = text?;
                let key = match key {
                    Some(key) => *key,
                    // Unknown by its stamp: `read` read it (and it stays
                    // the same file for the snapshot).
                    None => {
                        let file = self.file(root, rel);
                        file.text()?;
                        self.derived_key(name, file.hash(), rel)
                    }
                };
                Some(Indexed { rel, key, text })
            })
            .collect();
        let keys: Vec<Option<[u8; 32]>> = {
            let by_rel: std::collections::HashMap<&str, [u8; 32]> =
                indexed.iter().map(|t| (t.rel, t.key)).collect();
            files.iter().map(|rel| by_rel.get(rel).copied()).collect()
        };
        let index = Arc::new(WordIndex::build(&self.disk, name, &indexed));
        lock(&self.word_indexes).insert(name.to_string(), index.clone());
        // An index just built that cannot answer (a chunk the disk did not
        // keep) leaves the texts, read above, to answer: never nothing.
        word_index::answer(&index, &self.disk, name, files, &keys, words, read).unwrap_or_else(
            || {
                let mut out = vec![Vec::new(); words.len()];
                word_index::add_texts(&mut out, words, &all, &kept);
                out
            },
        )
    }

    /// The key of each of `files`' text `name` where its content is known
    /// without reading it; kept for the snapshot open now, if any.
    fn word_keys(&self, root: &Path, files: &[&str], name: &str) -> Keys {
        use rayon::prelude::*;
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        (name, files).hash(&mut h);
        let id = h.finish();
        let in_snapshot = lock(&self.checked).is_some();
        if in_snapshot && let Some(keys) = lock(&self.word_keys).get(&id) {
            return keys.clone();
        }
        let keys: Keys = Arc::new(
            files
                .par_iter()
                .map(|rel| {
                    let hash = self.known_hash(root, rel)?;
                    Some(self.derived_key(name, &hash, rel))
                })
                .collect(),
        );
        if in_snapshot {
            lock(&self.word_keys).insert(id, keys.clone());
        }
        keys
    }

    /// The text `compute` derives from `rel`'s content, from memory or
    /// disk when made before: a file whose hash is known by its stamp is
    /// not read at all. `bundled` texts are looked up in, and added to,
    /// the name's [`bundles`] first.
    fn memo(
        &self,
        root: &Path,
        rel: &str,
        name: &str,
        bundled: bool,
        compute: impl FnOnce(&CachedFile) -> Option<String>,
    ) -> Option<Arc<str>> {
        let bundle = |key: &[u8; 32], text: &Arc<str>| {
            if bundled {
                self.bundles.add(&self.disk, name, rel, *key, text.clone());
            }
        };
        if let Some(hash) = self.known_hash(root, rel) {
            let key = self.derived_key(name, &hash, rel);
            if bundled && let Some(text) = self.bundles.get(&self.disk, name, rel, &key) {
                return Some(text);
            }
            if let Some(text) = self.stored_derived(&key) {
                bundle(&key, &text);
                return Some(text);
            }
        }
        let file = self.file(root, rel);
        file.text()?;
        if let Some(stamp) = file.stamp {
            lock(&self.stamps).learn(&self.disk, rel, stamp, *file.hash());
        }
        let key = self.derived_key(name, file.hash(), rel);
        if bundled && let Some(text) = self.bundles.get(&self.disk, name, rel, &key) {
            return Some(text);
        }
        if let Some(text) = self.stored_derived(&key) {
            bundle(&key, &text);
            return Some(text);
        }
        let text: Arc<str> = compute(&file)?.into();
        self.disk.put("derived", &key, text.as_bytes());
        lock(&self.derived).insert(key, text.clone(), text.len() + ENTRY_OVERHEAD);
        bundle(&key, &text);
        Some(text)
    }

    /// The key of the text `name` derived from `rel` at content `hash`.
    fn derived_key(&self, name: &str, hash: &[u8; 32], rel: &str) -> [u8; 32] {
        store::key(&[
            DISK_VERSION.as_bytes(),
            name.as_bytes(),
            hash,
            rel.as_bytes(),
            self.c_macros_key(rel).as_bytes(),
        ])
    }

    /// A derived text made before, from memory or disk.
    fn stored_derived(&self, key: &[u8; 32]) -> Option<Arc<str>> {
        if let Some(text) = lock(&self.derived).get(key) {
            return Some(text.clone());
        }
        let text: Arc<str> = self.disk.get_text("derived", key)?.into();
        lock(&self.derived).insert(*key, text.clone(), text.len() + ENTRY_OVERHEAD);
        Some(text)
    }

    /// The token count of `text`, cached by its hash in memory and on disk.
    pub fn count(&self, kind: TokenizerKind, text: &str) -> usize {
        let hash: [u8; 32] = Sha256::digest(text.as_bytes()).into();
        if let Some(n) = self.tokens.get(kind, &hash) {
            return n;
        }
        let disk_key = store::key(&[kind.as_str().as_bytes(), &hash]);
        let stored = self
            .disk
            .get_text("tokens", &disk_key)
            .and_then(|s| s.parse().ok());
        let n = stored.unwrap_or_else(|| {
            let n = crate::core::tokens::count(kind, text);
            self.disk.put("tokens", &disk_key, n.to_string().as_bytes());
            n
        });
        self.tokens.insert(kind, hash, n);
        n
    }

    /// An entry of the disk cache kept by a caller of its own (checked
    /// under the seal key, as every entry is); `None` when absent.
    pub fn stored(&self, bucket: &str, key: &[u8; 32]) -> Option<Vec<u8>> {
        self.disk.get(bucket, key)
    }

    /// Keep `payload` under `key` in the disk cache as its own file
    /// ([`DiskCache::put_loose`]: rewritten in place, never packed).
    pub fn store_loose(&self, bucket: &str, key: &[u8; 32], payload: &[u8]) {
        self.disk.put_loose(bucket, key, payload);
    }

    /// The part of a cache key of `rel` naming the C/C++ macros its parse
    /// reads (empty when there are none): the user's, and for a C/C++
    /// file the project's (read on first use).
    fn c_macros_key(&self, rel: &str) -> String {
        let macros = lock(&self.c_macros).clone();
        if Lang::from_path(rel).is_some_and(Lang::is_c_family) {
            macros.key()
        } else {
            macros.entries_key()
        }
    }

    /// The part of every C/C++ cache key naming the user's own macros
    /// (`[syntax] c_macros`); the project's come from its files.
    pub fn user_macros_key(&self) -> String {
        lock(&self.c_macros).entries_key()
    }

    /// Forget everything (for a manual refresh), the project's C/C++
    /// macros included (read again on next use).
    pub fn clear(&self) {
        {
            let mut macros = lock(&self.c_macros);
            *macros = macros.reloaded();
        }
        self.release();
    }

    /// Let go of what was read, rendered and derived (a one-shot build,
    /// once a chunk of files is written), but not the project's C/C++
    /// macros: the files are the same, and the macros are read from all
    /// of them.
    pub fn release(&self) {
        lock(&self.files).clear();
        lock(&self.forced).clear();
        lock(&self.views).clear();
        lock(&self.derived).clear();
        if let Some(checked) = lock(&self.checked).as_mut() {
            checked.clear();
        }
    }

    /// Forget the rendered views (after the disk cache was cleared, so
    /// summaries are made again).
    pub fn clear_views(&self) {
        lock(&self.views).clear();
        lock(&self.derived).clear();
    }
}

/// A build's view of the files ([`Sources::snapshot`]): while it is held,
/// each file's stamp is taken once.
#[must_use = "the snapshot ends when dropped"]
pub struct Snapshot<'a> {
    sources: &'a Sources,
    outer: bool,
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        if self.outer {
            *lock(&self.sources.checked) = None;
            lock(&self.sources.word_keys).clear();
            // A long-lived process (the TUI, the MCP server) builds the
            // word index on its next build, as a next run would.
            lock(&self.sources.word_fresh).clear();
        }
    }
}

/// What identifies how an entry renders (its path and the file's content
/// aside): the settings that change the output, and the mode.
pub fn render_key(item: &FileItem, mode: ViewMode) -> String {
    format!("{mode}|{}", item_fingerprint(item))
}

/// The parts of an entry that change its rendering (the path aside), as
/// JSON of those fields: a key built from the values themselves, not from
/// `Debug` output, whose format is no promise.
fn item_fingerprint(item: &FileItem) -> String {
    #[derive(serde::Serialize)]
    struct Rendering<'a> {
        mask_default: crate::core::model::MaskState,
        ast_mask: &'a std::collections::BTreeMap<String, crate::core::model::MaskState>,
        custom_slices: &'a [crate::core::model::Slice],
    }
    let fields = Rendering {
        mask_default: item.mask_default,
        ast_mask: &item.ast_mask,
        custom_slices: &item.custom_slices,
    };
    // These fields are strings, numbers and maps with string keys: JSON
    // always holds them.
    serde_json::to_string(&fields).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file's symbol tree counts in the memory bound once parsed (F17-6:
    /// a file of many small functions holds several times its text in
    /// symbols, which the estimate at read time left out), and many such
    /// files stay under the bound.
    #[test]
    fn parsed_symbol_trees_count_in_the_bound() {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = |i: usize| {
            (0..2000)
                .map(|n| format!("def f{i}_{n}(a, b):\n    return a + b * {n}\n"))
                .collect::<String>()
        };
        for i in 0..12 {
            std::fs::write(dir.path().join(format!("m{i}.py")), body(i)).expect("write");
        }
        let cache = Sources::new();
        let tree = cache.symbols(dir.path(), "m0.py").expect("a tree");
        let text = body(0).len();
        assert!(tree.weight() > 2 * text, "{} vs {text}", tree.weight());
        let files = |c: &Sources| c.memory_stats()[0].1;
        assert!(
            files(&cache).bytes >= text + tree.weight(),
            "{:?}",
            files(&cache)
        );
        // Under a bound of three trees' worth, twelve files stay under it.
        let bound = 3 * (text + tree.weight());
        cache.set_memory_bound(bound * 2);
        for i in 0..12 {
            let tree = cache
                .symbols(dir.path(), &format!("m{i}.py"))
                .expect("a tree");
            assert!(tree.find(&format!("f{i}_1999")).is_some());
            let stats = files(&cache);
            assert!(stats.bytes <= stats.capacity, "{stats:?}");
        }
        assert!(files(&cache).evicted > 0);
    }

    /// A long session over many files stays under the bound, and what was
    /// let go comes back right when asked for again.
    #[test]
    fn the_memory_bound_holds_and_evicted_entries_come_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = |i: usize| format!("def f_{i}(x):\n    return x + {i}\n{}", "#\n".repeat(2000));
        for i in 0..60 {
            std::fs::write(dir.path().join(format!("m{i}.py")), body(i)).expect("write");
        }
        let cache = Sources::new();
        cache.set_memory_bound(256 << 10);
        let item = |i: usize| FileItem::new(format!("m{i}.py"));
        for round in 0..2 {
            for i in 0..60 {
                let (view, _) = cache
                    .view(
                        dir.path(),
                        &format!("m{i}.py"),
                        &item(i),
                        ViewMode::Skeleton,
                    )
                    .expect("a view");
                assert!(
                    view.text.contains(&format!("def f_{i}(x)")),
                    "round {round}"
                );
                cache.count(TokenizerKind::O200k, &view.text);
            }
        }
        let stats = cache.memory_stats();
        for (name, s) in &stats {
            assert!(s.bytes <= s.capacity, "{name}: {s:?}");
        }
        let files = stats.iter().find(|(n, _)| *n == "files").expect("files").1;
        assert!(files.evicted > 0, "{files:?}");
        assert_eq!(
            stats.iter().map(|(_, s)| s.capacity).sum::<usize>(),
            256 << 10
        );
    }

    #[test]
    fn render_keys_are_built_from_the_fields() {
        let mut item = FileItem::new("a.py");
        item.ast_mask
            .insert("A.run".into(), crate::core::model::MaskState::Hide);
        let key = render_key(&item, ViewMode::Masked);
        assert_eq!(
            key,
            r#"masked|{"mask_default":"def","ast_mask":{"A.run":"hide"},"custom_slices":[]}"#
        );
        // The path is not part of it; every rendering field is.
        let mut moved = item.clone();
        moved.path = "b.py".into();
        assert_eq!(render_key(&moved, ViewMode::Masked), key);
        let mut sliced = item.clone();
        sliced.custom_slices.push(crate::core::model::Slice {
            start_line: 1,
            end_line: 2,
            ..Default::default()
        });
        assert_ne!(render_key(&sliced, ViewMode::Masked), key);
        assert_ne!(render_key(&item, ViewMode::Outline), key);
    }

    #[test]
    fn rereads_only_changed_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
        let cache = Sources::new();
        let first = cache.file(dir.path(), "a.txt");
        let again = cache.file(dir.path(), "a.txt");
        assert!(Arc::ptr_eq(&first, &again));
        std::fs::write(dir.path().join("a.txt"), "three\n").unwrap();
        let changed = cache.file(dir.path(), "a.txt");
        assert_eq!(changed.text(), Some("three\n"));
        std::fs::remove_file(dir.path().join("a.txt")).unwrap();
        let gone = cache.file(dir.path(), "a.txt");
        assert_eq!(gone.content, Content::Unreadable(FileProblem::NotFound));
    }

    #[test]
    fn counts_and_parsed_views_come_back_from_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.py"), "def f():\n    return 1\n").unwrap();
        let disk = DiskCache::open(dir.path());
        let first = Sources::with_disk(disk.clone());
        let n = first.count(TokenizerKind::O200k, "hello world");
        assert_eq!(n, 2);
        let item = FileItem::new("a.py");
        let (skel, _) = first
            .view(dir.path(), "a.py", &item, ViewMode::Skeleton)
            .unwrap();
        let names: Vec<String> = disk.stats().into_iter().map(|b| b.name).collect();
        assert_eq!(names, ["tokens", "trees", "views"]);

        // A new run (fresh memory) is served from disk: prove it by
        // planting different values under the same keys.
        let hash: [u8; 32] = Sha256::digest(b"hello world").into();
        disk.put("tokens", &store::key(&[b"o200k", &hash]), b"99");
        let second = Sources::with_disk(disk.clone());
        assert_eq!(second.count(TokenizerKind::O200k, "hello world"), 99);
        let (again, _) = second
            .view(dir.path(), "a.py", &item, ViewMode::Skeleton)
            .unwrap();
        assert_eq!(again.text, skel.text);

        // A changed file is a new key: never the old view.
        std::fs::write(dir.path().join("a.py"), "def g2():\n    return 22\n").unwrap();
        let (changed, _) = second
            .view(dir.path(), "a.py", &item, ViewMode::Skeleton)
            .unwrap();
        assert!(changed.text.contains("def g2()"));
    }

    #[test]
    fn a_file_known_by_its_stamp_is_not_read_again_but_a_change_is() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("a.py"), "import os\n").unwrap();
        std::fs::write(root.join("b.py"), "import sys\n").unwrap();
        let disk = DiskCache::at(&root.join("cache"));
        let upper = |text: &str| text.to_uppercase();
        let files_read = |s: &Sources| s.memory_stats()[0].1.entries;
        {
            let first = Sources::with_disk(disk.clone());
            lock(&first.stamps).settle_after(std::time::Duration::ZERO);
            // b.py is learned too young (the real rule): read every time.
            assert_eq!(
                first
                    .derived_from_text(root, "a.py", "up", upper)
                    .as_deref(),
                Some("IMPORT OS\n")
            );
            lock(&first.stamps).settle_after(stamps::SETTLED);
            first.derived_from_text(root, "b.py", "up", upper);
        }
        let second = Sources::with_disk(disk.clone());
        let _snapshot = second.snapshot();
        let never = |_: &str| -> String { panic!("made again") };
        assert_eq!(
            second
                .derived_from_text(root, "a.py", "up", never)
                .as_deref(),
            Some("IMPORT OS\n")
        );
        assert_eq!(files_read(&second), 0, "a.py was read again");
        assert_eq!(
            second
                .derived_from_text(root, "b.py", "up", never)
                .as_deref(),
            Some("IMPORT SYS\n")
        );
        assert_eq!(files_read(&second), 1, "b.py, too young to trust, is read");
        drop(_snapshot);

        // Another content at another stamp is read and derived anew.
        std::fs::write(root.join("a.py"), "import os, re\n").unwrap();
        let third = Sources::with_disk(disk);
        assert_eq!(
            third
                .derived_from_text(root, "a.py", "up", upper)
                .as_deref(),
            Some("IMPORT OS, RE\n")
        );
    }

    #[test]
    fn a_scan_is_served_from_its_bundle_and_an_edit_rewrites_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (name, text) in [("a.py", "import os\n"), ("b.py", "import sys\n")] {
            std::fs::write(root.join(name), text).unwrap();
        }
        let cache = root.join("cache");
        let disk = DiskCache::at(&cache);
        let upper = |text: &str| text.to_uppercase();
        {
            let first = Sources::with_disk(disk.clone());
            lock(&first.stamps).settle_after(std::time::Duration::ZERO);
            for rel in ["a.py", "b.py"] {
                first.scanned_from_text(root, rel, "up", upper);
            }
        }
        // The per-file entries go: the bundle alone serves the next scan,
        // without a read or a derive.
        std::fs::remove_dir_all(cache.join("derived")).unwrap();
        {
            let second = Sources::with_disk(disk.clone());
            let never = |_: &str| -> String { panic!("made again") };
            for (rel, want) in [("a.py", "IMPORT OS\n"), ("b.py", "IMPORT SYS\n")] {
                let got = second.scanned_from_text(root, rel, "up", never);
                assert_eq!(got.as_deref(), Some(want));
            }
            assert_eq!(second.memory_stats()[0].1.entries, 0, "a file was read");
        }
        // An edit is derived anew, and the next run finds the new text.
        std::fs::write(root.join("a.py"), "import re\n").unwrap();
        {
            let third = Sources::with_disk(disk.clone());
            lock(&third.stamps).settle_after(std::time::Duration::ZERO);
            let got = third.scanned_from_text(root, "a.py", "up", upper);
            assert_eq!(got.as_deref(), Some("IMPORT RE\n"));
        }
        std::fs::remove_dir_all(cache.join("derived")).unwrap();
        let fourth = Sources::with_disk(disk);
        let never = |_: &str| -> String { panic!("made again") };
        let got = fourth.scanned_from_text(root, "a.py", "up", never);
        assert_eq!(got.as_deref(), Some("IMPORT RE\n"));
    }

    #[test]
    fn a_word_index_answers_a_second_run_without_reading_and_follows_an_edit() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files: Vec<String> = (0..100).map(|i| format!("m{i}.py")).collect();
        for (i, rel) in files.iter().enumerate() {
            std::fs::write(root.join(rel), format!("common\nonly{i}\n")).unwrap();
        }
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let cache = root.join("cache");
        let disk = DiskCache::at(&cache);
        let lines = |text: &str| text.to_string();
        let words = ["common", "only7", "absent"];
        let sorted = |mut v: Vec<(usize, u32)>| {
            v.sort_unstable();
            v.into_iter().map(|(i, _)| i).collect::<Vec<_>>()
        };
        let check = |got: Vec<Vec<(usize, u32)>>| {
            assert_eq!(got[0].len(), 100);
            assert_eq!(sorted(got[1].clone()), [7]);
            assert!(got[2].is_empty());
        };
        // A first run derives every text: no index yet.
        {
            let first = Sources::with_disk(disk.clone());
            lock(&first.stamps).settle_after(std::time::Duration::ZERO);
            check(first.word_postings(root, &files, "lines", lines, &words));
        }
        assert!(!cache.join("word-index").exists());
        // The next finds them cached and builds it, reading no file.
        {
            let second = Sources::with_disk(disk.clone());
            let _snapshot = second.snapshot();
            let never = |_: &str| -> String { panic!("made again") };
            check(second.word_postings(root, &files, "lines", never, &words));
            assert_eq!(second.memory_stats()[0].1.entries, 0, "a file was read");
        }
        assert!(cache.join("word-index").exists());
        // The index alone answers the next (the per-file texts are gone).
        std::fs::remove_dir_all(cache.join("derived")).unwrap();
        {
            let third = Sources::with_disk(disk.clone());
            let never = |_: &str| -> String { panic!("made again") };
            check(third.word_postings(root, &files, "lines", never, &words));
        }
        std::fs::write(root.join("m7.py"), "common\nedited\n").unwrap();
        let fourth = Sources::with_disk(disk);
        let got = fourth.word_postings(root, &files, "lines", lines, &["only7", "edited"]);
        assert!(got[0].is_empty(), "{got:?}");
        assert_eq!(sorted(got[1].clone()), [7]);
    }

    #[test]
    fn a_long_lived_process_builds_the_word_index_on_its_next_build() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files: Vec<String> = (0..20).map(|i| format!("m{i}.py")).collect();
        for (i, rel) in files.iter().enumerate() {
            std::fs::write(root.join(rel), format!("common\nonly{i}\n")).unwrap();
        }
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let cache = root.join("cache");
        let sources = Sources::with_disk(DiskCache::at(&cache));
        sources.settle_after(std::time::Duration::ZERO);
        let lines = |text: &str| text.to_string();
        {
            // One build asks twice (relevance, then the map).
            let _build = sources.snapshot();
            for _ in 0..2 {
                let got = sources.word_postings(root, &files, "lines", lines, &["only3"]);
                assert_eq!(got[0].len(), 1);
            }
        }
        assert!(!cache.join("word-index").exists(), "the first build paid");
        {
            let _build = sources.snapshot();
            let never = |_: &str| -> String { panic!("made again") };
            let got = sources.word_postings(root, &files, "lines", never, &["only3"]);
            assert_eq!(got[0].len(), 1);
        }
        assert!(cache.join("word-index").exists());
    }

    #[test]
    fn a_snapshot_takes_each_stamp_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
        let sources = Sources::new();
        let snapshot = sources.snapshot();
        assert_eq!(sources.file(dir.path(), "a.py").text(), Some("x = 1\n"));
        std::fs::write(dir.path().join("a.py"), "x = 22\n").unwrap();
        // The build sees one version of the file …
        assert_eq!(sources.file(dir.path(), "a.py").text(), Some("x = 1\n"));
        drop(snapshot);
        // … and the next look, outside it, the new one.
        assert_eq!(sources.file(dir.path(), "a.py").text(), Some("x = 22\n"));
    }

    #[test]
    fn views_are_cached_per_settings() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "x\n").unwrap();
        let cache = Sources::new();
        let item = FileItem::new("a.txt");
        let (a, _) = cache
            .view(dir.path(), "a.txt", &item, ViewMode::Full)
            .unwrap();
        let (b, _) = cache
            .view(dir.path(), "a.txt", &item, ViewMode::Full)
            .unwrap();
        // A full view is the file's text, shared, never copied or kept.
        assert!(Arc::ptr_eq(&a.text, &b.text));
        let (c, _) = cache
            .view(dir.path(), "a.txt", &item, ViewMode::None)
            .unwrap();
        assert_eq!(&*c.text, views::EXCLUDED);
        let (d, _) = cache
            .view(dir.path(), "a.txt", &item, ViewMode::None)
            .unwrap();
        assert!(Arc::ptr_eq(&c, &d), "other views are kept");
        assert_eq!(
            cache
                .view(dir.path(), "nope", &item, ViewMode::Full)
                .unwrap_err(),
            FileProblem::NotFound
        );
    }
}
