//! A value written on the line after its assignment (round twenty):
//! `DB_PASSWORD = (` then `"…"` (Python), `password =` then `"…"`
//! (JavaScript, Ruby, PHP), `x = \` then `"…"`, `"password" =>` then
//! `'…'`. The `(`, the `\`, the line's end and the blanks before the
//! literal are cut, so the copy reads `DB_PASSWORD ="…"` and the rules
//! judge it as the assignment it is. Round 21: blank lines and comment
//! lines between (`= (  # the db`), an unquoted value alone on the next,
//! indented line (an INI continuation, Make's `:= \`), and a key whose
//! `=>` opens the next line (`'db_password'` then `=> '…'`). Round 22: a
//! quoted key whose `:` opens the next line (JSON), and YAML's explicit
//! key (`? password` then `: …`). Round 23: comment lines between a
//! key and the `:` below, a `:` alone on its line, and a block comment
//! between a quoted key and its `:` (JSONC), and a flow map wrapped after
//! a `,` (YAML's `db: {user: app,` then `password: …}`), and a value
//! continued by a `\` ending its line (`.properties`, a shell word), and
//! an XML element over three lines (`<password>`, the value, the close).

use std::ops::Range;

/// How many bytes of blanks around the line's end are looked through.
const BLANKS: usize = 256;

/// How many blank or comment lines may stand between an assignment and
/// its value.
const SKIPPED_LINES: usize = 3;

/// The shortest unquoted value read on the next line (a rule's shortest).
const MIN_BARE: usize = 8;

/// The ranges to cut: from just after each assignment's `=` (`:=`, `=>`)
/// that ends its line (but for blanks, an optional `(` or `\` and a
/// comment) to the literal that opens the next line past blank and
/// comment lines (its `r`/`b`/`u`/`f` prefix, or its quote), or to an
/// unquoted value alone on the next, indented line; and from the end of a
/// quoted key ending its line to the `=>` opening the next. An `=` inside
/// a string on its line (an odd count of `"` or `'` before it), or one of
/// `==`, `!=`, `<=`, `>=`, is no assignment.
pub(super) fn cuts(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let keyed = colon_keys(bytes);
    let each = assignments(bytes)
        .map(|at| (at, false, false))
        .chain(keyed.into_iter().map(|(at, flow)| (at, true, flow)));
    for (value, colon, flow) in each {
        let mut i = blanks(bytes, value);
        let paren = bytes.get(i) == Some(&b'(');
        if matches!(bytes.get(i), Some(b'(' | b'\\')) {
            i = blanks(bytes, i + 1);
        }
        i = past_comment(bytes, i);
        if bytes.get(i) == Some(&b'\r') {
            i += 1;
        }
        if bytes.get(i) != Some(&b'\n') {
            continue;
        }
        let line = past_blank_lines(bytes, i + 1);
        let literal = blanks(bytes, line);
        let quote = prefix_end(bytes, literal);
        let quoted = matches!(bytes.get(quote), Some(b'"' | b'\'' | b'`'));
        // A flow map's key ending its line takes a bare value closed by
        // `,`, `}` or `]` below (`db: { user: app, password:` then
        // `Xk9… }`, round 24).
        let bare = if colon {
            flow && flow_value(bytes, literal)
        } else {
            !paren && bare_value(bytes, literal)
        };
        if quoted || literal > line && bare {
            out.push(value..literal);
        }
    }
    out.extend(arrows_below(bytes));
    out.extend(comments_before_colons(bytes));
    out.extend(flows_continued(bytes));
    out.extend(values_continued(bytes));
    out.extend(elements_over_lines(bytes));
    out.sort_by_key(|r| (r.start, r.end));
    out
}

/// Where the value of each key that ends its line with `:` may start (just
/// after the `:`): a quoted key (`"password":`, JSON) or a name (`password:`,
/// a JavaScript object as a formatter wraps a long value), alone on its
/// line or after a `{` or `,` (round 22, recheck 22b); not `::`, not a
/// call's or a block's colon (`def f():`, `else:`: a name after other
/// text, or one after nothing that is no key of a value below).
/// Each comes with whether the key follows a `{` or `,` on its line (a
/// flow map's).
fn colon_keys(bytes: &[u8]) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    let mut start = 0;
    // Whether the line before ended with a quoted key (a `:` alone on
    // the next line is that key's, round 23).
    let mut key_above = false;
    for end in (0..=bytes.len()).filter(|&i| i == bytes.len() || bytes[i] == b'\n') {
        let line = bytes[start..end].trim_ascii_end();
        let was_key = std::mem::replace(&mut key_above, ends_with_key(line));
        if let Some(before) = line.strip_suffix(b":")
            && !before.ends_with(b":")
        {
            let key_end = before.trim_ascii_end();
            let quoted = ends_with_key(key_end) || was_key && key_end.is_empty();
            let name = key_end
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-'))
                .count();
            let lead = key_end[..key_end.len() - name].trim_ascii();
            let flow = lead.last().is_some_and(|b| matches!(b, b'{' | b','));
            let named = name > 0 && (lead.is_empty() || flow);
            if quoted || named {
                out.push((start + line.len(), named && flow));
            }
        }
        start = end + 1;
    }
    out
}

