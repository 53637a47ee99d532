//! Discovery in the TUI (docs/ARCHITECTURE.md, "Discovery"): mark target files, pack the budget
//! around them on the worker, show what the pack would add as proposals in
//! the tree, and accept them into the preset as one undoable step — or
//! discard them. While proposals are shown, the preview shows the packed
//! text, the gauge counts it, and `y`/`w` copy and write exactly it; the
//! accepted preset keeps the pack's files, modes and repo map size.
//! A target that does not fit the budget is an error: nothing is proposed.

use std::sync::Arc;

use crate::core::curation;
use crate::core::discovery::pack::{PackOptions, Packed, Role};
use crate::core::model::ViewMode;

use crate::tui::messages::{DiscoverJob, Effect, Job};
use crate::tui::navigate::sync_preview;
use crate::tui::state::model::{Composed, Discovery};
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
    // Every file the preset includes that the pack shows otherwise (or
    // drops), whatever role brought it into the pack: a file a glob of the
    // preset includes may be reached as an import first.
    let opts = state.compose_options();
    let changed = packed
        .items
        .iter()
        .filter_map(|i| {
            let item = state.item_for(&i.path)?;
            let shown = item.auto_aggregate.then(|| opts.mode_for(&item));
            (i.mode != shown).then(|| (i.path.clone(), i.mode))
        })
        .collect();
    Discovery {
        proposed,
        changed,
        dropped: packed.stats.dropped,
        stats: packed.stats.clone(),
        composition: Arc::new(packed.composition()),
        map_tokens: packed.map.tokens,
    }
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

/// Pack the budget around the targets on the worker.
pub fn discover(state: &mut State) -> Vec<Effect> {
    let preset = state.preset();
    if preset.targets.is_empty() {
        let key = state
            .keymap
            .key_name(crate::tui::input::action::Action::ToggleTarget);
        state.say(
            Level::Warn,
            format!("no targets: mark the files you work on with {key} in the tree first"),
        );
        return Vec::new();
    }
    let opts = PackOptions::from_settings(&state.project.settings);
    state.say(
        Level::Info,
        format!("discovering around {} targets…", preset.targets.len()),
    );
    vec![Effect::job(Job::Discover(DiscoverJob {
        generation: state.composition.generation,
        targets: preset.targets.clone(),
        preset,
        opts,
        consent: state.compose_options().consent,
        settings: Box::new(state.project.settings.clone()),
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
    let s = &discovery.stats;
    let accept = state
        .keymap
        .key_name(crate::tui::input::action::Action::AcceptDiscovery);
    let discard = state
        .keymap
        .key_name(crate::tui::input::action::Action::DiscardDiscovery);
    let message = if discovery.proposed.is_empty() && discovery.changed.is_empty() {
        format!(
            "discovery: nothing to add ({} discovered, {} / {} tokens packed)",
            s.discovered, s.tokens, s.budget
        )
    } else {
        let changed = if discovery.changed.is_empty() {
            String::new()
        } else {
            format!(", {} of yours reduced or listed", discovery.changed.len())
        };
        format!(
            "discovery: {} files to add{changed} ({} discovered, {} dropped), {} / {} tokens packed · {accept} accept · {discard} discard",
            discovery.proposed.len(),
            s.discovered,
            discovery.dropped,
            s.tokens,
            s.budget
        )
    };
    let message = match s.unresolved_note() {
        Some(note) => format!("{message} · {note}"),
        None => message,
    };
    let message = match s.excluded.len() {
        0 => message,
        1 => format!("{message} · 1 file the preset excludes left out"),
        n => format!("{message} · {n} files the preset excludes left out"),
    };
    let message = match s.sensitive.len() {
        0 => message,
        1 => format!("{message} · 1 credential file left out"),
        n => format!("{message} · {n} credential files left out"),
    };
    state.say(Level::Info, message);
    state.discovery = Some(discovery);
    state.composition.composed = Some(composed);
    sync_preview(state);
    Vec::new()
}

/// Add every proposed file to the preset in its packed mode: one step.
pub fn accept(state: &mut State) -> Vec<Effect> {
    let Some(discovery) = state.discovery.take() else {
        state.say(Level::Warn, "no discovery to accept");
        return Vec::new();
    };
    let n = discovery.proposed.len();
    let (reduced, listed) = (
        discovery
            .changed
            .iter()
            .filter(|(_, m)| m.is_some())
            .count(),
        discovery
            .changed
            .iter()
            .filter(|(_, m)| m.is_none())
            .count(),
    );
    edit(state, |preset, _| {
        curation::accept_pack(
            preset,
            &discovery.proposed,
            &discovery.changed,
            discovery.map_tokens,
        )
        .map_err(|e| e.to_string())?;
        let mut message = format!("added {n} discovered files");
        if reduced + listed > 0 {
            message.push_str(&format!(
                "; as packed, {reduced} of your files change mode and {listed} are listed only"
            ));
        }
        message.push_str(" (undo with u)");
        Ok(message)
    })
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
