//! Discovery on the layouts people have, with exact expectations: a
//! package opened at its own folder, package `__init__` links, include
//! folders found in the tree and in `compile_commands.json`, headers found
//! by path suffix, and the imports that name the project but no file of it
//! (reported, never silently dropped). Then pip's own sources opened at
//! its package folder, as a user who clones pip and runs ctxcurate in
//! `src/pip` would.

use crate::common;

use std::path::Path;
use std::process::Command;

use ctxcurate::core::compose::Sections;
use ctxcurate::core::discovery::graph::{ImportGraph, UnresolvedImport};
use ctxcurate::core::discovery::pack::{self, PackOptions, Role};
use ctxcurate::core::model::{Format, Preset, TokenizerKind};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::walk::{self, ReadPolicy};

use common::{Project, machine, stderr};

fn graph_at(root: &Path) -> ImportGraph {
    let files = walk::walk_files(root);
    ImportGraph::build(&Codebase::new(root, &Sources::new()).with_walk(&files), &[])
}

fn imports_of(g: &ImportGraph, path: &str) -> Vec<String> {
    g.imports_of(path).into_iter().map(String::from).collect()
}

fn unresolved(g: &ImportGraph) -> Vec<(String, String)> {
    g.unresolved()
        .iter()
        .map(|UnresolvedImport { file, import }| (file.clone(), import.clone()))
        .collect()
}

fn u(file: &str, import: &str) -> (String, String) {
    (file.to_string(), import.to_string())
}

/// `mypkg/` with `__init__.py` at its root, opened there.
fn own_folder_package() -> Project {
    let p = Project::empty();
    p.write("mypkg/__init__.py", "");
    p.write("mypkg/cli.py", "from mypkg.ops import prepare\nimport mypkg.util.text\nfrom mypkg.gone import x\nimport requests\nfrom .missing import y\n");
    p.write("mypkg/ops/__init__.py", "");
    p.write(
        "mypkg/ops/prepare.py",
        "from mypkg.util import text\n\ndef run():\n    return text.t()\n",
    );
    p.write("mypkg/util/__init__.py", "");
    p.write("mypkg/util/text.py", "def t():\n    return 1\n");
    p.write(
        "mypkg/tests/test_prepare.py",
        "from mypkg.ops.prepare import run\n",
    );
    p
}

#[test]
fn a_package_opened_at_its_own_folder_resolves_its_absolute_imports() {
    let p = own_folder_package();
    let root = p.path("mypkg");
    let g = graph_at(&root);
    assert_eq!(
        imports_of(&g, "cli.py"),
        [
            "__init__.py",
            "ops/__init__.py",
            "ops/prepare.py",
            "util/__init__.py",
            "util/text.py"
        ]
    );
    assert_eq!(
        imports_of(&g, "ops/prepare.py"),
        ["__init__.py", "util/__init__.py", "util/text.py"]
    );
    // `requests` is third-party: not an edge and not a problem. The other
    // two name the package but no file of it.
    assert_eq!(
        unresolved(&g),
        [
            u("cli.py", "from mypkg.gone import x"),
            u("cli.py", "from .missing import y")
        ]
    );

    // Its callers and tests are candidates, after its imports.
    let files = walk::walk_files(&root);
    let opts = PackOptions {
        budget: 4000,
        map_budget: 200,
        tokenizer: TokenizerKind::O200k,
        format: Format::Markdown,
        max_messages: 0,
        include_dirs: Vec::new(),
        read: ReadPolicy::default(),
        sections: Sections::default(),
        hold: Vec::new(),
        fill: true,
    };
    let packed = pack::pack(
        &Codebase::new(&root, &Sources::new()).with_walk(&files),
        &Preset::default(),
        &["ops/prepare.py".to_string()],
        &opts,
    );
    let roles: Vec<(&str, Role)> = packed
        .items
        .iter()
        .map(|i| (i.path.as_str(), i.role))
        .collect();
    assert_eq!(
        roles,
        [
            ("ops/prepare.py", Role::Target),
            ("util/text.py", Role::Import),
            ("__init__.py", Role::Import),
            ("util/__init__.py", Role::Import),
            ("cli.py", Role::Caller),
            ("tests/test_prepare.py", Role::Caller),
        ]
    );
    assert_eq!(packed.stats.callers, 2);
    assert_eq!(packed.stats.unresolved_imports, 2);
    assert_eq!(
        packed.stats.unresolved_note().as_deref(),
        Some(
            "2 imports did not resolve to a project file, e.g. `from mypkg.gone import x` in cli.py, `from .missing import y` in cli.py"
        )
    );
}

