//! Discovery in the TUI, driven by keys through the real keymap: `*` marks
//! targets, `i` packs around them and shows the proposals in the tree with
//! the packed total on the gauge, `I` accepts them as one undoable step,
//! `o` discards them.

use crate::common;

use common::Project;
use common::saved;
use ctxcurate::core::model::ViewMode;
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

fn files(p: &Project) -> Vec<(String, ViewMode)> {
    saved(p).presets["default"]
        .files
        .iter()
        .map(|f| (f.path.clone(), f.view_mode))
        .collect()
}

/// A task alone is enough: `i` asks for it, Enter saves it as the
/// preset's task and ranks every file for it; the proposal holds the file
/// the task is about, and `I` accepts it.
#[test]
fn a_task_typed_at_i_discovers_without_targets() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    h.keys("i");
    h.type_text("the helper should return two");
    h.keys("enter");
    assert_eq!(
        saved(&p).presets["default"].task,
        "the helper should return two"
    );
    let discovery = h.state.discovery.as_ref().expect("a discovery");
    let proposed = &discovery.proposed;
    assert!(
        proposed.contains(&("pkg/util.py".to_string(), ViewMode::Full)),
        "{proposed:?}"
    );
    assert!(
        !proposed.iter().any(|(p, _)| p == "other.py"),
        "{proposed:?}"
    );
    // The best file leads the pack, with its reasons, and the status
    // says why it was picked.
    let (best, why) = discovery.reasons.first().expect("reasons");
    assert_eq!(best, "pkg/util.py");
    assert_eq!(why[0], "2 task words: `helper`, `return`", "{why:?}");
    let status = h
        .state
        .status
        .as_ref()
        .map(|s| s.0.clone())
        .unwrap_or_default();
    assert!(
        status.contains("best for the task: pkg/util.py (2 task words: `helper`, `return`; "),
        "{status}"
    );
    h.keys("I");
    assert!(files(&p).iter().any(|(f, _)| f == "pkg/util.py"));
    // With the task saved, `i` discovers at once (no prompt).
    h.keys("i");
    assert!(h.state.overlay.is_none());
    assert!(h.state.discovery.is_some());
}

/// Each file the discovery proposes for the task says why in the preview,
/// over its block in the packed composition (not only the best one in the
/// status line); a file it did not pick says nothing of the kind.
#[test]
fn the_preview_of_a_proposed_file_says_why_it_was_picked() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 240, 24).expect("open");
    h.keys("i");
    h.type_text("the helper should return two");
    h.keys("enter");
    let why = h
        .state
        .discovery
        .as_ref()
        .and_then(|d| d.reasons.iter().find(|(p, _)| p == "pkg/core.py").cloned())
        .map(|(_, why)| why)
        .expect("pkg/core.py proposed with reasons");
    assert_eq!(
        why,
        [
            "2 task words: `helper`, `return`",
            "imports `pkg/util.py`",
            "score 1.55"
        ]
    );
    h.goto("pkg/core.py");
    let screen = h.screen();
    assert!(
        screen.contains("picked for the task · 2 task words: `helper`, `return` · imports `pkg/util.py` · score 1.55"),
        "{screen}"
    );
    h.goto("pkg/util.py");
    let screen = h.screen();
    assert!(
        screen.contains(
            "picked for the task · 2 task words: `helper`, `return` · imported by `pkg/core.py`"
        ),
        "{screen}"
    );
    h.goto("other.py");
    assert!(
        !h.screen().contains("picked for the task"),
        "{}",
        h.screen()
    );
}

/// A file the discovery brought in for the task that holds a likely
/// secret is held back and named in the status, as `build --task` does:
/// it is not proposed, and the packed text never holds the secret.
#[test]
fn a_discovered_file_with_a_secret_is_held_and_named() {
    let p = project();
    p.write(
        "pkg/helper_settings.py",
        "HELPER_TOKEN = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB'\n\ndef helper_two():\n    return 2\n",
    );
    let mut h = Harness::open(p.root(), None, 240, 24).expect("open");
    h.keys("i");
    h.type_text("the helper should return two");
    h.keys("enter");
    let discovery = h.state.discovery.as_ref().expect("a discovery");
    assert!(
        discovery
            .proposed
            .contains(&("pkg/util.py".to_string(), ViewMode::Full)),
        "{:?}",
        discovery.proposed
    );
    assert!(
        !discovery
            .proposed
            .iter()
            .any(|(p, _)| p == "pkg/helper_settings.py"),
        "{:?}",
        discovery.proposed
    );
    assert!(
        !discovery.composition.text.contains("ghp_"),
        "{}",
        discovery.composition.text
    );
    let status = h
        .state
        .status
        .as_ref()
        .map(|s| s.0.clone())
        .unwrap_or_default();
    assert!(
        status.contains("held 1 discovered file: likely secret at pkg/helper_settings.py:1"),
        "{status}"
    );
}

