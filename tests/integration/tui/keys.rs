//! The TUI driven by key presses through the real keymap, dispatcher and
//! `update`, rendered into a fixed-size `TestBackend` and snapshot with
//! insta; plus what the keys leave in `ctxcurate.toml` and the clipboard.

use crate::common;

use common::Project;
use common::harness::open;
use common::saved;
use ctxcurate::core::compose::{self, ComposeOptions};
use ctxcurate::core::model::{MaskState, TokenizerKind, ViewMode};
use ctxcurate::tui::run::harness::Harness;

fn default_files(p: &Project) -> Vec<(String, ViewMode)> {
    saved(p)
        .presets
        .get("default")
        .map(|preset| {
            preset
                .files
                .iter()
                .map(|f| (f.path.clone(), f.view_mode))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn first_screen_and_navigation() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    insta::assert_snapshot!("first_screen", h.screen());
    // docs/ src/ logo.bin: into src, down to app.py.
    h.keys("j l j");
    assert_eq!(h.state.current_file(), Some("src/app.py"));
    h.keys("h");
    assert_eq!(h.state.current_row().map(|r| r.path.as_str()), Some("src"));
    h.keys("h");
    assert_eq!(h.state.tree.rows.len(), 3, "src collapsed again");
    h.keys("G");
    assert_eq!(h.state.current_file(), Some("logo.bin"));
    h.keys("g");
    assert_eq!(h.state.tree.cursor, 0);
    assert!(
        !p.path("ctxcurate.toml").exists(),
        "moving around saves nothing"
    );
}

#[test]
fn include_and_cycle_modes() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space j space");
    assert_eq!(
        default_files(&p),
        [
            ("src/app.py".to_string(), ViewMode::Full),
            ("src/util.c".to_string(), ViewMode::Full)
        ]
    );
    h.keys("m m");
    assert_eq!(default_files(&p)[1].1, ViewMode::Skeleton);
    h.keys("M");
    assert_eq!(default_files(&p)[1].1, ViewMode::Summary);
    h.keys("f");
    assert!(saved(&p).presets["default"].files[1].force_full);
    insta::assert_snapshot!("included_two_files", h.screen());
    h.keys("space");
    assert_eq!(default_files(&p).len(), 1);
}

#[test]
fn folder_include_adds_a_glob_and_file_exclusion_is_recorded() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j space");
    assert_eq!(default_files(&p), [("src/**".to_string(), ViewMode::Full)]);
    assert_eq!(h.state.included_paths().len(), 2);
    // Excluding one file of the glob keeps the glob and records the
    // exclusion; including it again drops the exclusion.
    h.keys("l j space");
    assert_eq!(default_files(&p), [("src/**".to_string(), ViewMode::Full)]);
    assert_eq!(saved(&p).presets["default"].exclude, ["src/app.py"]);
    assert_eq!(h.state.included_paths(), ["src/util.c"]);
    h.keys("space");
    assert!(saved(&p).presets["default"].exclude.is_empty());
    assert_eq!(h.state.included_paths().len(), 2);
    // Space on the fully included folder takes it all out.
    h.keys("k space");
    assert!(default_files(&p).is_empty());
    // A broader glob reaching into a folder: the folder is excluded.
    p.write("ctxcurate.toml", "[presets.default]\nfiles = [\"**/*\"]\n");
    let mut h = open(&p, 120, 24);
    h.keys("j space");
    assert_eq!(saved(&p).presets["default"].exclude, ["src"]);
    assert_eq!(
        h.state.included_paths().len(),
        2,
        "docs/guide.md, logo.bin (ctxcurate.toml is a built-in ignore)"
    );
}

