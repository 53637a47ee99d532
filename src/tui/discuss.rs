//! The preset's screenshots, discussion and task in the TUI: Space on an
//! image file in the tree adds it to the screenshots (Space again removes
//! it), `e` edits the task and `E` writes a discussion message in the
//! user's editor (an `Effect::Edit` the event loop runs with the terminal
//! handed over; the text comes back as `Event::Edited`), `ctrl-k` adds a
//! compaction point. Each change is one `core::curation::discussion` edit
//! and one undoable step (`undo::edit`); a likely secret is kept but
//! warned about in the status line (the CLI refuses it).

use crate::core::curation::discussion as talk;
use crate::core::tokens;
use crate::text::sanitize::display_line;
use crate::text::words::plural;

use crate::tui::input::action::Action;
use crate::tui::messages::{EditPurpose, Effect};
use crate::tui::state::{Level, State};
use crate::tui::undo::edit;

/// The image file under the tree cursor, if it is one.
pub fn image_under_cursor(state: &State) -> Option<String> {
    state
        .current_file()
        .filter(|p| talk::is_image(p))
        .map(str::to_string)
}

/// Space on an image file: add it to the screenshots, or remove it.
/// The file must be a regular file whose links stay inside the root.
pub fn toggle_screenshot(state: &mut State) -> Vec<Effect> {
    let Some(path) = image_under_cursor(state) else {
        return Vec::new();
    };
    let listed = state.preset_screenshots().contains(&path);
    if !listed {
        let root = &state.project.root;
        if let Err(problem) = crate::core::paths::confine::check_file_inside(root, &path) {
            state.say(Level::Warn, problem.to_string());
            return Vec::new();
        }
    }
    edit(state, |preset, _| {
        let on = talk::toggle_screenshot(preset, &path).map_err(|e| e.to_string())?;
        Ok(format!(
            "{path}: {} · {}",
            if on {
                "screenshot added"
            } else {
                "screenshot removed"
            },
            plural(preset.screenshots.len(), "screenshot")
        ))
    })
}

/// `e`: open the editor on the active preset's task.
pub fn edit_task(state: &mut State) -> Vec<Effect> {
    let task = state.preset().task;
    let initial_text = if task.is_empty() {
        task
    } else {
        format!("{task}\n")
    };
    vec![Effect::Edit {
        purpose: EditPurpose::Task,
        initial_text,
    }]
}

/// `E`: open the editor on a new message's template.
pub fn discuss_add(_state: &mut State) -> Vec<Effect> {
    vec![Effect::Edit {
        purpose: EditPurpose::Message,
        initial_text: talk::message_template(talk::DEFAULT_ROLE),
    }]
}

/// `ctrl-k`: add a compaction point (the rendered history starts there).
pub fn discuss_compact(state: &mut State) -> Vec<Effect> {
    // The core's refusal offers a summary to start with, which only the
    // CLI takes: the TUI says what is so, and what it can do.
    if talk::messages_since_compaction(&state.preset()) == 0 {
        let add = state.keymap.key_name(Action::DiscussAdd);
        state.say(
            Level::Warn,
            format!(
                "no messages since the last compaction point: nothing to compact ({add} adds one)"
            ),
        );
        return Vec::new();
    }
    edit(state, |preset, _| {
        let hidden = talk::messages_since_compaction(preset);
        talk::add_compaction(preset, "").map_err(|e| e.to_string())?;
        Ok(format!(
            "discussion: compaction point added · the {} before it {} no longer sent",
            plural(hidden, "message"),
            if hidden == 1 { "is" } else { "are" }
        ))
    })
}

/// The editor closed: set the task or add the message it holds. A failed,
/// unchanged or empty edit changes nothing, and says so.
pub fn on_edited(
    state: &mut State,
    purpose: EditPurpose,
    before: &str,
    result: Result<String, String>,
) -> Vec<Effect> {
    let written = match result {
        Ok(text) => text,
        Err(problem) => {
            state.say(
                Level::Error,
                format!("editor: {} · nothing changed", display_line(&problem, 200)),
            );
            return Vec::new();
        }
    };
    if written == before {
        state.say(
            Level::Info,
            match purpose {
                EditPurpose::Task => "task unchanged",
                EditPurpose::Message => "no message written: discussion unchanged",
            },
        );
        return Vec::new();
    }
    match purpose {
        EditPurpose::Task => set_task(state, &written),
        EditPurpose::Message => add_message(state, &written),
    }
}

fn set_task(state: &mut State, written: &str) -> Vec<Effect> {
    let tokenizer = state.project.settings.tokenizer;
    let effects = edit(state, |preset, _| {
        if !talk::set_task(preset, written) {
            return Ok("task unchanged".to_string());
        }
        Ok(if preset.task.is_empty() {
            "task cleared".to_string()
        } else {
            format!(
                "task set · {} tokens",
                tokens::count(tokenizer, &preset.task)
            )
        })
    });
    if !effects.is_empty() {
        warn_secrets(state, "the task", written);
    }
    effects
}

fn add_message(state: &mut State, written: &str) -> Vec<Effect> {
    let Some((role, text)) = talk::parse_message(written) else {
        state.say(Level::Info, "empty message: nothing added");
        return Vec::new();
    };
    let effects = edit(state, |preset, _| {
        talk::add_message(preset, &role, &text).map_err(|e| format!("{e}: nothing added"))?;
        Ok(format!(
            "discussion: {}",
            plural(talk::message_count(preset), "message")
        ))
    });
    if !effects.is_empty() {
        warn_secrets(state, "the message", &text);
    }
    effects
}

/// Keep the status line's message and add a warning when `text` holds a
/// likely secret (kept: the user wrote it; `y` asks again before copying).
fn warn_secrets(state: &mut State, what: &str, text: &str) {
    let Some(found) = talk::secrets_in(text) else {
        return;
    };
    let said = state.status.take().map(|(s, _)| s).unwrap_or_default();
    state.say(
        Level::Warn,
        format!("{said} · warning: {what} holds {found}"),
    );
}
