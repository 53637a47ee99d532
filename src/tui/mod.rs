//! The terminal UI (work in progress).

pub mod sanitize;