#[test]
fn masking_symbols_switches_to_masked() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.keys("tab");
    // Symbols: App, App.run, App._cache, main.
    h.keys("j s j x");
    let f = saved(&p);
    let item = &f.presets["default"].files[0];
    assert_eq!(item.path, "src/app.py");
    assert_eq!(item.view_mode, ViewMode::Masked);
    assert_eq!(item.ast_mask["App.run"], MaskState::Sig);
    assert_eq!(item.ast_mask["App._cache"], MaskState::Hide);
    insta::assert_snapshot!("masked_symbols", h.screen());
    let text = &h.composed_text();
    assert!(text.contains("def run(self, x: int) -> bool:"), "{text}");
    assert!(!text.contains("return x > 0"), "{text}");
    assert!(!text.contains("_cache"), "{text}");
    // Space cycles the state: hide → def.
    h.keys("space");
    assert_eq!(
        saved(&p).presets["default"].files[0].ast_mask["App._cache"],
        MaskState::Def
    );
}

/// `=` in the symbols pane steps the file's default mask, shown in the
/// pane's header; a file not yet masked starts at `sig`. `D` there is the
/// tree's "selection: masked def", as everywhere: it says so and changes
/// nothing (it once cycled the default here, a key trap).
#[test]
fn the_mask_default_cycles_from_the_symbols_pane() {
    let p = Project::fixture();
    let mut h = open(&p, 160, 24);
    h.goto("src/app.py");
    h.keys("space tab");
    h.key("=");
    let item = |p: &Project| saved(p).presets["default"].files[0].clone();
    assert_eq!(
        (item(&p).view_mode, item(&p).mask_default),
        (ViewMode::Masked, MaskState::Sig)
    );
    assert!(
        h.screen().contains("Symbols · app.py · sig"),
        "{}",
        h.screen()
    );
    h.key("=");
    assert_eq!(item(&p).mask_default, MaskState::Agg);
    assert!(
        h.screen().contains("Symbols · app.py · agg"),
        "{}",
        h.screen()
    );
    let text = h.composed_text();
    assert!(!text.contains("return x > 0"), "{text}");
    h.key("u");
    assert_eq!(item(&p).mask_default, MaskState::Sig, "one undo, one step");
    h.key("D");
    assert_eq!(item(&p).mask_default, MaskState::Sig);
    let screen = h.screen();
    assert!(
        screen.contains("batch masked def: in the tree pane, not the symbols"),
        "{screen}"
    );
}

#[test]
fn batch_selection_sets_modes_and_removes() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j v j S");
    assert_eq!(
        default_files(&p),
        [
            ("src/app.py".to_string(), ViewMode::Skeleton),
            ("src/util.c".to_string(), ViewMode::Skeleton)
        ]
    );
    assert!(
        h.state.tree.range_anchor.is_none(),
        "a batch ends the selection"
    );
    h.keys("v k D");
    let f = saved(&p);
    assert!(
        f.presets["default"]
            .files
            .iter()
            .all(|i| i.view_mode == ViewMode::Masked)
    );
    h.keys("v j A");
    assert!(
        default_files(&p)
            .iter()
            .all(|(_, m)| *m == ViewMode::Summary)
    );
    h.keys("v k X");
    assert!(default_files(&p).is_empty());
    // A folder in the selection takes every file under it.
    h.keys("g v j F");
    assert_eq!(default_files(&p).len(), 3);
}

/// The selection works like visual mode: the status line counts it while
/// it grows, and `v` again cancels it out loud (no batch key then
/// silently changes one file).
#[test]
fn a_second_v_cancels_the_selection_and_says_so() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j v j");
    assert!(h.screen().contains("2 selected"), "{}", h.screen());
    h.key("v");
    assert!(h.state.tree.range_anchor.is_none());
    assert!(h.screen().contains("selection cancelled"), "{}", h.screen());
    h.keys("v esc");
    assert!(h.state.tree.range_anchor.is_none());
    assert!(!p.path("ctxcurate.toml").exists(), "nothing was changed");
}

