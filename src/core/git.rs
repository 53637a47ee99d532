//! Git-aware curation: which files changed against a revision, and the
//! unified diff of those changes (`add --changed`, `build --changed`,
//! `build --diff`), read from the `git` command run in the project root.
//!
//! The `git` command rather than a library: it is present wherever a
//! repository is, understands every repository format and setting the
//! user's own git does, and needs no C library in the build. A repository
//! is untrusted input (it may arrive as a tarball with its `.git`), so git
//! runs as data in, data out, and nothing the repository says may run a
//! program, point git at another repository, write, or hang the caller:
//!
//! * the repository must be this checkout's own (`location`): a `.git`
//!   file, link, `core.worktree` or `commondir` leading to another
//!   repository, or a git directory that is the project root itself (a
//!   bare layout), turns the git features off, with the reason;
//! * a changed credential file (`held_back`) is never listed, added or
//!   diffed: a change is not the user naming it;
//! * every run has a deadline (30 s; `CTXCURATE_GIT_TIMEOUT` in seconds)
//!   and is killed with its process group when it passes (`command`: a
//!   FIFO for `.git/index` hangs git forever), and a heap cap (a file git
//!   reads that never ends fails at it);
//! * paths come NUL-separated (`-z`); names that are not UTF-8 are
//!   counted and left out (a preset stores paths as UTF-8 strings); a
//!   diff's parts are named by their own headers (`diff_parts`);
//! * a revision that starts with `-` is refused (it would read as an
//!   option), the rest are resolved with `rev-parse --verify
//!   --end-of-options`, and only the resolved object name is passed on;
//! * the diff is read as a stream and capped: a file's part that does not
//!   fit in the cap is left out with a note, never cut mid-hunk.
//!
//! What a repository's config (or an `include.path` / `includeIf` it
//! pulls in) could make git run, and why it does not. The commands run are
//! `rev-parse`, `config`, `diff`, `ls-files` and `hash-object --stdin`:
//!
//! | setting | reached by | held off by |
//! |---|---|---|
//! | `filter.*.clean`/`smudge`/`process` (via `.gitattributes`, `.git/info/attributes`, the user's global attributes) | `diff` of a stat-dirty file | every name `git config` lists at any scope emptied, `required=false`: the user's own drivers too, since the repository picks their files, steers them (`lfs.extension.*`) and is their working directory (`python3 -m mod` imports its `mod.py`); the cost is that a stat-dirty file a driver would have cleaned (LFS) shows as changed, or binary |
//! | `diff.external`, `diff.*.command` | `diff` | `--no-ext-diff`, `diff.external=` |
//! | `diff.*.textconv` | `diff` | `--no-textconv` |
//! | `diff.orderFile` (a file read whole: `/dev/zero`, a FIFO) | `diff` | `diff.orderFile=/dev/null` |
//! | `core.fsmonitor` | `diff`, `ls-files` | `core.fsmonitor=false` |
//! | `core.pager`, `pager.*` | any | `--no-pager`, stdout a pipe |
//! | `core.hooksPath` (`post-index-change`) | an index write | optional locks off (no write); `core.hooksPath=/dev/null` |
//! | a submodule's own config and filters | `diff` looking into a submodule | `--ignore-submodules=all`, `submodule.recurse=false` |
//! | `remote.*.uploadpack`, `core.sshCommand`, `core.gitProxy`, `protocol.*`, `credential.helper`, `core.askPass` | a partial clone fetching a missing object | `GIT_NO_LAZY_FETCH=1`, `protocol.allow=never`, helpers emptied |
//! | `alias.*` | only for commands git does not have | only built-in commands are run |
//! | `gpg.program`, `core.editor`, `sequence.editor`, `merge.*.driver`, `uploadpack.packObjectsHook` | signing, editing, merging, serving | never reached by these commands |
//! | `GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_EXTERNAL_DIFF`, `GIT_SSH_COMMAND`, … in the caller's environment | any | removed before git runs |
//!
//! Paths are relative to the project root (`--relative`): a project that
//! is a subfolder of its repository sees only its own files.

mod command;
mod diff_parts;
mod location;

pub use command::DEFAULT_DEADLINE;

use std::io::BufReader;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::core::compose::changes::Changes;
use crate::text::words::plural;

