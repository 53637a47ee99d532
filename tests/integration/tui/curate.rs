//! The TUI's view of a curation that must survive change: files whose
//! summary is in the disk cache are marked (≡), files with stale slices
//! are marked (stale×N) and the stale slice shows as a note, never as
//! lines; `C` clears the summary cache. Driven through the real keymap.

use crate::common;

use common::Project;
use ctxcurate::tui::run::harness::Harness;

#[test]
fn cached_summaries_and_stale_slices_are_marked_and_c_clears() {
    let p = Project::fixture();
    let util = common::UTIL_C;
    p.write(
        "ctxcurate.toml",
        r#"
[[presets.default.files]]
path = "src/app.py"
view_mode = "summary"

[[presets.default.files]]
path = "src/util.c"
view_mode = "custom"
"#,
    );
    // A slice of `add` made the way the `slice` command makes it.
    p.ok(&["slice", "src/util.c", "9", "11", "--tag", "add"]);
    let mut h = Harness::open(p.root(), None, 120, 20).expect("open the TUI");
    h.keys("j l");
    assert_eq!(h.cache.summarizer().computed(), 1);
    assert!(
        h.composed_text()
            .contains("--- slice [add], lines 9-11 ---")
    );

    // `add` is deleted outside the TUI; a rescan finds the slice stale.
    let gone = util.replace("int add(int a, int b) {\n    return a + b;\n}\n", "");
    p.write("src/util.c", &gone);
    h.keys("R l");
    let text = h.composed_text();
    assert!(
        text.contains("> note: stale slice [add] (was lines 9-11)"),
        "{text}"
    );
    assert!(
        !text.contains("return a + b"),
        "a stale slice shows no lines"
    );
    let screen = h.screen();
    insta::assert_snapshot!("cached_and_stale_marks", screen);
    assert!(
        screen.contains("app.py") && screen.contains(" ≡"),
        "{screen}"
    );
    assert!(screen.contains("stale×1"), "{screen}");

    // C: the disk cache is emptied and the summary made again.
    let before = h.cache.summarizer().computed();
    h.keys("C");
    assert_eq!(h.cache.summarizer().computed(), before + 1);
    let status = h.state.status.clone().map(|(s, _)| s).unwrap_or_default();
    // The summary plus the token counts and parsed views of the session.
    assert!(
        status.starts_with("disk cache cleared (")
            && status.ends_with(" entries): summaries, views and counts are made again"),
        "{status}"
    );
}
