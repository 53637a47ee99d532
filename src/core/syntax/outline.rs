//! Outline: one line per symbol, indented two spaces per nesting level —
//! `{kind} {name}: {signature} (L{start}-{end})`. A duplicate path's `#n`
//! is shown after the name so the line names the symbol a mask would.

use std::fmt::Write;

use super::{Symbol, SymbolTree};

/// See [`super::outline`].
pub(super) fn render(tree: &SymbolTree) -> String {
    let mut out = String::new();
    for symbol in &tree.symbols {
        write_symbol(&mut out, symbol, 0);
    }
    out
}

fn write_symbol(out: &mut String, symbol: &Symbol, depth: usize) {
    let _ = writeln!(
        out,
        "{}{} {}: {} (L{}-{})",
        "  ".repeat(depth),
        symbol.kind.as_str(),
        label(symbol),
        symbol.signature,
        symbol.start_line,
        symbol.end_line
    );
    for child in &symbol.children {
        write_symbol(out, child, depth + 1);
    }
}

/// The name, plus the `#n` of a duplicate path.
fn label(symbol: &Symbol) -> String {
    match symbol.path.rsplit_once('#') {
        Some((_, n)) if n.chars().all(|c| c.is_ascii_digit()) => {
            format!("{}#{n}", symbol.name)
        }
        _ => symbol.name.clone(),
    }
}
