//! Git for the tests of git-aware curation: a `git` run isolated from the
//! machine's configuration, repositories built with it, the real binary
//! run with git isolated the same way (under a watchdog: a hang fails the
//! test instead of hanging it), and the states git must be forced into
//! (a stat-dirty tree, a FIFO where a file should be).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use super::{Project, output_within, saved_preset, stderr, stdout};

/// Run git in `dir` with no system or user configuration (`HOME` is the
/// project's temporary config home), a fixed identity and fixed dates, so
/// commits need no setup and come out the same on every machine.
pub fn git(p: &Project, dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", p.config_home.path())
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A new repository in `dir` on branch `main`.
pub fn init(p: &Project, dir: &Path) {
    git(p, dir, &["init", "-q", "-b", "main"]);
}

/// `init`, then everything in the work tree committed as `message`.
pub fn init_and_commit(p: &Project, dir: &Path, message: &str) {
    init(p, dir);
    git(p, dir, &["add", "-A"]);
    git(p, dir, &["commit", "-qm", message]);
}

/// `ctxcurate args…` in `dir` with `env` added, git isolated, killed (and
/// the test failed) if it has not ended after 90 s: a hang is a failure.
pub fn run_in(p: &Project, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = p.cmd(args);
    cmd.current_dir(dir).env("GIT_CONFIG_NOSYSTEM", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    output_within(cmd, Duration::from_secs(90))
}

/// `ctxcurate args…` in the project root, git isolated, under the watchdog.
pub fn run(p: &Project, args: &[&str]) -> Output {
    run_in(p, p.root(), args, &[])
}

/// `run`, and require success; returns stdout.
pub fn ok(p: &Project, args: &[&str]) -> String {
    let out = run(p, args);
    assert!(
        out.status.success(),
        "ctxcurate {args:?} failed ({:?}):\n{}",
        out.status.code(),
        stderr(&out)
    );
    stdout(&out)
}

/// The paths of the saved `default` preset; none when there is no project
/// file or no such preset.
pub fn preset_paths(p: &Project) -> Vec<String> {
    saved_preset(p, "default")
        .files
        .iter()
        .map(|i| i.path.clone())
        .collect()
}

/// Every file under `dir` (outside `.git`) gets a new modification time,
/// so git's index no longer vouches for any of them and git must read
/// them all, as after extracting an archive.
pub fn make_stat_dirty(dir: &Path) {
    let later = SystemTime::now() + Duration::from_secs(3600);
    for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).expect("stat");
        if meta.is_dir() {
            make_stat_dirty(&path);
        } else if meta.is_file() {
            std::fs::File::options()
                .append(true)
                .open(&path)
                .and_then(|f| f.set_modified(later))
                .expect("set mtime");
        }
    }
}

/// A FIFO (e.g. where `.git/index` should be, which git opens and waits
/// on); on drop (a failed test too) a writer opens and closes it, so a git
/// still waiting on it reads an end and exits rather than linger.
pub struct Fifo(pub PathBuf);

impl Fifo {
    /// Make the FIFO at `path`.
    pub fn make(path: PathBuf) -> Fifo {
        let fifo = Fifo(path);
        super::files::mkfifo(&fifo.0);
        fifo
    }
}

impl Drop for Fifo {
    fn drop(&mut self) {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&self.0);
    }
}
