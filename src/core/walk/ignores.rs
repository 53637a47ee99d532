//! The ignore files of one walk, folder by folder, and what they say about
//! a path: git's precedence, evaluated by us over matchers built from
//! bounded reads (`walk/ignore_file.rs`), since the `ignore` crate's own
//! reading opens anything (see there) and climbs above the root.
//!
//! Per folder inside the root: `.ctxcurateignore`, `.ignore`, `.gitignore`,
//! and `.git/info/exclude` where the folder holds a `.git` folder; then the
//! user's global git excludes. As in the `ignore` crate (and so as before
//! this module): within one kind of file the deepest file with a matching
//! line decides, `!` lines re-include; between kinds `.ctxcurateignore`
//! beats `.ignore` beats `.gitignore` beats `info/exclude` beats the
//! global excludes. Nothing above the root is read. A folder the walk skips
//! is never entered, so nothing under an excluded folder comes back.
//!
//! What git's own files say (`.gitignore`, `info/exclude`, global) is kept
//! apart ([`FileVerdict::gitignored`]): no un-ignore of the repository's
//! can bring a gitignored file back (see `walk::walker_with`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use ignore::Match;

use super::builtin::IGNORE_FILE;
use super::ignore_file::{self, IgnoreFileNote, IgnoreFileProblem};
use super::pattern_set::PatternSet;
use super::rel_string;

/// What the ignore files say about one path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileVerdict {
    /// Git would ignore it (`.gitignore`, `info/exclude`, global excludes).
    pub gitignored: bool,
    /// The ignore files, by precedence, skip it.
    pub ignored: bool,
    /// The ignore files, by precedence, re-include it with a `!` line
    /// (which also overrides the hidden-file rule).
    pub whitelisted: bool,
}

/// The matchers of one folder's own ignore files.
struct Node {
    custom: Option<PatternSet>,
    ignore: Option<PatternSet>,
    git: Option<PatternSet>,
    exclude: Option<PatternSet>,
    /// The nearest ancestor folder with ignore files of its own.
    parent: Option<Arc<Node>>,
    /// The folders with ignore files from the root down to this one, and
    /// their patterns: what a path below is matched against.
    depth: usize,
    in_force: usize,
}

use ignore_file::{MAX_IGNORE_DEPTH, MAX_PATTERNS_IN_FORCE};

/// What the walk remembers about a folder it entered.
#[derive(Clone)]
struct Folder {
    /// The innermost ignore files in force there.
    rules: Option<Arc<Node>>,
    /// Walked only because of an un-ignore of the project's own (it, or a
    /// folder above it): credential files in it are left out.
    via_unignore: bool,
    /// Past [`MAX_IGNORE_DEPTH`] or [`MAX_PATTERNS_IN_FORCE`] (it or a
    /// folder above): nothing in it is walked.
    closed: bool,
}

/// The folders a walk entered: every one by path, and the chain from the
/// root to the last one entered, which is where a depth-first walk asks
/// next (a short scan, no hashing of each entry's parent).
#[derive(Default)]
struct Folders {
    by_path: HashMap<PathBuf, Folder>,
    chain: Vec<(PathBuf, Folder)>,
}

impl Folders {
    fn get(&self, dir: &Path) -> Option<Folder> {
        let found = self
            .chain
            .iter()
            .rev()
            .find(|(d, _)| d.as_os_str() == dir.as_os_str())
            .map(|(_, f)| f);
        found.or_else(|| self.by_path.get(dir)).cloned()
    }

    fn insert(&mut self, dir: &Path, folder: Folder) {
        // What is not above `dir` is done with, in a depth-first walk.
        while self.chain.last().is_some_and(|(d, _)| !dir.starts_with(d)) {
            self.chain.pop();
        }
        self.chain.push((dir.to_path_buf(), folder.clone()));
        self.by_path.insert(dir.to_path_buf(), folder);
    }
}

/// The ignore files of one walk, read as the walk enters each folder.
pub struct IgnoreFiles {
    /// The root as the walk names paths.
    root: PathBuf,
    /// The root with its links resolved: every ignore file must be inside.
    real_root: Option<PathBuf>,
    global: Option<PatternSet>,
    folders: Mutex<Folders>,
    /// Notes on the files of the folders entered below the root.
    notes: Mutex<Vec<IgnoreFileNote>>,
    /// Notes on the root's own ignore files and the global excludes.
    root_notes: Vec<IgnoreFileNote>,
    /// Patterns the walk may still compile ([`ignore_file::MAX_WALK_PATTERNS`]).
    budget: Mutex<usize>,
}

