//! Branches: the C/C++ pre-pass step that reconciles a conditional whose
//! branches open or close braces (`#ifdef X` / `int f(int a) {` / `#else`
//! / `int f(void) {` / `#endif`). Tree-sitter reads every branch, so such
//! a conditional opens two blocks and the rest of the file sinks into the
//! first function, silently. Like ctags, which follows the first branch
//! for braces, only the first live branch (not `#if 0`) of such a
//! conditional is kept: its directive lines and its other branches are
//! blanked. Conditionals whose branches are all balanced are left alone
//! (glibc's `#else` declarations are real ones); the later attempts of
//! `preproc` still flatten them when the parse has errors.
//!
//! Blanking keeps the text's length and newlines, so offsets and lines
//! are those of the original.

use std::ops::Range;

/// One branch of an open conditional.
struct Branch {
    /// The line index of the directive that opens it.
    directive: usize,
    /// `#if 0` / `#elif 0`: dead code, never the kept branch.
    zero: bool,
    /// Read only by a documentation build (`#ifdef EIGEN_PARSED_BY_DOXYGEN`,
    /// the `#else` of `#ifndef ..._DOXYGEN`): stand-ins, never kept.
    doc: bool,
    /// Braces opened minus braces closed inside it.
    delta: i64,
    /// The lowest `delta` reached: below zero, the branch closes a block
    /// it did not open (glog's `} // namespace google` ... `namespace
    /// google {` inside one `#if`).
    low: i64,
    /// Its last line of code ends inside a declaration head (`class A :
    /// public B<A>`), not with `;`, `{` or `}`.
    open_end: bool,
}

/// One open conditional.
#[derive(Default)]
struct Conditional {
    branches: Vec<Branch>,
    /// The current branch is the one a documentation build skips
    /// (`#ifndef EIGEN_PARSED_BY_DOXYGEN`).
    not_doc: bool,
}

