//! Glob expansion: a preset's entries (paths, globs, exclusions) turned
//! into concrete files against one sorted walk, so a preset renders the
//! same files in the same order on every machine.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};

use globset::{GlobBuilder, GlobMatcher};

use super::{is_blacklisted, is_sensitive};
use crate::core::model::FileItem;

/// `true` when `s` contains glob syntax.
pub fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// Braces nested deeper than this in one glob are refused: real globs
/// nest one or two (`src/{a,b{1,2}}/*`), and globset's parser recurses
/// per level (600 levels panicked).
pub const MAX_BRACE_DEPTH: usize = 16;
/// A glob longer than this is refused (a path is at most 4,096 bytes).
pub const MAX_GLOB_LEN: usize = 4096;

/// Why a preset glob was not compiled.
#[derive(Debug, thiserror::Error)]
pub enum GlobError {
    #[error(transparent)]
    Syntax(#[from] globset::Error),
    #[error("braces nested {depth} deep; a glob may nest them at most {MAX_BRACE_DEPTH} deep")]
    TooDeep { depth: usize },
    #[error("{len} bytes long; a glob may be at most {MAX_GLOB_LEN} bytes")]
    TooLong { len: usize },
}

/// The glob's deepest nesting of `{…}` (a `\\`-escaped brace not counted).
pub fn brace_depth(pattern: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// `Ok` when a glob is within the bounds globset is safe with.
pub fn check_bounds(pattern: &str) -> Result<(), GlobError> {
    match brace_depth(pattern) {
        depth if depth > MAX_BRACE_DEPTH => Err(GlobError::TooDeep { depth }),
        _ if pattern.len() > MAX_GLOB_LEN => Err(GlobError::TooLong { len: pattern.len() }),
        _ => Ok(()),
    }
}

/// Compile a preset glob: `*` stays within one directory, `**` crosses them.
/// Compiled globs are remembered (a few hundred patterns): the TUI asks
/// for the same ones on every keypress (`curation::inherited`), and
/// compiling one costs as much as matching it against thousands of paths.
/// A glob past [`MAX_BRACE_DEPTH`] or [`MAX_GLOB_LEN`] is an error.
pub fn compile_glob(pattern: &str) -> Result<GlobMatcher, GlobError> {
    check_bounds(pattern)?;
    static COMPILED: Mutex<Option<HashMap<String, GlobMatcher>>> = Mutex::new(None);
    let lock = || {
        COMPILED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some(m) = lock().as_ref().and_then(|known| known.get(pattern)) {
        return Ok(m.clone());
    }
    let matcher = GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()?
        .compile_matcher();
    let mut known = lock();
    let known = known.get_or_insert_with(HashMap::new);
    if known.len() >= REMEMBERED_GLOBS {
        known.clear();
    }
    known.insert(pattern.to_string(), matcher.clone());
    Ok(matcher)
}

/// At most this many compiled globs are remembered.
const REMEMBERED_GLOBS: usize = 256;

/// A preset entry resolved to one concrete file.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedItem {
    /// The concrete relative path.
    pub path: String,
    /// The entry's settings, shared by every file a glob entry brings in
    /// (a glob over 100,000 files holds one copy, not 100,000): its
    /// `path` is the entry's, possibly the glob; the file's is
    /// [`ResolvedItem::path`], and [`ResolvedItem::item`] puts the two
    /// together.
    pub settings: Arc<FileItem>,
    /// Index of the preset entry this file came from.
    pub entry: usize,
}

impl ResolvedItem {
    /// `item` for its own path (an explicit entry, or one made up).
    pub fn new(item: FileItem, entry: usize) -> Self {
        ResolvedItem {
            path: item.path.clone(),
            settings: Arc::new(item),
            entry,
        }
    }

    /// The file `path` brought in by the entry `settings`.
    pub fn shared(path: String, settings: &Arc<FileItem>, entry: usize) -> Self {
        ResolvedItem {
            path,
            settings: Arc::clone(settings),
            entry,
        }
    }

    /// The entry's settings with the concrete path (what renders the
    /// file: its mode may depend on the path). Borrowed unless a glob
    /// brought the file in.
    pub fn item(&self) -> std::borrow::Cow<'_, FileItem> {
        if self.settings.path == self.path {
            std::borrow::Cow::Borrowed(&*self.settings)
        } else {
            let mut item = (*self.settings).clone();
            item.path.clone_from(&self.path);
            std::borrow::Cow::Owned(item)
        }
    }

    /// [`ResolvedItem::item`], owned.
    pub fn into_item(self) -> FileItem {
        let mut item = Arc::unwrap_or_clone(self.settings);
        item.path = self.path;
        item
    }

    /// The settings to change for this file alone (copied first when
    /// shared); the path is not one of them.
    pub fn settings_mut(&mut self) -> &mut FileItem {
        Arc::make_mut(&mut self.settings)
    }
}

/// What went wrong while expanding a preset's entries.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpandProblem {
    /// The glob itself is malformed.
    BadGlob { pattern: String, message: String },
    /// An `exclude` glob is malformed: it excludes nothing.
    BadExclude { pattern: String, message: String },
    /// The glob matched no file.
    NoMatch { pattern: String },
    /// Glob entries past [`MAX_GLOB_ENTRIES`] (or [`MAX_GLOB_BYTES`])
    /// were left out: how many, and the first.
    TooManyGlobs { left_out: usize, first: String },
    /// `exclude` holds more globs than [`MAX_GLOB_ENTRIES`] (or
    /// [`MAX_GLOB_BYTES`]): glob entries
    /// bring in nothing, as the exclusions cannot all be checked.
    TooManyExcludes { globs: usize },
}

