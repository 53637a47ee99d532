//! Re-resolving a preset after an edit without expanding every glob again.
//! The TUI resolves its preset on every keypress; on a 100,000-file project
//! whose preset is `**/*.py`, a full expansion builds 100,000 resolved
//! items each time. Most edits touch a few paths only — a file included or
//! excluded by name, an exclusion added under a glob, a file's mode — so
//! [`Resolver`] patches the last resolution at those paths and rebuilds it
//! only when a glob entry or a glob exclusion changed, or the walk did.
//!
//! The patch rests on one fact of [`expand_over`](super::expand_over)'s
//! rules: a file's resolution depends only on the file. A literal entry
//! naming it wins (the first one, unless the path is blacklisted); else,
//! if the walk holds it, it is eligible and no exclusion names it, the
//! first glob entry that matches it. The tests check the patched result
//! against a full expansion after random edits.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use super::glob::{
    Excluder, GlobIndex, MAX_GLOB_BYTES, MAX_GLOB_ENTRIES, ResolvedItem, expand_shared, is_glob,
};
use super::is_blacklisted;
use crate::core::model::FileItem;

/// An edit touching more paths than this share of the walk is resolved
/// from scratch (patching costs a binary search per path).
const PATCH_SHARE: usize = 8;

/// A preset's resolution kept across edits (sorted by path, as the TUI
/// wants it), with the inputs it was made from.
#[derive(Debug, Default)]
pub struct Resolver {
    last: Option<Inputs>,
    /// How many resolutions were patches (for tests and benchmarks).
    pub patched: usize,
}

#[derive(Debug)]
struct Inputs {
    entries: Vec<FileItem>,
    exclude: Vec<String>,
    walk: Weak<Vec<String>>,
}

impl Resolver {
    /// Resolve `entries` and `exclude` over `files` into `resolved`
    /// (sorted by path), patching the previous answer when only literal
    /// entries and exact exclusions changed. A patch tells what it
    /// touched ([`ResolveChange::Patched`]), so what derives from `resolved` can
    /// be patched too.
    pub fn resolve(
        &mut self,
        entries: &[FileItem],
        exclude: &[String],
        files: &Arc<Vec<String>>,
        index: &mut GlobIndex,
        resolved: &mut Vec<ResolvedItem>,
    ) -> ResolveChange {
        index.for_walk(files);
        let patched = self
            .last
            .as_ref()
            .filter(|last| last.walk.upgrade().is_some_and(|w| Arc::ptr_eq(&w, files)))
            .and_then(|last| patch(last, entries, exclude, files, index, resolved));
        let change = if let Some(touched) = patched {
            self.patched += 1;
            ResolveChange::Patched(touched)
        } else {
            let (mut fresh, _) = expand_shared(entries, exclude, files, index);
            // A glob's matches come in walk order: usually sorted already.
            if !fresh.is_sorted_by(|a, b| a.path <= b.path) {
                fresh.sort_unstable_by(|a, b| a.path.cmp(&b.path));
            }
            *resolved = fresh;
            ResolveChange::Rebuilt
        };
        self.last = Some(Inputs {
            entries: entries.to_vec(),
            exclude: exclude.to_vec(),
            walk: Arc::downgrade(files),
        });
        change
    }
}

