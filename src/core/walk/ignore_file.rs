//! One ignore file (`.gitignore`, `.ignore`, `.ctxcurateignore`,
//! `.git/info/exclude`, the user's global excludes), read by us and
//! bounded, into a gitignore matcher.
//!
//! Ignore files come with the repository, so they are untrusted input: a
//! checkout can make one a link to `/dev/zero` (which the `ignore` crate
//! reads until memory runs out), a FIFO (which blocks its open forever),
//! a link to a file of the user's outside the project, or megabytes of
//! globs whose compiled matcher takes gigabytes. So only a regular file
//! (or a link resolving to one inside the root) is read, opened without
//! blocking and checked again once open, at most [`MAX_IGNORE_FILE_BYTES`]
//! of it and [`MAX_IGNORE_PATTERNS`] patterns; whatever is skipped or cut
//! is an [`IgnoreFileNote`] the walk hands on.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::pattern_set::PatternSet;

/// Bytes of one ignore file read at most (the rest is left out, with a
/// note). Real ignore files are a few KiB; GitHub's largest templates are
/// under 10 KiB.
pub const MAX_IGNORE_FILE_BYTES: u64 = 256 * 1024;

/// Patterns of one ignore file used at most (the rest are left out, with
/// a note): each compiles to a glob, a matcher's memory grows with their
/// number, and every path of the walk is matched against them, faster
/// than linearly in their number (5,000 globs over 12,000 files: `map`
/// 41 s, recheck 16b; 1,000 take a tenth of the time per glob).
pub const MAX_IGNORE_PATTERNS: usize = 1_000;

/// The most folders with ignore files of their own a walked folder may lie
/// in, and the most patterns they may hold together. Each path is matched
/// against every ignore file above it: 400 nested folders each with a
/// 100-glob `.gitignore` took `build` 28 s, 1,500 past 150 s (recheck
/// 16). A folder past either is not walked (its files are left out, with
/// a note, `walk/ignores.rs`): leaving its ignore files unread instead
/// would bring in what they keep out.
pub const MAX_IGNORE_DEPTH: usize = 32;
pub const MAX_PATTERNS_IN_FORCE: usize = 2 * MAX_IGNORE_PATTERNS;

/// Patterns of all the ignore files of one walk used at most: a checkout
/// can hold many files, each under [`MAX_IGNORE_PATTERNS`]. (Compiled
/// matchers take a few KiB a pattern: this keeps a walk's under ~100 MB.)
pub const MAX_WALK_PATTERNS: usize = 30_000;

/// Why an ignore file was skipped, or applied only in part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IgnoreFileProblem {
    /// A device, FIFO, socket or folder (or a link to one).
    #[error("not a regular file; its patterns are not applied")]
    NotAFile,
    /// A link resolving outside the project root.
    #[error("links outside the project root; its patterns are not applied")]
    OutsideRoot,
    /// Longer than [`MAX_IGNORE_FILE_BYTES`].
    #[error("{bytes} bytes; only the first {MAX_IGNORE_FILE_BYTES} bytes are applied")]
    TooLarge { bytes: u64 },
    /// More than [`MAX_IGNORE_PATTERNS`] patterns.
    #[error("{count}+ patterns; only the first {MAX_IGNORE_PATTERNS} are applied")]
    TooManyPatterns { count: usize },
    /// The walk's ignore files together hold more than
    /// [`MAX_WALK_PATTERNS`]: this file's past that are left out.
    #[error(
        "the project's ignore files hold over {MAX_WALK_PATTERNS} patterns; \
         only the first {used} of this one are applied"
    )]
    OverWalkBudget { used: usize },
    /// Unreadable for another reason (permissions, I/O).
    #[error("cannot be read ({0}); its patterns are not applied")]
    Io(String),
    /// The folder (not a file) lies under more folders with ignore files,
    /// or more patterns, than a walk matches a path against: it is not
    /// walked (`walk/ignores.rs`).
    #[error(
        "lies under more than {} folders with ignore files, or {} of their patterns; it and what is beside or below it so deep are not walked",
        MAX_IGNORE_DEPTH,
        MAX_PATTERNS_IN_FORCE
    )]
    NestedTooDeep,
    /// Files (the first of them by its escaped path named) whose paths are
    /// not UTF-8: left out of the walk, since a lossy name (`h5_�.py`)
    /// could not be read back and would name another file
    /// (`walk::rel_utf8`).
    #[error("its path is not UTF-8, so it is left out, as is any other so named ({count} in all)")]
    NameNotUtf8 { count: usize },
}

/// An ignore file the walk skipped or cut, for the user to hear about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreFileNote {
    /// The file, relative to the root (`/`-separated), or as given when it
    /// is the user's global excludes file.
    pub path: String,
    pub problem: IgnoreFileProblem,
}

impl fmt::Display for IgnoreFileNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            IgnoreFileProblem::NestedTooDeep => "folder",
            IgnoreFileProblem::NameNotUtf8 { .. } => "file",
            _ => "ignore file",
        };
        write!(f, "{what} {}: {}", self.path, self.problem)
    }
}

