//! PHP calls through a callable whose value the script computes from
//! outside itself or builds to hide it (consent round 12, item 6):
//! `$f($w)`, `$obj->$m()`, `Cls::$m()`, `[$o, $m]()`,
//! `call_user_func($f, …)`, `array_map($f, …)` and the other functions
//! that call what they are given, `strrev('metsys')($w)`. Refusing every
//! computed callable refused ~24 of ~290 files of real libraries (round
//! 11), which dispatch on names they hold; so a callable counts only
//! when its value comes from outside the program (`$argv`, `$_SERVER`,
//! `$_GET`…, `getenv`, a file or stream read, `json_decode`,
//! `unserialize`) or is built by a function that hides a name
//! (`strrev`, `base64_decode`, `str_rot13`, `implode`, `hex2bin`, …) or
//! by `.=`, within the same file: a variable assigned such a value, or
//! one of those variables (`$g = $f . ''`), a `foreach` value over one,
//! or such an expression in place. A concatenation of written strings
//! and variables bound to written strings is folded (`$a = 'sys'; $f =
//! $a . 'tem'`): a run's name so built counts too. A value that comes
//! from a parameter or a property is not followed (that is the
//! narrowing). A function of the file that returns such a value makes
//! its calls one (`function pick() { return $argv[1]; }`, `$g = pick()`).
//! Text, not a parse; one pass of each line, three times over the file (a
//! variable used above its assignment in a function below, a function
//! returning another's value).

use std::collections::{HashMap, HashSet};

/// Where a value from outside the program comes from.
const SOURCES: &[&str] = &[
    "$argv",
    "$_SERVER",
    "$_GET",
    "$_POST",
    "$_REQUEST",
    "$_COOKIE",
    "$_ENV",
    "$_FILES",
    "getenv(",
    "getopt(",
    "file_get_contents(",
    "file(",
    "fgets(",
    "fgetcsv(",
    "fread(",
    "fscanf(",
    "stream_get_contents(",
    "stream_get_line(",
    "readline(",
    "json_decode(",
    "unserialize(",
    "parse_ini_file(",
    "parse_ini_string(",
    "simplexml_load_file(",
    "STDIN",
];

/// The functions that build a name so no review reads it.
const BUILDERS: &[&str] = &[
    "strrev(",
    "base64_decode(",
    "str_rot13(",
    "hex2bin(",
    "gzinflate(",
    "gzuncompress(",
    "gzdecode(",
    "convert_uudecode(",
    "urldecode(",
    "rawurldecode(",
    "implode(",
    "join(",
    "chr(",
    "pack(",
    "strtr(",
    "str_replace(",
];

/// The functions that call a callable they are given, with the index of
/// that argument.
const CALLERS: &[(&str, usize)] = &[
    ("call_user_func", 0),
    ("call_user_func_array", 0),
    ("forward_static_call", 0),
    ("forward_static_call_array", 0),
    ("array_map", 0),
    ("register_shutdown_function", 0),
    ("register_tick_function", 0),
    ("set_error_handler", 0),
    ("set_exception_handler", 0),
    ("spl_autoload_register", 0),
    ("ob_start", 0),
    ("header_register_callback", 0),
    ("array_filter", 1),
    ("array_walk", 1),
    ("array_walk_recursive", 1),
    ("array_reduce", 1),
    ("usort", 1),
    ("uasort", 1),
    ("uksort", 1),
    ("iterator_apply", 1),
    ("preg_replace_callback", 1),
];

/// The longest line read, and places of a caller read in one line: past
/// either, a line holding one is refused (bounded work).
const MAX_LINE: usize = 4096;
const MAX_PLACES: usize = 32;

/// What the file's lines say of its variables.
#[derive(Default)]
struct Vars {
    /// Assigned a value from outside or a hiding build.
    computed: HashSet<String>,
    /// Bound to a written string (folded), while no other value is seen.
    written: HashMap<String, Option<String>>,
    /// `extract($_GET)`: any variable may hold anything.
    everything: bool,
    /// The file's functions that return such a value (`function f() {
    /// return $argv[1]; }`): a call of one is a computed value too.
    returning: HashSet<String>,
}

