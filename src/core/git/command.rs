//! Running `git` so that nothing a repository configures runs a program
//! (no filter driver at all, not even the user's own), and so that a git that never ends (a FIFO where `.git/index` should
//! be, a hung network filesystem) is stopped at a deadline. Every git run
//! of `core::git` goes through [`Git`]; the audit of what a repository's
//! config could make git run is in `core::git`'s header.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::GitError;
use crate::core::io_bounds;

/// How long one git command may run unless `CTXCURATE_GIT_TIMEOUT`
/// (seconds) says otherwise: far more than a status of a large
/// repository takes, short enough that a stuck git is reported.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(30);

/// The most heap one git process may take (`RLIMIT_DATA`, which counts
/// neither git's read-only maps of packs and index nor its stack): a
/// diff of a large repository takes a small part of it, while a file git
/// reads line by line that never ends (`.git/info/attributes` linked to
/// `/dev/zero`) fails at it in seconds instead of taking the machine's
/// memory until the deadline.
const MEMORY_LIMIT: u64 = 2 * 1024 * 1024 * 1024;

/// The most bytes of git's stderr kept for an error message (the rest
/// is read and dropped, so git never blocks on it).
const STDERR_LIMIT: usize = 16 * 1024;

/// Settings given on git's command line for every run. Command-line
/// settings override every config file and every `include`, so each
/// holds whatever the repository says.
const FIXED: &[&str] = &[
    // The fsmonitor hook is a program named by config.
    "core.fsmonitor=false",
    // No hook runs for a read, but none may run if one ever did.
    "core.hooksPath=/dev/null",
    // A partial clone fetches missing objects on demand, through a
    // transport (ssh, `remote.*.uploadpack`, `core.sshCommand`, a
    // credential helper): no transport at all.
    "protocol.allow=never",
    "credential.helper=",
    "core.askPass=",
    // Diffs: no external driver and no text conversion are also passed
    // as options; prefixes and paths as `core::git` parses them.
    "diff.external=",
    // A file git reads whole before it diffs (`/dev/zero` took 2 GB, a
    // FIFO held git to the deadline): none.
    "diff.orderFile=/dev/null",
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "diff.relative=false",
    "diff.ignoreSubmodules=all",
    "core.quotePath=false",
    "color.ui=false",
    // A submodule's own config (and its filters) stays unread: git never
    // goes into one.
    "submodule.recurse=false",
    "status.submoduleSummary=false",
];

/// Environment variables that would point git at another repository,
/// work tree, index, object store or config than the one found from the
/// project root, or run a program. The caller's shell may have them (a
/// git hook sets `GIT_DIR`); they are not the project's.
const CLEARED_ENV: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_CONFIG",
    "GIT_CONFIG_COUNT",
    "GIT_ATTR_SOURCE",
    "GIT_EXTERNAL_DIFF",
    "GIT_DIFF_OPTS",
    "GIT_PAGER",
    "PAGER",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_PROXY_COMMAND",
];

/// git in one project root, with a deadline and the settings that keep
/// the repository's programs from running.
#[derive(Debug, Clone)]
pub struct Git {
    root: PathBuf,
    deadline: Duration,
    /// Config given as `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` (set per
    /// repository: every filter driver its config names, emptied). The
    /// environment form, not `-c`: a name may hold `=`, which `-c` would
    /// split at.
    extra: Vec<(OsString, OsString)>,
}

impl Git {
    /// git in `root`, with the deadline from `CTXCURATE_GIT_TIMEOUT`
    /// (seconds; unset or unreadable: [`DEFAULT_DEADLINE`]).
    pub fn new(root: &Path) -> Git {
        let deadline = std::env::var("CTXCURATE_GIT_TIMEOUT")
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .unwrap_or(DEFAULT_DEADLINE);
        Git {
            root: root.to_path_buf(),
            deadline,
            extra: Vec::new(),
        }
    }

