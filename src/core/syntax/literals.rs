//! Large literals: the data tables of a Python file (a 100 KB dict of
//! emoji, a language model as a tuple of ints, a long string), found while
//! the syntax tree is alive so the views can show each as a one-line
//! stand-in that says what it was:
//!
//! ```text
//! _EMOJI = {...}  # dict, 3,608 entries
//! ```
//!
//! A table is a dict, list, tuple, set, string or bytes literal whose
//! source text is over [`LARGE_LITERAL_BYTES`]: the value of an
//! assignment, a bare statement, or a literal inside the expression
//! assigned, whatever builds the value from it (`frozenset({...})`,
//! `array("I", (...))`, `tuple(sorted({...}))`, `"...".split()`). Only statements outside
//! function bodies count (module level, class bodies and the
//! `if`/`try`/`with` blocks around them): a function body is elided whole
//! by the skeleton anyway. The stand-ins are Python (`{...}` is a set
//! holding `Ellipsis`, `[...]` a list, `"..."` a string), so a skeleton
//! that uses them still parses; the note is a trailing comment, left out
//! when code follows on the line (`X = [...]; y = 1`). Docstrings are kept
//! whole, whatever their size: they are documentation, not data. Counts
//! are of the source: entries of a container, characters of a string.
//!
//! The skeleton replaces every large literal, `masked` does it where the
//! state is `sig` or `agg` (never under `def`), and the outline shows the
//! stand-in in a constant's signature.

use std::borrow::Cow;
use std::ops::Range;

use tree_sitter::Node;

use super::text::{fold, slice, truncate};
use super::{Lang, Symbol, SymbolKind};
use crate::text::words::thousands;

/// A literal whose source text is longer than this many bytes is a data
/// table. 1 KiB is about 250–400 tokens: a stand-in (~12 tokens) then
/// saves most of it, while the small literals that are part of an API
/// (`__all__` of a module, a `Literal[...]`-style tuple of modes, a
/// dozen-entry mapping) stay in full.
pub(super) const LARGE_LITERAL_BYTES: usize = 1024;

/// One large literal and what replaces it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LargeLiteral {
    /// The bytes replaced: from the literal's start to the end of its
    /// statement when the note can follow there, else the literal alone.
    pub range: Range<usize>,
    /// The stand-in (`{...}`) plus whatever followed the literal inside
    /// its statement (the `)` of `frozenset({...})`).
    pub stand_in: String,
    /// What it was (`dict, 3,608 entries`).
    pub note: String,
    /// The note is written as a trailing comment (nothing but a comment
    /// follows the statement on its line).
    pub note_in_code: bool,
}

impl LargeLiteral {
    /// The text that replaces `range` in code.
    pub(super) fn replacement(&self) -> Cow<'_, str> {
        if self.note_in_code {
            Cow::Owned(format!("{}  # {}", self.stand_in, self.note))
        } else {
            Cow::Borrowed(&self.stand_in)
        }
    }
}

