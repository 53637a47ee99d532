//! The mouse, as `update` sees it: a click focuses the pane under the
//! pointer and picks the row clicked (a tree row, a symbol); the wheel
//! moves the pane under the pointer, focused or not. While an overlay is
//! open the wheel moves in it and a click does nothing. The pane under
//! the pointer comes from `tui::draw::layout`, the function rendering uses.

use crate::tui::draw::layout::pane_at;
use crate::tui::draw::scroll_to;
use crate::tui::input::action::Action;
use crate::tui::messages::{Effect, MouseKind};
use crate::tui::navigate::{follow_cursor, navigate};
use crate::tui::overlays::on_overlay;
use crate::tui::state::{Pane, State};

/// Rows one wheel step moves.
const WHEEL_ROWS: usize = 3;

/// The mouse did `kind` at (`column`, `row`); `tree_top` is the first
/// tree row on screen.
pub(crate) fn on_mouse(
    state: &mut State,
    kind: MouseKind,
    (column, row): (u16, u16),
    tree_top: usize,
) -> Vec<Effect> {
    if let Some(overlay) = state.overlay.clone() {
        return match kind {
            MouseKind::ScrollUp => on_overlay(state, overlay, Action::Up),
            MouseKind::ScrollDown => on_overlay(state, overlay, Action::Down),
            MouseKind::Click => Vec::new(),
        };
    }
    let Some((pane, area)) = pane_at(
        state.screen.size,
        state.focus,
        state.screen.zoom,
        (column, row),
    ) else {
        return Vec::new();
    };
    match kind {
        MouseKind::Click => {
            state.focus = pane;
            // A click ends typing the symbols filter (what was typed stays).
            state.symbols.typing = false;
            // Row 0 of the pane is its border.
            let Some(line) = (row - area.y).checked_sub(1).map(usize::from) else {
                return Vec::new();
            };
            let height = usize::from(area.height.saturating_sub(2));
            if line >= height {
                return Vec::new();
            }
            click_row(state, pane, line, tree_top, height)
        }
        MouseKind::ScrollUp | MouseKind::ScrollDown => {
            let action = if kind == MouseKind::ScrollUp {
                Action::Up
            } else {
                Action::Down
            };
            let focus = std::mem::replace(&mut state.focus, pane);
            let mut effects = Vec::new();
            for _ in 0..WHEEL_ROWS {
                effects.extend(navigate(state, action));
            }
            state.focus = focus;
            effects
        }
    }
}

/// A click on line `line` of `pane`'s list (`height` lines shown).
fn click_row(
    state: &mut State,
    pane: Pane,
    line: usize,
    tree_top: usize,
    height: usize,
) -> Vec<Effect> {
    match pane {
        Pane::Tree => {
            let index = tree_top + line;
            if index < state.tree.rows.len() {
                state.tree.cursor = index;
                return follow_cursor(state);
            }
        }
        Pane::Symbols => {
            let len = state.symbols.visible().len();
            let index = scroll_to(state.symbols.row(), height, len) + line;
            if index < len {
                state.symbols.go_to_row(index);
            }
        }
        Pane::Preview => {}
    }
    Vec::new()
}
