//! Awk programs that run commands of their own (`system("…")`, `"cmd" |
//! getline`, `print | "cmd"`): what they run is awk's string, not a word
//! of the script, so it is not read (recheck 25).

use super::shell_words::unquote;

/// The awks.
const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk", "busybox"];

/// Whether `name` with `args` is an awk whose program, given on the line,
/// runs a command.
pub(super) fn runs_commands(name: &str, args: &[String]) -> bool {
    if !AWKS.contains(&name) {
        return false;
    }
    let args = if name == "busybox" {
        match args.split_first() {
            Some((applet, rest)) if unquote(applet) == "awk" => rest,
            _ => return false,
        }
    } else {
        args
    };
    args.iter().any(|a| program_runs_commands(&unquote(a)))
}

/// Whether awk program text `program` calls `system` or pipes to or from a
/// command.
pub(super) fn program_runs_commands(program: &str) -> bool {
    let squeezed: String = program.chars().filter(|c| !c.is_whitespace()).collect();
    squeezed.contains("system(")
        || squeezed.contains("|getline")
        || squeezed.contains("|&")
        || piped_print(&squeezed)
}

/// Whether a `print` or `printf` in `squeezed` (spaces taken out) sends its
/// output through `|` before its statement ends.
fn piped_print(squeezed: &str) -> bool {
    squeezed.match_indices("print").any(|(at, _)| {
        let rest = &squeezed[at..];
        let end = rest.find([';', '}', '\n']).unwrap_or(rest.len());
        rest[..end].contains('|') && !rest[..end].contains("||")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        super::super::shell_words::statements(line)
            .into_iter()
            .next()
            .unwrap_or_default()
    }

    #[test]
    fn a_program_that_runs_a_command_is_told_from_one_that_prints() {
        for (name, args) in [
            ("awk", "'BEGIN{system(\"python3 tools/x.py\")}'"),
            ("gawk", "'{ \"date\" | getline d }'"),
            ("awk", "'{print $1 | \"sh\"}'"),
            ("mawk", "'{printf \"%s\\n\", $0 |& \"bc\"}'"),
            ("busybox", "awk 'BEGIN{system(\"x\")}'"),
        ] {
            assert!(runs_commands(name, &words(args)), "{name} {args}");
        }
        for (name, args) in [
            ("awk", "'{print $1}' f"),
            ("awk", "-F: '{print $1 > \"out.txt\"}'"),
            ("awk", "'$1 == 1 || $2 == 2 {print}'"),
            ("sed", "'system('"),
            ("busybox", "sh -c 'system('"),
        ] {
            assert!(!runs_commands(name, &words(args)), "{name} {args}");
        }
    }
}
