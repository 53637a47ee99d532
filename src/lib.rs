//! ctxcurate: curate the context a developer hands to an LLM.
//!
//! The crate is split into a pure aggregation [`core`] (no terminal crates:
//! it takes data and returns data) and thin edges over it: the headless CLI
//! in `main.rs` and the terminal UI in [`tui`]. Both edges call the same core,
//! so `ctxcurate build` and the TUI preview produce identical bytes. The
//! [`text`] rules (safe display of project text) are shared by all three.

pub mod core;
pub mod text;
pub mod tui;
