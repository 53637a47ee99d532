//! The preview pane (what it shows: `tui::preview`): the composition, the
//! raw text, the block a file outside the composition would add under a
//! NOT INCLUDED header, a folder's summary; and the marks every view
//! shares: the symbol highlight and the search matches.

use crate::text::words::noun_for;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::text::sanitize::display_line;
use crate::tui::draw::format::compact;
use crate::tui::draw::{DIM, pane_block, scroll_to};
use crate::tui::input::action::Action;
use crate::tui::preview::{Shown, fallback_note, shown};
use crate::tui::state::model::FileBlock;
use crate::tui::state::{Pane, State};

/// Longest line drawn from a file (the rest is cut with `…`).
const MAX_LINE: usize = 1000;

/// The background of the symbol under the symbols cursor.
pub const HIGHLIGHT: Color = Color::Rgb(70, 55, 20);
/// A search match.
pub const MATCH: Style = Style::new().fg(Color::Black).bg(Color::Yellow);

const NOTICE: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);

/// Draw the preview when it shows a block, a pending block or a folder;
/// `false` when it shows the composition (or the raw text).
pub fn other_view(state: &State, frame: &mut Frame, area: Rect, focused: bool) -> bool {
    let width = usize::from(area.width.saturating_sub(2));
    let room = usize::from(area.height.saturating_sub(2));
    let (title, lines) = match shown(state) {
        Shown::Block(block) => block_view(state, block, width, room),
        // Wrapped, not cut: the one thing the pane has to say.
        Shown::Pending(path) => (
            " Preview · not included ".to_string(),
            notice_lines(
                &format!("{path} is not included · rendering its block…"),
                width,
            ),
        ),
        Shown::Listed(path) => (
            " Preview ".to_string(),
            notice_lines(
                &format!(
                    "{path} is listed only: the composition names it without its text · a renders it"
                ),
                width,
            ),
        ),
        Shown::Folder {
            path,
            included,
            total,
        } => {
            let opens = if state.tree.open_dirs.contains(path) {
                format!("{} closes it", state.keymap.key_name(Action::Collapse))
            } else {
                format!("{} opens it", state.keymap.key_name(Action::Expand))
            };
            let hint = if included == 0 {
                format!(
                    "{} includes every file under it; {opens}",
                    state.keymap.key_name(Action::ToggleInclude)
                )
            } else if skipped_under(state, path) >= included {
                "its included files are left out of the context (binary, over max_file_size, or waiting for consent; each file's preview says why)".to_string()
            } else {
                "its included files have no block in the composition (listed only, or composing)"
                    .to_string()
            };
            // Wrapped, not cut: this is all the pane has to say.
            let mut lines = notice_lines(&folder_text(state, path, included, total), width);
            lines.push(Line::raw(""));
            lines.extend(
                wrap_parts(&hint, width)
                    .into_iter()
                    .map(|part| Line::styled(part, Style::default().fg(Color::DarkGray))),
            );
            (" Preview ".to_string(), lines)
        }
        _ => return false,
    };
    frame.render_widget(
        Paragraph::new(lines).block(pane_block(title, focused)),
        area,
    );
    true
}

/// The would-be block of a file outside the composition, under its
/// header line.
fn block_view(
    state: &State,
    block: &FileBlock,
    width: usize,
    room: usize,
) -> (String, Vec<Line<'static>>) {
    let header = match &block.problem {
        // An image is a screenshot (or may become one), not a file to include.
        _ if crate::core::curation::discussion::is_image(&block.path) => {
            if state.preset_screenshots().iter().any(|s| s == &block.path) {
                "SCREENSHOT · Space removes it".to_string()
            } else {
                "NOT INCLUDED · an image · Space adds it as a screenshot".to_string()
            }
        }
        Some(problem) => format!("NOT INCLUDED · {problem}"),
        None => format!(
            "NOT INCLUDED · would add ~{} tokens as {}{} · Space includes it",
            compact(block.tokens),
            block.mode,
            fallback_note(state, &block.path, block.mode)
                .map(|n| format!(" · {n}"))
                .unwrap_or_default()
        ),
    };
    let mut lines: Vec<Line<'static>> = wrap_parts(&header, width)
        .into_iter()
        .map(|l| Line::styled(l, NOTICE.add_modifier(Modifier::REVERSED)))
        .collect();
    if block.lines.is_empty() && !crate::core::curation::discussion::is_image(&block.path) {
        // A binary or oversize file adds nothing but a note to a build.
        return (" Preview · not included ".to_string(), lines);
    }
    if crate::core::curation::discussion::is_image(&block.path) {
        // Its bytes are no text: a screenshot is listed by its path.
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            display_line(
                &format!(
                    "a screenshot is listed under ## Screenshots as ![…]({})",
                    block.path
                ),
                width,
            )
            .into_owned(),
            Style::default().fg(Color::DarkGray),
        ));
        return (" Preview · image ".to_string(), lines);
    }
    let room = room.saturating_sub(lines.len() - 1);
    let len = block.lines.len();
    let scroll = state.preview.scroll.min(len.saturating_sub(1));
    lines.extend(
        block
            .lines
            .iter()
            .enumerate()
            .skip(scroll)
            .take(room.saturating_sub(1))
            .map(|(i, l)| {
                let style = if i == 0 {
                    Style::default().fg(Color::Cyan)
                } else {
                    Style::default()
                };
                decorate(state, i, display_line(l, width).into_owned(), style)
            }),
    );
    let title = format!(
        " Preview · not included · line {}/{} ",
        (scroll + 1).min(len.max(1)),
        len
    );
    (title, lines)
}

