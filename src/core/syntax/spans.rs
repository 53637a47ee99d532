//! Spans: what the views need to know about one definition, read off its
//! syntax node while the tree is alive — the full range, the leading
//! comment, the body, the part of the body the skeleton elides, the
//! docstring and the one-line signature. This is the only place that knows
//! the grammars' node names for bodies and declarators; the views work on
//! the recorded byte ranges.

use std::ops::Range;

use tree_sitter::Node;

use super::text::{fold, slice, starts_line, truncate};
use super::{Lang, SymbolKind};

/// Byte ranges of one symbol that the views cut along.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Spans {
    /// Start of the leading comment block (the definition's start if none).
    pub lead: usize,
    /// The body node: a block, compound statement, field or declaration list.
    pub body: Option<Range<usize>>,
    /// Where children live: after the `:` (Python), inside the braces (C,
    /// C++). A hidden container shows its visible children here.
    pub inner: Option<Range<usize>>,
    /// What the skeleton replaces with the placeholder: a function's body
    /// (`...`, `{ ... }`); a Markdown section's own text between its
    /// heading and its first subsection.
    pub elide: Option<Range<usize>>,
    /// The docstring statement (Python) or the leading comment block.
    pub doc: Option<Range<usize>>,
}

/// Everything read off one definition node.
pub(super) struct Analysis {
    pub range: Range<usize>,
    pub signature: String,
    pub spans: Spans,
}

/// The longest signature kept for constants (their value can be huge).
const CONSTANT_SIGNATURE_MAX: usize = 100;

/// One definition the query found: the node it captured (`core`), that
/// node widened by [`outer_node`], the first node of its text, and its
/// name.
#[derive(Debug, Clone, Copy)]
pub(super) struct Found<'t> {
    pub kind: SymbolKind,
    pub core: Node<'t>,
    pub outer: Node<'t>,
    /// `outer`, or for a prototype tree-sitter could only read as an
    /// `ERROR` (`int f (void) SOME_ATTR;`) the first of its type tokens.
    pub first: Node<'t>,
    pub name: Node<'t>,
    /// Where the definition ends for nesting: `outer`'s end, or for a
    /// Markdown heading the start of the next heading of the same or a
    /// higher level (`sections::extend`).
    pub end: usize,
}

impl<'t> Found<'t> {
    pub(super) fn new(kind: SymbolKind, core: Node<'t>, name: Node<'t>) -> Found<'t> {
        let outer = outer_node(core);
        Found {
            kind,
            core,
            outer,
            first: first_node(outer),
            name,
            end: outer.end_byte(),
        }
    }
}

/// Analyse one found definition of Python (`lang`) or the C family (any
/// other `lang`); `symbols` sends Markdown to `sections` and the languages
/// added as data to `generic`.
pub(super) fn analyze(lang: Lang, found: &Found, source: &str) -> Analysis {
    let range = definition_range(found, source);
    let lead = leading_comment_start(found.first, source);
    match lang {
        Lang::Python => python(found, range, lead, source),
        _ => c_like(found, range, lead, source),
    }
}

/// The node a definition really spans: decorators, `template <...>` heads
/// and a typedef/declaration around a type specifier belong to it.
fn outer_node(node: Node) -> Node {
    let mut current = node;
    while let Some(parent) = current.parent() {
        let wraps = match parent.kind() {
            "decorated_definition" | "template_declaration" => true,
            // JavaScript/TypeScript `export ...`; a Go `type` with one spec.
            "export_statement" => parent.child_by_field_name("declaration") == Some(current),
            "type_declaration" => parent.named_child_count() == 1,
            "type_definition" | "declaration" | "field_declaration" => {
                parent.child_by_field_name("type") == Some(current)
            }
            _ => false,
        };
        if !wraps {
            break;
        }
        current = parent;
    }
    current
}

