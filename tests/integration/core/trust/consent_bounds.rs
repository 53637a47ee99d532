//! A command whose scripts reach more project files, or name more
//! imports in one file, than a review reads cannot be trusted (recheck 17
//! F17-5: `tools/m0.py` importing `m1`…`m513` was trusted with 512 of
//! them covered, and an edited `m513.py` ran unreviewed; Node past 1,024
//! `require`s the same). Under the bounds, consent covers every file.

use crate::common;

use super::consent::hostile;
use common::{Project, stderr};

/// A script importing `n` modules of its own folder, each a file.
fn wide(p: &Project, n: usize, ext: &str) {
    let (import, end) = match ext {
        "py" => ("import m{i}\n", "print('SUMMARY')\n"),
        _ => ("require('./m{i}');\n", "console.log('SUMMARY');\n"),
    };
    let mut script: String = (1..=n)
        .map(|i| import.replace("{i}", &i.to_string()))
        .collect();
    script.push_str(end);
    p.write(&format!("tools/m0.{ext}"), &script);
    let comment = if ext == "py" { "#" } else { "//" };
    for i in 1..=n {
        p.write(&format!("tools/m{i}.{ext}"), &format!("{comment} {i}\n"));
    }
}

#[test]
fn a_command_reaching_more_files_than_a_review_reads_cannot_be_trusted() {
    for (command, n, ext) in [
        ("python3 tools/m0.py", 513, "py"),
        ("python3 tools/m0.py", 700, "py"),
        ("node tools/m0.js", 1_100, "js"),
    ] {
        let p = Project::empty();
        hostile(&p, command);
        wide(&p, n, ext);
        let out = p.run(&["trust", "--yes"]);
        let err = stderr(&out);
        assert!(!out.status.success(), "{command} ({n} modules): trusted");
        assert!(err.contains("too much to review"), "{command} ({n}): {err}");
    }
}

#[test]
fn under_the_bounds_every_imported_file_is_covered() {
    let p = Project::empty();
    hostile(&p, "python3 tools/m0.py");
    wide(&p, 300, "py");
    let shown = p.ok(&["trust", "--yes"]);
    assert!(shown.contains("runs tools/m300.py (content"), "{shown}");
}
