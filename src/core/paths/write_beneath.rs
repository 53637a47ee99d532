//! Writing a file beneath the root without ever writing outside it, even
//! while another process swaps folders or the file for links.
//!
//! Checking a path for links and then writing it is a race: a folder
//! replaced by a symlink out of the project between the two is followed
//! (a racing script landed `-o out/x.md` outside in most of 200 builds).
//! So the write is done on descriptors: from one of the root, each folder
//! of `rel` (links already resolved by the caller's check, so none is
//! expected) is opened with `O_NOFOLLOW | O_DIRECTORY` and made when
//! missing (`mkdirat`); the text goes to a new temporary file made in the
//! last folder (`O_CREAT | O_EXCL | O_NOFOLLOW`) and is renamed over the
//! name there (`renameat`, which replaces a link rather than following
//! it). A link met anywhere was swapped in after the check: the write is
//! refused, nothing is written. An existing FIFO, device or socket at
//! the name is refused too: beneath the root it may be the repository's
//! (writing into a FIFO blocks for ever, into a device writes the device).
//! Outside the root a path the user names is theirs (`-o /dev/stdout`).
//!
//! [`create_new`] writes the numbered output file (`build --save`, the
//! TUI's `w`) the same way, except that the temporary file is given the
//! first free name without replacing anything (`renameat2` with
//! `RENAME_NOREPLACE`, else `linkat`), so a name another process or the
//! repository took, a link included, is skipped, never followed.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path};

/// The error for a link met while writing.
fn swapped(name: &std::ffi::OsStr) -> io::Error {
    io::Error::other(format!(
        "{} became a symbolic link while the output was written; refusing to write through it",
        name.to_string_lossy()
    ))
}

fn c_name(name: &std::ffi::OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

/// `openat(dir, name, flags | O_CLOEXEC | O_NOFOLLOW, mode)`.
fn open_at(
    dir: &OwnedFd,
    name: &std::ffi::OsStr,
    flags: libc::c_int,
    mode: u32,
) -> io::Result<OwnedFd> {
    let name = c_name(name)?;
    let flags = flags | libc::O_CLOEXEC | libc::O_NOFOLLOW;
    // SAFETY: a valid descriptor and NUL-terminated name; the result is
    // checked before it is owned.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags, mode as libc::c_uint) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The folder `name` in `dir`, made when missing; a link there is refused.
fn folder_in(dir: &OwnedFd, name: &std::ffi::OsStr) -> io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY;
    match open_at(dir, name, flags, 0) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let c = c_name(name)?;
            // SAFETY: as in `open_at`.
            let made = unsafe { libc::mkdirat(dir.as_raw_fd(), c.as_ptr(), 0o777) };
            if made < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::AlreadyExists {
                    return Err(e);
                }
            }
            open_at(dir, name, flags, 0).map_err(|e| not_a_folder(dir, name, e))
        }
        other => other.map_err(|e| not_a_folder(dir, name, e)),
    }
}

/// ELOOP and ENOTDIR from `O_NOFOLLOW | O_DIRECTORY`: `name` is a link
/// (swapped in after the caller's check), or something other than a
/// folder, said as what it is (a FIFO or a file named as a folder was
/// reported as a link).
fn not_a_folder(dir: &OwnedFd, name: &std::ffi::OsStr, e: io::Error) -> io::Error {
    if !matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) {
        return e;
    }
    let kind = c_name(name)
        .and_then(|c| stat_at(dir, &c))
        .ok()
        .flatten()
        .map(|st| st.st_mode & libc::S_IFMT);
    let what = match kind {
        Some(libc::S_IFLNK) | None => return swapped(name),
        Some(libc::S_IFREG) => "a file",
        Some(libc::S_IFIFO) => "a FIFO",
        Some(libc::S_IFCHR | libc::S_IFBLK) => "a device",
        Some(_) => "not a folder",
    };
    io::Error::other(format!(
        "{} is {what}, not a folder; refusing to write the output beneath it",
        name.to_string_lossy()
    ))
}

/// What is at `name` in `dir`, links not followed (`None`: nothing).
fn stat_at(dir: &OwnedFd, name: &CString) -> io::Result<Option<libc::stat>> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: a valid descriptor, a NUL-terminated name and a buffer of
    // the size `fstatat` writes.
    let r = unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if r < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::NotFound {
            Ok(None)
        } else {
            Err(e)
        };
    }
    // SAFETY: `fstatat` succeeded and filled it.
    Ok(Some(unsafe { st.assume_init() }))
}

