//! Names bound to literals in the other ways code spells it (round
//! seventeen), and splits joined through names alone. A binding is read
//! from one line: `name = "…"` after any modifiers and a type (Java's
//! `static final String A = "…";`, C's `const char *a = "…";`, Go's
//! `a := "…"` and `var a string = "…"`), with a type annotation
//! (`a: str = "…"`, Rust's `let a: &str = "…";`), a declaration list
//! (`const a = "…", b = "…";`) and a tuple or destructuring (`a, b = "…",
//! "…"`, `const [a, b] = ["…", "…"];`). A chain of `+` whose operands are
//! bound names and literals, one name at least (`a + b`, `a + "…"`,
//! `"…" + a`), is cut so the copy reads the values joined, each name's
//! value in its place. Each line is tokenised once, at most [`MAX_TOKENS`]
//! tokens; each `+` looks a bounded way either side.

use std::collections::HashMap;
use std::ops::Range;

use super::Cut;

/// The longest literal a name is bound to that is put in place (tokens
/// are far shorter).
const MAX_VALUE: usize = 1 << 10;

/// The longest name read in a chain.
const MAX_NAME: usize = 64;

/// A line with more tokens than this binds nothing (a table, minified
/// code): its cost stays bounded.
const MAX_TOKENS: usize = 64;

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// A token of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(Range<usize>),
    /// A string literal's characters (inside its quotes).
    Str(Range<usize>),
    /// `=` or `:=`.
    Assign,
    /// `==`, `!=`, `<=`, `>=`, `=>`: no binding on this line.
    Compare,
    /// `::` of a path (`std::string`).
    Path,
    Punct(u8),
}

/// The tokens of the line `start..end`, or none when it cannot bind (a
/// literal with an escape or not closed, a template with a field, too
/// many tokens).
fn tokens(bytes: &[u8], start: usize, end: usize) -> Option<Vec<Tok>> {
    let mut toks = Vec::new();
    let mut i = start;
    while i < end {
        let b = bytes[i];
        if toks.len() > MAX_TOKENS {
            return None;
        }
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
        } else if ident(b) {
            let from = i;
            while i < end && ident(bytes[i]) {
                i += 1;
            }
            toks.push(Tok::Word(from..i));
        } else if matches!(b, b'"' | b'\'' | b'`') {
            let Some(close) = bytes[i + 1..end].iter().position(|&c| c == b) else {
                // A quote never closed on the line: Rust's lifetime
                // (`&'static str`), else no binding.
                if b == b'\'' {
                    toks.push(Tok::Punct(b));
                    i += 1;
                    continue;
                }
                return None;
            };
            let close = close + i + 1;
            let inside = &bytes[i + 1..close];
            if inside.contains(&b'\\') || (b == b'`' && inside.windows(2).any(|w| w == b"${")) {
                return None;
            }
            toks.push(Tok::Str(i + 1..close));
            i = close + 1;
        } else {
            let next = bytes.get(i + 1).copied().filter(|_| i + 1 < end);
            let (tok, len) = match (b, next) {
                (b'=', Some(b'=' | b'>')) | (b'!' | b'<' | b'>', Some(b'=')) => (Tok::Compare, 2),
                (b':', Some(b'=')) => (Tok::Assign, 2),
                (b':', Some(b':')) => (Tok::Path, 2),
                (b'=', _) => (Tok::Assign, 1),
                _ => (Tok::Punct(b), 1),
            };
            toks.push(tok);
            i += len;
        }
    }
    Some(toks)
}

/// Names bound to one literal on a line of their own (`a = "abc"`,
/// `const a = "abc";`, PHP's `$a = 'abc';`, and the spellings
/// this module reads): by name, where each binding stands and its
/// literal's characters. A literal longer than 1 KiB binds nothing (a
/// long literal named by many fields would make the copy grow by its
/// length each time).
pub(super) type Bindings<'t> = HashMap<&'t str, Vec<(usize, Range<usize>)>>;

