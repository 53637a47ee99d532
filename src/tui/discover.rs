//! Discovery in the TUI (docs/ARCHITECTURE.md, "Discovery"): mark target
//! files or give a task (asked for when the preset has neither), pack the
//! budget around them on the worker, show what the pack would add as proposals in
//! the tree, and accept them into the preset as one undoable step — or
//! discard them. While proposals are shown, the preview shows the packed
//! text, the gauge counts it, and `y`/`w` copy and write exactly it; the
//! accepted preset keeps the pack's files, modes and repo map size. A file
//! the user curated (its own entry with a mode, masks, slices or
//! `force_full`) keeps all of it, even where the pack reduced it to fit;
//! the others follow the pack; the status names every file whose mode
//! changed and every curated one kept against the pack.
//! A target that does not fit the budget is an error: nothing is proposed.

use std::sync::Arc;

use crate::core::curation;
use crate::core::discovery::pack::{PackOptions, Packed, Role};
use crate::core::model::ViewMode;

use crate::text::words::plural;
use crate::tui::messages::{DiscoverJob, Effect, Job};
use crate::tui::state::model::Composed;
use crate::tui::state::proposal::Discovery;
use crate::tui::state::{Level, State};
use crate::tui::undo::{edit, recompose};

/// What `packed` adds to the preset shown in `state`.
pub fn proposals(packed: &Packed, state: &State) -> Discovery {
    let mut proposed: Vec<(String, ViewMode)> = packed
        .items
        .iter()
        .filter(|i| i.role != Role::Preset && !state.is_included(&i.path))
        .filter_map(|i| Some((i.path.clone(), i.mode?)))
        .collect();
    proposed.sort();
    // Every file the preset includes that the pack had to reduce or drop
    // to fit, whatever role brought it into the pack (a file a glob of the
    // preset includes may be reached as an import first). A file the pack
    // took as it wanted it (a target in full) is not a change. A file the
    // user curated (its own entry with a mode, masks, slices or
    // `force_full`) is never changed: accepting keeps their view of it,
    // and the status names it.
    let opts = state.compose_options();
    let mut changed = Vec::new();
    let mut kept = Vec::new();
    for i in &packed.items {
        let Some(item) = state.item_for(&i.path) else {
            continue;
        };
        let shown = item.auto_aggregate.then(|| opts.mode_for(&item));
        let as_wanted = shown.is_some() && i.mode == Some(i.wanted);
        if i.mode == shown || as_wanted {
            continue;
        }
        if is_curated(&item, &i.path) {
            kept.push((i.path.clone(), i.mode));
        } else {
            changed.push((i.path.clone(), i.mode));
        }
    }
    Discovery {
        proposed,
        changed,
        kept,
        dropped: packed.stats.dropped,
        stats: packed.stats.clone(),
        composition: Arc::new(packed.composition()),
        map_tokens: packed.map.tokens,
        reasons: packed
            .items
            .iter()
            .filter(|i| i.mode.is_some() && !i.reasons.is_empty())
            .map(|i| (i.path.clone(), i.reasons.clone()))
            .collect(),
    }
}

/// Whether `item` is the user's own curation of `path`: an entry for
/// that file itself (not a glob) with a mode other than full, masks,
/// slices or `force_full`.
fn is_curated(item: &crate::core::model::FileItem, path: &str) -> bool {
    item.path == path
        && (item.view_mode != ViewMode::Full
            || item.force_full
            || !item.ast_mask.is_empty()
            || !item.custom_slices.is_empty())
}

/// Mark or unmark the file under the cursor as a target (saved in the
/// preset's `targets`).
pub fn toggle_target(state: &mut State) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        state.say(Level::Warn, "targets are files: move to a file");
        return Vec::new();
    };
    let key = state
        .keymap
        .key_name(crate::tui::input::action::Action::Discover);
    edit(state, |preset, _| {
        let on = !curation::is_target(preset, &path);
        curation::set_target(preset, &path, on);
        Ok(if on {
            format!(
                "{path} is a target ({} in all): press {key} to discover what it needs",
                preset.targets.len(),
            )
        } else {
            format!("{path} is no longer a target")
        })
    })
}

/// Pack the budget around the targets and the task on the worker; with
/// neither, ask for the task (a target can be marked instead).
pub fn discover(state: &mut State) -> Vec<Effect> {
    let preset = state.preset();
    let task = !preset.task.trim().is_empty();
    if preset.targets.is_empty() && !task {
        let key = state
            .keymap
            .key_name(crate::tui::input::action::Action::ToggleTarget);
        state.overlay = Some(crate::tui::state::Overlay::Input {
            prompt: crate::tui::state::Prompt::Task,
            buffer: String::new(),
        });
        state.say(
            Level::Info,
            format!("what is your task? (or Esc, then mark the files you work on with {key})"),
        );
        return Vec::new();
    }
    // The proposal is what the task is about: the room a complete map
    // leaves stays the user's, not filled with files to accept.
    let opts = PackOptions {
        fill: false,
        ..PackOptions::from_settings(&state.project.settings)
    };
    let around = match (preset.targets.len(), task) {
        (0, _) => "for the task".to_string(),
        (n, false) => format!("around {}", plural(n, "target")),
        (n, true) => format!("around {} and the task", plural(n, "target")),
    };
    state.say(Level::Info, format!("discovering {around}…"));
    vec![Effect::job(Job::Discover(DiscoverJob {
        generation: state.composition.generation,
        targets: preset.targets.clone(),
        preset,
        opts,
        consent: state.compose_options().consent,
        walked: state.walk.walked.clone(),
    }))]
}

