//! Where the tokens go (`b`), the picker's preset totals, zoom (`z`), the
//! layout at 80×24, the help wrapped and scrolled, and the mouse: the TUI
//! driven through the real keymap and `update` (`tui::harness`), screens
//! snapshot with insta.

use crate::common;

use common::Project;
use common::harness::open;
use common::saved;
use ctxcurate::core::model::ViewMode;
use ctxcurate::tui::messages::{Event, MouseKind};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::{Overlay, Pane};

fn mode_of(p: &Project, path: &str) -> Option<ViewMode> {
    saved(p)
        .presets
        .get("default")?
        .files
        .iter()
        .find(|f| f.path == path)
        .map(|f| f.view_mode)
}

/// Three included files of clearly different sizes, one not included.
fn three_files() -> Project {
    let p = Project::empty();
    p.write(
        "pkg/big.py",
        &"def compute(x):\n    \"\"\"Twice x.\"\"\"\n    return x * 2\n\n".repeat(30),
    );
    p.write(
        "pkg/mid.py",
        &"class Thing:\n    def run(self):\n        return 1\n\n".repeat(6),
    );
    p.write("pkg/small.py", "X = 1\n");
    p.write("pkg/other.py", "Y = 2\n");
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 2000\n\n[presets.default]\n\
         files = [\"pkg/small.py\", \"pkg/big.py\", \"pkg/mid.py\"]\n",
    );
    p
}

/// The `stats` table's count for `path` (the CLI's numbers).
fn stats_tokens(p: &Project, path: &str) -> String {
    let out = p.ok(&["stats"]);
    out.lines()
        .find(|l| l.ends_with(path) || l.contains(&format!("{path} [")))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("{path} not in {out}"))
        .to_string()
}

