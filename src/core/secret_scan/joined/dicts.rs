//! A dict or object of string parts joined by its values (round
//! eighteen): `parts = {"a": "AKIA…", "b": "…"}` then
//! `"".join(parts.values())` (Python), `Object.values(parts).join("")`
//! (JavaScript). Where such a join names a dict bound to literals before
//! it, the dict's values are read as one literal where the dict is
//! written: the text between each value and the next is cut. Each join
//! is found by `.values(` alone, at most [`MAX_JOINS`] of them; a dict is
//! read within [`MAX_DICT`] bytes.

use std::ops::Range;

use super::Cut;

/// How many joins by values are read in one text (each looks back for its
/// dict once).
const MAX_JOINS: usize = 64;

/// The longest dict read, from its `{` to its `}`.
const MAX_DICT: usize = 4 << 10;

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The cuts that read each dict joined by its values as one literal.
pub(super) fn cuts(text: &str) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut names: Vec<(Range<usize>, usize)> = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(".values(") {
        let at = from + i;
        from = at + 1;
        if names.len() >= MAX_JOINS {
            break;
        }
        if let Some(name) = joined_name(bytes, at) {
            names.push((name, at));
        }
    }
    let mut out = Vec::new();
    let mut done: Vec<usize> = Vec::new();
    for (name, at) in names {
        let Some(open) = dict_before(text, &text[name], at) else {
            continue;
        };
        if done.contains(&open) {
            continue;
        }
        done.push(open);
        if let Some(values) = dict_values(bytes, open) {
            out.extend(
                values
                    .windows(2)
                    .map(|pair| Cut::removed(pair[0].end..pair[1].start)),
            );
        }
    }
    out.sort_by_key(|c| c.range.start);
    out
}

/// The name a join by values at `at` (the `.` of `.values(`) reads:
/// `join(NAME.values())`, or `Object.values(NAME).join(`.
fn joined_name(bytes: &[u8], at: usize) -> Option<Range<usize>> {
    let before = |end: usize| {
        let start = bytes[..end]
            .iter()
            .rposition(|&b| !ident(b))
            .map_or(0, |p| p + 1);
        (start < end).then_some(start..end)
    };
    let name = before(at)?;
    if &bytes[name.clone()] == b"Object" {
        // `Object.values(NAME).join(`
        let inner = at + ".values(".len();
        let len = bytes[inner..].iter().position(|&b| !ident(b))?;
        let close = inner + len;
        return (len > 0 && bytes[close..].starts_with(b").join(")).then_some(inner..close);
    }
    let after = at + ".values(".len();
    (bytes[..name.start].ends_with(b"join(") && bytes[after..].starts_with(b"))")).then_some(name)
}

/// Where the dict `name` is bound last before `at` opens (its `{`):
/// `name = {`, after keywords or an annotation on its line
/// (`const parts = {`, `parts: dict[str, str] = {`).
fn dict_before(text: &str, name: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut end = at;
    while let Some(p) = text[..end].rfind(name) {
        end = p;
        let after = p + name.len();
        let bounded = (p == 0 || !ident(bytes[p - 1]) && bytes[p - 1] != b'.')
            && bytes.get(after).is_none_or(|&b| !ident(b));
        if !bounded {
            continue;
        }
        let line_end = text[after..].find('\n').map_or(text.len(), |n| after + n);
        let rest = &text[after..line_end];
        let Some(eq) = rest.find('=') else { continue };
        let annotation = rest[..eq].trim();
        if !(annotation.is_empty() || annotation.starts_with(':')) {
            continue;
        }
        let value = rest[eq + 1..].trim_start();
        if rest[eq + 1..].starts_with('=') || !value.starts_with('{') {
            continue;
        }
        return Some(line_end - value.len());
    }
    None
}

/// The ranges (inside their quotes) of the string values of the dict
/// opening at `open`, when it is `{key: "value", …}` with literal keys or
/// names and two values at least; none else.
fn dict_values(bytes: &[u8], open: usize) -> Option<Vec<Range<usize>>> {
    let end = bytes.len().min(open + MAX_DICT);
    let mut i = open + 1;
    let mut values = Vec::new();
    let skip = |i: &mut usize| {
        while *i < end && bytes[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let literal = |i: &mut usize| -> Option<Range<usize>> {
        let q = *bytes.get(*i)?;
        if !matches!(q, b'"' | b'\'') {
            return None;
        }
        let len = bytes[*i + 1..end]
            .iter()
            .position(|&b| b == q || b == b'\\' || b == b'\n')?;
        let close = *i + 1 + len;
        if bytes[close] != q {
            return None;
        }
        let inside = *i + 1..close;
        *i = close + 1;
        Some(inside)
    };
    loop {
        skip(&mut i);
        if bytes.get(i) == Some(&b'}') {
            return (values.len() >= 2).then_some(values);
        }
        // A key: a literal or a name.
        if literal(&mut i).is_none() {
            let len = bytes[i..end].iter().position(|&b| !ident(b))?;
            if len == 0 {
                return None;
            }
            i += len;
        }
        skip(&mut i);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        skip(&mut i);
        values.push(literal(&mut i)?);
        skip(&mut i);
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b'}') => {}
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text each cut leaves out.
    fn cut_out(text: &str) -> Vec<&str> {
        cuts(text).iter().map(|c| &text[c.range.clone()]).collect()
    }

    #[test]
    fn a_dict_joined_by_its_values_is_cut_between_them() {
        let py = "parts = {\"a\": \"AB\", \"b\": \"CD\", \"c\": \"EF\"}\ntoken = \"\".join(parts.values())\n";
        assert_eq!(cut_out(py), ["\", \"b\": \"", "\", \"c\": \""]);
        let js = "const parts = {\n  a: 'AB',\n  b: 'CD',\n};\nconst t = Object.values(parts).join('');\n";
        assert_eq!(cut_out(js), ["',\n  b: '"]);
        let typed = "parts: dict[str, str] = {'a': 'AB', 'b': 'CD'}\nt = ''.join(parts.values())\n";
        assert_eq!(cuts(typed).len(), 1);
    }

    #[test]
    fn other_dicts_and_calls_are_not_cut() {
        for text in [
            // No join by values.
            "parts = {\"a\": \"AB\", \"b\": \"CD\"}\nprint(parts)\n",
            // A value that is no literal.
            "parts = {\"a\": \"AB\", \"b\": x}\nt = \"\".join(parts.values())\n",
            // The dict is bound after the join, or is another's.
            "t = \"\".join(parts.values())\nparts = {\"a\": \"AB\", \"b\": \"CD\"}\n",
            "other = {\"a\": \"AB\", \"b\": \"CD\"}\nt = \"\".join(parts.values())\n",
            // A comparison, one value, a values() that is no join.
            "parts == {\"a\": \"AB\", \"b\": \"CD\"}\nt = \"\".join(parts.values())\n",
            "parts = {\"a\": \"AB\"}\nt = \"\".join(parts.values())\n",
            "parts = {\"a\": \"AB\", \"b\": \"CD\"}\nfor v in parts.values():\n",
        ] {
            assert!(cuts(text).is_empty(), "{text:?}");
        }
    }
}
