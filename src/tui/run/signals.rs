//! Termination signals: SIGTERM, SIGHUP and SIGINT sent to the running TUI
//! end it the way `q` does — the event loop stops, the last save is
//! finished, the terminal is restored (raw mode off, alternate screen
//! left, cursor shown) — and the process then exits with `128 + signal`.
//!
//! The handler itself only forwards the signal number to a thread (through
//! `signal-hook`'s self-pipe), which hands it to the event loop. Should the
//! loop not get there in time (stuck in a long draw, say) or a second
//! signal arrive, that thread restores the terminal itself and exits, so a
//! terminal is never left raw.
//!
//! Some ways out never reach the loop, a thread or the panic hook: an
//! allocation failure or a panic during a panic calls `abort` (SIGABRT),
//! `process::exit` may be called from anywhere, SIGQUIT, a CPU or file
//! size limit, a crash in C code (SIGSEGV, SIGBUS, …) end the process at
//! once. For those, [`guard_terminal`] saves the terminal's settings
//! before the app changes them and installs a last resort: an `atexit`
//! function and a handler for each such signal that put the saved
//! settings back with `tcsetattr` and write the leave sequences with
//! `write` (both async-signal-safe), then let the signal do what it does
//! (its previous handler, or the default: the process ends as it would
//! have, core dump included).

use std::io;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The signals that end the app.
pub const ENDING: [i32; 3] = [SIGTERM, SIGHUP, SIGINT];

/// How long the event loop has to finish (saving included) after a signal
/// before the terminal is restored and the process ends anyway.
pub const GRACE: Duration = Duration::from_secs(5);

/// The exit status of a process ended by `signal`, as shells report it.
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// Watch for the [`ENDING`] signals: the first is given to `deliver`
/// (which hands it to the event loop); if the process is still running
/// [`GRACE`] later, or on a second signal, the terminal is restored and
/// the process exits. The handlers stay installed for the life of the
/// process.
pub fn watch(deliver: impl Fn(i32) + Send + 'static) -> io::Result<()> {
    let mut signals = Signals::new(ENDING)?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut forever = signals.forever();
            let Some(first) = forever.next() else {
                return;
            };
            deliver(first);
            thread::Builder::new()
                .name("signals-grace".into())
                .spawn(move || {
                    thread::sleep(GRACE);
                    give_up(first);
                })
                .ok();
            if forever.next().is_some() {
                give_up(first);
            }
        })?;
    Ok(())
}

/// Put the terminal back as the app found it: mouse capture off (sent
/// whether or not it was on: terminals ignore it when it was not), then
/// raw mode off, the alternate screen left, the cursor shown. Every way
/// out of the app calls this: quit, error, panic, signal.
pub fn restore_terminal() {
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture);
    ratatui::restore();
    // Only now: a fatal signal arriving half-way through still restores.
    TAKEN.store(false, Ordering::SeqCst);
}

/// Whether the app holds the terminal (raw, alternate screen): the last
/// resort acts only then, and once.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// The terminal's settings before the app changed them.
static SAVED: OnceLock<libc::termios> = OnceLock::new();

/// The handlers the last resort replaced, by signal, to hand each signal
/// on to.
static PREVIOUS: OnceLock<Vec<(libc::c_int, libc::sigaction)>> = OnceLock::new();

/// Signals that end the process at once by default, without the event
/// loop: the last resort restores the terminal first.
const FATAL: [libc::c_int; 15] = [
    libc::SIGABRT,
    libc::SIGQUIT,
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGSYS,
    libc::SIGTRAP,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
];

/// The signals the CPU raises on a fault: returning from their handler
/// runs the faulting instruction again.
const FAULTS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];

/// What `restore_terminal` sends, as bytes: mouse capture off (every
/// mode crossterm turns on), the alternate screen left, the cursor shown.
const LEAVE: &[u8] = b"\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1049l\x1b[?25h";

