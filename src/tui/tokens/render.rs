//! The tokens overlay (`b`): `core::token_map`'s table — the rows
//! `ctxcurate stats` prints — over the gauge's counts, with the cursor on
//! a file, each file's share of the whole text beside its path, and a
//! footer with the keys and what the gauge's `≈` means. While a discovery
//! is shown: the packed composition, and under it what the pack left out
//! and why.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::core::token_map::{OTHER_LABEL, REPO_MAP_LABEL, TokenMap, percent, row_label};
use crate::text::sanitize::display_line;
use crate::text::words::thousands;
use crate::tui::draw::centered;
use crate::tui::draw::scroll_to;
use crate::tui::help::{APPROX_NOTE, wrap};
use crate::tui::input::action::Action;
use crate::tui::state::State;
use crate::tui::tokens::{LeftOutReason, left_out, token_map};

/// Footer rows under the list: the rest, the total, the keys, the note
/// (and the repo map's row when there is a map).
const FOOTER: usize = 5;
/// At most this many rows for what a discovery left out (its heading
/// included); the rest is counted.
const LEFT_OUT_ROWS: usize = 6;

pub fn draw(state: &State, frame: &mut Frame, area: Rect, path: Option<&str>) {
    let rect = centered(area, 110, area.height.saturating_sub(2));
    let inner = rect.width.saturating_sub(2) as usize;
    let left = left_out(state);
    let map = token_map(state);
    let footer = FOOTER + usize::from(map.repo_map > 0);
    let all_rows = (rect.height as usize).saturating_sub(2 + 1 + footer);
    // What was left out takes rows from the list, never all of them.
    let left_rows = if left.is_empty() {
        0
    } else {
        (left.len() + 1).min(LEFT_OUT_ROWS).min(all_rows / 2)
    };
    let list_rows = all_rows - left_rows;
    let bar = ((inner.saturating_sub(30)) / 4).clamp(4, 20);
    // Tokens, share of the budget, the bar, the share of the total.
    let fixed = 9 + 2 + 6 + 2 + bar + 2 + 6 + 2;
    let cursor = path
        .and_then(|p| map.files.iter().position(|f| f.path == p))
        .unwrap_or(0);
    let dim = Style::default().fg(Color::DarkGray);
    let mut lines = vec![Line::styled(
        format!(
            "{:>9}  {:>6}  {:<bar$}  {:>6}  file",
            "tokens", "budget", "", "total"
        ),
        dim,
    )];
    let top = scroll_to(cursor, list_rows, map.files.len());
    for (i, f) in map.files.iter().enumerate().skip(top).take(list_rows) {
        let label = fit_path(&row_label(f), inner.saturating_sub(fixed));
        let text = row(&map, f.tokens, &label, bar);
        let mut line = Line::raw(display_line(&text, inner).into_owned());
        if i == cursor {
            line = line.style(Style::default().add_modifier(Modifier::REVERSED));
        }
        lines.push(line);
    }
    if map.files.is_empty() {
        lines.push(Line::styled("(no files included)", dim));
    }
    while lines.len() < 1 + list_rows {
        lines.push(Line::raw(""));
    }
    lines.extend(left_out_lines(&left, left_rows, inner));
    if map.repo_map > 0 {
        lines.push(Line::raw(row(&map, map.repo_map, REPO_MAP_LABEL, bar)));
    }
    lines.push(Line::raw(row(&map, map.other, OTHER_LABEL, bar)));
    let approx = if state.composition.gauge.exact {
        ""
    } else {
        "≈"
    };
    lines.push(Line::styled(
        display_line(
            &format!(
                "{:>9}  {:>6}  {}",
                format!("{approx}{}", thousands(map.total)),
                percent(map.share(map.total)),
                map.total_label()
            ),
            inner,
        )
        .into_owned(),
        Style::default().add_modifier(Modifier::BOLD),
    ));
    let keys = match &state.discovery {
        Some(_) => {
            let key = |a| state.keymap.key_name(a);
            format!(
                "Enter open in the tree · Esc close · then {} accept · {} discard",
                key(Action::AcceptDiscovery),
                key(Action::DiscardDiscovery)
            )
        }
        None => "Enter open in the tree · m/M mode · x remove · u undo · Esc close".to_string(),
    };
    lines.push(Line::styled(display_line(&keys, inner).into_owned(), dim));
    for note in wrap(APPROX_NOTE, inner).into_iter().take(2) {
        lines.push(Line::styled(note, dim));
    }
    let preset = display_line(state.project.active_preset_name(), 30);
    let title = match &state.discovery {
        Some(_) => format!(" Where the tokens go · packed discovery, not yet in preset {preset} "),
        None => format!(" Where the tokens go · preset {preset} "),
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        rect,
    );
}

/// The rows on what a discovery left out: a heading with the count, then
/// one file a row with the reason, in `rows` rows at most (the last one
/// counting the rest when they do not all fit).
fn left_out_lines(
    left: &[(String, LeftOutReason)],
    rows: usize,
    inner: usize,
) -> Vec<Line<'static>> {
    if rows == 0 {
        return Vec::new();
    }
    let dim = Style::default().fg(Color::DarkGray);
    let mut lines = vec![Line::styled(
        format!("Left out by the pack ({}):", left.len()),
        Style::default().add_modifier(Modifier::BOLD),
    )];
    let room = rows - 1;
    let shown = if left.len() > room {
        room.saturating_sub(1)
    } else {
        left.len()
    };
    for (path, why) in &left[..shown] {
        let text = format!(
            "  {}  · {}",
            fit_path(path, inner.saturating_sub(30)),
            why.label()
        );
        lines.push(Line::styled(display_line(&text, inner).into_owned(), dim));
    }
    if shown < left.len() && room > 0 {
        lines.push(Line::styled(
            format!("  … and {} more", left.len() - shown),
            dim,
        ));
    }
    lines
}

/// One row: the table's (`TokenMap::row`) with the share of the whole
/// text in front of the label.
fn row(map: &TokenMap, tokens: usize, label: &str, bar: usize) -> String {
    let label = format!("{:>6}  {label}", percent(map.share_of_total(tokens)));
    map.row(tokens, &label, bar)
}

/// `label` in at most `max` characters, cut at the front (the file name
/// and its mode are at the end).
fn fit_path(label: &str, max: usize) -> String {
    let n = label.chars().count();
    if n <= max || max == 0 {
        return label.to_string();
    }
    let tail: String = label.chars().skip(n + 1 - max).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::fit_path;

    #[test]
    fn long_paths_lose_their_front() {
        assert_eq!(fit_path("a/b/c.py", 20), "a/b/c.py");
        assert_eq!(fit_path("abc/def/g.py", 8), "…ef/g.py");
    }
}
