//! The whole shell line a computed argument makes, its computed parts
//! written `$X` (recheck 21, item 2): `"cat #{w} | sh"`, `'cat ' . $w .
//! ' | sh'`. Its written start alone said `cat`, a known program; the
//! whole line shows a shell reading its script on stdin, fed by what is
//! computed, and a program or script written after a computed part.

/// The line `arg` (one argument of a run) makes: its string literals
/// joined by the language's `join` operator (`.` in PHP and Perl, `+`
/// in Ruby, `..` in Lua), each other part `$X`; a double-quoted
/// string's interpolations (`#{…}` in Ruby, `$…` elsewhere, kept as
/// written) are computed too. `None` when `arg` holds no string.
pub(super) fn text(arg: &str, ruby: bool) -> Option<String> {
    let join = if ruby { '+' } else { '.' };
    let mut out = String::new();
    let mut any = false;
    for part in super::super::env_path::split_top(arg, join) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        match body(part) {
            Some((quote, inner)) => {
                any = true;
                match quote == '"' && ruby {
                    true => out.push_str(&without_interpolations(inner)),
                    false => out.push_str(inner),
                }
            }
            None => out.push_str("$X"),
        }
    }
    any.then_some(out)
}

/// A part that is one string literal: its quote and what it holds.
fn body(part: &str) -> Option<(char, &str)> {
    let quote = part.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = part.get(1..)?.strip_suffix(quote)?;
    Some((quote, inner))
}

/// A Ruby string's `#{…}` each made `$X`.
fn without_interpolations(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(at) = rest.find("#{") {
        out.push_str(&rest[..at]);
        out.push_str("$X");
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest[at + 2..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = at + 2 + i + 1;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_parts_are_x() {
        assert_eq!(
            text("\"cat #{w} | sh\"", true).as_deref(),
            Some("cat $X | sh")
        );
        assert_eq!(
            text("'cat ' . $w . ' | sh'", false).as_deref(),
            Some("cat $X | sh")
        );
        assert_eq!(
            text("\"cat $w | sh\"", false).as_deref(),
            Some("cat $w | sh")
        );
        assert_eq!(text("w", true), None);
    }
}
