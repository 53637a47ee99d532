//! The CLI (`src/cli`): the real `ctxcurate` binary run in temp
//! projects, one file per subcommand or concern.

mod add_rules;
mod bounds;
mod build;
mod completions;
mod curate;
mod discovery;
mod discovery_languages;
mod discuss;
mod edit;
mod exclude_discovery;
mod git;
mod git_trust;
mod global_config;
mod harden;
mod hidden_imports;
mod large_files;
mod lock;
mod mcp;
mod no_grammar;
mod presets;
mod progress;
mod root_discovery;
mod ruby_lua_markdown;
mod stats;
mod summary_gate;
mod task;
mod task_mentions;
mod terminal;
mod tokens;
mod tree;
mod watch;
