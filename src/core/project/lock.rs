//! One writer at a time: every read-modify-write of `ctxcurate.toml`, by
//! the CLI or the TUI, holds an advisory lock on `.ctxcurate/lock`, re-reads
//! the file under it, applies its change to what it read, saves atomically
//! and unlocks. Twenty `ctxcurate add` started at once thus keep twenty
//! entries instead of the last writer's view.
//!
//! The lock file sits in `.ctxcurate/` (already ignored by git, next to the
//! caches) rather than beside `ctxcurate.toml`, so the user's tree gains
//! nothing. Neither the lock nor the project file is ever reached through
//! a link that leaves the root (see `confine.rs`). The lock is released when
//! the guard is dropped or the process dies (even by SIGKILL).

use std::fs;
use std::path::{Path, PathBuf};

use super::confine::{STATE_DIR, check_inside, ensure_state_dir};
use super::file::{OnDisk, io_error, load_on_disk, save_edit};
use super::{Project, ProjectError};
use crate::core::model::ProjectFile;

/// The lock file's name inside `.ctxcurate/`.
pub const LOCK_FILE: &str = "lock";

/// An exclusive hold on one project file; see the module comment.
#[derive(Debug)]
pub struct ProjectLock {
    /// The locked file (the lock lives as long as it is open).
    _lock: fs::File,
    path: PathBuf,
}

impl ProjectLock {
    /// Wait for and take the lock of the project file at `path` (its
    /// folder is the project root). Fails, saying why, when the file or
    /// `.ctxcurate` is a link leading out of the root.
    pub fn acquire(path: &Path) -> Result<ProjectLock, ProjectError> {
        let root = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        check_inside(root, path)?;
        check_inside(root, &root.join(STATE_DIR))?;
        let dir = ensure_state_dir(root).map_err(io_error(&root.join(STATE_DIR), "create"))?;
        let lock_path = dir.join(LOCK_FILE);
        let mut options = fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            // A planted `lock` link must not create or open a file elsewhere.
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW).mode(0o644);
        }
        let lock = options
            .open(&lock_path)
            .map_err(io_error(&lock_path, "open the lock file"))?;
        lock.lock().map_err(io_error(&lock_path, "lock"))?;
        Ok(ProjectLock {
            _lock: lock,
            path: path.to_path_buf(),
        })
    }

    /// The project file as it is now, under the lock (`None`: no file).
    pub fn read(&self) -> Result<Option<OnDisk>, ProjectError> {
        load_on_disk(&self.path)
    }

    /// Write `new` as an edit of `base` (what [`ProjectLock::read`] or an
    /// earlier write returned; `None` for a new file). Returns the file
    /// as written, the base of a next edit.
    pub fn write(&self, base: Option<&OnDisk>, new: &ProjectFile) -> Result<OnDisk, ProjectError> {
        let text = save_edit(&self.path, base, new)?;
        Ok(OnDisk {
            text,
            file: new.clone(),
        })
    }
}

impl Project {
    /// Change the project file safely against other writers: take the
    /// lock, reload the file from disk, run `change` on the reloaded
    /// project, and save the result (keeping the file's comments and
    /// layout) if it changed or no file exists yet. An error from
    /// `change` writes nothing.
    pub fn edit<T, E>(&mut self, change: impl FnOnce(&mut Project) -> Result<T, E>) -> Result<T, E>
    where
        E: From<ProjectError>,
    {
        let lock = ProjectLock::acquire(&self.path)?;
        let disk = lock.read()?;
        self.file = disk.as_ref().map(|d| d.file.clone()).unwrap_or_default();
        self.refresh_settings();
        let out = change(self)?;
        if disk.as_ref().is_none_or(|d| d.file != self.file) {
            lock.write(disk.as_ref(), &self.file)?;
        }
        Ok(out)
    }

    /// Write the project file as this `Project` holds it, under the lock,
    /// as an edit of the file now on disk (so its comments and layout
    /// stay). Only the project's own layer is written: never the global
    /// config's values, never resolved defaults. Prefer
    /// [`Project::edit`], which also keeps other writers' changes.
    pub fn save(&self) -> Result<(), ProjectError> {
        let lock = ProjectLock::acquire(&self.path)?;
        let disk = lock.read().ok().flatten();
        lock.write(disk.as_ref(), &self.file).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_rereads_under_the_lock_and_keeps_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        fs::write(
            &path,
            "# mine\n[presets.default]\nfiles = [\"a.py\"] # first\n",
        )
        .unwrap();
        let mut stale = Project::open_at(dir.path(), None).unwrap();
        // Another process adds an entry after `stale` was opened.
        let mut other = Project::open_at(dir.path(), None).unwrap();
        other
            .edit(|p| {
                p.active_preset_mut()
                    .files
                    .push(crate::core::model::FileItem::new("b.py"));
                Ok::<_, ProjectError>(())
            })
            .unwrap();
        stale
            .edit(|p| {
                p.active_preset_mut()
                    .files
                    .push(crate::core::model::FileItem::new("c.py"));
                Ok::<_, ProjectError>(())
            })
            .unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# mine\n[presets.default]\nfiles = [\"a.py\", \"b.py\", \"c.py\"] # first\n"
        );
        assert!(dir.path().join(".ctxcurate/lock").is_file());
    }

    #[test]
    fn a_failed_change_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = Project::open_at(dir.path(), None).unwrap();
        let r: Result<(), ProjectError> = p.edit(|p| {
            p.active_preset_mut().description = "x".into();
            Err(ProjectError::NoSuchPreset("y".into()))
        });
        assert!(r.is_err());
        assert!(!dir.path().join("ctxcurate.toml").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_project_file_linked_out_of_the_root_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim.toml");
        fs::write(&victim, "# keep me\n").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join("ctxcurate.toml")).unwrap();
        let mut p = Project::open_at(dir.path(), None).unwrap();
        let e = p
            .edit(|p| {
                p.active_preset_mut().description = "x".into();
                Ok::<_, ProjectError>(())
            })
            .unwrap_err();
        assert!(matches!(e, ProjectError::Escape(_)), "{e}");
        assert!(e.to_string().contains("outside the project"), "{e}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "# keep me\n");
    }
}
