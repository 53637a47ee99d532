//! Discovery in the TUI (docs/ARCHITECTURE.md, "Discovery"): mark target files, pack the budget
//! around them on the worker, show what the pack would add as proposals in
//! the tree, and accept them into the preset as one undoable step — or
//! discard them. While proposals are shown the gauge shows the packed total.
//! A target that does not fit the budget is an error: nothing is proposed.

use crate::core::discovery::pack::{PackOptions, PackStats, Packed, Role};
use crate::core::model::{FileItem, ViewMode};

use super::curate::{edit, entry_mut, insert_sorted};
use super::event::{Effect, Job};
use super::state::{Level, State};

/// What the last discovery proposed.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// Files the pack includes that the preset does not, with the mode
    /// they were packed in, sorted by path.
    pub proposed: Vec<(String, ViewMode)>,
    /// The preset's own files the pack reduced (`Some(mode)`) or left out
    /// (`None`) to fit the budget: accepting applies these too, so the
    /// accepted preset composes to the packed total.
    pub changed: Vec<(String, Option<ViewMode>)>,
    pub stats: PackStats,
    /// Files the pack dropped for lack of room.
    pub dropped: usize,
}

impl Discovery {
    /// What `packed` adds to the preset shown in `state`.
    pub fn from_packed(packed: &Packed, state: &State) -> Self {
        let mut proposed: Vec<(String, ViewMode)> = packed
            .items
            .iter()
            .filter(|i| i.role != Role::Preset && !state.is_included(&i.path))
            .filter_map(|i| Some((i.path.clone(), i.mode?)))
            .collect();
        proposed.sort();
        let changed = packed
            .items
            .iter()
            .filter(|i| i.role == Role::Preset && i.mode != Some(i.wanted))
            .map(|i| (i.path.clone(), i.mode))
            .collect();
        Discovery {
            proposed,
            changed,
            dropped: packed.stats.dropped,
            stats: packed.stats.clone(),
        }
    }

    /// How many proposed files folder `dir` holds.
    pub fn count_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self
            .proposed
            .partition_point(|(p, _)| p.as_str() < prefix.as_str());
        self.proposed[start..]
            .iter()
            .take_while(|(p, _)| p.starts_with(&prefix))
            .count()
    }

    /// The proposed mode of `path`, if it is proposed.
    pub fn mode_of(&self, path: &str) -> Option<ViewMode> {
        self.proposed
            .binary_search_by(|(p, _)| p.as_str().cmp(path))
            .ok()
            .map(|i| self.proposed[i].1)
    }
}

/// Mark or unmark the file under the cursor as a target (saved in the
/// preset's `targets`).
pub fn toggle_target(state: &mut State) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        state.say(Level::Warn, "targets are files: move to a file");
        return Vec::new();
    };
    let key = state_key(state, super::action::Action::Discover);
    edit(state, |preset, _| {
        Ok(match preset.targets.iter().position(|t| *t == path) {
            Some(i) => {
                preset.targets.remove(i);
                format!("{path} is no longer a target")
            }
            None => {
                preset.targets.push(path.clone());
                preset.targets.sort();
                format!(
                    "{path} is a target ({} in all): press {key} to discover what it needs",
                    preset.targets.len(),
                )
            }
        })
    })
}

/// Pack the budget around the targets on the worker.
pub fn discover(state: &mut State) -> Vec<Effect> {
    let preset = state.preset();
    if preset.targets.is_empty() {
        let key = state_key(state, super::action::Action::ToggleTarget);
        state.say(
            Level::Warn,
            format!("no targets: mark the files you work on with {key} in the tree first"),
        );
        return Vec::new();
    }
    let settings = &state.project.settings;
    let opts = PackOptions {
        budget: settings.budget,
        map_budget: settings.repo_map_budget,
        tokenizer: settings.tokenizer,
        format: settings.format,
        max_messages: settings.max_messages,
        include_dirs: settings.include_dirs.clone(),
        read: crate::core::walk::ReadPolicy::from_settings(&state.project.settings),
    };
    state.say(
        Level::Info,
        format!("discovering around {} targets…", preset.targets.len()),
    );
    vec![Effect::job(Job::Discover {
        targets: preset.targets.clone(),
        preset,
        opts,
        walked: state.walked.clone(),
    })]
}

/// A discovery finished: show its proposals.
pub fn on_discovered(state: &mut State, packed: &Packed) -> Vec<Effect> {
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
    let discovery = Discovery::from_packed(packed, state);
    let s = &discovery.stats;
    let accept = state_key(state, super::action::Action::AcceptDiscovery);
    let discard = state_key(state, super::action::Action::DiscardDiscovery);
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
    state.say(Level::Info, message);
    state.discovery = Some(discovery);
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
    edit(state, |preset, state| {
        for (path, mode) in &discovery.proposed {
            if !state.is_included(path) && preset.item(path).is_none() {
                let mut item = FileItem::new(path);
                item.view_mode = *mode;
                insert_sorted(preset, item);
            }
        }
        // The preset's own files as the pack left them.
        for (path, mode) in &discovery.changed {
            let item = entry_mut(preset, state, path);
            item.force_full = false;
            match mode {
                Some(mode) => item.view_mode = *mode,
                None => item.auto_aggregate = false,
            }
        }
        let mut message = format!("added {n} discovered files");
        if reduced + listed > 0 {
            message.push_str(&format!(
                "; to fit the budget {reduced} of your files are reduced and {listed} listed only"
            ));
        }
        message.push_str(" (undo with u)");
        Ok(message)
    })
}

/// Forget the proposals.
pub fn discard(state: &mut State) -> Vec<Effect> {
    match state.discovery.take() {
        Some(d) => state.say(
            Level::Info,
            format!("discarded {} proposed files", d.proposed.len()),
        ),
        None => state.say(Level::Warn, "no discovery to discard"),
    }
    Vec::new()
}

/// The first key bound to `action`, for messages.
fn state_key(state: &State, action: super::action::Action) -> String {
    state
        .keymap
        .keys_for(action)
        .first()
        .map(|(_, key)| key.to_string())
        .unwrap_or_else(|| action.name().to_string())
}
