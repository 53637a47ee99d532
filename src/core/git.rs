//! Git-aware curation: which files changed against a revision, and the
//! unified diff of those changes (`add --changed`, `build --changed`,
//! `build --diff`), read from the `git` command run in the project root.
//!
//! The `git` command rather than a library: it is present wherever a
//! repository is, understands every repository format and setting the
//! user's own git does, and needs no C library in the build. It is run
//! as data in, data out, and so that nothing it reads from a repository
//! can run a program or change the repository:
//!
//! * paths come NUL-separated (`-z`), so names with spaces, newlines or
//!   quotes arrive exact; names that are not UTF-8 are counted and left
//!   out (a preset stores paths as UTF-8 strings);
//! * a revision is checked before use: one that starts with `-` is
//!   refused (it would read as an option), the rest are resolved with
//!   `rev-parse --verify --end-of-options`, and only the resolved object
//!   name is passed on;
//! * external diff drivers and text conversions (`--no-ext-diff`,
//!   `--no-textconv`), the fsmonitor hook and colours are off, prefixes
//!   are fixed (`a/`, `b/`) whatever the config says, and optional locks
//!   are off, so reading never rewrites the index;
//! * the diff is read as a stream and capped: a file's part that does not
//!   fit in the cap is left out with a note, never cut mid-hunk.
//!
//! Paths are relative to the project root (`--relative`): a project that
//! is a subfolder of its repository sees only its own files.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use thiserror::Error;

use crate::core::compose::changes::{Changes, FileDiff};

/// Why git could not answer.
#[derive(Debug, Error)]
pub enum GitError {
    /// The project is not inside a git work tree (or git is missing).
    #[error("{} is not in a git repository{}", root.display(), why)]
    NotARepo { root: PathBuf, why: String },
    /// A revision that would read as an option.
    #[error("refusing revision {0:?}: it starts with '-' and would read as an option")]
    OptionLike(String),
    /// A revision git does not know.
    #[error("unknown revision {0:?} (not a commit of this repository)")]
    UnknownRevision(String),
    /// git ran but failed.
    #[error("git {command} failed: {stderr}")]
    Failed { command: String, stderr: String },
    #[error("cannot run git: {0}")]
    Spawn(std::io::Error),
}

/// The files changed against a revision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedFiles {
    /// What the working tree was compared with, as named (`HEAD`, …).
    pub against: String,
    /// Changed files that exist now (modified, added, renamed to),
    /// sorted, then untracked files that are not ignored, sorted.
    pub paths: Vec<String>,
    /// How many of `paths` are untracked.
    pub untracked: usize,
    /// Changed files that no longer exist (deleted).
    pub deleted: Vec<String>,
    /// Changed or untracked files whose names are not UTF-8 (left out).
    pub not_utf8: usize,
}

/// The changed files a project shows: [`ChangedFiles`] through the
/// project's walk, so what the walk never shows (built-in ignores,
/// `.ctxcurateignore`, binaries) is left out, and counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedInProject {
    /// What the working tree was compared with, as named.
    pub against: String,
    /// Changed files the walk shows, in [`ChangedFiles::paths`] order.
    pub paths: Vec<String>,
    /// Changed files the project ignores (the project file itself, which
    /// is never shown, is not listed).
    pub ignored: Vec<String>,
    /// How many changed files no longer exist.
    pub deleted: usize,
    /// How many changed files have names that are not UTF-8.
    pub not_utf8: usize,
}

impl ChangedFiles {
    /// Keep the files `walked` (a project's walk) shows.
    pub fn in_walk(self, walked: &[String]) -> ChangedInProject {
        let shown: std::collections::HashSet<&str> = walked.iter().map(String::as_str).collect();
        let (paths, ignored): (Vec<String>, Vec<String>) = self
            .paths
            .into_iter()
            .partition(|p| shown.contains(p.as_str()));
        ChangedInProject {
            against: self.against,
            paths,
            ignored: ignored
                .into_iter()
                .filter(|p| p != crate::core::project::PROJECT_FILE)
                .collect(),
            deleted: self.deleted.len(),
            not_utf8: self.not_utf8,
        }
    }
}

impl ChangedInProject {
    /// One line for each kind of changed file left out (the CLI prints
    /// them as notes, the TUI in its status line).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if !self.ignored.is_empty() {
            let names: Vec<&str> = self.ignored.iter().take(5).map(String::as_str).collect();
            notes.push(format!(
                "{} changed file(s) the project ignores left out: {}{}",
                self.ignored.len(),
                names.join(", "),
                if self.ignored.len() > 5 { ", …" } else { "" }
            ));
        }
        if self.deleted > 0 {
            notes.push(format!("{} deleted file(s) left out", self.deleted));
        }
        if self.not_utf8 > 0 {
            notes.push(format!(
                "{} changed file(s) whose names are not UTF-8 left out",
                self.not_utf8
            ));
        }
        notes
    }
}

/// The git work tree around a project root.
#[derive(Debug, Clone)]
pub struct Repo {
    root: PathBuf,
}