/// The most glob entries a preset's files (and, apart, its `exclude`) are
/// expanded with: each is compiled to an automaton and matched against
/// the walk, and 80,870 of them (a 4 MB project file) took a build half a
/// minute, 4,096 `exclude` globs 16 s over 3,000 files (recheck 16). Real
/// presets hold a few dozen.
pub const MAX_GLOB_ENTRIES: usize = 1024;

/// … and the most bytes their globs may take together (each may be 4 KiB:
/// a thousand such took seconds and half a gigabyte, recheck 16b).
pub const MAX_GLOB_BYTES: usize = 64 * 1024;

/// `pattern` cut to its first 80 characters, so what follows reads.
fn shown_pattern(pattern: &str) -> std::borrow::Cow<'_, str> {
    match pattern.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &pattern[..cut]).into(),
        None => pattern.into(),
    }
}

impl std::fmt::Display for ExpandProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandProblem::BadGlob { pattern, message } => {
                write!(f, "bad glob `{}`: {message}", shown_pattern(pattern))
            }
            ExpandProblem::BadExclude { pattern, message } => write!(
                f,
                "bad exclude glob `{}`: {message}; it excludes nothing",
                shown_pattern(pattern)
            ),
            ExpandProblem::NoMatch { pattern } => write!(f, "glob `{pattern}` matches no file"),
            ExpandProblem::TooManyGlobs { left_out, first } => write!(
                f,
                "{left_out} glob entries left out, from `{}`: a preset is expanded with at most {MAX_GLOB_ENTRIES} globs, {} KiB of them",
                shown_pattern(first),
                MAX_GLOB_BYTES / 1024
            ),
            ExpandProblem::TooManyExcludes { globs } => write!(
                f,
                "exclude holds {globs} globs, more than the {MAX_GLOB_ENTRIES} ({} KiB) checked: the preset's glob entries bring in no file",
                MAX_GLOB_BYTES / 1024
            ),
        }
    }
}

/// Expand a preset's entries into concrete files, in entry order with each
/// glob's matches sorted. An explicitly named file keeps its own entry even
/// when a glob also matches it; otherwise the first entry naming a file
/// wins. Blacklisted files never appear; [`is_sensitive`] ones only when
/// named explicitly. `walk` is called only when some
/// entry is a glob.
pub fn expand_items(
    entries: &[FileItem],
    exclude: &[String],
    walk: impl FnOnce() -> Vec<String>,
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    if entries.iter().any(|e| is_glob(&e.path)) {
        expand_over(entries, exclude, &walk())
    } else {
        expand_over(entries, exclude, &[])
    }
}

/// `rel`'s entry among a preset's `entries` as a build resolves it: its
/// own entry, or the glob entry that pulls it in (less what `exclude`
/// names); `None` when the preset does not show it.
pub fn entry_for(entries: &[FileItem], exclude: &[String], rel: &str) -> Option<FileItem> {
    let files = [rel.to_string()];
    let (resolved, _) = expand_over(entries, exclude, &files);
    resolved
        .into_iter()
        .find(|r| r.path == rel)
        .map(ResolvedItem::into_item)
}

