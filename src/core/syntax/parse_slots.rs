//! At most one parse per core at a time in the whole process, whichever
//! front end or request asks: sixteen MCP calls that each parse a
//! malformed megabyte wait their turn instead of holding sixteen trees at
//! once (1.26 GB, where two at a time stay within a parse's own bound).
//!
//! A slot spans a file's whole extraction (the parses and the walk of the
//! tree, until the tree is dropped); the wait comes before the file's
//! deadline starts, so a file that waited is not stopped sooner. Slots are
//! leaves: nothing done while holding one waits on another parse, and a
//! thread that already holds one takes no second (so a nested step cannot
//! wait on itself).

use std::cell::Cell;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};

/// The slots: how many are free, and the wait for one.
struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

/// One slot a core: a build's parses run on the worker pool, one per
/// core, so a single build never waits; only requests beside it do.
fn slots() -> &'static Slots {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    SLOTS.get_or_init(|| Slots {
        free: Mutex::new(cores()),
        freed: Condvar::new(),
    })
}

fn cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .max(rayon::current_num_threads())
        .max(1)
}

thread_local! {
    /// How many slots this thread holds (0 or 1; nested takes are free).
    static HELD: Cell<usize> = const { Cell::new(0) };
}

/// A held slot; dropping it frees the slot.
pub(super) struct Slot {
    /// Whether this guard took a slot (false when nested in another).
    owns: bool,
}

/// Wait for a free slot and take it (at once when this thread already
/// holds one).
pub(super) fn take() -> Slot {
    if HELD.with(Cell::get) > 0 {
        HELD.with(|h| h.set(h.get() + 1));
        return Slot { owns: false };
    }
    let slots = slots();
    // A panic while the count was held cannot leave it wrong (it is
    // only ever changed by one step), so a poisoned lock is taken as is.
    let mut free = slots.free.lock().unwrap_or_else(PoisonError::into_inner);
    while *free == 0 {
        free = slots
            .freed
            .wait(free)
            .unwrap_or_else(PoisonError::into_inner);
    }
    *free -= 1;
    HELD.with(|h| h.set(1));
    Slot { owns: true }
}

impl Drop for Slot {
    fn drop(&mut self) {
        HELD.with(|h| h.set(h.get().saturating_sub(1)));
        if !self.owns {
            return;
        }
        let slots = slots();
        let mut free = slots.free.lock().unwrap_or_else(PoisonError::into_inner);
        *free += 1;
        slots.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn no_more_threads_hold_a_slot_than_there_are_slots() {
        let limit = cores();
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..limit * 4 + 2)
            .map(|_| {
                let (inside, most) = (inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _slot = take();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("a slot thread panicked");
        }
        let most = most.load(Ordering::SeqCst);
        assert!(most >= 1 && most <= limit, "{most} at once, {limit} slots");
    }

    #[test]
    fn a_thread_holding_a_slot_takes_a_nested_one_without_waiting() {
        // With one slot a core, a nested take that waited would wait
        // for itself on a one-core machine: it must not take another.
        let outer = take();
        let inner = take();
        assert!(!inner.owns);
        drop(inner);
        assert_eq!(HELD.with(Cell::get), 1);
        drop(outer);
        assert_eq!(HELD.with(Cell::get), 0);
    }
}