/// A discovery finished: show its proposals, and its packed text in the
/// preview (the gauge, `y` and `w` take the same text while it is shown).
/// A pack made for a preset that has changed since is dropped.
pub fn on_discovered(
    state: &mut State,
    generation: u64,
    packed: Packed,
    composed: Composed,
) -> Vec<Effect> {
    if generation != state.composition.generation {
        state.say(
            Level::Warn,
            "discovery dropped: the preset changed while it ran (press i again)",
        );
        return Vec::new();
    }
    let packed = &packed;
    if let Some(first) = packed.missing_targets.first() {
        // A pack without a target is not what was asked for: no proposal.
        state.discovery = None;
        let also = match packed.missing_targets.len() {
            1 => String::new(),
            n => format!(" (and {} more targets)", n - 1),
        };
        state.say(
            Level::Error,
            format!("discovery: {first}{also}: raise the budget or unmark it"),
        );
        return Vec::new();
    }
    let discovery = proposals(packed, state);
    let accept = state
        .keymap
        .key_name(crate::tui::input::action::Action::AcceptDiscovery);
    let discard = state
        .keymap
        .key_name(crate::tui::input::action::Action::DiscardDiscovery);
    let tokens = state
        .keymap
        .key_name(crate::tui::input::action::Action::TokenMap);
    let message = discovery.summary(&accept, &discard, &tokens);
    state.say(Level::Info, message);
    state.discovery = Some(discovery);
    state.composition.composed = Some(composed);
    state.preview.follow_row(
        state.tree.current_row(),
        state.composition.composed.as_ref(),
    );
    Vec::new()
}

/// How many changed files the accept status names before it counts.
const NAMED_CHANGES: usize = 3;

/// Add every proposed file to the preset in its packed mode, and apply
/// what the pack had to do to the files the preset includes but the user
/// did not curate: one step. The status names the files whose mode changed
/// (`a.py full → skeleton`) and the curated ones kept as the user had them
/// though the pack reduced them, then counts the rest.
pub fn accept(state: &mut State) -> Vec<Effect> {
    let Some(discovery) = state.discovery.take() else {
        state.say(Level::Warn, "no discovery to accept");
        return Vec::new();
    };
    let n = discovery.proposed.len();
    let opts = state.compose_options();
    let changes: Vec<String> = discovery
        .changed
        .iter()
        .map(|(path, mode)| {
            let before = state
                .item_for(path)
                .filter(|item| item.auto_aggregate)
                .map(|item| opts.mode_for(&item));
            change_label(path, before, *mode)
        })
        .collect();
    // The curated files the pack shows otherwise keep the user's view.
    let kept: Vec<String> = discovery
        .kept
        .iter()
        .map(|(path, mode)| {
            let packed = mode.map_or("left out".to_string(), |m| m.to_string());
            format!(
                "{} (packed: {packed})",
                crate::text::sanitize::display_line(path, 80)
            )
        })
        .collect();
    let undo = state
        .keymap
        .key_name(crate::tui::input::action::Action::Undo);
    edit(state, |preset, _| {
        curation::accept_pack(
            preset,
            &discovery.proposed,
            &discovery.changed,
            discovery.map_tokens,
        )
        .map_err(|e| e.to_string())?;
        let mut message = format!("added {n} discovered files");
        if !changes.is_empty() {
            message.push_str("; to fit the budget: ");
            message.push_str(&changes[..changes.len().min(NAMED_CHANGES)].join(", "));
            if changes.len() > NAMED_CHANGES {
                message.push_str(&format!(
                    " and {} more of your files change mode",
                    changes.len() - NAMED_CHANGES
                ));
            }
        }
        if !kept.is_empty() {
            message.push_str("; kept your own view of ");
            message.push_str(&kept[..kept.len().min(NAMED_CHANGES)].join(", "));
            if kept.len() > NAMED_CHANGES {
                message.push_str(&format!(" and {} more", kept.len() - NAMED_CHANGES));
            }
        }
        message.push_str(&format!(" (undo with {undo})"));
        Ok(message)
    })
}

/// `a.py masked → skeleton`, `b.py → listed only`: one file the accept
/// changes, from its mode before (`None`: listed only) to the pack's.
fn change_label(path: &str, before: Option<ViewMode>, after: Option<ViewMode>) -> String {
    let mode = |m: Option<ViewMode>| m.map_or("listed only".to_string(), |m| m.to_string());
    format!(
        "{} {} → {}",
        crate::text::sanitize::display_line(path, 80),
        mode(before),
        mode(after)
    )
}

/// Forget the proposals; the preview and the gauge go back to the preset.
pub fn discard(state: &mut State) -> Vec<Effect> {
    match state.discovery.take() {
        Some(d) => {
            state.say(
                Level::Info,
                format!("discarded {} proposed files", d.proposed.len()),
            );
            recompose(state)
        }
        None => {
            state.say(Level::Warn, "no discovery to discard");
            Vec::new()
        }
    }
}
