//! The CLI (`src/cli`): the real `ctxcurate` binary run in temp
//! projects, one file per subcommand or concern.

mod add_rules;
mod bounds;
mod build;
mod completions;
mod deep_nesting;
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
mod hostile_configs;
mod large_files;
mod lock;
mod mcp;
mod output_links;
mod parse_deadline;
mod no_grammar;
mod presets;
mod progress;
mod root_discovery;
mod secrets_config;
mod secrets_encoded;
mod ruby_lua_markdown;
mod stats;
mod summary_gate;
mod terminal;
mod tokens;
mod tree;
mod watch;
