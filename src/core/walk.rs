//! File discovery: which files of a project a composition may see. This
//! module walks the tree and holds the path rules (the blacklist,
//! credential files, staying inside the root). Its submodules:
//! `walk/ignore_file.rs` reads one ignore file, bounded, and
//! `walk/ignores.rs` applies a walk's ignore files with git's precedence,
//! each file's patterns matched by `walk/pattern_set.rs`;
//! `walk/builtin.rs` holds the built-in ignores and the `[project]
//! ignore`/`unignore` patterns; `walk/glob.rs` expands a preset's entries
//! against one sorted walk, and `walk/incremental.rs` patches the
//! resolution after an edit; `walk/delta.rs` brings a walk up to date at
//! the paths that changed on disk; `walk/read.rs` reads one file with the size,
//! binary and encoding checks.

use std::path::{Component, Path};
use std::sync::Arc;

mod builtin;
mod delta;
mod glob;
mod ignore_file;
mod ignores;
mod incremental;
mod pattern_set;
mod read;
mod sensitive;
mod twins;

pub use builtin::{
    IGNORE_FILE, IgnoreRules, MAX_LOCK_BYTES, RuleVerdict, VCS_DIRS, WalkPatterns,
    is_builtin_ignored, is_protected, patterns_note,
};
pub use delta::{Applied, WalkDelta, rescan};
pub use glob::{
    ExpandProblem, GlobIndex, ResolvedItem, compile_glob, entry_for, expand_items, expand_over,
    expand_shared, is_glob,
};
pub use ignore_file::{
    IgnoreFileNote, IgnoreFileProblem, MAX_IGNORE_FILE_BYTES, MAX_IGNORE_PATTERNS,
    MAX_WALK_PATTERNS, matcher as ignore_matcher, pattern_lines as ignore_pattern_lines,
};
pub use ignores::IgnoreFiles;
pub use incremental::{ResolveChange, Resolver};
pub use pattern_set::PatternSet;
pub use read::{
    Content, FORCED_MAX_BYTES, FileProblem, MAX_FILE_BYTES, ReadPolicy, decode, read_content,
    read_content_stamped, read_content_with, skipped_note,
};
pub use sensitive::is_sensitive;
pub use twins::{held_twin, is_held_name};

/// The directory (relative to the root) holding caches and outputs; never
/// part of any composition.
pub const CACHE_DIR: &str = ".ctxcurate";