#[test]
fn undo_and_redo() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space m");
    assert_eq!(
        default_files(&p),
        [("src/app.py".to_string(), ViewMode::Summary)]
    );
    h.keys("u");
    assert_eq!(
        default_files(&p),
        [("src/app.py".to_string(), ViewMode::Full)]
    );
    h.keys("u");
    assert!(default_files(&p).is_empty());
    h.keys("ctrl-r ctrl-r");
    assert_eq!(
        default_files(&p),
        [("src/app.py".to_string(), ViewMode::Summary)]
    );
    h.keys("ctrl-r");
    assert_eq!(h.state.status.as_ref().unwrap().0, "nothing to redo");
}

#[test]
fn presets_save_switch_rename_delete() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space");
    h.keys("p n");
    h.type_text("bugfix");
    h.key("enter");
    assert_eq!(h.state.project.active_preset_name(), "bugfix");
    assert_eq!(
        saved(&p).project.get_str("active_preset"),
        None,
        "not shared"
    );
    h.keys("j space");
    // bugfix: app.py + util.c; default: app.py.
    h.keys("p");
    insta::assert_snapshot!("preset_picker", h.screen());
    h.keys("j enter");
    assert_eq!(h.state.project.active_preset_name(), "default");
    assert_eq!(h.state.included_paths().len(), 1);
    let text = h.composed_text();
    assert!(text.contains("### src/app.py") && !text.contains("### src/util.c"));
    h.keys("p k r");
    h.type_text("-v2");
    h.key("enter");
    assert!(saved(&p).presets.contains_key("bugfix-v2"));
    h.keys("p k D");
    assert_eq!(
        h.state.status.as_ref().unwrap().0,
        "deleted preset bugfix-v2 (u undoes)",
        "no confirm, so it says how to take it back"
    );
    h.key("esc");
    assert!(!saved(&p).presets.contains_key("bugfix-v2"));
    h.keys("u");
    assert!(
        saved(&p).presets.contains_key("bugfix-v2"),
        "undo brings a deleted preset back"
    );
    assert_eq!(
        h.state.status.as_ref().unwrap().0,
        "undone \"deleted preset bugfix-v2\""
    );
}

#[test]
fn help_overlay_lists_every_action() {
    let p = Project::fixture();
    // At 80×24 the help scrolls: every action is on one of its pages.
    let mut h = open(&p, 80, 24);
    h.key("?");
    let mut screen = h.screen();
    insta::assert_snapshot!("help", screen);
    let mut seen = screen.clone();
    for _ in 0..40 {
        h.key("ctrl-d");
        let next = h.screen();
        if next == screen {
            break;
        }
        seen.push_str(&next);
        screen = next;
    }
    for info in ctxcurate::tui::input::action::ACTIONS {
        assert!(seen.contains(info.name), "help lacks {}", info.name);
    }
    h.key("x");
    assert!(h.state.overlay.is_none());
}

#[test]
fn narrow_terminal_shows_the_focused_pane() {
    let p = Project::fixture();
    let mut h = open(&p, 50, 16);
    h.keys("j l j space");
    insta::assert_snapshot!("narrow_tree", h.screen());
    h.keys("tab tab");
    insta::assert_snapshot!("narrow_preview", h.screen());
    h.resize(20, 5);
    let tiny = h.screen();
    assert_eq!(tiny.lines().count(), 5);
}

#[test]
fn preview_and_yank_equal_the_cli_build() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space j m m");
    h.key("y");
    assert_eq!(h.copied.len(), 1);
    let project = ctxcurate::core::project::Project::open_at(p.root(), None).unwrap();
    let built = compose::compose(
        p.root(),
        &project.active_preset(),
        &ComposeOptions::from_settings(&project.settings),
    )
    .text;
    assert_eq!(h.copied[0], built);
    assert_eq!(
        &*h.state.composition.composed.as_ref().unwrap().text,
        built.as_str()
    );
    assert!(built.contains("### src/util.c [skeleton]"));
    // Y copies the current file's view only.
    h.key("Y");
    assert!(
        h.copied[1].starts_with("/* Small geometry helpers. */"),
        "{}",
        h.copied[1]
    );
}