/// The file rows of the tokens overlay.
fn overlay_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|l| l.starts_with('│') && l.contains("%  pkg/"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_tokens_overlay_lists_files_largest_first_with_the_stats_numbers() {
    let p = three_files();
    let mut h = open(&p, 80, 24);
    h.key("b");
    assert!(matches!(h.state.overlay, Some(Overlay::Tokens { .. })));
    let screen = h.screen();
    insta::assert_snapshot!("tokens_overlay", screen);
    let rows = overlay_rows(&screen);
    assert_eq!(rows.len(), 3, "{screen}");
    for (row, path) in rows
        .iter()
        .zip(["pkg/big.py", "pkg/mid.py", "pkg/small.py"])
    {
        assert!(row.contains(path), "{path} in order: {screen}");
        // The same count `ctxcurate stats` prints for the file.
        let tokens = stats_tokens(&p, path);
        assert!(
            row.contains(&format!(" {tokens} ")),
            "{tokens} for {path}: {screen}"
        );
    }
    // The total is the gauge's.
    let total = ctxcurate::text::words::thousands(h.state.composition.gauge.used);
    assert!(screen.contains(&format!("{total}  ")), "{screen}");
    assert!(screen.contains("≈ before the gauge's count"), "{screen}");
}

/// `three_files` with a preset repo map over the modules not included.
fn mapped() -> Project {
    let p = three_files();
    for name in ["alpha", "beta", "gamma"] {
        p.write(
            &format!("lib/{name}.py"),
            &format!("class {name}_store:\n    def load_{name}(self, key):\n        return key\n"),
        );
    }
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 2000\n\n[presets.default]\n\
         targets = [\"pkg/small.py\"]\nrepo_map = 400\n\
         files = [\"pkg/small.py\", \"pkg/mid.py\"]\n",
    );
    p
}

#[test]
fn the_tokens_overlay_gives_the_repo_map_its_own_row_as_stats_does() {
    let p = mapped();
    let mut h = open(&p, 100, 24);
    h.key("b");
    let screen = h.screen();
    insta::assert_snapshot!("tokens_overlay_repo_map", screen);
    // The same count `ctxcurate stats` prints for the map, then the rest.
    let map = stats_tokens(&p, "(repo map)");
    let rest = stats_tokens(&p, "(header, tree, discussion, task)");
    let row = |label: &str| {
        screen
            .lines()
            .find(|l| l.contains(label))
            .unwrap_or_else(|| panic!("no {label} row in {screen}"))
            .to_string()
    };
    assert!(
        row("(repo map)").contains(&format!(" {map} ")),
        "{map}: {screen}"
    );
    assert!(
        row("(header, tree, discussion, task)").contains(&format!(" {rest} ")),
        "{rest}: {screen}"
    );
}

#[test]
fn enter_in_the_tokens_overlay_opens_the_file_in_the_tree() {
    let p = three_files();
    let mut h = open(&p, 80, 24);
    h.keys("b j enter");
    assert!(h.state.overlay.is_none());
    assert_eq!(h.state.current_file(), Some("pkg/mid.py"));
    assert_eq!(h.state.focus, Pane::Tree);
    // The panes follow: the symbols of the file are loaded.
    assert_eq!(
        h.state.symbols.view.as_ref().map(|s| s.path.as_str()),
        Some("pkg/mid.py")
    );
}

#[test]
fn m_and_x_in_the_tokens_overlay_edit_the_preset_and_undo_steps_back() {
    let p = three_files();
    let mut h = open(&p, 80, 24);
    h.key("b");
    // The cursor is on the largest file: m steps its mode, the overlay
    // stays open on it, and its count shrinks.
    let before = h.state.composition.gauge.used;
    h.key("m");
    assert!(matches!(h.state.overlay, Some(Overlay::Tokens { .. })));
    assert_eq!(mode_of(&p, "pkg/big.py"), Some(ViewMode::Summary));
    assert!(
        h.state.composition.gauge.used < before,
        "{} < {before}",
        h.state.composition.gauge.used
    );
    insta::assert_snapshot!("tokens_overlay_after_m", h.screen());
    h.key("M");
    assert_eq!(mode_of(&p, "pkg/big.py"), Some(ViewMode::Full));
    // x removes the file under the cursor; u (in the overlay) brings it back.
    h.key("j");
    h.key("x");
    assert!(!h.state.is_included("pkg/mid.py"));
    assert!(matches!(h.state.overlay, Some(Overlay::Tokens { .. })));
    let rows = |h: &mut Harness| {
        let screen = h.screen();
        overlay_rows(&screen)
            .iter()
            .map(|r| {
                r.split("%  ")
                    .last()
                    .unwrap_or("")
                    .trim_end_matches([' ', '│'])
                    .to_string()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&mut h), ["pkg/big.py", "pkg/small.py"]);
    h.key("u");
    assert!(h.state.is_included("pkg/mid.py"));
    assert_eq!(rows(&mut h), ["pkg/big.py", "pkg/mid.py", "pkg/small.py"]);
    h.keys("esc u");
    assert_eq!(mode_of(&p, "pkg/big.py"), Some(ViewMode::Summary));
    h.key("u");
    assert_eq!(mode_of(&p, "pkg/big.py"), Some(ViewMode::Full));
}

/// The `stats` total of a preset (the CLI's count of the whole text).
fn stats_total(p: &Project, preset: &str) -> usize {
    let out = p.ok(&["stats", "--preset", preset]);
    out.lines()
        .last()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no total in {out}"))
}

#[test]
fn the_picker_shows_each_presets_token_total() {
    let p = three_files();
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 2000\n\n[presets.default]\n\
         files = [\"pkg/small.py\", \"pkg/big.py\", \"pkg/mid.py\"]\n\n\
         [presets.tiny]\nfiles = [\"pkg/small.py\"]\n",
    );
    let mut h = open(&p, 80, 24);
    h.key("p");
    let screen = h.screen();
    insta::assert_snapshot!("picker_totals", screen);
    for (name, n) in [("default", 1), ("tiny", 2)] {
        let total = ctxcurate::tui::draw::format::compact(stats_total(&p, name));
        let line = screen
            .lines()
            .find(|l| l.contains(&format!(" {name}")) && l.contains(&format!("{n} ")))
            .unwrap_or_else(|| panic!("{name} in {screen}"));
        assert!(
            line.contains(&format!(" {total} tokens")),
            "{total} for {name}: {line}"
        );
    }
    // Counted once: opening the picker again asks the worker nothing.
    h.key("esc");
    assert!(h.press("p").is_empty());
    // An edit changes the preset: its total is asked for again.
    h.key("esc");
    h.goto("pkg/other.py");
    h.key("space");
    assert_eq!(h.press("p").len(), 1);
}

#[test]
fn zoom_gives_the_focused_pane_the_whole_width_and_back() {
    let p = three_files();
    let mut h = open(&p, 80, 24);
    let normal = h.screen();
    h.key("z");
    let zoomed = h.screen();
    insta::assert_snapshot!("zoomed_tree", zoomed);
    assert!(!zoomed.contains("Symbols") && !zoomed.contains("Preview"));
    assert!(zoomed.lines().next().unwrap_or("").ends_with('┓'));
    // Tab moves the focus, and the zoom follows it.
    h.keys("tab tab");
    let preview = h.screen();
    assert!(
        preview.starts_with("┏ Preview") && !preview.contains("Files 4"),
        "{preview}"
    );
    h.keys("tab z");
    assert_eq!(h.screen(), normal);
}

/// Files named like pip's, included as skeletons.
fn pip_like() -> Project {
    let p = Project::empty();
    let body = "def parse_line(line, options=None):\n    \"\"\"Parse one line of a requirements file.\"\"\"\n    return line.strip()\n\n";
    let files = [
        "_internal/req/req_file.py",
        "_internal/req/req_install.py",
        "_internal/req/constructors.py",
        "_internal/req/req_uninstall.py",
        "_internal/req/__init__.py",
    ];
    for (i, f) in files.iter().enumerate() {
        p.write(f, &body.repeat(10 + 12 * i));
    }
    let list: Vec<String> = files
        .iter()
        .map(|f| format!("[[presets.default.files]]\npath = \"{f}\"\nview_mode = \"skeleton\"\n"))
        .collect();
    p.write(
        "ctxcurate.toml",
        &format!("[presets.default]\n{}", list.join("\n")),
    );
    p
}

#[test]
fn at_80_columns_the_tree_shows_whole_pip_names_with_mode_and_count() {
    let p = pip_like();
    let mut h = open(&p, 80, 24);
    h.goto("_internal/req/req_file.py");
    let screen = h.screen();
    insta::assert_snapshot!("pip_names_80x24", screen);
    for name in [
        "req_file.py skeleton",
        "req_install.py skeleton",
        "constructors.py skeleton",
        "req_uninstall.py skeleton",
    ] {
        let line = screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} whole in {screen}"));
        // The count follows the mode, inside the pane's border.
        let after = line.split(name).nth(1).unwrap_or("");
        let count = after.split('│').next().unwrap_or("").trim();
        assert!(
            count.chars().next().is_some_and(|c| c.is_ascii_digit()),
            "{name}: count in {line}"
        );
    }
    // At 120 columns the tree keeps its 42 columns (a third from 140 on).
    h.resize(120, 24);
    let wide = h.screen();
    let top = wide.lines().next().unwrap_or("");
    assert_eq!(top.chars().position(|c| c == '┓'), Some(41), "{wide}");
}

#[test]
fn help_wraps_at_80_columns_and_scrolls_to_its_last_line() {
    let p = three_files();
    let mut h = open(&p, 80, 24);
    h.key("?");
    let first = h.screen();
    insta::assert_snapshot!("help_80x24_top", first);
    // Nothing is cut: no line of the overlay ends in `…`.
    assert!(
        !first
            .lines()
            .any(|l| l.trim_end_matches('│').trim_end().ends_with('…'))
    );
    h.key("G");
    let last = h.screen();
    insta::assert_snapshot!("help_80x24_bottom", last);
    assert!(last.contains("b shows where the tokens go"), "{last}");
    assert!(last.contains("≈ before the gauge's count"), "{last}");
    // k scrolls back up from the end at once; g goes to the top.
    h.key("k");
    assert_ne!(h.screen(), last);
    h.key("g");
    assert_eq!(h.screen(), first);
    assert!(matches!(h.state.overlay, Some(Overlay::Help { .. })));
}

#[test]
fn a_click_selects_a_tree_row_and_the_wheel_scrolls_the_pane_under_it() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.screen();
    // Rows: docs/, src/, logo.bin; the pane's border is row 0.
    let click = |h: &mut Harness, column, row| {
        let tree_top = h.tree_top();
        h.send(Event::Mouse {
            kind: MouseKind::Click,
            column,
            row,
            tree_top,
        });
    };
    click(&mut h, 5, 3);
    assert_eq!(h.state.current_file(), Some("logo.bin"));
    click(&mut h, 5, 2);
    assert_eq!(h.state.current_row().map(|r| r.path.as_str()), Some("src"));
    // A click in the preview focuses it; the wheel over it scrolls it.
    h.keys("l j space");
    assert_eq!(h.state.current_file(), Some("src/app.py"));
    click(&mut h, 100, 10);
    assert_eq!(h.state.focus, Pane::Preview);
    let top = h.state.preview.scroll;
    h.send(Event::Mouse {
        kind: MouseKind::ScrollDown,
        column: 100,
        row: 10,
        tree_top: 0,
    });
    assert_eq!(h.state.preview.scroll, top + 3);
    // The wheel over the tree moves it without taking the focus.
    h.send(Event::Mouse {
        kind: MouseKind::ScrollUp,
        column: 5,
        row: 5,
        tree_top: 0,
    });
    assert_eq!(h.state.focus, Pane::Preview);
    assert_eq!(h.state.tree.cursor, 0);
    // A click on a symbol picks it.
    click(&mut h, 5, 3);
    assert_eq!(h.state.current_file(), Some("src/app.py"));
    click(&mut h, 45, 3);
    assert_eq!(h.state.focus, Pane::Symbols);
    assert_eq!(h.state.symbols.cursor, 2);
    insta::assert_snapshot!("mouse_symbol_clicked", h.screen());
}

