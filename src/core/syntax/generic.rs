//! Spans and names for the languages added as data (Rust, TypeScript,
//! JavaScript, Go, Java, C#, Bash, PHP, Ruby, Lua): one generic reading of
//! a definition node — body by the grammar's `body` field, leading
//! comments by the row's comment kinds, the signature as the text before
//! the body. How a body is closed is the row's `bodies`: braces, or a
//! keyword (`end`) after the statements the skeleton replaces.
//!
//! What a query cannot say lives here, each for a stated reason:
//! - a Rust `impl` block has no name node: it is named by its head
//!   (`impl Trait for Type`), and its items by the scope people write
//!   (`Type::method`, `<Type as Trait>::method`), not the block's name;
//! - a Go method's scope is its receiver's type (`Type.Method`), which is a
//!   parameter, not an enclosing node;
//! - Rust attributes (`#[derive]`) are siblings before the item, not
//!   children, so the range is widened over them here;
//! - Go's struct and interface bodies are not a `body` field;
//! - a Ruby method's path says how it is called (`Class#m`, `Class.m`,
//!   `def self.m` or a `def` inside `class << self`), which is its
//!   enclosing nodes', not its own;
//! - a Lua function's name is a field of a table (`M.f`, `M:m`): the name
//!   is the field, the path the expression as written.

use std::ops::Range;

use tree_sitter::Node;

use super::Lang;
use super::kotlin_swift;
use super::languages::{Bodies, PathStyle};
use super::spans::{Analysis, Found, Spans, named_children, without_comment_kinds};
use super::text::{fold, slice, starts_line, truncate};

/// The longest signature kept for symbols without a body (an alias or a
/// constant's value can be huge).
const SIGNATURE_MAX: usize = 160;

/// Analyse one definition of a data-driven language.
pub(super) fn analyze(lang: Lang, found: &Found, source: &str) -> Analysis {
    let comments = lang.row().comments;
    let bodies = lang.row().bodies;
    let (start, lead) = leading(found.outer, comments, source);
    let range = start..end_of(found.outer, source);
    let body = kotlin_swift::body(lang, found.core).or_else(|| body_node(found.core));
    // The keyword that closes a body (`end`), when the row's bodies have
    // one and this definition ends with it. Without it (Ruby's endless
    // `def f(x) = x * 2`) there is no body to elide: the head is the
    // whole definition.
    let close = match bodies {
        Bodies::Keyword { close, .. } => {
            let holder = body
                .and_then(|b| b.parent())
                .or_else(|| bound_value(found.core))
                .unwrap_or(found.core);
            last_child(holder).filter(|c| c.kind() == close)
        }
        _ => None,
    };
    let body = match bodies {
        Bodies::Keyword { .. } => body.filter(|_| close.is_some()),
        _ => body,
    };
    let head_start = found.outer.start_byte();
    let head_end = match (body, close) {
        (Some(b), _) => head_end(b, source),
        (None, Some(c)) => c.start_byte(),
        (None, None) => range.end,
    };
    let signature = without_comment_kinds(found.outer, head_start..head_end, comments, source);
    let signature = fold(&signature);
    let signature = signature.trim_end_matches([';', ' ', '{', ',']);
    let signature = match body {
        Some(_) => signature.to_string(),
        None => truncate(signature, SIGNATURE_MAX),
    };
    let (inner, elide) = match bodies {
        Bodies::Keyword { own_line, .. } => {
            let elide = body
                .filter(|_| found.kind.is_function() && close.is_some())
                .map(|b| b.byte_range())
                .filter(|b| !slice(source, b.clone()).trim().is_empty())
                .filter(|b| !own_line || ends_line(source, b.end));
            (body.map(|b| b.byte_range()), elide)
        }
        _ => {
            let braced = body.filter(|b| slice(source, b.byte_range()).starts_with('{'));
            // An empty body (`{}`) stays: the placeholder would only make
            // it longer.
            let elide = braced
                .filter(|b| found.kind.is_function() && !is_empty_block(b.byte_range(), source))
                .filter(|_| !kotlin_swift::accessors_elide(lang, found.core))
                .map(|b| b.byte_range());
            (braced.map(|b| inside_braces(b.byte_range(), source)), elide)
        }
    };
    let spans = Spans {
        lead,
        body: body.map(|b| b.byte_range()),
        inner,
        elide,
        doc: (lead < range.start).then_some(lead..range.start),
    };
    Analysis {
        range,
        signature,
        spans,
    }
}

/// The last child of a node, anonymous tokens included (`end`).
fn last_child(node: Node) -> Option<Node> {
    node.child(node.child_count().checked_sub(1)?)
}