impl Repo {
    /// The repository `root` is in; an error when it is in none.
    pub fn open(root: &Path) -> Result<Repo, GitError> {
        let repo = Repo {
            root: root.to_path_buf(),
        };
        match repo.run(&["rev-parse", "--is-inside-work-tree"]) {
            Ok(out) if out.trim_ascii() == b"true" => Ok(repo),
            Ok(_) => Err(GitError::NotARepo {
                root: root.to_path_buf(),
                why: " (it is inside a .git folder)".into(),
            }),
            Err(GitError::Spawn(e)) => Err(GitError::NotARepo {
                root: root.to_path_buf(),
                why: format!(" (git could not be run: {e})"),
            }),
            Err(GitError::Failed { stderr, .. }) if stderr.contains("dubious ownership") => {
                Err(GitError::NotARepo {
                    root: root.to_path_buf(),
                    why: " that git trusts (owned by another user; see git's safe.directory)"
                        .into(),
                })
            }
            Err(_) => Err(GitError::NotARepo {
                root: root.to_path_buf(),
                why: String::new(),
            }),
        }
    }

    /// The files changed in the working tree and index against `rev`
    /// (`None`: `HEAD`), plus untracked files that are not ignored.
    pub fn changed_files(&self, rev: Option<&str>) -> Result<ChangedFiles, GitError> {
        let (against, base) = self.resolve(rev)?;
        let mut out = ChangedFiles {
            against,
            ..ChangedFiles::default()
        };
        let listed = self.changed_names(&base)?;
        let mut changed = Vec::new();
        for name in split_z(&listed) {
            match String::from_utf8(name.to_vec()) {
                Ok(path) if self.root.join(&path).is_file() => changed.push(path),
                Ok(path) => out.deleted.push(path),
                Err(_) => out.not_utf8 += 1,
            }
        }
        changed.sort();
        let mut untracked = Vec::new();
        for name in split_z(&self.untracked_raw()?) {
            match String::from_utf8(name.to_vec()) {
                Ok(path) => untracked.push(path),
                Err(_) => out.not_utf8 += 1,
            }
        }
        untracked.sort();
        out.untracked = untracked.len();
        out.paths = changed;
        out.paths.extend(untracked);
        out.deleted.sort();
        Ok(out)
    }

    /// The NUL-separated names of the files that differ from `base`
    /// (working tree and index), relative to the project.
    fn changed_names(&self, base: &str) -> Result<Vec<u8>, GitError> {
        self.run(&[
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            "--relative",
            "--no-ext-diff",
            "--no-textconv",
            base,
            "--",
        ])
    }

    /// The unified diff of the working tree and index against `rev`
    /// (`None`: `HEAD`), at most `max_bytes` of it: a file's part that
    /// does not fit is left out with a note. Untracked files are listed,
    /// not diffed.
    pub fn diff(&self, rev: Option<&str>, max_bytes: u64) -> Result<Changes, GitError> {
        let (against, base) = self.resolve(rev)?;
        let mut changes = Changes {
            against,
            ..Changes::default()
        };
        let args = [
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--no-renames",
            "--relative",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            &base,
            "--",
        ];
        let names = self.changed_names(&base)?;
        let names: Vec<String> = split_z(&names)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        let mut child = self
            .command(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(GitError::Spawn)?;
        let stdout = child.stdout.take().ok_or_else(|| GitError::Failed {
            command: "diff".into(),
            stderr: "no output stream".into(),
        })?;
        let mut reader = CappedDiff::new(max_bytes, names);
        let read = reader.read_all(BufReader::new(stdout));
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut stderr);
        }
        let status = child.wait().map_err(GitError::Spawn)?;
        read.map_err(GitError::Spawn)?;
        if !status.success() {
            return Err(GitError::Failed {
                command: "diff".into(),
                stderr: stderr.trim().to_string(),
            });
        }
        changes.files = reader.files;
        changes.notes = reader.notes;
        for name in split_z(&self.untracked_raw()?) {
            match std::str::from_utf8(name) {
                Ok(path) => changes.untracked.push(path.to_string()),
                Err(_) => changes
                    .notes
                    .push("an untracked file whose name is not UTF-8 is not listed".into()),
            }
        }
        changes.untracked.sort();
        Ok(changes)
    }

    fn untracked_raw(&self) -> Result<Vec<u8>, GitError> {
        self.run(&["ls-files", "-z", "--others", "--exclude-standard", "--"])
    }

    /// The revision as named and as the object name to compare with.
    /// `None` is `HEAD`; a `HEAD` with no commit yet (a new repository)
    /// is the empty tree, so every file counts as changed.
    fn resolve(&self, rev: Option<&str>) -> Result<(String, String), GitError> {
        let name = rev.unwrap_or("HEAD");
        if name.starts_with('-') {
            return Err(GitError::OptionLike(name.to_string()));
        }
        if name.is_empty() {
            return Err(GitError::UnknownRevision(String::new()));
        }
        let spec = format!("{name}^{{commit}}");
        match self.run(&[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ]) {
            Ok(out) => {
                let id = String::from_utf8_lossy(&out).trim().to_string();
                if id.is_empty() || id.starts_with('-') {
                    return Err(GitError::UnknownRevision(name.to_string()));
                }
                Ok((name.to_string(), id))
            }
            Err(GitError::Failed { .. }) if name == "HEAD" => {
                let out = self.run(&["hash-object", "-t", "tree", "/dev/null"])?;
                Ok((
                    "HEAD (no commits yet)".to_string(),
                    String::from_utf8_lossy(&out).trim().to_string(),
                ))
            }
            Err(GitError::Failed { .. }) => Err(GitError::UnknownRevision(name.to_string())),
            Err(e) => Err(e),
        }
    }

    /// `git` in the root, with nothing from the repository or the
    /// environment able to run a program or write.
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        cmd.arg("-C")
            .arg(&self.root)
            .args([
                "--no-pager",
                "-c",
                "core.fsmonitor=false",
                "-c",
                "core.quotePath=false",
                "-c",
                "diff.noprefix=false",
                "-c",
                "diff.relative=false",
            ])
            .args(args)
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env_remove("GIT_EXTERNAL_DIFF")
            .env_remove("GIT_PAGER")
            .stdin(Stdio::null());
        cmd
    }

    /// Run git to completion; its stdout, or its stderr as the error.
    fn run(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        let out = self
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .map_err(GitError::Spawn)?;
        if out.status.success() {
            Ok(out.stdout)
        } else {
            Err(GitError::Failed {
                command: args.first().copied().unwrap_or("").to_string(),
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            })
        }
    }
}