/// The lines (comments blanked) that call a callable computed as
/// described, each trimmed. Variables are kept per function body (a
/// parameter named as another function's computed variable is not it),
/// with what a closure's `use (…)` and a `global` statement bring in.
pub(super) fn unknown(lines: &[&str], runs: &[&str]) -> Vec<String> {
    let scopes = scopes(lines);
    let mut vars: HashMap<usize, Vars> = HashMap::new();
    for _ in 0..3 {
        let returning = returning(lines, &scopes, &vars);
        for v in vars.values_mut() {
            v.returning.clone_from(&returning);
        }
        for (line, &(start, inner)) in lines.iter().zip(&scopes.at) {
            if inner != start {
                let parent = scopes.parent.get(&inner).copied().unwrap_or(0);
                import(&mut vars, use_list(line), parent, inner);
            }
            if let Some(rest) = line.trim_start().strip_prefix("global ") {
                import(&mut vars, variables(rest).collect(), 0, start);
            }
            let scopes = if inner != start {
                &[start, inner][..]
            } else {
                &[start][..]
            };
            for &scope in scopes {
                vars.entry(scope)
                    .or_insert_with(|| Vars {
                        returning: returning.clone(),
                        ..Vars::default()
                    })
                    .read(line, runs);
            }
        }
    }
    let none = Vars::default();
    lines
        .iter()
        .zip(&scopes.at)
        .filter(|(line, (start, inner))| {
            let check = |s: &usize| calls_computed(line, vars.get(s).unwrap_or(&none));
            check(start) || inner != start && check(inner)
        })
        .map(|(line, _)| line.trim().chars().take(80).collect())
        .collect()
}

/// The named functions whose body returns a computed value (as its
/// scope's variables tell so far): a `return` on a line of the body, or
/// on the line that opens it (`function f() { return $argv[1]; }`).
fn returning(lines: &[&str], scopes: &Scopes, vars: &HashMap<usize, Vars>) -> HashSet<String> {
    let mut out = HashSet::new();
    // A line's innermost scope: the body it opens, else the one it is in.
    for (line, &(_, scope)) in lines.iter().zip(&scopes.at) {
        let (Some(name), Some(v)) = (scopes.names.get(&scope), vars.get(&scope)) else {
            continue;
        };
        if line.len() > MAX_LINE || out.contains(name) {
            continue;
        }
        let returns = outside_quotes(line, &["return"])
            .into_iter()
            .take(MAX_PLACES)
            .filter(|&at| keyword(line, at, "return"))
            .any(|at| {
                let value = &line[at + "return".len()..];
                v.expr_computed(value.split(';').next().unwrap_or(value))
            });
        if returns {
            out.insert(name.clone());
        }
    }
    out
}

/// Bring `names` from scope `from` into scope `to` (what each holds).
fn import(vars: &mut HashMap<usize, Vars>, names: Vec<String>, from: usize, to: usize) {
    for name in names {
        let (computed, written) = match vars.get(&from) {
            Some(v) => (v.computed.contains(&name), v.written.get(&name).cloned()),
            None => (false, None),
        };
        let into = vars.entry(to).or_default();
        if computed {
            into.computed.insert(name.clone());
        }
        if let Some(value) = written {
            into.written.insert(name, value);
        }
    }
}

/// The variables of a closure's `use (…)` on `line`.
fn use_list(line: &str) -> Vec<String> {
    line.find("use (")
        .or_else(|| line.find("use("))
        .map(|at| {
            let rest = &line[at..];
            let end = rest.find(')').unwrap_or(rest.len());
            variables(&rest[..end]).collect()
        })
        .unwrap_or_default()
}

/// For each line, the scope in effect at its start and the innermost
/// function body it opens (the same when none), scope 0 the file's own
/// code; and each body's enclosing scope.
struct Scopes {
    at: Vec<(usize, usize)>,
    parent: HashMap<usize, usize>,
    /// The name of each named function's body (`function f(…) {`).
    names: HashMap<usize, String>,
}

