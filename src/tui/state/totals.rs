//! The presets' token totals the picker shows, as the worker counted
//! them. A leaf the `state` holds.

use std::collections::HashMap;

/// Preset totals for the picker, by [`crate::tui::tokens::preset_key`].
#[derive(Debug, Default)]
pub struct PresetTotals {
    /// Tokens, and whether that is an exact count of the whole text.
    pub by_key: HashMap<u64, (usize, bool)>,
    /// A preset-totals job is running (not asked again until it is back).
    pub pending: bool,
}

impl PresetTotals {
    /// The worker's totals arrived, as `(key, tokens, exact)`: the job is
    /// no longer pending.
    pub fn learn(&mut self, totals: Vec<(u64, usize, bool)>) {
        self.pending = false;
        for (key, tokens, exact) in totals {
            self.by_key.insert(key, (tokens, exact));
        }
    }
}