/// `text`'s ` · `-separated parts on as few lines of `width` as they fit
/// (a part wider than that is broken between words).
fn wrap_parts(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(" · ").flat_map(|p| wrap_words(p, width)) {
        let part = display_line(&part, width.max(1)).into_owned();
        match out.last_mut() {
            Some(last) if last.chars().count() + 3 + part.chars().count() <= width => {
                last.push_str(" · ");
                last.push_str(&part);
            }
            _ => out.push(part),
        }
    }
    out
}

/// `text` in lines of at most `width` characters, broken between words
/// (a word longer than the line is cut when drawn).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// `text` in rows of `width` characters (at least one row, even empty).
fn wrap_chars(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() || width == 0 {
        return vec![String::new()];
    }
    chars.chunks(width).map(|c| c.iter().collect()).collect()
}

/// `src/ · 2 of 5 files included` (`· 1 left out (⊘)` when the build
/// leaves some out, `· +3 proposed` while a discovery proposes some of its
/// files), on one line cut to `width`.
pub fn folder_line(
    state: &State,
    path: &str,
    included: usize,
    total: usize,
    width: usize,
) -> Line<'static> {
    let text = folder_text(state, path, included, total);
    Line::styled(display_line(&text, width).into_owned(), NOTICE)
}

/// What [`folder_line`] says: how many files of the folder are included,
/// left out of those (the tree's `⊘`) and proposed.
fn folder_text(state: &State, path: &str, included: usize, total: usize) -> String {
    let proposed = state.discovery.as_ref().map_or(0, |d| d.count_under(path));
    let mut text = format!(
        "{path}/ · {included} of {total} {} included",
        noun_for(total, "file")
    );
    let left_out = skipped_under(state, path);
    if left_out > 0 {
        text.push_str(&format!(" · {left_out} left out (⊘)"));
    }
    if proposed > 0 {
        text.push_str(&format!(" · +{proposed} proposed"));
    }
    text
}

/// `text` wrapped to `width` in the notice style.
fn notice_lines(text: &str, width: usize) -> Vec<Line<'static>> {
    wrap_parts(text, width)
        .into_iter()
        .map(|part| Line::styled(part, NOTICE))
        .collect()
}

/// How many of the included files under folder `path` the composition
/// left out (the tree's `⊘`).
fn skipped_under(state: &State, path: &str) -> usize {
    state
        .composition
        .composed
        .as_ref()
        .map_or(0, |c| c.skipped_under(path))
}

/// Line `index` of the view shown, as `text` in `style`, with the symbol
/// highlight and the search matches on it.
pub fn decorate(state: &State, index: usize, text: String, style: Style) -> Line<'static> {
    // The line `n`/`N` went to stands out from the other matches.
    let current = state.preview.search.as_ref().and_then(|s| s.line) == Some(index);
    let style = if current {
        style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    } else {
        style
    };
    let mut line = Line::from(match_spans(state, text, style));
    if highlighted(state, index) {
        line = line.style(Style::default().bg(HIGHLIGHT));
    }
    line
}

/// Whether line `index` of the view shown is in the symbol highlight.
pub fn highlighted(state: &State, index: usize) -> bool {
    state
        .preview
        .highlight
        .is_some_and(|(a, b)| (a..=b).contains(&index))
}

/// `text` in `style`, split around the matches of the search (ignoring
/// case) so they stand out.
pub fn match_spans(state: &State, text: String, style: Style) -> Vec<Span<'static>> {
    let Some(query) = state
        .preview
        .search
        .as_ref()
        .map(|s| s.query.to_lowercase())
        .filter(|q| !q.is_empty())
    else {
        return vec![Span::styled(text, style)];
    };
    let lower = text.to_lowercase();
    if !lower.contains(&query) {
        return vec![Span::styled(text, style)];
    }
    // Lower case of the same length: byte offsets carry over.
    if lower.len() != text.len() {
        return vec![Span::styled(text, style.patch(MATCH))];
    }
    let mut spans = Vec::new();
    let mut at = 0;
    for (i, _) in lower.match_indices(&query) {
        let end = i + query.len();
        if i < at || !text.is_char_boundary(i) || !text.is_char_boundary(end) {
            continue;
        }
        if i > at {
            spans.push(Span::styled(text[at..i].to_string(), style));
        }
        spans.push(Span::styled(text[i..end].to_string(), style.patch(MATCH)));
        at = end;
    }
    if at < text.len() {
        spans.push(Span::styled(text[at..].to_string(), style));
    }
    spans
}

