//! Benchmark: the secret scanner's raw speed on the Python standard
//! library and pip's sources (every `.py` file, read once): the keyword
//! search alone and the whole scan, the best of three runs each, with how
//! many keywords the search holds and which automaton it built; then
//! the hostile lines whose cost must stay linear (a megabyte of JSON Web
//! Key members that never make a key: 16.5 s in a debug build before the
//! search for their object had a floor; a megabyte of literals joined by
//! `.`, `..`, `&`, `+`), and 1 MB then 10 MB of each join round fifteen
//! added (`||`, `+=`, `concat(…)`, `"".join([…])`, f-string fields) and
//! round sixteen (template literals and backtick halves, `.=`,
//! `"-".join`, a split through a name, names of long literals looked up
//! without a keyword) and round 22 (raw deflate tried on binary base64
//! values, heredocs, values closed on a line below) and rounds 24–25
//! (escapes, decoded values, shell words of variables, SQL rows, flow
//! maps, hex dumps): linear when the second costs ten times the first.
//!
//! Run: `cargo bench --bench secret_scan` (optionally with directories:
//! `cargo bench --bench secret_scan -- /path/to/tree …`).

#[path = "../tests/integration/common/corpus.rs"]
mod corpus;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use ctxcurate::core::secret_scan::rules::RuleSet;

/// The folder of the pip package `python3` imports.
fn pip() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import os, pip; print(os.path.dirname(pip.__file__))"])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.is_dir().then_some(dir)
}

/// The best of three runs of `f`.
fn best(f: &dyn Fn() -> usize) -> Duration {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(f());
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let given: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    let roots: Vec<PathBuf> = if given.is_empty() {
        corpus::python_stdlib().into_iter().chain(pip()).collect()
    } else {
        given
    };
    let rules = RuleSet::builtin();
    for root in roots {
        // The stdlib without the third-party packages installed in it.
        let files = corpus::files_under(&root, &|p| {
            p.extension().is_some_and(|e| e == "py")
                && !p
                    .strip_prefix(&root)
                    .is_ok_and(|r| r.starts_with("site-packages"))
        });
        let (sources, _) = corpus::read_sources(&files);
        let bytes: usize = sources.iter().map(|(_, t)| t.len()).sum();
        let search = best(&|| {
            sources
                .iter()
                .map(|(_, t)| rules.keywords.find_overlapping_iter(t.as_str()).count())
                .sum()
        });
        let scan = best(&|| sources.iter().map(|(_, t)| rules.scan(t).len()).sum());
        println!(
            "{}: {} files, {} MB: keyword search {search:?}, whole scan {scan:?} ({} keywords, {:?})",
            root.display(),
            sources.len(),
            bytes / 1_000_000,
            rules.keywords.patterns_len(),
            rules.keywords.kind(),
        );
    }
    for piece in [
        "{\"kty\": 1, ",
        "\"kty\": 1, ",
        "}\"kty\": 1, ",
        "{{\"kty\": 1}, ",
        // Literals joined by every operator the join search reads.
        "\"a\" . ",
        "\"a\" .. ",
        "\"a\" & ",
        "\"a\" + ",
        "\"a\" .\n",
    ] {
        let line = piece.repeat((1 << 20) / piece.len());
        let scan = best(&|| rules.scan(&line).len());
        println!("1 MB of {piece:?}: whole scan {scan:?}");
    }
    // A name bound to a literal of the longest length put in place.
    let long = format!("a = \"{}\"\n", "x".repeat(1000));
    // (head, piece repeated, tail)
    for (head, piece, tail) in [
        ("", "\"a\" || ", ""),
        ("k = \"a\"\n", "k += \"a\"\n", ""),
        ("k = 'a'", "; k += 'a'", ";\n"),
        ("x = CONCAT(", "'a', ", "'a')\n"),
        ("x = \"\".join([", "\"a\", ", "])\n"),
        ("x = \"\".join([", "\"a\",\n", "])\n"),
        ("", "x = \"a\".concat(\"b\")\n", ""),
        ("", "concat(", ""),
        ("t = f\"ghp_", "{'a'}", "\"\n"),
        ("a = \"x\"\n", "t = f\"ghp_{a}{a}\"\n", ""),
        ("", "f\"{a}\" ", ""),
        ("", "`a` + ", ""),
        ("", "`x${a}` ", ""),
        ("a = \"x\"\n", "t = `${a}${a}`\n", ""),
        (long.as_str(), "t = f\"{a}{a}\"\n", ""),
        ("m = \"x\"\n", "t = \"a\" + m + \"b\"\n", ""),
        (long.as_str(), "t = \"a\" + a + \"b\"\n", ""),
        ("x = \"-\".join([", "\"a\", ", "])\n"),
        ("$k = 'a';\n", "$k .= 'a';\n", ""),
        // Round 22: raw deflate tried on binary values (each inflating
        // to 1,800 bytes of prose), heredocs, values closed below.
        (
            "",
            "k: C8lIVSgszUzOVkgqyi/PU0jLr1DIKs0tKFbIL0stUigBSuckVlUqpOSn6ymEjCoeVTyqeFTxqOJRxcNLMQA=\n",
            "",
        ),
        ("", "k: DaVNyhglMLsdbRMs3tYjey7ZHj9yH8sZcRdElNZJ\n", ""),
        ("", "p = <<~E\nVb6nQ1xZ8kLm3Wu\nE\n", ""),
        ("", "=<<A=<<<B :<<~C ", ""),
        ("", "p = \"\"\"v1v2v3v4v5\n\"\"\"\n", ""),
        ("", "{\"p\"\n: \"v\"}, ", ""),
        ("", "? p\n: v\n", ""),
        // Rounds 24 and 25: escapes, a value decoded where it is
        // assigned, shell words of variables, SQL rows, flow maps, hex
        // dumps (each line spelling its hex, and lines of hex alone).
        ("", "p = \"\\u0056\\x62%56%62%56%62'' ", ""),
        ("", "p = b64decode('VmI2blExeFo4a0xtM1d1')\n", ""),
        ("P1='ab12'\nP2='cd34'\n", "X=\"$P1$P2\" Y=$P1$P2 ", ""),
        ("", "INSERT INTO u (a, password) VALUES ('x', 'y');\n", ""),
        ("", "INSERT INTO t (", ""),
        ("", "d: {u: a,\n  pass\n    : v,\n", ""),
        (
            "",
            "00000000: 4442 5f50 4153 5357 4f52 443d 4376 4652  DB_PASSWORD=CvFR\n",
            "",
        ),
        ("", "44425f50415353574f52443d43764652434851566747414\n", ""),
    ] {
        for mb in [1, 10] {
            let line = format!("{head}{}{tail}", piece.repeat((mb << 20) / piece.len()));
            let scan = best(&|| rules.scan(&line).len());
            println!("{mb} MB of {piece:?}: whole scan {scan:?}");
        }
    }
}
