//! Benchmark: the symbols pane's costs on two large real files (the
//! stdlib's `_pydecimal.py`, libstdc++'s `bits/stl_algo.h`), o200k:
//!
//! - `before`: each symbol's whole text counted, as the pane did before
//!   `core::symbol_costs` (nested text counted once per enclosing symbol,
//!   nothing kept: every visit paid it);
//! - `first visit`: the pieces counted once each (`core::syntax::costs`)
//!   and the result kept;
//! - `revisit`: the same file again in the same run (kept in memory);
//! - `new run`: a fresh process's cache over the disk cache of the first.
//!
//! The parse is done before each timing (it is cached per content
//! anyway); each number is the best of five.
//!
//! Run: `cargo bench --bench symbol_costs` (optionally with files:
//! `cargo bench --bench symbol_costs -- a.py b.h`).

#[path = "../tests/integration/common/corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};
use std::time::Instant;

use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::sources::Sources;
use ctxcurate::core::store::DiskCache;
use ctxcurate::core::symbol_costs::symbol_costs;
use ctxcurate::core::tokens;

const TOKENIZER: TokenizerKind = TokenizerKind::O200k;

/// Milliseconds of the best of five runs of `f` (after `prepare`).
fn best<T, P>(mut prepare: impl FnMut() -> P, mut f: impl FnMut(P) -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..5 {
        let input = prepare();
        let t = Instant::now();
        let r = f(input);
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        out = Some(r);
    }
    (best, out.expect("five runs"))
}

fn bench(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let Ok(cache_dir) = tempfile::tempdir() else {
        eprintln!("no temp dir");
        return;
    };
    let disk = || DiskCache::at(cache_dir.path());
    let parsed = |sources: Sources| {
        sources.symbols(dir, name);
        sources
    };
    let Some(tree) = Sources::new().symbols(dir, name) else {
        eprintln!("{}: no symbols", path.display());
        return;
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let symbols = tree.symbols.iter().map(|s| s.iter().count()).sum::<usize>();
    let (before, old) = best(
        || (),
        |()| {
            tree.symbols
                .iter()
                .flat_map(|s| s.iter())
                .map(|s| {
                    text.get(s.range.clone())
                        .map_or(0, |t| tokens::count(TOKENIZER, t))
                })
                .collect::<Vec<_>>()
        },
    );
    let (first, new) = best(
        || {
            let _ = disk().clear();
            parsed(Sources::with_disk(disk()))
        },
        |sources| symbol_costs(&sources, dir, name, TOKENIZER),
    );
    let warm = parsed(Sources::with_disk(disk()));
    symbol_costs(&warm, dir, name, TOKENIZER);
    let (revisit, _) = best(|| (), |()| symbol_costs(&warm, dir, name, TOKENIZER));
    let (new_run, again) = best(
        || parsed(Sources::with_disk(disk())),
        |sources| symbol_costs(&sources, dir, name, TOKENIZER),
    );
    let new = new.map(|c| c.costs).unwrap_or_default();
    assert_eq!(
        again.map(|c| c.costs),
        Some(new.clone()),
        "the disk gives the same costs"
    );
    let counted_before: usize = old.iter().sum();
    println!(
        "{name:<16} {:>7.0} KB {symbols:>5} symbols  before {before:>8.2} ms  first visit {first:>8.2} ms  revisit {revisit:>6.3} ms  new run {new_run:>6.3} ms  (tokens counted before {counted_before}, top-level total now {})",
        text.len() as f64 / 1e3,
        top_level_total(&tree, &new),
    );
}

/// The sum of the top-level symbols' costs: every byte of the symbols
/// counted once.
fn top_level_total(tree: &ctxcurate::core::syntax::SymbolTree, costs: &[usize]) -> usize {
    let mut at = 0;
    let mut sum = 0;
    for s in &tree.symbols {
        sum += costs.get(at).copied().unwrap_or(0);
        at += s.iter().count();
    }
    sum
}

fn main() {
    // SAFETY: first thing, before any parse: as the binary does.
    unsafe { ctxcurate::core::syntax::allocator::install() };
    let mut files: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        files.extend(corpus::python_stdlib().map(|d| d.join("_pydecimal.py")));
        files.extend(corpus::cpp_include_dir().map(|d| d.join("bits/stl_algo.h")));
    }
    for f in files.iter().filter(|f| f.is_file()) {
        bench(f);
    }
}
