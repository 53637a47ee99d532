//! A preset's `exclude` as discovery sees it. The user removes a file from
//! a preset (Space in the tree, `ctxcurate rm`, an `exclude` line) to keep
//! it away from the model; discovery must not send it anyway because a
//! target imports it, the task names it or it ranks high in the repo map.
//! So packing, the repo map and the task's mentions all drop the files
//! [`Excluded`] names, and a pack reports them as left out.
//!
//! What an exclusion matches (a path, a folder, a glob) is `core::walk`'s
//! rule, asked here through `walk::expand_over`, so the two cannot drift.
//! As there, an entry naming the file itself wins over an exclusion, and so
//! does a target: both are the user asking for that file by name.

use std::collections::{BTreeSet, HashSet};

use crate::core::model::{FileItem, Preset};
use crate::core::walk;

/// The files a preset excludes among some candidate paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Excluded {
    paths: HashSet<String>,
}

impl Excluded {
    /// Which of `paths` `preset` excludes, `targets` and the files its
    /// entries name explicitly aside.
    pub fn among<'a>(
        preset: &Preset,
        targets: &[String],
        paths: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        if preset.exclude.is_empty() {
            return Excluded::default();
        }
        let named: HashSet<&str> = preset
            .files
            .iter()
            .map(|f| f.path.as_str())
            .chain(targets.iter().map(String::as_str))
            .collect();
        let candidates: Vec<String> = paths
            .into_iter()
            .filter(|p| !named.contains(p))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(str::to_string)
            .collect();
        if candidates.is_empty() {
            return Excluded::default();
        }
        // Everything a glob may bring in, with and without the exclusions:
        // the difference is what they take away (credential files and
        // blacklisted ones are in neither, so they are not reported here).
        let everything = [FileItem::new("**")];
        let kept_by = |exclude: &[String]| -> HashSet<String> {
            let (resolved, _) = walk::expand_over(&everything, exclude, &candidates);
            resolved.into_iter().map(|r| r.path).collect()
        };
        let kept = kept_by(&preset.exclude);
        let paths = kept_by(&[])
            .into_iter()
            .filter(|p| !kept.contains(p))
            .collect();
        Excluded { paths }
    }

    /// Whether the preset excludes `path`.
    pub fn contains(&self, path: &str) -> bool {
        self.paths.contains(path)
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// `list` without the excluded paths; the ones taken out are added to
    /// `left_out`.
    pub fn split(&self, list: Vec<String>, left_out: &mut BTreeSet<String>) -> Vec<String> {
        if self.is_empty() {
            return list;
        }
        let (out, kept): (Vec<String>, Vec<String>) =
            list.into_iter().partition(|p| self.contains(p));
        left_out.extend(out);
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
        assert_eq!(got, ["pkg/gen_api.py", "pkg/vault.py", "vendor/lib.py"]);
        assert!(Excluded::among(&preset(&[], &[]), &[], PATHS).is_empty());
    }

    #[test]
    fn a_file_named_explicitly_or_targeted_is_not_excluded() {
        let p = preset(&["pkg/", "**/*.py"], &["pkg/vault.py", "**/*.md"]);
        let ex = Excluded::among(&p, &["app.py".to_string()], PATHS);
        assert!(!ex.contains("pkg/vault.py") && !ex.contains("app.py"));
        assert!(ex.contains("pkg/util.py") && ex.contains("vendorx.py"));
        let mut left_out = BTreeSet::new();
        let kept = ex.split(
            vec!["app.py".into(), "pkg/util.py".into(), "pkg/vault.py".into()],
            &mut left_out,
        );
        assert_eq!(kept, ["app.py", "pkg/vault.py"]);
        assert_eq!(left_out.into_iter().collect::<Vec<_>>(), ["pkg/util.py"]);
    }
}
