//! Benchmark: compose the whole Python standard library, once with every
//! file in full and once with every file as a skeleton, and print the
//! wall time (cold, and warm through a long-lived cache) and the exact
//! o200k token count of each.
//!
//! Run: `cargo bench --bench compose_stdlib` (optionally with a directory
//! argument: `cargo bench --bench compose_stdlib -- /path/to/tree`).

#[path = "../tests/integration/common/corpus.rs"]
mod corpus;

use std::path::PathBuf;
use std::time::Instant;

use ctxcurate::core::compose::{self, ComposeOptions};
use ctxcurate::core::model::{FileItem, Preset, Settings, Strategy, TokenizerKind, ViewMode};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::{tokens, walk};

fn run(root: &std::path::Path, label: &str, mode: ViewMode, strategy: Strategy) {
    let mut item = FileItem::new("**/*.py");
    item.view_mode = mode;
    // The standard library only: third-party packages installed beside it
    // are not part of it.
    let preset = Preset {
        files: vec![item],
        exclude: vec!["site-packages".into()],
        ..Preset::default()
    };
    let mut opts = ComposeOptions::from_settings(&Settings::default());
    opts.strategy = strategy;
    // Cold: a fresh cache each time (every file read, parsed, rendered).
    let mut cold = f64::MAX;
    let mut composition = None;
    for _ in 0..3 {
        let t = Instant::now();
        let c = compose::compose(root, &preset, &opts);
        cold = cold.min(t.elapsed().as_secs_f64());
        composition = Some(c);
    }
    // Warm: the same project composed again through a long-lived cache
    // (what the TUI and repeated builds do): only stat calls and joins.
    let cache = Sources::new();
    let walked = walk::walk_files(root);
    compose::compose_with(
        &Codebase::new(root, &cache).with_walk(&walked),
        &preset,
        &opts,
    );
    let mut warm = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        compose::compose_with(
            &Codebase::new(root, &cache).with_walk(&walked),
            &preset,
            &opts,
        );
        warm = warm.min(t.elapsed().as_secs_f64());
    }
    let Some(c) = composition else { return };
    let t = Instant::now();
    let n = tokens::count(TokenizerKind::O200k, &c.text);
    let count_secs = t.elapsed().as_secs_f64();
    println!(
        "{label:<9} files {:>5}  MB {:>6.1}  cold {:>6.3} s  warm {:>6.3} s ({:>4.0}x)  o200k {:>9} tokens in {:.3} s",
        c.files.len(),
        c.text.len() as f64 / 1e6,
        cold,
        warm,
        cold / warm,
        n,
        count_secs
    );
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
    println!("composing {}", root.display());
    run(&root, "full", ViewMode::Full, Strategy::Full);
    run(&root, "skeleton", ViewMode::Skeleton, Strategy::Auto);
}
