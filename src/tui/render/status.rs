//! The budget gauge and the status line (messages, or key hints for the
//! focused pane generated from the keymap).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, LineGauge, Paragraph};

use crate::text::sanitize::{display_line, escape_line};
use crate::text::words::thousands;
use crate::tui::draw::centered;
use crate::tui::input::action::Action;
use crate::tui::input::keymap::Context;
use crate::tui::state::{Level, Pane, State};

/// The gauge's colour for a share of the budget: green, then warning past
/// 60 % and danger past 100 %.
pub fn gauge_color(ratio: f64) -> Color {
    if ratio > 1.0 {
        Color::Red
    } else if ratio > 0.6 {
        Color::Yellow
    } else {
        Color::Green
    }
}

pub fn gauge(state: &State, frame: &mut Frame, area: Rect) {
    let settings = &state.project.settings;
    let budget = settings.budget.max(1);
    // The gauge `update` keeps current from cached per-file counts: it
    // moves with the keypress, before the background recompose lands.
    // With proposals shown, the gauge shows what the packed build takes.
    let (used, approx, stale, packed) = match &state.discovery {
        Some(d) => (d.stats.tokens, false, false, "packed "),
        None => (
            state.composition.gauge.used,
            !state.composition.gauge.exact,
            state.composition.gauge.pending > 0,
            "",
        ),
    };
    let ratio = used as f64 / budget as f64;
    // While the worker composes (a first count over a huge tree), how far
    // it has come; else `…` while some counts are pending.
    let pending = match state.composition.gauge.work {
        Some((phase, done, total)) if state.discovery.is_none() => {
            format!(" · {phase} {} / {}", thousands(done), thousands(total))
        }
        _ if stale => " …".to_string(),
        _ => String::new(),
    };
    let label = format!(
        "{packed}{}{} / {} tokens ({:.0}%) {}{pending} · {} · preset {}",
        if approx { "≈" } else { "" },
        thousands(used),
        thousands(settings.budget),
        ratio * 100.0,
        settings.tokenizer,
        settings.strategy,
        display_line(state.project.active_preset_name(), 30),
    );
    let gauge = LineGauge::default()
        .filled_style(
            Style::default()
                .fg(gauge_color(ratio))
                .add_modifier(Modifier::BOLD),
        )
        .unfilled_style(Style::default().fg(Color::DarkGray))
        .label(label)
        .ratio(ratio.clamp(0.0, 1.0));
    frame.render_widget(gauge, area);
}

/// The keys of the actions worth hinting now: what a started selection
/// or slice needs next, else the focused pane's main actions.
fn hint_actions(state: &State) -> &'static [Action] {
    if state.tree.range_anchor.is_some() && state.focus == Pane::Tree {
        return &[
            Action::ToggleInclude,
            Action::BatchFull,
            Action::BatchSummary,
            Action::BatchSkeleton,
            Action::BatchMaskedDef,
            Action::BatchRemove,
            Action::Cancel,
        ];
    }
    if state.focus == Pane::Preview && state.preview.raw {
        return if state.preview.slice_anchor.is_some() {
            &[Action::SliceMark, Action::Cancel]
        } else {
            &[
                Action::SliceMark,
                Action::ToggleRaw,
                Action::PageDown,
                Action::Help,
            ]
        };
    }
    if state.discovery.is_some() {
        return &[
            Action::AcceptDiscovery,
            Action::DiscardDiscovery,
            Action::Discover,
            Action::Help,
        ];
    }
    match state.focus {
        Pane::Tree => &[
            Action::ToggleInclude,
            Action::NextMode,
            Action::SelectRange,
            Action::Filter,
            Action::Yank,
            Action::Presets,
            Action::Undo,
            Action::Help,
        ],
        Pane::Symbols => &[
            Action::MaskDef,
            Action::MaskSig,
            Action::MaskAgg,
            Action::MaskHide,
            Action::MaskDefaultCycle,
            Action::Filter,
            Action::SliceSymbol,
            Action::Help,
        ],
        Pane::Preview => &[
            Action::ToggleRaw,
            Action::SliceMark,
            Action::PageDown,
            Action::Yank,
            Action::PreviewSearch,
            Action::PreviewGotoLine,
            Action::Help,
        ],
    }
}

fn level_color(level: Level) -> Color {
    match level {
        Level::Info => Color::White,
        Level::Warn => Color::Yellow,
        Level::Error => Color::Red,
    }
}