/// The bindings of `text`, read once.
pub(super) fn bindings(text: &str) -> Bindings<'_> {
    let bytes = text.as_bytes();
    let mut found: Bindings<'_> = HashMap::new();
    let mut start = 0;
    while start < bytes.len() {
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let end = statement_end(bytes, start, end);
        for (name, value) in line_bindings(bytes, start, end) {
            found.entry(&text[name]).or_default().push((start, value));
        }
        start = end + 1;
    }
    found
}

/// Where the statement opening on the line `start..end` ends: past the
/// line when it assigns and ends with an opening bracket (a tuple of
/// literals over lines, `a, b = (` then `"…",` lines and `)`), at the line
/// that closes it, within [`MAX_STATEMENT_LINES`] lines and
/// [`MAX_STATEMENT`] bytes (round eighteen); else the line's end.
fn statement_end(bytes: &[u8], start: usize, end: usize) -> usize {
    let line = &bytes[start..end];
    let opens = line
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| matches!(b, b'(' | b'['));
    if !opens || !line.contains(&b'=') {
        return end;
    }
    let mut depth = 0i32;
    let mut lines = 0;
    let limit = bytes.len().min(start + MAX_STATEMENT);
    for (i, &b) in bytes[start..limit].iter().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'\n' => lines += 1,
            _ => {}
        }
        if lines > MAX_STATEMENT_LINES || depth < 0 {
            return end;
        }
        if depth == 0 && start + i >= end {
            let close = start + i;
            return bytes[close..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |n| close + n);
        }
    }
    end
}

/// How many lines a statement read over lines may reach past its first.
const MAX_STATEMENT_LINES: usize = 32;

/// How many bytes a statement read over lines may span.
const MAX_STATEMENT: usize = 4 << 10;

/// The names the line `start..end` binds to one literal each, with the
/// literal's characters.
pub(super) fn line_bindings(
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Vec<(Range<usize>, Range<usize>)> {
    // Cheap refusals first: a binding needs `=` and a quote.
    let line = &bytes[start..end];
    if !line.contains(&b'=') || !line.iter().any(|b| matches!(b, b'"' | b'\'' | b'`')) {
        return Vec::new();
    }
    let Some(toks) = tokens(bytes, start, end) else {
        return Vec::new();
    };
    let Some(at) = toks.iter().position(|t| *t == Tok::Assign) else {
        return Vec::new();
    };
    if toks[..at].contains(&Tok::Compare) {
        return Vec::new();
    }
    let (lhs, mut rhs) = (&toks[..at], &toks[at + 1..]);
    if let Some((Tok::Punct(b';'), rest)) = rhs.split_last() {
        rhs = rest;
    }
    let good = |v: &Range<usize>| !v.is_empty() && v.len() <= MAX_VALUE;
    let mut found = Vec::new();
    // A declaration list: `name = "…", name = "…"`.
    if let (Some(names), [Tok::Str(first), more @ ..]) = (declared(lhs), rhs)
        && let Some(more) = list_pairs(more)
    {
        found.extend(names.into_iter().map(|n| (n, first.clone())));
        found.extend(more);
        found.retain(|(_, v)| good(v));
        return found;
    }
    // A tuple or destructuring: names and literals, as many of each.
    if let (Some(names), Some(values)) = (tuple_names(lhs), tuple_values(rhs))
        && names.len() == values.len()
    {
        found.extend(names.into_iter().zip(values));
        found.retain(|(_, v)| good(v));
    }
    found
}

/// `, name = "…"` pairs to the end, or none when anything else is there.
fn list_pairs(mut toks: &[Tok]) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    let mut pairs = Vec::new();
    loop {
        match toks {
            [] => return Some(pairs),
            [
                Tok::Punct(b','),
                Tok::Word(n),
                Tok::Assign,
                Tok::Str(v),
                rest @ ..,
            ] => {
                pairs.push((n.clone(), v.clone()));
                toks = rest;
            }
            _ => return None,
        }
    }
}

