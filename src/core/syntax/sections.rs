//! Markdown sections: a heading and the text under it, up to the next
//! heading of the same or a higher level, with its subsections nested.
//! Per-language code because no query can say it: tree-sitter-md's own
//! `section` nodes follow ATX headings only (a setext heading,
//! `Title\n=====`, is known only after its paragraph, so it opens none),
//! so the extent of each heading is computed here from the levels of all
//! of them ([`extend`]); a heading's "body" is the text between it and
//! the next heading, which no node holds; and a setext heading's signature
//! is written as the ATX one it means (`# Title`), so it fits on one line.

use std::ops::Range;

use tree_sitter::Node;

use super::spans::{Analysis, Found, Spans};
use super::text::{fold, slice};

/// Keep the headings that open sections (not those quoted in a block
/// quote or inside a list item) and give each its extent: up to the start
/// of the next heading of the same or a higher level (a lower or equal
/// number), else the end of the text. `found` holds the headings in any
/// order.
pub(super) fn extend(found: &mut Vec<(usize, Found)>, text_end: usize) {
    found.retain(|(_, f)| !quoted_or_listed(f.core));
    found.sort_by_key(|(_, f)| f.core.start_byte());
    let mut open: Vec<(usize, usize)> = Vec::new();
    for i in 0..found.len() {
        let start = found[i].1.core.start_byte();
        let level = level(found[i].1.core);
        while let Some(&(top, top_level)) = open.last() {
            if top_level < level {
                break;
            }
            found[top].1.end = start;
            open.pop();
        }
        open.push((i, level));
    }
    for (i, _) in open {
        found[i].1.end = text_end;
    }
}

/// Whether a heading sits in a block quote or a list item.
fn quoted_or_listed(heading: Node) -> bool {
    let mut current = heading.parent();
    while let Some(node) = current {
        if matches!(node.kind(), "block_quote" | "list_item") {
            return true;
        }
        current = node.parent();
    }
    false
}

/// Whether a node is a heading.
fn is_heading(node: Node) -> bool {
    matches!(node.kind(), "atx_heading" | "setext_heading")
}

/// The start of the first heading after `heading` in the text (headings
/// live in sections, which tree-sitter-md nests by ATX level).
fn next_heading(heading: Node) -> Option<usize> {
    let mut node = heading;
    loop {
        let mut sibling = node.next_named_sibling();
        while let Some(s) = sibling {
            if is_heading(s) {
                return Some(s.start_byte());
            }
            if s.kind() == "section" {
                let mut inner = s;
                // A section starts with its heading, or with a section.
                while let Some(first) = inner.named_child(0) {
                    if is_heading(first) {
                        return Some(first.start_byte());
                    }
                    if first.kind() != "section" {
                        break;
                    }
                    inner = first;
                }
            }
            sibling = s.next_named_sibling();
        }
        node = node.parent()?;
    }
}

/// The section's level: 1 for `#` and `===`, 2 for `##` and `---`, ...
fn level(heading: Node) -> usize {
    let marker = super::spans::named_children(heading)
        .into_iter()
        .find_map(|n| {
            let kind = n.kind();
            kind.strip_prefix("atx_h")
                .and_then(|k| k.strip_suffix("_marker"))
                .or_else(|| {
                    kind.strip_prefix("setext_h")
                        .and_then(|k| k.strip_suffix("_underline"))
                })
                .and_then(|n| n.parse().ok())
        });
    marker.unwrap_or(1)
}

/// The heading's text, one line, without its markers (`## Install ##` and
/// `Install\n---` are both `Install`) or its HTML comments (`## Usage
/// <!-- omit in toc -->`, the `agg` fold's line count).
pub(super) fn name(found: &Found, source: &str) -> String {
    let text = fold(&without_comments(slice(source, found.name.byte_range())));
    let text = text.trim();
    // A closing sequence of `#`s after a space is not part of the text.
    let open = text.trim_end_matches('#');
    let text = if open.len() < text.len() && (open.is_empty() || open.ends_with(' ')) {
        open.trim_end()
    } else {
        text
    };
    text.to_string()
}

/// `text` without its complete `<!-- … -->` comments, except in code
/// spans (`` `<!-- x -->` `` is text); `text` itself when nothing else
/// would be left.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['`', '<']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('`') {
            // A code span runs to the next run of as many backticks.
            let run = rest.len() - rest.trim_start_matches('`').len();
            let after = &rest[run..];
            let close = after
                .match_indices(&rest[..run])
                .find(|(i, _)| !after[i + run..].starts_with('`') && !after[..*i].ends_with('`'));
            let end = close.map_or(run, |(i, _)| run + i + run);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if let Some(body) = rest.strip_prefix("<!--")
            && let Some(close) = body.find("-->")
        {
            out.push(' ');
            rest = &body[close + 3..];
        } else {
            out.push('<');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    if out.trim().is_empty() {
        text.to_string()
    } else {
        out
    }
}

/// Analyse one section (its heading is `found.core`).
pub(super) fn analyze(found: &Found, source: &str) -> Analysis {
    let heading = found.core;
    let start = heading.start_byte();
    let text = slice(source, start..found.end.max(start));
    let end = start + text.trim_end().len();
    let range = start..end;
    let head_end = line_end(source, heading.end_byte()).min(end);
    let signature = format!("{} {}", "#".repeat(level(heading)), name(found, source));
    let own_end = next_heading(heading).map_or(end, |n| n.clamp(head_end, end));
    let spans = Spans {
        lead: start,
        body: (head_end < end).then_some(head_end..end),
        inner: Some(head_end..end),
        elide: own_text(source, head_end..own_end),
        doc: None,
    };
    Analysis {
        range,
        signature,
        spans,
    }
}

/// Just after the line break that ends the line holding `at - 1` (the
/// heading's last byte), or the end of the text.
fn line_end(source: &str, at: usize) -> usize {
    if at > 0 && source.as_bytes().get(at - 1) == Some(&b'\n') {
        return at;
    }
    match source.get(at..).and_then(|rest| rest.find('\n')) {
        Some(i) => at + i + 1,
        None => source.len(),
    }
}

/// The section's own text under its heading, up to its first subsection:
/// from the line break that ends the heading to the end of the last line
/// that is not blank (the blank lines after it stay, so the headings keep
/// the blank line between them); `None` if there is none.
fn own_text(source: &str, own: Range<usize>) -> Option<Range<usize>> {
    let kept = slice(source, own.clone()).trim_end().len();
    if kept == 0 {
        return None;
    }
    // At the very end of a text without a final line break (blanks may
    // follow the last text) the heading keeps its own, and the blanks go
    // with the text: tree-sitter-md reads a heading without one as an
    // error.
    let after = own.start + kept;
    if !source.get(after..).is_some_and(|rest| rest.contains('\n')) {
        return Some(own.start..source.len());
    }
    let from = match own.start.checked_sub(1) {
        Some(newline) if source.as_bytes().get(newline) == Some(&b'\n') => newline,
        _ => own.start,
    };
    Some(from..after)
}
