//! A build's phases timed and its memory read, for the benchmarks: with
//! `CTXCURATE_PROFILE=1` set, each phase prints one line to stderr (time
//! since the build started, resident and peak memory); otherwise nothing
//! is measured. How the numbers of issue 28 were found
//! (`benches/peers.sh`).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Whether profiling is on (read once).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("CTXCURATE_PROFILE").is_some_and(|v| v != "0"))
}

/// The phases of one build.
pub struct Phases {
    start: Instant,
}

impl Phases {
    pub fn start() -> Phases {
        Phases {
            start: Instant::now(),
        }
    }

    /// Print `label` with the time since the start and the memory now.
    pub fn mark(&self, label: &str) {
        if !enabled() {
            return;
        }
        let (rss, peak) = memory_mb();
        eprintln!(
            "profile: {label:<22} {:>7.3} s  rss {rss:>4} MB  peak {peak:>4} MB",
            self.start.elapsed().as_secs_f64()
        );
    }
}

/// Time summed over many spans, from any thread.
#[derive(Default)]
pub struct Total(AtomicU64);

impl Total {
    /// Run `f`, adding its wall time when profiling.
    pub fn time<T>(&self, f: impl FnOnce() -> T) -> T {
        if !enabled() {
            return f();
        }
        let t = Instant::now();
        let out = f();
        let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.0.fetch_add(ns, Ordering::Relaxed);
        out
    }

    pub fn get(&self) -> Duration {
        Duration::from_nanos(self.0.load(Ordering::Relaxed))
    }
}

/// Print named totals on one line.
pub fn totals(label: &str, parts: &[(&str, &Total)]) {
    if !enabled() {
        return;
    }
    let parts: Vec<String> = parts
        .iter()
        .map(|(name, t)| format!("{name} {:.3} s", t.get().as_secs_f64()))
        .collect();
    eprintln!("profile: {label}: {}", parts.join(", "));
}

/// Resident and peak resident memory in MB (`/proc/self/status`; zeros
/// where there is none).
fn memory_mb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