/// `text` with every conditional whose branches leave braces unbalanced
/// reduced to its first live branch, or `None` when there is none.
pub(super) fn reconcile(text: &str) -> Option<String> {
    let lines: Vec<Range<usize>> = line_ranges(text);
    let mut stack: Vec<Conditional> = Vec::new();
    // Line ranges (by index, end exclusive) to blank.
    let mut dropped: Vec<Range<usize>> = Vec::new();
    let mut in_comment = false;
    let mut continued = false;
    for (index, range) in lines.iter().enumerate() {
        let line = &text[range.clone()];
        let directive = (!continued && !in_comment)
            .then(|| directive(line))
            .flatten();
        let is_directive = continued || directive.is_some() || is_any_directive(line, continued);
        continued = is_directive && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        if let Some((word, zero)) = directive {
            let documented = documented(line);
            match word {
                "if" | "ifdef" | "ifndef" => stack.push(Conditional {
                    branches: vec![Branch {
                        directive: index,
                        zero,
                        doc: documented == Some(true),
                        delta: 0,
                        low: 0,
                        open_end: false,
                    }],
                    not_doc: documented == Some(false),
                }),
                "endif" => {
                    let Some(done) = stack.pop() else {
                        continue;
                    };
                    let delta = settle(done, index, &mut dropped);
                    add(&mut stack, delta);
                }
                _ => {
                    if let Some(open) = stack.last_mut() {
                        // `#else` after `#ifndef ..._DOXYGEN` is the
                        // documentation's.
                        let doc = documented == Some(true) || (word == "else" && open.not_doc);
                        open.not_doc = documented == Some(false);
                        open.branches.push(Branch {
                            directive: index,
                            zero,
                            doc,
                            delta: 0,
                            low: 0,
                            open_end: false,
                        });
                    }
                }
            }
            continue;
        }
        if is_directive {
            continue;
        }
        let commented = in_comment;
        let delta = braces(line, &mut in_comment);
        add(&mut stack, delta);
        let code = line.split("//").next().unwrap_or("").trim();
        let comment = commented || code.starts_with("/*") || code.ends_with("*/");
        if !code.is_empty()
            && !comment
            && let Some(branch) = stack.last_mut().and_then(|c| c.branches.last_mut())
        {
            branch.open_end = !code.ends_with([';', '{', '}']);
        }
    }
    if dropped.is_empty() {
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    for span in dropped {
        let (Some(first), Some(last)) = (lines.get(span.start), lines.get(span.end - 1)) else {
            continue;
        };
        for b in &mut out[first.start..last.end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Add `delta` to the current branch of the innermost open conditional.
fn add(stack: &mut [Conditional], delta: i64) {
    if let Some(branch) = stack.last_mut().and_then(|c| c.branches.last_mut()) {
        branch.delta += delta;
        branch.low = branch.low.min(branch.delta);
    }
}

/// Close a conditional at its `#endif` line `endif`: when it has several
/// branches and one leaves braces unbalanced, record the lines to blank
/// (every directive line and every branch but the first live one). The
/// braces it leaves open, as the enclosing branch sees them.
fn settle(done: Conditional, endif: usize, dropped: &mut Vec<Range<usize>>) -> i64 {
    let unbalanced = done.branches.iter().any(|b| b.delta != 0);
    // A branch that closes a block it did not open and opens one again
    // (`} ... namespace google {`): tree-sitter cannot read it inside a
    // conditional; its directive lines go, as for an unbalanced one.
    let reopens = done.branches.iter().any(|b| b.low < 0 && b.delta >= 0);
    // A documentation branch is dropped where it repeats a declaration
    // head (`#ifndef X_DOXYGEN class A : B<A> #else class A : Doc #endif
    // {`), not where it completes one (`struct evbuffer #ifdef
    // EVENT_IN_DOXYGEN_ {} #endif;`, which ctags reads).
    let doc = done.branches.iter().any(|b| b.doc) && done.branches.iter().any(|b| b.open_end);
    if !doc && !reopens && (done.branches.len() < 2 || !unbalanced) {
        return done.branches.iter().map(|b| b.delta).sum();
    }
    let kept = done.branches.iter().position(|b| !b.zero && !b.doc);
    let mut delta = 0;
    for (i, branch) in done.branches.iter().enumerate() {
        let end = done
            .branches
            .get(i + 1)
            .map_or(endif, |next| next.directive);
        if Some(i) == kept {
            // Only the directive line goes.
            dropped.push(branch.directive..branch.directive + 1);
            delta = branch.delta;
        } else {
            dropped.push(branch.directive..end);
        }
    }
    dropped.push(endif..endif + 1);
    delta
}

/// Whether a conditional directive line asks for a documentation build
/// alone (`#ifdef EIGEN_PARSED_BY_DOXYGEN`, `#if defined(DOXYGEN)`:
/// `Some(true)`) or for anything but one (`#ifndef ..._DOXYGEN`, `#if
/// !defined(DOXYGEN)`: `Some(false)`); `None` for other conditions.
fn documented(line: &str) -> Option<bool> {
    let word = line.trim_start().strip_prefix('#')?.trim_start();
    let end = word
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(word.len());
    let (name, rest) = word.split_at(end);
    let rest = rest.split("//").next().unwrap_or("");
    if !super::defines::documentation(rest) {
        return None;
    }
    let words: Vec<&str> = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let alone = matches!(words.as_slice(), [_] | ["defined", _]);
    let negated = rest.trim_start().starts_with('!');
    match name {
        _ if !alone => None,
        "ifdef" | "elifdef" => Some(true),
        "ifndef" | "elifndef" => Some(false),
        "if" | "elif" => Some(!negated),
        _ => None,
    }
}

/// The byte range of each line, line break included.
fn line_ranges(text: &str) -> Vec<Range<usize>> {
    let mut offset = 0;
    text.split_inclusive('\n')
        .map(|line| {
            let range = offset..offset + line.len();
            offset = range.end;
            range
        })
        .collect()
}

/// Whether `line` is a directive line of any kind (`#define`, `#include`).
fn is_any_directive(line: &str, continued: bool) -> bool {
    continued || line.trim_start().starts_with('#')
}

/// The word of a conditional directive (`if`, `ifdef`, `elif`, `else`,
/// `endif`, ...) and whether its condition is a literal `0`.
fn directive(line: &str) -> Option<(&str, bool)> {
    const WORDS: [&str; 8] = [
        "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
    ];
    let word = line.trim_start().strip_prefix('#')?.trim_start();
    let end = word
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(word.len());
    let (name, rest) = word.split_at(end);
    let zero = matches!(name, "if" | "elif") && rest.trim().trim_matches(['(', ')', ' ']) == "0";
    WORDS.contains(&name).then_some((name, zero))
}

/// Braces opened minus closed on a line of code, outside comments,
/// strings and character literals; `in_comment` carries a block comment
/// over lines.
fn braces(line: &str, in_comment: &mut bool) -> i64 {
    let bytes = line.as_bytes();
    let mut delta = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if *in_comment {
            if b == b'*' && bytes.get(i + 1) == Some(&b'/') {
                *in_comment = false;
                i += 1;
            }
            i += 1;
            continue;
        }
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => break,
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                *in_comment = true;
                i += 1;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => delta += 1,
            b'}' => delta -= 1,
            _ => {}
        }
        i += 1;
    }
    delta
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str) -> Vec<String> {
        let out = reconcile(text).unwrap_or_else(|| text.to_string());
        assert_eq!(out.len(), text.len());
        out.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn a_head_repeated_across_branches_keeps_the_first() {
        let src = "#ifdef X\nint f(int a) {\n#else\nint f(void) {\n#endif\n  return 0;\n}\n";
        assert_eq!(kept(src), ["int f(int a) {", "return 0;", "}"]);
    }

    #[test]
    fn balanced_and_single_branch_conditionals_stay() {
        let src = "#if A\nint a;\n#else\nint b;\n#endif\n#ifdef C\nextern \"C\" {\n#endif\n";
        assert_eq!(reconcile(src), None);
    }

    #[test]
    fn documentation_branches_are_dropped() {
        let src = "#ifndef X_PARSED_BY_DOXYGEN\nclass A : public B<A>\n#else\nclass A : public Doc\n#endif\n{};\n#ifdef __DOXYGEN__\nvoid doc_only();\n#endif\n#if defined(DOXYGEN)\nclass C\n#else\nclass C : D\n#endif\n{};\n";
        assert_eq!(
            kept(src),
            [
                "class A : public B<A>",
                "{};",
                "#ifdef __DOXYGEN__",
                "void doc_only();",
                "#endif",
                "class C : D",
                "{};"
            ]
        );
        let completes = "struct evbuffer\n#ifdef EVENT_IN_DOXYGEN_\n{}\n#endif\n;\n";
        assert_eq!(reconcile(completes), None);
    }

    #[test]
    fn a_branch_that_closes_a_block_and_opens_it_again_loses_its_directives() {
        // glog's logging.h: the namespace is closed for an `extern "C"`
        // declaration and opened again, inside one `#if`.
        let src = "namespace google {\n#if defined(TSAN)\n} // namespace google\nextern \"C\" void f();\nnamespace google {\n#endif\nvoid g();\n}\n";
        assert_eq!(
            kept(src),
            [
                "namespace google {",
                "} // namespace google",
                "extern \"C\" void f();",
                "namespace google {",
                "void g();",
                "}"
            ]
        );
        // Closing without opening again (`#ifdef __cplusplus` `}`) stays.
        let src = "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n";
        assert_eq!(reconcile(src), None);
    }

    #[test]
    fn dead_first_branches_nesting_and_comments() {
        let src = "#if 0\nvoid old() {\n#elif defined(B)\nvoid f() { // }\n#if Y\n{\n#else\n{\n#endif\n#else\n/* { */ void g() {\n#endif\n}\n}\n";
        assert_eq!(kept(src), ["void f() { // }", "{", "}", "}"]);
    }
}