use command::Git;
use diff_parts::CappedDiff;
use location::Layout;

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
    /// The repository git finds from the project is not this checkout's
    /// own (a `.git` file or link, `core.worktree` or `commondir` leads
    /// to another one).
    #[error(
        "{} is in a git repository that is not its own: {why}; the git features do nothing here",
        root.display()
    )]
    NotOwn { root: PathBuf, why: String },
    /// git ran but failed.
    #[error("git {command} failed: {stderr}")]
    Failed {
        command: String,
        /// Its exit status (`None`: killed by a signal).
        status: Option<i32>,
        stderr: String,
    },
    /// git did not finish in time and was stopped.
    #[error(
        "git {command} did not finish within {seconds} s and was stopped (is something in \
         the repository, such as .git/index, a FIFO or on a hung filesystem?); \
         CTXCURATE_GIT_TIMEOUT sets the limit in seconds"
    )]
    TimedOut { command: String, seconds: f64 },
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
    /// Changed files that hold credentials ([`held_back`]): never added
    /// or sent because they changed; the user names one to take it.
    pub credentials: Vec<String>,
    /// Changed files the preset's `exclude` names
    /// ([`ChangedInProject::without_excluded`]).
    pub excluded: Vec<String>,
    /// How many changed files no longer exist.
    pub deleted: usize,
    /// How many changed files have names that are not UTF-8.
    pub not_utf8: usize,
}

/// `true` for a changed file that `--changed`, `--diff`, `add --changed`
/// and the TUI's changed-files keys never take, whatever git says: a
/// credential file (`walk::is_sensitive`: a tracked `prod.tfvars` that
/// changed is no request to send it) or one no composition may hold
/// (`walk::is_blacklisted`). The walk shows credential files, so that the
/// user can pick one by name; a change is not the user naming it.
pub fn held_back(path: &str) -> bool {
    crate::core::walk::is_sensitive(path) || crate::core::walk::is_blacklisted(path)
}

impl ChangedFiles {
    /// Keep the files `walked` (a project's walk) shows, less the ones
    /// [`held_back`].
    pub fn in_walk(self, walked: &[String]) -> ChangedInProject {
        let shown: std::collections::HashSet<&str> = walked.iter().map(String::as_str).collect();
        let (held, paths): (Vec<String>, Vec<String>) =
            self.paths.into_iter().partition(|p| held_back(p));
        let (credentials, blacklisted): (Vec<String>, Vec<String>) = held
            .into_iter()
            .partition(|p| crate::core::walk::is_sensitive(p));
        let (paths, ignored): (Vec<String>, Vec<String>) =
            paths.into_iter().partition(|p| shown.contains(p.as_str()));
        ChangedInProject {
            against: self.against,
            paths,
            ignored: ignored
                .into_iter()
                .chain(blacklisted)
                .filter(|p| p != crate::core::paths::PROJECT_FILE)
                .collect(),
            credentials,
            excluded: Vec::new(),
            deleted: self.deleted.len(),
            not_utf8: self.not_utf8,
        }
    }
}

impl ChangedInProject {
    /// Leave out the changed files a preset's `exclude` names (a path, a
    /// folder or a glob, matched as the preset's own globs match them):
    /// a file the user took out of the preset is never added back, or
    /// sent, because it changed.
    pub fn without_excluded(mut self, exclude: &[String]) -> Self {
        let out = excluded(&self.paths, exclude);
        if out.is_empty() {
            return self;
        }
        let (paths, excluded): (Vec<String>, Vec<String>) = std::mem::take(&mut self.paths)
            .into_iter()
            .partition(|p| !out.contains(p));
        self.paths = paths;
        self.excluded = excluded;
        self
    }

    /// One line for each kind of changed file left out (the CLI prints
    /// them as notes, the TUI in its status line).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if !self.ignored.is_empty() {
            let names: Vec<&str> = self.ignored.iter().take(5).map(String::as_str).collect();
            notes.push(format!(
                "{} the project ignores left out: {}{}",
                plural(self.ignored.len(), "changed file"),
                names.join(", "),
                if self.ignored.len() > 5 { ", …" } else { "" }
            ));
        }
        if !self.credentials.is_empty() {
            notes.push(credentials_note(&self.credentials));
        }
        if !self.excluded.is_empty() {
            let names: Vec<&str> = self.excluded.iter().take(5).map(String::as_str).collect();
            notes.push(format!(
                "{} the preset excludes left out: {}{}",
                plural(self.excluded.len(), "changed file"),
                names.join(", "),
                if self.excluded.len() > 5 { ", …" } else { "" }
            ));
        }
        if self.deleted > 0 {
            notes.push(format!("{} left out", plural(self.deleted, "deleted file")));
        }
        if self.not_utf8 > 0 {
            notes.push(format!(
                "{} whose {} not UTF-8 left out",
                plural(self.not_utf8, "changed file"),
                if self.not_utf8 == 1 {
                    "name is"
                } else {
                    "names are"
                }
            ));
        }
        notes
    }
}

