//! What discovery must leave out. The user removes a file from a preset
//! (Space in the tree, `ctxcurate rm`, an `exclude` line) to keep it away
//! from the model; discovery must not send it anyway because a target
//! imports it, the task names it or it ranks high in the repo map. And
//! discovery is no more than a glob: it never brings in what a glob never
//! would — a credential file by name (`walk::is_sensitive`), a history
//! file, the cache — even when the task (which a repository's preset may
//! carry) names one. Packing, the repo map and the task's mentions all
//! drop the files [`Excluded`] names, and a pack reports them.
//!
//! What an exclusion matches (a path, a folder, a glob) and what a glob may
//! bring in are `core::walk`'s rules, asked here through
//! `walk::expand_over`, so the two cannot drift. As there, an entry naming
//! the file itself wins over an exclusion, and so does a target: both are
//! the user asking for that file by name. A guarded file is never
//! discovered; a preset entry naming one brings it in as the preset's own
//! entry, under whatever consent that needs. A file left out still carries
//! the import graph: what it imports may be discovered through it (the
//! user excluded that file, not its neighbours).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::core::model::{FileItem, Preset};
use crate::core::walk;

/// The files discovery leaves out among some candidate paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Excluded {
    /// Excluded by the preset's `exclude`.
    by_preset: HashSet<String>,
    /// Never brought in by a glob (credential files, history, the cache).
    guarded: HashSet<String>,
    /// Held for a likely secret found in them (path → where), when
    /// discovery, not the user, brought them in.
    held: BTreeMap<String, String>,
}

/// What discovery left out, by reason, sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Excluded by the preset.
    pub excluded: BTreeSet<String>,
    /// Credential files by name.
    pub sensitive: BTreeSet<String>,
    /// Discovered files holding a likely secret: path → where (`a.py:3`).
    pub held: BTreeMap<String, String>,
}

impl Excluded {
    /// Which of `paths` discovery must leave out for `preset`: those its
    /// `exclude` takes (`targets` and the files its entries name explicitly
    /// aside), and those no glob brings in.
    pub fn among<'a>(
        preset: &Preset,
        targets: &[String],
        paths: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let candidates: Vec<String> = paths
            .into_iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(str::to_string)
            .collect();
        if candidates.is_empty() {
            return Excluded::default();
        }
        let everything = [FileItem::new("**")];
        let kept_by = |exclude: &[String]| -> HashSet<String> {
            let (resolved, _) = walk::expand_over(&everything, exclude, &candidates);
            resolved.into_iter().map(|r| r.path).collect()
        };
        let eligible = kept_by(&[]);
        let guarded = candidates
            .iter()
            .filter(|p| !eligible.contains(p.as_str()))
            .cloned()
            .collect();
        if preset.exclude.is_empty() {
            return Excluded {
                by_preset: HashSet::new(),
                guarded,
                held: BTreeMap::new(),
            };
        }
        let named: HashSet<&str> = preset
            .files
            .iter()
            .map(|f| f.path.as_str())
            .chain(targets.iter().map(String::as_str))
            .collect();
        // What a glob may bring in, with and without the exclusions: the
        // difference is what they take away.
        let kept = kept_by(&preset.exclude);
        let by_preset = eligible
            .into_iter()
            .filter(|p| !kept.contains(p) && !named.contains(p.as_str()))
            .collect();
        Excluded {
            by_preset,
            guarded,
            held: BTreeMap::new(),
        }
    }

    /// Leave out `held` too (path, where its likely secret is): files
    /// discovery brought in whose text holds a secret. A file the user
    /// chose is never held here: it keeps the build's refusal.
    pub fn hold(&mut self, held: &[(String, String)]) {
        for (path, at) in held {
            self.held.insert(path.clone(), at.clone());
        }
    }

    /// Whether discovery must leave `path` out.
    pub fn contains(&self, path: &str) -> bool {
        self.by_preset.contains(path) || self.guarded.contains(path) || self.held.contains_key(path)
    }

    pub fn is_empty(&self) -> bool {
        self.by_preset.is_empty() && self.guarded.is_empty() && self.held.is_empty()
    }

    /// `list` without the paths discovery leaves out; those taken out are
    /// added to `left_out` (a guarded file that is not a credential file,
    /// a history file say, silently: it is never sent at all).
    pub fn split(&self, list: Vec<String>, left_out: &mut LeftOut) -> Vec<String> {
        if self.is_empty() {
            return list;
        }
        let (out, kept): (Vec<String>, Vec<String>) =
            list.into_iter().partition(|p| self.contains(p));
        for path in out {
            if let Some(at) = self.held.get(&path) {
                left_out.held.insert(path, at.clone());
            } else if self.by_preset.contains(&path) {
                left_out.excluded.insert(path);
            } else if walk::is_sensitive(&path) {
                left_out.sensitive.insert(path);
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(exclude: &[&str], files: &[&str]) -> Preset {
        Preset {
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
            files: files.iter().map(|f| FileItem::new(*f)).collect(),
            ..Preset::default()
        }
    }

    const PATHS: [&str; 7] = [
        "app.py",
        "pkg/vault.py",
        "pkg/gen_api.py",
        "pkg/util.py",
        "vendor/lib.py",
        "vendorx.py",
        ".env",
    ];

    #[test]
    fn paths_folders_and_globs_as_the_walk_reads_them() {
        let p = preset(&["pkg/vault.py", "**/gen_*.py", "vendor/"], &[]);
        let ex = Excluded::among(&p, &[], PATHS);
        let mut got: Vec<&str> = PATHS.into_iter().filter(|p| ex.contains(p)).collect();
        got.sort();
        assert_eq!(
            got,
            [".env", "pkg/gen_api.py", "pkg/vault.py", "vendor/lib.py"]
        );
        let none = Excluded::among(&preset(&[], &[]), &[], PATHS);
        assert_eq!(PATHS.into_iter().filter(|p| none.contains(p)).count(), 1);
    }

    #[test]
    fn a_file_named_explicitly_or_targeted_is_not_excluded() {
        let p = preset(&["pkg/", "**/*.py"], &["pkg/vault.py", "**/*.md"]);
        let ex = Excluded::among(&p, &["app.py".to_string()], PATHS);
        assert!(!ex.contains("pkg/vault.py") && !ex.contains("app.py"));
        assert!(ex.contains(".env"), "named or not, never discovered");
        assert!(ex.contains("pkg/util.py") && ex.contains("vendorx.py"));
        let mut left_out = LeftOut::default();
        let kept = ex.split(
            vec![
                "app.py".into(),
                "pkg/util.py".into(),
                "pkg/vault.py".into(),
                ".env".into(),
            ],
            &mut left_out,
        );
        assert_eq!(kept, ["app.py", "pkg/vault.py"]);
        assert_eq!(Vec::from_iter(left_out.excluded), ["pkg/util.py"]);
        assert_eq!(Vec::from_iter(left_out.sensitive), [".env"]);
    }

    #[test]
    fn discovery_never_brings_in_what_a_glob_would_not() {
        // Named by the preset or not, excluded or not: never discovered
        // (a preset entry naming one brings it in as the preset's own).
        for p in [preset(&[], &[]), preset(&["pkg/"], &[".env", "id_rsa"])] {
            let ex = Excluded::among(&p, &[], [".env", "id_rsa", ".ctxcurate/x", "app.py"]);
            for path in [".env", "id_rsa", ".ctxcurate/x"] {
                assert!(ex.contains(path), "{path}");
            }
            assert!(!ex.contains("app.py"));
        }
    }
}
