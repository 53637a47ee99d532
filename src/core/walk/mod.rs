//! File discovery: which files of a project a composition may see. This
//! module walks the tree (gitignore-aware, with the built-in ignores and
//! the `[project] ignore`/`unignore` patterns of `walk/builtin.rs`) and
//! holds the path rules (the blacklist, credential files, staying inside
//! the root). Its submodules: `walk/glob.rs` expands a preset's entries
//! against one sorted walk, and `walk/incremental.rs` patches the
//! resolution after an edit; `walk/read.rs` reads one file with the size,
//! binary and encoding checks.

use std::path::{Component, Path};

mod builtin;
mod glob;
mod incremental;
mod read;
mod sensitive;

pub use builtin::{IGNORE_FILE, IgnoreRules, MAX_LOCK_BYTES, WalkPatterns, is_builtin_ignored};
pub use glob::{
    ExpandProblem, GlobIndex, ResolvedItem, compile_glob, expand_items, expand_over, expand_shared,
    is_glob,
};
pub use incremental::{ResolveChange, Resolver};
pub use read::{
    Content, FileProblem, MAX_FILE_BYTES, ReadPolicy, decode, read_content, read_content_with,
    skipped_note,
};
pub use sensitive::is_sensitive;

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
/// `.ignore`, `.ctxcurateignore`, global excludes; hidden files skipped),
/// minus the built-in ignores and the blacklist, as sorted `/`-separated
/// relative paths. Without the `[project]` patterns: a caller with the
/// project's settings uses [`walk_files_with`].
pub fn walk_files(root: &Path) -> Vec<String> {
    walk_files_with(root, &WalkPatterns::default())
}

/// [`walk_files`], with the `[project] ignore`/`unignore` patterns.
pub fn walk_files_with(root: &Path, patterns: &WalkPatterns) -> Vec<String> {
    let mut out = Vec::new();
    walk_each_with(root, patterns, |rel| {
        out.push(rel);
        true
    });
    out.sort();
    out
}

/// Hand each file of the walk (as [`walk_files`] lists them, in walk
/// order) to `f` as it is found; `f` returns `false` to stop.
pub fn walk_each(root: &Path, f: impl FnMut(String) -> bool) {
    walk_each_with(root, &WalkPatterns::default(), f)
}

/// [`walk_each`], with the `[project] ignore`/`unignore` patterns.
pub fn walk_each_with(root: &Path, patterns: &WalkPatterns, mut f: impl FnMut(String) -> bool) {
    for entry in walker_with(root, patterns).build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel_string(rel);
        if !rel.is_empty() && !is_blacklisted(&rel) && !f(rel) {
            return;
        }
    }
}

/// The walk every discovery uses: `.gitignore` (even outside a git
/// repository), `.ignore`, `.ctxcurateignore`, global git excludes, the
/// [built-in ignores](IgnoreRules); hidden files skipped; links not
/// followed.
pub fn walker(root: &Path) -> ignore::WalkBuilder {
    walker_with(root, &WalkPatterns::default())
}

/// [`walker`], with the `[project] ignore`/`unignore` patterns.
pub fn walker_with(root: &Path, patterns: &WalkPatterns) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(root);
    let rules = IgnoreRules::new(root, patterns);
    builder
        .require_git(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .follow_links(false)
        .filter_entry(move |e| {
            // The root itself is never skipped, whatever its name.
            e.depth() == 0 || !rules.skips(e.path(), e.file_type().is_some_and(|t| t.is_dir()))
        });
    builder
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

    #[test]
    fn inside_root() {
        assert!(is_inside("a/../b"));
        assert!(!is_inside("../b"));
        assert!(!is_inside("a/../../b"));
        assert!(!is_inside("/etc/passwd"));
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
}
