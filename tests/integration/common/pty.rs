//! A raw pseudo-terminal for tests that check what reaches a terminal:
//! the CLI's escaping (`cli::terminal`) and its progress line
//! (`cli::progress`).

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

use super::Project;

/// A raw pseudo-terminal (no output processing, so the bytes read are the
/// bytes written): (master, slave), both close-on-exec.
pub fn openpty() -> (OwnedFd, OwnedFd) {
    let mut master = -1;
    let mut slave = -1;
    // SAFETY: plain FFI; `termios` is plain data filled by cfmakeraw, and
    // the out-pointers are valid for the call.
    unsafe {
        let mut raw: libc::termios = std::mem::zeroed();
        libc::cfmakeraw(&mut raw);
        let rc = libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            &raw,
            std::ptr::null(),
        );
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        for fd in [master, slave] {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
        (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave))
    }
}

/// Run `ctxcurate args…` with stdout and stderr on a terminal; returns
/// whether it succeeded and everything the terminal received.
pub fn on_terminal<S: AsRef<OsStr>>(p: &Project, args: &[S]) -> (bool, Vec<u8>) {
    let (master, slave) = openpty();
    let mut cmd = p.cmd(&[]);
    cmd.args(args)
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave));
    let mut child = cmd.spawn().expect("spawn");
    // Our copies of the slave must be closed for the read to end.
    drop(cmd);
    let seen = read_all(File::from(master));
    let status = child.wait().expect("wait");
    (status.success(), seen)
}

/// Run `cmd` with stderr on a terminal and stdout piped; returns whether
/// it succeeded, its stdout, and everything the terminal received.
pub fn stderr_on_terminal(mut cmd: Command) -> (bool, Vec<u8>, Vec<u8>) {
    let (master, slave) = openpty();
    cmd.stdout(Stdio::piped()).stderr(Stdio::from(slave));
    let mut child = cmd.spawn().expect("spawn");
    drop(cmd);
    let mut stdout = child.stdout.take().expect("stdout");
    let out = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let seen = read_all(File::from(master));
    let status = child.wait().expect("wait");
    (status.success(), out.join().expect("stdout reader"), seen)
}

/// Everything the terminal's side receives until the last slave closes.
fn read_all(mut reader: File) -> Vec<u8> {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            // Linux reports EIO once the last slave descriptor is closed.
            Err(e) if e.raw_os_error() == Some(libc::EIO) => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => panic!("read pty {}: {e}", reader.as_raw_fd()),
        }
    }
    seen
}
