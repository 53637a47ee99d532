//! String literals joined by concatenation, read as the one value they
//! make: `"ghp_abc" + "def…"`, PHP's `.`, Lua's `..`, VB's `&`, Python's
//! and C's implicit concatenation (`("correct horse " "battery staple")`),
//! SQL's `||`, JavaScript's template literals (`` `ab` + `cd` ``: an
//! operator needed), and either continued on the next line (`+ \` or VB's
//! ` _` and a newline, an operator ending or opening a line, a
//! parenthesised literal per line); a name built by `+=` or `.=`, the
//! literal arguments of `concat(…)` and `"".join([…])`, a split through
//! one name bound to a literal (`"ab" + x + "cd"`) ([`calls`]),
//! f-strings and template literals whose fields are literals or names
//! bound to one ([`fstring`]), and `+` chains of bound names (`a + b`,
//! `a + "…"`, [`names`], which also reads the bindings' many spellings),
//! a shell's `"$A$B"` ([`shell_vars`]),
//! and a dict of literals joined by its values ([`dicts`]). A secret split
//! so matches no rule in its pieces.
//!
//! A join is a closing quote, blanks with at most one operator and at most
//! one newline (after an optional `\` or `_`), and an opening quote of the
//! same kind; the first quote must close a literal (an odd count of its
//! kind on its line before it), so `x = " "` is one literal, not a join.
//! The lines holding joins are copied with the joins cut out, one group
//! after another, and [`RuleSet::scan`](super::RuleSet::scan) reads the
//! copy; a group is kept only when a rule could see something there: its
//! copy holds one of the rules' keywords, or a run of a token's characters
//! ([`RUN`] at least) goes across one of its cuts (a split Twilio key, a
//! Discord token, a key body: shapes with no keyword of their own). A hit
//! counts when its secret spans a cut, and is placed back on the text.
//! Each byte of the text is read a bounded number of times, so the pass is
//! linear however many joins a line holds.

use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, Input};

mod calls;
mod dicts;
mod dumps;
mod escapes;
mod fstring;
mod heredocs;
mod names;
mod next_line;
mod shell_vars;
mod sql_values;
mod wrappers;

/// A part of the text left out of the copy; `value`, when set, is the
/// range of the text whose characters stand in its place (an f-string's
/// field, by the literal its name is bound to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Cut {
    pub range: Range<usize>,
    pub value: Option<Range<usize>>,
    /// A character stands in its place: a `"` for a heredoc's value, read
    /// as the quoted literal it is; the character an escape spells
    /// ([`escapes`]).
    pub stand_in: Option<char>,
}

impl Cut {
    fn removed(range: Range<usize>) -> Self {
        Cut {
            range,
            value: None,
            stand_in: None,
        }
    }

    fn quoted(range: Range<usize>) -> Self {
        Cut::standing(range, '"')
    }

    fn standing(range: Range<usize>, stand_in: char) -> Self {
        Cut {
            range,
            value: None,
            stand_in: Some(stand_in),
        }
    }
}

/// The lines of a text holding joins, with the joins cut out.
pub(super) struct Joined {
    /// The copy: each line group with its joins cut out, in text order.
    pub text: String,
    /// Pieces of the copy (by their start in it, ascending) and where each
    /// stands in the text.
    pieces: Vec<(usize, Range<usize>)>,
}

impl Joined {
    /// The range of the text that `span` of the copy stands for, when it
    /// spans a cut (else the text's own scan sees it as it is).
    pub fn placed(&self, span: &Range<usize>) -> Option<Range<usize>> {
        if span.is_empty() {
            return None;
        }
        let first = self.piece_of(span.start);
        let last = self.piece_of(span.end - 1);
        (first != last).then(|| self.at(first, span.start)..self.at(last, span.end - 1) + 1)
    }

    /// Where byte `pos` of the copy, in piece `piece`, stands in the text.
    pub fn position(&self, pos: usize) -> usize {
        self.at(self.piece_of(pos), pos)
    }

    fn piece_of(&self, pos: usize) -> usize {
        self.pieces
            .partition_point(|(start, _)| *start <= pos)
            .saturating_sub(1)
    }

    /// A piece standing for a cut (a field's value) maps into the cut:
    /// its last byte at the most.
    fn at(&self, piece: usize, pos: usize) -> usize {
        let (start, ref range) = self.pieces[piece];
        (range.start + (pos - start)).min(range.end.saturating_sub(1).max(range.start))
    }
}