/// The node kinds that can start a declaration before its declarator.
const TYPE_TOKENS: [&str; 16] = [
    "storage_class_specifier",
    "type_qualifier",
    "primitive_type",
    "type_identifier",
    "sized_type_specifier",
    "macro_type_specifier",
    "struct_specifier",
    "union_specifier",
    "enum_specifier",
    "attribute_specifier",
    "attribute_declaration",
    "ms_declspec_modifier",
    "ms_call_modifier",
    "template_type",
    "qualified_identifier",
    "placeholder_type_specifier",
];

/// Where a definition's text starts: for a declarator inside an `ERROR`,
/// at the type tokens before it; otherwise at the node itself.
fn first_node(outer: Node) -> Node {
    if !outer.parent().is_some_and(|p| p.is_error()) {
        return outer;
    }
    let mut first = outer;
    while let Some(prev) = first.prev_sibling() {
        if !TYPE_TOKENS.contains(&prev.kind()) {
            break;
        }
        first = prev;
    }
    first
}

/// From the first node to the end of the outer one plus a directly
/// following `;` (for an `ERROR` prototype, the `;` statement after the
/// error), trailing whitespace trimmed (a `#define` ends with its newline).
fn definition_range(found: &Found, source: &str) -> Range<usize> {
    let start = found.first.start_byte();
    let outer = found.outer;
    let mut end = outer.end_byte();
    let next = outer.next_sibling().or_else(|| {
        let parent = outer.parent().filter(|p| p.is_error())?;
        parent
            .next_sibling()
            .filter(|n| n.kind() == "expression_statement")
    });
    if let Some(next) = next
        && slice(source, next.byte_range()) == ";"
    {
        end = next.end_byte();
    }
    let text = slice(source, start..end);
    start..start + text.trim_end().len()
}

/// The start of the comment lines directly above `node` (no blank line
/// between, each comment starting its own line), or the node's start.
fn leading_comment_start(node: Node, source: &str) -> usize {
    let mut start = node.start_byte();
    let mut current = node;
    while let Some(prev) = current.prev_sibling() {
        if prev.kind() != "comment" || !starts_line(source, prev.start_byte()) {
            break;
        }
        let gap = slice(source, prev.end_byte()..start);
        if !gap.trim().is_empty() || gap.matches('\n').count() > 1 {
            break;
        }
        start = prev.start_byte();
        current = prev;
    }
    start
}

/// The leading comment as a doc range, if there is one.
fn lead_doc(lead: usize, range: &Range<usize>) -> Option<Range<usize>> {
    (lead < range.start).then_some(lead..range.start)
}

fn python(found: &Found, range: Range<usize>, lead: usize, source: &str) -> Analysis {
    let Found { kind, core, .. } = *found;
    if kind == SymbolKind::Constant {
        let text = fold(&without_comments(core, range.clone(), source));
        let spans = Spans {
            lead,
            doc: lead_doc(lead, &range),
            ..Spans::default()
        };
        return Analysis {
            range,
            signature: truncate(&text, CONSTANT_SIGNATURE_MAX),
            spans,
        };
    }
    let body = core.child_by_field_name("body");
    let colon = body.and_then(|b| colon_before(core, b));
    let head_end = colon
        .map(|c| c.start_byte())
        .or(body.map(|b| b.start_byte()))
        .unwrap_or(core.end_byte());
    let signature = fold(&without_comments(core, core.start_byte()..head_end, source));
    let docstring = body.and_then(python_docstring);
    let elide = match body {
        Some(b) if kind.is_function() => python_elide(b, docstring),
        _ => None,
    };
    let inner = body.map(|b| colon.map_or(b.start_byte(), |c| c.end_byte())..b.end_byte());
    let doc = docstring
        .map(|d| d.byte_range())
        .or_else(|| lead_doc(lead, &range));
    let spans = Spans {
        lead,
        body: body.map(|b| b.byte_range()),
        inner,
        elide,
        doc,
    };
    Analysis {
        range,
        signature,
        spans,
    }
}

