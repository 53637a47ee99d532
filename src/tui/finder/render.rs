//! The finder overlay (`Ctrl-p`): the query, the match count `N/M`, and
//! the best-ranked files with the characters the query matched
//! highlighted and a mark saying whether each is included (● / ○). Only
//! the visible rows are read from the matcher's latest snapshot; every
//! path goes through `text::sanitize` one character at a time, so the
//! highlight stays on the right characters.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::text::sanitize::{display_line, push_visible};
use crate::text::words::thousands;
use crate::tui::state::State;
use crate::tui::state::finder::{Finder, Hit};

/// How to use the finder, under the list.
const HINT: &str = "Enter go to · Space include/exclude · ↑↓ Ctrl-n/p move · Esc close";

pub fn draw(state: &State, frame: &mut Frame, area: Rect) {
    let Some(finder) = state.finder.as_ref() else {
        return;
    };
    let rect = crate::tui::draw::centered(
        area,
        area.width.saturating_sub(4).min(110),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    let scanning = if state.walk.done {
        ""
    } else {
        " · scanning…"
    };
    frame.render_widget(
        Block::default().borders(Borders::ALL).title(format!(
            " Find a file · {}/{}{scanning} ",
            thousands(finder.matched()),
            thousands(finder.total())
        )),
        rect,
    );
    let inner = Rect {
        x: rect.x + 1,
        y: rect.y + 1,
        width: rect.width.saturating_sub(2),
        height: rect.height.saturating_sub(2),
    };
    let [query, list, hint] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(inner);
    let width = usize::from(inner.width);
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("> ", Style::default().fg(Color::Cyan)),
            Span::raw(display_line(finder.query(), width.saturating_sub(3)).into_owned()),
            Span::raw("▏"),
        ])),
        query,
    );
    frame.render_widget(Paragraph::new(rows(state, finder, list)), list);
    frame.render_widget(
        Paragraph::new(display_line(HINT, width).into_owned())
            .style(Style::default().fg(Color::DarkGray)),
        hint,
    );
}

/// The visible rows of the ranked list, the selected one reversed.
fn rows(state: &State, finder: &Finder, area: Rect) -> Vec<Line<'static>> {
    let height = usize::from(area.height);
    if finder.matched() == 0 {
        let empty = if finder.total() == 0 {
            "(no files walked yet)"
        } else {
            "(no file matches)"
        };
        return vec![Line::styled(empty, Style::default().fg(Color::DarkGray))];
    }
    let top = crate::tui::draw::scroll_to(finder.selected(), height, finder.matched());
    finder
        .hits(top, height)
        .iter()
        .enumerate()
        .map(|(i, hit)| {
            let included = state.is_included(&hit.path);
            let mark = if included {
                Span::styled("● ", Style::default().fg(Color::Green))
            } else {
                Span::styled("○ ", Style::default().fg(Color::DarkGray))
            };
            let mut spans = vec![mark];
            spans.extend(path_spans(hit, usize::from(area.width).saturating_sub(2)));
            let line = Line::from(spans);
            if top + i == finder.selected() {
                line.style(Style::default().add_modifier(Modifier::REVERSED))
            } else {
                line
            }
        })
        .collect()
}

/// A hit's path in at most `max` chars, the matched characters in bold
/// yellow. A path too long keeps its end (the file name) after a `…`.
fn path_spans(hit: &Hit, max: usize) -> Vec<Span<'static>> {
    // Each character as it may be shown (an escape for a control or
    // invisible one), with whether the query matched it.
    let shown: Vec<(String, bool)> = hit
        .path
        .chars()
        .enumerate()
        .map(|(i, c)| {
            let mut s = String::new();
            push_visible(&mut s, c);
            let matched = u32::try_from(i).is_ok_and(|i| hit.indices.binary_search(&i).is_ok());
            (s, matched)
        })
        .collect();
    let total: usize = shown.iter().map(|(s, _)| s.chars().count()).sum();
    let mut start = 0;
    let mut spans = Vec::new();
    if total > max {
        // Keep the longest tail that fits after the ellipsis.
        let mut width = 0;
        start = shown.len();
        while start > 0 {
            let w = shown[start - 1].0.chars().count();
            if width + w + 1 > max {
                break;
            }
            width += w;
            start -= 1;
        }
        if max > 0 {
            spans.push(Span::raw("…"));
        }
    }
    let highlight = Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let mut run = String::new();
    let mut run_matched = false;
    for (s, matched) in &shown[start..] {
        if *matched != run_matched && !run.is_empty() {
            spans.push(styled(std::mem::take(&mut run), run_matched, highlight));
        }
        run_matched = *matched;
        run.push_str(s);
    }
    if !run.is_empty() {
        spans.push(styled(run, run_matched, highlight));
    }
    spans
}

fn styled(text: String, matched: bool, highlight: Style) -> Span<'static> {
    if matched {
        Span::styled(text, highlight)
    } else {
        Span::raw(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(path: &str, indices: &[u32]) -> Hit {
        Hit {
            path: path.to_string(),
            indices: indices.to_vec(),
        }
    }

    /// The spans as (text, highlighted).
    fn parts(spans: &[Span]) -> Vec<(String, bool)> {
        spans
            .iter()
            .map(|s| (s.content.to_string(), s.style.fg == Some(Color::Yellow)))
            .collect()
    }

    #[test]
    fn matched_characters_are_highlighted() {
        let spans = path_spans(&hit("req/req_install.py", &[0, 1, 2, 8, 9]), 80);
        assert_eq!(
            parts(&spans),
            [
                ("req".to_string(), true),
                ("/req_".to_string(), false),
                ("in".to_string(), true),
                ("stall.py".to_string(), false),
            ]
        );
    }

    #[test]
    fn a_long_path_keeps_its_end() {
        let spans = path_spans(&hit("aaaa/bbbb/name.py", &[16]), 10);
        let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "…b/name.py");
        assert_eq!(text.chars().count(), 10);
        assert!(path_spans(&hit("abc", &[]), 0).is_empty());
    }

    #[test]
    fn controls_are_shown_and_the_highlight_stays_on_its_character() {
        // Index 2 is the `y` after the newline (one char, shown as ␊).
        let spans = path_spans(&hit("x\ny\u{1b}", &[2]), 80);
        assert_eq!(
            parts(&spans),
            [
                ("x␊".to_string(), false),
                ("y".to_string(), true),
                ("␛".to_string(), false),
            ]
        );
    }
}
