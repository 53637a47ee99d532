//! The symbols pane: the file's symbols, nested, with the mask each has
//! in the preset by the mask rule (`core::syntax::mask`: a symbol's own
//! entry wins, else its parent's state, else the file's default) and
//! what it costs in tokens, right-aligned so the cost column reads down;
//! the cursor's symbol highlighted. The last row says what the costs are
//! ([`LEGEND`]) while the pane has the focus, or is the filter's prompt
//! while it is typed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::core::compose::file_name;
use crate::core::curation::mask_states;
use crate::core::model::ViewMode;
use crate::core::views::parse_stopped_note;
use crate::text::sanitize::display_line;
use crate::tui::draw::format::compact;
use crate::tui::draw::{DIM, pane_block, scroll_to};
use crate::tui::state::symbols::flat_symbols;
use crate::tui::state::{Pane, State};

/// What a cost is, on the pane's last row: a symbol shown in full, with
/// what is nested in it (a class's methods), so hiding it takes about
/// that off the gauge (the help says it at length).
pub const LEGEND: &str = "tokens in full, nested included";

/// Below this inner width a row is the name alone, after the state's
/// first letter in the masked view ([`compact_row`]).
const COMPACT_BELOW: usize = 24;

pub fn draw(state: &State, frame: &mut Frame, area: Rect) {
    let focused = state.focus == Pane::Symbols;
    let pane = &state.symbols;
    let width = area.width.saturating_sub(2) as usize;
    // The filter's prompt, or the legend, takes the last row.
    let legend = focused && !pane.typing && area.height >= 8 && width >= LEGEND.len();
    let inner_h =
        (area.height.saturating_sub(2) as usize).saturating_sub((pane.typing || legend) as usize);
    let Some(view) = &pane.view else {
        // Wrapped, not cut: the pane is narrow while the tree has the focus.
        frame.render_widget(
            Paragraph::new(no_file(state))
                .wrap(Wrap { trim: true })
                .block(pane_block(" Symbols ".into(), focused)),
            area,
        );
        return;
    };
    let title = title(state, &view.path, width);
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
    let visible = pane.visible();
    let item = state.item_for(&view.path);
    let masked = item
        .as_ref()
        .is_some_and(|i| i.effective_mode() == ViewMode::Masked);
    let states = item
        .as_ref()
        .map(|it| mask_states(it, &tree.symbols))
        .unwrap_or_default();
    let row = pane.row();
    let top = scroll_to(row, inner_h, visible.len());
    // Too narrow for a kind, a four-letter state and a cost beside a name
    // (the pane at 80 columns while another has the focus): the names.
    let narrow = width < COMPACT_BELOW;
    let mut lines: Vec<Line> = visible
        .iter()
        .skip(top)
        .take(inner_h)
        .filter_map(|&i| {
            let (depth, sym) = flat.get(i)?;
            let mask = states.get(i).copied().unwrap_or_default();
            let cursor = if i == pane.cursor { "›" } else { " " };
            let mut line = if narrow {
                compact_row(cursor, masked.then_some(mask), *depth, sym, width)
            } else {
                // Counted with another tokenizer: new ones are on their way.
                let cost = match view.tokens.get(i) {
                    Some(_) if view.tokenizer != state.project.settings.tokenizer => "…".into(),
                    Some(n) => compact(*n),
                    None => String::new(),
                };
                full_row(cursor, masked.then_some(mask), *depth, sym, cost, width)
            };
            if i == pane.cursor && focused {
                line = line.style(Style::default().add_modifier(Modifier::REVERSED));
            }
            Some(line)
        })
        .collect();
    if visible.is_empty() {
        lines.push(Line::styled(
            if tree.parse_stopped {
                // Not "no symbols" in silence: the parse was stopped, and
                // the views show the file in full (`core::views`).
                format!(
                    "no symbols: {}; views show it in full",
                    parse_stopped_note(tree.lang)
                )
            } else if flat.is_empty() {
                "(no symbols)".to_string()
            } else {
                format!("no symbol matches /{}", display_line(&pane.filter, 40))
            },
            Style::default().fg(DIM),
        ));
    }
    if legend {
        lines.resize(inner_h, Line::raw(""));
        lines.push(Line::styled(LEGEND, Style::default().fg(DIM)));
    }
    if pane.typing {
        lines.resize(inner_h, Line::raw(""));
        lines.push(Line::from(vec![
            Span::styled("/", Style::default().fg(Color::Cyan)),
            Span::raw(display_line(&pane.filter, width.saturating_sub(2)).into_owned()),
            Span::styled("▏", Style::default().fg(Color::Cyan)),
        ]));
    }
    let paragraph = Paragraph::new(lines).block(pane_block(title, focused));
    // The note on a stopped parse is long; symbol rows are cut to width.
    let paragraph = if tree.parse_stopped {
        paragraph.wrap(Wrap { trim: true })
    } else {
        paragraph
    };
    frame.render_widget(paragraph, area);
}

