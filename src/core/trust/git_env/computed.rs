//! Writes of the environment whose variable's name is built as the
//! script runs (consent round 9, item 2): `os.environ["GIT_" + "DIR"] =
//! …`, `os.environ[k] = …`, `os.putenv(k, …)`, `os.environ.update(d)`,
//! `process.env[`GIT_${x}`] = …`, `Object.assign(process.env, o)`,
//! `$ENV{$k} = …`, `ENV["GIT_" + x] = …`, `putenv("$k=…")`, and the
//! same writes into a copy of the environment a child is handed (`env
//! = os.environ.copy(); env[k] = v`). The name
//! may be one of git's ([`super::watched`]) or one that makes a program
//! load a file (round 12: `BASH_ENV`, `LD_PRELOAD`, …), which no review can tell:
//! such a write is unreadable. A name whose written parts rule out every
//! one of git's (`os.environ["PIP_" + k]`, `` process.env[`npm_${k}`] ``)
//! is let be. Text, not a parse: an occurrence that is not plainly a
//! literal name counts as built (more refusals, never fewer).

/// The most lines read, and writes kept.
const MAX_LINES: usize = 50_000;
const MAX_FOUND: usize = 16;

/// What precedes the name in an element write (`os.environ[k] = v`),
/// with the bracket that closes it.
const ELEMENTS: &[(&str, char)] = &[
    ("os.environ[", ']'),
    ("environ[", ']'),
    ("process.env[", ']'),
    ("$ENV{", '}'),
    ("ENV[", ']'),
    ("$_ENV[", ']'),
];

/// Calls whose first argument is the name (`os.putenv(k, v)`), or a
/// `NAME=value` string (PHP's `putenv`).
const NAMED_BY_FIRST: &[&str] = &[
    "os.putenv(",
    "environ.setdefault(",
    "environ.__setitem__(",
    "ENV.store(",
    "putenv(",
    "Deno.env.set(",
];

/// Calls that write every key of a mapping (`os.environ.update(d)`):
/// after the opening, how many arguments to pass over first.
const MAPPINGS: &[(&str, usize)] = &[
    ("environ.update(", 0),
    ("ENV.update(", 0),
    ("ENV.merge!(", 0),
    ("ENV.replace(", 0),
    ("Object.assign(process.env,", 0),
    ("Object.assign(process.env ,", 0),
];

/// How a script's language writes a name that is no variable.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    Python,
    /// JavaScript and TypeScript: `{ NAME: v }` names its key.
    Js,
    /// Perl: `$ENV{NAME}` names its key.
    Perl,
    /// Ruby: `{ NAME: v }` names its key (a symbol).
    Ruby,
    Php,
}

impl Syntax {
    /// What starts a comment line.
    fn comment(self) -> &'static str {
        match self {
            Syntax::Js | Syntax::Php => "//",
            _ => "#",
        }
    }
}

/// The lines of a script's `text` written in `syntax` that write an
/// environment variable whose name is built as it runs and may be one
/// of git's, each trimmed.
pub fn writes(text: &str, syntax: Syntax) -> Vec<String> {
    let mut out = Vec::new();
    if !(text.contains("env") || text.contains("ENV") || text.contains("putenv")) {
        return out;
    }
    let copies = env_copies(text);
    for line in text.lines().take(MAX_LINES) {
        let trimmed = line.trim();
        if trimmed.starts_with(syntax.comment())
            || !(line_writes(trimmed, syntax) || copy_writes(trimmed, &copies, syntax))
        {
            continue;
        }
        let shown: String = trimmed.chars().take(80).collect();
        if !out.contains(&shown) && out.len() < MAX_FOUND {
            out.push(shown);
        }
    }
    out
}

/// What a binding of a copy of the environment starts with (`env =
/// os.environ.copy()`, `const env = { ...process.env }`): the copy is
/// what the script hands a child (`env=env`), so a built name written
/// into it reaches the child as one written into the environment does.
const COPIES: &[&str] = &[
    "os.environ.copy()",
    "dict(os.environ",
    "{**os.environ",
    "{ ...process.env",
    "{...process.env",
    "Object.assign({}, process.env",
    "ENV.to_h",
    "ENV.to_hash",
    "ENV.dup",
];

