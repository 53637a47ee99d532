//! The terminal UI: a ratatui front end over the core. Keys go through the
//! keymap to [`action::Action`]s, `update` changes the [`state::State`] and
//! returns effects, the event loop runs them (heavy ones on a worker
//! thread), and `render` draws the state. The TUI never composes Markdown
//! itself: previews and yanks come from the same core call as
//! `ctxcurate build`.

pub mod changed;
pub mod clipboard;
pub mod curate;
pub mod discover;
pub mod discuss;
pub mod draw;
pub mod finder;
pub mod help;
pub mod input;
pub mod messages;
mod navigate;
pub mod overlays;
pub mod preview;
pub mod render;
pub mod run;
pub mod state;
pub mod symbols;
pub mod tokens;
pub mod tree;
pub mod undo;
pub mod update;

pub use run::app::{Ended, run};
