//! What a Python or JavaScript script loads by a name it computes:
//! `importlib.import_module(name)`, `__import__(n)`, `exec(code)`,
//! `runpy.run_path(f)`, `spec_from_file_location("m", p)`,
//! `require(path.join(__dirname, "h"))`, `import(spec)`. The simple forms
//! are worked out: a name bound only to string literals (`n = "./h"`),
//! a path built from the script's folder and literals (`path.join(
//! __dirname, "h")`, `__dirname + "/h.js"`, `` `${__dirname}/h.js` ``,
//! `require.resolve("./h")`, `os.path.join(os.path.dirname(__file__),
//! "h.py")`). The rest (a loop's variable over a folder's listing, an
//! f-string, a value read from a file or the environment, a function's
//! parameter) is known only as the script runs: a refusal
//! (`trust/unknown.rs`), since what it loads is decided after any review.
//! Like the other readers it reads text, not a parse: a name bound in any
//! way but a string literal is unknown (more refusals, never fewer).

pub(super) mod argv;
pub(super) mod node_argv;
mod py_names;

use super::env_path;
use std::collections::{HashMap, HashSet};

/// The most calls read from one file.
const MAX_CALLS: usize = 512;

/// The most characters of a call's arguments read.
const MAX_ARGS: usize = 2000;

/// What a script loads by a computed name.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Dynamic {
    /// Python module names or JavaScript specifiers worked out.
    pub(super) names: Vec<String>,
    /// Of JavaScript specifiers, those relative to where the command
    /// runs (the root: `path.resolve("tools/h")`), not the script.
    pub(super) from_root: Vec<String>,
    /// The lines of the calls whose name or path is known only as it
    /// runs (a refusal each), trimmed, at most 80 characters.
    pub(super) unknown: Vec<String>,
    /// The lines of the calls that run a program or script known only
    /// as they run ([`argv`]), likewise.
    pub(super) runs: Vec<String>,
    /// The functions that run a parameter ([`argv::Sink`]).
    pub(super) sinks: Vec<argv::Sink>,
    /// What a known argv or shell line runs that no review covers
    /// ([`argv::Runs::refusals`]): why, and the call's line.
    pub(super) refusals: Vec<(String, String)>,
}

/// The Python calls that load by a name or path, the argument that names
/// it, and whether that is a module name (else a path or code).
const PYTHON_CALLS: &[(&str, usize, bool)] = &[
    ("import_module(", 0, true),
    ("__import__(", 0, true),
    ("run_module(", 0, true),
    ("exec(", 0, false),
    ("execfile(", 0, false),
    ("run_path(", 0, false),
    ("spec_from_file_location(", 1, false),
    ("SourceFileLoader(", 1, false),
    ("load_source(", 1, false),
];

/// The names a Python path or code expression may hold and still be
/// known: the script's own file and folder, path functions, reading.
const PYTHON_KNOWN: &[&str] = &[
    "os",
    "path",
    "join",
    "dirname",
    "abspath",
    "realpath",
    "normpath",
    "Path",
    "pathlib",
    "parent",
    "parents",
    "resolve",
    "absolute",
    "str",
    "__file__",
    "fspath",
    "getcwd",
    "open",
    "read",
    "read_text",
    "compile",
    "joinpath",
    "encoding",
    "mode",
    "__name__",
    "__package__",
    "package",
];

/// The names a JavaScript specifier expression may hold and still be
/// known.
const JS_KNOWN: &[&str] = &[
    "path",
    "join",
    "resolve",
    "__dirname",
    "__filename",
    "require",
    "dirname",
    "import",
    "meta",
    "url",
    "fileURLToPath",
    "pathToFileURL",
    "URL",
    "new",
    "href",
    "pathname",
    "process",
    "cwd",
];

