//! The aggregation core: model, project file, discovery, syntax, views,
//! composition and token counting. Nothing in here knows about terminals;
//! the CLI and the TUI are thin edges over these modules.

pub mod anchor;
pub mod cache;
pub mod compose;
pub mod discovery;
pub mod model;
pub mod output_file;
pub mod project;
pub mod secrets;
pub mod store;
pub mod summarizer;
pub mod summary;
pub mod syntax;
pub mod tokens;
pub mod trust;
pub mod views;
pub mod walk;
pub mod xml;
