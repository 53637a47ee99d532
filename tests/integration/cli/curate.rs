//! The summary cache, the external summarizer and focus builds, through
//! the real binary in a temp project: the second build is served from the
//! cache (the summarizer's calls are counted by the summarizer itself, a
//! script that logs each call), a changed byte or a corrupted cache entry
//! is recomputed, `cache clear` empties it, and a summarizer that hangs or
//! fails falls back to the built-in summary with a note.

use crate::common;

use common::files::make_executable;
use common::{Project, stderr};

/// A project with two summarized files and an external summarizer script
/// that logs each call to `calls.log` and prints `SUMMARY OF <first line>`.
fn project_with_summarizer(script_body: &str, timeout: u64) -> Project {
    let p = Project::empty();
    p.write("a.py", &module_a());
    p.write("b.md", &"# B\n\nThe b document. More.\n\n".repeat(10));
    let script = p.path("summarize.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{script_body}\n")).unwrap();
    make_executable(&script);
    p.write(
        "ctxcurate.toml",
        &format!(
            "[project]\nsummary_command = [\"{}\"]\nsummary_timeout = {timeout}\n\n\
             [[presets.default.files]]\npath = \"a.py\"\nview_mode = \"summary\"\n\n\
             [[presets.default.files]]\npath = \"b.md\"\nview_mode = \"summary\"\n",
            script.display()
        ),
    );
    // The user's consent to the project's summary_command (core/trust/consent.rs
    // shows it does not run without).
    p.ok(&["trust", "--yes"]);
    p
}

/// A module whose summary is much shorter than itself.
fn module_a() -> String {
    let mut text = "\"\"\"Module a.\"\"\"\n\n".to_string();
    for i in 0..8 {
        text.push_str(&format!(
            "def f{i}(x):\n    y = x + {i}\n    z = y * 2\n    return z - 1\n\n"
        ));
    }
    text
}

const LOGGING: &str =
    "echo call >> \"$(dirname \"$0\")/calls.log\"\nprintf 'SUMMARY OF %s\\n' \"$(head -n 1)\"";