/// The names `text` binds to a copy of the environment ([`COPIES`]).
fn env_copies(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().take(MAX_LINES) {
        let t = line.trim();
        let t = ["const ", "let ", "var "]
            .iter()
            .find_map(|k| t.strip_prefix(k))
            .unwrap_or(t);
        let Some((name, value)) = t.split_once('=') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim_start());
        // The environment itself under another name (`e = os.environ`).
        let alias = matches!(
            value.trim_end_matches(';').trim_end(),
            "os.environ" | "process.env"
        );
        if is_word(name)
            && !value.starts_with('=')
            && (alias || COPIES.iter().any(|c| value.starts_with(c)))
            && !out.iter().any(|n| n == name)
            && out.len() < MAX_FOUND
        {
            out.push(name.to_string());
        }
    }
    out
}

/// Whether `line` writes a built name that may be git's into one of the
/// environment's `copies` (`env[k] = v`, `env.update(d)`,
/// `Object.assign(env, o)`, `env.setdefault(k, v)`).
fn copy_writes(line: &str, copies: &[String], syntax: Syntax) -> bool {
    copies.iter().any(|name| {
        let element = format!("{name}[");
        let element_built = line.match_indices(&element).any(|(at, _)| {
            let rest = &line[at + element.len()..];
            !part_of_a_name(line, at, &element)
                && closing(rest, ']')
                    .is_some_and(|end| assigns(&rest[end + 1..]) && built(&rest[..end], false))
        });
        let call = |head: String, mapping: bool| {
            line.match_indices(&head).any(|(at, _)| {
                let arg = first_argument(&line[at + head.len()..]);
                !part_of_a_name(line, at, &head)
                    && if mapping {
                        mapping_built(arg, syntax)
                    } else {
                        built(arg, false)
                    }
            })
        };
        element_built
            || call(format!("{name}.update("), true)
            || call(format!("Object.assign({name},"), true)
            || call(format!("{name}.setdefault("), false)
            || call(format!("{name}.store("), false)
    })
}

/// Whether a script's `text` written in `syntax` may run a program (a
/// child then gets the environment it wrote): any mention of a way to
/// start one, text, not a parse (more, never fewer).
pub fn runs_programs(text: &str, syntax: Syntax) -> bool {
    let marks: &[&str] = match syntax {
        Syntax::Python => &[
            "subprocess",
            "os.system",
            "os.popen",
            "os.exec",
            "os.spawn",
            "os.posix_spawn",
            "pty.spawn",
            "getoutput",
            "Popen",
            "pexpect",
            "plumbum",
            "import sh",
        ],
        Syntax::Js => &[
            "child_process",
            "execa",
            "cross-spawn",
            "shelljs",
            "Bun.spawn",
            "Bun.$",
            "Deno.Command",
            "Deno.run",
            "'zx'",
            "\"zx\"",
            "node-pty",
        ],
        Syntax::Perl => &[
            "system", "exec", "qx", "`", "readpipe", "IPC::", "|\"", "\"|", "|'", "'|",
        ],
        Syntax::Ruby => &["system", "exec", "spawn", "`", "%x", "popen", "Open3", "|"],
        Syntax::Php => &[
            "exec",
            "system",
            "passthru",
            "popen",
            "proc_open",
            "pcntl_exec",
            "`",
        ],
    };
    marks.iter().any(|m| text.contains(m))
}

