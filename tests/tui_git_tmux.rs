//! git never holds up the TUI's composing: with git stuck (a FIFO where
//! `.git/index` should be, which git opens and waits on), `Ctrl-g` asks
//! it, and Space and `y` still compose and copy — end to end, the binary
//! in tmux, the copy landing in tmux's paste buffer (OSC 52).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::Project;

/// A private tmux server for one test; killed on drop.
struct Tmux {
    socket: String,
    _conf: tempfile::NamedTempFile,
    conf_path: String,
}

impl Tmux {
    fn new(name: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required in CI (.ci/run installs it)"
            );
            eprintln!("note: tmux not installed; skipping the end-to-end test");
            return None;
        }
        let conf = tempfile::NamedTempFile::new().expect("tmux conf");
        std::fs::write(
            conf.path(),
            "set -g set-clipboard on\nset -g default-terminal xterm-256color\n\
             set -g status off\nset -g exit-empty off\n",
        )
        .expect("write tmux conf");
        let conf_path = conf.path().display().to_string();
        let tmux = Tmux {
            socket: format!("ctxcurate-e2e-{name}-{}", std::process::id()),
            _conf: conf,
            conf_path,
        };
        let started = tmux.cmd(&["start-server"]);
        assert!(started.status.success(), "tmux start-server");
        Some(tmux)
    }

    fn cmd(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", &self.conf_path])
            .args(args)
            .output()
            .expect("run tmux")
    }

    fn start(&self, root: &Path, env: &[(&str, &str)]) {
        let mut command = format!("cd '{}' &&", root.display());
        for (k, v) in env {
            command.push_str(&format!(" {k}='{v}'"));
        }
        command.push_str(&format!(" '{}'", env!("CARGO_BIN_EXE_ctxcurate")));
        let out = self.cmd(&[
            "new-session",
            "-d",
            "-s",
            "e2e",
            "-x",
            "120",
            "-y",
            "30",
            "sh",
            "-c",
            &command,
        ]);
        assert!(out.status.success(), "tmux new-session");
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "e2e"]).stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", "-t", "e2e", k]);
            sleep(Duration::from_millis(60));
        }
    }

    fn buffer(&self) -> Option<String> {
        let out = self.cmd(&["show-buffer"]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Wait until `check` holds, or fail with the last screen.
    fn wait(&self, what: &str, mut check: impl FnMut(&Tmux) -> bool) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if check(self) {
                return;
            }
            sleep(Duration::from_millis(100));
        }
        panic!("timed out waiting for {what}; screen:\n{}", self.screen());
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// A FIFO in place of `.git/index`; on drop a writer opens and closes it,
/// so a git still waiting on it reads an end and exits (never left behind).
struct Fifo(PathBuf);

impl Drop for Fifo {
    fn drop(&mut self) {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&self.0);
    }
}

fn git(p: &Project, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(p.root())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", p.config_home.path())
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}");
}

#[test]
fn a_stuck_git_never_holds_up_compose_or_yank() {
    let Some(tmux) = Tmux::new("stuck-git") else {
        return;
    };
    let p = Project::fixture();
    git(&p, &["init", "-q", "-b", "main"]);
    git(&p, &["add", "-A"]);
    git(
        &p,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "one",
        ],
    );
    std::fs::remove_file(p.path(".git/index")).expect("rm index");
    let fifo = Fifo(p.path(".git/index"));
    let c_path = std::ffi::CString::new(fifo.0.display().to_string()).expect("path");
    // SAFETY: mkfifo(3) reads the NUL-terminated path only.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0, "mkfifo");

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
        t.screen().contains("copied context (1 files)")
    });
    let buffer = tmux.buffer().expect("a paste buffer after y");
    assert!(buffer.contains("### src/app.py"), "{buffer}");
    drop(fifo);
    drop(tmux);
}
