//! Drawing the curation history's list (`U`): oldest first, the state now
//! marked, the cursor's row highlighted, scrolled to keep it in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::text::sanitize::display_line;
use crate::tui::draw::{DIM, centered, scroll_to};
use crate::tui::input::action::Action;
use crate::tui::state::State;

pub fn draw(state: &State, frame: &mut Frame, area: Rect, cursor: usize) {
    let entries = state.history.entries();
    let rect = centered(area, 72, (entries.len() as u16 + 2).clamp(5, 24));
    let inner = rect.height.saturating_sub(2) as usize;
    let width = rect.width.saturating_sub(2) as usize;
    let top = scroll_to(cursor, inner, entries.len());
    let lines: Vec<Line> = entries
        .iter()
        .enumerate()
        .skip(top)
        .take(inner)
        .map(|(i, e)| {
            let mark = if e.now { "● " } else { "  " };
            let number = format!("{i:>3} ");
            let name = display_line(e.name(), width.saturating_sub(12)).into_owned();
            let mut spans = vec![
                Span::styled(mark, Style::default().fg(Color::Green)),
                Span::styled(number, Style::default().fg(DIM)),
                Span::raw(name),
            ];
            if e.now {
                spans.push(Span::styled("  (now)", Style::default().fg(Color::Green)));
            }
            let mut line = Line::from(spans);
            if i == cursor {
                line = line.style(Style::default().add_modifier(Modifier::REVERSED));
            }
            line
        })
        .collect();
    let undo = state.keymap.key_name(Action::Undo);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(format!(
            " History · Enter jumps there ({undo} comes back) · Esc closes "
        ))),
        rect,
    );
}