/// `true` for paths no composition may include: discussion history files
/// and the tool's own cache directory.
pub fn is_blacklisted(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == "history.toml"
        || name.ends_with("_history.toml")
        || rel
            .strip_prefix(CACHE_DIR)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `true` when a relative path stays inside the root lexically (no leading
/// `/`, no `..` escaping it).
pub fn is_inside(rel: &str) -> bool {
    let mut depth: i64 = 0;
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

/// Every file under `root` that git would not ignore (`.gitignore`,
/// `.ignore`, `.ctxcurateignore`, `.git/info/exclude`, the user's global
/// excludes; hidden files skipped), minus the built-in ignores and the
/// blacklist, as sorted `/`-separated relative paths. Without the
/// `[project]` patterns: a caller with the project's settings uses
/// [`walk_files_with`].
pub fn walk_files(root: &Path) -> Vec<String> {
    walk_files_with(root, &WalkPatterns::default())
}

/// [`walk_files`], with the `[project] ignore`/`unignore` patterns.
pub fn walk_files_with(root: &Path, patterns: &WalkPatterns) -> Vec<String> {
    walk_files_noted(root, patterns).files
}

/// A walk's files, and the notes on the ignore files it skipped or cut.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walked {
    /// Sorted, `/`-separated, relative to the root.
    pub files: Vec<String>,
    /// The ignore files below the root that were skipped or cut (the
    /// root's own are [`root_ignore_notes`], which opening a project
    /// reports).
    pub notes: Vec<IgnoreFileNote>,
}

/// [`walk_files_with`], with the notes on the ignore files below the root
/// that the walk skipped or applied only in part.
pub fn walk_files_noted(root: &Path, patterns: &WalkPatterns) -> Walked {
    let (builder, ignores) = walker_noted(root, patterns);
    let mut files = all_files(root, builder, &ignores);
    files.sort();
    // Kept for the whole build: at 100,000 files, grown by doubling, it
    // holds 750 KB it never uses.
    files.shrink_to_fit();
    // Folders are read in parallel: the notes come in any order.
    let mut notes = ignores.notes();
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    Walked { files, notes }
}

/// The root's own ignore files (and the user's global excludes) that
/// every walk of `root` skips or applies in part, as notes: opening a
/// project reports them once (`Project::warnings`), for the CLI and the
/// TUI alike.
pub fn root_ignore_notes(root: &Path) -> Vec<IgnoreFileNote> {
    IgnoreFiles::new(root).root_notes().to_vec()
}

/// A walk's notes as lines for the user: the first few named, one more
/// line for the rest (a checkout with thousands of bad ignore files gets
/// a few lines, not thousands). Every front end says them this way: the
/// CLI on stderr, MCP in its notes, the TUI on its status line.
pub fn notes_lines(notes: &[IgnoreFileNote]) -> Vec<String> {
    /// Notes named one by one.
    const SHOWN: usize = 5;
    let mut lines: Vec<String> = notes.iter().take(SHOWN).map(ToString::to_string).collect();
    if let Some(more) = notes.len().checked_sub(SHOWN).filter(|&n| n > 0) {
        lines.push(format!(
            "{more} more ignore files skipped or cut, folders not walked or names not in UTF-8"
        ));
    }
    lines
}

/// Hand each file of the walk (as [`walk_files`] lists them, in walk
/// order) to `f` as it is found; `f` returns `false` to stop.
pub fn walk_each(root: &Path, f: impl FnMut(String) -> bool) {
    walk_each_with(root, &WalkPatterns::default(), f)
}

/// [`walk_each`], with the `[project] ignore`/`unignore` patterns.
pub fn walk_each_with(root: &Path, patterns: &WalkPatterns, f: impl FnMut(String) -> bool) {
    walk_each_noted(root, patterns, f);
}

/// [`walk_each_with`], and then the notes on the ignore files below the
/// root that the walk skipped or cut (as [`walk_files_noted`] gives them).
pub fn walk_each_noted(
    root: &Path,
    patterns: &WalkPatterns,
    f: impl FnMut(String) -> bool,
) -> Vec<IgnoreFileNote> {
    let (builder, ignores) = walker_noted(root, patterns);
    each_file(root, builder, &ignores, f);
    let mut notes = ignores.notes();
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    notes
}

/// Every file of the walk, in no particular order: folders are read on
/// as many threads as the machine has (each thread gathers its own list).
/// A file whose name is not UTF-8 is left out and noted in `ignores`.
fn all_files(root: &Path, mut builder: ignore::WalkBuilder, ignores: &IgnoreFiles) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads < 2 {
        let mut files = Vec::new();
        each_file(root, builder, ignores, |rel| {
            files.push(rel);
            true
        });
        return files;
    }
    let lists = std::sync::Mutex::new(Vec::new());
    builder.threads(threads).build_parallel().run(|| {
        struct Gather<'a> {
            files: Vec<String>,
            lists: &'a std::sync::Mutex<Vec<Vec<String>>>,
        }
        impl Drop for Gather<'_> {
            fn drop(&mut self) {
                let files = std::mem::take(&mut self.files);
                if let Ok(mut lists) = self.lists.lock() {
                    lists.push(files);
                }
            }
        }
        let mut gather = Gather {
            files: Vec::new(),
            lists: &lists,
        };
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return ignore::WalkState::Continue;
            };
            if entry.file_type().is_some_and(|t| t.is_file())
                && let Ok(rel) = entry.path().strip_prefix(root)
                && let Some(rel) = named(rel, ignores)
                && !rel.is_empty()
                && !is_blacklisted(&rel)
            {
                gather.files.push(rel);
            }
            ignore::WalkState::Continue
        })
    });
    lists
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

