//! Shared helpers for integration tests: a temp project with fixture files
//! and a way to run the real `ctxcurate` binary in it, isolated from the
//! user's global config. Beside it: `machine` (the switch for tests that
//! need this machine's corpora and tools), `corpus` (finding real code and
//! the oracles that judge it), `isolated` (a test in a child process with
//! its own environment), `pty` and `tmux` (terminals for the CLI and the
//! TUI end to end), `harness` (the TUI in-process), `git` (repositories
//! and the binary with git isolated), `files` (FIFOs, executables, copied
//! trees, a held lock).

#![allow(dead_code)]

pub mod corpus;
pub mod files;
pub mod git;
pub mod harness;
pub mod isolated;
pub mod machine;
pub mod mcp_stdio;
pub mod pty;
pub mod source;
pub mod tmux;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const APP_PY: &str = r#""""The demo application."""
import os


class App:
    """Runs things."""

    def run(self, x: int) -> bool:
        """Run once."""
        return x > 0

    def _cache(self):
        return {}


def main():
    App().run(1)
"#;

pub const UTIL_C: &str = r#"/* Small geometry helpers. */
#include <stdio.h>

struct Point {
    int x;
    int y;
};

int add(int a, int b) {
    return a + b;
}
"#;

/// A temp project directory plus an isolated config home.
pub struct Project {
    pub dir: tempfile::TempDir,
    pub config_home: tempfile::TempDir,
}

impl Project {
    /// An empty project.
    pub fn empty() -> Self {
        Project {
            dir: tempfile::tempdir().expect("tempdir"),
            config_home: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// A project with `src/app.py`, `src/util.c`, `docs/guide.md`, a
    /// binary `logo.bin`, and no `ctxcurate.toml`.
    pub fn fixture() -> Self {
        let p = Self::empty();
        p.write("src/app.py", APP_PY);
        p.write("src/util.c", UTIL_C);
        p.write("docs/guide.md", "# Guide\n\nRead this first. Then more.\n");
        std::fs::write(p.path("logo.bin"), b"\x89PNG\0\0\x01").expect("write");
        p
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).expect("read")
    }

    /// A `ctxcurate` command running in the project root ([`binary`]).
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(binary());
        cmd.args(args)
            .current_dir(self.root())
            .env("XDG_CONFIG_HOME", self.config_home.path())
            .env("HOME", self.config_home.path())
            .env("XDG_STATE_HOME", self.config_home.path().join("state"))
            .env_remove("CTXCURATE_CONFIG")
            .stdin(Stdio::null());
        cmd
    }

    /// Run `ctxcurate args…` and return its output.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().expect("run ctxcurate")
    }

    /// Run `ctxcurate args…` in `dir` (a folder of the project, or outside
    /// it) and return its output.
    pub fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.cmd(args)
            .current_dir(dir)
            .output()
            .expect("run ctxcurate")
    }

    /// Run and require success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "ctxcurate {args:?} failed ({:?}):\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 stdout")
    }

    /// The global config file of this project's isolated config home.
    pub fn global_config(&self) -> PathBuf {
        self.config_home.path().join("ctxcurate/config.toml")
    }
}

/// The project file `p` has saved, parsed.
pub fn saved(p: &Project) -> ctxcurate::core::model::ProjectFile {
    toml::from_str(&p.read("ctxcurate.toml")).expect("saved file parses")
}

/// Run `cmd` with its output captured; kill it and fail the test if it
/// has not ended after `limit`: a hang is a failure, not a stuck run.
/// The output goes to files, not pipes: nothing has to drain them, and a
/// process the child leaves behind holding them cannot keep this waiting.
pub fn output_within(mut cmd: Command, limit: Duration) -> Output {
    let (mut child, files) = spawn_to_files(&mut cmd);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} hung (killed after {limit:?})");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    files.output(status)
}

