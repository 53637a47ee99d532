//! The summary view's source: the heuristic summaries of `summary`, or an
//! external `summary_command` (an LLM CLI, say) that reads the file on stdin
//! and prints its summary, both cached on disk (`store`, bucket
//! [`BUCKET`]) by the SHA-256 of the content plus the summarizer's identity
//! (heuristic version and file type, or the command line). A changed file
//! has a new hash and a corrupt entry is dropped by the store, so neither is
//! ever served; both are recomputed.
//!
//! The external command runs on the caller's thread (the TUI calls this
//! from its worker, never from the UI thread), with a timeout after which
//! it is killed. A timeout, a failure or an empty output falls back to the
//! heuristic summary with a note; failures are not cached, so the command
//! is tried again next run.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::core::model::Settings;
use crate::core::store::{self, DiskCache};
use crate::core::summary;

/// The store bucket of summaries.
pub const BUCKET: &str = "summary";

/// How summaries are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryConfig {
    /// The external summarizer's program and arguments, if any.
    pub command: Option<Vec<String>>,
    /// How long the command may run for one file.
    pub timeout: Duration,
}

impl Default for SummaryConfig {
    fn default() -> Self {
        SummaryConfig {
            command: None,
            timeout: Duration::from_secs(30),
        }
    }
}

impl SummaryConfig {
    pub fn from_settings(s: &Settings) -> Self {
        SummaryConfig {
            command: s.summary_command.argv(),
            timeout: Duration::from_secs(s.summary_timeout.max(1)),
        }
    }
}

/// One file's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub text: String,
    /// What the reader should know (the external summarizer failed, …).
    pub notes: Vec<String>,
}

/// Makes summaries through the disk cache; shared by every thread of a
/// composition.
#[derive(Debug)]
pub struct Summarizer {
    disk: DiskCache,
    config: SummaryConfig,
    /// Summaries computed (not served from the disk cache), for tests and
    /// statistics.
    computed: AtomicUsize,
}

impl Default for Summarizer {
    /// Heuristic summaries, no disk cache.
    fn default() -> Self {
        Summarizer::new(DiskCache::disabled(), SummaryConfig::default())
    }
}

impl Summarizer {
    pub fn new(disk: DiskCache, config: SummaryConfig) -> Self {
        Summarizer {
            disk,
            config,
            computed: AtomicUsize::new(0),
        }
    }

    /// The summarizer of the project at `root`: its disk cache and its
    /// settings.
    pub fn for_project(root: &Path, settings: &Settings) -> Self {
        Summarizer::new(
            DiskCache::open(root),
            SummaryConfig::from_settings(settings),
        )
    }

    /// The disk cache it reads and writes.
    pub fn disk(&self) -> &DiskCache {
        &self.disk
    }

    /// How many summaries were computed rather than read from the cache.
    pub fn computed(&self) -> usize {
        self.computed.load(Ordering::Relaxed)
    }

    /// The cache key of `path`'s summary for content hashing to `hash`:
    /// what the summary depends on besides the content.
    pub fn key(&self, path: &str, hash: &[u8; 32]) -> [u8; 32] {
        match &self.config.command {
            Some(argv) => {
                let line = argv.join("\0");
                store::key(&[b"command", line.as_bytes(), hash])
            }
            None => {
                let ext = path
                    .rsplit('/')
                    .next()
                    .and_then(|name| name.rsplit_once('.'))
                    .map(|(_, e)| e.to_ascii_lowercase())
                    .unwrap_or_default();
                store::key(&[summary::VERSION.as_bytes(), ext.as_bytes(), hash])
            }
        }
    }

    /// `true` when the summary of this content is on disk.
    pub fn is_cached(&self, path: &str, hash: &[u8; 32]) -> bool {
        self.disk.contains(BUCKET, &self.key(path, hash))
    }

    /// The summary of `text` (the content of `path`, hashing to `hash`).
    pub fn summarize(&self, path: &str, text: &str, hash: &[u8; 32]) -> Summary {
        let key = self.key(path, hash);
        if let Some(cached) = self.disk.get_text(BUCKET, &key) {
            return Summary {
                text: cached,
                notes: Vec::new(),
            };
        }
        self.computed.fetch_add(1, Ordering::Relaxed);
        let Some(argv) = &self.config.command else {
            let text = summary::summarize(path, text);
            self.disk.put(BUCKET, &key, text.as_bytes());
            return Summary {
                text,
                notes: Vec::new(),
            };
        };
        match run_command(argv, text, self.config.timeout) {
            Ok(out) => {
                self.disk.put(BUCKET, &key, out.as_bytes());
                Summary {
                    text: out,
                    notes: Vec::new(),
                }
            }
            Err(why) => Summary {
                text: summary::summarize(path, text),
                notes: vec![format!(
                    "summary_command {why}; the built-in summary is shown"
                )],
            },
        }
    }
}

