//! One writer at a time: every read-modify-write of `ctxcurate.toml`, by
//! the CLI or the TUI, holds an advisory lock on `.ctxcurate/lock`, re-reads
//! the file under it, applies its change to what it read, saves atomically
//! and unlocks. Twenty `ctxcurate add` started at once thus keep twenty
//! entries instead of the last writer's view.
//!
//! The lock file sits in `.ctxcurate/` (already ignored by git, next to the
//! caches) rather than beside `ctxcurate.toml`, so the user's tree gains
//! nothing. Neither the lock nor the project file is ever reached through
//! a link that leaves the root (see `core::paths::confine`). The lock is released when
//! the guard is dropped or the process dies (even by SIGKILL).
//!
//! Another process may hold the lock for long (a stuck editor hook, a
//! `ctxcurate` suspended with ^Z, a repository shipping a process that
//! holds it): so waiting is never silent and never endless. After
//! [`NOTICE_AFTER`] the wait is announced (the CLI prints "waiting for …
//! held by another process" through the hook [`set_wait_notice`]; the TUI
//! asks [`ProjectLock::try_acquire`] first and says so itself), and after
//! [`give_up_after`] (5 s, or `CTXCURATE_LOCK_TIMEOUT` seconds) it ends
//! with [`ProjectError::LockTimeout`] naming the lock file.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::file::{OnDisk, io_error, load_on_disk, save_edit};
use super::{Project, ProjectError};
use crate::core::model::ProjectFile;
use crate::core::paths::confine::{STATE_DIR, check_inside, ensure_state_dir};

/// The lock file's name inside `.ctxcurate/`.
pub const LOCK_FILE: &str = "lock";

/// How long a wait for the lock goes on before it is announced.
pub const NOTICE_AFTER: Duration = Duration::from_secs(1);

/// How long a wait for the lock goes on before it fails, unless
/// [`LOCK_TIMEOUT_ENV`] says otherwise. A save holds the lock for
/// milliseconds, so twenty parallel edits never come near it; a process
/// that holds it longer is hung, and a user waits no longer than this.
pub const GIVE_UP_AFTER: Duration = Duration::from_secs(5);

/// The environment variable that sets [`give_up_after`], in seconds
/// (scripts that prefer to wait longer; tests that cannot wait 5 s).
pub const LOCK_TIMEOUT_ENV: &str = "CTXCURATE_LOCK_TIMEOUT";

/// How often a waiting process tries the lock again.
const RETRY: Duration = Duration::from_millis(50);

/// What the process does when a wait is announced (set once by the CLI).
static WAIT_NOTICE: OnceLock<fn(&Path)> = OnceLock::new();

/// Announce every wait for a project lock with `notice` (given the lock
/// file's path) from now on in this process; the first call wins.
pub fn set_wait_notice(notice: fn(&Path)) {
    let _ = WAIT_NOTICE.set(notice);
}

