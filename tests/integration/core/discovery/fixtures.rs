//! Discovery on small fixture projects with exact expectations: the import
//! graph (Python packages, relative imports and a cycle; C with nested
//! includes and include dirs), its personalized ranking, what targets
//! reach, and packing into a budget.

use crate::common;

use ctxcurate::core::discovery::graph::ImportGraph;
use ctxcurate::core::discovery::pack::{self, PackOptions, Role};
use ctxcurate::core::model::{FileItem, Format, Preset, TokenizerKind, ViewMode};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::tokens;
use ctxcurate::core::walk;

use common::Project;

fn python_project() -> Project {
    let p = Project::empty();
    p.write(
        "app.py",
        "from pkg.core import App\nimport pkg.util\n\nApp().run()\n",
    );
    p.write("pkg/__init__.py", "from .core import App\n");
    p.write(
        "pkg/core.py",
        "\"\"\"Core.\n\nimport not_an_import\n\"\"\"\nfrom . import util\nfrom .models import Model, Field, Base\nimport os\n\nclass App:\n    def run(self):\n        return util.helper()\n",
    );
    // A cycle: util imports core back.
    p.write(
        "pkg/util.py",
        "from .core import App\n\ndef helper():\n    return 1\n",
    );
    p.write("pkg/models.py", "import json\n\nclass Model:\n    pass\n\nclass Field:\n    pass\n\nclass Base:\n    pass\n");
    p.write("unrelated.py", "import sys\n");
    p.write("README.md", "# demo\n");
    p
}

fn c_project() -> Project {
    let p = Project::empty();
    p.write(
        "src/main.c",
        "#include <stdio.h>\n#include \"util.h\"\n#include \"net/socket.h\"\nint main(void) { return 0; }\n",
    );
    p.write("src/util.h", "#include \"config.h\"\nint util(void);\n");
    p.write(
        "src/util.c",
        "#include \"util.h\"\nint util(void) { return 1; }\n",
    );
    p.write(
        "src/net/socket.h",
        "#include \"../util.h\"\nint sock(void);\n",
    );
    p.write("include/config.h", "#define CONFIG 1\n");
    p.write("tools/gen.c", "#include <config.h>\n");
    p
}

fn graph(p: &Project, include_dirs: &[&str]) -> ImportGraph {
    let files = walk::walk_files(p.root());
    let dirs: Vec<String> = include_dirs.iter().map(|s| s.to_string()).collect();
    ImportGraph::build(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        &dirs,
    )
}

fn edges(g: &ImportGraph) -> Vec<(String, String, f64)> {
    g.edges()
        .into_iter()
        .map(|(a, b, w)| (a.to_string(), b.to_string(), w))
        .collect()
}

fn e(a: &str, b: &str, w: f64) -> (String, String, f64) {
    (a.to_string(), b.to_string(), w)
}

fn order(g: &ImportGraph, targets: &[&str]) -> Vec<String> {
    let targets: Vec<String> = targets.iter().map(|s| s.to_string()).collect();
    g.rank(&targets).into_iter().map(|r| r.path).collect()
}

#[test]
fn python_graph_is_exact() {
    let p = python_project();
    let g = graph(&p, &[]);
    assert_eq!(g.len(), 6, "every .py file is a node, README.md is not");
    assert_eq!(
        edges(&g),
        vec![
            // `pkg/__init__.py` runs on the way to `pkg.core` and
            // `pkg.util`: half a weight each.
            e("app.py", "pkg/__init__.py", 1.0),
            e("app.py", "pkg/core.py", 1.0),
            e("app.py", "pkg/util.py", 1.0),
            // The package passes `App` on: a re-export, half a weight.
            e("pkg/__init__.py", "pkg/core.py", 0.5),
            e("pkg/core.py", "pkg/models.py", 3.0),
            e("pkg/core.py", "pkg/util.py", 1.0),
            e("pkg/util.py", "pkg/core.py", 1.0),
        ]
    );
}

