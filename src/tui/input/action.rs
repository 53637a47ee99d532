//! Every user action of the TUI, with its serde name and one-line doc in a
//! single table. Keys map to these (never to closures); the help overlay,
//! keymap validation and the README key table are generated from
//! [`ACTIONS`].

use serde::{Deserialize, Serialize};

/// Declares the user-facing action enum and its documentation table.
macro_rules! actions {
    ($($variant:ident => $name:literal, $doc:literal;)+) => {
        /// Something the user asked for.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Action {
            $(#[serde(rename = $name)] $variant,)+
        }

        /// One row of the action table.
        #[derive(Debug, Clone, Copy)]
        pub struct ActionInfo {
            pub action: Action,
            pub name: &'static str,
            pub doc: &'static str,
        }

        /// Every action, in help order.
        pub const ACTIONS: &[ActionInfo] = &[
            $(ActionInfo { action: Action::$variant, name: $name, doc: $doc },)+
        ];
    };
}

actions! {
    Quit => "quit", "Quit (the curation is already saved)";
    Help => "help", "Show this help";
    NextPane => "next_pane", "Focus the next pane";
    PrevPane => "prev_pane", "Focus the previous pane";
    Zoom => "zoom", "Zoom the focused pane to the full width (and back)";
    Up => "up", "Move up";
    Down => "down", "Move down";
    Collapse => "collapse", "Collapse the folder (or go to its parent)";
    Expand => "expand", "Expand the folder";
    PageUp => "page_up", "Scroll up half a page";
    PageDown => "page_down", "Scroll down half a page";
    Top => "top", "Go to the top";
    Bottom => "bottom", "Go to the bottom";
    ToggleInclude => "toggle_include", "Include or exclude the file or folder";
    NextMode => "next_mode", "Next view mode of the file";
    PrevMode => "prev_mode", "Previous view mode of the file";
    ToggleForceFull => "toggle_force_full", "Toggle force_full (render in full whatever the mode)";
    ToggleAggregate => "toggle_aggregate", "Toggle auto_aggregate (listed only, not rendered)";
    SelectRange => "select_range", "Start a range selection in the tree (move to extend, F A S D X apply it, v or Esc cancels)";
    BatchFull => "batch_full", "Selection: render in full";
    BatchSummary => "batch_summary", "Selection: render as summaries";
    BatchSkeleton => "batch_skeleton", "Selection: render as skeletons";
    BatchMaskedDef => "batch_masked_def", "Selection: masked view, every symbol def";
    BatchRemove => "batch_remove", "Selection: remove from the preset";
    MaskDef => "mask_def", "Mask the symbol: whole definition";
    MaskSig => "mask_sig", "Mask the symbol: signature and docstring";
    MaskAgg => "mask_agg", "Mask the symbol: signature and one-line summary";
    MaskHide => "mask_hide", "Mask the symbol: hidden";
    MaskCycle => "mask_cycle", "Cycle the symbol's mask state";
    MaskDefaultCycle => "mask_default_cycle", "Cycle the file's default mask (def, sig, agg, hide) for symbols without their own";
    Yank => "yank", "Copy the composed context";
    YankFile => "yank_file", "Copy the current file's view";
    WriteOutput => "write_output", "Write the numbered output file";
    Presets => "presets", "Open the preset picker";
    TokenMap => "token_map", "Where the tokens go: included files by tokens, largest first (Enter opens, m/M mode, x removes)";
    Undo => "undo", "Undo the last curation change";
    Redo => "redo", "Redo";
    Filter => "filter", "Filter the file tree by name";
    Finder => "finder", "Find a file by fuzzy name (type to narrow, Enter goes to it, Space includes it)";
    Refresh => "refresh", "Scan the project again (new, deleted and changed files)";
    ClearCache => "clear_cache", "Clear the on-disk cache (summaries, parsed views, token counts)";
    CycleStrategy => "cycle_strategy", "Cycle the strategy (auto, summarize, full)";
    CycleTokenizer => "cycle_tokenizer", "Cycle the tokenizer (o200k, cl100k, estimate)";
    ToggleTarget => "toggle_target", "Mark or unmark the file as a target of discovery";
    Discover => "discover", "Discover what the targets need: pack the budget around them and propose the additions";
    AcceptDiscovery => "accept_discovery", "Add the proposed files to the preset (one undoable step)";
    DiscardDiscovery => "discard_discovery", "Discard the proposed files";
    MarkChanged => "mark_changed", "Mark the files git sees changed against HEAD (± in the tree), or unmark them";
    IncludeChanged => "include_changed", "Include the files git sees changed against HEAD (one undoable step)";
    ToggleRaw => "toggle_raw", "Preview: switch between the composition and the file's raw text";
    SliceMark => "slice_mark", "Raw text: start or finish selecting lines for a slice";
    Confirm => "confirm", "Confirm (apply a preset, finish input, copy despite likely secrets)";
    Cancel => "cancel", "Close the overlay or cancel the selection";
    PresetNew => "preset_new", "Picker: save the current curation as a new preset";
    PresetRename => "preset_rename", "Picker: rename the preset";
    PresetDelete => "preset_delete", "Picker: delete the preset";
    Preset1 => "preset_1", "Apply the 1st preset of the picker (undoable)";
    Preset2 => "preset_2", "Apply the 2nd preset of the picker";
    Preset3 => "preset_3", "Apply the 3rd preset of the picker";
    Preset4 => "preset_4", "Apply the 4th preset of the picker";
    Preset5 => "preset_5", "Apply the 5th preset of the picker";
    Preset6 => "preset_6", "Apply the 6th preset of the picker";
    Preset7 => "preset_7", "Apply the 7th preset of the picker";
    Preset8 => "preset_8", "Apply the 8th preset of the picker";
    Preset9 => "preset_9", "Apply the 9th preset of the picker";
    PresetNext => "preset_next", "Apply the next preset of the picker (undoable)";
    PresetPrev => "preset_prev", "Apply the previous preset of the picker (undoable)";
    PreviewGotoLine => "preview_goto_line", "Preview: go to a line of what it shows (that line at the top)";
    PreviewSearch => "preview_search", "Preview: search what it shows (case-insensitive), highlight the matches";
    SearchNext => "search_next", "Preview: next line matching the search";
    SearchPrev => "search_prev", "Preview: previous line matching the search";
    SliceSymbol => "slice_symbol", "Make an anchored slice of the symbol under the cursor (asks for its tag; undoable)";
    EditTask => "edit_task", "Edit the preset's task in $VISUAL / $EDITOR (undoable)";
    DiscussAdd => "discuss_add", "Write a discussion message in $VISUAL / $EDITOR (empty cancels)";
    DiscussCompact => "discuss_compact", "Add a compaction point: the discussion starts there (undoable)";
}

impl Action {
    /// The picker position (0-based) a `preset_N` action applies.
    pub fn preset_number(self) -> Option<usize> {
        use Action::*;
        [
            Preset1, Preset2, Preset3, Preset4, Preset5, Preset6, Preset7, Preset8, Preset9,
        ]
        .iter()
        .position(|a| *a == self)
    }

    /// The table row of this action.
    pub fn info(self) -> &'static ActionInfo {
        ACTIONS
            .iter()
            .find(|i| i.action == self)
            .unwrap_or(&ACTIONS[0])
    }

    /// The serde / keymap name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The action with this name.
    pub fn from_name(name: &str) -> Option<Action> {
        ACTIONS.iter().find(|i| i.name == name).map(|i| i.action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_and_table() {
        for info in ACTIONS {
            let json = serde_json::to_string(&info.action).unwrap();
            assert_eq!(json, format!("\"{}\"", info.name));
            assert_eq!(Action::from_name(info.name), Some(info.action));
            assert_eq!(info.action.info().name, info.name);
            assert!(!info.doc.is_empty());
        }
    }
}
