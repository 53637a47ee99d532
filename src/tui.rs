//! The terminal UI: a ratatui front end over the core. Keys go through the
//! keymap to [`action::Action`]s, `update` changes the [`state::State`] and
//! returns effects, the event loop runs them (heavy ones on a worker
//! thread), and `render` draws the state. The TUI never composes Markdown
//! itself: previews and yanks come from the same core call as
//! `ctxcurate build`.

pub mod action;
pub mod app;
mod changed;
pub mod clipboard;
pub mod clock;
pub mod commit;
pub mod curate;
pub mod discover;
pub mod discuss;
pub mod dispatch;
mod editor;
pub mod effects;
pub mod finder;
mod finder_overlay;
pub mod format;
pub mod harness;
pub mod help_text;
pub mod jobs;
pub mod keymap;
pub mod layout;
mod look;
pub mod messages;
pub mod model;
mod mouse;
mod navigate;
mod overlays;
pub mod preview_view;
pub mod project_sync;
pub mod render;
mod signals;
pub mod state;
pub mod symbols;
mod token_keys;
pub mod token_view;
pub mod tree;
pub mod update;

/// Moved to [`crate::text::sanitize`] (shared with the CLI); kept as an
/// alias so code written against the old path still builds.
pub use crate::text::sanitize;
pub use app::{Ended, run};
