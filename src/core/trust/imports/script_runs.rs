//! What a Perl, Ruby, PHP or Lua script runs itself (consent round 7):
//! `system`/`exec` (and Ruby's `spawn`, `IO.popen`, `Open3.*`; PHP's
//! `shell_exec`, `passthru`, `popen`, `proc_open`; Lua's `os.execute`,
//! `io.popen`), backticks, Perl's `qx` and Ruby's `%x`. A line or argv
//! whose program, or whose interpreter's script, is known only as it runs
//! is refused, as Python's and Node's are: the files a literal names are
//! covered (`literal::script`), and a literal line is read as shell text
//! is (a git command that runs hooks). A variable bound only to literals
//! is read as them. Lines, not a parse: more refusals, never fewer.

use std::collections::HashMap;

use super::dynamic::argv;

mod arrays;
mod env_sets;
mod indirect;
mod named;
mod php_callables;
mod pipes;
mod shell_text;
mod statements;
use super::kinds::Kind;
use crate::core::trust::unknown;

/// The calls read, per language, each followed by its arguments.
const PERL: &[&str] = &["system", "exec", "readpipe"];
const RUBY: &[&str] = &[
    "system",
    "exec",
    "spawn",
    "Process.spawn",
    "Kernel.system",
    "Kernel.exec",
    "Kernel.spawn",
    "Process.exec",
    "PTY.spawn",
    "PTY.getpty",
    "IO.popen",
    "Open3.popen3",
    "Open3.popen2",
    "Open3.popen2e",
    "Open3.capture2",
    "Open3.capture2e",
    "Open3.capture3",
    "Open3.pipeline",
    // Rake's (FileUtils) in a Rakefile or `rakelib/*.rake` (round 12).
    "sh",
    "ruby",
];
const PHP: &[&str] = &[
    "system",
    "exec",
    "shell_exec",
    "passthru",
    "popen",
    "proc_open",
    "pcntl_exec",
];
const LUA: &[&str] = &["os.execute", "io.popen"];

/// Places of one name read per line at most, and the longest line
/// read place by place (each place may read to the statement's end): a
/// line past either that holds the name is refused, bounded work
/// ([`named`], [`env_sets`]).
const MAX_MATCHES: usize = 32;
const MAX_LINE: usize = 4096;

fn too_many(line: &str, name: &str) -> bool {
    match line.len() > MAX_LINE {
        true => line.contains(name),
        false => line.matches(name).nth(MAX_MATCHES).is_some(),
    }
}

/// The most lines read, and calls kept.
const MAX_LINES: usize = 50_000;
const MAX_FOUND: usize = 64;

/// What a script runs that is known only as it runs (its lines, trimmed)
/// and what a known line runs that no review covers (why, and the line).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct ScriptRuns {
    pub(super) unknown: Vec<String>,
    pub(super) refusals: Vec<(String, String)>,
    /// The written words of the commands read that may name a file
    /// (`qw(sh tools/w.sh)` holds no string literal): covered as a
    /// literal's are (round 8).
    pub(super) named: Vec<String>,
}

/// How a language writes strings.
struct Lang {
    calls: &'static [&'static str],
    /// What starts an interpolation in a double-quoted string.
    interpolates: &'static [&'static str],
    /// The prefix of a variable (`$` in Perl and PHP).
    sigil: &'static str,
}

fn lang(kind: Kind) -> Option<Lang> {
    Some(match kind {
        Kind::Perl => Lang {
            calls: PERL,
            interpolates: &["$", "@"],
            sigil: "$",
        },
        Kind::Ruby => Lang {
            calls: RUBY,
            interpolates: &["#{"],
            sigil: "",
        },
        Kind::Php => Lang {
            calls: PHP,
            interpolates: &["$"],
            sigil: "$",
        },
        Kind::Lua => Lang {
            calls: LUA,
            interpolates: &[],
            sigil: "",
        },
        _ => return None,
    })
}

