//! Runs named by a string or a symbol, or by a name computed as the
//! script runs (recheck 21, items 6 and 7). A PHP string literal (or a
//! `.` of literals) whose value is one of PHP's functions that run a
//! program or evaluate code (`array_map('system', $a)`, `('exec')($c)`,
//! `new ReflectionFunction('system')`, `$f = 'sys' . 'tem'`), and a
//! Ruby symbol or string naming a method that runs, loads or evaluates
//! (`:system.to_proc`, `&:exec`, `public_method(:system)`), hand that
//! function to code that calls it: the line is refused. Not when it is
//! only tested (`function_exists('proc_open')`), compared (`=== 'exec'`)
//! or a hash key (`'exec' => 1`, `opts[:require]`). A Ruby method
//! chosen by a computed name (`send(m, w)`, `public_send(x)`,
//! `method(name)`) is refused whatever it names, and so are Ruby's
//! loaders of computed code that the line reader has no call for
//! (`RubyVM::InstructionSequence`, `autoload(:X, path)`,
//! `Gem::Specification.load(x)`, `Rake.load_rakefile(x)`,
//! `ERB.new(x)`).

use super::Kind;

/// The calls that only test a function's name.
const TESTS: &[&str] = &[
    "function_exists(",
    "is_callable(",
    "extension_loaded(",
    "respond_to?(",
    "defined?(",
];

/// Ruby's methods that call a method by its name.
const SENDERS: &[&str] = &[
    "send",
    "public_send",
    "__send__",
    "method",
    "public_method",
    "singleton_method",
    "instance_method",
    "public_instance_method",
];

/// Ruby's loaders of computed code, each with the argument that names
/// it (0: the first).
const RUBY_LOADERS: &[(&str, usize)] = &[
    ("autoload", 1),
    ("Specification.load", 0),
    ("Specification::load", 0),
    ("load_rakefile", 0),
    ("ERB.new", 0),
    ("Erubi::Engine.new", 0),
];

/// Whether `line` hands a run on by name: see the module's text.
pub(super) fn line(line: &str, kind: Kind, names: &[&str]) -> bool {
    match kind {
        Kind::Php => strings(line, names, '.'),
        Kind::Ruby => {
            // A Ruby string names a method only where something calls by
            // name (`'system'.to_sym`, `method('exec')`); a computed
            // name reaching a sender is refused there.
            strings(line, names, '+') && by_name(line)
                || symbols(line, names)
                || computed_senders(line, names)
                || line.contains("InstructionSequence")
                || loaders(line)
        }
        _ => false,
    }
}

/// The words of Ruby that call or hand on a method by its name.
const BY_NAME: &[&str] = &[
    "to_sym",
    "to_proc",
    "intern",
    "method",
    "send",
    "alias",
    "const_get",
    "instance_method",
];