/// The `:` token that ends a Python definition's header.
fn colon_before<'t>(def: Node<'t>, body: Node<'t>) -> Option<Node<'t>> {
    let mut cursor = def.walk();
    let mut colon = None;
    for child in def.children(&mut cursor) {
        if child == body {
            break;
        }
        if child.kind() == ":" {
            colon = Some(child);
        }
    }
    colon
}

/// The statements of a block, comments skipped.
fn statements<'t>(block: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    named_children(block)
        .into_iter()
        .filter(|n| n.kind() != "comment")
}

/// The named children of `node`, walked with a cursor: `named_child(i)`
/// counts its way to the `i`th, so indexing them all is quadratic (an
/// error node of 20,000 `for (;;)` children took 18 s).
pub(super) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The block's first statement if it is a lone string (a docstring).
fn python_docstring(block: Node) -> Option<Node> {
    let first = statements(block).next()?;
    let only = (first.kind() == "expression_statement" && first.named_child_count() == 1)
        .then(|| first.named_child(0))??;
    matches!(only.kind(), "string" | "concatenated_string").then_some(first)
}

/// From the first statement after the docstring to the end of the block:
/// what `...` replaces. `None` when nothing but the docstring is there.
fn python_elide(block: Node, docstring: Option<Node>) -> Option<Range<usize>> {
    let skip = usize::from(docstring.is_some());
    let first = statements(block).nth(skip)?;
    Some(first.start_byte()..block.end_byte())
}

fn c_like(found: &Found, range: Range<usize>, lead: usize, source: &str) -> Analysis {
    let kind = found.kind;
    let body = body_node(found.core);
    let signature = c_signature(found, body, &range, source);
    let inner = body.map(|b| inside_braces(b, source));
    let elide = body.filter(|_| kind.is_function()).map(|b| b.byte_range());
    let spans = Spans {
        lead,
        body: body.map(|b| b.byte_range()),
        inner,
        elide,
        doc: lead_doc(lead, &range),
    };
    Analysis {
        range,
        signature,
        spans,
    }
}

/// A definition's body: its own `body` field, or that of its `type` (an
/// anonymous struct named by a typedef).
fn body_node(core: Node) -> Option<Node> {
    core.child_by_field_name("body").or_else(|| {
        core.child_by_field_name("type")
            .and_then(|t| t.child_by_field_name("body"))
    })
}

/// The bytes between a body's braces (all of it if it has none).
fn inside_braces(body: Node, source: &str) -> Range<usize> {
    let range = body.byte_range();
    let text = slice(source, range.clone());
    if text.starts_with('{') && text.ends_with('}') && text.len() >= 2 {
        range.start + 1..range.end - 1
    } else {
        range
    }
}

fn c_signature(found: &Found, body: Option<Node>, range: &Range<usize>, source: &str) -> String {
    let Found {
        kind,
        core,
        outer,
        first,
        name,
        ..
    } = *found;
    // Comments are looked for below the node that holds the whole text.
    let outer = if first == outer {
        outer
    } else {
        outer.parent().unwrap_or(outer)
    };
    let text = if kind.is_function() {
        let head_end = function_declarator(name, core).map_or(name.end_byte(), declarator_head_end);
        without_comments(outer, range.start..head_end, source)
    } else if let Some(b) = body {
        let head = without_comments(outer, range.start..b.start_byte(), source);
        let tail = without_comments(outer, b.end_byte()..range.end, source);
        let tail = tail.trim().trim_end_matches(';');
        // A declarator after the body (`typedef struct {...} T;`) is kept
        // behind a `{ ... }` so the head still reads as C.
        if tail.trim().is_empty() {
            head
        } else {
            format!("{head} {{ ... }} {tail}")
        }
    } else {
        without_comments(outer, range.clone(), source)
    };
    let text = fold(&first_branches(&text));
    let text = text.trim_end_matches([';', ' ', '{']);
    if kind == SymbolKind::Constant {
        truncate(text, CONSTANT_SIGNATURE_MAX)
    } else {
        text.to_string()
    }
}

