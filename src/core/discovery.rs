//! Discovery (docs/ARCHITECTURE.md, "Discovery"): from a few target files,
//! find what else the model needs and fit it in a token budget. `graph`
//! resolves imports into a ranked import graph, `repo_map` outlines the
//! project in rank order, `pack` fills the budget with both.

pub mod graph;
pub mod pack;
pub mod repo_map;