/// [`Scopes`] by brace depth outside quotes: a `function` opens a body
/// at its first `{` (a `;` first: an abstract method, none). Text, not a
/// parse; a heredoc's or nowdoc's body is passed over (its braces are
/// text), from its `<<<ID` to the line its `ID` closes.
fn scopes(lines: &[&str]) -> Scopes {
    let mut out = Scopes {
        at: Vec::with_capacity(lines.len()),
        parent: HashMap::new(),
        names: HashMap::new(),
    };
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    let (mut depth, mut pending, mut next) = (0usize, false, 1usize);
    let mut pending_name: Option<String> = None;
    let mut heredoc: Option<&str> = None;
    for line in lines {
        let start = stack.last().map_or(0, |s| s.0);
        let mut inner = start;
        let mut code = *line;
        if let Some(id) = heredoc {
            match heredoc_closed(line, id) {
                Some(rest) => {
                    heredoc = None;
                    code = rest;
                }
                None => {
                    out.at.push((start, inner));
                    continue;
                }
            }
        }
        for (i, c) in unquoted(code) {
            match c {
                '<' if code[i..].starts_with("<<<") => {
                    heredoc = heredoc_id(&code[i + 3..]);
                    if heredoc.is_some() {
                        break;
                    }
                }
                'f' if keyword(code, i, "function") => {
                    pending = true;
                    pending_name = function_name(&code[i + "function".len()..]);
                }
                ';' => pending = false,
                '{' => {
                    depth += 1;
                    if pending {
                        let parent = stack.last().map_or(0, |s| s.0);
                        out.parent.insert(next, parent);
                        if let Some(name) = pending_name.take() {
                            out.names.insert(next, name);
                        }
                        stack.push((next, depth));
                        inner = next;
                        next += 1;
                        pending = false;
                    }
                }
                '}' => {
                    if stack.len() > 1 && stack.last().is_some_and(|s| s.1 == depth) {
                        stack.pop();
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
        }
        out.at.push((start, inner));
    }
    out
}

/// The name of a function declared just before `rest` (`function
/// f(`, `function &f(`); none for a closure (`function (`).
fn function_name(rest: &str) -> Option<String> {
    let rest = rest.trim_start().trim_start_matches('&').trim_start();
    let len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (len > 0 && rest[len..].trim_start().starts_with('(')).then(|| rest[..len].to_lowercase())
}

/// The identifier a heredoc or nowdoc opens with, from just past its
/// `<<<` (`EOT`, `"EOT"`, `'EOT'`).
fn heredoc_id(rest: &str) -> Option<&str> {
    let rest = rest.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    let len = rest
        .char_indices()
        .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || i > 0 && c.is_ascii_digit()))
        .map_or(rest.len(), |(i, _)| i);
    (len > 0).then(|| &rest[..len])
}

/// What follows the closing `id` of a heredoc on `line`, when the line
/// closes it (PHP 7.3: indented, then anything but a word character).
fn heredoc_closed<'l>(line: &'l str, id: &str) -> Option<&'l str> {
    let rest = line.trim_start().strip_prefix(id)?;
    let word = rest
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphanumeric());
    (!word).then_some(rest)
}

/// Whether `word` stands at `at` of `line` as a whole word.
fn keyword(line: &str, at: usize, word: &str) -> bool {
    let word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line[at..].starts_with(word)
        && !line[..at].chars().next_back().is_some_and(word_char)
        && !line[at + word.len()..]
            .chars()
            .next()
            .is_some_and(word_char)
}

impl Vars {
    /// Learn from the assignments and `foreach` of `line`.
    fn read(&mut self, line: &str, runs: &[&str]) {
        if line.len() > MAX_LINE {
            return;
        }
        for statement in line.split(';') {
            self.statement(statement.trim_start(), runs);
        }
    }

