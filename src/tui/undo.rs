//! Undo steps: the one way a change of the project file becomes an
//! undoable step (the snapshot before it goes on the undo stack), is
//! saved, and asks for a fresh composition; and undo and redo themselves.
//! Every handler that changes the preset or the settings ends here; it
//! never calls back into `update`.

pub mod list;
pub mod render;

use crate::core::model::{Preset, ProjectFile};
use crate::core::project::Scope;

use crate::tui::messages::{ComposeJob, CountJob, Effect, Job};
use crate::tui::state::{Level, State};

/// At most this many uncounted files are counted ahead of a compose.
const COUNT_AHEAD: usize = 256;

/// Run `edit` on the active preset as one undoable step. The closure
/// returns the status message, or an error message (nothing changes).
pub fn edit(
    state: &mut State,
    edit: impl FnOnce(&mut Preset, &State) -> Result<String, String>,
) -> Vec<Effect> {
    let before = state.project.file.clone();
    let mut preset = state.preset();
    match edit(&mut preset, state) {
        // An edit that changed nothing leaves the file alone (a global
        // or missing preset is not copied in for nothing).
        Ok(message) if preset == state.preset() => {
            state.say(Level::Info, message);
            Vec::new()
        }
        Ok(mut message) => {
            let name = state.project.active_preset_name();
            if let Some((_, Scope::Global)) = state.project.preset(name) {
                // The user's own preset now lives where the team reads it.
                message.push_str(&format!(
                    " · your global preset {name} copied into ctxcurate.toml"
                ));
            }
            *state.project.active_preset_mut() = preset;
            commit(state, before, message)
        }
        Err(message) => {
            state.say(Level::Warn, message);
            Vec::new()
        }
    }
}

/// Record `before` for undo, refresh what derives from the preset, save
/// and recompose.
pub fn commit(state: &mut State, before: ProjectFile, mut message: String) -> Vec<Effect> {
    if state.project.file == before {
        state.say(Level::Info, message);
        return Vec::new();
    }
    state
        .history
        .record(before, state.project.file.clone(), message.clone());
    // A pending discovery was packed for the preset as it was.
    if state.discovery.take().is_some() {
        message.push_str(" · discovery proposals dropped (press i again)");
    }
    state.project.refresh_settings();
    state.refresh();
    state.say(Level::Info, message);
    let mut effects = vec![Effect::Save];
    effects.extend(recompose(state));
    effects
}

/// Update the gauge from cached counts (asking the worker to count the
/// few files it lacks first) and ask for a fresh composition (older
/// answers are dropped).
pub fn recompose(state: &mut State) -> Vec<Effect> {
    // The ignore settings changed with the file: the tree is walked again
    // (and composed again once that is back).
    let mut rewalk: Vec<Effect> = state
        .follow_ignore_settings()
        .map(Effect::from)
        .into_iter()
        .collect();
    state.composition.generation += 1;
    let missing = state.refresh_gauge();
    let mut effects = Vec::new();
    // A few new files are counted ahead of the compose so the gauge moves
    // at once; a cold start just waits for the composition.
    if !missing.is_empty() && missing.len() <= COUNT_AHEAD {
        effects.push(Effect::job(Job::Count(CountJob {
            files: missing,
            opts: state.compose_options(),
            tokenizer: state.project.settings.tokenizer,
        })));
    }
    effects.push(Effect::job(Job::Compose(ComposeJob {
        generation: state.composition.generation,
        preset: state.preset(),
        opts: state.compose_options(),
        map: state.map_options(),
        tokenizer: state.project.settings.tokenizer,
        walked: state.walk.walked.clone(),
    })));
    rewalk.append(&mut effects);
    rewalk
}

/// Undo: the project file before the last change comes back.
pub fn undo(state: &mut State) -> Vec<Effect> {
    undo_redo(state, true)
}

/// Redo: the change undone last is made again.
pub fn redo(state: &mut State) -> Vec<Effect> {
    undo_redo(state, false)
}

/// Undo (`undo`) or redo one step of the history, as one more change of
/// the project file: saved, and recomposed.
pub fn undo_redo(state: &mut State, undo: bool) -> Vec<Effect> {
    let Some(label) = state.history.step(undo, &mut state.project.file) else {
        state.say(
            Level::Info,
            if undo {
                "nothing to undo"
            } else {
                "nothing to redo"
            },
        );
        return Vec::new();
    };
    // The step's name in quotes: "undone: deleted preset minimal" read
    // as if the undo had deleted it.
    let verb = if undo { "undone" } else { "redone" };
    after_history_move(state, format!("{verb} \"{label}\""))
}

/// The project file was replaced by a state of the history (undo, redo,
/// a jump from the list): what derives from it follows, it is saved and
/// recomposed.
pub fn after_history_move(state: &mut State, message: String) -> Vec<Effect> {
    state.project.refresh_settings();
    state.add_explicit_files();
    state.refresh();
    state.say(Level::Info, message);
    let mut effects = vec![Effect::Save];
    effects.extend(recompose(state));
    effects
}