/// What Python `text` loads by a computed name.
pub(super) fn python(text: &str) -> Dynamic {
    let code = python_code(text);
    let bound = Bound::read(&code, Lang::Python);
    let mut out = Dynamic::default();
    for (call, index, module) in PYTHON_CALLS {
        past_calls(&code, call, &mut out);
        for (at, _) in code.match_indices(call).take(MAX_CALLS) {
            let before = code[..at].chars().next_back();
            // `self.exec(…)`, `def exec(`: a method or a definition.
            let method = before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || (*call == "exec(" && before == Some('.'))
                || code[..at].trim_end().ends_with("def");
            if method {
                continue;
            }
            let args = arguments(&code[at + call.len()..]);
            let Some(arg) = args.get(*index) else {
                continue;
            };
            let arg = arg.trim();
            // `__import__()`: no name, nothing loaded.
            if arg.is_empty() || literal(arg).is_some() {
                continue;
            }
            match (*module, bound.values(arg)) {
                (true, Some(values)) => out.names.extend(values),
                (false, _) if known(arg, &bound, PYTHON_KNOWN) => {}
                _ => {
                    let shown = shown(&code, at);
                    if !out.unknown.contains(&shown) {
                        out.unknown.push(shown);
                    }
                }
            }
        }
    }
    let runs = argv::python(&code, &bound);
    out.runs = runs.unknown;
    out.sinks = runs.sinks;
    out.refusals = runs.refusals;
    out
}

/// What Python `text` hands the functions of `sinks` ([`argv::sink_calls`]).
pub(super) fn python_sink_calls(
    text: &str,
    sinks: &[argv::Sink],
    stem: &str,
    defined: &argv::Defined,
) -> argv::Runs {
    argv::sink_calls(&python_code(text), sinks, stem, defined)
}

/// The names of the functions Python `text` defines at its top level
/// (`def run(` at no indent).
pub(super) fn python_defs(text: &str) -> Vec<String> {
    python_code(text)
        .lines()
        .filter_map(|line| {
            let line = line.strip_prefix("async ").unwrap_or(line);
            let rest = line.strip_prefix("def ")?;
            let name = rest.split('(').next()?.trim();
            is_identifier(name).then(|| name.to_string())
        })
        .collect()
}

/// Past [`MAX_CALLS`] calls of `call` the rest are not read: a refusal
/// (one of them could load anything unreviewed).
fn past_calls(code: &str, call: &str, out: &mut Dynamic) {
    if code.matches(call).nth(MAX_CALLS).is_some() {
        out.unknown.push(format!(
            "more than {MAX_CALLS} calls of `{call}`: the rest are not read"
        ));
    }
}

/// What JavaScript `text` loads by a computed specifier.
pub(super) fn js(text: &str) -> Dynamic {
    let code = js_code(text);
    let bound = Bound::read(&code, Lang::Js);
    let mut out = Dynamic::default();
    js_loaders_by_another_name(&code, &mut out);
    for call in ["require(", "import("] {
        past_calls(&code, call, &mut out);
        for (at, _) in code.match_indices(call).take(MAX_CALLS) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
                continue;
            }
            let args = arguments(&code[at + call.len()..]);
            let Some(arg) = args.first().map(|a| a.trim()) else {
                continue;
            };
            if arg.is_empty() || literal(arg).is_some_and(|l| !l.contains("${")) {
                continue;
            }
            match js_spec(arg, &bound) {
                Some((spec, false)) => out.names.push(spec),
                Some((spec, true)) => out.from_root.push(spec),
                None => {
                    let shown = shown(&code, at);
                    if !out.unknown.contains(&shown) {
                        out.unknown.push(shown);
                    }
                }
            }
        }
    }
    out
}

/// Node's loader reached other than by a call of `require` (recheck 25):
/// `require` bound to another name (`const r = require`), called through
/// `.call`/`.apply`, `Module._load(…)`, and `createRequire(…)(…)` called
/// at once. What these load is not read here: each is a refusal, as a
/// computed specifier is.
fn js_loaders_by_another_name(code: &str, out: &mut Dynamic) {
    let mut found = |at: usize| {
        let shown = shown(code, at);
        if !out.unknown.contains(&shown) && out.unknown.len() < MAX_CALLS {
            out.unknown.push(shown);
        }
    };
    for (at, _) in code.match_indices("require").take(MAX_CALLS) {
        let before = code[..at].trim_end();
        let after = code[at + "require".len()..].trim_start();
        let whole = !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
            && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$');
        if !whole {
            continue;
        }
        let bound_elsewhere = before.ends_with(['=', '(', ',', ':', '?', '['])
            && !before.ends_with("==")
            && after.starts_with([';', ',', ')', '\n', '}', ']'])
            || after.is_empty();
        let called_through = after.starts_with(".call(") || after.starts_with(".apply(");
        if bound_elsewhere || called_through {
            found(at);
        }
    }
    for (at, _) in code.match_indices("._load(").take(MAX_CALLS) {
        found(at);
    }
    for (at, _) in code.match_indices("createRequire(").take(MAX_CALLS) {
        let args = &code[at + "createRequire(".len()..];
        let Some(close) = closing_paren(args) else {
            continue;
        };
        if args[close + 1..].trim_start().starts_with('(') {
            found(at);
        }
    }
}