    /// The root git runs in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Empty every filter driver git knows of, at any scope (the
    /// repository's config and what it includes, but also the user's
    /// global and system config and the command line): its `clean`,
    /// `smudge` and `process`, and make none required, so that comparing
    /// the work tree with the index never runs one. A driver the user
    /// installed is no safer: the repository chooses which files it gets
    /// (`.gitattributes`), steers it through settings of its own
    /// (`lfs.extension.*` in a shipped `.git/config`) and is its working
    /// directory (`python3 -m mod` imports the repository's `mod.py`).
    pub fn neutralise_filters(&mut self) -> Result<(), GitError> {
        let listed = match self.run(&["config", "-z", "--name-only", "--get-regexp", r"^filter\."])
        {
            Ok(out) => out,
            // Status 1: no such key, so no filter.
            Err(GitError::Failed {
                status: Some(1), ..
            }) => Vec::new(),
            Err(e) => return Err(e),
        };
        self.extra = neutral_filter_settings(&listed);
        Ok(())
    }

    /// `git args…` in the root, hardened (not yet run).
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        cmd.arg("-C").arg(&self.root).arg("--no-pager");
        for setting in FIXED {
            cmd.arg("-c").arg(setting);
        }
        cmd.args(args);
        for name in CLEARED_ENV {
            cmd.env_remove(name);
        }
        cmd.env("GIT_CONFIG_COUNT", self.extra.len().to_string());
        for (i, (key, value)) in self.extra.iter().enumerate() {
            cmd.env(format!("GIT_CONFIG_KEY_{i}"), key)
                .env(format!("GIT_CONFIG_VALUE_{i}"), value);
        }
        cmd.env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_NO_LAZY_FETCH", "1")
            .env("GIT_NO_REPLACE_OBJECTS", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group, so the deadline stops what it started.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        io_bounds::dies_with_parent(&mut cmd);
        // SAFETY: the hook runs in the child between fork and exec, and
        // only calls getrlimit(2) and setrlimit(2), which are
        // async-signal-safe, on a local struct.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
                let mut limit = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                if libc::getrlimit(libc::RLIMIT_DATA, &mut limit) == 0
                    && limit.rlim_cur > MEMORY_LIMIT as libc::rlim_t
                {
                    limit.rlim_cur = MEMORY_LIMIT as libc::rlim_t;
                    // A failure leaves the limit the caller gave.
                    libc::setrlimit(libc::RLIMIT_DATA, &limit);
                }
                Ok(())
            });
        }
        cmd
    }

    /// Run git to completion: its stdout, or its stderr as the error.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        self.stream(args, |mut out| {
            let mut bytes = Vec::new();
            out.read_to_end(&mut bytes).map(|_| bytes)
        })
    }

    /// Run git, handing its stdout to `read` (on a thread of its own)
    /// while the deadline runs; what `read` returned, once git succeeded.
    pub fn stream<T: Send + 'static>(
        &self,
        args: &[&str],
        read: impl FnOnce(ChildStdout) -> std::io::Result<T> + Send + 'static,
    ) -> Result<T, GitError> {
        let what = args.first().copied().unwrap_or("").to_string();
        let started = Instant::now();
        let mut child = self.command(args).spawn().map_err(GitError::Spawn)?;
        let (out_tx, out_rx) = mpsc::channel();
        if let Some(pipe) = child.stdout.take() {
            std::thread::spawn(move || {
                let _ = out_tx.send(read(pipe));
            });
        }
        let (err_tx, err_rx) = mpsc::channel();
        if let Some(pipe) = child.stderr.take() {
            std::thread::spawn(move || {
                let _ = err_tx.send(io_bounds::read_draining(pipe, STDERR_LIMIT));
            });
        }
        let timed_out = || GitError::TimedOut {
            command: what.clone(),
            seconds: self.deadline.as_secs_f64(),
        };
        let status = wait_until(&mut child, started + self.deadline).ok_or_else(timed_out)?;
        // The pipes close when git (and anything it started) has exited.
        // What still holds them past the deadline is something git
        // started, in its group: the group is killed then, and only then
        // (while it has a member its id is not handed to another
        // process; after, it could be).
        let left = || {
            (started + self.deadline)
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(500))
        };
        let stdout = out_rx.recv_timeout(left());
        let stderr = err_rx.recv_timeout(left());
        let still_held =
            |r: Option<&mpsc::RecvTimeoutError>| matches!(r, Some(mpsc::RecvTimeoutError::Timeout));
        if still_held(stdout.as_ref().err()) || still_held(stderr.as_ref().err()) {
            kill_group(&child);
        }
        let stderr = stderr.unwrap_or_default();
        let stdout = match stdout {
            Ok(read) => read,
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(timed_out()),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(std::io::Error::other("git's output could not be read"))
            }
        };
        if !status.success() {
            return Err(GitError::Failed {
                command: what,
                status: status.code(),
                stderr: String::from_utf8_lossy(&stderr).trim().to_string(),
            });
        }
        stdout.map_err(GitError::Spawn)
    }
}

