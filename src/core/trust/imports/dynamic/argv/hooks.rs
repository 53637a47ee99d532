//! What a known argv or shell line a Python script runs itself runs that
//! no review covers (consent round 6, item 2): a literal shell line is
//! read as the shell text of the command is (`trust/unknown.rs`: a git
//! command that runs the repository's hooks, `xargs sh`, `find -exec`),
//! and an argv whose program is `git` is refused when its subcommand
//! runs hooks (`["git", "commit", …]`). `git log`, `diff`, `show`,
//! `status` stay allowed. A subcommand known only as it runs is let be,
//! as `git "$sub"` is in shell text.

use super::Names;
use super::{
    COMPUTED, Call, Form, argvs, base, is_shell_true, joined, keyword, value, written_start,
};
use crate::core::trust::unknown;

/// Programs whose `-c` line is shell text.
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh"];

impl Call<'_> {
    /// Why what the call runs (known) runs what no review covers.
    pub(super) fn refusals(&self, form: Form) -> Vec<String> {
        let shell = self.args.iter().any(|a| is_shell_true(a));
        let mut lines: Vec<String> = Vec::new();
        let mut argv_list: Vec<Vec<String>> = Vec::new();
        match form {
            Form::Argv(i) => {
                if let Some(arg) = self.arg(i) {
                    match (argvs(arg, self.bound, 0), shell) {
                        (Some(found), true) => {
                            for items in found {
                                if let Some(first) = items.first() {
                                    lines.extend(shell_texts(first, self.bound));
                                }
                            }
                        }
                        (Some(found), false) => argv_list.extend(found),
                        (None, true) => lines.extend(shell_texts(arg, self.bound)),
                        (None, false) => {}
                    }
                }
            }
            Form::Shell(i) => {
                if let Some(arg) = self.arg(i) {
                    lines.extend(shell_texts(arg, self.bound));
                }
            }
            Form::PathArgv(p, a) => {
                if let Some(program) = self.arg(p)
                    && let Some(found) = self.arg(a).and_then(|x| argvs(x, self.bound, 0))
                {
                    for items in found {
                        let rest = items.into_iter().skip(1);
                        argv_list.push(std::iter::once(program.to_string()).chain(rest).collect());
                    }
                }
            }
            Form::PathSpread(p, from, with_argv0) => {
                if let Some(program) = self.arg(p) {
                    let rest = self
                        .args
                        .iter()
                        .filter(|a| keyword(a.trim()).is_none())
                        .skip(from + usize::from(with_argv0))
                        .cloned();
                    argv_list.push(std::iter::once(program.to_string()).chain(rest).collect());
                }
            }
        }
        let mut out: Vec<String> = Vec::new();
        // `env={…}` not built from `os.environ`: the child's git has no
        // hooks-off settings (round 7).
        let own_env = self.args.iter().any(|a| {
            keyword(a.trim()).is_some_and(|(k, v)| {
                // `env=env` after `env = os.environ.copy()`.
                let bound = self.bound.assigned.get(v);
                k == "env"
                    && !inherits(v, "environ")
                    && !bound
                        .is_some_and(|b| !b.is_empty() && b.iter().all(|x| inherits(x, "environ")))
            })
        });
        if own_env {
            lines = lines.into_iter().map(|l| format!("env -i {l}")).collect();
        }
        for items in &argv_list {
            match own_env {
                // Read as shell text run so (`unknown::shell`): git by its
                // subcommand, a shell's `-c` line, a shell or interpreter
                // given a script (round 8).
                true => lines.push(own_env_line(items, self.bound)),
                false => argv_lines(items, self.bound, &mut lines, &mut out),
            }
        }
        read_lines(&lines, &mut out);
        out
    }
}

/// Why argv `items` (program first) runs what no review covers: `git`
/// with a subcommand that runs hooks, or a shell's `-c` line that does
/// (read as shell text).
pub(in crate::core::trust::imports::dynamic) fn argv_refusals(
    items: &[String],
    bound: &Names,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut out = Vec::new();
    argv_lines(items, bound, &mut lines, &mut out);
    read_lines(&lines, &mut out);
    out
}

