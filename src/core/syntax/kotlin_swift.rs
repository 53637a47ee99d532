//! Kotlin and Swift: the little their symbol queries cannot say, read off
//! the definition node for `generic`'s reading of bodies and names.
//!
//! Each rule is here for a stated reason:
//! - neither grammar marks every body with a `body` field: a Kotlin
//!   function's `function_body` holds a block or an `= expression` (whose
//!   call's trailing lambda the skeleton elides), a class its
//!   `class_body`, a computed property its getter (with a setter too,
//!   each accessor is a symbol and elided on its own); a Swift computed
//!   property or subscript its `computed_property`;
//! - a Kotlin extension function or property is scoped by its receiver,
//!   a type written before the name (`fun Point.scale()` is
//!   `Point.scale`), not by an enclosing node;
//! - an unnamed Kotlin companion object is `Companion`, the name Kotlin
//!   itself gives it (the query can only capture its keyword);
//! - a Swift function's name is its `name` field, which an operator
//!   (`static func +`) fills with a token the query cannot capture
//!   generically; a name in backticks is named without them; and an
//!   extension is named after the type it extends
//!   (`extension Point`), as a Rust `impl` block is.

use tree_sitter::Node;

use super::Lang;
use super::spans::{Found, named_children};
use super::text::{fold, slice};

/// The body of a Kotlin or Swift definition where the grammar does not
/// call it `body`; `None` for other languages and nodes (then `generic`
/// looks for the usual `body` field).
pub(super) fn body(lang: Lang, core: Node) -> Option<Node> {
    match lang {
        Lang::Kotlin => kotlin_body(core),
        Lang::Swift => core
            .child_by_field_name("computed_value")
            .or_else(|| child_of_kind(core, &["computed_property"])),
        _ => None,
    }
}

fn kotlin_body(core: Node) -> Option<Node> {
    match core.kind() {
        "class_declaration" | "object_declaration" | "companion_object" => {
            child_of_kind(core, &["class_body", "enum_class_body"])
        }
        "function_declaration" => function_body(child_of_kind(core, &["function_body"])?),
        "secondary_constructor" | "anonymous_initializer" => child_of_kind(core, &["block"]),
        "getter" | "setter" => function_body(child_of_kind(core, &["function_body"])?),
        // A computed property: its first accessor's body is the body.
        "property_declaration" => {
            let accessor = child_of_kind(core, &["getter", "setter"])?;
            function_body(child_of_kind(accessor, &["function_body"])?)
        }
        _ => None,
    }
}

/// Whether a definition's body is left to its children: a Kotlin
/// property with both a getter and a setter, whose accessors are symbols
/// of their own (one elided range could not hold both bodies).
pub(super) fn accessors_elide(lang: Lang, core: Node) -> bool {
    lang == Lang::Kotlin
        && core.kind() == "property_declaration"
        && child_of_kind(core, &["getter"]).is_some()
        && child_of_kind(core, &["setter"]).is_some()
}

/// The block of a `function_body`; for an `= expression` body, the
/// trailing lambda of a call (`= ModuleDefinition { ... }`, `=
/// withContext(io) { ... }`, the shape of whole Expo modules), so the
/// skeleton keeps the call and elides the lambda; else the expression
/// itself (kept: only braced bodies are elided).
fn function_body(body: Node) -> Option<Node> {
    if let Some(block) = child_of_kind(body, &["block"]) {
        return Some(block);
    }
    let lambda = child_of_kind(body, &["call_expression"])
        .and_then(|call| child_of_kind(call, &["annotated_lambda"]))
        .and_then(|annotated| child_of_kind(annotated, &["lambda_literal"]));
    Some(lambda.unwrap_or(body))
}

/// The first named child of one of these kinds.
fn child_of_kind<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    named_children(node)
        .into_iter()
        .find(|n| kinds.contains(&n.kind()))
}

/// The plain and the qualified name where the captured name node alone
/// does not say it (see the module header); `None`: the name node's text
/// is both.
pub(super) fn own_name(lang: Lang, found: &Found, source: &str) -> Option<(String, String)> {
    let core = found.core;
    match (lang, core.kind()) {
        (Lang::Kotlin, "function_declaration" | "property_declaration") => {
            let name = unquoted(slice(source, found.name.byte_range()));
            let qualified = match kotlin_receiver(core, found.name, source) {
                Some(receiver) => format!("{receiver}.{name}"),
                None => name.clone(),
            };
            Some((name, qualified))
        }
        (Lang::Kotlin, "companion_object") if core.child_by_field_name("name").is_none() => {
            Some(("Companion".to_string(), "Companion".to_string()))
        }
        (Lang::Swift, "function_declaration" | "protocol_function_declaration") => {
            let name = unquoted(slice(
                source,
                core.child_by_field_name("name")?.byte_range(),
            ));
            Some((name.clone(), name))
        }
        (Lang::Swift, "class_declaration") if found.kind == super::SymbolKind::Impl => {
            let name = type_name(found.name, source);
            Some((name.clone(), extension_path(core, &name, source)))
        }
        _ => None,
    }
}

/// A name as the language knows it: without the backticks that let a
/// keyword or any text be a name (`` `default` ``, Kotlin's and Swift
/// 6's `` `emit: no payload` `` test names).
fn unquoted(text: &str) -> String {
    let text = text.trim();
    let inner = text
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .filter(|t| !t.is_empty());
    fold(inner.unwrap_or(text))
}

/// `extension Point`, or with the protocols it adopts `extension Point:
/// CustomStringConvertible`: two extensions of one type usually differ
/// there, so their paths stay apart without a `#2` that depends on order.
fn extension_path(core: Node, name: &str, source: &str) -> String {
    let mut cursor = core.walk();
    let adopted: Vec<String> = core
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "inheritance_specifier")
        .map(|n| fold(slice(source, n.byte_range())))
        .collect();
    if adopted.is_empty() {
        format!("extension {name}")
    } else {
        format!("extension {name}: {}", adopted.join(", "))
    }
}

/// The receiver type of a Kotlin extension (`Point` in `fun
/// Point.scale()`, `Map.Entry` in `fun <K, V> Map.Entry<K, V>.k()`):
/// the type written before the name, its type arguments and `?` left out.
fn kotlin_receiver(core: Node, name: Node, source: &str) -> Option<String> {
    let before_name = named_children(core)
        .into_iter()
        .take_while(|n| n.end_byte() <= name.start_byte());
    let receiver = before_name.filter(|n| n.kind().ends_with("_type")).last()?;
    Some(type_name(receiver, source))
}

/// A type's name without type arguments or nullability: the identifiers
/// of a (possibly nested) user type joined by dots; any other type as
/// written.
fn type_name(node: Node, source: &str) -> String {
    let mut current = node;
    while matches!(current.kind(), "nullable_type" | "parenthesized_type") {
        match current.named_child(0) {
            Some(inner) => current = inner,
            None => break,
        }
    }
    if current.kind() != "user_type" {
        return fold(slice(source, current.byte_range()));
    }
    let parts: Vec<&str> = named_children(current)
        .into_iter()
        .filter(|n| matches!(n.kind(), "identifier" | "type_identifier"))
        .map(|n| slice(source, n.byte_range()))
        .collect();
    if parts.is_empty() {
        fold(slice(source, current.byte_range()))
    } else {
        parts.join(".")
    }
}