/// Run `argv` with `input` on stdin; its stdout (trimmed, non-empty) or
/// why not. Killed after `timeout`.
pub fn run_command(argv: &[String], input: &str, timeout: Duration) -> Result<String, String> {
    let (program, args) = argv.split_first().ok_or("is empty")?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so a timeout kills what it started too.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("`{program}` could not start: {e}"))?;
    let (tx, rx) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_string();
        // A command that does not read its input gets a broken pipe: fine.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    for (which, pipe) in [
        (
            "out",
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
        (
            "err",
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            let _ = tx.send((which, bytes));
        });
    }
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(None) => {
                kill(&mut child);
                return Err(format!("timed out after {} s", timeout.as_secs()));
            }
            Err(e) => {
                kill(&mut child);
                return Err(format!("failed: {e}"));
            }
        }
    };
    // The pipes close when the command (and anything it started) exits.
    let (mut out, mut err) = (None, None);
    while out.is_none() || err.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left.max(Duration::from_millis(100))) {
            Ok(("out", bytes)) => out = Some(bytes),
            Ok((_, bytes)) => err = Some(bytes),
            Err(_) => break,
        }
    }
    if !status.success() {
        let stderr = String::from_utf8_lossy(err.as_deref().unwrap_or_default());
        let first = stderr.lines().next().unwrap_or("").trim();
        let code = status
            .code()
            .map_or("a signal".to_string(), |c| format!("status {c}"));
        return Err(if first.is_empty() {
            format!("exited with {code}")
        } else {
            format!("exited with {code}: {}", summary::clip(first, 200))
        });
    }
    let text = String::from_utf8_lossy(out.as_deref().unwrap_or_default())
        .trim()
        .to_string();
    if text.is_empty() {
        return Err("printed nothing".into());
    }
    Ok(text + "\n")
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn command_output_failure_timeout_and_silence() {
        let t = Duration::from_secs(5);
        assert_eq!(
            run_command(&sh("tr a-z A-Z"), "abc\n", t),
            Ok("ABC\n".into())
        );
        let err = run_command(&sh("echo boom >&2; exit 3"), "x", t).unwrap_err();
        assert_eq!(err, "exited with status 3: boom");
        assert_eq!(
            run_command(&sh("cat >/dev/null"), "x", t),
            Err("printed nothing".into())
        );
        let started = Instant::now();
        let err = run_command(&sh("sleep 30"), "x", Duration::from_secs(1)).unwrap_err();
        assert_eq!(err, "timed out after 1 s");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "killed, not waited for"
        );
        let err = run_command(&["/nonexistent/summarizer".to_string()], "x", t).unwrap_err();
        assert!(err.contains("could not start"), "{err}");
    }

    #[test]
    fn heuristic_summaries_are_cached_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let text = "x = 1\n".repeat(50);
        let hash = store::key(&[text.as_bytes()]);
        let s = Summarizer::new(DiskCache::open(dir.path()), SummaryConfig::default());
        assert!(!s.is_cached("a.py", &hash));
        let first = s.summarize("a.py", &text, &hash);
        assert!(s.is_cached("a.py", &hash));
        assert!(
            !s.is_cached("a.txt", &hash),
            "the file type is part of the key"
        );
        let again = Summarizer::new(DiskCache::open(dir.path()), SummaryConfig::default());
        assert_eq!(again.summarize("a.py", &text, &hash), first);
        assert_eq!((s.computed(), again.computed()), (1, 0));
    }

    #[test]
    fn a_failing_command_falls_back_uncached() {
        let dir = tempfile::tempdir().unwrap();
        let config = SummaryConfig {
            command: Some(sh("exit 1")),
            timeout: Duration::from_secs(5),
        };
        let s = Summarizer::new(DiskCache::open(dir.path()), config);
        let text = "line\n".repeat(40);
        let hash = store::key(&[text.as_bytes()]);
        let out = s.summarize("notes.txt", &text, &hash);
        assert_eq!(out.text, summary::summarize("notes.txt", &text));
        assert_eq!(
            out.notes,
            ["summary_command exited with status 1; the built-in summary is shown"]
        );
        assert!(!s.is_cached("notes.txt", &hash));
    }
}
