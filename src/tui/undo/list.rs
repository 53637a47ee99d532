//! The curation history as a list (`U`): every state the undo history
//! holds, each named by the change that made it ("included src/**",
//! "app.py: App.run = def", "apply preset tables"), the state now marked.
//! Enter jumps to the row's state as one more change, so one `u` comes
//! back; like any change, a jump ends the redo branch (the states past
//! the one jumped from stay in the list as undo steps).

use crate::tui::input::action::Action;
use crate::tui::messages::Effect;
use crate::tui::state::{Level, Overlay, State};
use crate::tui::undo::after_history_move;

/// Open the list with the cursor on the state now.
pub fn open(state: &mut State) -> Vec<Effect> {
    state.overlay = Some(Overlay::History {
        cursor: state.history.now_index(),
    });
    Vec::new()
}

/// A key while the list is open with the cursor on row `cursor`.
pub fn on_keys(state: &mut State, cursor: usize, action: Action) -> Vec<Effect> {
    let last = state.history.entries().len().saturating_sub(1);
    let half = (state.screen.page / 2).max(1);
    let cursor = match action {
        Action::Down => (cursor + 1).min(last),
        Action::Up => cursor.saturating_sub(1),
        Action::PageDown => (cursor + half).min(last),
        Action::PageUp => cursor.saturating_sub(half),
        Action::Top => 0,
        Action::Bottom => last,
        Action::Confirm => {
            state.overlay = None;
            return jump(state, cursor);
        }
        Action::Cancel | Action::Quit | Action::History => {
            state.overlay = None;
            return Vec::new();
        }
        _ => cursor,
    };
    state.overlay = Some(Overlay::History { cursor });
    Vec::new()
}

/// Make row `index`'s state the project file, as one undoable change.
pub fn jump(state: &mut State, index: usize) -> Vec<Effect> {
    let entries = state.history.entries();
    let Some(entry) = entries.get(index) else {
        return Vec::new();
    };
    let name = entry.name().to_string();
    if entry.now {
        state.say(Level::Info, format!("already at: {name}"));
        return Vec::new();
    }
    // The changes between are undone (or redone) on the file as it is:
    // what was written in it outside the app meanwhile stays.
    let Some(target) = state.history.file_at(index, &state.project.file) else {
        return Vec::new();
    };
    let before = std::mem::replace(&mut state.project.file, target);
    let label = format!("back to: {name}");
    state
        .history
        .record(before, state.project.file.clone(), label.clone());
    let key = state.keymap.key_name(Action::Undo);
    after_history_move(state, format!("{label} ({key} returns)"))
}
