//! Whose repository is this? Before git is asked anything about a
//! project, the repository git found from the project root must be this
//! checkout's own: a `.git` (a folder, a `gitdir:` file or a symlink), a
//! `core.worktree` or a `commondir` shipped in an archive can point git at
//! another repository on the machine, whose files would then reach the
//! context (as deletions in a diff, say).
//!
//! Accepted, with `T` the work tree git reports, `G` the git directory and
//! `C` the common directory (all resolved), never when `G` or `C` is the
//! project root or a folder around it (a bare repository laid out at the
//! root, made a work tree by `core.worktree = .`), and then when:
//! * `T` is the project root or a folder above it (a project may be a
//!   subfolder of its repository), and
//! * `G` and `C` both lie inside the project root and `T` is the root (a
//!   repository shipped with the project: its own, whatever it holds), or
//! * `T/.git` is a real folder (not a link) that is `G`, and `C` is `G`
//!   (an ordinary repository), or
//! * `T/.git` is a `gitdir:` file naming `G`, and `G` links back to this
//!   checkout as git writes it: a linked worktree's `G/gitdir` names
//!   `T/.git` and `G` is `C/worktrees/NAME`; a submodule's
//!   `core.worktree` names `T` and `C` is `G`.
//!
//! A planted `gitdir:` file or link to another repository has no such
//! back-link: that repository's own checkout is elsewhere.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Where git says the repository is (as `rev-parse` prints it).
#[derive(Debug, Clone)]
pub struct Layout {
    /// `--show-toplevel`.
    pub toplevel: PathBuf,
    /// `--absolute-git-dir`.
    pub git_dir: PathBuf,
    /// `--git-common-dir`, absolute.
    pub common_dir: PathBuf,
    /// `core.worktree` as configured (relative to the git directory), if set.
    pub core_worktree: Option<PathBuf>,
}

/// Why the repository git found is not the project's own, naming the
/// paths that say so. Causes are shown, not chained: the message is one
/// clause of `GitError::NotOwn`'s.
#[derive(Debug, Error)]
pub enum Foreign {
    /// A path git reported cannot be resolved.
    #[error("cannot resolve {}: {error}", path.display())]
    Unresolvable { path: PathBuf, error: io::Error },
    /// The git directory is the project root or holds it.
    #[error(
        "its git directory is the project itself, or holds it ({}): a bare \
         repository's files are not a work tree",
        dir.display()
    )]
    GitDirHoldsRoot { dir: PathBuf },
    /// The work tree does not hold the project.
    #[error(
        "its work tree is {} (core.worktree), which does not hold the project",
        top.display()
    )]
    WorkTreeElsewhere { top: PathBuf },
    /// A repository inside the project whose work tree is not the project.
    #[error(
        "its work tree is {} (core.worktree), not the project that holds its git directory",
        top.display()
    )]
    WorkTreeNotRoot { top: PathBuf },
    /// `T/.git` cannot be inspected.
    #[error("{} cannot be read: {error}", dot_git.display())]
    DotGitUnreadable { dot_git: PathBuf, error: io::Error },
    /// `T/.git` is a symbolic link.
    #[error("{} is a link to {}, outside the project", dot_git.display(), git_dir.display())]
    DotGitLink { dot_git: PathBuf, git_dir: PathBuf },
    /// A real `.git` folder sharing another repository's objects.
    #[error(
        "its git directory {} shares objects and refs with {}",
        git_dir.display(),
        common.display()
    )]
    SharedObjects { git_dir: PathBuf, common: PathBuf },
    /// A `gitdir:` file or link to a repository that does not name this
    /// checkout back.
    #[error(
        "{} names the git directory {}, outside the project, which does not name this \
         checkout back (a linked worktree or a submodule would)",
        dot_git.display(),
        git_dir.display()
    )]
    NoBackLink { dot_git: PathBuf, git_dir: PathBuf },
}

