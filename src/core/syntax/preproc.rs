//! Preprocessor workarounds for parsing C and C++. Tree-sitter sees no
//! preprocessor, so before parsing:
//!
//! - the contents of large brace initializers are blanked
//!   (`initializers`: no symbol lives there, and a data table on one long
//!   line is where tree-sitter's error recovery costs more than linear
//!   time);
//! - the attribute-like macros listed in `queries/ignored_macros.txt`
//!   (`__THROW`, `__nonnull ((1))`, `_GLIBCXX_NOEXCEPT`, ...) are
//!   overwritten with spaces, like ctags' `-I` (without this a glibc
//!   prototype such as `int f (void) __THROW;` is a syntax error);
//!   with, beyond the list, the macro shapes of `macros.rs` (`LUA_API
//!   lua_CFunction lua_atpanic (`, `int ZEXPORT deflate OF((...))`);
//! - if the file still has errors that can hide a symbol (`errors`), it
//!   is parsed again with its conditional directives (`#if`, `#else`,
//!   `#endif`, ...), its `#if 0` branches and its lone macro invocations
//!   (`DECLARE_OPS(<, less)`, `FMT_TYPE_CONSTANT(int, int_type);`,
//!   curl's `CURLWARNING(name, "message")`) and `#pragma` lines inside a declaration head blanked, once keeping every
//!   other branch and once keeping only the first branch of a conditional
//!   whose branch ends inside a declaration head, as ctags does; the parse with the fewest bytes inside
//!   counted errors wins (the first on a tie). Keeping every branch
//!   rescues code such as libstdc++'s `#if ... #else namespace std { ...
//!   #endif`, where a block opens inside a conditional, fmt's base clause
//!   inside `#if ... #endif`, and keeps the `#else` declarations of
//!   glibc's headers (`glob64`, `__assert_fail`); keeping the first
//!   branch rescues an `#if`/`#else` pair that repeats a declaration head
//!   (nlohmann json's `operator<=>` / `operator<`).
//!
//! Blanking keeps the text's length and newlines, so the tree's offsets
//! and lines are those of the original, which is what every view slices.

use std::borrow::Cow;

use tree_sitter::Tree;

use super::Lang;
use super::branches;
use super::errors;
use super::initializers;
use super::lang::{Budget, parse_tree};
use super::macros::{self, CMacros};

/// The tree of `source` and the text it was parsed from (`source` with
/// workarounds applied; same length, same lines). Every parse spends from
/// `budget`: a retry gets what the first parse left, and a retry stopped
/// keeps the first tree.
pub(super) fn parse<'s>(
    lang: Lang,
    source: &'s str,
    user: &CMacros,
    budget: &mut Budget,
) -> Option<(Tree, Cow<'s, str>)> {
    let text = blank_ignored(lang, source, user, budget);
    let tree = parse_tree(lang, &text, budget)?;
    if lang == Lang::Python {
        return Some((tree, text));
    }
    let mut weight = errors::weight(lang, tree.root_node());
    let mut best = None;
    for branches in [Branches::All, Branches::First] {
        if weight == 0 {
            break;
        }
        let Some(flat) = flatten(&text, branches) else {
            continue;
        };
        let Some(other) = parse_tree(lang, &flat, budget) else {
            continue;
        };
        let other_weight = errors::weight(lang, other.root_node());
        if other_weight < weight {
            weight = other_weight;
            best = Some((other, flat));
        }
    }
    match best {
        Some((other, flat)) => Some((other, Cow::Owned(flat))),
        None => Some((tree, text)),
    }
}

/// Which branches of a conditional a later attempt keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Branches {
    /// Every branch but `#if 0` ones.
    All,
    /// Of a conditional whose kept branch ends inside a declaration head,
    /// only that branch, as ctags does: an `#if`/`#else` pair that repeats
    /// a head (`#if X  auto f() -> A  #else  A f()  #endif  { ... }`)
    /// reads as one head. Other conditionals keep every branch (glibc's
    /// `#else` declarations are real ones).
    First,
}

/// One open conditional while flattening.
struct Frame {
    /// The whole conditional sits in a blanked branch.
    outer_blank: bool,
    /// The current branch is blanked.
    blank: bool,
    /// A branch of this conditional was kept.
    kept: bool,
    /// The kept branch's last line of code ends like an unfinished
    /// declaration head (`... noexcept`, `... const`, `f(int a)`).
    open_head: bool,
}

