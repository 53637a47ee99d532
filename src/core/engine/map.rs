//! The repo map on its own (`ctxcurate map`): the project's files ranked
//! around the targets through the import graph, the preset's exclusions
//! left out, outlined into a token budget. The targets themselves are
//! not listed: they go to the model in full, so outlining them would
//! spend the map's budget twice. A map as the user said it ([`MapAsk`])
//! is resolved here as a build's ask is (`ask`): the front end turns its
//! flags into the ask and the answer into lines.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use crate::core::discovery::exclusions::Excluded;
use crate::core::discovery::graph::{ImportGraph, UnresolvedImport};
use crate::core::discovery::repo_map::{self, RepoMap};
use crate::core::model::{Preset, TokenizerKind};
use crate::core::progress::Progress;
use crate::core::project::Project;

use super::Workspace;
use super::ask::{self, AskError};

/// What the user asked to map, before anything is looked up.
#[derive(Debug, Clone, Default)]
pub struct MapAsk {
    /// Where relative targets start.
    pub cwd: PathBuf,
    /// The preset named (its exclusions, and its targets when none are
    /// typed), or the active one.
    pub preset: Option<String>,
    /// Targets as typed: relative to `cwd`, or absolute.
    pub targets: Vec<PathBuf>,
    /// The map's budget, else the settings' `repo_map_budget`.
    pub budget: Option<usize>,
    /// The tokenizer, else the settings'.
    pub tokenizer: Option<TokenizerKind>,
}

/// A map made as asked, with what it was made for.
#[derive(Debug, Clone)]
pub struct MapAnswered {
    pub built: MapBuilt,
    /// The root-relative targets it ranks around (and leaves out).
    pub targets: Vec<String>,
    pub budget: usize,
    pub tokenizer: TokenizerKind,
}

/// `ask` resolved on `project` (the preset, the targets as root-relative
/// files, the budget and tokenizer) and mapped on the project's run
/// cache; `watch` gets the sources' progress while the map is made (what
/// it returns is dropped when the map is done).
pub fn map_asked<G>(
    project: &Project,
    ask: MapAsk,
    watch: impl FnOnce(Arc<Progress>) -> G,
) -> Result<MapAnswered, AskError> {
    let (preset, _) = ask::preset_named(project, ask.preset.as_deref())?;
    let mut targets = Vec::new();
    for t in &ask.targets {
        targets.push(ask::target(project, &ask.cwd, t)?);
    }
    if targets.is_empty() {
        targets = preset.targets.clone();
    }
    let tokenizer = ask.tokenizer.unwrap_or(project.settings.tokenizer);
    let budget = ask.budget.unwrap_or(project.settings.repo_map_budget);
    let sources = project.run_cache();
    let shown = watch(sources.progress());
    let built = Workspace::open(project, &sources).repo_map(&preset, &targets, budget, tokenizer);
    drop(shown);
    Ok(MapAnswered {
        built,
        targets,
        budget,
        tokenizer,
    })
}

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
    /// The files held out of the map for a likely secret in their
    /// outline, each with where (`cfg.py:1 (AWS secret key)`).
    pub held: Vec<String>,
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
        // As a build's map: a file whose outline holds a likely secret is
        // held out, and the map made again without it.
        let scanner = crate::core::secrets::Scanner::new(&codebase);
        let mut held: Vec<String> = Vec::new();
        let mut map = repo_map::build(&codebase, &ranked, &skip, budget, tokenizer);
        for _ in 0..3 {
            let findings = scanner.map(&map.text);
            if findings.is_empty() {
                break;
            }
            let mut out: HashSet<String> = HashSet::new();
            for f in &findings {
                use crate::core::secrets::Place;
                match &f.place {
                    Place::MapFile { path, line } if out.insert(path.clone()) => {
                        held.push(format!("{path}:{line} ({})", f.kind));
                    }
                    Place::MapFile { .. } => {}
                    // Not in any file's outline: no map rather than one
                    // holding it.
                    _ => {
                        map = RepoMap::default();
                        held.push(format!("the map itself ({})", f.kind));
                        break;
                    }
                }
            }
            if map.text.is_empty() {
                break;
            }
            ranked.retain(|r| !out.contains(&r.path));
            map = repo_map::build(&codebase, &ranked, &skip, budget, tokenizer);
        }
        // Folders the walk left out (too deep under ignore files) are
        // missing from the graph as a bound's cut is.
        let mut limits = crate::core::walk::notes_lines(&std::mem::take(&mut self.walk_notes));
        limits.extend(graph.limits());
        limits.extend(map.note.clone());
        MapBuilt {
            map,
            files: graph.len(),
            unresolved: graph.unresolved().to_vec(),
            limits,
            held,
        }
    }
}
