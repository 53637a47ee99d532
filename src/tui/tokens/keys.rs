//! Keys in the tokens overlay (`b`, "where the tokens go"): move over the
//! included files (largest first), open one in the tree, step its view
//! mode, or take it out of the preset. Every edit is the tree's own
//! (`curate`), one undoable step, and the overlay stays open on the same
//! file while the counts follow. While a discovery is shown the table is
//! the packed text, which no edit of the preset changes: the mode and
//! remove keys say to accept or discard it first.

use crate::core::model::Preset;
use crate::tui::curate;
use crate::tui::input::action::Action;
use crate::tui::messages::{Effect, Job, TotalsJob};
use crate::tui::navigate::{follow_cursor, moved};
use crate::tui::state::{Overlay, Pane, State};
use crate::tui::tokens::{preset_key, token_map};

/// A key while the tokens overlay is open on `path`.
pub(crate) fn on_tokens(state: &mut State, path: Option<String>, action: Action) -> Vec<Effect> {
    let map = token_map(state);
    let paths: Vec<String> = map.files.iter().map(|f| f.path.clone()).collect();
    let cursor = path
        .as_deref()
        .and_then(|p| paths.iter().position(|q| q == p))
        .unwrap_or(0);
    let current = paths.get(cursor).cloned();
    if state.discovery.is_some()
        && matches!(
            action,
            Action::NextMode | Action::PrevMode | Action::ToggleInclude
        )
    {
        let key = |a| state.keymap.key_name(a);
        let message = format!(
            "this is the packed discovery: accept it ({}) or discard it ({}) to edit the preset",
            key(Action::AcceptDiscovery),
            key(Action::DiscardDiscovery)
        );
        state.say(crate::tui::state::Level::Warn, message);
        return Vec::new();
    }
    match action {
        Action::Up
        | Action::Down
        | Action::Top
        | Action::Bottom
        | Action::PageUp
        | Action::PageDown => {
            let to = moved(cursor, paths.len(), action, state.screen.page);
            state.overlay = Some(Overlay::Tokens {
                path: paths.get(to).cloned(),
            });
            Vec::new()
        }
        Action::Confirm | Action::Expand => {
            state.overlay = None;
            match current {
                Some(p) => open_in_tree(state, &p),
                None => Vec::new(),
            }
        }
        Action::NextMode | Action::PrevMode => match current {
            Some(p) => {
                state.overlay = Some(Overlay::Tokens {
                    path: Some(p.clone()),
                });
                curate::cycle_mode_of(state, &p, action == Action::NextMode)
            }
            None => Vec::new(),
        },
        Action::ToggleInclude => match current {
            Some(p) => {
                // The cursor goes to the row that takes the removed one's
                // place (the one below, or above at the end).
                let next = paths
                    .get(cursor + 1)
                    .or_else(|| cursor.checked_sub(1).and_then(|i| paths.get(i)))
                    .cloned();
                state.overlay = Some(Overlay::Tokens { path: next });
                curate::toggle_file(state, &p)
            }
            None => Vec::new(),
        },
        Action::Help => {
            state.overlay = Some(Overlay::Help { scroll: 0 });
            Vec::new()
        }
        Action::Cancel | Action::Quit | Action::TokenMap => {
            state.overlay = None;
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Put the tree cursor on `path` (its folders opened; the filter cleared
/// if it hides it), focus the tree, and let the panes follow.
pub(crate) fn open_in_tree(state: &mut State, path: &str) -> Vec<Effect> {
    if !state.tree.rows.iter().any(|r| r.path == path) {
        state.tree.filter.clear();
    }
    for (i, _) in path.match_indices('/') {
        state.tree.open_dirs.insert(path[..i].to_string());
    }
    state.refresh_rows();
    if let Some(i) = state.tree.rows.iter().position(|r| r.path == path) {
        state.tree.cursor = i;
    }
    state.focus = Pane::Tree;
    follow_cursor(state)
}

/// The picker opened: ask the worker for the total of every preset not
/// counted yet in its current form (one job; the picker shows `…` until
/// it is back). Not while the walk runs: globs would expand short.
pub(crate) fn ask_preset_totals(state: &mut State) -> Vec<Effect> {
    if !state.walk.done || state.preset_totals.pending {
        return Vec::new();
    }
    let settings = &state.project.settings;
    let presets: Vec<(u64, Preset)> = state
        .project
        .preset_names()
        .into_iter()
        .filter_map(|(name, _)| state.project.preset(&name).map(|(p, _)| p.clone()))
        .map(|p| (preset_key(&p, settings), p))
        .filter(|(key, _)| !state.preset_totals.by_key.contains_key(key))
        .collect();
    if presets.is_empty() {
        return Vec::new();
    }
    state.preset_totals.pending = true;
    vec![Effect::job(Job::PresetTotals(TotalsJob {
        presets,
        opts: state.compose_options(),
        map: state.map_options(),
        tokenizer: state.project.settings.tokenizer,
        walked: state.walk.walked.clone(),
    }))]
}
