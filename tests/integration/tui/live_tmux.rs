//! End to end in tmux, the event loop's own ways: a file created in the
//! project while the app runs shows in the tree without `R` (the watch,
//! the loop, the walk, the frame), a `preset apply` from a shell is
//! followed (the idle tick, the status) and kept at exit, and a SIGTERM while `e` has handed the
//! terminal to the editor ends the editor and the app cleanly: status
//! 143, the terminal back in cooked mode off the alternate screen, the
//! curation saved, no temporary file left.

use std::process::Command;

use crate::common;

use common::Project;
use common::tmux::Tmux;

#[test]
fn a_file_created_while_the_app_runs_shows_in_the_tree() {
    let Some(tmux) = Tmux::new("live") else {
        return;
    };
    let p = Project::fixture();
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["j", "l"]);
    tmux.wait("src/ open", |t| t.screen().contains("app.py"));

    p.write("src/zeta_live.py", "def zeta():\n    return 26\n");
    tmux.wait("the new file in the tree", |t| {
        let s = t.screen();
        s.contains("zeta_live.py") && s.contains("Files 5")
    });
    std::fs::remove_file(p.path("src/zeta_live.py")).unwrap();
    tmux.wait("the file gone again", |t| {
        let s = t.screen();
        !s.contains("zeta_live.py") && s.contains("Files 4")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}

/// `ctxcurate preset apply c` from a shell while the app runs: the app
/// switches (the status says so), and its exit keeps that choice.
#[test]
fn a_preset_applied_from_a_shell_while_the_app_runs_is_followed() {
    let Some(tmux) = Tmux::new("live-preset") else {
        return;
    };
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.a]\nfiles = [\"src/app.py\"]\n\n[presets.c]\nfiles = [\"docs/guide.md\"]\n",
    );
    let home = p.config_home.path();
    // The state directory the CLI uses (`Project::cmd`), for the app too.
    let state = home.join("state");
    tmux.start(
        p.root(),
        &[
            ("CTXCURATE_CONFIG", "/dev/null"),
            ("HOME", home.to_str().unwrap()),
            ("XDG_STATE_HOME", state.to_str().unwrap()),
        ],
    );
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["1"]);
    tmux.wait("preset a", |t| t.screen().contains("preset: a"));
    let out = p.run(&["preset", "apply", "c"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    tmux.wait("the switch said", |t| {
        t.screen().contains("preset switched to c outside the app")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    let store = ctxcurate::core::project::PersonalStore::at(state.join("ctxcurate/checkouts"));
    let kept = store.load(p.root()).state;
    assert_eq!(kept.project.get_str("active_preset"), Some("c"));
    assert_eq!(p.read("ctxcurate.toml").matches("presets.").count(), 2);
}

#[test]
fn sigterm_while_the_editor_runs_ends_both_cleanly() {
    let Some(tmux) = Tmux::new("editor-term") else {
        return;
    };
    let p = Project::fixture();
    let tmp = tempfile::tempdir().unwrap();
    let script = p.config_home.path().join("editor.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho EDITOR-RUNNING\nread answer\nprintf 'late\\n' > \"$1\"\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let bin = env!("CARGO_BIN_EXE_ctxcurate");
    let command = format!(
        "cd '{}' && HOME='{}' CTXCURATE_CONFIG=/dev/null TMPDIR='{}' VISUAL= EDITOR='{}' '{bin}'; \
         echo \"status=$?\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | tr '\\n' ' '; \
         echo; echo SHELL-BACK; sleep 60",
        p.root().display(),
        p.config_home.path().display(),
        tmp.path().display(),
        script.display(),
    );
    tmux.new_session(&command);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["j", "l", "j", "Space"]);
    tmux.wait("app.py included", |t| t.screen().contains("● app.py"));
    tmux.keys(&["e"]);
    tmux.wait("the editor", |t| t.screen().contains("EDITOR-RUNNING"));

    // The editor runs as itself (`exec`ed by sh), found by its command line.
    let editor_pattern = format!("^/bin/sh {}", script.display());
    let editors = || {
        let out = Command::new("pgrep")
            .args(["-f", &editor_pattern])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert!(!editors().is_empty(), "the editor runs");
    let shell = tmux.format("#{pane_pid}");
    let child = Command::new("pgrep")
        .args(["-P", &shell])
        .output()
        .expect("pgrep");
    let app = String::from_utf8_lossy(&child.stdout).trim().to_string();
    assert!(!app.is_empty(), "the app's pid under {shell}");
    assert!(
        Command::new("kill")
            .args(["-TERM", &app])
            .status()
            .unwrap()
            .success()
    );
    tmux.wait("the shell after the app", |t| {
        t.screen().contains("SHELL-BACK")
    });
    let screen = tmux.screen();
    assert!(screen.contains("status=143"), "{screen}");
    assert!(screen.contains("icanon echo"), "cooked mode: {screen}");
    assert_eq!(tmux.format("#{alternate_on}"), "0");
    assert_eq!(tmux.format("#{cursor_flag}"), "1");
    // The editor did not outlive the app, nor its temporary file.
    assert_eq!(editors(), "", "the editor ended with the app");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    let saved = p.read("ctxcurate.toml");
    assert!(saved.contains("path = \"src/app.py\""), "{saved}");
    tmux.cmd(&["kill-session", "-t", "e2e"]);
}
