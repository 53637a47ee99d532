//! Built-in ignores: what no one wants in a context (VCS folders, caches,
//! virtualenvs, build outputs, big lock files, the tool's own files),
//! skipped by every walk even without a `.gitignore`, and the user's
//! overrides of them ([`IgnoreRules`]).
//!
//! Overrides, all in gitignore syntax relative to the root: a `!pattern`
//! line of the root `.ctxcurateignore` brings a built-in back (`!build/`
//! walks `build/` again); `[project] ignore` skips more; `[project]
//! unignore` keeps what a built-in or `ignore` would skip. (Ordinary
//! `.ctxcurateignore` and `.gitignore` lines are applied by the walker
//! itself, see `walk::walker_with`.)

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::core::model::Settings;

/// The project's own ignore file; its `!` lines un-ignore built-ins.
pub const IGNORE_FILE: &str = ".ctxcurateignore";

/// Lock files at most this big are kept; bigger ones are noise.
pub const MAX_LOCK_BYTES: u64 = 64 * 1024;

/// Folders skipped wherever they are.
const DIR_NAMES: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".ctxcurate",
    "__pycache__",
    "node_modules",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
];

/// Build output folders, skipped wherever they are unless they are a
/// Python package (`pip/_internal/operations/build/` holds source).
const OUTPUT_DIRS: &[&str] = &["build", "dist"];

/// Lock files skipped when over [`MAX_LOCK_BYTES`].
const LOCK_FILES: &[&str] = &[
    "package-lock.json",
    "Cargo.lock",
    "poetry.lock",
    "yarn.lock",
    "pnpm-lock.yaml",
];

/// The `[project] ignore` and `unignore` patterns of a walk (gitignore
/// syntax, relative to the root).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkPatterns {
    /// Skip these too.
    pub ignore: Vec<String>,
    /// Keep these although a built-in ignore or `ignore` skips them.
    pub unignore: Vec<String>,
}

impl WalkPatterns {
    /// The patterns the resolved settings name.
    pub fn from_settings(s: &Settings) -> Self {
        let lines = |v: &[crate::core::model::IgnorePattern]| {
            v.iter().map(|p| p.as_str().to_owned()).collect()
        };
        WalkPatterns {
            ignore: lines(&s.ignore),
            unignore: lines(&s.unignore),
        }
    }
}

/// The ignore rules of one walk: the built-ins, with the root
/// `.ctxcurateignore`'s un-ignores and the `[project]` patterns.
pub struct IgnoreRules {
    /// The `!` lines of the root `.ctxcurateignore`.
    file_unignore: Gitignore,
    /// `[project] ignore`.
    ignore: Gitignore,
    /// `[project] unignore`, as ignore lines: a match means "keep".
    keep: Gitignore,
}

impl IgnoreRules {
    /// The rules for a walk of `root` (reads `root/.ctxcurateignore`; a
    /// missing file un-ignores nothing, and a malformed line of it or of
    /// the patterns is skipped: the valid lines still count).
    pub fn new(root: &Path, patterns: &WalkPatterns) -> Self {
        let mut builder = GitignoreBuilder::new(root);
        // Errors name bad lines; the valid lines still count.
        let _ = builder.add(root.join(IGNORE_FILE));
        IgnoreRules {
            file_unignore: builder.build().unwrap_or_else(|_| Gitignore::empty()),
            ignore: lines(root, &patterns.ignore),
            keep: lines(root, &patterns.unignore),
        }
    }

    /// `true` when the walk should skip `path` (a folder when `is_dir`).
    pub fn skips(&self, path: &Path, is_dir: bool) -> bool {
        let builtin = is_builtin_ignored(path, is_dir)
            && !self.file_unignore.matched(path, is_dir).is_whitelist();
        let ignored = builtin || self.ignore.matched(path, is_dir).is_ignore();
        ignored && !self.keep.matched(path, is_dir).is_ignore()
    }
}