    /// Learn from one statement `t`: a `foreach` over a computed value,
    /// `extract`/`parse_str` of one (every variable may then be set),
    /// a destructuring (`[$f] = …`, `list($f) = …`), and each `$name =`
    /// or `$name .=` in it (also inside a condition), whose value is
    /// taken to run to the statement's end (more, never less).
    fn statement(&mut self, t: &str, runs: &[&str]) {
        if let Some(rest) = t.strip_prefix("foreach")
            && let Some((over, bound)) = rest.split_once(" as ")
            && self.expr_computed(over)
        {
            for name in variables(bound) {
                self.computed.insert(name);
            }
        }
        for opener in ["extract(", "parse_str("] {
            if t.match_indices(opener)
                .any(|(at, _)| self.expr_computed(&t[at + opener.len()..]))
            {
                self.everything = true;
            }
        }
        if (t.starts_with('[') || t.starts_with("list("))
            && let Some((bound, value)) = t.split_once("] =").or_else(|| t.split_once(") ="))
            && self.expr_computed(value)
        {
            for name in variables(bound) {
                self.computed.insert(name);
            }
        }
        for (at, _) in t.match_indices('$') {
            if let Some((name, op, value)) = assignment(&t[at..]) {
                self.assigned(name, op, value, runs);
            }
        }
    }

    /// Learn that `$name` is assigned `value` with `op`.
    fn assigned(&mut self, name: String, op: &str, value: &str, runs: &[&str]) {
        let value = value.trim();
        if op == ".=" || self.expr_computed(value) {
            self.computed.insert(name);
            return;
        }
        let folded = self.fold(value);
        if let Some(text) = &folded
            && runs
                .iter()
                .any(|r| r.eq_ignore_ascii_case(text.trim_start_matches('\\')))
        {
            self.computed.insert(name.clone());
        }
        // A second, different binding leaves the value unknown.
        let entry = self.written.entry(name).or_insert(folded.clone());
        if *entry != folded {
            *entry = None;
        }
    }

    /// Whether `expr` holds a source, a builder or a computed variable.
    fn expr_computed(&self, expr: &str) -> bool {
        let plain = |w: &&str| {
            expr.match_indices(*w).any(|(at, _)| {
                let before = expr[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '>' || c == ':')
            })
        };
        SOURCES.iter().any(plain)
            || BUILDERS.iter().any(plain)
            || literal_call(expr)
            || variables(expr).any(|v| self.computed.contains(&v))
            || !self.returning.is_empty() && self.calls_returning(expr)
    }

    /// Whether `expr` calls one of the file's functions that return a
    /// computed value (by its name, as a function: not a method).
    fn calls_returning(&self, expr: &str) -> bool {
        expr.match_indices('(').take(MAX_PLACES).any(|(open, _)| {
            let head = expr[..open].trim_end();
            let start = head
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\\'))
                .map_or(0, |i| i + 1);
            let before = head[..start].trim_end();
            let name = head[start..].rsplit('\\').next().unwrap_or_default();
            !before.ends_with(['>', ':', '$'])
                && !before.ends_with("function")
                && self.returning.contains(&name.to_lowercase())
        })
    }

    /// The written string a `.` chain of written strings and variables
    /// bound to them makes.
    fn fold(&self, expr: &str) -> Option<String> {
        let mut out = String::new();
        for part in expr.split(" . ").flat_map(|p| p.split('.')) {
            let part = part.trim();
            if let Some(body) = quoted(part) {
                out.push_str(body);
            } else if let Some(name) = part.strip_prefix('$') {
                out.push_str(self.written.get(name)?.as_deref()?);
            } else {
                return None;
            }
        }
        Some(out)
    }
}

