//! Where the panes go on the screen: the file tree, symbols and preview
//! side by side above the gauge and the status line; on a narrow terminal,
//! or zoomed (`z`), the focused pane alone across the whole width.
//! Rendering draws into these rectangles and the mouse handler finds the
//! pane under the pointer with the same function, so the two cannot
//! disagree.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

use crate::tui::state::Pane;

/// The symbols pane's width between [`NARROW_WIDTH`] and [`WIDE_WIDTH`]
/// while it has the focus: a nested method's kind, name and token cost
/// (`› def    meth handle_request   1.6k`) and the title with the file
/// name and its default mask fit.
pub const SYMBOLS_COLUMNS: u16 = 40;

/// Below this width only the focused pane is shown.
pub const NARROW_WIDTH: u16 = 80;

/// From this width on the panes share it 30 / 22 / 48 %; below it the
/// focused tree keeps [`TREE_COLUMNS`] so a file name with its mode and
/// count still fits at 80 columns, and gives way to the preview when the
/// focus moves on.
pub const WIDE_WIDTH: u16 = 120;

/// The tree's width between [`NARROW_WIDTH`] and [`WIDE_WIDTH`] while it
/// has the focus.
pub const TREE_COLUMNS: u16 = 42;

/// The tree's width between [`NARROW_WIDTH`] and [`WIDE_WIDTH`] while the
/// symbols or the preview have the focus: the room goes to the preview,
/// which is what the user is reading then (and the symbols pane grows
/// while it has the focus).
pub const TREE_COLUMNS_UNFOCUSED: u16 = 24;

/// The screen split into the panes' area, the gauge row and the status row.
pub fn rows(area: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// The panes shown in `main` (the area above the gauge) and where.
pub fn panes(main: Rect, focus: Pane, zoom: bool) -> Vec<(Pane, Rect)> {
    if zoom || main.width < NARROW_WIDTH {
        return vec![(focus, main)];
    }
    // The symbols pane gets the room its names and costs need while it
    // is read, as the tree does while it has the focus.
    let constraints = match (main.width >= WIDE_WIDTH, focus) {
        (true, Pane::Symbols) => [
            Constraint::Percentage(22),
            Constraint::Percentage(45),
            Constraint::Percentage(33),
        ],
        (true, _) => [
            Constraint::Percentage(30),
            Constraint::Percentage(22),
            Constraint::Percentage(48),
        ],
        (false, Pane::Symbols) => [
            Constraint::Length(TREE_COLUMNS_UNFOCUSED),
            Constraint::Length(SYMBOLS_COLUMNS),
            Constraint::Min(10),
        ],
        (false, focus) => [
            Constraint::Length(if focus == Pane::Tree {
                TREE_COLUMNS
            } else {
                TREE_COLUMNS_UNFOCUSED
            }),
            Constraint::Percentage(20),
            Constraint::Min(10),
        ],
    };
    let split = Layout::default()
        .direction(Direction::Horizontal)
        .constraints(constraints)
        .split(main);
    [Pane::Tree, Pane::Symbols, Pane::Preview]
        .into_iter()
        .zip(split.iter().copied())
        .collect()
}

/// The pane under the cell (`column`, `row`) of a `width`×`height`
/// screen, with the pane's area.
pub fn pane_at(
    (width, height): (u16, u16),
    focus: Pane,
    zoom: bool,
    (column, row): (u16, u16),
) -> Option<(Pane, Rect)> {
    let [main, _, _] = rows(Rect::new(0, 0, width, height));
    panes(main, focus, zoom)
        .into_iter()
        .find(|(_, r)| r.contains(ratatui::layout::Position::new(column, row)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_gets_room_at_80_columns_and_a_third_from_120() {
        let at = |w| panes(Rect::new(0, 0, w, 20), Pane::Tree, false);
        assert_eq!(at(80)[0].1.width, TREE_COLUMNS);
        // Reading the symbols or the preview, the room goes to the preview.
        let split = panes(Rect::new(0, 0, 80, 20), Pane::Preview, false);
        assert_eq!(split[0].1.width, TREE_COLUMNS_UNFOCUSED);
        assert!(split[2].1.width >= 40, "{split:?}");
        // Reading the symbols, they get room for a method's name.
        let split = panes(Rect::new(0, 0, 80, 20), Pane::Symbols, false);
        assert_eq!(split[0].1.width, TREE_COLUMNS_UNFOCUSED);
        assert_eq!(split[1].1.width, SYMBOLS_COLUMNS);
        // And from 120 columns on, more than the tree.
        let split = panes(Rect::new(0, 0, 120, 20), Pane::Symbols, false);
        assert!(split[1].1.width >= 54, "{split:?}");
        assert_eq!(at(120)[0].1.width, 36);
        assert_eq!(at(79).len(), 1);
        let zoomed = panes(Rect::new(0, 0, 200, 20), Pane::Preview, true);
        assert_eq!(zoomed, vec![(Pane::Preview, Rect::new(0, 0, 200, 20))]);
    }

    #[test]
    fn the_pane_under_the_pointer() {
        let hit = |c| pane_at((120, 30), Pane::Tree, false, (c, 5)).map(|(p, _)| p);
        assert_eq!(hit(0), Some(Pane::Tree));
        assert_eq!(hit(40), Some(Pane::Symbols));
        assert_eq!(hit(119), Some(Pane::Preview));
        assert_eq!(pane_at((120, 30), Pane::Tree, false, (5, 29)), None);
    }
}