/// The index of the `)` closing a call whose arguments start `args`,
/// within [`MAX_ARGS`] characters.
fn closing_paren(args: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in args.char_indices().take(MAX_ARGS) {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The specifier a JavaScript expression works out to, and whether it is
/// relative to where the command runs rather than the script.
fn js_spec(arg: &str, bound: &Bound) -> Option<(String, bool)> {
    if let Some(values) = bound.values(arg) {
        return values.into_iter().next().map(|v| (v, false));
    }
    if !known(arg, bound, JS_KNOWN) {
        return None;
    }
    // `const d = path.dirname(…)`: a name stands for what it is bound to.
    let arg = &expand(arg, bound, 0);
    // `require.resolve("./h")`: the literal is the specifier.
    let inner = arg.strip_prefix("require.resolve(").unwrap_or(arg);
    let mut parts: Vec<String> = Vec::new();
    for p in string_parts(inner) {
        match p.strip_prefix(FIELD) {
            // A template's field: a name bound to literals, or unknown.
            Some(name) => parts.extend(bound.values(name)?.into_iter().take(1)),
            None => parts.extend(bound.values(&p).unwrap_or(vec![p])),
        }
    }
    let here = arg.contains("__dirname") || arg.contains("import.meta");
    // `path.join(d, "h")` joins its parts with `/`; `"./" + n + ".mjs"`
    // and a template put them side by side (recheck 25: joined with `/`,
    // `./helper/.mjs` named no file and the script was not covered).
    let joins = ["join(", "resolve(", "URL("]
        .iter()
        .any(|call| inner.contains(call));
    let joined = if joins {
        parts
            .iter()
            .map(|p| p.trim_matches('/'))
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("/")
    } else {
        parts.concat().trim_matches('/').to_string()
    };
    if joined.is_empty() {
        return None;
    }
    let relative = joined.starts_with("./") || joined.starts_with("../");
    let builds_a_path = here || arg.contains("path.") || arg.contains("cwd");
    match (here, builds_a_path || relative) {
        (true, _) => Some((format!("./{joined}"), false)),
        (false, true) if relative => Some((joined, false)),
        (false, true) => Some((format!("./{joined}"), true)),
        (false, false) => Some((joined, false)),
    }
}

/// How many names bound to names are put in at most.
const MAX_EXPANSION_DEPTH: usize = 4;

/// `expr` with each name bound once to an expression that is no literal
/// put in its place, in parentheses (`path.join(d, "h")` with `d =
/// path.dirname(…)`), outside string literals and inside a template's
/// `${…}`.
fn expand(expr: &str, bound: &Bound, depth: usize) -> String {
    if depth >= MAX_EXPANSION_DEPTH {
        return expr.to_string();
    }
    let chars: Vec<char> = expr.chars().collect();
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let code = quote.is_none() || (quote == Some('`') && braces > 0);
        let opens_template = c == '$' && chars.get(i + 1) == Some(&'{');
        if code && (c.is_alphabetic() || c == '_' || c == '$') && !opens_template {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let attribute = start > 0 && chars[start - 1] == '.';
            let module = JS_KNOWN.contains(&name.as_str());
            match bound.single(&name).filter(|_| !attribute && !module) {
                Some(value) => {
                    out.push('(');
                    out.push_str(&expand(value, bound, depth + 1));
                    out.push(')');
                }
                None => out.push_str(&name),
            }
            continue;
        }
        match (quote, c) {
            (None, '"' | '\'' | '`') => quote = Some(c),
            (Some('`'), '$') if opens_template && braces == 0 => {
                braces = 1;
                out.push_str("${");
                i += 2;
                continue;
            }
            (Some('`'), '{') if braces > 0 => braces += 1,
            (Some('`'), '}') if braces > 0 => braces -= 1,
            (Some(q), c) if c == q && braces == 0 => quote = None,
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

/// What marks a template field's name among [`string_parts`].
const FIELD: &str = "\u{0}";

/// The string literals and the bound names of an expression, in order
/// (a template field's name marked by [`FIELD`]).
fn string_parts(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '"' | '\'' | '`') {
            let end = chars[i + 1..]
                .iter()
                .position(|&d| d == c)
                .map_or(chars.len(), |e| i + 1 + e);
            let body: String = chars[i + 1..end].iter().collect();
            if c != '`' || !body.contains("${") {
                out.push(body);
                i = end + 1;
                continue;
            }
            // A template: its text and its fields' names, in order
            // (`./${n}.mjs`, recheck 25); `${__dirname}` and the like are
            // where the script is, said by the expression itself.
            let mut rest = body.as_str();
            while let Some(open) = rest.find("${") {
                if open > 0 {
                    out.push(rest[..open].to_string());
                }
                let field = &rest[open + 2..];
                let close = field.find('}').unwrap_or(field.len());
                let name = field[..close].trim();
                if !JS_KNOWN.contains(&name) && !name.starts_with("import.meta") {
                    out.push(format!("{FIELD}{name}"));
                }
                rest = field.get(close + 1..).unwrap_or("");
            }
            if !rest.is_empty() {
                out.push(rest.to_string());
            }
            i = end + 1;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            if !JS_KNOWN.contains(&name.as_str()) && chars.get(start.wrapping_sub(1)) != Some(&'.')
            {
                out.push(name);
            }
            continue;
        }
        i += 1;
    }
    out
}

/// The languages read.
#[derive(Clone, Copy, PartialEq)]
enum Lang {
    Python,
    Js,
}

/// The names a script binds, and to what: a name is known when every
/// binding is an assignment of a known expression, bound only to
/// literals when each is one.
#[derive(Clone)]
struct Bound {
    assigned: HashMap<String, Vec<String>>,
    /// Names bound otherwise: a loop's, a parameter, `with … as`, a
    /// tuple's, an augmented assignment's.
    loose: HashSet<String>,
}

impl Bound {
    fn read(code: &str, lang: Lang) -> Bound {
        let mut bound = Bound {
            assigned: HashMap::new(),
            loose: HashSet::new(),
        };
        for line in code.lines() {
            // `const n = "./h"; require(n)`: two statements.
            for statement in env_path::split_top(line, ';') {
                bound.read_line(statement.trim(), lang);
            }
        }
        bound
    }

    fn read_line(&mut self, line: &str, lang: Lang) {
        let line = match lang {
            Lang::Js => ["const ", "let ", "var ", "export "]
                .iter()
                .fold(line, |l, k| l.strip_prefix(k).unwrap_or(l)),
            Lang::Python => line,
        };
        let mut loose: Vec<&str> = Vec::new();
        for (open, close) in [
            ("for ", " in "),
            ("for (", " of "),
            ("for (", " in "),
            (" as ", ":"),
            ("lambda ", ":"),
            ("def ", ":"),
            ("function", "{"),
            ("(", "=>"),
        ] {
            for (at, _) in line.match_indices(open) {
                let rest = &line[at + open.len()..];
                if let Some(end) = rest.find(close) {
                    loose.push(&rest[..end]);
                }
            }
        }
        if let Some(before) = line.split("=>").next().filter(|_| line.contains("=>")) {
            loose.push(before);
        }
        for part in loose {
            for name in identifiers(part) {
                self.loose.insert(name);
            }
        }
        if let Some((target, value)) = split_assignment(line) {
            let target = target.split(':').next().unwrap_or("").trim();
            if is_identifier(target) {
                let value = value.trim().trim_end_matches(';').trim().to_string();
                self.assigned
                    .entry(target.to_string())
                    .or_default()
                    .push(value);
            } else {
                for name in identifiers(target) {
                    self.loose.insert(name);
                }
            }
        }
    }

    /// The one expression `name` is bound to, when it is bound once, no
    /// other way, and not to a literal.
    fn single(&self, name: &str) -> Option<&str> {
        if self.loose.contains(name) {
            return None;
        }
        match self.assigned.get(name).map(Vec::as_slice) {
            Some([value]) if literal(value).is_none() => Some(value),
            _ => None,
        }
    }

    /// The string values `expr` takes, when it is a literal or a name
    /// bound only to literals.
    fn values(&self, expr: &str) -> Option<Vec<String>> {
        if let Some(value) = literal(expr) {
            return (!value.contains("${")).then(|| vec![value.to_string()]);
        }
        if !is_identifier(expr) || self.loose.contains(expr) {
            return None;
        }
        let values = self.assigned.get(expr)?;
        values
            .iter()
            .map(|v| literal(v).filter(|l| !l.contains("${")).map(str::to_string))
            .collect()
    }

    /// Whether `name` is bound only to known expressions.
    fn known_name(&self, name: &str, known: &[&str], seen: &mut Vec<String>) -> bool {
        if self.loose.contains(name) || seen.iter().any(|s| s == name) || seen.len() > 16 {
            return false;
        }
        let Some(values) = self.assigned.get(name) else {
            return false;
        };
        seen.push(name.to_string());
        let ok = values.iter().all(|v| known_in(v, self, known, seen));
        seen.pop();
        ok
    }
}

/// Whether every name of expression `expr` is a known word or a name
/// bound to a known expression (string literals left out).
fn known(expr: &str, bound: &Bound, words: &[&str]) -> bool {
    known_in(expr, bound, words, &mut Vec::new())
}

fn known_in(expr: &str, bound: &Bound, words: &[&str], seen: &mut Vec<String>) -> bool {
    // An f-string's or a template's expansions are code.
    let (rest, expansions) = without_literals(expr);
    if rest.contains('[') && !rest.contains("parents[") {
        return false;
    }
    let names = identifiers(&rest)
        .into_iter()
        .chain(expansions.iter().flat_map(|e| identifiers(e)));
    names
        .filter(|w| !words.contains(&w.as_str()))
        .all(|w| bound.known_name(&w, words, seen))
}

/// An expression with its string literals taken out, and the expansions
/// (`{x}` of an f-string, `${x}` of a template) they hold.
fn without_literals(expr: &str) -> (String, Vec<String>) {
    let mut rest = String::new();
    let mut expansions = Vec::new();
    let mut chars = expr.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '"' | '\'' | '`') {
            let body: String = chars.by_ref().take_while(|&d| d != c).collect();
            let formatted = c == '`' || rest.ends_with('f') || rest.ends_with("rf");
            if formatted {
                for part in body.split('{').skip(1) {
                    expansions.push(part.split('}').next().unwrap_or("").to_string());
                }
            }
            // `f"…"`, `r"…"`: the prefix is no name.
            while rest.ends_with(['f', 'r', 'b', 'u', 'F', 'R', 'B', 'U'])
                && !rest[..rest.len() - 1].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                rest.pop();
            }
            rest.push_str("''");
        } else {
            rest.push(c);
        }
    }
    (rest, expansions)
}

