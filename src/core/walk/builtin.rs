//! Built-in ignores: what no one wants in a context (VCS folders, caches,
//! virtualenvs, build outputs, big lock files, the tool's own files),
//! skipped by every walk even without a `.gitignore`, and the user's
//! overrides of them ([`IgnoreRules`]).
//!
//! Overrides, all in gitignore syntax relative to the root: a `!pattern`
//! line of the root `.ctxcurateignore` brings a built-in back (`!build/`
//! walks `build/` again); `[project] ignore` skips more; `[project]
//! unignore` keeps what a built-in or `ignore` would skip. (Ordinary
//! ignore-file lines are applied by the walk itself, see `walk/ignores.rs`
//! and `walk::walker_with`.)
//!
//! Those un-ignores come with the repository (the settings cannot say
//! whether an `unignore` was written by the user's global config or by
//! the project file, so every one is treated as the project's), and they
//! never reach what [`is_protected`] names: VCS folders, `.ctxcurate/` and
//! credential files stay out whatever they say.

use std::path::Path;

use super::ignore_file;
use super::pattern_set::PatternSet;
use super::sensitive::is_sensitive;
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

/// Folders of version-control systems (defined with the paths, whose
/// write checks refuse them too).
pub use crate::core::paths::VCS_DIRS;

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
        let mut ignore: Vec<String> = lines(&s.ignore);
        ignore.extend(output_dir_pattern(&s.output_dir));
        WalkPatterns {
            ignore,
            unignore: lines(&s.unignore),
        }
    }
}

/// What the user hears when `[project] ignore` or `unignore` holds more
/// patterns than are applied (`None`: neither does).
pub fn patterns_note(patterns: &WalkPatterns) -> Vec<String> {
    [
        ("ignore", &patterns.ignore),
        ("unignore", &patterns.unignore),
    ]
    .into_iter()
    .filter(|(_, list)| applied(list) < list.len())
    .map(|(key, list)| {
        format!(
            "[project] {key} holds {} patterns; only the first {} are applied (at most {MAX_PROJECT_PATTERNS}, and {} KiB)",
            list.len(),
            applied(list),
            MAX_PROJECT_PATTERN_BYTES / 1024
        )
    })
    .collect()
}

/// The folder `--save` and the TUI write their numbered outputs to, as an
/// ignore pattern when it lies in the project (`.ctxcurate/out`, the
/// default, is skipped as `.ctxcurate/` is): a build is none of the next
/// one's input.
fn output_dir_pattern(output_dir: &str) -> Option<String> {
    let dir = output_dir.trim_start_matches("./").trim_end_matches('/');
    let state = crate::core::paths::confine::STATE_DIR;
    let in_state = dir
        .strip_prefix(state)
        .is_some_and(|r| r.is_empty() || r.starts_with('/'));
    if dir.is_empty() || dir == "." || in_state || !super::is_inside(dir) {
        return None;
    }
    let mut pattern = String::from("/");
    for c in dir.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\' | '!' | '#') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('/');
    Some(pattern)
}

/// What the built-in ignores and their overrides say about one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleVerdict {
    /// Skipped (a built-in or `[project] ignore`).
    Skip,
    /// Kept: nothing skips it.
    Keep,
    /// Kept only because an un-ignore (a `!` line of the root
    /// `.ctxcurateignore`, `[project] unignore`) overrides a built-in or
    /// `ignore`: never for an [`is_protected`] path.
    Unignored,
}

/// The ignore rules of one walk: the built-ins, with the root
/// `.ctxcurateignore`'s un-ignores and the `[project]` patterns.
pub struct IgnoreRules {
    /// The root the paths asked about lie under.
    root: std::path::PathBuf,
    /// The `!` lines of the root `.ctxcurateignore`.
    file_unignore: PatternSet,
    /// `[project] ignore`.
    ignore: PatternSet,
    /// `[project] unignore`, as ignore lines: a match means "keep".
    keep: PatternSet,
}

impl IgnoreRules {
    /// The rules for a walk of `root` (reads `root/.ctxcurateignore`,
    /// bounded as every ignore file, see `walk/ignore_file.rs`; a missing
    /// or skipped file un-ignores nothing, and a malformed line of it or
    /// of the patterns is skipped: the valid lines still count).
    pub fn new(root: &Path, patterns: &WalkPatterns) -> Self {
        // The walk reports a skipped file (`walk/ignores.rs` reads the
        // same one); here it only un-ignores nothing.
        let file_unignore = root
            .canonicalize()
            .ok()
            .and_then(|real| {
                let mut budget = ignore_file::MAX_IGNORE_PATTERNS;
                let path = root.join(IGNORE_FILE);
                ignore_file::load(Some(&real), root, &path, &mut budget, String::new).0
            })
            .unwrap_or_else(PatternSet::empty);
        IgnoreRules {
            root: root.to_path_buf(),
            file_unignore,
            ignore: lines(root, &patterns.ignore),
            keep: lines(root, &patterns.unignore),
        }
    }

