//! No key traps (issue 28): keys mean the same in every pane (`g` top,
//! `/` filters the focused list), a key with no meaning in a pane says so,
//! Space acts on a `v` selection, the symbols pane is readable (room,
//! cost in tokens, the mask rule it shows), the history as a list, the
//! message log, finder keys in the keymap and the raw cursor. Driven by
//! keys through the real keymap and dispatcher, snapshot with insta.

use crate::common;

use common::Project;
use common::harness::open;
use common::saved_preset;
use ctxcurate::core::model::{MaskState, ViewMode};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::{Overlay, Pane};

fn status(h: &Harness) -> String {
    h.state.status.clone().map(|(s, _)| s).unwrap_or_default()
}

fn files(p: &Project) -> Vec<(String, ViewMode)> {
    saved_preset(p, "default")
        .files
        .iter()
        .map(|f| (f.path.clone(), f.view_mode))
        .collect()
}

fn mask_of(p: &Project, path: &str, symbol: &str) -> Option<MaskState> {
    saved_preset(p, "default")
        .files
        .iter()
        .find(|f| f.path == path)
        .and_then(|f| f.ast_mask.get(symbol).copied())
}

/// `g` goes to the top of the symbols as of the tree; `O` masks agg.
#[test]
fn g_goes_to_the_top_in_the_symbols_pane_and_o_masks_agg() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.keys("space tab j j");
    assert_eq!(h.state.symbols.cursor, 2);
    h.key("g");
    assert_eq!(h.state.symbols.cursor, 0, "g is top, not a mask");
    assert_eq!(mask_of(&p, "src/app.py", "App"), None);
    h.key("G");
    assert_eq!(h.state.symbols.cursor, 3);
    h.keys("g O");
    assert_eq!(mask_of(&p, "src/app.py", "App"), Some(MaskState::Agg));
}

/// `/progress` in the symbols pane filters them: its letters run no keys
/// (it once opened the picker and renamed the preset `defaultogress`).
#[test]
fn slash_filters_the_symbols_and_typed_letters_run_no_keys() {
    let p = Project::fixture();
    for (w, ht) in [(80, 24), (120, 40)] {
        let mut h = open(&p, w, ht);
        h.goto("src/app.py");
        h.keys("tab /");
        h.type_text("progress");
        assert_eq!(h.state.overlay, None, "no picker");
        assert!(h.state.symbols.typing);
        h.key("enter");
        assert!(!h.state.symbols.typing);
        assert_eq!(h.state.project.active_preset_name(), "default");
        assert!(h.screen().contains("no symbol matches /progress"));
        // Nothing listed: the mask keys have no symbol to act on.
        h.key("d");
        assert!(!p.path("ctxcurate.toml").exists(), "nothing saved");
        // Esc clears it; `/` again types a new one, Backspace edits it.
        h.keys("esc /");
        h.type_text("runx");
        h.key("backspace");
        insta::assert_snapshot!(format!("symbols_filter_typed_{w}x{ht}"), h.screen());
        h.key("enter");
        assert_eq!(h.state.symbols.visible().len(), 1);
        assert_eq!(
            h.state.symbols.selected().map(|s| s.path.as_str()),
            Some("App.run")
        );
        // j and k stay on the matches; the keys act on the match.
        h.keys("j k");
        assert_eq!(
            h.state.symbols.selected().map(|s| s.path.as_str()),
            Some("App.run")
        );
        h.key("d");
        assert_eq!(mask_of(&p, "src/app.py", "App.run"), Some(MaskState::Def));
        assert!(h.screen().contains("/run"), "the title names the filter");
        h.key("esc");
        assert_eq!(h.state.symbols.visible().len(), 4);
        assert_eq!(
            h.state.symbols.selected().map(|s| s.path.as_str()),
            Some("App.run")
        );
        std::fs::remove_file(p.path("ctxcurate.toml")).unwrap();
    }
}

