//! The preview follows what the user looks at (issue 14, "Look"): a file
//! outside the composition shows the block it would add, the symbols
//! cursor scrolls to its symbol's lines and highlights them, `:` goes to
//! a line, `/` `n` `N` search, `c` slices the symbol under the cursor.
//! Driven by keys through the real keymap; screens at fixed sizes.

use crate::common;

use common::harness::open;
use common::saved;
use common::{Project, machine};
use ctxcurate::core::model::ViewMode;
use ctxcurate::core::syntax::{self, Lang};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::symbols::flat_symbols;
use ratatui::style::Color;

/// The symbol highlight's background (`render::look::HIGHLIGHT`).
const HIGHLIGHT: Color = Color::Rgb(70, 55, 20);

fn status(h: &Harness) -> String {
    h.state.status.clone().map(|(s, _)| s).unwrap_or_default()
}

/// The lines the preview shows now.
fn shown_lines(h: &Harness) -> Vec<String> {
    ctxcurate::tui::preview::shown(&h.state).lines().to_vec()
}

/// Move the symbols cursor (the pane focused) onto `symbol` with `j`.
fn symbol_cursor_to(h: &mut Harness, symbol: &str) {
    let index = h
        .state
        .symbols
        .view
        .as_ref()
        .and_then(|s| s.tree.as_ref())
        .and_then(|t| flat_symbols(t).iter().position(|(_, s)| s.path == symbol))
        .unwrap_or_else(|| panic!("no symbol {symbol}"));
    while h.state.symbols.cursor > index {
        h.key("k");
    }
    while h.state.symbols.cursor < index {
        h.key("j");
    }
    assert_eq!(h.state.symbols.cursor, index);
}

/// Rows of the screen (as text) whose preview cells carry the highlight.
fn highlighted_rows(h: &mut Harness) -> Vec<String> {
    let buffer = h.buffer();
    let area = buffer.area;
    let screen = h.screen();
    let rows: Vec<&str> = screen.lines().collect();
    (0..area.height)
        .filter(|&y| (0..area.width).any(|x| buffer[(x, y)].bg == HIGHLIGHT))
        .map(|y| rows[y as usize].to_string())
        .collect()
}

#[test]
fn a_file_outside_the_composition_shows_the_block_it_would_add() {
    let p = Project::fixture();
    for (w, ht) in [(80, 24), (120, 30)] {
        // A glob entry renders src/ as skeletons; util.c is excluded from it.
        p.write(
            "ctxcurate.toml",
            "[presets.default]\nexclude = [\"src/util.c\"]\n\n\
             [[presets.default.files]]\npath = \"src/**\"\nview_mode = \"skeleton\"\n",
        );
        let mut h = open(&p, w, ht);
        // The composition holds app.py; the cursor on util.c used to show
        // it (scrolled elsewhere) under a hint.
        h.goto("src/util.c");
        let screen = h.screen();
        // One header line where it fits, its parts on lines of their own
        // where it does not.
        assert!(screen.contains("NOT INCLUDED"), "{screen}");
        assert!(screen.contains("would add ~"), "{screen}");
        assert!(screen.contains("as skeleton"), "{screen}");
        assert!(screen.contains("Space includes it"), "{screen}");
        assert!(screen.contains("### src/util.c"), "{screen}");
        assert!(!screen.contains("### src/app.py"), "{screen}");
        insta::assert_snapshot!(format!("outside_block_{w}x{ht}"), screen);
        let block = shown_lines(&h);
        assert_eq!(h.state.preview.scroll, 0);
        // Space: the composition holds exactly that block.
        h.key("space");
        let text = h.composed_text();
        assert!(text.contains(&block.join("\n")), "{text}\n---\n{block:?}");
        assert!(!h.screen().contains("NOT INCLUDED"));
        // A folder says how much of it is included.
        h.goto("docs");
        let screen = h.screen();
        // Wrapped on a narrow pane, whole on a wide one.
        assert!(
            screen.contains("docs/ · 0 of 1 file") || screen.contains("│0 of 1 file included│"),
            "{screen}"
        );
        h.goto("src");
        assert!(h.screen().contains("src/ · 2 of 2 file"));
    }
}

#[test]
fn the_block_of_a_file_outside_is_rendered_once_per_preset() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/util.c");
    let first = h.state.preview.blocks.get("src/util.c").cloned();
    assert!(first.is_some());
    // Away and back: the kept block, not a new one.
    h.goto("src/app.py");
    h.goto("src/util.c");
    let again = h.state.preview.blocks.get("src/util.c").cloned();
    assert!(std::sync::Arc::ptr_eq(&first.unwrap(), &again.unwrap()));
    // A preset change drops it; the block for the new preset is made.
    h.goto("src/app.py");
    h.key("space");
    assert!(h.state.preview.blocks.is_empty());
}

