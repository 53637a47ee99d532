//! Keeping the TUI and `ctxcurate.toml` on disk in step. The app writes
//! every change; other programs (the CLI, an editor, `git checkout`) may
//! write too. Before each write the file on disk is compared with what the
//! app last read or wrote: if it changed, nothing is written and the new
//! file is loaded instead; a file that does not parse is never written
//! over. The event loop also calls [`DiskSync::check`] about once a second.

use std::fs;
use std::path::PathBuf;

use crate::core::model::ProjectFile;
use crate::core::project;

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
    /// change was not written; the disk's file was loaded.
    Conflict(ProjectFile),
    /// The file on disk does not parse; nothing is written until it does.
    Invalid(String),
    /// Writing failed.
    Failed(String),
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
        let known = fs::read(&path).ok();
        DiskSync {
            path,
            known,
            file: loaded,
            invalid: None,
        }
    }

    /// Has the file on disk changed since the app last read or wrote it?
    pub fn check(&mut self) -> SyncOutcome {
        let now = fs::read(&self.path).ok();
        if now == self.known {
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
    /// disk's version instead) or already holds it.
    pub fn save(&mut self, file: &ProjectFile) -> SyncOutcome {
        match self.check() {
            SyncOutcome::Unchanged => {}
            SyncOutcome::Reloaded(disk) => return SyncOutcome::Conflict(disk),
            other => return other,
        }
        if self.invalid.is_some() {
            return SyncOutcome::Invalid(format!(
                "{} does not parse; not saving over it until it is fixed",
                self.path.display()
            ));
        }
        if *file == self.file {
            return SyncOutcome::Unchanged;
        }
        if let Err(e) = project::save_atomic(&self.path, file) {
            return SyncOutcome::Failed(e.to_string());
        }
        self.known = fs::read(&self.path).ok();
        self.file = file.clone();
        SyncOutcome::Saved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::FileItem;

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
        assert_eq!(outcome, SyncOutcome::Conflict(with_file(&["a.py", "b.py"])));
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
        fs::write(&path, "[project\n").unwrap();
        assert!(matches!(sync.check(), SyncOutcome::Invalid(m) if m.contains(":1:")));
        assert_eq!(sync.check(), SyncOutcome::Unchanged, "reported once");
        assert!(matches!(
            sync.save(&with_file(&["b.py"])),
            SyncOutcome::Invalid(_)
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), "[project\n");
        // Fixed on disk: loaded.
        project::save_atomic(&path, &with_file(&["z.py"])).unwrap();
        assert_eq!(sync.check(), SyncOutcome::Reloaded(with_file(&["z.py"])));
    }
}
