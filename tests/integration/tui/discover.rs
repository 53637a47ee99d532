//! Discovery in the TUI, driven by keys through the real keymap: `*` marks
//! targets, `i` packs around them and shows the proposals in the tree with
//! the packed total on the gauge, `I` accepts them as one undoable step,
//! `o` discards them.

use crate::common;

use common::Project;
use ctxcurate::core::model::{ProjectFile, ViewMode};
use ctxcurate::tui::run::harness::Harness;

fn project() -> Project {
    let p = Project::empty();
    p.write("app.py", "from pkg.core import App\n\nApp().run()\n");
    p.write("pkg/__init__.py", "");
    p.write(
        "pkg/core.py",
        "from . import util\n\nclass App:\n    def run(self):\n        return util.helper()\n",
    );
    p.write(
        "pkg/util.py",
        "from .deep import x\n\ndef helper():\n    return 1\n",
    );
    p.write("pkg/deep.py", "x = 1\n");
    p.write("other.py", "import os\n");
    p
}

fn saved(p: &Project) -> ProjectFile {
    toml::from_str(&p.read("ctxcurate.toml")).expect("saved file parses")
}

fn files(p: &Project) -> Vec<(String, ViewMode)> {
    saved(p).presets["default"]
        .files
        .iter()
        .map(|f| (f.path.clone(), f.view_mode))
        .collect()
}

#[test]
fn mark_discover_accept_undo_discard() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    assert!(
        h.screen()
            .contains("no targets: mark the files you work on with *"),
        "{}",
        h.screen()
    );
    h.goto("app.py");
    h.keys("*");
    assert_eq!(saved(&p).presets["default"].targets, ["app.py"]);
    h.keys("i");
    let proposed: Vec<(String, ViewMode)> = h
        .state
        .discovery
        .as_ref()
        .expect("a discovery")
        .proposed
        .clone();
    assert_eq!(
        proposed,
        [
            ("app.py".to_string(), ViewMode::Full),
            // The package `from pkg.core import …` runs on the way.
            ("pkg/__init__.py".to_string(), ViewMode::Full),
            ("pkg/core.py".to_string(), ViewMode::Full),
            ("pkg/deep.py".to_string(), ViewMode::Skeleton),
            ("pkg/util.py".to_string(), ViewMode::Skeleton),
        ]
    );
    h.keys("g l");
    insta::assert_snapshot!("discovery_proposed", h.screen());

    // Accept: one step adds every proposal in its packed mode.
    h.keys("I");
    assert!(h.state.discovery.is_none());
    assert_eq!(files(&p), proposed);
    h.keys("u");
    assert!(files(&p).is_empty(), "one undo takes them all back");
    assert_eq!(
        saved(&p).presets["default"].targets,
        ["app.py"],
        "targets stay"
    );

    // Discard: nothing changes.
    h.keys("i o");
    assert!(h.state.discovery.is_none());
    assert!(files(&p).is_empty());
    assert!(
        h.screen().contains("discarded 5 proposed files"),
        "{}",
        h.screen()
    );

    // `*` again unmarks.
    h.goto("app.py");
    h.keys("*");
    assert!(saved(&p).presets["default"].targets.is_empty());
}

#[test]
fn the_gauge_shows_the_packed_total() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 90\n\n[presets.default]\ntargets = [\"app.py\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    let packed = h
        .state
        .discovery
        .as_ref()
        .expect("a discovery")
        .stats
        .tokens;
    assert!(packed > 0 && packed <= 90, "{packed}");
    let screen = h.screen();
    assert!(
        screen.contains(&format!("packed {packed} / 90 tokens")),
        "{screen}"
    );
}

