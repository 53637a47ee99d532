//! The three panes: file tree (tui-tree-widget), symbols with their mask
//! states, and the preview (composition or a file's raw text).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use tui_tree_widget::{Tree, TreeItem};

use super::ViewState;
use crate::core::compose::file_name;
use crate::core::curation::mask_states;
use crate::core::model::ViewMode;
use crate::core::trust::entries::lexical_reason;
use crate::text::sanitize::display_line;
use crate::tui::draw::format::compact;
use crate::tui::draw::{pane_block, scroll_to};
use crate::tui::preview;
use crate::tui::state::{Pane, State};
use crate::tui::symbols::flat_symbols;
use crate::tui::tree::Row;

/// Longest line drawn from a file (the rest is cut with `…`).
const MAX_LINE: usize = 1000;

const INCLUDED: Color = Color::Green;
const DIM: Color = Color::DarkGray;
/// Targets and the files discovery proposes.
const DISCOVERED: Color = Color::Cyan;
/// Files git sees changed against HEAD.
const CHANGED: Color = Color::LightRed;

pub fn tree(state: &State, view: &mut ViewState, frame: &mut Frame, area: Rect) {
    let mut title = format!(" Files {}", state.files.len());
    if !state.walk_done {
        title.push_str(" (scanning…)");
    }
    if !state.filter.is_empty() {
        title.push_str(&format!(" /{}", display_line(&state.filter, 40)));
    }
    title.push(' ');
    let block = pane_block(title, state.focus == Pane::Tree);
    if state.rows.is_empty() {
        let msg = if state.walk_done {
            "(no files)"
        } else {
            "scanning…"
        };
        frame.render_widget(Paragraph::new(msg).block(block), area);
        return;
    }
    let items = tree_items(state);
    sync_tree_state(state, view, area.height.saturating_sub(2) as usize);
    match Tree::new(&items) {
        Ok(tree) => {
            let tree = tree
                .block(block)
                .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
                .highlight_symbol("›")
                .node_closed_symbol("▸ ")
                .node_open_symbol("▾ ")
                .node_no_children_symbol("  ");
            frame.render_stateful_widget(tree, area, &mut view.tree);
        }
        Err(e) => frame.render_widget(
            Paragraph::new(format!("tree error: {e}")).block(block),
            area,
        ),
    }
}

/// The tree widget's open and selected nodes mirror the state; its scroll
/// offset keeps the cursor in view without leaving empty rows at the end
/// (after the window grew, say).
fn sync_tree_state(state: &State, view: &mut ViewState, height: usize) {
    view.tree.close_all();
    for row in state.rows.iter().filter(|r| r.is_dir) {
        if !state.filter.is_empty() || state.open_dirs.contains(&row.path) {
            view.tree.open(chain(&row.path));
        }
    }
    if let Some(row) = state.current_row() {
        view.tree.select(chain(&row.path));
    }
    let len = state.rows.len();
    let cursor = state.cursor;
    let mut offset = view.tree.get_offset().min(len.saturating_sub(height));
    if cursor < offset {
        offset = cursor;
    } else if height > 0 && cursor >= offset + height {
        offset = cursor + 1 - height;
    }
    view.tree.scroll_up(usize::MAX);
    view.tree.scroll_down(offset);
}

/// `a/b/c` → `["a", "a/b", "a/b/c"]`: the widget's identifier path.
fn chain(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in path.match_indices('/') {
        out.push(path[..i].to_string());
    }
    out.push(path.to_string());
    out
}

/// Nested tree items built from the flat visible rows.
fn tree_items(state: &State) -> Vec<TreeItem<'static, String>> {
    fn build(
        state: &State,
        rows: &[Row],
        i: &mut usize,
        depth: usize,
    ) -> Vec<TreeItem<'static, String>> {
        let mut out = Vec::new();
        while *i < rows.len() && rows[*i].depth == depth {
            let row = &rows[*i];
            let index = *i;
            *i += 1;
            let text = row_line(state, row, index);
            if row.is_dir {
                let mut children = build(state, rows, i, depth + 1);
                if children.is_empty() {
                    // A closed folder: a hidden placeholder gives it the ▸.
                    children.push(TreeItem::new_leaf(format!("{}/\u{0}", row.path), ""));
                }
                match TreeItem::new(row.path.clone(), text.clone(), children) {
                    Ok(item) => out.push(item),
                    Err(_) => out.push(TreeItem::new_leaf(row.path.clone(), text)),
                }
            } else {
                out.push(TreeItem::new_leaf(row.path.clone(), text));
            }
        }
        out
    }
    let mut i = 0;
    build(state, &state.rows, &mut i, 0)
}

