//! Benchmark: C files whose one line holds a large initializer (a data
//! table), parsed and rendered as skeleton, outline and summary at 0.8,
//! 2 and 4 MB (issue 15: the time grew faster than the size). Three table
//! shapes: numbers, nested structs with strings, and entries tree-sitter
//! cannot read (`X(1) Y 1 ...`, macros without commas), where its error
//! recovery is the cost. Linear time shows as a constant ms/MB column.
//!
//! Run: `cargo bench --bench syntax_long_line`.

use std::time::Instant;

use ctxcurate::core::summary::heuristic;
use ctxcurate::core::syntax::{self, Lang};

/// Makes the `i`-th entry of a table.
type Entry = fn(usize) -> String;

/// One line `static const struct e table[] = { ... };` of about `bytes`
/// bytes, entries made by `entry`, then a function after it.
fn table(bytes: usize, entry: Entry) -> String {
    let mut text = String::from("/* generated table */\nstatic const struct e table[] = {");
    let mut i = 0;
    while text.len() < bytes {
        text.push_str(&entry(i));
        i += 1;
    }
    text.push_str("};\n\nint lookup(int key) { return table[key].v; }\n");
    text
}

fn main() {
    // SAFETY: first thing, before any parse: as the binary does.
    unsafe { ctxcurate::core::syntax::allocator::install() };
    let shapes: [(&str, Entry); 3] = [
        ("numbers", |i| format!("{}, ", i % 1000)),
        ("structs", |i| format!("{{ \"key{i}\", {i}, NULL }}, ")),
        ("unparsable", |i| format!("X({i}) Y {i} ")),
    ];
    println!(
        "{:<11} {:>6} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "shape", "MB", "parse", "skeleton", "outline", "summary", "ms/MB"
    );
    for (name, entry) in shapes {
        for mb in [0.8, 2.0, 4.0] {
            let text = table((mb * 1_000_000.0) as usize, entry);
            let start = Instant::now();
            let tree = syntax::parse(Lang::C, &text);
            let parse = start.elapsed().as_secs_f64();
            let skeleton = syntax::skeleton(&tree, &text);
            let after_skeleton = start.elapsed().as_secs_f64();
            let outline = syntax::outline(&tree);
            let after_outline = start.elapsed().as_secs_f64();
            let summary = heuristic::summarize("table.c", &text);
            let total = start.elapsed().as_secs_f64();
            assert!(skeleton.contains("lookup") && outline.contains("lookup"));
            assert!(summary.contains("lookup"));
            println!(
                "{:<11} {:>6.1} {:>8.3}s {:>8.3}s {:>8.3}s {:>8.3}s {:>8.0}",
                name,
                text.len() as f64 / 1e6,
                parse,
                after_skeleton - parse,
                after_outline - after_skeleton,
                total - after_outline,
                total * 1000.0 / (text.len() as f64 / 1e6),
            );
        }
    }
    nested_statements();
}

/// Unterminated nested statements on one line (`for (;;) ` 20,000 and
/// 40,000 times): one error node with that many children, walked by
/// index it was quadratic (18 s and 73 s, sweep round 10). Linear time
/// shows as a constant ms/MB column.
fn nested_statements() {
    println!(
        "\n{:<16} {:>6} {:>9} {:>8}",
        "nested", "MB", "outline", "ms/MB"
    );
    for (name, unit) in [
        ("for (;;)", "for (;;) "),
        ("if (a)", "if (a) "),
        ("x = (a) ?", "x = (a) ? "),
    ] {
        for n in [20_000, 40_000] {
            let text = format!("void f() {{ {}\n", unit.repeat(n));
            let start = Instant::now();
            let tree = syntax::parse(Lang::C, &text);
            let outline = syntax::outline(&tree);
            let skeleton = syntax::skeleton(&tree, &text);
            let took = start.elapsed().as_secs_f64();
            assert!(outline.len() + skeleton.len() > 0);
            println!(
                "{:<16} {:>6.2} {:>8.3}s {:>8.0}",
                name,
                text.len() as f64 / 1e6,
                took,
                took * 1000.0 / (text.len() as f64 / 1e6)
            );
        }
    }
}
