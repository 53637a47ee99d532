//! What changes outside the app while it runs, through the real event
//! path (`update`, the effect interpreter, the keymap): a burst of file
//! changes is applied at the changed paths only (no whole walk), with the
//! cursor and the open folders kept; an ignore file or new ignore settings
//! walk the whole project again; an open finder follows; a `preset apply`
//! from a shell (the user's state file) is taken in live, said in the
//! status, never written over at exit, and never taken in silently by a
//! save the app made before it looked; a ctxcurate.toml that stops
//! parsing is kept as it is.

use crate::common;

use common::Project;
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::project::{PersonalStore, Project as CoreProject};
use ctxcurate::core::walk;
use ctxcurate::core::watch::Changes;
use ctxcurate::tui::messages::{Effect, Event};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::update::update;

fn changes(paths: &[&str]) -> Changes {
    let mut paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    paths.sort();
    Changes {
        paths,
        overflowed: false,
    }
}

/// The walk the app holds equals a whole walk made now.
fn walk_is_current(h: &Harness) {
    let patterns = walk::WalkPatterns::from_settings(&h.state.project.settings);
    assert_eq!(
        *h.state.walk.walked,
        walk::walk_files_with(h.state.project.root.as_path(), &patterns)
    );
}

#[test]
fn a_burst_is_applied_at_the_changed_paths_with_the_cursor_and_open_folders_kept() {
    let p = Project::fixture();
    p.write("src/old/x.py", "x = 1\n");
    p.write("src/old/y.py", "y = 2\n");
    p.write(".gitignore", "*.log\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"src/**\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    h.goto("src/old/x.py");
    h.goto("src/app.py");
    let open_before = h.state.tree.open_folders();
    assert!(
        open_before.contains(&"src/old".to_string()),
        "{open_before:?}"
    );

    std::fs::remove_dir_all(p.path("src/old")).unwrap();
    p.write("src/new/deep/n.py", "def n():\n    return 'new'\n");
    p.write("src/new/skip.log", "noise\n");
    p.write("src/util.c", "int util(void) { return 42; }\n");
    let burst = changes(&["src/old", "src/new", "src/util.c"]);
    // A few paths: looked at again, not a whole walk.
    let effects = update(&mut h.state, Event::FilesChanged(burst.clone()));
    assert!(
        matches!(effects.as_slice(), [Effect::Rescan(paths)] if *paths == burst.paths),
        "{effects:?}"
    );
    h.run(effects);
    walk_is_current(&h);
    assert!(h.state.tree.files.contains("src/new/deep/n.py"));
    assert!(!h.state.tree.files.contains("src/new/skip.log"));
    assert!(
        !h.state.tree.files.is_dir("src/old"),
        "the folder left with its files"
    );
    assert_eq!(h.state.current_file(), Some("src/app.py"), "cursor kept");
    let open_now = h.state.tree.open_folders();
    assert!(open_now.contains(&"src".to_string()), "{open_now:?}");
    let text = h.composed_text();
    assert!(
        text.contains("return 'new'") && text.contains("return 42"),
        "{text}"
    );
    assert!(!text.contains("x = 1"), "{text}");
    assert!(!h.state.walk.live.in_flight);
    h.state
        .verify_gauge_sum()
        .expect("the gauge's sum as made anew");

    // An ignore file changed: what any path shows may differ, walk whole.
    p.write(".gitignore", "*.log\nsrc/new/\n");
    let effects = update(&mut h.state, Event::FilesChanged(changes(&[".gitignore"])));
    assert!(
        matches!(effects.as_slice(), [Effect::Rewalk]),
        "{effects:?}"
    );
    h.run(effects);
    walk_is_current(&h);
    assert!(!h.state.tree.files.contains("src/new/deep/n.py"));
    assert!(!h.composed_text().contains("return 'new'"));

    // An overflowed report: whole too.
    let effects = update(
        &mut h.state,
        Event::FilesChanged(Changes {
            paths: Vec::new(),
            overflowed: true,
        }),
    );
    assert!(
        matches!(effects.as_slice(), [Effect::Rewalk]),
        "{effects:?}"
    );
    h.run(effects);
    walk_is_current(&h);
}

#[test]
fn a_burst_during_a_rescan_waits_for_it_then_follows() {
    let p = Project::fixture();
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    p.write("a.py", "a = 1\n");
    let first = update(&mut h.state, Event::FilesChanged(changes(&["a.py"])));
    assert!(matches!(first.as_slice(), [Effect::Rescan(_)]), "{first:?}");
    // Another burst while the first is under way: it waits…
    p.write("b.py", "b = 1\n");
    let second = update(&mut h.state, Event::FilesChanged(changes(&["b.py"])));
    assert!(second.is_empty(), "{second:?}");
    // …and follows once the first is back.
    h.run(first);
    walk_is_current(&h);
    assert!(h.state.tree.files.contains("a.py") && h.state.tree.files.contains("b.py"));
    assert!(!h.state.walk.live.in_flight && h.state.walk.live.pending.is_empty());
}

#[test]
fn an_open_finder_lists_files_that_come_and_go() {
    let p = Project::fixture();
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    h.key("ctrl-p");
    h.type_text("zeta");
    let finder = h.state.finder.as_ref().expect("the finder is open");
    assert_eq!(finder.matched(), 0);
    p.write("src/zeta_live.py", "z = 1\n");
    h.send(Event::FilesChanged(changes(&["src/zeta_live.py"])));
    let finder = h.state.finder.as_ref().expect("still open");
    assert_eq!(finder.query(), "zeta");
    assert_eq!(finder.selected_path().as_deref(), Some("src/zeta_live.py"));
    assert!(h.screen().contains("zeta_live.py"));
    std::fs::remove_file(p.path("src/zeta_live.py")).unwrap();
    h.send(Event::FilesChanged(changes(&["src/zeta_live.py"])));
    assert_eq!(h.state.finder.as_ref().expect("open").matched(), 0);
    assert!(!h.screen().contains("zeta_live.py"));
}

#[test]
fn new_ignore_settings_in_a_reloaded_project_file_walk_the_tree_again() {
    let p = Project::fixture();
    p.write("gen/g.py", "g = 1\n");
    p.write(
        "ctxcurate.toml",
        "[project]\nignore = [\"gen/\"]\n\n[presets.default]\nfiles = [\"**/*.py\"]\n",
    );
    let mut h = Harness::open(p.root(), None, 100, 20).expect("open the TUI");
    assert!(!h.state.tree.files.contains("gen/g.py"));
    p.write(
        "ctxcurate.toml",
        "[project]\nignore = [\"docs/\"]\n\n[presets.default]\nfiles = [\"**/*.py\"]\n",
    );
    h.check_disk();
    let (status, _) = h.state.status.clone().expect("a status");
    assert!(
        status.starts_with("ctxcurate.toml changed on disk: reloaded"),
        "{status}"
    );
    walk_is_current(&h);
    assert!(h.state.tree.files.contains("gen/g.py"));
    assert!(!h.state.tree.files.contains("docs/guide.md"));
    assert!(h.composed_text().contains("g = 1"));

    // A file that no longer parses: kept as it is, said, nothing lost.
    p.write("ctxcurate.toml", "[project\nignore = [\n");
    h.check_disk();
    let (status, _) = h.state.status.clone().expect("a status");
    assert!(
        status.contains("changes are not saved until it parses"),
        "{status}"
    );
    assert!(h.state.tree.files.contains("gen/g.py"), "the state kept");
    h.goto("src/app.py");
    h.key("space");
    assert_eq!(
        p.read("ctxcurate.toml"),
        "[project\nignore = [\n",
        "never written over"
    );
}