/// Whether `expr` calls a function on written strings alone
/// (`sprintf('%s%s', 'sys', 'tem')`, `strtolower('SYSTEM')`,
/// `substr('xsystem', 1)`): a name computed from written pieces no
/// list of hiding functions holds. A method or static call, `new`, and
/// the language's own forms (`array(`, `isset(`, …) are none.
fn literal_call(expr: &str) -> bool {
    const FORMS: [&str; 8] = [
        "array", "list", "isset", "empty", "function", "fn", "dirname", "define",
    ];
    expr.match_indices('(').take(MAX_PLACES).any(|(open, _)| {
        let head = &expr[..open];
        let name_start = head
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\\'))
            .map_or(0, |i| i + 1);
        let name = head[name_start..].trim_start_matches('\\');
        let before = head[..name_start].trim_end();
        if name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || FORMS.iter().any(|f| f.eq_ignore_ascii_case(name))
            || before.ends_with(['>', ':', '$'])
            || before.ends_with("new")
        {
            return false;
        }
        let args = top_level_args(&expr[open + 1..]);
        let text = args.join(",");
        text.contains(['\'', '"']) && !text.contains('$')
    })
}

/// The body of a string written whole without interpolation.
fn quoted(part: &str) -> Option<&str> {
    let q = part.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let body = part[1..].strip_suffix(q)?;
    (!body.contains(q) && !body.contains('\\') && (q == '\'' || !body.contains(['$', '{'])))
        .then_some(body)
}

/// `$name = value` or `$name .= value` at a statement's start: the name
/// (without `$`), the operator and the value.
fn assignment(t: &str) -> Option<(String, &'static str, &str)> {
    let rest = t.strip_prefix('$')?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let (name, after) = rest.split_at(end);
    // `$cfg['f'] = …`, `$o->f = …`: the element or property is written;
    // the variable counts as a whole.
    let after = match after.trim_start() {
        a if a.starts_with('[') || a.starts_with("->") => {
            let stop = a.find(['=', ';', '('])?;
            let (target, from) = a.split_at(stop);
            if target.contains(char::is_whitespace) && !target.contains(['[', ']']) {
                return None;
            }
            from
        }
        a => a,
    };
    if let Some(value) = after.strip_prefix(".=") {
        return Some((name.to_string(), ".=", value));
    }
    let value = after.strip_prefix('=')?;
    (!value.starts_with(['=', '>']) && !name.is_empty() && name != "this")
        .then(|| (name.to_string(), "=", value))
}

/// The variables `$name` in `text` (without `$`), `$this` left out.
fn variables(text: &str) -> impl Iterator<Item = String> + '_ {
    text.match_indices('$').filter_map(|(at, _)| {
        let rest = &text[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        (!name.is_empty() && name != "this").then(|| name.to_string())
    })
}

/// Whether `line` calls a computed callable.
fn calls_computed(line: &str, vars: &Vars) -> bool {
    let holds_caller = || CALLERS.iter().any(|(c, _)| line.contains(c));
    if line.len() > MAX_LINE {
        return holds_caller() || line.contains(")(");
    }
    // `$f(…)`, `$o->$m(…)`, `C::$m(…)`.
    let by_variable = line.match_indices('$').take(MAX_PLACES * 8).any(|(at, _)| {
        let rest = &line[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        // `$$f(…)` and `${…}(…)`: a variable named as it runs.
        let variable_variable = rest.starts_with(['$', '{']);
        rest[end..].trim_start().starts_with('(')
            && (vars.computed.contains(name) || vars.everything && !name.is_empty())
            || variable_variable && name.is_empty() && calls_after_name(rest)
    });
    by_variable || by_caller(line, vars) || called_in_place(line, vars)
}

/// Whether `rest` (after a `$` of `$$f` or `${…}`) is a call of what
/// that variable variable holds: `$f(` or `{…}(`.
fn calls_after_name(rest: &str) -> bool {
    let inner = match rest.strip_prefix('{') {
        Some(braced) => braced.find('}').map_or("", |end| &braced[end + 1..]),
        None => {
            let name = rest.trim_start_matches('$');
            let end = name
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(name.len());
            &name[end..]
        }
    };
    inner.trim_start().starts_with('(')
}

/// A caller ([`CALLERS`]) handed a computed callable.
fn by_caller(line: &str, vars: &Vars) -> bool {
    CALLERS.iter().any(|&(caller, index)| {
        let places: Vec<usize> = line
            .match_indices(caller)
            .map(|(at, _)| at)
            .filter(|&at| {
                let before = line[..at].chars().next_back();
                let after = &line[at + caller.len()..];
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '>')
                    && after.trim_start().starts_with('(')
            })
            .collect();
        if places.len() > MAX_PLACES {
            return true;
        }
        places.into_iter().any(|at| {
            let after = &line[at + caller.len()..];
            let open = after.find('(').unwrap_or(0);
            let args = top_level_args(&after[open + 1..]);
            args.get(index)
                .is_some_and(|a| !closure(a) && vars.expr_computed(a))
        })
    })
}

