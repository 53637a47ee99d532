//! Running the TUI: the event loop (`app`) with its terminal, threads and
//! signals, the headless driver tests use instead (`harness`), the one
//! interpreter of effects both share, the worker's jobs, terminal keys
//! turned into events (`dispatch`), and the hand-over to the user's
//! editor. Keeping `ctxcurate.toml` on disk in step is `tui::project_sync`.

pub mod app;
pub mod dispatch;
pub mod editor;
pub mod effects;
pub mod harness;
pub mod jobs;
mod signals;
