//! The layering docs/ARCHITECTURE.md ("Invariants") asks for, checked on the source: the core knows
//! nothing of terminals or of the TUI.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable source dir")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_core_imports_no_terminal_crate_and_no_tui() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    assert!(files.len() > 10, "found the core's files");
    // The shared text rules (`src/text`) are used by the core: same bar.
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/text");
    let before = files.len();
    rust_files(&text, &mut files);
    assert!(files.len() > before, "found the text module's files");
    let forbidden = [
        "ratatui",
        "crossterm",
        "arboard",
        "tui_tree_widget",
        "crate::tui",
    ];
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for name in forbidden {
                if code.contains(&format!("{name}::")) || code.contains(&format!("use {name}")) {
                    offences.push(format!("{}:{}: {line}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "terminal code in the core:\n{}",
        offences.join("\n")
    );
}

/// Every line the CLI prints goes through `ctx.out` / `ctx.err`, which
/// `main` wraps in the terminal-safe writer (`text::terminal`): a direct
/// `println!` or a fresh `stdout()` would bypass the escaping.
#[test]
fn the_cli_prints_only_through_the_terminal_safe_writer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("cli"), &mut files);
    assert!(files.len() > 3, "found the CLI's files");
    files.push(src.join("main.rs"));
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let is_main = file.ends_with("main.rs");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let direct = ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("]
                .iter()
                .any(|m| code.contains(m));
            // `main` opens the two streams once, to wrap them.
            let raw_stream = !is_main && (code.contains("stdout()") || code.contains("stderr()"));
            if direct || raw_stream {
                offences.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "CLI output that bypasses the terminal-safe writer:\n{}",
        offences.join("\n")
    );
}

/// The TUI's module graph: module → the TUI modules it names, read from
/// `use crate::tui::…` and `super::…` paths (grouped `use super::{a, b}`
/// included) in every file of `src/tui`. A file under `src/tui/<m>/` is
/// part of module `m`; `src/tui/mod.rs` (which declares them all) is not a
/// node.
fn tui_graph() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut files = Vec::new();
    rust_files(&tui, &mut files);
    let module_of = |file: &Path| -> Option<(String, usize)> {
        let rel = file.strip_prefix(&tui).ok()?;
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        match parts.as_slice() {
            [m] if m == "mod" => None,
            [m] => Some((m.clone(), 1)),
            [m, sub] if sub == "mod" => Some((m.clone(), 1)),
            [m, ..] => Some((m.clone(), parts.len())),
            [] => None,
        }
    };
    let mut modules = std::collections::BTreeSet::new();
    for file in &files {
        if let Some((m, _)) = module_of(file) {
            modules.insert(m);
        }
    }
    let mut graph = std::collections::BTreeMap::new();
    for file in &files {
        let Some((module, depth)) = module_of(file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        // `super::` of a top-level file (or a folder's mod.rs) is `tui`;
        // deeper files reach `tui` as `super::super::`.
        let up = "super::".repeat(depth);
        let mut named = std::collections::BTreeSet::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for prefix in ["crate::tui::", up.as_str()] {
                let mut rest = code;
                while let Some(at) = rest.find(prefix) {
                    // `super::super::x` must not also count as `super::x`.
                    let before = &rest[..at];
                    rest = &rest[at + prefix.len()..];
                    if prefix == up && before.ends_with("super::") {
                        continue;
                    }
                    for head in path_heads(rest) {
                        named.insert(head);
                    }
                }
            }
        }
        let deps: std::collections::BTreeSet<String> = named
            .into_iter()
            .filter(|n| modules.contains(n) && *n != module)
            .collect();
        graph
            .entry(module)
            .or_insert_with(std::collections::BTreeSet::new)
            .extend(deps);
    }
    graph
}

/// The first segments named by the path that starts `rest`: `a::B` → `a`,
/// `{a, b::{C, D}, c}` → `a`, `b`, `c`.
fn path_heads(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest)];
    };
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && !c.is_whitespace() => {
                heads.push(ident(&group[i..]));
                start = false;
            }
            _ => {}
        }
    }
    heads
}

/// A cycle in `graph`, as the modules along it, if there is one.
fn find_cycle(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, graph, &mut Vec::new(), &mut done) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn the_module_graph_reader_sees_what_it_must() {
    assert_eq!(path_heads("state::State;"), ["state"]);
    assert_eq!(
        path_heads("{action::Action, curate::{self, Batch}, messages};"),
        ["action", "curate", "messages"]
    );
    let mut g = std::collections::BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.to_string())
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(b.to_string());
    }
    assert_eq!(find_cycle(&g).map(|c| c.len()), Some(4));
    g.get_mut("c").unwrap().remove("a");
    assert_eq!(find_cycle(&g), None);
    // The real graph has the edges it is known to have.
    let graph = tui_graph();
    assert!(graph["update"].contains("curate"), "{graph:?}");
    assert!(graph["render"].contains("state"), "{graph:?}");
    assert!(graph["app"].contains("effects"), "{graph:?}");
}

/// The TUI is layered (docs/ARCHITECTURE.md, "src/tui"): plain data at the
/// bottom, the state over it, handlers over the state, `update` over the
/// handlers, the event loop on top. No module may import one that
/// (indirectly) imports it back.
#[test]
fn the_tui_modules_import_each_other_without_cycles() {
    let graph = tui_graph();
    assert!(graph.len() > 15, "found the TUI's modules: {graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle among the TUI's modules: {}",
            cycle.join(" → ")
        );
    }
}

/// Rendering is a function of the state: it imports the state and plain
/// data, never a module that changes the state or runs effects.
#[test]
fn render_imports_no_handler() {
    let graph = tui_graph();
    let handlers = [
        "app",
        "changed",
        "commit",
        "curate",
        "discover",
        "dispatch",
        "effects",
        "harness",
        "jobs",
        "navigate",
        "overlays",
        "update",
        "finder_overlay",
    ];
    let bad: Vec<&String> = graph["render"]
        .iter()
        .filter(|m| handlers.contains(&m.as_str()))
        .collect();
    assert!(bad.is_empty(), "render imports handlers: {bad:?}");
    // And nothing below the handlers imports one (the leaf data modules
    // and the state).
    for low in [
        "model", "state", "messages", "tree", "symbols", "action", "keymap",
    ] {
        let bad: Vec<&String> = graph
            .get(low)
            .into_iter()
            .flatten()
            .filter(|m| handlers.contains(&m.as_str()) || *m == "render")
            .collect();
        assert!(bad.is_empty(), "{low} imports {bad:?}");
    }
}