/// The joins of `text`, the line groups whose copy `keep` says may hold
/// a secret (the rules' keywords: a copy without one wakes no rule), or
/// `None` when it holds none.
pub(super) fn find(text: &str, keep: impl Fn(&str) -> bool) -> Option<Joined> {
    static QUOTES: OnceLock<AhoCorasick> = OnceLock::new();
    // One-byte needles: a `memchr2` search, as fast as reading the text.
    let quotes_at =
        QUOTES.get_or_init(|| AhoCorasick::new(["\"", "'", "`"]).expect("three needles"));
    let bytes = text.as_bytes();
    let mut cuts: Vec<Cut> = Vec::new();
    let mut quotes = QuoteCount::default();
    let mut bound = None;
    let mut budget = VALUES;
    let mut from = 0;
    while let Some(q) = quotes_at.find(Input::new(text).span(from..text.len())) {
        let start = q.start();
        // A call joining literals, or an f-string's fields: read whole,
        // from the quote that opens them.
        let read = calls::call_at(bytes, start)
            .map(|(found, separator, last)| {
                let cut = |range| Cut {
                    range,
                    value: separator.clone(),
                    stand_in: None,
                };
                (found.into_iter().map(cut).collect(), last)
            })
            .or_else(|| {
                // An f-string's or a template's quote opens a literal: an
                // even count of its kind before it on its line.
                let opens = (bytes[start] == b'`' || fstring::prefix_start(bytes, start).is_some())
                    && quotes.before(text, start, bytes[start]) % 2 == 0;
                opens
                    .then(|| fstring::fields_at(text, start, &keep, &mut bound, &mut budget))
                    .flatten()
            });
        if let Some((found, last)) = read {
            if cuts
                .last()
                .is_none_or(|c| found.first().is_none_or(|f| c.range.end <= f.range.start))
            {
                cuts.extend(found);
            }
            from = last;
            continue;
        }
        let Some(end) = join_at(bytes, start) else {
            // A split through a name bound to a literal before it.
            if let Some((name, end)) = calls::through_name(bytes, start)
                && quotes.before(text, start, bytes[start]) % 2 == 1
                && let Some(value) = bound_before(text, &mut bound, &text[name], start)
                && value.len() <= budget
            {
                budget -= value.len();
                cuts.push(Cut {
                    range: start..end,
                    value: Some(value),
                    stand_in: None,
                });
                from = end;
            } else {
                from = start + 1;
            }
            continue;
        };
        from = end;
        if end - start < 3 {
            // `""`: an empty literal, or an escaped quote in CSV.
            continue;
        }
        let quote = bytes[start];
        if quotes.before(text, start, quote) % 2 == 1 {
            cuts.push(Cut::removed(start..end));
            // The opening quote is the first of its line when the join
            // took a newline; counting goes on from it.
            if let Some(newline) = text[start..end].rfind('\n') {
                quotes = QuoteCount::from_line(start + newline + 1);
            }
        }
    }
    add_apart(text, &mut cuts);
    // Chains of `+` through names alone or a name first (`a + b`,
    // `a + "…"`), and dicts joined by their values: where no join read
    // above covers them.
    let mut chained = names::chains(text, &mut bound, &mut budget);
    let shell = shell_vars::cuts(text, &mut bound, &mut budget);
    if !shell.is_empty() {
        chained.extend(shell);
        chained.sort_by_key(|c| (c.range.start, c.range.end));
        chained.dedup_by(|b, a| a.range.end > b.range.start);
    }
    let by_values = dicts::cuts(text);
    if !by_values.is_empty() {
        chained.sort_by_key(|c| c.range.start);
        let apart: Vec<Cut> = by_values
            .into_iter()
            .filter(|c| !overlaps_any(&chained, &c.range))
            .collect();
        chained.extend(apart);
    }
    if !chained.is_empty() {
        cuts.sort_by_key(|c| c.range.start);
        let mut kept: Vec<Cut> = chained
            .into_iter()
            .filter(|c| !overlaps_any(&cuts, &c.range))
            .collect();
        cuts.append(&mut kept);
        cuts.sort_by_key(|c| (c.range.start, c.range.end));
    }
    if cuts.is_empty() {
        return None;
    }
    let joined = copy(text, &cuts, keep);
    (!joined.text.is_empty()).then_some(joined)
}