/// The TUI on `p` with the user's state kept in `state`.
fn open_with(p: &Project, state: &std::path::Path) -> Harness {
    let mut project = CoreProject::open_at(p.root(), None).expect("open the project");
    project.use_personal(PersonalStore::at(state));
    Harness::open_project(project, 100, 20).expect("open the TUI")
}

/// What `ctxcurate preset apply NAME` does from a shell: open the
/// project with the user's state, switch, save the state.
fn apply_outside(p: &Project, state: &std::path::Path, name: &str) {
    let mut project = CoreProject::open_at(p.root(), None).expect("open the project");
    project.use_personal(PersonalStore::at(state));
    project.apply(name).expect("apply");
    project.save_personal().expect("save the state");
}

const PRESETS: &str = "[presets.a]\nfiles = [\"src/app.py\"]\n\n\
[presets.b]\nfiles = [\"src/util.c\"]\n\n\
[presets.c]\nfiles = [\"docs/guide.md\"]\n";

#[test]
fn a_preset_applied_from_a_shell_is_followed_and_never_written_over_at_exit() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", PRESETS);
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    h.key("1");
    assert_eq!(h.state.project.active_preset_name(), "a");

    apply_outside(&p, state.path(), "c");
    h.check_personal();
    assert_eq!(h.state.project.active_preset_name(), "c");
    let (status, _) = h.state.status.clone().expect("a status");
    assert_eq!(status, "preset switched to c outside the app");
    assert!(h.composed_text().contains("Read this first"));
    assert!(h.screen().contains("preset switched to c outside the app"));
    // Nothing more to take in: quiet.
    h.state.status = None;
    h.check_personal();
    assert!(h.state.status.is_none());

    // A switch from the shell the app has not looked at yet, then the
    // app ends: its exit writes the cursor, not its older preset.
    apply_outside(&p, state.path(), "b");
    h.goto("docs/guide.md");
    h.key("T");
    let chosen = h.state.project.settings.tokenizer;
    h.remember().expect("remember");
    let after = open_with(&p, state.path());
    assert_eq!(
        after.state.project.active_preset_name(),
        "b",
        "the newer choice"
    );
    assert_eq!(
        after.state.project.settings.tokenizer, chosen,
        "and the app's own"
    );
    assert_ne!(chosen, TokenizerKind::O200k, "not the default");
    assert_eq!(
        after.state.project.view.cursor.as_deref(),
        Some("docs/guide.md")
    );

    // A switch in the app after the shell's: the app's is the newer.
    apply_outside(&p, state.path(), "c");
    let mut h = open_with(&p, state.path());
    apply_outside(&p, state.path(), "a");
    h.key("2");
    h.remember().expect("remember");
    let after = open_with(&p, state.path());
    assert_eq!(after.state.project.active_preset_name(), "b");
    assert_eq!(
        p.read("ctxcurate.toml"),
        PRESETS,
        "the shared file untouched"
    );
}