/// [`expand_items`] over a known, sorted file list. Glob matches that an
/// `exclude` path or glob names are skipped; explicit entries never are.
pub fn expand_over(
    entries: &[FileItem],
    exclude: &[String],
    files: &[String],
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    expand_indexed(entries, exclude, files, &mut GlobIndex::default())
}

/// Which files of one walk each glob matches (and which files a glob may
/// match at all), kept across expansions over that same walk: the TUI
/// expands its preset again on every edit, and a 100,000-file walk is
/// matched against a glob once, not once per keypress.
#[derive(Debug, Default)]
pub struct GlobIndex {
    /// The walk these answers are for. Weak: it keeps the allocation (so
    /// no other list can take its address) but not the list, which its
    /// owner may still change in place (`Arc::make_mut` then moves it).
    files: Option<Weak<Vec<String>>>,
    /// Per file of the walk: not blacklisted and not a credential file.
    eligible: Vec<bool>,
    /// Per glob: the indices of the files it matches, in walk order.
    matches: HashMap<String, Arc<[u32]>>,
}

impl GlobIndex {
    /// Start over unless the answers are for `files`.
    pub(super) fn for_walk(&mut self, files: &Arc<Vec<String>>) {
        let same = self
            .files
            .as_ref()
            .and_then(Weak::upgrade)
            .is_some_and(|f| Arc::ptr_eq(&f, files));
        if !same {
            *self = GlobIndex {
                files: Some(Arc::downgrade(files)),
                ..GlobIndex::default()
            };
        }
    }

    /// The indices of the files of `files` that `pattern` matches.
    pub(super) fn matches(
        &mut self,
        pattern: &str,
        files: &[String],
    ) -> Result<Arc<[u32]>, GlobError> {
        if let Some(m) = self.matches.get(pattern) {
            return Ok(m.clone());
        }
        let matcher = compile_glob(pattern)?;
        let found: Arc<[u32]> = files
            .iter()
            .enumerate()
            .filter(|(_, p)| matcher.is_match(p.as_str()))
            .filter_map(|(i, _)| u32::try_from(i).ok())
            .collect();
        // Only a kept walk is worth remembering (see `expand_shared`).
        if self.files.is_some() {
            self.matches.insert(pattern.to_string(), found.clone());
        }
        Ok(found)
    }

    /// Whether a glob may bring in file `i` (not blacklisted, not a
    /// credential file).
    pub(super) fn eligible(&mut self, files: &[String], i: usize) -> bool {
        if self.files.is_none() {
            // A one-off expansion: only the matched files are looked at.
            return !is_blacklisted(&files[i]) && !is_sensitive(&files[i]);
        }
        if self.eligible.len() != files.len() {
            self.eligible = files
                .iter()
                .map(|p| !is_blacklisted(p) && !is_sensitive(p))
                .collect();
        }
        self.eligible[i]
    }
}

impl GlobIndex {
    /// The walk `from` became `to` by `applied` (`walk/delta.rs`): carry
    /// the answers over — each glob's matches moved to their new places,
    /// the files that came matched against it — instead of matching every
    /// glob against the whole walk again. `false` (and nothing kept) when
    /// the answers were not for `from`.
    pub(super) fn follow(
        &mut self,
        from: &Arc<Vec<String>>,
        to: &Arc<Vec<String>>,
        applied: &super::Applied,
    ) -> bool {
        let was_for_from = self
            .files
            .as_ref()
            .and_then(Weak::upgrade)
            .is_some_and(|f| Arc::ptr_eq(&f, from));
        if !was_for_from {
            self.for_walk(to);
            return false;
        }
        let moved = |old: &[u32]| -> Vec<u32> {
            let (mut gone, mut came) = (0usize, 0usize);
            let mut out = Vec::with_capacity(old.len());
            for &i in old {
                let i = i as usize;
                while applied.removed_at.get(gone).is_some_and(|&r| r < i) {
                    gone += 1;
                }
                if applied.removed_at.get(gone) == Some(&i) {
                    continue;
                }
                let rank = i - gone;
                while applied
                    .added_at
                    .get(came)
                    .is_some_and(|&a| a <= rank + came)
                {
                    came += 1;
                }
                out.extend(u32::try_from(rank + came).ok());
            }
            out
        };
        for (pattern, found) in self.matches.iter_mut() {
            let mut now = moved(found);
            if let Ok(matcher) = compile_glob(pattern) {
                let came: Vec<u32> = applied
                    .added
                    .iter()
                    .zip(&applied.added_at)
                    .filter(|(p, _)| matcher.is_match(p.as_str()))
                    .filter_map(|(_, &at)| u32::try_from(at).ok())
                    .collect();
                if !came.is_empty() {
                    now.extend(came);
                    now.sort_unstable();
                }
            }
            *found = now.into();
        }
        if self.eligible.len() == from.len() {
            let old = std::mem::take(&mut self.eligible);
            let mut survivors = old
                .into_iter()
                .enumerate()
                .filter(|(i, _)| applied.removed_at.binary_search(i).is_err())
                .map(|(_, e)| e);
            let mut came = applied.added.iter().zip(&applied.added_at).peekable();
            self.eligible = (0..to.len())
                .filter_map(|n| match came.next_if(|(_, at)| **at == n) {
                    Some((p, _)) => Some(!is_blacklisted(p) && !is_sensitive(p)),
                    None => survivors.next(),
                })
                .collect();
            if self.eligible.len() != to.len() {
                self.eligible.clear();
            }
        } else {
            self.eligible.clear();
        }
        self.files = Some(Arc::downgrade(to));
        true
    }
}

