//! Rendering: a pure function of the state (plus widget scroll state) into
//! a frame. Layout: file tree, symbols, preview side by side, the budget
//! gauge and the status line below (`tui::draw::layout`); overlays on top. A
//! narrow terminal, or a zoomed pane, shows only the focused pane. All
//! file-derived text goes through `text::sanitize`, so nothing from a
//! file reaches the terminal raw.

mod status;

use ratatui::Frame;
use ratatui::layout::Rect;
use tui_tree_widget::TreeState;

use super::draw::layout;
use super::overlays;
use super::state::{Overlay, Pane, State};
use super::{finder, help, preview, symbols, tokens, tree, undo};

/// Below this width only the focused pane is shown.
pub const NARROW_WIDTH: u16 = layout::NARROW_WIDTH;

/// Scroll state the widgets keep between frames (the only thing rendering
/// may change).
#[derive(Default)]
pub struct ViewState {
    pub tree: TreeState<String>,
}

/// Draw the whole UI.
pub fn render(state: &State, view: &mut ViewState, frame: &mut Frame) {
    let area = frame.area();
    let [main, gauge, status] = layout::rows(area);
    for (pane, rect) in layout::panes(main, state.focus, state.screen.zoom) {
        draw_pane(state, view, frame, pane, rect);
    }
    status::gauge(state, frame, gauge);
    status::status_line(state, frame, status);
    overlay(state, frame, area);
}

/// The overlay open, if any, over the panes.
fn overlay(state: &State, frame: &mut Frame, area: Rect) {
    match &state.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => help::render::draw(state, frame, area, *scroll),
        Some(Overlay::Picker { cursor }) => overlays::render::picker(state, frame, area, *cursor),
        Some(Overlay::Input { prompt, buffer }) => {
            overlays::render::input(frame, area, prompt, buffer)
        }
        Some(Overlay::ConfirmCopy(pending)) => {
            overlays::render::confirm_copy(state, frame, area, pending)
        }
        Some(Overlay::ConfirmWrite(pending)) => {
            overlays::render::confirm_write(state, frame, area, pending)
        }
        Some(Overlay::ConfirmQuit) => overlays::render::confirm_quit(state, frame, area),
        Some(Overlay::Finder) => finder::render::draw(state, frame, area),
        Some(Overlay::Tokens { path }) => tokens::render::draw(state, frame, area, path.as_deref()),
        Some(Overlay::History { cursor }) => undo::render::draw(state, frame, area, *cursor),
        Some(Overlay::Messages) => status::messages(state, frame, area),
    }
}

fn draw_pane(state: &State, view: &mut ViewState, frame: &mut Frame, pane: Pane, area: Rect) {
    match pane {
        Pane::Tree => tree::render::draw(state, &mut view.tree, frame, area),
        Pane::Symbols => symbols::render::draw(state, frame, area),
        Pane::Preview => preview::render::draw(state, frame, area),
    }
}
