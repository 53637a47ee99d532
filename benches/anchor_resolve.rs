//! Benchmark: finding moved slices again (`core::anchor::resolve`) in a
//! large real file, with the rolling fingerprint and without it (slices
//! made before fingerprints existed hash every window: O(lines × slice
//! length)). The file is the largest `.py` of the Python stdlib, repeated
//! to 100,000 lines; each slice is moved by inserting lines above it and
//! its anchors are edited away, so the whole file is searched.
//!
//! Run: `cargo bench --bench anchor_resolve`.

#[path = "../tests/integration/common/corpus.rs"]
mod corpus;

use std::time::Instant;

use ctxcurate::core::anchor::{self, Resolution};
use ctxcurate::core::model::Slice;

fn main() {
    let root = corpus::python_stdlib().expect("the Python stdlib");
    let py = corpus::files_under(&root, &|p| {
        p.extension().is_some_and(|x| x == "py")
            && !p.components().any(|c| c.as_os_str() == "site-packages")
    });
    let biggest = py
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .expect("a .py file in the stdlib");
    let source = std::fs::read_to_string(&biggest).expect("readable");
    let mut lines: Vec<String> = Vec::new();
    let mut copy = 0;
    while lines.len() < 100_000 {
        // Each copy is made distinct so the slice's text occurs once.
        lines.extend(source.lines().map(|l| format!("{l} # {copy}")));
        copy += 1;
    }
    let text = lines.join("\n");
    println!(
        "file: {} repeated to {} lines ({:.1} MB)",
        biggest.display(),
        lines.len(),
        text.len() as f64 / 1e6
    );
    println!(
        "{:>8} {:>14} {:>14}",
        "lines", "fingerprint", "every window"
    );
    for len in [10usize, 100, 1_000] {
        let start = 50_000;
        let slice = anchor::create_slice(&text, start, start + len - 1).expect("in range");
        let mut moved: Vec<&str> = vec!["# inserted"; 37];
        moved.extend(lines[..start - 2].iter().map(String::as_str));
        moved.push("# edited");
        moved.extend(lines[start - 1..start - 1 + len].iter().map(String::as_str));
        moved.push("# edited");
        moved.extend(lines[start + len..].iter().map(String::as_str));
        let moved = moved.join("\n");
        let legacy = Slice {
            fingerprint: None,
            ..slice.clone()
        };
        let fast = time(&moved, &slice);
        // Past its bound a slice without fingerprint is not searched.
        let slow = match len * lines.len() <= anchor::MAX_HASHED_LINES {
            true => format!("{:>12.2}ms", time(&moved, &legacy) * 1e3),
            false => format!("{:>14}", "past the bound"),
        };
        println!("{len:>8} {:>12.2}ms {slow}", fast * 1e3);
    }
    hand_written(&lines);
}

/// A slice a project file writes by hand (sweep 10, F10): no fingerprint,
/// a hash that matches nothing, 40,000 lines long over a 50,000-line
/// file, long anchors matching nothing. Hashing every window took 6 s a
/// slice; the search now stops at its bound and the slice is stale.
fn hand_written(lines: &[String]) {
    let text = lines[..50_000.min(lines.len())].join("\n");
    let slice = Slice {
        start_line: 1,
        end_line: 40_000,
        content_hash: Some("deadbeef".into()),
        anchor_before: (0..5_000).map(|i| format!("nomatch {i}")).collect(),
        anchor_after: vec!["nomatch".into(); 5_000],
        ..Slice::default()
    };
    let t = Instant::now();
    let r = anchor::resolve(&text, &slice);
    assert!(matches!(r, Resolution::Stale { .. }), "{r:?}");
    println!(
        "\na hand-written 40,000-line slice, stale: {:.2}ms",
        t.elapsed().as_secs_f64() * 1e3
    );
}

/// Seconds for one resolve (best of three), checking it found the slice.
fn time(text: &str, slice: &Slice) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            let r = anchor::resolve(text, slice);
            let secs = t.elapsed().as_secs_f64();
            assert!(matches!(r, Resolution::Moved { by: 37, .. }), "{r:?}");
            secs
        })
        .fold(f64::INFINITY, f64::min)
}
