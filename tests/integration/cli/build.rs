//! `ctxcurate build` run as a real binary in temp projects: exact output,
//! formats, strategies, errors as content, determinism, `--save`, exit
//! codes and broken pipes.

use crate::common;

use std::io::Read;
use std::process::Stdio;

use common::{APP_PY, Project, UTIL_C, headings, stderr, stdout};

#[test]
fn full_build_is_exact() {
    let p = Project::fixture();
    // New entries land in path order (core::curation), whatever the
    // order of the arguments.
    p.ok(&["add", "src/app.py", "src/util.c", "docs/guide.md"]);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = format!(
        "## Directory Tree\n\n```\ndocs/\n  guide.md\nsrc/\n  app.py\n  util.c\n```\n\n\
         ## Files\n\n### docs/guide.md\n\n```markdown\n# Guide\n\nRead this first. Then more.\n```\n\n\
         ### src/app.py\n\n```python\n{}```\n\n### src/util.c\n\n```c\n{}```\n",
        APP_PY, UTIL_C
    );
    assert_eq!(stdout(&out), expected);
    let err = stderr(&out);
    assert!(err.contains("3 files, "), "{err}");
    assert!(err.contains(" tokens (o200k)"), "{err}");
}

#[test]
fn token_total_matches_tokens_of_output() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let out = p.run(&["build", "--tokenizer", "cl100k"]);
    let text = stdout(&out);
    let n = ctxcurate::core::tokens::count(ctxcurate::core::model::TokenizerKind::Cl100k, &text);
    assert!(stderr(&out).contains(&format!("1 file, {n} tokens (cl100k)")));
}

#[test]
fn screenshots_discussion_and_listed_only_files() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        r#"
[project]
max_messages = 2

[presets.default]
screenshots = ["docs/ui.png"]

[[presets.default.files]]
path = "src/util.c"
view_mode = "none"

[[presets.default.files]]
path = "src/app.py"
auto_aggregate = false

[[presets.default.discussion]]
role = "User"
content = "old question"

[[presets.default.discussion]]
role = "Compaction"
content = "We fixed the parser."

[[presets.default.discussion]]
role = "User"
content = "  Why does run fail?  "

[[presets.default.discussion]]
role = "AI"
content = "Because x <= 0."
"#,
    );
    let text = p.ok(&["build"]);
    assert_eq!(
        text,
        // The listed-only file is not in the tree: the context does not hold it.
        "## Directory Tree\n\n```\nsrc/\n  util.c\n```\n\n\
         ## Files\n\n### src/util.c [none]\n\n(context excluded)\n\n\
         Also in this project, not included (ask for them if needed):\n- `src/app.py`\n\n\
         ## Screenshots\n\n![ui.png](docs/ui.png)\n\n\
         ## Discussion History\n\n### Discussion Excerpt 1\n\nUser: Why does run fail?\n\n---\n\n\
         ### Discussion Excerpt 2\n\nAI: Because x <= 0.\n"
    );
}

#[test]
fn strategies_switch_the_files_heading() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py", "--mode", "skeleton"]);
    let summary = p.ok(&["build", "--strategy", "summarize"]);
    let tree = "## Directory Tree\n\n```\nsrc/\n  app.py\n```\n\n";
    let files = |text: &str| text.strip_prefix(tree).map(str::to_string);
    let summary = files(&summary).expect("the tree first");
    assert!(summary.starts_with("## Files (Summary)\n\n### src/app.py [summary]\n"));
    let full = files(&p.ok(&["build", "--strategy", "full"])).expect("the tree first");
    assert!(full.starts_with("## Files\n\n### src/app.py\n\n```python\n"));
    assert!(full.contains("return x > 0"));
    let auto = files(&p.ok(&["build"])).expect("the tree first");
    assert!(auto.starts_with("## Files\n\n### src/app.py [skeleton]\n"));
    assert!(!auto.contains("return x > 0"));
}

#[test]
fn xml_format() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"docs/guide.md\", \"src/gone.py\"]\n",
    );
    let xml = p.ok(&["build", "--format", "xml"]);
    assert_eq!(
        xml,
        "<documents>\n<directory_tree>\ndocs/\n  guide.md\n</directory_tree>\n\
         <document index=\"1\">\n<source>docs/guide.md</source>\n<document_content>\n\
         # Guide\n\nRead this first. Then more.\n</document_content>\n</document>\n\
         <document index=\"2\">\n<source>src/gone.py</source>\n<document_content>\n\
         ERROR: file not found: src/gone.py\n</document_content>\n</document>\n</documents>\n"
    );
}

