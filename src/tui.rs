//! The terminal UI: a ratatui front end over the core. Keys go through the
//! keymap to [`input::action::Action`]s, `update` changes the
//! [`state::State`] and returns effects, the event loop runs them (heavy
//! ones on a worker thread), and `render` draws the state. The TUI never
//! composes Markdown itself: previews and yanks come from the same core
//! call as `ctxcurate build`.
//!
//! Where things are: `run` (the event loop, the headless harness, the
//! effect interpreter, the worker's jobs, signals, the editor hand-over),
//! `input` (the action table, the keymap, keys and the mouse to events),
//! `update` (events to handlers; `update::actions` holds the action
//! table's small handlers), `state` (the state in parts), `render` (the
//! frame) over `draw` (helpers every drawing shares). Each feature is one
//! name with its state, keys and drawing together: `tree`, `symbols`,
//! `preview`, `finder`, `tokens`, `help`, `overlays` (picker, prompts,
//! confirm questions), `changed`, `discover`, `discuss`, `clipboard`;
//! `curate` and `undo` are the edits of the preset and how each becomes
//! an undo step, `navigate` the movement in the panes.

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
pub mod render;
pub mod run;
pub mod state;
pub mod symbols;
pub mod tokens;
pub mod tree;
pub mod undo;
pub mod update;

pub use run::app::{Ended, run};
