//! The summary view: a file's summary from its source — the built-in
//! heuristics of `summary::heuristic`, or an external `summary_command` (an
//! LLM CLI, say, run by `summary::command`) that reads the file on stdin
//! and prints its summary — both cached on disk (`cache::disk`, bucket
//! [`BUCKET`]) by the SHA-256 of the content plus the summarizer's identity
//! (heuristic version and file type, or the command line). A changed file
//! has a new hash and a corrupt entry is dropped by the store, so neither is
//! ever served; both are recomputed.
//!
//! The external command runs on the caller's thread (the TUI calls this
//! from its worker, never from the UI thread), with a timeout after which
//! it is killed. A timeout, a failure or an empty output falls back to the
//! heuristic summary with a note; failures are not cached, so the command
//! is tried again next run. Its output is read up to a cap (`max_file_size`,
//! at most [`OUTPUT_CEILING`]): a command that prints more is stopped and
//! its summary cut there, with a note, so no output can exhaust memory.
//! Any timeout works, however large (one past what a clock can hold is no
//! timeout).
//!
//! Which command runs is decided by the settings, which `core::trust`
//! resolves: a project file's `summary_command` only after `ctxcurate trust`.
//! Which files it reads is decided by the preset, which a repository may
//! ship, so `summary::gate` checks each file first: a credential file by
//! name or a text holding a likely secret never reaches the command; it
//! gets the built-in summary with a note (not cached, like a failure).

pub mod command;
pub mod gate;
pub mod heuristic;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::core::model::Settings;
use crate::core::store::disk::{self as store, DiskCache};
use command::{CommandOutput, run_command};
use heuristic as summary;

/// The store bucket of summaries.
pub const BUCKET: &str = "summary";

pub use command::OUTPUT_CEILING;

/// How summaries are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryConfig {
    /// The external summarizer's program and arguments, if any.
    pub command: Option<Vec<String>>,
    /// How long the command may run for one file.
    pub timeout: Duration,
    /// The most bytes of the command's output kept as a summary.
    pub max_output: usize,
    /// The folder the command runs in (`None`: this process's).
    pub workdir: Option<PathBuf>,
}

impl Default for SummaryConfig {
    fn default() -> Self {
        SummaryConfig {
            command: None,
            timeout: Duration::from_secs(30),
            max_output: 1024 * 1024,
            workdir: None,
        }
    }
}

impl SummaryConfig {
    pub fn from_settings(s: &Settings) -> Self {
        SummaryConfig {
            command: s.summary_command.argv(),
            timeout: Duration::from_secs(s.summary_timeout.max(1)),
            max_output: usize::try_from(s.max_file_size)
                .unwrap_or(usize::MAX)
                .clamp(1, OUTPUT_CEILING),
            workdir: None,
        }
    }

