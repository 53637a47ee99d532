//! Following the files on disk: the project's watch (`core::watch`, run
//! by the event loop) reports paths that changed; this looks at those
//! paths again in the background (`core::walk::rescan`, by the walk's own
//! rules) and patches the walk and the tree there only — a file or folder
//! added or removed, the open folders and the cursor as they were — then
//! forgets what the panes held for the changed files and composes again
//! (gauge and preview follow). The whole project is walked again only when
//! a report overflowed, an ignore file changed or the ignore settings did
//! (what any path shows may differ then). One walk for changes at a time;
//! what changes meanwhile waits for the next. A deleted file leaves the
//! tree; a preset entry naming it stays, shown missing, as after `R`.
//!
//! The user's own state file is followed too (the event loop looks at it
//! when idle): a `ctxcurate preset apply` from a shell switches the app's
//! preset, and the status says so. Here only: the app's own saves keep
//! such a change in the file without taking it in
//! (`Project::save_personal`), so a switch from outside is always said,
//! composed and one undo step, however soon after it the user edits.

use std::sync::Arc;

use crate::core::project::CheckoutState;
use crate::core::walk::WalkDelta;
use crate::core::watch::{Changes, is_control_file};
use crate::text::sanitize::display_line;
use crate::tui::messages::{Effect, Event};
use crate::tui::navigate::follow_cursor;
use crate::tui::state::tree::FileTree;
use crate::tui::state::{Level, State};
use crate::tui::undo::recompose;