/// The symbols pane's hint line names every mask key and `=` (the
/// default mask's cycle), whole in 80 columns: the mask keys say `mask`
/// once. It follows the keymap: `=` remapped, the hint names the new key,
/// and that key steps the default mask.
#[test]
fn the_symbols_hint_line_holds_every_mask_key_in_80_columns() {
    let p = Project::fixture();
    let hint = |h: &mut Harness| {
        h.state.status = None;
        let screen = h.screen();
        screen
            .lines()
            .last()
            .unwrap_or_default()
            .trim_end()
            .to_string()
    };
    let mut h = open(&p, 80, 24);
    h.goto("src/app.py");
    h.key("tab");
    assert_eq!(
        hint(&mut h),
        "mask d def  s sig  O agg  x hide  = default  / filter  c slice symbol  ? help"
    );

    let global = p.config_home.path().join("config.toml");
    std::fs::write(
        &global,
        "[keymap.symbols]\n\"ctrl-d\" = \"mask_default_cycle\"\n\"=\" = \"none\"\n",
    )
    .unwrap();
    let mut h = Harness::open(p.root(), Some(&global), 80, 24).unwrap();
    h.goto("src/app.py");
    for _ in 0..8 {
        if h.state.item_for("src/app.py").map(|i| i.effective_mode()) == Some(ViewMode::Masked) {
            break;
        }
        h.key("m");
    }
    h.key("tab");
    assert!(
        hint(&mut h).contains("  x hide  Ctrl-d default  / filter"),
        "{}",
        hint(&mut h)
    );
    let before = h.screen();
    assert!(before.contains("Symbols · app.py · sig"), "{before}");
    h.key("ctrl-d");
    assert!(
        h.screen().contains("Symbols · app.py · agg"),
        "{}",
        h.screen()
    );
}

/// A key with no action in the focused pane says so, and an action bound
/// where it means nothing (or a key of another pane) says where it works.
#[test]
fn a_key_that_means_nothing_in_the_pane_says_so() {
    let p = Project::fixture();
    let global = p.config_home.path().join("config.toml");
    std::fs::write(&global, "[keymap.global]\n\"ctrl-x\" = \"mask_def\"\n").unwrap();
    let mut h = Harness::open(p.root(), Some(&global), 120, 24).unwrap();
    h.goto("src/app.py");
    // A key of another pane says where it works.
    h.keys("tab v");
    assert_eq!(
        status(&h),
        "select range: in the tree pane, not the symbols"
    );
    h.key("D");
    assert_eq!(
        status(&h),
        "batch masked def: in the tree pane, not the symbols"
    );
    h.key("Z");
    assert_eq!(
        status(&h),
        "Z: nothing in the symbols pane (? lists the keys)"
    );
    h.keys("tab h");
    assert_eq!(status(&h), "collapse: in the tree pane, not the preview");
    h.keys("tab ctrl-x");
    assert_eq!(h.state.focus, Pane::Tree);
    assert_eq!(status(&h), "mask def: in the symbols pane, not the tree");
    h.key("%");
    assert_eq!(status(&h), "%: nothing in the tree pane (? lists the keys)");
    assert!(!p.path("ctxcurate.toml").exists(), "nothing changed");
}

/// `v` + `G` + Space includes the whole selection (a folder as its
/// glob, its files through it) and ends the selection; the hints name
/// the keys that act on it; the next `v` starts a new one.
#[test]
fn space_on_a_selection_includes_or_excludes_all_of_it() {
    let p = Project::fixture();
    let mut h = open(&p, 80, 24);
    // docs/ src/ (open: app.py util.c) logo.bin; from src/ to the end.
    h.keys("j l v G");
    assert_eq!(h.state.tree.selection(), Some((1, 4)));
    insta::assert_snapshot!("selection_hints_80x24", h.screen());
    h.resize(120, 40);
    insta::assert_snapshot!("selection_hints_120x40", h.screen());
    h.resize(80, 24);
    let hints = h.screen();
    let last = hints.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("4 selected · Space include  F full  A summary  S skeleton"),
        "{last}"
    );
    h.key("space");
    assert_eq!(h.state.tree.range_anchor, None, "the selection ended");
    assert_eq!(
        files(&p),
        [
            ("src/**".to_string(), ViewMode::Full),
            ("logo.bin".to_string(), ViewMode::Full)
        ]
    );
    assert!(status(&h).starts_with("included the selection (3 files)"));
    // The next v starts a selection; Space on it, all included, excludes.
    h.keys("v k k k");
    assert_eq!(h.state.tree.selection(), Some((1, 4)));
    h.key("space");
    assert!(files(&p).is_empty(), "{:?}", files(&p));
    assert!(status(&h).starts_with("excluded the selection (3 files)"));
    // One undo brings the whole selection back.
    h.key("u");
    assert_eq!(files(&p).len(), 2);
}

