//! Drawing helpers every part of the frame shares: a pane's border, a
//! centred box for an overlay, a list scrolled to its cursor; and, below,
//! numbers as the TUI shows them and where the panes go.

pub mod format;
pub mod layout;

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, BorderType, Borders};

/// Text that says less: hints, counts, what is left out.
pub const DIM: Color = Color::DarkGray;

/// A centred rectangle of at most `w`×`h`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// A pane's border, highlighted when focused.
pub fn pane_block(title: String, focused: bool) -> Block<'static> {
    let style = if focused {
        Style::default()
            .fg(Color::Cyan)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::default().fg(Color::DarkGray)
    };
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(style)
        .title(title)
}

/// The first visible line of a list of `len` rows in `height` rows that
/// keeps `cursor` in view (scrolling as little as possible from `from`).
pub fn scroll_to(cursor: usize, height: usize, len: usize) -> usize {
    if height == 0 || len <= height {
        return 0;
    }
    if cursor < height / 2 {
        0
    } else {
        (cursor - height / 2).min(len - height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolling() {
        assert_eq!(scroll_to(0, 10, 100), 0);
        assert_eq!(scroll_to(50, 10, 100), 45);
        assert_eq!(scroll_to(99, 10, 100), 90);
        assert_eq!(scroll_to(5, 10, 8), 0);
    }
}
