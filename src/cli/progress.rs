//! The progress line of a long command: after a second of work, a bar on
//! stderr that follows the core's counters (`core::progress`), cleared
//! before the command prints anything else. Only when stderr is a
//! terminal and `--quiet` was not given (`Ctx::progress`); never on a pipe.
//! It shows counts only, never a file name, so nothing from a project
//! reaches the terminal through it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use ctxcurate::core::progress::Progress;
use indicatif::{ProgressBar, ProgressStyle};

use super::Ctx;

/// Quicker commands show nothing.
const DELAY: Duration = Duration::from_secs(1);
/// How often the line follows the counters.
const TICK: Duration = Duration::from_millis(100);

/// A progress line being shown (or waiting to be); dropping it clears it.
pub struct Shown {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Follow `progress` on the terminal, each phase by its name, once the
/// command has run for a second.
pub fn show(ctx: &mut Ctx, progress: Arc<Progress>) -> Shown {
    let stop = Arc::new(AtomicBool::new(false));
    let Some(target) = ctx.progress.take() else {
        return Shown { stop, thread: None };
    };
    let delay = delay();
    let thread = thread::spawn({
        let stop = stop.clone();
        move || {
            let started = Instant::now();
            while started.elapsed() < delay {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                thread::sleep(TICK.min(delay));
            }
            let bar = ProgressBar::with_draw_target(None, target);
            // A phase with steps shows a bar; one without, a spinner.
            let counted =
                ProgressStyle::with_template("{spinner} {pos}/{len} {msg} [{bar:30}] {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
            let open = ProgressStyle::with_template("{spinner} {msg}… {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            let mut was_counted = None;
            let mut draw = |bar: &ProgressBar| {
                let phase = progress.phase();
                if phase.is_empty() {
                    return; // nothing has started yet
                }
                let (done, total) = progress.get();
                if was_counted != Some(total > 0) {
                    was_counted = Some(total > 0);
                    bar.set_style(if total > 0 {
                        counted.clone()
                    } else {
                        open.clone()
                    });
                }
                bar.set_message(phase);
                bar.set_length(total as u64);
                bar.set_position(done as u64);
                bar.tick();
            };
            while !stop.load(Ordering::Relaxed) {
                draw(&bar);
                thread::sleep(TICK);
            }
            // The last phase is drawn once more, then the line is cleared
            // for what the command prints next.
            draw(&bar);
            bar.finish_and_clear();
        }
    });
    Shown {
        stop,
        thread: Some(thread),
    }
}

/// The wait before the line shows: a second, or
/// `CTXCURATE_PROGRESS_DELAY_MS` (the tests show it at once).
fn delay() -> Duration {
    std::env::var("CTXCURATE_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(DELAY, Duration::from_millis)
}

impl Drop for Shown {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
