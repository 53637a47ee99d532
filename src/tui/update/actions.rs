//! The handlers of the action table (`input::action::action_table!`):
//! each row's function, as `on_action` calls it when no overlay takes the
//! key. A handler is a `fn(&mut State) -> Vec<Effect>`; the ones a feature
//! owns live in its module (`discover::accept`, `undo::undo`, …), the
//! small ones that only move the app's own state live here.

use crate::core::model::{MaskState, ViewMode};
use crate::core::walk;

use crate::tui::changed;
use crate::tui::curate::{self, Batch};
use crate::tui::discover;
use crate::tui::discuss;
use crate::tui::finder;
use crate::tui::input::action::Action;
use crate::tui::messages::{Effect, FileJob, Job, WriteJob, YankJob};
use crate::tui::navigate::{follow_cursor, navigate};
use crate::tui::overlays;
use crate::tui::preview::{follow, raw};
use crate::tui::state::{Level, Overlay, Pane, Prompt, State};
use crate::tui::symbols;
use crate::tui::tokens;
use crate::tui::undo;

/// What an action does: the function in its row of the action table.
pub type Handler = fn(&mut State) -> Vec<Effect>;

/// Expands the action table into [`handler`].
macro_rules! dispatch_table {
    ($($variant:ident => $name:literal, $doc:literal, $handler:path;)+) => {
        /// The handler in `action`'s row of the table.
        pub fn handler(action: Action) -> Handler {
            match action {
                $(Action::$variant => $handler,)+
            }
        }
    };
}

crate::tui::input::action::action_table!(dispatch_table);

/// Handlers that hand their own action on to a shared one (a move, a
/// preset of the picker).
macro_rules! with_action {
    ($($name:ident => $shared:path, $action:ident;)+) => {
        $(fn $name(state: &mut State) -> Vec<Effect> {
            $shared(state, Action::$action)
        })+
    };
}

with_action! {
    up => navigate, Up;
    down => navigate, Down;
    page_up => navigate, PageUp;
    page_down => navigate, PageDown;
    top => navigate, Top;
    bottom => navigate, Bottom;
    collapse => navigate, Collapse;
    expand => navigate, Expand;
    preset_1 => overlays::picker::switch_preset, Preset1;
    preset_2 => overlays::picker::switch_preset, Preset2;
    preset_3 => overlays::picker::switch_preset, Preset3;
    preset_4 => overlays::picker::switch_preset, Preset4;
    preset_5 => overlays::picker::switch_preset, Preset5;
    preset_6 => overlays::picker::switch_preset, Preset6;
    preset_7 => overlays::picker::switch_preset, Preset7;
    preset_8 => overlays::picker::switch_preset, Preset8;
    preset_9 => overlays::picker::switch_preset, Preset9;
    preset_next => overlays::picker::switch_preset, PresetNext;
    preset_prev => overlays::picker::switch_preset, PresetPrev;
}

fn quit(state: &mut State) -> Vec<Effect> {
    if state.save_locked.is_some() {
        // Quitting would wait for the lock (or drop the change): the user
        // decides which; once the save is done, the app quits.
        state.overlay = Some(Overlay::ConfirmQuit);
        state.quit_after_save = true;
    } else {
        state.quit = true;
    }
    Vec::new()
}

fn help(state: &mut State) -> Vec<Effect> {
    state.overlay = Some(Overlay::Help { scroll: 0 });
    Vec::new()
}

fn next_pane(state: &mut State) -> Vec<Effect> {
    state.focus = state.focus.next();
    Vec::new()
}

fn prev_pane(state: &mut State) -> Vec<Effect> {
    state.focus = state.focus.prev();
    Vec::new()
}

fn zoom(state: &mut State) -> Vec<Effect> {
    state.screen.zoom = !state.screen.zoom;
    Vec::new()
}

fn token_map(state: &mut State) -> Vec<Effect> {
    let path = tokens::path_at(state, 0);
    state.overlay = Some(Overlay::Tokens { path });
    Vec::new()
}

/// Space: an image goes to the screenshots, anything else in or out of
/// the preset.
fn toggle_include(state: &mut State) -> Vec<Effect> {
    if discuss::image_under_cursor(state).is_some() {
        discuss::toggle_screenshot(state)
    } else {
        curate::toggle_include(state)
    }
}