/// The text of the ignore file at `path` (its first
/// [`MAX_IGNORE_FILE_BYTES`], cut at a line end), `Ok(None)` when there is
/// none (missing, a dangling link, a parent that is not a folder).
///
/// `root` is the canonical project root the file must resolve inside;
/// `None` for the user's own global excludes file, which may live anywhere.
/// A too-large file is returned cut, with its problem beside it.
pub fn read_ignore_file(
    root: Option<&Path>,
    path: &Path,
) -> Result<Option<(String, Option<IgnoreFileProblem>)>, IgnoreFileProblem> {
    // Most folders have no such file: one `lstat` says so, before the
    // dearer resolution below.
    match std::fs::symlink_metadata(path) {
        Ok(_) => {}
        Err(e) if is_absent(&e) => return Ok(None),
        Err(e) => return Err(IgnoreFileProblem::Io(e.to_string())),
    }
    // Resolve every link on the way (the file itself, or `.git/info`
    // being one) and check where it lands before anything is opened.
    let real = match path.canonicalize() {
        Ok(real) => real,
        Err(e) if is_absent(&e) => return Ok(None),
        Err(e) => return Err(IgnoreFileProblem::Io(e.to_string())),
    };
    // What it is first (a stat, which neither blocks on a FIFO nor reads
    // a device), then where it is.
    if !std::fs::metadata(&real).map_err(io_problem)?.is_file() {
        return Err(IgnoreFileProblem::NotAFile);
    }
    if root.is_some_and(|root| !real.starts_with(root)) {
        return Err(IgnoreFileProblem::OutsideRoot);
    }
    let file = open_regular(&real)?;
    let bytes = file.metadata().map_err(io_problem)?.len();
    let mut buf = Vec::new();
    file.take(MAX_IGNORE_FILE_BYTES)
        .read_to_end(&mut buf)
        .map_err(io_problem)?;
    let mut problem = None;
    if bytes > MAX_IGNORE_FILE_BYTES || buf.len() as u64 >= MAX_IGNORE_FILE_BYTES {
        // The last line may be cut in the middle: drop it rather than
        // apply half a pattern.
        let end = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        buf.truncate(end);
        problem = Some(IgnoreFileProblem::TooLarge { bytes });
    }
    // Git reads patterns as bytes; a stray invalid byte spoils one
    // pattern, not the file.
    Ok(Some((String::from_utf8_lossy(&buf).into_owned(), problem)))
}

/// Open `real` (link-free) for reading, refusing anything but a regular
/// file. `O_NONBLOCK` so a FIFO swapped in after the check cannot block
/// the open; the check that counts is the one on the open descriptor.
fn open_regular(real: &Path) -> Result<File, IgnoreFileProblem> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(real)
        .map_err(|e| match e.raw_os_error() {
            // O_NOFOLLOW met a link swapped in since canonicalize.
            Some(libc::ELOOP) => IgnoreFileProblem::NotAFile,
            _ => io_problem(e),
        })?;
    let meta = file.metadata().map_err(io_problem)?;
    if !meta.is_file() {
        return Err(IgnoreFileProblem::NotAFile);
    }
    Ok(file)
}

fn is_absent(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::NotFound)
        || e.raw_os_error() == Some(libc::ENOTDIR)
        || e.raw_os_error() == Some(libc::ELOOP)
}

fn io_problem(e: io::Error) -> IgnoreFileProblem {
    IgnoreFileProblem::Io(e.to_string())
}

/// The matcher of one ignore file's `text`, its patterns relative to
/// `dir`, using at most `limit` (and [`MAX_IGNORE_PATTERNS`]) of them; the
/// number used, and the problem when more were left out. A malformed line
/// matches nothing; the others still count, as with git.
pub fn matcher(
    dir: &Path,
    text: &str,
    limit: usize,
) -> (PatternSet, usize, Option<IgnoreFileProblem>) {
    let (lines, problem) = pattern_lines(text, limit);
    let count = lines.len();
    (PatternSet::new(dir, lines), count, problem)
}

/// The lines of an ignore file's `text` that hold a pattern, in order:
/// at most `limit` (and [`MAX_IGNORE_PATTERNS`]), with the problem when
/// more were left out.
pub fn pattern_lines(text: &str, limit: usize) -> (Vec<&str>, Option<IgnoreFileProblem>) {
    let mut lines = Vec::new();
    let mut count = 0usize;
    let mut problem = None;
    for (i, line) in text.lines().enumerate() {
        // Git skips a leading byte-order mark.
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        if is_blank_or_comment(line) {
            continue;
        }
        if count == MAX_IGNORE_PATTERNS {
            problem = Some(IgnoreFileProblem::TooManyPatterns { count });
            break;
        }
        if count == limit {
            problem = Some(IgnoreFileProblem::OverWalkBudget { used: count });
            break;
        }
        count += 1;
        lines.push(line);
    }
    (lines, problem)
}