/// The name a declaration's left side binds (the candidates, for Go's
/// `var a string` against C#'s `const string a`): words and a type's
/// marks before it, or a name and its annotation (`a: &'static str`).
fn declared(lhs: &[Tok]) -> Option<Vec<Range<usize>>> {
    if let Some(colon) = lhs.iter().position(|t| *t == Tok::Punct(b':')) {
        // `[kw…] name: type`: words before the name, a type after.
        let (before, ty) = (&lhs[..colon], &lhs[colon + 1..]);
        let Some((Tok::Word(name), kws)) = before.split_last() else {
            return None;
        };
        let type_tok = |t: &Tok| match t {
            Tok::Word(_) | Tok::Path => true,
            Tok::Punct(b) => b"&'<>[]*?|,".contains(b),
            _ => false,
        };
        return (kws.iter().all(|t| matches!(t, Tok::Word(_))) && ty.iter().all(type_tok))
            .then(|| vec![name.clone()]);
    }
    let type_tok = |t: &Tok| match t {
        Tok::Word(_) | Tok::Path => true,
        Tok::Punct(b) => b"&*<>,".contains(b),
        _ => false,
    };
    // A C array's `[]` after the name.
    let lhs = match lhs {
        [rest @ .., Tok::Punct(b'['), Tok::Punct(b']')] => rest,
        _ => lhs,
    };
    let Some((Tok::Word(last), before)) = lhs.split_last() else {
        return None;
    };
    if !before.iter().all(type_tok) || before.contains(&Tok::Punct(b',')) {
        return None;
    }
    let mut names = vec![last.clone()];
    // Go's `var a string`, `const A string`: the word after the keyword.
    if let [Tok::Word(_), Tok::Word(second)] = before {
        names.push(second.clone());
    }
    Some(names)
}

/// The names of a tuple or destructuring left side: `a, b`, `[a, b]`,
/// `(a, b)`, after keywords (`const`, `let`, `var`, Perl's `my`).
fn tuple_names(lhs: &[Tok]) -> Option<Vec<Range<usize>>> {
    let start = lhs.iter().position(|t| !matches!(t, Tok::Word(_)))?;
    // The keywords before a bracket, or none before a bare list.
    let (list, bracket) = match &lhs[start..] {
        [Tok::Punct(o @ (b'[' | b'(')), inner @ .., Tok::Punct(c)]
            if (*o == b'[' && *c == b']') || (*o == b'(' && *c == b')') =>
        {
            (inner, true)
        }
        _ => (&lhs[start.saturating_sub(1)..], false),
    };
    if !bracket && start > 2 {
        return None;
    }
    items(list, |t| match t {
        Tok::Word(n) => Some(n.clone()),
        _ => None,
    })
}

/// The literals of a tuple's right side: `"…", "…"`, in `[]` or `()`.
fn tuple_values(rhs: &[Tok]) -> Option<Vec<Range<usize>>> {
    let list = match rhs {
        // A trailing comma before the close (a tuple over lines).
        [
            Tok::Punct(b'[' | b'('),
            inner @ ..,
            Tok::Punct(b','),
            Tok::Punct(b']' | b')'),
        ] => inner,
        [Tok::Punct(b'[' | b'('), inner @ .., Tok::Punct(b']' | b')')] => inner,
        _ => rhs,
    };
    items(list, |t| match t {
        Tok::Str(v) => Some(v.clone()),
        _ => None,
    })
}

/// Two or more items separated by commas, each one token `item` reads.
fn items(list: &[Tok], item: impl Fn(&Tok) -> Option<Range<usize>>) -> Option<Vec<Range<usize>>> {
    let mut out = Vec::new();
    for (i, tok) in list.iter().enumerate() {
        if i % 2 == 1 {
            if *tok != Tok::Punct(b',') {
                return None;
            }
        } else {
            out.push(item(tok)?);
        }
    }
    (out.len() >= 2 && list.len() % 2 == 1).then_some(out)
}

/// One operand of a `+` chain: a literal (its characters) or a name.
#[derive(Clone)]
enum Operand {
    Literal(Range<usize>),
    Name(Range<usize>),
}

impl Operand {
    /// Its range in the text, quotes included.
    fn span(&self) -> Range<usize> {
        match self {
            Operand::Literal(r) => r.start - 1..r.end + 1,
            Operand::Name(r) => r.clone(),
        }
    }
}