fn next_mode(state: &mut State) -> Vec<Effect> {
    curate::cycle_mode(state, true)
}

fn prev_mode(state: &mut State) -> Vec<Effect> {
    curate::cycle_mode(state, false)
}

fn toggle_force_full(state: &mut State) -> Vec<Effect> {
    curate::toggle_flag(state, true)
}

fn toggle_aggregate(state: &mut State) -> Vec<Effect> {
    curate::toggle_flag(state, false)
}

fn select_range(state: &mut State) -> Vec<Effect> {
    // Like visual mode: `v` starts, movement extends, Space or a batch
    // key applies; `v` again (or Esc) cancels, and says so.
    if state.tree.range_anchor.take().is_some() {
        state.say(Level::Info, "selection cancelled");
    } else {
        state.tree.range_anchor = Some(state.tree.cursor);
        // The hints name the keys that act on a selection.
        state.status = None;
    }
    Vec::new()
}

/// `!`: the session's status messages, whole.
fn show_message(state: &mut State) -> Vec<Effect> {
    state.overlay = Some(Overlay::Messages);
    Vec::new()
}

fn batch_full(state: &mut State) -> Vec<Effect> {
    curate::batch(state, Batch::Mode(ViewMode::Full))
}

fn batch_summary(state: &mut State) -> Vec<Effect> {
    curate::batch(state, Batch::Mode(ViewMode::Summary))
}

fn batch_skeleton(state: &mut State) -> Vec<Effect> {
    curate::batch(state, Batch::Mode(ViewMode::Skeleton))
}

fn batch_masked_def(state: &mut State) -> Vec<Effect> {
    curate::batch(state, Batch::MaskedDef)
}

fn batch_remove(state: &mut State) -> Vec<Effect> {
    curate::batch(state, Batch::Remove)
}

fn mask_def(state: &mut State) -> Vec<Effect> {
    mask_current(state, Some(MaskState::Def))
}

fn mask_sig(state: &mut State) -> Vec<Effect> {
    mask_current(state, Some(MaskState::Sig))
}

fn mask_agg(state: &mut State) -> Vec<Effect> {
    mask_current(state, Some(MaskState::Agg))
}

fn mask_hide(state: &mut State) -> Vec<Effect> {
    mask_current(state, Some(MaskState::Hide))
}

fn mask_cycle(state: &mut State) -> Vec<Effect> {
    mask_current(state, None)
}

fn mask_default_cycle(state: &mut State) -> Vec<Effect> {
    if state.focus == Pane::Symbols {
        curate::cycle_mask_default(state)
    } else {
        Vec::new()
    }
}

/// Mask the symbol under the symbols cursor (`None`: its next state).
fn mask_current(state: &mut State, to: Option<MaskState>) -> Vec<Effect> {
    if state.focus != Pane::Symbols {
        return Vec::new();
    }
    match state.symbols.selected().map(|s| s.path.clone()) {
        Some(symbol) => curate::mask(state, &symbol, to),
        None => Vec::new(),
    }
}

fn presets(state: &mut State) -> Vec<Effect> {
    let active = state.project.active_preset_name().to_string();
    let cursor = state
        .project
        .preset_names()
        .iter()
        .position(|(n, _)| *n == active)
        .unwrap_or(0);
    state.overlay = Some(Overlay::Picker { cursor });
    tokens::keys::ask_preset_totals(state)
}

/// `/`: filter the focused list, the symbols or (from anywhere else) the
/// tree.
fn filter(state: &mut State) -> Vec<Effect> {
    if state.focus == Pane::Symbols {
        return symbols::filter::open(state);
    }
    state.focus = Pane::Tree;
    state.overlay = Some(Overlay::Input {
        prompt: Prompt::Filter,
        buffer: state.tree.filter.clone(),
    });
    Vec::new()
}

fn refresh(state: &mut State) -> Vec<Effect> {
    state.begin_walk();
    state.say(Level::Info, "scanning the project again…");
    vec![Effect::Walk]
}

fn cycle_strategy(state: &mut State) -> Vec<Effect> {
    change_setting(state, |st| {
        let next = st.project.settings.strategy.next();
        st.project.file.personal.set("strategy", next);
        format!("strategy: {next}")
    })
}