#[test]
fn errors_are_content_not_failures() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py", "logo.bin"]);
    std::fs::remove_file(p.path("src/app.py")).unwrap();
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("### src/app.py\n\nERROR: file not found: src/app.py"),
        "{text}"
    );
    // A binary is left out with one note, never an error section.
    assert!(!text.contains("logo.bin"), "{text}");
    let err = stderr(&out);
    assert!(
        err.contains("warning: skipped 1 file (1 binary): logo.bin\n"),
        "{err}"
    );
    // Said once, with the other files' warnings.
    assert_eq!(err.matches("src/app.py").count(), 1, "{err}");
    assert!(err.contains("warning: src/app.py: file not found"), "{err}");
}

/// An entry listed by name only is never read: its missing file is said
/// before the build, once.
#[test]
fn a_missing_listed_only_entry_is_said_once() {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"src/gone.py\"\nauto_aggregate = false\n",
    );
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with("warning: preset file not found: src/gone.py\n"),
        "{err}"
    );
    assert_eq!(err.matches("src/gone.py").count(), 1, "{err}");
}

#[test]
fn fences_grow_past_backticks_in_content() {
    let p = Project::empty();
    p.write("notes.md", "```sh\nls\n```\n");
    p.ok(&["add", "notes.md"]);
    assert_eq!(
        p.ok(&["build"]),
        "## Directory Tree\n\n```\nnotes.md\n```\n\n\
         ## Files\n\n### notes.md\n\n````markdown\n```sh\nls\n```\n````\n"
    );
}

