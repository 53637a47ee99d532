//! Skeleton: the file with every function/method body replaced by the
//! language's placeholder: `...` (Python, after the docstring), `{ ... }`
//! (the brace languages), a comment before the `end` (Ruby, Lua); a
//! Markdown file keeps its headings. Everything outside
//! function bodies — imports, globals, class bodies, comments — is kept
//! byte for byte, except Python data tables, which become one-line
//! stand-ins (`literals`), and the licence banner a file opens with, which
//! is left out (`licence`); a Python skeleton still parses as Python.

use std::borrow::Cow;
use std::ops::Range;

use super::text::slice;
use super::{Lang, Symbol, SymbolTree};

/// What an elided body becomes.
pub(super) fn placeholder(lang: Lang) -> &'static str {
    lang.row().placeholder
}

/// See [`super::skeleton`].
pub(super) fn render(tree: &SymbolTree, source: &str) -> String {
    let mut bodies = Vec::new();
    collect_cuts(&tree.symbols, &mut bodies);
    let with = placeholder(tree.lang);
    let mut cuts: Vec<(Range<usize>, Cow<str>)> = bodies
        .into_iter()
        .map(|body| (body, Cow::Borrowed(with)))
        .collect();
    // The licence banner says nothing of the code (see `licence`).
    cuts.extend(tree.licence.iter().map(|l| (l.clone(), Cow::Borrowed(""))));
    cuts.extend(
        tree.large_literals
            .iter()
            .map(|l| (l.range.clone(), l.replacement())),
    );
    cuts.sort_by_key(|(range, _)| range.start);
    replace(source, 0..source.len(), &cuts)
}

/// The symbol's text (leading comment included) with its body elided, as
/// the `sig` mask state shows a function.
pub(super) fn elided(symbol: &Symbol, lang: Lang, source: &str) -> String {
    let whole = symbol.spans.lead..symbol.range.end;
    let cuts: Vec<(Range<usize>, Cow<str>)> = symbol
        .spans
        .elide
        .iter()
        .map(|body| (body.clone(), Cow::Borrowed(placeholder(lang))))
        .collect();
    replace(source, whole, &cuts)
}

/// The elided body of each outermost function (nested functions vanish
/// with their parent's body), in source order. A symbol that is no
/// function elides only its own text before its children (a Markdown
/// section's, above its subsections), which keep theirs.
fn collect_cuts(symbols: &[Symbol], out: &mut Vec<Range<usize>>) {
    for symbol in symbols {
        match &symbol.spans.elide {
            Some(body) if symbol.kind.is_function() => out.push(body.clone()),
            Some(own) => {
                out.push(own.clone());
                collect_cuts(&symbol.children, out);
            }
            None => collect_cuts(&symbol.children, out),
        }
    }
}

/// `source[region]` with each cut (sorted by start) replaced by its text.
/// Cuts outside the region or overlapping an earlier cut are ignored.
fn replace(source: &str, region: Range<usize>, cuts: &[(Range<usize>, Cow<str>)]) -> String {
    let mut out = String::with_capacity(region.len());
    let mut cursor = region.start;
    for (cut, with) in cuts {
        if cut.start < cursor || cut.end > region.end || cut.start > cut.end {
            continue;
        }
        out.push_str(slice(source, cursor..cut.start));
        out.push_str(with);
        cursor = cut.end;
    }
    out.push_str(slice(source, cursor..region.end));
    out
}
