//! Running the effects `update` returns: the one interpreter that the
//! event loop (`app`) and the headless harness (`harness`) share, so the
//! harness tests exercise the real one. What differs between the two is
//! only how an effect is carried out, behind [`Runtime`]: the app hands
//! saves and jobs to its threads (their results come back later as
//! events), the harness runs them inline and hands their events back at
//! once. Either way every result goes through `update`, in order.

use std::collections::VecDeque;
use std::path::Path;

use crate::core::model::{ProjectFile, Settings};

use crate::core::walk::WalkPatterns;
use crate::tui::messages::{EditPurpose, Effect, Event, Job};
use crate::tui::project_sync::SyncOutcome;
use crate::tui::state::State;
use crate::tui::state::model::{CopyFailure, PendingWrite};
use crate::tui::update::update;

/// How effects are carried out. Each method returns the events that are
/// known at once (none when the result arrives later through the loop).
pub trait Runtime {
    /// Save the project file as it is in the state.
    fn save(&mut self, file: &ProjectFile) -> Option<Event>;
    /// Run a job (on the worker, or inline).
    fn job(&mut self, job: Job, settings: &Settings) -> Option<Event>;
    /// Run a job that [`Job::runs_apart`] (git) in `root`: on a thread
    /// of its own, never on the worker (or inline).
    fn apart(&mut self, root: &Path, job: Job) -> Option<Event>;
    /// Walk the project again with the settings' ignore rules (the walk
    /// streams `Walked` events).
    fn walk(&mut self, root: &Path, patterns: WalkPatterns) -> Vec<Event>;
    /// Walk the project whole (files changed on disk) and hand the sorted
    /// list back as one [`Event::Rewalked`] (later, or at once).
    fn rewalk(&mut self, root: &Path, patterns: WalkPatterns) -> Vec<Event>;
    /// Look at the `changed` paths again by the walk's rules
    /// ([`crate::core::walk::rescan`]) and hand what the walk shows there
    /// back as one [`Event::Rescanned`] (later, or at once).
    fn rescan(&mut self, root: &Path, patterns: WalkPatterns, changed: Vec<String>) -> Vec<Event>;
    /// Put text on the clipboard; where it went, or why not (and whether
    /// only its size stood in the way: see [`CopyFailure`]).
    fn copy(&mut self, text: &str) -> Result<String, CopyFailure>;
    /// Let the user edit `text` in an external editor (the app hands the
    /// terminal over and waits; the harness answers from a script): the
    /// text saved, or why there is none.
    fn edit(&mut self, purpose: EditPurpose, text: &str) -> Result<String, String>;
}

/// Run `effects`, and the effects of the events they give back, to
/// quiescence (first in, first out).
pub fn run(state: &mut State, effects: Vec<Effect>, runtime: &mut dyn Runtime) {
    let mut queue: VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        let events = match effect {
            Effect::Save => {
                // The user's own layer goes to their state directory (a
                // small file, written only when it changed); the shared
                // file to its saver.
                let mut events: Vec<Event> = personal_saved(state).into_iter().collect();
                events.extend(runtime.save(&state.project.file));
                events
            }
            Effect::Job(job) if job.runs_apart() => runtime
                .apart(&state.project.root, *job)
                .into_iter()
                .collect(),
            // A held entry's text is neither copied nor shown (`Y`, `r`).
            Effect::Job(job) if let Some(why) = crate::tui::update::refuse_held(state, &job) => {
                vec![Event::JobFailed(why)]
            }
            Effect::Job(job) => runtime
                .job(*job, &state.project.settings)
                .into_iter()
                .collect(),
            Effect::Walk => runtime.walk(
                &state.project.root,
                WalkPatterns::from_settings(&state.project.settings),
            ),
            Effect::Rewalk => runtime.rewalk(
                &state.project.root,
                WalkPatterns::from_settings(&state.project.settings),
            ),
            Effect::Rescan(changed) => runtime.rescan(
                &state.project.root,
                WalkPatterns::from_settings(&state.project.settings),
                changed,
            ),
            Effect::Copy {
                text,
                label,
                tokens,
                tokenizer,
                findings,
                allow_secrets,
            } => match runtime.copy(&text) {
                // Too large for OSC 52 alone: the user is offered the
                // output file, which takes the text as it is.
                Err(CopyFailure {
                    over_cap: Some(over),
                    ..
                }) => vec![Event::CopyOverCap(Box::new(PendingWrite {
                    text,
                    label,
                    findings,
                    allow_secrets,
                    over,
                    opened: state.clock.now(),
                }))],
                result => vec![Event::Copied {
                    label,
                    tokens,
                    tokenizer,
                    result: result.map_err(|e| e.message),
                }],
            },
            Effect::CopyPath { path, wrote } => vec![Event::PathCopied {
                wrote,
                result: runtime.copy(&path).map_err(|e| e.message),
            }],
            Effect::Edit {
                purpose,
                initial_text,
            } => {
                let result = runtime.edit(purpose, &initial_text);
                vec![Event::Edited {
                    purpose,
                    before: initial_text,
                    result,
                }]
            }
        };
        for event in events {
            queue.extend(update(state, event));
        }
    }
}

/// Save the user's own state for this checkout (see
/// `core::project::personal`); a failure is said as a failed save is.
/// What another program changed there is kept, not taken in: that is
/// the idle look's (`Event::PersonalChanged`, `tui::live`).
fn personal_saved(state: &mut State) -> Option<Event> {
    let error = state.project.save_personal().err()?;
    let outcome = SyncOutcome::Failed(crate::text::error_chain(&error));
    Some(Event::Disk(Box::new(outcome)))
}