impl Resolver {
    /// The walk `from` became `to` by `applied` (files on disk came and
    /// went, `walk/delta.rs`) while the preset stayed `entries`/`exclude`:
    /// patch the last resolution at the paths that came and went, and
    /// carry the glob answers over to `to`, instead of expanding every
    /// glob over `to` again. The paths touched, with their items before
    /// (as [`ResolveChange::Patched`]); `None` when only a full resolution
    /// will do (the last one was for other inputs; an entry is a file name
    /// that looks like a glob and came or went) — then the next
    /// [`Resolver::resolve`] makes it.
    pub fn follow_walk(
        &mut self,
        entries: &[FileItem],
        exclude: &[String],
        (from, to): (&Arc<Vec<String>>, &Arc<Vec<String>>),
        applied: &super::Applied,
        index: &mut GlobIndex,
        resolved: &mut Vec<ResolvedItem>,
    ) -> Option<Vec<(String, Option<ResolvedItem>)>> {
        let last = self.last.as_mut()?;
        let same_inputs = last.walk.upgrade().is_some_and(|w| Arc::ptr_eq(&w, from))
            && last.entries == entries
            && last.exclude == exclude;
        // `[id].tsx` is literal while a file has that name: one that came
        // or went changes what the entry is.
        let came_or_went = |p: &str| {
            applied
                .added
                .binary_search_by(|a| a.as_str().cmp(p))
                .is_ok()
                || applied
                    .removed
                    .binary_search_by(|r| r.as_str().cmp(p))
                    .is_ok()
        };
        let renamed_kind = entries
            .iter()
            .any(|e| is_glob(&e.path) && came_or_went(&e.path));
        if !same_inputs || renamed_kind || !index.follow(from, to, applied) {
            self.last = None;
            return None;
        }
        last.walk = Arc::downgrade(to);
        let lits = literals(entries, to);
        let globs = globs(entries, to);
        let excluded = Excluder::new(exclude);
        let touched: Vec<&str> = applied
            .added
            .iter()
            .chain(&applied.removed)
            .map(String::as_str)
            .collect();
        let before = splice(resolved, touched, |path| {
            resolve_one(path, entries, &lits, &globs, &excluded, to, index)
        });
        self.patched += 1;
        Some(before)
    }
}

/// What [`Resolver::resolve`] did to the resolution.
#[derive(Debug)]
pub enum ResolveChange {
    /// Made anew.
    Rebuilt,
    /// Patched at these paths (each with its item before, if it had
    /// one); every other item is as it was but for its `entry`.
    Patched(Vec<(String, Option<ResolvedItem>)>),
}

/// An entry is literal when it is no glob, or names a walked file (`[id].tsx`).
fn is_literal(entry: &FileItem, files: &[String]) -> bool {
    !is_glob(&entry.path) || files.binary_search(&entry.path).is_ok()
}

/// The glob entries, in order, with their positions.
fn globs<'a>(entries: &'a [FileItem], files: &[String]) -> Vec<(usize, &'a FileItem)> {
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !is_literal(e, files))
        .take(MAX_GLOB_ENTRIES)
        .scan(0usize, |bytes, (i, e)| {
            *bytes = bytes.saturating_add(e.path.len());
            (*bytes <= MAX_GLOB_BYTES).then_some((i, e))
        })
        .collect()
}

/// The first literal entry of each path.
fn literals<'a>(entries: &'a [FileItem], files: &[String]) -> HashMap<&'a str, usize> {
    let mut out = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if is_literal(e, files) {
            out.entry(e.path.as_str()).or_insert(i);
        }
    }
    out
}

