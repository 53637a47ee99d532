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
//! argument a shell line, more an argv.
//!
//! Round 9 (item 4): a two-argument Perl `open` whose second argument
//! may start or end with `|` once its interpolations are filled in
//! (`open(FH, $file)`, `open FH, "$cmd"`, `open(FH, "/x/$f")`) runs
//! a command known only as it runs, unless its written start is a mode
//! (`"<$f"`, `">$f"`: perl reads the mode first) or its written first
//! and last characters are no `|` (`"/proc/$pid/stat"`); and Ruby's
//! `open` (`Kernel.open`, `URI.open`, `IO.read`, …) of what may start
//! with `|` (`open(path)`, `open("|" + cmd)`, `open("#{x}")`) does too
//! (`File.open` never runs a command).

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
    /// Ruby: a `def open` of the script's own calls `super`, so it may
    /// reach Kernel's (round 10, as REVIEW_C10 B3).
    pub(super) supers: bool,
}

impl Uses {
    pub(super) fn of(text: &str) -> Uses {
        Uses {
            run: text.contains("use IPC::Run"),
            cmd: text.contains("use IPC::Cmd"),
            supers: open_supers(text),
        }
    }
}

/// Whether a Ruby `def open` calls `super` in its body: on its line,
/// or on the lines after it up to its `end` (at its indentation or
/// less) or the next `def`.
fn open_supers(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    lines.iter().enumerate().any(|(n, line)| {
        let t = line.trim_start();
        if !(t.starts_with("def open(") || t.starts_with("def open ") || t == "def open") {
            return false;
        }
        let body = lines[n + 1..].iter().take_while(|l| {
            let lt = l.trim_start();
            !(lt.starts_with("def ") || lt.starts_with("end") && indent(l) <= indent(line))
        });
        std::iter::once(line)
            .chain(body)
            .any(|l| l.contains("super"))
    })
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
                "URI.open",
                "IO.read",
                "IO.readlines",
                "IO.foreach",
                "IO.write",
                "IO.binread",
            ] {
                for (at, inner) in calls(line, name, name.contains('.')) {
                    // `def open(path)`: a method of the script's own,
                    // unless a `super` may hand its argument to Kernel's.
                    if line[..at].trim_end().ends_with("def") && !uses.supers {
                        continue;
                    }
                    if let Some(first) = args_of(inner).first()
                        && let Some(command) = ruby_piped(first)
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
    let Some(spec) = args.get(1) else {
        return;
    };
    if let Some(command) = piped(spec) {
        out.push((vec![command], true));
    } else if !perl_names_a_file(spec) {
        // Round 9: a pipe or a file as it runs; read as a line whose
        // program is known only then (a name bound to literals is
        // read as them).
        out.push((vec![spec.clone()], true));
    }
}

/// Whether a two-argument Perl `open`'s second argument `spec` names a
/// file (or a mode and a file) whatever its interpolations hold: a
/// literal with no `|` at its ends, a string whose written start is a
/// mode (`<`, `>`, `+`), or one whose written first and last characters
/// are no `|`. A variable or an expression may be anything.
fn perl_names_a_file(spec: &str) -> bool {
    let Some((quote, body)) = quoted(spec) else {
        // `'>' . $f`, `"<".name()`: a join whose written start is a mode.
        return written_mode_first(spec);
    };
    let body = body.trim();
    if quote == '\'' {
        return true;
    }
    let interpolates = |c: char| matches!(c, '$' | '@');
    let Some(first) = body.chars().next() else {
        return true;
    };
    if interpolates(first) {
        return false;
    }
    if matches!(first, '<' | '>' | '+') {
        return true;
    }
    // The written end: past a trailing `$name` (or `${…}`, `@x`) it is
    // an interpolation's.
    let tail = body.trim_end_matches(|c: char| c.is_alphanumeric() || "_{}[]:".contains(c));
    let ends_written = !tail.ends_with(interpolates) && !body.ends_with('|');
    ends_written && body.chars().next_back().is_some_and(|c| !interpolates(c))
}

/// Whether `expr` starts with a string literal whose written start is a
/// mode (`<`, `>`, `+`): what is joined after it names the file.
fn written_mode_first(expr: &str) -> bool {
    let Some(quote) = expr.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    let body = &expr[1..];
    let Some(end) = body.find(quote) else {
        return false;
    };
    body[..end].trim_start().starts_with(['<', '>', '+'])
}

/// A Ruby `open`'s (or `IO.read`'s) first argument that may start with
/// `|`, as a line whose program is the rest: a literal `"|cmd"`, a
/// string or a join whose written start is `|` (`"|" + cmd`: the `|`
/// taken off), or anything whose start is not written (`path`,
/// `File.join(…)`, `"#{x}"`); `None` for what starts with a written
/// character but `|` (`"/etc/#{x}"`, `"a.txt"`).
fn ruby_piped(arg: &str) -> Option<String> {
    if let Some(command) = piped(arg) {
        return Some(command);
    }
    let Some(quote) = arg.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return Some(arg.to_string());
    };
    let body = &arg[1..];
    let start = body.trim_start();
    if start.starts_with('|') {
        // `"|sh " + w`: the line without its `|`.
        let at = arg.len() - start.len();
        return Some(format!("{quote}{}", &arg[at + 1..]));
    }
    let interpolated = quote == '"' && body.starts_with("#{");
    // `"\x7c" + cmd`, `"\174…"`, `"\u007c…"` (item 3c): an escape may
    // write the `|`.
    let escaped = quote == '"' && start.starts_with('\\');
    (interpolated || escaped || body.starts_with(quote)).then(|| arg.to_string())
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
            supers: false,
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
        // Round 9: a two-argument open of what may start or end with `|`.
        for line in [
            "open(FH, $file) or die;",
            "open FH, $start_conf or error \"x\";",
            "open(my $fh, \"$w\") or die;",
            "open(FH, \"/x/$f\");",
            "open(FH, $dir . '/x');",
        ] {
            assert_eq!(perl(line).len(), 1, "{line}");
        }
        for none in [
            "open(FH, '<', $file) or die;",
            "open(FH, \"<$file\") or die;",
            "open(FH, \"> $dir/x\") or die;",
            "open(CL, \"/proc/$pid/cmdline\");",
            "open(FH, 'x.txt');",
            "open F, '>' . $start_conf or error \"x\";",
            "open (IN, \"<\".Debconf::TmpFile::filename());",
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
        // Round 9: what may start with `|` as it runs.
        for line in [
            "open(\"\\x7c\" + cmd)",
            "open(\"\\174sh \" + w)",
            "open(\"|\" + cmd) { |f| f.read }",
            "open(\"|sh \" + w)",
            "open(path) { |f| f.read }",
            "Kernel.open(File.join(dir, name))",
            "open \"#{x}\" do |f| f.read end",
            "IO.read(path)",
            "URI.open(u)",
        ] {
            assert_eq!(ruby(line).len(), 1, "{line}");
        }
        for line in [
            "open(\"/etc/#{x}\") { |f| f.read }",
            "open('a.txt', 'w') { |f| f.write(x) }",
            "def open(path)",
            "File.open(path)",
            "f.open(path)",
        ] {
            assert_eq!(ruby(line), Vec::new(), "{line}");
        }
        assert_eq!(
            array_items("array('git', 'log')"),
            Some(vec!["'git'".to_string(), "'log'".to_string()])
        );
    }
}