/// Whether `line` holds one of [`BY_NAME`] as a word or a word's end
/// (`public_send`, `define_method`).
fn by_name(line: &str) -> bool {
    BY_NAME.iter().any(|w| {
        line.match_indices(w).any(|(at, _)| {
            !line[at + w.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    })
}

/// A string literal of `line` whose value (joined with the literals
/// `join` adds to it) is one of `names`, in no test, comparison or key.
fn strings(line: &str, names: &[&str], join: char) -> bool {
    let mut found = literals(line);
    // `'sys' . 'tem'`: joined.
    let mut joined = Vec::new();
    for pair in found.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if line[a.1..b.0].trim() == join.to_string() {
            joined.push((a.0, b.1, format!("{}{}", a.2, b.2)));
        }
    }
    found.extend(joined);
    found.iter().any(|(start, end, value)| {
        let value = value.trim_start_matches('\\');
        names.iter().any(|n| n.eq_ignore_ascii_case(value)) && !inert(line, *start, *end)
    })
}

/// Whether the name at `start..end` of `line` is only tested, compared
/// or a key.
fn inert(line: &str, start: usize, end: usize) -> bool {
    let before = line[..start].trim_end();
    let after = line[end..].trim_start();
    TESTS.iter().any(|t| before.ends_with(t))
        || ["==", "!=", "case", "when", "in_array("]
            .iter()
            .any(|c| before.ends_with(c))
        || ["=>", "==", "!="].iter().any(|c| after.starts_with(c))
        || before.ends_with('[') && after.starts_with(']')
}

/// The string literals of `line` that interpolate nothing: where each
/// starts and ends (its quotes included), and its value.
fn literals(line: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = line[at..].find(['\'', '"']) {
        let start = at + found;
        let q = line[start..].chars().next().unwrap_or('"');
        let mut value = String::new();
        let mut end = None;
        let mut chars = line[start + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => value.extend(chars.next().map(|(_, n)| n)),
                c if c == q => {
                    end = Some(start + 1 + i + 1);
                    break;
                }
                c => value.push(c),
            }
        }
        let Some(end) = end else {
            break;
        };
        let interpolates = q == '"' && (value.contains('$') || value.contains("#{"));
        if !interpolates {
            out.push((start, end, value));
        }
        at = end;
    }
    out
}

/// A Ruby symbol (`:system`, `:"exec"`) naming one of `names`, in no
/// test or key (`opts[:require]`, `:load => x`).
fn symbols(line: &str, names: &[&str]) -> bool {
    super::too_many(line, ":")
        || line.match_indices(':').any(|(at, _)| {
            let prev = line[..at].chars().next_back();
            if prev.is_some_and(|c| c == ':' || c.is_alphanumeric() || c == '_') {
                return false;
            }
            let rest = &line[at + 1..];
            let rest = rest.trim_start_matches(['"', '\'']);
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (name, after) = rest.split_at(len);
            // `:load!`, `:exec?`, `:system=` name other methods.
            if after.starts_with(['!', '?', '=']) && !after.starts_with("=>") || name.is_empty() {
                return false;
            }
            let end = at + 1 + (line[at + 1..].len() - rest.len()) + len;
            let end = end + usize::from(line[end..].starts_with(['"', '\'']));
            names.contains(&name) && !inert(line, at, end)
        })
}

/// A Ruby sender (`send`, `public_send`, `method`, …) given a first
/// argument that may name a run: not a written symbol or string, nor one
/// whose written start or end no run's name has (`send("read_#{t}")`),
/// nor a choice of written ones (`send(x ? :a : :b)`). A `send` that
/// passes nothing on (`send(m)`) or only numbers (`sock.send(data, 0)`)
/// runs nothing, as a `method(x)` only asked its `arity` does not. Not
/// in a string, nor in prose (`to send data`): a call without `(` is one
/// after a receiver's `.` or at a statement's start.
fn computed_senders(line: &str, names: &[&str]) -> bool {
    SENDERS.iter().any(|s| {
        super::too_many(line, s)
            || line.match_indices(s).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '@')
                    || super::in_string(line, at)
                    || defines(&line[..at])
                {
                    return false;
                }
                let rest = &line[at + s.len()..];
                let head = line[..at].trim_end();
                let (arg, parens) = match rest.strip_prefix('(') {
                    Some(arg) => (arg.trim_start(), true),
                    None if rest.starts_with(' ')
                        && (before == Some('.')
                            || head.is_empty()
                            || head.ends_with(['=', '(', ',', ';', '{', '|', '&', '!'])) =>
                    {
                        (rest.trim_start(), false)
                    }
                    None => return false,
                };
                if !argument(arg) {
                    return false;
                }
                let args = match parens {
                    true => super::until_end(arg),
                    false => top_level_line(arg),
                };
                let args = super::super::env_path::split_top(args, ',');
                let first = args.first().map_or("", |a| a.trim());
                let passes = args[1..].iter().any(|a| {
                    let a = a.trim();
                    !(a.is_empty() || a.chars().all(|c| c.is_ascii_digit()))
                });
                let introspects = s.contains("method")
                    && [
                        ".arity",
                        ".parameters",
                        ".owner",
                        ".source_location",
                        ".name",
                    ]
                    .iter()
                    .any(|m| rest.contains(&format!("){m}")));
                // `send(*[name, w])`: a splat passes on what it holds.
                let splat = first.starts_with('*');
                may_name(first, names) && (passes || splat || s.contains("method")) && !introspects
            })
    })
}

/// Whether a method's name after `before` is the one a `def` defines
/// (`def send(`, `def io.send(`).
fn defines(before: &str) -> bool {
    before.rfind("def ").is_some_and(|at| {
        let between = &before[at + 4..];
        !between.contains(|c: char| c.is_whitespace() || c == '(')
            && !before[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
    })
}

/// `text` up to a ` do`/`{` block or a trailing `if`/`unless`.
fn top_level_line(text: &str) -> &str {
    super::super::env_path::top_level_until(text, |r| {
        [" do", " {", " if ", " unless ", ";"]
            .iter()
            .any(|e| r.starts_with(e))
    })
}

/// Whether the method name `expr` (a sender's first argument) may be one
/// of `names`.
fn may_name(expr: &str, names: &[&str]) -> bool {
    if written(expr) {
        return false;
    }
    // `cond ? :a : :b`: each branch.
    if let Some((_, branches)) = expr.split_once(" ? ")
        && let Some((a, b)) = branches.split_once(" : ")
    {
        return [a.trim(), b.trim()]
            .iter()
            .any(|b| !written(b) || named_by(b, names));
    }
    // `"read_#{t}"`, `:"parse_#{t}"`: its written start and end.
    let body = expr.trim_start_matches(':');
    let Some(inner) = body
        .strip_prefix('"')
        .and_then(|b| b.strip_suffix('"'))
        .filter(|b| !b.contains('"'))
    else {
        return true;
    };
    let start = &inner[..inner.find("#{").unwrap_or(inner.len())];
    let end = &inner[inner.rfind('}').map_or(inner.len(), |e| e + 1)..];
    names
        .iter()
        .any(|n| n.starts_with(start) && n.ends_with(end) && n.len() >= start.len() + end.len())
}

/// Whether the written symbol or string `expr` names one of `names`.
fn named_by(expr: &str, names: &[&str]) -> bool {
    let name = expr.trim_start_matches(':').trim_matches(['"', '\'']);
    names.contains(&name)
}

/// Whether `arg` (after a method's name and a space or `(`) starts an
/// argument, not an operator or the statement's end.
fn argument(arg: &str) -> bool {
    let Some(c) = arg.chars().next() else {
        return false;
    };
    let symbol = c == ':' && arg[1..].starts_with(|c: char| c.is_alphanumeric() || c == '"');
    let splat = c == '*'
        && arg[1..]
            .starts_with(|c: char| c.is_alphanumeric() || matches!(c, '_' | '[' | '*' | '@'));
    let operator = "=!<>&|?:.)]},;+-*/%^#".contains(c) && !symbol && !splat;
    let keyword = ["if ", "unless ", "and ", "or ", "then", "do", "end"]
        .iter()
        .any(|k| arg.starts_with(k));
    !(operator || keyword)
}

/// A symbol or string written out: `:name`, `:"name"`, `'name'`,
/// `"name"` with no interpolation.
fn written(arg: &str) -> bool {
    // A heredoc that interpolates nothing (`<<-'HTML'`).
    if let Some(rest) = arg.strip_prefix("<<") {
        return rest.trim_start_matches(['~', '-']).starts_with('\'');
    }
    if let Some(rest) = arg.strip_prefix(':') {
        if rest.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            return true;
        }
        return written(rest);
    }
    let Some(q) = arg.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    arg[1..]
        .find(q)
        .is_some_and(|end| !(q == '"' && arg[1..1 + end].contains("#{")))
}