#[test]
fn accepting_applies_what_the_pack_did_to_the_preset_and_edits_drop_proposals() {
    let p = project();
    let big: String = (0..60)
        .map(|i| {
            format!("def function_number_{i}(alpha, beta):\n    return alpha * beta + {i}\n\n")
        })
        .collect();
    p.write("other.py", &big);
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 400\n\n[presets.default]\ntargets = [\"app.py\"]\n\n\
         [[presets.default.files]]\npath = \"other.py\"\n",
    );
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    let d = h.state.discovery.clone().expect("a discovery");
    assert_eq!(d.changed.len(), 1, "{d:?}");
    assert_eq!(d.changed[0].0, "other.py");
    let packed_mode = d.changed[0].1;
    assert_ne!(packed_mode, Some(ViewMode::Full));

    // An edit while proposals are shown drops them: they were packed for
    // the preset as it was.
    h.goto("app.py");
    h.keys("space");
    assert!(h.state.discovery.is_none());
    assert!(
        h.screen().contains("discovery proposals dropped"),
        "{}",
        h.screen()
    );
    h.keys("u i I");
    let saved = saved(&p);
    let other = saved.presets["default"]
        .files
        .iter()
        .find(|f| f.path == "other.py")
        .expect("other.py stays");
    match packed_mode {
        Some(mode) => assert_eq!(other.view_mode, mode),
        None => assert!(!other.auto_aggregate),
    }
    assert!(
        h.screen().contains("of your files change mode"),
        "{}",
        h.screen()
    );
}

#[test]
fn a_target_that_does_not_fit_is_an_error_and_nothing_is_proposed() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 5\n\n[presets.default]\ntargets = [\"app.py\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 200, 16).expect("open");
    h.keys("i");
    assert!(h.state.discovery.is_none(), "no pack without its target");
    let (text, level) = h.state.status.clone().expect("a status");
    assert_eq!(level, ctxcurate::tui::state::Level::Error, "{text}");
    assert!(
        text.starts_with("discovery: target app.py does not fit the budget: it takes "),
        "{text}"
    );
    assert!(text.contains("the budget is 5"), "{text}");
}

/// The status says when imports did not resolve, with an example, so a
/// layout ctxcurate misreads is visible.
#[test]
fn the_status_reports_unresolved_imports() {
    let p = project();
    p.write("other.py", "from pkg.gone import thing\n");
    let mut h = Harness::open(p.root(), None, 200, 16).expect("open");
    h.goto("app.py");
    h.keys("* i");
    let screen = h.screen();
    assert!(
        screen.contains("1 import did not resolve to a project file, e.g. `from pkg.gone import thing` in other.py"),
        "{screen}"
    );
}

