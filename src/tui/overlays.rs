//! Keys while an overlay is open: each goes to its feature (the help, the
//! preset picker, the finder, the tokens overlay); the confirm questions
//! (copy likely secrets, write a copy too large for OSC 52 to the output
//! file, quit without the waiting save) and the text
//! prompts (filter, preset names, slice tags, go to line, search) are
//! answered here. Called from `update`.

pub mod picker;
pub mod render;

use crate::tui::curate;
use crate::tui::help;
use crate::tui::input::action::Action;
use crate::tui::messages::{Effect, Job, WriteForCopyJob};
use crate::tui::navigate::follow_cursor;
use crate::tui::preview::follow;
use crate::tui::state::model::{PendingCopy, PendingWrite};
use crate::tui::state::{Level, Overlay, Prompt, State};
use crate::tui::tokens;
use crate::tui::undo;

/// How long after a copy's question opens (likely secrets; a copy too
/// large for OSC 52) a confirm is ignored. Keys typed ahead while the
/// copy was being composed, or pressed in the same breath as the key that
/// asked, arrive well within it; reading the question takes longer.
/// Cancelling is honoured at once.
pub const CONFIRM_PAUSE: std::time::Duration = std::time::Duration::from_millis(400);

/// Keys while an overlay is open.
pub(super) fn on_overlay(state: &mut State, overlay: Overlay, action: Action) -> Vec<Effect> {
    match overlay {
        Overlay::Help { scroll } => help::keys::on_help(state, scroll, action),
        Overlay::Picker { cursor } => picker::on_picker(state, cursor, action),
        Overlay::Finder => crate::tui::finder::keys::on_action(state, action),
        Overlay::Tokens { path } => tokens::keys::on_tokens(state, path, action),
        Overlay::History { cursor } => undo::list::on_keys(state, cursor, action),
        // The message log: any key closes it.
        Overlay::Messages => {
            state.overlay = None;
            Vec::new()
        }
        Overlay::ConfirmCopy(mut pending) => match action {
            // The findings scroll; the question stays open.
            Action::Down
            | Action::Up
            | Action::PageDown
            | Action::PageUp
            | Action::Top
            | Action::Bottom => {
                let height = state.screen.size.1;
                let (last, page) = (pending.max_scroll(height), pending.rows_shown(height));
                let scroll = pending.scroll.min(last);
                pending.scroll = match action {
                    Action::Down => scroll + 1,
                    Action::Up => scroll.saturating_sub(1),
                    Action::PageDown => scroll + page,
                    Action::PageUp => scroll.saturating_sub(page),
                    Action::Top => 0,
                    _ => last,
                }
                .min(last);
                state.overlay = Some(Overlay::ConfirmCopy(pending));
                Vec::new()
            }
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
                    findings,
                    ..
                } = *pending;
                // The user let these findings go: to the clipboard, or to
                // the output file if the copy turns out too large.
                vec![Effect::Copy {
                    text,
                    label,
                    tokens,
                    tokenizer,
                    findings,
                    allow_secrets: true,
                }]
            }
            Action::Cancel | Action::Quit => {
                state.overlay = None;
                state.say(Level::Info, "not copied");
                Vec::new()
            }
            // Anything else keeps the question open: a stray key must not
            // decide it either way.
            _ => {
                state.overlay = Some(Overlay::ConfirmCopy(pending));
                Vec::new()
            }
        },
        Overlay::ConfirmWrite(pending) => confirm_write(state, pending, action),
        Overlay::ConfirmQuit => match action {
            Action::Confirm => {
                state.overlay = None;
                state.drop_pending_save = true;
                state.quit = true;
                Vec::new()
            }
            Action::Cancel | Action::Quit => {
                state.overlay = None;
                state.quit_after_save = false;
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

/// Write a copy too large for OSC 52 to the output file (and copy its
/// path)? As in every confirm, a key typed ahead does not answer and a
/// stray key decides nothing.
fn confirm_write(state: &mut State, pending: Box<PendingWrite>, action: Action) -> Vec<Effect> {
    match action {
        Action::Confirm if state.clock.since(pending.opened) >= CONFIRM_PAUSE => {
            state.overlay = None;
            state.say(Level::Info, "writing the output file…");
            let format = state.compose_options().format;
            let PendingWrite {
                text,
                findings,
                allow_secrets,
                over,
                ..
            } = *pending;
            vec![Effect::job(Job::WriteForCopy(WriteForCopyJob {
                text,
                findings,
                allow_secrets,
                format,
                unreachable: over.unreachable,
            }))]
        }
        Action::Cancel | Action::Quit => {
            state.overlay = None;
            state.say(Level::Info, "not written, not copied");
            Vec::new()
        }
        _ => {
            state.overlay = Some(Overlay::ConfirmWrite(pending));
            Vec::new()
        }
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
        Prompt::Task => {
            if name.is_empty() {
                state.say(Level::Warn, "no task: discovery needs a task or a target");
                return Vec::new();
            }
            let mut effects = crate::tui::undo::edit(state, |preset, _| {
                preset.task = buffer.trim().to_string();
                Ok("task set".to_string())
            });
            effects.extend(crate::tui::discover::discover(state));
            return effects;
        }
        Prompt::NewPreset => state.project.save_as(&name).map(|()| {
            format!(
                "saved preset {name}{}",
                crate::tui::overlays::picker::number_note(state, &name)
            )
        }),
        Prompt::RenamePreset(old) => state.project.rename(&old, &name).map(|()| {
            format!(
                "renamed {old} to {name}{}",
                crate::tui::overlays::picker::number_note(state, &name)
            )
        }),
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