#[test]
fn python_ranking_follows_the_targets() {
    let p = python_project();
    let g = graph(&p, &[]);
    // From app.py: the target, then what it imports directly — the cycle
    // core ⇄ util, core first as util and the package both send their rank
    // there, then the package `pkg/__init__.py` that both imports run —
    // then models (through core); files app.py never reaches last, by
    // project-wide rank, then path.
    assert_eq!(
        order(&g, &["app.py"]),
        [
            "app.py",
            "pkg/core.py",
            "pkg/util.py",
            "pkg/__init__.py",
            "pkg/models.py",
            "unrelated.py",
        ]
    );
    let ranked = g.rank(&["app.py".to_string()]);
    let total: f64 = ranked.iter().map(|r| r.score).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(ranked[4].score > 0.0);
    assert_eq!(ranked[5].score, 0.0);
    // The same inputs give the same order, run after run.
    assert_eq!(order(&g, &["app.py"]), order(&g, &["app.py"]));
    // Seeded elsewhere, the order follows.
    assert_eq!(
        order(&g, &["pkg/util.py"])[..2],
        ["pkg/util.py", "pkg/core.py"]
    );

    let reach = g.reach(&["app.py".to_string()]);
    assert_eq!(
        reach.direct,
        ["pkg/__init__.py", "pkg/core.py", "pkg/util.py"]
    );
    assert_eq!(reach.transitive, ["pkg/models.py"]);
    assert!(reach.callers.is_empty());
    // Seeded on core: util and the package import it, so do app.py (a
    // caller only: it is not reached from core).
    let reach = g.reach(&["pkg/core.py".to_string()]);
    assert_eq!(reach.direct, ["pkg/models.py", "pkg/util.py"]);
    assert_eq!(reach.callers, ["app.py", "pkg/__init__.py"]);
}

#[test]
fn c_graph_resolves_relative_and_include_dirs() {
    let p = c_project();
    // `include/` is found in the tree: config.h resolves with or without
    // `include_dirs`; <stdio.h> is never an edge.
    assert_eq!(edges(&graph(&p, &[])), edges(&graph(&p, &["include"])));
    let g = graph(&p, &["include"]);
    assert_eq!(
        edges(&g),
        vec![
            e("src/main.c", "src/net/socket.h", 1.0),
            e("src/main.c", "src/util.h", 1.0),
            e("src/net/socket.h", "src/util.h", 1.0),
            e("src/util.c", "src/util.h", 1.0),
            e("src/util.h", "include/config.h", 1.0),
            e("tools/gen.c", "include/config.h", 1.0),
        ]
    );
    assert_eq!(
        order(&g, &["src/main.c"]),
        // Target, its direct includes (util.h holds more rank: socket.h
        // sends its rank there), the transitive config.h, then files
        // main.c never reaches, by project-wide rank.
        [
            "src/main.c",
            "src/util.h",
            "src/net/socket.h",
            "include/config.h",
            "src/util.c",
            "tools/gen.c",
        ]
    );
    let reach = g.reach(&["src/main.c".to_string()]);
    assert_eq!(reach.direct, ["src/net/socket.h", "src/util.h"]);
    assert_eq!(reach.transitive, ["include/config.h"]);
}

fn pack_opts(budget: usize) -> PackOptions {
    PackOptions {
        budget,
        map_budget: 64,
        tokenizer: TokenizerKind::O200k,
        format: Format::Markdown,
        max_messages: 0,
        include_dirs: Vec::new(),
        read: Default::default(),
        sections: ctxcurate::core::compose::Sections::default(),
        hold: Vec::new(),
        fill: true,
    }
}

