//! Built-in ignores: what no one wants in a context (VCS folders, caches,
//! virtualenvs, build outputs, big lock files, the tool's own files),
//! skipped by every walk even without a `.gitignore`.
//!
//! A `!pattern` line of the root `.ctxcurateignore` (gitignore syntax)
//! brings a built-in back: `!build/` walks `build/` again.

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

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
    "build",
    "dist",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
];

/// Lock files skipped when over [`MAX_LOCK_BYTES`].
const LOCK_FILES: &[&str] = &[
    "package-lock.json",
    "Cargo.lock",
    "poetry.lock",
    "yarn.lock",
    "pnpm-lock.yaml",
];

/// The built-in ignore rules of one walk, with the root's un-ignores.
pub struct BuiltinIgnores {
    unignore: Gitignore,
}

impl BuiltinIgnores {
    /// The rules for a walk of `root` (reads `root/.ctxcurateignore`; a
    /// missing or malformed file un-ignores nothing it cannot parse).
    pub fn new(root: &Path) -> Self {
        let mut builder = GitignoreBuilder::new(root);
        // Errors name bad lines; the valid lines still count.
        let _ = builder.add(root.join(IGNORE_FILE));
        let unignore = builder.build().unwrap_or_else(|_| Gitignore::empty());
        BuiltinIgnores { unignore }
    }

    /// `true` when the walk should skip `path` (a folder when `is_dir`).
    pub fn skips(&self, path: &Path, is_dir: bool) -> bool {
        is_builtin_ignored(path, is_dir) && !self.unignore.matched(path, is_dir).is_whitelist()
    }
}

/// `true` when `path` is one of the built-in ignores, before any
/// `.ctxcurateignore` un-ignore.
pub fn is_builtin_ignored(path: &Path, is_dir: bool) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if is_dir {
        DIR_NAMES.contains(&name)
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
        for d in ["venv", "plain", "rs/target", "notrs/target"] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        fs::write(root.join("venv/pyvenv.cfg"), "home = /usr\n").unwrap();
        fs::write(root.join("rs/Cargo.toml"), "[package]\n").unwrap();
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
    }

    #[test]
    fn unignore_lines_bring_a_builtin_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join(IGNORE_FILE), "!build/\n*.log\n").unwrap();
        let rules = BuiltinIgnores::new(root);
        assert!(!rules.skips(&root.join("build"), true));
        assert!(rules.skips(&root.join("dist"), true));
        assert!(rules.skips(&root.join("node_modules"), true));
    }
}