/// Save the terminal's settings and install the last resort (see the
/// module docs); call before the terminal is set up, once per process.
/// From then until [`restore_terminal`] the terminal counts as taken.
pub fn guard_terminal() {
    // SAFETY: tcgetattr writes a termios into the zeroed one we own.
    unsafe {
        let mut saved: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(libc::STDIN_FILENO, &mut saved) == 0 {
            let _ = SAVED.set(saved);
        }
    }
    if PREVIOUS.get().is_none() {
        let mut previous = Vec::with_capacity(FATAL.len());
        for signal in FATAL {
            // SAFETY: a zeroed sigaction with an emptied mask and our
            // handler is a valid action; `old` receives the one replaced.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fatal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, &action, &mut old) != 0 {
                    continue;
                }
                // A signal someone chose to ignore stays ignored, and one
                // another handler owns stays its (Rust's own for faults
                // aside, which the handler hands faults on to).
                let ignored = old.sa_sigaction == libc::SIG_IGN;
                let owned = old.sa_sigaction != libc::SIG_DFL && !FAULTS.contains(&signal);
                if ignored || owned {
                    libc::sigaction(signal, &old, std::ptr::null_mut());
                    continue;
                }
                previous.push((signal, old));
            }
        }
        let _ = PREVIOUS.set(previous);
        // SAFETY: registering a plain extern "C" function.
        unsafe {
            libc::atexit(at_exit);
        }
    }
    TAKEN.store(true, Ordering::SeqCst);
}

/// Put the saved settings back and leave the alternate screen, if the
/// app still holds the terminal. Async-signal-safe: an atomic swap, a
/// `tcsetattr` and a `write`, nothing that allocates or locks.
fn last_resort_restore() {
    if !TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    // SAFETY: both calls only read memory we own (the saved termios, a
    // static byte string); failures are ignored, there is nothing else to
    // try.
    unsafe {
        libc::write(libc::STDOUT_FILENO, LEAVE.as_ptr().cast(), LEAVE.len());
        if let Some(saved) = SAVED.get() {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, saved);
        }
    }
}

extern "C" fn at_exit() {
    last_resort_restore();
}

/// The last resort's handler: restore, then hand the signal on.
extern "C" fn on_fatal(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    last_resort_restore();
    // A fault the CPU raised repeats when the handler returns, and then
    // reaches the handler that was there before (Rust's own reports a
    // stack overflow); a signal sent (kill, raise, abort) is raised again.
    // SAFETY: `info` is the kernel's siginfo for this signal.
    let sent = !FAULTS.contains(&signal) || info.is_null() || unsafe { (*info).si_code } <= 0;
    let previous = PREVIOUS
        .get()
        .and_then(|p| p.iter().find(|(s, _)| *s == signal));
    // SAFETY: sigaction, signal and raise are async-signal-safe; the
    // previous action is one the kernel gave us.
    unsafe {
        match previous {
            Some((_, old)) if !sent => {
                libc::sigaction(signal, old, std::ptr::null_mut());
            }
            _ => {
                // A sent signal goes to the default action: a previous
                // handler that returns would leave the process running
                // with its terminal given back.
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        }
    }
}

/// Debug builds only, for the end-to-end tests: end the process the way
/// `CTXCURATE_TEST_DIE` names (`abort`, `exit`, `alloc`, `double-panic`,
/// `segv`, `stack-overflow`) from a thread of its own, as a crash
/// elsewhere in the app would.
#[cfg(debug_assertions)]
pub fn test_die() {
    let Ok(how) = std::env::var("CTXCURATE_TEST_DIE") else {
        return;
    };
    let _ = thread::Builder::new()
        .name("test-die".into())
        .spawn(move || match how.as_str() {
            "abort" => std::process::abort(),
            "exit" => std::process::exit(3),
            "alloc" => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u8; 1 << 20]>()),
            "double-panic" => {
                struct PanicOnDrop;
                impl Drop for PanicOnDrop {
                    fn drop(&mut self) {
                        panic!("test-die: the second panic");
                    }
                }
                let _p = PanicOnDrop;
                panic!("test-die: the first panic");
            }
            // A real fault, not a signal sent: the CPU raises SIGSEGV.
            // SAFETY: none; crashing is the point.
            "segv" => unsafe { std::ptr::null_mut::<u8>().write_volatile(1) },
            "stack-overflow" => {
                fn deeper(n: u64) -> u64 {
                    let pad = std::hint::black_box([n; 512]);
                    // Never 0 (black_box hides that): the recursion goes on.
                    if pad[7] == u64::MAX {
                        return 0;
                    }
                    deeper(pad[7] + 1) + pad[0]
                }
                std::hint::black_box(deeper(0));
            }
            _ => {}
        })
        .map(|t| t.join());
}

/// Restore the terminal and end the process now.
fn give_up(signal: i32) -> ! {
    restore_terminal();
    std::process::exit(exit_status(signal));
}