const TABLE_PY: &str = "class Table:\n    \"\"\"Rows and columns.\"\"\"\n\n";

/// A file with a costly method, a cheap one, and a nested class.
fn table_py() -> String {
    let mut s = TABLE_PY.to_string();
    s.push_str("    def add_row_with_every_column_checked(self, row):\n");
    for i in 0..150 {
        s.push_str(&format!(
            "        self.cells_{i} = row.get('column_{i}', None)\n"
        ));
    }
    s.push_str("\n    def size(self):\n        return 1\n\n");
    s.push_str("    class Column:\n        def render(self):\n            return ''\n");
    s
}

/// Focused, the symbols pane gets the room its names and costs need, at
/// 80×24 and at 120 columns; each symbol shows its cost in tokens.
#[test]
fn the_symbols_pane_has_room_and_shows_costs() {
    let p = Project::empty();
    p.write("table.py", &table_py());
    for (w, ht) in [(80, 24), (120, 40)] {
        let mut h = open(&p, w, ht);
        h.goto("table.py");
        h.keys("space tab =");
        let tokens = h.state.symbols.view.as_ref().unwrap().tokens.clone();
        // Table, add_row…, size, Column, render (o200k). A class holds
        // what is nested in it: Table is its header and docstring (10)
        // and its three members; Column its header (4) and render.
        assert_eq!(tokens, [10 + 2262 + 10 + 12, 2262, 10, 4 + 8, 8]);
        let screen = h.screen();
        insta::assert_snapshot!(format!("symbols_costs_{w}x{ht}"), screen);
        assert!(screen.contains("Symbols · table.py · sig"), "{screen}");
        let method = screen
            .lines()
            .find(|l| l.contains("add_row"))
            .unwrap_or_else(|| panic!("{screen}"));
        // At 120 columns the whole name; at 80 as much as fits beside
        // its cost.
        let name = if w >= 120 {
            "meth add_row_with_every_column_checked"
        } else {
            "meth add_row_with_every_"
        };
        assert!(method.contains(name), "{method}");
        assert!(
            method.contains(&ctxcurate::tui::draw::format::compact(tokens[1])),
            "{method}"
        );
        assert!(ctxcurate::tui::draw::format::compact(tokens[1]).ends_with('k'));
        std::fs::remove_file(p.path("ctxcurate.toml")).unwrap();
    }
}

/// An `agg` class with a method of its own `def`: the pane says `def`
/// and the preview shows it in full (the mask rule of core::syntax::mask).
#[test]
fn the_pane_and_the_composition_follow_one_mask_rule() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 30);
    h.goto("src/app.py");
    h.keys("space tab O j d");
    assert_eq!(mask_of(&p, "src/app.py", "App"), Some(MaskState::Agg));
    assert_eq!(mask_of(&p, "src/app.py", "App.run"), Some(MaskState::Def));
    let text = h.composed_text();
    assert!(text.contains("        return x > 0\n"), "{text}");
    assert!(
        text.contains("    def _cache(self): ...  # 1 line\n"),
        "{text}"
    );
    let screen = h.screen();
    let row = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(row("meth run").contains("def  "), "{}", row("meth run"));
    assert!(
        row("meth _cache").contains("agg  "),
        "{}",
        row("meth _cache")
    );
    // The preview finds the method in the opened class and highlights it.
    h.keys("k j");
    assert_eq!(status(&h), "");
    let (from, to) = h.state.preview.highlight.expect("run highlighted");
    let shown = ctxcurate::tui::preview::shown(&h.state).lines()[from..=to].join("\n");
    assert!(shown.contains("def run(self, x: int) -> bool:"), "{shown}");
    assert!(shown.contains("return x > 0"), "{shown}");
}