/// Each refusal of shell text `lines`, without [`unknown::MARK`], once.
fn read_lines(lines: &[String], out: &mut Vec<String>) {
    for line in lines.iter().take(64) {
        for why in unknown::shell(line) {
            let why = why.strip_prefix(unknown::MARK).unwrap_or(&why).to_string();
            if !out.contains(&why) {
                out.push(why);
            }
        }
    }
}

/// The refusals of an argv: `git` with a subcommand that runs hooks; a
/// shell's `-c` line joins `lines`.
fn argv_lines(items: &[String], bound: &Names, lines: &mut Vec<String>, out: &mut Vec<String>) {
    let Some(programs) = items.first().and_then(|p| value(p, bound)) else {
        return;
    };
    let words: Vec<String> = items[1..]
        .iter()
        .map(|item| {
            value(item, bound)
                .and_then(|v| v.into_iter().next())
                .unwrap_or_else(|| COMPUTED.to_string())
        })
        .collect();
    for program in programs {
        match base(&program) {
            "git" => {
                if let Some(why) = unknown::git_runs_hooks(&words)
                    && !out.contains(&why)
                {
                    out.push(why);
                }
            }
            name if SHELLS.contains(&name) => {
                let mut rest = words.iter();
                while let Some(word) = rest.next() {
                    if word.starts_with('-') && !word.starts_with("--") && word.contains('c') {
                        lines.extend(rest.next().filter(|l| *l != COMPUTED).cloned());
                        break;
                    }
                    if !word.starts_with('-') {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether an environment's value `value` holds the inherited one
/// whole (`os.environ`, `{**os.environ, …}`, `os.environ.copy()`;
/// Node's `{ ...process.env }`), `whole` naming it: one of its
/// variables (`os.environ["PATH"]`, `process.env.PATH`) is not it
/// (round 8: `env={"PATH": os.environ["PATH"]}` was taken for it).
pub(in crate::core::trust::imports::dynamic) fn inherits(value: &str, whole: &str) -> bool {
    value.match_indices(whole).any(|(at, _)| {
        let after = value[at + whole.len()..].trim_start();
        let word = after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        let part = after.starts_with('[')
            || [".get", ".pop", ".setdefault"]
                .iter()
                .any(|m| after.starts_with(m))
            || (whole == "process.env" && after.starts_with('.'));
        !word && !part
    })
}

/// Argv `items` as a shell line run with an environment of its own
/// (`env -i 'git' 'status'`): each item's first value, quoted, or
/// [`COMPUTED`].
pub(in crate::core::trust::imports::dynamic) fn own_env_line(
    items: &[String],
    bound: &Names,
) -> String {
    let words: Vec<String> = items
        .iter()
        .map(|item| {
            let word = value(item, bound)
                .and_then(|v| v.into_iter().next())
                .unwrap_or_else(|| COMPUTED.to_string());
            format!("'{}'", word.replace('\'', "'\\''"))
        })
        .collect();
    format!("env -i {}", words.join(" "))
}

/// The refusals of shell text `lines` a Node script runs.
pub(in crate::core::trust::imports::dynamic) fn line_refusals(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    read_lines(lines, &mut out);
    out
}

/// The shell text a line expression is known to hold: its values (a
/// literal, a name bound to literals), `" ".join` of a known argv, or
/// the whole words of its written start (`f"git commit -m {m}"` →
/// `git commit -m`).
fn shell_texts(expr: &str, bound: &Names) -> Vec<String> {
    let expr = expr.trim();
    if let Some(values) = value(expr, bound) {
        return values;
    }
    if let Some(list) = joined(expr)
        && let Some(found) = argvs(list, bound, 0)
    {
        return found
            .iter()
            .filter_map(|items| {
                let words: Option<Vec<String>> = items
                    .iter()
                    .map(|i| value(i, bound).and_then(|v| v.into_iter().next()))
                    .collect();
                words.map(|w| w.join(" "))
            })
            .collect();
    }
    let Some(start) = written_start(expr) else {
        return Vec::new();
    };
    let whole = match start.ends_with(char::is_whitespace) {
        true => start.as_str(),
        false => start
            .rsplit_once(char::is_whitespace)
            .map_or("", |(w, _)| w),
    };
    match whole.trim().is_empty() {
        true => Vec::new(),
        false => vec![whole.to_string()],
    }
}