/// Lines that hold no pattern: what `add_line` skips without compiling.
fn is_blank_or_comment(line: &str) -> bool {
    line.starts_with('#') || (!line.ends_with("\\ ") && line.trim_end().is_empty())
}

/// Read and compile the ignore file at `path` in one step (see
/// [`read_ignore_file`] and [`matcher`]), taking the patterns it uses out
/// of `budget`: `None` when there is none (or nothing to match), and the
/// note to hand on when it was skipped or cut. `shown` is how the note
/// names the file.
pub fn load(
    root: Option<&Path>,
    dir: &Path,
    path: &Path,
    budget: &mut usize,
    shown: impl FnOnce() -> String,
) -> (Option<PatternSet>, Option<IgnoreFileNote>) {
    let note = |problem| {
        Some(IgnoreFileNote {
            path: shown(),
            problem,
        })
    };
    match read_ignore_file(root, path) {
        Ok(None) => (None, None),
        Err(problem) => (None, note(problem)),
        Ok(Some((text, cut))) => {
            let (gitignore, used, too_many) = matcher(dir, &text, *budget);
            *budget -= used;
            let gitignore = (!gitignore.is_empty()).then_some(gitignore);
            match too_many.or(cut) {
                Some(problem) => (gitignore, note(problem)),
                None => (gitignore, None),
            }
        }
    }
}

/// The user's global git excludes file (`core.excludesFile` of the user's
/// own git config, else `$XDG_CONFIG_HOME/git/ignore`), as git finds it.
/// Only the user's configuration is read, never a repository's
/// `.git/config`, whose `core.excludesFile` is repository input.
pub fn global_excludes_path() -> Option<PathBuf> {
    ignore::gitignore::gitconfig_excludes_path()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn special_files_are_refused_before_any_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let zero = root.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert_eq!(
            read_ignore_file(None, &zero),
            Err(IgnoreFileProblem::NotAFile)
        );
        assert_eq!(
            read_ignore_file(Some(&root), &zero),
            Err(IgnoreFileProblem::NotAFile)
        );
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("patterns"), "*.py\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("patterns"), root.join("out")).unwrap();
        assert_eq!(
            read_ignore_file(Some(&root), &root.join("out")),
            Err(IgnoreFileProblem::OutsideRoot)
        );
        let fifo = std::ffi::CString::new(root.join("fifo").into_os_string().into_encoded_bytes())
            .unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        assert_eq!(
            read_ignore_file(Some(&root), &root.join("fifo")),
            Err(IgnoreFileProblem::NotAFile)
        );
        assert_eq!(
            read_ignore_file(Some(&root), &root),
            Err(IgnoreFileProblem::NotAFile)
        );
        assert_eq!(read_ignore_file(Some(&root), &root.join("none")), Ok(None));
        assert_eq!(
            read_ignore_file(Some(&root), &root.join("none/.gitignore")),
            Ok(None)
        );
        fs::write(root.join("file"), "x").unwrap();
        assert_eq!(
            read_ignore_file(Some(&root), &root.join("file/.gitignore")),
            Ok(None),
            "a parent that is a file"
        );
    }

    #[test]
    fn a_large_file_is_cut_at_a_line_end() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let line = "abcdefghij-pattern\n";
        let text = line.repeat(MAX_IGNORE_FILE_BYTES as usize / line.len() + 10);
        fs::write(root.join(".gitignore"), &text).unwrap();
        let (read, problem) = read_ignore_file(Some(&root), &root.join(".gitignore"))
            .unwrap()
            .unwrap();
        assert!(read.len() as u64 <= MAX_IGNORE_FILE_BYTES);
        assert!(read.ends_with(line), "whole lines only");
        assert_eq!(
            problem,
            Some(IgnoreFileProblem::TooLarge {
                bytes: text.len() as u64
            })
        );
    }

    #[test]
    fn patterns_past_the_cap_are_left_out() {
        let dir = Path::new("/p");
        let mut text = String::from("# comment\n\nfirst\n");
        for i in 0..MAX_IGNORE_PATTERNS {
            text.push_str(&format!("p{i}\n"));
        }
        let (m, used, problem) = matcher(dir, &text, usize::MAX);
        assert_eq!(used, MAX_IGNORE_PATTERNS);
        assert_eq!(
            problem,
            Some(IgnoreFileProblem::TooManyPatterns {
                count: MAX_IGNORE_PATTERNS
            })
        );
        assert!(m.matched("/p/first", false).is_ignore());
        assert!(m.matched("/p/p0", false).is_ignore());
        assert!(
            !m.matched(format!("/p/p{}", MAX_IGNORE_PATTERNS - 1), false)
                .is_ignore()
        );
        assert_eq!(m.len(), MAX_IGNORE_PATTERNS);
        let (m, used, problem) = matcher(dir, &text, 2);
        assert_eq!(
            (m.len(), used, problem),
            (2, 2, Some(IgnoreFileProblem::OverWalkBudget { used: 2 }))
        );
    }
}
