//! `update(&mut State, Event) -> Vec<Effect>`: the one place the TUI's
//! state changes. Navigation and overlays are handled here; curation edits
//! live in `curate`. Side effects are returned as data for the event loop.

use crate::core::model::{MaskState, ViewMode};
use crate::core::walk;
use crate::text::sanitize::display_line;

use crate::tui::changed;
use crate::tui::curate::{self, Batch};
use crate::tui::discover;
use crate::tui::discuss;
use crate::tui::draw::format::thousands;
use crate::tui::finder;
use crate::tui::input::action::Action;
use crate::tui::input::mouse;
use crate::tui::messages::{Effect, Event, Job};
pub use crate::tui::navigate::follow_cursor;
use crate::tui::navigate::{navigate, slice_mark, sync_preview, toggle_raw};
use crate::tui::overlays::{self, on_input, on_overlay};
use crate::tui::preview::follow;
use crate::tui::run::project_sync::SyncOutcome;
use crate::tui::state::model::PendingCopy;
use crate::tui::state::{Level, Overlay, Pane, Prompt, State};
use crate::tui::symbols::flat_symbols;
use crate::tui::tokens;
use crate::tui::undo::{self, recompose};

/// Apply one event.
pub fn update(state: &mut State, event: Event) -> Vec<Effect> {
    match event {
        Event::Action(action) => on_action(state, action),
        ev @ (Event::InputChar(_) | Event::InputBackspace | Event::InputClear)
            if state.finder.is_some() =>
        {
            finder::keys::on_input(state, ev)
        }
        Event::FinderResults => finder::keys::on_results(state),
        Event::InputChar(c) => on_input(state, Some(c)),
        Event::InputBackspace => on_input(state, None),
        Event::InputClear => {
            if let Some(Overlay::Input { buffer, .. }) = &mut state.overlay {
                buffer.clear();
            }
            on_input(state, Some('\0'))
        }
        Event::Resize { width, height } => {
            state.size = (width, height);
            state.page = usize::from(height.saturating_sub(6)).max(2);
            Vec::new()
        }
        Event::Walked(batch) => {
            // Only the tree grows while the walk streams in; globs are
            // resolved against the whole list once it is done (or at the
            // next edit), so a huge walk never stalls a keystroke.
            finder::keys::add_walked(state, &batch);
            state.add_walked(batch);
            state.refresh_rows();
            Vec::new()
        }
        Event::WalkDone => {
            // Files may have changed: the picker counts its presets again.
            state.preset_totals.clear();
            state.finish_walk();
            state.refresh();
            let mut effects = recompose(state);
            effects.extend(follow_cursor(state));
            effects
        }
        Event::Composed(c) => {
            state.gauge.work = None;
            state.learn_counts(&c);
            // While a discovery is shown, the preview keeps its packed text.
            if c.generation == state.generation && state.discovery.is_none() {
                state.composed = Some(c);
                sync_preview(state);
            }
            state.refresh_gauge();
            follow::after_compose(state)
        }
        Event::Counted(counts) => {
            for (path, key, n) in counts {
                state.learn_count(path, key, n);
            }
            state.refresh_gauge();
            Vec::new()
        }
        Event::Symbols(view) => {
            if state.current_file() == Some(view.path.as_str()) {
                state.symbols = Some(view);
                state.symbol_cursor = 0;
            }
            Vec::new()
        }
        Event::RawText { path, lines } => {
            state.preview.raw_cursor = 0;
            state.preview.slice_anchor = None;
            state.preview.raw_text = Some((path, lines));
            Vec::new()
        }
        Event::CopyReady {
            text,
            label,
            tokens,
            tokenizer,
            findings,
        } => {
            if findings.is_empty() {
                return vec![Effect::Copy {
                    text,
                    label,
                    tokens,
                    tokenizer,
                }];
            }
            state.say(
                Level::Warn,
                format!(
                    "{} likely secret(s) in {label}: {}",
                    findings.len(),
                    state.keymap.confirm_copy_hint()
                ),
            );
            state.overlay = Some(Overlay::ConfirmCopy(Box::new(PendingCopy {
                text,
                label,
                tokens,
                tokenizer,
                findings,
                opened: state.clock.now(),
            })));
            Vec::new()
        }
        Event::Copied {
            label,
            tokens,
            tokenizer,
            result,
        } => {
            match result {
                Ok(dest) => state.say(
                    Level::Info,
                    format!(
                        "copied {label} · {} tokens ({tokenizer}) → {dest}",
                        thousands(tokens)
                    ),
                ),
                Err(e) => {
                    // Too large for OSC 52, no clipboard at all: the text
                    // can still leave through the numbered output file.
                    let key = state.keymap.key_name(Action::WriteOutput);
                    let s = &state.project.settings;
                    let file = format!(
                        "{}/{}_NNN.{}",
                        s.output_dir,
                        s.namespace,
                        crate::core::compose::output_file::extension(s.format)
                    );
                    state.say(
                        Level::Error,
                        format!(
                            "copy failed: {e} · {key} writes it to {} instead",
                            display_line(&file, 80)
                        ),
                    )
                }
            }
            Vec::new()
        }
        Event::CacheCleared(Ok(n)) => {
            state.preset_totals.clear();
            state.say(
                Level::Info,
                format!(
                    "disk cache cleared ({n} entries): summaries, views and counts are made again"
                ),
            );
            recompose(state)
        }
        Event::CacheCleared(Err(e)) => {
            state.say(Level::Error, e);
            Vec::new()
        }
        Event::Wrote(Ok(path)) => {
            state.say(Level::Info, format!("wrote {path}"));
            Vec::new()
        }
        Event::Progress { phase, done, total } => {
            state.gauge.work = (done < total).then_some((phase, done, total));
            Vec::new()
        }
        Event::Wrote(Err(e)) | Event::JobFailed(e) => {
            if state.preview.raw && state.preview.raw_text.is_none() {
                // The raw text could not be read: back to the composition.
                state.preview.raw = false;
            }
            state.say(Level::Error, e);
            Vec::new()
        }
        Event::Disk(outcome) => on_disk(state, *outcome),
        Event::Mouse {
            kind,
            column,
            row,
            tree_top,
        } => mouse::on_mouse(state, kind, (column, row), tree_top),
        Event::PresetTotals(totals) => {
            state.totals_pending = false;
            for (key, tokens, exact) in totals {
                state.preset_totals.insert(key, (tokens, exact));
            }
            Vec::new()
        }
        Event::Discovered {
            generation,
            packed,
            composed,
        } => discover::on_discovered(state, generation, *packed, *composed),
        Event::Changed { include, result } => changed::on_changed(state, include, result),
        Event::Block(block) => {
            follow::on_block(state, block);
            Vec::new()
        }
        Event::Edited {
            purpose,
            before,
            result,
        } => discuss::on_edited(state, purpose, &before, result),
    }
}

