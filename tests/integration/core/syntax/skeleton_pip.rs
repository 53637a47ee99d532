//! Skeletons on a large third-party Python tree: pip with its vendored
//! libraries (chardet's language models, rich's emoji table, pygments'
//! lexer mapping — the data tables a skeleton must not keep whole). The
//! tree is the pip installed for the machine's python3 (`.ci/run` makes
//! sure there is one). Bars: skeletons at least 55% smaller than the full
//! text in o200k tokens, every skeleton parses (Python's own `ast`), and
//! every def and class outside function bodies is kept.
//!
//! `CTXCURATE_SLOW_TESTS=1 cargo test --test integration skeleton_pip --
//! --nocapture` prints the numbers (`CTXCURATE_PIP_DIR` names another
//! tree, to measure e.g. a newer pip).

use crate::common::{corpus, machine};

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::syntax::{self, Lang};
use ctxcurate::core::tokens;
use rayon::prelude::*;

/// The skeleton must cut at least this share of the full text's tokens.
const MIN_CUT: f64 = 0.55;

/// For each (original file, skeleton): whether the skeleton parses, and
/// the defs and classes outside function bodies that the original has
/// and the skeleton lost. One python3 process for the whole tree.
const PY_COMPARE: &str = r#"
import ast, collections, json, sys, warnings
warnings.filterwarnings("ignore")
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
def outside_functions(tree):
    out, stack = collections.Counter(), [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, DEFS):
            out[type(node).__name__ + " " + node.name] += 1
            if not isinstance(node, ast.ClassDef):
                continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(value)
    return out
report = {"invalid": [], "bad": [], "lost": [], "defs": 0, "lost_n": 0}
for line in sys.stdin:
    entry = json.loads(line)
    try:
        original = ast.parse(open(entry["file"], "rb").read())
    except (SyntaxError, ValueError):
        report["invalid"].append(entry["file"])
        continue
    try:
        skeleton = ast.parse(entry["skeleton"])
    except (SyntaxError, ValueError) as e:
        report["bad"].append("%s line %s: %s" % (entry["file"], getattr(e, "lineno", "?"), e))
        continue
    want = outside_functions(original)
    report["defs"] += sum(want.values())
    lost = want - outside_functions(skeleton)
    report["lost_n"] += sum(lost.values())
    if lost:
        report["lost"].append("%s: %s" % (entry["file"], sorted(lost)))
json.dump(report, sys.stdout)
"#;

/// One file's numbers.
struct Measured {
    file: String,
    full: usize,
    skeleton: usize,
    text: String,
}

fn measure(path: &Path, text: &str) -> Measured {
    let tree = syntax::parse(Lang::Python, text);
    let skeleton = syntax::skeleton(&tree, text);
    Measured {
        file: path.display().to_string(),
        full: tokens::count(TokenizerKind::O200k, text),
        skeleton: tokens::count(TokenizerKind::O200k, &skeleton),
        text: skeleton,
    }
}

/// Python's verdict on the skeletons.
fn python_compare(measured: &[Measured]) -> serde_json::Value {
    let mut child = Command::new("python3")
        .args(["-c", PY_COMPARE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().expect("python3 stdin");
    let lines: Vec<String> = measured
        .iter()
        .map(|m| serde_json::json!({"file": m.file, "skeleton": m.text}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for line in lines {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().expect("python3 report");
    writer.join().expect("writer thread");
    assert!(out.status.success(), "python3 compare failed");
    serde_json::from_slice(&out.stdout).expect("python3 report is JSON")
}

/// The first files of a sorted list, full and skeleton tokens.
fn print_top(title: &str, sorted: &[&Measured], dir: &Path) {
    println!("{title}:");
    for m in sorted.iter().take(8) {
        let file = Path::new(&m.file);
        let rel = file.strip_prefix(dir).unwrap_or(file);
        println!(
            "  {:>7} -> {:>6} tokens  {}",
            m.full,
            m.skeleton,
            rel.display()
        );
    }
}

#[test]
fn pip_skeletons_cut_tokens_parse_and_keep_every_definition() {
    let Some(dir) = machine::pip() else {
        return;
    };
    let files = corpus::files_under(&dir, &|p| p.extension().is_some_and(|e| e == "py"));
    let (sources, _) = corpus::read_sources(&files);
    let measured: Vec<Measured> = sources
        .par_iter()
        .map(|(file, text)| measure(Path::new(file), text))
        .collect();
    let full: usize = measured.iter().map(|m| m.full).sum();
    let skeleton: usize = measured.iter().map(|m| m.skeleton).sum();
    let cut = 1.0 - skeleton as f64 / full.max(1) as f64;

    let report = python_compare(&measured);
    let list = |key: &str| -> Vec<String> {
        report[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (invalid, bad, lost) = (list("invalid"), list("bad"), list("lost"));
    let defs = report["defs"].as_u64().unwrap_or(0);
    let lost_n = report["lost_n"].as_u64().unwrap_or(0);

    println!("pip tree: {}", dir.display());
    println!(
        "{} files, full {full} tokens, skeleton {skeleton} tokens (o200k): cut {:.1}%",
        measured.len(),
        cut * 100.0
    );
    println!(
        "skeletons parsing: {}/{}; defs and classes outside function bodies kept: {}/{defs}",
        measured.len() - invalid.len() - bad.len(),
        measured.len() - invalid.len(),
        defs - lost_n,
    );
    let mut by_cut: Vec<&Measured> = measured.iter().collect();
    by_cut.sort_by_key(|m| std::cmp::Reverse(m.full.saturating_sub(m.skeleton)));
    print_top("largest cuts", &by_cut, &dir);
    let mut by_size: Vec<&Measured> = measured.iter().collect();
    by_size.sort_by_key(|m| std::cmp::Reverse(m.skeleton));
    print_top("largest skeletons", &by_size, &dir);
    assert!(
        defs > 1000,
        "too few definitions seen ({defs}): wrong tree?"
    );
    assert!(
        bad.is_empty(),
        "skeletons that do not parse:\n{}",
        bad.join("\n")
    );
    assert!(lost.is_empty(), "definitions lost:\n{}", lost.join("\n"));
    assert!(
        cut >= MIN_CUT,
        "skeletons cut {:.1}% of the tokens, want at least {:.0}%",
        cut * 100.0,
        MIN_CUT * 100.0
    );
}