fn each_file(
    root: &Path,
    builder: ignore::WalkBuilder,
    ignores: &IgnoreFiles,
    mut f: impl FnMut(String) -> bool,
) {
    for entry in builder.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(rel) = entry
            .path()
            .strip_prefix(root)
            .ok()
            .and_then(|rel| named(rel, ignores))
        else {
            continue;
        };
        if !rel.is_empty() && !is_blacklisted(&rel) && !f(rel) {
            return;
        }
    }
}

/// Whether a walk of `root` with `patterns` leaves out `rel` (a
/// root-relative, `/`-separated path): an ignore file, the hidden-file
/// rule, a built-in, the patterns or the blacklist skips it or a folder
/// above it. The same decision as the walk's, for one path, without
/// walking the tree (for an explicit entry naming a file the walk would
/// not show). A path that leaves the root is skipped.
pub fn walk_skips(root: &Path, patterns: &WalkPatterns, rel: &str) -> bool {
    SkipCheck::new(root, patterns).skips(rel)
}

/// [`walk_skips`] for many paths: the ignore files are read once, when
/// the check is made (and a folder's own when a path first enters it).
pub struct SkipCheck {
    root: std::path::PathBuf,
    rules: IgnoreRules,
    ignores: IgnoreFiles,
}

impl SkipCheck {
    /// A check with the ignore files of `root` as they are now.
    pub fn new(root: &Path, patterns: &WalkPatterns) -> SkipCheck {
        SkipCheck {
            root: root.to_path_buf(),
            rules: IgnoreRules::new(root, patterns),
            ignores: IgnoreFiles::new(root),
        }
    }

    /// Whether the walk leaves out `rel` (see [`walk_skips`]).
    pub fn skips(&self, rel: &str) -> bool {
        if !is_inside(rel) || is_blacklisted(rel) {
            return true;
        }
        let parts: Vec<&str> = rel
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        let mut path = self.root.clone();
        for (i, part) in parts.iter().enumerate() {
            path.push(part);
            let is_dir =
                i + 1 < parts.len() || std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
            if !keeps(&self.rules, &self.ignores, &path, is_dir, Hidden::Skip) {
                return true;
            }
        }
        false
    }
}

/// The walk every discovery uses: the ignore files of the root and the
/// folders under it, read by us and bounded (`walk/ignores.rs`; nothing
/// above the root), the user's global git excludes, the [built-in
/// ignores](IgnoreRules); hidden files skipped; links not followed.
pub fn walker(root: &Path) -> ignore::WalkBuilder {
    walker_with(root, &WalkPatterns::default())
}

/// [`walker`], with the `[project] ignore`/`unignore` patterns.
pub fn walker_with(root: &Path, patterns: &WalkPatterns) -> ignore::WalkBuilder {
    walker_noted(root, patterns).0
}

/// [`walker_with`], and the ignore files it reads, for their notes.
///
/// The `ignore` crate's own ignore-file reading is off (it opens devices
/// and FIFOs, reads without bound and climbs above the root); each entry
/// is decided in `filter_entry`, in this order:
/// 1. gitignored (`.gitignore`, `info/exclude`, global excludes): skipped,
///    whatever any un-ignore says;
/// 2. ignored by the ignore files by precedence: skipped;
/// 3. hidden and not re-included by a `!` line: skipped;
/// 4. a built-in or `[project] ignore`, unless un-ignored: skipped;
/// 5. kept only through an un-ignore (3 or 4, or a folder above so kept)
///    and [protected](is_protected): skipped.
pub fn walker_noted(
    root: &Path,
    patterns: &WalkPatterns,
) -> (ignore::WalkBuilder, Arc<IgnoreFiles>) {
    walker_deciding(root, patterns, Hidden::Skip)
}

