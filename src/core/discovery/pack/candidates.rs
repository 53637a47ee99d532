//! The candidates of a pack, in priority order (docs/ARCHITECTURE.md,
//! "Discovery"): the targets at the user's own view, their direct imports,
//! the files the task names by path, the files ranked for the task, the
//! transitive imports, the files that import
//! a target, then the preset's own entries — each path once, and a
//! discovered file the preset lists with the user's own settings.

use std::collections::{HashMap, HashSet};

use crate::core::discovery::graph::{Ranked, Reach};
use crate::core::model::{FileItem, Preset, ViewMode};
use crate::core::walk::{self, ResolvedItem};

use super::Role;

/// Every candidate in priority order — the targets, their direct imports,
/// the files the task names, the targets' transitive imports, the files
/// that import a target, then the preset's own entries — and where the
/// preset's entries start; with the preset's problems (bad globs).
pub(super) fn build_candidates(
    preset: &Preset,
    targets: &[String],
    mentioned: &[String],
    relevant: &[String],
    walked: &[String],
    ranked: &[Ranked],
    reach: &Reach,
) -> (Candidates, usize, Vec<walk::ExpandProblem>) {
    let position: HashMap<&str, usize> = ranked
        .iter()
        .enumerate()
        .map(|(i, r)| (r.path.as_str(), i))
        .collect();
    let by_rank = |list: &[String]| {
        let mut v: Vec<String> = list.to_vec();
        v.sort_by_key(|p| position.get(p.as_str()).copied().unwrap_or(usize::MAX));
        v
    };
    let (resolved, problems) =
        walk::expand_items(&preset.files, &preset.exclude, || walked.to_vec());
    // A discovered file the preset lists keeps the user's own settings
    // (its view mode, masks, slices), with the discovered priority.
    let own: HashMap<&str, &ResolvedItem> = resolved.iter().map(|r| (r.path.as_str(), r)).collect();
    let wanted = |p: &str, mode: ViewMode| match own.get(p) {
        Some(r) => (*r).clone(),
        None => discovered(p, mode),
    };
    let mut candidates = Candidates::default();
    // A target the preset lists is packed at the user's own view of it
    // (masked, slices, forced full), and reduced only after its imports.
    for t in targets {
        let item = match own.get(t.as_str()) {
            Some(r) => target_view(r),
            None => discovered(t, ViewMode::Full),
        };
        candidates.push(item, Role::Target);
    }
    // The files the task names by path come right after the targets,
    // before their imports: the user named both.
    for p in mentioned {
        candidates.push(wanted(p, ViewMode::Full), Role::Mentioned);
    }
    // A target's imports that the task is about come first, best first;
    // the rest by rank. With a tight budget the import the task names
    // (`focusManager`) went out while an outline of `utils.ts` stayed.
    let for_task: HashMap<&str, usize> = relevant
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut direct = by_rank(&reach.direct);
    direct.sort_by_key(|p| for_task.get(p.as_str()).copied().unwrap_or(usize::MAX));
    for p in direct {
        candidates.push(wanted(&p, ViewMode::Full), Role::Import);
    }
    // Then every file ranked for the task, best first.
    for p in relevant {
        candidates.push(wanted(p, ViewMode::Full), Role::Relevant);
    }
    for p in by_rank(&reach.transitive) {
        candidates.push(wanted(&p, ViewMode::Skeleton), Role::Transitive);
    }
    for p in by_rank(&reach.callers) {
        candidates.push(wanted(&p, ViewMode::Full), Role::Caller);
    }
    let preset_from = candidates.list.len();
    for r in resolved {
        candidates.push(r, Role::Preset);
    }
    (candidates, preset_from, problems)
}

/// The user's entry for a target as the pack wants it: their view, but
/// shown (a target listed by name only, or in mode `none`, is what the
/// user asks about, so it goes in full).
fn target_view(own: &ResolvedItem) -> ResolvedItem {
    let mut r = own.clone();
    let s = &r.settings;
    if !s.auto_aggregate || (s.view_mode == ViewMode::None && !s.force_full) {
        let s = r.settings_mut();
        s.auto_aggregate = true;
        s.view_mode = ViewMode::Full;
    }
    r
}

/// A discovered file, wanted in `mode`.
pub(super) fn discovered(path: &str, mode: ViewMode) -> ResolvedItem {
    let mut item = FileItem::new(path);
    item.view_mode = mode;
    // Not from the preset: no entry index.
    ResolvedItem::new(item, usize::MAX)
}

/// Candidates in priority order, each path once (the first role wins).
#[derive(Default)]
pub(super) struct Candidates {
    pub list: Vec<(ResolvedItem, Role)>,
    seen: HashSet<String>,
}

impl Candidates {
    fn push(&mut self, r: ResolvedItem, role: Role) {
        if self.seen.insert(r.path.clone()) {
            self.list.push((r, role));
        }
    }
}