    /// `true` when the walk should skip `path` (a folder when `is_dir`)
    /// for a built-in or `[project] ignore`, un-ignores applied (and
    /// refused for a [protected](is_protected) path).
    pub fn skips(&self, path: &Path, is_dir: bool) -> bool {
        match self.verdict(path, is_dir) {
            RuleVerdict::Skip => true,
            RuleVerdict::Keep => false,
            RuleVerdict::Unignored => self.is_protected(path),
        }
    }

    /// The built-ins and the `[project]` patterns on `path`, without the
    /// protection (the walk applies it, with what the ignore files say).
    pub fn verdict(&self, path: &Path, is_dir: bool) -> RuleVerdict {
        let builtin = is_builtin_ignored(path, is_dir);
        let unignored_builtin = builtin && self.file_unignore.matched(path, is_dir).is_whitelist();
        let ignored =
            (builtin && !unignored_builtin) || self.ignore.matched(path, is_dir).is_ignore();
        if ignored {
            if self.keep.matched(path, is_dir).is_ignore() {
                RuleVerdict::Unignored
            } else {
                RuleVerdict::Skip
            }
        } else if unignored_builtin {
            RuleVerdict::Unignored
        } else {
            RuleVerdict::Keep
        }
    }

    /// [`is_protected`] for a path under this walk's root.
    pub fn is_protected(&self, path: &Path) -> bool {
        path.strip_prefix(&self.root)
            .is_ok_and(|rel| is_protected(&super::rel_string(rel)))
    }
}

/// `true` for what no un-ignore of the project's own may bring into a
/// walk: a VCS folder ([`VCS_DIRS`]) or anything in one, the tool's own
/// `.ctxcurate/`, and credential files (`walk::is_sensitive`). `rel` is
/// root-relative and `/`-separated.
pub fn is_protected(rel: &str) -> bool {
    rel.split('/')
        .any(|part| part == super::CACHE_DIR || VCS_DIRS.contains(&part))
        || is_sensitive(rel)
}

/// The most `[project] ignore` (and, apart, `unignore`) patterns applied:
/// every path of a walk is matched against them, and the matching of many
/// globs grows faster than their number (100,000 took a build two minutes
/// and 1.15 GB, 5,000 half a minute over 3,000 files; recheck 16).
/// [`patterns_note`] names what is left out.
pub const MAX_PROJECT_PATTERNS: usize = 1_000;

/// … and at most this many bytes of them: a thousand globs of 4 KB each
/// took 15 s and 2 GB to compile and match (recheck 16b, F-IGN2).
pub const MAX_PROJECT_PATTERN_BYTES: usize = 64 * 1024;

/// How many of `patterns` are applied: the first [`MAX_PROJECT_PATTERNS`]
/// within [`MAX_PROJECT_PATTERN_BYTES`].
fn applied(patterns: &[String]) -> usize {
    let mut bytes = 0usize;
    patterns
        .iter()
        .take(MAX_PROJECT_PATTERNS)
        .take_while(|p| {
            bytes = bytes.saturating_add(p.len());
            bytes <= MAX_PROJECT_PATTERN_BYTES
        })
        .count()
}

/// `patterns` as the lines of one gitignore file at `root`: those
/// [`applied`].
fn lines(root: &Path, patterns: &[String]) -> PatternSet {
    // A malformed pattern matches nothing; the others still count.
    PatternSet::new(
        root,
        patterns.iter().take(applied(patterns)).map(String::as_str),
    )
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

    /// The numbered outputs' folder in the project is skipped, written
    /// literally; the default one under `.ctxcurate/` and one outside the
    /// root add nothing.
    #[test]
    fn the_output_folder_is_skipped_when_it_lies_in_the_project() {
        assert_eq!(output_dir_pattern("ctx").as_deref(), Some("/ctx/"));
        assert_eq!(
            output_dir_pattern("./docs/out/").as_deref(),
            Some("/docs/out/")
        );
        assert_eq!(
            output_dir_pattern("a[1]*").as_deref(),
            Some("/a\\[1\\]\\*/")
        );
        for none in [
            ".ctxcurate/out",
            ".ctxcurate",
            "../elsewhere",
            "/tmp/out",
            "",
            ".",
        ] {
            assert_eq!(output_dir_pattern(none), None, "{none}");
        }
    }
}
