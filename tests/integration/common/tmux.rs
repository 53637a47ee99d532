//! A private tmux server for the end-to-end tests: the binary runs in a
//! 120×30 session `e2e`, keys are typed with send-keys, the screen is
//! read with capture-pane, and the paste buffer shows what `y` copied
//! (OSC 52 with `set-clipboard on`).

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

use super::Project;

/// Servers started by this process: with the pid, a socket name no other
/// test (all share this process) or test run uses.
static SERVERS: AtomicUsize = AtomicUsize::new(0);

/// A private tmux server for one test.
pub struct Tmux {
    socket: String,
    _conf: tempfile::NamedTempFile,
    conf_path: String,
}

impl Tmux {
    /// A server named after `name`; `None` where the machine's tests are
    /// off (see `common::machine`), a failure where tmux is missing.
    pub fn new(name: &str) -> Option<Tmux> {
        super::machine::program("tmux", "-V", "tmux")?;
        let conf = tempfile::NamedTempFile::new().expect("tmux conf");
        std::fs::write(
            conf.path(),
            // `exit-empty off`: the server outlives its sessions, so a test
            // that ends one session and starts the next never races the
            // server's shutdown (a new session sent to a dying server is
            // lost). Drop kills the server.
            "set -g set-clipboard on\nset -g default-terminal xterm-256color\n\
             set -g status off\nset -g exit-empty off\n",
        )
        .expect("write tmux conf");
        let conf_path = conf.path().display().to_string();
        let tmux = Tmux {
            socket: format!(
                "ctxcurate-e2e-{name}-{}-{}",
                std::process::id(),
                SERVERS.fetch_add(1, Ordering::Relaxed)
            ),
            _conf: conf,
            conf_path,
        };
        let started = tmux.cmd(&["start-server"]);
        assert!(
            started.status.success(),
            "tmux start-server: {}",
            String::from_utf8_lossy(&started.stderr)
        );
        Some(tmux)
    }

    pub fn cmd(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", &self.conf_path])
            .args(args)
            .output()
            .expect("run tmux")
    }

    /// Start the binary in `root` with `env` set.
    pub fn start(&self, root: &Path, env: &[(&str, &str)]) {
        let mut command = format!("cd '{}' &&", root.display());
        for (k, v) in env {
            command.push_str(&format!(" {k}='{v}'"));
        }
        command.push_str(&format!(" '{}'", super::binary().to_string_lossy()));
        self.new_session(&command);
    }

    /// Start the binary in `project` as a user would who has no global
    /// config: `CTXCURATE_CONFIG=/dev/null`, `HOME` the project's own
    /// config home.
    pub fn start_app(&self, project: &Project) {
        let home = project
            .config_home
            .path()
            .to_str()
            .expect("a UTF-8 temp path");
        self.start(
            project.root(),
            &[("CTXCURATE_CONFIG", "/dev/null"), ("HOME", home)],
        );
    }

    /// A 120×30 session `e2e` running `command` under `sh -c`.
    pub fn new_session(&self, command: &str) {
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
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux new-session: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A tmux format (`#{…}`) of the `e2e` pane.
    pub fn format(&self, format: &str) -> String {
        let out = self.cmd(&["display-message", "-p", "-t", "e2e", format]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "e2e"]).stdout).into_owned()
    }

    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", "-t", "e2e", k]);
            // Each key is its own event, as when a person types.
            sleep(Duration::from_millis(60));
        }
    }

    pub fn buffer(&self) -> Option<String> {
        let out = self.cmd(&["show-buffer"]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    pub fn running(&self) -> bool {
        self.cmd(&["has-session", "-t", "e2e"]).status.success()
    }

    /// Wait until `check` holds, or fail with the last screen.
    pub fn wait(&self, what: &str, mut check: impl FnMut(&Tmux) -> bool) {
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
