//! Reading what the tool does not control without letting it hang or
//! flood us: a file that must be regular (a FIFO or a device swapped in is
//! refused without waiting), and a child process's pipe read to a cap.
//! A leaf module: it imports nothing of the core, so every layer may use it.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

/// Open `path` for reading (a link is followed) only if it is a regular
/// file; returns it with its metadata. Opened non-blocking, so a FIFO is
/// refused at once instead of waiting for a writer, and `/dev/zero` is
/// refused before a byte is read.
pub fn open_regular(path: &Path) -> io::Result<(fs::File, fs::Metadata)> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok((file, meta))
}

/// The first `keep` bytes of `pipe`, reading (and dropping) the rest until
/// it closes, so a child that writes much is never blocked on a full pipe.
pub fn read_draining(mut pipe: impl Read, keep: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                let room = keep.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&buf[..room]);
            }
        }
    }
}

/// Make the child `cmd` starts die with the thread that starts it (Linux:
/// `PR_SET_PDEATHSIG`): a git or a summary command stuck on a FIFO the
/// repository ships outlived a TUI that quit or a CLI that got SIGTERM
/// (sweep 13, GIT1). The caller waits for the child on that thread, so it
/// lives as long as the wait. Elsewhere, nothing changes.
pub fn dies_with_parent(cmd: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: the hook runs in the child between fork and exec and
        // calls only prctl(2) and getppid(2), which are async-signal-safe.
        let parent = std::process::id();
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(cmd, move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The parent died before the request took hold.
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    return Err(io::Error::other("the parent exited"));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draining_keeps_the_head_and_reads_to_the_end() {
        let mut input = std::io::Cursor::new(vec![7u8; 20_000]);
        assert_eq!(read_draining(&mut input, 10), vec![7u8; 10]);
        assert_eq!(input.position(), 20_000);
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(
            open_regular(&fifo).is_err(),
            "a FIFO is refused, not waited on"
        );
        assert!(open_regular(Path::new("/dev/zero")).is_err());
        fs::write(dir.path().join("f"), "x").unwrap();
        assert_eq!(open_regular(&dir.path().join("f")).unwrap().1.len(), 1);
    }
}
