//! The terminal UI: a ratatui front end over the core. Keys go through the
//! keymap to [`input::action::Action`]s, `update` changes the
//! [`state::State`] and returns effects, the event loop runs them (heavy
//! ones on a worker thread), and `render` draws the state. The TUI never
//! composes Markdown itself: previews and yanks come from the same core
//! call as `ctxcurate build`.
//!
//! Where things are, floor by floor from the top (a folder imports only
//! from the floors below its own): `run` (the event loop, the headless
//! harness, the effect interpreter, the worker's jobs, keys to events,
//! signals, the editor hand-over); `update` (events to handlers, the
//! mouse; `update::actions` holds the action table's small handlers) and
//! `render` (the frame); `overlays` (picker, prompts, confirm questions);
//! each feature's keys and drawing: `finder`, `live`, `tokens`; then
//! `changed`, `curate` (the edits of the preset), `discover`, `discuss`,
//! `navigate` (the movement in the panes), `symbols`; then `help`,
//! `preview`, `tree`, `undo` (how each edit becomes an undo step); `draw`
//! (helpers every drawing shares) and `messages` (events, effects, jobs);
//! `state` (the whole state, each feature's part of it a leaf there); and
//! at the bottom `input` (the action table, the keymap), `clipboard` and
//! `project_sync`.

pub mod changed;
pub mod clipboard;
pub mod curate;
pub mod discover;
pub mod discuss;
pub mod draw;
pub mod finder;
pub mod help;
pub mod input;
pub mod live;
pub mod messages;
mod navigate;
pub mod overlays;
pub mod preview;
pub mod project_sync;
pub mod render;
pub mod run;
pub mod state;
pub mod symbols;
pub mod tokens;
pub mod tree;
pub mod undo;
pub mod update;

pub use run::app::{Ended, run};
