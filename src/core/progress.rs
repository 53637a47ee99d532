//! How far a long core call has come: counters the core bumps as it
//! renders files or fits candidates, which a front end may show (the CLI's
//! progress line on a terminal). The core never prints; reading the
//! counters is free and never blocks the work.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Steps done out of a total, for the phase now running.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    /// What the steps are (`"files read for imports"`, …).
    phase: Mutex<&'static str>,
}

impl Progress {
    /// A new phase of `total` steps named `phase`, none done.
    pub fn start(&self, phase: &'static str, total: usize) {
        *self.phase.lock().unwrap_or_else(|e| e.into_inner()) = phase;
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    /// The name of the phase now running.
    pub fn phase(&self) -> &'static str {
        *self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One step done.
    pub fn step(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// (done, total) of the phase now running.
    pub fn get(&self) -> (usize, usize) {
        let total = self.total.load(Ordering::Relaxed);
        (self.done.load(Ordering::Relaxed).min(total), total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_count_up_to_the_total_of_the_phase() {
        let p = Progress::default();
        assert_eq!(p.get(), (0, 0));
        p.start("files", 2);
        p.step();
        assert_eq!(p.get(), (1, 2));
        assert_eq!(p.phase(), "files");
        p.step();
        p.step();
        assert_eq!(p.get(), (2, 2), "never past the total");
        p.start("candidates", 5);
        assert_eq!(p.get(), (0, 5), "a new phase starts from zero");
    }
}
