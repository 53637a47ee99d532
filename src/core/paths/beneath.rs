//! Opening a file of the project for reading without ever leaving the
//! root, even while another process swaps folders for links.
//!
//! Checking a path and then opening it is a race: a folder replaced by a
//! symlink between the two is followed (a racing script read outside
//! content in about a quarter of 400 builds). So the check is done by the
//! open itself: the path is opened relative to a descriptor of the root
//! (kept between opens while the root's path names the same folder) with
//! links refused on every component: `openat2` with `RESOLVE_BENEATH |
//! RESOLVE_NO_SYMLINKS` where Linux has it, else one `openat(O_NOFOLLOW)`
//! per component. Only when that meets a link is the path resolved in
//! user space (a link that stays inside the root is followed, as a
//! dotfiles repository needs; one that leads out is refused), and the
//! resolved path, which has no link left in it, opened the same way. A
//! link swapped in after the resolution makes the open fail; it is never
//! followed. The file is opened non-blocking (a FIFO
//! does not hang the open); callers check its type on the descriptor.
//!
//! Every read of a project file by path goes through [`open_beneath`]
//! (`walk::read`, the disk cache, `confine::check_file_inside`).

use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};
#[cfg(unix)]
use std::sync::{Arc, Mutex};

use thiserror::Error;

/// Whether links on the way may be followed (when they stay inside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// A link that resolves inside the root is followed.
    Inside,
    /// No link is followed anywhere on the path (the tool's own files).
    Never,
}

/// Why a file under the root was not opened.
#[derive(Debug, Error)]
pub enum BeneathError {
    /// The path (or a link on it, or a link swapped in while it was
    /// opened) leads outside the root.
    #[error("{path:?} leads outside the project root")]
    Outside { path: PathBuf },
    /// The open failed for another reason (not found, permissions).
    #[error("cannot open {path:?}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

impl BeneathError {
    /// The I/O error kind (`NotFound` for a missing file), if an I/O error.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            BeneathError::Io { source, .. } => Some(source.kind()),
            BeneathError::Outside { .. } => None,
        }
    }
}

/// The text of `rel` under `root` when it is a regular file beneath the
/// root of at most `max` bytes (opened without blocking: a FIFO is refused
/// at once); `None` otherwise. For the small files resolvers read.
pub fn read_small_text(root: &Path, rel: &str, links: Links, max: u64) -> Option<String> {
    use std::io::Read;
    let file = open_beneath(root, Path::new(rel), links).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > max {
        return None;
    }
    let mut text = String::new();
    file.take(max).read_to_string(&mut text).ok()?;
    Some(text)
}

/// Open `rel` (relative to `root`) for reading, never reaching anything
/// outside `root`; see the module comment. An absolute `rel`, or one that
/// resolves out of the root, is [`BeneathError::Outside`]; with
/// [`Links::Never`] so is any `..`.
pub fn open_beneath(root: &Path, rel: &Path, links: Links) -> Result<File, BeneathError> {
    let outside = || BeneathError::Outside {
        path: rel.to_path_buf(),
    };
    let io_error = |source| BeneathError::Io {
        path: rel.to_path_buf(),
        source,
    };
    let root = RootDir::resolve(root).map_err(io_error)?;
    let inner = match links {
        Links::Never => plain_components(rel).ok_or_else(outside)?,
        Links::Inside => {
            // An absolute path, or one whose `..` climb out of the root
            // even lexically, is refused before anything is resolved (not
            // even whether it exists is told); other `..` are resolved with
            // the links, and what they come to must lie inside.
            if !lexically_inside(rel) {
                return Err(outside());
            }
            // Most paths have no link on them: opened with links refused,
            // they need no resolution at all (a dozen `readlink`s a file,
            // the largest cost of a 100,000-file build). A link met on the
            // way sends the path through the resolution below.
            #[cfg(unix)]
            if let Some(plain) = plain_components(rel).filter(|p| !p.as_os_str().is_empty()) {
                match root.open(&plain) {
                    Ok(file) => return Ok(file),
                    Err(e) if !matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {
                        return Err(io_error(e));
                    }
                    Err(_) => {}
                }
            }
            match root.real.join(rel).canonicalize() {
                Ok(real) => real
                    .strip_prefix(&root.real)
                    .map_err(|_| outside())?
                    .to_path_buf(),
                // Missing, a dangling link, a loop of links: nothing to
                // open, and why is the resolution's own error.
                Err(e) => return Err(io_error(e)),
            }
        }
    };
    root.open(&inner).map_err(|e| match e.raw_os_error() {
        // A link met on the way (ELOOP from O_NOFOLLOW or
        // RESOLVE_NO_SYMLINKS, EXDEV from RESOLVE_BENEATH, ENOTDIR from
        // O_NOFOLLOW|O_DIRECTORY on a link): refused, never followed.
        #[cfg(unix)]
        Some(libc::ELOOP | libc::EXDEV) => outside(),
        #[cfg(unix)]
        Some(libc::ENOTDIR) if has_link(&root.real, &inner) => outside(),
        _ => io_error(e),
    })
}

