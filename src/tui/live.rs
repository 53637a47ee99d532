//! Following the files on disk: the project's watch (`core::watch`, run
//! by the event loop) reports paths that changed; this walks the project
//! again in the background and, when the whole list is back, puts it in
//! the tree at once, keeping the cursor on its path, forgetting what the
//! panes held for the files that changed, and composing again (gauge and
//! preview follow). A deleted file leaves the tree; a preset entry naming
//! it stays, shown missing, as after `R`.

use std::sync::Arc;

use crate::core::watch::Changes;
use crate::tui::messages::{Effect, Event};
use crate::tui::navigate::follow_cursor;
use crate::tui::state::{Level, State};
use crate::tui::tree::FileTree;
use crate::tui::undo::recompose;

/// The live events, for `update`.
pub fn on_event(state: &mut State, event: Event) -> Vec<Effect> {
    match event {
        Event::FilesChanged(changes) => on_changed(state, changes),
        Event::Rewalked(files) => on_rewalked(state, files),
        Event::WatchFailed(why) => {
            on_failed(state, &why);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Files changed: walk again, unless a walk is under way (then once more
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
    live.changed.extend(paths);
    live.overflowed |= changes.overflowed;
    if live.in_flight || !state.walk.done {
        live.again = true;
        return Vec::new();
    }
    live.in_flight = true;
    vec![Effect::Rewalk]
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
    // Files may have changed: the picker counts its presets again.
    state.preset_totals.by_key.clear();
    forget_changed(state);
    // Inclusion resolved over the new list; rows rebuilt with the cursor
    // on the same path (or, its file gone, the row that took its place).
    state.refresh();
    let mut effects = recompose(state);
    effects.extend(follow_cursor(state));
    if std::mem::take(&mut state.walk.live.again) {
        state.walk.live.in_flight = true;
        effects.push(Effect::Rewalk);
    }
    effects
}

/// What the panes hold for a changed file (its symbols, its raw text,
/// its block outside the composition) is read again when next shown.
fn forget_changed(state: &mut State) {
    let changed = std::mem::take(&mut state.walk.live.changed);
    let all = std::mem::take(&mut state.walk.live.overflowed);
    let touched = |p: &str| all || changed.contains(p);
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
