//! The values a script gives a search-path variable of its children's
//! environment (`PYTHONPATH`, `NODE_PATH`): `os.environ["PYTHONPATH"] =
//! "vendor"`, `env={**os.environ, "PYTHONPATH": "vendor"}`,
//! `os.putenv("PYTHONPATH", …)`, `dict(os.environ, PYTHONPATH=…)`,
//! `process.env.NODE_PATH = "vendor"`, `env: {NODE_PATH: "vendor"}`, and
//! a shell line in a string (`"PYTHONPATH=vendor python3 -m x"`). A child
//! it starts looks its imports up there, so `sys_path.rs` and `node.rs`
//! look there too. Each value is read as written; [`parts`] splits it
//! into the folders it names and says when it holds anything else (a
//! variable, a call, a file's content): then the folder is known only as
//! the script runs.

/// One value given to the variable: an expression of the script's
/// language, or the word of a shell line in a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Given {
    Expression(String),
    Shell(String),
}

/// The values `code` (one line of a script) gives the variable `name`.
/// A read of it (`os.environ.get("PYTHONPATH", "")`, `x ==
/// process.env.NODE_PATH`) gives none.
pub(super) fn given(code: &str, name: &str) -> Vec<Given> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(name) {
        let before = &code[..at];
        let after = &code[at + name.len()..];
        let word_before = before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if word_before || after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let quote = before
            .chars()
            .next_back()
            .filter(|c| matches!(c, '"' | '\''));
        let in_string = quoted_at(before);
        if in_string && let Some(value) = after.strip_prefix('=') {
            // `"PYTHONPATH=vendor python3 …"`: a shell line's assignment.
            let end = value
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ';'))
                .unwrap_or(value.len());
            out.push(Given::Shell(value[..end].to_string()));
            continue;
        }
        if in_string && quote.is_none() {
            continue;
        }
        let after = match quote {
            Some(q) => match after.strip_prefix(q) {
                Some(rest) => rest,
                None => continue,
            },
            None => after,
        };
        let rest = after.trim_start();
        let rest = rest.strip_prefix(']').unwrap_or(rest).trim_start();
        let value = if let Some(v) = rest.strip_prefix("+=") {
            Some(line_value(v))
        } else if let Some(v) = rest.strip_prefix('=').filter(|v| !v.starts_with('=')) {
            // `env.update(PYTHONPATH=…)` ends at its call; an assignment
            // at the line's end.
            match quote.is_none() && before.trim_end().ends_with(['(', ',']) {
                true => Some(argument(v)),
                false => Some(line_value(v)),
            }
        } else if let Some(v) = rest.strip_prefix(':') {
            Some(argument(v))
        } else if let Some(v) = rest.strip_prefix(',') {
            let call = before[..before.len() - quote.map_or(0, char::len_utf8)].trim_end();
            ["putenv(", "setdefault(", "setenv("]
                .iter()
                .any(|c| call.ends_with(c))
                .then(|| argument(v))
        } else {
            None
        };
        out.extend(value.map(|v| Given::Expression(v.trim().to_string())));
    }
    out
}

/// The variables a line of Python gives its children's environment a
/// value known only as it runs (`os.environ["RUNNER"] =
/// open("tools/which").read()`, `env={**os.environ, "RUNNER": w}`,
/// `os.putenv("RUNNER", w)`, `dict(os.environ, RUNNER=w)`), each with
/// the line (trimmed, at most 80 characters). Any name a string literal
/// of the line holds is tried, so a plain dictionary's key counts too:
/// it matters only where a shell runs the variable (more refusals,
/// never fewer). A value that is one string literal is known.
pub(super) fn unknown_variables(code: &str) -> Vec<(String, String)> {
    let quoted = literals(code);
    let mut names: Vec<&str> = quoted
        .iter()
        .map(String::as_str)
        .filter(|l| is_name(l))
        .collect();
    // `dict(os.environ, RUNNER=w)`, `env.update(RUNNER=w)`: keywords.
    if code.contains("dict(") || code.contains("update(") {
        for part in code.split(['(', ',']).skip(1) {
            if let Some((name, value)) = part.split_once('=')
                && is_name(name.trim())
                && !value.starts_with('=')
            {
                names.push(name.trim());
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    let mut out = Vec::new();
    for name in names {
        // A name's own binding (`base = f()` beside `get("base")`) sets
        // no variable: only its quoted forms and a call's keywords count.
        let forms = only_where(code, name, |before| {
            before.ends_with(['"', '\''])
                || before.trim_end().ends_with(['(', ','])
                    && (code.contains("dict(") || code.contains("update("))
        });
        let unknown = given(&forms, name).iter().any(|g| match g {
            Given::Expression(e) => literal(e.trim()).is_none(),
            Given::Shell(word) => word.contains(['$', '`']),
        });
        if unknown {
            let shown: String = code.trim().chars().take(80).collect();
            out.push((name.to_string(), shown));
        }
    }
    out
}

/// `code` with each `name` whose text before it is not one `keep`
/// accepts blanked (`~`), so [`given`] reads only the others.
pub(super) fn only_where(code: &str, name: &str, keep: impl Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(code.len());
    let mut last = 0;
    for (at, _) in code.match_indices(name) {
        if at < last || keep(&code[..at]) {
            continue;
        }
        out.push_str(&code[last..at]);
        out.push_str(&"~".repeat(name.len()));
        last = at + name.len();
    }
    out.push_str(&code[last..]);
    out
}

/// Whether `word` can name an environment variable.
pub(super) fn is_name(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with(|c: char| c.is_ascii_digit())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The contents of the string literals (`'…'`, `"…"`) of a line of
/// Python, their escapes (`\"`, `\\`) read.
pub(super) fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if c != '"' && c != '\'' {
            continue;
        }
        let mut body = String::new();
        let mut closed = false;
        while let Some(d) = chars.next() {
            match d {
                '\\' => match chars.next() {
                    Some('n') => body.push('\n'),
                    Some('t') => body.push('\t'),
                    Some(e) if e == c || e == '\\' => body.push(e),
                    Some(e) => body.extend(['\\', e]),
                    None => {}
                },
                d if d == c => {
                    closed = true;
                    break;
                }
                d => body.push(d),
            }
        }
        if !closed {
            break;
        }
        out.push(body);
    }
    out
}

/// Whether the end of `before` lies inside a string literal.
fn quoted_at(before: &str) -> bool {
    let mut quote: Option<char> = None;
    for c in before.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None => {}
        }
    }
    quote.is_some()
}

