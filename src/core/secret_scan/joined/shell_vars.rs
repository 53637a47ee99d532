//! A shell's word made of variables alone (round 24): `P1='ab…'`,
//! `P2='cd…'`, then `export DB_PASSWORD="$P1$P2"` (or `"${P1}${P2}"`, or
//! unquoted after its `=`: `DB_PASSWORD=$P1$P2`, round 25). Each variable
//! bound to a literal before it is cut for that literal's characters, so
//! the copy reads `DB_PASSWORD="ab…cd…"`.

use std::ops::Range;

use super::names::Bindings;
use super::{Cut, bound_before};

/// The most variables one word joins (a longer run is no password).
const MAX_PARTS: usize = 8;

/// The cuts of each quoted word of two variables or more, every one
/// bound to a literal before it. `bound` is read from `text` the first
/// time a word needs it; each value put in is taken from `budget`.
pub(super) fn cuts<'t>(
    text: &'t str,
    bound: &mut Option<Bindings<'t>>,
    budget: &mut usize,
) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let quoted = text.match_indices("\"$").map(|(q, _)| (q, true));
    let bare = text.match_indices("=$").map(|(q, _)| (q, false));
    for (q, in_quotes) in quoted.chain(bare) {
        let Some(parts) = variables(bytes, q + 1, in_quotes) else {
            continue;
        };
        let n = parts.len();
        let mut cuts = Vec::with_capacity(n);
        let mut cost = 0;
        for (range, name) in parts {
            let Some(value) = bound_before(text, bound, &text[name], q) else {
                break;
            };
            cost += value.len();
            cuts.push(Cut {
                range,
                value: Some(value),
                stand_in: None,
            });
        }
        if cuts.len() == n && cost <= *budget {
            *budget -= cost;
            out.append(&mut cuts);
        }
    }
    out
}

/// The variables (`$NAME` or `${NAME}`: each one's range and its name's)
/// that make the word from `start` to its closing `"` (`in_quotes`) or to
/// a blank, `;` or the end (a bare word), when it is two of them or more
/// and nothing else.
fn variables(
    bytes: &[u8],
    start: usize,
    in_quotes: bool,
) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    let mut parts = Vec::new();
    let mut i = start;
    while bytes.get(i) == Some(&b'$') {
        if parts.len() == MAX_PARTS {
            return None;
        }
        let braced = bytes.get(i + 1) == Some(&b'{');
        let from = i + 1 + usize::from(braced);
        let mut to = from;
        while bytes
            .get(to)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
            && to - from < 64
        {
            to += 1;
        }
        if to == from || bytes[from].is_ascii_digit() {
            return None;
        }
        let end = if braced {
            (bytes.get(to) == Some(&b'}')).then_some(to + 1)?
        } else {
            to
        };
        parts.push((i..end, from..to));
        i = end;
    }
    let ends = match bytes.get(i) {
        Some(b'"') => in_quotes,
        Some(b';' | b' ' | b'\t' | b'\r' | b'\n') | None => !in_quotes,
        Some(_) => false,
    };
    (ends && parts.len() >= 2).then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> String {
        let mut bound = None;
        let mut budget = usize::MAX;
        let mut out = text.to_string();
        for c in cuts(text, &mut bound, &mut budget).into_iter().rev() {
            let value = c.value.map(|v| text[v].to_string()).unwrap_or_default();
            out.replace_range(c.range, &value);
        }
        out
    }

    #[test]
    fn variables_bound_to_literals_read_as_their_values() {
        let text = "P1='ab12'\nP2=\"cd34\"\nexport DB_PASSWORD=\"$P1${P2}\"\n";
        assert!(read(text).ends_with("export DB_PASSWORD=\"ab12cd34\"\n"));
        let text = "P1='ab12'\nP2='cd34'\nexport DB_PASSWORD=$P1$P2; run\nX=${P2}$P1";
        assert!(read(text).ends_with("export DB_PASSWORD=ab12cd34; run\nX=cd34ab12"));
    }

    #[test]
    fn a_word_with_other_text_or_an_unbound_name_stays() {
        for text in [
            "P1='ab'\nX=\"$P1\"\n",
            "P1='ab'\nP2='cd'\nX=\"$P1-$P2\"\n",
            "P1='ab'\nX=\"$P1$HOME\"\n",
            "X=\"$P1$P2\"\nP1='ab'\nP2='cd'\n",
            "X=\"$1$2\"\n",
            "P1='ab'\nP2='cd'\nX=$P1$P2/bin\n",
            "P1='ab'\nP2='cd'\nX=$P1$P2\"\n",
            "P1='ab'\nP2='cd'\nX=\"$P1$P2\n",
        ] {
            assert_eq!(read(text), text, "{text}");
        }
    }
}
