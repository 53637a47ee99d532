//! `core::trust`: what a repository's project file asks for needs consent,
//! and what it ships cannot write or hang through links.

mod consent;
mod consent_argv;
mod consent_argv_names;
mod consent_bounds;
mod consent_call_forms;
mod consent_computed;
mod consent_computed_sources;
mod consent_configs;
mod consent_env_keys;
mod consent_expansions;
mod consent_git_env;
mod consent_git_hooks;
mod consent_indirect;
mod consent_library_words;
mod consent_listed;
mod consent_loaders;
mod consent_node_argv;
mod consent_node_runners;
mod consent_php_callables;
mod consent_pipes;
mod consent_preloads;
mod consent_programs;
mod consent_ruby_php;
mod consent_runtime;
mod consent_tables;
mod consent_venv;
mod entries;
mod files;
