//! The project root's own `.git` when it is a file git wrote: the root
//! is a linked work tree (`git worktree add`) or a submodule's checkout,
//! and its `gitdir:` leads out of the project, to the repository git
//! keeps elsewhere. A `git …` command then reads that repository's
//! config, which no file of the project holds: its files are read here
//! (their aliases and values, as `git_alias.rs` reads `.git/config`)
//! and their content is covered by a place each
//! ([`super::note_outside`]), so an edit there withdraws the consent as
//! one to `.git/config` does.
//!
//! Git writes such a `.git` with a way back: a work tree's admin folder
//! holds a `gitdir` file naming this `.git`, a submodule's repository a
//! `core.worktree` naming this folder. A `.git` without it (one a
//! tarball or a zip shipped: a clone never checks out a `.git`) is not
//! followed, and the command stays refused as before.

use std::path::{Path, PathBuf};

use crate::core::trust::imports::small_text;

/// The config files git reads for the root `real_root` when its `.git`
/// is a file git wrote that leads out of the project: the shared
/// `config` and the work tree's `config.worktree`, or the submodule
/// repository's `config` (absolute). `None` when it is not one.
pub(super) fn configs(real_root: &Path) -> Option<Vec<PathBuf>> {
    let dot_git = real_root.join(".git");
    let target = first_line_path(&dot_git, "gitdir:")?;
    if target.starts_with(real_root) {
        return None;
    }
    let worktree_back = first_line_path(&target.join("gitdir"), "");
    if worktree_back.as_deref() == Some(dot_git.as_path()) {
        let common = first_line_path(&target.join("commondir"), "")?;
        return Some(vec![common.join("config"), target.join("config.worktree")]);
    }
    let config = small_text(&target.join("config")).filter(|t| t.len() <= 64 << 10)?;
    let worktree = config.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("worktree")
            .then(|| value.trim().trim_matches('"').to_string())
    })?;
    let back = std::fs::canonicalize(target.join(worktree)).ok()?;
    (back == real_root).then(|| vec![target.join("config")])
}

/// The path the first line of `file` names after `prefix`, relative to
/// the file's folder or absolute, resolved (links followed); `None`
/// when the file or the path is not there.
fn first_line_path(file: &Path, prefix: &str) -> Option<PathBuf> {
    let text = small_text(file).filter(|t| t.len() <= 4096)?;
    let named = text.lines().next()?.strip_prefix(prefix)?.trim();
    if named.is_empty() {
        return None;
    }
    std::fs::canonicalize(file.parent()?.join(named)).ok()
}