/// `Ok` when `layout` is the own repository of the project at `root`;
/// else why not.
pub fn check(root: &Path, layout: &Layout) -> Result<(), Foreign> {
    let canon = |p: &Path| {
        std::fs::canonicalize(p).map_err(|error| Foreign::Unresolvable {
            path: p.to_path_buf(),
            error,
        })
    };
    let root = canon(root)?;
    let top = canon(&layout.toplevel)?;
    let git_dir = canon(&layout.git_dir)?;
    let common = canon(&layout.common_dir)?;
    // A git directory laid out at the root itself (a bare repository's
    // `HEAD`, `config`, `objects/`, made a work tree by `core.worktree =
    // .`), or one the root lies in, would make git's own files the
    // project's: its `config` and hooks would be "changed files".
    if let Some(dir) = [&git_dir, &common]
        .into_iter()
        .find(|d| root.starts_with(d))
    {
        return Err(Foreign::GitDirHoldsRoot { dir: dir.clone() });
    }
    if !root.starts_with(&top) {
        return Err(Foreign::WorkTreeElsewhere { top });
    }
    if git_dir.starts_with(&root) && common.starts_with(&root) {
        // A repository shipped in the project is the project's only when
        // its work tree is the project (git found it from the root, so no
        // legitimate setting puts the work tree above it).
        if top == root {
            return Ok(());
        }
        return Err(Foreign::WorkTreeNotRoot { top });
    }
    let dot_git = top.join(".git");
    let meta = match std::fs::symlink_metadata(&dot_git) {
        Ok(meta) => meta,
        Err(error) => return Err(Foreign::DotGitUnreadable { dot_git, error }),
    };
    if meta.file_type().is_symlink() {
        return Err(Foreign::DotGitLink { dot_git, git_dir });
    }
    if meta.is_dir() {
        if canon(&dot_git)? == git_dir && common == git_dir {
            return Ok(());
        }
        return Err(Foreign::SharedObjects { git_dir, common });
    }
    // A `gitdir:` file: git followed it to `git_dir`; does `git_dir`
    // name this checkout back?
    let worktree_link = crate::core::io_bounds::open_regular(&git_dir.join("gitdir"))
        .and_then(|(file, _)| {
            use std::io::Read;
            let mut bytes = Vec::new();
            file.take(64 * 1024).read_to_end(&mut bytes).map(|_| bytes)
        })
        .ok()
        .map(|bytes| {
            PathBuf::from(
                String::from_utf8_lossy(&bytes)
                    .trim_end_matches(['\n', '\r'])
                    .to_string(),
            )
        })
        .map(|p| if p.is_absolute() { p } else { git_dir.join(p) });
    if let Some(link) = worktree_link {
        let named_back = std::fs::canonicalize(&link).is_ok_and(|l| l == dot_git);
        let in_common = git_dir.parent() == Some(&common.join("worktrees"));
        if named_back && in_common {
            return Ok(());
        }
    } else if let Some(worktree) = &layout.core_worktree {
        let worktree = git_dir.join(worktree);
        if std::fs::canonicalize(&worktree).is_ok_and(|w| w == top) && common == git_dir {
            return Ok(());
        }
    }
    Err(Foreign::NoBackLink { dot_git, git_dir })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(top: &Path, git_dir: &Path, common: &Path, worktree: Option<&str>) -> Layout {
        Layout {
            toplevel: top.to_path_buf(),
            git_dir: git_dir.to_path_buf(),
            common_dir: common.to_path_buf(),
            core_worktree: worktree.map(PathBuf::from),
        }
    }

    #[test]
    fn an_ordinary_repository_above_the_project_is_its_own() {
        let t = tempfile::tempdir().unwrap();
        let top = t.path();
        std::fs::create_dir_all(top.join(".git")).unwrap();
        std::fs::create_dir_all(top.join("sub")).unwrap();
        let git = top.join(".git");
        assert!(check(&top.join("sub"), &layout(top, &git, &git, None)).is_ok());
        assert!(check(top, &layout(top, &git, &git, None)).is_ok());
    }

    #[test]
    fn a_work_tree_elsewhere_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let (root, other) = (t.path().join("root"), t.path().join("other"));
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        let git = root.join(".git");
        let why = check(&root, &layout(&other, &git, &git, Some("../../other")))
            .unwrap_err()
            .to_string();
        assert!(why.contains("does not hold the project"), "{why}");
        // Above the project: git would read files outside it.
        let why = check(&root, &layout(t.path(), &git, &git, Some("../..")))
            .unwrap_err()
            .to_string();
        assert!(why.contains("not the project that holds"), "{why}");
    }

    #[test]
    fn a_link_or_gitdir_file_to_another_repository_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let (root, victim) = (t.path().join("root"), t.path().join("victim"));
        std::fs::create_dir_all(victim.join(".git")).unwrap();
        std::fs::create_dir_all(&root).unwrap();
        let vgit = victim.join(".git");
        std::os::unix::fs::symlink(&vgit, root.join(".git")).unwrap();
        let why = check(&root, &layout(&root, &vgit, &vgit, None))
            .unwrap_err()
            .to_string();
        assert!(why.contains("is a link to"), "{why}");
        std::fs::remove_file(root.join(".git")).unwrap();
        std::fs::write(root.join(".git"), format!("gitdir: {}\n", vgit.display())).unwrap();
        let why = check(&root, &layout(&root, &vgit, &vgit, None))
            .unwrap_err()
            .to_string();
        assert!(why.contains("does not name this checkout back"), "{why}");
        // A victim's linked worktree names its own checkout, not this one.
        let wt = vgit.join("worktrees/w");
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(
            wt.join("gitdir"),
            format!("{}\n", victim.join("w/.git").display()),
        )
        .unwrap();
        std::fs::write(root.join(".git"), format!("gitdir: {}\n", wt.display())).unwrap();
        assert!(check(&root, &layout(&root, &wt, &vgit, None)).is_err());
        // Named back, it is this checkout's worktree.
        std::fs::write(
            wt.join("gitdir"),
            format!("{}\n", root.join(".git").display()),
        )
        .unwrap();
        assert!(check(&root, &layout(&root, &wt, &vgit, None)).is_ok());
    }

    #[test]
    fn a_git_directory_at_or_around_the_root_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        let why = check(&root, &layout(&root, &root, &root, Some(".")))
            .unwrap_err()
            .to_string();
        assert!(why.contains("is the project itself"), "{why}");
        let sub = root.join("sub");
        let why = check(&sub, &layout(&sub, &root, &root, Some("sub")))
            .unwrap_err()
            .to_string();
        assert!(why.contains("is the project itself, or holds it"), "{why}");
    }

    #[test]
    fn a_commondir_outside_the_project_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let (root, victim) = (t.path().join("root"), t.path().join("victim/.git"));
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(&victim).unwrap();
        let git = root.join(".git");
        assert!(check(&root, &layout(&root, &git, &victim, None)).is_err());
    }
}