/// Patch `resolved` (made from `last`) for the new inputs, returning the
/// paths touched with their items before; `None` (and `resolved`
/// untouched) when only a full expansion will do.
fn patch(
    last: &Inputs,
    entries: &[FileItem],
    exclude: &[String],
    files: &[String],
    index: &mut GlobIndex,
    resolved: &mut Vec<ResolvedItem>,
) -> Option<Vec<(String, Option<ResolvedItem>)>> {
    let (old_globs, new_globs) = (globs(&last.entries, files), globs(entries, files));
    let same_globs = old_globs.len() == new_globs.len()
        && old_globs
            .iter()
            .zip(&new_globs)
            .all(|((_, a), (_, b))| a == b);
    let glob_excludes =
        |ex: &[String]| -> Vec<String> { ex.iter().filter(|e| is_glob(e)).cloned().collect() };
    if !same_globs || glob_excludes(&last.exclude) != glob_excludes(exclude) {
        return None;
    }
    let (old_lit, new_lit) = (literals(&last.entries, files), literals(entries, files));
    // The paths whose resolution may differ.
    let mut touched: Vec<&str> = Vec::new();
    for (path, &i) in &new_lit {
        match old_lit.get(path) {
            Some(&j) if last.entries[j] == entries[i] => {}
            _ => touched.push(path),
        }
    }
    touched.extend(old_lit.keys().filter(|p| !new_lit.contains_key(*p)));
    let exact = |ex: &[String]| -> Vec<String> {
        ex.iter()
            .filter(|e| !is_glob(e))
            .map(|e| e.trim_end_matches('/').to_string())
            .collect()
    };
    let (old_ex, new_ex) = (exact(&last.exclude), exact(exclude));
    let changed_ex: Vec<&String> = old_ex
        .iter()
        .filter(|e| !new_ex.contains(e))
        .chain(new_ex.iter().filter(|e| !old_ex.contains(e)))
        .collect();
    let mut limit = files.len() / PATCH_SHARE + 64;
    for e in changed_ex {
        // The path itself and everything in the folder it may name.
        touched.push(e);
        let prefix = format!("{e}/");
        let start = files.partition_point(|f| f.as_str() < prefix.as_str());
        for f in files[start..].iter().take_while(|f| f.starts_with(&prefix)) {
            touched.push(f);
            limit = limit.saturating_sub(1);
            if limit == 0 {
                return None;
            }
        }
    }
    if touched.len() > limit {
        return None;
    }
    // Entry positions move when literal entries come and go: renumber
    // what stays (glob entries by their order among the globs, literal
    // ones by their path's first entry now).
    let glob_at: HashMap<usize, usize> = old_globs
        .iter()
        .zip(&new_globs)
        .map(|((old, _), (new, _))| (*old, *new))
        .collect();
    if old_lit != new_lit || glob_at.iter().any(|(a, b)| a != b) {
        for r in resolved.iter_mut() {
            r.entry = match glob_at.get(&r.entry) {
                Some(&new) => new,
                // A literal entry that is gone is re-resolved below.
                None => new_lit.get(r.path.as_str()).copied().unwrap_or(r.entry),
            };
        }
    }
    let excluded = Excluder::new(exclude);
    Some(splice(resolved, touched, |path| {
        resolve_one(path, entries, &new_lit, &new_globs, &excluded, files, index)
    }))
}

/// Each of the `touched` paths resolved again by `now` into the sorted
/// `resolved` (replaced, removed or inserted in place); what each was
/// before.
fn splice(
    resolved: &mut Vec<ResolvedItem>,
    mut touched: Vec<&str>,
    mut now: impl FnMut(&str) -> Option<ResolvedItem>,
) -> Vec<(String, Option<ResolvedItem>)> {
    touched.sort_unstable();
    touched.dedup();
    let mut before = Vec::with_capacity(touched.len());
    for path in touched {
        let was = match (
            resolved.binary_search_by(|r| r.path.as_str().cmp(path)),
            now(path),
        ) {
            (Ok(at), Some(item)) => Some(std::mem::replace(&mut resolved[at], item)),
            (Ok(at), None) => Some(resolved.remove(at)),
            (Err(at), Some(item)) => {
                resolved.insert(at, item);
                None
            }
            (Err(_), None) => None,
        };
        before.push((path.to_string(), was));
    }
    before
}