#[test]
fn the_symbols_cursor_scrolls_the_preview_and_highlights_the_symbol() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 30);
    h.goto("src/app.py");
    h.keys("space");
    // Some other file first, so the composition is longer than one block.
    h.goto("src/util.c");
    h.key("space");
    h.goto("src/app.py");
    h.key("tab");
    symbol_cursor_to(&mut h, "App.run");
    let heading = h.state.composed_file("src/app.py").unwrap().line;
    // Full: heading, blank, fence, then the file's own lines (run: 8-10).
    assert_eq!(h.state.preview.scroll, heading + 3 + 7);
    assert_eq!(
        h.state.preview.highlight,
        Some((heading + 3 + 7, heading + 3 + 9))
    );
    let rows = highlighted_rows(&mut h);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        rows[0].contains("def run(self, x: int) -> bool:"),
        "{rows:?}"
    );
    assert!(rows[2].contains("return x > 0"), "{rows:?}");
    insta::assert_snapshot!("symbol_highlight_full", h.screen());
    h.resize(80, 24);
    assert_eq!(highlighted_rows(&mut h).len(), 3);
    insta::assert_snapshot!("symbol_highlight_full_80x24", h.screen());
    h.resize(120, 30);

    // Mask it to sig: after the recompose the highlight is on its
    // signature in the masked block.
    h.key("s");
    let lines = shown_lines(&h);
    let (a, b) = h.state.preview.highlight.expect("still shown");
    assert_eq!(lines[a].trim(), "def run(self, x: int) -> bool:");
    assert!(
        lines[a..=b].iter().all(|l| !l.contains("return x > 0")),
        "{:?}",
        &lines[a..=b]
    );
    assert_eq!(h.state.preview.scroll, a);
    let rows = highlighted_rows(&mut h);
    assert!(
        rows[0].contains("def run(self, x: int) -> bool:"),
        "{rows:?}"
    );
    insta::assert_snapshot!("symbol_highlight_masked", h.screen());
    // Hidden: not in the block, and the status says so.
    symbol_cursor_to(&mut h, "App._cache");
    h.key("x");
    assert_eq!(h.state.preview.highlight, None);
    h.keys("k j");
    assert!(
        status(&h).contains("App._cache is not shown in the masked view"),
        "{}",
        status(&h)
    );
    // main below the hidden symbol: in full (the first mask on the file
    // kept the rest as shown), then its body elided with s, and back in
    // full with d.
    symbol_cursor_to(&mut h, "main");
    let lines = shown_lines(&h);
    let (a, b) = h.state.preview.highlight.expect("main is shown");
    assert_eq!(lines[a..=b], ["def main():", "    App().run(1)"]);
    h.key("s");
    let lines = shown_lines(&h);
    let (a, b) = h.state.preview.highlight.expect("main is shown");
    assert_eq!(lines[a..=b], ["def main():", "    ..."]);
    h.key("d");
    let lines = shown_lines(&h);
    let (a, b) = h.state.preview.highlight.expect("main is shown");
    assert_eq!(lines[a..=b], ["def main():", "    App().run(1)"]);
}

#[test]
fn the_symbols_cursor_follows_into_the_block_of_a_file_outside() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.key("tab");
    symbol_cursor_to(&mut h, "main");
    let lines = shown_lines(&h);
    assert!(lines[0].starts_with("### src/app.py"), "the would-be block");
    let (a, b) = h.state.preview.highlight.expect("main is in the block");
    assert_eq!(lines[a..=b], ["def main():", "    App().run(1)"]);
    assert_eq!(h.state.preview.scroll, a);
}

#[test]
fn colon_goes_to_a_line_and_says_when_it_cannot() {
    let p = Project::fixture();
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let decoder = std::fs::read_to_string(stdlib.join("json/decoder.py")).expect("stdlib");
    p.write("json/decoder.py", &decoder);
    let mut h = open(&p, 80, 24);
    h.goto("json/decoder.py");
    h.keys("space tab tab");
    h.key(":");
    h.type_text("42");
    h.key("enter");
    assert_eq!(h.state.preview.scroll, 41);
    assert_eq!(status(&h), format!("line 42/{}", shown_lines(&h).len()));
    let screen = h.screen();
    assert!(screen.contains("line 42/"), "{screen}");
    insta::assert_snapshot!("goto_line_42", screen);
    h.resize(120, 30);
    insta::assert_snapshot!("goto_line_42_120x30", h.screen());
    h.key(":");
    h.type_text("forty");
    h.key("enter");
    assert!(
        status(&h).starts_with("not a line number"),
        "{}",
        status(&h)
    );
    assert_eq!(h.state.preview.scroll, 41, "nothing moved");
    h.key(":");
    h.type_text("99999");
    h.key("enter");
    assert!(status(&h).starts_with("no line 99999"), "{}", status(&h));
    // The tree's / is still the filter.
    h.key("tab");
    h.key("/");
    assert!(h.screen().contains("Filter files"));
}