/// The message log (`!`): the session's status messages whole, wrapped,
/// the newest at the bottom (and in view).
pub fn messages(state: &State, frame: &mut Frame, area: Rect) {
    // The text's width inside the box's borders.
    let width = area.width.saturating_sub(6).max(18) as usize;
    let mut lines: Vec<Line> = Vec::new();
    for (text, level) in &state.messages {
        let style = Style::default().fg(level_color(*level));
        // Wrapped here (not by the widget) so the newest can be kept in
        // view by counting lines.
        let chars: Vec<char> = escape_line(text).chars().collect();
        for (i, piece) in chars.chunks(width.saturating_sub(2).max(1)).enumerate() {
            let lead = if i == 0 { "• " } else { "  " };
            lines.push(Line::styled(
                format!("{lead}{}", piece.iter().collect::<String>()),
                style,
            ));
        }
    }
    if lines.is_empty() {
        lines.push(Line::styled(
            "no messages yet",
            Style::default().fg(Color::DarkGray),
        ));
    }
    // As tall as the messages need, at most the screen less a margin.
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2).max(3));
    let rect = centered(area, width as u16 + 2, height);
    let inner = rect.height.saturating_sub(2) as usize;
    let skip = lines.len().saturating_sub(inner);
    let shown: Vec<Line> = lines.into_iter().skip(skip).collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(shown).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Messages · newest last · any key closes "),
        ),
        rect,
    );
}

pub fn status_line(state: &State, frame: &mut Frame, area: Rect) {
    let width = area.width as usize;
    if let Some((text, level)) = &state.status {
        // A message cut to the width says which key shows it whole.
        let line = if text.chars().count() > width {
            let more = format!(" ({} whole)", state.keymap.key_name(Action::ShowMessage));
            let cut = display_line(text, width.saturating_sub(more.chars().count()));
            format!("{cut}{more}")
        } else {
            display_line(text, width).into_owned()
        };
        frame.render_widget(
            Paragraph::new(line).style(Style::default().fg(level_color(*level))),
            area,
        );
        return;
    }
    if let Some(what) = typing(state) {
        // While text is typed every key is text: the pane's keys would lie.
        let key = |k: &str| Span::styled(k.to_string(), Style::default().fg(Color::Cyan));
        let line = Line::from(vec![
            Span::raw(format!("typing {what} · ")),
            key("Enter"),
            Span::raw(" confirm  "),
            key("Esc"),
            Span::raw(" cancel  "),
            key("Backspace"),
            Span::raw(" delete"),
        ]);
        frame.render_widget(Paragraph::new(line), area);
        return;
    }
    let ctx = state.focus.context();
    let selecting = state.tree.range_anchor.is_some() && state.focus == Pane::Tree;
    let mut spans = Vec::new();
    if let (Some((from, to)), Pane::Tree) = (state.tree.selection(), state.focus) {
        spans.push(Span::styled(
            format!("{} selected · ", to + 1 - from),
            Style::default().fg(Color::Yellow),
        ));
    }
    let mut group = None;
    for action in hint_actions(state) {
        let keys = state.keymap.keys_for(*action);
        let key = keys
            .iter()
            .find(|(c, _)| *c == ctx)
            .or_else(|| keys.iter().find(|(c, _)| *c == Context::Global));
        if let Some((_, key)) = key {
            let name = action.name();
            // On a selection every key acts on it: "Space include · F full".
            let name = if selecting {
                name.trim_start_matches("batch_")
                    .trim_start_matches("toggle_")
            } else {
                name
            };
            let (word, name) = in_group(name);
            if let Some(w) = word
                && word != group
            {
                spans.push(Span::raw(format!("{} ", w.trim_end_matches('_'))));
            }
            group = word;
            spans.push(Span::styled(
                key.to_string(),
                Style::default().fg(Color::Cyan),
            ));
            spans.push(Span::raw(format!(" {}  ", name.replace('_', " "))));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// What is being typed, when keys are text (a prompt, the symbols
/// filter): the status line then shows the keys of typing.
fn typing(state: &State) -> Option<&'static str> {
    use crate::tui::state::{Overlay, Prompt};
    match &state.overlay {
        Some(Overlay::Input { prompt, .. }) => Some(match prompt {
            Prompt::Filter => "a filter",
            Prompt::NewPreset => "the new preset's name",
            Prompt::RenamePreset(_) => "the preset's new name",
            Prompt::SliceTag { .. } => "the slice's tag",
            Prompt::GotoLine => "a line number",
            Prompt::Search => "text to find",
            Prompt::Task => "your task",
        }),
        None if state.focus == Pane::Symbols && state.symbols.typing => Some("a symbol filter"),
        _ => None,
    }
}

/// Hinted actions whose names begin with one of these words say it once,
/// before the first of them, and each only what follows (`mask d def  s
/// sig  …  = default`): the symbols pane's line then holds every key it
/// needs in 80 columns.
const HINT_GROUPS: &[&str] = &["mask_"];

/// The group `name` is hinted in, and what it says there: the rest of
/// the name, less a `_cycle` (the key steps what it names: `= default`
/// cycles the default mask).
fn in_group(name: &str) -> (Option<&'static str>, &str) {
    for word in HINT_GROUPS {
        if let Some(rest) = name.strip_prefix(word) {
            return (Some(word), rest.strip_suffix("_cycle").unwrap_or(rest));
        }
    }
    (None, name)
}
