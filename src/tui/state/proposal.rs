//! What a discovery proposes: the files the pack adds and changes, and
//! the packed composition itself, until accepted or discarded. A leaf the
//! `state` holds (it imports only the core).

use crate::text::words::noun_for;
use std::sync::Arc;

use crate::core::compose::Composition;
use crate::core::discovery::pack::PackStats;
use crate::core::model::ViewMode;

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
    /// Files the user curated (a mode, masks, slices, `force_full` of
    /// their own) that the pack reduced (`Some(mode)`) or left out
    /// (`None`): accepting keeps the user's view of them, and says so.
    pub kept: Vec<(String, Option<ViewMode>)>,
    pub stats: PackStats,
    /// Files the pack dropped for lack of room.
    pub dropped: usize,
    /// The packed composition itself: while the proposals are shown, the
    /// preview shows it, the gauge counts it, and `y` and `w` copy and
    /// write exactly it.
    pub composition: Arc<Composition>,
    /// The tokens of the pack's repo map (0: none): accepting keeps it as
    /// the preset's `repo_map`, so the preset composes to the same map.
    pub map_tokens: usize,
    /// Why each file ranked for the task was picked, in pack order (the
    /// words and mentions it matched, its graph neighbours, its score).
    pub reasons: Vec<(String, Vec<String>)>,
}

impl Discovery {
    /// The status line's account of the proposal: what it adds and
    /// changes, what the pack left out and why (the first files it dropped
    /// for room by name, and the key of the overlay that lists them all),
    /// and the keys (`accept`, `discard`) that take or drop it.
    pub fn summary(&self, accept: &str, discard: &str, tokens: &str) -> String {
        let s = &self.stats;
        let message = if self.proposed.is_empty() && self.changed.is_empty() && self.kept.is_empty()
        {
            format!(
                "discovery: nothing to add ({} discovered, {} / {} tokens packed)",
                s.discovered, s.tokens, s.budget
            )
        } else {
            let changed = if self.changed.is_empty() {
                String::new()
            } else {
                format!(", {} of yours reduced or listed", self.changed.len())
            };
            format!(
                "discovery: {} {} to add{changed} (packed {} of {}, {} dropped), {} / {} tokens packed · {accept} accept · {discard} discard",
                self.proposed.len(),
                noun_for(self.proposed.len(), "file"),
                s.included,
                s.candidates,
                self.dropped,
                s.tokens,
                s.budget
            )
        };
        let message = match self.kept.len() {
            0 => message,
            n => format!(
                "{message} · accepting keeps your own view of {n} curated {} the pack reduced",
                if n == 1 { "file" } else { "files" }
            ),
        };
        let message = match self.reasons.first() {
            Some((path, why)) if !why.is_empty() => format!(
                "{message} · best for the task: {path} ({})",
                why.iter().take(2).cloned().collect::<Vec<_>>().join("; ")
            ),
            _ => message,
        };
        let message = match s.held_note() {
            Some(note) => format!("{message} · {note}"),
            None => message,
        };
        let message = match dropped_note(&s.dropped_files, tokens) {
            Some(note) => format!("{message} · {note}"),
            None => message,
        };
        let message = match s.unresolved_note() {
            Some(note) => format!("{message} · {note}"),
            None => message,
        };
        let message = match s.limits.as_slice() {
            [] => message,
            [one] => format!("{message} · {one}"),
            [first, rest @ ..] => format!("{message} · {first} (and {} more limits)", rest.len()),
        };
        let message = match s.excluded.len() {
            0 => message,
            1 => format!("{message} · 1 file the preset excludes left out"),
            n => format!("{message} · {n} files the preset excludes left out"),
        };
        match s.sensitive.len() {
            0 => message,
            1 => format!("{message} · 1 credential file left out"),
            n => format!("{message} · {n} credential files left out"),
        }
    }

    /// Why the pack picked `path` for the task (none: not ranked for it).
    pub fn reasons_of(&self, path: &str) -> Option<&[String]> {
        self.reasons
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, why)| why.as_slice())
            .filter(|why| !why.is_empty())
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

/// How many dropped files the status names before it counts.
const NAMED_DROPS: usize = 3;

/// "left out for room: a.py, b.py, c.py and 4 more (b lists them)":
/// `None` when the pack dropped nothing.
fn dropped_note(dropped: &[String], tokens: &str) -> Option<String> {
    let first = dropped.first()?;
    let mut note = format!("left out for room: {first}");
    for path in dropped.iter().skip(1).take(NAMED_DROPS - 1) {
        note.push_str(", ");
        note.push_str(path);
    }
    if dropped.len() > NAMED_DROPS {
        note.push_str(&format!(" and {} more", dropped.len() - NAMED_DROPS));
    }
    note.push_str(&format!(" ({tokens} lists them)"));
    Some(note)
}
