//! Keeping the TUI and `ctxcurate.toml` on disk in step. The app writes
//! every change; other programs (the CLI, an editor, `git checkout`) may
//! write too. Before each write the file on disk is compared with what the
//! app last read or wrote: if it changed, nothing is written and the new
//! file is loaded instead; a file that does not parse is never written
//! over. The event loop also calls [`DiskSync::check`] about once a second.
//!
//! Only the shared file is written here: the user's own layer that
//! travels with the app's file ([`ProjectFile::personal`]) is compared
//! out ([`ProjectFile::same_shared`]) and saved to the personal store by
//! the effect interpreter, so a preset switch writes nothing here.
//!
//! A save holds the project lock the CLI's edits hold ([`ProjectLock`])
//! from that comparison to the rename, so no CLI edit can slip in between,
//! and it edits the text last read, so the user's comments and layout
//! stay. A lock another process holds is waited for only as long as
//! `core::project::give_up_after` allows; the app is told after a second
//! ([`SyncOutcome::Locked`]) so that `q` can offer to drop the save
//! instead of hanging.

use std::path::{Path, PathBuf};

use crate::core::model::ProjectFile;
use crate::core::project::{self, OnDisk, ProjectLock};

/// What a save or a check found.
#[derive(Debug, Clone, PartialEq)]
pub enum SyncOutcome {
    /// Nothing to do: the disk holds what the app holds.
    Unchanged,
    /// The app's state was written.
    Saved,
    /// The file changed on disk and was loaded (no save was pending).
    Reloaded(ProjectFile),
    /// The file changed on disk while the app had a change to save: the
    /// change was not written; the disk's file was loaded. `base` is the
    /// file the app last read or wrote, the one its change was made on
    /// (so the change can be made again on `disk`).
    Conflict {
        disk: ProjectFile,
        base: Box<ProjectFile>,
    },
    /// The file on disk does not parse; nothing is written until it does.
    Invalid(String),
    /// Writing failed.
    Failed(String),
    /// Another process holds the project lock: the save waits for it
    /// (the message says which file), or, from [`DiskSync::try_save`],
    /// was not tried.
    Locked(String),
}

/// The sync's memory of the file on disk.
#[derive(Debug)]
pub struct DiskSync {
    path: PathBuf,
    /// The bytes last read or written (`None`: no file).
    known: Option<Vec<u8>>,
    /// The file those bytes hold.
    file: ProjectFile,
    /// Bytes already reported as invalid (reported once, not every tick).
    invalid: Option<Vec<u8>>,
}

impl DiskSync {
    /// Start from the file as the app loaded it.
    pub fn new(path: PathBuf, loaded: ProjectFile) -> Self {
        let known = project::read_bounded(&path).ok();
        DiskSync {
            path,
            known,
            file: loaded,
            invalid: None,
        }
    }

    /// Has the file on disk changed since the app last read or wrote it?
    pub fn check(&mut self) -> SyncOutcome {
        let now = project::read_bounded(&self.path).ok();
        if now == self.known {
            // Back to what the app last read or wrote (a broken file put
            // back as it was): saves go on.
            self.invalid = None;
            return SyncOutcome::Unchanged;
        }
        let Some(bytes) = now else {
            // Deleted: the next save writes it again.
            self.known = None;
            self.invalid = None;
            return SyncOutcome::Unchanged;
        };
        if self.invalid.as_ref() == Some(&bytes) {
            return SyncOutcome::Unchanged;
        }
        let text = String::from_utf8_lossy(&bytes);
        match project::parse_text(&self.path, &text) {
            Ok(file) => {
                self.known = Some(bytes);
                self.file = file.clone();
                self.invalid = None;
                SyncOutcome::Reloaded(file)
            }
            Err(e) => {
                self.invalid = Some(bytes);
                SyncOutcome::Invalid(e.to_string())
            }
        }
    }

    /// Write `file` unless the disk changed under the app (then load the
    /// disk's version instead) or already holds it; a lock another
    /// process holds is waited for (within the bound), silently.
    pub fn save(&mut self, file: &ProjectFile) -> SyncOutcome {
        self.save_waiting(file, &mut |_: &Path| {})
    }

    /// [`DiskSync::save`], calling `waiting` with the lock file's path
    /// once the wait for a lock another process holds has lasted a second.
    pub fn save_waiting(
        &mut self,
        file: &ProjectFile,
        waiting: &mut dyn FnMut(&Path),
    ) -> SyncOutcome {
        if file.same_shared(&self.file) && self.invalid.is_none() && self.peek_unchanged() {
            return SyncOutcome::Unchanged;
        }
        match ProjectLock::acquire_within(&self.path, project::give_up_after(), waiting) {
            Ok(lock) => self.save_locked(file, &lock),
            Err(e) => SyncOutcome::Failed(e.to_string()),
        }
    }

    /// [`DiskSync::save`] without waiting: [`SyncOutcome::Locked`] when
    /// another process holds the lock (for a caller that retries later).
    pub fn try_save(&mut self, file: &ProjectFile) -> SyncOutcome {
        if file.same_shared(&self.file) && self.invalid.is_none() && self.peek_unchanged() {
            return SyncOutcome::Unchanged;
        }
        match ProjectLock::try_acquire(&self.path) {
            Ok(Some(lock)) => self.save_locked(file, &lock),
            Ok(None) => SyncOutcome::Locked(locked_message(&self.path)),
            Err(e) => SyncOutcome::Failed(e.to_string()),
        }
    }