/// [`expand_over`] over a walk the caller keeps (`Arc`), reusing what
/// `index` learnt about it in earlier expansions.
pub fn expand_shared(
    entries: &[FileItem],
    exclude: &[String],
    files: &Arc<Vec<String>>,
    index: &mut GlobIndex,
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    index.for_walk(files);
    expand_indexed(entries, exclude, files, index)
}

fn expand_indexed(
    entries: &[FileItem],
    exclude: &[String],
    files: &[String],
    index: &mut GlobIndex,
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    let excluded = Excluder::new(exclude);
    let mut problems = excluded.problems();
    // Per file of the walk: already taken (an explicit entry names it, or
    // an earlier glob brought it in) or excluded — flags, not hash lookups,
    // as a glob may match 100,000 files.
    let mut taken = vec![false; files.len()];
    let excluded_at = excluded.exact_in(files);
    for e in entries {
        if let Ok(i) = files.binary_search(&e.path) {
            taken[i] = true;
        }
    }
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    let (mut globs, mut glob_bytes) = (0usize, 0usize);
    let mut left_out: Option<(usize, &str)> = None;
    for (entry_index, entry) in entries.iter().enumerate() {
        // `[id].tsx` is a file name before it is a pattern.
        let literal = !is_glob(&entry.path) || files.binary_search(&entry.path).is_ok();
        if literal {
            if !is_blacklisted(&entry.path) && seen.insert(entry.path.as_str()) {
                out.push(ResolvedItem::new(entry.clone(), entry_index));
            }
            continue;
        }
        globs += 1;
        glob_bytes = glob_bytes.saturating_add(entry.path.len());
        if globs > MAX_GLOB_ENTRIES || glob_bytes > MAX_GLOB_BYTES {
            left_out.get_or_insert((0, &entry.path)).0 += 1;
            continue;
        }
        let matches = match index.matches(&entry.path, files) {
            Ok(m) => m,
            Err(e) => {
                problems.push(ExpandProblem::BadGlob {
                    pattern: entry.path.clone(),
                    message: match e {
                        GlobError::Syntax(e) => e.kind().to_string(),
                        other => other.to_string(),
                    },
                });
                continue;
            }
        };
        if matches.is_empty() {
            problems.push(ExpandProblem::NoMatch {
                pattern: entry.path.clone(),
            });
        }
        out.reserve(matches.len());
        let settings = Arc::new(entry.clone());
        for &i in matches.iter() {
            let i = i as usize;
            let path = &files[i];
            if taken[i]
                || excluded_at.get(i).copied().unwrap_or(false)
                || !index.eligible(files, i)
                || excluded.matches_glob(path)
            {
                continue;
            }
            taken[i] = true;
            out.push(ResolvedItem::shared(path.clone(), &settings, entry_index));
        }
    }
    if let Some((left_out, first)) = left_out {
        problems.push(ExpandProblem::TooManyGlobs {
            left_out,
            first: first.to_string(),
        });
    }
    (out, problems)
}

/// A preset's `exclude` list: exact paths, folders (everything below) and
/// globs. A malformed glob excludes nothing (a problem says so); past
/// [`MAX_GLOB_ENTRIES`] globs, every file a glob entry would bring in is
/// excluded, as they cannot all be checked.
pub(super) struct Excluder {
    exact: HashSet<String>,
    globs: Vec<GlobMatcher>,
    /// The malformed globs, with why.
    bad: Vec<(String, String)>,
    /// How many globs, when past [`MAX_GLOB_ENTRIES`] (then none is
    /// compiled and every path matches).
    too_many: Option<usize>,
}

