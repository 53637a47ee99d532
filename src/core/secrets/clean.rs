//! Texts known to hold no likely secret, remembered across builds: a warm
//! build of an unchanged project scans nothing again. The scan is the
//! largest cost of a build after reading the files (an Aho-Corasick pass
//! over every byte, a regex, a look at every line's width), and almost
//! every file passes it.
//!
//! Only clean texts are remembered, by the first 16 bytes of their
//! SHA-256 (a text that matched anything is scanned again every time, so
//! its findings are always the scan's own). The set is one entry of the
//! project's disk cache, sealed under the user's key like every entry (a
//! set planted in a cloned `.ctxcurate/` is not believed), and keyed by
//! the rule file and the scanner's version: new rules or a new scanner
//! start from nothing.

use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::RuleSet;
use crate::core::sources::Sources;
use crate::core::store;

/// A text's name in the set.
pub type TextId = [u8; 16];

/// Bumped whenever the scan finds something it did not before (new
/// logic besides the rule file), so older sets are not trusted.
const SCAN_LOGIC: &[u8] = b"scan 13";

/// The disk cache's bucket of the sets.
const BUCKET: &str = "scan-passed";

/// At most this many texts are remembered (16 MB); past it the set
/// starts again from this build's texts.
const MAX_TEXTS: usize = 1 << 20;

/// The clean texts of one project under one rule set.
pub struct CleanTexts {
    /// The set as loaded, sorted.
    known: Vec<TextId>,
    /// Where the ids starting with each two-byte prefix begin in `known`
    /// (and one past the last): a lookup reads two places of memory, not
    /// the twenty a binary search of a set larger than the CPU's caches
    /// misses on (ids are hashes, spread evenly).
    starts: Vec<u32>,
    /// Texts found clean during this run, not in `known`.
    found: Mutex<Vec<TextId>>,
    key: [u8; 32],
}

impl CleanTexts {
    /// The set remembered for `rules` in `sources`' disk cache (empty
    /// when there is none, or it is damaged).
    pub fn load(sources: &Sources, rules: &RuleSet) -> CleanTexts {
        let key = store::disk::key(&[
            SCAN_LOGIC,
            env!("CARGO_PKG_VERSION").as_bytes(),
            &rules.fingerprint,
        ]);
        let known = sources
            .stored(BUCKET, &key)
            .map(|bytes| decode(&bytes))
            .unwrap_or_default();
        let starts = prefix_starts(&known);
        CleanTexts {
            known,
            starts,
            found: Mutex::new(Vec::new()),
            key,
        }
    }

    /// The name of `text` in the set.
    pub fn id(text: &str) -> TextId {
        Self::id_as(text, "")
    }

    /// The name of `text` as the text of a file of `kind` (the rules only
    /// such files run, [`RuleSet::file_kind`]; empty for most files: then
    /// it is [`CleanTexts::id`]). The same text in an `.ini` and in a
    /// `.py` is scanned by different rules, so it is two names.
    pub fn id_as(text: &str, kind: &str) -> TextId {
        let mut hasher = Sha256::new();
        if !kind.is_empty() {
            hasher.update(kind.as_bytes());
            hasher.update([0]);
        }
        hasher.update(text.as_bytes());
        let hash = hasher.finalize();
        let mut id = [0; 16];
        id.copy_from_slice(&hash[..16]);
        id
    }

    /// Whether the text named `id` was found clean before.
    pub fn is_clean(&self, id: &TextId) -> bool {
        let prefix = usize::from(u16::from_be_bytes([id[0], id[1]]));
        let (Some(&from), Some(&to)) = (self.starts.get(prefix), self.starts.get(prefix + 1))
        else {
            return false;
        };
        self.known
            .get(from as usize..to as usize)
            .is_some_and(|ids| ids.contains(id))
    }

    /// Remember that the text named `id` holds nothing.
    pub fn remember(&self, id: TextId) {
        self.found
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(id);
    }

    /// Keep the set for the next build, when this one found new texts.
    pub fn save(self, sources: &Sources) {
        let found = self.found.into_inner().unwrap_or_else(|e| e.into_inner());
        if found.is_empty() {
            return;
        }
        let mut all = if self.known.len() + found.len() > MAX_TEXTS {
            Vec::new()
        } else {
            self.known
        };
        all.extend(found);
        all.sort_unstable();
        all.dedup();
        all.truncate(MAX_TEXTS);
        sources.store_loose(BUCKET, &self.key, all.as_flattened());
    }
}