/// Wait for `child` until `deadline`; at the deadline (or when waiting
/// fails) its process group is killed and `None` returned.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(None) | Err(_) => {
                // Not reaped yet, so its id (the group's) is still its.
                kill_group(child);
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Kill what is left of the process group `child` leads (git's own
/// children, a driver that escaped the neutralising would be one).
fn kill_group(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group
        // only; it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// The config settings that empty each filter driver named in `listed`
/// (`git config -z --name-only --get-regexp ^filter\.` output: `key\0`
/// for each setting, whatever its scope), each name once.
fn neutral_filter_settings(listed: &[u8]) -> Vec<(OsString, OsString)> {
    let mut names: Vec<&[u8]> = Vec::new();
    for key in listed.split(|&b| b == 0) {
        let Some(rest) = key.strip_prefix(b"filter.") else {
            continue;
        };
        // `filter.<name>.<variable>`: the name is everything up to the
        // last dot, and may itself hold dots, `=` or bytes that are not
        // UTF-8 (passed back as the same bytes).
        let Some(dot) = rest.iter().rposition(|&b| b == b'.') else {
            continue;
        };
        let name = &rest[..dot];
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mut settings = Vec::new();
    for name in names {
        for (variable, value) in [
            ("clean", ""),
            ("smudge", ""),
            ("process", ""),
            ("required", "false"),
        ] {
            let mut key = b"filter.".to_vec();
            key.extend_from_slice(name);
            key.push(b'.');
            key.extend_from_slice(variable.as_bytes());
            settings.push((OsString::from_vec(key), OsString::from(value)));
        }
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filter_name_at_every_scope_is_emptied_and_not_required() {
        // Names as `--name-only -z` lists them: from the repository, an
        // include, the user's global config and the command line alike.
        let listed = b"filter.lfs.clean\0filter.lfs.process\0filter.a.b=c.smudge\0\
                       filter.flag.required\0filter.mine.clean\0filter.lfs.smudge\0\
                       filter.flag.clean\0";
        let settings = neutral_filter_settings(listed);
        let keys: Vec<&str> = settings.iter().filter_map(|(k, _)| k.to_str()).collect();
        assert_eq!(
            keys,
            [
                "filter.lfs.clean",
                "filter.lfs.smudge",
                "filter.lfs.process",
                "filter.lfs.required",
                "filter.a.b=c.clean",
                "filter.a.b=c.smudge",
                "filter.a.b=c.process",
                "filter.a.b=c.required",
                "filter.flag.clean",
                "filter.flag.smudge",
                "filter.flag.process",
                "filter.flag.required",
                "filter.mine.clean",
                "filter.mine.smudge",
                "filter.mine.process",
                "filter.mine.required",
            ]
        );
        assert!(settings.iter().all(|(k, v)| v.to_str()
            == Some(if k.to_string_lossy().ends_with(".required") {
                "false"
            } else {
                ""
            })));
    }
}
