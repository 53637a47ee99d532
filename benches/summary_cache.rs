//! Benchmark: a summary-mode build of the whole Python standard library,
//! cold (empty disk cache: every file summarized) and warm (a new run, so
//! no in-memory cache, with the disk cache of the cold run: every summary
//! read back from `.ctxcurate/cache`). The cache lives in a temp directory,
//! so the tree is never written to.
//!
//! Run: `cargo bench --bench summary_cache` (optionally with a directory:
//! `cargo bench --bench summary_cache -- /path/to/tree`).

#[path = "../tests/integration/common/corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};
use std::time::Instant;

use ctxcurate::core::compose::{self, ComposeOptions};
use ctxcurate::core::model::{FileItem, Preset, Settings, Strategy};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::store::DiskCache;
use ctxcurate::core::summary::{Summarizer, SummaryConfig};
use ctxcurate::core::walk;

/// One build through a fresh in-memory cache over the disk cache in
/// `cache_dir`; seconds, summaries computed, output bytes.
fn build(root: &Path, cache_dir: &Path, walked: &[String]) -> (f64, usize, usize) {
    let preset = Preset {
        files: vec![FileItem::new("**/*.py")],
        exclude: vec!["site-packages".into()],
        ..Preset::default()
    };
    let mut opts = ComposeOptions::from_settings(&Settings::default());
    opts.strategy = Strategy::Summarize;
    let summarizer = Summarizer::new(DiskCache::at(cache_dir), SummaryConfig::default());
    let cache = Sources::with_summarizer(summarizer);
    let t = Instant::now();
    let c = compose::compose_with(
        &Codebase::new(root, &cache).with_walk(walked),
        &preset,
        &opts,
    );
    (
        t.elapsed().as_secs_f64(),
        cache.summarizer().computed(),
        c.text.len(),
    )
}

fn main() {
    // SAFETY: first thing, before any parse: as the binary does.
    unsafe { ctxcurate::core::syntax::allocator::install() };
    let root = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .or_else(corpus::python_stdlib);
    let Some(root) = root else {
        eprintln!("no tree to compose: python3's stdlib not found and no directory given");
        return;
    };
    let Ok(tmp) = tempfile::tempdir() else {
        eprintln!("no temp dir");
        return;
    };
    let walked = walk::walk_files(&root);
    println!("summary build of {}", root.display());
    let (mut cold, mut warm) = (f64::MAX, f64::MAX);
    let (mut cold_n, mut warm_n, mut bytes) = (0, 0, 0);
    for _ in 0..3 {
        let _ = DiskCache::at(tmp.path()).clear();
        let (t, n, b) = build(&root, tmp.path(), &walked);
        (cold, cold_n, bytes) = (cold.min(t), n, b);
        let (t, n, b) = build(&root, tmp.path(), &walked);
        assert_eq!(b, bytes, "the warm build composes the same text");
        (warm, warm_n) = (warm.min(t), n);
    }
    println!(
        "cold {cold:.3} s ({cold_n} summarized)  warm {warm:.3} s ({warm_n} summarized)  {:.1}x  output {:.1} MB",
        cold / warm,
        bytes as f64 / 1e6
    );
}
