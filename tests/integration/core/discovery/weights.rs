//! Imports weighed by how they are used, and standard-library names, on
//! fixtures with exact expectations and on rich's sources: a file a target
//! imports only under `if TYPE_CHECKING:`, inside a function, as a
//! re-export, or with TypeScript's `import type` ranks below the files it
//! imports at runtime; `from abc import ABC` next to a project `abc.py` is
//! the standard library's, `from .abc import X` the project's.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;

use ctxcurate::core::discovery::graph::{ImportGraph, ImportKind};
use ctxcurate::core::discovery::pack::{self, PackOptions};
use ctxcurate::core::model::{Format, Preset, TokenizerKind, ViewMode};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::walk;

use common::{Project, machine};

fn graph(root: &Path) -> ImportGraph {
    let files = walk::walk_files(root);
    ImportGraph::build(&Codebase::new(root, &Sources::new()).with_walk(&files), &[])
}

fn order(g: &ImportGraph, target: &str) -> Vec<String> {
    g.rank(&[target.to_string()])
        .into_iter()
        .map(|r| r.path)
        .collect()
}

/// A target (`app/table.py`) importing one module of each kind, every
/// module the same size; `console.py` is also what `segment.py` imports at
/// runtime, so rank flows to it along a runtime edge too.
fn kinds_project() -> Project {
    let p = Project::empty();
    p.write("app/__init__.py", "");
    p.write(
        "app/table.py",
        "from typing import TYPE_CHECKING\n\
         from abc import ABC\n\
         from .segment import Segment\n\
         from .star import *\n\
         \n\
         if TYPE_CHECKING:\n    from .console import Console\n\
         \n\
         class Table(ABC):\n    def render(self, console: \"Console\"):\n        \
         from .lazy import helper\n        return helper(Segment())\n",
    );
    for name in ["segment", "star", "console", "lazy", "abc"] {
        let import = if name == "segment" {
            "from .console import Console\n\n"
        } else {
            ""
        };
        p.write(
            &format!("app/{name}.py"),
            &format!("{import}def {name}_body():\n    return 1\n"),
        );
    }
    p
}

#[test]
fn type_only_local_and_re_exported_imports_rank_below_runtime_ones() {
    let p = kinds_project();
    let g = graph(p.root());
    // `from abc import ABC` is the standard library's: no edge to app/abc.py.
    assert_eq!(
        g.imports_of("app/table.py"),
        [
            "app/console.py",
            "app/lazy.py",
            "app/segment.py",
            "app/star.py"
        ]
    );
    let kinds: BTreeMap<String, ImportKind> = g.direct_kinds(&["app/table.py".to_string()]);
    use ImportKind::*;
    let want: BTreeMap<String, ImportKind> = [
        ("app/console.py", TypeOnly),
        ("app/lazy.py", Local),
        ("app/segment.py", Runtime),
        ("app/star.py", ReExport),
    ]
    .into_iter()
    .map(|(p, k)| (p.to_string(), k))
    .collect();
    assert_eq!(kinds, want);
    assert_eq!(
        g.import_kind("app/segment.py", "app/console.py"),
        Some(Runtime)
    );
    assert_eq!(g.import_kind("app/table.py", "app/abc.py"), None);
    // The target; its runtime import (segment); then the rest of its
    // direct imports by rank: console first, as segment also imports it
    // at runtime, then the re-export before the function-local import (a
    // half against a third of a weight); then the files it never
    // reaches, by project-wide rank.
    assert_eq!(
        order(&g, "app/table.py"),
        [
            "app/table.py",
            "app/segment.py",
            "app/console.py",
            "app/star.py",
            "app/lazy.py",
            "app/__init__.py",
            "app/abc.py",
        ]
    );
}

#[test]
fn the_same_import_at_runtime_and_for_types_is_a_runtime_import() {
    let p = Project::empty();
    p.write(
        "a.py",
        "import typing\nif typing.TYPE_CHECKING:\n    from b import B\nfrom b import make\n",
    );
    p.write("b.py", "def make():\n    pass\n");
    let g = graph(p.root());
    assert_eq!(g.import_kind("a.py", "b.py"), Some(ImportKind::Runtime));
    // Both statements count, the type-only one for a fifth.
    assert_eq!(g.edges(), [("a.py", "b.py", 1.2)]);
}