/// Write `rel` (relative to `real_root`, the root's canonical path; plain
/// names, `..` taken lexically) with what `write` writes, as the module
/// comment says. Made with the permissions a new file gets; an existing
/// file keeps its own.
pub fn write_file(
    real_root: &Path,
    rel: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let Some(file_name) = rel.file_name() else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    if !matches!(rel.components().next_back(), Some(Component::Normal(_))) {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    }
    let dir = folder_beneath(real_root, rel.parent().unwrap_or(Path::new("")))?;
    let name = c_name(file_name)?;
    let existing = stat_at(&dir, &name)?;
    if let Some(st) = &existing {
        match st.st_mode & libc::S_IFMT {
            libc::S_IFLNK => return Err(swapped(file_name)),
            libc::S_IFREG => {}
            // A FIFO, a device, a socket beneath the root may come with
            // the repository (a tarball carries them): writing into one
            // blocks for ever, or writes into a device. Not a file to
            // replace either.
            kind => {
                let what = match kind {
                    libc::S_IFIFO => "a FIFO",
                    libc::S_IFCHR | libc::S_IFBLK => "a device",
                    libc::S_IFDIR => "a folder",
                    _ => "not a regular file",
                };
                return Err(io::Error::other(format!(
                    "{} is {what}; refusing to write the output into it \
                     (name a file, or use standard output)",
                    file_name.to_string_lossy()
                )));
            }
        }
    }
    let mode = existing.map_or(0o666, |st| st.st_mode & 0o7777);
    let (temp_name, temp) = temp_in(&dir, mode)?;
    let mut temp = File::from(temp);
    let written = write(&mut temp).and_then(|()| {
        if existing.is_some() {
            // Exactly the old bits, the umask aside.
            temp.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        let temp_c = c_name(&temp_name)?;
        // SAFETY: a valid descriptor and NUL-terminated names.
        let r = unsafe {
            libc::renameat(
                dir.as_raw_fd(),
                temp_c.as_ptr(),
                dir.as_raw_fd(),
                name.as_ptr(),
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    });
    if written.is_err()
        && let Ok(temp_c) = c_name(&temp_name)
    {
        // SAFETY: as above; the temporary is ours (made O_EXCL).
        unsafe { libc::unlinkat(dir.as_raw_fd(), temp_c.as_ptr(), 0) };
    }
    written
}

/// The folder `rel` (plain names, `..` taken lexically) beneath
/// `real_root`, opened from the root's descriptor with its folders made
/// when missing; a link anywhere on the way is refused.
fn folder_beneath(real_root: &Path, rel: &Path) -> io::Result<OwnedFd> {
    let mut names: Vec<&std::ffi::OsStr> = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(name) => names.push(name),
            Component::CurDir => {}
            Component::ParentDir if names.pop().is_some() => {}
            _ => return Err(io::Error::from(io::ErrorKind::InvalidInput)),
        }
    }
    let root = CString::new(real_root.as_os_str().as_bytes())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: a NUL-terminated path; the result is checked.
    let fd = unsafe {
        libc::open(
            root.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    let mut dir = unsafe { OwnedFd::from_raw_fd(fd) };
    for name in names {
        dir = folder_in(&dir, name)?;
    }
    Ok(dir)
}

/// Give `from` (in `dir`) the name `to` unless `to` exists (a link
/// included, which is not followed): `Ok(false)` then.
fn rename_no_replace(dir: &OwnedFd, from: &CString, to: &CString) -> io::Result<bool> {
    #[cfg(target_os = "linux")]
    {
        const RENAME_NOREPLACE: libc::c_uint = 1;
        // SAFETY: valid descriptors and NUL-terminated names.
        let r = unsafe {
            libc::syscall(
                libc::SYS_renameat2,
                dir.as_raw_fd(),
                from.as_ptr(),
                dir.as_raw_fd(),
                to.as_ptr(),
                RENAME_NOREPLACE,
            )
        };
        if r == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EEXIST) => return Ok(false),
            // No renameat2 here (an old kernel, a file system without
            // it): a hard link does the same.
            Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP) => {}
            _ => return Err(e),
        }
    }
    // SAFETY: as above; a new link never follows `to`.
    let r = unsafe {
        libc::linkat(
            dir.as_raw_fd(),
            from.as_ptr(),
            dir.as_raw_fd(),
            to.as_ptr(),
            0,
        )
    };
    if r < 0 {
        let e = io::Error::last_os_error();
        return if e.raw_os_error() == Some(libc::EEXIST) {
            Ok(false)
        } else {
            Err(e)
        };
    }
    // SAFETY: as above; `from` is our temporary, now also named `to`.
    unsafe { libc::unlinkat(dir.as_raw_fd(), from.as_ptr(), 0) };
    Ok(true)
}

