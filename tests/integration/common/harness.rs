//! The TUI in-process: the real keymap, dispatcher and renderer over a
//! test backend (`Harness`), opened on a project.

use ctxcurate::tui::run::harness::Harness;

use super::Project;

/// The TUI on `p`, `w` × `h` cells.
pub fn open(p: &Project, w: u16, h: u16) -> Harness {
    Harness::open(p.root(), None, w, h).expect("open the TUI")
}
