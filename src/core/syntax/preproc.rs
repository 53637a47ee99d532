//! Preprocessor workarounds for parsing C and C++. Tree-sitter sees no
//! preprocessor, so before parsing:
//!
//! - the attribute-like macros listed in `queries/ignored_macros.txt`
//!   (`__THROW`, `__nonnull ((1))`, `_GLIBCXX_NOEXCEPT`, ...) are
//!   overwritten with spaces, like ctags' `-I` (without this a glibc
//!   prototype such as `int f (void) __THROW;` is a syntax error);
//!   with, beyond the list, the macro shapes of `macros.rs` (`LUA_API
//!   lua_CFunction lua_atpanic (`, `int ZEXPORT deflate OF((...))`);
//! - if the file still has errors, it is parsed once more with its
//!   conditional directives (`#if`, `#else`, `#endif`, ...), its `#if 0`
//!   branches and its lone macro invocation lines (`DECLARE_OPS(<, less)`)
//!   blanked, and the parse with fewer bytes inside errors wins. That
//!   rescues code such as libstdc++'s `#if ... #else namespace std { ...
//!   #endif`, where a block opens inside a conditional, and fmt's base
//!   clause inside `#if ... #endif`. Every other branch is kept: keeping
//!   only the first one (as ctags does) was tried and lost the `#else`
//!   declarations of glibc's headers (`glob64`, `__assert_fail`) for no
//!   gain on the measured projects.
//!
//! Blanking keeps the text's length and newlines, so the tree's offsets
//! and lines are those of the original, which is what every view slices.

use std::borrow::Cow;

use tree_sitter::{Node, Tree};

use super::Lang;
use super::lang::parse_tree;
use super::macros;

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

/// One open conditional while flattening.
struct Frame {
    /// The whole conditional sits in a blanked branch.
    outer_blank: bool,
    /// The current branch is blanked.
    blank: bool,
}

/// A later attempt's text: `text` with every conditional directive
/// (continuation lines included), every `#if 0` branch and every
/// lone macro invocation line blanked, or `None` if there is nothing to
/// blank.
fn flatten(text: &str) -> Option<String> {
    let mut out = text.as_bytes().to_vec();
    let mut changed = false;
    let mut offset = 0;
    let mut continued = false;
    let mut stack: Vec<Frame> = Vec::new();
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let range = offset..offset + line.len();
        offset = range.end;
        let directive = (!continued).then(|| conditional(line)).flatten();
        let conditional = continued || directive.is_some();
        continued = conditional && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        if let Some((word, zero)) = directive {
            enter(&mut stack, word, zero);
        }
        let dropped = stack.last().is_some_and(|f| f.blank);
        let next = lines.peek().copied().unwrap_or("");
        if conditional || dropped || is_macro_invocation(line, next) {
            blank(&mut out[range]);
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    String::from_utf8(out).ok()
}

/// Follow one conditional directive (`word`; `zero` for `#if 0`).
fn enter(stack: &mut Vec<Frame>, word: &str, zero: bool) {
    match word {
        "if" | "ifdef" | "ifndef" => {
            let outer_blank = stack.last().is_some_and(|f| f.blank);
            stack.push(Frame {
                outer_blank,
                blank: outer_blank || zero,
            });
        }
        "endif" => {
            stack.pop();
        }
        _ => {
            if let Some(frame) = stack.last_mut() {
                frame.blank = frame.outer_blank || zero;
            }
        }
    }
}

/// The directive word of a conditional line (`if`, `ifdef`, `elif`,
/// `else`, `endif`, ...) and whether its condition is a literal `0`.
fn conditional(line: &str) -> Option<(&str, bool)> {
    const DIRECTIVES: [&str; 8] = [
        "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
    ];
    let directive = line.trim_start().strip_prefix('#')?;
    let word = directive.trim_start();
    let end = word
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(word.len());
    let (name, rest) = word.split_at(end);
    let zero = matches!(name, "if" | "elif") && rest.trim().trim_matches(['(', ')', ' ']) == "0";
    DIRECTIVES.contains(&name).then_some((name, zero))
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

/// `source` with its macro tokens blanked (C and C++ only; see
/// [`macros`](super::macros)).
pub(super) fn blank_ignored(lang: Lang, source: &str) -> Cow<'_, str> {
    if lang == Lang::Python {
        return Cow::Borrowed(source);
    }
    match macros::blank(source) {
        Some(text) => Cow::Owned(text),
        None => Cow::Borrowed(source),
    }
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
    fn flatten_blanks_directives_and_if_zero_branches_only() {
        let src = "#if A\nint a;\n#else\nint b;\n#endif\n#if 0\n** not C\n#else\nint c;\n#endif\n";
        let flat = flatten(src).expect("directives to blank");
        assert_eq!(flat.len(), src.len());
        let kept: Vec<&str> = flat
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(kept, ["int a;", "int b;", "int c;"]);
        assert_eq!(flatten("int x;\n"), None);
    }

    #[test]
    fn unbalanced_arguments_blank_only_the_name() {
        let src = "int f() __nonnull ((1);";
        assert_eq!(blank_ignored(Lang::C, src), "int f()           ((1);");
    }
}
