//! Terminal key events to [`Event`]s: through the keymap for the focused
//! pane or overlay, or as typed text while a prompt or the finder is open;
//! mouse events to plain [`Event::Mouse`] data.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::tui::input::action::Action;
use crate::tui::input::keymap::Key;
use crate::tui::messages::{Event, MouseKind};
use crate::tui::state::{Overlay, State};

/// The event a key press means in the current state, if any.
pub fn key_event(state: &State, ev: &KeyEvent) -> Option<Event> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    if let Some(Overlay::Finder) = state.overlay {
        return finder_key(ev);
    }
    if let Some(Overlay::Input { .. }) = state.overlay {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        return match ev.code {
            KeyCode::Enter => Some(Event::Action(Action::Confirm)),
            KeyCode::Esc => Some(Event::Action(Action::Cancel)),
            KeyCode::Char('c') if ctrl => Some(Event::Action(Action::Cancel)),
            KeyCode::Char('u') if ctrl => Some(Event::InputClear),
            KeyCode::Backspace => Some(Event::InputBackspace),
            KeyCode::Char(c) if !ctrl => Some(Event::InputChar(c)),
            _ => None,
        };
    }
    let action = state.keymap.lookup(state.context(), Key::from_event(ev));
    match (&state.overlay, action) {
        // Help promises that any other key closes it.
        (Some(Overlay::Help { .. }), None) => Some(Event::Action(Action::Cancel)),
        (_, action) => action.map(Event::Action),
    }
}

/// What a key means while the finder is open. Like a text prompt, typed
/// characters go to the query (so the keymap's letters do not apply);
/// the finder's own keys are fixed here.
fn finder_key(ev: &KeyEvent) -> Option<Event> {
    let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
    let alt = ev.modifiers.contains(KeyModifiers::ALT);
    let action = |a| Some(Event::Action(a));
    match ev.code {
        KeyCode::Enter => action(Action::Confirm),
        KeyCode::Esc => action(Action::Cancel),
        KeyCode::Up => action(Action::Up),
        KeyCode::Down => action(Action::Down),
        KeyCode::PageUp => action(Action::PageUp),
        KeyCode::PageDown => action(Action::PageDown),
        KeyCode::Tab => action(Action::ToggleInclude),
        KeyCode::Backspace => Some(Event::InputBackspace),
        KeyCode::Char(c) if ctrl => match c {
            'c' => action(Action::Cancel),
            'u' => Some(Event::InputClear),
            'p' | 'k' => action(Action::Up),
            'n' | 'j' => action(Action::Down),
            _ => None,
        },
        // A space is not part of a query: nucleo matches without it.
        KeyCode::Char(' ') => action(Action::ToggleInclude),
        KeyCode::Char(c) if !alt => Some(Event::InputChar(c)),
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
