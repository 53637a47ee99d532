//! A walk brought up to date at the paths that changed, without walking
//! the whole tree again: the watch (`core::watch`) names a few paths, and
//! on a 100,000-file project a whole walk for each burst costs a second
//! and churns every list built from it. [`rescan`] looks at each named
//! path by the walk's own rules ([`SkipCheck`], the same decision as the
//! walk's, read from the same ignore files) and lists what the walk now
//! shows there — the file itself, or everything below a folder that came
//! — and [`WalkDelta::apply`] puts that into a sorted walk.
//!
//! Each named path is a *scope*: itself and everything below it. After
//! the rescan the walk holds, in each scope, exactly what is found there
//! now, so a deleted folder takes its files along and a folder that came
//! brings its own; what lies outside every scope is left as it was. A
//! change to an ignore file or to the project's patterns alters what any
//! path shows: the caller walks again whole then.

use std::collections::BTreeSet;
use std::path::Path;

use super::{Hidden, SkipCheck, WalkPatterns, is_blacklisted, keeps, rel_utf8};

/// What the walk shows now in the scopes of the changed paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkDelta {
    /// The changed paths (root-relative, `/`-separated), sorted.
    pub scopes: Vec<String>,
    /// The files the walk shows in those scopes now, sorted, deduplicated.
    pub found: Vec<String>,
}

/// What [`WalkDelta::apply`] changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Files the walk did not hold and now does, sorted.
    pub added: Vec<String>,
    /// Files the walk held and no longer does, sorted.
    pub removed: Vec<String>,
    /// Where each of `added` is in the new list (ascending).
    pub added_at: Vec<usize>,
    /// Where each of `removed` was in the old list (ascending).
    pub removed_at: Vec<usize>,
}

impl Applied {
    /// Whether the walk's list is unchanged (files were only written).
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }
}

/// Look at each of `changed` as a walk of `root` with `patterns` would:
/// a file the walk keeps is found; a folder it keeps brings every file
/// below it that it keeps; a path gone, skipped, or a link, nothing.
pub fn rescan(root: &Path, patterns: &WalkPatterns, changed: &[String]) -> WalkDelta {
    let check = SkipCheck::new(root, patterns);
    let mut scopes: Vec<String> = changed
        .iter()
        .map(|p| p.trim_matches('/').to_string())
        .filter(|p| !p.is_empty())
        .collect();
    scopes.sort_unstable();
    scopes.dedup();
    let mut found = BTreeSet::new();
    for scope in &scopes {
        let path = root.join(scope);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        // `skips` also enters the folders above, reading their ignore files.
        if check.skips(scope) {
            continue;
        }
        if meta.is_file() {
            found.insert(scope.clone());
        } else if meta.is_dir() {
            files_below(&check, root, &path, &mut found);
        }
    }
    WalkDelta {
        scopes,
        found: found.into_iter().collect(),
    }
}

/// Every file under `dir` (a folder the walk keeps) that the walk keeps,
/// depth first, links not followed: the walk's own `filter_entry`
/// decision for each entry ([`keeps`]).
fn files_below(check: &SkipCheck, root: &Path, dir: &Path, found: &mut BTreeSet<String>) {
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if !(kind.is_file() || kind.is_dir())
                || !keeps(
                    &check.rules,
                    &check.ignores,
                    &path,
                    kind.is_dir(),
                    Hidden::Skip,
                )
            {
                continue;
            }
            if kind.is_dir() {
                todo.push(path);
                continue;
            }
            let Some(rel) = path.strip_prefix(root).ok().and_then(rel_utf8) else {
                continue;
            };
            if !rel.is_empty() && !is_blacklisted(&rel) {
                found.insert(rel);
            }
        }
    }
}

