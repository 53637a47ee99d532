//! Python's f-strings whose fields are literals (`f"ghp_{'abc'}"`) or
//! names bound to one literal earlier in the text (`a = "abc"` then
//! `f"ghp_{a}"`): read with each field's value in its place. Names are
//! looked up only for an f-string whose own text may hold a secret (a
//! rule's keyword), so ordinary f-strings cost one read of their line.

use std::collections::HashMap;
use std::ops::Range;

use super::Cut;

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Names bound to one literal on a line of their own (`a = "abc"`): by
/// name, where each binding stands and its literal's characters.
pub(super) type Bindings<'t> = HashMap<&'t str, Vec<(usize, Range<usize>)>>;

/// The bindings of `text`, read once.
pub(super) fn bindings(text: &str) -> Bindings<'_> {
    let bytes = text.as_bytes();
    let mut found: Bindings<'_> = HashMap::new();
    let mut start = 0;
    while start < bytes.len() {
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        if let Some((name, value)) = binding(bytes, start, end) {
            found.entry(&text[name]).or_default().push((start, value));
        }
        start = end + 1;
    }
    found
}

/// `name = "literal"` on the line `start..end`: the name's range and the
/// literal's characters'.
fn binding(bytes: &[u8], start: usize, end: usize) -> Option<(Range<usize>, Range<usize>)> {
    let skip = |mut i: usize| {
        while i < end && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    let name_start = skip(start);
    let mut i = name_start;
    while i < end && ident(bytes[i]) {
        i += 1;
    }
    if i == name_start || bytes[name_start].is_ascii_digit() {
        return None;
    }
    let name = name_start..i;
    i = skip(i);
    if bytes.get(i) != Some(&b'=') || bytes.get(i + 1) == Some(&b'=') {
        return None;
    }
    i = skip(i + 1);
    let quote = *bytes.get(i).filter(|b| matches!(b, b'"' | b'\''))?;
    let open = i;
    i += 1;
    while i < end && bytes[i] != quote && bytes[i] != b'\\' {
        i += 1;
    }
    if i >= end || bytes[i] != quote || i == open + 1 {
        return None;
    }
    let rest = &bytes[i + 1..end];
    rest.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b';'))
        .then_some((name, open + 1..i))
}

/// Where the prefix of an f-string whose quote is at `open` starts
/// (`f"`, `rf'`, `Fr"`…), when the quote has one.
pub(super) fn prefix_start(bytes: &[u8], open: usize) -> Option<usize> {
    let prefix = |i: usize| i.checked_sub(1).map(|j| bytes[j].to_ascii_lowercase());
    let start = match (prefix(open), open.checked_sub(1).and_then(prefix)) {
        (Some(b'f'), Some(b'r')) | (Some(b'r'), Some(b'f')) => open - 2,
        (Some(b'f'), _) => open - 1,
        _ => return None,
    };
    (start == 0 || !ident(bytes[start - 1])).then_some(start)
}

/// When the quote at `open` opens an f-string on one line (`f"`, `F'`,
/// `rf"`, `fr"`…): the cuts of its fields that hold a literal or a bound
/// name, each with what stands in its place, and its closing quote.
/// `keep` says whether its text may hold a secret (names are looked up
/// only then); `bound` is filled from `text` the first time it is needed.
pub(super) fn fields_at<'t>(
    text: &'t str,
    open: usize,
    keep: &impl Fn(&str) -> bool,
    bound: &mut Option<Bindings<'t>>,
) -> Option<(Vec<Cut>, usize)> {
    let bytes = text.as_bytes();
    let start = prefix_start(bytes, open)?;
    let quote = bytes[open];
    if bytes.get(open + 1) == Some(&quote) {
        // Empty, or triple-quoted: not read here.
        return None;
    }
    let close = open + 1 + text[open + 1..].find([quote as char, '\n'])?;
    if bytes[close] != quote {
        return None;
    }
    let mut cuts = Vec::new();
    let mut names = Vec::new();
    let mut i = open + 1;
    while i < close {
        match bytes[i] {
            b'{' if bytes[i + 1] == b'{' => i += 2,
            b'{' => {
                let Some(j) = text[i..close].find('}').map(|j| i + j) else {
                    break;
                };
                let field = &bytes[i + 1..j];
                let other = if quote == b'"' { b'\'' } else { b'"' };
                if field.len() >= 3
                    && field[0] == other
                    && field[field.len() - 1] == other
                    && !field[1..field.len() - 1].contains(&other)
                {
                    cuts.push(Cut::removed(i..i + 2));
                    cuts.push(Cut::removed(j - 1..j + 1));
                } else if !field.is_empty() && field.iter().all(|&b| ident(b)) {
                    names.push(i..j + 1);
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    if !names.is_empty() && keep(&text[start..=close]) {
        let bound = bound.get_or_insert_with(|| bindings(text));
        for field in names {
            let name = &text[field.start + 1..field.end - 1];
            let value = bound.get(name).and_then(|at| {
                let before = at.partition_point(|(pos, _)| *pos < start);
                before.checked_sub(1).map(|k| at[k].1.clone())
            });
            if let Some(value) = value {
                cuts.push(Cut {
                    range: field,
                    value: Some(value),
                });
            }
        }
        cuts.sort_by_key(|c| c.range.start);
    }
    (!cuts.is_empty()).then_some((cuts, close))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_names_given_one_literal() {
        let text = "a = \"abc\"\nb = 'de' + x\nc == \"no\"\n  d='fg';\n";
        let found = bindings(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(&text[found["a"][0].1.clone()], "abc");
        assert_eq!(&text[found["d"][0].1.clone()], "fg");
    }

    #[test]
    fn fields_of_literals_and_bound_names_are_cut() {
        let text = "a = \"abc\"\nt = f\"x{a}{'de'}{b}\"\n";
        let open = text.find("f\"").expect("an f-string") + 1;
        let mut bound = None;
        let (cuts, close) = fields_at(text, open, &|_| true, &mut bound).expect("cuts");
        assert_eq!(close, text.len() - 2);
        let ranges: Vec<&str> = cuts.iter().map(|c| &text[c.range.clone()]).collect();
        assert_eq!(ranges, ["{a}", "{'", "'}"]);
        assert_eq!(cuts[0].value.clone().map(|v| &text[v]), Some("abc"));
        // Not wanted: names are not looked up.
        let mut bound = None;
        let (cuts, _) = fields_at(text, open, &|_| false, &mut bound).expect("cuts");
        assert_eq!(cuts.len(), 2);
        assert!(bound.is_none());
        // A plain string, or a name ending in f, is no f-string.
        assert!(fields_at("elf\"{'a'}\"", 3, &|_| true, &mut None).is_none());
    }
}
