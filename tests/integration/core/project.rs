//! `core::project`: the project file, its presets and settings layers, saves
//! that keep what the user wrote, the lock, and saves killed midway.

mod concurrent_edits;
mod file;
mod kill_during_save;
mod presets;
mod save;
mod settings;
