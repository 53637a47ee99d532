//! git never holds up the TUI's composing: with git stuck (a FIFO where
//! `.git/index` should be, which git opens and waits on), `Ctrl-g` asks
//! it, and Space and `y` still compose and copy — end to end, the binary
//! in tmux, the copy landing in tmux's paste buffer (OSC 52).

use crate::common;

use common::Project;
use common::git::{Fifo, init_and_commit};
use common::tmux::Tmux;

#[test]
fn a_stuck_git_never_holds_up_compose_or_yank() {
    let Some(tmux) = Tmux::new("stuck-git") else {
        return;
    };
    let p = Project::fixture();
    init_and_commit(&p, p.root(), "one");
    std::fs::remove_file(p.path(".git/index")).expect("rm index");
    let fifo = Fifo::make(p.path(".git/index"));

    let global = p.config_home.path().join("config.toml");
    std::fs::write(&global, "[project]\nclipboard = \"osc52\"\n").expect("write");
    let global = global.display().to_string();
    let home = p.config_home.path().display().to_string();
    let env = [
        ("CTXCURATE_CONFIG", global.as_str()),
        ("HOME", home.as_str()),
        ("GIT_CONFIG_NOSYSTEM", "1"),
        // git's own deadline far away: only running apart keeps `y` going.
        ("CTXCURATE_GIT_TIMEOUT", "600"),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["C-g"]);
    tmux.wait("git asked", |t| {
        t.screen().contains("asking git what changed")
    });
    // Into src/, include app.py, copy.
    tmux.keys(&["j", "l", "j", "Space"]);
    tmux.wait("app.py included", |t| t.screen().contains("● app.py"));
    tmux.keys(&["y"]);
    tmux.wait("the copy", |t| {
        t.screen().contains("copied context (1 file)")
    });
    let buffer = tmux.buffer().expect("a paste buffer after y");
    assert!(buffer.contains("### src/app.py"), "{buffer}");
    drop(fifo);
    drop(tmux);
}