#[test]
fn map_and_build_report_unresolved_imports() {
    let p = own_folder_package();
    let mut cmd = p.cmd(&["map", "--stats-json"]);
    let out = cmd.current_dir(p.path("mypkg")).output().expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    assert_eq!(json["unresolved_imports"], 2, "{json}");
    assert_eq!(json["unresolved_examples"][0]["file"], "cli.py");
    assert_eq!(
        json["unresolved_examples"][0]["import"],
        "from mypkg.gone import x"
    );

    let mut cmd = p.cmd(&["build", "--target", "cli.py", "--budget", "2000"]);
    let out = cmd.current_dir(p.path("mypkg")).output().expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "note: 2 imports did not resolve to a project file, e.g. `from mypkg.gone import x` in cli.py"
        ),
        "{}",
        stderr(&out)
    );
}

/// poetry's layout: `src/poetry/` has no `__init__.py` (a namespace
/// package it shares with the installed poetry-core, `poetry.core`), and
/// its modules import both. poetry-core's imports are not the project's
/// missing files; a module missing in one of poetry's regular packages is.
#[test]
fn a_namespace_shared_with_an_installed_package_is_not_unresolved() {
    let p = Project::empty();
    p.write(
        "pyproject.toml",
        "[tool.poetry]\npackages = [{ include = \"poetry\", from = \"src\" }]\n",
    );
    p.write(
        "src/poetry/factory.py",
        "from poetry.core.packages.dependency import Dependency\n\
         from poetry.core.constraints.version import parse_constraint\n\
         import poetry.core\n\
         from poetry.console.application import Application\n\
         from poetry.console.gone import Missing\n",
    );
    p.write("src/poetry/poetry.py", "class Poetry:\n    pass\n");
    p.write("src/poetry/console/__init__.py", "");
    p.write(
        "src/poetry/console/application.py",
        "class Application:\n    pass\n",
    );
    p.write(
        "tests/test_factory.py",
        "from poetry.factory import Factory\nfrom poetry.core.semver import Version\n",
    );
    let out = p.run(&["map", "--stats-json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    assert_eq!(json["unresolved_imports"], 1, "{json}");
    assert_eq!(
        json["unresolved_examples"][0]["import"],
        "from poetry.console.gone import Missing"
    );
    let g = graph_at(p.root());
    assert_eq!(
        imports_of(&g, "src/poetry/factory.py"),
        [
            "src/poetry/console/__init__.py",
            "src/poetry/console/application.py"
        ]
    );
    assert_eq!(
        imports_of(&g, "tests/test_factory.py"),
        ["src/poetry/factory.py"]
    );
}

#[test]
fn c_includes_resolve_through_folders_found_in_the_tree() {
    let p = Project::empty();
    p.write(
        "src/main.c",
        "#include <stdio.h>\n#include <proj/api.h>\n#include \"util.h\"\n#include \"config.h\"\n#include PLATFORM_HEADER\n#include <vector>\n",
    );
    p.write("src/util.h", "int util(void);\n");
    p.write("lib/include/proj/api.h", "#include \"detail/impl.h\"\n");
    p.write("lib/include/proj/detail/impl.h", "int impl(void);\n");
    p.write("extra/flags.h", "int flags;\n");
    p.write("tools/t.c", "#include <flags.h>\n#include <proj/gone.h>\n");
    let g = graph_at(p.root());
    assert_eq!(
        imports_of(&g, "src/main.c"),
        ["lib/include/proj/api.h", "src/util.h"]
    );
    assert_eq!(
        imports_of(&g, "lib/include/proj/api.h"),
        ["lib/include/proj/detail/impl.h"]
    );
    // `<flags.h>` is not in a known include folder yet: a system header.
    assert!(imports_of(&g, "tools/t.c").is_empty());
    assert_eq!(
        unresolved(&g),
        [
            u("src/main.c", "#include \"config.h\""),
            u("src/main.c", "#include PLATFORM_HEADER"),
            u("tools/t.c", "#include <proj/gone.h>"),
        ]
    );

    // compile_commands.json names `extra` as an include folder.
    let cc = format!(
        r#"[{{"directory": "{}", "arguments": ["cc", "-Iextra", "-c", "tools/t.c"]}}]"#,
        p.root().display()
    );
    p.write("compile_commands.json", &cc);
    let g = graph_at(p.root());
    assert_eq!(imports_of(&g, "tools/t.c"), ["extra/flags.h"]);
}

/// The package copied under another folder name (`mypkg-copy/`): its own
/// absolute imports name it `mypkg`, so they resolve as they do at
/// `mypkg/`, and the renamed pip's prepare.py finds its imports too.
#[test]
fn a_package_in_a_renamed_folder_is_named_by_its_own_imports() {
    let p = own_folder_package();
    std::fs::rename(p.path("mypkg"), p.path("mypkg-copy")).expect("rename");
    let g = graph_at(&p.path("mypkg-copy"));
    assert_eq!(
        imports_of(&g, "ops/prepare.py"),
        ["__init__.py", "util/__init__.py", "util/text.py"]
    );
    assert_eq!(
        unresolved(&g),
        [
            u("cli.py", "from mypkg.gone import x"),
            u("cli.py", "from .missing import y")
        ]
    );
    // Fewer than three imports agreeing on a name: no guess.
    let q = Project::empty();
    q.write("__init__.py", "");
    q.write("util.py", "");
    q.write("a.py", "import other.util\nimport other.util\n");
    let g = graph_at(q.root());
    assert!(imports_of(&g, "a.py").is_empty());

    let Some(dir) = machine::pip() else {
        return;
    };
    let copy = p.path("pip-renamed");
    let status = Command::new("cp")
        .arg("-r")
        .arg(&dir)
        .arg(&copy)
        .status()
        .expect("cp");
    assert!(status.success());
    let g = graph_at(&copy);
    let imports = imports_of(&g, "_internal/operations/prepare.py");
    assert!(
        imports.iter().any(|i| i == "_internal/req/req_install.py"),
        "{imports:?}"
    );
}

/// pip opened at its own folder (`src/pip` of a clone): marking
/// `_internal/operations/prepare.py` finds what it imports and what imports
/// it. `CTXCURATE_SLOW_TESTS=1 cargo test --test integration
/// pip_opened_at_its_package_folder -- --nocapture` prints the numbers.
#[test]
fn pip_opened_at_its_package_folder() {
    let Some(dir) = machine::pip() else {
        return;
    };
    let files = walk::walk_files(&dir);
    let cache = Sources::new();
    let g = ImportGraph::build(&Codebase::new(&dir, &cache).with_walk(&files), &[]);
    let prepare = "_internal/operations/prepare.py";
    let imports = imports_of(&g, prepare);
    for expected in [
        "_internal/exceptions.py",
        "_internal/utils/misc.py",
        "_internal/__init__.py",
        "_internal/req/req_install.py",
        "__init__.py",
    ] {
        assert!(
            imports.iter().any(|i| i == expected),
            "{prepare} should import {expected}: {imports:?}"
        );
    }
    let reach = g.reach(&[prepare.to_string()]);
    assert!(
        reach.callers.iter().any(|c| c.starts_with("_internal/")),
        "callers: {:?}",
        reach.callers
    );
    let edges = g.edges().len();
    let opts = PackOptions {
        budget: 32_000,
        map_budget: 2048,
        tokenizer: TokenizerKind::O200k,
        format: Format::Markdown,
        max_messages: 0,
        include_dirs: Vec::new(),
        read: ReadPolicy::default(),
        sections: Sections::default(),
        hold: Vec::new(),
        fill: true,
    };
    let packed = pack::pack(
        &Codebase::new(&dir, &cache).with_walk(&files),
        &Preset::default(),
        &[prepare.to_string()],
        &opts,
    );
    let s = &packed.stats;
    eprintln!(
        "pip at {}: {} code files, {edges} edges, {} unresolved imports; \
         prepare.py: {} imports direct, {} discovered, {} callers; packed {} files \
         ({} full, {} reduced), map {} tokens: {} / {} tokens",
        dir.display(),
        g.len(),
        g.unresolved().len(),
        imports.len(),
        s.discovered,
        s.callers,
        s.included,
        s.full,
        s.reduced,
        s.map_tokens,
        s.tokens,
        s.budget
    );
    for u in g.unresolved().iter().take(10) {
        eprintln!("  unresolved: {} in {}", u.import, u.file);
    }
    assert!(s.included > 10, "{s:?}");
    assert!(s.tokens <= s.budget);
    // Every import of pip's own code resolves but for a handful (files the
    // walk leaves out): a bad layout shows as hundreds.
    assert!(
        g.unresolved().len() * 20 < edges,
        "{} unresolved of {edges} edges",
        g.unresolved().len()
    );
}

/// Lua 5.4's sources (`.ci/run` unpacks them into `target/corpora/lua54`;
/// `CTXCURATE_LUA_DIR` names another copy): every include resolves but the
/// two that cannot — a macro include and a file Lua does not ship.
#[test]
fn lua_sources_resolve_their_includes() {
    let Some(dir) = machine::lua_sources() else {
        return;
    };
    let g = graph_at(&dir);
    let lvm = imports_of(&g, "lvm.c");
    for h in ["lua.h", "ldo.h", "lvm.h", "lobject.h", "lstate.h"] {
        assert!(
            lvm.iter().any(|i| i == h),
            "lvm.c should include {h}: {lvm:?}"
        );
    }
    let c_files = walk::walk_files(&dir)
        .into_iter()
        .filter(|f| f.ends_with(".c"))
        .count();
    let with_edges = g
        .edges()
        .iter()
        .map(|(from, _, _)| *from)
        .filter(|f| f.ends_with(".c"))
        .collect::<std::collections::HashSet<_>>()
        .len();
    eprintln!(
        "lua at {}: {} files, {} edges, {with_edges} of {c_files} .c files include a project header, unresolved: {:?}",
        dir.display(),
        g.len(),
        g.edges().len(),
        unresolved(&g)
    );
    assert_eq!(with_edges, c_files);
    for (file, import) in unresolved(&g) {
        assert!(
            (file == "lua.h" && import == "#include LUA_USER_H")
                || (file == "onelua.c" && import == "#include \"luac.c\""),
            "{file}: {import}"
        );
    }
}
