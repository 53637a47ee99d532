//! The terminal UI (work in progress).

pub mod clipboard;
pub mod sanitize;
