//! The symbol a person means: what `ctxcurate mask`, the MCP `mask` tool
//! and a mask entry accept beside a symbol's exact path. A path follows
//! what people write (`EventLoop::add_watch`, `boolValue.Set`, `noop#2`),
//! but a person may still type it another way: the path a symbol had
//! before (`impl EventLoop::add_watch`, kept in [`Symbol::legacy`]), a Go
//! receiver as written (`(*boolValue).Set`), `.` for `::` or the other way
//! round, or a Rust trait method without its trait (`Point::fmt` for
//! `<Point as Display>::fmt`). Another spelling counts only when it names
//! one symbol alone.

use super::{Symbol, SymbolTree};

/// The symbol `typed` names: its exact path, else the path it had
/// before, else the one symbol another spelling names.
pub(super) fn resolve<'t>(tree: &'t SymbolTree, typed: &str) -> Option<&'t Symbol> {
    let typed = typed.trim();
    if let Some(exact) = tree.find(typed) {
        return Some(exact);
    }
    if let Some(old) = tree.iter().find(|s| s.legacy.as_deref() == Some(typed)) {
        return Some(old);
    }
    // A Go method as declared: `(b *boolValue) Set`.
    let declared = go_declaration(typed);
    let typed = declared.as_deref().unwrap_or(typed);
    if let Some(exact) = tree.find(typed) {
        return Some(exact);
    }
    let loose_typed = loose(typed);
    if loose_typed.is_empty() {
        return None;
    }
    for spelling in [loose, without_trait] {
        let mut matches = tree.iter().filter(|s| spelling(&s.path) == loose_typed);
        if let (Some(one), None) = (matches.next(), matches.next()) {
            return Some(one);
        }
    }
    None
}

/// A Go method written as it is declared, `(b *boolValue) Set` or
/// `(boolValue) Set`, as its path `boolValue.Set`.
fn go_declaration(typed: &str) -> Option<String> {
    let rest = typed.strip_prefix('(')?;
    let (receiver, method) = rest.split_once(')')?;
    let method = method.trim();
    let ty = receiver.split_whitespace().last()?.trim_start_matches('*');
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_');
    (word(method) && word(ty) && receiver.split_whitespace().count() <= 2)
        .then(|| format!("{ty}.{method}"))
}

/// `path` without what people leave out or write either way: `::` read as
/// `.`, a Go receiver's `(*` … `)`, a reference's `&`, spaces; and the
/// `impl ` of an older Rust path's block.
fn loose(path: &str) -> String {
    let path = path.replace("::", ".");
    let segments: Vec<String> = path
        .split('.')
        .map(|segment| {
            let segment = segment.strip_prefix("impl ").unwrap_or(segment);
            segment
                .chars()
                .filter(|c| !matches!(c, '(' | ')' | '*' | '&') && !c.is_whitespace())
                .collect()
        })
        .collect();
    segments.join(".")
}

/// [`loose`] with each Rust `<Type as Trait>` read as `Type` (a trait
/// method as people call it, `Point::fmt`).
fn without_trait(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('<') {
        let Some(close) = matching(&rest[open..]).map(|c| open + c) else {
            break;
        };
        let inner = &rest[open + 1..close];
        match inner.split_once(" as ") {
            Some((ty, _)) if open == 0 || rest[..open].ends_with("::") => {
                out.push_str(&rest[..open]);
                out.push_str(ty);
            }
            _ => out.push_str(&rest[..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    loose(&out)
}

/// The byte of the `>` that closes the `<` `text` starts with.
fn matching(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{loose, without_trait};

    #[test]
    fn a_go_method_as_declared_is_its_path() {
        use super::go_declaration;
        assert_eq!(
            go_declaration("(b *boolValue) Set").as_deref(),
            Some("boolValue.Set")
        );
        assert_eq!(
            go_declaration("(boolValue) Type").as_deref(),
            Some("boolValue.Type")
        );
        assert_eq!(go_declaration("( b  * boolValue ) Set").as_deref(), None);
        assert_eq!(go_declaration("(*boolValue).Set"), None);
        assert_eq!(go_declaration("(a b c) Set"), None);
        assert_eq!(go_declaration("(b *boolValue)"), None);
        assert_eq!(go_declaration("plain"), None);
    }

    #[test]
    fn spellings_people_type() {
        assert_eq!(loose("impl EventLoop::add_watch"), "EventLoop.add_watch");
        assert_eq!(loose("(*boolValue).Set"), "boolValue.Set");
        assert_eq!(loose("EventLoop.add_watch"), loose("EventLoop::add_watch"));
        assert_eq!(without_trait("<Point as Display>::fmt"), "Point.fmt");
        assert_eq!(
            without_trait("<Wrapper<T> as From<Vec<u8>>>::from"),
            "Wrapper<T>.from"
        );
        assert_eq!(without_trait("Vec<u8>::len"), "Vec<u8>.len");
        // Unbalanced: read as it is.
        assert_eq!(
            without_trait("<Point as Display::fmt"),
            "<PointasDisplay.fmt"
        );
    }
}
