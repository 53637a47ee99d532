//! Terminal key events to [`Event`]s: through the keymap for the focused
//! pane or overlay, or as typed text while a prompt, the symbols filter or
//! the finder is open; a key the focused pane has no action for becomes
//! [`Event::Unbound`], so the status says so instead of nothing happening
//! (or, for a key of another pane, its action, which says where it works);
//! mouse events to plain [`Event::Mouse`] data.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::tui::input::action::Action;
use crate::tui::input::keymap::{Context, Key};
use crate::tui::messages::{Event, MouseKind};
use crate::tui::state::{Overlay, Pane, State};
use crate::tui::update::scope;

/// The event a key press means in the current state, if any.
pub fn key_event(state: &State, ev: &KeyEvent) -> Option<Event> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    if let Some(Overlay::Finder) = state.overlay {
        return finder_key(state, ev);
    }
    let typing = state.overlay.is_none() && state.focus == Pane::Symbols && state.symbols.typing;
    if typing || matches!(state.overlay, Some(Overlay::Input { .. })) {
        return prompt_key(ev);
    }
    let key = Key::from_event(ev);
    let action = state.keymap.lookup(state.context(), key);
    match (&state.overlay, action) {
        // The help and the message log promise that any other key
        // closes them.
        (Some(Overlay::Help { .. } | Overlay::Messages), None) => {
            Some(Event::Action(Action::Cancel))
        }
        (None, None) if !matches!(ev.code, KeyCode::Modifier(_) | KeyCode::Null) => {
            Some(match elsewhere(state, key) {
                Some(action) => Event::Action(action),
                None => Event::Unbound(key.to_string()),
            })
        }
        (_, action) => action.map(Event::Action),
    }
}

/// The action `key` has in another pane, which then says where it works
/// (`scope::refusal`: `batch masked def: in the tree pane, not the
/// symbols`), rather than only that the key does nothing here.
fn elsewhere(state: &State, key: Key) -> Option<Action> {
    [Context::Tree, Context::Symbols, Context::Preview]
        .into_iter()
        .filter_map(|ctx| state.keymap.lookup(ctx, key))
        .find(|action| {
            let panes = scope::panes(*action);
            !panes.is_empty() && !panes.contains(&state.focus)
        })
}

/// What a key means while a text prompt (or the symbols filter) is
/// typed: Enter and Esc finish it, the rest is text.
fn prompt_key(ev: &KeyEvent) -> Option<Event> {
    let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
    match ev.code {
        KeyCode::Enter => Some(Event::Action(Action::Confirm)),
        KeyCode::Esc => Some(Event::Action(Action::Cancel)),
        KeyCode::Char('c') if ctrl => Some(Event::Action(Action::Cancel)),
        KeyCode::Char('u') if ctrl => Some(Event::InputClear),
        KeyCode::Backspace => Some(Event::InputBackspace),
        KeyCode::Char(c) if !ctrl => Some(Event::InputChar(c)),
        _ => None,
    }
}

/// What a key means while the finder is open: its `[finder]` binding
/// (remappable like every other key), else query editing: Backspace and
/// Ctrl-u edit it, a typed character goes into it (the keymap's letters
/// do not apply).
fn finder_key(state: &State, ev: &KeyEvent) -> Option<Event> {
    let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
    let alt = ev.modifiers.contains(KeyModifiers::ALT);
    if let Some(action) = state.keymap.lookup(Context::Finder, Key::from_event(ev)) {
        return Some(Event::Action(action));
    }
    match ev.code {
        KeyCode::Backspace => Some(Event::InputBackspace),
        KeyCode::Char('u') if ctrl => Some(Event::InputClear),
        KeyCode::Char(c) if !ctrl && !alt => Some(Event::InputChar(c)),
        _ => None,
    }
}

/// The event a mouse event means, as plain data (`tree_top`: the tree's
/// first row on screen): a left click or a wheel step; anything else
/// (moves, drags, releases) is nothing.
pub fn mouse_event(ev: &MouseEvent, tree_top: usize) -> Option<Event> {
    let kind = match ev.kind {
        MouseEventKind::Down(MouseButton::Left) => MouseKind::Click,
        MouseEventKind::ScrollUp => MouseKind::ScrollUp,
        MouseEventKind::ScrollDown => MouseKind::ScrollDown,
        _ => return None,
    };
    Some(Event::Mouse {
        kind,
        column: ev.column,
        row: ev.row,
        tree_top,
    })
}