/// Write a new file in the folder `rel_dir` beneath `real_root` (its
/// folders made, no link followed, see the module comment) with what
/// `write` writes, synced, under the first of `names` that nothing there
/// has: that name, or `None` when every one was taken (nothing is left
/// behind then). A new file's permissions (`0o666` less the umask).
pub fn create_new(
    real_root: &Path,
    rel_dir: &Path,
    names: impl IntoIterator<Item = String>,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<Option<String>> {
    let dir = folder_beneath(real_root, rel_dir)?;
    let (temp_name, temp) = temp_in(&dir, 0o666)?;
    let temp_c = c_name(&temp_name)?;
    let mut temp = File::from(temp);
    let placed = write(&mut temp)
        .and_then(|()| temp.sync_all())
        .and_then(|()| {
            for name in names {
                let to = c_name(std::ffi::OsStr::new(&name))?;
                if rename_no_replace(&dir, &temp_c, &to)? {
                    return Ok(Some(name));
                }
            }
            Ok(None)
        });
    if !matches!(placed, Ok(Some(_))) {
        // SAFETY: as above; the temporary is ours (made O_EXCL).
        unsafe { libc::unlinkat(dir.as_raw_fd(), temp_c.as_ptr(), 0) };
    }
    placed
}

/// A new temporary file in `dir` (`.tmp-ctxcurate-…`), made exclusively.
fn temp_in(dir: &OwnedFd, mode: u32) -> io::Result<(std::ffi::OsString, OwnedFd)> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id()) << 32;
    for attempt in 0..100u64 {
        let name = std::ffi::OsString::from(format!(
            ".tmp-ctxcurate-{:x}",
            seed.wrapping_mul(6364136223846793005).wrapping_add(attempt)
        ));
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL;
        match open_at(dir, &name, flags, mode) {
            Ok(fd) => return Ok((name, fd)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::from(io::ErrorKind::AlreadyExists))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::{MetadataExt, symlink};

    #[test]
    fn writes_and_makes_folders_beneath_the_root() {
        let root = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(root.path()).unwrap();
        write_file(&real, Path::new("a/b/../c/x.md"), |f| {
            io::Write::write_all(f, b"one")
        })
        .unwrap();
        assert_eq!(fs::read_to_string(real.join("a/c/x.md")).unwrap(), "one");
        fs::set_permissions(real.join("a/c/x.md"), fs::Permissions::from_mode(0o600)).unwrap();
        write_file(&real, Path::new("a/c/x.md"), |f| {
            io::Write::write_all(f, b"two")
        })
        .unwrap();
        let meta = fs::metadata(real.join("a/c/x.md")).unwrap();
        assert_eq!(fs::read_to_string(real.join("a/c/x.md")).unwrap(), "two");
        assert_eq!(
            meta.mode() & 0o777,
            0o600,
            "an existing file keeps its bits"
        );
        let left: Vec<_> = fs::read_dir(real.join("a/c")).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary left");
    }

    /// A link where the check saw a folder or the file: refused, and
    /// nothing is written outside.
    #[test]
    fn a_link_met_while_writing_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(root.path()).unwrap();
        symlink(outside.path(), real.join("out")).unwrap();
        fs::write(outside.path().join("bashrc"), "keep").unwrap();
        symlink(outside.path().join("bashrc"), real.join("ctx.md")).unwrap();
        for rel in ["out/x.md", "out/new/x.md", "ctx.md"] {
            let e =
                write_file(&real, Path::new(rel), |f| io::Write::write_all(f, b"x")).unwrap_err();
            assert!(
                e.to_string().contains("became a symbolic link"),
                "{rel}: {e}"
            );
        }
        assert_eq!(
            fs::read_to_string(outside.path().join("bashrc")).unwrap(),
            "keep"
        );
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 1);
        assert!(
            fs::symlink_metadata(real.join("ctx.md"))
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link is left as it was"
        );
        assert!(write_file(&real, Path::new("../x.md"), |_| Ok(())).is_err());
    }

    /// A FIFO or a file where the output's folder goes is refused for
    /// what it is, not called a link (sweep 12).
    #[test]
    fn a_fifo_or_file_where_a_folder_goes_is_named_for_what_it_is() {
        let root = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(root.path()).unwrap();
        fs::write(real.join("file"), "keep").unwrap();
        let fifo = CString::new(real.join("fifo").as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        for (rel, what) in [
            ("file/x.md", "file is a file"),
            ("fifo/x.md", "fifo is a FIFO"),
        ] {
            let e =
                write_file(&real, Path::new(rel), |f| io::Write::write_all(f, b"x")).unwrap_err();
            let shown = e.to_string();
            assert!(shown.contains(what), "{rel}: {shown}");
            assert!(!shown.contains("symbolic link"), "{rel}: {shown}");
        }
        assert_eq!(fs::read_to_string(real.join("file")).unwrap(), "keep");
    }
}