#[test]
fn strategy_and_tokenizer_keys_are_saved_and_counted() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space");
    let o200k = h.state.composition.composed.as_ref().unwrap().total_tokens;
    h.keys("T");
    assert_eq!(h.state.project.settings.tokenizer, TokenizerKind::Cl100k);
    let text = h.composed_text();
    assert_eq!(
        h.state.composition.composed.as_ref().unwrap().total_tokens,
        ctxcurate::core::tokens::count(TokenizerKind::Cl100k, &text)
    );
    assert!(o200k > 0);
    h.keys("t");
    assert_eq!(
        h.state.project.settings.strategy.to_string(),
        "summarize",
        "the user's own toggle"
    );
    assert_eq!(saved(&p).project.get_str("strategy"), None, "not shared");
    // The directory tree, then the files.
    assert!(h.composed_text().contains("```\n\n## Files (Summary)\n"));
}

#[test]
fn filter_narrows_the_tree() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("/");
    h.type_text("util");
    assert_eq!(
        h.state
            .tree
            .rows
            .iter()
            .map(|r| r.path.as_str())
            .collect::<Vec<_>>(),
        ["src", "src/util.c"]
    );
    h.key("enter");
    assert_eq!(h.state.tree.filter, "util");
    h.key("esc");
    assert!(h.state.tree.filter.is_empty());
    // The cursor was on `src`, which stays where it was.
    assert_eq!(h.state.current_row().map(|r| r.path.as_str()), Some("src"));
}

/// A filter that matches nothing says so (the project has files), and
/// how to clear it.
#[test]
fn a_tree_filter_that_matches_nothing_says_so() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("/");
    h.type_text("zzqx");
    h.key("enter");
    assert!(h.state.tree.rows.is_empty());
    let screen = h.screen();
    // Wrapped in the pane.
    assert!(screen.contains("(no file matches /zzqx; Esc"), "{screen}");
    assert!(screen.contains("clears)"), "{screen}");
    h.key("esc");
    assert!(!h.state.tree.rows.is_empty());
}

/// Clearing the filter keeps the cursor on the file it was on (its folders
/// opened), and the symbols and preview panes follow it.
#[test]
fn clearing_the_filter_keeps_the_cursor_on_its_file() {
    let p = Project::fixture();
    // Esc in the tree, or Esc in the filter prompt opened again.
    for clear in ["esc", "/ esc"] {
        let mut h = open(&p, 120, 24);
        h.key("/");
        h.type_text("util");
        h.keys("enter j");
        assert_eq!(
            h.state.current_row().map(|r| r.path.as_str()),
            Some("src/util.c")
        );
        h.keys(clear);
        assert!(h.state.tree.filter.is_empty(), "{clear}");
        assert_eq!(
            h.state.current_row().map(|r| r.path.as_str()),
            Some("src/util.c"),
            "{clear}"
        );
        let screen = h.screen();
        assert!(screen.contains("Symbols · util.c"), "{clear}:\n{screen}");
    }
}

#[test]
fn slice_from_the_raw_preview() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/util.c");
    h.keys("tab tab r");
    assert!(h.state.preview.raw);
    // Lines 9-11: `int add(...) { ... }`.
    h.keys("j j j j j j j j v j j v");
    h.type_text("add");
    h.key("enter");
    let f = saved(&p);
    let item = &f.presets["default"].files[0];
    assert_eq!(item.view_mode, ViewMode::Custom);
    let slice = &item.custom_slices[0];
    assert_eq!((slice.start_line, slice.end_line), (9, 11));
    assert_eq!(slice.tag.as_deref(), Some("add"));
    assert_eq!(slice.content_hash.as_ref().map(String::len), Some(64));
    let text = &h.composed_text();
    assert!(
        text.contains("--- slice [add], lines 9-11 ---\nint add(int a, int b) {"),
        "{text}"
    );
}