/// The operand that ends just before byte `end` (blanks skipped), on the
/// same line.
fn operand_before(bytes: &[u8], end: usize) -> Option<Operand> {
    let mut i = end;
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let last = *bytes.get(i.checked_sub(1)?)?;
    if matches!(last, b'"' | b'\'') {
        let close = i - 1;
        let open = bytes[..close]
            .iter()
            .rposition(|&b| b == last || b == b'\n')?;
        if bytes[open] != last || bytes[open + 1..close].contains(&b'\\') {
            return None;
        }
        return Some(Operand::Literal(open + 1..close));
    }
    let mut from = i;
    while from > 0 && ident(bytes[from - 1]) && i - from <= MAX_NAME {
        from -= 1;
    }
    let before = from.checked_sub(1).map(|b| bytes[b]);
    (from < i
        && i - from <= MAX_NAME
        && !bytes[from].is_ascii_digit()
        && before.is_none_or(|b| !ident(b) && b != b'.'))
    .then_some(Operand::Name(from..i))
}

/// The operand that starts after byte `start` (blanks skipped), on the
/// same line.
fn operand_after(bytes: &[u8], start: usize) -> Option<Operand> {
    let mut i = start;
    while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        i += 1;
    }
    let first = *bytes.get(i)?;
    if matches!(first, b'"' | b'\'') {
        let close = i
            + 1
            + bytes[i + 1..]
                .iter()
                .position(|&b| b == first || b == b'\n')?;
        if bytes[close] != first || bytes[i + 1..close].contains(&b'\\') {
            return None;
        }
        return Some(Operand::Literal(i + 1..close));
    }
    let mut to = i;
    while to < bytes.len() && ident(bytes[to]) && to - i <= MAX_NAME {
        to += 1;
    }
    let after = bytes.get(to).copied();
    (to > i
        && to - i <= MAX_NAME
        && !first.is_ascii_digit()
        && after.is_none_or(|b| !ident(b) && !matches!(b, b'(' | b'.' | b'[')))
    .then_some(Operand::Name(i..to))
}

/// The cuts that make the copy read each `+` chain of bound names and
/// literals (one name at least) as the literal it builds. `bound` is
/// filled from `text` the first time a chain needs it; each value put in
/// is taken from `budget`.
pub(super) fn chains<'t>(
    text: &'t str,
    bound: &mut Option<Bindings<'t>>,
    budget: &mut usize,
) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut cuts = Vec::new();
    let mut chain: Vec<Operand> = Vec::new();
    for (p, _) in text.match_indices('+') {
        let single = bytes.get(p + 1).is_none_or(|&b| b != b'+' && b != b'=')
            && p.checked_sub(1).is_none_or(|b| bytes[b] != b'+');
        let pair = single
            .then(|| Some((operand_before(bytes, p)?, operand_after(bytes, p + 1)?)))
            .flatten();
        let Some((left, right)) = pair else {
            finish(text, &mut chain, bound, budget, &mut cuts);
            continue;
        };
        let continues = chain.last().is_some_and(|l| l.span() == left.span());
        if !continues {
            finish(text, &mut chain, bound, budget, &mut cuts);
            chain.push(left);
        }
        chain.push(right);
    }
    finish(text, &mut chain, bound, budget, &mut cuts);
    cuts
}