/// Each assignment of `bytes` (`=`, `:=`, `=>`; not one of `==`, `!=`,
/// `<=`, `>=`, nor an `=` inside a string on its line: after an odd count
/// of `"` or `'`): where its value may start, past the `=` (and the `>`
/// of `=>`). One pass, counting each line's quotes as it goes.
pub(super) fn assignments(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let (mut doubles, mut singles) = (0usize, 0usize);
    (0..bytes.len()).filter_map(move |at| {
        match bytes[at] {
            b'\n' => (doubles, singles) = (0, 0),
            b'"' => doubles += 1,
            b'\'' => singles += 1,
            _ => {}
        }
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let assigns = bytes[at] == b'='
            && doubles % 2 == 0
            && singles % 2 == 0
            && !matches!(before, Some(b'=' | b'!' | b'<' | b'>'))
            && bytes.get(at + 1) != Some(&b'=');
        assigns.then(|| at + 1 + usize::from(bytes.get(at + 1) == Some(&b'>')))
    })
}

/// Past a string prefix (`r`, `b`, `u`, `f`; C#'s `@` and `$`; two at most)
/// at `i`.
pub(super) fn prefix_end(bytes: &[u8], i: usize) -> usize {
    let mut q = i;
    while q - i < 2 && bytes.get(q).is_some_and(|b| b"rRbBuUfF@$".contains(b)) {
        q += 1;
    }
    q
}

/// Past a `#` or `//` comment at `i` (not Ruby's `#{`), to its line's end.
fn past_comment(bytes: &[u8], i: usize) -> usize {
    let rest = bytes.get(i..).unwrap_or_default();
    let comment = rest.starts_with(b"#") && !rest.starts_with(b"#{") || rest.starts_with(b"//");
    if !comment {
        return i;
    }
    // A comment past [`BLANKS`] bytes is not looked through: each `=`
    // reads at most that far (a line of `= # = # …` stays linear).
    let Some(end) = rest.iter().take(BLANKS).position(|&b| b == b'\n') else {
        return i;
    };
    // The line's end, before a `\r`.
    i + end - usize::from(end > 0 && rest[end - 1] == b'\r')
}

/// From the line starting at `line`, past up to [`SKIPPED_LINES`] blank
/// or comment lines: where the next other line starts.
fn past_blank_lines(bytes: &[u8], mut line: usize) -> usize {
    for _ in 0..SKIPPED_LINES {
        let j = past_comment(bytes, blanks(bytes, line));
        let j = j + usize::from(bytes.get(j) == Some(&b'\r'));
        if bytes.get(j) != Some(&b'\n') {
            break;
        }
        line = j + 1;
    }
    line
}

/// Whether a bare value of a flow map starts at `i`: [`MIN_BARE`] or
/// more characters of one word, then blanks and a `,`, `}` or `]`.
fn flow_value(bytes: &[u8], i: usize) -> bool {
    let len = bytes[i..]
        .iter()
        .take(BLANKS)
        .take_while(|b| !b.is_ascii_whitespace() && !b",{}[]()#:\"'`".contains(b))
        .count();
    let after = blanks(bytes, i + len);
    len >= MIN_BARE && matches!(bytes.get(after), Some(b',' | b'}' | b']'))
}

/// Whether an unquoted value alone on its line starts at `i`: a word of
/// [`MIN_BARE`] characters or more, no blank or bracket in it, not a
/// list item, an anchor, a block or a comment.
fn bare_value(bytes: &[u8], i: usize) -> bool {
    let end = bytes[i..]
        .iter()
        .position(|&b| matches!(b, b'\n' | b'\r'))
        .map_or(bytes.len(), |n| i + n);
    let value = &bytes[i..end];
    let value = value.strip_suffix(b";").unwrap_or(value);
    value.len() >= MIN_BARE
        && !value.starts_with(b"-")
        && !value.ends_with(b":")
        && !value.iter().any(|b| {
            b.is_ascii_whitespace()
                || matches!(
                    b,
                    b'(' | b')'
                        | b'['
                        | b']'
                        | b'{'
                        | b'}'
                        | b'#'
                        | b'&'
                        | b'*'
                        | b'!'
                        | b'|'
                        | b'>'
                        | b'<'
                        | b'"'
                        | b'\''
                        | b'`'
                        | b'$'
                        | b','
                )
        })
}

