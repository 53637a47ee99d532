//! The symbols pane: the file's symbols, nested, with the mask each has
//! in the preset (or the file's default), the cursor's symbol highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::core::compose::file_name;
use crate::core::curation::mask_states;
use crate::core::model::ViewMode;
use crate::text::sanitize::display_line;
use crate::tui::draw::{DIM, pane_block, scroll_to};
use crate::tui::state::{Pane, State};
use crate::tui::symbols::flat_symbols;

pub fn draw(state: &State, frame: &mut Frame, area: Rect) {
    let focused = state.focus == Pane::Symbols;
    let inner_h = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    let Some(view) = &state.symbols.view else {
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
    let top = scroll_to(state.symbols.cursor, inner_h, flat.len());
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
            let cursor = if i == state.symbols.cursor {
                "›"
            } else {
                " "
            };
            let mut line = Line::from(vec![
                Span::raw(cursor),
                Span::styled(tag, Style::default().fg(color)),
                Span::raw(" "),
                Span::raw(display_line(&text, width.saturating_sub(6)).into_owned()),
            ]);
            if i == state.symbols.cursor && focused {
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