/// On a folder the preview shows a summary, no numbered lines: `:` says
/// so rather than "the preview shows 0 lines".
#[test]
fn colon_on_a_folder_says_there_are_no_lines() {
    let p = Project::fixture();
    let mut h = open(&p, 80, 24);
    h.goto("docs");
    h.keys("tab tab");
    h.key(":");
    h.type_text("3");
    h.key("enter");
    assert_eq!(
        status(&h),
        "no line 3: the preview shows no text here (a file or the composition has lines)"
    );
}

#[test]
fn slash_searches_the_preview_and_n_n_step_through_the_matches() {
    let p = Project::fixture();
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let decoder = std::fs::read_to_string(stdlib.join("json/decoder.py")).expect("stdlib");
    p.write("json/decoder.py", &decoder);
    let mut h = open(&p, 120, 30);
    h.goto("json/decoder.py");
    h.keys("space tab tab");
    let lines = shown_lines(&h);
    let expected: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.to_lowercase().contains("jsondecodeerror"))
        .map(|(i, _)| i)
        .collect();
    assert!(expected.len() > 3, "{expected:?}");
    let n = expected.len();
    h.key("g");
    h.key("/");
    h.type_text("JSONDecodeError");
    h.key("enter");
    assert_eq!(
        status(&h),
        format!("match 1/{n} · “JSONDecodeError” · n next, N previous")
    );
    assert_eq!(h.state.preview.scroll, expected[0]);
    h.key("n");
    assert!(status(&h).starts_with(&format!("match 2/{n}")));
    assert_eq!(h.state.preview.scroll, expected[1]);
    h.key("n");
    assert!(status(&h).starts_with(&format!("match 3/{n}")));
    h.key("N");
    assert!(status(&h).starts_with(&format!("match 2/{n}")));
    h.keys("N N");
    assert!(
        status(&h).starts_with(&format!("match {n}/{n}")),
        "wraps: {}",
        status(&h)
    );
    assert_eq!(h.state.preview.scroll, expected[n - 1]);
    // The matches are drawn in the match style.
    h.key("g");
    h.key("/");
    h.type_text("jsondecodeerror");
    h.key("enter");
    let buffer = h.buffer();
    let marked: String = buffer
        .content
        .iter()
        .filter(|c| c.bg == Color::Yellow && c.fg == Color::Black)
        .map(|c| c.symbol().to_string())
        .collect();
    assert!(marked.starts_with("JSONDecodeError"), "{marked}");
    insta::assert_snapshot!("search_matches", h.screen());
    h.resize(80, 24);
    insta::assert_snapshot!("search_matches_80x24", h.screen());
    h.key("/");
    h.type_text("no such text anywhere");
    h.key("enter");
    assert_eq!(status(&h), "no match for “no such text anywhere”");
}

#[test]
fn c_slices_the_symbol_under_the_cursor_and_u_takes_it_back() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 30);
    h.goto("src/app.py");
    h.keys("space tab");
    symbol_cursor_to(&mut h, "App.run");
    h.key("c");
    let screen = h.screen();
    assert!(
        screen.contains("Tag for the slice of lines 8-10"),
        "{screen}"
    );
    insta::assert_snapshot!("slice_symbol_prompt", screen);
    h.resize(80, 24);
    insta::assert_snapshot!("slice_symbol_prompt_80x24", h.screen());
    h.key("enter");
    let item = saved(&p).presets["default"].files[0].clone();
    assert_eq!(item.view_mode, ViewMode::Custom);
    assert_eq!(item.custom_slices.len(), 1);
    let slice = &item.custom_slices[0];
    assert_eq!((slice.start_line, slice.end_line), (8, 10));
    assert_eq!(slice.tag.as_deref(), Some("App.run"));
    assert!(
        h.composed_text()
            .contains("--- slice [App.run], lines 8-10 ---")
    );
    h.key("u");
    let item = saved(&p).presets["default"].files[0].clone();
    assert!(item.custom_slices.is_empty(), "one undo, one step");
    assert_eq!(item.view_mode, ViewMode::Full);
}

