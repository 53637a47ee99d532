//! `tokens -` counts standard input, as Unix tools read `-`, alone or
//! beside files.

use crate::common;

use std::io::Write;
use std::process::{Output, Stdio};

use common::{Project, stderr, stdout};

fn tokens_with_stdin(p: &Project, args: &[&str], input: &[u8]) -> Output {
    let mut child = p
        .cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn dash_reads_standard_input() {
    let p = Project::fixture();
    // "hello world" is 2 tokens in o200k; chars / 4 rounded up is 3.
    let out = tokens_with_stdin(&p, &["tokens", "-"], b"hello world");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "        2  -\n        2  total (o200k)\n");
    let out = tokens_with_stdin(&p, &["tokens", "-t", "estimate", "-"], b"hello world");
    assert_eq!(stdout(&out), "        3  -\n        3  total (estimate)\n");
    // Beside a file: both rows and their sum.
    let file = p.ok(&["tokens", "src/app.py"]);
    let n: usize = file.split_whitespace().next().unwrap().parse().unwrap();
    let out = tokens_with_stdin(&p, &["tokens", "src/app.py", "-"], b"hello world");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{n:>9}  src/app.py\n        2  -\n{:>9}  total (o200k)\n",
            n + 2
        )
    );
    // A file named `-` is not read: standard input is.
    p.write("-", "a file called dash with many words in it\n");
    let out = tokens_with_stdin(&p, &["tokens", "-"], b"");
    assert_eq!(stdout(&out), "        0  -\n        0  total (o200k)\n");
}

#[test]
fn standard_input_that_is_not_text_is_refused() {
    let p = Project::fixture();
    let out = tokens_with_stdin(&p, &["tokens", "-"], b"ok\xff\xfe");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("standard input is not UTF-8 text (invalid byte at offset 2)"),
        "{}",
        stderr(&out)
    );
}