/// A masked module with long names and one long line.
fn long_names() -> Project {
    let p = Project::empty();
    p.write(
        "pkg/decoder.py",
        &format!(
            "DEFAULT_SCANNER_FLAGS = 1\n\n\
             class JSONDecodeError(ValueError):\n    \"\"\"Bad JSON.\"\"\"\n\n    \
             def __init__(self, msg, doc, pos):\n        self.msg = msg\n\n    \
             def explain_position(self):\n        return self.pos\n\n\
             def decode_with_long_name(text):\n    return [{}]  # END_OF_THE_LONG_LINE\n",
            "'item', ".repeat(30)
        ),
    );
    p.write("pkg/other.py", "X = 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n\n[[presets.default.files]]\npath = \"pkg/decoder.py\"\n\
         view_mode = \"masked\"\nmask_default = \"def\"\n\
         ast_mask = { \"JSONDecodeError.explain_position\" = \"sig\" }\n",
    );
    p
}

/// Where the first pane's top border ends: its width.
fn first_pane_width(screen: &str) -> usize {
    let top = screen.lines().next().unwrap_or("");
    top.chars()
        .position(|c| c == '┐' || c == '┓')
        .map_or(0, |i| i + 1)
}

/// At 80×24 the unfocused symbols pane names the symbols (no kind or cost
/// crowding them out); at 120 columns the tree is no narrower than at
/// 119 (issue 38: it went from 42 to 36).
#[test]
fn the_layout_at_80_119_and_120_columns() {
    let p = long_names();
    let mut h = open(&p, 80, 24);
    h.goto("pkg/decoder.py");
    let screen = h.screen();
    insta::assert_snapshot!("layout_80x24", screen);
    for row in ["│›d DEFAULT_SC…│", "│ d JSONDecode…│", "│ s  explain_p…│"] {
        assert!(screen.contains(row), "{row}: {screen}");
    }
    assert!(!screen.contains("cons…"), "{screen}");
    h.resize(119, 24);
    let at_119 = h.screen();
    insta::assert_snapshot!("layout_119x24", at_119);
    h.resize(120, 24);
    let at_120 = h.screen();
    insta::assert_snapshot!("layout_120x24", at_120);
    assert_eq!(first_pane_width(&at_119), 42, "{at_119}");
    assert_eq!(first_pane_width(&at_120), 42, "{at_120}");
    assert!(at_120.contains("│ s  explain_position  │"), "{at_120}");
    // Focused, the symbols pane has room for kinds and costs.
    h.key("tab");
    let focused = h.screen();
    assert!(
        focused.contains("sig    meth explain_position"),
        "{focused}"
    );
}

/// Zoomed (`z`), the preview wraps a long line instead of cutting it.
#[test]
fn a_zoomed_preview_wraps_long_lines() {
    let p = long_names();
    let mut h = open(&p, 100, 24);
    h.goto("pkg/decoder.py");
    h.keys("tab tab");
    assert!(!h.screen().contains("END_OF_THE_LONG_LINE"));
    h.key("z");
    let zoomed = h.screen();
    insta::assert_snapshot!("zoomed_preview_wraps", zoomed);
    assert!(zoomed.contains("END_OF_THE_LONG_LINE"), "{zoomed}");
    assert!(!zoomed.contains('…'), "{zoomed}");
}