fn on_action(state: &mut State, action: Action) -> Vec<Effect> {
    if let Some(overlay) = state.overlay.clone() {
        // The tokens overlay stays open over an undo: it shows its effect.
        if matches!(overlay, Overlay::Tokens { .. })
            && matches!(action, Action::Undo | Action::Redo)
        {
            return undo_redo(state, action == Action::Undo);
        }
        return on_overlay(state, overlay, action);
    }
    match action {
        Action::Quit => {
            if state.save_locked.is_some() {
                // Quitting would wait for the lock (or drop the change):
                // the user decides which.
                state.overlay = Some(Overlay::ConfirmQuit);
            } else {
                state.quit = true;
            }
            Vec::new()
        }
        Action::Help => {
            state.overlay = Some(Overlay::Help { scroll: 0 });
            Vec::new()
        }
        Action::NextPane | Action::PrevPane => {
            state.focus = if action == Action::NextPane {
                state.focus.next()
            } else {
                state.focus.prev()
            };
            Vec::new()
        }
        Action::Zoom => {
            state.zoom = !state.zoom;
            Vec::new()
        }
        Action::TokenMap => {
            let path = tokens::path_at(state, 0);
            state.overlay = Some(Overlay::Tokens { path });
            Vec::new()
        }
        Action::Up
        | Action::Down
        | Action::PageUp
        | Action::PageDown
        | Action::Top
        | Action::Bottom
        | Action::Collapse
        | Action::Expand => navigate(state, action),
        Action::ToggleInclude if discuss::image_under_cursor(state).is_some() => {
            discuss::toggle_screenshot(state)
        }
        Action::ToggleInclude => curate::toggle_include(state),
        Action::NextMode => curate::cycle_mode(state, true),
        Action::PrevMode => curate::cycle_mode(state, false),
        Action::ToggleForceFull => curate::toggle_flag(state, true),
        Action::ToggleAggregate => curate::toggle_flag(state, false),
        Action::SelectRange => {
            // Like visual mode: `v` starts, movement extends, a batch key
            // applies; `v` again (or Esc) cancels, and says so.
            if state.range_anchor.take().is_some() {
                state.say(Level::Info, "selection cancelled");
            } else {
                state.range_anchor = Some(state.cursor);
            }
            Vec::new()
        }
        Action::BatchFull => curate::batch(state, Batch::Mode(ViewMode::Full)),
        Action::BatchSummary => curate::batch(state, Batch::Mode(ViewMode::Summary)),
        Action::BatchSkeleton => curate::batch(state, Batch::Mode(ViewMode::Skeleton)),
        Action::BatchMaskedDef => curate::batch(state, Batch::MaskedDef),
        Action::BatchRemove => curate::batch(state, Batch::Remove),
        Action::MaskDef => mask_current(state, Some(MaskState::Def)),
        Action::MaskSig => mask_current(state, Some(MaskState::Sig)),
        Action::MaskAgg => mask_current(state, Some(MaskState::Agg)),
        Action::MaskHide => mask_current(state, Some(MaskState::Hide)),
        Action::MaskCycle => mask_current(state, None),
        Action::MaskDefaultCycle if state.focus == Pane::Symbols => {
            curate::cycle_mask_default(state)
        }
        Action::MaskDefaultCycle => Vec::new(),
        Action::Yank | Action::WriteOutput if scanning_for_globs(state) => {
            state.say(
                Level::Warn,
                "still scanning the project: the preset's globs are not complete yet; try again in a moment",
            );
            Vec::new()
        }
        Action::Yank => {
            state.say(Level::Info, "composing…");
            vec![Effect::job(Job::Yank {
                preset: state.preset(),
                opts: state.compose_options(),
                map: state.map_options(),
                tokenizer: state.project.settings.tokenizer,
                walked: state.walked.clone(),
                ready: shown_pack(state),
            })]
        }
        Action::YankFile => yank_file(state),
        Action::WriteOutput => vec![Effect::job(Job::WriteOutput {
            preset: state.preset(),
            opts: state.compose_options(),
            settings: Box::new(state.project.settings.clone()),
            walked: state.walked.clone(),
            ready: shown_pack(state),
        })],
        Action::Presets => {
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
        Action::Undo | Action::Redo => undo_redo(state, action == Action::Undo),
        Action::Filter => {
            state.focus = Pane::Tree;
            state.overlay = Some(Overlay::Input {
                prompt: Prompt::Filter,
                buffer: state.filter.clone(),
            });
            Vec::new()
        }
        Action::Finder => finder::keys::open(state),
        Action::Refresh => {
            state.begin_walk();
            state.say(Level::Info, "scanning the project again…");
            vec![Effect::Walk]
        }
        Action::ClearCache => {
            state.say(Level::Info, "clearing the summary cache…");
            vec![Effect::job(Job::ClearCache)]
        }
        Action::CycleStrategy => change_setting(state, |st| {
            let next = st.project.settings.strategy.next();
            st.project.file.project.set("strategy", next);
            format!("strategy: {next}")
        }),
        Action::CycleTokenizer => change_setting(state, |st| {
            let next = st.project.settings.tokenizer.next();
            st.project.file.project.set("tokenizer", next);
            format!("tokenizer: {next}")
        }),
        Action::ToggleTarget => discover::toggle_target(state),
        Action::Discover => discover::discover(state),
        Action::AcceptDiscovery => discover::accept(state),
        Action::DiscardDiscovery => discover::discard(state),
        Action::MarkChanged => changed::toggle_marks(state),
        Action::IncludeChanged => changed::include(state),
        Action::ToggleRaw => toggle_raw(state),
        Action::SliceMark => slice_mark(state),
        Action::Confirm => {
            if state.focus == Pane::Preview && state.preview.raw {
                slice_mark(state)
            } else {
                Vec::new()
            }
        }
        Action::Cancel => {
            if state.preview.slice_anchor.take().is_none()
                && state.range_anchor.take().is_none()
                && !state.filter.is_empty()
            {
                state.clear_filter();
                return follow_cursor(state);
            }
            Vec::new()
        }
        Action::PresetNew | Action::PresetRename | Action::PresetDelete => Vec::new(),
        Action::PreviewGotoLine => follow::goto_line_prompt(state),
        Action::PreviewSearch => follow::search_prompt(state),
        Action::SearchNext | Action::SearchPrev => {
            follow::search_step(state, action == Action::SearchNext);
            Vec::new()
        }
        Action::SliceSymbol => follow::slice_symbol(state),
        Action::Preset1
        | Action::Preset2
        | Action::Preset3
        | Action::Preset4
        | Action::Preset5
        | Action::Preset6
        | Action::Preset7
        | Action::Preset8
        | Action::Preset9
        | Action::PresetNext
        | Action::PresetPrev => overlays::switch_preset(state, action),
        Action::EditTask => discuss::edit_task(state),
        Action::DiscussAdd => discuss::discuss_add(state),
        Action::DiscussCompact => discuss::discuss_compact(state),
    }
}

/// The project file changed on disk (or could not be written).
fn on_disk(state: &mut State, outcome: SyncOutcome) -> Vec<Effect> {
    if let SyncOutcome::Locked(waiting) = outcome {
        state.say(Level::Warn, waiting.clone());
        state.save_locked = Some(waiting);
        return Vec::new();
    }
    // Whatever else the saver says, it no longer waits for the lock.
    let waited = state.save_locked.take().is_some();
    if waited && outcome == SyncOutcome::Saved {
        state.say(Level::Info, "the lock was released: saved");
    }
    if matches!(state.overlay, Some(Overlay::ConfirmQuit)) {
        state.overlay = None;
    }
    let (file, message) = match outcome {
        SyncOutcome::Unchanged | SyncOutcome::Saved | SyncOutcome::Locked(_) => {
            return Vec::new();
        }
        SyncOutcome::Invalid(e) => {
            state.say(
                Level::Error,
                format!("{e} — changes are not saved until it parses"),
            );
            return Vec::new();
        }
        SyncOutcome::Failed(e) => {
            state.say(Level::Error, e);
            return Vec::new();
        }
        SyncOutcome::Reloaded(file) => (
            file,
            "ctxcurate.toml changed on disk: reloaded (u goes back to the app's version)",
        ),
        SyncOutcome::Conflict(file) => (
            file,
            "ctxcurate.toml changed on disk, so your last change was not saved: \
             reloaded it (u brings your version back)",
        ),
    };
    if file == state.project.file {
        return Vec::new();
    }
    state
        .history
        .undo
        .push(std::mem::replace(&mut state.project.file, file));
    state.history.redo.clear();
    state.project.refresh_settings();
    state.add_explicit_files();
    state.refresh();
    state.say(Level::Warn, message);
    recompose(state)
}

/// The walk is still running and the preset has globs, so a composition
/// now would miss files `ctxcurate build` includes.
fn scanning_for_globs(state: &State) -> bool {
    !state.walk_done && state.preset().files.iter().any(|f| walk::is_glob(&f.path))
}

fn change_setting(state: &mut State, f: impl FnOnce(&mut State) -> String) -> Vec<Effect> {
    let before = state.project.file.clone();
    let message = f(state);
    undo::commit(state, before, message)
}

fn mask_current(state: &mut State, to: Option<MaskState>) -> Vec<Effect> {
    if state.focus != Pane::Symbols {
        return Vec::new();
    }
    let symbol = state
        .symbols
        .as_ref()
        .and_then(|s| s.tree.as_ref())
        .and_then(|t| {
            flat_symbols(t)
                .get(state.symbol_cursor)
                .map(|(_, s)| s.path.clone())
        });
    match symbol {
        Some(symbol) => curate::mask(state, &symbol, to),
        None => Vec::new(),
    }
}

/// The packed composition of the discovery shown, if any: what `y` and
/// `w` take instead of composing the preset (one truth with the gauge and
/// the preview).
fn shown_pack(state: &State) -> Option<std::sync::Arc<crate::core::compose::Composition>> {
    state.discovery.as_ref().map(|d| d.composition.clone())
}

/// Why `job` may not run: it reads the raw text of a file (`Y` copies
/// its view, `r` shows it) that is a held entry of the active project
/// preset, waiting for the user's consent (`core::trust::entries`, as a
/// composition gates it). `None` for every other job and file. A file
/// the preset does not include is the user's own pick and is not asked.
/// A refused raw view drops the text of the file before (the raw view
/// then closes rather than show another file's text under this one).
pub(super) fn refuse_held(state: &mut State, job: &Job) -> Option<String> {
    let path = match job {
        Job::Raw(path) => path.as_str(),
        Job::YankFile { item, .. } => item.path.as_str(),
        _ => return None,
    };
    if !state.is_included(path) {
        return None;
    }
    let consent = state
        .project
        .entry_consent(state.project.active_preset_name());
    // The walk answers when it is complete; else the check walks the few
    // folders on the way itself.
    let walked = state.walk_done.then_some(state.walked.as_slice());
    let held = consent.held(
        &state.project.root,
        &[crate::core::model::FileItem::new(path)],
        walked,
        &walk::WalkPatterns::from_settings(&state.project.settings),
    );
    let h = held.first()?;
    if matches!(job, Job::Raw(_)) {
        state.preview.raw_text = None;
    }
    Some(format!(
        "{} needs trust ({}): not read; allow it with `ctxcurate trust`, or Space twice \
         to include it yourself",
        display_line(path, 200),
        h.reason.describe()
    ))
}

fn yank_file(state: &mut State) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        state.say(Level::Info, "no file under the cursor");
        return Vec::new();
    };
    let item = state
        .item_for(&path)
        .unwrap_or_else(|| crate::core::model::FileItem::new(path));
    vec![Effect::job(Job::YankFile {
        item,
        opts: state.compose_options(),
        tokenizer: state.project.settings.tokenizer,
    })]
}

fn undo_redo(state: &mut State, undo: bool) -> Vec<Effect> {
    let (from, to) = if undo {
        (&mut state.history.undo, &mut state.history.redo)
    } else {
        (&mut state.history.redo, &mut state.history.undo)
    };
    let Some(snapshot) = from.pop() else {
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
    to.push(std::mem::replace(&mut state.project.file, snapshot));
    state.project.refresh_settings();
    state.add_explicit_files();
    state.refresh();
    state.say(Level::Info, if undo { "undone" } else { "redone" });
    let mut effects = vec![Effect::Save];
    effects.extend(recompose(state));
    effects
}
