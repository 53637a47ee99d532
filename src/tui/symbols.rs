//! The symbols pane's filter (`/`) and its drawing. The pane's list and
//! cursor are part of the state (`state::symbols`).

pub mod filter;
pub mod render;
