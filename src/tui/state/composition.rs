//! The composition and the budget gauge: the last composition, the token
//! count known per file block, and the gauge's sum over the included
//! files — kept between edits and patched where an edit or a count
//! touched a few paths, so a keypress costs the same at 100,000 files as
//! at 100.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::core::compose::ComposeOptions;
use crate::core::sources::render_key;
use crate::core::walk::ResolvedItem;

use super::model::Composed;
use super::walked::Walk;

/// What the budget gauge shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gauge {
    pub used: usize,
    /// Files whose count is still being computed.
    pub pending: usize,
    /// `used` is the exact count of the current composition.
    pub exact: bool,
    /// How far the worker's composition has come while it runs (phase,
    /// done, total), so a first count over a huge tree shows it moving.
    pub work: Option<(&'static str, usize, usize)>,
}

/// The composition and the budget gauge: the last composition, the
/// counts known per file, and the gauge's sum over them.
#[derive(Debug, Default)]
pub struct Composition {
    pub composed: Option<Composed>,
    /// Generation of the newest compose request.
    pub generation: u64,
    /// Per file, the render key its count is for and the count (a fast
    /// hash: the gauge looks every included file up on every edit).
    pub block_tokens: FxHashMap<String, (String, usize)>,
    /// The gauge's sum over the included files, patched through small
    /// edits (see [`Composition::refresh_gauge`]); `None`: summed anew
    /// next time.
    sum: Option<GaugeSum>,
    /// Tokens of the composition outside the file blocks (headings,
    /// joins, other sections), from the last exact count.
    pub overhead: i64,
    pub gauge: Gauge,
}

/// The gauge's sum over the included files under `opts`: the counts
/// known for their current form, and the files without one (by path).
#[derive(Debug)]
struct GaugeSum {
    opts: ComposeOptions,
    sum: usize,
    missing: BTreeMap<String, ResolvedItem>,
}

impl Composition {
    /// Update the gauge from the cached counts; returns the included files
    /// with no count for their current form. The sum is summed anew after
    /// a full resolution, a composition's counts or a change of `opts`.
    pub fn refresh_gauge(&mut self, walk: &Walk, opts: ComposeOptions) -> Vec<ResolvedItem> {
        if self.sum.as_ref().is_none_or(|g| g.opts != opts) {
            self.sum = Some(self.sum_gauge(walk, opts));
        }
        let Some(g) = &self.sum else {
            return Vec::new();
        };
        let (sum, missing) = (g.sum, g.missing.values().cloned().collect::<Vec<_>>());
        let current = self
            .composed
            .as_ref()
            .filter(|c| c.generation == self.generation && c.exact && missing.is_empty());
        let work = self.gauge.work;
        self.gauge = match current {
            Some(c) => Gauge {
                used: c.total_tokens,
                pending: 0,
                exact: true,
                work,
            },
            None => Gauge {
                used: usize::try_from((sum as i64 + self.overhead).max(0)).unwrap_or(0),
                pending: missing.len(),
                exact: false,
                work,
            },
        };
        missing
    }

    /// The kept sum no longer holds (a full resolution): sum anew next time.
    pub fn forget_sum(&mut self) {
        self.sum = None;
    }

    /// The sum over every included file (see [`Composition::refresh_gauge`]).
    fn sum_gauge(&self, walk: &Walk, opts: ComposeOptions) -> GaugeSum {
        let mut g = GaugeSum {
            opts,
            sum: 0,
            missing: BTreeMap::new(),
        };
        // Every file of one entry renders with the same key.
        let mut keys: Vec<Option<String>> = Vec::new();
        for r in walk.resolved.iter().filter(|r| r.settings.auto_aggregate) {
            if keys.len() <= r.entry && r.entry != usize::MAX {
                keys.resize(r.entry + 1, None);
            }
            let fresh;
            let key = match keys.get_mut(r.entry) {
                Some(slot) => &*slot.get_or_insert_with(|| {
                    render_key(&r.settings, g.opts.mode_at(&r.path, &r.settings))
                }),
                None => {
                    fresh = render_key(&r.settings, g.opts.mode_at(&r.path, &r.settings));
                    &fresh
                }
            };
            match self.block_tokens.get(&r.path) {
                Some((k, n)) if k == key => g.sum += n,
                _ => {
                    g.missing.insert(r.path.clone(), r.clone());
                }
            }
        }
        g
    }

    /// What `r` adds to the gauge's sum: `None` when it is not rendered,
    /// `Some(None)` when its current form has no count yet.
    fn gauge_share(&self, opts: &ComposeOptions, r: &ResolvedItem) -> Option<Option<usize>> {
        if !r.settings.auto_aggregate {
            return None;
        }
        let key = render_key(&r.settings, opts.mode_at(&r.path, &r.settings));
        Some(match self.block_tokens.get(&r.path) {
            Some((k, n)) if *k == key => Some(*n),
            _ => None,
        })
    }

    /// Take `r`'s share out of (`add == false`) or into the kept sum.
    fn move_share(&mut self, r: &ResolvedItem, add: bool) {
        let Some(mut g) = self.sum.take() else {
            return;
        };
        match self.gauge_share(&g.opts, r) {
            None => {}
            Some(Some(n)) if add => g.sum += n,
            Some(Some(n)) => g.sum = g.sum.saturating_sub(n),
            Some(None) if add => {
                g.missing.insert(r.path.clone(), r.clone());
            }
            Some(None) => {
                g.missing.remove(&r.path);
            }
        }
        self.sum = Some(g);
    }

    /// The resolution was patched at `touched` (each with its item
    /// before): move those files' shares.
    pub fn patch_sum(&mut self, walk: &Walk, touched: Vec<(String, Option<ResolvedItem>)>) {
        if self.sum.is_none() {
            return;
        }
        for (path, before) in touched {
            if let Some(before) = before {
                self.move_share(&before, false);
            }
            if let Some(now) = walk.resolved_for(&path) {
                self.move_share(now, true);
            }
        }
    }

    /// `Err` with both sums when the kept sum differs from one made anew
    /// (for tests: a patch that missed a path shows here).
    pub fn verify_sum(&self, walk: &Walk) -> Result<(), String> {
        let Some(kept) = &self.sum else {
            return Ok(());
        };
        let fresh = self.sum_gauge(walk, kept.opts.clone());
        let paths = |g: &GaugeSum| g.missing.keys().cloned().collect::<Vec<_>>();
        if fresh.sum == kept.sum && paths(&fresh) == paths(kept) {
            Ok(())
        } else {
            Err(format!(
                "kept sum {} (missing {:?}), anew {} (missing {:?})",
                kept.sum,
                paths(kept),
                fresh.sum,
                paths(&fresh)
            ))
        }
    }

    /// Take in the count of one file's block (the worker counted it).
    pub fn learn_count(&mut self, walk: &Walk, path: String, key: String, n: usize) {
        let included = walk.resolved_for(&path);
        if let Some(r) = included {
            self.move_share(r, false);
        }
        self.block_tokens.insert(path, (key, n));
        if let Some(r) = included {
            self.move_share(r, true);
        }
    }

    /// Take in a composition's per-file counts.
    pub fn learn_counts(&mut self, composed: &Composed) {
        self.sum = None;
        let mut sum = 0i64;
        for f in &composed.files {
            sum += f.tokens as i64;
            self.block_tokens
                .insert(f.path.clone(), (f.key.clone(), f.tokens));
        }
        if composed.exact {
            self.overhead = composed.total_tokens as i64 - sum;
        }
    }
}