/// The cuts from the end of a quoted key that ends its line (`'db_password'`)
/// to the `=>` that opens the next one (PHP's arrays as formatters write
/// them).
fn arrows_below(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    // The last byte of the last line that was not blank.
    let mut after = b'\n';
    for n in (0..bytes.len()).filter(|&i| bytes[i] == b'\n') {
        let line = &bytes[start..n];
        let kept = line.len()
            - line
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        let quoted = ends_with_key(&line[..kept]) || ends_with_bare_key(&line[..kept], after);
        if kept > 0 {
            after = line[kept - 1];
        }
        // Past blank and comment lines (`? password`, `# …`, `: v`).
        let arrow = blanks(bytes, past_blank_lines(bytes, n + 1));
        let colon = bytes[arrow..].starts_with(b":") && !bytes[arrow..].starts_with(b"::");
        if quoted && (bytes[arrow..].starts_with(b"=>") || colon) {
            out.push(start + kept..arrow);
        } else if colon && let Some(mut explicit) = explicit_key(bytes, start, start + kept, arrow)
        {
            out.append(&mut explicit);
        }
        start = n + 1;
    }
    out
}

/// The cuts of a block comment between a quoted key and its `:` on one
/// line (JSONC's `"password" /* the db */ : "…"`, round 23): from the
/// key's end to the `:`.
fn comments_before_colons(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = bytes
        .get(from..)
        .and_then(|rest| rest.windows(2).position(|w| w == b"/*"))
    {
        let open = from + at;
        from = open + 2;
        // A key at most [`BLANKS`] bytes back on its line (each comment
        // reads a bounded stretch: a line of `/*` stays linear).
        let near = open.saturating_sub(BLANKS);
        let line_start = match bytes[near..open].iter().rposition(|&b| b == b'\n') {
            Some(n) => near + n + 1,
            None if near == 0 => 0,
            None => continue,
        };
        let key_end = line_start + bytes[line_start..open].trim_ascii_end().len();
        if key_end <= line_start || !ends_with_key(&bytes[line_start..key_end]) {
            continue;
        }
        let rest = &bytes[open + 2..bytes.len().min(open + 2 + BLANKS)];
        let Some(close) = rest.windows(2).position(|w| w == b"*/") else {
            continue;
        };
        if rest[..close].contains(&b'\n') {
            continue;
        }
        let after = blanks(bytes, open + 2 + close + 2);
        if bytes.get(after) == Some(&b':') && bytes.get(after + 1) != Some(&b':') {
            out.push(key_end..after);
            from = after;
        }
    }
    out
}

/// The cuts joining a flow map or list opened on a line that ends with
/// `,` to its next line when that line opens with a bare key (YAML's `db:
/// {user: app,` then `password: …}`, round 23): the line's end and the
/// next line's indent, so the copy reads the pair after its `,` as on one
/// line.
fn flows_continued(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for n in (0..bytes.len()).filter(|&i| bytes[i] == b'\n') {
        let line = bytes[start..n].trim_ascii_end();
        let opens = |open: u8, close: u8| {
            let count = |b: u8| line.iter().filter(|&&c| c == b).count();
            count(open) > count(close)
        };
        if line.ends_with(b",") && (opens(b'{', b'}') || opens(b'[', b']')) {
            let key = blanks(bytes, n + 1);
            let name = bytes[key..]
                .iter()
                .take(BLANKS)
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
                .count();
            let after = blanks(bytes, key + name);
            let keyed = name > 0
                && bytes[key].is_ascii_alphabetic()
                && matches!(bytes.get(after), Some(b':' | b'='))
                && bytes.get(after + 1) != Some(&b':');
            if keyed {
                out.push(start + line.len()..key);
            }
        }
        start = n + 1;
    }
    out
}