/// Whether nothing but spaces follows `at` on its line.
fn ends_line(source: &str, at: usize) -> bool {
    let rest = source.get(at..).unwrap_or("");
    let line = rest.split('\n').next().unwrap_or("");
    line.trim().is_empty()
}

/// Where the head before `body` ends: at the body, or at the `{` inside
/// it when the body node starts with a keyword (Go's `interface {`).
fn head_end(body: Node, source: &str) -> usize {
    let text = slice(source, body.byte_range());
    match text.find('{') {
        Some(open) if body.kind() == "interface_type" => body.start_byte() + open,
        _ => body.start_byte(),
    }
}

/// The definition's start (over Rust attributes) and the start of the
/// comment block directly above it (no blank line between).
fn leading(outer: Node, comments: &[&str], source: &str) -> (usize, usize) {
    let mut start = outer.start_byte();
    let mut lead = start;
    let mut current = outer;
    while let Some(prev) = current.prev_sibling() {
        let is_comment = comments.contains(&prev.kind());
        let is_attribute = prev.kind() == "attribute_item";
        if !(is_comment || is_attribute) || !starts_line(source, prev.start_byte()) {
            break;
        }
        let gap = slice(source, prev.end_byte()..lead);
        if !gap.trim().is_empty() || gap.matches('\n').count() > 1 {
            break;
        }
        lead = prev.start_byte();
        if is_attribute {
            start = lead;
        }
        current = prev;
    }
    (start, lead)
}

/// The end of the definition: its node plus a directly following `;`,
/// trailing whitespace trimmed.
fn end_of(outer: Node, source: &str) -> usize {
    let mut end = outer.end_byte();
    if let Some(next) = outer.next_sibling()
        && slice(source, next.byte_range()) == ";"
    {
        end = next.end_byte();
    }
    let text = slice(source, outer.start_byte()..end);
    outer.start_byte() + text.trim_end().len()
}

/// A definition's body: its `body` field; the body of the function bound
/// to a variable (`const f = () => {...}`); a Go struct's field list or
/// interface.
fn body_node(core: Node) -> Option<Node> {
    if let Some(body) = core.child_by_field_name("body") {
        return Some(body);
    }
    if let Some(value) = bound_value(core) {
        return value.child_by_field_name("body");
    }
    let ty = core.child_by_field_name("type")?;
    match ty.kind() {
        "struct_type" => named_children(ty)
            .into_iter()
            .find(|n| n.kind() == "field_declaration_list"),
        "interface_type" => Some(ty),
        _ => None,
    }
}

/// The function bound to a name: `const f = () => {}`, `obj.f = function
/// () {}`, `{ f: () => {} }`; Lua's `M.f = function ... end` (the first
/// value) and `{ f = function ... end }`.
fn bound_value(core: Node) -> Option<Node> {
    match core.kind() {
        "pair" | "field" => core.child_by_field_name("value"),
        "assignment_statement" => named_children(core)
            .into_iter()
            .find(|n| n.kind() == "expression_list")
            .and_then(|list| list.child_by_field_name("value")),
        _ => {
            let bound = named_children(core)
                .into_iter()
                .find(|n| matches!(n.kind(), "variable_declarator" | "assignment_expression"))?;
            bound
                .child_by_field_name("value")
                .or_else(|| bound.child_by_field_name("right"))
        }
    }
}

/// Whether a braced body holds nothing but whitespace.
fn is_empty_block(range: Range<usize>, source: &str) -> bool {
    slice(source, inside_braces(range, source))
        .trim()
        .is_empty()
}

/// The bytes between a body's braces: from after the first `{` to before
/// the last `}` (a Go `interface {` keeps its keyword outside).
fn inside_braces(range: Range<usize>, source: &str) -> Range<usize> {
    let text = slice(source, range.clone());
    match (text.find('{'), text.rfind('}')) {
        (Some(open), Some(close)) if open < close => range.start + open + 1..range.start + close,
        _ => range,
    }
}

