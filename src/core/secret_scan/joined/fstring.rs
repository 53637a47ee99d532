//! Python's f-strings and JavaScript's template literals whose fields are
//! literals (`f"ghp_{'abc'}"`, `` `ghp_${"abc"}` ``) or names bound to one
//! literal earlier in the text (`a = "abc"` or `const a = "abc";`, then
//! `f"ghp_{a}"` or `` `ghp_${a}` ``): read with each field's value in its
//! place. A name's value is put in only when the f-string's text, or its
//! text with the values in place, may hold a secret (a rule's keyword):
//! `f"{a}{b}"` making `ghp_…` is read, `f"{host}/{path}"` is not; without
//! a keyword of its own, only an f-string whose name field is glued to
//! another field or a token's character is looked at (a value standing
//! alone is read where it is bound). The bindings are read once per text,
//! the first time a field names one ([`super::names`] reads each line's).

use std::ops::Range;

use super::Cut;
use super::names::{Bindings, bindings};

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where the prefix of an f-string whose quote is at `open` starts
/// (`f"`, `rf'`, `Fr"`…), when the quote has one; or (round seventeen)
/// where a Rust formatting macro whose format string it opens starts
/// (`format!("{a}…")`, `format_args!`), whose `{name}` fields are read
/// as an f-string's.
pub(super) fn prefix_start(bytes: &[u8], open: usize) -> Option<usize> {
    if let Some(start) = macro_start(bytes, open) {
        return Some(start);
    }
    f_prefix_start(bytes, open)
}

/// Where `format!(` or `format_args!(` right before the quote at `open`
/// starts (the quote `"`).
fn macro_start(bytes: &[u8], open: usize) -> Option<usize> {
    if bytes[open] != b'"' {
        return None;
    }
    let before = &bytes[..open];
    [&b"format!("[..], b"format_args!("]
        .into_iter()
        .find(|m| before.ends_with(m))
        .map(|m| open - m.len())
        .filter(|&start| start == 0 || !ident(bytes[start - 1]))
}

/// Where the prefix of an f-string whose quote is at `open` starts.
fn f_prefix_start(bytes: &[u8], open: usize) -> Option<usize> {
    let prefix = |i: usize| i.checked_sub(1).map(|j| bytes[j].to_ascii_lowercase());
    let start = match (prefix(open), open.checked_sub(1).and_then(prefix)) {
        (Some(b'f'), Some(b'r')) | (Some(b'r'), Some(b'f')) => open - 2,
        (Some(b'f'), _) => open - 1,
        _ => return None,
    };
    (start == 0 || !ident(bytes[start - 1])).then_some(start)
}

/// When the quote at `open` opens an f-string on one line (`f"`, `F'`,
/// `rf"`, `fr"`…) or a template literal (`` ` ``, its opening counted by
/// the caller): the cuts of its fields that hold a literal or a bound
/// name, each with what stands in its place, and its closing quote.
/// `keep` says whether a text may hold a secret; `bound` is filled from
/// `text` the first time a field names a binding; `budget` is how many
/// bytes of values may still be put in (each put in is taken from it), so
/// the copy of a hostile text grows by a bounded amount.
pub(super) fn fields_at<'t>(
    text: &'t str,
    open: usize,
    keep: &impl Fn(&str) -> bool,
    bound: &mut Option<Bindings<'t>>,
    budget: &mut usize,
) -> Option<(Vec<Cut>, usize)> {
    let bytes = text.as_bytes();
    let quote = bytes[open];
    let template = quote == b'`';
    let start = if template {
        open
    } else {
        prefix_start(bytes, open)?
    };
    if bytes.get(open + 1) == Some(&quote) {
        // Empty, or triple-quoted: not read here.
        return None;
    }
    let close = open + 1 + text[open + 1..].find([quote as char, '\n'])?;
    if bytes[close] != quote {
        return None;
    }
    // Where a field opens: `{` in an f-string, `${` in a template.
    let opener = usize::from(template) + 1;
    let mut cuts = Vec::new();
    let mut names = Vec::new();
    // Whether a name field touches a token's character or another field
    // (`{a}{b}`, `x{a}`): else its value is read where it is bound.
    let glued_to =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'{' | b'}' | b'$');
    let glues = |b: u8| b != quote && glued_to(b);
    let mut glued = false;
    let mut i = open + 1;
    while i < close {
        let opens = if template {
            bytes[i] == b'$' && bytes[i + 1] == b'{'
        } else {
            bytes[i] == b'{'
        };
        if !opens {
            i += 1;
            continue;
        }
        if !template && bytes[i + 1] == b'{' {
            i += 2;
            continue;
        }
        let Some(j) = text[i..close].find('}').map(|j| i + j) else {
            break;
        };
        let field = &bytes[i + opener..j];
        let literal = field.len() >= 3
            && matches!(field[0], b'"' | b'\'')
            && field[0] != quote
            && field[field.len() - 1] == field[0]
            && !field[1..field.len() - 1].contains(&field[0]);
        if literal {
            cuts.push(Cut::removed(i..i + opener + 1));
            cuts.push(Cut::removed(j - 1..j + 1));
        } else if !field.is_empty() && field.iter().all(|&b| ident(b)) {
            names.push(i..j + 1);
            glued |= glues(bytes[i - 1]) || glues(bytes[j + 1]);
        }
        i = j + 1;
    }
    // Without a keyword of its own, an f-string can make a token only by
    // gluing a name's value to more of it.
    let wanted = !names.is_empty() && keep(&text[start..=close]);
    if wanted || glued {
        let bound = bound.get_or_insert_with(|| bindings(text));
        let mut cost = 0;
        let named: Vec<Cut> = names
            .into_iter()
            .filter_map(|field| {
                let name = &text[field.start + opener..field.end - 1];
                let at = bound.get(name)?;
                let before = at.partition_point(|(pos, _)| *pos < start);
                let value = at[before.checked_sub(1)?].1.clone();
                cost += value.len();
                Some(Cut {
                    range: field,
                    value: Some(value),
                    stand_in: None,
                })
            })
            .collect();
        // What reading the values costs: the copy's growth, and the
        // f-string with them in place when its own text has no keyword.
        let cost = cost + if wanted { 0 } else { close + 1 - start };
        let affordable = !named.is_empty() && cost <= *budget;
        if affordable {
            *budget -= cost;
        }
        if affordable && (wanted || keep(&with_values(text, start..close + 1, &named))) {
            cuts.extend(named);
            cuts.sort_by_key(|c| c.range.start);
        }
    }
    (!cuts.is_empty()).then_some((cuts, close))
}

