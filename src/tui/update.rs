//! `update(&mut State, Event) -> Vec<Effect>`: the one place the TUI's
//! state changes. Each event goes to one named handler; a user action
//! goes to an open overlay's keys, or else to its row of the action table
//! (`actions`). Side effects are returned as data for the event loop. The
//! mouse (`mouse`) and the panes each action works in (`scope`) are here.

use crate::core::model::TokenizerKind;
use crate::core::walk;
use crate::text::sanitize::display_line;

use crate::text::words::{bytes, plural, thousands};
use crate::tui::changed;
use crate::tui::discover;
use crate::tui::discuss;
use crate::tui::finder;
use crate::tui::input::action::Action;
use crate::tui::live;
use crate::tui::messages::{Effect, Event, FileJob, Job, WroteForCopy};
use crate::tui::navigate::{follow_cursor, symbols_follow_tokenizer};
use crate::tui::overlays::{on_input, on_overlay};
use crate::tui::preview::follow;
use crate::tui::project_sync::SyncOutcome;
use crate::tui::state::model::{Composed, PendingCopy, PendingWrite, SymbolsView};
use crate::tui::state::{Level, Overlay, Pane, State};
use crate::tui::symbols;
use crate::tui::undo::{self, recompose};

mod actions;
pub mod mouse;
pub mod scope;

/// Apply one event; then the symbols pane's costs follow the tokenizer,
/// whichever way it changed.
pub fn update(state: &mut State, event: Event) -> Vec<Effect> {
    let mut effects = on_event(state, event);
    effects.extend(symbols_follow_tokenizer(state));
    effects
}

