//! The terminal as the panes see it: its size (where a click lands), the
//! page a move jumps, and whether the focused pane is zoomed. A leaf the
//! `state` holds.

/// The terminal as the panes see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// Terminal width and height (where a mouse click lands).
    pub size: (u16, u16),
    /// Terminal height, for page moves.
    pub page: usize,
    /// The focused pane takes the whole width (`z`).
    pub zoom: bool,
}

impl Screen {
    /// The terminal is `width`×`height` now: a page is its height less
    /// the gauge, borders and status line.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
        self.page = usize::from(height.saturating_sub(6)).max(2);
    }
}

impl Default for Screen {
    fn default() -> Screen {
        Screen {
            size: (80, 24),
            page: 20,
            zoom: false,
        }
    }
}
