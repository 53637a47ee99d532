//! Where an action means something: the panes a key's action works in.
//! A key pressed where its action means nothing says so in the status
//! line (`update`), instead of doing nothing or something else: no key
//! falls through to another meaning.

use crate::tui::input::action::Action;
use crate::tui::state::Pane;

/// The panes `action` works in; empty: in every pane (or, for the
/// picker's own keys, only in the picker: see [`only_in_an_overlay`]).
pub fn panes(action: Action) -> &'static [Pane] {
    use Action::*;
    match action {
        ToggleInclude | SelectRange | BatchFull | BatchSummary | BatchSkeleton | BatchMaskedDef
        | BatchRemove | Collapse | Expand | ToggleTarget => &[Pane::Tree],
        MaskDef | MaskSig | MaskAgg | MaskHide | MaskCycle | MaskDefaultCycle | SliceSymbol => {
            &[Pane::Symbols]
        }
        ToggleRaw | SliceMark | PreviewGotoLine | PreviewSearch | SearchNext | SearchPrev => {
            &[Pane::Preview]
        }
        _ => &[],
    }
}

/// Actions that only an overlay answers (the picker's new, rename and
/// delete).
pub fn only_in_an_overlay(action: Action) -> Option<&'static str> {
    match action {
        Action::PresetNew | Action::PresetRename | Action::PresetDelete => {
            Some("the preset picker")
        }
        _ => None,
    }
}

/// `None` when `action` works with `focus`; else what to tell the user:
/// `mask def: in the symbols pane, not the tree`.
pub fn refusal(action: Action, focus: Pane) -> Option<String> {
    let what = action.name().replace('_', " ");
    if let Some(place) = only_in_an_overlay(action) {
        return Some(format!("{what}: only in {place}"));
    }
    let panes = panes(action);
    if panes.is_empty() || panes.contains(&focus) {
        return None;
    }
    let names: Vec<&str> = panes.iter().map(|p| pane_name(*p)).collect();
    Some(format!(
        "{what}: in the {} pane, not the {}",
        names.join(" or "),
        pane_name(focus)
    ))
}

/// The pane as the status line names it.
pub fn pane_name(pane: Pane) -> &'static str {
    match pane {
        Pane::Tree => "tree",
        Pane::Symbols => "symbols",
        Pane::Preview => "preview",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_where_the_action_works() {
        assert_eq!(refusal(Action::Top, Pane::Symbols), None);
        assert_eq!(refusal(Action::MaskDef, Pane::Symbols), None);
        assert_eq!(
            refusal(Action::MaskDef, Pane::Tree).as_deref(),
            Some("mask def: in the symbols pane, not the tree")
        );
        assert_eq!(
            refusal(Action::Expand, Pane::Preview).as_deref(),
            Some("expand: in the tree pane, not the preview")
        );
        assert_eq!(
            refusal(Action::PresetRename, Pane::Tree).as_deref(),
            Some("preset rename: only in the preset picker")
        );
    }
}
