//! Python definitions found by a walk over the statements, without running
//! `queries/python/symbols.scm`: the same matches (the query stays the
//! specification, and a test checks the two agree on the whole standard
//! library), several times faster, as the walk never enters an expression.
//! A query cursor visits every node of the tree; in Python nearly all of
//! them sit inside expressions, where no definition can start.

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

use super::SymbolKind;
use super::spans::Found;

/// Each match as the query would give it: its pattern index (class 0,
/// function 1, constant 2) and the definition, in no particular order.
/// Definitions start at most `max_start_depth` nodes below the root.
pub(super) fn definitions<'t>(
    root: Node<'t>,
    parsed: &str,
    max_start_depth: u32,
) -> Vec<(usize, Found<'t>)> {
    let kinds = Kinds::get();
    let mut out = Vec::new();
    if kinds.is(root, MODULE) {
        constants(root, parsed, kinds, &mut out);
    }
    let mut cursor = root.walk();
    let mut depth = 0u32;
    loop {
        let node = cursor.node();
        let flags = kinds.flags(node);
        if flags & (CLASS | FUNCTION) != 0
            && let Some(name) = node.child_by_field_id(kinds.name)
            && kinds.is(name, IDENTIFIER)
        {
            let (pattern, kind) = if flags & CLASS != 0 {
                (0, SymbolKind::Class)
            } else {
                (1, SymbolKind::Function)
            };
            out.push((pattern, Found::new(kind, node, name)));
        }
        // Error recovery can put a statement anywhere: a subtree with an
        // error is always entered.
        let enter = depth < max_start_depth && (flags & EXPRESSION == 0 || node.has_error());
        if enter && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return out;
            }
            depth -= 1;
        }
    }
}

/// `(module (expression_statement (assignment left: (identifier) @name))
/// @definition.constant)` where the name is UPPER_CASE.
fn constants<'t>(root: Node<'t>, parsed: &str, kinds: &Kinds, out: &mut Vec<(usize, Found<'t>)>) {
    let mut statements = root.walk();
    for statement in root.named_children(&mut statements) {
        if !kinds.is(statement, EXPRESSION_STATEMENT) {
            continue;
        }
        let mut parts = statement.walk();
        for assignment in statement.named_children(&mut parts) {
            if !kinds.is(assignment, ASSIGNMENT) {
                continue;
            }
            let Some(left) = assignment.child_by_field_id(kinds.left) else {
                continue;
            };
            let name = parsed.get(left.byte_range()).unwrap_or("");
            if kinds.is(left, IDENTIFIER) && is_constant_name(name) {
                out.push((2, Found::new(SymbolKind::Constant, statement, left)));
            }
        }
    }
}

/// The query's `^_*[A-Z][A-Z0-9_]+$`.
fn is_constant_name(name: &str) -> bool {
    let rest = name.trim_start_matches('_');
    let mut chars = rest.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && !chars.as_str().is_empty()
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

const MODULE: u8 = 1;
const CLASS: u8 = 2;
const FUNCTION: u8 = 4;
const IDENTIFIER: u8 = 8;
const EXPRESSION_STATEMENT: u8 = 16;
const ASSIGNMENT: u8 = 32;
/// A node no definition can be under (an expression, a simple statement).
const EXPRESSION: u8 = 64;

/// Node kinds that hold no statement, so no definition. A kind missing
/// here only costs time: the walk enters it.
const EXPRESSIONS: &[&str] = &[
    "expression_statement",
    "return_statement",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "assert_statement",
    "delete_statement",
    "raise_statement",
    "pass_statement",
    "break_statement",
    "continue_statement",
    "global_statement",
    "nonlocal_statement",
    "print_statement",
    "exec_statement",
    "type_alias_statement",
    "comment",
    "decorator",
    "parameters",
    "lambda_parameters",
    "argument_list",
    "type_parameter",
    "type",
    "string",
    "concatenated_string",
    "call",
    "attribute",
    "identifier",
    "integer",
    "float",
    "true",
    "false",
    "none",
    "comparison_operator",
    "boolean_operator",
    "not_operator",
    "binary_operator",
    "unary_operator",
    "parenthesized_expression",
    "subscript",
    "tuple",
    "list",
    "dictionary",
    "set",
    "list_comprehension",
    "dictionary_comprehension",
    "set_comprehension",
    "generator_expression",
    "conditional_expression",
    "lambda",
    "keyword_argument",
    "pattern_list",
    "expression_list",
    "with_clause",
    "await",
    "named_expression",
    "assignment",
    "augmented_assignment",
];

/// Per node kind id, what the walk needs to know (an alias gives a kind
/// several ids, so ids are found by name over the whole grammar).
struct Kinds {
    flags: Vec<u8>,
    /// Field ids (0, which tree-sitter answers with no node, if absent).
    name: u16,
    left: u16,
}

impl Kinds {
    fn get() -> &'static Kinds {
        static KINDS: OnceLock<Kinds> = OnceLock::new();
        KINDS.get_or_init(|| Kinds::of(&tree_sitter_python::LANGUAGE.into()))
    }

    fn of(language: &Language) -> Kinds {
        let count = language.node_kind_count();
        let mut flags = vec![0u8; count];
        for (id, slot) in (0..).zip(flags.iter_mut()) {
            if !language.node_kind_is_named(id) {
                continue;
            }
            let Some(kind) = language.node_kind_for_id(id) else {
                continue;
            };
            *slot = match kind {
                "module" => MODULE,
                "class_definition" => CLASS,
                "function_definition" => FUNCTION,
                "identifier" => IDENTIFIER | EXPRESSION,
                "expression_statement" => EXPRESSION_STATEMENT | EXPRESSION,
                "assignment" => ASSIGNMENT | EXPRESSION,
                k if EXPRESSIONS.contains(&k) => EXPRESSION,
                _ => 0,
            };
        }
        let field = |name| language.field_id_for_name(name).map_or(0, u16::from);
        Kinds {
            flags,
            name: field("name"),
            left: field("left"),
        }
    }

    fn flags(&self, node: Node) -> u8 {
        self.flags
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(0)
    }

    fn is(&self, node: Node, flag: u8) -> bool {
        self.flags(node) & flag != 0
    }
}

#[cfg(test)]
mod tests {
    use super::is_constant_name;

    #[test]
    fn constant_names_as_the_query_matches_them() {
        for yes in ["MAX", "_CACHE", "__A_", "X1", "A_B_C", "_X9"] {
            assert!(is_constant_name(yes), "{yes}");
        }
        for no in ["X", "_X", "___", "", "Max", "mAX", "A-B", "ÄB", "1A"] {
            assert!(!is_constant_name(no), "{no}");
        }
    }
}
