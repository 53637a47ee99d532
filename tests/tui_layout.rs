//! Where the tokens go (`b`), the picker's preset totals, zoom (`z`), the
//! layout at 80×24, the help wrapped and scrolled, and the mouse: the TUI
//! driven through the real keymap and `update` (`tui::harness`), screens
//! snapshot with insta.

mod common;

use common::Project;
use ctxcurate::core::model::{ProjectFile, ViewMode};
use ctxcurate::tui::harness::Harness;
use ctxcurate::tui::messages::{Event, MouseKind};
use ctxcurate::tui::state::{Overlay, Pane};

fn open(p: &Project, w: u16, h: u16) -> Harness {
    Harness::open(p.root(), None, w, h).expect("open the TUI")
}

fn saved(p: &Project) -> ProjectFile {
    toml::from_str(&p.read("ctxcurate.toml")).expect("saved file parses")
}

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
    for (row, path) in rows.iter().zip(["pkg/big.py", "pkg/mid.py", "pkg/small.py"]) {
        assert!(row.contains(path), "{path} in order: {screen}");
        // The same count `ctxcurate stats` prints for the file.
        let tokens = stats_tokens(&p, path);
        assert!(row.contains(&format!(" {tokens} ")), "{tokens} for {path}: {screen}");
    }
    // The total is the gauge's.
    let total = ctxcurate::tui::format::thousands(h.state.gauge.used);
    assert!(screen.contains(&format!("{total}  ")), "{screen}");
    assert!(screen.contains("≈ before the gauge's count"), "{screen}");
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
        h.state.symbols.as_ref().map(|s| s.path.as_str()),
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
    let before = h.state.gauge.used;
    h.key("m");
    assert!(matches!(h.state.overlay, Some(Overlay::Tokens { .. })));
    assert_eq!(mode_of(&p, "pkg/big.py"), Some(ViewMode::Summary));
    assert!(h.state.gauge.used < before, "{} < {before}", h.state.gauge.used);
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
            .map(|r| r.split("%  ").last().unwrap_or("").trim_end_matches([' ', '│']).to_string())
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