    /// [`SummaryConfig::from_settings`] for the project at `root`: a
    /// trusted project file's command runs in the root (the scripts it
    /// names, and that consent covers, are the root's); the user's own
    /// global command runs in `/`, so nothing of the checkout is on its
    /// way (`python3 -c …` imports from its working folder first, and a
    /// repository could ship a `textwrap.py`).
    pub fn for_project(s: &Settings, root: &Path) -> Self {
        let workdir = if s.summary_command_from_project {
            root.to_path_buf()
        } else {
            PathBuf::from("/")
        };
        SummaryConfig {
            workdir: Some(workdir),
            ..SummaryConfig::from_settings(s)
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
            SummaryConfig::for_project(settings, root),
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
        // Checked before the cache too: a summary the command made of this
        // text before the gate existed is its output on a secret, not to be
        // shown either.
        if self.config.command.is_some()
            && let Some(note) = gate::withheld(path, text)
        {
            // Not cached: the key is the command's, and the user may yet
            // remove the secret or rename the file.
            return Summary {
                text: summary::summarize(path, text),
                notes: vec![note],
            };
        }
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
        match run_command(
            argv,
            text,
            self.config.timeout,
            self.config.max_output,
            self.config.workdir.as_deref(),
        ) {
            Ok(CommandOutput { text, cut: false }) => {
                self.disk.put(BUCKET, &key, text.as_bytes());
                Summary {
                    text,
                    notes: Vec::new(),
                }
            }
            Ok(CommandOutput { text, cut: true }) => {
                // The marker is part of the cached text, so a summary read
                // back from the cache still says it is incomplete.
                let max = self.config.max_output;
                let text =
                    format!("{text}[summary cut: summary_command printed more than {max} bytes]\n");
                self.disk.put(BUCKET, &key, text.as_bytes());
                Summary {
                    text,
                    notes: vec![format!(
                        "summary_command printed more than {max} bytes (max_file_size); \
                         its summary is cut there"
                    )],
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    const CAP: usize = 1 << 20;

    #[test]
    fn command_output_failure_timeout_and_silence() {
        let t = Duration::from_secs(5);
        assert_eq!(
            run_command(&sh("tr a-z A-Z"), "abc\n", t, CAP, None).ok(),
            Some(CommandOutput {
                text: "ABC\n".into(),
                cut: false
            })
        );
        let err = run_command(&sh("echo boom >&2; exit 3"), "x", t, CAP, None).unwrap_err();
        assert_eq!(err.to_string(), "exited with status 3: boom");
        let err = run_command(&sh("exit 4"), "x", t, CAP, None).unwrap_err();
        assert_eq!(err.to_string(), "exited with status 4");
        let err = run_command(&sh("cat >/dev/null"), "x", t, CAP, None).unwrap_err();
        assert_eq!(err.to_string(), "printed nothing");
        let err = run_command(&sh("sleep 30"), "x", Duration::from_secs(1), CAP, None).unwrap_err();
        assert_eq!(err.to_string(), "timed out after 1 s");
        let err =
            run_command(&["/nonexistent/summarizer".to_string()], "x", t, CAP, None).unwrap_err();
        assert!(err.to_string().contains("could not start"), "{err}");
        let err = run_command(&[], "x", t, CAP, None).unwrap_err();
        assert_eq!(err.to_string(), "is empty");
    }

    #[test]
    fn any_timeout_works() {
        // `Instant::now() + Duration::from_secs(u64::MAX)` overflows.
        for secs in [u64::MAX, i64::MAX as u64] {
            let out = run_command(&sh("echo ok"), "x", Duration::from_secs(secs), CAP, None);
            assert_eq!(out.map(|o| o.text).ok(), Some("ok\n".into()), "{secs}");
        }
        let settings = Settings {
            summary_timeout: u64::MAX,
            summary_command: crate::core::model::CommandLine::Shell("echo ok".into()),
            ..Settings::default()
        };
        let s = Summarizer::new(
            DiskCache::disabled(),
            SummaryConfig::from_settings(&settings),
        );
        let hash = store::key(&[b"x"]);
        assert_eq!(s.summarize("a.txt", "x", &hash).text, "ok\n");
    }

    #[test]
    fn endless_output_is_cut_at_the_cap() {
        // `yes` never stops printing: it must be stopped, not read to the
        // end (before the cap, the read grew until memory ran out).
        for (script, what) in [
            ("yes", "dies of the closed pipe"),
            ("trap '' PIPE; yes 2>/dev/null; sleep 600", "ignores it"),
            ("yes >&2 & sleep 0.2; echo fine; kill $!", "floods stderr"),
        ] {
            let out = run_command(&sh(script), "x", Duration::from_secs(600), 4096, None);
            let out = out.unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(out.text.len() <= 4097, "{what}: {}", out.text.len());
            if what == "floods stderr" {
                assert_eq!(
                    out,
                    CommandOutput {
                        text: "fine\n".into(),
                        cut: false
                    }
                );
            } else {
                assert!(out.cut && out.text.starts_with("y\ny\n"), "{what}");
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let config = SummaryConfig {
            command: Some(sh("yes")),
            timeout: Duration::from_secs(600),
            max_output: 1000,
            workdir: None,
        };
        let s = Summarizer::new(DiskCache::open(dir.path()), config);
        let hash = store::key(&[b"x"]);
        let first = s.summarize("a.txt", "x", &hash);
        assert!(
            first
                .text
                .ends_with("[summary cut: summary_command printed more than 1000 bytes]\n")
        );
        assert!(first.text.len() < 1100, "{}", first.text.len());
        assert_eq!(first.notes.len(), 1, "{:?}", first.notes);
        // Cached with its marker.
        assert_eq!(s.summarize("a.txt", "x", &hash).text, first.text);
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
    fn a_secret_never_reaches_the_command_nor_its_cached_summary() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("stdin.log");
        let config = SummaryConfig {
            command: Some(sh(&format!("cat >> '{}'; echo EXTERNAL", log.display()))),
            timeout: Duration::from_secs(5),
            max_output: CAP,
            workdir: None,
        };
        let s = Summarizer::new(DiskCache::open(dir.path()), config);
        let key = format!("AKIA{}", "IOSFODNN7EXAMPL3");
        let text = format!("def f():\n    return '{key}'\n").repeat(20);
        let hash = store::key(&[text.as_bytes()]);
        // What an older version cached: the command's summary of the secret.
        s.disk().put(BUCKET, &s.key("a.py", &hash), b"EXTERNAL\n");
        let out = s.summarize("a.py", &text, &hash);
        assert_eq!(out.text, summary::summarize("a.py", &text));
        assert_eq!(
            out.notes,
            [
                "summary_command was not run on a.py: a likely secret (AWS access key) on line 2 \
              (and 19 more); the built-in summary is shown"
            ]
        );
        assert!(!log.exists(), "the command never ran");
        // A clean file still goes to the command.
        let clean = "def f():\n    return 1\n".repeat(20);
        let hash = store::key(&[clean.as_bytes()]);
        assert_eq!(s.summarize("a.py", &clean, &hash).text, "EXTERNAL\n");
        assert!(std::fs::read_to_string(&log).unwrap().contains("return 1"));
    }

    /// The user's own global command runs from `/`, a trusted project's
    /// from the root: nothing in the checkout is on the global command's
    /// way (a repository's `textwrap.py` for `python3 -c …`).
    #[test]
    fn the_global_command_runs_outside_the_checkout_and_the_projects_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut settings = Settings {
            summary_command: crate::core::model::CommandLine::Shell("pwd".into()),
            ..Settings::default()
        };
        let pwd = |settings: &Settings| {
            let config = SummaryConfig::for_project(settings, dir.path());
            let argv = config.command.clone().unwrap();
            run_command(
                &argv,
                "x",
                Duration::from_secs(5),
                CAP,
                config.workdir.as_deref(),
            )
            .unwrap()
            .text
        };
        assert_eq!(pwd(&settings).trim(), "/");
        settings.summary_command_from_project = true;
        let real = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(std::path::Path::new(pwd(&settings).trim()), real);
    }

    #[test]
    fn a_failing_command_falls_back_uncached() {
        let dir = tempfile::tempdir().unwrap();
        let config = SummaryConfig {
            command: Some(sh("exit 1")),
            timeout: Duration::from_secs(5),
            max_output: CAP,
            workdir: None,
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