/// The names of an expression, not attributes (`x` of `os.path.x`) nor
/// keywords of a call (`encoding=`).
fn identifiers(expr: &str) -> Vec<String> {
    let chars: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_alphabetic() || chars[i] == '_' || chars[i] == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let attribute = start > 0 && chars[start - 1] == '.';
            let after: String = chars[i..].iter().take(2).collect();
            let keyword = after.starts_with('=') && !after.starts_with("==");
            let name: String = chars[start..i].iter().collect();
            let reserved = ["and", "or", "not", "in", "is", "if", "else", "None", "True"]
                .contains(&name.as_str());
            if !attribute && !keyword && !reserved {
                out.push(name);
            }
            continue;
        }
        i += 1;
    }
    out
}

fn is_identifier(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with(|c: char| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// `target = value` of a line (not `==`, `<=`, `!=`, `=>`, nor a
/// keyword argument inside a call), or `None`.
fn split_assignment(line: &str) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' | b'\'' | b'`' => return None,
            b'=' if depth == 0 => {
                let prev = i.checked_sub(1).map(|p| bytes[p]);
                let next = bytes.get(i + 1).copied();
                if matches!(next, Some(b'=' | b'>'))
                    || matches!(prev, Some(b'=' | b'!' | b'<' | b'>'))
                {
                    return None;
                }
                // `x += 1`, `x := …`: the name is bound otherwise.
                if prev.is_some_and(|p| b"+-*/%|&^:@".contains(&p)) {
                    let name = line[..i - 1].trim();
                    return Some((name, "(changed)"));
                }
                return Some((&line[..i], &line[i + 1..]));
            }
            _ => {}
        }
    }
    None
}

