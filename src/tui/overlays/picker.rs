//! The preset picker (`p`) and the keys that switch presets without it
//! (`1`…`9`, `]`, `[`): applying a preset is one undoable step, like any
//! edit; in the picker `n` saves the curation as a new preset, `r`
//! renames, `D` deletes.

use crate::core::project::Scope;
use crate::text::sanitize::display_line;
use crate::tui::input::action::Action;
use crate::tui::messages::Effect;
use crate::tui::navigate::moved;
use crate::tui::state::{Level, Overlay, Prompt, State};
use crate::tui::undo;

/// Make `name` the active preset: one undoable step, like any edit.
pub fn apply_preset(state: &mut State, name: &str) -> Vec<Effect> {
    let before = state.project.file.clone();
    match state.project.apply(name) {
        Ok(()) => {
            state.add_explicit_files();
            // Proposals belong to the preset they were made for.
            state.discovery = None;
            let position = state
                .project
                .preset_names()
                .iter()
                .position(|(n, _)| n == name)
                .map_or(String::new(), |i| format!(" ({})", i + 1));
            undo::commit(
                state,
                before,
                format!("preset: {}{position} · u goes back", display_line(name, 60)),
            )
        }
        Err(e) => {
            state.say(Level::Error, e.to_string());
            Vec::new()
        }
    }
}

/// ` (number 2 of 3: presets are numbered by name)`: the number key of
/// preset `name` after a save or a rename moved it (or the others), so
/// the numbers never shift unsaid. Empty when it has no number key.
pub fn number_note(state: &State, name: &str) -> String {
    let names = state.project.preset_names();
    match names.iter().position(|(n, _)| n == name) {
        Some(i) if i < 9 => format!(
            " (number {} of {}: presets are numbered by name)",
            i + 1,
            names.len()
        ),
        _ => String::new(),
    }
}

/// `preset_N`, `preset_next`, `preset_prev`: the preset at that place of
/// the picker's list (next and previous wrap around).
pub fn switch_preset(state: &mut State, action: Action) -> Vec<Effect> {
    let names = state.project.preset_names();
    if names.is_empty() {
        state.say(
            Level::Warn,
            "no presets yet: p opens the picker, n saves one",
        );
        return Vec::new();
    }
    let active = state.project.active_preset_name().to_string();
    let at = names.iter().position(|(n, _)| *n == active);
    let len = names.len();
    let index = match (action.preset_number(), action) {
        (Some(n), _) => n,
        (None, Action::PresetNext) => at.map_or(0, |i| (i + 1) % len),
        (None, _) => at.map_or(len - 1, |i| (i + len - 1) % len),
    };
    let Some((name, _)) = names.get(index) else {
        state.say(
            Level::Warn,
            format!("there is no preset {} ({len} in all)", index + 1),
        );
        return Vec::new();
    };
    if *name == active {
        state.say(
            Level::Info,
            format!("preset {} is already active", index + 1),
        );
        return Vec::new();
    }
    let name = name.clone();
    apply_preset(state, &name)
}

pub fn on_picker(state: &mut State, cursor: usize, action: Action) -> Vec<Effect> {
    let names = state.project.preset_names();
    let len = names.len();
    let selected = names.get(cursor).cloned();
    match action {
        Action::Up
        | Action::Down
        | Action::Top
        | Action::Bottom
        | Action::PageUp
        | Action::PageDown => {
            state.overlay = Some(Overlay::Picker {
                cursor: moved(cursor, len, action, state.screen.page),
            });
            Vec::new()
        }
        Action::Confirm => {
            state.overlay = None;
            let Some((name, _)) = selected else {
                return Vec::new();
            };
            apply_preset(state, &name)
        }
        Action::PresetNew => {
            state.overlay = Some(Overlay::Input {
                prompt: Prompt::NewPreset,
                buffer: String::new(),
            });
            Vec::new()
        }
        Action::PresetRename => {
            match selected {
                Some((name, Scope::Project)) => {
                    state.overlay = Some(Overlay::Input {
                        prompt: Prompt::RenamePreset(name.clone()),
                        buffer: name,
                    })
                }
                Some((name, Scope::Global)) => state.say(
                    Level::Warn,
                    format!("{name} is a global preset; it can't be renamed here"),
                ),
                None => {}
            }
            Vec::new()
        }
        Action::PresetDelete => {
            let Some((name, _)) = selected else {
                return Vec::new();
            };
            let before = state.project.file.clone();
            match state.project.delete(&name) {
                Ok(()) => {
                    state.overlay = Some(Overlay::Picker {
                        cursor: cursor.min(len.saturating_sub(2)),
                    });
                    undo::commit(state, before, format!("deleted preset {name} (u undoes)"))
                }
                Err(e) => {
                    state.say(Level::Error, e.to_string());
                    Vec::new()
                }
            }
        }
        Action::Cancel | Action::Presets | Action::Quit => {
            state.overlay = None;
            Vec::new()
        }
        Action::Help => {
            state.overlay = Some(Overlay::Help { scroll: 0 });
            Vec::new()
        }
        _ => Vec::new(),
    }
}
