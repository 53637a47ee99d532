//! The fuzzy file finder as an overlay (`Ctrl-p`): its keys and its
//! drawing. The matcher it drives is part of the state
//! (`state::finder`).

pub mod keys;
pub mod render;
