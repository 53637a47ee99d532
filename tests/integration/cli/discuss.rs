//! `ctxcurate discuss|shot|task` through the real binary in a temp
//! project (issue 14): what they store, what `build` renders from it, and
//! hostile input — paths leaving the root (`..`, absolute, a link), a
//! non-image, a missing file, a likely secret, invalid UTF-8 on stdin, a
//! terminal escape in a message.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use common::{Project, saved_preset, stderr, stdout};
use ctxcurate::core::model::Preset;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const AWS: &str = "aws_access_key_id = AKIAZ7QKXR4MV2N5TWLB";

fn fixture() -> Project {
    let p = Project::fixture();
    std::fs::create_dir_all(p.path("docs")).unwrap();
    std::fs::write(p.path("docs/shot.png"), PNG).unwrap();
    std::fs::write(p.path("docs/diagram.SVG"), "<svg/>").unwrap();
    p
}

/// Run with `input` on stdin.
fn with_stdin(p: &Project, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = p
        .cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

/// Exit 1, the message on stderr, and the project file untouched.
fn refused(p: &Project, out: &std::process::Output, needle: &str) {
    let before = std::fs::read_to_string(p.path("ctxcurate.toml")).ok();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    assert!(stderr(out).contains(needle), "{}", stderr(out));
    assert_eq!(
        std::fs::read_to_string(p.path("ctxcurate.toml")).ok(),
        before
    );
}

#[test]
fn discussion_screenshots_and_task_end_up_in_the_build() {
    let p = fixture();
    let out = p.ok(&["shot", "add", "docs/shot.png", "docs/diagram.SVG"]);
    assert_eq!(out, "added 2 screenshots to preset default (2 in all)\n");
    p.ok(&["discuss", "add", "Why does the parser drop comments?"]);
    p.ok(&["discuss", "compact", "We looked at the lexer."]);
    let out = with_stdin(
        &p,
        &["discuss", "add", "--role", "assistant", "-"],
        b"Because of X.\nSee y.\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = with_stdin(&p, &["task", "set", "-"], b"Keep the comments.\n");
    assert!(out.status.success(), "{}", stderr(&out));

    let pr = saved_preset(&p, "default");
    assert_eq!(pr.screenshots, ["docs/shot.png", "docs/diagram.SVG"]);
    assert_eq!(pr.discussion.len(), 3);
    assert_eq!(pr.discussion[2].role, "Assistant");
    assert_eq!(pr.discussion[2].content, "Because of X.\nSee y.");
    assert_eq!(pr.task, "Keep the comments.");

    let list = p.ok(&["discuss", "list"]);
    assert_eq!(
        list,
        "  1  User: Why does the parser drop comments?\n  \
         2  -- compaction -- We looked at the lexer.\n  \
         3  Assistant: Because of X. (+1 line)\n"
    );
    assert_eq!(p.ok(&["task", "show"]), "Keep the comments.\n");

    let built = p.ok(&["build"]);
    assert!(
        built.contains(
            "## Screenshots\n\n![shot.png](docs/shot.png)\n![diagram.SVG](docs/diagram.SVG)"
        ),
        "{built}"
    );
    assert!(
        built.contains(
            "## Discussion History\n\n### Discussion Excerpt 1\n\nCompaction: We looked at the lexer.\n\n---\n\n### Discussion Excerpt 2\n\nAssistant: Because of X.\nSee y."
        ),
        "{built}"
    );
    assert!(!built.contains("drop comments"), "compacted away");
    assert!(
        built.ends_with("## Task\n\nKeep the comments.\n"),
        "{built}"
    );

    p.ok(&["shot", "rm", "docs/shot.png"]);
    p.ok(&["discuss", "clear"]);
    assert_eq!(p.ok(&["task", "clear"]), "task cleared in preset default\n");
    let pr = saved_preset(&p, "default");
    assert_eq!(pr.screenshots, ["docs/diagram.SVG"]);
    assert!(pr.discussion.is_empty() && pr.task.is_empty());
    let out = p.run(&["task", "show"]);
    assert!(out.status.success() && stdout(&out).is_empty());
    assert!(stderr(&out).contains("no task in this preset"));
}

#[test]
fn preset_flag_and_file_source() {
    let p = fixture();
    p.write("notes/task.md", "Port it to C.\n");
    p.ok(&["task", "set", "--file", "notes/task.md", "--preset", "port"]);
    p.ok(&[
        "discuss",
        "add",
        "-p",
        "port",
        "--role",
        "Reviewer",
        "Looks fine.",
    ]);
    p.ok(&["shot", "add", "--preset", "port", "docs/shot.png"]);
    let port = saved_preset(&p, "port");
    assert_eq!(port.task, "Port it to C.");
    assert_eq!(port.discussion[0].role, "Reviewer");
    assert_eq!(port.screenshots, ["docs/shot.png"]);
    assert_eq!(saved_preset(&p, "default"), Preset::default());
    assert_eq!(
        p.ok(&["task", "show", "--preset", "port"]),
        "Port it to C.\n"
    );
    // From a subdirectory, paths are the shell's.
    let out = p
        .cmd(&["shot", "add", "shot.png"])
        .current_dir(p.path("docs"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(saved_preset(&p, "default").screenshots, ["docs/shot.png"]);
}

#[test]
fn paths_leaving_the_root_are_refused() {
    let p = fixture();
    p.ok(&["task", "set", "start"]);
    let outside = tempfile::tempdir().unwrap();
    let abs = outside.path().join("x.png");
    std::fs::write(&abs, PNG).unwrap();
    let out = p.run(&["shot", "add", "../x.png"]);
    refused(&p, &out, "outside the project root");
    let out = p.run(&["shot", "add", abs.to_str().unwrap()]);
    refused(&p, &out, "outside the project root");
    let out = p.run(&["shot", "add", "docs/../../x.png"]);
    refused(&p, &out, "outside the project root");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&abs, p.path("link.png")).unwrap();
        let out = p.run(&["shot", "add", "link.png"]);
        refused(
            &p,
            &out,
            "link.png: a symbolic link leading outside the project",
        );
        std::os::unix::fs::symlink(outside.path(), p.path("outdir")).unwrap();
        let out = p.run(&["shot", "add", "outdir/x.png"]);
        refused(&p, &out, "outside the project");
    }
    assert!(saved_preset(&p, "default").screenshots.is_empty());
}

#[test]
fn a_missing_file_or_a_non_image_names_the_file() {
    let p = fixture();
    let out = p.run(&["shot", "add", "docs/shot.png", "docs/guide.md"]);
    refused(
        &p,
        &out,
        "docs/guide.md: not an image (png, jpg, jpeg, gif, webp, svg)",
    );
    assert!(!p.path("ctxcurate.toml").exists(), "all or nothing");
    let out = p.run(&["shot", "add", "nope.png"]);
    refused(&p, &out, "nope.png: file not found");
    let out = p.run(&["shot", "add", "docs"]);
    refused(&p, &out, "docs: not an image");
    let out = p.run(&["shot", "rm", "docs/shot.png"]);
    refused(
        &p,
        &out,
        "docs/shot.png is not a screenshot of preset default",
    );
}

#[test]
fn a_likely_secret_is_refused_unless_allowed() {
    let p = fixture();
    let out = p.run(&["discuss", "add", AWS]);
    refused(
        &p,
        &out,
        "the message holds 1 likely secret, first line 1: AWS",
    );
    assert!(!stderr(&out).contains("AKIAZ7QKXR4MV2N5TWLB"), "masked");
    assert!(stderr(&out).contains("--allow-secrets"));
    let out = with_stdin(
        &p,
        &["task", "set", "-"],
        format!("Use\n{AWS}\n").as_bytes(),
    );
    refused(&p, &out, "the task holds 1 likely secret, first line 2");
    let out = p.run(&["discuss", "compact", AWS]);
    refused(&p, &out, "the summary holds");
    assert!(!p.path("ctxcurate.toml").exists());

    p.ok(&["discuss", "add", "--allow-secrets", AWS]);
    p.ok(&["task", "set", "--allow-secrets", AWS]);
    assert_eq!(saved_preset(&p, "default").task, AWS);
    // `build` still refuses to write it anywhere without its own consent.
    let out = p.run(&["build", "--output", "out.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn bad_text_and_roles_are_refused() {
    let p = fixture();
    let out = with_stdin(&p, &["discuss", "add", "-"], b"caf\xe9 \xff\n");
    refused(
        &p,
        &out,
        "stdin is not UTF-8 text (invalid byte at offset 3)",
    );
    std::fs::write(p.path("bad.txt"), b"\xff\xfe").unwrap();
    let out = p.run(&["task", "set", "--file", "bad.txt"]);
    refused(&p, &out, "bad.txt is not UTF-8 text");
    let out = p.run(&["task", "set", "--file", "missing.txt"]);
    refused(&p, &out, "cannot read missing.txt");
    let out = p.run(&["discuss", "add", "--role", "two words", "hi"]);
    refused(&p, &out, "must be one plain word");
    let out = p.run(&["discuss", "add", "--role", "Compaction", "hi"]);
    refused(&p, &out, "must be one plain word");
    let out = p.run(&["discuss", "compact"]);
    refused(&p, &out, "nothing to compact");
    let out = p.run(&["discuss", "add", "   "]);
    refused(&p, &out, "the message is empty");
    let out = p.run(&["task", "set", ""]);
    refused(&p, &out, "the task is empty");
    let out = p.run(&["discuss", "add"]);
    assert_eq!(out.status.code(), Some(1), "TEXT or --file is required");
    assert!(stderr(&out).contains("required"), "{}", stderr(&out));
    assert!(!p.path("ctxcurate.toml").exists());
}

#[test]
fn discuss_list_escapes_what_a_message_holds() {
    let p = fixture();
    p.ok(&["discuss", "add", "clear\x1b[2J screen\u{202e}"]);
    let list = p.ok(&["discuss", "list"]);
    assert!(!list.contains(['\x1b', '\u{202e}']), "{list:?}");
    assert!(list.starts_with("  1  User: clear␛[2J screen"), "{list:?}");
    let empty = fixture();
    let out = empty.run(&["discuss", "list"]);
    assert!(out.status.success() && stdout(&out).is_empty());
    assert!(stderr(&out).contains("no discussion in this preset"));
}
