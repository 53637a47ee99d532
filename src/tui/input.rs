//! What the user does, as the TUI reads it: the action table, the keymap
//! that binds keys to actions per context, terminal keys turned into
//! events, the panes each action works in (`scope`), and the mouse.

pub mod action;
pub mod dispatch;
pub mod keymap;
pub mod mouse;
pub mod scope;
