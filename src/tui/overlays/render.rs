//! Overlays drawn over the panes: the preset picker, text prompts and
//! the confirm questions (copy a text with likely secrets, write a copy
//! too large for OSC 52 to the output file, quit without the waiting
//! save).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::core::project::Scope;
use crate::text::sanitize::display_line;
use crate::text::words::bytes;
use crate::text::words::plural;
use crate::tui::draw::centered;
use crate::tui::draw::format::compact;
use crate::tui::input::action::Action;
use crate::tui::input::keymap::Context;
use crate::tui::state::model::{PendingCopy, PendingWrite};
use crate::tui::state::{Prompt, State};
use crate::tui::tokens::preset_key;

/// Copy a text with likely secrets? Each finding by file and line, as the
/// CLI's `build` names them, in a list that scrolls when the screen is
/// too short for all of them.
pub fn confirm_copy(state: &State, frame: &mut Frame, area: Rect, pending: &PendingCopy) {
    let total = pending.findings.len();
    let rows = pending.rows_shown(area.height);
    let first = pending.scroll.min(pending.max_scroll(area.height));
    // Over the panes only: the status line says what the question is.
    let panes = Rect {
        height: area.height.saturating_sub(2),
        ..area
    };
    let rect = centered(panes, 90, pending.height(area.height));
    frame.render_widget(Clear, rect);
    let shown = &pending.findings[first.min(total)..(first + rows).min(total)];
    let range = if shown.len() < total {
        let up = keys_for(state, Action::Up);
        let down = keys_for(state, Action::Down);
        format!(
            " ({}-{} of {total}; {down} / {up} scroll)",
            first + 1,
            first + shown.len()
        )
    } else {
        String::new()
    };
    let mut lines = vec![Line::raw(format!(
        "{} holds {}{range}:",
        display_line(&pending.label, 50),
        plural(total, "likely secret"),
    ))];
    for f in shown {
        let text = f.to_string();
        lines.push(Line::styled(
            format!(
                "  {}",
                display_line(&text, rect.width.saturating_sub(6) as usize)
            ),
            Style::default().fg(Color::Yellow),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        state.keymap.confirm_copy_hint(),
        Style::default().fg(Color::DarkGray),
    ));
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Copy to the clipboard? "),
        ),
        rect,
    );
}

/// Write a copy too large for the terminal's OSC 52 cap to the output
/// file (where `w` writes) and copy that file's path instead? Says the
/// size, the cap and the file; when OSC 52 cannot arrive at all (tmux
/// drops it), that no path will be copied either.
pub fn confirm_write(state: &State, frame: &mut Frame, area: Rect, pending: &PendingWrite) {
    let panes = Rect {
        height: area.height.saturating_sub(2),
        ..area
    };
    let width = 90.min(panes.width);
    let file = state.output_file_pattern();
    let mut text = vec![format!(
        "{} is {}; {}.",
        display_line(&pending.label, 60),
        bytes(pending.over.bytes),
        pending.over.cap_phrase()
    )];
    match &pending.over.unreachable {
        Some(why) => {
            text.push(format!(
                "{}; not even a file's path can be copied.",
                display_line(why, 400)
            ));
            text.push(format!("Write it to {} anyway?", display_line(&file, 200)));
        }
        None => text.push(format!(
            "Write it to {} and copy that path instead?",
            display_line(&file, 200)
        )),
    }
    // Each paragraph wrapped at the inner width, a blank line and the
    // keys, and the border.
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let rows: usize = text
        .iter()
        .map(|t| t.chars().count().div_ceil(inner).max(1))
        .sum();
    let height = u16::try_from(rows + 4).unwrap_or(u16::MAX);
    let rect = centered(panes, width, height);
    frame.render_widget(Clear, rect);
    let mut lines: Vec<Line> = text.into_iter().map(Line::raw).collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        state.keymap.confirm_hint(pending.confirm_verb()),
        Style::default().fg(Color::DarkGray),
    ));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Too large for the terminal clipboard "),
            ),
        rect,
    );
}

/// Quit without the save that waits for another process's lock?
pub fn confirm_quit(state: &State, frame: &mut Frame, area: Rect) {
    let rect = centered(area, 80, 9);
    frame.render_widget(Clear, rect);
    let waiting = state.save_locked.as_deref().unwrap_or_default();
    let lines = vec![
        Line::raw(display_line(waiting, 400).into_owned()),
        Line::raw(""),
        Line::raw("Quit now and drop the change that is not saved yet?"),
        Line::styled(
            format!(
                "{} quit without saving · {} keep waiting",
                keys_for(state, Action::Confirm),
                keys_for(state, Action::Cancel)
            ),
            Style::default().fg(Color::DarkGray),
        ),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Quit without saving? "),
            ),
        rect,
    );
}

