//! The fuzzy file finder: every file of the project matched against what
//! the user types, ranked by nucleo (the matcher helix uses) on its own
//! worker threads. The UI thread only hands over the query and reads the
//! latest ranked snapshot, so a keystroke never waits for 100,000 paths
//! to be scored (`benches/finder.rs` measures it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use nucleo::pattern::{CaseMatching, Normalization};
use nucleo::{Config, Matcher, Nucleo, Utf32Str};

/// One ranked row: the path and the char positions the query matched
/// (for highlighting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub path: String,
    pub indices: Vec<u32>,
}

/// The finder over one list of paths.
pub struct Finder {
    nucleo: Nucleo<String>,
    query: String,
    /// The selected row among the matches.
    selected: usize,
    /// For highlighting the visible rows only (cheap: a few dozen); behind
    /// a lock so drawing, which only reads the state, can use it.
    matcher: Mutex<Matcher>,
    /// Set when `notify` has been called and no tick has taken the news
    /// yet: nucleo calls its callback on every injected path, and the app
    /// needs one wake-up, not 100,000.
    pending: Arc<AtomicBool>,
    /// The path to select again once a [`Finder::replace`]d list is ranked.
    reselect: Option<String>,
}

impl Finder {
    /// A finder over `paths`. `notify` is called (from a worker thread)
    /// when new results are ready, at most once between two ticks: the app
    /// wakes its loop and calls [`Finder::tick`].
    pub fn new(
        paths: impl IntoIterator<Item = String>,
        notify: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        let config = Config::DEFAULT.match_paths();
        let pending = Arc::new(AtomicBool::new(false));
        let flag = pending.clone();
        let once = Arc::new(move || {
            if !flag.swap(true, Ordering::AcqRel) {
                notify();
            }
        });
        // One core stays with the UI thread: a `tick` right after a new
        // query finds the matcher busy and spins with `sched_yield` before
        // giving up (parking_lot's `try_lock_for(0)`), and with every core
        // matching each yield can hand the core away for a time slice
        // (`benches/finder.rs` measures the UI thread's time per key).
        let threads =
            std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1));
        let nucleo = Nucleo::new(config.clone(), once, Some(threads), 1);
        let mut finder = Finder {
            nucleo,
            query: String::new(),
            selected: 0,
            matcher: Mutex::new(Matcher::new(config)),
            pending,
            reselect: None,
        };
        finder.extend(paths);
        finder
    }

    /// Add more paths (a batch of a walk still streaming in); the workers
    /// rank them at the next tick.
    pub fn extend(&mut self, paths: impl IntoIterator<Item = String>) {
        let injector = self.nucleo.injector();
        for path in paths {
            injector.push(path, |p, cols| cols[0] = p.as_str().into());
        }
    }

    /// Rank `paths` instead of the paths it had (files changed on disk
    /// while it is open): the query stays, and the selection goes back to
    /// its path once the workers have ranked the new list, when it is
    /// still listed (else it stays on the row where it was).
    pub fn replace(&mut self, paths: impl IntoIterator<Item = String>) {
        self.reselect = self.selected_path();
        self.nucleo.restart(true);
        self.extend(paths);
        self.tick(0);
    }

    /// What the user typed.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Replace the query (the workers re-rank in the background; a query
    /// that extends the last one only re-scores what still matched).
    pub fn set_query(&mut self, query: &str) {
        let append = query.starts_with(self.query.as_str());
        self.query = query.to_string();
        self.nucleo
            .pattern
            .reparse(0, query, CaseMatching::Smart, Normalization::Smart, append);
        self.selected = 0;
        self.reselect = None;
    }

    /// Type one character.
    pub fn push(&mut self, c: char) {
        let mut q = self.query.clone();
        q.push(c);
        self.set_query(&q);
    }

    /// Delete the last character.
    pub fn pop(&mut self) {
        let mut q = self.query.clone();
        q.pop();
        self.set_query(&q);
    }

    /// Take the workers' latest results without blocking for more than
    /// `wait_ms`; `true` while they are still ranking.
    pub fn tick(&mut self, wait_ms: u64) -> bool {
        self.pending.store(false, Ordering::Release);
        let status = self.nucleo.tick(wait_ms);
        if !status.running
            && let Some(path) = self.reselect.take()
        {
            self.select_path(&path);
        }
        let count = self.matched();
        if self.selected >= count {
            self.selected = count.saturating_sub(1);
        }
        status.running
    }

    /// Select `path` when it is among the first matches (a list a person
    /// scrolls; past them the selection stays where it is).
    fn select_path(&mut self, path: &str) {
        let snapshot = self.nucleo.snapshot();
        let found = (0..snapshot.matched_item_count().min(10_000)).find(|&i| {
            snapshot
                .get_matched_item(i)
                .is_some_and(|it| it.data == path)
        });
        if let Some(i) = found {
            self.selected = i as usize;
        }
    }

    /// How many paths match the query (all of them for an empty query).
    pub fn matched(&self) -> usize {
        self.nucleo.snapshot().matched_item_count() as usize
    }

    /// How many paths there are.
    pub fn total(&self) -> usize {
        self.nucleo.snapshot().item_count() as usize
    }

    /// The selected row.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Move the selection by `delta` rows, within the matches.
    pub fn move_selection(&mut self, delta: isize) {
        let last = self.matched().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    /// The selected path.
    pub fn selected_path(&self) -> Option<String> {
        let snapshot = self.nucleo.snapshot();
        let n = u32::try_from(self.selected).ok()?;
        snapshot.get_matched_item(n).map(|item| item.data.clone())
    }

    /// Up to `rows` ranked hits starting at `from`, best first.
    pub fn hits(&self, from: usize, rows: usize) -> Vec<Hit> {
        let snapshot = self.nucleo.snapshot();
        let count = snapshot.matched_item_count();
        let start = u32::try_from(from).unwrap_or(u32::MAX).min(count);
        let end = u32::try_from(from.saturating_add(rows))
            .unwrap_or(u32::MAX)
            .min(count);
        let pattern = snapshot.pattern().column_pattern(0);
        let mut buf = Vec::new();
        let mut matcher = self
            .matcher
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        snapshot
            .matched_items(start..end)
            .map(|item| {
                let mut indices = Vec::new();
                pattern.indices(
                    Utf32Str::new(item.data, &mut buf),
                    &mut matcher,
                    &mut indices,
                );
                indices.sort_unstable();
                indices.dedup();
                Hit {
                    path: item.data.clone(),
                    indices,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finder(paths: &[&str]) -> Finder {
        let mut f = Finder::new(paths.iter().map(|p| p.to_string()), Arc::new(|| {}));
        while f.tick(50) {}
        f
    }

    fn settle(f: &mut Finder) {
        while f.tick(50) {}
    }

    const PATHS: &[&str] = &[
        "src/pip/_internal/req/req_install.py",
        "src/pip/_internal/req/req_file.py",
        "src/pip/_internal/req/__init__.py",
        "src/pip/_internal/operations/install/wheel.py",
        "src/pip/_internal/commands/install.py",
        "tests/unit/test_req.py",
        "README.md",
    ];

    #[test]
    fn replaced_paths_are_ranked_with_the_query_and_selection_kept() {
        let mut f = finder(&["src/app.py", "src/apple.py", "src/gone_app.py", "README.md"]);
        f.set_query("app");
        settle(&mut f);
        let pick = "src/apple.py";
        while f.selected_path().as_deref() != Some(pick) {
            f.move_selection(1);
        }
        f.replace(
            ["src/app.py", "src/apple.py", "src/new_app.py", "README.md"]
                .iter()
                .map(|s| s.to_string()),
        );
        settle(&mut f);
        assert_eq!(f.query(), "app");
        assert_eq!(f.total(), 4);
        let listed: Vec<String> = f.hits(0, 10).into_iter().map(|h| h.path).collect();
        assert!(listed.contains(&"src/new_app.py".to_string()), "{listed:?}");
        assert!(
            !listed.contains(&"src/gone_app.py".to_string()),
            "{listed:?}"
        );
        assert_eq!(f.selected_path().as_deref(), Some(pick));
    }

    #[test]
    fn an_empty_query_lists_every_file() {
        let f = finder(PATHS);
        assert_eq!(f.total(), PATHS.len());
        assert_eq!(f.matched(), PATHS.len());
        assert_eq!(f.hits(0, 100).len(), PATHS.len());
    }

    #[test]
    fn typing_narrows_and_ranks_the_best_match_first() {
        let mut f = finder(PATHS);
        for c in "reqinst".chars() {
            f.push(c);
        }
        settle(&mut f);
        let hits = f.hits(0, 10);
        assert_eq!(
            hits[0].path, "src/pip/_internal/req/req_install.py",
            "{hits:?}"
        );
        assert!(hits.len() < PATHS.len(), "{hits:?}");
        assert_eq!(hits[0].indices.len(), "reqinst".len());
        assert_eq!(f.selected_path().as_deref(), Some(hits[0].path.as_str()));
        // Back to a shorter query: more match again.
        for _ in 0.."inst".len() {
            f.pop();
        }
        settle(&mut f);
        assert!(f.matched() > hits.len(), "{}", f.matched());
    }

    #[test]
    fn the_selection_stays_within_the_matches() {
        let mut f = finder(PATHS);
        f.move_selection(-5);
        assert_eq!(f.selected(), 0);
        f.move_selection(100);
        assert_eq!(f.selected(), PATHS.len() - 1);
        f.set_query("zzzzzz");
        settle(&mut f);
        assert_eq!(f.matched(), 0);
        assert_eq!(f.selected_path(), None);
        assert!(f.hits(0, 10).is_empty());
        assert!(f.hits(usize::MAX, usize::MAX).is_empty());
    }

    #[test]
    fn injecting_many_paths_wakes_the_app_once_per_tick() {
        use std::sync::atomic::AtomicUsize;
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = calls.clone();
        let notify = Arc::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        let mut f = Finder::new((0..10_000).map(|i| format!("f{i}.py")), notify);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        settle(&mut f);
        assert_eq!(f.total(), 10_000);
        // After a tick, a new batch wakes it again (once).
        f.extend((0..1000).map(|i| format!("g{i}.py")));
        assert!(calls.load(Ordering::SeqCst) <= 3, "{calls:?}");
        settle(&mut f);
        assert_eq!(f.total(), 11_000);
    }

    #[test]
    fn odd_names_and_queries_are_no_panic() {
        let mut f = finder(&["a b/ç.py", "日本/語.c", "", "x\ny", "\u{202e}evil"]);
        for q in ["", " ", "語", "\\", "^$", "!x", "'", "a b", "\u{0}"] {
            f.set_query(q);
            settle(&mut f);
            let _ = f.hits(0, 10);
        }
    }
}