#[test]
fn packing_orders_roles_and_reduces_before_dropping() {
    let p = python_project();
    let files = walk::walk_files(p.root());
    let mut preset = Preset::default();
    preset.files.push(FileItem::new("README.md"));
    let targets = vec!["app.py".to_string()];
    let cache = Sources::new();

    let roomy = pack::pack(
        &Codebase::new(p.root(), &cache).with_walk(&files),
        &preset,
        &targets,
        &pack_opts(5000),
    );
    let got: Vec<(&str, Role, Option<ViewMode>)> = roomy
        .items
        .iter()
        .map(|i| (i.path.as_str(), i.role, i.mode))
        .collect();
    assert_eq!(
        got,
        [
            ("app.py", Role::Target, Some(ViewMode::Full)),
            ("pkg/core.py", Role::Import, Some(ViewMode::Full)),
            ("pkg/util.py", Role::Import, Some(ViewMode::Full)),
            ("pkg/__init__.py", Role::Import, Some(ViewMode::Full)),
            ("pkg/models.py", Role::Transitive, Some(ViewMode::Skeleton)),
            ("README.md", Role::Preset, Some(ViewMode::Full)),
        ]
    );
    assert!(
        roomy.text.starts_with("## Directory Tree\n"),
        "{}",
        roomy.text
    );
    assert!(roomy.text.contains("```\n\n## Files\n\n### app.py\n"));
    assert!(roomy.text.contains("## Repo Map"));
    assert!(
        roomy.text.contains("\nunrelated.py"),
        "the map lists the rest"
    );
    assert_eq!(roomy.stats.discovered, 4);
    assert_eq!(
        roomy.stats.tokens,
        tokens::count(TokenizerKind::O200k, &roomy.text)
    );

    // Tight: everything must still fit, by reducing first.
    for budget in [0, 20, 60, 90, 120, 160, 200, 300] {
        let packed = pack::pack(
            &Codebase::new(p.root(), &cache).with_walk(&files),
            &preset,
            &targets,
            &pack_opts(budget),
        );
        let exact = tokens::count(TokenizerKind::O200k, &packed.text);
        assert!(
            exact <= budget.max(packed.stats.tokens),
            "{budget}: {exact}"
        );
        assert_eq!(packed.stats.tokens, exact);
        if budget >= 20 {
            assert!(exact <= budget, "{budget}: {exact}");
        }
        for item in &packed.items {
            if let Some(mode) = item.mode {
                assert!(packed.text.contains(&format!("### {}", item.path)));
                if mode != item.wanted {
                    assert!(packed.stats.reduced > 0);
                }
            }
        }
    }
    // Too small for core.py in full or as a skeleton (no shorter for so
    // small a file), enough for its outline, the directory tree and a
    // `## Left out` note that counts the rest.
    let tight = pack::pack(
        &Codebase::new(p.root(), &cache).with_walk(&files),
        &preset,
        &targets,
        &pack_opts(120),
    );
    let core = &tight.items[1];
    assert_eq!(
        (core.path.as_str(), core.mode),
        ("pkg/core.py", Some(ViewMode::Outline)),
        "{:?}",
        tight.items
    );
    assert!(tight.text.contains("### pkg/core.py [outline]"));
    assert!(
        tight.text.ends_with(
            "## Left out\n\nNot included, for lack of room (ask for them if needed):\n\
             - 4 files (110 tokens at least)\n"
        ),
        "{}",
        tight.text
    );
}

#[test]
fn xml_packing_stays_in_budget() {
    let p = c_project();
    let files = walk::walk_files(p.root());
    let mut opts = pack_opts(150);
    opts.format = Format::Xml;
    opts.include_dirs = vec!["include".to_string()];
    let packed = pack::pack(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        &Preset::default(),
        &["src/main.c".to_string()],
        &opts,
    );
    assert!(
        packed
            .text
            .starts_with("<documents>\n<directory_tree>\nsrc/\n  main.c\n")
    );
    assert!(
        packed
            .text
            .contains("</directory_tree>\n<document index=\"1\">")
    );
    assert!(tokens::count(TokenizerKind::O200k, &packed.text) <= 150);
}

#[test]
fn discovered_files_the_preset_lists_keep_their_own_view() {
    let p = python_project();
    let files = walk::walk_files(p.root());
    let mut preset = Preset::default();
    let mut models = FileItem::new("pkg/models.py");
    models.view_mode = ViewMode::Summary;
    preset.files.push(models);
    let packed = pack::pack(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        &preset,
        &["app.py".to_string()],
        &pack_opts(5000),
    );
    let item = packed
        .items
        .iter()
        .find(|i| i.path == "pkg/models.py")
        .expect("models is a candidate");
    assert_eq!(
        (item.role, item.wanted, item.mode),
        (Role::Transitive, ViewMode::Summary, Some(ViewMode::Summary))
    );
}

