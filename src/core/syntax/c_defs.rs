//! C and C++ definitions found by a walk over the syntax tree, without
//! compiling `queries/c/symbols.scm` and `queries/cpp/symbols.scm`: the same matches, with
//! the same pattern indices (the queries stay the specification, and a
//! test checks the two agree on fixtures and system headers). Compiling
//! the C++ query (C's patterns included) against tree-sitter-cpp's large
//! grammar cost a fixed ~0.1–0.4 s per process, that is per `symbols` call
//! on one file; the walk costs nothing to set up.
//!
//! Each `*_patterns` function below mirrors one query file, pattern by
//! pattern, in the file's order; a pattern's index is its position in the
//! C++ query (C's patterns follow C++'s own, as `; inherits: c` places
//! them) or in the C query.

use tree_sitter::Node;

use super::spans::Found;
use super::{Lang, SymbolKind};

/// How many patterns `cpp.scm` has before its `; inherits: c` line.
const CPP_OWN_PATTERNS: usize = 12;

/// Each match as the query of `lang` would give it: its pattern index and
/// the definition, in no particular order. Definitions start at most
/// `max_start_depth` nodes below the root.
pub(super) fn definitions<'t>(
    lang: Lang,
    root: Node<'t>,
    max_start_depth: u32,
) -> Vec<(usize, Found<'t>)> {
    let cpp = lang == Lang::Cpp;
    let c_base = if cpp { CPP_OWN_PATTERNS } else { 0 };
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let mut depth = 0u32;
    loop {
        let node = cursor.node();
        if node.is_named() {
            if cpp {
                cpp_patterns(node, &mut out);
            }
            c_patterns(node, c_base, &mut out);
        }
        if depth < max_start_depth && cursor.goto_first_child() {
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

/// A found definition with its pattern index.
type Match<'t> = (usize, Found<'t>);

fn push<'t>(
    out: &mut Vec<Match<'t>>,
    pattern: usize,
    kind: SymbolKind,
    core: Node<'t>,
    name: Node<'t>,
) {
    out.push((pattern, Found::new(kind, core, name)));
}

/// The children of `node` in its `declarator` field (a declaration or a
/// typedef may have several).
fn declarators<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name("declarator", &mut cursor)
        .collect()
}

/// `node` if it is of `kind`.
fn is<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    (node.kind() == kind).then_some(node)
}

/// The `declarator` field of a node of `kind` (`pointer_declarator`,
/// `function_declarator`, `array_declarator`).
fn inner<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    is(node, kind)?.child_by_field_name("declarator")
}

/// The first named child of `kind` of a node of `wrapper` kind (a
/// `reference_declarator` or `parenthesized_declarator`, whose child has no
/// field name).
fn child_of<'t>(node: Node<'t>, wrapper: &str, kind: &str) -> Option<Node<'t>> {
    let node = is(node, wrapper)?;
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind() == kind)
}

/// The name of `(function_declarator declarator: [names] @name)`.
fn function_name<'t>(node: Node<'t>, names: &[&str]) -> Option<Node<'t>> {
    let name = inner(node, "function_declarator")?;
    names.contains(&name.kind()).then_some(name)
}

/// `(pointer_declarator declarator: <f>)`.
fn pointer<'t>(node: Node<'t>, f: impl Fn(Node<'t>) -> Option<Node<'t>>) -> Option<Node<'t>> {
    f(inner(node, "pointer_declarator")?)
}

/// `(reference_declarator (function_declarator ...))`.
fn reference<'t>(node: Node<'t>, f: impl Fn(Node<'t>) -> Option<Node<'t>>) -> Option<Node<'t>> {
    f(child_of(
        node,
        "reference_declarator",
        "function_declarator",
    )?)
}

const CPP_FUNCTION_NAMES: &[&str] = &[
    "identifier",
    "field_identifier",
    "qualified_identifier",
    "operator_name",
    "destructor_name",
    "template_function",
];
const CPP_POINTER_FUNCTION_NAMES: &[&str] = &[
    "identifier",
    "field_identifier",
    "qualified_identifier",
    "operator_name",
    "template_function",
];
const CPP_PROTOTYPE_NAMES: &[&str] = &[
    "identifier",
    "qualified_identifier",
    "operator_name",
    "destructor_name",
    "template_function",
];
const CPP_POINTER_PROTOTYPE_NAMES: &[&str] =
    &["identifier", "qualified_identifier", "operator_name"];
const CPP_METHOD_NAMES: &[&str] = &[
    "field_identifier",
    "operator_name",
    "destructor_name",
    "template_function",
];
const CPP_POINTER_METHOD_NAMES: &[&str] = &["field_identifier", "operator_name"];

