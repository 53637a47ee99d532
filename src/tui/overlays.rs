//! Keys while an overlay is open: the help, the preset picker and text
//! prompts (filter, preset names, slice tags). Called from `update`.

pub mod render;

use crate::core::project::Scope;
use crate::text::sanitize::display_line;
use crate::tui::curate;
use crate::tui::help::help_max_scroll;
use crate::tui::input::action::Action;
use crate::tui::messages::Effect;
use crate::tui::navigate::{follow_cursor, moved};
use crate::tui::preview::follow;
use crate::tui::state::model::PendingCopy;
use crate::tui::state::{Level, Overlay, Prompt, State};
use crate::tui::tokens;
use crate::tui::undo;

/// How long after the question before copying likely secrets opens a
/// confirm is ignored. Keys typed ahead while the copy was being composed,
/// or pressed in the same breath as the key that asked, arrive well within
/// it; reading the findings takes longer. Cancelling is honoured at once.
pub const CONFIRM_PAUSE: std::time::Duration = std::time::Duration::from_millis(400);

/// Keys while an overlay is open.
pub(super) fn on_overlay(state: &mut State, overlay: Overlay, action: Action) -> Vec<Effect> {
    match overlay {
        Overlay::Help { scroll } => {
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
        Overlay::Picker { cursor } => on_picker(state, cursor, action),
        Overlay::Finder => crate::tui::finder::keys::on_action(state, action),
        Overlay::Tokens { path } => tokens::keys::on_tokens(state, path, action),
        Overlay::ConfirmCopy(pending) => match action {
            Action::Confirm if state.clock.since(pending.opened) < CONFIRM_PAUSE => {
                // Too soon to have read the findings: a key typed ahead
                // (or the rest of the batch that asked) does not answer;
                // the question stays open.
                Vec::new()
            }
            Action::Confirm => {
                state.overlay = None;
                let PendingCopy {
                    text,
                    label,
                    tokens,
                    tokenizer,
                    ..
                } = *pending;
                vec![Effect::Copy {
                    text,
                    label,
                    tokens,
                    tokenizer,
                }]
            }
            Action::Cancel | Action::Quit => {
                state.overlay = None;
                state.say(Level::Info, "not copied");
                Vec::new()
            }
            // Anything else keeps the question open: a stray key must not
            // decide it either way.
            _ => Vec::new(),
        },
        Overlay::ConfirmQuit => match action {
            Action::Confirm => {
                state.overlay = None;
                state.drop_pending_save = true;
                state.quit = true;
                Vec::new()
            }
            Action::Cancel | Action::Quit => {
                state.overlay = None;
                state.say(Level::Info, "still waiting to save");
                Vec::new()
            }
            // As in every confirm: a stray key decides nothing.
            _ => Vec::new(),
        },
        Overlay::Input { prompt, buffer } => match action {
            Action::Confirm => submit_input(state, prompt, buffer),
            Action::Cancel => {
                state.overlay = None;
                if prompt == Prompt::Filter {
                    state.tree.clear_filter();
                    // The panes follow the cursor wherever it is now.
                    return follow_cursor(state);
                }
                Vec::new()
            }
            _ => Vec::new(),
        },
    }
}

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

fn on_picker(state: &mut State, cursor: usize, action: Action) -> Vec<Effect> {
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

/// A character typed (or erased) into the open prompt.
pub(super) fn on_input(state: &mut State, c: Option<char>) -> Vec<Effect> {
    let Some(Overlay::Input { prompt, buffer }) = &mut state.overlay else {
        return Vec::new();
    };
    match c {
        Some(c) if !c.is_control() => buffer.push(c),
        Some(_) => {}
        None => {
            buffer.pop();
        }
    }
    if *prompt == Prompt::Filter {
        state.tree.filter = buffer.clone();
        state.tree.cursor = 0;
        state.refresh_rows();
        return follow_cursor(state);
    }
    Vec::new()
}

fn submit_input(state: &mut State, prompt: Prompt, buffer: String) -> Vec<Effect> {
    let reopen = Overlay::Input {
        prompt: prompt.clone(),
        buffer: buffer.clone(),
    };
    state.overlay = None;
    let before = state.project.file.clone();
    let name = buffer.trim().to_string();
    let result = match prompt {
        Prompt::Filter => {
            state.tree.filter = buffer;
            state.refresh_rows();
            return follow_cursor(state);
        }
        Prompt::SliceTag { path, start, end } => {
            // `c` in the symbols pane asks the worker for the text as the
            // prompt opens: a quick Enter may come first.
            if !matches!(&state.preview.raw_text, Some((p, _)) if *p == path) {
                state.overlay = Some(reopen);
                state.say(
                    Level::Info,
                    "still reading the file's text: Enter again in a moment",
                );
                return Vec::new();
            }
            return curate::add_slice(state, path, start, end, buffer);
        }
        Prompt::GotoLine => {
            follow::goto_line(state, &buffer);
            return Vec::new();
        }
        Prompt::Search => {
            follow::search(state, &buffer);
            return Vec::new();
        }
        Prompt::NewPreset => state
            .project
            .save_as(&name)
            .map(|()| format!("saved preset {name}")),
        Prompt::RenamePreset(old) => state
            .project
            .rename(&old, &name)
            .map(|()| format!("renamed {old} to {name}")),
    };
    match result {
        Ok(message) => undo::commit(state, before, message),
        Err(e) => {
            // Keep what was typed so it can be corrected.
            state.overlay = Some(reopen);
            state.say(Level::Error, e.to_string());
            Vec::new()
        }
    }
}