#[test]
fn escape_sequences_in_files_never_reach_the_screen() {
    let p = Project::empty();
    p.write(
        "evil.py",
        "x = '\x1b]52;c;aGk=\x07\x1b[31mred\u{202e}\u{9b}2J'\n",
    );
    let mut h = open(&p, 100, 20);
    h.keys("space");
    let screen = h.screen();
    assert!(screen.contains("␛]52;c;aGk=␇␛[31mred"), "{screen}");
    for bad in ['\x1b', '\x07', '\u{202e}', '\u{9b}'] {
        assert!(!screen.contains(bad), "{bad:?} reached the screen");
    }
    // The clipboard keeps the real bytes.
    h.key("y");
    assert!(h.copied[0].contains("\x1b]52;c;aGk=\x07"));
}

#[test]
fn write_output_numbers_files() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space w w");
    let out = p.root().join(".ctxcurate/out");
    let first = std::fs::read_to_string(out.join("context_001.md")).unwrap();
    assert_eq!(
        first,
        std::fs::read_to_string(out.join("context_002.md")).unwrap()
    );
    assert_eq!(first, *h.state.composition.composed.as_ref().unwrap().text);
    assert_eq!(
        h.state.status.as_ref().unwrap().0,
        "wrote .ctxcurate/out/context_002.md"
    );
}

#[test]
fn user_keymap_overrides_and_bad_entries_keep_defaults() {
    let p = Project::fixture();
    let global = p.config_home.path().join("config.toml");
    std::fs::write(
        &global,
        "[keymap.tree]\n\"ctrl-a\" = \"toggle_include\"\nz = \"no_such_action\"\n",
    )
    .unwrap();
    let mut h = Harness::open(p.root(), Some(&global), 120, 24).unwrap();
    let status = h.state.status.clone().unwrap().0;
    assert!(status.contains("keymap: "), "{status}");
    assert!(
        status.contains("unknown action `no_such_action`"),
        "{status}"
    );
    assert!(status.contains("(defaults kept)"), "{status}");
    h.keys("j l j ctrl-a");
    assert_eq!(
        default_files(&p),
        [("src/app.py".to_string(), ViewMode::Full)]
    );
    // The default still works next to the override.
    h.keys("j space");
    assert_eq!(default_files(&p).len(), 2);
    let (_, problems) = ctxcurate::tui::input::keymap::Keymap::load(
        toml::from_str::<toml::Table>(&std::fs::read_to_string(&global).unwrap())
            .unwrap()
            .get("keymap"),
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("unknown action `no_such_action`"));
}

#[test]
fn outside_changes_are_loaded_never_overwritten() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space");
    // The CLI edits the file while the app is open.
    p.ok(&["add", "docs/guide.md"]);
    h.check_disk();
    assert!(
        h.state.is_included("docs/guide.md"),
        "reloaded on the idle check"
    );
    assert!(
        h.state
            .status
            .as_ref()
            .unwrap()
            .0
            .contains("changed on disk: reloaded")
    );
    // An edit racing an outside change: the outside change wins and the
    // app says so.
    p.ok(&["add", "src/util.c"]);
    h.keys("m");
    let files = default_files(&p);
    assert!(files.iter().any(|(f, _)| f == "src/util.c"), "{files:?}");
    assert!(
        h.state
            .status
            .as_ref()
            .unwrap()
            .0
            .contains("your last change was not saved")
    );
    // A broken file on disk is reported and never written over.
    p.write("ctxcurate.toml", "[presets.default\n");
    h.check_disk();
    assert!(
        h.state
            .status
            .as_ref()
            .unwrap()
            .0
            .contains("ctxcurate.toml:1:")
    );
    h.keys("m");
    assert_eq!(p.read("ctxcurate.toml"), "[presets.default\n");
}

#[test]
fn excluding_and_including_again_keeps_the_curation() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.keys("space m m");
    h.keys("space");
    assert!(default_files(&p).is_empty());
    h.keys("space");
    assert_eq!(
        default_files(&p),
        [("src/app.py".to_string(), ViewMode::Skeleton)]
    );
    assert!(
        h.state
            .status
            .as_ref()
            .unwrap()
            .0
            .contains("earlier curation")
    );
}

