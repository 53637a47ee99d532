//! The repo map on real trees: rich (Python) and Brotli (C), ranked around
//! one target. It grows with the budget, outlines the target's direct
//! imports first, collapses the preprocessor variants of one name, and
//! never outlines a dunder nobody names before the names others use.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::common;

use ctxcurate::core::discovery::graph::ImportGraph;
use ctxcurate::core::discovery::repo_map::{self, RepoMap};
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::walk;

use common::machine;

/// The maps of `root` around `target` at each budget, and the target's
/// direct imports at runtime.
fn maps(root: &Path, target: &str, budgets: &[usize]) -> (Vec<RepoMap>, Vec<String>) {
    let files = walk::walk_files(root);
    let sources = Sources::new();
    let codebase = Codebase::new(root, &sources).with_walk(&files);
    let graph = ImportGraph::build(&codebase, &[]);
    let targets = [target.to_string()];
    let ranked = graph.rank(&targets);
    let skip: HashSet<&str> = [target].into_iter().collect();
    let maps = budgets
        .iter()
        .map(|&b| repo_map::build(&codebase, &ranked, &skip, b, TokenizerKind::O200k))
        .collect();
    let runtime = graph
        .direct_kinds(&targets)
        .into_iter()
        .filter(|(_, k)| k.is_runtime())
        .map(|(p, _)| p)
        .collect();
    (maps, runtime)
}

/// The files a map outlines: a path line followed by an indented line.
fn outlined(map: &RepoMap) -> Vec<&str> {
    let lines: Vec<&str> = map.text.lines().collect();
    lines
        .windows(2)
        .filter(|w| !w[0].starts_with(' ') && w[1].starts_with("  "))
        .map(|w| w[0])
        .collect()
}

fn grows_and_holds(maps: &[RepoMap], budgets: &[usize]) {
    for (map, &budget) in maps.iter().zip(budgets) {
        assert!(map.tokens <= budget, "{budget}: {}", map.tokens);
        assert_eq!(outlined(map).len(), map.outlined, "{}", map.text);
    }
    let covered: Vec<usize> = maps.iter().map(|m| m.outlined).collect();
    assert!(covered.windows(2).all(|w| w[0] < w[1]), "{covered:?}");
}

#[test]
fn rich_map_covers_many_files_and_the_targets_imports() {
    let Some(root) = machine::downloaded("rich-15.0.0") else {
        return;
    };
    let budgets = [1024, 2048, 8192];
    let (maps, direct) = maps(&root, "rich/table.py", &budgets);
    grows_and_holds(&maps, &budgets);
    // Before: 4 of 99 files outlined at 2,048 tokens.
    assert!(maps[1].outlined >= 40, "{}", maps[1].text);
    assert!(direct.len() >= 10, "{direct:?}");
    let shown = outlined(&maps[1]);
    for d in &direct {
        assert!(
            shown.contains(&d.as_str()),
            "{d} not outlined:\n{}",
            maps[1].text
        );
    }
    // Hooks the language calls are not what a 2k map spends lines on.
    for dunder in ["__repr__", "__bool__", "__rich_repr__"] {
        assert!(
            !maps[1].text.contains(dunder),
            "{dunder}:\n{}",
            maps[1].text
        );
    }
}

#[test]
fn brotli_map_collapses_variants_and_outlines_the_bit_reader() {
    let Some(root) = machine::downloaded("brotli-1.2.1") else {
        return;
    };
    let budgets = [1024, 2048, 8192];
    let (maps, direct) = maps(&root, "c/dec/decode.c", &budgets);
    grows_and_holds(&maps, &budgets);
    let map = &maps[1];
    assert!(
        direct.iter().any(|d| d == "c/dec/bit_reader.h"),
        "{direct:?}"
    );
    assert!(
        outlined(map).contains(&"c/dec/bit_reader.h"),
        "{}",
        map.text
    );
    assert!(map.text.contains("#define BROTLI_INLINE "), "{}", map.text);
    // Each `#define` name once per file.
    let mut seen: HashMap<(&str, &str), usize> = HashMap::new();
    let mut file = "";
    for line in map.text.lines() {
        if !line.starts_with(' ') {
            file = line;
        } else if let Some(name) = line.trim().strip_prefix("#define ") {
            let name = name.split([' ', '(']).next().unwrap_or(name);
            *seen.entry((file, name)).or_default() += 1;
        }
    }
    let twice: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "{twice:?}\n{}", map.text);
}