/// [`walker_with`], keeping hidden files and folders that nothing else
/// skips (an ignore file, a built-in, the patterns): for telling an
/// ignored path from one that is only hidden (`.github/ci.yml`).
pub fn walker_with_hidden(root: &Path, patterns: &WalkPatterns) -> ignore::WalkBuilder {
    walker_deciding(root, patterns, Hidden::Keep).0
}

/// What the walk does with a hidden name that no `!` line re-includes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hidden {
    Skip,
    Keep,
}

fn walker_deciding(
    root: &Path,
    patterns: &WalkPatterns,
    hidden: Hidden,
) -> (ignore::WalkBuilder, Arc<IgnoreFiles>) {
    let mut builder = ignore::WalkBuilder::new(root);
    let rules = IgnoreRules::new(root, patterns);
    let ignores = Arc::new(IgnoreFiles::new(root));
    let seen = Arc::clone(&ignores);
    builder
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(move |e| {
            // The root itself is never skipped, whatever its name.
            e.depth() == 0
                || keeps(
                    &rules,
                    &seen,
                    e.path(),
                    e.file_type().is_some_and(|t| t.is_dir()),
                    hidden,
                )
        });
    (builder, ignores)
}

/// Whether the walk keeps `path` (see [`walker_noted`] for the order);
/// a folder kept is entered (its ignore files read).
fn keeps(
    rules: &IgnoreRules,
    ignores: &IgnoreFiles,
    path: &Path,
    is_dir: bool,
    show_hidden: Hidden,
) -> bool {
    let (files, via_parent) = ignores.verdict(path, is_dir);
    if files.gitignored || files.ignored {
        return false;
    }
    let hidden = path
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."));
    if hidden && !files.whitelisted && show_hidden == Hidden::Skip {
        return false;
    }
    // Shown only because hidden files are asked for: not an un-ignore.
    let hidden = hidden && show_hidden == Hidden::Skip;
    let verdict = rules.verdict(path, is_dir);
    if verdict == RuleVerdict::Skip {
        return false;
    }
    let via_unignore = via_parent || hidden || verdict == RuleVerdict::Unignored;
    if via_unignore && rules.is_protected(path) {
        return false;
    }
    if is_dir {
        ignores.enter(path, via_unignore);
    }
    true
}

/// [`rel_utf8`] of a walked file; one whose name is not UTF-8 is noted in
/// `ignores` (the user hears how many the walk left out so).
fn named(rel: &Path, ignores: &IgnoreFiles) -> Option<String> {
    let name = rel_utf8(rel);
    if name.is_none() {
        ignores.note_not_utf8(rel);
    }
    name
}

/// [`rel_string`] of a path whose every name is UTF-8; `None` for one
/// that is not. The walk leaves such files out: a lossy name (`h5_�.py`)
/// could not be read back, and would name another file, one really
/// called so.
pub fn rel_utf8(rel: &Path) -> Option<String> {
    let mut out = String::new();
    for c in rel.components() {
        if let Component::Normal(s) = c {
            if !out.is_empty() {
                out.push('/');
            }
            out.push_str(s.to_str()?);
        }
    }
    Some(out)
}

