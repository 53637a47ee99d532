//! No raw escape ever reaches a terminal (issue 10 §6): every subcommand
//! runs on a real pseudo-terminal (`openpty`) in a project whose file
//! names, contents, slice tags and `namespace` hold OSC 52, CSI, C1 and
//! bidi characters, and no ESC, other C0 control, C1 or bidi character may
//! come out of the terminal's side. The same commands piped keep the file
//! bytes exact.

use crate::common;

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::process::Stdio;

use common::Project;
use common::pty::{on_terminal, openpty};

const OSC52: &str = "\x1b]52;c;aGFjaw==\x07";
const CSI: &str = "\x1b[2J\x1b[31m";
const C1: &str = "\u{9b}6n";
const BIDI: &str = "\u{202e}";

/// A byte or character a terminal would act on or that reorders text:
/// C0 controls but newline and tab (the pty is raw: no CR is added),
/// DEL, C1 controls (as UTF-8 or as lone bytes) and bidi controls.
fn first_unsafe(out: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(out) {
        Ok(t) => t,
        Err(e) => return Some(format!("invalid UTF-8 at byte {}", e.valid_up_to())),
    };
    text.char_indices()
        .find(|&(_, c)| {
            (c < ' ' && c != '\n' && c != '\t')
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
                || c == '\u{200e}'
                || c == '\u{200f}'
        })
        .map(|(i, c)| {
            let from = text[..i].char_indices().rev().nth(30).map_or(0, |(j, _)| j);
            format!("{c:?} after {:?}", &text[from..i])
        })
}

fn evil_py() -> String {
    format!(
        "\"\"\"Module {OSC52} doc {BIDI}.\"\"\"\n\n\
         def run(x=\"{CSI}{C1}{BIDI}\"):\n    \"\"\"Run {OSC52}.\"\"\"\n    return x\n\n\
         class K{C1}:\n    def m(self, y=\"{OSC52}\"):\n        return y\n"
    )
}

/// File names and contents with every kind of escape, and a namespace
/// with an OSC 52 sequence.
fn hostile() -> (Project, String) {
    let p = Project::empty();
    let name = format!("src/evil{OSC52}{BIDI}.py");
    p.write(&name, &evil_py());
    p.write(
        &format!("src/csi{CSI}{C1}.md"),
        &format!("# T {CSI}\n{OSC52}\n"),
    );
    p.write("src/plain.py", "import os\n\ndef ok():\n    return 1\n");
    // A name that is not UTF-8, with a lone C1 byte.
    let raw = p.root().join(OsStr::from_bytes(b"src/raw\x9b[2J.py"));
    std::fs::write(raw, "x = 1\n").expect("write raw name");
    p.write(
        "ctxcurate.toml",
        "[project]\nnamespace = \"ns\\u001b]52;c;aGk=\\u0007\\u202e\"\n\n\
         [presets.default]\nfiles = [\"src/**\"]\n\n\
         [presets.other]\ndescription = \"d \\u001b[2J \\u009b \\u202e\"\nfiles = [\"src/plain.py\"]\n",
    );
    (p, name)
}

fn assert_clean(p: &Project, args: &[&str]) {
    let (ok, seen) = on_terminal(p, args);
    if let Some(bad) = first_unsafe(&seen) {
        panic!(
            "`ctxcurate {args:?}` (ok: {ok}) wrote {bad} to the terminal:\n{}",
            String::from_utf8_lossy(&seen)
        );
    }
    assert!(!seen.is_empty(), "`ctxcurate {args:?}` printed nothing");
}