/// Whether an argument is a closure written in place (its body is code,
/// read as such).
fn closure(arg: &str) -> bool {
    let arg = arg.trim_start();
    let arg = arg.strip_prefix("static").unwrap_or(arg).trim_start();
    ["function", "fn"]
        .iter()
        .any(|k| arg.starts_with(k) && arg[k.len()..].trim_start().starts_with(['(', '&']))
}

/// `strrev('metsys')($w)`, `($argv[1])($w)`, `[$o, $m]($w)`: a call of
/// what a computed expression gives, in place.
fn called_in_place(line: &str, vars: &Vars) -> bool {
    outside_quotes(line, &[")(", "]("])
        .into_iter()
        .take(MAX_PLACES)
        .any(|at| {
            // The expression called: from the statement's start, or the
            // last `=`, `;`, `(` or `return` before it, to here.
            let head = &line[..=at];
            let start = head.rfind(['=', ';', '{', ',']).map_or(0, |s| s + 1);
            vars.expr_computed(&head[start..])
        })
}

/// Where each of `marks` starts in `line` outside a quoted string (a
/// regex's `(a)(b)` is no call).
fn outside_quotes(line: &str, marks: &[&str]) -> Vec<usize> {
    unquoted(line)
        .filter(|&(i, _)| marks.iter().any(|m| line[i..].starts_with(m)))
        .map(|(i, _)| i)
        .collect()
}

/// The characters of `line` outside `'…'` and `"…"` strings (a quote and
/// what it encloses, escapes included, are passed over), with where each
/// stands.
fn unquoted(line: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    line.char_indices().filter(move |&(_, c)| {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            return false;
        }
        if matches!(c, '\'' | '"') {
            quote = Some(c);
            return false;
        }
        true
    })
}

