//! Running an external `summary_command`: the file on its stdin, its
//! stdout (trimmed, capped) as the summary, killed with its process group
//! after a timeout. Only `core::summary` calls it, on the caller's thread.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::core::io_bounds;

/// The most bytes of a summary command's output ever read, whatever
/// `max_file_size` says.
pub const OUTPUT_CEILING: usize = 16 * 1024 * 1024;

/// The most bytes of a summary command's stderr kept (the rest is read
/// and dropped, so the command never blocks on it).
const STDERR_LIMIT: usize = 64 * 1024;

/// What a summary command printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandOutput {
    /// Its stdout, trimmed, ending in a newline.
    pub text: String,
    /// It printed more than the cap: `text` is the first part, and the
    /// command was stopped.
    pub cut: bool,
}

/// Why a summary command gave no summary. Each reads after
/// "summary_command " in the note a file gets; causes are shown, not
/// chained, so the note stays one line.
#[derive(Debug, Error)]
pub enum CommandError {
    /// The command line names no program.
    #[error("is empty")]
    Empty,
    /// The program could not be started.
    #[error("`{program}` could not start: {error}")]
    Spawn {
        program: String,
        error: std::io::Error,
    },
    /// It ran past its timeout and was killed.
    #[error("timed out after {} s", .after.as_secs())]
    TimedOut { after: Duration },
    /// Waiting for it failed.
    #[error("failed: {0}")]
    Wait(std::io::Error),
    /// It exited unsuccessfully; `code` is `None` for a signal, `stderr`
    /// its first line of error output (clipped), possibly empty.
    #[error("exited with {}{}", exit_code(*.code), stderr_part(.stderr))]
    Exited { code: Option<i32>, stderr: String },
    /// It succeeded but printed nothing.
    #[error("printed nothing")]
    Silent,
}

fn exit_code(code: Option<i32>) -> String {
    code.map_or("a signal".to_string(), |c| format!("status {c}"))
}

fn stderr_part(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(": {stderr}")
    }
}

/// Settings every git the command runs gets through the environment
/// (`GIT_CONFIG_KEY_n`, appended to the caller's own): no hook runs (a
/// `git status` writes the index and runs `post-index-change`, any ref
/// update runs `reference-transaction`, githooks(5)) and no fsmonitor
/// program. Environment settings override every config file and what it
/// includes (the repository's `.git/config`, which no review covers);
/// only a git the command runs with `-c`, or with an environment of its
/// own, is not held (`trust` reads those in the scripts it reviews).
const GIT_SETTINGS: &[(&str, &str)] =
    &[("core.hooksPath", "/dev/null"), ("core.fsmonitor", "false")];

/// Give `cmd` [`GIT_SETTINGS`] after the caller's `GIT_CONFIG_COUNT`
/// settings, and no optional index write (`GIT_OPTIONAL_LOCKS=0`).
fn hooks_off(cmd: &mut Command) {
    let given = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    for (i, (key, value)) in GIT_SETTINGS.iter().enumerate() {
        cmd.env(format!("GIT_CONFIG_KEY_{}", given + i), key)
            .env(format!("GIT_CONFIG_VALUE_{}", given + i), value);
    }
    cmd.env("GIT_CONFIG_COUNT", (given + GIT_SETTINGS.len()).to_string())
        .env("GIT_OPTIONAL_LOCKS", "0");
}

/// Run `argv` with `input` on stdin; its stdout (trimmed, non-empty; at
/// most `max_output` bytes, the command stopped once it printed more) or
/// why not. Killed after `timeout` (a timeout too large for the clock is
/// none).
pub fn run_command(
    argv: &[String],
    input: &str,
    timeout: Duration,
    max_output: usize,
    workdir: Option<&Path>,
) -> Result<CommandOutput, CommandError> {
    let (program, args) = argv.split_first().ok_or(CommandError::Empty)?;
    let mut cmd = Command::new(program);
    if let Some(dir) = workdir {
        cmd.current_dir(dir);
    }
    hooks_off(&mut cmd);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so a timeout kills what it started too.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    crate::core::io_bounds::dies_with_parent(&mut cmd);
    let mut child = cmd.spawn().map_err(|error| CommandError::Spawn {
        program: program.clone(),
        error,
    })?;
    let (tx, rx) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_string();
        // A command that does not read its input gets a broken pipe: fine.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    let overflow = Arc::new(AtomicBool::new(false));
    if let Some(pipe) = child.stdout.take() {
        let (tx, overflow) = (tx.clone(), Arc::clone(&overflow));
        std::thread::spawn(move || {
            let mut bytes = read_capped(pipe, max_output);
            if bytes.len() > max_output {
                bytes.truncate(max_output);
                overflow.store(true, Ordering::SeqCst);
            }
            // Dropping the pipe here stops a command that keeps printing.
            let _ = tx.send(("out", bytes));
        });
    } else {
        let _ = tx.send(("out", Vec::new()));
    }
    if let Some(pipe) = child.stderr.take() {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let _ = tx.send(("err", io_bounds::read_draining(pipe, STDERR_LIMIT)));
        });
    } else {
        let _ = tx.send(("err", Vec::new()));
    }
    let deadline = Instant::now().checked_add(timeout);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if overflow.load(Ordering::SeqCst) => {
                kill(&mut child);
                break None;
            }
            Ok(None) if deadline.is_none_or(|d| Instant::now() < d) => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(None) => {
                kill(&mut child);
                return Err(CommandError::TimedOut { after: timeout });
            }
            Err(e) => {
                kill(&mut child);
                return Err(CommandError::Wait(e));
            }
        }
    };
    // The pipes close when the command (and anything it started) exits.
    let (mut out, mut err) = (None, None);
    while out.is_none() || err.is_none() {
        let left = deadline.map_or(Duration::MAX, |d| {
            d.saturating_duration_since(Instant::now())
        });
        match rx.recv_timeout(left.max(Duration::from_millis(100))) {
            Ok(("out", bytes)) => out = Some(bytes),
            Ok((_, bytes)) => err = Some(bytes),
            Err(_) => break,
        }
    }
    // Stopped for printing too much (by us, or by the closed pipe): the
    // exit status says nothing about the summary.
    if overflow.load(Ordering::SeqCst) {
        let bytes = out.unwrap_or_default();
        return Ok(CommandOutput {
            text: text_of(&bytes) + "\n",
            cut: true,
        });
    }
    if let Some(status) = status.filter(|s| !s.success()) {
        let stderr = String::from_utf8_lossy(err.as_deref().unwrap_or_default());
        let first = stderr.lines().next().unwrap_or("").trim();
        return Err(CommandError::Exited {
            code: status.code(),
            stderr: super::heuristic::clip(first, 200).to_string(),
        });
    }
    let text = text_of(out.as_deref().unwrap_or_default());
    if text.is_empty() {
        return Err(CommandError::Silent);
    }
    Ok(CommandOutput {
        text: text + "\n",
        cut: false,
    })
}

/// At most `cap + 1` bytes of `pipe` (one more than allowed says it had
/// more).
fn read_capped(pipe: impl Read, cap: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    let _ = pipe.take(limit).read_to_end(&mut bytes);
    bytes
}

/// Output bytes as trimmed text; a character cut in half at the end (by
/// the cap) is dropped, other invalid UTF-8 is replaced.
fn text_of(bytes: &[u8]) -> String {
    let bytes = match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => bytes,
    };
    String::from_utf8_lossy(bytes).trim().to_string()
}

/// Kill the command's process group (and the command), and reap it.
fn kill(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}