/// What script `text` of `kind` runs that is known only as it runs.
pub(super) fn script(text: &str, kind: Kind) -> ScriptRuns {
    let mut out = ScriptRuns::default();
    let Some(lang) = lang(kind) else {
        return out;
    };
    let blanked = super::comments::blanked(text, kind);
    let text = blanked.as_ref();
    let lines: Vec<&str> = code_lines(text, kind).take(MAX_LINES).collect();
    let bound = bindings(&lines, &lang);
    let uses = pipes::Uses::of(text);
    let arrays = match kind {
        Kind::Perl => arrays::bindings(&lines),
        _ => HashMap::new(),
    };
    // A run named by a string or a symbol, a method by a computed name
    // (recheck 21, items 6 and 7).
    let names: Vec<&str> = match kind {
        Kind::Php => PHP.iter().chain(indirect::PHP_CODE).copied().collect(),
        // A lone backtick is a string's text far more often (`'`'`).
        Kind::Ruby => indirect::RUBY
            .iter()
            .copied()
            .filter(|n| *n != "`")
            .collect(),
        _ => Vec::new(),
    };
    // A computed `BASH_ENV` or `ENV` for the shells it starts (item 8).
    let by_name = lines
        .iter()
        .filter(|l| named::line(l, kind, &names) || kind != Kind::Lua && env_sets::line(l));
    // A callable computed from outside or hidden (round 12, item 6).
    let callables = match kind {
        Kind::Php => php_callables::unknown(&lines, &names),
        _ => Vec::new(),
    };
    for shown in indirect::unknown(&lines, kind)
        .into_iter()
        .chain(callables)
        .chain(by_name.map(|l| l.trim().chars().take(80).collect()))
    {
        if !out.unknown.contains(&shown) && out.unknown.len() < MAX_FOUND {
            out.unknown.push(shown);
        }
    }
    // Each line, and each statement that goes on over lines (item 4).
    let statements = statements::joined(&lines);
    let reread = match kind {
        Kind::Perl => perl_rereads(&lines),
        _ => Vec::new(),
    };
    let units = lines
        .iter()
        .copied()
        .chain(statements.iter().map(String::as_str))
        .chain(reread.iter().map(String::as_str));
    for line in units {
        let mut found = commands(line, &lang);
        found.extend(pipes::commands(line, kind, uses));
        // `system @argv` of an array bound to written lists (round 8):
        // each list an argv.
        let found: Vec<(Vec<String>, bool)> = found
            .into_iter()
            .flat_map(|(command, shell)| {
                arrays::expand(&command, &arrays)
                    .into_iter()
                    // `system()` of an empty list runs nothing.
                    .filter(|c| !c.is_empty())
                    .map(move |c| (c, shell))
            })
            .collect();
        for (command, shell) in found {
            for arg in &command {
                let word = literal(arg, &lang).unwrap_or_default();
                let path = !word.starts_with('-')
                    && !word.contains(char::is_whitespace)
                    && word.contains(['/', '.']);
                if path && !out.named.contains(&word) && out.named.len() < MAX_FOUND {
                    out.named.push(word);
                }
            }
            let (known, texts) = judge(&command, shell, &lang, &bound);
            let shown: String = line.trim().chars().take(80).collect();
            if !known && !out.unknown.contains(&shown) && out.unknown.len() < MAX_FOUND {
                out.unknown.push(shown.clone());
            }
            for text in texts {
                for why in unknown::shell(&text) {
                    let why = why.strip_prefix(unknown::MARK).unwrap_or(&why).to_string();
                    let found = (why, shown.clone());
                    if !out.refusals.contains(&found) && out.refusals.len() < MAX_FOUND {
                        out.refusals.push(found);
                    }
                }
            }
        }
    }
    out
}

/// The code lines of `text`: comment lines left out, and for Perl its
/// POD and what follows `__END__`/`__DATA__`.
fn code_lines(text: &str, kind: Kind) -> impl Iterator<Item = &str> {
    let mut pod = false;
    let mut ended = false;
    text.lines().filter(move |line| {
        if ended {
            return false;
        }
        if kind == Kind::Perl {
            if line.starts_with("__END__") || line.starts_with("__DATA__") {
                ended = true;
                return false;
            }
            if line.starts_with('=') {
                pod = !line.starts_with("=cut");
                return false;
            }
            if pod {
                return false;
            }
        }
        let t = line.trim_start();
        // Blanked by a lexer that knows strings from comments (recheck
        // 21, item 5); Perl's comment lines are read as code (a string
        // an earlier line opened may hold the `#`).
        if super::comments::lexed(kind) || kind == Kind::Perl {
            return true;
        }
        // `#{…}` opening a heredoc's or a string's line is code (round 10).
        // PHP 8's `#[Attr]` is code too (item 3e).
        let comment = t.starts_with('#') && !t.starts_with("#{") && !t.starts_with("#[");
        !(comment || t.starts_with("//") || t.starts_with("--") && kind == Kind::Lua)
    })
}