/// The name of a function declarator as `cpp.scm` reads it: plain, behind
/// one or two pointers, a reference, or a pointer to a reference.
fn cpp_declarator_name<'t>(
    d: Node<'t>,
    names: &[&str],
    wrapped: &[&str],
    double_pointer: bool,
) -> Option<Node<'t>> {
    function_name(d, names)
        .or_else(|| pointer(d, |n| function_name(n, wrapped)))
        .or_else(|| {
            double_pointer
                .then(|| pointer(d, |n| pointer(n, |m| function_name(m, wrapped))))
                .flatten()
        })
        .or_else(|| reference(d, |n| function_name(n, wrapped)))
        .or_else(|| pointer(d, |n| reference(n, |m| function_name(m, wrapped))))
}

/// The patterns of `cpp.scm` before its `; inherits: c` line, in order.
fn cpp_patterns<'t>(node: Node<'t>, out: &mut Vec<Match<'t>>) {
    use SymbolKind::*;
    match node.kind() {
        "function_definition" => {
            for d in declarators(node) {
                if let Some(name) =
                    cpp_declarator_name(d, CPP_FUNCTION_NAMES, CPP_POINTER_FUNCTION_NAMES, true)
                {
                    push(out, 0, Function, node, name);
                }
                let cast = is(d, "operator_cast").or_else(|| {
                    let name = is(d, "qualified_identifier")?.child_by_field_name("name")?;
                    is(name, "operator_cast").map(|_| d)
                });
                if let Some(name) = cast {
                    push(out, 1, Function, node, name);
                }
            }
        }
        "declaration" => {
            for d in declarators(node) {
                if is(d, "operator_cast").is_some() {
                    push(out, 2, Function, node, d);
                }
                let name = function_name(d, CPP_PROTOTYPE_NAMES)
                    .or_else(|| {
                        child_of(
                            inner(d, "function_declarator")?,
                            "parenthesized_declarator",
                            "identifier",
                        )
                    })
                    .or_else(|| pointer(d, |n| function_name(n, CPP_POINTER_PROTOTYPE_NAMES)))
                    .or_else(|| reference(d, |n| function_name(n, CPP_POINTER_PROTOTYPE_NAMES)))
                    .or_else(|| {
                        pointer(d, |n| {
                            reference(n, |m| function_name(m, CPP_POINTER_PROTOTYPE_NAMES))
                        })
                    });
                if let Some(name) = name {
                    push(out, 4, Function, node, name);
                }
            }
        }
        "field_declaration" => {
            for d in declarators(node) {
                if is(d, "operator_cast").is_some() {
                    push(out, 3, Function, node, d);
                }
                let name = function_name(d, CPP_METHOD_NAMES)
                    .or_else(|| pointer(d, |n| function_name(n, CPP_POINTER_METHOD_NAMES)))
                    .or_else(|| reference(d, |n| function_name(n, CPP_POINTER_METHOD_NAMES)))
                    .or_else(|| {
                        pointer(d, |n| {
                            reference(n, |m| function_name(m, CPP_POINTER_METHOD_NAMES))
                        })
                    });
                if let Some(name) = name {
                    push(out, 5, Function, node, name);
                }
            }
        }
        "namespace_definition" => {
            if node.child_by_field_name("body").is_some()
                && let Some(name) = node.child_by_field_name("name")
                && matches!(
                    name.kind(),
                    "namespace_identifier" | "nested_namespace_specifier"
                )
            {
                push(out, 6, Namespace, node, name);
            }
        }
        "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
            let (pattern, kind, template) = match node.kind() {
                "class_specifier" => (7, Class, true),
                "struct_specifier" => (8, Struct, true),
                "union_specifier" => (9, Union, true),
                _ => (10, Enum, false),
            };
            if node.child_by_field_name("body").is_some()
                && let Some(name) = node.child_by_field_name("name")
                && (matches!(name.kind(), "type_identifier" | "qualified_identifier")
                    || (template && name.kind() == "template_type"))
            {
                push(out, pattern, kind, node, name);
            }
        }
        "alias_declaration" => {
            if let Some(name) = node.child_by_field_name("name")
                && name.kind() == "type_identifier"
            {
                push(out, 11, Typedef, node, name);
            }
        }
        _ => {}
    }
}

/// `(function_declarator declarator: (identifier))` behind `pointers`
/// pointer declarators.
fn c_function<'t>(d: Node<'t>, pointers: usize) -> Option<Node<'t>> {
    let mut d = d;
    for _ in 0..pointers {
        d = inner(d, "pointer_declarator")?;
    }
    function_name(d, &["identifier"])
}

/// The name of a function that returns a pointer to a function, `int
/// (*f(const M *m))(int)`: `(function_declarator declarator:
/// (parenthesized_declarator (pointer_declarator declarator:
/// (function_declarator declarator: (identifier) @name))))`.
fn returns_function_pointer<'t>(d: Node<'t>) -> Option<Node<'t>> {
    let pointed = child_of(
        inner(d, "function_declarator")?,
        "parenthesized_declarator",
        "pointer_declarator",
    )?;
    c_function(pointed, 1)
}

