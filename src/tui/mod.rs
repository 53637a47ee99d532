//! The terminal UI: a ratatui front end over the core. Keys go through the
//! keymap to [`action::Action`]s, `update` changes the [`state::State`] and
//! returns effects, the event loop runs them (heavy ones on a worker
//! thread), and `render` draws the state. The TUI never composes Markdown
//! itself: previews and yanks come from the same core call as
//! `ctxcurate build`.

pub mod action;
pub mod app;
pub mod clipboard;
pub mod commit;
pub mod curate;
pub mod discover;
pub mod discuss;
pub mod dispatch;
mod editor;
pub mod effects;
pub mod finder;
pub mod format;
pub mod harness;
pub mod jobs;
pub mod keymap;
pub mod messages;
pub mod model;
mod navigate;
mod overlays;
pub mod project_sync;
pub mod render;
mod signals;
pub mod state;
pub mod symbols;
pub mod tree;
pub mod update;

/// Moved to [`crate::text::sanitize`] (shared with the CLI); kept as an
/// alias so code written against the old path still builds.
pub use crate::text::sanitize;
pub use app::{Ended, run};