#[test]
fn new_entries_land_in_path_order() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/util.c");
    h.keys("space");
    h.goto("docs/guide.md");
    h.keys("space");
    h.goto("src/app.py");
    h.keys("space");
    let paths: Vec<String> = default_files(&p).into_iter().map(|(f, _)| f).collect();
    assert_eq!(paths, ["docs/guide.md", "src/app.py", "src/util.c"]);
}

#[test]
fn a_folder_in_a_batch_stands_for_its_included_files() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.keys("space");
    // Select docs/ .. src/ (src/ holds one included file) and set skeleton.
    h.keys("g v j S");
    let files = default_files(&p);
    assert!(
        files.contains(&("src/app.py".to_string(), ViewMode::Skeleton)),
        "{files:?}"
    );
    assert!(!files.iter().any(|(f, _)| f == "src/util.c"), "{files:?}");
    // docs/ had nothing included, so it counts whole.
    assert!(
        files.contains(&("docs/guide.md".to_string(), ViewMode::Skeleton)),
        "{files:?}"
    );
}

#[test]
fn refresh_picks_up_new_and_changed_files() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j space");
    let before = h.state.composition.gauge.used;
    p.write("src/new.py", "def new_function():\n    return 42\n");
    h.key("R");
    assert!(h.state.tree.files.contains("src/new.py"));
    assert!(
        h.state.is_included("src/new.py"),
        "the src/** glob takes it"
    );
    assert!(h.state.composition.gauge.used > before);
    assert!(h.composed_text().contains("### src/new.py"));
}

#[test]
fn preview_says_when_the_file_is_not_included() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/util.c");
    let screen = h.screen();
    // The block it would add, under a header saying so (tui/look.rs).
    assert!(
        screen.contains("NOT INCLUDED · would add ~") && screen.contains("Space includes it"),
        "{screen}"
    );
    h.keys("space");
    assert!(!h.screen().contains("NOT INCLUDED"));
}

#[test]
fn the_gauge_on_screen_moves_with_the_keypress() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("j l j space j space");
    let both = h.state.composition.gauge.used;
    assert!(h.screen().contains(&format!("{} / 100,000 tokens", both)));
    // Exclude util.c and draw before the recompose job runs.
    let effects = h.press("space");
    let one = h.state.composition.gauge.used;
    assert!(one < both);
    let screen = h.screen();
    assert!(
        screen.contains(&format!("≈{one} / 100,000 tokens")),
        "the drawn gauge is the updated one: {screen}"
    );
    h.run(effects);
    let exact = h.state.composition.composed.as_ref().unwrap().total_tokens;
    assert!(h.screen().contains(&format!("{exact} / 100,000 tokens")));
}

/// While the worker composes a huge tree, the gauge shows how far it has
/// come (the event loop feeds it `core::progress` every 100 ms); the
/// finished composition takes its place.
#[test]
fn the_gauge_follows_a_long_composition() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 20);
    h.send(ctxcurate::tui::messages::Event::Progress {
        phase: "files rendered",
        done: 12_345,
        total: 100_000,
    });
    let screen = h.screen();
    assert!(
        screen.contains("files rendered 12,345 / 100,000"),
        "{screen}"
    );
    h.keys("space");
    assert!(!h.screen().contains("files rendered"), "{}", h.screen());
    // A finished phase is not shown.
    h.send(ctxcurate::tui::messages::Event::Progress {
        phase: "files rendered",
        done: 10,
        total: 10,
    });
    assert!(!h.screen().contains("files rendered"), "{}", h.screen());
}