fn calls(p: &Project) -> usize {
    std::fs::read_to_string(p.path("calls.log"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// Every entry file of the summary bucket.
fn entries(p: &Project) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let bucket = p.path(".ctxcurate/cache/summary");
    for shard in std::fs::read_dir(bucket).into_iter().flatten().flatten() {
        for e in std::fs::read_dir(shard.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            out.push(e.path());
        }
    }
    out
}

#[test]
fn external_summaries_are_cached_across_runs() {
    let p = project_with_summarizer(LOGGING, 30);
    let first = p.ok(&["build"]);
    assert!(
        first.contains("### a.py [summary]\n\n```\nSUMMARY OF \"\"\"Module a.\"\"\"\n```"),
        "{first}"
    );
    assert!(first.contains("SUMMARY OF # B"));
    assert_eq!(calls(&p), 2);
    // A second run: served from the disk cache, the summarizer not called.
    assert_eq!(p.ok(&["build"]), first);
    assert_eq!(calls(&p), 2);
    assert_eq!(entries(&p).len(), 2);
    let stats = p.ok(&["cache", "stats"]);
    assert!(
        stats.lines().any(|l| l.starts_with("summary\t2 entries\t")),
        "{stats}"
    );

    // One changed byte: that file only is summarized again.
    let a = p.read("a.py").replacen("Module a.", "Module A.", 1);
    p.write("a.py", &a);
    let changed = p.ok(&["build"]);
    assert_eq!(calls(&p), 3);
    assert!(changed.contains("SUMMARY OF \"\"\"Module A.\"\"\""));

    // A corrupted entry is dropped and recomputed, never served.
    for entry in entries(&p) {
        let mut bytes = std::fs::read(&entry).unwrap();
        let last = bytes.len() - 2;
        bytes[last] ^= 0x20;
        std::fs::write(&entry, bytes).unwrap();
    }
    assert_eq!(p.ok(&["build"]), changed);
    assert_eq!(calls(&p), 5, "both corrupted entries recomputed");
    assert_eq!(p.ok(&["build"]), changed);
    assert_eq!(calls(&p), 5);

    // `cache clear` empties it; the next build summarizes again.
    // Three summaries (one stale) plus the token counts of the builds.
    let cleared = p.ok(&["cache", "clear"]);
    assert!(cleared.contains("removed "), "{cleared}");
    assert_eq!(
        p.ok(&["cache", "stats"]),
        ".ctxcurate/cache: empty\nmemory\tat most 1024 MiB per process (memory_cache = 1024): \
         files 512 MiB, forced 128 MiB, views 256 MiB, derived 64 MiB, tokens 64 MiB\n"
    );
    p.ok(&["build"]);
    assert_eq!(calls(&p), 7);
}

#[test]
fn heuristic_summaries_are_cached_and_recovered() {
    let p = Project::empty();
    let text = module_a().replace("Module a.", "Tools.");
    p.write("a.py", &text);
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"a.py\"\nview_mode = \"summary\"\n",
    );
    let first = p.ok(&["build"]);
    assert_eq!(entries(&p).len(), 1);
    // A cache entry edited by hand to say something else is not served.
    let entry = &entries(&p)[0];
    let bytes = std::fs::read(entry).unwrap();
    let forged = String::from_utf8(bytes).unwrap().replace("Tools.", "Lies.");
    std::fs::write(entry, forged).unwrap();
    assert_eq!(p.ok(&["build"]), first);
    assert!(!p.ok(&["build"]).contains("Lies."));
    // Garbage in the cache directory does not break anything.
    std::fs::write(entry, b"\0\0garbage").unwrap();
    assert_eq!(p.ok(&["build"]), first);
}

#[test]
fn a_hanging_summarizer_times_out_and_falls_back() {
    // The script leaves its process id; sleep runs in it (`exec`), so the
    // id is alive until the build kills it or the 60 s pass.
    let p = project_with_summarizer(
        "echo call >> \"$(dirname \"$0\")/calls.log\"\necho $$ > \"$(dirname \"$0\")/pid\"\nexec sleep 60",
        1,
    );
    let out = p.ok(&["build"]);
    let pid = std::fs::read_to_string(p.path("pid")).expect("the summarizer ran");
    assert!(
        !std::path::Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "the summarizer was killed at its timeout, not left running"
    );
    assert!(
        out.contains("> note: summary_command timed out after 1 s; the built-in summary is shown"),
        "{out}"
    );
    // The built-in summary is shown instead.
    assert!(out.contains("- `def f0(x)`"), "{out}");
    assert!(out.contains("- B\n  The b document."));
    // Failures are not cached: the next run tries again.
    assert!(entries(&p).is_empty());
}

#[test]
fn a_failing_or_silent_summarizer_falls_back_with_a_note() {
    let p = project_with_summarizer("echo 'model not found' >&2; exit 4", 30);
    let out = p.ok(&["build"]);
    assert!(out.contains("> note: summary_command exited with status 4: model not found; the built-in summary is shown"), "{out}");
    assert!(out.contains("- `def f0(x)`"));
    let p = project_with_summarizer("cat > /dev/null", 30);
    let out = p.ok(&["build"]);
    assert!(
        out.contains("> note: summary_command printed nothing; the built-in summary is shown"),
        "{out}"
    );
}

#[test]
fn focus_build_renders_focus_files_full_and_other_code_as_skeletons() {
    let p = Project::fixture();
    p.write("src/core/app.py", common::APP_PY);
    p.write(
        "ctxcurate.toml",
        r#"
[[presets.default.files]]
path = "src/app.py"
view_mode = "outline"

[[presets.default.files]]
path = "src/util.c"

[[presets.default.files]]
path = "src/core/app.py"
view_mode = "summary"
force_full = true

[[presets.default.files]]
path = "docs/guide.md"
view_mode = "none"
"#,
    );
    // By suffix: `app.py` alone would also name src/core/app.py.
    let out = p.ok(&["build", "--focus", "src/app.py"]);
    assert!(
        out.starts_with(
            "## Directory Tree\n\n```\ndocs/\n  guide.md\nsrc/\n  core/\n    app.py\n  app.py\n  util.c\n```\n\n\
             ## Files (Focused)\n\n### src/app.py\n\n```python\n\"\"\"The demo application.\"\"\""
        ),
        "{out}"
    );
    assert!(out.contains("### src/util.c [skeleton]\n\n```c\n"));
    assert!(out.contains("int add(int a, int b) { ... }"), "{out}");
    assert!(
        out.contains("### src/core/app.py\n\n```python\n"),
        "force_full counts as focus"
    );
    assert!(out.contains("### docs/guide.md [none]"));
    // By basename, several at once.
    let out = p.ok(&["build", "--focus", "util.c", "--focus", "core/app.py"]);
    assert!(out.contains("### src/util.c\n\n```c\n/* Small geometry helpers. */"));
    assert!(out.contains("### src/app.py [skeleton]\n\n```python\n"));
    assert!(
        out.contains(
            "    def run(self, x: int) -> bool:\n        \"\"\"Run once.\"\"\"\n        ...\n"
        ),
        "{out}"
    );
    // A project file the preset does not list is added; nothing matched is a warning.
    p.write("extra.py", "X = 1\n");
    let run = p.run(&["build", "--focus", "extra.py", "--focus", "nothing.py"]);
    let out = common::stdout(&run);
    assert!(
        out.contains("### extra.py\n\n```python\nX = 1\n```"),
        "{out}"
    );
    assert!(
        stderr(&run).contains("warning: focus `nothing.py` matches no file"),
        "{}",
        stderr(&run)
    );
}
