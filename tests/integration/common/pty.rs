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
/// bytes written): (master, slave), both close-on-exec from the start.
/// Not `openpty`, which makes them inheritable: every test shares this
/// process, and a child another test spawned between `openpty` and
/// setting close-on-exec would hold the slave open, so the read here would
/// wait for that child to end.
pub fn openpty() -> (OwnedFd, OwnedFd) {
    let flags = libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC;
    let fail = |what: &str| -> ! { panic!("{what}: {}", std::io::Error::last_os_error()) };
    // SAFETY: plain FFI on descriptors this function owns; `name` is a
    // buffer of the length given, which ptsname_r NUL-terminates, and
    // `termios` is plain data filled by tcgetattr and cfmakeraw.
    unsafe {
        let master = libc::posix_openpt(flags);
        if master < 0 {
            fail("posix_openpt");
        }
        let master = OwnedFd::from_raw_fd(master);
        if libc::grantpt(master.as_raw_fd()) != 0 || libc::unlockpt(master.as_raw_fd()) != 0 {
            fail("grantpt/unlockpt");
        }
        let mut name = [0 as libc::c_char; 128];
        if libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len()) != 0 {
            fail("ptsname_r");
        }
        let slave = libc::open(name.as_ptr(), flags);
        if slave < 0 {
            fail("open the slave");
        }
        let slave = OwnedFd::from_raw_fd(slave);
        let mut raw: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(slave.as_raw_fd(), &mut raw) != 0 {
            fail("tcgetattr");
        }
        libc::cfmakeraw(&mut raw);
        if libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &raw) != 0 {
            fail("tcsetattr");
        }
        (master, slave)
    }
}

/// Run `ctxcurate args…` with stdout and stderr on a terminal; returns
/// whether it succeeded and everything the terminal received.
pub fn on_terminal<S: AsRef<OsStr>>(p: &Project, args: &[S]) -> (bool, Vec<u8>) {
    let (master, slave) = openpty();
    let mut cmd = p.cmd(&[]);
    // The progress line (`\r`-redrawn, tested in `cli::progress`) shows
    // after a second of work, which a loaded machine reaches: only what
    // the command itself prints is looked at here.
    cmd.env("CTXCURATE_PROGRESS_DELAY_MS", "86400000");
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

/// The TUI (`ctxcurate args…`, no subcommand) on a terminal: `keys` are
/// typed after `wait`; its exit status, or `None` when it had not ended
/// `limit` after the keys (then it is killed). A test of what a hostile
/// project does to the TUI's start and to `q`.
pub fn tui_typed(
    p: &Project,
    args: &[&str],
    wait: std::time::Duration,
    keys: &[u8],
    limit: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    tui_typed_steps(p, args, &[(wait, keys)], limit)
}

/// [`tui_typed`] with keys typed in steps: each after its wait.
pub fn tui_typed_steps(
    p: &Project,
    args: &[&str],
    steps: &[(std::time::Duration, &[u8])],
    limit: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    use std::io::Write;
    let (master, slave) = openpty();
    let mut cmd = p.cmd(args);
    cmd.stdin(Stdio::from(slave.try_clone().expect("dup")))
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave));
    let mut child = cmd.spawn().expect("spawn");
    drop(cmd);
    let mut writer = File::from(master.try_clone().expect("dup"));
    // Drained on a thread so the TUI never blocks on a full terminal.
    let reader = File::from(master);
    std::thread::spawn(move || read_all(reader));
    for (wait, keys) in steps {
        std::thread::sleep(*wait);
        let _ = writer.write_all(keys);
    }
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
