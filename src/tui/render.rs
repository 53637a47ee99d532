//! Rendering: a pure function of the state (plus widget scroll state) into
//! a frame. Layout: file tree, symbols, preview side by side, the budget
//! gauge and the status line below (`tui::layout`); overlays on top. A
//! narrow terminal, or a zoomed pane, shows only the focused pane. All
//! file-derived text goes through `text::sanitize`, so nothing from a
//! file reaches the terminal raw.

mod finder;
mod look;
mod overlay;
mod panes;
mod status;
mod tokens;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, BorderType, Borders};
use tui_tree_widget::TreeState;

use super::layout;
use super::state::{Pane, State};

/// Below this width only the focused pane is shown.
pub const NARROW_WIDTH: u16 = layout::NARROW_WIDTH;

/// Scroll state the widgets keep between frames (the only thing rendering
/// may change).
#[derive(Default)]
pub struct ViewState {
    pub tree: TreeState<String>,
}

/// Draw the whole UI.
pub fn render(state: &State, view: &mut ViewState, frame: &mut Frame) {
    let area = frame.area();
    let [main, gauge, status] = layout::rows(area);
    for (pane, rect) in layout::panes(main, state.focus, state.zoom) {
        draw_pane(state, view, frame, pane, rect);
    }
    status::gauge(state, frame, gauge);
    status::status_line(state, frame, status);
    overlay::draw(state, frame, area);
}

fn draw_pane(state: &State, view: &mut ViewState, frame: &mut Frame, pane: Pane, area: Rect) {
    match pane {
        Pane::Tree => panes::tree(state, view, frame, area),
        Pane::Symbols => panes::symbols(state, frame, area),
        Pane::Preview => panes::preview(state, frame, area),
    }
}

/// A pane's border, highlighted when focused.
fn pane_block(title: String, focused: bool) -> Block<'static> {
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