/// The large literals of a Python file outside function bodies, in source
/// order. Other languages have none.
pub(super) fn find(lang: Lang, root: Node, source: &str) -> Vec<LargeLiteral> {
    if lang != Lang::Python {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "expression_statement" {
            found.extend(large_literal(node, source));
            continue;
        }
        if !holds_statements(node) {
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    found.sort_by_key(|l| l.range.start);
    found
}

/// Nodes whose children may be statements outside a function body.
/// Functions (and lambdas, decorators, every expression) are not entered;
/// neither are `ERROR` nodes, whose structure is a guess.
fn holds_statements(node: Node) -> bool {
    let kind = node.kind();
    matches!(
        kind,
        "module" | "block" | "class_definition" | "decorated_definition"
    ) || (kind != "function_definition"
        && !node.is_error()
        && (kind.ends_with("_statement") || kind.ends_with("_clause")))
}

/// The large literals a statement assigns (or is) as one replacement, if
/// it has any.
fn large_literal(statement: Node, source: &str) -> Option<LargeLiteral> {
    let expr = unparenthesized(statement.named_child(0)?);
    let value = match expr.kind() {
        "assignment" | "augmented_assignment" => assigned_value(expr)?,
        "string" | "concatenated_string" if is_docstring(statement) => return None,
        _ => expr,
    };
    let large: Vec<(Node, Shape)> = tables(value)
        .into_iter()
        .filter(|(node, _)| node.byte_range().len() > LARGE_LITERAL_BYTES)
        .collect();
    let (first, _) = large.first()?;
    let (last, _) = large.last()?;
    let rest_of_line = slice(source, statement.end_byte()..source.len());
    let rest_of_line = rest_of_line.split('\n').next().unwrap_or("").trim();
    let note_in_code = rest_of_line.is_empty() || rest_of_line.starts_with('#');
    let end = if note_in_code {
        statement.end_byte()
    } else {
        last.end_byte()
    };
    let mut stand_in = String::new();
    let mut notes = Vec::new();
    let mut cursor = first.start_byte();
    for (node, shape) in &large {
        stand_in.push_str(slice(source, cursor..node.start_byte()));
        stand_in.push_str(&shape.stand_in(*node, source));
        notes.push(shape.note(*node, source));
        cursor = node.end_byte();
    }
    stand_in.push_str(slice(source, cursor..end));
    Some(LargeLiteral {
        range: first.start_byte()..end,
        stand_in,
        note: notes.join("; "),
        note_in_code,
    })
}

/// The value at the end of an assignment chain (`a = b = {...}`).
fn assigned_value(mut assignment: Node) -> Option<Node> {
    loop {
        let right = assignment.child_by_field_name("right")?;
        if right.kind() != "assignment" {
            return Some(right);
        }
        assignment = right;
    }
}

/// A string statement that documents its module or class (the first
/// statement there).
fn is_docstring(statement: Node) -> bool {
    let Some(parent) = statement.parent() else {
        return false;
    };
    let documents = match parent.kind() {
        "module" => true,
        "block" => parent
            .parent()
            .is_some_and(|p| matches!(p.kind(), "class_definition" | "function_definition")),
        _ => false,
    };
    let mut previous = statement.prev_named_sibling();
    while let Some(p) = previous.filter(|p| p.kind() == "comment") {
        previous = p.prev_named_sibling();
    }
    documents && previous.is_none()
}

/// What a table literal is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Dict,
    List,
    Tuple,
    Set,
    Str,
    Bytes,
}

/// The table literals of a value: the value itself, or the literals in
/// the expression it is built by, whatever the calls around them
/// (`frozenset({...})`, `array("I", (...))`, `tuple(sorted({...}))`,
/// `frozenset("""...""".split())`, `set([...]) | {...}`, `frozenset(x for
/// x in [...])`), in source order. A literal is not searched inside.
fn tables(value: Node) -> Vec<(Node, Shape)> {
    let mut found = Vec::new();
    collect_tables(value, 0, &mut found);
    found
}

/// How deep [`collect_tables`] looks into an expression (bounds the
/// recursion, whatever the input).
const MAX_EXPRESSION_DEPTH: usize = 12;

fn collect_tables<'t>(node: Node<'t>, depth: usize, out: &mut Vec<(Node<'t>, Shape)>) {
    let node = unparenthesized(node);
    if let Some(shape) = shape(node) {
        out.push((node, shape));
        return;
    }
    let builds_a_value = matches!(
        node.kind(),
        "call"
            | "argument_list"
            | "keyword_argument"
            | "attribute"
            | "binary_operator"
            | "boolean_operator"
            | "unary_operator"
            | "generator_expression"
            | "for_in_clause"
            | "parenthesized_expression"
    );
    if !builds_a_value || depth >= MAX_EXPRESSION_DEPTH {
        return;
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
    for child in children {
        collect_tables(child, depth + 1, out);
    }
}

fn unparenthesized(mut node: Node) -> Node {
    while node.kind() == "parenthesized_expression" && node.named_child_count() == 1 {
        match node.named_child(0) {
            Some(inner) if inner.kind() != "comment" => node = inner,
            _ => break,
        }
    }
    node
}

fn shape(node: Node) -> Option<Shape> {
    Some(match node.kind() {
        "dictionary" => Shape::Dict,
        "list" => Shape::List,
        "tuple" | "expression_list" => Shape::Tuple,
        "set" => Shape::Set,
        "string" | "concatenated_string" => Shape::Str,
        _ => return None,
    })
}

impl Shape {
    /// A string literal's shape by its prefix (`b""`, `rb''`).
    fn of_string(literal: &str) -> Shape {
        let prefix = string_prefix(literal);
        if prefix.contains(['b', 'B']) {
            Shape::Bytes
        } else {
            Shape::Str
        }
    }

    /// The Python text standing in for the literal.
    fn stand_in(self, node: Node, source: &str) -> String {
        match self {
            Shape::Dict | Shape::Set => "{...}".to_string(),
            Shape::List => "[...]".to_string(),
            Shape::Tuple => "(...)".to_string(),
            Shape::Str | Shape::Bytes => {
                let text = slice(source, node.byte_range());
                format!("{}\"...\"", string_prefix(text))
            }
        }
    }

    /// `dict, 3,608 entries` / `str, 12,034 chars`.
    fn note(self, node: Node, source: &str) -> String {
        let text = slice(source, node.byte_range());
        let shape = match self {
            Shape::Str | Shape::Bytes => Shape::of_string(text),
            other => other,
        };
        let (name, count, units) = match shape {
            Shape::Dict => ("dict", entries(node), ("entry", "entries")),
            Shape::List => ("list", entries(node), ("item", "items")),
            Shape::Tuple => ("tuple", entries(node), ("item", "items")),
            Shape::Set => ("set", entries(node), ("item", "items")),
            Shape::Str => ("str", text.chars().count(), ("char", "chars")),
            Shape::Bytes => ("bytes", text.chars().count(), ("char", "chars")),
        };
        let unit = if count == 1 { units.0 } else { units.1 };
        format!("{name}, {} {unit}", thousands(count))
    }
}

/// The items of a container literal, comments not counted.
fn entries(node: Node) -> usize {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .count()
}

/// The prefix letters of a string literal (`rb` of `rb"..."`; the first
/// part's for an implicit concatenation).
fn string_prefix(literal: &str) -> &str {
    let literal = literal.trim_start_matches(['(', ' ', '\t', '\r', '\n']);
    let end = literal
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(0);
    &literal[..end]
}

/// `source[region]` with every large literal inside it replaced.
pub(super) fn collapse<'a>(
    source: &'a str,
    region: Range<usize>,
    literals: &[LargeLiteral],
) -> Cow<'a, str> {
    let first = literals.partition_point(|l| l.range.start < region.start);
    let inside = literals[first..]
        .iter()
        .take_while(|l| l.range.start < region.end)
        .filter(|l| l.range.end <= region.end);
    let mut out = String::new();
    let mut cursor = region.start;
    for literal in inside {
        if literal.range.start < cursor {
            continue;
        }
        out.push_str(slice(source, cursor..literal.range.start));
        out.push_str(&literal.replacement());
        cursor = literal.range.end;
    }
    if cursor == region.start {
        return Cow::Borrowed(slice(source, region));
    }
    out.push_str(slice(source, cursor..region.end));
    Cow::Owned(out)
}

/// Constants that hold a large literal get the stand-in in their
/// signature (`_EMOJI = {...}  # dict, 3,608 entries`), so outlines and
/// the symbols pane stay one short line.
pub(super) fn retitle(symbols: &mut [Symbol], literals: &[LargeLiteral], source: &str) {
    if literals.is_empty() {
        return;
    }
    for symbol in symbols {
        retitle(&mut symbol.children, literals, source);
        if symbol.kind != SymbolKind::Constant {
            continue;
        }
        let first = literals.partition_point(|l| l.range.start < symbol.range.start);
        let Some(literal) = literals
            .get(first)
            .filter(|l| l.range.start < symbol.range.end && l.range.end <= symbol.range.end)
        else {
            continue;
        };
        let head = slice(source, symbol.range.start..literal.range.start);
        let code = format!("{head}{}", literal.stand_in);
        symbol.signature = format!(
            "{}  # {}",
            truncate(&fold(&code), SIGNATURE_MAX),
            literal.note
        );
    }
}

/// The longest code part of a retitled constant's signature.
const SIGNATURE_MAX: usize = 100;
