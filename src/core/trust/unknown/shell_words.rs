//! Shell text as words: its statements (split at newlines, `;`, `&`,
//! `|` and parentheses, outside quotes, substitutions and
//! here-documents), a word unquoted, the assignments, variables,
//! command substitutions and parameter defaults a word holds.

/// The bodies of the command substitutions of a word (`$(…)`, `` `…` ``,
/// `<(…)`), outermost first; `$((…))` is arithmetic, no command.
pub(in crate::core::trust) fn substitutions(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut single = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            single = !single;
        } else if !single && c == '`' {
            let end = chars[i + 1..].iter().position(|&d| d == '`');
            let end = end.map_or(chars.len(), |e| i + 1 + e);
            out.push(chars[i + 1..end].iter().collect());
            i = end;
        } else if !single
            && (c == '$' || c == '<' || c == '>')
            && chars.get(i + 1) == Some(&'(')
            && !(c == '$' && chars.get(i + 2) == Some(&'('))
        {
            let end = closing(&chars, i + 1);
            out.push(chars[i + 2..end].iter().collect());
            i = end;
        }
        i += 1;
    }
    out
}

/// The words a parameter expansion of `word` may take instead of the
/// variable's value (`tools/w.sh` of `${S:-tools/w.sh}`, `${S-…}`,
/// `${S:=…}`, `${S=…}`, `${S:+…}`, `${S+…}`), as written, outermost
/// first: unless the environment says otherwise, that word is what runs.
pub(in crate::core::trust) fn parameter_words(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < chars.len() {
        if chars[i] != '$' || chars[i + 1] != '{' {
            i += 1;
            continue;
        }
        let end = closing_brace(&chars, i + 1);
        let body: String = chars[i + 2..end].iter().collect();
        let name_end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let rest = &body[name_end..];
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        if name_end > 0
            && let Some(value) = rest.strip_prefix(['-', '=', '+'])
        {
            out.push(value.to_string());
        }
        i += 2;
    }
    out
}

/// The index of the `}` closing the `{` at `open` (or the end).
fn closing_brace(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

/// The index of the `)` closing the `(` at `open` (or the end).
fn closing(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

/// The names of the variables a word expands (`$R`, `${R}`, `${R:-x}`),
/// outside single quotes.
pub(super) fn variables(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut single = false;
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => single = !single,
            '$' if !single => {
                let braced = chars.peek() == Some(&'{');
                if braced {
                    chars.next();
                }
                let mut name = String::new();
                while let Some(&n) = chars.peek() {
                    if !(n.is_ascii_alphanumeric() || n == '_') {
                        break;
                    }
                    name.push(n);
                    chars.next();
                }
                if !name.is_empty() {
                    out.push(name);
                }
            }
            _ => {}
        }
    }
    out
}

/// `NAME=value` (or `NAME+=value`): the name and the value as written.
pub(super) fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let name = name.strip_suffix('+').unwrap_or(name);
    // `a["$i"]=1`: an array's element.
    let name = match name.split_once('[') {
        Some((array, _)) if name.ends_with(']') => array,
        _ => name,
    };
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((name, value))
}

/// A word with its quotes and backslashes taken out, as the program gets it.
pub(super) fn unquote(word: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => out.extend(chars.next()),
            (Some(_), c) => out.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, c) => out.push(c),
        }
    }
    out
}

/// The statements of shell text, each its words as written (quotes and
/// substitutions kept whole; a here-document's `<<EOF` as `<<`): split at newlines, `;`, `&`, `|`, and a
/// subshell's or a function's parentheses, outside quotes and
/// substitutions; comments left out.
pub(super) fn statements(text: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    // Inside `[[ … ]]`.
    let mut test = false;
    // The delimiters of the here-documents that start on this line.
    let mut heredocs: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let end_word = |word: &mut String, words: &mut Vec<String>| {
        if !word.is_empty() {
            words.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') => {
                quote = None;
                word.push(c);
            }
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(c);
                word.extend(chars.next());
            }
            (Some('`'), '`') if depth == 0 => {
                quote = None;
                word.push(c);
            }
            (Some('"'), '"') if depth == 0 => {
                quote = None;
                word.push(c);
            }
            // `<<EOF` (not `<<<`): the lines up to `EOF` are data.
            (None, '<') if depth == 0 && chars.peek() == Some(&'<') => {
                chars.next();
                if chars.peek() == Some(&'<') {
                    chars.next();
                    continue;
                }
                let delimiter = heredoc_delimiter(&mut chars);
                if !delimiter.is_empty() {
                    heredocs.push(delimiter);
                }
                // The redirection stays a word (`<<`): a program's input is
                // then the text below, not the command's (recheck 26).
                end_word(&mut word, &mut words);
                words.push("<<".to_string());
            }
            // `NAME=(a b c)`: an array's words, one assignment.
            (None, '(') if word.ends_with('=') => {
                word.push(c);
                depth += 1;
            }
            (_, '$' | '<' | '>') if chars.peek() == Some(&'(') => {
                word.push(c);
                word.extend(chars.next());
                depth += 1;
            }
            (_, '(') if depth > 0 => {
                depth += 1;
                word.push(c);
            }
            (_, ')') if depth > 0 => {
                depth -= 1;
                word.push(c);
            }
            (Some(_), c) => word.push(c),
            (None, _) if depth > 0 => word.push(c),
            (None, '\'' | '"' | '`') => {
                quote = Some(c);
                word.push(c);
            }
            (None, '#') if word.is_empty() => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            (None, c) if c.is_whitespace() && c != '\n' => {
                end_word(&mut word, &mut words);
                test = match words.last().map(String::as_str) {
                    Some("[[") => true,
                    Some("]]") => false,
                    _ => test,
                };
            }
            // Inside `[[ … ]]`, `||`, `&&` and parentheses join tests.
            (None, c) if test && "&|()".contains(c) => end_word(&mut word, &mut words),
            (None, c) if "\n;&|()".contains(c) => {
                test = false;
                if c == '\n' {
                    skip_heredocs(&mut chars, &mut heredocs);
                }
                end_word(&mut word, &mut words);
                if !words.is_empty() {
                    out.push(std::mem::take(&mut words));
                }
            }
            (None, '}') if word.is_empty() => {}
            (None, c) => word.push(c),
        }
    }
    end_word(&mut word, &mut words);
    if !words.is_empty() {
        out.push(words);
    }
    out
}

/// The delimiter of a here-document after its `<<` (`-EOF`, `'EOF'`,
/// `"EOF"`: `EOF`).
fn heredoc_delimiter(chars: &mut std::iter::Peekable<std::str::Chars>) -> String {
    let mut delimiter = String::new();
    while chars
        .next_if(|&n| n == '-' || n == ' ' || n == '\t')
        .is_some()
    {}
    while let Some(&n) = chars.peek() {
        if n.is_whitespace() || ";&|<>()".contains(n) {
            break;
        }
        if !"'\"\\".contains(n) {
            delimiter.push(n);
        }
        chars.next();
    }
    delimiter
}

/// Past the bodies of the here-documents `heredocs` (the line after
/// their start): each up to the line holding its delimiter alone.
fn skip_heredocs(chars: &mut std::iter::Peekable<std::str::Chars>, heredocs: &mut Vec<String>) {
    for delimiter in std::mem::take(heredocs) {
        loop {
            let line: String = chars.by_ref().take_while(|&c| c != '\n').collect();
            if line.trim() == delimiter || chars.peek().is_none() {
                break;
            }
        }
    }
}