/// The project root, resolved and (on Unix) opened once and kept: a build
/// opens every file beneath the same root, and resolving it again for
/// each costs a `readlink` per component. The kept descriptor is used only
/// while the root's path still names the same folder (device and inode
/// checked on each open), so a root moved or replaced is opened anew.
struct RootDir {
    real: PathBuf,
    #[cfg(unix)]
    fd: Arc<std::os::fd::OwnedFd>,
}

/// The root last opened: its path as given, its device and inode, the
/// resolved path and the descriptor.
#[cfg(unix)]
type KeptRoot = (PathBuf, (u64, u64), PathBuf, Arc<std::os::fd::OwnedFd>);

/// The last root opened: one project per process in practice.
#[cfg(unix)]
static LAST_ROOT: Mutex<Option<KeptRoot>> = Mutex::new(None);

impl RootDir {
    #[cfg(unix)]
    fn resolve(root: &Path) -> io::Result<RootDir> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(root)?;
        let id = (meta.dev(), meta.ino());
        let mut last = LAST_ROOT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((path, kept, real, fd)) = last.as_ref()
            && path == root
            && *kept == id
        {
            return Ok(RootDir {
                real: real.clone(),
                fd: fd.clone(),
            });
        }
        let real = root.canonicalize()?;
        let fd = Arc::new(open_at(None, &real, libc::O_DIRECTORY)?);
        // Keep it only if it is the folder that was checked (not one
        // swapped in between the check and the open).
        let opened = File::from(fd.try_clone()?).metadata()?;
        if (opened.dev(), opened.ino()) == id {
            *last = Some((root.to_path_buf(), id, real.clone(), fd.clone()));
        }
        Ok(RootDir { real, fd })
    }

    #[cfg(not(unix))]
    fn resolve(root: &Path) -> io::Result<RootDir> {
        Ok(RootDir {
            real: root.canonicalize()?,
        })
    }

    /// Open `inner` (plain names, no link expected) beneath the root.
    #[cfg(unix)]
    fn open(&self, inner: &Path) -> io::Result<File> {
        open_in(&self.fd, inner)
    }

    #[cfg(not(unix))]
    fn open(&self, inner: &Path) -> io::Result<File> {
        open_resolved(&self.real, inner)
    }
}