/// Where a child of [`spawn_to_files`] writes its stdout and stderr.
struct OutputFiles {
    dir: tempfile::TempDir,
}

impl OutputFiles {
    /// What the child wrote, with its exit `status`.
    fn output(self, status: std::process::ExitStatus) -> Output {
        Output {
            status,
            stdout: std::fs::read(self.dir.path().join("out")).expect("stdout"),
            stderr: std::fs::read(self.dir.path().join("err")).expect("stderr"),
        }
    }
}

/// `cmd` started with its stdout and stderr going to files.
fn spawn_to_files(cmd: &mut Command) -> (std::process::Child, OutputFiles) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = |name: &str| Stdio::from(std::fs::File::create(dir.path().join(name)).expect(name));
    let child = cmd
        .stdout(file("out"))
        .stderr(file("err"))
        .spawn()
        .expect("spawn");
    (child, OutputFiles { dir })
}

/// [`output_within`], and the child's peak resident memory in KiB (its
/// `ru_maxrss`, from `wait4`): a memory bound is checked on the process
/// itself, with no clock in the test.
#[cfg(unix)]
pub fn output_and_peak_within(mut cmd: Command, limit: Duration) -> (Output, u64) {
    use std::os::unix::process::ExitStatusExt;
    let (mut child, files) = spawn_to_files(&mut cmd);
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    let started = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is this process's own unwaited child; both
        // pointers are to live locals.
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break (status, usage);
        }
        assert!(waited == 0, "wait4: {}", std::io::Error::last_os_error());
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} hung (killed after {limit:?})");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = files.output(std::process::ExitStatus::from_raw(status));
    (output, u64::try_from(usage.ru_maxrss).unwrap_or(0))
}

/// The preset `name` of the saved project file; empty when there is no
/// project file or no such preset.
pub fn saved_preset(p: &Project, name: &str) -> ctxcurate::core::model::Preset {
    if !p.path("ctxcurate.toml").exists() {
        return Default::default();
    }
    let file: ctxcurate::core::model::ProjectFile =
        toml::from_str(&p.read("ctxcurate.toml")).expect("ctxcurate.toml parses");
    file.presets.get(name).cloned().unwrap_or_default()
}

/// The file headings (`### path`) of a Markdown composition, in order.
pub fn headings(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("### ")).collect()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `ctxcurate` the tests run: this build's, or the binary
/// `CTXCURATE_TEST_BIN` names (to show a new test fails on an earlier
/// build).
pub fn binary() -> std::ffi::OsString {
    std::env::var_os("CTXCURATE_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_ctxcurate").into())
}

/// Pseudo-random bytes (xorshift), the same for the same seed: a binary
/// file's, or key material the scanner must not take for text.
pub fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Gzip of `bytes` (fast compression), made in memory.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("in memory");
    gz.finish().expect("in memory")
}

/// Standard base64 (with padding) of `bytes`.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `n` characters of `alphabet`, pseudo-random, the same for a seed: the
/// made-up values of the secrets tests (no file holds a whole one).
pub fn random(alphabet: &str, seed: u64, n: usize) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            chars[(x >> 24) as usize % chars.len()]
        })
        .collect()
}

/// A file `name` holding `text`, alone in a fixture project: building it
/// is refused with a finding at `line` that says how to allow it, and the
/// findings show masked values, never a line of the file. The secrets
/// rounds' planted shapes each go through this.
pub fn assert_build_refuses_planted(name: &str, text: &str, line: usize) {
    let p = Project::fixture();
    p.write(name, text);
    p.ok(&["add", name]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{name}: {err}");
    assert!(
        err.contains(&format!("likely secret: {name}:{line}: ")),
        "{name}: {err}"
    );
    assert!(err.contains("--allow-secrets"), "{name}: {err}");
    for secret_line in text.lines().filter(|l| l.len() > 12) {
        assert!(!err.contains(secret_line.trim()), "{name} echoed: {err}");
    }
}