#[test]
fn typescript_import_type_ranks_below_import() {
    let p = Project::empty();
    p.write(
        "src/app.ts",
        "import type { Config } from './config';\n\
         import { run } from './run';\n\
         export { helper } from './helper';\n\
         import { readFileSync } from 'node:fs';\n\
         import path from 'path';\n\
         const lazy = () => import('./lazy');\n",
    );
    for name in ["config", "run", "helper", "lazy", "fs", "path"] {
        p.write(&format!("src/{name}.ts"), "export const x = 1;\n");
    }
    let g = graph(p.root());
    assert_eq!(
        g.imports_of("src/app.ts"),
        [
            "src/config.ts",
            "src/helper.ts",
            "src/lazy.ts",
            "src/run.ts"
        ],
        "Node's fs and path are not the project's"
    );
    assert_eq!(
        order(&g, "src/app.ts")[..5],
        [
            "src/app.ts",
            "src/run.ts",
            "src/helper.ts",
            "src/lazy.ts",
            "src/config.ts"
        ]
    );
    assert_eq!(
        g.import_kind("src/app.ts", "src/config.ts"),
        Some(ImportKind::TypeOnly)
    );
}

#[test]
fn relative_and_qualified_imports_of_a_standard_name_are_the_project_s() {
    let p = Project::empty();
    p.write("pkg/__init__.py", "");
    p.write("pkg/abc.py", "class RichRenderable:\n    pass\n");
    p.write("pkg/types.py", "X = 1\n");
    p.write(
        "pkg/console.py",
        "from abc import ABC\nimport types\nfrom .abc import RichRenderable\n",
    );
    p.write("pkg/other.py", "from pkg.types import X\n");
    let g = graph(p.root());
    assert_eq!(g.imports_of("pkg/console.py"), ["pkg/abc.py"]);
    assert_eq!(
        g.imports_of("pkg/other.py"),
        ["pkg/__init__.py", "pkg/types.py"]
    );
    assert!(g.unresolved().is_empty(), "{:?}", g.unresolved());
}

fn pack_opts(budget: usize) -> PackOptions {
    PackOptions {
        budget,
        map_budget: 0,
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

/// The packer takes the direct imports in rank order: with room for the
/// target and one import in full, the runtime import is the one.
#[test]
fn packing_fills_runtime_imports_before_type_only_ones() {
    let p = Project::empty();
    p.write(
        "table.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from console import Console\n\
         from segment import Segment\n\ndef render(c: \"Console\"):\n    return Segment()\n",
    );
    let body = |name: &str| {
        (0..40)
            .map(|i| format!("def {name}_{i}(a, b):\n    return a + b * {i}\n\n"))
            .collect::<String>()
    };
    p.write("console.py", &body("console"));
    p.write("segment.py", &body("segment"));
    let files = walk::walk_files(p.root());
    let cache = Sources::new();
    let codebase = Codebase::new(p.root(), &cache).with_walk(&files);
    let targets = vec!["table.py".to_string()];
    let full_of = |budget: usize| {
        let packed = pack::pack(&codebase, &Preset::default(), &targets, &pack_opts(budget));
        let mode = |path: &str| {
            packed
                .items
                .iter()
                .find(|i| i.path == path)
                .and_then(|i| i.mode)
        };
        (mode("segment.py"), mode("console.py"))
    };
    // Room for both in full, then for one only: the runtime import keeps it.
    let (segment, console) = full_of(20_000);
    assert_eq!(
        (segment, console),
        (Some(ViewMode::Full), Some(ViewMode::Full))
    );
    let (segment, console) = full_of(1_300);
    assert_eq!(segment, Some(ViewMode::Full));
    assert_ne!(console, Some(ViewMode::Full));
}

/// rich's sources: `console.py`'s `from abc import ABC` is the standard
/// library's (rich ships `rich/abc.py`), and `table.py`'s `console.py`,
/// imported only under `if TYPE_CHECKING:` (and by the demo under `if
/// __name__ == "__main__":`), ranks after every file `table.py` imports at
/// runtime.
#[test]
fn rich_standard_names_and_type_checking_imports() {
    let Some(root) = machine::downloaded("rich-15.0.0") else {
        return;
    };
    let g = graph(&root);
    assert!(g.contains("rich/abc.py"));
    assert!(
        !g.imports_of("rich/console.py").contains(&"rich/abc.py"),
        "{:?}",
        g.imports_of("rich/console.py")
    );
    let target = "rich/table.py".to_string();
    let kinds = g.direct_kinds(std::slice::from_ref(&target));
    // Under `if TYPE_CHECKING:`, and in the `__main__` demo at the end.
    assert_eq!(kinds.get("rich/console.py"), Some(&ImportKind::Local));
    let runtime: Vec<&String> = kinds
        .iter()
        .filter(|(_, k)| k.is_runtime())
        .map(|(p, _)| p)
        .collect();
    assert!(runtime.len() >= 10, "{kinds:?}");
    let order = order(&g, &target);
    let at = |p: &str| order.iter().position(|o| o == p).expect("ranked");
    for p in &runtime {
        assert!(
            at(p) < at("rich/console.py"),
            "{p} after console.py: {order:?}"
        );
    }
    // Every direct import ranks before every file reached only through them.
    assert_eq!(
        order[1..=kinds.len()]
            .iter()
            .filter(|p| !kinds.contains_key(*p))
            .count(),
        0
    );
}