/// The keys that give `action` in a confirm question (its own keys, then
/// the global ones), as the keymap has them: `Enter / y`.
fn keys_for(state: &State, action: Action) -> String {
    let keys: Vec<String> = [Context::Confirm, Context::Global]
        .into_iter()
        .flat_map(|ctx| {
            state
                .keymap
                .keys_for(action)
                .into_iter()
                .filter(move |(c, _)| *c == ctx)
                .map(|(_, key)| key.to_string())
        })
        .collect();
    if keys.is_empty() {
        action.name().to_string()
    } else {
        keys.join(" / ")
    }
}

pub fn picker(state: &State, frame: &mut Frame, area: Rect, cursor: usize) {
    let names = state.project.preset_names();
    let active = state.project.active_preset_name();
    let height = (names.len() as u16 + 4).clamp(6, area.height);
    let rect = centered(area, 70, height);
    frame.render_widget(Clear, rect);
    let [list, hint] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(Rect {
        x: rect.x + 1,
        y: rect.y + 1,
        width: rect.width.saturating_sub(2),
        height: rect.height.saturating_sub(2),
    });
    frame.render_widget(
        // The numbers follow the names, so a new preset may move the
        // others' (`1`…`9` apply them): the title says so.
        Block::default()
            .borders(Borders::ALL)
            .title(" Presets · numbered by name "),
        rect,
    );
    let mut lines = Vec::new();
    if names.is_empty() {
        lines.push(Line::raw("(no presets yet: n saves the current curation)"));
    }
    let top = crate::tui::draw::scroll_to(cursor, list.height as usize, names.len());
    for (i, (name, scope)) in names
        .iter()
        .enumerate()
        .skip(top)
        .take(list.height as usize)
    {
        let mark = if name == active { "* " } else { "  " };
        // The number key that applies it (1-9).
        let number = if i < 9 {
            format!("{} ", i + 1)
        } else {
            "  ".to_string()
        };
        let mut spans = vec![
            Span::styled(number, Style::default().fg(Color::DarkGray)),
            Span::raw(mark),
            Span::raw(display_line(name, 40).into_owned()),
        ];
        if *scope == Scope::Global {
            spans.push(Span::styled(
                " (global)",
                Style::default().fg(Color::DarkGray),
            ));
        }
        // The total, at the right end of the row.
        let total = format!("{} tokens", preset_total(state, name));
        let used: usize = spans.iter().map(|s| s.width()).sum();
        let gap = (list.width as usize).saturating_sub(used + total.chars().count());
        spans.push(Span::raw(" ".repeat(gap.max(1))));
        spans.push(Span::styled(total, Style::default().fg(Color::DarkGray)));
        let mut line = Line::from(spans);
        if i == cursor {
            line = line.style(Style::default().add_modifier(Modifier::REVERSED));
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), list);
    frame.render_widget(
        // `D` asks no confirm: it is one undoable step.
        Paragraph::new("Enter apply · n new · r rename · D delete (u undoes) · Esc close")
            .style(Style::default().fg(Color::DarkGray)),
        hint,
    );
}

/// A preset's token total as the picker shows it: `…` until the worker
/// has counted it, `≈` before an estimate.
fn preset_total(state: &State, name: &str) -> String {
    let Some((preset, _)) = state.project.preset(name) else {
        return String::new();
    };
    let key = preset_key(preset, &state.project.settings);
    match state.preset_totals.by_key.get(&key) {
        Some((tokens, true)) => compact(*tokens),
        Some((tokens, false)) => format!("≈{}", compact(*tokens)),
        None => "…".to_string(),
    }
}

pub fn input(frame: &mut Frame, area: Rect, prompt: &Prompt, buffer: &str) {
    let title = match prompt {
        Prompt::Filter => " Filter files (Enter keep · Esc clear) ".to_string(),
        Prompt::NewPreset => " New preset name ".to_string(),
        Prompt::RenamePreset(old) => format!(" Rename {} to ", display_line(old, 30)),
        Prompt::SliceTag { start, end, .. } => {
            format!(" Tag for the slice of lines {start}-{end} (Enter) ")
        }
        Prompt::GotoLine => " Go to line (Enter · Esc cancels) ".to_string(),
        Prompt::Search => " Search the preview (Enter · n next · N previous) ".to_string(),
        Prompt::Task => {
            " Your task: discovery ranks every file for it (Enter · Esc cancels) ".to_string()
        }
    };
    let rect = Rect {
        x: area.x,
        y: area.y + area.height.saturating_sub(5),
        width: area.width,
        height: 3.min(area.height),
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(format!("{}▏", display_line(buffer, area.width as usize)))
            .block(Block::default().borders(Borders::ALL).title(title)),
        rect,
    );
}