/// The text of a string literal that is all of `expr` (`"a"`, `'a'`, a
/// template without expansions), or `None`.
fn literal(expr: &str) -> Option<&str> {
    let quote = expr
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = expr.get(1..)?.strip_suffix(quote)?;
    (!inner.contains(quote)).then_some(inner)
}

/// The arguments of a call whose text after `(` is `rest`: split at
/// commas outside brackets and strings, up to the closing `)`.
fn arguments(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut arg = String::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for c in rest.chars().take(MAX_ARGS) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => break,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(std::mem::take(&mut arg));
                continue;
            }
            _ => {}
        }
        arg.push(c);
    }
    out.push(arg);
    out
}

/// The line of `code` around `at`, trimmed, at most 80 characters.
fn shown(code: &str, at: usize) -> String {
    let start = code[..at].rfind('\n').map_or(0, |s| s + 1);
    let end = code[at..].find('\n').map_or(code.len(), |e| at + e);
    code[start..end].trim().chars().take(80).collect()
}

/// Python source with its comments and the insides of its triple-quoted
/// strings (docstrings) blanked, lines kept.
fn python_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let Some((at, mark)) = next_mark(rest) else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..at]);
        let after = &rest[at + mark.len()..];
        let (kept, skip) = match mark {
            "#" => ("", after.find('\n').unwrap_or(after.len())),
            "\"\"\"" | "'''" => {
                let end = string_end(after, mark).map_or(after.len(), |e| e + mark.len());
                let lines = after[..end].matches('\n').count();
                out.push_str(mark);
                out.push_str(&"\n".repeat(lines));
                out.push_str(mark);
                (mark, end)
            }
            _ => {
                let end = string_end(after, mark).map_or(after.len(), |e| e + 1);
                out.push_str(mark);
                (&after[..end], end)
            }
        };
        if !matches!(mark, "\"\"\"" | "'''") {
            out.push_str(kept);
        }
        rest = &after[skip..];
    }
    out
}