/// Adds to `cuts` (the joins) the cuts of values set apart from their
/// assignment where no join covers them: a value on the line after it
/// ([`next_line`]), one wrapped on its line ([`wrappers`]), one in a
/// heredoc ([`heredocs`]), one spelled in escapes ([`escapes`]), one in
/// an SQL row apart from its column ([`sql_values`]), one in a hex dump's
/// text column ([`dumps`]).
fn add_apart(text: &str, cuts: &mut Vec<Cut>) {
    // A value on the line after its assignment, or in a heredoc: where
    // no join covers it.
    let mut next: Vec<Cut> = next_line::cuts(text)
        .into_iter()
        .map(Cut::removed)
        .chain(wrappers::cuts(text))
        .chain(heredocs::cuts(text))
        .chain(escapes::cuts(text))
        .chain(sql_values::cuts(text))
        .chain(dumps::cuts(text))
        .collect();
    next.sort_by_key(|c| (c.range.start, c.range.end));
    next.dedup_by(|b, a| a.range.end > b.range.start);
    if !next.is_empty() {
        cuts.sort_by_key(|c| c.range.start);
        let mut kept: Vec<Cut> = next
            .into_iter()
            .filter(|c| !overlaps_any(cuts, &c.range))
            .collect();
        cuts.append(&mut kept);
        cuts.sort_by_key(|c| (c.range.start, c.range.end));
    }
}

/// `text` with `cuts` made (sorted, apart), each stand-in in its place: what
/// a pass's tests compare.
#[cfg(test)]
pub(super) fn with_cuts_made(text: &str, cuts: Vec<Cut>) -> String {
    let mut out = text.to_string();
    for c in cuts.into_iter().rev() {
        let stand_in = c.stand_in.map(String::from).unwrap_or_default();
        out.replace_range(c.range, &stand_in);
    }
    out
}

/// Whether `range` overlaps one of `cuts` (sorted by start, apart).
fn overlaps_any(cuts: &[Cut], range: &Range<usize>) -> bool {
    let after = cuts.partition_point(|c| c.range.start < range.end);
    after
        .checked_sub(1)
        .is_some_and(|i| cuts[i].range.end > range.start)
}

/// How many bytes of bound literals the reading of one text may put in
/// place in all (into the copy, or into an f-string to look for a
/// keyword): a hostile text naming a long literal a million times would
/// cost its length each time.
const VALUES: usize = 16 << 20;

/// The literal `name` is bound to last before `pos` (the bindings of
/// `text` read the first time one is asked).
fn bound_before<'t>(
    text: &'t str,
    bound: &mut Option<names::Bindings<'t>>,
    name: &str,
    pos: usize,
) -> Option<Range<usize>> {
    let at = bound
        .get_or_insert_with(|| names::bindings(text))
        .get(name)?;
    let before = at.partition_point(|(p, _)| *p < pos);
    Some(at[before.checked_sub(1)?].1.clone())
}