/// `1`-`9` apply the preset at that place of the picker (which shows the
/// numbers), `]` and `[` cycle; each switch is one undoable step; a
/// digit typed into a prompt is text, not a switch.
#[test]
fn number_keys_and_brackets_switch_presets() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.a]\nfiles = [\"src/app.py\"]\n\n[presets.b]\nfiles = [\"src/util.c\"]\n\n[presets.c]\n",
    );
    let mut h = open(&p, 120, 24);
    let active = |h: &Harness| h.state.project.active_preset_name().to_string();
    h.key("2");
    assert_eq!(active(&h), "b");
    assert_eq!(
        saved(&p).project.get_str("active_preset"),
        None,
        "not shared"
    );
    assert!(h.composed_text().contains("### src/util.c"));
    assert!(h.screen().contains("preset: b (2)"), "{}", h.screen());
    h.key("]");
    assert_eq!(active(&h), "c");
    h.key("]");
    assert_eq!(active(&h), "a", "next wraps around");
    h.key("[");
    assert_eq!(active(&h), "c", "previous wraps around");
    h.key("u");
    assert_eq!(active(&h), "a", "a switch is undone like an edit");
    h.key("9");
    assert_eq!(active(&h), "a");
    assert!(h.screen().contains("there is no preset 9 (3 in all)"));
    h.key("p");
    let screen = h.screen();
    assert!(
        screen.contains("1 * a") && screen.contains("2   b") && screen.contains("3   c"),
        "{screen}"
    );
    h.key("esc");
    // In the filter prompt a digit is text.
    h.key("/");
    h.key("3");
    assert_eq!(h.state.tree.filter, "3");
    assert_eq!(active(&h), "a");
}

/// A copy the clipboard refused (too large for OSC 52, say) says why and
/// where `w` writes the text instead.
#[test]
fn a_refused_copy_points_at_the_output_file() {
    let p = Project::fixture();
    let mut h = open(&p, 160, 20);
    h.send(ctxcurate::tui::messages::Event::Copied {
        label: "context (2 files)".into(),
        tokens: 300_000,
        tokenizer: TokenizerKind::O200k,
        result: Err(
            "900000 bytes is too much for the terminal clipboard (OSC 52 limit 768000 bytes)"
                .into(),
        ),
    });
    let screen = h.screen();
    assert!(
        screen.contains(
            "OSC 52 limit 768000 bytes) · w writes it to .ctxcurate/out/context_NNN.md instead"
        ),
        "{screen}"
    );
}

/// The first mask on a file shown in full changes only the symbol it
/// names (issue 38): `x` on `App._cache` hides that method, every other
/// symbol stays in full, and the status says so.
#[test]
fn a_first_mask_on_a_full_file_keeps_the_rest_in_full() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.keys("space tab");
    let full = h.composed_text();
    // Symbols: App, App.run, App._cache, main.
    h.keys("j j x");
    let item = saved(&p).presets["default"].files[0].clone();
    assert_eq!(
        (item.view_mode, item.mask_default),
        (ViewMode::Masked, MaskState::Def)
    );
    assert_eq!(item.ast_mask.len(), 1, "{:?}", item.ast_mask);
    assert_eq!(item.ast_mask["App._cache"], MaskState::Hide);
    assert_eq!(
        h.state.status.as_ref().unwrap().0,
        "src/app.py: App._cache = hide (masked view; the other symbols stay in full)"
    );
    let text = h.composed_text();
    for kept in [
        "\"\"\"Run once.\"\"\"",
        "return x > 0",
        "App().run(1)",
        "import os",
    ] {
        assert!(
            full.contains(kept) && text.contains(kept),
            "{kept}:\n{text}"
        );
    }
    assert!(!text.contains("return {}"), "{text}");
    // On a file not included, the mask includes it and says so.
    h.goto("src/util.c");
    h.key("x");
    let status = h.state.status.as_ref().unwrap().0.clone();
    assert!(
        status.ends_with("(the file is now included: masked, its other symbols in full)"),
        "{status}"
    );
}

