//! The repo map on its own (`ctxcurate map`): the project's files ranked
//! around the targets through the import graph, the preset's exclusions
//! left out, outlined into a token budget. The targets themselves are
//! not listed: they go to the model in full, so outlining them would
//! spend the map's budget twice.

use std::collections::HashSet;

use crate::core::discovery::exclusions::Excluded;
use crate::core::discovery::graph::{ImportGraph, UnresolvedImport};
use crate::core::discovery::repo_map::{self, RepoMap};
use crate::core::model::{Preset, TokenizerKind};

use super::Workspace;

/// A repo map and what the import graph under it saw.
#[derive(Debug, Clone)]
pub struct MapBuilt {
    pub map: RepoMap,
    /// Files in the import graph.
    pub files: usize,
    /// Imports that named no file of the project.
    pub unresolved: Vec<UnresolvedImport>,
    /// What a bound left out of the graph ([`ImportGraph::limits`]).
    pub limits: Vec<String>,
}

impl Workspace<'_> {
    /// The repo map of the project around `targets`, without the files
    /// `preset` excludes, in at most `budget` tokens of `tokenizer`.
    pub fn repo_map(
        &mut self,
        preset: &Preset,
        targets: &[String],
        budget: usize,
        tokenizer: TokenizerKind,
    ) -> MapBuilt {
        let walked = self.walk();
        let codebase = self.codebase().with_walk(&walked);
        let graph = ImportGraph::build(&codebase, &self.settings.include_dirs);
        let mut ranked = graph.rank(targets);
        // The preset's exclusions hold in its map too.
        let excluded = Excluded::among(preset, targets, graph.paths());
        ranked.retain(|r| !excluded.contains(&r.path));
        let skip: HashSet<&str> = targets.iter().map(String::as_str).collect();
        self.sources.progress().start("outlining the map", 0);
        let map = repo_map::build(&codebase, &ranked, &skip, budget, tokenizer);
        MapBuilt {
            map,
            files: graph.len(),
            unresolved: graph.unresolved().to_vec(),
            limits: graph.limits(),
        }
    }
}