/// `range` of `text` with the `named` fields (in order, inside it)
/// replaced by their values.
fn with_values(text: &str, range: Range<usize>, named: &[Cut]) -> String {
    let mut out = String::new();
    let mut at = range.start;
    for cut in named {
        out.push_str(&text[at..cut.range.start]);
        if let Some(value) = &cut.value {
            out.push_str(&text[value.clone()]);
        }
        at = cut.range.end;
    }
    out.push_str(&text[at..range.end]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_names_given_one_literal() {
        let text =
            "a = \"abc\"\nb = 'de' + x\nc == \"no\"\n  d='fg';\nconst e = \"hi\";\n$f = 'x';\n";
        let found = bindings(text);
        assert_eq!(found.len(), 4, "{found:?}");
        assert_eq!(&text[found["e"][0].1.clone()], "hi");
        assert_eq!(&text[found["$f"][0].1.clone()], "x");
        assert_eq!(&text[found["a"][0].1.clone()], "abc");
        assert_eq!(&text[found["d"][0].1.clone()], "fg");
    }

    #[test]
    fn fields_of_literals_and_bound_names_are_cut() {
        let text = "a = \"abc\"\nt = f\"x{a}{'de'}{b}\"\n";
        let open = text.find("f\"").expect("an f-string") + 1;
        let mut bound = None;
        let (cuts, close) = fields_at(text, open, &|_| true, &mut bound, &mut 1024).expect("cuts");
        assert_eq!(close, text.len() - 2);
        let ranges: Vec<&str> = cuts.iter().map(|c| &text[c.range.clone()]).collect();
        assert_eq!(ranges, ["{a}", "{'", "'}"]);
        assert_eq!(cuts[0].value.clone().map(|v| &text[v]), Some("abc"));
        // Not wanted: names are not put in.
        let mut bound = None;
        let (cuts, _) = fields_at(text, open, &|_| false, &mut bound, &mut 1024).expect("cuts");
        assert_eq!(cuts.len(), 2);
        // Wanted only with the values in place.
        let mut bound = None;
        let keep = |t: &str| t.contains("xabc");
        let (cuts, _) = fields_at(text, open, &keep, &mut bound, &mut 1024).expect("cuts");
        assert_eq!(cuts.len(), 3);
        // A template literal's fields.
        let text = "const a = 'abc';\nt = `x${a}${\"de\"}`;\n";
        let open = text.find('`').expect("a template");
        let (cuts, _) = fields_at(text, open, &|_| true, &mut None, &mut 1024).expect("cuts");
        let ranges: Vec<&str> = cuts.iter().map(|c| &text[c.range.clone()]).collect();
        assert_eq!(ranges, ["${a}", "${\"", "\"}"]);
        // A plain string, or a name ending in f, is no f-string.
        assert!(fields_at("elf\"{'a'}\"", 3, &|_| true, &mut None, &mut 0).is_none());
    }
}
