//! End to end in tmux (issue 38): `ctxcurate.toml` edited outside the app
//! while it runs (a comment and `model_window = 128000`), reloaded; then
//! `U`, Enter on the state before the app's changes, and `u`. The
//! setting, the unknown key and every comment stay through both, and the
//! tables keep their order.

use crate::common;

use common::Project;
use common::tmux::Tmux;

const HAND: &str = r#"# Team context: keep this line.
[project]
budget = 9000 # tokens

[presets.default]
files = [
    "src/app.py",   # the app
]
note = "unknown keys stay"
"#;

#[test]
fn a_history_jump_past_an_outside_edit_keeps_it_in_tmux() {
    let Some(tmux) = Tmux::new("keep-written") else {
        return;
    };
    let p = Project::fixture();
    p.write("ctxcurate.toml", HAND);
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    // Into src/, util.c included, then its mode cycled.
    tmux.keys(&["j", "l", "j", "j", "Space"]);
    tmux.wait("util.c included", |_| {
        p.read("ctxcurate.toml").contains("\"src/util.c\"")
    });
    tmux.keys(&["m"]);
    tmux.wait("util.c summarized", |_| {
        p.read("ctxcurate.toml").contains("view_mode = \"summary\"")
    });
    let outside = p.read("ctxcurate.toml").replace(
        "budget = 9000 # tokens\n",
        "budget = 9000 # tokens\n# model_window: the team agreed on 128k\n\
         model_window = 128000\nteam_only = \"ours\"\n",
    );
    p.write("ctxcurate.toml", &outside);
    tmux.wait("the reload", |t| {
        t.screen().contains("changed on disk: reloaded")
    });

    tmux.keys(&["U"]);
    tmux.wait("the history list", |t| {
        t.screen().contains("the oldest state kept")
    });
    tmux.keys(&["g", "Enter"]);
    let jumped = "# Team context: keep this line.\n[project]\nbudget = 9000 # tokens\n\
                  # model_window: the team agreed on 128k\nmodel_window = 128000\n\
                  team_only = \"ours\"\n\n[presets.default]\nfiles = [\n    \
                  \"src/app.py\",   # the app\n]\nnote = \"unknown keys stay\"\n";
    tmux.wait("the jump saved", |_| p.read("ctxcurate.toml") == jumped);
    assert!(tmux.screen().contains("back to: the oldest state kept"));

    tmux.keys(&["u"]);
    tmux.wait("the undo saved", |_| p.read("ctxcurate.toml") == outside);
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    assert_eq!(p.read("ctxcurate.toml"), outside, "nothing lost at exit");
}
