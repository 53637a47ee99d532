//! The tree pane's drawing. The tree itself (the walked files, the rows
//! shown, the cursor) is part of the state (`state::tree`).

pub mod render;
