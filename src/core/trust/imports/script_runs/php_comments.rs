//! PHP's comments blanked before its lines are read (consent round 10,
//! item 3b): a quote inside `/* don't */` would otherwise hide the call
//! after it on the line, and a docblock's `` `a|b` `` would be read as a
//! backtick. `//` and `#` (not `#[`, PHP 8's attribute) end at the line's
//! end. A text with a heredoc (`<<<`) or an end of PHP (`?>`) is left as
//! it is: a quote or `/*` there may not be what it looks like, and
//! blanking too much could hide a call.

/// `text` with each comment's characters but its newlines made spaces,
/// or `text` itself when it holds `<<<` or `?>`.
pub(super) fn blanked(text: &str) -> String {
    if text.contains("<<<") || text.contains("?>") {
        return text.to_string();
    }
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Code,
        Quoted(char),
        Line,
        Block,
    }
    let mut out = String::with_capacity(text.len());
    let mut state = State::Code;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match state {
            State::Code => match c {
                '"' | '\'' | '`' => {
                    state = State::Quoted(c);
                    out.push(c);
                }
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    state = State::Block;
                    out.push_str("  ");
                }
                '/' if chars.peek() == Some(&'/') => {
                    state = State::Line;
                    out.push(' ');
                }
                '#' if chars.peek() != Some(&'[') => {
                    state = State::Line;
                    out.push(' ');
                }
                _ => out.push(c),
            },
            State::Quoted(q) => {
                out.push(c);
                if c == '\\' {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                } else if c == q {
                    state = State::Code;
                }
            }
            State::Line => match c {
                '\n' => {
                    state = State::Code;
                    out.push(c);
                }
                _ => out.push(' '),
            },
            State::Block => match c {
                '*' if chars.peek() == Some(&'/') => {
                    chars.next();
                    state = State::Code;
                    out.push_str("  ");
                }
                '\n' => out.push(c),
                _ => out.push(' '),
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_is_blanked_and_a_string_or_an_attribute_is_not() {
        assert_eq!(
            blanked("/* don't */ echo shell_exec($c);"),
            "            echo shell_exec($c);"
        );
        assert_eq!(
            blanked("/**\n * `a|b`\n */\nx();"),
            "   \n        \n   \nx();"
        );
        assert_eq!(blanked("$a = '/*'; f(); // */"), "$a = '/*'; f();      ");
        assert_eq!(blanked("#[A] f(); # g()\nh();"), "#[A] f();      \nh();");
        assert_eq!(blanked("$s = \"a\\\"/*\"; f();"), "$s = \"a\\\"/*\"; f();");
        let heredoc = "$s = <<<E\n/*\nE;\nshell_exec($c);\n// */";
        assert_eq!(blanked(heredoc), heredoc);
        assert_eq!(blanked("?>it's<?php /* x */"), "?>it's<?php /* x */");
    }
}