/// The end of the join whose first quote is at `start`: the quote, blanks
/// with at most one operator (`+`, PHP's `.`, Lua's `..`, VB's `&`, SQL's `||`), then
/// at most once a newline (after an optional `\` or VB's `_`) and blanks
/// with at most one operator, and the same quote again (what the regex
/// `"[ \t]*op?[ \t]*(?:(?:\\|_)?[ \t]*\r?\n[ \t]*op?[ \t]*)?"` matches). A
/// scan by hand: the regex's literal prefilter over the many ways a join
/// can begin cost a whole scan of the standard library a tenth of its time.
/// Template literals join only by an operator (`` `a` `b` `` is prose's
/// code spans, or a tagged template). Else a `+=` join
/// ([`calls::plus_assign`]).
fn join_at(bytes: &[u8], start: usize) -> Option<usize> {
    let quote = bytes[start];
    let blanks = |mut i: usize| {
        while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let operator = |i: usize| match bytes.get(i..) {
        Some([b'.', b'.', ..] | [b'|', b'|', ..]) => i + 2,
        Some([b'+' | b'.' | b'&', ..]) => i + 1,
        _ => i,
    };
    let first = blanks(start + 1);
    let mut i = blanks(operator(first));
    let mut joined_by = operator(first) > first;
    // The line's end: `\` or `_`, blanks, an optional `\r` and `\n`.
    let mut j = i;
    if matches!(bytes.get(j), Some(b'\\' | b'_')) {
        j = blanks(j + 1);
    }
    if bytes.get(j) == Some(&b'\r') {
        j += 1;
    }
    if bytes.get(j) == Some(&b'\n') {
        let first = blanks(j + 1);
        i = blanks(operator(first));
        joined_by |= operator(first) > first;
    }
    if bytes.get(i) == Some(&quote) && (quote != b'`' || joined_by) {
        return Some(i + 1);
    }
    calls::plus_assign(bytes, start)
}

/// The lines holding `cuts` (sorted, apart) copied without them: cuts
/// on one line, or on lines a cut's newline runs on, make one group. The
/// text between two cuts is searched for a newline once, so a long line
/// of joins is read in linear time.
fn copy(text: &str, cuts: &[Cut], keep: impl Fn(&str) -> bool) -> Joined {
    let mut joined = Joined {
        text: String::new(),
        pieces: Vec::new(),
    };
    let Some(first) = cuts.first() else {
        return joined;
    };
    // Where the group being copied starts in the copy and its pieces.
    let mut group = (0, 0);
    let mut piece_start = text[..first.range.start].rfind('\n').map_or(0, |i| i + 1);
    let mut last_end = first.range.start;
    for Cut {
        range: cut,
        value,
        stand_in,
    } in cuts
    {
        let gap = &text[last_end..cut.start];
        if let (Some(first_newline), Some(last_newline)) = (gap.find('\n'), gap.rfind('\n')) {
            // The group ends with the line of the last cut; this cut opens
            // a new one on its own line.
            push(&mut joined, text, piece_start..last_end + first_newline + 1);
            close(&mut joined, &mut group, &keep);
            piece_start = last_end + last_newline + 1;
        }
        push(&mut joined, text, piece_start..cut.start);
        if let Some(value) = value {
            joined.pieces.push((joined.text.len(), cut.clone()));
            joined.text.push_str(&text[value.clone()]);
        } else if let Some(c) = stand_in {
            joined.pieces.push((joined.text.len(), cut.clone()));
            joined.text.push(*c);
        }
        piece_start = cut.end;
        last_end = cut.end;
    }
    let end = text[last_end..]
        .find('\n')
        .map_or(text.len(), |i| last_end + i + 1);
    push(&mut joined, text, piece_start..end);
    close(&mut joined, &mut group, &keep);
    joined
}

/// How long a run of a token's characters across a cut keeps its group
/// without a keyword: shorter than any keyless shape the rules know (a
/// Twilio key is 34 characters), longer than words joined in prose.
pub(super) const RUN: usize = 20;

/// Ends the group copied since `group` (its start in the copy and its
/// first piece), dropping it when `keep` does not want it and no run of
/// [`RUN`] token characters crosses one of its cuts.
fn close(joined: &mut Joined, group: &mut (usize, usize), keep: &impl Fn(&str) -> bool) {
    if !crosses_a_run(joined, group.1) && !keep(&joined.text[group.0..]) {
        joined.text.truncate(group.0);
        joined.pieces.truncate(group.1);
    }
    *group = (joined.text.len(), joined.pieces.len());
}

/// Whether a run of [`RUN`] token characters (a key's: letters, digits,
/// `+/=_.-`) goes across a cut between the pieces of the copy from
/// `first` on. Each cut looks at most [`RUN`] bytes either side, so a
/// line of a million joins costs a bounded amount per join.
fn crosses_a_run(joined: &Joined, first: usize) -> bool {
    let bytes = joined.text.as_bytes();
    let token =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'.' | b'-');
    joined.pieces.iter().skip(first + 1).any(|&(cut, _)| {
        let before = bytes[..cut]
            .iter()
            .rev()
            .take(RUN)
            .take_while(|b| token(b))
            .count();
        let after = bytes[cut..]
            .iter()
            .take(RUN)
            .take_while(|b| token(b))
            .count();
        before + after >= RUN
    })
}

/// Appends `range` of `text` to the copy as a piece.
fn push(joined: &mut Joined, text: &str, range: Range<usize>) {
    joined.pieces.push((joined.text.len(), range.clone()));
    joined.text.push_str(&text[range]);
}

/// The quotes of each kind on a line before a position, counted as the
/// positions asked grow (each byte is counted once).
#[derive(Default)]
struct QuoteCount {
    line_start: usize,
    counted_to: usize,
    double: usize,
    single: usize,
    back: usize,
}

impl QuoteCount {
    fn from_line(start: usize) -> Self {
        QuoteCount {
            line_start: start,
            counted_to: start,
            ..QuoteCount::default()
        }
    }