impl Excluder {
    pub(super) fn new(exclude: &[String]) -> Self {
        let mut exact = HashSet::new();
        let mut globs = Vec::new();
        let mut bad = Vec::new();
        let count = exclude.iter().filter(|e| is_glob(e)).count();
        let bytes: usize = exclude.iter().filter(|e| is_glob(e)).map(|e| e.len()).sum();
        let too_many = (count > MAX_GLOB_ENTRIES || bytes > MAX_GLOB_BYTES).then_some(count);
        for e in exclude {
            if !is_glob(e) {
                exact.insert(e.trim_end_matches('/').to_string());
            } else if too_many.is_none() {
                match compile_glob(e) {
                    Ok(glob) => globs.push(glob),
                    Err(GlobError::Syntax(why)) => bad.push((e.clone(), why.kind().to_string())),
                    Err(other) => bad.push((e.clone(), other.to_string())),
                }
            }
        }
        Excluder {
            exact,
            globs,
            bad,
            too_many,
        }
    }

    /// What the user is told of the list: its malformed globs, or that it
    /// holds too many.
    pub(super) fn problems(&self) -> Vec<ExpandProblem> {
        if let Some(globs) = self.too_many {
            return vec![ExpandProblem::TooManyExcludes { globs }];
        }
        self.bad
            .iter()
            .map(|(pattern, message)| ExpandProblem::BadExclude {
                pattern: pattern.clone(),
                message: message.clone(),
            })
            .collect()
    }

    /// Per file of the sorted `files`: excluded by an exact path or a
    /// folder (a contiguous range of a sorted list). Empty when nothing is.
    fn exact_in(&self, files: &[String]) -> Vec<bool> {
        if self.exact.is_empty() {
            return Vec::new();
        }
        if !files.is_sorted() {
            // Not the walk's sorted list: one path at a time.
            return files.iter().map(|f| self.matches_exact(f)).collect();
        }
        let mut out = vec![false; files.len()];
        for e in &self.exact {
            if let Ok(i) = files.binary_search(e) {
                out[i] = true;
            }
            let prefix = format!("{e}/");
            let start = files.partition_point(|f| f.as_str() < prefix.as_str());
            for (i, f) in files.iter().enumerate().skip(start) {
                if !f.starts_with(&prefix) {
                    break;
                }
                out[i] = true;
            }
        }
        out
    }

    /// Excluded by an exact path or a folder holding it.
    pub(super) fn matches_exact(&self, path: &str) -> bool {
        self.exact.contains(path)
            || path
                .match_indices('/')
                .any(|(i, _)| self.exact.contains(&path[..i]))
    }