/// `U` lists the history, each step named; Enter jumps to a step as one
/// undoable move.
#[test]
fn the_history_list_names_each_step_and_enter_jumps() {
    let p = Project::fixture();
    let mut h = open(&p, 80, 24);
    h.goto("src/app.py");
    h.keys("space m tab O tab tab");
    assert_eq!(files(&p), [("src/app.py".to_string(), ViewMode::Masked)]);
    h.key("U");
    assert_eq!(h.state.overlay, Some(Overlay::History { cursor: 3 }));
    insta::assert_snapshot!("history_list_80x24", h.screen());
    h.resize(120, 40);
    insta::assert_snapshot!("history_list_120x40", h.screen());
    h.resize(80, 24);
    h.keys("k k enter");
    assert_eq!(h.state.overlay, None);
    assert_eq!(files(&p), [("src/app.py".to_string(), ViewMode::Full)]);
    assert_eq!(mask_of(&p, "src/app.py", "App"), None);
    assert_eq!(status(&h), "back to: included src/app.py (u returns)");
    // One u comes back from the jump.
    h.key("u");
    assert_eq!(mask_of(&p, "src/app.py", "App"), Some(MaskState::Agg));
    assert_eq!(status(&h), "undone \"back to: included src/app.py\"");
    // The jump is a row of the list too; Esc closes it.
    h.key("U");
    let screen = h.screen();
    assert!(screen.contains("back to: included src/app.py"), "{screen}");
    h.key("esc");
    assert_eq!(h.state.overlay, None);
}

/// A status message too long for the line says which key shows it whole;
/// that key shows the session's messages, whole.
#[test]
fn a_long_status_message_shows_whole_on_demand() {
    let p = Project::empty();
    let deep = "a_rather_long_folder_name/with_another_long_folder/and_yet_another_one/the_file_at_the_end.py";
    p.write(deep, "x = 1\n");
    let mut h = open(&p, 80, 24);
    h.goto(deep);
    h.key("space");
    let screen = h.screen();
    let last = screen.lines().last().unwrap_or_default();
    assert!(last.ends_with(" (! whole)"), "{last}");
    assert!(!last.contains("the_file_at_the_end.py"), "{last}");
    h.key("!");
    assert_eq!(h.state.overlay, Some(Overlay::Messages));
    let screen = h.screen();
    insta::assert_snapshot!("message_log_80x24", screen);
    assert!(screen.contains("the_file_at_the_end.py"), "{screen}");
    h.resize(120, 40);
    insta::assert_snapshot!("message_log_120x40", h.screen());
    h.key("j");
    assert_eq!(h.state.overlay, None, "any key closes it");
}

/// The finder's keys come from `[keymap.finder]`: remapped, the new key
/// works; letters still type.
#[test]
fn finder_keys_can_be_remapped() {
    let p = Project::fixture();
    let global = p.config_home.path().join("config.toml");
    std::fs::write(
        &global,
        "[keymap.finder]\n\"ctrl-o\" = \"confirm\"\nenter = \"none\"\n",
    )
    .unwrap();
    let mut h = Harness::open(p.root(), Some(&global), 120, 24).unwrap();
    h.key("ctrl-p");
    h.type_text("util");
    h.key("enter");
    assert_eq!(h.state.overlay, Some(Overlay::Finder), "enter unbound");
    h.key("ctrl-o");
    assert_eq!(h.state.overlay, None);
    assert_eq!(h.state.current_file(), Some("src/util.c"));
}

/// The raw text's cursor is marked before `v` starts a slice.
#[test]
fn the_raw_cursor_shows_before_v() {
    let p = Project::fixture();
    let mut h = open(&p, 80, 24);
    h.goto("src/app.py");
    h.keys("tab tab r j j");
    let screen = h.screen();
    insta::assert_snapshot!("raw_cursor_80x24", screen);
    assert!(screen.contains("› 3 "), "{screen}");
    assert!(screen.contains("line 3/"), "{screen}");
    h.resize(120, 40);
    insta::assert_snapshot!("raw_cursor_120x40", h.screen());
    // Unfocused, it stays marked.
    h.key("tab");
    assert!(h.screen().contains("› 3 "));
}