/// The plain and the qualified name where the name node alone does not
/// say it: a Rust `impl` block (`Trait for Type`, its path `impl Trait for
/// Type`), a Go method (`Method`, its path `Type.Method`), a Ruby class
/// named with its scope (`Inner` of `class Outer::Inner`) or method (`m`,
/// qualified `#m` or `.m`), a Lua function (`f` of `M.f`), a Markdown
/// heading (its text). `None`: the name node's text is both.
pub(super) fn own_name(lang: Lang, found: &Found, source: &str) -> Option<(String, String)> {
    let core = found.core;
    match (lang, core.kind()) {
        (Lang::Rust, "impl_item") => {
            let ty = core.child_by_field_name("type")?;
            let ty = fold(slice(source, ty.byte_range()));
            let name = match core.child_by_field_name("trait") {
                Some(t) => format!("{} for {ty}", fold(slice(source, t.byte_range()))),
                None => ty,
            };
            Some((name.clone(), format!("impl {name}")))
        }
        (Lang::Go, "method_declaration") => {
            let name = fold(slice(source, found.name.byte_range()));
            let receiver = receiver_type(core.child_by_field_name("receiver")?, source)?;
            Some((name.clone(), format!("{receiver}.{name}")))
        }
        (Lang::Ruby, "class" | "module") => {
            let last = found.name.child_by_field_name("name").unwrap_or(found.name);
            let name = slice(source, last.byte_range()).to_string();
            Some((name, fold(slice(source, found.name.byte_range()))))
        }
        (Lang::Ruby, "method" | "singleton_method") => {
            let name = slice(source, found.name.byte_range()).to_string();
            let qualified = match core.child_by_field_name("object") {
                Some(object) if slice(source, object.byte_range()) != "self" => {
                    format!("{}.{name}", fold(slice(source, object.byte_range())))
                }
                Some(_) => format!(".{name}"),
                None if in_singleton_class(core) => format!(".{name}"),
                None => format!("#{name}"),
            };
            Some((name, qualified))
        }
        (Lang::Markdown, _) => {
            let name = super::sections::name(found, source);
            Some((name.clone(), name))
        }
        (Lang::Lua, _) => {
            let field = found
                .name
                .child_by_field_name("field")
                .or_else(|| found.name.child_by_field_name("method"))
                .unwrap_or(found.name);
            let name = slice(source, field.byte_range()).to_string();
            Some((name, fold(slice(source, found.name.byte_range()))))
        }
        _ => kotlin_swift::own_name(lang, found, source),
    }
}

/// Whether a Ruby `def` sits in a `class << self` (nearer than any class
/// or module): it defines a singleton method.
fn in_singleton_class(def: Node) -> bool {
    let mut current = def.parent();
    while let Some(node) = current {
        match node.kind() {
            "singleton_class" => return true,
            "class" | "module" | "method" | "singleton_method" => return false,
            _ => current = node.parent(),
        }
    }
    false
}

/// The scope a Rust `impl` block gives its items, as people write it:
/// the type without its generic arguments (`Table` of `impl<T> Table<T>`),
/// or `<Type as Trait>` for a trait's (the trait as written, so
/// `From<u8>` and `From<u16>` stay apart). `None`: not an `impl` block.
pub(super) fn rust_impl_scope(block: Node, source: &str) -> Option<String> {
    if block.kind() != "impl_item" {
        return None;
    }
    let ty = block.child_by_field_name("type")?;
    let ty = match ty.kind() {
        "generic_type" => ty.child_by_field_name("type").unwrap_or(ty),
        _ => ty,
    };
    let ty = fold(slice(source, ty.byte_range()));
    Some(match block.child_by_field_name("trait") {
        Some(t) => format!("<{ty} as {}>", fold(slice(source, t.byte_range()))),
        None => ty,
    })
}

/// What comes before an `impl` block's own name in its path (`a::` of
/// `a::impl Table#2`): the scope of the module it sits in, kept for its
/// items.
pub(super) fn rust_impl_prefix(block_path: &str) -> &str {
    match block_path.rfind("::impl ") {
        Some(at) => &block_path[..at + 2],
        None => "",
    }
}

/// The type name of a Go receiver (`(s *Server[T])` → `Server`).
fn receiver_type(receiver: Node, source: &str) -> Option<String> {
    let mut stack = vec![receiver];
    while let Some(n) = stack.pop() {
        if n.kind() == "type_identifier" {
            return Some(slice(source, n.byte_range()).to_string());
        }
        stack.extend(named_children(n).into_iter().rev());
    }
    None
}

/// The path before duplicate numbering: the parent's path and the name,
/// joined as the language's row says. Ruby's methods bring their own
/// separator (`#m`, `.m`), dropped at the top level.
pub(super) fn base_path(lang: Lang, parent: Option<&str>, qualified: &str) -> String {
    let separator = match lang.row().paths {
        PathStyle::Dot => ".",
        PathStyle::Colons | PathStyle::CTags => "::",
        PathStyle::Ruby if qualified.starts_with(['#', '.']) => "",
        PathStyle::Ruby => "::",
        PathStyle::Headings => " > ",
    };
    match parent {
        Some(p) => format!("{p}{separator}{qualified}"),
        None if lang.row().paths == PathStyle::Ruby => {
            qualified.trim_start_matches(['#', '.']).to_string()
        }
        None => qualified.to_string(),
    }
}