impl IgnoreFiles {
    /// The ignore files of a walk of `root`: the root's own and the user's
    /// global excludes are read now, the others as the walk enters their
    /// folders ([`IgnoreFiles::enter`]).
    pub fn new(root: &Path) -> IgnoreFiles {
        let real_root = root.canonicalize().ok();
        let mut root_notes = Vec::new();
        let mut budget = ignore_file::MAX_WALK_PATTERNS;
        let global = ignore_file::global_excludes_path().and_then(|path| {
            let (m, note) = ignore_file::load(None, root, &path, &mut budget, || {
                path.display().to_string()
            });
            root_notes.extend(note);
            m
        });
        let mut files = IgnoreFiles {
            root: root.to_path_buf(),
            real_root,
            global,
            folders: Mutex::new(Folders::default()),
            notes: Mutex::new(Vec::new()),
            root_notes: Vec::new(),
            budget: Mutex::new(budget),
        };
        let rules = files.read_folder(root, None);
        files.lock_folders().insert(
            root,
            Folder {
                rules,
                via_unignore: false,
                closed: false,
            },
        );
        root_notes.append(&mut files.notes.lock().unwrap_or_else(PoisonError::into_inner));
        files.root_notes = root_notes;
        files
    }

    /// What the ignore files of the folders from the root down to `path`'s
    /// parent say about `path` (a folder when `is_dir`), and whether that
    /// parent was walked only through a project un-ignore.
    pub fn verdict(&self, path: &Path, is_dir: bool) -> (FileVerdict, bool) {
        let folder = path.parent().and_then(|dir| self.folder(dir));
        if folder.as_ref().is_some_and(|f| f.closed) {
            let shut = FileVerdict {
                gitignored: true,
                ignored: true,
                whitelisted: false,
            };
            return (shut, false);
        }
        let (rules, via_unignore) = folder.map_or((None, false), |f| (f.rules, f.via_unignore));
        let mut custom = Match::None;
        let mut ignore = Match::None;
        let mut git = Match::None;
        let mut exclude = Match::None;
        let mut node = rules.as_deref();
        while let Some(n) = node {
            fill(&mut custom, &n.custom, path, is_dir);
            fill(&mut ignore, &n.ignore, path, is_dir);
            fill(&mut git, &n.git, path, is_dir);
            fill(&mut exclude, &n.exclude, path, is_dir);
            node = n.parent.as_deref();
        }
        let mut global = Match::None;
        fill(&mut global, &self.global, path, is_dir);
        // The user's own global excludes are final: git lets a
        // repository's `!` line re-include what they ignore, but for a
        // context tool they are the user's privacy rule (`*.secret`,
        // `mynotes/`), which a repository must not lift.
        let private = global.is_ignore();
        let git = git.or(exclude).or(global);
        let gitignored = git.is_ignore() || private;
        let all = custom.or(ignore).or(git);
        let verdict = FileVerdict {
            gitignored,
            ignored: all.is_ignore() || private,
            whitelisted: all.is_whitelist() && !private,
        };
        (verdict, via_unignore)
    }

    /// The walk keeps the folder `dir`: read its ignore files for what is
    /// inside. `via_unignore`: it is walked only through an un-ignore of
    /// the project's own (or lies in such a folder).
    pub fn enter(&self, dir: &Path, via_unignore: bool) {
        let parent = dir.parent().and_then(|p| self.folder(p));
        if parent.as_ref().is_some_and(|f| f.closed) {
            return;
        }
        let rules = self.read_folder(dir, parent.and_then(|f| f.rules));
        let closed = rules
            .as_deref()
            .is_some_and(|n| n.depth > MAX_IGNORE_DEPTH || n.in_force > MAX_PATTERNS_IN_FORCE);
        if closed {
            self.note_closed(dir);
        }
        self.lock_folders().insert(
            dir,
            Folder {
                rules: if closed { None } else { rules },
                via_unignore,
                closed,
            },
        );
    }