/// Perl's lines read again as if each started inside a `"…"` or a
/// `'…'` string (recheck 21, item 5): a string an earlier line opened
/// (`my $s = '⏎ x'; system("sh $w");`) turns the line's quotes around,
/// and Perl has no lexer here. Of the three readings, one knows where
/// the string ends, whatever quotes come before it (Perl has no `#{}`:
/// read as text).
fn perl_rereads(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.contains(['"', '\'']))
        .flat_map(|l| {
            let l = l.replace("#{", "# ");
            [format!("\"{l}"), format!("'{l}")]
        })
        .collect()
}

/// The names bound only to string literals (`my $cmd = "sh x.sh";`),
/// each with its texts.
fn bindings(lines: &[&str], lang: &Lang) -> HashMap<String, Vec<String>> {
    let mut all: HashMap<String, Option<Vec<String>>> = HashMap::new();
    for line in lines {
        let t = line.trim();
        let t = ["my ", "our ", "local "]
            .iter()
            .find_map(|k| t.strip_prefix(k))
            .unwrap_or(t);
        let Some((name, value)) = t.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let value = value.trim().trim_end_matches(';').trim();
        if value.starts_with(['=', '~', '>']) || !is_name(name, lang) {
            continue;
        }
        let entry = all
            .entry(name.to_string())
            .or_insert_with(|| Some(Vec::new()));
        match (literal(value, lang), entry.as_mut()) {
            (Some(text), Some(texts)) => texts.push(text),
            _ => *entry = None,
        }
    }
    all.into_iter()
        .filter_map(|(name, texts)| Some((name, texts?)))
        .collect()
}

