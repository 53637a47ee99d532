//! Every user action of the TUI, with its serde name, one-line doc and
//! handler in a single table. Keys map to these (never to closures); the
//! help overlay, keymap validation and the README key table are generated
//! from [`ACTIONS`], the dispatch from the same rows (`update::actions`).

use serde::{Deserialize, Serialize};

/// The action table, helix's `static_commands!`: one row per action
/// with its variant, its serde and keymap name, its one-line doc and its
/// handler, a `fn(&mut State) -> Vec<Effect>` named as
/// `tui::update::actions` sees it. A new action is one row here, one
/// small function and one key in `config/keymap.toml`.
///
/// The table is a macro that hands its rows to another (`$then`): this
/// module expands them into the enum and the docs (plain data every
/// layer reads), `update::actions` into the dispatch to the handlers
/// (which import the features, so it cannot live down here).
macro_rules! action_table {
    ($then:ident) => {
        $then! {
            Quit => "quit", "Quit (the curation is already saved)", quit;
            Help => "help", "Show this help", help;
            NextPane => "next_pane", "Focus the next pane", next_pane;
            PrevPane => "prev_pane", "Focus the previous pane", prev_pane;
            Zoom => "zoom", "Zoom the focused pane to the full width (and back)", zoom;
            Up => "up", "Move up", up;
            Down => "down", "Move down", down;
            Collapse => "collapse", "Collapse the folder (or go to its parent)", collapse;
            Expand => "expand", "Expand the folder", expand;
            PageUp => "page_up", "Scroll up half a page", page_up;
            PageDown => "page_down", "Scroll down half a page", page_down;
            Top => "top", "Go to the top", top;
            Bottom => "bottom", "Go to the bottom", bottom;
            ToggleInclude => "toggle_include", "Include or exclude the file or folder (on a v selection: all of it, and the selection ends)", toggle_include;
            NextMode => "next_mode", "Next view mode of the file", next_mode;
            PrevMode => "prev_mode", "Previous view mode of the file", prev_mode;
            ToggleForceFull => "toggle_force_full", "Toggle force_full (render in full whatever the mode)", toggle_force_full;
            ToggleAggregate => "toggle_aggregate", "Toggle auto_aggregate (listed only, not rendered)", toggle_aggregate;
            SelectRange => "select_range", "Start a range selection in the tree (move to extend; Space includes or excludes it, F A S D X set its mode; v or Esc cancels)", select_range;
            BatchFull => "batch_full", "Selection: render in full", batch_full;
            BatchSummary => "batch_summary", "Selection: render as summaries", batch_summary;
            BatchSkeleton => "batch_skeleton", "Selection: render as skeletons", batch_skeleton;
            BatchMaskedDef => "batch_masked_def", "Selection: masked view, every symbol def", batch_masked_def;
            BatchRemove => "batch_remove", "Selection: remove from the preset", batch_remove;
            MaskDef => "mask_def", "Mask the symbol: whole definition", mask_def;
            MaskSig => "mask_sig", "Mask the symbol: signature and docstring", mask_sig;
            MaskAgg => "mask_agg", "Mask the symbol: signature and one-line summary", mask_agg;
            MaskHide => "mask_hide", "Mask the symbol: hidden", mask_hide;
            MaskCycle => "mask_cycle", "Cycle the symbol's mask state", mask_cycle;
            MaskDefaultCycle => "mask_default_cycle", "Cycle the file's default mask (def, sig, agg, hide) for symbols without their own", mask_default_cycle;
            Yank => "yank", "Copy the composed context", yank;
            YankFile => "yank_file", "Copy the current file's view", yank_file;
            WriteOutput => "write_output", "Write the numbered output file", write_output;
            Presets => "presets", "Open the preset picker", presets;
            TokenMap => "token_map", "Where the tokens go: included files by tokens, largest first (Enter opens, m/M mode, x removes)", token_map;
            Undo => "undo", "Undo the last curation change", undo::undo;
            Redo => "redo", "Redo", undo::redo;
            History => "history", "The curation history as a list, each step named (Enter jumps to a step, one undoable move)", undo::list::open;
            ShowMessage => "show_message", "Show the last status message whole (and the earlier ones)", show_message;
            Filter => "filter", "Filter the focused list by name: the file tree, or the symbols (type, Enter keeps it, Esc clears it)", filter;
            Finder => "finder", "Find a file by fuzzy name (type to narrow, Enter goes to it, Space includes it)", finder::keys::open;
            Refresh => "refresh", "Scan the project again (new, deleted and changed files)", refresh;
            ClearCache => "clear_cache", "Clear the on-disk cache (summaries, parsed views, token counts)", clear_cache;
            CycleStrategy => "cycle_strategy", "Cycle the strategy (auto, summarize, full)", cycle_strategy;
            CycleTokenizer => "cycle_tokenizer", "Cycle the tokenizer (o200k, cl100k, estimate)", cycle_tokenizer;
            ToggleTarget => "toggle_target", "Mark or unmark the file as a target of discovery", discover::toggle_target;
            Discover => "discover", "Discover what the targets need: pack the budget around them and propose the additions", discover::discover;
            AcceptDiscovery => "accept_discovery", "Add the proposed files to the preset (one undoable step)", discover::accept;
            DiscardDiscovery => "discard_discovery", "Discard the proposed files", discover::discard;
            MarkChanged => "mark_changed", "Mark the files git sees changed against HEAD (± in the tree), or unmark them", changed::toggle_marks;
            IncludeChanged => "include_changed", "Include the files git sees changed against HEAD (one undoable step)", changed::include;
            ToggleRaw => "toggle_raw", "Preview: switch between the composition and the file's raw text", raw::toggle_raw;
            SliceMark => "slice_mark", "Raw text: start or finish selecting lines for a slice", raw::slice_mark;
            Confirm => "confirm", "Confirm (apply a preset, finish input, copy despite likely secrets)", confirm;
            Cancel => "cancel", "Close the overlay or cancel the selection", cancel;
            PresetNew => "preset_new", "Picker: save the current curation as a new preset", picker_only;
            PresetRename => "preset_rename", "Picker: rename the preset", picker_only;
            PresetDelete => "preset_delete", "Picker: delete the preset", picker_only;
            Preset1 => "preset_1", "Apply the 1st preset of the picker (undoable)", preset_1;
            Preset2 => "preset_2", "Apply the 2nd preset of the picker", preset_2;
            Preset3 => "preset_3", "Apply the 3rd preset of the picker", preset_3;
            Preset4 => "preset_4", "Apply the 4th preset of the picker", preset_4;
            Preset5 => "preset_5", "Apply the 5th preset of the picker", preset_5;
            Preset6 => "preset_6", "Apply the 6th preset of the picker", preset_6;
            Preset7 => "preset_7", "Apply the 7th preset of the picker", preset_7;
            Preset8 => "preset_8", "Apply the 8th preset of the picker", preset_8;
            Preset9 => "preset_9", "Apply the 9th preset of the picker", preset_9;
            PresetNext => "preset_next", "Apply the next preset of the picker (undoable)", preset_next;
            PresetPrev => "preset_prev", "Apply the previous preset of the picker (undoable)", preset_prev;
            PreviewGotoLine => "preview_goto_line", "Preview: go to a line of what it shows (that line at the top)", follow::goto_line_prompt;
            PreviewSearch => "preview_search", "Preview: search what it shows (case-insensitive), highlight the matches", follow::search_prompt;
            SearchNext => "search_next", "Preview: next line matching the search", search_next;
            SearchPrev => "search_prev", "Preview: previous line matching the search", search_prev;
            SliceSymbol => "slice_symbol", "Make an anchored slice of the symbol under the cursor (asks for its tag; undoable)", follow::slice_symbol;
            EditTask => "edit_task", "Edit the preset's task in $VISUAL / $EDITOR (undoable)", discuss::edit_task;
            DiscussAdd => "discuss_add", "Write a discussion message in $VISUAL / $EDITOR (empty cancels)", discuss::discuss_add;
            DiscussCompact => "discuss_compact", "Add a compaction point: the discussion starts there (undoable)", discuss::discuss_compact;
        }
    };
}
pub(crate) use action_table;

/// Declares the user-facing action enum and its documentation table.
macro_rules! declare_actions {
    ($($variant:ident => $name:literal, $doc:literal, $handler:path;)+) => {
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

action_table!(declare_actions);

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
