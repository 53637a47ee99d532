//! Git in the TUI: mark the files changed against `HEAD` in the tree, and
//! include them in the preset as one undoable step — what `ctxcurate add
//! --changed` does from the shell. git is asked on a thread of its own,
//! never the composing worker (`Job::Changed` runs apart, through
//! `core::git` with its deadline), through the project's walk and the
//! preset's `exclude`, so the same files come out as on the command line;
//! outside a git repository (or in one that is not this checkout's own)
//! the status line says so and nothing changes.

use crate::core::curation;
use crate::core::git::ChangedInProject;
use crate::text::sanitize::display_line;
use crate::text::words::plural;

use crate::tui::input::action::Action;
use crate::tui::messages::{ChangedJob, Effect, Job};
use crate::tui::state::marks::ChangedMarks;
use crate::tui::state::{Level, State};
use crate::tui::undo::edit;

/// Mark the changed files in the tree, or unmark them when they are shown.
pub fn toggle_marks(state: &mut State) -> Vec<Effect> {
    if state.changed.take().is_some() {
        state.say(Level::Info, "changed files unmarked");
        return Vec::new();
    }
    ask_git(state, false)
}

/// Include every changed file the preset does not show yet (git is asked
/// again: the working tree may have moved on since the files were marked).
pub fn include(state: &mut State) -> Vec<Effect> {
    ask_git(state, true)
}

fn ask_git(state: &mut State, include: bool) -> Vec<Effect> {
    if !state.walk.done {
        state.say(
            Level::Warn,
            "still scanning the project: the changed files are known once the scan is done; try again in a moment",
        );
        return Vec::new();
    }
    state.say(Level::Info, "asking git what changed…");
    vec![Effect::job(Job::Changed(ChangedJob {
        include,
        walked: state.walk.walked.clone(),
        exclude: state.preset().exclude,
    }))]
}

/// git answered: mark the files, and include them if that was asked.
pub fn on_changed(
    state: &mut State,
    include: bool,
    result: Result<ChangedInProject, String>,
) -> Vec<Effect> {
    let changed = match result {
        Ok(c) => c,
        Err(e) => {
            state.changed = None;
            state.say(
                Level::Error,
                format!("git: {} (nothing changed)", display_line(&e, 300)),
            );
            return Vec::new();
        }
    };
    let notes = changed.notes();
    let marks = ChangedMarks::new(changed.against, changed.paths);
    let against = display_line(&marks.against, 60).into_owned();
    let found = marks.paths.len();
    let suffix: String = notes
        .iter()
        .map(|note| format!(" · {}", display_line(note, 200)))
        .collect();
    state.changed = Some(marks);
    if !include {
        let key = state.keymap.key_name(Action::IncludeChanged);
        state.say(
            Level::Info,
            format!(
                "{} against {against} marked ± in the tree{}{suffix}",
                plural(found, "changed file"),
                if found > 0 {
                    format!(" · {key} includes them")
                } else {
                    String::new()
                }
            ),
        );
        return Vec::new();
    }
    let new: Vec<String> = state
        .changed
        .iter()
        .flat_map(|m| m.paths.iter())
        .filter(|p| !state.is_included(p))
        .cloned()
        .collect();
    if new.is_empty() {
        state.say(
            Level::Info,
            format!(
                "{} against {against}, none to add: the preset shows them all{suffix}",
                plural(found, "changed file")
            ),
        );
        return Vec::new();
    }
    edit(state, |preset, _| {
        let mut added = 0usize;
        for path in &new {
            // A file git names that the preset may not hold (blacklisted
            // credentials) is skipped, as `add --changed` skips it.
            if curation::include(preset, path, None).is_ok() {
                added += 1;
            }
        }
        Ok(format!(
            "included {} against {against} ({} already in){suffix}",
            plural(added, "changed file"),
            found - new.len()
        ))
    })
}