/// Whether `word` is a variable of the language (`$cmd`, `cmd`).
fn is_name(word: &str, lang: &Lang) -> bool {
    let Some(rest) = word.strip_prefix(lang.sigil) else {
        return false;
    };
    !rest.is_empty()
        && !rest.starts_with(|c: char| c.is_ascii_digit())
        && rest.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The text of a string literal that is all of `expr` and does not
/// interpolate, or `None`.
fn literal(expr: &str, lang: &Lang) -> Option<String> {
    let quote = expr.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = expr.get(1..)?.strip_suffix(quote)?;
    if inner.contains(quote) {
        return None;
    }
    let interpolates = quote == '"' && lang.interpolates.iter().any(|i| inner.contains(i));
    (!interpolates).then(|| inner.to_string())
}

/// The commands a line runs: each call's arguments (with whether they
/// are one shell line: a backtick, `qx`, `%x`), split at top-level
/// commas.
fn commands(line: &str, lang: &Lang) -> Vec<(Vec<String>, bool)> {
    let mut out = Vec::new();
    // PHP's `@proc_open(…)` (round 10): `@` only silences it. PHP's
    // function names are read in any case (`SYSTEM(…)`, `Shell_Exec(…)`).
    let php = lang.interpolates == ["$"] && lang.sigil == "$";
    let dotted = receivers_dotted(line, lang);
    let line = dotted.as_ref();
    let haystack = match php {
        true => std::borrow::Cow::Owned(line.to_ascii_lowercase()),
        false => std::borrow::Cow::Borrowed(line),
    };
    for call in lang.calls {
        for (at, _) in haystack.match_indices(call) {
            let after = &line[at + call.len()..];
            if in_a_word(&line[..at], call, php) || !after.starts_with([' ', '(', '\t']) {
                continue;
            }
            let rest = after.trim_start();
            // `exec {…}`/`system {…}` (Perl's indirect object), a hash key,
            // a method's definition, PHP's `function exec(` (round 10: PHP
            // has no `super`; Ruby's `def system` may call it), a word in a
            // string: not a run.
            if rest.starts_with(['{', '=', ',', ')', ';'])
                || rest.is_empty()
                || in_string(line, at)
                || php && php_function(line, at)
            {
                continue;
            }
            // Perl's `system LIST` starts with a variable, a string, `(` or
            // `q…`: a bareword after it is prose (`on this system to …`).
            if lang.sigil == "$"
                && !after.starts_with('(')
                && rest.starts_with(|c: char| c.is_alphabetic())
                && !(rest.starts_with("qw") || rest.starts_with("qq") || rest.starts_with("q{"))
            {
                continue;
            }
            let inner = match rest.strip_prefix('(') {
                Some(r) => r,
                None => rest,
            };
            // `system(` whose arguments go on the next lines (item 3f):
            // not read, so not known.
            if rest.starts_with('(') && inner.trim().is_empty() {
                out.push((vec!["(on the next line)".to_string()], false));
                continue;
            }
            let args: Vec<String> = super::env_path::split_top(until_end(inner), ',')
                .into_iter()
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect();
            // Ruby/PHP options or an env hash first (`system({"A" => "1"}, …)`).
            let mut args: Vec<String> = args
                .into_iter()
                .skip_while(|a| a.starts_with('{') || a.starts_with("ENV"))
                .filter(|a| !a.contains("=>") && !a.starts_with(':'))
                .collect();
            // PHP's calls run their first argument (round 8): the rest
            // are a mode, descriptors, an output array, `pcntl_exec`'s
            // argument array.
            if lang.sigil == "$" && lang.interpolates == ["$"] {
                match *call {
                    "pcntl_exec" => {
                        let items = args.get(1).and_then(|a| pipes::array_items(a));
                        args.truncate(1);
                        args.extend(items.unwrap_or_default());
                    }
                    _ => args.truncate(1),
                }
            }
            // An array of the program and its arguments (Ruby's
            // `IO.popen(["git", "log"])`, PHP's `proc_open(['git',
            // 'log'], …)`).
            if args.len() == 1
                && let Some(items) = pipes::array_items(&args[0])
                && !items.is_empty()
            {
                args = items;
            }
            if !args.is_empty() {
                out.push((args, false));
            }
        }
    }
    // Backticks, Perl's `qx{…}`, Ruby's `%x(…)`.
    for (open, close) in [
        ("`", '`'),
        ("qx{", '}'),
        ("qx(", ')'),
        ("%x(", ')'),
        ("%x{", '}'),
    ] {
        for (at, _) in line.match_indices(open) {
            if open == "`" && line[..at].matches('`').count() % 2 == 1 || in_string(line, at) {
                continue;
            }
            if open.starts_with('q')
                && line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            let body = &line[at + open.len()..];
            // A backtick with no closing one on its line quotes prose
            // (`` `$x' ``) or sits in a pattern.
            let Some(end) = body.find(close) else {
                continue;
            };
            let body = &body[..end];
            out.push((vec![format!("\"{body}\"")], true));
        }
    }
    out
}

/// Ruby's `Kernel::system`, `::Kernel.exec`, `Process::spawn` (recheck
/// 21, item 3): `::` read as `.`, so that each is a call of the table.
fn receivers_dotted<'a>(line: &'a str, lang: &Lang) -> std::borrow::Cow<'a, str> {
    match lang.interpolates == ["#{"] && line.contains("::") {
        true => std::borrow::Cow::Owned(line.replace("::", ".")),
        false => std::borrow::Cow::Borrowed(line),
    }
}

/// Whether the word at `at` in `line` is the name a PHP `function`
/// gives its own function (`public function exec($c)`).
fn php_function(line: &str, at: usize) -> bool {
    let Some(before) = line.get(..at) else {
        return false;
    };
    before
        .strip_suffix(char::is_whitespace)
        .map(str::trim_end)
        .and_then(|b| b.strip_suffix("function"))
        .is_some_and(|ahead| ahead.is_empty() || ahead.ends_with(char::is_whitespace))
}

/// Whether `call`, found after `before`, is part of another word or
/// name (`$system`, `x.system` for an undotted call, `my_exec`); PHP's
/// `@` only silences a call.
fn in_a_word(before: &str, call: &str, php: bool) -> bool {
    let dotted = call.contains('.');
    before.chars().next_back().is_some_and(|c| {
        c.is_alphanumeric()
            || c == '@' && !php
            || matches!(c, '_' | '$' | '%' | '\'' | '"' | '-' | '>')
            || c == '.' && !dotted
            || c == ':' && !dotted
    })
}