/// A later attempt's text: `text` with every conditional directive
/// (continuation lines included), the branches `branches` drops and every
/// lone macro invocation (`DECLARE_OPS(<, less)`,
/// `FMT_TYPE_CONSTANT(int, int_type);`) blanked, or `None` if there is
/// nothing to blank.
fn flatten(text: &str, branches: Branches) -> Option<String> {
    let mut out = text.as_bytes().to_vec();
    let mut changed = false;
    let mut offset = 0;
    let mut continued = false;
    let mut invocation_end = 0;
    let mut stack: Vec<Frame> = Vec::new();
    // Whether the last line of code ends inside a declaration head.
    let mut head_open = false;
    // Whether the line before was a directive continued on this one.
    let mut in_directive = false;
    // Whether a block comment is open where the line starts: a `# endif`
    // or `# if x */` there is comment, and blanking it took the `*/` that
    // closed it (fuzzing, session 26: the next `#define` sank into it).
    let mut in_comment = false;
    for line in text.split_inclusive('\n') {
        let range = offset..offset + line.len();
        offset = range.end;
        let commented = in_comment;
        in_comment = comment_open_after(line, in_comment);
        // A directive (`# define DbMaskNonZero(M) (...)`) is no code: it
        // ends no declaration head.
        let directive_line = commented || in_directive || line.trim_start().starts_with('#');
        in_directive =
            !commented && directive_line && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        let directive = (!continued && !commented)
            .then(|| conditional(line))
            .flatten();
        // `#pragma` lines inside a declaration head go too (zstd.h's
        // `static` ... `#pragma clang diagnostic push` ... `ZSTD_customMem
        // const ZSTD_defaultCMem = ...`).
        let pragma = !continued && !commented && head_open && is_pragma(line);
        let conditional = continued || directive.is_some() || pragma;
        continued = conditional && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        if let Some((word, zero)) = directive {
            enter(&mut stack, word, zero, branches);
        }
        let dropped = stack.last().is_some_and(|f| f.blank);
        if !directive_line
            && !dropped
            && let Some(last) = last_code_byte(line)
        {
            head_open = last.is_ascii_alphanumeric() || matches!(last, b'_' | b')');
        }
        if !directive_line
            && !dropped
            && let Some(frame) = stack.last_mut()
            && let Some(last) = last_code_byte(line)
        {
            frame.open_head = last.is_ascii_alphanumeric() || matches!(last, b'_' | b')');
        }
        if !conditional && !dropped && range.start >= invocation_end {
            invocation_end = macro_invocation(text, range.start).unwrap_or(0);
        }
        if conditional || dropped || range.start < invocation_end {
            let to = if conditional {
                // A block comment opened on a directive line runs on
                // below it: its opening stays.
                open_comment(line).map_or(range.end, |at| range.start + at)
            } else if dropped {
                range.end
            } else {
                range.end.min(invocation_end)
            };
            blank(&mut out[range.start..to]);
            // `FMT_THROW(error);` stays a statement: an empty one.
            if !conditional && !dropped && to == invocation_end && text.as_bytes()[to - 1] == b';' {
                out[to - 1] = b';';
            }
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    String::from_utf8(out).ok()
}

/// The last byte of code on `line` (comments after `//` or `/*` cut off,
/// roughly: this only tells whether a declaration head continues).
fn last_code_byte(line: &str) -> Option<u8> {
    let cut = [line.find("//"), line.find("/*")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    line[..cut].trim_end().bytes().last()
}

/// Whether a block comment is open at the end of `line`, given whether
/// one was at its start (`//` comments and string literals are skipped,
/// roughly: a quote inside a comment is the comment's).
fn comment_open_after(line: &str, mut open: bool) -> bool {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let next = bytes.get(i + 1).copied();
        match (open, quote, bytes[i], next) {
            (true, _, b'*', Some(b'/')) => {
                open = false;
                i += 2;
                continue;
            }
            (true, _, _, _) => {}
            (false, Some(_), b'\\', _) => i += 1,
            (false, Some(q), c, _) if c == q => quote = None,
            (false, Some(_), _, _) => {}
            (false, None, b'/', Some(b'*')) => {
                open = true;
                i += 2;
                continue;
            }
            (false, None, b'/', Some(b'/')) => return false,
            (false, None, b'"' | b'\'', _) => quote = Some(bytes[i]),
            _ => {}
        }
        i += 1;
    }
    open
}

/// Where a block comment that is still open at the end of `line` starts.
fn open_comment(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut open = None;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (open, bytes[i], bytes[i + 1]) {
            (None, b'/', b'*') => {
                open = Some(i);
                i += 2;
            }
            (Some(_), b'*', b'/') => {
                open = None;
                i += 2;
            }
            (None, b'/', b'/') => return None,
            _ => i += 1,
        }
    }
    open
}

/// Follow one conditional directive (`word`; `zero` for `#if 0`).
fn enter(stack: &mut Vec<Frame>, word: &str, zero: bool, branches: Branches) {
    match word {
        "if" | "ifdef" | "ifndef" => {
            let outer_blank = stack.last().is_some_and(|f| f.blank);
            let blank = outer_blank || zero;
            stack.push(Frame {
                outer_blank,
                blank,
                kept: !blank,
                open_head: false,
            });
        }
        "endif" => {
            stack.pop();
        }
        _ => {
            if let Some(frame) = stack.last_mut() {
                let taken = branches == Branches::First && frame.kept && frame.open_head;
                frame.blank = frame.outer_blank || zero || taken;
                frame.kept |= !frame.blank;
            }
        }
    }
}

/// Whether `line` is a `#pragma` directive.
fn is_pragma(line: &str) -> bool {
    line.trim_start().strip_prefix('#').is_some_and(|d| {
        d.trim_start()
            .strip_prefix("pragma")
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    })
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

/// The end of a macro invocation standing alone at `start`, a line's
/// start: `UPPER_CASE_MACRO(...)` with an optional `;`, its arguments
/// possibly over several lines, nothing after it on its last line and
/// neither a body (`{`) nor (without `;`) a declarator after it, such as libstdc++'s
/// `_VARIANT_RELATION_FUNCTION_TEMPLATE(<, less)`, fmt's
/// `FMT_TYPE_CONSTANT(int, int_type);` or curl's `CURLWARNING(name,
/// "message")`: an expansion that only the preprocessor can read.
fn macro_invocation(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let lead = bytes
        .get(start..)?
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let name_start = start + lead;
    let name_len = bytes[name_start..]
        .iter()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
        .count();
    let name = text.get(name_start..name_start + name_len)?;
    let macro_like =
        name.len() > 1 && name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_');
    if !macro_like {
        return None;
    }
    let mut i = name_start + name_len;
    while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    let close = closing_paren(bytes, i)?;
    let mut end = close;
    if bytes.get(end) == Some(&b';') {
        end += 1;
    }
    let rest_of_line = &text[end..text[end..].find('\n').map_or(text.len(), |p| end + p)];
    let rest = rest_of_line.trim();
    if !(rest.is_empty() || rest.starts_with("//")) {
        return None;
    }
    let after = text[end..].trim_start();
    if after.starts_with('{') {
        return None;
    }
    // Without a `;`, an expansion whose argument reads as a type may be a
    // declaration's type, its declarator on the next line (libyaml's
    // `YAML_DECLARE(const char *)` then `yaml_get_version_string(void);`);
    // attribute-like ones (`FMT_MSC_WARNING(suppress : 26495)`,
    // `JSON_HEDLEY_DEPRECATED_FOR(3.0.0, f())`) go.
    let argument = text.get(i + 1..close - 1).unwrap_or("");
    let type_like = !argument.trim().is_empty()
        && argument
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b"_ *&:<>".contains(&b));
    // A declarator is a name and its parameters (`yaml_f(void);`), not
    // another invocation (`MAP_HANDLER(BYTES)`) or a declaration with its
    // own type (`const std::string& name() const;`).
    let word_len = after
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let word = &after[..word_len];
    let declarator_follows = after.starts_with(['*', '('])
        || (word_len > 0
            && !word.starts_with(|c: char| c.is_ascii_digit())
            && !is_caps_word(word)
            && after[word_len..].trim_start().starts_with('('));
    let typed = bytes[end - 1] != b';' && type_like && declarator_follows;
    (!typed).then_some(end)
}

/// `ALL_CAPS` (a macro's name, by convention).
fn is_caps_word(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_uppercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// The index after the `)` closing the `(` at `open`, within a bounded
/// reach and outside string literals.
fn closing_paren(bytes: &[u8], open: usize) -> Option<usize> {
    const REACH: usize = 4096;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (offset, &b) in bytes.get(open..)?.iter().enumerate().take(REACH) {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                b'\n' => return None,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(open + offset + 1);
                }
            }
            b'{' | b'}' | b'#' => return None,
            _ => {}
        }
    }
    None
}