/// An assignment's value: the rest of the line, a statement's `;` cut.
fn line_value(value: &str) -> &str {
    value.trim().trim_end_matches(';')
}

/// An argument's value: up to the `,`, `)` or `}` that ends it outside
/// brackets and string literals.
fn argument(value: &str) -> &str {
    top_level_until(value, |rest| rest.starts_with(','))
}

/// `text` up to where, outside brackets and string literals, a bracket
/// closes one it did not open or `ends` says the rest ends it.
pub(super) fn top_level_until(text: &str, ends: impl Fn(&str) -> bool) -> &str {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        if quote.is_none() && depth == 0 && ends(&text[i..]) {
            return &text[..i];
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => return &text[..i],
            (None, ')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    text
}

/// What an expression given to `name` is made of.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Parts {
    /// Folders named by string literals (split at `:`), as written.
    pub(super) folders: Vec<String>,
    /// The parts that are neither a literal, the separator, nor the
    /// variable's value inherited: for the language to work out (a path
    /// built from the script's file) or refuse.
    pub(super) other: Vec<String>,
}

/// The separators of a search path a script may join with.
const SEPARATORS: &[&str] = &["os.pathsep", "pathsep", "path.delimiter", "\":\"", "':'"];

/// Split `value` (given to `name`) at its top-level `+` and the items of
/// a `….join([…])`: literals are folders, the separator and the
/// inherited value (anything naming `name`: `os.environ.get(name, "")`)
/// are passed over, the rest is [`Parts::other`].
pub(super) fn parts(value: &Given, name: &str) -> Parts {
    let mut out = Parts::default();
    let expression = match value {
        Given::Shell(word) => {
            for part in word.split(':').filter(|p| !p.is_empty()) {
                match part.contains('$') {
                    true if part.contains(name) => {}
                    true => out.other.push(part.to_string()),
                    false => out.folders.push(part.to_string()),
                }
            }
            return out;
        }
        Given::Expression(e) => e,
    };
    for part in split_top(expression, '+') {
        add_part(part.trim(), name, 0, &mut out);
    }
    out
}

/// How deep `….join([…])` inside one another is read (past it, a part
/// is another part: known only as it runs).
const MAX_JOIN_DEPTH: usize = 4;

/// Add one `+` part of a value given to `name` to `out` ([`parts`]).
fn add_part(part: &str, name: &str, depth: usize, out: &mut Parts) {
    if part.contains(name)
        && let Some((body, template)) = interpolated(part)
    {
        // `` `${__dirname}/bin:${process.env.PATH}` ``, `f"{d}:{os.environ['PATH']}"`:
        // each `:` piece, the inherited value passed over.
        for piece in split_top(body, ':') {
            match (piece.contains(name), piece.contains('{')) {
                (true, _) => {}
                (false, false) if !piece.is_empty() => out.folders.push(piece.to_string()),
                (false, false) => {}
                (false, true) if template => out.other.push(format!("`{piece}`")),
                (false, true) => out.other.push(piece.to_string()),
            }
        }
        return;
    }
    if part.is_empty() || part.contains(name) || SEPARATORS.contains(&part) {
        return;
    }
    if let Some(items) = joined_items(part).filter(|_| depth < MAX_JOIN_DEPTH) {
        for item in split_top(items, ',') {
            add_part(item.trim(), name, depth + 1, out);
        }
        return;
    }
    match literal(part) {
        Some(text) if !text.contains('{') => out
            .folders
            .extend(text.split(':').filter(|p| !p.is_empty()).map(String::from)),
        _ => out.other.push(part.to_string()),
    }
}

/// The body of a JavaScript template that expands (`` `${a}:b` ``), or
/// of a Python f-string (`f"{a}:b"`), and whether it is a template.
fn interpolated(part: &str) -> Option<(&str, bool)> {
    if let Some(body) = part.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        return body.contains("${").then_some((body, true));
    }
    let rest = part.strip_prefix(['f', 'F'])?;
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = rest.strip_prefix(quote)?.strip_suffix(quote)?;
    (!body.contains(quote)).then_some((body, false))
}

