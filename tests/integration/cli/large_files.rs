//! `view`, `symbols` and `tokens` on a file over the default 1 MiB cap
//! (the real binary in a temp project): they honour `max_file_size` from
//! the project and the global config and `force_full` on the file's preset
//! entry (its own or a glob's), as `build` does, and `--force-full`;
//! `tokens` counts a file it is named whatever its size (with a note); a
//! `tokens` run that could count nothing fails instead of printing
//! "0 total".

use crate::common;

use common::{Project, stderr, stdout};

/// A C file of `n` small functions (`f0` … `fN`), about 36 bytes each.
fn big_c(n: usize) -> String {
    (0..n)
        .map(|i| format!("int f{i}(int a) {{ return a + {i}; }}\n"))
        .collect()
}

/// Over the default cap (1 MiB): 40,000 functions are about 1.4 MB.
const FUNCTIONS: usize = 40_000;

fn project_with_big_file() -> Project {
    let p = Project::empty();
    p.write("big.c", &big_c(FUNCTIONS));
    p.write("small.py", "def f():\n    return 1\n");
    let size = std::fs::metadata(p.path("big.c")).map(|m| m.len());
    assert!(size.is_ok_and(|s| s > 1024 * 1024), "fixture too small");
    p
}

/// `symbols`, `view` and `tokens` all read big.c.
fn assert_reads_big_file(p: &Project, extra: &[&str]) {
    let with = |args: &[&str]| -> Vec<String> {
        args.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        p.ok(&args)
    };
    let symbols = run(with(&["symbols", "big.c"]));
    assert_eq!(symbols.lines().count(), FUNCTIONS, "one line per function");
    assert!(symbols.contains("function f39999"), "{}", &symbols[..200]);
    let skeleton = run(with(&["view", "--mode", "skeleton", "big.c"]));
    assert!(skeleton.contains("int f39999(int a) { ... }"));
    let tokens = run(with(&["tokens", "big.c"]));
    let last = tokens.lines().last().unwrap_or("");
    assert!(last.ends_with("total (o200k)"), "{tokens}");
    let total: usize = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(total > 100_000, "{tokens}");
}

#[test]
fn over_the_default_cap_each_command_refuses_and_says_how_to_read_it() {
    let p = project_with_big_file();
    for args in [
        &["symbols", "big.c"][..],
        &["view", "big.c"],
        &["view", "--mode", "outline", "big.c"],
    ] {
        let out = p.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("big.c: file too large"), "{err}");
        assert!(err.contains("--force-full"), "{err}");
        assert!(err.contains("max_file_size"), "{err}");
    }
    // `tokens` only reads: a file it is given is counted whatever its
    // size, with a note that a context would not carry it.
    let out = p.run(&["tokens", "big.c", "small.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let size = std::fs::metadata(p.path("big.c")).unwrap().len();
    assert_eq!(
        stderr(&out),
        format!(
            "note: big.c is {size} bytes, over max_file_size (1048576): counted in full here; \
             a context shows it as a one-line note unless its entry has force_full\n"
        )
    );
    let counted = stdout(&out);
    assert!(counted.lines().any(|l| l.ends_with("  big.c")), "{counted}");
    // The preset's own count (no path) keeps the cap, as `build` does.
    p.ok(&["add", "big.c", "small.py"]);
    let out = p.run(&["tokens"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("big.c (file too large"));
    assert!(stderr(&out).contains("warning: big.c not counted: file too large"));
    // Nothing counted: no "0 total" success.
    std::fs::write(p.path("blob.bin"), b"\x00\x01\x02binary").unwrap();
    let out = p.run(&["tokens", "blob.bin"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("no file could be counted"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn project_max_file_size_is_honoured_both_ways() {
    let p = project_with_big_file();
    p.write("ctxcurate.toml", "[project]\nmax_file_size = 4000000\n");
    assert_reads_big_file(&p, &[]);
    // A cap below the default refuses what the default would read.
    p.write("ctxcurate.toml", "[project]\nmax_file_size = 10\n");
    let out = p.run(&["view", "small.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("max_file_size 10"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn global_max_file_size_is_honoured() {
    let p = project_with_big_file();
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().expect("config dir")).expect("mkdir");
    std::fs::write(&global, "[project]\nmax_file_size = 4000000\n").expect("write");
    assert_reads_big_file(&p, &[]);
}

#[test]
fn force_full_on_the_entry_or_a_glob_entry_lifts_the_cap() {
    let p = project_with_big_file();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n[[presets.default.files]]\npath = \"big.c\"\nforce_full = true\n",
    );
    assert_reads_big_file(&p, &[]);
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n[[presets.default.files]]\npath = \"*.c\"\nforce_full = true\n",
    );
    assert_reads_big_file(&p, &[]);
    // The preset's own `tokens` (no path) reads it too.
    let out = p.ok(&["tokens"]);
    assert!(out.contains("big.c"), "{out}");
    assert!(!out.contains("too large"), "{out}");
}

#[test]
fn force_full_flag_lifts_the_cap() {
    let p = project_with_big_file();
    assert_reads_big_file(&p, &["--force-full"]);
}