/// The cuts joining a value continued with a `\` at its line's end
/// straight after it (a Java `.properties` value, a shell word:
/// `password=CvFRC\` then `  HQVgG`, `export DB_PASSWORD=\` then the value,
/// round 23): the `\`, the line end and the next line's indent, on a
/// line holding an `=` or `:` or continuing one.
fn values_continued(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut continuing = false;
    for n in (0..bytes.len()).filter(|&i| bytes[i] == b'\n') {
        let line = &bytes[start..n];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let joined = line.len() >= 2
            && line.ends_with(b"\\")
            && !matches!(line[line.len() - 2], b' ' | b'\t' | b'\\')
            && (continuing || line.iter().any(|b| matches!(b, b'=' | b':')));
        continuing = false;
        if joined {
            let next = blanks(bytes, n + 1);
            if bytes.get(next).is_some_and(|b| !b.is_ascii_whitespace()) {
                out.push(start + line.len() - 1..next);
                continuing = true;
            }
        }
        start = n + 1;
    }
    out
}

/// The cuts making an XML element written over three lines one line
/// (`<password>`, then the value alone, then `</password>`, round 23):
/// the line ends and indents around the value.
fn elements_over_lines(bytes: &[u8]) -> Vec<Range<usize>> {
    // Every text scanned passes here: one without a closing tag is not
    // split into lines at all.
    if !bytes.windows(2).any(|w| w == b"</") {
        return Vec::new();
    }
    let mut lines = Vec::new();
    let mut start = 0;
    for n in (0..=bytes.len()).filter(|&i| i == bytes.len() || bytes[i] == b'\n') {
        lines.push(start..n);
        start = n + 1;
    }
    // A line's content, its blanks (and a `\r`) cut: its range.
    let content = |line: &Range<usize>| {
        let text = &bytes[line.clone()];
        let end = line.start + text.trim_ascii_end().len();
        let lead = text.len() - text.trim_ascii_start().len();
        (line.start + lead).min(end)..end
    };
    let mut out = Vec::new();
    for three in lines.windows(3) {
        let (open, value, close) = (content(&three[0]), content(&three[1]), content(&three[2]));
        let name = match &bytes[open.clone()] {
            [b'<', name @ .., b'>']
                if name
                    .first()
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                    && name.iter().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':')
                    }) =>
            {
                name
            }
            _ => continue,
        };
        let single = !value.is_empty()
            && !bytes[value.clone()]
                .iter()
                .any(|b| b.is_ascii_whitespace() || *b == b'<');
        let closing = &bytes[close.clone()];
        let closes = closing.starts_with(b"</")
            && closing[2..].starts_with(name)
            && closing.get(2 + name.len()) == Some(&b'>');
        if single && closes {
            out.push(open.end..value.start);
            out.push(value.end..close.start);
        }
    }
    out
}

/// Whether `line` (its trailing blanks cut) ends with a quoted key alone
/// or after an opening bracket or a `,` (`{"db": {"password"`).
fn ends_with_key(line: &[u8]) -> bool {
    let Some(&quote) = line.last().filter(|b| matches!(b, b'"' | b'\'')) else {
        return false;
    };
    let Some(open) = line[..line.len() - 1].iter().rposition(|&b| b == quote) else {
        return false;
    };
    let before = line[..open].trim_ascii_end();
    line.len() - open >= 3
        && before
            .last()
            .is_none_or(|b| matches!(b, b'{' | b'[' | b'(' | b','))
}

/// Whether `line` (its trailing blanks cut) ends with a bare key in a
/// flow map: after its `{` or `,`, or alone after a line ending with one
/// (`after`): `password` then `: …` below, round 25. A ternary's branch
/// (`c ?` then `p` then `: q`) is none.
fn ends_with_bare_key(line: &[u8], after: u8) -> bool {
    let word = line
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        .count();
    let before = line[..line.len() - word].trim_ascii_end();
    word >= 3
        && line[line.len() - word].is_ascii_alphabetic()
        && match before.last() {
            Some(b) => matches!(b, b'{' | b','),
            None => matches!(after, b'{' | b','),
        }
}

/// The cuts that make YAML's explicit key on the line `start..end` (`?
/// password`) and the `:` opening the next line (at `colon`) one `key:
/// value` line: the `? ` and the line end between.
fn explicit_key(bytes: &[u8], start: usize, end: usize, colon: usize) -> Option<Vec<Range<usize>>> {
    let mark = blanks(bytes, start);
    if bytes.get(mark) != Some(&b'?') || !matches!(bytes.get(mark + 1), Some(b' ' | b'\t')) {
        return None;
    }
    let key = blanks(bytes, mark + 1);
    let simple = key < end
        && !bytes[key..end]
            .iter()
            .any(|b| matches!(b, b':' | b'#' | b'{' | b'['));
    simple.then(|| vec![mark..key, end..colon])
}

