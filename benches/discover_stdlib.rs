//! Benchmark: discovery on the Python standard library — import graph,
//! repo map (2,048 tokens) and a packed build (32k tokens) around a few
//! target modules — cold (empty caches), warm from the on-disk cache (a
//! new run) and warm in memory (the TUI's long-lived cache).
//!
//! Run: `cargo bench --bench discover_stdlib`. The disk cache goes to a
//! temporary directory, never into the standard library.

#[path = "../tests/integration/common/corpus.rs"]
mod corpus;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ctxcurate::core::discovery::graph::ImportGraph;
use ctxcurate::core::discovery::pack::{self, PackOptions};
use ctxcurate::core::model::{Format, Preset, TokenizerKind};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::store::DiskCache;
use ctxcurate::core::{discovery::repo_map, walk};

/// Seconds of `f`, and its result.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let out = f();
    (t.elapsed().as_secs_f64(), out)
}

fn round(
    root: &Path,
    files: &[String],
    cache: &Sources,
    targets: &[String],
) -> (f64, f64, f64, usize, usize) {
    let (t_graph, graph) =
        timed(|| ImportGraph::build(&Codebase::new(root, cache).with_walk(files), &[]));
    let (t_map, map) = timed(|| {
        let ranked = graph.rank(targets);
        repo_map::build(
            &Codebase::new(root, cache),
            &ranked,
            &HashSet::new(),
            2048,
            TokenizerKind::O200k,
        )
    });
    let opts = PackOptions {
        budget: 32_000,
        map_budget: 2048,
        tokenizer: TokenizerKind::O200k,
        format: Format::Markdown,
        max_messages: 0,
        include_dirs: Vec::new(),
        read: Default::default(),
        sections: ctxcurate::core::compose::Sections::default(),
        hold: Vec::new(),
        fill: true,
    };
    let (t_pack, packed) = timed(|| {
        pack::pack_with(
            &Codebase::new(root, cache).with_walk(files),
            &Preset::default(),
            targets,
            &opts,
            &graph,
        )
    });
    (t_graph, t_map, t_pack, map.tokens, packed.stats.tokens)
}

fn main() {
    // SAFETY: first thing, before any parse: as the binary does.
    unsafe { ctxcurate::core::syntax::allocator::install() };
    let Some(root) = std::env::args()
        .nth(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .or_else(corpus::python_stdlib)
    else {
        eprintln!("no Python standard library found");
        return;
    };
    let files: Vec<String> = walk::walk_files(&root)
        .into_iter()
        .filter(|f| !f.starts_with("site-packages/"))
        .collect();
    let targets = vec![
        "json/decoder.py".to_string(),
        "email/message.py".to_string(),
    ];
    let disk_dir = tempfile::tempdir().expect("tempdir");
    println!("{} files, targets {targets:?}", files.len());
    println!(
        "{:<22} {:>8} {:>8} {:>8} {:>10} {:>10}",
        "", "graph s", "map s", "pack s", "map tok", "pack tok"
    );
    let show = |label: &str, r: (f64, f64, f64, usize, usize)| {
        println!(
            "{label:<22} {:>8.3} {:>8.3} {:>8.3} {:>10} {:>10}",
            r.0, r.1, r.2, r.3, r.4
        );
    };
    let cold = Sources::with_disk(DiskCache::at(disk_dir.path()));
    show("cold", round(&root, &files, &cold, &targets));
    let disk = Sources::with_disk(DiskCache::at(disk_dir.path()));
    show(
        "warm (disk, new run)",
        round(&root, &files, &disk, &targets),
    );
    show("warm (memory)", round(&root, &files, &disk, &targets));
}
