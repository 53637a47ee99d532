//! PHP's comments blanked before its lines are read (consent round 10,
//! item 3b; recheck 21, item 5): a quote inside `/* don't */` would
//! otherwise hide the call after it on the line, and a string that spans
//! lines and holds `#`, `//` or `/*` is no comment. One pass keeps the
//! state across lines: strings (`'…'`, `"…"`, `` `…` ``), heredocs and
//! nowdocs (`<<<ID` … `ID`), `//` and `#` (not `#[`, PHP 8's attribute)
//! to the line's end or a `?>`, `/* … */`, and the text outside
//! `<?php … ?>` (printed, not run: blanked). Only comments and that text
//! are blanked; a string is kept, so reading one as code reads more. A
//! line that starts inside a string is given its quote first, so that a
//! reader of one line at a time knows the string's end for code.

#[derive(Clone, Copy, PartialEq)]
enum State {
    Code,
    Quoted(char),
    Line,
    Block,
    Outside,
}

/// `text` with each comment's characters (and the text outside PHP's
/// tags) but its newlines made spaces.
pub(super) fn blanked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Text is printed up to the first `<?` (a `#!` line too).
    let mut state = State::Outside;
    let mut at = 0;
    let bytes = text.as_bytes();
    // A heredoc whose end is missing is a parse error (nothing runs);
    // after one, `<<<` is read as code (each search would read the rest
    // of the text again).
    let mut heredocs = true;
    while let Some(c) = text[at..].chars().next() {
        let next = bytes.get(at + c.len_utf8()).copied();
        let len = c.len_utf8();
        match state {
            State::Code => match c {
                '"' | '\'' | '`' => state = State::Quoted(c),
                '<' if heredocs && text[at..].starts_with("<<<") => {
                    if let Some(end) = heredoc_end(text, at) {
                        out.push_str(&text[at..end]);
                        at = end;
                        continue;
                    }
                    heredocs = false;
                }
                '?' if next == Some(b'>') => {
                    out.push_str("?>");
                    at += 2;
                    state = State::Outside;
                    continue;
                }
                '/' if next == Some(b'*') => {
                    out.push_str("  ");
                    at += 2;
                    state = State::Block;
                    continue;
                }
                '/' if next == Some(b'/') => state = State::Line,
                '#' if next != Some(b'[') => state = State::Line,
                _ => {}
            },
            State::Quoted(q) => {
                if c == '\\' {
                    let end = text[at + 1..]
                        .chars()
                        .next()
                        .map_or(at + 1, |n| at + 1 + n.len_utf8());
                    out.push_str(&text[at..end]);
                    at = end;
                    continue;
                }
                if c == q {
                    out.push(c);
                    at += len;
                    state = State::Code;
                    continue;
                }
            }
            State::Line if c == '\n' => state = State::Code,
            State::Line if c == '?' && next == Some(b'>') => {
                out.push_str("?>");
                at += 2;
                state = State::Outside;
                continue;
            }
            State::Block if c == '*' && next == Some(b'/') => {
                out.push_str("  ");
                at += 2;
                state = State::Code;
                continue;
            }
            State::Outside if c == '<' && next == Some(b'?') => {
                // `<?xml`: a short tag only where `short_open_tag` is on;
                // which, the text does not say: nothing more blanked.
                let tag = text[at + 2..]
                    .get(..3)
                    .is_some_and(|t| t.eq_ignore_ascii_case("php"))
                    || text[at + 2..].starts_with('=');
                if !tag {
                    out.push_str(&text[at..]);
                    return out;
                }
                out.push_str("<?");
                at += 2;
                state = State::Code;
                continue;
            }
            State::Line | State::Block | State::Outside => {}
        }
        match state {
            State::Line | State::Block | State::Outside if c != '\n' => out.push(' '),
            _ => out.push(c),
        }
        // A line that starts inside a string opens with its quote: each
        // line read alone then knows its string from its code.
        if let (State::Quoted(q), '\n') = (state, c) {
            out.push(q);
        }
        at += len;
    }
    out
}

/// Where the heredoc or nowdoc that opens at `at` (`<<<ID`, `<<<"ID"`,
/// `<<<'ID'`) ends: after its closing identifier, which starts a line
/// (indented, PHP 7.3) and is not followed by a name's character.
/// `None` when `<<<` opens none, or its end is not found (read on as
/// code: more, never less).
fn heredoc_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at + 3..];
    let head = rest.trim_start_matches([' ', '\t']);
    let head = head.trim_start_matches(['"', '\'']);
    let id: &str = &head[..head
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(head.len())];
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let body = rest.find('\n')? + at + 3 + 1;
    let mut line_at = body;
    for line in text[body..].split_inclusive('\n') {
        let t = line.trim_start_matches([' ', '\t']);
        if let Some(after) = t.strip_prefix(id)
            && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            return Some(line_at + (line.len() - t.len()) + id.len());
        }
        line_at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_is_blanked_and_a_string_or_an_attribute_is_not() {
        assert_eq!(
            blanked("<?php /* don't */ echo shell_exec($c);"),
            "<?php             echo shell_exec($c);"
        );
        assert_eq!(
            blanked("<?php\n/**\n * `a|b`\n */\nx();"),
            "<?php\n   \n        \n   \nx();"
        );
        assert_eq!(
            blanked("<?php $a = '/*'; f(); // */"),
            "<?php $a = '/*'; f();      "
        );
        assert_eq!(
            blanked("<?php #[A] f(); # g()\nh();"),
            "<?php #[A] f();      \nh();"
        );
        assert_eq!(
            blanked("<?php $s = \"a\\\"/*\"; f();"),
            "<?php $s = \"a\\\"/*\"; f();"
        );
    }

    #[test]
    fn a_string_or_heredoc_spanning_lines_keeps_its_comment_marks() {
        let text = "<?php $s = \"\n# \"; system($w);\n";
        assert_eq!(blanked(text), "<?php $s = \"\n\"# \"; system($w);\n");
        let text = "<?php $s = <<<E\n/*\nE;\nshell_exec($c);\n// x";
        assert_eq!(
            blanked(text),
            "<?php $s = <<<E\n/*\nE;\nshell_exec($c);\n    "
        );
        let text = "<?php $s = <<<'E'\n  it's # here\n  E . 'x'; exec($c);";
        assert_eq!(blanked(text), text);
        // Outside the tags, text is printed.
        assert_eq!(
            blanked("a's <?php f(); ?> b's // <?= g() ?>"),
            "    <?php f(); ?>        <?= g() ?>"
        );
        // A short tag may or may not open PHP: the rest is kept.
        let text = "<?php ?>\n<?xml don't ?>\n<?php $s = '\n// '; system($w);\n";
        assert!(blanked(text).ends_with("// '; system($w);\n"));
        // `?>` ends a `//` comment, not a `/* */` one.
        assert_eq!(blanked("<?php // x ?>y"), "<?php      ?> ");
        assert_eq!(blanked("<?php /* ?> */ f();"), "<?php          f();");
    }
}
