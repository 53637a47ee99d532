//! In a real tmux whose `set-clipboard` is `external` (tmux drops OSC 52
//! from programs), `y` must not claim a copy: it says what tmux does and
//! how to fix it (the unit tests check the whole text), and tmux's
//! paste buffer stays empty.

use crate::common;

use common::Project;
use common::tmux::Tmux;

#[test]
fn yank_in_tmux_with_set_clipboard_external_says_so_and_claims_nothing() {
    let Some(tmux) = Tmux::new("clip-external") else {
        return;
    };
    let set = tmux.cmd(&["set", "-g", "set-clipboard", "external"]);
    assert!(set.status.success());
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let global = p.config_home.path().join("config.toml");
    std::fs::write(&global, "[project]\nclipboard = \"osc52\"\n").unwrap();
    let global = global.display().to_string();
    let env = [
        ("CTXCURATE_CONFIG", global.as_str()),
        ("HOME", p.config_home.path().to_str().unwrap()),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["y"]);
    tmux.wait("the copy's outcome", |t| t.screen().contains("copy failed"));
    let screen = tmux.screen();
    assert!(
        screen.contains("tmux's set-clipboard is external"),
        "{screen}"
    );
    assert!(!screen.contains("copied context"), "{screen}");
    assert_eq!(tmux.buffer(), None, "nothing reached tmux");
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}