/// The items of `SEP.join([…])` / `[…].join(SEP)`, when `part` is one.
fn joined_items(part: &str) -> Option<&str> {
    if let Some((sep, list)) = part.split_once(".join(")
        && SEPARATORS.contains(&sep.trim())
    {
        let list = list.trim().strip_suffix(')')?.trim();
        return list.strip_prefix(['[', '('])?.strip_suffix([']', ')']);
    }
    let (list, sep) = part.rsplit_once(".join(")?;
    let sep = sep.trim().strip_suffix(')')?.trim();
    SEPARATORS
        .contains(&sep)
        .then(|| list.trim().strip_prefix('[')?.strip_suffix(']'))
        .flatten()
}

/// The text of `part` when it is one string literal (`"a"`, `'a'`,
/// `` `a` ``, `r"a"`).
pub(super) fn literal(part: &str) -> Option<&str> {
    let part = part.strip_prefix(['r', 'R']).unwrap_or(part);
    let quote = part
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = part.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inner.contains(quote)).then_some(inner)
}

/// `text` split at `at` outside brackets and string literals.
pub(super) fn split_top(text: &str, at: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, c) if c == at && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folders(code: &str, name: &str) -> Vec<(Vec<String>, Vec<String>)> {
        given(code, name)
            .iter()
            .map(|g| {
                let p = parts(g, name);
                (p.folders, p.other)
            })
            .collect()
    }

    fn known(list: &[&str]) -> (Vec<String>, Vec<String>) {
        (list.iter().map(|s| s.to_string()).collect(), Vec::new())
    }

    #[test]
    fn each_way_of_giving_a_child_a_search_path_is_read() {
        let p = "PYTHONPATH";
        assert_eq!(
            folders("os.environ[\"PYTHONPATH\"] = \"vendor\"", p),
            [known(&["vendor"])]
        );
        assert_eq!(
            folders(
                "run(x, env={**os.environ, 'PYTHONPATH': 'a:b'}, check=True)",
                p
            ),
            [known(&["a", "b"])]
        );
        assert_eq!(
            folders("os.putenv('PYTHONPATH', 'vendor' + os.pathsep + 'lib')", p),
            [known(&["vendor", "lib"])]
        );
        assert_eq!(
            folders(
                "env = dict(os.environ, PYTHONPATH=os.pathsep.join(['a', 'b']))",
                p
            ),
            [known(&["a", "b"])]
        );
        assert_eq!(
            folders(
                "os.environ['PYTHONPATH'] = 'vendor:' + os.environ.get('PYTHONPATH', '')",
                p
            ),
            [known(&["vendor"])]
        );
        assert_eq!(
            folders("os.system(\"PYTHONPATH=vendor python3 -m vv\")", p),
            [known(&["vendor"])]
        );
        assert_eq!(
            folders("process.env.NODE_PATH = \"vendor\";", "NODE_PATH"),
            [known(&["vendor"])]
        );
        assert_eq!(
            folders("spawnSync('node', a, {env: {NODE_PATH: 'v'}})", "NODE_PATH"),
            [known(&["v"])]
        );
        // Reads give nothing.
        assert!(given("x = os.environ.get('PYTHONPATH', '')", p).is_empty());
        assert!(given("if os.environ['PYTHONPATH'] == 'x':", p).is_empty());
        assert!(given("print(PYTHONPATHS)", p).is_empty());
        // A value known only as it runs is another part.
        assert_eq!(
            folders("os.environ['PYTHONPATH'] = open('w').read()", p),
            [(Vec::new(), vec!["open('w').read()".to_string()])]
        );
        assert_eq!(
            folders("os.environ['PYTHONPATH'] = f'{d}/x'", p),
            [(Vec::new(), vec!["f'{d}/x'".to_string()])]
        );
    }

    #[test]
    fn a_variable_given_a_child_a_value_known_only_as_it_runs_is_named() {
        let names = |code: &str| -> Vec<String> {
            unknown_variables(code)
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        assert_eq!(
            names("os.environ[\"RUNNER\"] = open('tools/which').read()"),
            ["RUNNER"]
        );
        assert_eq!(names("run(c, env={**os.environ, 'R': w, 'L': 'x'})"), ["R"]);
        assert_eq!(names("os.putenv('R', w)"), ["R"]);
        assert_eq!(names("env = dict(os.environ, R=w, L='x')"), ["R"]);
        // A Python name of the same spelling is no variable.
        assert!(names("base = variables.get(\"base\", sys.prefix)").is_empty());
        // Literals, and reads, are known.
        assert!(names("os.environ['R'] = 'tools/w.sh'").is_empty());
        assert!(names("x = os.environ.get('R', '')").is_empty());
        assert!(names("print('R')").is_empty());
    }
}
