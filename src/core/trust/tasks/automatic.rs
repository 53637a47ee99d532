//! Make's automatic variables in a recipe line (`$<`, `$^`, `$+`, `$?`,
//! `$@`): what a line runs when it runs a goal's prerequisite (`python3
//! $<`, `sh $^`, `$<` itself), so a consent covers the script the
//! prerequisite names. A rule written for its goals (no `%`) has them
//! filled in for each goal; a pattern rule only where a line runs one,
//! so `$(CC) -c $<` over 300 objects stays one line to review.

/// The programs whose first argument is a script they run.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "python", "python2", "python3", "node", "nodejs", "deno",
    "bun", "tsx", "ts-node", "ruby", "perl", "php", "lua", "Rscript", "source", ".", "exec",
];

/// The variables that stand for prerequisites, as written after `$`.
const INPUTS: &[&str] = &[
    "<", "^", "+", "?", "(<)", "(^)", "(+)", "(?)", "{<}", "{^}", "{+}", "{?}",
];

/// The automatic variable starting at `text` (after its `$`), with its
/// length: `@`, `<`, `^`, `+`, `?`, or one of them in `()`/`{}`.
fn variable(text: &str) -> Option<(char, usize)> {
    let mut chars = text.chars();
    match chars.next()? {
        c @ ('@' | '<' | '^' | '+' | '?') => Some((c, 1)),
        open @ ('(' | '{') => {
            let c = chars.next().filter(|c| "@<^+?".contains(*c))?;
            let close = if open == '(' { ')' } else { '}' };
            (chars.next()? == close).then_some((c, 3))
        }
        _ => None,
    }
}

/// The variables of `line` in order, each with where its `$` is and its
/// length (`$$` is a `$` for the shell, no variable).
fn variables(line: &str) -> Vec<(usize, char, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = line[at..].find('$') {
        let dollar = at + found;
        let rest = &line[dollar + 1..];
        if rest.starts_with('$') {
            at = dollar + 2;
            continue;
        }
        match variable(rest) {
            Some((c, len)) => {
                out.push((dollar, c, len + 1));
                at = dollar + 1 + len;
            }
            None => at = dollar + 1,
        }
    }
    out
}

/// Whether `line` names a variable that stands for prerequisites.
pub(super) fn names_inputs(line: &str) -> bool {
    variables(line).iter().any(|(_, c, _)| *c != '@')
}

/// Whether `line` runs a prerequisite: a command that is one (`$<`) or
/// an interpreter whose script is one (`python3 $<`, `sh -e $^`).
pub(super) fn runs_input(line: &str) -> bool {
    line.split([';', '&', '|', '\n']).any(|command| {
        let mut words = command
            .split_whitespace()
            // `VAR=value cmd` runs `cmd`.
            .skip_while(|w| w.contains('=') && !w.starts_with('$'));
        // A recipe's `@`/`-`/`+`, a subshell's `(`.
        let Some(first) = words
            .next()
            .map(|w| w.trim_start_matches(['@', '-', '+', '(']))
        else {
            return false;
        };
        let is_input = |w: &str| INPUTS.iter().any(|v| w.strip_prefix('$') == Some(v));
        if is_input(first) {
            return true;
        }
        let program = first.rsplit('/').next().unwrap_or(first);
        INTERPRETERS.contains(&program) && words.find(|w| !w.starts_with('-')).is_some_and(is_input)
    })
}

/// `line` with the automatic variables of `goal` made from
/// `prerequisites`: `$@` the goal, `$<` the first, `$^` and `$?` each once,
/// `$+` all as listed.
pub(super) fn fill(line: &str, goal: &str, prerequisites: &[String]) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for p in prerequisites {
        if !unique.contains(&p.as_str()) {
            unique.push(p);
        }
    }
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (dollar, c, len) in variables(line) {
        out.push_str(&line[at..dollar]);
        match c {
            '@' => out.push_str(goal),
            '<' => out.push_str(prerequisites.first().map_or("", String::as_str)),
            '+' => out.push_str(&prerequisites.join(" ")),
            _ => out.push_str(&unique.join(" ")),
        }
        at = dollar + len;
    }
    out.push_str(&line[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_variables_are_filled_in() {
        let pre = [
            "gen.py".to_string(),
            "a.c".to_string(),
            "gen.py".to_string(),
        ];
        assert_eq!(
            fill("python3 $< > $@; cc $^ $(^) ${+} $$< $x", "out", &pre),
            "python3 gen.py > out; cc gen.py a.c gen.py a.c gen.py a.c gen.py $$< $x"
        );
        assert!(names_inputs("cc -c $< -o $@") && !names_inputs("echo $@ $$<"));
    }

    #[test]
    fn a_line_runs_its_input_as_the_command_or_an_interpreters_script() {
        for runs in [
            "python3 $<",
            "@$<",
            "sh -e $^ arg",
            "cd x && PYTHONPATH=. /usr/bin/python3 $(<)",
            ". $<",
        ] {
            assert!(runs_input(runs), "{runs}");
        }
        for runs_not in [
            "python3 tools/render.py $< > $@",
            "$(CC) -c $< -o $@",
            "cat $^",
            "sh tools/cc.sh $<",
            "echo $@",
        ] {
            assert!(!runs_input(runs_not), "{runs_not}");
        }
    }
}
