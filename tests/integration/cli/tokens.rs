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

/// A folder of the project counts its files as `add` takes a folder (the
/// walk's view: ignores apply; over `max_file_size` a file is not counted
/// unless forced), from the root or below it; `.` is the whole project;
/// a folder with nothing to count fails.
#[test]
fn a_folder_counts_its_files() {
    let p = Project::fixture();
    p.write("src/deep/x.py", "x = 1\n");
    p.write("src/big.py", &"y = 2\n".repeat(1000));
    p.write(".gitignore", "build/\n");
    p.write("build/out.py", "z = 3\n");
    let toml = "[project]\nmax_file_size = 4000\n";
    p.write("ctxcurate.toml", toml);
    let out = p.run(&["tokens", "src"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap_or(""))
        .collect();
    assert_eq!(
        rows,
        [
            "src/app.py",
            "src/big.py",
            "src/deep/x.py",
            "src/util.c",
            "total"
        ],
        "{text}"
    );
    assert!(
        text.contains("        -  src/big.py (file too large"),
        "{text}"
    );
    let err = stderr(&out);
    assert!(
        err.contains("warning: src/big.py not counted: file too large"),
        "{err}"
    );
    // Forced, it is counted; from inside the folder, `.` is the folder.
    let forced = p.ok(&["tokens", "src", "--force-full"]);
    assert!(!forced.contains("-  src/big.py"), "{forced}");
    let inside = p
        .cmd(&["tokens", "."])
        .current_dir(p.path("src"))
        .output()
        .unwrap();
    assert_eq!(stdout(&inside), text);
    // The whole project: the root's files too, never the ignored ones.
    let all = p.ok(&["tokens", "."]);
    assert!(all.contains("  docs/guide.md\n"), "{all}");
    assert!(!all.contains("build/out.py"), "{all}");
    let out = p.run(&["tokens", "build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("warning: build holds no file to count"),
        "{}",
        stderr(&out)
    );
}
