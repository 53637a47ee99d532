//! The CLI (`src/cli`): the real `ctxcurate` binary run in temp
//! projects, one file per subcommand or concern.

mod bounds;
mod build;
mod curate;
mod discovery;
mod discuss;
mod edit;
mod exclude_discovery;
mod git;
mod git_trust;
mod harden;
mod large_files;
mod lock;
mod mcp;
mod no_grammar;
mod presets;
mod progress;
mod root_discovery;
mod stats;
mod summary_gate;
mod terminal;
mod tree;