/// A loader of [`RUBY_LOADERS`] given a computed name.
fn loaders(line: &str) -> bool {
    RUBY_LOADERS.iter().any(|(name, which)| {
        super::too_many(line, name)
            || line.match_indices(name).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    return false;
                }
                let rest = &line[at + name.len()..];
                let args = match rest.strip_prefix('(') {
                    Some(a) => a,
                    None if rest.starts_with(' ') => rest,
                    None => return false,
                };
                let args = super::super::env_path::split_top(super::until_end(args), ',');
                args.get(*which)
                    .is_some_and(|a| !written(a.trim()) && !a.trim().is_empty())
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHP: &[&str] = &["system", "exec", "passthru", "eval"];
    const RUBY: &[&str] = &["system", "exec", "load", "require", "eval"];

    #[test]
    fn a_run_named_by_a_string_is_found_and_a_test_of_one_is_not() {
        for l in [
            "array_map('system', $a);",
            "('system')($w);",
            "$f = 'sys' . 'tem';",
            "usort($a, 'PASSTHRU');",
            "$r = new \\ReflectionFunction(\"exec\");",
        ] {
            assert!(line(l, Kind::Php, PHP), "{l}");
        }
        for l in [
            "if (\\function_exists('exec')) {",
            "$m = ['exec' => 1];",
            "if ($n === 'system') {",
            "echo 'system error';",
            "$s = \"exec $x\";",
        ] {
            assert!(!line(l, Kind::Php, PHP), "{l}");
        }
    }

    #[test]
    fn a_ruby_symbol_or_a_computed_sender_is_found() {
        for l in [
            "[w].each(&:system)",
            ":system.to_proc",
            "public_method(:exec).call(w)",
            "send(m, w)",
            "obj.public_send(name, w)",
            "send m, w",
            "send(*args)",
            "obj.__send__(*[m, w])",
            "x = obj.send(\"sys#{t}\", w)",
            "send(c ? :system : :puts, w)",
            "'system'.to_sym.to_proc.call(Kernel, w)",
            "method name",
            "RubyVM::InstructionSequence.compile(x).eval",
            "autoload(:Foo, w)",
            "autoload :Foo, File.join(d, 'x')",
            "Gem::Specification.load(path)",
            "Rake.load_rakefile(f)",
            "ERB.new(File.read(t)).result",
        ] {
            assert!(line(l, Kind::Ruby, RUBY), "{l}");
        }
        for l in [
            "send(:puts, w)",
            "options[:require] ||= []",
            "x = { :load => 1 }",
            "session.send(:load!)",
            "if request.method == 'GET'",
            "def method_missing(name, *args)",
            "autoload :Builder, 'rack/builder'",
            "ERB.new('<%= 1 %>').result",
            "x.method",
            "Foo::System",
            "def send(data, *args)",
            "def io.send(data, flag)",
            "socket.send packet, 0",
            "ch[:socket].send(data)",
            "buffer.send(\"write_#{type}\", *value)",
            "x = send(:\"parse_#{t}\", a)",
            "cipher.send(o[:encrypt] ? :encrypt : :decrypt, x)",
            "arity = instance.method(name).arity",
            "'  this method reads at most'",
            "# we send data to it",
            "script.sends_channel_request(self, \"exec\", reply)",
            "TEMPLATE = ERB.new(<<-'HTML'.gsub(/^ /, ''))",
        ] {
            assert!(!line(l, Kind::Ruby, RUBY), "{l}");
        }
    }
}
