//! The numbers behind "where the tokens go" (`b`) and the picker's preset
//! totals. The overlay's table is `core::token_map`'s `TokenMap` — the one
//! `ctxcurate stats` prints — filled with the counts the gauge sums (the
//! per-file block counts of the last compositions, and the gauge's total),
//! so the overlay and the gauge always agree. Plain functions of the state,
//! read by rendering and by the overlay's keys alike.

pub mod keys;
pub mod render;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crate::core::model::{Preset, Settings};
use crate::core::token_map::{TokenMap, TokenRow};

use crate::tui::state::State;

/// The included files by tokens, largest first, against the budget; the
/// total is the gauge's.
pub fn token_map(state: &State) -> TokenMap {
    let opts = state.compose_options();
    let rows = state
        .walk
        .resolved
        .iter()
        .filter(|r| r.item.auto_aggregate)
        .map(|r| TokenRow {
            path: r.path.clone(),
            mode: opts.mode_for(&r.item),
            tokens: state
                .composition
                .block_tokens
                .get(&r.path)
                .map_or(0, |(_, n)| *n),
            error: state.composed_file(&r.path).is_some_and(|f| f.error),
        })
        .collect();
    let settings = &state.project.settings;
    TokenMap::from_rows(
        rows,
        state.composition.gauge.used,
        settings.tokenizer,
        settings.budget,
    )
}

/// The path of row `cursor` of the overlay (the files come first, then
/// the row that is not a file).
pub fn path_at(state: &State, cursor: usize) -> Option<String> {
    token_map(state).files.get(cursor).map(|f| f.path.clone())
}

/// What a preset's total depends on: its content and the settings (the
/// tokenizer, the strategy, the format...). The picker's totals are kept
/// under this key, so an edit or a setting change asks for a new count.
pub fn preset_key(preset: &Preset, settings: &Settings) -> u64 {
    let mut h = DefaultHasher::new();
    serde_json::to_string(preset)
        .unwrap_or_default()
        .hash(&mut h);
    serde_json::to_string(settings)
        .unwrap_or_default()
        .hash(&mut h);
    h.finish()
}
