//! Brace depth through Rust source read line by line, for the import
//! reader: which `use` lines sit inside an inline `mod name { … }`. Not a
//! parser: strings (raw ones too), char literals and comments are skipped
//! so the braces of `"{}"` or `r#"{"#` do not count.

/// Brace depth through a Rust file, line by line, with strings (raw ones
/// too), char literals and comments (line and block) left out so `"{}"` in
/// a format string does not count.
#[derive(Debug, Default)]
pub(super) struct Braces {
    /// The depth after the lines read.
    pub depth: usize,
    /// Inside a string: `Some(0)` a normal one, `Some(n)` a raw one closed
    /// by `"` and `n - 1` `#`s.
    string: Option<usize>,
    in_block_comment: bool,
}

impl Braces {
    /// The line with its comments removed (strings kept), its braces
    /// counted, the state carried to the next line.
    pub fn line(&mut self, line: &str) -> String {
        let chars: Vec<char> = line.chars().collect();
        let mut out = String::with_capacity(line.len());
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            if self.in_block_comment {
                if c == '*' && next == Some('/') {
                    self.in_block_comment = false;
                    i += 1;
                }
                i += 1;
                continue;
            }
            if let Some(raw) = self.string {
                out.push(c);
                if raw == 0 && c == '\\' {
                    out.extend(next);
                    i += 1;
                } else if c == '"' {
                    let hashes = raw.saturating_sub(1);
                    if chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|h| **h == '#')
                        .count()
                        == hashes
                    {
                        out.extend(std::iter::repeat_n('#', hashes));
                        i += hashes;
                        self.string = None;
                    }
                }
                i += 1;
                continue;
            }
            let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
            match c {
                '/' if next == Some('/') => break,
                '/' if next == Some('*') => {
                    self.in_block_comment = true;
                    i += 2;
                    continue;
                }
                '"' => self.string = Some(0),
                // `r"…"`, `r#"…"#`, `br"…"`.
                'r' if !word_before || (i == 1 && chars[0] == 'b') => {
                    let hashes = chars[i + 1..].iter().take_while(|h| **h == '#').count();
                    if chars.get(i + 1 + hashes) == Some(&'"') {
                        out.extend(&chars[i..i + 2 + hashes]);
                        self.string = Some(hashes + 1);
                        i += 2 + hashes;
                        continue;
                    }
                }
                // `'{'`, `'}'`, `'"'`, `'\''`: a char literal.
                '\'' if chars.get(i + 2) == Some(&'\'') => {
                    out.extend(&chars[i..i + 3]);
                    i += 3;
                    continue;
                }
                '\'' if next == Some('\\') && chars.get(i + 3) == Some(&'\'') => {
                    out.extend(&chars[i..i + 4]);
                    i += 4;
                    continue;
                }
                '{' => self.depth += 1,
                '}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            out.push(c);
            i += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_skip_strings_chars_and_comments() {
        let mut b = Braces::default();
        let lines = [
            ("fn f() {", 1),
            ("    let s = \"{ }}} \\\" {\"; // {", 1),
            (
                "    let r = r#\"{ \"quoted\" {\"#; let c = '{'; let e = '\\'';",
                1,
            ),
            ("    /* { starts", 1),
            ("    still { comment */ if x {", 2),
            ("    let multi = \"line {", 2),
            ("    more } \";", 2),
            ("    let raw = r##\"a \"# {", 2),
            ("    \"## ; }", 1),
            ("}", 0),
        ];
        for (line, depth) in lines {
            b.line(line);
            assert_eq!(b.depth, depth, "after {line:?}");
        }
        assert_eq!(b.line("let x = 1; // gone"), "let x = 1; ");
        assert_eq!(b.line("a /* b */ c"), "a  c");
    }
}
