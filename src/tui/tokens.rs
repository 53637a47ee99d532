//! The numbers behind "where the tokens go" (`b`) and the picker's preset
//! totals. The overlay's table is `core::token_map`'s `TokenMap` — the one
//! `ctxcurate stats` prints — filled with the counts the gauge sums (the
//! per-file block counts of the last compositions, and the gauge's total),
//! so the overlay and the gauge always agree. While a discovery's
//! proposals are shown the gauge counts the packed text, and so does the
//! table: the packed files with the counts the worker made of them, the
//! packed total, the repo map's row, and what the pack left out and why. Plain functions of
//! the state, read by rendering and by the overlay's keys alike.

pub mod keys;
pub mod render;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crate::core::model::{Preset, Settings};
use crate::core::token_map::{TokenMap, TokenRow};

use crate::tui::state::State;
use crate::tui::state::proposal::Discovery;

/// The included files by tokens, largest first, against the budget; the
/// total is the gauge's (the packed one while a discovery is shown).
pub fn token_map(state: &State) -> TokenMap {
    if let Some(d) = &state.discovery {
        return packed_map(state, d);
    }
    let opts = state.compose_options();
    let rows = state
        .walk
        .resolved
        .iter()
        .filter(|r| r.settings.auto_aggregate)
        // A file the build leaves out (binary, oversize, held) has no
        // tokens to show, as `stats` leaves it out; the tree marks it ⊘.
        .filter(|r| {
            !state
                .composition
                .composed
                .as_ref()
                .is_some_and(|c| c.is_skipped(&r.path))
        })
        .map(|r| TokenRow {
            path: r.path.clone(),
            // The mode it rendered in (a file with no grammar asked for
            // an outline shows its summary), as `stats` says it.
            mode: state
                .composed_file(&r.path)
                .map_or_else(|| opts.mode_at(&r.path, &r.settings), |f| f.mode),
            tokens: state
                .composition
                .block_tokens
                .get(&r.path)
                .map_or(0, |(_, n)| *n),
            error: state.composed_file(&r.path).is_some_and(|f| f.error),
        })
        .collect();
    let settings = &state.project.settings;
    let map = state
        .composition
        .composed
        .as_ref()
        .map_or(0, |c| c.map_tokens);
    TokenMap::from_rows(
        rows,
        state.composition.gauge.used,
        settings.tokenizer,
        settings.budget,
    )
    .with_repo_map(map)
}

/// The packed composition's table: its files with the counts of its
/// composition (the worker counts each block as it does a preset's), the
/// total the gauge shows, the pack's budget.
fn packed_map(state: &State, d: &Discovery) -> TokenMap {
    let rows = state
        .composition
        .composed
        .iter()
        .flat_map(|c| &c.files)
        .map(|f| TokenRow {
            path: f.path.clone(),
            mode: f.mode,
            tokens: f.tokens,
            error: f.error,
        })
        .collect();
    TokenMap::from_rows(
        rows,
        d.stats.tokens,
        state.project.settings.tokenizer,
        d.stats.budget,
    )
    .with_repo_map(d.map_tokens)
}

/// Why the pack left a file out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOutReason {
    /// Not even its outline fit in what the budget had left.
    NoRoom,
    /// The preset excludes it.
    Excluded,
    /// A credential file: only a preset entry naming it brings it in.
    Credential,
}

impl LeftOutReason {
    pub fn label(self) -> &'static str {
        match self {
            LeftOutReason::NoRoom => "no room in the budget",
            LeftOutReason::Excluded => "the preset excludes it",
            LeftOutReason::Credential => "a credential file",
        }
    }
}

/// What the shown discovery left out, and why: the candidates it dropped
/// for room (in rank order), then the files the preset excludes and the
/// credential files it reached. Empty without a discovery.
pub fn left_out(state: &State) -> Vec<(String, LeftOutReason)> {
    let Some(d) = &state.discovery else {
        return Vec::new();
    };
    let s = &d.stats;
    let with = |paths: &[String], why: LeftOutReason| {
        paths
            .iter()
            .map(move |p| (p.clone(), why))
            .collect::<Vec<_>>()
    };
    let mut out = with(&s.dropped_files, LeftOutReason::NoRoom);
    out.extend(with(&s.excluded, LeftOutReason::Excluded));
    out.extend(with(&s.sensitive, LeftOutReason::Credential));
    out
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
