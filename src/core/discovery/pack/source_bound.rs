//! How much source a pack parses for the reduced forms of its candidates
//! (docs/ARCHITECTURE.md, "Discovery"): a skeleton, an outline or a
//! masked view is a parse, and every candidate that does not fit whole is
//! tried in them, so 240 files of 900 KB took a pack minutes (recheck 17,
//! F17-8). The candidates are admitted in their order (the fit's) up to
//! [`MAX_REDUCED_SOURCE`] bytes, the first always; past that a file is
//! tried only whole (or named, as its entry asks), and the pack names it
//! as left out without a size and says how many it left out so. The
//! targets, which the user named, are always admitted and not counted; a
//! file counts what a composition would read of it to parse it (none of
//! one over the size cap, listed by name only, or wanted in no form a
//! parse makes).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use crate::core::discovery::repo_map::{self, MAX_OUTLINED_SOURCE};
use crate::core::model::ViewMode;
use crate::core::sources::Codebase;
use crate::core::walk::{FORCED_MAX_BYTES, ReadPolicy, ResolvedItem};

use super::{PackedItem, Packer, Role, reductions};

/// The most bytes of candidates (targets aside) whose reduced forms a pack
/// makes: the repo map's bound, so a pack parses at most twice it besides
/// its targets.
pub(super) const MAX_REDUCED_SOURCE: u64 = MAX_OUTLINED_SOURCE;

/// Whether `mode` is made from a parse of the file (the forms a file past
/// the bound is not tried in): the views `views::render_parsed` builds a
/// tree for. Custom slices are cut by lines.
pub(super) fn needs_parse(mode: ViewMode) -> bool {
    matches!(
        mode,
        ViewMode::Skeleton | ViewMode::Outline | ViewMode::Masked
    )
}

/// The admissions of one pack, decided in candidate order as the fit
/// asks (files the fill brings after the candidates, in its order).
pub(super) struct SourceBound<'c> {
    list: &'c [(ResolvedItem, Role)],
    read: ReadPolicy,
    bound: u64,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// How far into `list` admissions are decided.
    next: usize,
    used: u64,
    /// Whether a file with bytes to parse was admitted (the first always
    /// is).
    any: bool,
    /// Past the bound: every later file is refused.
    full: bool,
    decided: HashMap<String, bool>,
    /// The files refused that wanted a form a parse makes (their forms
    /// were cut to whole): dropped, they are [`PackedItem::unreduced`].
    cut: HashSet<String>,
}

impl<'c> SourceBound<'c> {
    /// The bound over `list`, the candidates in the fit's order, read
    /// under `read`.
    pub fn over(list: &'c [(ResolvedItem, Role)], read: ReadPolicy) -> Self {
        Self::with_bound(list, read, MAX_REDUCED_SOURCE)
    }

    fn with_bound(list: &'c [(ResolvedItem, Role)], read: ReadPolicy, bound: u64) -> Self {
        SourceBound {
            list,
            read,
            bound,
            state: Mutex::new(State::default()),
        }
    }

    /// Whether `path` may be parsed for its reduced forms: the candidates
    /// before it are decided first, so the answer does not depend on the
    /// order the fit (or the renders ahead of it, on every core) asks in.
    /// A path not among the candidates (the fill's) is decided now.
    pub fn admits(&self, codebase: &Codebase, path: &str) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&yes) = state.decided.get(path) {
            return yes;
        }
        while state.next < self.list.len() {
            let (resolved, role) = &self.list[state.next];
            state.next += 1;
            let yes = *role == Role::Target
                || (!state.full && {
                    let bytes = self.parsed_bytes(codebase, resolved);
                    state.charge(bytes, self.bound)
                });
            state.decided.entry(resolved.path.clone()).or_insert(yes);
            if resolved.path == path {
                return state.decided.get(path).copied().unwrap_or(yes);
            }
        }
        let yes = !state.full && {
            let bytes = self.read_bytes(codebase, path);
            state.charge(bytes, self.bound)
        };
        state.decided.insert(path.to_string(), yes);
        yes
    }

    /// What a pack would read of `resolved` to parse it: nothing when it
    /// is listed by name only or wanted in no form a parse makes.
    fn parsed_bytes(&self, codebase: &Codebase, resolved: &ResolvedItem) -> u64 {
        let settings = &resolved.settings;
        let wanted = if settings.force_full {
            ViewMode::Full
        } else {
            settings.view_mode
        };
        if !settings.auto_aggregate || !reductions(wanted).iter().any(|&m| needs_parse(m)) {
            return 0;
        }
        self.read_bytes(codebase, &resolved.path)
    }

    /// What a composition reads of `path`: its size, or nothing when it is
    /// over the size cap (the pack's renders never force a full read).
    fn read_bytes(&self, codebase: &Codebase, path: &str) -> u64 {
        let cap = self.read.max_file_size.min(FORCED_MAX_BYTES);
        Some(repo_map::source_bytes(codebase, path))
            .filter(|&bytes| bytes <= cap)
            .unwrap_or(0)
    }

    /// Note that `path` was refused a form a parse makes it wanted.
    fn note_cut(&self, path: &str) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !state.cut.contains(path) {
            state.cut.insert(path.to_string());
        }
    }

    /// Whether `path` was refused a form a parse makes it wanted.
    fn was_cut(&self, path: &str) -> bool {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.cut.contains(path)
    }

    /// Whether the bound was reached: some file was tried without its
    /// reduced forms.
    pub fn reached(&self) -> bool {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).full
    }
}