/// The top-level arguments of a call whose `(` came just before `rest`,
/// up to its `)`.
fn top_level_args(rest: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => {
                out.push(&rest[start..i]);
                return out;
            }
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&rest[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUNS: &[&str] = &["system", "exec", "passthru", "eval"];

    fn found(text: &str) -> usize {
        let lines: Vec<&str> = text.lines().collect();
        unknown(&lines, RUNS).len()
    }

    #[test]
    fn a_callable_from_outside_or_hidden_is_found() {
        for text in [
            "$f = $argv[1];\n$f($w);",
            "$f = getenv('F');\ncall_user_func($f, $w);",
            "$f = trim(file_get_contents('x'));\ncall_user_func_array($f, [$w]);",
            "$f = strrev('metsys');\narray_map($f, [$w]);",
            "$f = base64_decode('c3lzdGVt');\n$f($w);",
            "$f = 'sys';\n$f .= 'tem';\n$f($w);",
            "$a = 'sys';\n$b = 'tem';\n$f = $a . $b;\n$f($w);",
            "$m = $_SERVER['argv'][1];\n$obj->$m($w);",
            "$m = json_decode($j)->m;\n[$obj, $m]($w);",
            "$m = $_GET['m'];\nFoo::$m($w);",
            "strrev('metsys')($w);",
            "($argv[1])($w);",
            "$f = str_rot13('flfgrz');\n$g = $f;\n$g($w);",
            "foreach (json_decode($j) as $f) {\n$f($w);\n}",
            "usort($a, implode('', ['sys', 'tem']));",
            "if ($f = getenv('F')) { $f($w); }",
            "[$f, $x] = explode(',', $argv[1]);\n$f($w);",
            "list($f) = json_decode($j);\n$f($w);",
            "extract($_GET);\n$f($w);",
            "$a = 'system';\n$b = 'a';\n$$b($w);",
            "${'f'}($w);",
            "$cfg['f'] = $argv[1];\n$cfg['f']($w);",
            "$f = sprintf('%s%s', 'sys', 'tem');\n$f($w);",
            "$f = substr('xsystem', 1);\ncall_user_func($f, $w);",
            "$f = $argv[1];\narray_map(function ($x) use ($f) { return $f($x); }, $a);",
            "$f = $argv[1];\nfunction g() {\n  global $f;\n  $f(1);\n}",
            "$f = $argv[1];\nfunction g() {\n}\n$f($w);",
            // A brace in a heredoc or nowdoc is text: the function ends
            // where its own brace closes it.
            "$f = $argv[1];\nfunction g() {\n  $t = <<<EOT\n  {\n  EOT;\n}\n$f($w);",
            // A callable a function of the file returns from outside.
            "function pick() {\n  return $argv[1];\n}\n$g = pick();\n$g($w);",
            "function pick() { return getenv('F'); }\ncall_user_func(pick(), $w);",
            "function inner() {\n  $x = fgets(STDIN);\n  return trim($x);\n}\nfunction outer() {\n  return inner();\n}\n$f = outer();\n$f($w);",
            "$h = \\Tools\\Pick();\nfunction Pick() {\n  return base64_decode('c3lzdGVt');\n}\n$h($w);",
            "$f = $argv[1];\nfunction g() {\n  $t = <<<'EOT'\n  { {\nEOT;\n}\n$f($w);",
        ] {
            assert_eq!(found(text), 1, "{text}");
        }
    }

    #[test]
    fn a_callable_held_by_the_program_is_let_be() {
        for text in [
            "$f = 'trim';\n$f($w);",
            "function run($f, $w) {\n$f($w);\n}",
            "$method = 'get' . ucfirst($name);\n$this->$method();",
            "call_user_func($this->callback, $x);",
            "array_map('trim', file('x'));",
            "$lines = file('x');\n$n = count($lines);",
            "$f = $this->normalizer;\n$f($w);",
            "usort($a, [$this, 'compare']);",
            "$f = $this->get('x');\n$f($w);",
            "$f = new Foo('x');\n$f($w);",
            "if (preg_match('/(.*)(Debug|Info)(.*)/', $m, $x)) {}",
            "return sprintf('* [`%s`](#%s)', $name, str_replace(':', '', $d));",
            "function a() {\n  $cb = fgets(STDIN);\n}\nfunction b(callable $cb) {\n  $cb(1);\n}",
            "$abbrevs = array_map(function ($cmd) use ($w) { return fgets(STDIN); }, $list);",
            // A heredoc's `}` does not end the function around it early.
            "$cb = 'trim';\nfunction a() {\n  $t = <<<EOT\n  }\n  EOT;\n  $cb = fgets(STDIN);\n}\n$cb(1);",
            // A function returning what the program holds, a method of the
            // same name, a call of one that is no callable's value.
            "function pick() {\n  return 'trim';\n}\n$g = pick();\n$g($w);",
            "function pick() {\n  return $argv[1];\n}\n$g = $this->pick();\n$g($w);",
            "function pick() {\n  return $argv[1];\n}\necho pick();\n$f = 'trim';\n$f($w);",
        ] {
            assert_eq!(found(text), 0, "{text}");
        }
    }

    #[test]
    fn a_hostile_megabyte_is_read_in_bounded_time() {
        let line = "$f = $g . $h; call_user_func($f, [$x, $y]); ".repeat(90);
        // Half a megabyte of each shape.
        let text = format!("{line}\n").repeat(125);
        let lines: Vec<&str> = text.lines().collect();
        let _ = unknown(&lines, RUNS);
        let other = "$a = 1; $b($c)(d)[e](f); ".repeat(160) + "\n";
        let text = other.repeat(125);
        let lines: Vec<&str> = text.lines().collect();
        let _ = unknown(&lines, RUNS);
        // No timed assertion (benchmarks time things): a quadratic reading
        // of this input would not end.
    }
}