    /// Unescaped `quote`s on the line of `pos` before it.
    fn before(&mut self, text: &str, pos: usize, quote: u8) -> usize {
        let bytes = text.as_bytes();
        let from = self.counted_to.max(self.line_start);
        // Lines before `pos`'s are skipped unread (a memchr search).
        if let Some(i) = text[from..pos].rfind('\n') {
            *self = QuoteCount::from_line(from + i + 1);
        }
        for i in self.counted_to..pos {
            match bytes[i] {
                b'"' | b'\'' | b'`' if i > 0 && bytes[i - 1] == b'\\' => {}
                b'"' => self.double += 1,
                b'\'' => self.single += 1,
                b'`' => self.back += 1,
                _ => {}
            }
        }
        self.counted_to = pos.max(self.counted_to);
        match quote {
            b'"' => self.double,
            b'`' => self.back,
            _ => self.single,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(text: &str) -> Option<String> {
        find(text, |_| true).map(|j| j.text)
    }

    #[test]
    fn literals_joined_by_plus_or_juxtaposition_read_as_one() {
        assert_eq!(
            joined("a = \"ab\" + \"cd\"\nb = 1\n").as_deref(),
            Some("a = \"abcd\"\n")
        );
        assert_eq!(
            joined("x = (\"ab \" \"cd\")\n").as_deref(),
            Some("x =\"ab cd\")\n")
        );
        assert_eq!(
            joined("x = 'ab' + \\\n    'cd'\n").as_deref(),
            Some("x = 'abcd'\n")
        );
        assert_eq!(
            joined("x = \"a\" +\n  \"b\" +\n  \"c\";\n").as_deref(),
            Some("x = \"abc\";\n")
        );
    }

    #[test]
    fn a_literal_of_blanks_or_a_plus_is_no_join() {
        assert_eq!(joined("x = \" \"\ny = \"+\"\n"), None);
        assert_eq!(joined("s = \"a\" + b + \"c\"\n"), None);
        assert_eq!(joined("csv = \"a\"\"b\"\n"), None);
    }

    #[test]
    fn a_span_across_a_cut_is_placed_back_on_the_text() {
        let text = "k = 1\nt = \"ab\" + \"cd\"\n";
        let j = find(text, |_| true).expect("a join");
        let at = j.text.find("abcd").expect("joined");
        let placed = j.placed(&(at..at + 4)).expect("spans the cut");
        assert_eq!(&text[placed], "ab\" + \"cd");
        // A span inside one piece is the text's own scan's.
        assert_eq!(j.placed(&(at..at + 2)), None);
    }

    #[test]
    fn php_lua_and_vb_operators_join() {
        assert_eq!(
            joined("$t = \"ab\" . \"cd\";\n").as_deref(),
            Some("$t = \"abcd\";\n")
        );
        assert_eq!(
            joined("local t = 'ab' .. 'cd'\n").as_deref(),
            Some("local t = 'abcd'\n")
        );
        assert_eq!(
            joined("t = \"ab\" & _\n    \"cd\"\n").as_deref(),
            Some("t = \"abcd\"\n")
        );
        assert_eq!(
            joined("$t = 'ab'\n  . 'cd';\n").as_deref(),
            Some("$t = 'abcd';\n")
        );
        // An operator as a literal is no join.
        assert_eq!(joined("a = \".\"\nb = \"&\"\nc = \"..\"\n"), None);
    }

    #[test]
    fn a_token_run_across_a_cut_keeps_its_group_without_a_keyword() {
        let text = "a = \"x\" + \"y\"\nb = \"SK0123456789\" + \"abcdef0123456789\"\n";
        let j = find(text, |_| false).expect("a kept group");
        assert_eq!(j.text, "b = \"SK0123456789abcdef0123456789\"\n");
        // Words joined in prose are no run.
        assert!(find("m = \"Token value \" + \"is missing here\"\n", |_| false).is_none());
    }

    /// A line of a million joins (a hostile file) is read in linear time:
    /// each cut looks a bounded distance either side.
    #[test]
    fn a_megabyte_of_joins_is_joined_whole() {
        // Its speed is measured by `cargo bench --bench secret_scan`
        // (a quadratic join took minutes here), not by this test.
        let line = "\"a\" . ".repeat(1 << 18);
        let j = find(&line, |_| false).expect("one run of a");
        assert_eq!(j.text.len(), (1 << 18) + 5);
    }

    #[test]
    fn a_group_not_kept_is_not_copied() {
        let text = "a = \"x\" + \"y\"\nt = \"ab\" + \"cd\"\n";
        let j = find(text, |g| g.contains('t')).expect("a kept group");
        assert_eq!(j.text, "t = \"abcd\"\n");
        let at = j.text.find("abcd").expect("joined");
        let placed = j.placed(&(at..at + 4)).expect("spans the cut");
        assert_eq!(&text[placed], "ab\" + \"cd");
        assert!(find(text, |_| false).is_none());
    }
}