/// Whether `at` in `line` is inside a `'…'` or `"…"` string (a
/// backslash escapes the next character). A Ruby interpolation's
/// `#{…}` in a double-quoted string is code (round 10: `puts
/// "#{system(x)}"` runs `x`); read so in every language, which only
/// reads more calls.
fn in_string(line: &str, at: usize) -> bool {
    // Per level: the quote open, if any, and the `{`s open in its code.
    let mut levels: Vec<(Option<char>, usize)> = vec![(None, 0)];
    let mut escaped = false;
    let mut chars = line[..at].chars().peekable();
    while let Some(c) = chars.next() {
        let Some(level) = levels.last_mut() else {
            return false;
        };
        match (level.0, c) {
            (_, _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some('"'), '#') if chars.peek() == Some(&'{') => {
                chars.next();
                levels.push((None, 0));
            }
            (Some(q), c) if c == q => level.0 = None,
            (Some(_), _) => {}
            (None, '\\') => escaped = true,
            (None, '"' | '\'') => level.0 = Some(c),
            (None, '{') => level.1 += 1,
            (None, '}') if level.1 > 0 => level.1 -= 1,
            (None, '}') if levels.len() > 1 => {
                levels.pop();
            }
            (None, _) => {}
        }
    }
    levels.last().is_some_and(|l| l.0.is_some())
}

/// The arguments' text up to the statement's end (`;`, `)` closing the
/// call, or a trailing `or die`/`unless`/`if`), outside strings and
/// brackets.
fn until_end(text: &str) -> &str {
    const ENDS: [&str; 9] = [
        ";", " or ", " and ", " unless ", " if ", " || ", " && ", " do", " {",
    ];
    super::env_path::top_level_until(text, |rest| ENDS.iter().any(|w| rest.starts_with(w)))
}