/// Every key the README says does something "in the symbols pane" is a
/// key of that pane (issue 38: it named `D`, which there says "in the
/// tree pane, not the symbols"; the key is `=`).
#[test]
fn keys_the_readme_names_for_the_symbols_pane_are_bound_there() {
    use ctxcurate::tui::input::keymap::{Context, Key, Keymap};
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let map = Keymap::defaults();
    let mut named = Vec::new();
    for (at, _) in flat.match_indices("` in the symbols pane") {
        let start = flat[..at].rfind('`').map_or(0, |s| s + 1);
        let key = &flat[start..at];
        let bound = Key::parse(key)
            .ok()
            .and_then(|k| map.lookup(Context::Symbols, k));
        assert!(
            bound.is_some(),
            "README: `{key}` in the symbols pane is no key there"
        );
        named.push(key.to_string());
    }
    assert!(named.contains(&"=".to_string()), "{named:?}");
}

/// `v` … `X` counts the files it removed, not the selection (issue 38:
/// "removed 13 files" when 7 were).
#[test]
fn batch_remove_counts_what_it_removed() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src/app.py");
    h.key("space");
    h.keys("v j X");
    assert_eq!(h.state.status.as_ref().unwrap().0, "removed 1 file");
    assert!(!h.state.is_included("src/app.py"));
}

/// An open folder's preview says how to close it, a closed one how to
/// open it (issue 38: an open folder still said "l opens it").
#[test]
fn a_folders_preview_says_open_or_close_as_it_is() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.goto("src");
    let screen = h.screen();
    assert!(screen.contains("l opens it"), "{screen}");
    h.key("l");
    let screen = h.screen();
    assert!(screen.contains("h closes it"), "{screen}");
    assert!(!screen.contains("l opens it"), "{screen}");
}

/// `ctrl-k` with no messages says so and what the TUI can do, not the
/// CLI's "a summary may start a discussion" it cannot take.
#[test]
fn compacting_nothing_offers_what_the_tui_can_do() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.key("ctrl-k");
    let status = h.state.status.as_ref().unwrap().0.clone();
    assert!(
        status.starts_with("no messages since the last compaction point: nothing to compact ("),
        "{status}"
    );
    assert!(!status.contains("summary"), "{status}");
    assert!(h.state.history.undo.is_empty());
}

/// While a preset name is typed, the status line shows the keys of
/// typing, not the tree's (issue 38).
#[test]
fn typing_a_name_shows_the_keys_of_typing() {
    let p = Project::fixture();
    let mut h = open(&p, 120, 24);
    h.keys("p n");
    h.state.status = None;
    let screen = h.screen();
    let last = screen.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("typing the new preset's name · Enter confirm  Esc cancel"),
        "{last}"
    );
    assert!(!last.contains("include"), "{last}");
}

/// The picker says how its numbers are given (by name), a new or renamed
/// preset's number is said when it is saved, and `D`, which asks no
/// confirm, says in the picker that `u` undoes it (issue 38).
#[test]
fn the_picker_says_how_it_numbers_and_that_d_is_undoable() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.b]\nfiles = [\"src/app.py\"]\n\n[presets.d]\nfiles = [\"src/util.c\"]\n",
    );
    let mut h = open(&p, 100, 24);
    h.key("p");
    let screen = h.screen();
    insta::assert_snapshot!("picker_by_name", screen);
    assert!(screen.contains(" Presets · numbered by name "), "{screen}");
    assert!(screen.contains("D delete (u undoes)"), "{screen}");
    // A new preset before the others by name takes number 1 and says so.
    h.key("n");
    h.type_text("a-first");
    h.key("enter");
    assert_eq!(
        h.state.status.as_ref().map(|s| s.0.as_str()),
        Some("saved preset a-first (number 1 of 3: presets are numbered by name)")
    );
    h.key("p");
    let screen = h.screen();
    assert!(
        screen.contains("1 * a-first") && screen.contains("2   b") && screen.contains("3   d"),
        "{screen}"
    );
    h.key("esc");
    // The history names the step without the note.
    assert_eq!(
        h.state.history.undo.last().map(|s| s.label.as_str()),
        Some("saved preset a-first")
    );
}