/// Draw the preview pane: the raw text, another view (see
/// [`other_view`]) or the composition.
pub fn draw(state: &State, frame: &mut Frame, area: Rect) {
    let focused = state.focus == Pane::Preview;
    let inner_h = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    if state.preview.raw {
        raw_preview(state, frame, area, focused, inner_h, width);
        return;
    }
    if other_view(state, frame, area, focused) {
        return;
    }
    let Some(c) = &state.composition.composed else {
        frame.render_widget(
            Paragraph::new("composing…").block(pane_block(" Preview ".into(), focused)),
            area,
        );
        return;
    };
    let current = state.current_file();
    let heading = current.and_then(|p| state.composed_file(p)).map(|f| f.line);
    let mut lines: Vec<Line> = Vec::new();
    let mut room = inner_h;
    // A folder: how much of it is in, over its first file's block.
    if let Some(row) = state.current_row().filter(|r| r.is_dir) {
        let (included, total) = (
            state.walk.included_under(&row.path),
            state.tree.files.count_under(&row.path),
        );
        lines.push(folder_line(state, &row.path, included, total, width));
        room = room.saturating_sub(1);
    }
    // A file shown as its summary in a mode that reads symbols: why.
    let note = current
        .and_then(|p| Some((p, state.composed_file(p)?.mode)))
        .and_then(|(p, mode)| fallback_note(state, p, mode));
    if let Some(note) = note {
        for part in wrap_parts(&note, width) {
            lines.push(Line::styled(part, NOTICE));
            room = room.saturating_sub(1);
        }
    }
    // A file the discovery picked for the task: why, over its block.
    let why = current.and_then(|p| state.discovery.as_ref()?.reasons_of(p));
    if let Some(why) = why {
        let text = format!("picked for the task · {}", why.join(" · "));
        for part in wrap_parts(&text, width) {
            lines.push(Line::styled(part, Style::default().fg(Color::Green)));
            room = room.saturating_sub(1);
        }
    }
    let scroll = state.preview.scroll.min(c.lines.len().saturating_sub(1));
    // Zoomed, the pane is for reading: a long line wraps onto the next
    // rows instead of being cut.
    let wrap = state.screen.zoom;
    let end = lines.len() + room;
    for (i, l) in c.lines.iter().enumerate().skip(scroll) {
        if lines.len() >= end {
            break;
        }
        let style = if Some(i) == heading {
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD)
        } else if l.starts_with("## ") || l.starts_with("### ") {
            Style::default().fg(Color::Cyan)
        } else {
            Style::default()
        };
        if wrap {
            let text = display_line(l, MAX_LINE);
            for part in wrap_chars(&text, width) {
                if lines.len() >= end {
                    break;
                }
                lines.push(decorate(state, i, part, style));
            }
        } else {
            let text = display_line(l, width.min(MAX_LINE)).into_owned();
            lines.push(decorate(state, i, text, style));
        }
    }
    let title = format!(
        " Preview · line {}/{} ",
        (scroll + 1).min(c.lines.len().max(1)),
        c.lines.len()
    );
    frame.render_widget(
        Paragraph::new(lines).block(pane_block(title, focused)),
        area,
    );
}

fn raw_preview(
    state: &State,
    frame: &mut Frame,
    area: Rect,
    focused: bool,
    inner_h: usize,
    width: usize,
) {
    let Some((path, lines)) = &state.preview.raw_text else {
        frame.render_widget(
            Paragraph::new("loading…").block(pane_block(" Raw ".into(), focused)),
            area,
        );
        return;
    };
    let cursor = state.preview.raw_cursor;
    let sel = state
        .preview
        .slice_anchor
        .map(|a| (a.min(cursor), a.max(cursor)));
    let top = scroll_to(cursor, inner_h, lines.len());
    let num_w = lines.len().to_string().len();
    let rows: Vec<Line> = lines
        .iter()
        .enumerate()
        .skip(top)
        .take(inner_h)
        .map(|(i, l)| {
            // The cursor is marked in the gutter whether or not the pane
            // has the focus (reversed too when it has), so where `v`
            // starts a slice shows before it is pressed.
            let (mark, num_style) = if i == cursor {
                (
                    "›",
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD),
                )
            } else {
                (" ", Style::default().fg(DIM))
            };
            let num = Span::styled(format!("{mark}{:>num_w$} ", i + 1), num_style);
            let text = display_line(l, width.saturating_sub(num_w + 2).min(MAX_LINE)).into_owned();
            let mut spans = vec![num];
            spans.extend(match_spans(state, text, Style::default()));
            let mut line = Line::from(spans);
            if highlighted(state, i) {
                line = line.style(Style::default().bg(HIGHLIGHT));
            }
            if sel.is_some_and(|(a, b)| (a..=b).contains(&i)) {
                line = line.style(Style::default().bg(Color::Rgb(40, 70, 40)));
            }
            if i == cursor && focused {
                line = line.style(Style::default().add_modifier(Modifier::REVERSED));
            }
            line
        })
        .collect();
    let title = format!(
        " Raw · {} · line {}/{} · v: mark slice ",
        display_line(path, 60),
        (cursor + 1).min(lines.len()),
        lines.len()
    );
    frame.render_widget(Paragraph::new(rows).block(pane_block(title, focused)), area);
}
