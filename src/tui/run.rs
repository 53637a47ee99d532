//! Running the TUI: the event loop (`app`) with its terminal, threads and
//! signals, the headless driver tests use instead (`harness`), the one
//! interpreter of effects both share, the worker's jobs, the hand-over to
//! the user's editor, and keeping `ctxcurate.toml` on disk in step.

pub mod app;
pub mod editor;
pub mod effects;
pub mod harness;
pub mod jobs;
pub mod project_sync;
mod signals;