/// `rel` when it is made only of plain names (`.` dropped); `None` for an
/// absolute path or one with `..`.
fn plain_components(rel: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in rel.components() {
        match component {
            Component::Normal(name) => out.push(name),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

/// `rel` is relative and its `..` never climb above where it starts.
fn lexically_inside(rel: &Path) -> bool {
    let mut depth = 0usize;
    rel.components().all(|c| match c {
        Component::Normal(_) => {
            depth += 1;
            true
        }
        Component::CurDir => true,
        Component::ParentDir => depth.checked_sub(1).map(|d| depth = d).is_some(),
        Component::RootDir | Component::Prefix(_) => false,
    })
}

/// Whether a prefix of `inner` under `root` is a link now (to tell a link
/// met by `O_NOFOLLOW|O_DIRECTORY` from a plain file in the way).
#[cfg(unix)]
fn has_link(root: &Path, inner: &Path) -> bool {
    let mut at = root.to_path_buf();
    inner.components().any(|c| {
        at.push(c);
        std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
    })
}

/// Open `inner` (plain names, no link expected) beneath `real_root`.
#[cfg(all(test, unix))]
fn open_resolved(real_root: &Path, inner: &Path) -> io::Result<File> {
    let dir = open_at(None, real_root, libc::O_DIRECTORY)?;
    open_in(&dir, inner)
}

/// Open `inner` (plain names, no link expected) beneath the folder `dir`.
#[cfg(unix)]
fn open_in(dir: &std::os::fd::OwnedFd, inner: &Path) -> io::Result<File> {
    if inner.as_os_str().is_empty() {
        return Ok(File::from(dir.try_clone()?));
    }
    #[cfg(target_os = "linux")]
    match openat2_beneath(dir, inner) {
        Ok(file) => return Ok(file),
        // No openat2 (before Linux 5.6, or filtered by a sandbox): the
        // walk below gives the same guarantee with one call per component.
        Err(e)
            if matches!(
                e.raw_os_error(),
                Some(libc::ENOSYS | libc::EPERM | libc::E2BIG)
            ) => {}
        Err(e) => return Err(e),
    }
    open_by_components(dir.try_clone()?, inner)
}

/// Open `inner` from `dir` one component at a time, each with
/// `O_NOFOLLOW` (folders also `O_DIRECTORY`): a link anywhere fails.
#[cfg(unix)]
fn open_by_components(dir: std::os::fd::OwnedFd, inner: &Path) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    let mut names = inner.components().peekable();
    let mut at = dir;
    while let Some(name) = names.next() {
        let last = names.peek().is_none();
        let flags = if last { 0 } else { libc::O_DIRECTORY };
        at = open_at(Some(at.as_raw_fd()), Path::new(name.as_os_str()), flags)?;
    }
    Ok(File::from(at))
}

/// `openat(dir, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
/// extra)`; `dir` `None` is the current directory (for an absolute path).
#[cfg(unix)]
fn open_at(
    dir: Option<std::os::fd::RawFd>,
    path: &Path,
    extra: libc::c_int,
) -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // The root itself may be reached through links (a home under
    // /private, say): only what lies below it is refused as a link.
    let nofollow = if dir.is_some() { libc::O_NOFOLLOW } else { 0 };
    let flags =
        libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY | nofollow | extra;
    // SAFETY: `name` is a valid NUL-terminated string; the result is
    // checked before it is owned.
    let fd = unsafe { libc::openat(dir.unwrap_or(libc::AT_FDCWD), name.as_ptr(), flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// One `openat2` call that refuses any link and any step out of `dir`.
#[cfg(target_os = "linux")]
fn openat2_beneath(dir: &std::os::fd::OwnedFd, inner: &Path) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::ffi::OsStrExt;
    /// `struct open_how` of linux/openat2.h (a stable kernel ABI).
    #[repr(C)]
    struct OpenHow {
        flags: u64,
        mode: u64,
        resolve: u64,
    }
    const RESOLVE_NO_MAGICLINKS: u64 = 0x02;
    const RESOLVE_NO_SYMLINKS: u64 = 0x04;
    const RESOLVE_BENEATH: u64 = 0x08;
    let name = std::ffi::CString::new(inner.as_os_str().as_bytes())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    let how = OpenHow {
        flags: (libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY) as u64,
        mode: 0,
        resolve: RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    // SAFETY: the arguments are a valid descriptor, a NUL-terminated
    // string and a `struct open_how` with its size, as openat2(2) asks.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir.as_raw_fd(),
            name.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = i32::try_from(fd).map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// Elsewhere: the resolved path, opened plainly (the check above still
/// refuses links that lead out; the race is not closed).
#[cfg(not(unix))]
fn open_resolved(real_root: &Path, inner: &Path) -> io::Result<File> {
    File::open(real_root.join(inner))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::io::Read;
    use std::os::unix::fs::symlink;

    fn read(root: &Path, rel: &str, links: Links) -> Result<String, BeneathError> {
        let mut text = String::new();
        open_beneath(root, Path::new(rel), links)?
            .read_to_string(&mut text)
            .map_err(|source| BeneathError::Io {
                path: rel.into(),
                source,
            })?;
        Ok(text)
    }

    /// Attack: an intermediate folder is a link to a folder outside; the
    /// open refuses it, whichever way it is asked.
    #[test]
    fn a_linked_folder_leading_outside_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let r = root.path();
        fs::write(outside.path().join("secret"), "SECRET").unwrap();
        fs::create_dir_all(r.join("real/sub")).unwrap();
        fs::write(r.join("real/sub/a.txt"), "inside").unwrap();
        symlink(outside.path(), r.join("out")).unwrap();
        symlink("../../../../../../../../..", r.join("up")).unwrap();
        symlink(r.join("real"), r.join("inner")).unwrap();
        for links in [Links::Inside, Links::Never] {
            assert!(matches!(
                read(r, "out/secret", links),
                Err(BeneathError::Outside { .. })
            ));
            assert!(read(r, "up/etc/passwd", links).is_err());
            assert!(matches!(
                read(r, "../secret", links),
                Err(BeneathError::Outside { .. })
            ));
            assert!(matches!(
                read(r, outside.path().join("secret").to_str().unwrap(), links),
                Err(BeneathError::Outside { .. })
            ));
            assert_eq!(read(r, "real/sub/a.txt", links).unwrap(), "inside");
            assert_eq!(read(r, "./real/sub/a.txt", links).unwrap(), "inside");
            assert!(read(r, "real/../../secret", links).is_err());
            let missing = read(r, "real/nope", links).unwrap_err();
            assert_eq!(missing.io_kind(), Some(io::ErrorKind::NotFound));
        }
        // `..` that stays inside: resolved when links may be.
        assert_eq!(
            read(r, "real/x/../sub/a.txt", Links::Inside)
                .unwrap_err()
                .io_kind(),
            Some(io::ErrorKind::NotFound)
        );
        assert_eq!(
            read(r, "real/sub/../sub/a.txt", Links::Inside).unwrap(),
            "inside"
        );
        assert!(read(r, "real/sub/../sub/a.txt", Links::Never).is_err());
        // A link that stays inside: followed only when allowed.
        assert_eq!(read(r, "inner/sub/a.txt", Links::Inside).unwrap(), "inside");
        assert!(read(r, "inner/sub/a.txt", Links::Never).is_err());
    }

    /// The open itself refuses a link on the way, whatever was checked
    /// before: the resolved path, with a folder swapped for a link after
    /// it was resolved, is refused (the race, made deterministic).
    #[test]
    fn a_link_swapped_in_after_the_check_is_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let r = root.path().canonicalize().unwrap();
        fs::write(outside.path().join("a.txt"), "SECRET").unwrap();
        fs::create_dir(r.join("d")).unwrap();
        fs::write(r.join("d/a.txt"), "inside").unwrap();
        fs::rename(r.join("d"), r.join("d.old")).unwrap();
        symlink(outside.path(), r.join("d")).unwrap();
        let e = open_resolved(&r, Path::new("d/a.txt")).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ELOOP), "{e}");
        // The component walk (no openat2) refuses it too, at the link,
        // and opens what has no link.
        let dir = || open_at(None, &r, libc::O_DIRECTORY).unwrap();
        let e = open_by_components(dir(), Path::new("d/a.txt")).unwrap_err();
        assert!(
            matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)),
            "{e}"
        );
        let e = open_by_components(dir(), Path::new("d")).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ELOOP), "{e}");
        let mut text = String::new();
        open_by_components(dir(), Path::new("d.old/a.txt"))
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "inside");
    }

    /// The kept descriptor of the root is not used once the root's path
    /// names another folder: a project moved away and made anew is read
    /// anew, never the old one's files.
    #[test]
    fn a_root_replaced_is_opened_anew() {
        let parent = tempfile::tempdir().unwrap();
        let root = parent.path().join("p");
        fs::create_dir(&root).unwrap();
        fs::write(root.join("a.txt"), "old").unwrap();
        assert_eq!(read(&root, "a.txt", Links::Inside).unwrap(), "old");
        fs::rename(&root, parent.path().join("p.old")).unwrap();
        fs::create_dir(&root).unwrap();
        fs::write(root.join("a.txt"), "new").unwrap();
        assert_eq!(read(&root, "a.txt", Links::Inside).unwrap(), "new");
        assert_eq!(read(&root, "a.txt", Links::Never).unwrap(), "new");
        fs::remove_dir_all(&root).unwrap();
        assert_eq!(
            read(&root, "a.txt", Links::Inside).unwrap_err().io_kind(),
            Some(io::ErrorKind::NotFound)
        );
    }

    #[test]
    fn fifos_do_not_block_the_open() {
        let root = tempfile::tempdir().unwrap();
        let fifo = root.path().join("pipe");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid path string.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let file = open_beneath(root.path(), Path::new("pipe"), Links::Inside).unwrap();
        assert!(!file.metadata().unwrap().is_file());
    }
}
