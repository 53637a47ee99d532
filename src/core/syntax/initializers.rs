//! Initializers: before a C/C++ parse, the contents of large brace
//! initializers (`static const T table[] = { ... };`, data tables of
//! thousands of entries, often on one line) are overwritten with spaces.
//! Nothing inside an initializer is a symbol, and tree-sitter's error
//! recovery inside one long line costs more than linear time (a 1.7 MB
//! line of unparsable entries took 5 s in tree-sitter alone); with the
//! braces kept and the contents blank, the parse sees `= {   };`.
//!
//! The scan is linear: each byte is read a bounded number of times, an
//! unclosed initializer ends the search. Blanking keeps the text's length
//! and newlines, so offsets and lines are those of the original.

use super::c_lex::{comment_end, directive_end, line_end, literal_end};

/// Initializers whose contents are longer than this are blanked; smaller
/// ones parse quickly and are left as they are.
pub(super) const MIN_BLANKED: usize = 4096;

/// `source` with the contents of every initializer longer than
/// [`MIN_BLANKED`] blanked, or `None` if there is none.
pub(super) fn blank(source: &str) -> Option<String> {
    let bytes = source.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    // Only blanks since the last line break: a `#` here starts a directive.
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        let was_line_start = line_start;
        line_start = b == b'\n' || (line_start && (b == b' ' || b == b'\t'));
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = comment_end(bytes, i),
            b'"' | b'\'' => i = literal_end(bytes, i),
            b'#' if was_line_start => i = directive_end(bytes, i),
            b'=' if !is_operator_part(bytes, i) => {
                let Some(open) = next_brace(bytes, i + 1) else {
                    i += 1;
                    continue;
                };
                let Some(close) = matching_brace(bytes, open) else {
                    // Unclosed: no later initializer can close either.
                    break;
                };
                if close - open - 1 > MIN_BLANKED {
                    let out = out.get_or_insert_with(|| bytes.to_vec());
                    for b in &mut out[open + 1..close] {
                        if *b != b'\n' && *b != b'\r' {
                            *b = b' ';
                        }
                    }
                }
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes (the braces' contents) became spaces around ASCII
    // braces, so the text is still UTF-8.
    out.and_then(|o| String::from_utf8(o).ok())
}

/// `==`, `<=`, `>=`, `!=` and compound assignments (`+=`) are not an
/// initializer's `=`.
fn is_operator_part(bytes: &[u8], i: usize) -> bool {
    let before = i.checked_sub(1).and_then(|j| bytes.get(j));
    let after = bytes.get(i + 1);
    matches!(
        before,
        Some(b'=' | b'<' | b'>' | b'!' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^')
    ) || after == Some(&b'=')
}

/// The `{` after `=` and whitespace, if that is what follows.
fn next_brace(bytes: &[u8], mut i: usize) -> Option<usize> {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    (bytes.get(i) == Some(&b'{')).then_some(i)
}

/// The index of the `}` closing the `{` at `open`, skipping comments,
/// string and character literals; `None` if it is never closed.
fn matching_brace(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = comment_end(bytes, i),
            b'"' | b'\'' => i = literal_end(bytes, i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(entries: usize) -> String {
        let body: String = (0..entries)
            .map(|i| format!("{{ \"k}}{i}\", {i} }}, "))
            .collect();
        format!(
            "int a = 1;\nstatic const struct e t[] = {{{body}}};\nint f(void) {{ return a == 1; }}\n"
        )
    }

    #[test]
    fn large_initializers_are_blanked_inside_their_braces() {
        let src = table(1000);
        let out = blank(&src).expect("a large initializer");
        assert_eq!(out.len(), src.len());
        let open = src.find("= {").expect("initializer") + 2;
        let close = src.rfind("};").expect("end");
        assert!(out[open + 1..close].bytes().all(|b| b == b' '));
        assert_eq!(out[..=open], src[..=open]);
        assert_eq!(out[close..], src[close..]);
    }

    #[test]
    fn small_unclosed_and_operator_cases_are_left_alone() {
        assert_eq!(blank(&table(10)), None);
        let unclosed = format!("int t[] = {{ {}", "1, ".repeat(3000));
        assert_eq!(blank(&unclosed), None);
        let compare = format!("if (a == {{ {} }}) {{}}", "1, ".repeat(3000));
        assert_eq!(blank(&compare), None);
        let commented = format!("// x = {{ {}\nint y;\n", "1, ".repeat(3000));
        assert_eq!(blank(&commented), None);
    }
}
