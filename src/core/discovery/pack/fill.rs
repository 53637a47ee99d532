//! The room a complete repo map leaves (docs/ARCHITECTURE.md, "Discovery"): with a task, a small project's map lists
//! every file long before the budget is spent, and a task that matched
//! little left most of it empty. The rest of the budget takes more files,
//! best first: the files the task scored below the cutoff, then the
//! project's source files in the map's order around the task, then the
//! rest (tests, docs, data), each in the best form that fits. They come
//! after every candidate, so they never displace one, and a file that
//! fits no form is passed over, not named as left out.

use std::collections::HashSet;

use crate::core::compose::RenderedFile;
use crate::core::discovery::exclusions::Excluded;
use crate::core::discovery::graph::Ranked;
use crate::core::discovery::relevance::{FileClass, Relevance, classify};
use crate::core::model::ViewMode;
use crate::core::walk::ResolvedItem;

use super::candidates::discovered;
use super::{PackedItem, Packer, Role};

/// Below this many tokens left, or this share of the budget, no file is
/// tried: the few tokens a map leaves past its last line are not worth
/// rendering files for.
const LEAST_ROOM: usize = 64;
const LEAST_SHARE: f64 = 1.0 / 64.0;
/// How many files in a row may fit no form before the fill stops (a
/// small room left after many large files).
const MISSES: usize = 12;

/// The files to fill with, best first: the files scored for the task,
/// then the map's order (`ranked`), the kinds the task does not demote
/// first, then the other source and doc files of the walk (`walked`: a
/// readme, a script the graph does not read), shallowest first; none
/// already a candidate (`taken`) nor left out. Data, lock, generated and
/// vendored files no rank brought are not worth the room.
pub(super) fn order(
    relevance: &Relevance,
    ranked: &[Ranked],
    walked: &[String],
    taken: &HashSet<&str>,
    excluded: &Excluded,
) -> Vec<String> {
    let (first, rest): (Vec<&Ranked>, Vec<&Ranked>) = ranked
        .iter()
        .partition(|r| relevance.query.class_weight(classify(&r.path)) >= 1.0);
    let mut others: Vec<&str> = walked
        .iter()
        .map(String::as_str)
        .filter(|p| matches!(classify(p), FileClass::Source | FileClass::Doc))
        .collect();
    others.sort_by_key(|p| (p.matches('/').count(), *p));
    let paths = (relevance.files.iter().map(|s| s.path.as_str()))
        .chain(first.into_iter().chain(rest).map(|r| r.path.as_str()))
        .chain(others);
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for path in paths {
        if !taken.contains(path) && !excluded.contains(path) && seen.insert(path) {
            out.push(path.to_string());
        }
    }
    out
}

/// Whether `room` tokens left of `budget` are worth trying files for;
/// asked before the order is made (a walk of 100,000 files sorted for
/// the 20 tokens a full map leaves).
pub(super) fn worth_filling(budget: usize, room: usize) -> bool {
    room >= LEAST_ROOM && room as f64 >= budget as f64 * LEAST_SHARE
}

/// What the fill placed: each file's item and its rendering, in order.
pub(super) struct Filled {
    pub items: Vec<PackedItem>,
    pub files: Vec<RenderedFile>,
    /// What is left of the room.
    pub left: usize,
}

/// Fit the files of `order` into `room` tokens, each in the best form
/// that fits.
pub(super) fn fill(packer: &Packer, order: &[String], room: usize) -> Filled {
    let mut filled = Filled {
        items: Vec::new(),
        files: Vec::new(),
        left: room,
    };
    if !worth_filling(packer.opts.budget, room) {
        return filled;
    }
    let mut misses = 0;
    for path in order {
        if filled.left < LEAST_ROOM || misses >= MISSES {
            break;
        }
        let resolved: ResolvedItem = discovered(path, ViewMode::Full);
        let (mut item, file, _) = packer.fit_within(&resolved, Role::Fill, &mut filled.left, 0);
        match file {
            Some(file) if item.mode.is_some() && file.skipped.is_none() => {
                item.reasons = packer
                    .relevance
                    .get(path)
                    .map(|s| s.why.reasons())
                    .unwrap_or_default();
                if item.reasons.is_empty() {
                    item.reasons.push("room left in the budget".to_string());
                }
                filled.items.push(item);
                filled.files.push(file);
                misses = 0;
            }
            _ => misses += 1,
        }
    }
    filled
}
