//! The project's files ranked around a pack's targets (or a preset's own
//! repo map): the task's mentions and its relevance scores seed the import
//! graph's ranking beside the targets, and nothing discovery leaves out
//! ranks or seeds.

use crate::core::discovery::exclusions::Excluded;
use crate::core::discovery::graph::{ImportGraph, Ranked};
use crate::core::discovery::mentions::{self, MentionKind};
use crate::core::discovery::relevance::{self, Relevance};
use crate::core::model::Preset;
use crate::core::profile::Phases;
use crate::core::sources::Codebase;

/// The project's files ranked around the targets, for a pack or a map.
#[derive(Debug, Clone, Default)]
pub struct Ranking {
    /// In rank order, without the files discovery leaves out.
    pub ranked: Vec<Ranked>,
    /// The task's mentions, with every file each matched (excluded ones
    /// too: the stats say what a mention named).
    pub mentions: Vec<mentions::Mention>,
    /// The files of the graph and of the mentions discovery leaves out.
    pub excluded: Excluded,
    /// Every file scored for the task (empty without one), best first.
    pub relevance: Relevance,
}

/// How many of the files ranked for the task may become candidates.
pub(super) const RELEVANT_CANDIDATES: usize = 60;
/// How many of the best files for the task seed the repo map's ranking.
const RELEVANT_SEEDS: usize = 10;

/// The files the task names by path (not by an identifier they define:
/// those go by their score).
pub(super) fn named_paths(mentions: &[mentions::Mention]) -> Vec<String> {
    let named: Vec<mentions::Mention> = mentions
        .iter()
        .filter(|m| m.kind == MentionKind::Path)
        .cloned()
        .collect();
    mentions::matched_files(&named)
}

/// The project's files ranked around `targets`, the files the preset's
/// task names seeding the ranking beside them; with the task's mentions.
/// A pack and a preset's own repo map (`core::discovery::context`) rank
/// alike, and neither ranks a file discovery leaves out (one the preset
/// excludes, a credential file), nor lets one seed the ranking.
pub fn ranking(
    codebase: &Codebase,
    preset: &Preset,
    targets: &[String],
    graph: &ImportGraph,
) -> Ranking {
    let phases = Phases::start();
    let mentions = if preset.task.trim().is_empty() {
        Vec::new()
    } else {
        mentions::find(codebase, &preset.task)
    };
    let matched = mentions::matched_files(&mentions);
    let task = !preset.task.trim().is_empty();
    let walked = if task { codebase.files() } else { &[] };
    let excluded = Excluded::among(
        preset,
        targets,
        graph
            .paths()
            .chain(matched.iter().map(String::as_str))
            .chain(walked.iter().map(String::as_str)),
    );
    let relevance = if task {
        let allowed: Vec<&str> = walked
            .iter()
            .map(String::as_str)
            .filter(|p| !excluded.contains(p) && !targets.iter().any(|t| t == p))
            .collect();
        phases.mark("ranking: mentions");
        relevance::rank(codebase, &allowed, &preset.task, &mentions, graph)
    } else {
        Relevance::default()
    };
    let mut seeds: Vec<String> = named_paths(&mentions)
        .into_iter()
        .filter(|p| !excluded.contains(p))
        .collect();
    for best in relevance.candidates(RELEVANT_SEEDS) {
        if !seeds.contains(&best.path) {
            seeds.push(best.path.clone());
        }
    }
    phases.mark("ranking: relevance");
    let mut ranked = graph.rank_with(targets, &seeds);
    ranked.retain(|r| !excluded.contains(&r.path));
    Ranking {
        ranked,
        mentions,
        excluded,
        relevance,
    }
}