    /// Excluded by one of the glob patterns (every path, past
    /// [`MAX_GLOB_ENTRIES`] of them).
    pub(super) fn matches_glob(&self, path: &str) -> bool {
        self.too_many.is_some() || self.globs.iter().any(|g| g.is_match(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nested braces (issue 37): 600 deep panicked in globset; a glob past
    /// [`MAX_BRACE_DEPTH`] is a clear error, and so is one far too long.
    #[test]
    fn deeply_nested_braces_are_an_error_not_a_panic() {
        for depth in [40, 600, 5000] {
            let pattern = format!("{}a{}", "{".repeat(depth), "}".repeat(depth));
            let err = compile_glob(&pattern).expect_err("too deep");
            assert!(err.to_string().contains("braces nested"), "{err}");
        }
        let fine = format!("{}a,b{}", "{".repeat(3), "}".repeat(3));
        assert!(compile_glob(&fine).is_ok());
        assert!(compile_glob(&"a".repeat(10_000)).is_err(), "too long");
        assert!(compile_glob("src/{a,b}/*.py").is_ok());
    }

    /// A folder exclusion takes everything below it and nothing beside it
    /// (`ab.py` is not under `a`), sorted walk or not.
    #[test]
    fn folder_exclusions_cover_exactly_their_folder() {
        let sorted: Vec<String> = ["a.py", "a/b.py", "a/c/d.py", "ab.py", "b/a/x.py"]
            .map(String::from)
            .to_vec();
        let mut unsorted = sorted.clone();
        unsorted.reverse();
        let entries = items(&["**/*.py"]);
        for files in [&sorted, &unsorted] {
            let (r, _) = expand_over(&entries, &["a/".to_string()], files);
            let mut paths: Vec<&str> = r.iter().map(|r| r.path.as_str()).collect();
            paths.sort();
            assert_eq!(paths, ["a.py", "ab.py", "b/a/x.py"], "{files:?}");
        }
    }

    /// A kept index answers as a fresh expansion does, and a walk changed
    /// in place (as the TUI's grows while it streams) is matched anew.
    #[test]
    fn a_kept_index_follows_its_walk() {
        let mut files: Arc<Vec<String>> = Arc::new(
            ["a.py", "b.txt", "src/c.py", ".env", "src/d.py"]
                .map(String::from)
                .to_vec(),
        );
        let entries = items(&["**/*.py", "b.txt"]);
        let exclude = vec!["src/d.py".to_string()];
        let mut index = GlobIndex::default();
        let paths = |r: &[ResolvedItem]| r.iter().map(|r| r.path.clone()).collect::<Vec<_>>();
        let (kept, _) = expand_shared(&entries, &exclude, &files, &mut index);
        let (fresh, _) = expand_over(&entries, &exclude, &files);
        assert_eq!(kept, fresh);
        assert_eq!(paths(&kept), ["a.py", "src/c.py", "b.txt"]);
        // Changed in place: the index holds no strong reference, so the
        // list is moved and the index starts over.
        Arc::make_mut(&mut files).push("src/e.py".into());
        let (kept, _) = expand_shared(&entries, &exclude, &files, &mut index);
        assert_eq!(paths(&kept), ["a.py", "src/c.py", "src/e.py", "b.txt"]);
        // Another exclusion over the same walk: the matches are reused.
        let (kept, _) = expand_shared(&entries, &[], &files, &mut index);
        assert_eq!(kept, expand_over(&entries, &[], &files).0);
    }

    fn items(paths: &[&str]) -> Vec<FileItem> {
        paths.iter().map(|p| FileItem::new(*p)).collect()
    }

    #[test]
    fn credential_files_need_an_explicit_entry() {
        let files: Vec<String> = [
            ".env",
            "app/.env.local",
            "certs/server.pem",
            "deploy/id_rsa",
            "deploy/id_ed25519.pub",
            "prod.env",
            "src/env.py",
            "src/keys.py",
            "tls.KEY",
            "deploy/server.ppk",
            "ops/.kube/config",
            "ops/prod.kubeconfig",
            "kubeconfig",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (out, _) = expand_over(&items(&["**"]), &[], &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["src/env.py", "src/keys.py"]);
        let (out, _) = expand_over(&items(&["**", "certs/server.pem", ".env"]), &[], &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(
            paths,
            ["src/env.py", "src/keys.py", "certs/server.pem", ".env"]
        );
    }

    #[test]
    fn globs_expand_sorted_and_explicit_wins() {
        let walk = || {
            vec![
                "src/a.py".to_string(),
                "src/b.py".into(),
                "src/sub/c.py".into(),
                "x_history.toml".into(),
            ]
        };
        let mut entries = items(&["src/*.py", "src/b.py", "src/**/*.py", "nope/*.rs"]);
        entries[1].view_mode = crate::core::model::ViewMode::Skeleton;
        let (out, problems) = expand_items(&entries, &[], walk);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["src/a.py", "src/b.py", "src/sub/c.py"]);
        assert_eq!(
            out[1].settings.view_mode,
            crate::core::model::ViewMode::Skeleton
        );
        assert_eq!(out.iter().map(|r| r.entry).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(
            problems,
            [ExpandProblem::NoMatch {
                pattern: "nope/*.rs".into()
            }]
        );
    }

    #[test]
    fn no_walk_without_globs() {
        let (out, _) = expand_items(&items(&["a", "history.toml", "a"]), &[], || {
            panic!("walked")
        });
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn file_names_with_glob_characters_are_literal() {
        let files: Vec<String> = ["pages/[id].tsx", "pages/i.tsx"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (out, problems) = expand_over(&items(&["pages/[id].tsx"]), &[], &files);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].path, "pages/[id].tsx");
        assert!(problems.is_empty());
    }

    #[test]
    fn excludes_apply_to_globs_only() {
        let files: Vec<String> = ["a/x.py", "a/y.py", "b/gen/z.py", "b/k.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let entries = items(&["**/*.py", "a/y.py"]);
        let exclude = vec!["a/y.py".to_string(), "b/gen".into(), "b/*.py".into()];
        let (out, _) = expand_over(&entries, &exclude, &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["a/x.py", "a/y.py"]);
    }
}