/// Where the string that `mark` opened ends in `after`: its closing
/// mark, or for a one-quote string the line's end, a backslash escaping
/// the character after it (recheck 21, item 5: `'x\⏎# '` goes on over
/// the line, and the `#` is in the string).
fn string_end(after: &str, mark: &str) -> Option<usize> {
    let bytes = after.as_bytes();
    let single = mark.len() == 1;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'\n' if single => return Some(at),
            _ if bytes[at..].starts_with(mark.as_bytes()) => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// The first place in `text` where a comment or a string starts, and
/// its mark (`"""` before `"` at one place). One pass over the text: a
/// search for each mark would read past the nearest to the farthest
/// (a file without `'''` read to its end for each of its quotes).
fn next_mark(text: &str) -> Option<(usize, &'static str)> {
    let bytes = text.as_bytes();
    let at = bytes
        .iter()
        .position(|b| matches!(b, b'#' | b'"' | b'\''))?;
    let mark = match (bytes[at], bytes.get(at + 1..at + 3)) {
        (b'#', _) => "#",
        (b'"', Some(b"\"\"")) => "\"\"\"",
        (b'"', _) => "\"",
        (_, Some(b"''")) => "'''",
        _ => "'",
    };
    Some((at, mark))
}

/// JavaScript source with its `//` and `/* */` comments blanked.
fn js_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_block = false;
    for line in text.lines() {
        let mut line = line;
        if in_block {
            match line.find("*/") {
                Some(e) => {
                    line = &line[e + 2..];
                    in_block = false;
                }
                None => {
                    out.push('\n');
                    continue;
                }
            }
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            out.push('\n');
            continue;
        }
        if let Some(s) = trimmed.strip_prefix("/*") {
            in_block = !s.contains("*/");
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_names_bound_to_literals_are_worked_out_and_the_rest_refused() {
        let known = python(
            "import importlib, os, runpy\nname = 'helper'\nimportlib.import_module(name)\n\
             importlib.import_module('x')  # import_module(y)\n\
             p = 'tools/conf.py'\nexec(compile(open(p).read(), p, 'exec'))\n\
             HERE = os.path.dirname(os.path.abspath(__file__))\n\
             runpy.run_path(os.path.join(HERE, 'w.py'))\n\
             exec(open('v.py').read(), d)\n\"\"\"import_module(doc)\"\"\"\n\
             e = __import__(\n).x\n",
        );
        assert_eq!(known.names, ["helper"]);
        assert!(known.unknown.is_empty(), "{:?}", known.unknown);
        for text in [
            "mods = ['helper']\nfor m in mods: importlib.import_module(m)\n",
            "n = 'a'\nimportlib.import_module(f'plug_{n}')\n",
            "for f in glob.glob('tools/plugins/*.py'):\n    runpy.run_path(f)\n",
            "import json\nfor m in json.load(open('p.json')):\n    __import__(m)\n",
            "def load(name):\n    return importlib.import_module(name)\n",
            "spec = spec_from_file_location('m', os.path.join('plugins', entry))\n",
            "exec(code)\n",
        ] {
            assert_eq!(python(text).unknown.len(), 1, "{text}");
        }
    }

    /// Comments and docstrings are blanked in one pass over the file
    /// (round 13: each quote read the rest of the file once for each
    /// mark missing from it, 20 s of `trust` on pip's sources).
    #[test]
    fn a_long_file_s_comments_and_docstrings_are_blanked_in_one_pass() {
        assert_eq!(
            python_code("a = '#x' # c\n\"\"\"doc\n'''\"\"\"\nb = \"'\" '''z'''\n"),
            "a = '#x' \n\"\"\"\n\"\"\"\nb = \"'\" ''''''\n"
        );
        // Its speed is measured by `benches/trust_speed.sh`, not here.
        let text = "s = 'x'  # c\n".repeat(50_000);
        assert_eq!(python_code(&text), "s = 'x'  \n".repeat(50_000));
    }

    #[test]
    fn js_paths_from_the_script_s_folder_are_worked_out_and_the_rest_refused() {
        let known = js(
            "const path = require('path')\nrequire(path.join(__dirname, 'h'))\n\
             require(__dirname + '/a.js')\nrequire(`${__dirname}/b.js`)\n\
             require(require.resolve('./c'))\nconst n = './d'\nrequire(n)\n\
             import(path.resolve(__dirname, 'e'))\n// require(x)\n\
             const m = './f'; require(m)\nconst dir = path.dirname(fileURLToPath(import.meta.url))\n\
             await import(pathToFileURL(path.join(dir, 'g.mjs')).href)\n",
        );
        assert_eq!(
            known.names,
            [
                "./h", "./a.js", "./b.js", "./c", "./d", "./f", "./e", "./g.mjs"
            ]
        );
        assert!(known.unknown.is_empty(), "{:?}", known.unknown);
        for text in [
            "for (const f of fs.readdirSync(d)) require(path.join(d, f))\n",
            "require(process.argv[2])\n",
            "const m = name + '.js'\nrequire(m)\n",
            "function load(m) { return require(m) }\n",
            "await import(`./${process.argv[2]}.mjs`)\n",
        ] {
            assert_eq!(js(text).unknown.len(), 1, "{text}");
        }
        // Recheck 25: a template or a concatenation of literals and names
        // bound to literals, put side by side.
        let known = js("const n = \"helper\"\nawait import(`./${n}.mjs`)\n\
             await import(\"./\" + n + \".js\")\nrequire(`${__dirname}/lib/${n}.cjs`)\n");
        assert_eq!(
            known.names,
            ["./lib/helper.cjs", "./helper.mjs", "./helper.js"]
        );
        assert!(known.unknown.is_empty(), "{:?}", known.unknown);
        for text in [
            "const r = require;\nr('./helper')\n",
            "require.call(null, './helper')\n",
            "require('module')._load('./helper', module)\n",
            "const { createRequire } = require('module')\ncreateRequire(__filename)('./helper')\n",
        ] {
            assert_eq!(js(text).unknown.len(), 1, "{text}: {:?}", js(text).unknown);
        }
        for text in [
            "const x = require('./a')\n",
            "if (typeof require === 'function') {}\n",
            "const req = createRequire(import.meta.url)\nreq('./a')\n",
            "module.exports = { requireAuth: true }\n",
        ] {
            assert!(
                js(text).unknown.is_empty(),
                "{text}: {:?}",
                js(text).unknown
            );
        }
    }
}