/// How `path` resolves under the new inputs, by the rules of
/// [`expand_over`](super::expand_over).
fn resolve_one(
    path: &str,
    entries: &[FileItem],
    literals: &HashMap<&str, usize>,
    globs: &[(usize, &FileItem)],
    excluded: &Excluder,
    files: &[String],
    index: &mut GlobIndex,
) -> Option<ResolvedItem> {
    if let Some(&i) = literals.get(path) {
        return (!is_blacklisted(path)).then(|| ResolvedItem::new(entries[i].clone(), i));
    }
    let at = files.binary_search_by(|f| f.as_str().cmp(path)).ok()?;
    if excluded.matches_exact(path) || !index.eligible(files, at) || excluded.matches_glob(path) {
        return None;
    }
    let at32 = u32::try_from(at).ok()?;
    for (i, entry) in globs {
        let Ok(matches) = index.matches(&entry.path, files) else {
            continue;
        };
        if matches.binary_search(&at32).is_ok() {
            // A copy of its own: a patch touches few files.
            let settings = Arc::new((*entry).clone());
            return Some(ResolvedItem::shared(path.to_string(), &settings, *i));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::ViewMode;
    use crate::core::walk::expand_over;

    fn walk() -> Arc<Vec<String>> {
        let mut files = Vec::new();
        for d in ["a", "a/deep", "b", "c"] {
            for f in ["x.py", "y.py", "z.txt", ".env"] {
                files.push(format!("{d}/{f}"));
            }
        }
        files.push("[id].tsx".into());
        files.push("top.py".into());
        files.sort();
        Arc::new(files)
    }

    fn full(entries: &[FileItem], exclude: &[String], files: &[String]) -> Vec<ResolvedItem> {
        let (mut r, _) = expand_over(entries, exclude, files);
        r.sort_by(|a, b| a.path.cmp(&b.path));
        r
    }

    /// A tiny deterministic generator (no dependency for one test).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n
        }
    }

    /// After each of many random edits (literal entries and exclusions
    /// added, changed and removed, now and then a glob), the kept
    /// resolution equals a fresh full expansion, entry numbers included.
    #[test]
    fn patched_resolutions_equal_full_expansions() {
        let files = walk();
        let paths: Vec<String> = files
            .iter()
            .cloned()
            .chain([
                "a".into(),
                "a/deep".into(),
                "missing.py".into(),
                "b/".into(),
            ])
            .collect();
        let globs = ["**/*.py", "a/**", "*.tsx", "c/*"];
        let mut rng = Lcg(7);
        let mut entries = vec![FileItem::new("**/*.py")];
        let mut exclude: Vec<String> = Vec::new();
        let mut resolver = Resolver::default();
        let mut index = GlobIndex::default();
        let mut resolved = Vec::new();
        for step in 0..600 {
            match rng.next(10) {
                0..=2 => {
                    let mut item = FileItem::new(&paths[rng.next(paths.len())]);
                    if rng.next(2) == 0 {
                        item.view_mode = ViewMode::Skeleton;
                    }
                    let at = rng.next(entries.len() + 1);
                    entries.insert(at, item);
                }
                3 if entries.len() > 1 => {
                    entries.remove(rng.next(entries.len()));
                }
                4 => {
                    let i = rng.next(entries.len());
                    entries[i].view_mode = ViewMode::Outline;
                }
                5 | 6 => exclude.push(paths[rng.next(paths.len())].clone()),
                7 if !exclude.is_empty() => {
                    exclude.remove(rng.next(exclude.len()));
                }
                8 if rng.next(4) == 0 => {
                    entries.push(FileItem::new(globs[rng.next(globs.len())]));
                }
                9 if rng.next(6) == 0 => exclude.push("b/*.py".into()),
                _ => {}
            }
            resolver.resolve(&entries, &exclude, &files, &mut index, &mut resolved);
            assert_eq!(
                resolved,
                full(&entries, &exclude, &files),
                "step {step}: {entries:?} {exclude:?}"
            );
        }
        assert!(resolver.patched > 300, "{} patched", resolver.patched);
    }

    /// After each of many random walk changes (files added and removed,
    /// now and then one named `[id].tsx` or a credential file), the
    /// followed resolution equals a full expansion over the new walk, and
    /// the glob answers carried over equal fresh ones (checked through a
    /// second, patched resolution after an edit).
    #[test]
    fn resolutions_followed_over_walk_changes_equal_full_expansions() {
        use crate::core::walk::WalkDelta;
        let names: Vec<String> = ["a", "a/deep", "b", "c", "d/e"]
            .iter()
            .flat_map(|d| {
                ["x.py", "y.py", "z.txt", ".env", "[id].tsx"]
                    .iter()
                    .map(move |f| format!("{d}/{f}"))
            })
            .chain(["[id].tsx".into(), "top.py".into()])
            .collect();
        let mut rng = Lcg(11);
        let mut files = walk();
        let entries = vec![
            FileItem::new("a/deep/x.py"),
            FileItem::new("[id].tsx"),
            FileItem::new("**/*.py"),
            FileItem::new("c/*"),
        ];
        let exclude = vec!["b/y.py".to_string(), "d/**/*.txt".to_string()];
        let mut resolver = Resolver::default();
        let mut index = GlobIndex::default();
        let mut resolved = Vec::new();
        resolver.resolve(&entries, &exclude, &files, &mut index, &mut resolved);
        let mut followed = 0;
        for step in 0..300 {
            // A few paths change: each comes or goes (as on disk).
            let mut scopes: Vec<String> = (0..1 + rng.next(4))
                .map(|_| names[rng.next(names.len())].clone())
                .collect();
            scopes.sort();
            scopes.dedup();
            let found: Vec<String> = scopes
                .iter()
                .filter(|s| !files.contains(s) || rng.next(3) == 0)
                .filter(|s| files.binary_search(s).is_err())
                .cloned()
                .collect();
            let delta = WalkDelta { scopes, found };
            let mut next = (*files).clone();
            let applied = delta.apply(&mut next);
            let next = Arc::new(next);
            let patch = resolver.follow_walk(
                &entries,
                &exclude,
                (&files, &next),
                &applied,
                &mut index,
                &mut resolved,
            );
            files = next;
            if patch.is_some() {
                followed += 1;
            } else {
                resolver.resolve(&entries, &exclude, &files, &mut index, &mut resolved);
            }
            assert_eq!(resolved, full(&entries, &exclude, &files), "step {step}");
            // The carried-over glob answers are what fresh ones are…
            for pattern in ["**/*.py", "c/*"] {
                let matcher = super::super::compile_glob(pattern).unwrap();
                let fresh: Vec<u32> = (0..files.len())
                    .filter(|&i| matcher.is_match(files[i].as_str()))
                    .map(|i| i as u32)
                    .collect();
                let kept = index.matches(pattern, &files).unwrap();
                assert_eq!(*kept, *fresh, "step {step}: {pattern}");
            }
            for (i, f) in files.iter().enumerate() {
                let eligible = !is_blacklisted(f) && !crate::core::walk::is_sensitive(f);
                assert_eq!(index.eligible(&files, i), eligible, "step {step}: {f}");
            }
            // …and serve the next edit as fresh ones would.
            let mut edited = entries.clone();
            edited.push(FileItem::new("top.py"));
            let mut again = resolved.clone();
            let mut probe = Resolver {
                last: Some(Inputs {
                    entries: entries.clone(),
                    exclude: exclude.clone(),
                    walk: Arc::downgrade(&files),
                }),
                patched: 0,
            };
            probe.resolve(&edited, &exclude, &files, &mut index, &mut again);
            assert_eq!(again, full(&edited, &exclude, &files), "step {step}");
        }
        assert!(followed > 200, "{followed} followed");
    }

    /// A walk that changed is never patched: it is resolved anew.
    #[test]
    fn a_new_walk_is_resolved_from_scratch() {
        let mut files = walk();
        let entries = vec![FileItem::new("**/*.py")];
        let mut resolver = Resolver::default();
        let mut index = GlobIndex::default();
        let mut resolved = Vec::new();
        resolver.resolve(&entries, &[], &files, &mut index, &mut resolved);
        Arc::make_mut(&mut files).push("zz/new.py".into());
        resolver.resolve(&entries, &[], &files, &mut index, &mut resolved);
        assert_eq!(resolved, full(&entries, &[], &files));
        assert!(resolved.iter().any(|r| r.path == "zz/new.py"));
    }
}