/// For each two-byte prefix, where its ids begin in the sorted `ids`,
/// and the end last (65,537 entries; empty for no ids).
fn prefix_starts(ids: &[TextId]) -> Vec<u32> {
    if ids.is_empty() {
        return Vec::new();
    }
    let mut starts = Vec::with_capacity(1 << 16 | 1);
    let mut at = 0;
    for prefix in 0..=u16::MAX {
        while ids
            .get(at)
            .is_some_and(|id| u16::from_be_bytes([id[0], id[1]]) < prefix)
        {
            at += 1;
        }
        starts.push(at as u32);
    }
    starts.push(ids.len() as u32);
    starts
}

/// The sorted ids of a stored set; nothing from bytes that are not one.
fn decode(bytes: &[u8]) -> Vec<TextId> {
    let (ids, rest) = bytes.as_chunks::<16>();
    if !rest.is_empty() || ids.len() > MAX_TEXTS || !ids.is_sorted() {
        return Vec::new();
    }
    ids.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::store::DiskCache;

    fn sources(dir: &std::path::Path) -> Sources {
        Sources::with_disk(DiskCache::at(&dir.join("cache")))
    }

    #[test]
    fn clean_texts_are_remembered_across_runs_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let rules = RuleSet::compile_builtin();
        let first = CleanTexts::load(&sources(dir.path()), &rules);
        let a = CleanTexts::id("print('hello')\n");
        let b = CleanTexts::id("x = 1\n");
        assert!(!first.is_clean(&a));
        first.remember(a);
        first.save(&sources(dir.path()));
        let second = CleanTexts::load(&sources(dir.path()), &rules);
        assert!(second.is_clean(&a));
        assert!(!second.is_clean(&b));
        second.remember(b);
        second.save(&sources(dir.path()));
        let third = CleanTexts::load(&sources(dir.path()), &rules);
        assert!(third.is_clean(&a) && third.is_clean(&b));
    }

    /// A text is named apart as the text of a file that more rules read.
    #[test]
    fn a_file_kind_names_a_text_apart() {
        let text = "[db]\n  password = Tq8-Lw3-Zx5-Rb\n";
        assert_eq!(CleanTexts::id_as(text, ""), CleanTexts::id(text));
        assert_ne!(
            CleanTexts::id_as(text, "ini-indented-value"),
            CleanTexts::id(text)
        );
    }

    #[test]
    fn other_rules_start_from_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let rules = RuleSet::compile_builtin();
        let set = CleanTexts::load(&sources(dir.path()), &rules);
        let a = CleanTexts::id("print('hello')\n");
        set.remember(a);
        set.save(&sources(dir.path()));
        let mut other = RuleSet::compile_builtin();
        other.fingerprint[0] ^= 1;
        assert!(!CleanTexts::load(&sources(dir.path()), &other).is_clean(&a));
    }

    #[test]
    fn lookups_find_every_id_and_nothing_else() {
        let ids: Vec<TextId> = (0..5000u32)
            .map(|i| CleanTexts::id(&i.to_string()))
            .collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        let set = CleanTexts {
            starts: prefix_starts(&sorted),
            known: sorted,
            found: Mutex::new(Vec::new()),
            key: [0; 32],
        };
        assert!(ids.iter().all(|id| set.is_clean(id)));
        assert!((5000..10_000u32).all(|i| !set.is_clean(&CleanTexts::id(&i.to_string()))));
        let edges = [[0u8; 16], [0xff; 16]];
        assert!(edges.iter().all(|id| !set.is_clean(id)));
        let set = CleanTexts {
            starts: prefix_starts(&edges),
            known: edges.to_vec(),
            found: Mutex::new(Vec::new()),
            key: [0; 32],
        };
        assert!(edges.iter().all(|id| set.is_clean(id)));
    }

    #[test]
    fn a_damaged_set_is_not_believed() {
        assert!(decode(&[1; 17]).is_empty());
        let unsorted = [[2u8; 16], [1u8; 16]].concat();
        assert!(decode(&unsorted).is_empty());
        let sorted = [[1u8; 16], [2u8; 16]].concat();
        assert_eq!(decode(&sorted).len(), 2);
    }
}
