//! The TUI (`src/tui`): the real keymap, dispatcher and `update` driven
//! through `tui::harness`, and end to end in tmux (`tmux`, `git_tmux`).

mod clipboard_cap;
mod clipboard_tmux;
mod confirm_secrets;
mod curate;
mod discover;
mod discuss;
mod exclude_discovery;
mod finder;
mod gauge;
mod git;
mod git_tmux;
mod harden;
mod ignore_files;
mod keep_written;
mod keep_written_tmux;
mod keys;
mod keys_tmux;
mod layout;
mod live;
mod live_state;
mod live_tmux;
mod lock;
mod lock_tmux;
mod look;
mod pane_keys;
mod personal;
mod root_discovery;
mod save;
mod skipped;
mod symbols_pane;
mod tmux;
