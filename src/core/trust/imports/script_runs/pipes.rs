//! The pipes and spawners of Perl, Ruby and PHP that round 7's call
//! table does not hold (consent round 8, item 4): Perl's `open` of a
//! command (`open(my $fh, '-|', 'git', 'log')`, `open(FH, "git log |")`,
//! `open(FH, "| sh")`), `IPC::Open3`'s `open3`/`open2` (past their
//! handles), `IPC::Run`'s `run`/`start`/`harness` of an array and
//! `IPC::Cmd`'s `run(command => …)`;
//! Ruby's `` Kernel.`(…) `` and `open("|cmd")` (`Kernel.open`,
//! `IO.read`, `IO.readlines`, `IO.foreach`, `IO.write`); and the array
//! forms of Ruby's and PHP's calls (`IO.popen(["git", "log"])`,
//! `proc_open(['git', 'log'], …)`), PHP's calls reading their first
//! argument only (`popen($cmd, 'r')`'s mode, `proc_open`'s descriptors
//! are no words). Each gives what it runs as round 7's calls do: one
//! argument a shell line, more an argv. A two-argument Perl `open` of a
//! variable (`open(FH, $file)`) is not read (see the round's report).

use super::super::env_path::split_top;
use super::super::kinds::Kind;
use super::{in_string, until_end};

/// Which Perl modules a script uses whose `run` runs a program.
#[derive(Clone, Copy, Default)]
pub(super) struct Uses {
    /// `use IPC::Run`: `run [ … ]`, `start`, `harness`.
    pub(super) run: bool,
    /// `use IPC::Cmd`: `run(command => …)`.
    pub(super) cmd: bool,
}

impl Uses {
    pub(super) fn of(text: &str) -> Uses {
        Uses {
            run: text.contains("use IPC::Run"),
            cmd: text.contains("use IPC::Cmd"),
        }
    }
}