/// A relative path as a `/`-separated string.
pub fn rel_string(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn blacklist() {
        assert!(is_blacklisted("history.toml"));
        assert!(is_blacklisted("a/b/chat_history.toml"));
        assert!(is_blacklisted(".ctxcurate/out/context_001.md"));
        assert!(!is_blacklisted("src/history.py"));
        assert!(!is_blacklisted(".ctxcurate_x/a"));
    }

    /// A file whose name is not UTF-8 is left out of the walk, so the
    /// file read is never one named with its lossy form (sweep 13, N1).
    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_left_out() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("a.py"), "x = 1\n").unwrap();
        fs::write(
            root.join(std::ffi::OsStr::from_bytes(b"h5_\x9b31m.py")),
            "x = 2\n",
        )
        .unwrap();
        fs::create_dir(root.join(std::ffi::OsStr::from_bytes(b"d\xff"))).unwrap();
        fs::write(
            root.join(std::ffi::OsStr::from_bytes(b"d\xff/in.py")),
            "x = 3\n",
        )
        .unwrap();
        fs::write(root.join("h5_\u{fffd}31m.py"), "x = 4\n").unwrap();
        assert_eq!(walk_files(root), ["a.py", "h5_\u{fffd}31m.py"]);
        let mut each = Vec::new();
        walk_each(root, |f| {
            each.push(f);
            true
        });
        each.sort();
        assert_eq!(each, ["a.py", "h5_\u{fffd}31m.py"]);
        assert_eq!(rel_utf8(Path::new("a/b.py")).as_deref(), Some("a/b.py"));
    }

    #[test]
    fn inside_root() {
        assert!(is_inside("a/../b"));
        assert!(!is_inside("../b"));
        assert!(!is_inside("a/../../b"));
        assert!(!is_inside("/etc/passwd"));
    }

    #[test]
    fn walk_skips_agrees_with_the_walk() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for p in [
            "a.py",
            "logs/x.py",
            "sub/keep.log",
            "sub/drop.log",
            ".env",
            ".git/config",
            "node_modules/m.js",
        ] {
            let path = root.join(p);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        fs::write(root.join(".gitignore"), "*.log\nlogs/\n").unwrap();
        fs::write(root.join("sub/.gitignore"), "!keep.log\n").unwrap();
        fs::write(root.join(".ctxcurateignore"), "!.*\n!.git/\n").unwrap();
        let patterns = WalkPatterns::default();
        let walked = walk_files(root);
        assert_eq!(
            walked,
            [
                ".ctxcurateignore",
                ".gitignore",
                "a.py",
                "sub/.gitignore",
                "sub/keep.log"
            ]
        );
        for rel in [
            "a.py",
            "logs/x.py",
            "sub/keep.log",
            "sub/drop.log",
            ".env",
            ".git/config",
            "node_modules/m.js",
            "../a.py",
            ".ctxcurate/x",
        ] {
            assert_eq!(
                walk_skips(root, &patterns, rel),
                !walked.iter().any(|w| w == rel),
                "{rel}"
            );
        }
    }

    #[test]
    fn walk_respects_gitignore_and_cache_dir() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for p in [
            "a.py",
            "ignored.log",
            "sub/b.c",
            ".ctxcurate/cache/x",
            ".hidden",
        ] {
            let path = root.join(p);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        fs::write(root.join(".gitignore"), "*.log\n").unwrap();
        assert_eq!(walk_files(root), ["a.py", "sub/b.c"]);
    }

    #[test]
    fn the_parallel_walk_finds_what_the_walk_in_order_finds() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for i in 0..40 {
            for p in [
                format!("d{i}/a.py"),
                format!("d{i}/x.log"),
                format!("d{i}/deep/e{i}/b.rs"),
                format!("d{i}/.hidden/c.py"),
                format!("d{i}/keep/y.log"),
            ] {
                let path = root.join(p);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, "x").unwrap();
            }
            fs::write(root.join(format!("d{i}/keep/.gitignore")), "!*.log\n").unwrap();
        }
        fs::write(root.join(".gitignore"), "*.log\nd3/\n").unwrap();
        let mut in_order = Vec::new();
        walk_each(root, |rel| {
            in_order.push(rel);
            true
        });
        in_order.sort();
        let parallel = walk_files(root);
        assert_eq!(parallel, in_order);
        assert!(parallel.contains(&"d0/keep/y.log".to_string()));
        assert!(
            !parallel
                .iter()
                .any(|p| p.starts_with("d3/") || p.ends_with("x.log"))
        );
        assert_eq!(parallel.len(), 39 * 3, "{parallel:?}");
    }
}