/// The NUL-separated names of `-z` output.
fn split_z(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| b == 0).filter(|n| !n.is_empty())
}

/// Reads a unified diff file by file (each part starts at a
/// `diff --git ` line), keeping the parts that fit in the byte cap.
struct CappedDiff {
    left: u64,
    /// The changed paths in git's order, to name each part.
    names: Vec<String>,
    files: Vec<FileDiff>,
    notes: Vec<String>,
    /// The part being read: its bytes (until it outgrows `left`) and size.
    part: Vec<u8>,
    part_size: u64,
    parts: usize,
}

impl CappedDiff {
    fn new(max_bytes: u64, names: Vec<String>) -> Self {
        CappedDiff {
            left: max_bytes,
            names,
            files: Vec::new(),
            notes: Vec::new(),
            part: Vec::new(),
            part_size: 0,
            parts: 0,
        }
    }

    fn read_all(&mut self, mut input: impl BufRead) -> std::io::Result<()> {
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            if line.starts_with(b"diff --git ") {
                self.finish_part();
            }
            self.part_size += line.len() as u64;
            if self.part_size <= self.left {
                self.part.extend_from_slice(&line);
            }
        }
        self.finish_part();
        Ok(())
    }

    fn finish_part(&mut self) {
        if self.part_size == 0 {
            return;
        }
        let path = self
            .names
            .get(self.parts)
            .cloned()
            .unwrap_or_else(|| format!("file {}", self.parts + 1));
        self.parts += 1;
        if self.part_size <= self.left {
            self.left -= self.part_size;
            let text = match String::from_utf8(std::mem::take(&mut self.part)) {
                Ok(text) => text,
                Err(e) => {
                    self.notes.push(format!(
                        "{path}: invalid UTF-8 in the diff replaced with U+FFFD"
                    ));
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            self.files.push(FileDiff { path, text });
        } else {
            self.notes.push(format!(
                "{path}: its diff ({} bytes) is left out: the diff is capped at max_file_size",
                self.part_size
            ));
        }
        self.part.clear();
        self.part_size = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_diff_keeps_whole_parts_in_order() {
        let diff = "diff --git a/a b/a\n-1\n+2\ndiff --git a/big b/big\n+xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ndiff --git a/c b/c\n+3\n";
        let mut r = CappedDiff::new(60, vec!["a".into(), "big".into(), "c".into()]);
        r.read_all(diff.as_bytes()).unwrap();
        let kept: Vec<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(kept, ["a", "c"]);
        assert_eq!(r.files[0].text, "diff --git a/a b/a\n-1\n+2\n");
        assert_eq!(r.files[1].text, "diff --git a/c b/c\n+3\n");
        assert_eq!(r.notes.len(), 1);
        assert!(
            r.notes[0].starts_with("big: its diff (61 bytes) is left out"),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn invalid_utf8_in_a_diff_is_replaced_with_a_note() {
        let mut r = CappedDiff::new(1000, vec!["a".into()]);
        r.read_all(&b"diff --git a/a b/a\n+\xff\n"[..]).unwrap();
        assert_eq!(r.files[0].text, "diff --git a/a b/a\n+\u{fffd}\n");
        assert_eq!(
            r.notes,
            ["a: invalid UTF-8 in the diff replaced with U+FFFD"]
        );
    }

    #[test]
    fn option_like_revisions_are_refused_before_git_runs() {
        let repo = Repo {
            root: PathBuf::from("/nonexistent"),
        };
        for rev in ["--output=/tmp/x", "-p", "--"] {
            assert!(matches!(
                repo.resolve(Some(rev)),
                Err(GitError::OptionLike(_))
            ));
        }
    }
}
