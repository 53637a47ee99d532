//! Errors: which of tree-sitter's `ERROR` and missing nodes can hide a
//! symbol. The "has syntax errors; symbols may be incomplete" note is
//! about symbols, so an error that sits wholly inside a place where no
//! symbol lives does not count:
//!
//! - in C and C++, a function body (a macro statement such as
//!   `luaL_intop(+, i, 1)` that only the preprocessor reads) and an
//!   enum's list (curl's `CURLOPT(...)` entries);
//! - in C++, expressions the grammar misreads inside a declaration head: a
//!   `decltype(a, b)` with a comma, a `= {}` default argument or default
//!   member initializer, a template argument or parameter list (`typename
//!   A = T (&)[N]`, `enable_if_t<...> * = nullptr`), a `noexcept(...)`
//!   condition, an initializer;
//!   A body whose `}` is missing does count, at its `{`: it ran to the
//!   end of the text over what may be symbols;
//! - the name tree-sitter-cpp misses in an anonymous enum with a base type
//!   (`enum : unsigned { ... }`).
//!
//! The same measure picks the better of the pre-pass's attempts
//! (`preproc`): the parse with fewer bytes inside counted errors wins.

use tree_sitter::Node;

use super::Lang;

/// The 1-based line of the first counted error in source order, if any.
pub(super) fn first_line(lang: Lang, root: Node<'_>) -> Option<usize> {
    let mut found = None;
    visit(lang, root, &mut |hit| {
        found = Some(hit.row + 1);
        false
    });
    found
}

/// How many bytes lie inside counted `ERROR` nodes (plus one per missing
/// token).
pub(super) fn weight(lang: Lang, root: Node) -> usize {
    let mut total = 0;
    visit(lang, root, &mut |hit| {
        total += hit.bytes;
        true
    });
    total
}

/// One counted error: the row it starts on (0-based) and its weight.
struct Hit {
    row: usize,
    bytes: usize,
}

/// Call `hit` on every counted error in source order until it returns
/// `false`. Iterative: the depth of the tree is the input's. Each node
/// is visited with its parent (`Node::parent` searches down from the
/// root: asked of every node of a wide error tree it was quadratic).
fn visit(lang: Lang, root: Node<'_>, hit: &mut dyn FnMut(Hit) -> bool) {
    let mut stack = vec![(root, None)];
    while let Some((node, parent)) = stack.pop() {
        if unnamed_enum_base(node, parent) {
            continue;
        }
        if node.is_error() || node.is_missing() {
            let bytes = if node.is_missing() {
                1
            } else {
                node.byte_range().len().max(1)
            };
            let row = error_row(node);
            if !hit(Hit { row, bytes }) {
                return;
            }
            continue;
        }
        if lang != Lang::Python && unclosed_body(node, parent) {
            // The body ran to the end of the text: what follows its `{`
            // may be symbols read as statements. The error is the `{`.
            let bytes = node.byte_range().len().max(1);
            if !hit(Hit {
                row: node.start_position().row,
                bytes,
            }) {
                return;
            }
            continue;
        }
        if lang != Lang::Python && holds_no_symbol(node, parent) {
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node
            .children(&mut cursor)
            .filter(|c| c.has_error() || c.is_missing())
            .collect();
        if children.is_empty() && node.has_error() {
            // The error is a missing hidden token (Python's `_newline`
            // after a `\` continuation: `X = "a" \` then `X = 1`),
            // which no cursor yields: count it where it likely is.
            if !hit(Hit {
                row: hidden_missing_row(node),
                bytes: 1,
            }) {
                return;
            }
            continue;
        }
        stack.extend(children.into_iter().rev().map(|c| (c, Some(node))));
    }
}

/// The row an `ERROR` node's error is on: that of its first child that
/// is not a comment (an `ERROR` that opens the file holds the leading
/// comment, which is not where the error is).
fn error_row(node: Node) -> usize {
    let mut cursor = node.walk();
    let first = node
        .children(&mut cursor)
        .find(|c| !c.is_extra() && c.kind() != "comment");
    first.unwrap_or(node).start_position().row
}

/// Where in `node` a missing hidden token most likely is: at the first
/// child that starts on the line its previous sibling ended on, or after
/// a line continuation (two statements on one logical line); else at
/// `node`'s start. Extras (comments, continuations) are not candidates.
fn hidden_missing_row(node: Node) -> usize {
    let mut cursor = node.walk();
    let (mut previous, mut continued): (Option<Node>, bool) = (None, false);
    for child in node.children(&mut cursor) {
        if child.is_extra() {
            continued |= child.kind() == "line_continuation";
            continue;
        }
        if let Some(before) = previous
            && (continued || before.end_position().row == child.start_position().row)
        {
            return child.start_position().row;
        }
        (previous, continued) = (Some(child), false);
    }
    node.start_position().row
}

/// The name tree-sitter-cpp wants for an anonymous enum with a base type
/// (`enum : unsigned long long { bit = 1ULL << 63 };`, valid C++): a
/// missing name, where there is no symbol to miss.
fn unnamed_enum_base(node: Node, parent: Option<Node>) -> bool {
    node.is_missing()
        && node.kind() == "type_identifier"
        && parent.is_some_and(|p| p.kind() == "enum_specifier")
}

/// A function body whose closing `}` is missing (`MACRO(a) MACRO2(b) {`
/// read as a function that swallows the rest of the file).
fn unclosed_body(node: Node, parent: Option<Node>) -> bool {
    node.kind() == "compound_statement"
        && parent.is_some_and(|p| p.kind() == "function_definition")
        && node
            .child(node.child_count().saturating_sub(1))
            .is_some_and(|last| last.is_missing())
}

/// Whether nothing inside `node` can be a symbol (see the module doc).
fn holds_no_symbol(node: Node, parent: Option<Node>) -> bool {
    match node.kind() {
        "enumerator_list"
        | "decltype"
        | "template_argument_list"
        | "template_parameter_list"
        | "noexcept"
        | "initializer_list"
        | "argument_list"
        | "requires_clause"
        | "static_assert_declaration" => true,
        "compound_statement" => parent.is_some_and(|p| p.kind() == "function_definition"),
        _ => is_default_value(node, parent),
    }
}

/// A default argument, default member initializer or initializer value
/// (`= {}`, `= T{}`).
fn is_default_value(node: Node, parent: Option<Node>) -> bool {
    let Some(parent) = parent else {
        return false;
    };
    let field = match parent.kind() {
        "optional_parameter_declaration" | "field_declaration" => "default_value",
        "init_declarator" => "value",
        _ => return false,
    };
    parent.child_by_field_name(field) == Some(node)
}
