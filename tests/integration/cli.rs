//! The CLI (`src/cli`): the real `ctxcurate` binary run in temp
//! projects, one file per subcommand or concern.

mod add_rules;
mod bounds;
mod build;
mod completions;
mod curate;
mod deep_nesting;
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
mod no_grammar;
mod output_links;
mod parse_deadline;
mod presets;
mod progress;
mod root_discovery;
mod ruby_lua_markdown;
mod secrets_config;
mod secrets_encoded;
mod stats;
mod summary_gate;
mod terminal;
mod tokens;
mod tree;
mod watch;
