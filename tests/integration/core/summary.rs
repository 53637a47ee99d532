//! Summaries of the real Python standard library: every summary is no
//! larger than its file, and the median summary is a small fraction of its
//! file (the number is printed: `CTXCURATE_SLOW_TESTS=1 cargo test --test
//! integration core::summary -- --nocapture`).

use crate::common::{corpus, machine};

use ctxcurate::core::summary::heuristic;
use rayon::prelude::*;

#[test]
fn summaries_are_far_smaller_than_their_files() {
    let Some(dir) = machine::python_stdlib() else {
        return;
    };
    let files = corpus::files_under(&dir, &|p| {
        !p.components().any(|c| c.as_os_str() == "site-packages")
            && p.extension().is_some_and(|e| e == "py")
    });
    let sizes: Vec<(usize, usize)> = files
        .par_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let rel = path.strip_prefix(&dir).ok()?.to_string_lossy();
            let s = heuristic::summarize(&rel, &text);
            assert!(s.len() <= text.len(), "{rel}: {} > {}", s.len(), text.len());
            (!text.is_empty()).then_some((s.len(), text.len()))
        })
        .collect();
    let mut ratios: Vec<f64> = sizes.iter().map(|&(s, t)| s as f64 / t as f64).collect();
    let total_out: usize = sizes.iter().map(|s| s.0).sum();
    let total_in: usize = sizes.iter().map(|s| s.1).sum();
    assert!(ratios.len() > 1000, "{} files", ratios.len());
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let p90 = ratios[ratios.len() * 9 / 10];
    println!(
        "{} files: median summary/file {:.3}, p90 {:.3}, overall {:.3}",
        ratios.len(),
        median,
        p90,
        total_out as f64 / total_in as f64
    );
    assert!(median < 0.2, "median ratio {median}");
}
