//! Keeping writes inside the project: a repository may ship `.ctxcurate`,
//! `ctxcurate.toml` or anything below `.ctxcurate/` as a symbolic link to a
//! place outside its root (the user's home, `/etc`). Everything the tool
//! writes or deletes under the root first asks [`check_inside`] whether
//! the path, resolved link by link, stays inside the root; a link that
//! stays inside is followed (a dotfiles repository may link its own files).
//!
//! The check guards writes against what a cloned repository contains, not
//! against another local process swapping links between the check and the
//! write. Reads do not rely on it: they open beneath the root
//! (`beneath.rs`), which refuses a link swapped in while it opens.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use thiserror::Error;

use super::beneath::{BeneathError, Links, open_beneath};

/// The directory under the root holding caches, outputs and the lock.
pub const STATE_DIR: &str = ".ctxcurate";

/// A write or delete refused because a path under the root is a link that
/// resolves outside it (or cannot be resolved at all).
#[derive(Debug, Error)]
// Paths are shown quoted and escaped (`{:?}`): a link's text comes from
// the repository and may hold terminal escapes.
#[error(
    "refusing to write or delete through {link:?}: it is a symbolic link to {target:?}, \
     {} (replace the link with a real file or folder)",
    if *into_vcs { "in the project's version control folder" } else { "outside the project" }
)]
pub struct Escape {
    /// The link under the root.
    pub link: PathBuf,
    /// Where it leads (the link's own text when it leads nowhere).
    pub target: PathBuf,
    /// It leads inside the root, but into a version control folder
    /// (`ctxcurate.toml -> .git/config` made `add` break the checkout's
    /// git config, sweep 13 S2).
    pub into_vcs: bool,
}

