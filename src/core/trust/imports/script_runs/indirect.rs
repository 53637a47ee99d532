//! Runs and loads called by another name (consent round 10, item 3d):
//! Ruby's `Kernel.load(x)`, `binding.eval(x)`, `send(:system, x)`
//! (`public_send`, `__send__`), `method(:load)`, `alias sh system`;
//! PHP's `call_user_func('exec', $c)` and `$f($c)` where `$f = 'exec'`.
//! A line that calls one so is refused whatever its arguments, save a
//! receiver's load or eval of a string written out whole.

use super::Kind;

/// Ruby's methods that run a program or load or evaluate code.
pub(super) const RUBY: &[&str] = &[
    "system",
    "exec",
    "spawn",
    "`",
    "open",
    "popen",
    "load",
    "require",
    "require_relative",
    "autoload",
    "eval",
    "instance_eval",
    "class_eval",
    "module_eval",
    "instance_exec",
    "class_exec",
    "module_exec",
];

/// PHP's functions that evaluate code, besides those that run a program
/// ([`super::PHP`]).
pub(super) const PHP_CODE: &[&str] = &["eval", "assert", "create_function"];

/// Whether `text` names one of PHP's functions that run a program or
/// evaluate code.
fn php_named(text: &str) -> bool {
    named(text, super::PHP) || named(text, PHP_CODE)
}

/// The lines of `lines` (trimmed) that run or load through another name.
pub(super) fn unknown(lines: &[&str], kind: Kind) -> Vec<String> {
    let names = match kind {
        Kind::Php => php_names(lines),
        _ => Vec::new(),
    };
    lines
        .iter()
        .filter(|line| match kind {
            Kind::Ruby => ruby_line(line),
            Kind::Php => php_line(line, &names),
            _ => false,
        })
        .map(|line| line.trim().chars().take(80).collect())
        .collect()
}

/// A name written as a Ruby symbol or string (`:system`, `'load'`,
/// `:"eval"`), at `text`'s start.
fn named(text: &str, set: &[&str]) -> bool {
    let text = text.trim_start().trim_start_matches('(').trim_start();
    if !text.starts_with([':', '"', '\'']) {
        return false;
    }
    let word = text[1..].trim_start_matches(['"', '\'']);
    let end = word
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '`'))
        .unwrap_or(word.len());
    // `:load!`, `:exec?`, `:system=` name other methods.
    let other = word[end..].starts_with(['!', '?', '=']);
    let word = &word[..end];
    !word.is_empty() && !other && set.iter().any(|n| n.eq_ignore_ascii_case(word))
}

/// Whether `line` holds `word` not as a longer word's end, each place
/// with the text after it.
fn after<'a>(line: &'a str, word: &str) -> Vec<&'a str> {
    line.match_indices(word)
        .filter(|(at, _)| {
            !line[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| &line[at + word.len()..])
        .collect()
}

fn ruby_line(line: &str) -> bool {
    let senders = [
        "send",
        "public_send",
        "__send__",
        "method",
        "instance_method",
    ];
    if senders.iter().any(|s| {
        after(line, s)
            .into_iter()
            .any(|rest| rest.starts_with(['(', ' ']) && named(rest, RUBY))
    }) {
        return true;
    }
    // `alias sh system`, `alias_method :sh, :system`.
    for rest in after(line, "alias")
        .into_iter()
        .chain(after(line, "alias_method"))
    {
        let mut words = rest.split([' ', ',', '(', ')']).filter(|w| !w.is_empty());
        if words.any(|w| RUBY.contains(&w.trim_start_matches(':').trim_matches(['"', '\'']))) {
            return true;
        }
    }
    // A receiver's load or eval: `Kernel.load(x)`, `binding.eval(x)`.
    let receivers = ["Kernel.", "Kernel::", "binding.", "TOPLEVEL_BINDING."];
    receivers.iter().any(|r| {
        after(line, r).into_iter().any(|rest| {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (name, args) = rest.split_at(end);
            let loads = matches!(name, "load" | "require" | "require_relative" | "eval");
            loads && args.starts_with(['(', ' ']) && !written(args)
        })
    })
}

/// A string written out whole, with no interpolation, as the argument.
fn written(args: &str) -> bool {
    let arg = args.trim_start().trim_start_matches('(').trim_start();
    let Some(quote) = arg.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    let Some(end) = arg[1..].find(quote) else {
        return false;
    };
    let body = &arg[1..1 + end];
    !(body.contains('\\') || quote == '"' && body.contains("#{"))
}

/// PHP's variables assigned a run's name (`$f = 'exec';`).
fn php_names(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        for (at, _) in line.match_indices('$') {
            let rest = &line[at + 1..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (name, value) = rest.split_at(end);
            let Some(value) = value.trim_start().strip_prefix('=') else {
                continue;
            };
            let value = value.trim_start();
            if !name.is_empty() && value.starts_with(['"', '\'']) && php_named(value) {
                out.push(format!("${name}"));
            }
        }
    }
    out
}

fn php_line(line: &str, names: &[String]) -> bool {
    let callers = [
        "call_user_func",
        "call_user_func_array",
        "forward_static_call",
    ];
    callers.iter().any(|c| {
        after(line, c)
            .into_iter()
            .any(|rest| rest.trim_start().starts_with('(') && php_named(rest))
    }) || names.iter().any(|n| {
        line.match_indices(n.as_str()).any(|(at, _)| {
            let rest = &line[at + n.len()..];
            !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                && rest.trim_start().starts_with('(')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_or_a_load_by_another_name_is_found() {
        for line in [
            "Kernel.load(x)",
            "Kernel.eval(x)",
            "binding.eval(x)",
            "::Kernel.require x",
            "send(:system, x)",
            "obj.public_send(:exec, x)",
            "__send__('load', x)",
            "method(:load).call(x)",
            "alias sh system",
            "alias_method :sh, :system",
        ] {
            assert_eq!(unknown(&[line], Kind::Ruby).len(), 1, "{line}");
        }
        for line in [
            "Kernel.require 'json'",
            "send(:puts, x)",
            "obj.send(name, *args)",
            "alias to_s inspect",
            "session.send(:load!)",
            "m =~ /undefined method `#{name}' for/",
            "Kernel.puts(x)",
        ] {
            assert!(unknown(&[line], Kind::Ruby).is_empty(), "{line}");
        }
        let php = [
            "$f = 'exec';",
            "$f($c);",
            "call_user_func('shell_exec', $c);",
        ];
        assert_eq!(unknown(&php, Kind::Php).len(), 2);
        let php = [
            "$f = 'trim';",
            "$f($c);",
            "call_user_func($callback);",
            "$x = $f;",
        ];
        assert!(unknown(&php, Kind::Php).is_empty());
    }
}