/// How long [`ProjectLock::acquire`] waits: [`LOCK_TIMEOUT_ENV`] seconds
/// when set to a number (fractions allowed), else [`GIVE_UP_AFTER`].
pub fn give_up_after() -> Duration {
    std::env::var(LOCK_TIMEOUT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .unwrap_or(GIVE_UP_AFTER)
}

/// An exclusive hold on one project file; see the module comment.
#[derive(Debug)]
pub struct ProjectLock {
    /// The locked file (the lock lives as long as it is open).
    _lock: fs::File,
    path: PathBuf,
}

impl Drop for ProjectLock {
    /// Unlock before the file is closed: a lock belongs to the open file,
    /// which a child process another thread is starting at that moment
    /// (a `git` the TUI runs) holds too until it runs its program; closing
    /// alone would leave the lock held that long, and the next save would
    /// find it taken.
    fn drop(&mut self) {
        let _ = self._lock.unlock();
    }
}

impl ProjectLock {
    /// Wait for and take the lock of the project file at `path` (its
    /// folder is the project root), announcing a wait through the notice
    /// of [`set_wait_notice`] and giving up after [`give_up_after`]. Fails,
    /// saying why, when the file or `.ctxcurate` is a link leading out of
    /// the root.
    pub fn acquire(path: &Path) -> Result<ProjectLock, ProjectError> {
        ProjectLock::acquire_within(path, give_up_after(), &mut |lock: &Path| {
            if let Some(notice) = WAIT_NOTICE.get() {
                notice(lock);
            }
        })
    }

    /// Take the lock if no other process holds it (`None` when one does),
    /// without waiting.
    pub fn try_acquire(path: &Path) -> Result<Option<ProjectLock>, ProjectError> {
        let (lock, lock_path) = open_lock_file(path)?;
        match lock.try_lock() {
            Ok(()) => Ok(Some(ProjectLock {
                _lock: lock,
                path: path.to_path_buf(),
            })),
            Err(fs::TryLockError::WouldBlock) => Ok(None),
            Err(fs::TryLockError::Error(e)) => Err(io_error(&lock_path, "lock")(e)),
        }
    }

    /// [`ProjectLock::acquire`], waiting at most `give_up` and calling
    /// `notice` (with the lock file's path) once the wait has lasted
    /// [`NOTICE_AFTER`].
    pub fn acquire_within(
        path: &Path,
        give_up: Duration,
        notice: &mut dyn FnMut(&Path),
    ) -> Result<ProjectLock, ProjectError> {
        let (lock, lock_path) = open_lock_file(path)?;
        let start = Instant::now();
        let mut announced = false;
        loop {
            match lock.try_lock() {
                Ok(()) => {
                    return Ok(ProjectLock {
                        _lock: lock,
                        path: path.to_path_buf(),
                    });
                }
                Err(fs::TryLockError::WouldBlock) => {}
                Err(fs::TryLockError::Error(e)) => return Err(io_error(&lock_path, "lock")(e)),
            }
            let waited = start.elapsed();
            if waited >= give_up {
                return Err(ProjectError::LockTimeout {
                    path: lock_path,
                    waited_secs: waited.as_secs_f64().round() as u64,
                });
            }
            if !announced && waited >= NOTICE_AFTER {
                announced = true;
                notice(&lock_path);
            }
            std::thread::sleep(RETRY.min(give_up - waited));
        }
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

/// The lock file of the project file at `path`, open (created when
/// missing), after checking that neither it nor `.ctxcurate` leads out of
/// the root; and its path.
fn open_lock_file(path: &Path) -> Result<(fs::File, PathBuf), ProjectError> {
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
        // A planted `lock` link must not create or open a file elsewhere;
        // a planted FIFO must not hang the open.
        use std::os::unix::fs::OpenOptionsExt;
        options
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .mode(0o644);
    }
    let lock = options
        .open(&lock_path)
        .map_err(io_error(&lock_path, "open the lock file"))?;
    Ok((lock, lock_path))
}

impl Project {
    /// Change the project file safely against other writers: take the
    /// lock, reload the file from disk, run `change` on the reloaded
    /// project, and save the result (keeping the file's comments and
    /// layout) if it changed or no file exists yet. A change of the
    /// user's own layer (applying a preset) is saved to the personal
    /// store instead, and alone writes nothing to the project file. An
    /// error from `change` writes nothing.
    pub fn edit<T, E>(&mut self, change: impl FnOnce(&mut Project) -> Result<T, E>) -> Result<T, E>
    where
        E: From<ProjectError>,
    {
        let lock = ProjectLock::acquire(&self.path)?;
        let disk = lock.read()?;
        let personal = std::mem::take(&mut self.file.personal);
        self.file = disk.as_ref().map(|d| d.file.clone()).unwrap_or_default();
        self.file.personal = personal.clone();
        self.refresh_settings();
        let out = change(self)?;
        let shared_changed = match &disk {
            Some(d) => !d.file.same_shared(&self.file),
            // No file yet: one is written for a change of the file, not
            // for a change of the user's own choices only.
            None => personal == self.file.personal || !self.file.same_shared(&Default::default()),
        };
        if shared_changed {
            lock.write(disk.as_ref(), &self.file)?;
        }
        if personal != self.file.personal {
            self.save_personal().map_err(ProjectError::from)?;
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

    /// A copy of the lock's descriptor elsewhere (what a child process
    /// being started holds until it runs its program) does not keep the
    /// lock once the guard is dropped.
    #[test]
    fn a_dropped_lock_is_free_whoever_else_holds_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        let lock = ProjectLock::try_acquire(&path).unwrap().expect("free");
        let copy = lock._lock.try_clone().unwrap();
        assert!(ProjectLock::try_acquire(&path).unwrap().is_none(), "held");
        drop(lock);
        assert!(
            ProjectLock::try_acquire(&path).unwrap().is_some(),
            "free although a copy of its file is open"
        );
        drop(copy);
    }

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
            Err(ProjectError::NoSuchPreset("y".into(), Default::default()))
        });
        assert!(r.is_err());
        assert!(!dir.path().join("ctxcurate.toml").exists());
    }

    /// Attack: another process holds the lock and never lets go. The wait
    /// is announced once, then ends with an error naming the lock file.
    #[test]
    fn a_held_lock_is_announced_then_given_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        let held = ProjectLock::acquire(&path).unwrap();
        assert!(ProjectLock::try_acquire(&path).unwrap().is_none());
        let mut notices = Vec::new();
        let give_up = NOTICE_AFTER + Duration::from_millis(300);
        let e = ProjectLock::acquire_within(&path, give_up, &mut |p: &Path| {
            notices.push(p.to_path_buf())
        })
        .unwrap_err();
        let lock = dir.path().join(STATE_DIR).join(LOCK_FILE);
        assert_eq!(notices, vec![lock.clone()], "announced once");
        assert!(matches!(&e, ProjectError::LockTimeout { path, .. } if *path == lock));
        assert!(e.to_string().contains("held by another process"), "{e}");
        drop(held);
        assert!(ProjectLock::try_acquire(&path).unwrap().is_some());
        let mut notices = 0;
        ProjectLock::acquire_within(&path, Duration::ZERO, &mut |_: &Path| notices += 1).unwrap();
        assert_eq!(notices, 0, "a free lock is taken at once, unannounced");
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
