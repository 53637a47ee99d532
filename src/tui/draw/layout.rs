//! Where the panes go on the screen: the file tree, symbols and preview
//! side by side above the gauge and the status line; on a narrow terminal,
//! or zoomed (`z`), the focused pane alone across the whole width.
//! Rendering draws into these rectangles and the mouse handler finds the
//! pane under the pointer with the same function, so the two cannot
//! disagree.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

use crate::tui::state::Pane;

/// The symbols pane's narrowest width while it has the focus: a nested
/// method's kind, name and token cost (`› def    meth handle_request
/// 1.6k`) and the title with the file name and its default mask fit.
pub const SYMBOLS_COLUMNS: u16 = 40;

/// Below this width only the focused pane is shown.
pub const NARROW_WIDTH: u16 = 80;

/// The tree's narrowest width while it has the focus, so a file name with
/// its mode and count still fits at 80 columns.
pub const TREE_COLUMNS: u16 = 42;

/// The tree's narrowest width while the symbols or the preview have the
/// focus: the room goes to the pane the user is reading then.
pub const TREE_COLUMNS_UNFOCUSED: u16 = 24;

/// The tree's and the symbols pane's widths on a `width`-column screen
/// (the preview takes the rest): each a share of the width, never below
/// its narrowest while the focus wants it. One rule at every width, so no
/// pane gets narrower as the terminal gets wider (but for a column of
/// rounding): the tree keeps its 42 columns at 120 as at 119.
fn side_widths(width: u16, focus: Pane) -> (u16, u16) {
    // Computed wide: a percentage of a u16 width overflows it.
    let share = |percent: u32| (u32::from(width) * percent / 100) as u16;
    match focus {
        Pane::Tree => (TREE_COLUMNS.max(share(30)), share(20)),
        Pane::Symbols => (
            TREE_COLUMNS_UNFOCUSED.max(share(22)),
            SYMBOLS_COLUMNS.max(share(45)),
        ),
        Pane::Preview => (TREE_COLUMNS_UNFOCUSED.max(share(25)), share(20)),
    }
}

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
    let (tree, symbols) = side_widths(main.width, focus);
    let constraints = [
        Constraint::Length(tree),
        Constraint::Length(symbols),
        Constraint::Min(10),
    ];
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
    fn the_tree_gets_room_at_80_columns_and_a_third_when_wide() {
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
        assert_eq!(at(119)[0].1.width, 42);
        assert_eq!(at(120)[0].1.width, 42);
        assert_eq!(at(200)[0].1.width, 60);
        assert_eq!(at(79).len(), 1);
        let zoomed = panes(Rect::new(0, 0, 200, 20), Pane::Preview, true);
        assert_eq!(zoomed, vec![(Pane::Preview, Rect::new(0, 0, 200, 20))]);
    }

    /// A wider terminal never makes a pane narrower (by more than the
    /// column rounding moves), whichever pane has the focus; the panes
    /// fill the width.
    #[test]
    fn no_pane_shrinks_as_the_terminal_grows() {
        for focus in [Pane::Tree, Pane::Symbols, Pane::Preview] {
            let widths = |w| -> Vec<u16> {
                panes(Rect::new(0, 0, w, 20), focus, false)
                    .iter()
                    .map(|(_, r)| r.width)
                    .collect()
            };
            for w in NARROW_WIDTH..400 {
                let (now, wider) = (widths(w), widths(w + 1));
                assert_eq!(now.iter().sum::<u16>(), w, "{focus:?} at {w}: {now:?}");
                for (a, b) in now.iter().zip(&wider) {
                    assert!(b + 1 >= *a, "{focus:?} at {w}: {now:?} then {wider:?}");
                }
                assert!(now[2] >= 10, "{focus:?} at {w}: {now:?}");
            }
        }
        // Huge widths do not overflow.
        assert_eq!(
            panes(Rect::new(0, 0, u16::MAX, 5), Pane::Tree, false).len(),
            3
        );
    }

    #[test]
    fn the_pane_under_the_pointer() {
        let hit = |c| pane_at((120, 30), Pane::Tree, false, (c, 5)).map(|(p, _)| p);
        assert_eq!(hit(0), Some(Pane::Tree));
        assert_eq!(hit(41), Some(Pane::Tree));
        assert_eq!(hit(45), Some(Pane::Symbols));
        assert_eq!(hit(119), Some(Pane::Preview));
        assert_eq!(pane_at((120, 30), Pane::Tree, false, (5, 29)), None);
    }
}