/// The typedef name of `type_definition`'s declarator as `c.scm` reads it.
fn typedef_name<'t>(d: Node<'t>) -> Option<Node<'t>> {
    let ti = |n: Node<'t>| is(n, "type_identifier");
    let pointed_ti = |n: Node<'t>| pointer(n, ti);
    // `(function_declarator declarator: (parenthesized_declarator
    // (pointer_declarator declarator: (type_identifier))))`.
    let fn_pointer = |n: Node<'t>| {
        let paren = inner(n, "function_declarator")?;
        pointed_ti(child_of(
            paren,
            "parenthesized_declarator",
            "pointer_declarator",
        )?)
    };
    ti(d)
        .or_else(|| is(d, "primitive_type"))
        .or_else(|| pointed_ti(d))
        .or_else(|| pointer(d, pointed_ti))
        .or_else(|| pointer(d, |n| pointer(n, pointed_ti)))
        .or_else(|| ti(inner(d, "array_declarator")?))
        .or_else(|| ti(inner(d, "function_declarator")?))
        .or_else(|| fn_pointer(d))
        .or_else(|| {
            child_of(
                inner(d, "function_declarator")?,
                "parenthesized_declarator",
                "type_identifier",
            )
        })
        .or_else(|| pointer(d, |n| ti(inner(n, "function_declarator")?)))
        .or_else(|| pointer(d, fn_pointer))
}

/// The patterns of `c.scm`, in order; `base` is the index of its first.
fn c_patterns<'t>(node: Node<'t>, base: usize, out: &mut Vec<Match<'t>>) {
    use SymbolKind::*;
    match node.kind() {
        "function_definition" => {
            for d in declarators(node) {
                let name = (0..3)
                    .find_map(|p| c_function(d, p))
                    .or_else(|| returns_function_pointer(d))
                    .or_else(|| pointer(d, returns_function_pointer));
                if let Some(name) = name {
                    push(out, base, Function, node, name);
                }
                let named_by_macro =
                    |n: Node<'t>| is(inner(n, "function_declarator")?, "function_declarator");
                if let Some(name) = named_by_macro(d).or_else(|| pointer(d, named_by_macro)) {
                    push(out, base + 1, Function, node, name);
                }
            }
        }
        "declaration" => {
            for d in declarators(node) {
                let parenthesized = |n: Node<'t>| {
                    child_of(
                        inner(n, "function_declarator")?,
                        "parenthesized_declarator",
                        "identifier",
                    )
                };
                let name = c_function(d, 0)
                    .or_else(|| parenthesized(d))
                    .or_else(|| pointer(d, parenthesized))
                    .or_else(|| c_function(d, 1))
                    .or_else(|| c_function(d, 2))
                    .or_else(|| returns_function_pointer(d))
                    .or_else(|| pointer(d, returns_function_pointer));
                if let Some(name) = name {
                    push(out, base + 2, Function, node, name);
                }
            }
        }
        "struct_specifier" | "union_specifier" | "enum_specifier" => {
            let (offset, kind) = tagged(node.kind());
            if node.child_by_field_name("body").is_some()
                && let Some(name) = node.child_by_field_name("name")
                && name.kind() == "type_identifier"
            {
                push(out, base + offset, kind, node, name);
            }
        }
        "type_definition" => {
            let anonymous = node.child_by_field_name("type").filter(|t| {
                matches!(
                    t.kind(),
                    "struct_specifier" | "union_specifier" | "enum_specifier"
                ) && t.child_by_field_name("name").is_none()
                    && t.child_by_field_name("body").is_some()
            });
            for d in declarators(node) {
                if let Some(t) = anonymous
                    && d.kind() == "type_identifier"
                {
                    let (offset, kind) = tagged(t.kind());
                    push(out, base + offset + 3, kind, node, d);
                }
                if let Some(name) = typedef_name(d) {
                    push(out, base + 9, Typedef, node, name);
                }
            }
        }
        "preproc_def" => {
            if node.child_by_field_name("value").is_some()
                && let Some(name) = node.child_by_field_name("name")
                && name.kind() == "identifier"
            {
                push(out, base + 10, Constant, node, name);
            }
        }
        "ERROR" => {
            let mut cursor = node.walk();
            let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
            for child in children {
                if let Some(name) = c_function(child, 0).or_else(|| c_function(child, 1)) {
                    push(out, base + 11, Function, child, name);
                }
            }
        }
        _ => {}
    }
}

/// The pattern offset (in `c.scm`, from its struct pattern) and kind of a
/// tagged type's specifier.
fn tagged(kind: &str) -> (usize, SymbolKind) {
    match kind {
        "struct_specifier" => (3, SymbolKind::Struct),
        "union_specifier" => (4, SymbolKind::Union),
        _ => (5, SymbolKind::Enum),
    }
}