/// The live events, for `update`.
pub fn on_event(state: &mut State, event: Event) -> Vec<Effect> {
    match event {
        Event::FilesChanged(changes) => on_changed(state, changes),
        Event::Rewalked(files) => on_rewalked(state, files),
        Event::Rescanned(delta) => on_rescanned(state, delta),
        Event::PersonalChanged(disk) => on_personal(state, *disk),
        Event::WatchFailed(why) => {
            on_failed(state, &why);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Files changed: look at them again, unless a walk is under way (then
/// after it, so nothing it missed stays missed).
fn on_changed(state: &mut State, changes: Changes) -> Vec<Effect> {
    // The project file is the saver's to follow (the app's own saves come
    // back here too): it alone changes no file of the tree.
    let own = project_file(state);
    let paths: Vec<String> = changes
        .paths
        .into_iter()
        .filter(|p| Some(p.as_str()) != own.as_deref())
        .collect();
    if paths.is_empty() && !changes.overflowed {
        return Vec::new();
    }
    let live = &mut state.walk.live;
    // A name that is not UTF-8 is listed lossily (`�`): no path leads back
    // to it, so only a whole walk sees it as it is.
    live.whole |= changes.overflowed
        || paths
            .iter()
            .any(|p| is_control_file(p) || p.contains(char::REPLACEMENT_CHARACTER));
    live.changed.extend(paths.iter().cloned());
    live.pending.extend(paths);
    live.overflowed |= changes.overflowed;
    if live.in_flight || !state.walk.done {
        live.again = true;
        return Vec::new();
    }
    next_walk(state).into_iter().collect()
}

/// The walk for the changes seen so far (see
/// [`State::next_walk_for_changes`]).
pub fn next_walk(state: &mut State) -> Option<Effect> {
    state.next_walk_for_changes().map(Effect::from)
}

/// The project file's root-relative path, when it lies in the root.
pub fn project_file(state: &State) -> Option<String> {
    let rel = state.project.path.strip_prefix(&state.project.root).ok()?;
    Some(crate::core::walk::rel_string(rel))
}

/// A whole walk is back: it replaces the tree's files (and what globs
/// expand over), the panes forget the changed files, and the preset is
/// composed again.
fn on_rewalked(state: &mut State, files: Vec<String>) -> Vec<Effect> {
    state.walk.live.in_flight = false;
    // An `R` walk began meanwhile: it streams the newest list itself.
    if !state.walk.done {
        state.walk.live.again = true;
        return Vec::new();
    }
    let mut tree = FileTree::new();
    for f in &files {
        tree.insert(f);
    }
    state.tree.files = tree;
    state.walk.walked = Arc::new(files);
    state.add_explicit_files();
    state.finish_walk();
    after_walk(state, true)
}

/// The changed paths were looked at again: the walk and the tree are
/// patched where they differ (a list only written to changes neither),
/// the panes forget the changed files, and the preset is composed again.
fn on_rescanned(state: &mut State, delta: WalkDelta) -> Vec<Effect> {
    state.walk.live.in_flight = false;
    if !state.walk.done {
        // An `R` walk began meanwhile; the paths are looked at after it.
        state.walk.live.pending.extend(delta.scopes);
        state.walk.live.again = true;
        return Vec::new();
    }
    // A new list (never the old one changed in place: the resolution
    // knows a walk by its allocation), the resolution patched to it; none
    // when files were only written.
    let applied = match delta.applied_to(&state.walk.walked) {
        Some((files, applied)) => {
            state.follow_walk(files, &applied);
            applied
        }
        None => Default::default(),
    };
    for f in &applied.removed {
        state.tree.files.remove(f);
    }
    for f in &applied.added {
        state.tree.files.insert(f);
    }
    // A removed file the preset names stays, shown missing.
    state.add_explicit_files();
    after_walk(state, !applied.is_empty())
}

/// What follows a walk for changes, whole or patched (`listed`: the list
/// of files changed, not only files in it).
fn after_walk(state: &mut State, listed: bool) -> Vec<Effect> {
    // Files may have changed: the picker counts its presets again.
    state.preset_totals.by_key.clear();
    forget_changed(state);
    // Inclusion resolved over the new list; rows rebuilt with the cursor
    // on the same path (or, its file gone, the row that took its place).
    state.refresh();
    // An open finder ranks the files as they are now.
    if listed && let Some(finder) = state.finder.as_mut() {
        finder.replace(state.walk.walked.iter().cloned());
    }
    let mut effects = recompose(state);
    effects.extend(follow_cursor(state));
    if std::mem::take(&mut state.walk.live.again) {
        effects.extend(next_walk(state));
    }
    effects
}

/// Another program changed the user's own state file (a `preset apply`
/// from a shell): what this session did not change itself is taken in,
/// the preset composed again, and the status says what came. One step
/// of the history (`u` goes back, and saves that).
fn on_personal(state: &mut State, disk: CheckoutState) -> Vec<Effect> {
    let before = state.project.file.clone();
    let adopted = state.project.adopt_personal(disk);
    if adopted.is_empty() {
        return Vec::new();
    }
    let message = if adopted.contains(&"active_preset") {
        // Proposals belong to the preset they were made for.
        state.discovery = None;
        format!(
            "preset switched to {} outside the app",
            display_line(state.project.active_preset_name(), 60)
        )
    } else {
        let what: Vec<String> = adopted
            .iter()
            .map(|k| match state.project.file.personal.get(k) {
                Some(v) => format!("{k} = {}", display_line(&v.to_string(), 40)),
                None => format!("{k} back to the project's"),
            })
            .collect();
        format!("{} set outside the app", what.join(", "))
    };
    state
        .history
        .record(before, state.project.file.clone(), message.clone());
    state.add_explicit_files();
    state.refresh();
    state.say(Level::Info, message);
    recompose(state)
}

/// What the panes hold for a changed file (its symbols, its raw text,
/// its block outside the composition) is read again when next shown.
fn forget_changed(state: &mut State) {
    let changed = std::mem::take(&mut state.walk.live.changed);
    let all = std::mem::take(&mut state.walk.live.overflowed);
    // A folder is reported by its own path when it came whole (replaced,
    // moved in): what lies under it changed too.
    let named = |p: &str| {
        std::iter::successors(Some(p), |q| q.rsplit_once('/').map(|(up, _)| up))
            .any(|q| changed.contains(q))
    };
    let touched = |p: &str| all || named(p);
    if state
        .symbols
        .view
        .as_ref()
        .is_some_and(|v| touched(&v.path))
    {
        state.symbols.view = None;
    }
    if state
        .preview
        .raw_text
        .as_ref()
        .is_some_and(|(p, _)| touched(p))
    {
        state.preview.raw_text = None;
    }
    state.preview.blocks.retain(|p, _| !touched(p));
    // Their counts are of the old text: the gauge counts them again (the
    // named ones: after an overflow the composition brings every count,
    // and meanwhile the gauge keeps showing the old ones).
    let before = state.composition.block_tokens.len();
    state.composition.block_tokens.retain(|p, _| !named(p));
    if state.composition.block_tokens.len() != before {
        state.composition.forget_sum();
    }
}

/// Watching stopped: said once; the tree stays as walked and `R` walks
/// again by hand.
fn on_failed(state: &mut State, why: &str) {
    if std::mem::replace(&mut state.walk.live.failed, true) {
        return;
    }
    let rescan = state
        .keymap
        .key_name(crate::tui::input::action::Action::Refresh);
    state.say(
        Level::Warn,
        format!("files are no longer followed live: {why} ({rescan} rescans)"),
    );
}