#[test]
fn output_is_deterministic() {
    let p = Project::fixture();
    p.ok(&["add", "src/**", "docs/*.md"]);
    p.ok(&["set", "src/app.py", "--mode", "outline"]);
    let a = p.run(&["build"]).stdout;
    let b = p.run(&["build"]).stdout;
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn globs_expand_sorted_and_skip_ignored() {
    let p = Project::fixture();
    p.write(".gitignore", "build/\n");
    p.write("build/gen.py", "x = 1\n");
    p.write("src/b.py", "y = 2\n");
    p.write("history.toml", "x = 1\n");
    p.ok(&["add", "**/*.py", "*.toml"]);
    let text = p.ok(&["build"]);
    let heads = headings(&text);
    // `ctxcurate.toml` is a built-in ignore: no glob pulls it in.
    assert_eq!(heads, ["### src/app.py", "### src/b.py"]);
}

#[test]
fn save_numbers_output_files() {
    let p = Project::fixture();
    p.ok(&["add", "docs/guide.md"]);
    let first = p.run(&["build", "--save"]);
    assert!(first.status.success());
    assert!(stdout(&first).is_empty());
    assert!(stderr(&first).contains("context_001.md"));
    p.ok(&["build", "--save"]);
    let out = p.root().join(".ctxcurate/out");
    let a = std::fs::read_to_string(out.join("context_001.md")).unwrap();
    let b = std::fs::read_to_string(out.join("context_002.md")).unwrap();
    assert_eq!(a, b);
    assert!(a.starts_with(
        "## Directory Tree\n\n```\ndocs/\n  guide.md\n```\n\n## Files\n\n### docs/guide.md"
    ));
    p.ok(&["build", "-o", "ctx.md"]);
    assert_eq!(p.read("ctx.md"), a);
}

#[test]
fn unknown_preset_and_bad_arguments_exit_1() {
    let p = Project::fixture();
    let out = p.run(&["build", "--preset", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no preset named `nope`"));
    let out = p.run(&["build", "--strategy", "bogus"]);
    assert_eq!(out.status.code(), Some(1));
    let out = p.run(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(1));
    p.write("blocker", "a file, not a folder");
    let out = p.run(&["build", "-o", "blocker/out.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write"));
    assert!(p.run(&["--help"]).status.success());
    for sub in [
        "build", "view", "symbols", "add", "rm", "set", "mask", "slice", "preset", "tokens",
    ] {
        let out = p.run(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        assert!(stdout(&out).contains("Usage: ctxcurate"), "{sub} --help");
    }
}

#[test]
fn broken_pipe_exits_zero() {
    let p = Project::empty();
    let big: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
    p.write("big.txt", &big);
    p.ok(&["add", "big.txt"]);
    let mut child = p
        .cmd(&["build", "--tokenizer", "estimate"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = [0u8; 16];
    stdout.read_exact(&mut buf).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn readme_key_table_is_generated_from_the_action_table() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("<!-- keys:start").expect("keys:start marker");
    let body_start = start + readme[start..].find("-->\n").expect("marker end") + 4;
    let end = readme.find("<!-- keys:end -->").expect("keys:end marker");
    let table = ctxcurate::tui::input::keymap::Keymap::defaults().markdown_table();
    assert_eq!(
        &readme[body_start..end],
        table,
        "README key table is stale: regenerate it with `ctxcurate keys`"
    );
    let p = Project::empty();
    assert_eq!(p.ok(&["keys"]), table);
}

/// A build of many files streamed to a file (`-o`, `--save`) has the bytes
/// and the count of the build to a pipe; with a likely secret it writes
/// nothing and leaves the older file; a write that dies halfway (a file
/// size limit) leaves the older file too.
#[test]
fn a_build_to_a_file_streams_the_bytes_of_stdout() {
    let p = Project::empty();
    for i in 0..400 {
        let body =
            format!("def f{i}(x):\n    return x * {i}  # ``` <a & b>\n\n").repeat(4 + i % 120);
        p.write(&format!("pkg/m{:02}/mod_{i}.py", i / 40), &body);
    }
    p.ok(&["add", "pkg/**/*.py"]);
    let piped = p.run(&["build"]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    let text = stdout(&piped);
    assert!(text.len() > 1 << 20, "{}", text.len());
    assert_eq!(headings(&text).len(), 400);
    let count = |out: &std::process::Output| {
        let err = stderr(out);
        err.split(" tokens").next().unwrap_or_default().to_string()
    };
    let to_file = p.run(&["build", "-o", "out/ctx.md"]);
    assert!(to_file.status.success(), "{}", stderr(&to_file));
    assert!(stdout(&to_file).is_empty());
    assert!(p.read("out/ctx.md") == text, "-o: the same bytes");
    assert_eq!(count(&to_file), count(&piped));
    p.ok(&["build", "--save"]);
    assert!(p.read(".ctxcurate/out/context_001.md") == text, "--save");
    let xml = p.run(&["build", "--format", "xml"]);
    p.ok(&["build", "--format", "xml", "-o", "out/ctx.xml"]);
    assert!(p.read("out/ctx.xml") == stdout(&xml), "xml");

    let folder = |p: &Project| {
        let mut names: Vec<String> = std::fs::read_dir(p.path("out"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    p.write(
        "pkg/m05/mod_999.py",
        "TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n",
    );
    let refused = p.run(&["build", "-o", "out/ctx.md"]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("pkg/m05/mod_999.py:1"),
        "{}",
        stderr(&refused)
    );
    assert!(p.read("out/ctx.md") == text, "the older file stays");
    assert_eq!(folder(&p), ["ctx.md", "ctx.xml"], "nothing else written");

    // Killed by a file size limit halfway through the write.
    std::fs::remove_file(p.path("pkg/m05/mod_999.py")).unwrap();
    let mut limited = std::process::Command::new("sh");
    limited
        .args(["-c", "ulimit -f 256; exec \"$0\" build -o out/ctx.md"])
        .arg(env!("CARGO_BIN_EXE_ctxcurate"));
    let cmd = p.cmd(&[]);
    limited.current_dir(p.root());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => limited.env(k, v),
            None => limited.env_remove(k),
        };
    }
    p.write("pkg/m05/mod_998.py", "x = 1\n");
    let died = limited.output().unwrap();
    assert!(!died.status.success(), "{}", stderr(&died));
    assert!(p.read("out/ctx.md") == text, "the older file stays");
}

/// Past the project's budget (where the TUI's gauge turns red) the build
/// still writes everything, and says what to do about it; within it, it
/// says nothing more.
#[test]
fn a_build_over_the_budget_says_so() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py", "src/util.c"]);
    let out = p.run(&["build"]);
    assert!(!stderr(&out).contains("budget"), "{}", stderr(&out));
    let toml = p.read("ctxcurate.toml");
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nbudget = 50\n\n{toml}"),
    );
    let out = p.run(&["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let tokens: usize = err
        .split_once(" files, ")
        .and_then(|(_, rest)| rest.split_once(" tokens"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(tokens > 50, "{err}");
    assert!(
        err.ends_with(&format!(
            "note: {tokens} tokens is {}% of the budget of 50 tokens: `ctxcurate stats` shows \
             where they go; `build --budget 50` packs the context to fit\n",
            (tokens as f64 * 2.0).round()
        )),
        "{err}"
    );
    assert!(stdout(&out).contains("### src/util.c"));
}

/// A warm build passes over the files whose text passed the secret scan
/// before (`core::secrets::clean`), and only those: a secret added to a
/// file that was clean, or in a new file, or present all along, is still
/// refused, however many builds remembered the rest; a set planted in the
/// cache (not sealed under the user's key) is not believed.
#[test]
fn the_remembered_clean_texts_never_hide_a_secret() {
    let p = Project::fixture();
    p.write("pkg/a.py", "x = 1\n");
    p.write("pkg/b.py", "y = 2\n");
    p.ok(&["add", "pkg/a.py", "pkg/b.py"]);
    p.ok(&["build", "-o", "out.md"]);
    p.ok(&["build", "-o", "out.md"]);
    let sets = p.path(".ctxcurate/cache/scan-passed");
    assert!(sets.is_dir(), "the clean texts are remembered");
    let token = "TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n";
    p.write("pkg/a.py", &format!("x = 1\n{token}"));
    let refused = p.run(&["build", "-o", "out.md"]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("pkg/a.py:2"),
        "{}",
        stderr(&refused)
    );
    // Back to the clean text: remembered, built; then the secret again.
    p.write("pkg/a.py", "x = 1\n");
    p.ok(&["build", "-o", "out.md"]);
    p.write("pkg/a.py", &format!("x = 1\n{token}"));
    let again = p.run(&["build", "-o", "out.md"]);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    // A set written by someone else is not believed: every file is
    // scanned (the planted file replaces the real one, unsealed).
    for entry in walk(&sets) {
        std::fs::write(&entry, [0u8; 32]).unwrap();
    }
    let planted = p.run(&["build", "-o", "out.md"]);
    assert_eq!(planted.status.code(), Some(1), "{}", stderr(&planted));
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Entries written by hand as `./a.py`, `sub//b.py` or `sub/../sub/b.py`
/// name the file the walk spells `a.py` or `sub/b.py`: each file is in
/// the context once, and the tree has no `./` or `..` folder.
#[test]
fn hand_written_entries_name_each_file_once() {
    let p = Project::empty();
    p.write("a.py", "A = 1\n");
    p.write("sub/b.py", "B = 2\n");
    p.write("gen/c.py", "C = 3\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n\
         files = [\"./a.py\", \"a.py\", \"sub//b.py\", \"sub/../sub/b.py\", \"./**/*.py\"]\n\
         exclude = [\"./gen/**\"]\n",
    );
    let text = p.ok(&["build"]);
    assert_eq!(text.matches("### a.py").count(), 1, "{text}");
    assert_eq!(text.matches("### sub/b.py").count(), 1, "{text}");
    assert!(
        !text.contains("gen/c.py") && !text.contains("C = 3"),
        "{text}"
    );
    assert!(!text.contains("./") && !text.contains(".."), "{text}");
}

/// The output file inside the project is none of the next build's input:
/// with `**`, a second `build -o out.md` composed the first one's output
/// into itself (found by the secrets recheck of round twelve), from the
/// root and from a folder below it.
#[test]
fn the_output_file_is_not_composed_into_the_next_build() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write("sub/b.py", "y = 2\n");
    p.write("ctxcurate.toml", "[presets.default]\nfiles = [\"**\"]\n");
    p.ok(&["build", "-o", "out.md"]);
    let first = p.read("out.md");
    let out = p.run(&["build", "-o", "out.md"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("2 files, "), "{}", stderr(&out));
    assert_eq!(p.read("out.md"), first);
    assert!(!first.contains("out.md"), "{first}");
    let mut below = p.cmd(&["build", "-o", "../out.md"]);
    below.current_dir(p.path("sub"));
    let out = below.output().expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(p.read("out.md"), first);
}

/// The same for `--save`'s numbered outputs in an `output_dir` inside the
/// project: the second composed the first.
#[test]
fn saved_outputs_in_the_project_are_not_composed_again() {
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write(
        "ctxcurate.toml",
        "[project]\noutput_dir = \"ctx\"\n\n[presets.default]\nfiles = [\"**\"]\n",
    );
    p.ok(&["build", "--save"]);
    let out = p.run(&["build", "--save"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 file, "), "{}", stderr(&out));
    assert_eq!(p.read("ctx/context_002.md"), p.read("ctx/context_001.md"));
}
