//! What the user does, as the TUI reads it: the action table and the
//! keymap that binds keys to actions per context. Terminal keys become
//! events in `run::dispatch`; the mouse and the panes each action works
//! in are `update`'s (`update::mouse`, `update::scope`).

pub mod action;
pub mod keymap;