/// The symbols' costs follow on their own (`update` asks for them
/// counted again after any change of the tokenizer).
fn cycle_tokenizer(state: &mut State) -> Vec<Effect> {
    change_setting(state, |st| {
        let next = st.project.settings.tokenizer.next();
        st.project.file.personal.set("tokenizer", next);
        format!("tokenizer: {next}")
    })
}

/// A change of one of the user's own settings (the personal layer, never
/// the shared file), as one undoable step.
fn change_setting(state: &mut State, f: impl FnOnce(&mut State) -> String) -> Vec<Effect> {
    let before = state.project.file.clone();
    let message = f(state);
    undo::commit(state, before, message)
}

/// Enter outside an overlay: in the raw preview it marks a slice.
fn confirm(state: &mut State) -> Vec<Effect> {
    if state.focus == Pane::Preview && state.preview.raw {
        raw::slice_mark(state)
    } else {
        Vec::new()
    }
}

/// Esc outside an overlay: drops a slice mark, else a range selection,
/// else the filter (the symbols' in the symbols pane).
fn cancel(state: &mut State) -> Vec<Effect> {
    if state.focus == Pane::Symbols && !state.symbols.filter.is_empty() {
        return symbols::filter::clear(state);
    }
    if state.preview.slice_anchor.take().is_none()
        && state.tree.range_anchor.take().is_none()
        && !state.tree.filter.is_empty()
    {
        state.tree.clear_filter();
        return follow_cursor(state);
    }
    Vec::new()
}

/// The picker's own keys (new, rename, delete) do nothing outside it.
fn picker_only(_: &mut State) -> Vec<Effect> {
    Vec::new()
}

fn search_next(state: &mut State) -> Vec<Effect> {
    follow::search_step(state, true);
    Vec::new()
}

fn search_prev(state: &mut State) -> Vec<Effect> {
    follow::search_step(state, false);
    Vec::new()
}

/// `y`: copy the composition (the discovery's packed one while shown).
fn yank(state: &mut State) -> Vec<Effect> {
    if scanning_for_globs(state) {
        return still_scanning(state);
    }
    state.say(Level::Info, "composing…");
    vec![Effect::job(Job::Yank(YankJob {
        preset: state.preset(),
        opts: state.compose_options(),
        map: state.map_options(),
        tokenizer: state.project.settings.tokenizer,
        walked: state.walk.walked.clone(),
        ready: shown_pack(state),
    }))]
}

/// `w`: write the numbered output file.
fn write_output(state: &mut State) -> Vec<Effect> {
    if scanning_for_globs(state) {
        return still_scanning(state);
    }
    vec![Effect::job(Job::WriteOutput(WriteJob {
        preset: state.preset(),
        opts: state.compose_options(),
        walked: state.walk.walked.clone(),
        ready: shown_pack(state),
    }))]
}

fn still_scanning(state: &mut State) -> Vec<Effect> {
    state.say(
        Level::Warn,
        "still scanning the project: the preset's globs are not complete yet; try again in a moment",
    );
    Vec::new()
}

fn clear_cache(state: &mut State) -> Vec<Effect> {
    state.say(Level::Info, "clearing the summary cache…");
    vec![Effect::job(Job::ClearCache)]
}

/// The walk is still running and the preset has globs, so a composition
/// now would miss files `ctxcurate build` includes.
fn scanning_for_globs(state: &State) -> bool {
    !state.walk.done && state.preset().files.iter().any(|f| walk::is_glob(&f.path))
}

/// The packed composition of the discovery shown, if any: what `y` and
/// `w` take instead of composing the preset (one truth with the gauge and
/// the preview).
fn shown_pack(state: &State) -> Option<std::sync::Arc<crate::core::compose::Composition>> {
    state.discovery.as_ref().map(|d| d.composition.clone())
}

fn yank_file(state: &mut State) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        state.say(Level::Info, "no file under the cursor");
        return Vec::new();
    };
    let item = state
        .item_for(&path)
        .unwrap_or_else(|| crate::core::model::FileItem::new(path));
    vec![Effect::job(Job::YankFile(FileJob {
        item,
        opts: state.compose_options(),
        tokenizer: state.project.settings.tokenizer,
    }))]
}
