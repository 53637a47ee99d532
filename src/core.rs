//! The aggregation core: model, project file, discovery, syntax, views,
//! composition and token counting. Nothing in here knows about terminals;
//! the CLI and the TUI are thin edges over these modules.

pub mod anchor;
pub mod compose;
pub mod curation;
pub mod discovery;
pub mod engine;
pub mod git;
pub mod io_bounds;
pub mod lru;
pub mod memory;
pub mod model;
pub mod module_maps;
pub mod paths;
pub mod pretokens;
pub mod profile;
pub mod progress;
pub mod project;
pub mod secret_scan;
pub mod secrets;
pub mod sources;
pub mod store;
pub mod summary;
pub mod symbol_costs;
pub mod syntax;
pub mod token_map;
pub mod tokens;
pub mod trust;
pub mod views;
pub mod walk;
pub mod watch;