/// The cuts of `chain` (emptied), when it has a name and each name is
/// bound before it and affordable.
fn finish<'t>(
    text: &'t str,
    chain: &mut Vec<Operand>,
    bound: &mut Option<Bindings<'t>>,
    budget: &mut usize,
    cuts: &mut Vec<Cut>,
) {
    let operands = std::mem::take(chain);
    if operands.len() < 2 || !operands.iter().any(|o| matches!(o, Operand::Name(_))) {
        return;
    }
    let at = operands[0].span().start;
    let bound = bound.get_or_insert_with(|| bindings(text));
    // Each operand's characters in the text: a literal's own, a name's
    // bound value's (with the quote that opens or closes the whole).
    let last = operands.len() - 1;
    let mut values = Vec::with_capacity(operands.len());
    for (i, operand) in operands.iter().enumerate() {
        match operand {
            Operand::Literal(r) => values.push(r.clone()),
            Operand::Name(n) => {
                let Some(found) = bound.get(&text[n.clone()]) else {
                    return;
                };
                let before = found.partition_point(|(pos, _)| *pos < at);
                let Some((_, v)) = before.checked_sub(1).map(|b| &found[b]) else {
                    return;
                };
                let v = if i == 0 {
                    v.start - 1..v.end
                } else {
                    v.clone()
                };
                values.push(if i == last { v.start..v.end + 1 } else { v });
            }
        }
    }
    let cost: usize = operands
        .iter()
        .zip(&values)
        .filter(|(o, _)| matches!(o, Operand::Name(_)))
        .map(|(_, v)| v.len())
        .sum();
    if cost > *budget {
        return;
    }
    *budget -= cost;
    for (i, operand) in operands.iter().enumerate() {
        if i > 0 {
            // Between the previous operand's characters and this one's.
            let from = match &operands[i - 1] {
                Operand::Literal(r) => r.end,
                Operand::Name(n) => n.end,
            };
            let to = match operand {
                Operand::Literal(r) => r.start,
                Operand::Name(n) => n.start,
            };
            cuts.push(Cut::removed(from..to));
        }
        if let Operand::Name(n) = operand {
            cuts.push(Cut {
                range: n.clone(),
                value: Some(values[i].clone()),
                stand_in: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(text: &str) -> Vec<(&str, &str)> {
        let b = text.as_bytes();
        line_bindings(b, 0, b.len())
            .into_iter()
            .map(|(n, v)| (&text[n], &text[v]))
            .collect()
    }

    #[test]
    fn bindings_of_many_spellings_are_read() {
        assert_eq!(bound("a := \"x1\""), [("a", "x1")]);
        assert_eq!(bound("static final String A = \"x1\";"), [("A", "x1")]);
        assert_eq!(bound("const char *a = \"x1\";"), [("a", "x1")]);
        assert_eq!(bound("char a[] = \"x1\";"), [("a", "x1")]);
        assert_eq!(bound("let a: &'static str = \"x1\";"), [("a", "x1")]);
        assert_eq!(bound("a: str = 'x1'"), [("a", "x1")]);
        assert_eq!(
            bound("var a string = \"x1\""),
            [("string", "x1"), ("a", "x1")]
        );
        assert_eq!(
            bound("const a = \"x1\", b = 'y2';"),
            [("a", "x1"), ("b", "y2")]
        );
        assert_eq!(bound("a, b = \"x1\", \"y2\""), [("a", "x1"), ("b", "y2")]);
        assert_eq!(
            bound("const [a, b] = [\"x1\", \"y2\"];"),
            [("a", "x1"), ("b", "y2")]
        );
        assert_eq!(
            bound("my ($a, $b) = ('x1', 'y2');"),
            [("$a", "x1"), ("$b", "y2")]
        );
    }

    #[test]
    fn other_lines_bind_nothing() {
        for line in [
            "a == \"x1\"",
            "if a <= b: x = \"y\"",
            "a.b = \"x1\"",
            "a[0] = \"x1\"",
            "f(a) = \"x1\"",
            "a = \"x1\" + b",
            "a, b = \"x1\"",
            "a = \"x\\n\"",
            "a = ``",
            "a = f(\"x1\")",
        ] {
            assert!(bound(line).is_empty(), "{line}: {:?}", bound(line));
        }
    }

    #[test]
    fn chains_put_each_name_in_place() {
        let text = "a = \"AB\"\nb = \"CD\"\nt = a + b + \"EF\"\nu = x.a + b\n";
        let mut budget = 1024;
        let cuts = chains(text, &mut None, &mut budget);
        let shown: Vec<(&str, Option<&str>)> = cuts
            .iter()
            .map(|c| (&text[c.range.clone()], c.value.clone().map(|v| &text[v])))
            .collect();
        assert_eq!(
            shown,
            [
                ("a", Some("\"AB")),
                (" + ", None),
                ("b", Some("CD")),
                (" + \"", None)
            ]
        );
        assert_eq!(budget, 1024 - 5);
        // Unbound names: no cut.
        assert!(chains("t = a + b\n", &mut None, &mut 1024).is_empty());
    }
}