/// A target importing 30 files too big for the budget even as outlines,
/// the first of which imports a tiny one: the tiny file ranks after all 30.
fn crowded_project() -> Project {
    let p = Project::empty();
    let imports: String = (0..30).map(|i| format!("import big{i:02}\n")).collect();
    p.write("app.py", &imports);
    let defs: String = (0..80)
        .map(|i| format!("def function_number_{i}(alpha, beta):\n    return alpha * beta\n\n"))
        .collect();
    for i in 0..30 {
        let head = if i == 0 { "import tiny\n\n" } else { "" };
        p.write(&format!("big{i:02}.py"), &format!("{head}{defs}"));
    }
    p.write("tiny.py", "def t():\n    return 1\n");
    p
}

#[test]
fn packing_tries_every_candidate_and_lists_what_it_dropped() {
    let p = crowded_project();
    let files = walk::walk_files(p.root());
    let targets = vec!["app.py".to_string()];
    let mut opts = pack_opts(400);
    opts.map_budget = 0;
    let packed = pack::pack(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        &Preset::default(),
        &targets,
        &opts,
    );
    assert!(packed.stats.tokens <= 400, "{}", packed.stats.tokens);
    let included: Vec<(&str, Option<ViewMode>)> = packed
        .items
        .iter()
        .filter(|i| i.mode.is_some())
        .map(|i| (i.path.as_str(), i.mode))
        .collect();
    // 30 misses in a row, then tiny.py still gets in (it used to be
    // dropped untried after 24).
    assert_eq!(
        included,
        [
            ("app.py", Some(ViewMode::Full)),
            ("tiny.py", Some(ViewMode::Skeleton)),
        ],
        "{:?}",
        packed.items
    );
    assert_eq!(
        packed.items.last().map(|i| i.path.as_str()),
        Some("tiny.py")
    );
    let mut dropped = packed.stats.dropped_files.clone();
    assert_eq!(packed.stats.dropped, 30);
    let in_rank_order: Vec<String> = packed
        .items
        .iter()
        .filter(|i| i.mode.is_none())
        .map(|i| i.path.clone())
        .collect();
    assert_eq!(dropped, in_rank_order);
    dropped.sort();
    let bigs: Vec<String> = (0..30).map(|i| format!("big{i:02}.py")).collect();
    assert_eq!(dropped, bigs);
    assert!(packed.missing_targets.is_empty());
}

#[test]
fn a_target_that_does_not_fit_is_reported_with_its_cheapest_size() {
    let p = python_project();
    let files = walk::walk_files(p.root());
    let cache = Sources::new();
    let targets = vec!["app.py".to_string()];
    let packed = pack::pack(
        &Codebase::new(p.root(), &cache).with_walk(&files),
        &Preset::default(),
        &targets,
        &pack_opts(5),
    );
    assert_eq!(packed.missing_targets.len(), 1, "{:?}", packed.items);
    let missing = &packed.missing_targets[0];
    assert_eq!((missing.path.as_str(), missing.budget), ("app.py", 5));
    // The size is what app.py alone takes as an outline: the smallest
    // budget that includes it.
    let size = missing.tokens.expect("tried");
    assert!(size > 5, "{size}");
    let fits = pack::pack(
        &Codebase::new(p.root(), &cache).with_walk(&files),
        &Preset::default(),
        &targets,
        &pack_opts(size),
    );
    assert!(fits.missing_targets.is_empty(), "{:?}", fits.items);
    assert_eq!(fits.items[0].mode, Some(ViewMode::Outline));
    let short = pack::pack(
        &Codebase::new(p.root(), &cache).with_walk(&files),
        &Preset::default(),
        &targets,
        &pack_opts(size - 1),
    );
    assert_eq!(short.missing_targets.len(), 1);
}
