//! `/` in the symbols pane: type to list only the symbols whose path
//! contains the text (any case), as `/` filters the tree. Enter keeps the
//! filter (for the next files too, named in the pane's title) and gives
//! the keys back to the pane; Esc (while typing, or later) clears it. While it is typed, every key is text (`run::dispatch`
//! sends them here), so a typed name never runs the keys it spells.

use crate::tui::messages::{Effect, Event};
use crate::tui::preview::follow;
use crate::tui::state::{Pane, State};

/// Start typing the filter (what was typed before stays, to be edited).
pub fn open(state: &mut State) -> Vec<Effect> {
    state.focus = Pane::Symbols;
    state.symbols.typing = true;
    Vec::new()
}

/// A typed key while the filter is typed: the cursor goes to the first
/// symbol that matches, and the preview follows it.
pub fn on_input(state: &mut State, event: Event) -> Vec<Effect> {
    let filter = &mut state.symbols.filter;
    match event {
        Event::InputChar(c) if !c.is_control() => filter.push(c),
        Event::InputBackspace => {
            filter.pop();
        }
        Event::InputClear => filter.clear(),
        _ => return Vec::new(),
    }
    state.symbols.go_to_row(0);
    follow::follow_symbol(state, false);
    Vec::new()
}

/// Enter: the filter stays, the pane's keys work again over what it lists.
pub fn confirm(state: &mut State) -> Vec<Effect> {
    state.symbols.typing = false;
    Vec::new()
}

/// Esc: no filter; the cursor stays on the symbol it was on.
pub fn clear(state: &mut State) -> Vec<Effect> {
    state.symbols.typing = false;
    state.symbols.filter.clear();
    Vec::new()
}