impl State {
    /// Count `bytes` of a file against `bound`, if the room allows (the
    /// first file read always); once a file is refused, so is every later
    /// one.
    fn charge(&mut self, bytes: u64, bound: u64) -> bool {
        if self.full {
            return false;
        }
        let total = self.used.saturating_add(bytes);
        if total > bound && self.any {
            self.full = true;
            return false;
        }
        self.used = total;
        self.any |= bytes > 0;
        true
    }
}

/// The note a pack gives when files were tried without their reduced
/// forms, and how many of them it left out.
pub(super) fn note(left_out: usize) -> String {
    format!(
        "the pack parsed at most {} MiB of its candidates' source (targets aside) for skeletons \
         and outlines; {left_out} later {} tried only whole and left out",
        MAX_REDUCED_SOURCE >> 20,
        if left_out == 1 {
            "file was"
        } else {
            "files were"
        }
    )
}

impl Packer<'_> {
    /// Whether `resolved`, a candidate of `role`, may be parsed for its
    /// reduced forms: a target always.
    pub(super) fn may_parse(&self, resolved: &ResolvedItem, role: Role) -> bool {
        role == Role::Target || self.bound.admits(&self.codebase, &resolved.path)
    }

    /// Of `modes` (the forms `resolved` is tried in), those it may be
    /// tried in: past the bound, those made without a parse, or whole when
    /// none is.
    pub(super) fn modes(
        &self,
        resolved: &ResolvedItem,
        role: Role,
        modes: &[ViewMode],
    ) -> Vec<ViewMode> {
        if !modes.iter().any(|&m| needs_parse(m)) || self.may_parse(resolved, role) {
            return modes.to_vec();
        }
        self.bound.note_cut(&resolved.path);
        let kept: Vec<ViewMode> = modes.iter().copied().filter(|&m| !needs_parse(m)).collect();
        if kept.is_empty() {
            vec![ViewMode::Full]
        } else {
            kept
        }
    }

    /// Mark the files of `items` dropped after their forms were cut to
    /// whole as [`PackedItem::unreduced`]: what their cheapest form would
    /// take is not known (the `## Left out` note names them without a
    /// size).
    pub(super) fn mark_unreduced(&self, items: &mut [PackedItem]) {
        if !self.bound.reached() {
            return;
        }
        for item in items.iter_mut() {
            if item.mode.is_none() && item.needs.is_some() && self.bound.was_cut(&item.path) {
                item.unreduced = true;
                item.needs = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::FileItem;
    use crate::core::sources::Sources;

    fn item(path: &str) -> ResolvedItem {
        ResolvedItem::new(FileItem::new(path), usize::MAX)
    }

    #[test]
    fn files_are_admitted_in_candidate_order_up_to_the_bound_the_first_always_and_targets_free() {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in [("t.py", 500), ("a.py", 300), ("b.py", 300), ("c.py", 10)] {
            std::fs::write(dir.path().join(name), "x".repeat(bytes)).unwrap();
        }
        let sources = Sources::new();
        let codebase = Codebase::new(dir.path(), &sources);
        let list = vec![
            (item("t.py"), Role::Target),
            (item("a.py"), Role::Import),
            (item("b.py"), Role::Transitive),
            (item("c.py"), Role::Preset),
        ];
        let read = ReadPolicy::default();
        let bound = SourceBound::with_bound(&list, read, 400);
        // Asked out of order (as the renders on every core may ask): the
        // answer is the one the candidate order gives.
        assert!(!bound.admits(&codebase, "c.py"));
        assert!(bound.admits(&codebase, "t.py"));
        assert!(bound.admits(&codebase, "a.py"));
        assert!(!bound.admits(&codebase, "b.py"));
        assert!(bound.reached());
        // A file the fill brings later is refused too, once the bound is reached.
        assert!(!bound.admits(&codebase, "d.py"));

        // The first file is admitted whatever its size.
        let big = vec![(item("t.py"), Role::Import)];
        let first = SourceBound::with_bound(&big, read, 10);
        assert!(first.admits(&codebase, "t.py"));
        assert!(!first.reached());
    }

    #[test]
    fn only_views_made_from_a_parse_count() {
        assert!(!needs_parse(ViewMode::Full));
        assert!(!needs_parse(ViewMode::None));
        assert!(needs_parse(ViewMode::Outline));
        assert!(needs_parse(ViewMode::Skeleton));
        assert!(needs_parse(ViewMode::Masked));
        assert!(!needs_parse(ViewMode::Custom));
        assert!(!needs_parse(ViewMode::Summary));
    }
}