/// The review's finding: a preset applied from a shell, then edits in
/// the app before its idle look at the state file. Their save wrote both
/// but switched the app silently: no status, no undo step, the panes of
/// the old preset. Now a save switches nothing; the idle look switches,
/// says so, composes again and is one step of the history; the user's
/// edits stay theirs.
#[test]
fn an_edit_saved_before_the_idle_look_never_switches_the_preset_silently() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", PRESETS);
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    h.key("1");
    apply_outside(&p, state.path(), "c");

    // A toggle (the user's own layer) and an inclusion (the shared file),
    // each saved at once.
    h.key("T");
    let chosen = h.state.project.settings.tokenizer;
    assert_ne!(chosen, TokenizerKind::O200k, "not the default");
    h.goto("src/util.c");
    h.key("space");
    assert_eq!(
        h.state.project.active_preset_name(),
        "a",
        "a save switches nothing"
    );
    let text = h.composed_text();
    assert!(text.contains("int add(int a, int b)"), "{text}");
    assert!(!text.contains("Read this first"), "{text}");
    let saved = PersonalStore::at(state.path()).load(p.root()).state.project;
    assert_eq!(
        saved.get_str("active_preset"),
        Some("c"),
        "the shell's kept"
    );
    assert_eq!(
        saved.get("tokenizer"),
        h.state.project.file.personal.get("tokenizer"),
        "the app's written"
    );
    assert!(saved.get("tokenizer").is_some());

    h.check_personal();
    let (status, _) = h.state.status.clone().expect("a status");
    assert_eq!(status, "preset switched to c outside the app");
    assert!(h.screen().contains("preset switched to c outside the app"));
    assert_eq!(h.state.project.active_preset_name(), "c");
    assert_eq!(h.state.project.settings.tokenizer, chosen, "the app's kept");
    assert!(h.composed_text().contains("Read this first"));
    h.state
        .verify_gauge_sum()
        .expect("the gauge's sum as made anew");

    // One step back: the app's preset again, with the app's inclusion,
    // and that is saved.
    h.key("u");
    assert_eq!(h.state.project.active_preset_name(), "a");
    assert!(h.composed_text().contains("int add(int a, int b)"));
    let saved = PersonalStore::at(state.path()).load(p.root()).state.project;
    assert_eq!(saved.get_str("active_preset"), Some("a"));
    assert!(p.read("ctxcurate.toml").contains("src/util.c"));
}

/// Bad input: a name that is not UTF-8 is walked whole and left out (its
/// lossy name could not be read back and would name another file); a state
/// file broken while the app runs is no change, and the next save sets it
/// aside rather than write over it.
#[test]
fn odd_names_and_a_broken_state_file_lose_nothing() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::fixture();
    p.write("ctxcurate.toml", PRESETS);
    let state = tempfile::tempdir().unwrap();
    let mut h = open_with(&p, state.path());
    let odd = std::ffi::OsStr::from_bytes(b"odd_\xff.py");
    std::fs::write(p.root().join(odd), "o = 1\n").unwrap();
    let lossy = odd.to_string_lossy().into_owned();
    let effects = update(&mut h.state, Event::FilesChanged(changes(&[&lossy])));
    assert!(
        matches!(effects.as_slice(), [Effect::Rewalk]),
        "{effects:?}"
    );
    h.run(effects);
    walk_is_current(&h);
    assert!(!h.state.tree.files.contains(&lossy));
    // The whole walk counts it in its notes, as `build` says it.
    assert!(
        h.state
            .walk
            .notes
            .iter()
            .any(|n| n.contains(r"odd_\xff.py") && n.contains("UTF-8")),
        "{:?}",
        h.state.walk.notes
    );

    h.key("1");
    let store = PersonalStore::at(state.path());
    let file = store.path(p.root());
    std::fs::write(&file, "[project\nactive_preset = ").unwrap();
    h.state.status = None;
    h.check_personal();
    assert!(h.state.status.is_none(), "a broken file is no change");
    assert_eq!(h.state.project.active_preset_name(), "a");
    h.key("2");
    let aside = file.with_extension("toml.bad");
    assert_eq!(
        std::fs::read_to_string(&aside).unwrap(),
        "[project\nactive_preset = ",
        "set aside, not written over"
    );
    assert_eq!(
        store.load(p.root()).state.project.get_str("active_preset"),
        Some("b")
    );
}
