//! Keys in the help overlay (`?`): scrolling the table; any other key
//! closes it.

use crate::tui::help::help_max_scroll;
use crate::tui::input::action::Action;
use crate::tui::messages::Effect;
use crate::tui::state::{Overlay, State};

/// A key while the help is open at `scroll`.
pub fn on_help(state: &mut State, scroll: usize, action: Action) -> Vec<Effect> {
    // The help is wrapped to the overlay: its length depends on
    // the terminal's width.
    let last = help_max_scroll(&state.keymap, state.screen.size);
    let scroll = scroll.min(last);
    let half = (state.screen.page / 2).max(1);
    let scroll = match action {
        Action::Down => (scroll + 1).min(last),
        Action::Up => scroll.saturating_sub(1),
        Action::PageDown => (scroll + half).min(last),
        Action::PageUp => scroll.saturating_sub(half),
        Action::Top => 0,
        Action::Bottom => last,
        _ => {
            state.overlay = None;
            return Vec::new();
        }
    };
    state.overlay = Some(Overlay::Help { scroll });
    Vec::new()
}
