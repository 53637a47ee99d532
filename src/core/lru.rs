//! A map bounded by bytes that forgets the least recently used entries
//! first: the in-memory caches of a long TUI session stay under their
//! bound however many files and views pass through them.
//!
//! A lookup only stamps its entry with a clock (no reordering), so the
//! hot path costs a hash lookup; when an insert would pass the bound, the
//! least recently used entries go in one batch, down to 7/8 of it, so the
//! sorting that takes is paid once per many inserts.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

/// Entries with a size in bytes, at most `capacity` bytes in all. An entry
/// larger than the whole capacity is not kept.
#[derive(Debug)]
pub struct Lru<K, V> {
    capacity: usize,
    bytes: usize,
    /// Bumped on every use; an entry's last use orders eviction.
    clock: u64,
    entries: HashMap<K, Entry<V>>,
    evicted: u64,
}

#[derive(Debug)]
struct Entry<V> {
    value: V,
    bytes: usize,
    used: u64,
}

/// What a bounded map holds and has let go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LruStats {
    pub entries: usize,
    pub bytes: usize,
    pub capacity: usize,
    pub evicted: u64,
}

impl<K: Hash + Eq + Clone, V: Clone> Default for Lru<K, V> {
    /// No bound until [`Lru::set_capacity`] sets one.
    fn default() -> Self {
        Lru::new(usize::MAX)
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    /// An empty map that holds at most `capacity` bytes.
    pub fn new(capacity: usize) -> Self {
        Lru {
            capacity,
            bytes: 0,
            clock: 0,
            entries: HashMap::new(),
            evicted: 0,
        }
    }

    /// The value under `key`, now the most recently used.
    pub fn get<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.clock += 1;
        let entry = self.entries.get_mut(key)?;
        entry.used = self.clock;
        Some(entry.value.clone())
    }

    /// Keep `value` (of `bytes` bytes) under `key`, forgetting the least
    /// recently used entries first when everything would not fit.
    pub fn insert(&mut self, key: K, value: V, bytes: usize) {
        self.remove(&key);
        if bytes > self.capacity {
            self.evicted += 1;
            return;
        }
        if self.bytes + bytes > self.capacity {
            // Down to 7/8 of the bound with the new entry, in one batch.
            let keep = (self.capacity - self.capacity / 8).saturating_sub(bytes);
            self.evict_down_to(keep);
        }
        self.clock += 1;
        self.bytes += bytes;
        self.entries.insert(
            key,
            Entry {
                value,
                bytes,
                used: self.clock,
            },
        );
    }

    /// Hold at most `capacity` bytes from now on, forgetting the least
    /// recently used entries until everything fits.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        if self.bytes > capacity {
            self.evict_down_to(capacity);
        }
    }

    /// Forget the least recently used entries until at most `keep` bytes
    /// are held.
    fn evict_down_to(&mut self, keep: usize) {
        let mut by_use: Vec<(u64, K)> = self
            .entries
            .iter()
            .map(|(k, e)| (e.used, k.clone()))
            .collect();
        by_use.sort_unstable_by_key(|(used, _)| *used);
        for (_, key) in by_use {
            if self.bytes <= keep {
                break;
            }
            if let Some(old) = self.entries.remove(&key) {
                self.bytes -= old.bytes;
                self.evicted += 1;
            }
        }
    }

    /// Count `key`'s entry, if `is_it` takes its value, as `bytes` from
    /// now on (what it holds grew after it was put in, e.g. a file's
    /// symbol tree parsed later), forgetting the least recently used
    /// entries first when everything would not fit.
    pub fn reweigh<Q>(&mut self, key: &Q, bytes: usize, is_it: impl FnOnce(&V) -> bool)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Some(entry) = self.entries.get_mut(key).filter(|e| is_it(&e.value)) else {
            return;
        };
        let old = std::mem::replace(&mut entry.bytes, bytes);
        self.bytes = self.bytes - old + bytes;
        if bytes > self.capacity {
            self.remove(key);
            self.evicted += 1;
        } else if self.bytes > self.capacity {
            self.evict_down_to(self.capacity - self.capacity / 8);
        }
    }

    /// Forget `key`.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let old = self.entries.remove(key)?;
        self.bytes -= old.bytes;
        Some(old.value)
    }

    /// Forget everything (the counts of what was evicted stay).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn stats(&self) -> LruStats {
        LruStats {
            entries: self.entries.len(),
            bytes: self.bytes,
            capacity: self.capacity,
            evicted: self.evicted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_go_first() {
        let mut lru = Lru::new(10);
        lru.insert("a", 1, 4);
        lru.insert("b", 2, 4);
        assert_eq!(lru.get(&"a"), Some(1)); // a is now newer than b
        lru.insert("c", 3, 4); // 12 > 10: b goes
        assert_eq!(lru.get(&"b"), None);
        assert_eq!(lru.get(&"a"), Some(1));
        assert_eq!(lru.get(&"c"), Some(3));
        assert_eq!(
            lru.stats(),
            LruStats {
                entries: 2,
                bytes: 8,
                capacity: 10,
                evicted: 1
            }
        );
    }

    #[test]
    fn replacing_and_oversized_entries() {
        let mut lru = Lru::new(10);
        lru.insert("a", 1, 6);
        lru.insert("a", 2, 3); // replaced: 3 bytes, not 9
        assert_eq!(lru.stats().bytes, 3);
        assert_eq!(lru.get(&"a"), Some(2));
        lru.insert("huge", 9, 11); // larger than everything: not kept
        assert_eq!(lru.get(&"huge"), None);
        assert_eq!(lru.get(&"a"), Some(2));
        assert_eq!(lru.remove(&"a"), Some(2));
        assert!(lru.is_empty());
        assert_eq!(lru.stats().bytes, 0);
    }

    /// An entry that grew after it was put in counts as its new size,
    /// and the bound holds with it (F17-6: a file's symbol tree).
    #[test]
    fn a_reweighed_entry_counts_and_evicts() {
        let mut lru = Lru::new(100);
        lru.insert("a", 1, 10);
        lru.insert("b", 2, 10);
        lru.insert("c", 3, 10);
        lru.reweigh(&"b", 10, |v| *v == 99); // not the value asked about
        assert_eq!(lru.stats().bytes, 30);
        assert_eq!(lru.get(&"c"), Some(3));
        lru.reweigh(&"c", 80, |v| *v == 3);
        // 100 bytes: at the bound, all kept.
        assert_eq!(lru.stats().bytes, 100);
        lru.get(&"b");
        lru.reweigh(&"b", 30, |_| true); // 120: the oldest (a) goes
        assert!(lru.stats().bytes <= 100);
        assert_eq!(lru.get(&"a"), None);
        lru.reweigh(&"b", 101, |_| true); // larger than everything
        assert_eq!(lru.get(&"b"), None);
        assert!(lru.stats().bytes <= 100, "{:?}", lru.stats());
        lru.reweigh(&"gone", 5, |_| true);
        assert!(lru.stats().bytes <= 100);
    }

    /// However many entries pass through, the bound holds and the most
    /// recent ones are there.
    #[test]
    fn the_bound_holds_under_churn() {
        let mut lru = Lru::new(1_000);
        for i in 0..10_000usize {
            lru.insert(i, i, 1 + i % 37);
            assert!(lru.stats().bytes <= 1_000);
        }
        assert_eq!(lru.get(&9_999), Some(9_999));
        assert!(lru.len() < 200, "{}", lru.len());
        lru.clear();
        assert_eq!(lru.stats().bytes, 0);
    }
}
