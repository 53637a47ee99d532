//! End to end in a real terminal: the binary runs inside tmux, keys are
//! typed with send-keys, the screen is read with capture-pane, and `y`
//! must land the composed context in tmux's paste buffer (OSC 52 with
//! `set-clipboard on`), byte for byte what `ctxcurate build` prints.

use crate::common;

use std::process::Command;

use common::tmux::Tmux;
use common::{Project, machine};

#[test]
fn include_yank_quit_and_restore_in_tmux() {
    let Some(tmux) = Tmux::new("yank") else {
        return;
    };
    let p = Project::fixture();
    let global = p.config_home.path().join("config.toml");
    std::fs::write(&global, "[project]\nclipboard = \"osc52\"\n").unwrap();
    let global = global.display().to_string();
    let env = [
        ("CTXCURATE_CONFIG", global.as_str()),
        ("HOME", p.config_home.path().to_str().unwrap()),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));

    // Into src/, include app.py and util.c.
    tmux.keys(&["j", "l", "j", "Space", "j", "Space"]);
    tmux.wait("both files included", |t| {
        let s = t.screen();
        s.contains("● app.py") && s.contains("● util.c") && s.contains("src/ 2/2")
    });
    tmux.keys(&["y"]);
    tmux.wait("the copy status", |t| {
        t.screen().contains("copied context (2 files)")
    });
    let screen = tmux.screen();
    assert!(screen.contains("terminal clipboard (OSC 52)"), "{screen}");
    let buffer = tmux.buffer().expect("tmux has a paste buffer after y");

    // The TUI saves each change as it goes: on a loaded machine the file
    // may land a moment after the screen shows it (a CI run built before
    // both entries were saved).
    tmux.wait("both entries saved", |_| {
        let saved = p.read("ctxcurate.toml");
        saved.contains("src/app.py") && saved.contains("src/util.c")
    });
    let build = p
        .cmd(&["build"])
        .env("CTXCURATE_CONFIG", &global)
        .output()
        .unwrap();
    assert!(build.status.success());
    let built = String::from_utf8(build.stdout).unwrap();
    assert!(built.contains("### src/app.py") && built.contains("### src/util.c"));
    assert_eq!(
        buffer, built,
        "the yanked text is what `ctxcurate build` prints"
    );

    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    let saved = p.read("ctxcurate.toml");
    assert!(saved.contains("path = \"src/app.py\""), "{saved}");
    assert!(saved.contains("path = \"src/util.c\""), "{saved}");

    // A restart shows the curation again.
    tmux.start(p.root(), &env);
    tmux.wait("the restored curation", |t| {
        t.screen().contains("● src/ 2/2")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit again", |t| !t.running());
}

/// A private X server (Xvfb) for one test; killed on drop.
struct Xvfb {
    child: std::process::Child,
    display: String,
}

impl Xvfb {
    /// Start one on a free display; `None` where the machine's tests are
    /// off (see `common::machine`), a failure where Xvfb or xclip is
    /// missing.
    fn start() -> Option<Xvfb> {
        machine::program("Xvfb", "-help", "xvfb")?;
        machine::program("xclip", "-version", "xclip")?;
        // `-displayfd 1`: Xvfb picks a free display and prints its number
        // once it accepts connections.
        let mut child = Command::new("Xvfb")
            .args(["-displayfd", "1", "-nolisten", "tcp"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let stdout = child.stdout.take().expect("Xvfb stdout");
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
            .expect("Xvfb prints its display");
        let display = format!(":{}", line.trim());
        assert!(display.len() > 1, "Xvfb gave no display");
        Some(Xvfb { child, display })
    }

    /// The clipboard selection as xclip reads it, if anything owns it.
    fn clipboard(&self) -> Option<String> {
        let out = Command::new("xclip")
            .args(["-o", "-selection", "clipboard"])
            .env("DISPLAY", &self.display)
            .output()
            .expect("run xclip");
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `clipboard = "system"` against a real X server: `y` puts the composed
/// context on the X clipboard, byte for byte what `ctxcurate build`
/// prints, and it is still there after the app quits (a holder process
/// serves it until another program copies something).
#[test]
fn yank_to_the_system_clipboard_outlives_the_app() {
    let Some(x) = Xvfb::start() else {
        return;
    };
    let Some(tmux) = Tmux::new("xclip") else {
        return;
    };
    let p = Project::fixture();
    let global = p.config_home.path().join("config.toml");
    std::fs::write(&global, "[project]\nclipboard = \"system\"\n").unwrap();
    let global = global.display().to_string();
    let env = [
        ("CTXCURATE_CONFIG", global.as_str()),
        ("HOME", p.config_home.path().to_str().unwrap()),
        ("DISPLAY", x.display.as_str()),
    ];
    assert_eq!(x.clipboard(), None, "a fresh X server has no clipboard");
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["j", "l", "j", "Space"]);
    tmux.wait("app.py included", |t| t.screen().contains("● app.py"));
    tmux.keys(&["y"]);
    tmux.wait("the copy status", |t| {
        t.screen().contains("copied context (1 file")
    });
    let screen = tmux.screen();
    assert!(screen.contains("system clipboard"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());

    let build = p
        .cmd(&["build"])
        .env("CTXCURATE_CONFIG", &global)
        .output()
        .unwrap();
    assert!(build.status.success());
    let built = String::from_utf8(build.stdout).unwrap();
    assert!(built.contains("### src/app.py"), "{built}");
    assert_eq!(
        x.clipboard().as_deref(),
        Some(built.as_str()),
        "after the app quit, the X clipboard holds what `ctxcurate build` prints"
    );

    // Another program's copy takes the selection over.
    let mut xclip = Command::new("xclip")
        .args(["-selection", "clipboard"])
        .env("DISPLAY", &x.display)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("xclip");
    if let Some(mut stdin) = xclip.stdin.take() {
        std::io::Write::write_all(&mut stdin, b"something else").unwrap();
    }
    let _ = xclip.wait();
    assert_eq!(x.clipboard().as_deref(), Some("something else"));
}

/// A file whose bytes write "pwned" to the clipboard when a terminal sees
/// them raw (OSC 52, both terminators).
const OSC52_FILE: &str = "x = 1  # \x1b]52;c;cHduZWQ=\x07\ny = 2  # \x1b]52;c;cHduZWQ=\x1b\\\n";

#[test]
fn previewing_an_osc52_file_does_not_touch_the_clipboard() {
    let Some(tmux) = Tmux::new("osc52") else {
        return;
    };
    let p = Project::empty();
    p.write("evil.py", OSC52_FILE);
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("evil.py"));
    // Include it (the composition preview), then its raw text.
    tmux.keys(&["Space", "Tab", "Tab", "r"]);
    tmux.wait("the escaped sequence in the preview", |t| {
        t.screen().contains("# ␛]52;c;cHduZWQ=␇")
    });
    assert_eq!(tmux.buffer(), None, "the file wrote the clipboard");
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());

    // The CLI printing to the terminal escapes too.
    let shown = |cmd: &str| {
        let command = format!(
            "cd '{}' && CTXCURATE_CONFIG=/dev/null {cmd}; sleep 30",
            p.root().display()
        );
        tmux.new_session(&command);
    };
    let bin = env!("CARGO_BIN_EXE_ctxcurate");
    shown(&format!(
        "'{bin}' view evil.py && '{bin}' build && echo DONE"
    ));
    tmux.wait("the CLI output", |t| t.screen().contains("DONE"));
    assert!(tmux.screen().contains("x = 1  # ␛]52;c;cHduZWQ=␇"));
    assert_eq!(tmux.buffer(), None, "the CLI wrote the clipboard");
    tmux.cmd(&["kill-session", "-t", "e2e"]);

    // Control: the same bytes sent raw do reach tmux's clipboard, so the
    // checks above can fail.
    shown("cat evil.py && echo DONE");
    tmux.wait("cat", |t| t.screen().contains("DONE"));
    assert_eq!(tmux.buffer().as_deref(), Some("pwned"));
}

/// SIGTERM, SIGHUP and SIGINT sent to the app end it like `q`: the edit
/// made just before is saved, the pane is back to a normal shell (no
/// alternate screen, cursor shown, cooked mode with echo), and the exit
/// status is 128 + the signal.
#[test]
fn termination_signals_restore_the_terminal_and_save() {
    let Some(tmux) = Tmux::new("signals") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_ctxcurate");
    for (signal, number) in [("TERM", 15), ("HUP", 1), ("INT", 2)] {
        let p = Project::fixture();
        let command = format!(
            "cd '{}' && HOME='{}' CTXCURATE_CONFIG=/dev/null '{bin}'; \
             echo \"status=$?\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | tr '\\n' ' '; \
             echo; echo SHELL-BACK; sleep 60",
            p.root().display(),
            p.config_home.path().display(),
        );
        tmux.new_session(&command);
        tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
        tmux.keys(&["j", "l", "j", "Space"]);
        tmux.wait("app.py included", |t| t.screen().contains("● app.py"));
        assert_eq!(
            tmux.format("#{alternate_on}"),
            "1",
            "the app is on the alternate screen"
        );

        let shell = tmux.format("#{pane_pid}");
        let child = Command::new("pgrep")
            .args(["-P", &shell])
            .output()
            .expect("pgrep");
        let app = String::from_utf8_lossy(&child.stdout).trim().to_string();
        assert!(!app.is_empty(), "the app's pid under {shell}");
        let kill = Command::new("kill")
            .args([&format!("-{signal}"), &app])
            .status()
            .expect("kill");
        assert!(kill.success());

        tmux.wait("the shell after the app", |t| {
            t.screen().contains("SHELL-BACK")
        });
        let screen = tmux.screen();
        assert!(
            screen.contains(&format!("status={}", 128 + number)),
            "SIG{signal}: {screen}"
        );
        assert!(
            screen.contains("icanon echo"),
            "SIG{signal}: cooked mode: {screen}"
        );
        assert_eq!(
            tmux.format("#{alternate_on}"),
            "0",
            "SIG{signal}: alternate screen left"
        );
        assert_eq!(
            tmux.format("#{cursor_flag}"),
            "1",
            "SIG{signal}: cursor shown"
        );
        let saved = p.read("ctxcurate.toml");
        assert!(
            saved.contains("path = \"src/app.py\""),
            "SIG{signal}: {saved}"
        );
        tmux.cmd(&["kill-session", "-t", "e2e"]);
    }
}

/// A number key switches the preset in the real app: the gauge names it,
/// the tree shows its files, and `u` switches back.
#[test]
fn a_number_key_switches_the_preset() {
    let Some(tmux) = Tmux::new("presets") else {
        return;
    };
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[project]\nactive_preset = \"alpha\"\n\n[presets.alpha]\nfiles = [\"src/app.py\"]\n\n\
         [presets.beta]\nfiles = [\"src/util.c\"]\n",
    );
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("preset alpha"));
    tmux.keys(&["2"]);
    tmux.wait("the second preset", |t| {
        let s = t.screen();
        s.contains("preset beta") && s.contains("preset: beta (2)")
    });
    tmux.keys(&["u"]);
    tmux.wait("the first preset again", |t| {
        t.screen().contains("preset alpha")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    assert!(
        p.read("ctxcurate.toml")
            .contains("active_preset = \"alpha\"")
    );
}

/// `Ctrl-p` opens the finder in a real terminal: the list redraws when
/// the matcher threads wake the loop, Enter puts the tree cursor on the
/// file found.
#[test]
fn the_finder_goes_to_a_file_in_tmux() {
    let Some(tmux) = Tmux::new("finder") else {
        return;
    };
    let p = Project::fixture();
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    tmux.keys(&["C-p"]);
    tmux.wait("the finder", |t| t.screen().contains("Find a file · 4/4"));
    // One key, then nothing: only the matcher's wake-up redraws the
    // narrowed list (the key's own frame may still show the old one).
    tmux.keys(&["c"]);
    tmux.wait("the narrowed list", |t| {
        let s = t.screen();
        s.contains("Find a file · 3/4") && s.contains("> c")
    });
    tmux.keys(&["t"]);
    tmux.wait("one match", |t| t.screen().contains("Find a file · 1/4"));
    tmux.keys(&["Enter"]);
    tmux.wait("the tree cursor on util.c", |t| {
        let s = t.screen();
        !s.contains("Find a file")
            && s.lines().any(|l| {
                l.split('┃').nth(1).is_some_and(|tree| {
                    tree.trim_start().starts_with('›') && tree.contains("util.c")
                })
            })
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}

/// `z` in the real app: the focused pane takes the whole width (the
/// others are hidden) and `z` again brings the three panes back. The
/// mouse is captured while it runs and released when it quits.
#[test]
fn z_zooms_the_focused_pane_across_the_terminal() {
    let Some(tmux) = Tmux::new("zoom") else {
        return;
    };
    let p = Project::fixture();
    tmux.start_app(&p);
    tmux.wait("the first frame", |t| t.screen().contains("Symbols"));
    assert_eq!(tmux.format("#{mouse_any_flag}"), "1", "mouse captured");
    // The top row: the tree's border from the first column to the last.
    let top_row = |t: &Tmux| t.screen().lines().next().unwrap_or("").to_string();
    tmux.keys(&["z"]);
    tmux.wait("the tree across the whole width", |t| {
        let top = top_row(t);
        let s = t.screen();
        top.starts_with("┏ Files")
            && top.chars().count() == 120
            && top.ends_with('┓')
            && !s.contains("Symbols")
            && !s.contains("Preview")
    });
    tmux.keys(&["z"]);
    tmux.wait("the three panes again", |t| {
        let top = top_row(t);
        top.starts_with("┏ Files") && top.contains("Symbols") && top.contains("Preview")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
}

/// Mouse capture is released when the app quits (the terminal is left as
/// it was found), and `mouse = false` never takes the mouse at all.
#[test]
fn mouse_capture_ends_with_the_app_and_is_off_with_mouse_false() {
    let Some(tmux) = Tmux::new("mouse") else {
        return;
    };
    let p = Project::fixture();
    let home = p.config_home.path().to_str().unwrap().to_string();
    // The shell outlives the app, so the pane's mouse mode can be read
    // after it quits.
    tmux.new_session(&format!(
        "cd '{}' && CTXCURATE_CONFIG=/dev/null HOME='{home}' '{}'; sleep 30",
        p.root().display(),
        env!("CARGO_BIN_EXE_ctxcurate")
    ));
    tmux.wait("the first frame", |t| t.screen().contains("Symbols"));
    tmux.wait("mouse capture on", |t| t.format("#{mouse_any_flag}") == "1");
    tmux.keys(&["q"]);
    tmux.wait("capture off after quitting", |t| {
        !t.screen().contains("Symbols") && t.format("#{mouse_any_flag}") == "0"
    });
    tmux.cmd(&["kill-session", "-t", "e2e"]);
    tmux.wait("the first session to end", |t| !t.running());

    p.write("ctxcurate.toml", "[project]\nmouse = false\n");
    tmux.new_session(&format!(
        "cd '{}' && CTXCURATE_CONFIG=/dev/null HOME='{home}' '{}'; sleep 30",
        p.root().display(),
        env!("CARGO_BIN_EXE_ctxcurate")
    ));
    tmux.wait("the first frame", |t| t.screen().contains("Symbols"));
    assert_eq!(tmux.format("#{mouse_any_flag}"), "0", "mouse = false");
    tmux.keys(&["q"]);
}

/// `e` hands the real terminal to `$EDITOR` and takes it back: while the
/// editor runs the pane is off the alternate screen in cooked mode and
/// the editor, not the app, gets the keys typed (even those typed while
/// it is not reading yet: the app's input thread is paused); afterwards the app is
/// redrawn in full with the task set, keys work again, and the task is
/// saved.
#[test]
fn e_runs_the_editor_with_the_terminal_handed_over() {
    let Some(tmux) = Tmux::new("editor") else {
        return;
    };
    let p = Project::fixture();
    let state = p.config_home.path().join("editor-saw");
    let script = p.config_home.path().join("editor.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | tr '\\n' ' ' > '{}'\n\
             echo EDITOR-RUNNING\n\
             sleep 1\n\
             read answer\n\
             printf 'Task from the editor: %s\\n' \"$answer\" > \"$1\"\n",
            state.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let script = script.display().to_string();
    let env = [
        ("CTXCURATE_CONFIG", "/dev/null"),
        ("HOME", p.config_home.path().to_str().unwrap()),
        ("VISUAL", ""),
        ("EDITOR", script.as_str()),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
    assert_eq!(tmux.format("#{alternate_on}"), "1");

    tmux.keys(&["e"]);
    tmux.wait("the editor", |t| t.screen().contains("EDITOR-RUNNING"));
    assert_eq!(
        tmux.format("#{alternate_on}"),
        "0",
        "the editor runs on the normal screen"
    );
    let saw = std::fs::read_to_string(&state).unwrap();
    assert_eq!(
        saw.trim(),
        "icanon echo",
        "the editor gets a cooked terminal"
    );

    tmux.keys(&["hello", "Enter"]);
    tmux.wait("the app again, with the task", |t| {
        let s = t.screen();
        s.contains("task set · ") && s.contains("Files 4")
    });
    let screen = tmux.screen();
    assert!(screen.contains("Files 4"), "redrawn in full: {screen}");
    assert!(!screen.contains("EDITOR-RUNNING"), "{screen}");
    assert_eq!(
        tmux.format("#{alternate_on}"),
        "1",
        "back on the alternate screen"
    );

    // Keys reach the app again: undo, redo, quit.
    tmux.keys(&["u"]);
    tmux.wait("undone", |t| t.screen().contains("undone"));
    tmux.keys(&["C-r"]);
    tmux.wait("redone", |t| t.screen().contains("redone"));
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    let saved = p.read("ctxcurate.toml");
    assert!(
        saved.contains("task = \"Task from the editor: hello\""),
        "{saved}"
    );
}

/// Exits that pass by the event loop and the panic hook still give the
/// terminal back (cooked mode with echo, the alternate screen left, the
/// cursor shown, mouse capture off): SIGABRT and SIGQUIT sent with kill,
/// and, through the debug-only `CTXCURATE_TEST_DIE` trigger (F12), an
/// `abort`, a `process::exit`, an allocation failure, a panic during a
/// panic, a segmentation fault and a stack overflow, each on a thread of
/// its own. The process still ends the way it
/// would have (the signal's status, 3 for the exit).
#[test]
fn aborts_and_sudden_exits_restore_the_terminal() {
    let Some(tmux) = Tmux::new("abort") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_ctxcurate");
    for (how, status) in [
        ("kill-ABRT", 134),
        ("kill-QUIT", 131),
        ("abort", 134),
        ("exit", 3),
        ("alloc", 134),
        ("double-panic", 134),
        ("segv", 139),
        ("stack-overflow", 134),
    ] {
        let p = Project::fixture();
        let die = how.strip_prefix("kill-").map_or(how, |_| "none");
        let command = format!(
            "cd '{}' && HOME='{}' CTXCURATE_CONFIG=/dev/null CTXCURATE_TEST_DIE={die} '{bin}' 2>/dev/null; \
             echo \"status=$?\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | tr '\\n' ' '; \
             echo; echo SHELL-BACK; sleep 60",
            p.root().display(),
            p.config_home.path().display(),
        );
        tmux.new_session(&command);
        tmux.wait("the first frame", |t| t.screen().contains("Files 4"));
        tmux.wait("mouse capture on", |t| t.format("#{mouse_any_flag}") == "1");
        assert_eq!(
            tmux.format("#{alternate_on}"),
            "1",
            "{how}: alternate screen"
        );

        if let Some(signal) = how.strip_prefix("kill-") {
            let shell = tmux.format("#{pane_pid}");
            let child = Command::new("pgrep")
                .args(["-P", &shell])
                .output()
                .expect("pgrep");
            let app = String::from_utf8_lossy(&child.stdout).trim().to_string();
            assert!(!app.is_empty(), "the app's pid under {shell}");
            let kill = Command::new("kill")
                .args([&format!("-{signal}"), &app])
                .status()
                .expect("kill");
            assert!(kill.success());
        } else {
            tmux.keys(&["F12"]);
        }

        tmux.wait("the shell after the app", |t| {
            t.screen().contains("SHELL-BACK")
        });
        let screen = tmux.screen();
        assert!(
            screen.contains(&format!("status={status}")),
            "{how}: {screen}"
        );
        assert!(
            screen.contains("icanon echo"),
            "{how}: cooked mode: {screen}"
        );
        assert_eq!(
            tmux.format("#{alternate_on}"),
            "0",
            "{how}: alternate screen left"
        );
        assert_eq!(tmux.format("#{cursor_flag}"), "1", "{how}: cursor shown");
        assert_eq!(
            tmux.format("#{mouse_any_flag}"),
            "0",
            "{how}: mouse capture off"
        );
        tmux.cmd(&["kill-session", "-t", "e2e"]);
        tmux.wait("the session to end", |t| !t.running());
    }
}

/// The real app keeps the user's own choices out of the shared file and
/// brings them back at the next start in this checkout: a preset switched
/// with `2` and the tokenizer cycled with `T` leave `ctxcurate.toml`
/// byte-identical, and the second start shows both.
#[test]
fn a_restart_brings_back_the_users_preset_and_tokenizer() {
    let Some(tmux) = Tmux::new("personal") else {
        return;
    };
    let p = Project::fixture();
    let team = "# the team's file\n[project]\nactive_preset = \"alpha\"\n\n\
                [presets.alpha]\nfiles = [\"src/app.py\"]\n\n\
                [presets.beta]\nfiles = [\"src/util.c\"]\n";
    p.write("ctxcurate.toml", team);
    let home = p.config_home.path().to_str().unwrap().to_string();
    let state = format!("{home}/state");
    let env = [
        ("CTXCURATE_CONFIG", "/dev/null"),
        ("HOME", home.as_str()),
        ("XDG_STATE_HOME", state.as_str()),
    ];
    tmux.start(p.root(), &env);
    tmux.wait("the first frame", |t| {
        let s = t.screen();
        s.contains("preset alpha") && s.contains("o200k")
    });
    tmux.keys(&["2"]);
    tmux.wait("the second preset", |t| t.screen().contains("preset beta"));
    tmux.keys(&["T"]);
    tmux.wait("the next tokenizer", |t| t.screen().contains("cl100k"));
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    assert_eq!(p.read("ctxcurate.toml"), team, "not a byte changed");
    tmux.cmd(&["kill-session", "-t", "e2e"]);
    tmux.start(p.root(), &env);
    tmux.wait("the user's preset and tokenizer again", |t| {
        let s = t.screen();
        s.contains("preset beta") && s.contains("cl100k")
    });
    tmux.keys(&["q"]);
    tmux.wait("the app to quit", |t| !t.running());
    assert_eq!(p.read("ctxcurate.toml"), team);
}