/// What a line runs through these, as [`super::commands`] gives it.
pub(super) fn commands(line: &str, kind: Kind, uses: Uses) -> Vec<(Vec<String>, bool)> {
    let mut out = Vec::new();
    match kind {
        Kind::Perl => {
            for (_, inner) in calls(line, "open", false) {
                perl_open(&args_of(inner), &mut out);
            }
            for (name, handles) in [("open3", 3), ("open2", 2)] {
                for (_, inner) in calls(line, name, true) {
                    let args: Vec<String> = args_of(inner).into_iter().skip(handles).collect();
                    if !args.is_empty() {
                        out.push((args, false));
                    }
                }
            }
            if uses.cmd {
                // IPC::Cmd's `run(command => $cmd, …)`: the value is a
                // line or an array of the program and its arguments.
                for (_, inner) in calls(line, "run", true) {
                    let command = args_of(inner).into_iter().find_map(|a| {
                        let (key, value) = a.split_once("=>")?;
                        (key.trim().trim_matches(['\'', '"']) == "command")
                            .then(|| value.trim().to_string())
                    });
                    match command.as_deref().map(|c| (c, array_items(c))) {
                        Some((_, Some(items))) if !items.is_empty() => out.push((items, false)),
                        Some((c, None)) => out.push((vec![c.to_string()], true)),
                        _ => {}
                    }
                }
            }
            if uses.run {
                for name in ["run", "start", "harness"] {
                    for (_, inner) in calls(line, name, true) {
                        let Some(first) = args_of(inner).into_iter().next() else {
                            continue;
                        };
                        // `run(command => …)` is IPC::Cmd's, read above.
                        if first.contains("=>") {
                            continue;
                        }
                        match array_items(&first) {
                            Some(items) if !items.is_empty() => out.push((items, false)),
                            Some(_) => {}
                            // `run \@cmd, …`: an argv built as it runs.
                            None => out.push((vec![first], false)),
                        }
                    }
                }
            }
        }
        Kind::Ruby => {
            for (_, inner) in calls(line, "Kernel.`", true) {
                let args = args_of(inner);
                if !args.is_empty() {
                    out.push((args, true));
                }
            }
            for name in [
                "open",
                "Kernel.open",
                "IO.read",
                "IO.readlines",
                "IO.foreach",
                "IO.write",
                "IO.binread",
            ] {
                for (_, inner) in calls(line, name, name.contains('.')) {
                    if let Some(first) = args_of(inner).first()
                        && let Some(command) = piped(first)
                    {
                        out.push((vec![command], true));
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// The places of `name` called in `line` (followed by `(` or a space),
/// not a longer word's end nor a method's (`$fh->open(`, `File.open(`)
/// unless `dotted` (then `::` and `.` before are allowed), nor inside a
/// string: each with the text after its opening.
fn calls<'a>(line: &'a str, name: &'a str, dotted: bool) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices(name) {
        let before = line[..at].chars().next_back();
        let after = &line[at + name.len()..];
        let word = before.is_some_and(|c| {
            c.is_alphanumeric()
                || matches!(c, '_' | '$' | '@' | '%' | '>' | '\'' | '"')
                || !dotted && matches!(c, '.' | ':')
        });
        if word || in_string(line, at) || !after.starts_with([' ', '(', '\t']) {
            continue;
        }
        let rest = after.trim_start();
        if rest.starts_with(['{', '=', ',', ')', ';']) || rest.is_empty() {
            continue;
        }
        out.push((at, rest.strip_prefix('(').unwrap_or(rest)));
    }
    out
}

/// A call's arguments up to its statement's end, trimmed.
fn args_of(inner: &str) -> Vec<String> {
    split_top(until_end(inner), ',')
        .into_iter()
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .collect()
}

/// Perl's `open`: three or more arguments with mode `-|` or `|-` run
/// the rest; two whose second is a string starting or ending with `|`
/// run that line (`"-|"`/`"|-"` alone fork the script itself).
fn perl_open(args: &[String], out: &mut Vec<(Vec<String>, bool)>) {
    let mode = args.get(1).and_then(|m| quoted(m)).map(|(_, b)| b.trim());
    if args.len() >= 3 {
        if matches!(mode, Some("-|" | "|-")) {
            out.push((args[2..].to_vec(), false));
        }
        return;
    }
    if let Some(spec) = args.get(1)
        && let Some(command) = piped(spec)
    {
        out.push((vec![command], true));
    }
}

/// A string argument that names a command by a `|` at its start or
/// end (`"| sh"`, `"git log |"`): the command as a string of the same
/// quote; `"-|"`, `"|-"`, `"|"` alone are none.
fn piped(arg: &str) -> Option<String> {
    let (quote, body) = quoted(arg)?;
    let trimmed = body.trim();
    if matches!(trimmed, "-|" | "|-" | "|" | "-") {
        return None;
    }
    let command = match (trimmed.strip_prefix('|'), trimmed.strip_suffix('|')) {
        (Some(rest), _) => rest,
        (None, Some(rest)) => rest,
        (None, None) => return None,
    };
    Some(format!("{quote}{}{quote}", command.trim()))
}

/// A string literal's quote and body (`"…"`, `'…'`), as written.
fn quoted(arg: &str) -> Option<(char, &str)> {
    let quote = arg.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = arg.get(1..)?.strip_suffix(quote)?;
    Some((quote, body))
}

/// The items of an array literal (`['git', 'log']`, `[ "sh", $w ]`,
/// PHP's `array('git', 'log')`, Perl's `[qw(git log)]`): `None` when the
/// argument is no array literal.
pub(super) fn array_items(arg: &str) -> Option<Vec<String>> {
    let arg = arg.trim();
    let inner = arg
        .strip_prefix('[')
        .and_then(|a| a.strip_suffix(']'))
        .or_else(|| arg.strip_prefix("array(").and_then(|a| a.strip_suffix(')')))?;
    let inner = inner.trim();
    if let Some(words) = inner
        .strip_prefix("qw(")
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| inner.strip_prefix("qw/").and_then(|w| w.strip_suffix('/')))
    {
        return Some(words.split_whitespace().map(|w| format!("'{w}'")).collect());
    }
    Some(
        split_top(inner, ',')
            .into_iter()
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_pipes_and_ruby_opens_give_their_commands() {
        let uses = Uses {
            run: true,
            cmd: true,
        };
        let perl = |line: &str| commands(line, Kind::Perl, uses);
        assert_eq!(
            perl("open(my $fh, '-|', 'git', 'log') or die;"),
            [(vec!["'git'".to_string(), "'log'".to_string()], false)]
        );
        assert_eq!(
            perl("open(FH, \"git log |\") || die;"),
            [(vec!["\"git log\"".to_string()], true)]
        );
        assert_eq!(
            perl("open(FH, \"| sh\");"),
            [(vec!["\"sh\"".to_string()], true)]
        );
        assert_eq!(
            perl("my $pid = open3($in, $out, $err, 'git', 'status');"),
            [(vec!["'git'".to_string(), "'status'".to_string()], false)]
        );
        assert_eq!(perl("run [ 'git', 'log' ], \\$in, \\$out;").len(), 1);
        assert_eq!(
            perl("run \\@cmd, \\$in;"),
            [(vec!["\\@cmd".to_string()], false)]
        );
        for none in [
            "open(FH, '<', $file) or die;",
            "open(FH, $file) or die;",
            "open(MAIL, \"|-\") or die;",
            "$fh->open('x');",
            "sysopen(FH, $f, 0);",
            "print \"open(FH, 'a |')\";",
        ] {
            assert_eq!(perl(none), Vec::new(), "{none}");
        }
        assert_eq!(
            perl("run( command => $cmd, verbose => 0 );"),
            [(vec!["$cmd".to_string()], true)]
        );
        let ruby = |line: &str| commands(line, Kind::Ruby, Uses::default());
        assert_eq!(ruby("x = Kernel.`(\"git log\")").len(), 1);
        assert_eq!(
            ruby("open(\"|git log\") { |f| f.read }"),
            [(vec!["\"git log\"".to_string()], true)]
        );
        assert_eq!(ruby("IO.read(\"|#{cmd}\")").len(), 1);
        assert_eq!(ruby("File.open(\"|x\")"), Vec::new());
        assert_eq!(
            array_items("array('git', 'log')"),
            Some(vec!["'git'".to_string(), "'log'".to_string()])
        );
    }
}
