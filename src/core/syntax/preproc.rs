//! Preprocessor workarounds for parsing C and C++. Tree-sitter sees no
//! preprocessor, so before parsing:
//!
//! - the attribute-like macros listed in `queries/ignored_macros.txt`
//!   (`__THROW`, `__nonnull ((1))`, `_GLIBCXX_NOEXCEPT`, ...) are
//!   overwritten with spaces, like ctags' `-I` (without this a glibc
//!   prototype such as `int f (void) __THROW;` is a syntax error);
//! - if the file still has errors, it is parsed once more with its
//!   conditional directives (`#if`, `#else`, `#endif`, ...) and its lone
//!   macro invocation lines (`DECLARE_OPS(<, less)`) blanked, and the
//!   parse with fewer bytes inside errors wins. That rescues code such as
//!   libstdc++'s `#if ... #else namespace std { ... #endif`, where a block
//!   opens inside a conditional.
//!
//! Blanking keeps the text's length and newlines, so the tree's offsets
//! and lines are those of the original, which is what every view slices.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use tree_sitter::{Node, Tree};

use super::Lang;
use super::lang::parse_tree;

/// The tree of `source` and the text it was parsed from (`source` with
/// workarounds applied; same length, same lines).
pub(super) fn parse(lang: Lang, source: &str) -> Option<(Tree, Cow<'_, str>)> {
    let text = blank_ignored(lang, source);
    let tree = parse_tree(lang, &text)?;
    if lang == Lang::Python || !tree.root_node().has_error() {
        return Some((tree, text));
    }
    let Some(flat) = flatten(&text) else {
        return Some((tree, text));
    };
    match parse_tree(lang, &flat) {
        Some(other) if error_bytes(other.root_node()) < error_bytes(tree.root_node()) => {
            Some((other, Cow::Owned(flat)))
        }
        _ => Some((tree, text)),
    }
}

/// How many bytes lie inside `ERROR` nodes (plus one per missing token).
fn error_bytes(root: Node) -> usize {
    let mut total = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() {
            total += node.byte_range().len();
        } else if node.is_missing() {
            total += 1;
        } else if node.has_error() {
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
        }
    }
    total
}

/// The second attempt's text: `text` with every conditional directive
/// (continuation lines included) and every lone macro invocation line
/// blanked, or `None` if there is neither.
fn flatten(text: &str) -> Option<String> {
    let mut out = text.as_bytes().to_vec();
    let mut changed = false;
    let mut offset = 0;
    let mut continued = false;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let range = offset..offset + line.len();
        offset = range.end;
        let conditional = continued || is_conditional(line);
        continued = conditional && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        let next = lines.peek().copied().unwrap_or("");
        if conditional || is_macro_invocation(line, next) {
            blank(&mut out[range]);
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    String::from_utf8(out).ok()
}

/// `#if`, `#ifdef`, `#ifndef`, `#elif...`, `#else`, `#endif`.
fn is_conditional(line: &str) -> bool {
    const DIRECTIVES: [&str; 8] = [
        "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
    ];
    let Some(directive) = line.trim_start().strip_prefix('#') else {
        return false;
    };
    let word = directive.trim_start();
    let end = word
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(word.len());
    DIRECTIVES.contains(&&word[..end])
}

/// A line that is only `UPPER_CASE_MACRO(...)` (no `;`, no body on the
/// next line), such as libstdc++'s
/// `_VARIANT_RELATION_FUNCTION_TEMPLATE(<, less)`: an expansion that only
/// the preprocessor can read.
fn is_macro_invocation(line: &str, next: &str) -> bool {
    let line = line.trim();
    let Some((name, rest)) = line.split_once('(') else {
        return false;
    };
    let name = name.trim_end();
    let macro_like = name.len() > 1
        && name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    macro_like
        && rest.ends_with(')')
        && rest.matches('(').count() + 1 == rest.matches(')').count()
        && !next.trim_start().starts_with('{')
}

/// How far an ignored macro's argument list may reach (bounds the work on
/// unbalanced garbage).
const MAX_ARGS_LEN: usize = 4096;

/// The ignored macros, each with whether it takes an argument list.
fn ignored() -> &'static HashMap<&'static str, bool> {
    static SET: OnceLock<HashMap<&'static str, bool>> = OnceLock::new();
    SET.get_or_init(|| {
        include_str!("queries/ignored_macros.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| match l.strip_suffix("()") {
                Some(name) => (name, true),
                None => (l, false),
            })
            .collect()
    })
}