    /// Note a file left out because its path is not UTF-8: one note for
    /// all of them, naming the first by its escaped path (the walk reads
    /// folders in parallel, so not the first found), and counting them.
    pub fn note_not_utf8(&self, rel: &Path) {
        let shown = escaped(rel);
        let mut notes = self.notes.lock().unwrap_or_else(PoisonError::into_inner);
        for note in notes.iter_mut() {
            if let IgnoreFileProblem::NameNotUtf8 { count } = &mut note.problem {
                *count += 1;
                if shown < note.path {
                    note.path = shown;
                }
                return;
            }
        }
        notes.push(IgnoreFileNote {
            path: shown,
            problem: IgnoreFileProblem::NameNotUtf8 { count: 1 },
        });
    }

    /// Note the first folder closed ([`Folder::closed`]); the others are
    /// below it or beside it, for the same reason.
    fn note_closed(&self, dir: &Path) {
        let mut notes = self.notes.lock().unwrap_or_else(PoisonError::into_inner);
        if notes
            .iter()
            .any(|n| n.problem == IgnoreFileProblem::NestedTooDeep)
        {
            return;
        }
        notes.push(IgnoreFileNote {
            path: dir
                .strip_prefix(&self.root)
                .map_or_else(|_| dir.display().to_string(), rel_string),
            problem: IgnoreFileProblem::NestedTooDeep,
        });
    }

    /// The root's own ignore files (and the user's global excludes) that
    /// were skipped or cut.
    pub fn root_notes(&self) -> &[IgnoreFileNote] {
        &self.root_notes
    }

    /// The ignore files below the root skipped or cut so far.
    pub fn notes(&self) -> Vec<IgnoreFileNote> {
        self.notes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn folder(&self, dir: &Path) -> Option<Folder> {
        self.lock_folders().get(dir)
    }

    fn lock_folders(&self) -> std::sync::MutexGuard<'_, Folders> {
        // A panic elsewhere leaves the map whole: each insert is one step.
        self.folders.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The rules in force in `dir`: its own ignore files over `parent`'s.
    fn read_folder(&self, dir: &Path, parent: Option<Arc<Node>>) -> Option<Arc<Node>> {
        let custom = self.load(dir, &dir.join(IGNORE_FILE));
        let ignore = self.load(dir, &dir.join(".ignore"));
        let git = self.load(dir, &dir.join(".gitignore"));
        // Only a real `.git` folder: a `.git` file or link points at a
        // git directory elsewhere, which is not ours to read.
        let has_git_dir = std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| m.is_dir());
        let exclude = if has_git_dir {
            self.load(dir, &dir.join(".git/info/exclude"))
        } else {
            None
        };
        if custom.is_none() && ignore.is_none() && git.is_none() && exclude.is_none() {
            return parent;
        }
        let own: usize = [&custom, &ignore, &git, &exclude]
            .into_iter()
            .flatten()
            .map(PatternSet::len)
            .sum();
        let (depth, in_force) = parent.as_deref().map_or((0, 0), |p| (p.depth, p.in_force));
        Some(Arc::new(Node {
            custom,
            ignore,
            git,
            exclude,
            parent,
            depth: depth + 1,
            in_force: in_force.saturating_add(own),
        }))
    }

    fn load(&self, dir: &Path, path: &Path) -> Option<PatternSet> {
        // No root to check against (it vanished): read nothing.
        let real_root = self.real_root.as_deref()?;
        let mut budget = self.budget.lock().unwrap_or_else(PoisonError::into_inner);
        let (m, note) = ignore_file::load(Some(real_root), dir, path, &mut budget, || {
            path.strip_prefix(&self.root)
                .map_or_else(|_| path.display().to_string(), rel_string)
        });
        if let Some(note) = note {
            self.notes
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(note);
        }
        m
    }
}

/// The first match wins: fill `slot` from `m` only while it is empty.
fn fill<'a>(
    slot: &mut Match<&'a ignore::gitignore::Glob>,
    m: &'a Option<PatternSet>,
    path: &Path,
    is_dir: bool,
) {
    if slot.is_none()
        && let Some(m) = m
    {
        *slot = m.matched(path, is_dir);
    }
}