/// The event's handler.
fn on_event(state: &mut State, event: Event) -> Vec<Effect> {
    match event {
        Event::Action(action) => on_action(state, action),
        ev @ (Event::InputChar(_) | Event::InputBackspace | Event::InputClear) => {
            on_typing(state, ev)
        }
        Event::Unbound(key) => unbound(state, &key),
        Event::FinderResults => {
            finder::keys::on_results(state.finder.as_mut());
            Vec::new()
        }
        Event::Resize { width, height } => {
            state.screen.resize(width, height);
            Vec::new()
        }
        Event::Walked(batch) => walked(state, batch),
        Event::WalkDone => walk_done(state),
        Event::WalkNotes(lines) => {
            walk_notes(state, lines);
            Vec::new()
        }
        ev @ (Event::FilesChanged(_)
        | Event::Rewalked(_)
        | Event::Rescanned(_)
        | Event::PersonalChanged(_)
        | Event::WatchFailed(_)) => live::on_event(state, ev),
        Event::Composed(c) => composed(state, c),
        Event::Counted(counts) => counted(state, counts),
        Event::Symbols(view) => symbols_arrived(state, view),
        Event::RawText { path, lines } => {
            state.preview.show_raw(path, lines);
            Vec::new()
        }
        Event::CopyReady {
            text,
            label,
            tokens,
            tokenizer,
            findings,
        } => {
            let opened = state.clock.now();
            copy_ready(
                state,
                PendingCopy {
                    text,
                    label,
                    tokens,
                    tokenizer,
                    findings,
                    opened,
                    scroll: 0,
                },
            )
        }
        Event::Copied {
            label,
            tokens,
            tokenizer,
            result,
        } => copied(state, &label, tokens, tokenizer, result),
        Event::CopyOverCap(pending) => over_cap(state, pending),
        Event::WroteForCopy(wrote) => wrote_for_copy(state, wrote),
        Event::PathCopied { wrote, result } => path_copied(state, &wrote, result),
        Event::CacheCleared(result) => cache_cleared(state, result),
        Event::Wrote(Ok(path)) => {
            state.say(Level::Info, format!("wrote {path}"));
            Vec::new()
        }
        Event::Progress { phase, done, total } => {
            state.composition.gauge.work = (done < total).then_some((phase, done, total));
            Vec::new()
        }
        Event::Wrote(Err(e)) | Event::JobFailed(e) => job_failed(state, e),
        Event::Disk(outcome) => on_disk(state, *outcome),
        Event::Mouse {
            kind,
            column,
            row,
            tree_top,
        } => mouse::on_mouse(state, kind, (column, row), tree_top),
        Event::PresetTotals(totals) => {
            state.preset_totals.learn(totals);
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

/// A typed character, a backspace or a clear: to the finder's query, the
/// symbols pane's filter, or the open prompt, whichever takes them.
fn on_typing(state: &mut State, event: Event) -> Vec<Effect> {
    if let Some(finder) = state.finder.as_mut() {
        finder::keys::on_input(finder, event);
        return Vec::new();
    }
    if symbols_typing(state) {
        return symbols::filter::on_input(state, event);
    }
    match event {
        Event::InputChar(c) => on_input(state, Some(c)),
        Event::InputBackspace => on_input(state, None),
        _ => input_clear(state),
    }
}

/// A key bound to nothing where the user is: said, with the help key.
fn unbound(state: &mut State, key: &str) -> Vec<Effect> {
    let pane = scope::pane_name(state.focus);
    let help = state.keymap.key_name(Action::Help);
    state.say(
        Level::Info,
        format!("{key}: nothing in the {pane} pane ({help} lists the keys)"),
    );
    Vec::new()
}

/// The symbols of the file under the cursor, with their costs.
fn symbols_arrived(state: &mut State, view: SymbolsView) -> Vec<Effect> {
    let tokenizer = state.project.settings.tokenizer;
    state
        .symbols
        .show(state.tree.current_file(), tokenizer, view);
    Vec::new()
}

/// A written context's path copied (or not): said either way.
fn path_copied(state: &mut State, wrote: &str, result: Result<String, String>) -> Vec<Effect> {
    match result {
        Ok(dest) => state.say(
            Level::Info,
            format!("wrote {wrote}; copied its path → {dest}"),
        ),
        Err(e) => state.say(
            Level::Warn,
            format!("wrote {wrote}; its path was not copied: {e}"),
        ),
    }
    Vec::new()
}

fn on_action(state: &mut State, action: Action) -> Vec<Effect> {
    if let Some(overlay) = state.overlay.clone() {
        // The tokens overlay stays open over an undo: it shows its effect.
        if matches!(overlay, Overlay::Tokens { .. })
            && matches!(action, Action::Undo | Action::Redo)
        {
            return undo::undo_redo(state, action == Action::Undo);
        }
        return on_overlay(state, overlay, action);
    }
    if symbols_typing(state) {
        return match action {
            Action::Confirm => symbols::filter::confirm(state),
            _ => symbols::filter::clear(state),
        };
    }
    if let Some(why) = scope::refusal(action, state.focus) {
        state.say(Level::Info, why);
        return Vec::new();
    }
    actions::handler(action)(state)
}

/// The symbols filter is being typed (`/` in the symbols pane).
fn symbols_typing(state: &State) -> bool {
    state.overlay.is_none() && state.focus == Pane::Symbols && state.symbols.typing
}

/// Ctrl-u in a prompt: clear it.
fn input_clear(state: &mut State) -> Vec<Effect> {
    if let Some(Overlay::Input { buffer, .. }) = &mut state.overlay {
        buffer.clear();
    }
    on_input(state, Some('\0'))
}

fn walked(state: &mut State, batch: Vec<String>) -> Vec<Effect> {
    // Only the tree grows while the walk streams in; globs are resolved
    // against the whole list once it is done (or at the next edit), so a
    // huge walk never stalls a keystroke.
    finder::keys::add_walked(state.finder.as_mut(), &batch);
    state.add_walked(batch);
    state.refresh_rows();
    Vec::new()
}

fn walk_done(state: &mut State) -> Vec<Effect> {
    // Files may have changed: the picker counts its presets again.
    state.preset_totals.by_key.clear();
    state.finish_walk();
    state.refresh();
    let mut effects = recompose(state);
    effects.extend(follow_cursor(state));
    // Proposals were shown when the app last closed in this checkout:
    // pack again (once), for the composition just asked for.
    if std::mem::take(&mut state.project.view.discovery) {
        effects.extend(discover::discover(state));
    }
    // Files changed on disk while this walk ran: it may have missed them.
    let live = &mut state.walk.live;
    if std::mem::take(&mut live.again) && !live.in_flight {
        effects.extend(crate::tui::live::next_walk(state));
    }
    effects
}

/// The walk's notes are said when they differ from the last walk's (a
/// checkout whose folders go unwalked hears it once, not at each rewalk),
/// as `build` says them on stderr.
fn walk_notes(state: &mut State, lines: Vec<String>) {
    if lines == state.walk.notes {
        return;
    }
    if !lines.is_empty() {
        let note = display_line(&lines.join(" · "), 500).into_owned();
        // The first walk's follow what the project said on opening (the
        // root's own ignore files), rather than hide it.
        let prior = state.status.take().filter(|_| !state.walk.done);
        state.say(Level::Warn, note.clone());
        if let Some((text, _)) = prior {
            state.status = Some((format!("{text} · {note}"), Level::Warn));
        }
    }
    state.walk.notes = lines;
}

fn composed(state: &mut State, c: Composed) -> Vec<Effect> {
    state.composition.gauge.work = None;
    state.composition.learn_counts(&c);
    // While a discovery is shown, the preview keeps its packed text.
    if c.generation == state.composition.generation && state.discovery.is_none() {
        let before = state.composition.composed.as_ref();
        let said = before.map(|old| &old.problems);
        if !c.problems.is_empty() && said != Some(&c.problems) {
            say_problems(state, &c.problems);
        }
        let before = state.composition.composed.as_ref().map(|old| &old.skipped);
        if !c.skipped.is_empty() && before != Some(&c.skipped) {
            say_skipped(state, &c.skipped);
        }
        state.composition.composed = Some(c);
        state.preview.follow_row(
            state.tree.current_row(),
            state.composition.composed.as_ref(),
        );
    }
    state.refresh_gauge();
    follow::after_compose(state)
}

/// What the composition says about the preset (a bad or unmatched glob,
/// a bad `exclude`, entries past a cap) is said once, when it changes, as
/// `build` says it on stderr: the first on the status line, all of them
/// in the message log (`!`).
fn say_problems(state: &mut State, problems: &[String]) {
    /// Problems put in the log one by one; past them, one line more.
    const LOGGED: usize = 20;
    for problem in problems.iter().take(LOGGED) {
        state.say(Level::Warn, display_line(problem, 500));
    }
    if problems.len() > LOGGED {
        state.say(
            Level::Warn,
            format!("{} more problems with the preset", problems.len() - LOGGED),
        );
    }
    let first = problems.first().map_or("", String::as_str);
    let more = match problems.len() {
        1 => String::new(),
        n => format!(" (and {} more: `!` shows them)", n - 1),
    };
    state.status = Some((format!("{}{more}", display_line(first, 300)), Level::Warn));
}

/// The build leaves included files out (binary, over `max_file_size`, or
/// waiting for consent):
/// the status line says so once, when that list changes, as `build` says
/// it on stderr; the tree marks each (`⊘`).
fn say_skipped(state: &mut State, skipped: &[String]) {
    let shown: Vec<&str> = skipped.iter().take(3).map(String::as_str).collect();
    let more = if skipped.len() > shown.len() {
        ", …"
    } else {
        ""
    };
    let note = format!(
        "{} left out of the context (the tree's ⊘ says why): {}{more}",
        plural(skipped.len(), "included file"),
        display_line(&shown.join(", "), 200)
    );
    // After the edit that caused it, the note follows the edit's own
    // message rather than hiding it.
    let prior = state.status.take();
    state.say(Level::Warn, note.clone());
    if let Some((text, Level::Info)) = prior {
        state.status = Some((format!("{text} · {note}"), Level::Warn));
    }
}

fn counted(state: &mut State, counts: Vec<(String, String, usize)>) -> Vec<Effect> {
    for (path, key, n) in counts {
        state.learn_count(path, key, n);
    }
    state.refresh_gauge();
    Vec::new()
}

/// Text to copy is ready: it goes, or (likely secrets in it) the user is
/// asked first.
fn copy_ready(state: &mut State, pending: PendingCopy) -> Vec<Effect> {
    if pending.findings.is_empty() {
        let PendingCopy {
            text,
            label,
            tokens,
            tokenizer,
            ..
        } = pending;
        return vec![Effect::Copy {
            text,
            label,
            tokens,
            tokenizer,
            findings: Vec::new(),
            allow_secrets: false,
        }];
    }
    // The status line (and the message log) names where, as the CLI does.
    let first = pending
        .findings
        .first()
        .map(|f| format!(", first {}", f.place))
        .unwrap_or_default();
    state.say(
        Level::Warn,
        format!(
            "{} in {}{first}: {}",
            plural(pending.findings.len(), "likely secret"),
            pending.label,
            state.keymap.confirm_copy_hint()
        ),
    );
    state.overlay = Some(Overlay::ConfirmCopy(Box::new(pending)));
    Vec::new()
}

fn copied(
    state: &mut State,
    label: &str,
    tokens: usize,
    tokenizer: TokenizerKind,
    result: Result<String, String>,
) -> Vec<Effect> {
    match result {
        Ok(dest) => state.say(
            Level::Info,
            format!(
                "copied {label} · {} tokens ({tokenizer}) → {dest}",
                thousands(tokens)
            ),
        ),
        Err(e) => {
            // No clipboard at all, tmux dropping OSC 52: the text can
            // still leave through the numbered output file.
            let key = state.keymap.key_name(Action::WriteOutput);
            let file = state.output_file_pattern();
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

/// A copy too large for the terminal's OSC 52 cap: ask whether to write
/// it to the output file and copy the file's path instead.
fn over_cap(state: &mut State, mut pending: Box<PendingWrite>) -> Vec<Effect> {
    pending.opened = state.clock.now();
    let question = if pending.over.unreachable.is_some() {
        "write it to the output file instead (no path can be copied either)"
    } else {
        "write it to the output file and copy its path instead"
    };
    state.say(
        Level::Warn,
        format!(
            "{} is {}; {}: {question}? {}",
            pending.label,
            bytes(pending.over.bytes),
            pending.over.cap_phrase(),
            state.keymap.confirm_hint(pending.confirm_verb())
        ),
    );
    state.overlay = Some(Overlay::ConfirmWrite(pending));
    Vec::new()
}

/// The file for a copy over the cap is written: its path goes to the
/// clipboard (small enough for any cap but an absurd one), unless OSC 52
/// cannot arrive at all.
fn wrote_for_copy(state: &mut State, wrote: WroteForCopy) -> Vec<Effect> {
    let WroteForCopy {
        result,
        bytes: size,
        unreachable,
    } = wrote;
    match result {
        Ok((path, shown)) => {
            let wrote = format!("{} ({})", display_line(&shown, 200), bytes(size));
            if let Some(why) = unreachable {
                state.say(
                    Level::Warn,
                    format!("wrote {wrote}; its path was not copied: {why}"),
                );
                return Vec::new();
            }
            vec![Effect::CopyPath { path, wrote }]
        }
        Err(e) => {
            state.say(Level::Error, format!("{e}; nothing copied"));
            Vec::new()
        }
    }
}

fn cache_cleared(state: &mut State, result: Result<usize, String>) -> Vec<Effect> {
    match result {
        Ok(n) => {
            state.preset_totals.by_key.clear();
            state.say(
                Level::Info,
                format!(
                    "disk cache cleared ({}): summaries, views and counts are made again",
                    plural(n, "entry")
                ),
            );
            recompose(state)
        }
        Err(e) => {
            state.say(Level::Error, e);
            Vec::new()
        }
    }
}

fn job_failed(state: &mut State, e: String) -> Vec<Effect> {
    if state.preview.raw && state.preview.raw_text.is_none() {
        // The raw text could not be read: back to the composition.
        state.preview.raw = false;
    }
    state.say(Level::Error, e);
    Vec::new()
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
    if state.quit_after_save {
        match &outcome {
            // Saved (or nothing left to save): the quit the user asked for.
            SyncOutcome::Saved | SyncOutcome::Unchanged => {
                state.quit_after_save = false;
                state.overlay = None;
                state.quit = true;
                return Vec::new();
            }
            // The saver gave up on the lock: the quit tries the save
            // again, the question still up.
            SyncOutcome::Failed(_) if waited => {
                state.quit = true;
                return Vec::new();
            }
            // A conflict, a file that does not parse: the app stays and
            // says why.
            _ => state.quit_after_save = false,
        }
    }
    if waited && outcome == SyncOutcome::Saved {
        state.say(Level::Info, "the lock was released: saved");
    }
    if matches!(state.overlay, Some(Overlay::ConfirmQuit)) {
        state.overlay = None;
    }
    let (file, base) = match outcome {
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
        SyncOutcome::Reloaded(file) => (file, None),
        SyncOutcome::Conflict { disk, base } => (disk, Some(*base)),
    };
    // The file on disk holds no personal layer: the user's own choices
    // stay as they are.
    let mut file = file;
    file.personal = state.project.file.personal.clone();
    if file == state.project.file {
        return Vec::new();
    }
    let mine = std::mem::replace(&mut state.project.file, file);
    let undo = state.keymap.key_name(Action::Undo);
    let message = match base {
        // What was written outside is the file now; undo and redo take
        // back or make again the app's own changes on it, and keep it.
        None => format!(
            "ctxcurate.toml changed on disk: reloaded ({undo} takes back your own changes \
             and keeps what was written there)"
        ),
        // The change the app could not save becomes one step: its undo
        // makes that change again on the file as it is on disk.
        Some(mut base) => {
            base.personal = mine.personal.clone();
            let redone = crate::core::project::replay(&state.project.file, &base, &mine);
            state.history.record(
                redone,
                state.project.file.clone(),
                "ctxcurate.toml changed on disk before your change was saved",
            );
            format!(
                "ctxcurate.toml changed on disk, so your last change was not saved: \
                 reloaded it ({undo} makes your change again on it)"
            )
        }
    };
    state.project.refresh_settings();
    state.add_explicit_files();
    state.refresh();
    state.say(Level::Warn, message);
    recompose(state)
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
        Job::YankFile(FileJob { item, .. }) => item.path.as_str(),
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
    let walked = state.walk.done.then_some(state.walk.walked.as_slice());
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