#[test]
fn reading_commands_write_no_escape_to_a_terminal() {
    let (p, evil) = hostile();
    let md = format!("src/csi{CSI}{C1}.md");
    let cases: Vec<Vec<&str>> = vec![
        vec!["build", "--allow-secrets"],
        vec!["build", "--allow-secrets", "--format", "xml"],
        vec!["build", "--allow-secrets", "--strategy", "summarize"],
        vec![
            "build",
            "--allow-secrets",
            "--target",
            &evil,
            "--budget",
            "3000",
        ],
        vec![
            "build",
            "--allow-secrets",
            "--target",
            &evil,
            "--stats-json",
        ],
        vec!["map"],
        vec!["map", "--target", &evil],
        vec!["view", &evil],
        vec!["view", &evil, "--mode", "outline"],
        vec!["view", &md, "--mode", "skeleton"],
        vec!["symbols", &evil],
        vec!["symbols", "--json", &evil],
        vec!["tokens"],
        vec!["tokens", &evil, &md],
        vec!["preset", "list"],
        vec!["preset", "show"],
        vec!["preset", "show", "other"],
        vec!["cache", "stats"],
        vec!["keys"],
    ];
    for args in &cases {
        assert_clean(&p, args);
    }
}

#[test]
fn editing_commands_write_no_escape_to_a_terminal() {
    let (p, evil) = hostile();
    let tag = format!("t{OSC52}{C1}{BIDI}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["add", &evil, "-p", "fresh"],
        vec!["add", &evil, "-p", "fresh"], // "already listed" note
        vec!["add", "src", "-p", "fresh"],
        vec!["set", &evil, "--mode", "outline", "-p", "fresh"],
        vec!["slice", &evil, "1", "2", "--tag", &tag, "-p", "fresh"],
        vec!["slices", &evil, "-p", "fresh"],
        vec!["mask", &evil, "run", "hide", "-p", "fresh"],
        vec!["rm", &evil, "-p", "fresh"],
        vec!["preset", "save", "copy"],
    ];
    for args in &cases {
        assert_clean(&p, args);
    }
    // A stale slice is a note of `view` naming the tag.
    p.write(&evil, "entirely\nnew\ncontent\n");
    assert_clean(&p, &["view", &evil, "--mode", "custom"]);
}

#[test]
fn save_errors_and_bad_arguments_write_no_escape_to_a_terminal() {
    let (p, evil) = hostile();
    // "written to <path with the namespace>".
    assert_clean(&p, &["build", "--allow-secrets", "--save"]);
    let missing = format!("gone{OSC52}{BIDI}.py");
    assert_clean(&p, &["view", &missing]);
    assert_clean(&p, &["add", &missing]);
    assert_clean(&p, &["symbols", &format!("src/csi{CSI}{C1}.md")]);
    // clap quotes unknown arguments, e.g. from a shell glob.
    assert_clean(&p, &["view", &evil, &format!("extra{CSI}")]);
    assert_clean(&p, &[&format!("bogus{OSC52}")]);
    // Secrets refused: the finding names the file.
    p.write(
        &format!("src/key{OSC52}.py"),
        "AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'\n",
    );
    assert_clean(&p, &["build"]);
}

#[test]
fn piped_output_keeps_file_bytes_exact() {
    let (p, evil) = hostile();
    let out = p.run(&["view", &evil]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(out.stdout, evil_py().as_bytes());
    let built = p.run(&["build", "--allow-secrets"]);
    assert!(built.status.success(), "{}", common::stderr(&built));
    let text = String::from_utf8(built.stdout).expect("utf-8");
    assert!(text.contains(&evil_py()), "{text}");
    let symbols = p.ok(&["symbols", "--json", &evil]);
    assert!(
        symbols.contains('\u{202e}') && symbols.contains("\\u001b]52"),
        "{symbols}"
    );
}

#[test]
fn the_pty_check_sees_raw_escapes() {
    // The harness itself must be able to fail: `cat` on the pty passes the
    // file's escapes through untouched.
    let (p, evil) = hostile();
    let (master, slave) = openpty();
    let mut child = std::process::Command::new("cat")
        .arg(&evil)
        .current_dir(p.root())
        .stdout(Stdio::from(slave))
        .spawn()
        .expect("cat");
    let mut seen = Vec::new();
    let _ = File::from(master).read_to_end(&mut seen);
    child.wait().expect("wait");
    assert!(first_unsafe(&seen).is_some(), "{seen:?}");
}