    /// The save itself, under `lock`.
    fn save_locked(&mut self, file: &ProjectFile, lock: &ProjectLock) -> SyncOutcome {
        let base = self.file.clone();
        match self.check() {
            SyncOutcome::Unchanged => {}
            SyncOutcome::Reloaded(disk) => {
                return SyncOutcome::Conflict {
                    disk,
                    base: Box::new(base),
                };
            }
            other => return other,
        }
        if self.invalid.is_some() {
            return SyncOutcome::Invalid(format!(
                "{} does not parse; not saving over it until it is fixed",
                self.path.display()
            ));
        }
        if file.same_shared(&self.file) {
            return SyncOutcome::Unchanged;
        }
        let base = self.known.as_ref().map(|bytes| OnDisk {
            text: String::from_utf8_lossy(bytes).into_owned(),
            file: self.file.clone(),
        });
        match lock.write(base.as_ref(), file) {
            Ok(written) => {
                self.known = Some(written.text.into_bytes());
                self.file = written.file;
                SyncOutcome::Saved
            }
            Err(e) => SyncOutcome::Failed(e.to_string()),
        }
    }

    /// The message of [`SyncOutcome::Locked`] for this project file.
    pub fn locked_message(&self) -> String {
        locked_message(&self.path)
    }

    /// Whether the file on disk is still what the app last read or wrote
    /// (a nothing-to-do save then skips the lock).
    fn peek_unchanged(&self) -> bool {
        project::read_bounded(&self.path).ok() == self.known
    }
}

/// What the app says while a save waits for a lock another process holds.
fn locked_message(project_file: &Path) -> String {
    let lock = project_file
        .parent()
        .unwrap_or(Path::new("."))
        .join(crate::core::paths::confine::STATE_DIR)
        .join(project::LOCK_FILE);
    format!(
        "waiting for {} held by another process; the change is saved when it is released \
         (q offers to quit without it)",
        lock.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::FileItem;
    use std::fs;

    fn with_file(files: &[&str]) -> ProjectFile {
        let mut f = ProjectFile::default();
        f.presets.entry("default".into()).or_default().files =
            files.iter().map(|p| FileItem::new(*p)).collect();
        f
    }

    #[test]
    fn saves_only_changes_and_never_creates_an_untouched_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        let mut sync = DiskSync::new(path.clone(), ProjectFile::default());
        assert_eq!(sync.save(&ProjectFile::default()), SyncOutcome::Unchanged);
        assert!(!path.exists());
        assert_eq!(sync.save(&with_file(&["a.py"])), SyncOutcome::Saved);
        assert_eq!(sync.check(), SyncOutcome::Unchanged);
        assert_eq!(sync.save(&with_file(&["a.py"])), SyncOutcome::Unchanged);
    }

    #[test]
    fn an_outside_change_is_loaded_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        let mut sync = DiskSync::new(path.clone(), ProjectFile::default());
        sync.save(&with_file(&["a.py"]));
        // The CLI adds a file while the app is open.
        project::save_atomic(&path, &with_file(&["a.py", "b.py"])).unwrap();
        let outcome = sync.save(&with_file(&["c.py"]));
        assert_eq!(
            outcome,
            SyncOutcome::Conflict {
                disk: with_file(&["a.py", "b.py"]),
                base: Box::new(with_file(&["a.py"])),
            }
        );
        let on_disk = project::load_file(&path).unwrap().unwrap();
        assert_eq!(
            on_disk,
            with_file(&["a.py", "b.py"]),
            "the outside change survives"
        );
        // After the reload the app's next change is written.
        assert_eq!(
            sync.save(&with_file(&["a.py", "b.py", "c.py"])),
            SyncOutcome::Saved
        );
    }

    #[test]
    fn a_broken_file_is_reported_once_and_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        let mut sync = DiskSync::new(path.clone(), ProjectFile::default());
        sync.save(&with_file(&["a.py"]));
        let good = fs::read(&path).unwrap();
        fs::write(&path, "[project\n").unwrap();
        assert!(matches!(sync.check(), SyncOutcome::Invalid(m) if m.contains(":1:")));
        assert_eq!(sync.check(), SyncOutcome::Unchanged, "reported once");
        assert!(matches!(
            sync.save(&with_file(&["b.py"])),
            SyncOutcome::Invalid(_)
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), "[project\n");
        // Put back exactly as it was: the app's changes are saved again.
        fs::write(&path, &good).unwrap();
        assert_eq!(sync.save(&with_file(&["b.py"])), SyncOutcome::Saved);
        assert_eq!(
            project::load_file(&path).unwrap().unwrap(),
            with_file(&["b.py"])
        );
        // Fixed on disk another way: loaded.
        project::save_atomic(&path, &with_file(&["z.py"])).unwrap();
        assert_eq!(sync.check(), SyncOutcome::Reloaded(with_file(&["z.py"])));
    }

    #[test]
    fn a_save_keeps_comments_and_waits_for_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        let text = "# team context\n[presets.default]\nfiles = [\"a.py\"]  # the core\n";
        fs::write(&path, text).unwrap();
        let loaded = project::load_file(&path).unwrap().unwrap();
        let mut sync = DiskSync::new(path.clone(), loaded);
        // A CLI edit holds the lock: the app's save waits for it.
        let held = ProjectLock::acquire(&path).unwrap();
        let saver = std::thread::spawn(move || {
            let outcome = sync.save(&with_file(&["a.py", "b.py"]));
            (outcome, sync)
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            text,
            "no write under a held lock"
        );
        drop(held);
        let (outcome, _) = saver.join().unwrap();
        assert_eq!(outcome, SyncOutcome::Saved);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# team context\n[presets.default]\nfiles = [\"a.py\", \"b.py\"]  # the core\n"
        );
    }
}