/// A head's text without its conditional directive lines and without
/// the lines of a conditional's later branches (`#else`, `#elif`), as the
/// parse reads a head repeated across branches: a signature never holds a
/// directive. A branch opened before the text (`#else` first) counts too.
fn first_branches(text: &str) -> String {
    if !text.contains('#') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut depth = 0i64;
    let mut skipping: Option<i64> = None;
    for line in text.split_inclusive('\n') {
        let Some(directive) = line.trim_start().strip_prefix('#') else {
            if skipping.is_none() {
                out.push_str(line);
            }
            continue;
        };
        let word = directive.trim_start();
        if word.starts_with("if") {
            depth += 1;
        } else if word.starts_with("el") {
            skipping.get_or_insert(depth);
        } else if word.starts_with("endif") {
            if skipping == Some(depth) {
                skipping = None;
            }
            depth -= 1;
        } else if skipping.is_none() {
            out.push_str(line);
        }
    }
    out
}

/// The outermost `function_declarator` that holds `name`, below `def`
/// (`FN(Name)(int a)`, a name made by a macro, is two).
fn function_declarator<'t>(name: Node<'t>, def: Node<'t>) -> Option<Node<'t>> {
    let mut current = name;
    while current != def {
        if current.kind() == "function_declarator" {
            while let Some(parent) = current.parent()
                && parent.kind() == "function_declarator"
                && parent != def
            {
                current = parent;
            }
            // A function returning a pointer to a function, `int
            // (*f(const M *m))(int)`: the head ends with the outer
            // parameters.
            if let Some(pointer) = current
                .parent()
                .filter(|p| p.kind() == "pointer_declarator")
                && let Some(paren) = pointer
                    .parent()
                    .filter(|p| p.kind() == "parenthesized_declarator")
                && let Some(outer) = paren
                    .parent()
                    .filter(|p| p.kind() == "function_declarator" && *p != def)
            {
                return Some(outer);
            }
            return Some(current);
        }
        current = current.parent()?;
    }
    None
}

/// Where a function's head ends: after the parameters and the qualifiers
/// that belong to its type (`const`, `noexcept`, `override`, `-> T`), but
/// before attribute macros like glibc's `__THROW __nonnull ((1))`.
fn declarator_head_end(declarator: Node) -> usize {
    const HEAD: [&str; 8] = [
        "parameter_list",
        "type_qualifier",
        "ref_qualifier",
        "virtual_specifier",
        "noexcept",
        "throw_specifier",
        "trailing_return_type",
        "requires_clause",
    ];
    let mut cursor = declarator.walk();
    let mut end = declarator.end_byte();
    let mut seen_params = false;
    for child in declarator.children(&mut cursor) {
        if child.kind() == "parameter_list" {
            seen_params = true;
        }
        if seen_params {
            if HEAD.contains(&child.kind()) {
                end = child.end_byte();
            } else {
                break;
            }
        }
    }
    end
}

/// The text of `range` with every comment inside it left out (C, C++ and
/// Python name theirs `comment`).
fn without_comments(node: Node, range: Range<usize>, source: &str) -> String {
    without_comment_kinds(node, range, &["comment"], source)
}

/// The text of `range` with every node of `kinds` (a language's comments)
/// inside it left out. They are found in `node`'s subtree, skipping
/// subtrees outside the range so a class body is not walked for its head.
pub(super) fn without_comment_kinds(
    node: Node,
    range: Range<usize>,
    kinds: &[&str],
    source: &str,
) -> String {
    let mut found = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let r = n.byte_range();
        if r.end <= range.start || r.start >= range.end {
            continue;
        }
        if kinds.contains(&n.kind()) {
            found.push(r);
            continue;
        }
        let mut walk = n.walk();
        stack.extend(n.children(&mut walk));
    }
    found.sort_by_key(|r| r.start);
    let mut out = String::new();
    let mut cursor = range.start;
    for c in &found {
        if c.start < cursor || c.end > range.end {
            continue;
        }
        out.push_str(slice(source, cursor..c.start));
        out.push(' ');
        cursor = c.end;
    }
    out.push_str(slice(source, cursor..range.end));
    out
}
