//! The aggregation core: model, project file, discovery, syntax, views,
//! composition and token counting. Nothing in here knows about terminals.

pub mod model;
pub mod project;
pub mod syntax;
