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

use std::io;
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
}

/// Restore the terminal and end the process now.
fn give_up(signal: i32) -> ! {
    restore_terminal();
    std::process::exit(exit_status(signal));
}
