//! Outline: one line per symbol, indented two spaces per nesting level —
//! `{kind} {name}: {signature} (L{start}-{end})`, the signature left out
//! when it is only a keyword and the name (`class Point`). A duplicate path's `#n`
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
    let label = label(symbol);
    // `class Point: class Point` says nothing twice: a signature that is
    // only a keyword and the name (after modifiers such as `pub` or
    // `export`: `pub struct Point`) is left out.
    let kind = symbol.kind.as_str();
    let said = symbol
        .signature
        .strip_suffix(symbol.name.as_str())
        .is_some_and(|head| {
            let head = head.trim_end();
            head.split(' ').count() == 1 || head.ends_with(&format!(" {kind}"))
        });
    let signature = match symbol.signature.split_once(' ') {
        Some((_, name)) if name == symbol.name => String::new(),
        _ if said && !symbol.signature.contains('(') => String::new(),
        _ => format!(": {}", symbol.signature),
    };
    let _ = writeln!(
        out,
        "{}{} {label}{signature} (L{}-{})",
        "  ".repeat(depth),
        symbol.kind.as_str(),
        symbol.start_line,
        symbol.end_line
    );
    for child in &symbol.children {
        write_symbol(out, child, depth + 1);
    }
}

/// The name, plus the `#n` of a duplicate path and the `#def` of a
/// definition paired with its declaration.
fn label(symbol: &Symbol) -> String {
    format!("{}{}", symbol.name, super::split_numbering(&symbol.path).1)
}