/// Whether `line` writes a variable of a built name that may be git's.
fn line_writes(line: &str, syntax: Syntax) -> bool {
    for &(head, close) in ELEMENTS {
        for (at, _) in line.match_indices(head) {
            if part_of_a_name(line, at, head) {
                continue;
            }
            let rest = &line[at + head.len()..];
            let Some(end) = closing(rest, close) else {
                continue;
            };
            let bareword = head == "$ENV{";
            if assigns(&rest[end + 1..]) && built(&rest[..end], bareword) {
                return true;
            }
        }
    }
    for head in NAMED_BY_FIRST {
        for (at, _) in line.match_indices(head) {
            if part_of_a_name(line, at, head) {
                continue;
            }
            let rest = &line[at + head.len()..];
            let first = first_argument(rest);
            // PHP's `putenv("NAME=value")`: the name is what comes before `=`.
            let name = match *head {
                "putenv(" => first.split_once('=').map_or(first, |(name, _)| name),
                _ => first,
            };
            if built(name, false) {
                return true;
            }
        }
    }
    for &(head, _) in MAPPINGS {
        for (at, _) in line.match_indices(head) {
            if part_of_a_name(line, at, head) {
                continue;
            }
            if mapping_built(first_argument(&line[at + head.len()..]), syntax) {
                return true;
            }
        }
    }
    false
}

/// Whether what follows an element (`os.environ[k]`) assigns it: `=`
/// (not `==`, `=~`, `=>`), or an operator's `||=`, `+=`, … A `,` or `:`
/// after it is an argument or a key read, not a write.
fn assigns(after: &str) -> bool {
    let after = after.trim_start();
    if let Some(value) = after.strip_prefix('=') {
        return !value.starts_with(['=', '~', '>']);
    }
    ["||=", "&&=", "??=", "//=", ".=", "+="]
        .iter()
        .any(|op| after.starts_with(op))
}

/// Whether the `head` found at `at` is the end of a longer name
/// (`my_environ[`, `xENV[`): then it is not the environment.
fn part_of_a_name(line: &str, at: usize, head: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    head.starts_with(word) && line[..at].chars().next_back().is_some_and(word)
}

/// Whether a name written as `key` (inside the brackets or as the first
/// argument) is built as the script runs and may be one of git's: not a
/// plain literal (`"GIT_DIR"`, or with `bareword`, Perl's `$ENV{NAME}`),
/// and no written part rules git's out.
fn built(key: &str, bareword: bool) -> bool {
    let key = key.trim();
    if key.is_empty() || plain_literal(key) || bareword && is_word(key) {
        return false;
    }
    may_be_watched(&written_parts(key))
}

/// A string literal that is all of `key` and interpolates nothing.
fn plain_literal(key: &str) -> bool {
    let Some(quote) = key.chars().next().filter(|c| matches!(c, '"' | '\'' | '`')) else {
        return false;
    };
    let Some(body) = key[1..].strip_suffix(quote) else {
        return false;
    };
    !body.contains(quote)
        && !body.contains('\\')
        && (quote == '\'' || !body.contains(['$', '{', '@', '#']))
}

