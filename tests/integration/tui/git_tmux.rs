//! git never holds up the TUI's composing: with git stuck (a FIFO where
//! `.git/index` should be, which git opens and waits on), `Ctrl-g` asks
//! it, and Space and `y` still compose and copy — end to end, the binary
//! in tmux, the copy landing in tmux's paste buffer (OSC 52).

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::Project;
use common::tmux::Tmux;

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