/// One truth (docs/ARCHITECTURE.md, "Discovery"): while proposals are
/// shown, the preview, the gauge, `y` and `w` all hold the packed text,
/// which is what `ctxcurate build` packs for the same preset; after `I`,
/// the preset alone composes (with `ctxcurate build`) to the same files and
/// the same repo map, and the preview, the gauge, `y` and `w` hold that.
#[test]
fn preview_gauge_yank_and_write_hold_what_build_gives_before_and_after_accept() {
    let p = project();
    // Files the target does not import, for the repo map to list.
    for i in 0..4 {
        p.write(
            &format!("tools/tool{i}.py"),
            &format!("def tool_{i}(x):\n    return x + {i}\n"),
        );
    }
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 2000\nrepo_map_budget = 300\n\n[presets.default]\ntargets = [\"app.py\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    let written = |p: &Project, n: usize| p.read(&format!(".ctxcurate/out/context_{n:03}.md"));
    let count = |text: &str| {
        ctxcurate::core::tokens::count(ctxcurate::core::model::TokenizerKind::O200k, text)
    };

    // Proposals shown: one packed text everywhere.
    h.keys("i");
    let packed = p.ok(&["build", "--budget", "2000"]);
    assert!(
        packed.contains("## Repo Map"),
        "the pack has a map:\n{packed}"
    );
    assert!(packed.contains("tools/tool0.py"), "{packed}");
    assert_eq!(h.composed_text(), packed, "preview");
    let gauge = h
        .state
        .discovery
        .as_ref()
        .expect("a discovery")
        .stats
        .tokens;
    assert_eq!(gauge, count(&packed), "gauge");
    assert!(h.screen().contains(&format!("packed {gauge} / 2,000")));
    h.keys("y w");
    assert_eq!(
        h.copied.last().map(String::as_str),
        Some(packed.as_str()),
        "y"
    );
    assert_eq!(written(&p, 1), packed, "w");

    // Accepted: the preset keeps the files, their modes and the map size,
    // and composes alone to the same files and the same map.
    h.keys("I");
    let preset = &saved(&p).presets["default"];
    assert!(preset.repo_map > 0, "the map size is kept");
    let plain = p.ok(&["build"]);
    assert_eq!(h.composed_text(), plain, "preview");
    h.keys("y w");
    assert_eq!(
        h.copied.last().map(String::as_str),
        Some(plain.as_str()),
        "y"
    );
    assert_eq!(written(&p, 2), plain, "w");
    assert_eq!(h.state.composition.gauge.used, count(&plain), "gauge");
    let map = |text: &str| text[text.find("## Repo Map").expect("a map")..].to_string();
    assert_eq!(map(&plain), map(&packed), "the same map");
    assert_eq!(
        headings(&plain),
        headings(&packed),
        "the same files and modes"
    );
}

/// A file the preset includes through a glob that the pack reaches by an
/// import and reduces or drops: after `I` the preset composes to the
/// pack's files within the budget (found on pip: `req/**` came back in
/// full and the accepted preset was over its budget).
#[test]
fn accepting_keeps_what_the_pack_did_to_globbed_files_it_reached_by_imports() {
    let p = project();
    let big: String = (0..80)
        .map(|i| format!("def helper_{i}(alpha, beta):\n    return alpha * beta + {i}\n\n"))
        .collect();
    p.write(
        "pkg/util.py",
        &format!("from .deep import x\n\ndef helper():\n    return 1\n\n{big}"),
    );
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 500\nrepo_map_budget = 0\n\n[presets.default]\ntargets = [\"app.py\"]\n\n\
         [[presets.default.files]]\npath = \"pkg/**\"\n",
    );
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    let packed = h.composed_text();
    let d = h.state.discovery.clone().expect("a discovery");
    assert!(
        d.changed.iter().any(|(path, _)| path == "pkg/util.py"),
        "the pack reduced or dropped util.py: {d:?}"
    );
    h.keys("I");
    let plain = p.ok(&["build"]);
    assert_eq!(
        headings(&plain),
        headings(&packed),
        "{plain}\n---\n{packed}"
    );
    assert!(
        h.state.composition.gauge.used <= 500,
        "{}",
        h.state.composition.gauge.used
    );
}

/// The `### ` headings of a composed text (file and mode), sorted.
fn headings(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("### "))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// The pack behind `i` gates the preset with the project's own walk
/// patterns, as `build --pack` does: a target in a folder the project
/// un-ignores (`dist/`, a built-in ignore) is not held for consent, even
/// when it appeared after the tree was walked (the consent check then
/// walks towards it itself, with the project's `unignore`).
#[test]
fn discovery_keeps_a_target_the_project_unignores() {
    let p = project();
    p.write(
        "ctxcurate.toml",
        "[project]\nunignore = [\"dist/\"]\n\n[presets.default]\ntargets = [\"dist/gen.py\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    // Written after the walk: the tree does not list it yet.
    p.write("dist/gen.py", "from pkg.core import App\n");
    h.keys("i");
    let proposed: Vec<String> = h
        .state
        .discovery
        .as_ref()
        .expect("a discovery")
        .proposed
        .iter()
        .map(|(path, _)| path.clone())
        .collect();
    assert!(
        proposed.iter().any(|f| f == "dist/gen.py"),
        "{proposed:?}\n{}",
        h.screen()
    );
}