/// The note for changed credential files left out ([`held_back`]).
fn credentials_note(paths: &[String]) -> String {
    let names: Vec<&str> = paths.iter().take(5).map(String::as_str).collect();
    format!(
        "{} left out: {}{} (a change never sends one; \
         `ctxcurate add PATH` does)",
        plural(paths.len(), "changed credential file"),
        names.join(", "),
        if paths.len() > 5 { ", …" } else { "" }
    )
}

/// Which of `paths` a preset's `exclude` names (a path, a folder or a
/// glob), matched as the preset's own globs match them: the one rule
/// `--changed` and `--diff` leave files out by.
pub fn excluded(paths: &[String], exclude: &[String]) -> std::collections::HashSet<String> {
    if exclude.is_empty() || paths.is_empty() {
        return std::collections::HashSet::new();
    }
    let mut sorted = paths.to_vec();
    sorted.sort();
    sorted.dedup();
    // One glob over the paths, once with the exclusions and once
    // without: what only the first leaves out is excluded.
    let every = [crate::core::model::FileItem::new("**")];
    let reach = |exclude: &[String]| -> std::collections::HashSet<String> {
        crate::core::walk::expand_over(&every, exclude, &sorted)
            .0
            .into_iter()
            .map(|r| r.path)
            .collect()
    };
    let kept = reach(exclude);
    reach(&[])
        .into_iter()
        .filter(|p| !kept.contains(p))
        .collect()
}

/// The git work tree around a project root.
#[derive(Debug, Clone)]
pub struct Repo {
    root: PathBuf,
    git: Git,
}

impl Repo {
    /// The repository `root` is in; an error when it is in none, or in
    /// one that is not this checkout's own.
    pub fn open(root: &Path) -> Result<Repo, GitError> {
        let mut git = Git::new(root);
        let not_a_repo = |why: String| GitError::NotARepo {
            root: root.to_path_buf(),
            why,
        };
        let layout = match layout(&git) {
            Ok(layout) => layout,
            Err(GitError::Spawn(e)) => {
                return Err(not_a_repo(format!(" (git could not be run: {e})")));
            }
            Err(GitError::Failed { stderr, .. }) if stderr.contains("dubious ownership") => {
                return Err(not_a_repo(
                    " that git trusts (owned by another user; see git's safe.directory)".into(),
                ));
            }
            Err(e @ GitError::TimedOut { .. }) => return Err(e),
            Err(_) => return Err(not_a_repo(String::new())),
        };
        location::check(root, &layout).map_err(|why| GitError::NotOwn {
            root: root.to_path_buf(),
            why: why.to_string(),
        })?;
        match git.run(&["rev-parse", "--is-inside-work-tree"]) {
            Ok(out) if out.trim_ascii() == b"true" => {}
            Ok(_) => return Err(not_a_repo(" (it is inside a .git folder)".into())),
            Err(e @ GitError::TimedOut { .. }) => return Err(e),
            Err(_) => return Err(not_a_repo(String::new())),
        }
        git.neutralise_filters()?;
        Ok(Repo {
            root: root.to_path_buf(),
            git,
        })
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
            "--ignore-submodules=all",
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
            "--ignore-submodules=all",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            &base,
            "--",
        ];
        let reader = self.git.stream(&args, move |stdout| {
            let mut reader = CappedDiff::new(max_bytes);
            reader.read_all(BufReader::new(stdout)).map(|()| reader)
        })?;
        changes.files = reader.files;
        changes.notes = reader.notes;
        // Credential files: neither their diff nor their name.
        let mut held = reader.held;
        for name in split_z(&self.untracked_raw()?) {
            match std::str::from_utf8(name) {
                Ok(path) if held_back(path) => held.push(path.to_string()),
                Ok(path) => changes.untracked.push(path.to_string()),
                Err(_) => changes
                    .notes
                    .push("an untracked file whose name is not UTF-8 is not listed".into()),
            }
        }
        changes.untracked.sort();
        let (credentials, blacklisted): (Vec<String>, Vec<String>) = held
            .into_iter()
            .partition(|p| crate::core::walk::is_sensitive(p));
        if !credentials.is_empty() {
            changes.notes.push(credentials_note(&credentials));
        }
        if !blacklisted.is_empty() {
            changes.notes.push(format!(
                "{} no context may hold left out",
                plural(blacklisted.len(), "changed file")
            ));
        }
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
                // The empty tree, from empty input: no path, so no
                // attribute or filter applies.
                let out = self.run(&["hash-object", "-t", "tree", "--stdin"])?;
                Ok((
                    "HEAD (no commits yet)".to_string(),
                    String::from_utf8_lossy(&out).trim().to_string(),
                ))
            }
            Err(GitError::Failed { .. }) => Err(GitError::UnknownRevision(name.to_string())),
            Err(e) => Err(e),
        }
    }

    fn run(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        self.git.run(args)
    }
}