/// Whether `path` lies in `scope` (is it, or below it).
fn in_scope(path: &str, scope: &str) -> bool {
    path.strip_prefix(scope)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

impl WalkDelta {
    /// Whether `path` lies in one of the scopes (a binary search: a
    /// path's scope sorts at or before it, and only its own folders can).
    fn covers(&self, path: &str) -> bool {
        // A scope covering `path` is `path` or one of its folders: look
        // each up.
        let mut at = path;
        loop {
            if self.scopes.binary_search_by(|s| s.as_str().cmp(at)).is_ok() {
                return true;
            }
            match at.rsplit_once('/') {
                Some((parent, _)) => at = parent,
                None => return false,
            }
        }
    }

    /// Bring `walked` (sorted) up to date: in each scope it holds what
    /// was found there, elsewhere what it held. One pass over the list.
    pub fn apply(&self, walked: &mut Vec<String>) -> Applied {
        match self.applied_to(walked) {
            Some((next, applied)) => {
                *walked = next;
                applied
            }
            None => Applied::default(),
        }
    }

    /// [`WalkDelta::apply`] to a new list, `walked` left as it is (the
    /// old list stays whole for whoever shares it); `None` when the list
    /// would not change (files were only written): nothing is copied.
    pub fn applied_to(&self, walked: &[String]) -> Option<(Vec<String>, Applied)> {
        // What the walk held in the scopes: a range per scope.
        let mut held = BTreeSet::new();
        for scope in &self.scopes {
            let start = walked.partition_point(|f| f.as_str() < scope.as_str());
            for f in walked[start..]
                .iter()
                .take_while(|f| f.starts_with(scope.as_str()))
            {
                if in_scope(f, scope) {
                    held.insert(f.as_str());
                }
            }
        }
        let found: BTreeSet<&str> = self
            .found
            .iter()
            .map(String::as_str)
            .filter(|f| self.covers(f))
            .collect();
        let removed: Vec<String> = held.difference(&found).map(|s| s.to_string()).collect();
        let added: Vec<String> = found.difference(&held).map(|s| s.to_string()).collect();
        if removed.is_empty() && added.is_empty() {
            return None;
        }
        let mut next = Vec::with_capacity(walked.len() + added.len());
        let (mut added_at, mut removed_at) = (Vec::new(), Vec::new());
        let mut gone = removed.iter().peekable();
        let mut new = added.iter().peekable();
        for (i, f) in walked.iter().enumerate() {
            while let Some(a) = new.next_if(|a| *a < f) {
                added_at.push(next.len());
                next.push(a.clone());
            }
            if gone.next_if(|g| *g == f).is_some() {
                removed_at.push(i);
                continue;
            }
            next.push(f.clone());
        }
        for a in new {
            added_at.push(next.len());
            next.push(a.clone());
        }
        let applied = Applied {
            added,
            removed,
            added_at,
            removed_at,
        };
        Some((next, applied))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::walk::walk_files_with;
    use std::fs;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    /// The walk patched at `changed` equals a whole walk made anew.
    fn patched_equals_a_walk(root: &Path, walked: &mut Vec<String>, changed: &[&str]) -> Applied {
        let changed: Vec<String> = changed.iter().map(|s| s.to_string()).collect();
        let delta = rescan(root, &WalkPatterns::default(), &changed);
        let before = walked.clone();
        let applied = delta.apply(walked);
        assert_eq!(*walked, walk_files_with(root, &WalkPatterns::default()));
        let at = |list: &[String], idx: &[usize]| -> Vec<String> {
            idx.iter().map(|&i| list[i].clone()).collect()
        };
        assert_eq!(at(walked, &applied.added_at), applied.added);
        assert_eq!(at(&before, &applied.removed_at), applied.removed);
        applied
    }

    #[test]
    fn files_and_folders_that_come_and_go_are_patched_as_a_walk_sees_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "src/a.py", "a");
        write(root, "src/b.py", "b");
        write(root, "src/old/x.py", "x");
        write(root, "src/old/y.py", "y");
        write(root, "keep/z.py", "z");
        write(root, ".gitignore", "*.log\nbuild/\n");
        let mut walked = walk_files_with(root, &WalkPatterns::default());

        // A new file, a written one, a deleted one, a new folder with a
        // subfolder, a removed folder, ignored noise and a hidden file.
        write(root, "src/c.py", "c");
        write(root, "src/a.py", "a2");
        fs::remove_file(root.join("src/b.py")).unwrap();
        write(root, "src/new/deep/n.py", "n");
        write(root, "src/new/m.py", "m");
        write(root, "src/new/skip.log", "l");
        write(root, "src/new/.hidden.py", "h");
        write(root, "build/out.py", "o");
        fs::remove_dir_all(root.join("src/old")).unwrap();
        let applied = patched_equals_a_walk(
            root,
            &mut walked,
            &[
                "src/c.py",
                "src/a.py",
                "src/b.py",
                "src/new",
                "src/old",
                "build",
                "build/out.py",
                "src/new/skip.log",
            ],
        );
        assert_eq!(
            applied.added,
            ["src/c.py", "src/new/deep/n.py", "src/new/m.py"]
        );
        assert_eq!(
            applied.removed,
            ["src/b.py", "src/old/x.py", "src/old/y.py"]
        );
        assert!(walked.contains(&"keep/z.py".to_string()), "outside: kept");

        // Only written: nothing to change.
        write(root, "src/a.py", "a3");
        let applied = patched_equals_a_walk(root, &mut walked, &["src/a.py"]);
        assert!(applied.is_empty());
    }

    #[test]
    fn a_folder_replaced_by_a_file_and_links_are_as_the_walk_has_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "lib/one.py", "1");
        write(root, "lib/two.py", "2");
        write(root, "lib2.py", "sorts between lib and lib/ entries");
        let mut walked = walk_files_with(root, &WalkPatterns::default());
        fs::remove_dir_all(root.join("lib")).unwrap();
        write(root, "lib", "now a file");
        let applied = patched_equals_a_walk(root, &mut walked, &["lib"]);
        assert_eq!(applied.added, ["lib"]);
        assert_eq!(applied.removed, ["lib/one.py", "lib/two.py"]);

        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("lib2.py"), root.join("link.py")).unwrap();
            fs::create_dir_all(root.join("real")).unwrap();
            write(root, "real/r.py", "r");
            std::os::unix::fs::symlink(root.join("real"), root.join("dirlink")).unwrap();
            let applied = patched_equals_a_walk(root, &mut walked, &["link.py", "dirlink", "real"]);
            assert_eq!(applied.added, ["real/r.py"], "links are not followed");
        }
    }

    #[test]
    fn paths_a_walk_never_shows_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "a.py", "a");
        let mut walked = walk_files_with(root, &WalkPatterns::default());
        write(root, ".ctxcurate/cache.bin", "c");
        write(root, "node_modules/m/index.js", "m");
        write(root, "history.toml", "h");
        let delta = rescan(
            root,
            &WalkPatterns::default(),
            &[
                ".ctxcurate".into(),
                "node_modules".into(),
                "history.toml".into(),
                "../outside".into(),
                "/etc/passwd".into(),
                String::new(),
            ],
        );
        assert!(delta.found.is_empty(), "{delta:?}");
        assert!(delta.apply(&mut walked).is_empty());
        assert_eq!(walked, ["a.py"]);
    }

    #[test]
    fn the_project_patterns_decide_as_in_the_walk() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "a.py", "a");
        let patterns = WalkPatterns {
            ignore: vec!["gen/".into()],
            unignore: vec!["node_modules".into()],
        };
        let mut walked = walk_files_with(root, &patterns);
        write(root, "gen/g.py", "g");
        write(root, "node_modules/keep/k.js", "k");
        write(root, "node_modules/other/o.js", "o");
        let delta = rescan(root, &patterns, &["gen".into(), "node_modules".into()]);
        delta.apply(&mut walked);
        assert_eq!(walked, walk_files_with(root, &patterns));
        assert_eq!(
            walked,
            ["a.py", "node_modules/keep/k.js", "node_modules/other/o.js"]
        );
    }
}