/// `source` with its large initializers' contents and its macro tokens
/// blanked (C and C++ only; see [`initializers`](super::initializers) and
/// [`macros`](super::macros)).
pub(super) fn blank_ignored<'s>(
    lang: Lang,
    source: &'s str,
    user: &CMacros,
    budget: &mut Budget,
) -> Cow<'s, str> {
    if lang == Lang::Python {
        return Cow::Borrowed(source);
    }
    let light = initializers::blank(source);
    let text = light.as_deref().unwrap_or(source);
    let text = match (macros::blank(text, user, budget), light) {
        (Some(text), _) | (None, Some(text)) => Cow::Owned(text),
        (None, None) => Cow::Borrowed(source),
    };
    match branches::reconcile(&text) {
        Some(reconciled) => Cow::Owned(reconciled),
        None => text,
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

    fn budget() -> Budget {
        Budget::for_len(0)
    }

    #[test]
    fn blanks_attribute_macros_and_their_arguments_only() {
        let src = "extern int f (int __x) __THROW __nonnull ((1)) __wur;\nint __THROWX;";
        let attrs = "__THROW __nonnull ((1)) __wur";
        let want = src.replace(attrs, &" ".repeat(attrs.len()));
        assert_eq!(
            blank_ignored(Lang::C, src, &CMacros::default(), &mut budget()),
            want
        );
        let multi = "namespace std _GLIBCXX_VISIBILITY(\n  default)\n{";
        let want = format!("namespace std {}\n{}\n{{", " ".repeat(20), " ".repeat(10));
        assert_eq!(
            blank_ignored(Lang::Cpp, multi, &CMacros::default(), &mut budget()),
            want
        );
        assert_eq!(
            blank_ignored(Lang::Python, "__THROW", &CMacros::default(), &mut budget()),
            "__THROW"
        );
    }

    #[test]
    fn directives_are_left_alone() {
        let src = "# define __wur \\\n  __attribute__ ((x))\nint f(void) __wur;";
        let want = src.replacen("f(void) __wur", "f(void)      ", 1);
        assert_eq!(
            blank_ignored(Lang::C, src, &CMacros::default(), &mut budget()),
            want
        );
    }

    #[test]
    fn directive_shaped_lines_inside_a_block_comment_are_comment() {
        // Fuzzing, session 26: `# if c */` closed the comment; blanked as
        // a directive, the comment ran on over `#define C`.
        let text = "#ifndef X\n#define A 0 /* a\n# endif\n# define B\n# endif\n# if c */\n\
                    #define C 1 /* d */\nint x;\n";
        for branches in [Branches::All, Branches::First] {
            if let Some(flat) = flatten(text, branches) {
                assert!(flat.contains("# if c */"), "{flat}");
                assert!(flat.contains("# endif\n# define B\n# endif"), "{flat}");
            }
        }
        assert!(comment_open_after("int a; /* x", false));
        assert!(!comment_open_after("x */ int b;", true));
        assert!(!comment_open_after("s = \"/*\"; // /*", false));
        assert!(comment_open_after("still inside", true));
    }

    #[test]
    fn flatten_blanks_directives_and_if_zero_branches_only() {
        let src = "#if A\nint a;\n#else\nint b;\n#endif\n#if 0\n** not C\n#else\nint c;\n#endif\n";
        let kept = |branches| {
            let flat = flatten(src, branches).expect("directives to blank");
            assert_eq!(flat.len(), src.len());
            flat.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(kept(Branches::All), ["int a;", "int b;", "int c;"]);
        assert_eq!(kept(Branches::First), ["int a;", "int b;", "int c;"]);
        let heads = "#if A\nauto f() noexcept -> R // note\n#else\nR f() noexcept\n#endif\n{ }\n";
        let flat = flatten(heads, Branches::First).expect("directives to blank");
        let kept: Vec<&str> = flat
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(kept, ["auto f() noexcept -> R // note", "{ }"]);
        assert_eq!(flatten("int x;\n", Branches::All), None);
    }

    #[test]
    fn first_branch_keeps_one_of_nested_and_elif_branches() {
        let src = "#ifdef A\n#if B\nint b(int x)\n#elif C\nint c(int x)\n#endif\n{}\n#elif D\nint d;\n#else\nint e;\n#endif\n";
        let flat = flatten(src, Branches::First).expect("directives to blank");
        let kept: Vec<&str> = flat.split_whitespace().collect();
        assert_eq!(kept, ["int", "b(int", "x)", "{}", "int", "d;", "int", "e;"]);
    }

    #[test]
    fn lone_macro_invocations_are_blanked_over_lines() {
        let src = "FMT_TYPE_CONSTANT(int, int_type);\nCURLWARNING(_w,\n  \"a (message\")\nCURLWARNING(_v, \"b\")\n#define X\nint f(void);\nFOO(x)\n{ body }\nDECLARE(const char *)\nyaml_f(void);\n";
        let flat = flatten(src, Branches::All).expect("invocations to blank");
        assert_eq!(flat.len(), src.len());
        let kept: Vec<&str> = flat
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(
            kept,
            [
                ";",
                "#define X",
                "int f(void);",
                "FOO(x)",
                "{ body }",
                "DECLARE(const char *)",
                "yaml_f(void);"
            ]
        );
    }

    #[test]
    fn unbalanced_arguments_blank_only_the_name() {
        let src = "int f() __nonnull ((1);";
        assert_eq!(
            blank_ignored(Lang::C, src, &CMacros::default(), &mut budget()),
            "int f()           ((1);"
        );
    }
}
