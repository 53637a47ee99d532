//! Movement in the panes and what follows the cursor: the symbols of the
//! file under it and the preview scrolled to it. Called from `update`.

use crate::tui::input::action::Action;
use crate::tui::messages::{Effect, Job, SymbolsJob};
use crate::tui::preview::follow;
use crate::tui::preview::shown;
use crate::tui::state::{Pane, State};

/// Movement in the focused pane.
pub(super) fn navigate(state: &mut State, action: Action) -> Vec<Effect> {
    match state.focus {
        Pane::Tree => navigate_tree(state, action),
        Pane::Symbols => {
            // Over the rows listed (the filter's matches).
            let len = state.symbols.visible().len();
            let row = moved(state.symbols.row(), len, action, state.screen.page);
            state.symbols.go_to_row(row);
            follow::follow_symbol(state, true);
            Vec::new()
        }
        Pane::Preview => {
            let len = if state.preview.raw {
                state.preview.raw_text.as_ref().map_or(0, |(_, l)| l.len())
            } else {
                shown(state).lines().len()
            };
            let top = moved(state.preview.top(), len, action, state.screen.page);
            state.preview.set_top(top);
            Vec::new()
        }
    }
}

/// A cursor moved by `action` within `0..len`.
pub(super) fn moved(cur: usize, len: usize, action: Action, page: usize) -> usize {
    let last = len.saturating_sub(1);
    let half = (page / 2).max(1);
    match action {
        Action::Up => cur.saturating_sub(1),
        Action::Down => (cur + 1).min(last),
        Action::PageUp => cur.saturating_sub(half),
        Action::PageDown => (cur + half).min(last),
        Action::Top => 0,
        Action::Bottom => last,
        _ => cur.min(last),
    }
}

fn navigate_tree(state: &mut State, action: Action) -> Vec<Effect> {
    let Some(row) = state.current_row().cloned() else {
        return Vec::new();
    };
    match action {
        Action::Expand if row.is_dir => {
            state.tree.open_dirs.insert(row.path);
            state.refresh_rows();
        }
        Action::Collapse if row.is_dir && state.tree.open_dirs.contains(&row.path) => {
            state.tree.open_dirs.remove(&row.path);
            state.refresh_rows();
        }
        Action::Collapse => {
            if let Some((parent, _)) = row.path.rsplit_once('/')
                && let Some(i) = state.tree.rows.iter().position(|r| r.path == parent)
            {
                state.tree.cursor = i;
            }
        }
        Action::Expand => {}
        _ => {
            state.tree.cursor = moved(
                state.tree.cursor,
                state.tree.rows.len(),
                action,
                state.screen.page,
            )
        }
    }
    follow_cursor(state)
}

/// After the tree cursor moved: load the new file's symbols and scroll
/// the preview to it.
pub fn follow_cursor(state: &mut State) -> Vec<Effect> {
    state.preview.follow_row(
        state.tree.current_row(),
        state.composition.composed.as_ref(),
    );
    let mut effects = follow::follow_tree(state);
    let tokenizer = state.project.settings.tokenizer;
    let current = state.tree.current_file();
    if let Some(path) = state.symbols.to_ask(current, tokenizer, true) {
        effects.push(Effect::job(Job::Symbols(SymbolsJob {
            path: path.clone(),
            tokenizer,
        })));
        if state.preview.raw {
            effects.push(Effect::job(Job::Raw(path)));
        }
    }
    effects
}

/// After any event: the symbols pane's costs follow the active tokenizer
/// (`T`, its undo, a history jump, the settings read again from disk),
/// asked for once per change, also while the pane waits for an answer
/// counted with the tokenizer before (which it drops).
pub fn symbols_follow_tokenizer(state: &mut State) -> Vec<Effect> {
    let tokenizer = state.project.settings.tokenizer;
    let current = state.tree.current_file();
    let stale = match &state.symbols.view {
        Some(view) => view.tokenizer != tokenizer,
        None => current.is_some(),
    };
    if !stale {
        return Vec::new();
    }
    match state.symbols.to_ask(current, tokenizer, false) {
        Some(path) => vec![Effect::job(Job::Symbols(SymbolsJob { path, tokenizer }))],
        None => Vec::new(),
    }
}
