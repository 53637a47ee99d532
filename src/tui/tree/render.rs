//! The tree pane: the project's files (tui-tree-widget) with what the
//! preset does with each (included, its view mode and flags, targets,
//! discovery's proposals, git's changes, entries waiting for consent).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use tui_tree_widget::{Tree, TreeItem, TreeState};

use crate::core::model::{FileItem, ViewMode};
use crate::core::trust::entries::lexical_reason;
use crate::text::sanitize::display_line;
use crate::tui::draw::format::compact;
use crate::tui::draw::{DIM, pane_block};
use crate::tui::state::tree::Row;
use crate::tui::state::{Pane, State};

const INCLUDED: Color = Color::Green;
/// Targets and the files discovery proposes.
const DISCOVERED: Color = Color::Cyan;
/// Files git sees changed against HEAD.
const CHANGED: Color = Color::LightRed;

pub fn draw(state: &State, view: &mut TreeState<String>, frame: &mut Frame, area: Rect) {
    let mut title = format!(" Files {}", state.tree.files.len());
    if !state.walk.done {
        title.push_str(" (scanning…)");
    }
    if !state.tree.filter.is_empty() {
        title.push_str(&format!(" /{}", display_line(&state.tree.filter, 40)));
    }
    title.push(' ');
    let block = pane_block(title, state.focus == Pane::Tree);
    if state.tree.rows.is_empty() {
        let msg = if !state.walk.done {
            "scanning…".to_string()
        } else if !state.tree.filter.is_empty() && !state.tree.files.is_empty() {
            // The project has files: none matches.
            format!(
                "(no file matches /{}; Esc clears)",
                display_line(&state.tree.filter, 40)
            )
        } else {
            "(no files)".to_string()
        };
        frame.render_widget(
            Paragraph::new(msg).wrap(Wrap { trim: false }).block(block),
            area,
        );
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
            frame.render_stateful_widget(tree, area, view);
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
fn sync_tree_state(state: &State, view: &mut TreeState<String>, height: usize) {
    view.close_all();
    for row in state.tree.rows.iter().filter(|r| r.is_dir) {
        if !state.tree.filter.is_empty() || state.tree.open_dirs.contains(&row.path) {
            view.open(chain(&row.path));
        }
    }
    if let Some(row) = state.current_row() {
        view.select(chain(&row.path));
    }
    let len = state.tree.rows.len();
    let cursor = state.tree.cursor;
    let mut offset = view.get_offset().min(len.saturating_sub(height));
    if cursor < offset {
        offset = cursor;
    } else if height > 0 && cursor >= offset + height {
        offset = cursor + 1 - height;
    }
    view.scroll_up(usize::MAX);
    view.scroll_down(offset);
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
    build(state, &state.tree.rows, &mut i, 0)
}

/// One row of the tree, a folder's or a file's, highlighted when selected.
fn row_line(state: &State, row: &Row, index: usize) -> Line<'static> {
    let selected = state
        .tree
        .selection()
        .is_some_and(|(a, b)| (a..=b).contains(&index));
    let spans = if row.is_dir {
        folder_spans(state, row)
    } else {
        file_spans(state, row)
    };
    let mut line = Line::from(spans);
    if selected {
        line = line.style(Style::default().bg(Color::Rgb(40, 40, 90)));
    }
    line
}

/// A folder's row: its mark, its name, and its counts (included, skipped,
/// proposed, changed).
fn folder_spans(state: &State, row: &Row) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let total = state.tree.files.count_under(&row.path);
    let inside = state.walk.included_under(&row.path);
    let proposed = state
        .discovery
        .as_ref()
        .map_or(0, |d| d.count_under(&row.path));
    // Included files a build leaves out (binary, oversize) are not in
    // the context: a folder of only those is not "all in".
    let skipped = state
        .composition
        .composed
        .as_ref()
        .map_or(0, |c| c.skipped_under(&row.path))
        .min(inside);
    let (mark, color) = match inside {
        0 if proposed > 0 => ("+ ", DISCOVERED),
        0 => ("○ ", DIM),
        n if n == skipped => ("⊘ ", Color::Red),
        n if n == total && skipped == 0 => ("● ", INCLUDED),
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
    if skipped > 0 {
        spans.push(Span::styled(
            format!(" {skipped} skipped"),
            Style::default().fg(Color::Red),
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
    spans
}

/// A file's row: its mark, its name, and what is said of it (changed,
/// target, screenshot, discovered, and an included file's own marks).
fn file_spans(state: &State, row: &Row) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let item = state.item_for(&row.path);
    let proposed = state.discovery.as_ref().and_then(|d| d.mode_of(&row.path));
    let skipped = state
        .composition
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
        spans.extend(item_spans(state, &row.path, &item, skipped));
    }
    spans
}

/// What an included file's row adds: its view mode, `F`, `listed`, why a
/// build leaves it out, and its composed tokens.
fn item_spans(state: &State, path: &str, item: &FileItem, skipped: bool) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
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
        let label = if needs_trust(state, path) {
            " needs trust"
        } else {
            " skipped"
        };
        spans.push(Span::styled(label, Style::default().fg(Color::Red)));
    }
    if let Some(f) = state.composed_file(path) {
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
    spans
}

/// A left-out entry waiting for the user's consent (`core::trust::entries`:
/// a credential file, version control data, or a file the walk leaves
/// out) rather than a binary or oversize one.
fn needs_trust(state: &State, path: &str) -> bool {
    if lexical_reason(path).is_some() {
        return true;
    }
    let walked = state.walk.walked.as_slice();
    let in_walk = if state.walk.done {
        walked.binary_search_by(|p| p.as_str().cmp(path)).is_ok()
    } else {
        walked.iter().any(|p| p == path)
    };
    !in_walk
}