/// `patterns` as the lines of one gitignore file at `root`.
fn lines(root: &Path, patterns: &[String]) -> Gitignore {
    let mut builder = GitignoreBuilder::new(root);
    for pattern in patterns {
        // A malformed pattern matches nothing; the others still count.
        let _ = builder.add_line(None, pattern);
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

/// `true` when `path` is one of the built-in ignores, before any
/// `.ctxcurateignore` un-ignore.
pub fn is_builtin_ignored(path: &Path, is_dir: bool) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if is_dir {
        DIR_NAMES.contains(&name)
            || (OUTPUT_DIRS.contains(&name) && !path.join("__init__.py").is_file())
            || path.join("pyvenv.cfg").is_file()
            || (name == "target"
                && path
                    .parent()
                    .is_some_and(|p| p.join("Cargo.toml").is_file()))
    } else {
        name == "ctxcurate.toml"
            || name.ends_with(".pyc")
            || name.ends_with(".pyo")
            || (LOCK_FILES.contains(&name)
                && path.metadata().is_ok_and(|m| m.len() > MAX_LOCK_BYTES))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn conditional_rules_look_at_the_neighbours() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in [
            "venv",
            "plain",
            "rs/target",
            "notrs/target",
            "build",
            "pkg/build",
        ] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        fs::write(root.join("venv/pyvenv.cfg"), "home = /usr\n").unwrap();
        fs::write(root.join("rs/Cargo.toml"), "[package]\n").unwrap();
        fs::write(root.join("pkg/build/__init__.py"), "").unwrap();
        fs::write(root.join("Cargo.lock"), "x".repeat(100)).unwrap();
        fs::write(root.join("yarn.lock"), "x".repeat(70 * 1024)).unwrap();
        assert!(is_builtin_ignored(&root.join("venv"), true));
        assert!(!is_builtin_ignored(&root.join("plain"), true));
        assert!(is_builtin_ignored(&root.join("rs/target"), true));
        assert!(!is_builtin_ignored(&root.join("notrs/target"), true));
        assert!(!is_builtin_ignored(&root.join("Cargo.lock"), false));
        assert!(is_builtin_ignored(&root.join("yarn.lock"), false));
        assert!(is_builtin_ignored(&root.join("a/b.pyc"), false));
        assert!(!is_builtin_ignored(&root.join("build"), false));
        assert!(is_builtin_ignored(&root.join("build"), true));
        assert!(
            !is_builtin_ignored(&root.join("pkg/build"), true),
            "a Python package named build is source"
        );
    }

    #[test]
    fn unignore_lines_bring_a_builtin_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join(IGNORE_FILE), "!build/\n*.log\n").unwrap();
        let rules = IgnoreRules::new(root, &WalkPatterns::default());
        assert!(!rules.skips(&root.join("build"), true));
        assert!(rules.skips(&root.join("dist"), true));
        assert!(rules.skips(&root.join("node_modules"), true));
    }

    #[test]
    fn project_patterns_ignore_more_and_keep_builtins() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let patterns = WalkPatterns {
            ignore: vec!["*.min.js".into(), "fixtures/big/".into(), "{a".into()],
            unignore: vec!["dist/".into(), "keep.min.js".into()],
        };
        let rules = IgnoreRules::new(root, &patterns);
        assert!(rules.skips(&root.join("web/app.min.js"), false));
        assert!(!rules.skips(&root.join("web/keep.min.js"), false));
        assert!(!rules.skips(&root.join("web/app.js"), false));
        assert!(rules.skips(&root.join("fixtures/big"), true));
        assert!(
            !rules.skips(&root.join("fixtures/big"), false),
            "a folder pattern"
        );
        assert!(!rules.skips(&root.join("dist"), true), "unignored built-in");
        assert!(rules.skips(&root.join("build"), true));
        assert!(rules.skips(&root.join("x.pyc"), false));
    }
}