/// Whether a command is known, and the shell texts it runs that are
/// known (read for hooks). One argument is a shell line (a literal, a
/// name bound to literals, or a string whose written start names its
/// program); more are an argv, judged as Python's is.
fn judge(
    args: &[String],
    shell: bool,
    lang: &Lang,
    bound: &HashMap<String, Vec<String>>,
) -> (bool, Vec<String>) {
    let values = |arg: &str| -> Option<Vec<String>> {
        // `$^X`: the perl running the script (round 8).
        if lang.interpolates == ["$", "@"] && arg == "$^X" {
            return Some(vec!["perl".to_string()]);
        }
        literal(arg, lang)
            .map(|t| vec![t])
            .or_else(|| bound.get(arg).cloned())
    };
    if args.len() == 1 || shell {
        let arg = &args[0];
        if let Some(lines) = values(arg) {
            return (true, lines);
        }
        // PHP's `sprintf('stty %s', $m)` (round 10): its format, up to
        // the first `%`.
        let format = lang.interpolates == ["$"] && lang.sigil == "$";
        let (arg, format) = match arg.strip_prefix("sprintf(").filter(|_| format) {
            Some(inner) => (inner.trim_start(), true),
            None => (arg.as_str(), false),
        };
        // The text before its first interpolation or joined part.
        let start = arg
            .strip_prefix('"')
            .map(|body| {
                let stop = lang
                    .interpolates
                    .iter()
                    .filter_map(|i| body.find(i))
                    .chain(body.find('"'))
                    .min()
                    .unwrap_or(body.len());
                body[..stop].to_string()
            })
            .or_else(|| {
                let quote = arg.chars().next().filter(|c| *c == '\'')?;
                let body = &arg[1..];
                Some(body[..body.find(quote)?].to_string())
            })
            .map(|s| match format {
                true => s[..s.find('%').unwrap_or(s.len())].to_string(),
                false => s,
            });
        // The whole line too: `"cat #{w} | sh"` (recheck 21, item 2).
        let whole = shell_text::text(&args[0], lang.interpolates == ["#{"])
            .is_none_or(|t| argv::start_known(&format!("{t} ")));
        return (
            start.is_some_and(|s| argv::start_known(&s)) && whole,
            Vec::new(),
        );
    }
    let words: Vec<Option<String>> = args
        .iter()
        .map(|a| values(a).and_then(|v| v.into_iter().next()))
        .collect();
    let Some(Some(program)) = words.first() else {
        return (false, Vec::new());
    };
    // `system('nice', 'sh', w)`: a wrapper runs what follows it.
    if argv::wrapper(program) && words.iter().any(Option::is_none) {
        return (false, Vec::new());
    }
    if !argv::interpreter(program) {
        let known: Option<Vec<String>> = words.iter().cloned().collect();
        return (true, known.map(|w| vec![w.join(" ")]).unwrap_or_default());
    }
    // An interpreter: its first word that is no option is its script.
    for word in &words[1..] {
        match word {
            None => return (false, Vec::new()),
            Some(w) if matches!(w.as_str(), "-c" | "-e" | "-E" | "-m") => {
                return (false, Vec::new());
            }
            Some(w) if w.starts_with('-') => {}
            Some(_) => {
                let known: Option<Vec<String>> = words.iter().cloned().collect();
                return (true, known.map(|w| vec![w.join(" ")]).unwrap_or_default());
            }
        }
    }
    (false, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(text: &str, kind: Kind) -> Vec<String> {
        script(text, kind).unknown
    }

    #[test]
    fn a_computed_program_or_script_is_named_and_a_literal_is_not() {
        let perl = "my $w = <STDIN>;\nsystem(\"sh $w\");\nsystem('sh', $w);\n\
                    my $o = `sh $w`;\nexec $w;\nmy $q = qx{$w};\n\
                    system('sh tools/w.sh');\nsystem('git', 'log', $ref);\n\
                    my $c = 'sh tools/w.sh';\nsystem($c);\nprint `ls -l $dir`;\n\
                    # system($x)\n=pod\n\nsystem($y)\n\n=cut\nmy %h = (system => 1);\n\
                    system(\"rm -rf $tmp\") == 0 or die;\n\
                    die(\"--show event `$e' did not appear\");\nprint 'GNU system type', $x;\n\
                    croak 'invalid exec parameter in spawn()';\nReport a build on this system to perl\n\
                    if ($s =~ /^[~!@#'\"`{}]/) {}\n";
        assert_eq!(
            unknown(perl, Kind::Perl),
            [
                "system(\"sh $w\");",
                "system('sh', $w);",
                "my $o = `sh $w`;",
                "exec $w;",
                "my $q = qx{$w};",
                // Perl's comment lines are read (recheck 21, item 5).
                "# system($x)",
            ]
        );
        let ruby = "w = File.read('x')\nsystem(\"sh #{w}\")\nsystem('sh', w)\n\
                    out = `sh #{w}`\nIO.popen(w)\nOpen3.capture2('sh', w)\n\
                    system('sh tools/w.sh')\nsystem('git', 'log', ref)\nx = %x(ls #{d})\n\
                    obj.system(w)\n";
        assert_eq!(
            unknown(ruby, Kind::Ruby),
            [
                "system(\"sh #{w}\")",
                "system('sh', w)",
                "out = `sh #{w}`",
                "IO.popen(w)",
                "Open3.capture2('sh', w)",
            ]
        );
        let php = "<?php\nshell_exec(\"sh $w\");\nexec('sh tools/w.sh');\n\
                   passthru($cmd);\n$x->exec($y);\n";
        assert_eq!(
            unknown(php, Kind::Php),
            ["shell_exec(\"sh $w\");", "passthru($cmd);"]
        );
        let lua = "os.execute('sh ' .. w)\nos.execute('sh tools/w.sh')\nio.popen(cmd)\n";
        assert_eq!(
            unknown(lua, Kind::Lua),
            ["os.execute('sh ' .. w)", "io.popen(cmd)"]
        );
    }

    /// Recheck 21: the lexers, statements and by-name readers stay
    /// bounded on a hostile megabyte.
    #[test]
    fn a_hostile_megabyte_is_read_in_bounded_time() {
        let line = "send(ERB.new(ENV['BASH_ENV'] = :system, ".repeat(25_000);
        assert!(!script(&line, Kind::Ruby).unknown.is_empty());
        let lines = "x = foo(\"#{a}\", '\n# ', %q(\n".repeat(20_000);
        script(&lines, Kind::Ruby);
        let php = format!("<?php\n{}", "system(\n$a . 'x' . <<<E\n".repeat(20_000));
        script(&php, Kind::Php);
        // No timed assertion (benchmarks time things): a quadratic reading
        // of this input would not end.
    }

    #[test]
    fn a_literal_git_command_that_runs_hooks_is_a_refusal() {
        let runs = script("system('git -C x commit -qm y');\n", Kind::Perl);
        assert_eq!(runs.refusals.len(), 1, "{runs:?}");
        let runs = script("system('git', 'push');\n", Kind::Ruby);
        assert_eq!(runs.refusals.len(), 1, "{runs:?}");
    }
}
