//! Discovery (docs/ARCHITECTURE.md, "Discovery"): from a few target files,
//! find what else the model needs and fit it in a token budget. `graph`
//! resolves imports into a ranked import graph, `repo_map` outlines the
//! project in rank order, `mentions` finds the files a task names,
//! `relevance` scores every file for a task, `pack` fills the budget with
//! all of them, and `context` composes a preset with
//! its own repo map (what an accepted discovery keeps). `exclusions` keeps
//! the files a preset excludes out of every one of them.

pub mod context;
pub mod exclusions;
pub mod graph;
pub mod mentions;
pub mod pack;
pub mod relevance;
pub mod repo_map;