/// The text the strings of `expr` write, cut at each interpolation
/// (`GIT_` of `` `GIT_${x}` ``, `f"GIT_{x}"`, `"GIT_$x"`, `"GIT_#{x}"`).
fn written_parts(expr: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut chars = expr.chars().peekable();
    while let Some(c) = chars.next() {
        if !matches!(c, '"' | '\'' | '`') {
            continue;
        }
        let mut part = String::new();
        while let Some(d) = chars.next() {
            match d {
                d if d == c => break,
                '\\' => {
                    chars.next();
                    parts.push(std::mem::take(&mut part));
                }
                '{' => {
                    parts.push(std::mem::take(&mut part));
                    let mut depth = 1usize;
                    for e in chars.by_ref() {
                        match e {
                            '{' => depth += 1,
                            '}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                }
                '$' | '@' | '#' => {
                    parts.push(std::mem::take(&mut part));
                    if chars.peek() != Some(&'{') {
                        while chars
                            .next_if(|e| e.is_alphanumeric() || *e == '_')
                            .is_some()
                        {}
                    }
                }
                d => part.push(d),
            }
        }
        parts.push(part);
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// Whether a name whose written parts are `parts` may be one of git's
/// watched names: each part is a piece of one of them (digits stand for
/// any `n` of `GIT_CONFIG_KEY_n`). No written part: it may.
pub fn may_be_git_s(parts: &[String]) -> bool {
    const NAMES: &[&str] = &[
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_KEY_0000000000",
        "GIT_CONFIG_VALUE_0000000000",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_DIR",
        "GIT_COMMON_DIR",
        "GIT_WORK_TREE",
        "GIT_EXEC_PATH",
    ];
    parts.iter().all(|part| {
        let part: String = part
            .chars()
            .map(|c| if c.is_ascii_digit() { '0' } else { c })
            .collect();
        NAMES.iter().any(|name| name.contains(&part))
    })
}

/// The variables that make a program a script starts load or run a
/// file (consent round 12, item 5): a built name that may be one of
/// these is refused as one that may be git's is.
pub const LOADERS: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "PATH",
    "LD_PRELOAD",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "PHPRC",
    "PHP_INI_SCAN_DIR",
    "BUNDLE_GEMFILE",
];

/// Whether a name whose written parts are `parts` may be one a review
/// watches: git's ([`may_be_git_s`]) or one of [`LOADERS`] (each part a
/// piece of it). No written part: it may.
pub fn may_be_watched(parts: &[String]) -> bool {
    may_be_git_s(parts)
        || parts
            .iter()
            .all(|part| LOADERS.iter().any(|name| name.contains(part.as_str())))
}

/// Whether a mapping written into the environment (`os.environ.update(…)`'s
/// argument) may hold a built name: anything but a literal mapping of
/// named keys (`{"A": 1}`, JavaScript's and Ruby's `{ A: 1 }`, Python's
/// `A=1` keywords).
fn mapping_built(arg: &str, syntax: Syntax) -> bool {
    let arg = arg.trim();
    let Some(body) = arg.strip_prefix('{').and_then(|a| a.strip_suffix('}')) else {
        // Keywords (`update(A=1, B=2)`) name their keys.
        return arg.is_empty()
            || !split_top(arg)
                .iter()
                .all(|kw| kw.split_once('=').is_some_and(|(k, _)| is_word(k.trim())));
    };
    split_top(body).iter().any(|entry| {
        let entry = entry.trim();
        if entry.is_empty() {
            return false;
        }
        if entry.starts_with("**") || entry.starts_with("...") {
            // A spread of the environment itself adds nothing new.
            let spread = entry.trim_start_matches(['*', '.']);
            return !matches!(spread, "os.environ" | "process.env" | "ENV");
        }
        let (key, named) = match entry.split_once("=>") {
            Some((key, _)) => (key.trim(), false),
            None => match colon_split(entry) {
                Some((key, _)) => (key.trim(), matches!(syntax, Syntax::Js | Syntax::Ruby)),
                // `{ A }`: JavaScript's shorthand names its key.
                None => return !(syntax == Syntax::Js && is_word(entry)),
            },
        };
        !(plain_literal(key) || named && is_word(key)) && may_be_watched(&written_parts(key))
    })
}

/// `key: value` at the first top-level `:` (not `::`).
fn colon_split(entry: &str) -> Option<(&str, &str)> {
    let mut quote: Option<char> = None;
    for (i, c) in entry.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, ':') if !entry[i + 1..].starts_with(':') => {
                return Some((&entry[..i], &entry[i + 1..]));
            }
            _ => {}
        }
    }
    None
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The first argument of a call whose arguments follow, trimmed.
fn first_argument(rest: &str) -> &str {
    let end = top_level(rest, |c| c == ',').unwrap_or(rest.len());
    rest[..end].trim()
}

/// The index of the bracket `close` that ends what `rest` starts inside.
fn closing(rest: &str, close: char) -> Option<usize> {
    top_level(rest, |c| c == close)
}

/// The first top-level character of `text` that `stop` accepts, or a
/// closing bracket of a level opened before `text`.
fn top_level(text: &str, stop: impl Fn(char) -> bool) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, c) if depth == 0 && stop(c) => return Some(i),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => return Some(i),
            (None, ')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `text` split at its top-level commas.
fn split_top(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = top_level(rest, |c| c == ',') {
        out.push(&rest[..at]);
        rest = &rest[at + 1..];
    }
    out.push(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_built_name_that_may_be_git_s_is_found_and_others_are_not() {
        use Syntax::*;
        for (text, syntax) in [
            ("os.environ[\"GIT_\" + \"DIR\"] = w", Python),
            ("os.environ[k] = v", Python),
            ("os.environ[f'GIT_{x}'] = v", Python),
            ("os.environ[f'PYTHON{x}'] = v", Python),
            ("os.environ['BASH' + '_ENV'] = v", Python),
            ("process.env[`LD_${x}`] = w", Js),
            ("$ENV{'BASH' . '_ENV'} = $v;", Perl),
            ("ENV[\"BASH_#{x}\"] = w", Ruby),
            ("os.putenv(name, w)", Python),
            ("os.environ.setdefault(k, w)", Python),
            ("os.environ.update(extra)", Python),
            ("os.environ.update({k: v for k, v in pairs})", Python),
            ("os.environ.update({**os.environ, k: v})", Python),
            ("os.environ[NAME] = v", Python),
            ("process.env[`GIT_${x}`] = w", Js),
            ("process.env[name] = w", Js),
            ("Object.assign(process.env, extra)", Js),
            ("Object.assign(process.env, { [k]: v })", Js),
            ("$ENV{$k} = $v;", Perl),
            ("$ENV{$k} ||= $v;", Perl),
            ("$ENV{\"GIT_$x\"} = $v;", Perl),
            ("ENV[\"GIT_\" + x] = w", Ruby),
            ("ENV[k] = w", Ruby),
            ("ENV.update(h)", Ruby),
            ("putenv(\"$k=$v\");", Php),
            ("putenv($k . '=' . $v);", Php),
            ("$_ENV[$k] = $v;", Php),
            ("env = os.environ.copy()\nenv[k] = v", Python),
            (
                "env = dict(os.environ)\nenv.update({f'GIT_{x}': v})",
                Python,
            ),
            ("const env = { ...process.env }\nenv[`GIT_${x}`] = v", Js),
            ("let e = process.env\nObject.assign(e, extra)", Js),
        ] {
            assert_eq!(writes(text, syntax).len(), 1, "{text}");
        }
        for (text, syntax) in [
            ("os.environ['LANG'] = 'C'", Python),
            ("os.environ[\"PIP_\" + k] = v", Python),
            ("os.environ[f'PIP_{x}'] = v", Python),
            ("if os.environ[k] == v: pass", Python),
            ("v = os.environ[k]", Python),
            ("os.environ.update(LANG='C')", Python),
            ("os.environ.update({'LANG': 'C'})", Python),
            ("process.env[`npm_config_${k}`] = v", Js),
            ("process.env.FOO = v", Js),
            ("Object.assign(process.env, { FOO: '1' })", Js),
            ("$ENV{PATH} = '/bin';", Perl),
            ("my $p = $ENV{$k};", Perl),
            ("ENV['LANG'] = 'C'", Ruby),
            ("putenv('LANG=C');", Php),
            ("# os.environ[k] = v", Python),
            ("my_environ[k] = v", Python),
            ("$ENV{GIT_DIR} = $v;", Perl),
            ("Object.assign(process.env, { FOO, ...process.env })", Js),
            (
                "env = os.environ.copy()\nenv['LANG'] = 'C'\nenv['PIP_' + k] = v",
                Python,
            ),
            ("env = os.environ.copy()\nx = env[k]", Python),
            ("d = {}\nd[k] = v", Python),
            ("h = os.environ.get('HOME')\nh[k] = v", Python),
            ("p = path.join(process.env[k], 'x')", Js),
            ("d = {os.environ[k]: 1}", Python),
            ("f($ENV{$k}, 1);", Perl),
        ] {
            assert_eq!(writes(text, syntax), Vec::<String>::new(), "{text}");
        }
    }
}