/// `source` with every ignored macro blanked (C and C++ only).
pub(super) fn blank_ignored(lang: Lang, source: &str) -> Cow<'_, str> {
    if lang == Lang::Python {
        return Cow::Borrowed(source);
    }
    let bytes = source.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < bytes.len() {
        if is_directive_start(bytes, i) {
            i = directive_end(bytes, i);
            continue;
        }
        if !is_ident(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_ident(bytes[i]) {
            i += 1;
        }
        if bytes[start] != b'_' {
            continue;
        }
        let Some(&takes_args) = source.get(start..i).and_then(|w| ignored().get(w)) else {
            continue;
        };
        let end = if takes_args {
            args_end(bytes, i).unwrap_or(i)
        } else {
            i
        };
        let buf = out.get_or_insert_with(|| bytes.to_vec());
        blank(&mut buf[start..end]);
        i = end;
    }
    match out.map(String::from_utf8) {
        Some(Ok(text)) => Cow::Owned(text),
        _ => Cow::Borrowed(source),
    }
}

/// Whether a preprocessor directive starts at `i`: a `#` with only spaces
/// before it on its line. Directives are left alone (a `#define` of an
/// ignored macro must keep its name).
fn is_directive_start(bytes: &[u8], i: usize) -> bool {
    bytes[i] == b'#'
        && bytes[..i]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|&b| b == b' ' || b == b'\t')
}

/// The end of the directive starting at `i` (continuation lines included).
fn directive_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let before = bytes[..i].iter().rev().find(|&&b| b != b'\r');
            if before != Some(&b'\\') {
                return i + 1;
            }
        }
        i += 1;
    }
    i
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end of a balanced `( ... )` that follows `from` after whitespace.
fn args_end(bytes: &[u8], from: usize) -> Option<usize> {
    let open = from
        + bytes
            .get(from..)?
            .iter()
            .position(|b| !b.is_ascii_whitespace())?;
    if bytes[open] != b'(' {
        return None;
    }
    let mut depth = 0usize;
    for (offset, &b) in bytes[open..].iter().enumerate().take(MAX_ARGS_LEN) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Spaces over everything but line breaks. The blanked range starts and
/// ends on ASCII, so replacing every byte inside keeps the text UTF-8.
fn blank(bytes: &mut [u8]) {
    for b in bytes {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_attribute_macros_and_their_arguments_only() {
        let src = "extern int f (int __x) __THROW __nonnull ((1)) __wur;\nint __THROWX;";
        let attrs = "__THROW __nonnull ((1)) __wur";
        let want = src.replace(attrs, &" ".repeat(attrs.len()));
        assert_eq!(blank_ignored(Lang::C, src), want);
        let multi = "namespace std _GLIBCXX_VISIBILITY(\n  default)\n{";
        let want = format!("namespace std {}\n{}\n{{", " ".repeat(20), " ".repeat(10));
        assert_eq!(blank_ignored(Lang::Cpp, multi), want);
        assert_eq!(blank_ignored(Lang::Python, "__THROW"), "__THROW");
    }

    #[test]
    fn directives_are_left_alone() {
        let src = "# define __wur \\\n  __attribute__ ((x))\nint f(void) __wur;";
        let want = src.replacen("f(void) __wur", "f(void)      ", 1);
        assert_eq!(blank_ignored(Lang::C, src), want);
    }

    #[test]
    fn unbalanced_arguments_blank_only_the_name() {
        let src = "int f() __nonnull ((1);";
        assert_eq!(blank_ignored(Lang::C, src), "int f()           ((1);");
    }
}
