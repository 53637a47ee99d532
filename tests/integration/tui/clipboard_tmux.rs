//! In a real tmux whose `set-clipboard` is `external` (tmux drops OSC 52
//! from programs), `y` must not claim a copy: it says what tmux does and
//! how to fix it (the unit tests check the whole text), and tmux's
//! paste buffer stays empty. With `set-clipboard on` and a copy over the
//! OSC 52 cap, the confirmed offer writes the output file and lands its
//! path in tmux's paste buffer.

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

#[test]
fn a_copy_over_the_cap_lands_the_written_files_path_in_tmux() {
    let Some(tmux) = Tmux::new("clip-cap") else {
        return;
    };
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let global = p.config_home.path().join("config.toml");
    // Every terminal's cap, whichever the environment names.
    std::fs::write(
        &global,
        "[project]\nclipboard = \"osc52\"\n\
         osc52_limits = { other = 100, kitty = 100, tabby = 100, termux = 100 }\n",
    )
    .unwrap();
    let global = global.display().to_string();
    let env = [
        ("CTXCURATE_CONFIG", global.as_str()),
        ("HOME", p.config_home.path().to_str().unwrap()),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["y"]);
    tmux.wait("the offer", |t| {
        t.screen().contains("and copy that path instead?")
    });
    assert_eq!(tmux.buffer(), None, "nothing copied before the answer");
    // A confirm within a moment of the question is not taken as an
    // answer (`overlays::CONFIRM_PAUSE`): read it first, as a person does.
    std::thread::sleep(std::time::Duration::from_millis(800));
    tmux.keys(&["c"]);
    tmux.wait("the path copied", |t| {
        t.screen().contains("copied its path")
    });
    let written = p.path(".ctxcurate/out/context_001.md");
    let built = p
        .cmd(&["build"])
        .env("CTXCURATE_CONFIG", &global)
        .output()
        .unwrap();
    assert_eq!(
        std::fs::read(&written).expect("the output file"),
        built.stdout,
        "the file holds what the copy would have"
    );
    let buffer = tmux.buffer().expect("tmux has the path");
    assert_eq!(
        std::path::Path::new(&buffer).canonicalize().unwrap(),
        written.canonicalize().unwrap(),
        "{buffer}"
    );
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}

/// tmux's `set-clipboard` switched while the app runs counts from the next
/// `y` (issue 38): `on` copies, `external` refuses and says how to fix it,
/// and following that advice makes the next `y` copy, no restart.
#[test]
fn switching_set_clipboard_while_the_app_runs_counts_at_the_next_yank() {
    let Some(tmux) = Tmux::new("clip-switch") else {
        return;
    };
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
    tmux.wait("the copy", |t| t.screen().contains("copied context"));
    assert!(tmux.screen().contains("through tmux (set-clipboard on)"));
    assert!(tmux.buffer().is_some_and(|b| b.contains("### src/app.py")));
    assert!(tmux.cmd(&["delete-buffer"]).status.success());

    // Switched to `external` while the app runs: the next `y` knows.
    let set = |value: &str| {
        let out = tmux.cmd(&["set", "-g", "set-clipboard", value]);
        assert!(out.status.success());
        // The app's last answer is fresh for a second.
        std::thread::sleep(std::time::Duration::from_millis(1200));
    };
    set("external");
    tmux.keys(&["y"]);
    tmux.wait("the refusal", |t| t.screen().contains("copy failed"));
    let screen = tmux.screen();
    assert!(
        screen.contains("tmux's set-clipboard is external"),
        "{screen}"
    );
    assert_eq!(tmux.buffer(), None, "nothing reached tmux");

    // The advice followed, no restart: the next `y` copies.
    set("on");
    tmux.keys(&["y"]);
    tmux.wait("the copy again", |t| t.screen().contains("copied context"));
    assert!(tmux.buffer().is_some_and(|b| b.contains("### src/app.py")));
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}
