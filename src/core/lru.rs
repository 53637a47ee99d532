//! A map bounded by bytes that forgets the least recently used entries
//! first: the in-memory caches of a long TUI session stay under their
//! bound however many files and views pass through them.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// Entries with a size in bytes, at most `capacity` bytes in all. An entry
/// larger than the whole capacity is not kept.
#[derive(Debug)]
pub struct Lru<K, V> {
    capacity: usize,
    bytes: usize,
    /// Bumped on every use; the entry's last use orders eviction.
    clock: u64,
    entries: HashMap<K, Entry<V>>,
    by_use: BTreeMap<u64, K>,
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
            by_use: BTreeMap::new(),
            evicted: 0,
        }
    }

    /// The value under `key`, now the most recently used.
    pub fn get(&mut self, key: &K) -> Option<V> {
        self.clock += 1;
        let entry = self.entries.get_mut(key)?;
        self.by_use.remove(&entry.used);
        entry.used = self.clock;
        self.by_use.insert(self.clock, key.clone());
        Some(entry.value.clone())
    }

    /// Keep `value` (of `bytes` bytes) under `key`, forgetting the least
    /// recently used entries until everything fits.
    pub fn insert(&mut self, key: K, value: V, bytes: usize) {
        self.remove(&key);
        if bytes > self.capacity {
            self.evicted += 1;
            return;
        }
        while self.bytes + bytes > self.capacity {
            let Some((_, oldest)) = self.by_use.pop_first() else {
                break;
            };
            if let Some(old) = self.entries.remove(&oldest) {
                self.bytes -= old.bytes;
                self.evicted += 1;
            }
        }
        self.clock += 1;
        self.bytes += bytes;
        self.by_use.insert(self.clock, key.clone());
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
        while self.bytes > self.capacity {
            let Some((_, oldest)) = self.by_use.pop_first() else {
                break;
            };
            if let Some(old) = self.entries.remove(&oldest) {
                self.bytes -= old.bytes;
                self.evicted += 1;
            }
        }
    }

    /// Forget `key`.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let old = self.entries.remove(key)?;
        self.by_use.remove(&old.used);
        self.bytes -= old.bytes;
        Some(old.value)
    }

    /// Forget everything (the counts of what was evicted stay).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.by_use.clear();
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
