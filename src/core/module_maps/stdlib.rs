//! The standard libraries' module names, per language, for the resolvers:
//! an import that names one means the standard library, not a project
//! file that happens to share the name. Python's table is
//! `sys.stdlib_module_names`, embedded from `stdlib/python.txt`
//! (regenerate with `scripts/gen_python_stdlib.py`); Node's builtins and
//! Rust's standard crates are short enough to list here. Go (`fmt`,
//! `net/http`: paths outside every module of the project) and Java
//! (`java.*`: a class file the project must hold at that package path)
//! need no table: their resolvers only look inside the project's own
//! module paths and package folders.

use std::collections::HashSet;
use std::sync::LazyLock;

static PYTHON: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("stdlib/python.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

/// Whether `name` (a top-level module, no dots) is in Python's standard
/// library.
pub fn is_python(name: &str) -> bool {
    PYTHON.contains(name)
}

/// Node's builtin modules (`node:fs` is always one; `fs`, `fs/promises`
/// are unless a package of that name is installed, which ctxcurate does
/// not look at).
const NODE: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

/// Whether a JavaScript/TypeScript specifier names a Node builtin:
/// `node:anything`, or a builtin's name with an optional subpath
/// (`fs/promises`, `path/posix`).
pub fn is_node(spec: &str) -> bool {
    if spec.starts_with("node:") {
        return true;
    }
    let head = spec.split('/').next().unwrap_or(spec);
    NODE.contains(&head)
}

/// Whether a Rust path's first segment is a crate of the standard
/// distribution (`std::fmt`, `core::mem`, `alloc::vec`).
pub fn is_rust(first_segment: &str) -> bool {
    matches!(
        first_segment,
        "std" | "core" | "alloc" | "proc_macro" | "test"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_table_holds_the_standard_library_only() {
        for name in [
            "abc",
            "os",
            "sys",
            "typing",
            "collections",
            "__future__",
            "asyncio",
        ] {
            assert!(is_python(name), "{name}");
        }
        for name in ["rich", "numpy", "abc.x", "", "# versions: 3.11"] {
            assert!(!is_python(name), "{name}");
        }
    }

    #[test]
    fn node_builtins_with_and_without_the_scheme() {
        assert!(is_node("fs") && is_node("node:fs") && is_node("fs/promises"));
        assert!(
            is_node("node:test"),
            "node: names a builtin whatever follows"
        );
        assert!(!is_node("react") && !is_node("./fs") && !is_node("fsevents"));
        assert!(is_rust("std") && is_rust("core") && !is_rust("crate") && !is_rust("serde"));
    }
}