/// `Ok` when writing `path` (under `root`) would stay inside `root`: no
/// existing prefix of `path` below `root` is a link that resolves outside
/// it, or a dangling link (creating through one would create its target).
/// Prefixes that do not exist yet are fine: they will be created as real
/// folders. A `path` not under `root` is checked as a whole.
pub fn check_inside(root: &Path, path: &Path) -> Result<(), Escape> {
    let Ok(rel) = path.strip_prefix(root) else {
        return check_prefix(root, path);
    };
    let mut prefix = root.to_path_buf();
    for component in rel.components() {
        match component {
            Component::Normal(name) => prefix.push(name),
            // `..` could climb out without any link: resolve it as a whole.
            _ => return check_prefix(root, path),
        }
        match fs::symlink_metadata(&prefix) {
            Ok(m) if m.file_type().is_symlink() => check_prefix(root, &prefix)?,
            Ok(_) => {}
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// `prefix` resolves (all links followed) to a place inside `root`, and
/// not into its version control folder.
fn check_prefix(root: &Path, prefix: &Path) -> Result<(), Escape> {
    let escape = |target: PathBuf, into_vcs| Escape {
        link: prefix.to_path_buf(),
        target,
        into_vcs,
    };
    let canonical_root = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    match fs::canonicalize(prefix) {
        Ok(target) => match target.strip_prefix(&canonical_root) {
            Ok(rel) if in_git_data(&canonical_root, rel) => Err(escape(target, true)),
            Ok(_) => Ok(()),
            Err(_) => Err(escape(target, false)),
        },
        Err(_) => Err(escape(fs::read_link(prefix).unwrap_or_default(), false)),
    }
}

/// Whether `rel` (below the root) is in a version control folder, or is
/// one ([`super::VCS_DIRS`]).
pub fn in_vcs_folder(rel: &Path) -> bool {
    rel.components().any(|c| {
        c.as_os_str()
            .to_str()
            .is_some_and(|name| super::VCS_DIRS.contains(&name))
    })
}

/// [`in_vcs_folder`], or inside the git folder the root's `.git` names
/// when it is a `gitdir:` file or a link to a folder elsewhere in the
/// root (`git clone --separate-git-dir=gd`: a link `hk -> gd/hooks` let
/// an output replace a hook, recheck 17 F17-1). `real_root` is the
/// root's real path, `rel` a path below it.
pub fn in_git_data(real_root: &Path, rel: &Path) -> bool {
    in_vcs_folder(rel) || named_git_dir(real_root).is_some_and(|git_dir| rel.starts_with(git_dir))
}

/// The folder below `real_root` that its `.git` names (a `gitdir:` file,
/// or a link), when that is not `.git` itself.
fn named_git_dir(real_root: &Path) -> Option<PathBuf> {
    /// A `gitdir:` file is one line; a larger `.git` file is no such file.
    const MOST: u64 = 4096;
    let dot_git = real_root.join(".git");
    let meta = fs::symlink_metadata(&dot_git).ok()?;
    let target = if meta.file_type().is_symlink() {
        fs::canonicalize(&dot_git).ok()?
    } else if meta.is_file() && meta.len() <= MOST {
        // Opened without waiting (a FIFO swapped in since the look is
        // not waited on) and read only if it is still a regular file.
        let file = {
            use std::os::unix::fs::OpenOptionsExt;
            fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&dot_git)
                .ok()?
        };
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut text = String::new();
        io::Read::read_to_string(&mut io::Read::take(file, MOST), &mut text).ok()?;
        let named = text.lines().next()?.strip_prefix("gitdir:")?.trim();
        fs::canonicalize(real_root.join(named)).ok()?
    } else {
        return None;
    };
    let rel = target.strip_prefix(real_root).ok()?;
    (!rel.as_os_str().is_empty()).then(|| rel.to_path_buf())
}

/// `root/.ctxcurate`, created when missing (with a `.gitignore` keeping it
/// out of version control, without touching the user's own), after
/// checking that it does not lead out of the root.
pub fn ensure_state_dir(root: &Path) -> io::Result<PathBuf> {
    let dir = root.join(STATE_DIR);
    check_inside(root, &dir).map_err(io::Error::other)?;
    if !dir.is_dir() {
        fs::create_dir_all(&dir)?;
    }
    let ignore = dir.join(".gitignore");
    if fs::symlink_metadata(&ignore).is_err() {
        let _ = fs::write(ignore, "# written by ctxcurate: caches and outputs\n*\n");
    }
    Ok(dir)
}

/// Why a file a preset names for reading (a screenshot) cannot be read,
/// naming the file as the preset does.
#[derive(Debug, Error)]
pub enum FileCheckError {
    /// A link on the way leads out of the root, or nowhere.
    #[error("{rel}: a symbolic link leading outside the project (or nowhere)")]
    Outside { rel: String },
    /// It is a folder, a FIFO, a device…
    #[error("{rel}: not a file")]
    NotAFile { rel: String },
    /// Nothing is there.
    #[error("{rel}: file not found")]
    NotFound { rel: String },
    /// The race-free open failed otherwise. The cause is shown, not
    /// chained, so the message stays one line as before.
    #[error("{rel}: {error}")]
    Open { rel: String, error: BeneathError },
    /// The opened file's metadata could not be read.
    #[error("{rel}: {error}")]
    Metadata { rel: String, error: io::Error },
}

/// `Ok` when `rel` (relative to `root`) is a file a preset may name for
/// reading (a screenshot): it exists, is a regular file, and no link on
/// the way to it leads out of the root. Otherwise why not, naming `rel`.
pub fn check_file_inside(root: &Path, rel: &str) -> Result<(), FileCheckError> {
    let rel_owned = || rel.to_owned();
    let outside = || FileCheckError::Outside { rel: rel_owned() };
    // Opened, not looked at: the same race-free open every read uses.
    match open_beneath(root, Path::new(rel), Links::Inside) {
        Ok(file) => match file.metadata() {
            Ok(m) if m.is_file() => Ok(()),
            Ok(_) => Err(FileCheckError::NotAFile { rel: rel_owned() }),
            Err(error) => Err(FileCheckError::Metadata {
                rel: rel_owned(),
                error,
            }),
        },
        Err(BeneathError::Outside { .. }) => Err(outside()),
        Err(e) if e.io_kind() == Some(io::ErrorKind::NotFound) => {
            // A dangling link is a link leading nowhere, not a missing file.
            match fs::symlink_metadata(root.join(rel)) {
                Ok(m) if m.file_type().is_symlink() => Err(outside()),
                _ => Err(FileCheckError::NotFound { rel: rel_owned() }),
            }
        }
        Err(error) => Err(FileCheckError::Open {
            rel: rel_owned(),
            error,
        }),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_inside_pass_links_outside_and_dangling_ones_fail() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let r = root.path();
        fs::create_dir(r.join("real")).unwrap();
        symlink(r.join("real"), r.join("inner")).unwrap();
        symlink(outside.path(), r.join("out")).unwrap();
        symlink(r.join("nowhere"), r.join("dangling")).unwrap();

        assert!(check_inside(r, &r.join("real/x/y")).is_ok());
        assert!(check_inside(r, &r.join("inner/cache/x")).is_ok());
        assert!(check_inside(r, &r.join("new/dir/file")).is_ok());
        let e = check_inside(r, &r.join("out/cache/x")).unwrap_err();
        assert_eq!(e.link, r.join("out"));
        assert!(e.to_string().contains("outside the project"), "{e}");
        assert!(check_inside(r, &r.join("dangling/x")).is_err());
        assert!(check_inside(r, &r.join("real/../../x")).is_err());
        // The link's text is shown escaped.
        symlink("/tmp/\x1b]52;c;AAAA\x07", r.join("evil")).unwrap();
        let e = check_inside(r, &r.join("evil/x")).unwrap_err().to_string();
        assert!(!e.contains('\x1b') && e.contains("\\u{1b}"), "{e}");
        // A link to the root itself stays inside.
        symlink(r, r.join("self")).unwrap();
        assert!(check_inside(r, &r.join("self/real")).is_ok());
    }

    #[test]
    fn a_file_to_read_must_exist_and_stay_inside() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let r = root.path();
        fs::write(r.join("a.png"), b"png").unwrap();
        fs::write(outside.path().join("b.png"), b"png").unwrap();
        fs::create_dir(r.join("d")).unwrap();
        symlink(r.join("a.png"), r.join("inner.png")).unwrap();
        symlink(outside.path().join("b.png"), r.join("out.png")).unwrap();
        assert!(check_file_inside(r, "a.png").is_ok());
        assert!(check_file_inside(r, "inner.png").is_ok());
        let e = check_file_inside(r, "out.png").unwrap_err().to_string();
        assert!(e.contains("outside the project"), "{e}");
        assert_eq!(
            check_file_inside(r, "nope.png").unwrap_err().to_string(),
            "nope.png: file not found"
        );
        assert_eq!(
            check_file_inside(r, "d").unwrap_err().to_string(),
            "d: not a file"
        );
    }

    #[test]
    fn the_state_dir_is_made_only_inside() {
        let root = tempfile::tempdir().unwrap();
        let dir = ensure_state_dir(root.path()).unwrap();
        assert!(dir.join(".gitignore").is_file());
        let other = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        symlink(outside.path(), other.path().join(STATE_DIR)).unwrap();
        assert!(ensure_state_dir(other.path()).is_err());
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