/// `rel` as `/`-separated text a terminal shows as it is: bytes that are
/// not UTF-8 as `\xNN`, the characters of the rest as every line the user
/// sees shows them (`text::sanitize::push_visible`: control pictures,
/// invisible and bidirectional characters escaped).
fn escaped(rel: &Path) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (i, part) in rel.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        for chunk in part.as_encoded_bytes().utf8_chunks() {
            for c in chunk.valid().chars() {
                crate::text::sanitize::push_visible(&mut out, c);
            }
            for byte in chunk.invalid() {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn deeper_files_win_and_kinds_keep_their_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".gitignore", "*.log\nkeep/\n");
        write(root, "a/.gitignore", "!*.log\n");
        write(root, ".ctxcurateignore", "!b.tmp\n");
        write(root, ".ignore", "*.tmp\n");
        fs::create_dir_all(root.join(".git/info")).unwrap();
        write(root, ".git/info/exclude", "excluded.txt\n");
        let files = IgnoreFiles::new(root);
        let v = |rel: &str, is_dir| files.verdict(&root.join(rel), is_dir).0;
        assert!(v("x.log", false).ignored && v("x.log", false).gitignored);
        files.enter(&root.join("a"), false);
        assert!(
            v("a/x.log", false).whitelisted && !v("a/x.log", false).gitignored,
            "the deeper file re-includes"
        );
        assert!(v("a.tmp", false).ignored && !v("a.tmp", false).gitignored);
        assert!(
            v("b.tmp", false).whitelisted,
            ".ctxcurateignore beats .ignore"
        );
        assert!(v("excluded.txt", false).gitignored);
        assert!(v("keep", true).ignored && !v("keep", false).ignored);
        assert_eq!(v("plain.py", false), FileVerdict::default());
    }

    #[test]
    fn nothing_above_the_root_and_no_foreign_git_dir_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        write(top, ".gitignore", "*.py\n");
        let root = top.join("proj");
        write(&root, "app.py", "");
        // `.git` as a link to another repository's git directory.
        write(top, "other/info/exclude", "app.py\n");
        std::os::unix::fs::symlink(top.join("other"), root.join(".git")).unwrap();
        let files = IgnoreFiles::new(&root);
        assert_eq!(
            files.verdict(&root.join("app.py"), false).0,
            FileVerdict::default()
        );
        assert!(files.notes().is_empty(), "{:?}", files.notes());
    }

    #[test]
    fn skipped_files_are_noted_by_their_relative_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("sub")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join("sub/.gitignore")).unwrap();
        let files = IgnoreFiles::new(root);
        files.enter(&root.join("sub"), false);
        let notes = files.notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].path, "sub/.gitignore");
        assert_eq!(notes[0].problem, ignore_file::IgnoreFileProblem::NotAFile);
    }

    #[test]
    fn a_walks_patterns_are_bounded_all_files_together() {
        use ignore_file::{IgnoreFileProblem, MAX_IGNORE_PATTERNS, MAX_WALK_PATTERNS};
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let full: String = (0..MAX_IGNORE_PATTERNS)
            .map(|i| format!("p{i}\n"))
            .collect();
        let files = MAX_WALK_PATTERNS / MAX_IGNORE_PATTERNS + 1;
        for k in 0..files {
            write(root, &format!("d{k}/.gitignore"), &full);
        }
        let ignores = IgnoreFiles::new(root);
        for k in 0..files {
            ignores.enter(&root.join(format!("d{k}")), false);
        }
        let notes = ignores.notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].path, format!("d{}/.gitignore", files - 1));
        assert_eq!(
            notes[0].problem,
            IgnoreFileProblem::OverWalkBudget {
                used: MAX_WALK_PATTERNS % MAX_IGNORE_PATTERNS
            }
        );
        let last = root.join(format!("d{}", files - 1));
        assert!(
            !ignores.verdict(&last.join("p0"), false).0.ignored,
            "over budget"
        );
        assert!(
            ignores
                .verdict(
                    &root.join(format!("d0/p{}", MAX_IGNORE_PATTERNS - 1)),
                    false
                )
                .0
                .ignored
        );
    }

    #[cfg(unix)]
    #[test]
    fn names_not_in_utf8_are_shown_escaped() {
        use std::os::unix::ffi::OsStrExt;
        let rel = Path::new(std::ffi::OsStr::from_bytes(
            "a\x1b[2J/h5_\u{202e}"
                .bytes()
                .chain(*b"\xff\xfe.py")
                .collect::<Vec<u8>>()
                .leak(),
        ));
        assert_eq!(escaped(rel), "a\u{241b}[2J/h5_\\u{202e}\\xff\\xfe.py");
    }
}