#[test]
fn mark_discover_accept_undo_discard() {
    let p = project();
    let mut h = Harness::open(p.root(), None, 110, 16).expect("open");
    // With no target and no task, `i` asks for the task; Esc leaves it.
    h.keys("i");
    assert!(
        h.screen()
            .contains("what is your task? (or Esc, then mark the files you work on with *)"),
        "{}",
        h.screen()
    );
    h.keys("esc");
    assert!(h.state.overlay.is_none());
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
    // The status names the file and what became of it.
    let after = packed_mode.map_or("listed only".to_string(), |m| m.to_string());
    assert!(
        h.screen()
            .contains(&format!("to fit the budget: other.py full → {after} (undo")),
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

/// A resolver config read in part (issue 37: caps with a note): the
/// status says what the bound cut.
#[test]
fn the_status_says_what_a_resolver_cap_cut() {
    let p = Project::empty();
    let targets: Vec<String> = (0..40).map(|i| format!("\"t{i}/*\"")).collect();
    p.write(
        "tsconfig.json",
        &format!(
            "{{\"compilerOptions\":{{\"baseUrl\":\".\",\"paths\":{{\"*\":[{}]}}}}}}",
            targets.join(",")
        ),
    );
    p.write(
        "app.ts",
        "import { x } from \"lib\";\nexport const a = x;\n",
    );
    p.write("t0/lib.ts", "export const x = 1;\n");
    let mut h = Harness::open(p.root(), None, 400, 16).expect("open");
    h.goto("app.ts");
    h.keys("* i");
    let screen = h.screen();
    assert!(
        screen.contains(
            "tsconfig.json: `paths` maps `*` to 40 targets; only the first 16 of a pattern are tried"
        ),
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
    let mut v: Vec<String> = common::headings(text)
        .into_iter()
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

/// A target the user masked (its API, one body in full) and a file they
/// pinned with `force_full`: accepting a roomy pack keeps both exactly as
/// they were — mode, masks, pin — and the status names no change.
#[test]
fn accepting_keeps_the_users_own_view_of_the_files_they_curated() {
    let p = project();
    p.write(
        "app.py",
        "from pkg.core import App\n\nclass Table:\n    def render(self):\n        return App().run()\n\n    \
         def measure(self):\n        return 1\n",
    );
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 5000\n\n[presets.default]\ntargets = [\"app.py\"]\n\n\
         [[presets.default.files]]\npath = \"app.py\"\nview_mode = \"masked\"\n\
         ast_mask = { \"Table.render\" = \"def\" }\n\n\
         [[presets.default.files]]\npath = \"other.py\"\nview_mode = \"skeleton\"\nforce_full = true\n",
    );
    let before = saved(&p).presets["default"].files.clone();
    let mut h = Harness::open(p.root(), None, 140, 16).expect("open");
    h.keys("i");
    let d = h.state.discovery.clone().expect("a discovery");
    assert!(d.changed.is_empty(), "{:?}", d.changed);
    h.keys("I");
    let after = saved(&p).presets["default"].files.clone();
    let curated = |files: &[ctxcurate::core::model::FileItem]| {
        files
            .iter()
            .filter(|f| f.path == "app.py" || f.path == "other.py")
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(curated(&after), curated(&before));
    let screen = h.screen();
    assert!(
        screen.contains("added 4 discovered files (undo with u)"),
        "{screen}"
    );
}

/// Five files of the user's that the pack must reduce or drop: the status
/// names the first three with their modes before and after, and counts
/// the rest.
#[test]
fn the_accept_status_names_the_files_whose_mode_changed() {
    let p = project();
    let big = |name: &str| -> String {
        (0..60)
            .map(|i| format!("def {name}_{i}(alpha, beta):\n    return alpha * beta + {i}\n\n"))
            .collect()
    };
    let mut toml = "[project]\nbudget = 700\nrepo_map_budget = 0\n\n[presets.default]\n\
                    targets = [\"app.py\"]\n"
        .to_string();
    for i in 0..5 {
        p.write(&format!("big{i}.py"), &big(&format!("big{i}")));
        toml.push_str(&format!(
            "\n[[presets.default.files]]\npath = \"big{i}.py\"\n"
        ));
    }
    p.write("ctxcurate.toml", &toml);
    let mut h = Harness::open(p.root(), None, 250, 16).expect("open");
    h.keys("i");
    let d = h.state.discovery.clone().expect("a discovery");
    assert_eq!(d.changed.len(), 5, "{:?}", d.changed);
    h.keys("I");
    let (status, _) = h.state.status.clone().expect("a status");
    let label = |(path, mode): &(String, Option<ViewMode>)| {
        let after = mode.map_or("listed only".to_string(), |m| m.to_string());
        format!("{path} full → {after}")
    };
    let named: Vec<String> = d.changed[..3].iter().map(label).collect();
    assert_eq!(
        status,
        format!(
            "added 5 discovered files; to fit the budget: {} and 2 more of your files change mode (undo with u)",
            named.join(", ")
        )
    );
}

/// A project whose target imports more than the budget holds, even as
/// outlines: the pack drops some imports for room.
fn crowded() -> Project {
    let p = Project::empty();
    let body = |name: &str| -> String {
        (0..40)
            .map(|i| format!("def {name}_{i}(alpha, beta):\n    return alpha * beta + {i}\n\n"))
            .collect()
    };
    let mut app = String::new();
    for i in 0..10 {
        app.push_str(&format!("from mod{i} import mod{i}_0\n"));
        p.write(&format!("mod{i}.py"), &body(&format!("mod{i}")));
    }
    p.write("app.py", &app);
    p.write(
        "ctxcurate.toml",
        "[project]\nbudget = 1500\nrepo_map_budget = 0\n\n[presets.default]\ntargets = [\"app.py\"]\n",
    );
    p
}

/// `b` during a proposal: the packed files with the counts of the packed
/// text and the gauge's total (not the preset's "no files included"), and
/// under them what the pack left out and why.
#[test]
fn the_tokens_overlay_shows_the_packed_composition_and_what_was_left_out() {
    let p = crowded();
    let mut h = Harness::open(p.root(), None, 120, 30).expect("open");
    h.keys("i");
    let d = h.state.discovery.clone().expect("a discovery");
    assert!(d.stats.dropped_files.len() > 3, "{:?}", d.stats);
    // The status names the first files dropped for room.
    let (status, _) = h.state.status.clone().expect("a status");
    let named = d.stats.dropped_files[..3].join(", ");
    let more = d.stats.dropped_files.len() - 3;
    assert!(
        status.contains(&format!(
            "· left out for room: {named} and {more} more (b lists them)"
        )),
        "{status}"
    );
    // The numbers add up (issue 38: "9 files to add (18 discovered, 12
    // dropped)"): the files to add (the target among them) are the
    // packed ones, and packed plus dropped are the candidates.
    let s = &d.stats;
    assert_eq!(s.included + s.dropped, s.candidates, "{s:?}");
    assert_eq!(d.proposed.len(), s.included, "{:?}", d.proposed);
    assert!(
        status.starts_with(&format!(
            "discovery: {} files to add (packed {} of {}, {} dropped), ",
            d.proposed.len(),
            s.included,
            s.candidates,
            s.dropped
        )),
        "{status}"
    );
    h.keys("b");
    let map = ctxcurate::tui::tokens::token_map(&h.state);
    assert_eq!(map.total, d.stats.tokens, "the gauge's total");
    let mut packed: Vec<&str> = d
        .composition
        .files
        .iter()
        .filter(|f| f.aggregate)
        .map(|f| f.path.as_str())
        .collect();
    packed.sort();
    let mut rows: Vec<&str> = map.files.iter().map(|f| f.path.as_str()).collect();
    rows.sort();
    assert_eq!(rows, packed);
    let left = ctxcurate::tui::tokens::left_out(&h.state);
    assert_eq!(
        left.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        d.stats
            .dropped_files
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    let screen = h.screen();
    assert!(
        screen.contains(&format!("Left out by the pack ({}):", left.len())),
        "{screen}"
    );
    assert!(screen.contains("· no room in the budget"), "{screen}");
    insta::assert_snapshot!("tokens_overlay_during_discovery", screen);
    // Its mode keys do not edit the preset under a packed table.
    h.keys("m");
    assert!(h.state.discovery.is_some());
    assert!(
        h.screen()
            .contains("this is the packed discovery: accept it (I) or discard it (o)"),
        "{}",
        h.screen()
    );
    // After a discard the overlay is the preset's again.
    h.keys("esc o b");
    assert!(h.screen().contains("(no files included)"), "{}", h.screen());
}

/// A file the user curated (its own skeleton entry, pinned in full) that
/// the pack must reduce or drop to fit: accepting keeps the entry exactly
/// as it was and the status says so, with what the pack had made of it.
#[test]
fn accepting_keeps_a_curated_file_the_pack_reduced_and_says_so() {
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
         [[presets.default.files]]\npath = \"other.py\"\nview_mode = \"masked\"\n\
         ast_mask = { \"function_number_3\" = \"def\" }\n",
    );
    let before = saved(&p).presets["default"].files.clone();
    let mut h = Harness::open(p.root(), None, 200, 16).expect("open");
    h.keys("i");
    let d = h.state.discovery.clone().expect("a discovery");
    assert!(d.changed.is_empty(), "{:?}", d.changed);
    assert_eq!(d.kept.len(), 1, "{:?}", d.kept);
    let (path, packed) = d.kept[0].clone();
    assert_eq!(path, "other.py");
    assert_ne!(packed, Some(ViewMode::Masked));
    let (status, _) = h.state.status.clone().expect("a status");
    assert!(
        status.contains("· accepting keeps your own view of 1 curated file the pack reduced"),
        "{status}"
    );
    h.keys("I");
    let after = saved(&p).presets["default"].files.clone();
    let other = |files: &[ctxcurate::core::model::FileItem]| {
        files.iter().find(|f| f.path == "other.py").cloned()
    };
    assert_eq!(other(&after), other(&before));
    let packed = packed.map_or("left out".to_string(), |m| m.to_string());
    let (status, _) = h.state.status.clone().expect("a status");
    assert_eq!(
        status,
        format!(
            "added 5 discovered files; kept your own view of other.py (packed: {packed}) (undo with u)"
        )
    );
}