/// Where git says the repository around the root is.
fn layout(git: &Git) -> Result<Layout, GitError> {
    let out = git.run(&[
        "rev-parse",
        "--path-format=absolute",
        "--show-toplevel",
        "--absolute-git-dir",
        "--git-common-dir",
    ])?;
    let text = String::from_utf8_lossy(&out);
    let lines: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(&text)
        .split('\n')
        .collect();
    let [top, git_dir, common] = lines[..] else {
        return Err(GitError::NotOwn {
            root: git.root().to_path_buf(),
            why: format!("git names its repository in a way this tool cannot read: {text:?}"),
        });
    };
    let core_worktree = match git.run(&["config", "--get", "core.worktree"]) {
        Ok(out) => Some(PathBuf::from(
            String::from_utf8_lossy(&out)
                .trim_end_matches('\n')
                .to_string(),
        )),
        Err(GitError::Failed { .. }) => None,
        Err(e) => return Err(e),
    };
    Ok(Layout {
        toplevel: PathBuf::from(top),
        git_dir: PathBuf::from(git_dir),
        common_dir: PathBuf::from(common),
        core_worktree,
    })
}

/// The NUL-separated names of `-z` output.
fn split_z(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| b == 0).filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_files_the_preset_excludes_are_left_out() {
        let changed = ChangedInProject {
            against: "HEAD".into(),
            paths: ["a.py", "lib/x.py", "secret.py", "z.md", "gen/y.py"]
                .map(String::from)
                .to_vec(),
            ..ChangedInProject::default()
        };
        let out = changed.without_excluded(&["secret.py".into(), "lib".into(), "gen/*.py".into()]);
        assert_eq!(out.paths, ["a.py", "z.md"]);
        assert_eq!(out.excluded, ["lib/x.py", "secret.py", "gen/y.py"]);
        assert!(
            out.notes()[0].starts_with("3 changed files the preset excludes left out: lib/x.py"),
            "{:?}",
            out.notes()
        );
    }

    #[test]
    fn changed_credential_and_blacklisted_files_are_held_back_even_when_walked() {
        let changed = ChangedFiles {
            against: "HEAD".into(),
            paths: ["a.py", "prod.tfvars", "app/.env", "history.toml"]
                .map(String::from)
                .to_vec(),
            ..ChangedFiles::default()
        };
        // The walk shows credential files (a user may pick one by name).
        let walked = ["a.py", "prod.tfvars", "app/.env", "history.toml"].map(String::from);
        let out = changed.in_walk(&walked);
        assert_eq!(out.paths, ["a.py"]);
        assert_eq!(out.credentials, ["prod.tfvars", "app/.env"]);
        assert_eq!(out.ignored, ["history.toml"]);
        assert!(
            out.notes().iter().any(
                |n| n.starts_with("2 changed credential files left out: prod.tfvars, app/.env")
            ),
            "{:?}",
            out.notes()
        );
    }

    #[test]
    fn option_like_revisions_are_refused_before_git_runs() {
        let repo = Repo {
            root: PathBuf::from("/nonexistent"),
            git: Git::new(Path::new("/nonexistent")),
        };
        for rev in ["--output=/tmp/x", "-p", "--"] {
            assert!(matches!(
                repo.resolve(Some(rev)),
                Err(GitError::OptionLike(_))
            ));
        }
    }
}