/// What the pane says when it shows no file's symbols: why, from the
/// tree (a folder under the cursor, no row at all and the reason).
fn no_file(state: &State) -> String {
    if state.current_file().is_some() {
        return "loading…".into();
    }
    if state.current_row().is_some() {
        return "(a folder)".into();
    }
    if !state.walk.done {
        "scanning…".into()
    } else if !state.tree.filter.is_empty() {
        format!(
            "(no file matches /{})",
            display_line(&state.tree.filter, 40)
        )
    } else if state.tree.files.is_empty() {
        "(the project has no files)".into()
    } else {
        "(no file selected)".into()
    }
}

/// ` Symbols · table.py · sig /run `: the file name, in the masked view
/// the default state of symbols without their own (`=` steps it), and the
/// filter; cut to the pane's width from the file name, so the rest reads.
fn title(state: &State, path: &str, width: usize) -> String {
    let default = state
        .item_for(path)
        .filter(|i| i.view_mode == ViewMode::Masked)
        .map(|i| format!(" · {}", i.mask_default))
        .unwrap_or_default();
    let filter = if state.symbols.filter.is_empty() || state.symbols.typing {
        String::new()
    } else {
        format!(" /{}", display_line(&state.symbols.filter, 20))
    };
    let fixed =
        " Symbols · ".chars().count() + default.chars().count() + filter.chars().count() + 1;
    let name = display_line(file_name(path), width.saturating_sub(fixed).clamp(4, 40));
    format!(" Symbols · {name}{default}{filter} ")
}

/// A row with room: the cursor, the state (masked view), the kind and the
/// name people write, and the cost at the right.
fn full_row(
    cursor: &'static str,
    mask: Option<crate::core::model::MaskState>,
    depth: usize,
    sym: &crate::core::syntax::Symbol,
    cost: String,
    width: usize,
) -> Line<'static> {
    let (tag, color) = match mask {
        Some(mask) => (format!("{:<4}", mask.as_str()), mask_color(mask)),
        None => ("    ".to_string(), DIM),
    };
    // `›` + tag + space, the name, a space and the cost at the right.
    let room = width.saturating_sub(6 + cost.chars().count() + 1);
    // The name people write: `boolValue.Set`, `noop#2`.
    let text = format!(
        "{}{} {}",
        "  ".repeat(depth),
        abbreviate(sym.kind.as_str()),
        sym.display_name(depth == 0)
    );
    let name = display_line(&text, room).into_owned();
    let pad = room.saturating_sub(name.chars().count());
    Line::from(vec![
        Span::raw(cursor),
        Span::styled(tag, Style::default().fg(color)),
        Span::raw(" "),
        Span::raw(name),
        Span::raw(" ".repeat(pad + 1)),
        Span::styled(cost, Style::default().fg(DIM)),
    ])
}

/// A row of a narrow pane: the cursor, the state's first letter in the
/// masked view (`d`, `s`, `a`, `h`), the nesting and the name, cut to
/// `width` (a scoped name from the front); no kind, no cost (the focused
/// pane shows them).
fn compact_row(
    cursor: &'static str,
    mask: Option<crate::core::model::MaskState>,
    depth: usize,
    sym: &crate::core::syntax::Symbol,
    width: usize,
) -> Line<'static> {
    let mut spans = vec![Span::raw(cursor)];
    let mut used = 1;
    if let Some(mask) = mask {
        let letter: String = mask.as_str().chars().take(1).collect();
        spans.push(Span::styled(
            format!("{letter} "),
            Style::default().fg(mask_color(mask)),
        ));
        used += 2;
    }
    let room = width.saturating_sub(used + depth);
    let name = sym.display_name(depth == 0);
    // A scoped name that does not fit keeps its end, the name itself
    // (`…lue.Set` rather than `boolValue.…`).
    let scoped = name.contains('.') || name.contains("::");
    let name = match name.chars().count() {
        n if scoped && n > room && room > 1 => {
            let tail: String = name.chars().skip(n + 1 - room).collect();
            format!("…{tail}")
        }
        _ => name,
    };
    let text = format!("{}{name}", " ".repeat(depth));
    spans.push(Span::raw(
        display_line(&text, width.saturating_sub(used)).into_owned(),
    ));
    Line::from(spans)
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