/// Past the blanks from `i`, at most [`BLANKS`] of them.
pub(super) fn blanks(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while j - i < BLANKS && bytes.get(j).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> String {
        let mut out = text.to_string();
        for range in cuts(text).into_iter().rev() {
            out.replace_range(range, "");
        }
        out
    }

    #[test]
    fn hostile_lines_of_keys_and_comments_read_in_bounded_time() {
        // A megabyte line of keys before comments that never close, and
        // of flow maps: each reads a bounded stretch (a quadratic pass
        // would not end here).
        let line = "{\"p\" /* ".repeat(1 << 17);
        assert!(cuts(&line).is_empty());
        let lines = "d: {u: a,\n  p: v, q: {w: 1,\n".repeat(1 << 15);
        assert!(!cuts(&lines).is_empty());
    }

    #[test]
    fn a_value_on_the_next_line_is_read_after_its_assignment() {
        assert_eq!(cut("P = (\n    \"v\"\n)\n"), "P =\"v\"\n)\n");
        assert_eq!(cut("p =\n  'v';\n"), "p ='v';\n");
        assert_eq!(cut("p = \\\r\n  f\"v\"\n"), "p =f\"v\"\n");
        assert_eq!(cut("'p' =>\n  'v',\n"), "'p' =>'v',\n");
        assert_eq!(cut("p := (\n  `v`)\n"), "p :=`v`)\n");
        assert_eq!(
            cut("{\"a\": {\"p\"\n  : \"v\"}}\n"),
            "{\"a\": {\"p\": \"v\"}}\n"
        );
        assert_eq!(cut("a:\n  ? p\n  : v\n"), "a:\n  p: v\n");
        // Round 23: a comment line between, a `:` alone on its line, a
        // block comment between a key and its `:`.
        assert_eq!(cut("a:\n  ? p\n  # c\n  : v\n"), "a:\n  p: v\n");
        assert_eq!(
            cut("{\n  \"p\"\n  :\n  \"v\"\n}\n"),
            "{\n  \"p\":\"v\"\n}\n"
        );
        assert_eq!(cut("{\"p\" /* c */ : \"v\"}\n"), "{\"p\": \"v\"}\n");
        assert_eq!(cut("d: {u: a,\n  p: v}\n"), "d: {u: a,p: v}\n");
        // Round 25: a flow map's bare key alone on its line.
        assert_eq!(
            cut("d: {u: a,\n  pass\n    : v\n}\n"),
            "d: {u: a,\n  pass: v\n}\n"
        );
        assert_eq!(cut("d: {pass\n  : v}\n"), "d: {pass: v}\n");
        assert_eq!(cut("p=ab\\\n  cd\\\r\n  ef\n"), "p=abcdef\n");
        assert_eq!(cut("export P=\\\nabcd\n"), "export P=abcd\n");
        assert_eq!(
            cut("<db>\n  <password>\n    v1\n  </password>\n</db>\n"),
            "<db>\n  <password>v1</password>\n</db>\n"
        );
        for text in [
            "if a ==\n  'v':\n",
            "a = b\n'v'\n",
            "x = '=\n'v'\n",
            "a <=\n 'v'\n",
            "p = (\n  x + 'v')\n",
            "p = f(\n  'v')\n",
            "x = c ? \"p\"\n  :: v\n",
            "a:\n  ? p: q\n  : v\n",
            "f(x \"p\"\n  : v\n",
            "f(\"p\" /* c */ + 1)\n",
            "x = \"p\" /* c\n */ : v\n",
            ":\n  \"v\"\n",
            "d: {u: a},\n  p: v\n",
            "f(a,\n  p: v)\n",
            "d: {u: a,\n  \"p\": v}\n",
            "d: [a,\n  ::p]\n",
            "x = c ?\n  pass_word\n  : other\n",
            "x = c ? pass_word\n  : other\n",
            "d: {u: a,\n  9abc\n  : v}\n",
            "#define A(x) f(x) \\\n  g(x)\n",
            "ab\\\n  cd\n",
            "p=a\\\\\n  cd\n",
            "<p>\n  a b\n</p>\n",
            "<p>\n  v1\n</q>\n",
            "<p a=\"1\">\n  v1\n</p>\n",
            "<p>\n   \n</p>\n  \n\n",
        ] {
            assert_eq!(cut(text), text, "{text:?}");
        }
    }
}