fn row_line(state: &State, row: &Row, index: usize) -> Line<'static> {
    let selected = state
        .selection()
        .is_some_and(|(a, b)| (a..=b).contains(&index));
    let mut spans = Vec::new();
    if row.is_dir {
        let total = state.files.count_under(&row.path);
        let inside = state.included_under(&row.path);
        let proposed = state
            .discovery
            .as_ref()
            .map_or(0, |d| d.count_under(&row.path));
        let (mark, color) = match inside {
            0 if proposed > 0 => ("+ ", DISCOVERED),
            0 => ("○ ", DIM),
            n if n == total => ("● ", INCLUDED),
            _ => ("◐ ", Color::Yellow),
        };
        spans.push(Span::styled(mark, Style::default().fg(color)));
        spans.push(Span::styled(
            format!("{}/", display_line(&row.name, 60)),
            Style::default()
                .fg(Color::Blue)
                .add_modifier(Modifier::BOLD),
        ));
        if inside > 0 {
            spans.push(Span::styled(
                format!(" {inside}/{total}"),
                Style::default().fg(DIM),
            ));
        }
        if proposed > 0 {
            spans.push(Span::styled(
                format!(" +{proposed}"),
                Style::default().fg(DISCOVERED),
            ));
        }
        let changed = state
            .changed
            .as_ref()
            .map_or(0, |c| c.count_under(&row.path));
        if changed > 0 {
            spans.push(Span::styled(
                format!(" ±{changed}"),
                Style::default().fg(CHANGED),
            ));
        }
    } else {
        let item = state.item_for(&row.path);
        let proposed = state.discovery.as_ref().and_then(|d| d.mode_of(&row.path));
        let skipped = state
            .composed
            .as_ref()
            .is_some_and(|c| c.is_skipped(&row.path));
        let (mark, color) = match (&item, proposed) {
            (Some(_), _) if skipped => ("⊘ ", Color::Red),
            (Some(_), _) => ("● ", INCLUDED),
            (None, Some(_)) => ("+ ", DISCOVERED),
            (None, None) => ("○ ", DIM),
        };
        spans.push(Span::styled(mark, Style::default().fg(color)));
        spans.push(Span::raw(display_line(&row.name, 80).into_owned()));
        if state
            .changed
            .as_ref()
            .is_some_and(|c| c.contains(&row.path))
        {
            spans.push(Span::styled(" ±", Style::default().fg(CHANGED)));
        }
        if state.preset_targets().contains(&row.path) {
            spans.push(Span::styled(
                " ◎ target",
                Style::default().fg(DISCOVERED).add_modifier(Modifier::BOLD),
            ));
        }
        if state.preset_screenshots().contains(&row.path) {
            spans.push(Span::styled(
                " ▣ screenshot",
                Style::default()
                    .fg(Color::LightMagenta)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        if let (None, Some(mode)) = (&item, proposed) {
            spans.push(Span::styled(
                format!(" discovered {mode}"),
                Style::default().fg(DISCOVERED),
            ));
        }
        if let Some(item) = item {
            let mode = item.effective_mode();
            if mode != ViewMode::Full {
                spans.push(Span::styled(
                    format!(" {mode}"),
                    Style::default().fg(Color::Magenta),
                ));
            }
            if item.force_full {
                spans.push(Span::styled(" F", Style::default().fg(Color::Yellow)));
            }
            if !item.auto_aggregate {
                spans.push(Span::styled(" listed", Style::default().fg(DIM)));
            }
            if skipped {
                // Included, but a build leaves it out (one note says so):
                // binary or oversize, or an entry waiting for consent.
                let label = if needs_trust(state, &row.path) {
                    " needs trust"
                } else {
                    " skipped"
                };
                spans.push(Span::styled(label, Style::default().fg(Color::Red)));
            }
            if let Some(f) = state.composed_file(&row.path) {
                let style = if f.error { Color::Red } else { DIM };
                spans.push(Span::styled(
                    format!(" {}", compact(f.tokens)),
                    Style::default().fg(style),
                ));
                if f.stale_slices > 0 {
                    spans.push(Span::styled(
                        format!(" stale×{}", f.stale_slices),
                        Style::default().fg(Color::Red),
                    ));
                }
                if f.summary_cached {
                    // ≡: a summary of this content is on disk (C clears).
                    spans.push(Span::styled(" ≡", Style::default().fg(Color::Cyan)));
                }
            }
        }
    }
    let mut line = Line::from(spans);
    if selected {
        line = line.style(Style::default().bg(Color::Rgb(40, 40, 90)));
    }
    line
}

pub fn symbols(state: &State, frame: &mut Frame, area: Rect) {
    let focused = state.focus == Pane::Symbols;
    let inner_h = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    let Some(view) = &state.symbols else {
        let msg = match state.current_file() {
            Some(_) => "loading…",
            None => "(a folder)",
        };
        frame.render_widget(
            Paragraph::new(msg).block(pane_block(" Symbols ".into(), focused)),
            area,
        );
        return;
    };
    // In the masked view, the default state of symbols without their own
    // (`D` steps it).
    let default = state
        .item_for(&view.path)
        .filter(|i| i.view_mode == crate::core::model::ViewMode::Masked)
        .map(|i| format!("· {} ", i.mask_default))
        .unwrap_or_default();
    let title = format!(
        " Symbols · {} {default}",
        display_line(file_name(&view.path), 40)
    );
    let Some(tree) = &view.tree else {
        frame.render_widget(
            Paragraph::new("no symbols for this file type")
                .style(Style::default().fg(DIM))
                .block(pane_block(title, focused)),
            area,
        );
        return;
    };
    let flat = flat_symbols(tree);
    if flat.is_empty() {
        frame.render_widget(
            Paragraph::new("(no symbols)").block(pane_block(title, focused)),
            area,
        );
        return;
    }
    let item = state.item_for(&view.path);
    let masked = item
        .as_ref()
        .is_some_and(|i| i.effective_mode() == ViewMode::Masked);
    let states = item
        .as_ref()
        .map(|it| mask_states(it, &tree.symbols))
        .unwrap_or_default();
    let top = scroll_to(state.symbol_cursor, inner_h, flat.len());
    let lines: Vec<Line> = flat
        .iter()
        .enumerate()
        .skip(top)
        .take(inner_h)
        .map(|(i, (depth, sym))| {
            let mask = states.get(i).copied().unwrap_or_default();
            let (tag, color) = if masked {
                (format!("{:<4}", mask.as_str()), mask_color(mask))
            } else {
                ("    ".to_string(), DIM)
            };
            let text = format!(
                "{}{} {}",
                "  ".repeat(*depth),
                abbreviate(sym.kind.as_str()),
                sym.name
            );
            let cursor = if i == state.symbol_cursor { "›" } else { " " };
            let mut line = Line::from(vec![
                Span::raw(cursor),
                Span::styled(tag, Style::default().fg(color)),
                Span::raw(" "),
                Span::raw(display_line(&text, width.saturating_sub(6)).into_owned()),
            ]);
            if i == state.symbol_cursor && focused {
                line = line.style(Style::default().add_modifier(Modifier::REVERSED));
            }
            line
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(pane_block(title, focused)),
        area,
    );
}

fn mask_color(m: crate::core::model::MaskState) -> Color {
    use crate::core::model::MaskState;
    match m {
        MaskState::Def => Color::Green,
        MaskState::Sig => Color::Cyan,
        MaskState::Agg => Color::Yellow,
        MaskState::Hide => Color::DarkGray,
    }
}

fn abbreviate(kind: &str) -> &str {
    match kind {
        "function" => "fn",
        "method" => "meth",
        "namespace" => "ns",
        "constant" => "const",
        "template" => "tmpl",
        other => other,
    }
}

pub fn preview(state: &State, frame: &mut Frame, area: Rect) {
    let focused = state.focus == Pane::Preview;
    let inner_h = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    if state.preview.raw {
        raw_preview(state, frame, area, focused, inner_h, width);
        return;
    }
    if preview::render::other_view(state, frame, area, focused) {
        return;
    }
    let Some(c) = &state.composed else {
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
            state.included_under(&row.path),
            state.files.count_under(&row.path),
        );
        lines.push(preview::render::folder_line(
            state, &row.path, included, total, width,
        ));
        room = room.saturating_sub(1);
    }
    let scroll = state.preview.scroll.min(c.lines.len().saturating_sub(1));
    lines.extend(
        c.lines
            .iter()
            .enumerate()
            .skip(scroll)
            .take(room)
            .map(|(i, l)| {
                let text = display_line(l, width.min(MAX_LINE)).into_owned();
                let style = if Some(i) == heading {
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD)
                } else if l.starts_with("## ") || l.starts_with("### ") {
                    Style::default().fg(Color::Cyan)
                } else {
                    Style::default()
                };
                preview::render::decorate(state, i, text, style)
            }),
    );
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
            let num = Span::styled(format!("{:>num_w$} ", i + 1), Style::default().fg(DIM));
            let text = display_line(l, width.saturating_sub(num_w + 1).min(MAX_LINE)).into_owned();
            let mut spans = vec![num];
            spans.extend(preview::render::match_spans(state, text, Style::default()));
            let mut line = Line::from(spans);
            if preview::render::highlighted(state, i) {
                line = line.style(Style::default().bg(preview::render::HIGHLIGHT));
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
    let title = format!(" Raw · {} · v: mark slice ", display_line(path, 60));
    frame.render_widget(Paragraph::new(rows).block(pane_block(title, focused)), area);
}

/// A left-out entry waiting for the user's consent (`core::trust::entries`:
/// a credential file, version control data, or a file the walk leaves
/// out) rather than a binary or oversize one.
fn needs_trust(state: &State, path: &str) -> bool {
    if lexical_reason(path).is_some() {
        return true;
    }
    let walked = state.walked.as_slice();
    let in_walk = if state.walk_done {
        walked.binary_search_by(|p| p.as_str().cmp(path)).is_ok()
    } else {
        walked.iter().any(|p| p == path)
    };
    !in_walk
}