/// A real module: the preview follows `JSONDecoder.decode` in full and
/// masked, and `c` slices exactly its lines.
#[test]
fn on_json_decoder_the_preview_follows_a_method_and_c_slices_it() {
    let p = Project::empty();
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let source = std::fs::read_to_string(stdlib.join("json/decoder.py")).expect("stdlib");
    p.write("json/decoder.py", &source);
    let tree = syntax::parse(Lang::Python, &source);
    let decode = tree.find("JSONDecoder.decode").expect("decode").clone();
    let source_lines: Vec<&str> = source.lines().collect();
    let mut h = open(&p, 120, 30);
    h.goto("json/decoder.py");
    h.keys("space tab");
    symbol_cursor_to(&mut h, "JSONDecoder.decode");
    let lines = shown_lines(&h);
    let (a, b) = h.state.preview.highlight.expect("shown in full");
    assert_eq!(
        lines[a..=b],
        source_lines[decode.start_line - 1..decode.end_line]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    );
    assert_eq!(h.state.preview.scroll, a);
    let rows = highlighted_rows(&mut h);
    assert!(
        // The focused symbols pane takes 45 % at 120 columns: the
        // preview's line is cut at its edge.
        rows[0].contains("def decode(self, s, _w=WHITESPACE"),
        "{rows:?}"
    );
    // raw_decode hidden, decode to sig: the masked block shows decode's
    // head where the highlight is, and the highlight stops before the
    // next method shown.
    symbol_cursor_to(&mut h, "JSONDecoder.raw_decode");
    h.key("x");
    symbol_cursor_to(&mut h, "JSONDecoder.decode");
    h.key("s");
    let lines = shown_lines(&h);
    let (a, b) = h.state.preview.highlight.expect("shown masked");
    assert_eq!(lines[a].trim(), "def decode(self, s, _w=WHITESPACE.match):");
    assert!(lines[a..=b].iter().all(|l| !l.contains("def raw_decode")));
    assert!(
        b - a < decode.end_line - decode.start_line,
        "the body is elided"
    );
    // c: a slice of exactly decode's lines.
    h.key("c");
    h.key("ctrl-u");
    h.type_text("decode");
    h.key("enter");
    let item = saved(&p).presets["default"].files[0].clone();
    assert_eq!(item.view_mode, ViewMode::Custom);
    let slice = item.custom_slices.last().expect("a slice");
    assert_eq!(
        (slice.start_line, slice.end_line),
        (decode.start_line, decode.end_line)
    );
    assert_eq!(slice.tag.as_deref(), Some("decode"));
    h.key("u");
    assert!(
        saved(&p).presets["default"].files[0]
            .custom_slices
            .is_empty()
    );
}

/// A file included as a name only has no block: the preview says so
/// instead of showing the composition scrolled elsewhere.
#[test]
fn a_listed_file_says_it_is_listed_only() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/util.c");
    h.key("space");
    h.goto("src/app.py");
    h.keys("space a");
    let screen = h.screen();
    assert!(
        screen.contains("src/app.py is listed only: the composition names it"),
        "{screen}"
    );
    // Whole, wrapped on a narrow terminal rather than cut.
    h.resize(80, 24);
    let screen = h.screen();
    assert!(screen.contains("a renders it"), "{screen}");
    assert!(!screen.contains("names it…"), "{screen}");
    h.resize(120, 24);
    h.key("a");
    assert!(h.screen().contains("### src/app.py"));
}

/// Enter on the tag prompt before the worker has read the file's text
/// keeps the prompt (and what was typed) instead of dropping the slice.
#[test]
fn a_quick_enter_after_c_waits_for_the_text() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.keys("space tab");
    symbol_cursor_to(&mut h, "main");
    // `c` without running its job (the worker is busy, say).
    let pending = h.press("c");
    h.key("enter");
    assert!(status(&h).starts_with("still reading the file's text"));
    assert!(h.screen().contains("Tag for the slice of lines 16-17"));
    h.run(pending);
    h.key("enter");
    let item = saved(&p).presets["default"].files[0].clone();
    let slice = &item.custom_slices[0];
    assert_eq!((slice.start_line, slice.end_line), (16, 17));
    assert_eq!(slice.tag.as_deref(), Some("main"));
}

/// A binary file adds no section to a build, only a note: its preview says
/// so and shows no `ERROR:` section (found trying the app on pip).
#[test]
fn a_binary_file_outside_says_a_build_leaves_it_out() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("logo.bin");
    let screen = h.screen();
    assert!(screen.contains("NOT INCLUDED"), "{screen}");
    assert!(screen.contains("binary file skipped"), "{screen}");
    assert!(!screen.contains("ERROR:"), "{screen}");
}

/// A binary file a glob includes is marked in the tree as left out of the
/// build (`⊘ … skipped`), not shown as an included file (found on pip).
#[test]
fn an_included_binary_file_is_marked_skipped_in_the_tree() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n[[presets.default.files]]\npath = \"*\"\n",
    );
    let mut h = open(&p, 120, 24);
    h.goto("logo.bin");
    let screen = h.screen();
    assert!(screen.contains("⊘ logo.bin skipped"), "{screen}");
    assert!(!h.composed_text().contains("logo.bin\n```"));
}
