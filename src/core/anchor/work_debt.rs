//! What finding slices again has cost the process lately. Each file's
//! slices are bounded by the file's own lines ([`super::Resolver`]), so a
//! project file giving 130 one-megabyte files 64 stale slices each took
//! half a minute of `stats` (recheck 15b F3b). Past an allowance of work
//! done beyond each file's floor (its text twice over: enough to check
//! slices in place and index the file once), later files get only their
//! floor, and their other slices are not looked for. The allowance comes
//! back with time, so a long-lived TUI or MCP server is not held back for
//! good by one hostile project file.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Work ([`super::Resolver`]'s: a visit a line, one a byte hashed) beyond
/// the files' floors the process may spend before later files get only
/// their floor: about a second of hashing.
pub const ALLOWANCE: usize = 1 << 28;

/// How much of the debt is forgiven per second of the clock: the whole
/// allowance in sixteen seconds.
const FORGIVEN_PER_SECOND: f64 = (1u64 << 24) as f64;

/// The work not yet forgiven, as it stood at `at`.
#[derive(Debug, Clone, Copy)]
struct Debt {
    owed: usize,
    at: Option<Instant>,
}

impl Debt {
    const NONE: Debt = Debt { owed: 0, at: None };

    /// The debt at `now`: what was owed, less what time forgave since at
    /// `rate` visits a second.
    fn owed(&self, now: Instant, rate: f64) -> usize {
        self.at.map_or(0, |at| {
            let seconds = now.saturating_duration_since(at).as_secs_f64();
            // A float past `usize::MAX` saturates in the cast.
            let forgiven = (seconds * rate) as usize;
            self.owed.saturating_sub(forgiven)
        })
    }

    fn charge(&mut self, visits: usize, now: Instant, rate: f64) {
        *self = Debt {
            owed: self.owed(now, rate).saturating_add(visits),
            at: Some(now),
        };
    }

    fn over_allowance(&self, now: Instant, rate: f64) -> bool {
        self.owed(now, rate) > ALLOWANCE
    }
}

/// A debt of work shared by the resolvers that charge it: the process's
/// ([`WorkDebt::process`]), or a test's own.
#[derive(Debug)]
pub struct WorkDebt {
    debt: Mutex<Debt>,
    /// Visits forgiven per second of the clock.
    rate: f64,
}

/// The process's debt.
static PROCESS: WorkDebt = WorkDebt::new();

impl WorkDebt {
    pub const fn new() -> Self {
        WorkDebt {
            debt: Mutex::new(Debt::NONE),
            rate: FORGIVEN_PER_SECOND,
        }
    }

    /// A debt time does not forgive (a test's: what it charges stays).
    pub const fn unforgiving() -> Self {
        WorkDebt {
            debt: Mutex::new(Debt::NONE),
            rate: 0.0,
        }
    }

    pub fn process() -> &'static WorkDebt {
        &PROCESS
    }

    /// Whether finding slices again has cost more than the allowance lately.
    pub fn over_allowance(&self) -> bool {
        let debt = self.debt.lock().unwrap_or_else(PoisonError::into_inner);
        debt.over_allowance(Instant::now(), self.rate)
    }

    /// Add `visits` lines visited beyond a file's floor.
    pub fn charge(&self, visits: usize) {
        if visits == 0 {
            return;
        }
        let mut debt = self.debt.lock().unwrap_or_else(PoisonError::into_inner);
        debt.charge(visits, Instant::now(), self.rate);
    }
}

impl Default for WorkDebt {
    fn default() -> Self {
        WorkDebt::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const R: f64 = FORGIVEN_PER_SECOND;

    #[test]
    fn work_past_the_allowance_is_over_it_until_time_forgives_it() {
        let start = Instant::now();
        let mut debt = Debt::NONE;
        assert!(!debt.over_allowance(start, R));
        debt.charge(ALLOWANCE, start, R);
        assert!(
            !debt.over_allowance(start, R),
            "the allowance itself is allowed"
        );
        debt.charge(1, start, R);
        assert!(debt.over_allowance(start, R));
        let later = |s| start + Duration::from_secs(s);
        assert!(
            !debt.over_allowance(later(1), R),
            "a second forgives a sixteenth"
        );
        assert_eq!(debt.owed(later(16), R), 1);
        assert_eq!(debt.owed(later(20), R), 0);
        // A charge adds to what is left, not to what was.
        debt.charge(5, later(20), R);
        assert_eq!(debt.owed(later(20), R), 5);
    }
}
