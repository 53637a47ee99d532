//! What stopped or slow parses have cost the process lately. Each file's
//! parse has its own deadline, so a checkout of a dozen malformed megabyte
//! files cost a dozen deadlines (`map` over twelve 1 MB Lua files: 69 s
//! of CPU, recheck 14 F4), and files that each finish just under theirs
//! as much (24 malformed 75 KB Lua files: 59 s, recheck 15 F1). Past an
//! allowance of CPU spent on parses that were stopped anyway or read
//! slower than 256 KiB a second (two deadlines), later parses get a
//! tenth of their deadline or less (what reading at a megabyte a second
//! takes, at least 50 ms); the allowance comes back with time (a
//! tenth of a second each second), so a long-lived TUI or MCP server is
//! not slowed for good by one hostile request. Well-formed code parses
//! far within a tenth of its deadline.

#[cfg(not(test))]
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much of the debt is forgiven per second of the clock.
const FORGIVEN_PER_SECOND: f64 = 0.1;

/// How many base deadlines ([`super::lang::parse_deadline`]) stopped
/// parses may cost before the rest are shortened.
const ALLOWANCE_DEADLINES: u32 = 2;

/// What a parse's deadline is divided by once the allowance is spent.
pub(super) const SHORTENED_BY: u32 = 10;

/// The CPU of stopped parses not yet forgiven, as it stood at `at`.
#[derive(Debug, Clone, Copy)]
struct Debt {
    owed: Duration,
    at: Option<Instant>,
}

impl Debt {
    const NONE: Debt = Debt {
        owed: Duration::ZERO,
        at: None,
    };

    /// The debt at `now`: what was owed, less what time forgave since.
    fn owed(&self, now: Instant) -> Duration {
        self.at.map_or(Duration::ZERO, |at| {
            let forgiven = now
                .saturating_duration_since(at)
                .mul_f64(FORGIVEN_PER_SECOND);
            self.owed.saturating_sub(forgiven)
        })
    }

    fn charge(&mut self, cpu: Duration, now: Instant) {
        *self = Debt {
            owed: self.owed(now).saturating_add(cpu),
            at: Some(now),
        };
    }

    fn over_allowance(&self, base: Duration, now: Instant) -> bool {
        self.owed(now) > base.saturating_mul(ALLOWANCE_DEADLINES)
    }
}

/// The process's debt.
#[cfg(not(test))]
static DEBT: Mutex<Debt> = Mutex::new(Debt::NONE);

#[cfg(test)]
thread_local! {
    /// In unit tests, each test thread's own debt: the tests run side by
    /// side in one process, and one test's hostile parses must not
    /// shorten another's well-formed ones (the process-wide allowance is
    /// tested through the binary, tests/integration/cli/parse_deadline.rs).
    static DEBT: std::cell::RefCell<Debt> = const { std::cell::RefCell::new(Debt::NONE) };
}

/// `f` of the debt: the process's, or in unit tests the thread's.
fn with_debt<R>(f: impl FnOnce(&mut Debt) -> R) -> R {
    #[cfg(not(test))]
    {
        f(&mut DEBT.lock().unwrap_or_else(PoisonError::into_inner))
    }
    #[cfg(test)]
    {
        DEBT.with_borrow_mut(f)
    }
}

/// Whether stopped parses have cost more than the allowance lately, for
/// deadlines of `base` (so later parses are shortened).
pub(super) fn over_allowance(base: Duration) -> bool {
    with_debt(|debt| debt.over_allowance(base, Instant::now()))
}

/// Add the CPU time `cpu` of a parse that was stopped.
pub(super) fn charge(cpu: Duration) {
    with_debt(|debt| debt.charge(cpu, Instant::now()));
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: Duration = Duration::from_secs(3);

    #[test]
    fn two_stopped_deadlines_are_allowed_and_more_shortens_what_follows() {
        let start = Instant::now();
        let mut debt = Debt::NONE;
        assert!(!debt.over_allowance(BASE, start));
        for _ in 0..2 {
            debt.charge(BASE, start);
        }
        assert!(!debt.over_allowance(BASE, start), "two are allowed");
        debt.charge(Duration::from_millis(10), start);
        assert!(debt.over_allowance(BASE, start));
    }

    #[test]
    fn a_debt_is_forgiven_with_time() {
        let start = Instant::now();
        let mut debt = Debt::NONE;
        debt.charge(Duration::from_secs(9), start);
        assert!(debt.over_allowance(BASE, start));
        let later = |s| start + Duration::from_secs(s);
        assert_eq!(debt.owed(later(30)), Duration::from_secs(6));
        assert!(!debt.over_allowance(BASE, later(30)), "back under in 30 s");
        assert_eq!(debt.owed(later(500)), Duration::ZERO);
        // A charge adds to what is left, not to what was.
        debt.charge(Duration::from_secs(1), later(30));
        assert_eq!(debt.owed(later(30)), Duration::from_secs(7));
    }
}
