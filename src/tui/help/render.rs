//! The help overlay (`?`): the table of every action with its keys,
//! scrolled, its title counting the lines.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::draw::centered;
use crate::tui::help::{help_lines, help_rect_size};
use crate::tui::state::State;

pub fn draw(state: &State, frame: &mut Frame, area: Rect, scroll: usize) {
    let (w, h) = help_rect_size((area.width, area.height));
    let rect = centered(area, w, h);
    let lines = help_lines(&state.keymap, rect.width.saturating_sub(2) as usize);
    let inner = rect.height.saturating_sub(2) as usize;
    let scroll = scroll.min(lines.len().saturating_sub(inner));
    let last = (scroll + inner).min(lines.len());
    let shown: Vec<Line> = lines.into_iter().skip(scroll).take(inner).collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(shown).block(Block::default().borders(Borders::ALL).title(format!(
            " Help · j/k PgUp/PgDn g/G scroll · any other key closes · {last}/{} ",
            last.max(help_max_rows(state, area))
        ))),
        rect,
    );
}

/// How many lines the help has at this size (for its title).
fn help_max_rows(state: &State, area: Rect) -> usize {
    let (w, _) = help_rect_size((area.width, area.height));
    help_lines(&state.keymap, w.saturating_sub(2) as usize).len()
}
