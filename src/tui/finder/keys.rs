//! The fuzzy file finder as an overlay (`Ctrl-p`): opening it over every
//! walked file, its keys (typed text narrows, Up/Down move, Space includes
//! or excludes, Enter goes to the file in the tree, Esc closes), the walk
//! batches that arrive while it is open, and the wake-ups from its matcher
//! threads. Ranking is [`Finder`] (nucleo, off the UI thread: a key only
//! sets the query and takes the latest results); drawing is
//! `render::finder`; which key means what is `dispatch::finder_key`.
//! Called from `update` and `overlays`.

use crate::text::sanitize::display_line;
use crate::tui::curate;
use crate::tui::input::action::Action;
use crate::tui::messages::{Effect, Event};
use crate::tui::navigate::follow_cursor;
use crate::tui::state::finder::Finder;
use crate::tui::state::{Level, Overlay, Pane, State};

/// `Ctrl-p`: open the finder over the files walked so far (batches still
/// streaming in are added as they arrive, see [`add_walked`]).
pub(crate) fn open(state: &mut State) -> Vec<Effect> {
    let mut finder = Finder::new(state.walk.walked.iter().cloned(), state.wake.clone());
    finder.tick(0);
    state.finder = Some(finder);
    state.overlay = Some(Overlay::Finder);
    Vec::new()
}

/// An action while the finder is open.
pub(crate) fn on_action(state: &mut State, action: Action) -> Vec<Effect> {
    let half = (state.screen.page / 2).max(1) as isize;
    let delta = match action {
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -half,
        Action::PageDown => half,
        Action::Confirm => return go_to_selected(state),
        Action::ToggleInclude => return toggle_selected(state),
        Action::Cancel | Action::Quit => {
            close(state);
            return Vec::new();
        }
        _ => return Vec::new(),
    };
    if let Some(finder) = state.finder.as_mut() {
        finder.move_selection(delta);
    }
    Vec::new()
}

/// A typed character, Backspace or Ctrl-u: a new query for the matcher
/// threads, and whatever results they already have (never waiting).
pub(crate) fn on_input(finder: &mut Finder, event: Event) {
    match event {
        Event::InputChar(c) if !c.is_control() => finder.push(c),
        Event::InputBackspace => finder.pop(),
        Event::InputClear => finder.set_query(""),
        _ => {}
    }
    finder.tick(0);
}

/// The matcher threads have new results (the loop was woken for it).
pub(crate) fn on_results(finder: Option<&mut Finder>) {
    if let Some(finder) = finder {
        finder.tick(0);
    }
}

/// A batch of the walk arrived while the finder is open: it ranks those
/// files too, so none is missed once the walk is done.
pub(crate) fn add_walked(finder: Option<&mut Finder>, batch: &[String]) {
    if let Some(finder) = finder {
        finder.extend(batch.iter().cloned());
    }
}

/// Close the finder (its matcher threads end with it).
fn close(state: &mut State) {
    state.overlay = None;
    state.finder = None;
}

/// Space (or Tab): include or exclude the selected file, staying in the
/// finder; the same undoable edit as Space in the tree.
fn toggle_selected(state: &mut State) -> Vec<Effect> {
    match state.finder.as_ref().and_then(Finder::selected_path) {
        Some(path) => curate::toggle_file(state, &path),
        None => Vec::new(),
    }
}

/// Enter: close the finder and go to the selected file in the tree.
fn go_to_selected(state: &mut State) -> Vec<Effect> {
    let path = state.finder.as_ref().and_then(Finder::selected_path);
    close(state);
    match path {
        Some(path) => reveal(state, &path),
        None => Vec::new(),
    }
}

/// Put the tree cursor on `path` and focus the tree: its folders are
/// opened, and a tree filter that hides it is cleared. The symbols and
/// preview panes follow the cursor, as after any move.
fn reveal(state: &mut State, path: &str) -> Vec<Effect> {
    for (i, _) in path.match_indices('/') {
        state.tree.open_dirs.insert(path[..i].to_string());
    }
    state.refresh_rows();
    let mut row = state.tree.rows.iter().position(|r| r.path == path);
    if row.is_none() && !state.tree.filter.is_empty() {
        state.tree.filter.clear();
        state.refresh_rows();
        row = state.tree.rows.iter().position(|r| r.path == path);
    }
    let Some(row) = row else {
        state.say(
            Level::Warn,
            format!("{} is not in the tree", display_line(path, 80)),
        );
        return Vec::new();
    };
    state.tree.range_anchor = None;
    state.tree.cursor = row;
    state.focus = Pane::Tree;
    follow_cursor(state)
}
