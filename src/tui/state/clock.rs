//! The TUI's idea of "now". The app reads the system's monotonic clock;
//! the harness holds a hand-moved one, so tests of time-based gates (the
//! pause before a copy of secrets can be confirmed) never sleep.

use std::time::{Duration, Instant};

/// A monotonic clock: the system's, or one that moves only when told.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clock {
    /// `Some`: the manual clock's current time.
    fixed: Option<Instant>,
}

impl Clock {
    /// The system's monotonic clock.
    pub fn system() -> Clock {
        Clock { fixed: None }
    }

    /// A clock standing still at the current instant until
    /// [`Clock::advance`] moves it.
    pub fn manual() -> Clock {
        Clock {
            fixed: Some(Instant::now()),
        }
    }

    pub fn now(&self) -> Instant {
        self.fixed.unwrap_or_else(Instant::now)
    }

    /// Move a manual clock forward (a system clock moves by itself).
    pub fn advance(&mut self, by: Duration) {
        if let Some(t) = self.fixed.as_mut() {
            *t += by;
        }
    }

    /// How long ago `then` was (zero for a time in the future).
    pub fn since(&self, then: Instant) -> Duration {
        self.now().saturating_duration_since(then)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let mut c = Clock::manual();
        let t = c.now();
        assert_eq!(c.since(t), Duration::ZERO);
        c.advance(Duration::from_millis(250));
        assert_eq!(c.since(t), Duration::from_millis(250));
    }
}
