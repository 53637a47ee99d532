//! What `git` reads from the project that runs code: its repository's
//! `.git/config` (an alias `sum = !sh tools/s.sh` runs a shell line;
//! `core.pager`, `core.fsmonitor`, `diff.external` and the like run
//! programs; `include.path` reads another file), and the aliases the
//! command sets itself (`git -c alias.x='!sh tools/s.sh' x`). A command
//! that runs `git` covers `.git/config` as a file it reads (any edit
//! withdraws the consent) with its values as words (each file they name
//! is covered), and the alias it runs is a task line of its own, read as
//! the command's (so a pattern or a command's output there is refused
//! as it is in the command).

use std::path::Path;

use super::TaskLine;
use crate::core::model::CommandLine;

/// The options of `git` that take a value as the next word.
const WITH_VALUE: [&str; 6] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
];

/// For each `git` that `command` runs in folder `dir`: the repository's
/// config as a line of its values, and the alias it runs (from `-c
/// alias.NAME=…` or the config) as a line: `!…` a shell line, else
/// `git …` read in turn.
pub(super) fn lines(real_root: &Path, dir: &str, command: &CommandLine) -> Vec<TaskLine> {
    let words = match command {
        CommandLine::Shell(line) => crate::core::trust::unknown::words(line),
        CommandLine::Argv(argv) => argv.clone(),
    };
    let mut out = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if word.rsplit('/').next() != Some("git") {
            continue;
        }
        let mut aliases: Vec<(String, String)> = Vec::new();
        let mut rest = words[at + 1..].iter();
        let mut subcommand = None;
        while let Some(arg) = rest.next() {
            if arg == "-c" {
                let set = rest.next().map(String::as_str).unwrap_or("");
                aliases.extend(alias_of(set));
            } else if WITH_VALUE.contains(&arg.as_str()) {
                rest.next();
            } else if !arg.starts_with('-') {
                subcommand = Some(arg.clone());
                break;
            }
        }
        let text = crate::core::trust::imports::small_text(&real_root.join(".git/config"))
            .unwrap_or_default();
        let (values, configured) = read_config(&text);
        aliases.extend(configured);
        out.push(TaskLine {
            config: ".git/config".to_string(),
            dir: dir.to_string(),
            line: values.join(" "),
            named: false,
        });
        let Some(name) = subcommand else { continue };
        let found = aliases
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(&name));
        if let Some((_, value)) = found {
            let line = match value.strip_prefix('!') {
                Some(shell) => shell.to_string(),
                None => format!("git {value}"),
            };
            out.push(TaskLine {
                config: ".git/config".to_string(),
                dir: dir.to_string(),
                line,
                named: true,
            });
        }
    }
    out
}

/// `alias.NAME=VALUE` (a `-c` setting): the alias.
fn alias_of(setting: &str) -> Option<(String, String)> {
    let (key, value) = setting.split_once('=')?;
    let name = key.strip_prefix("alias.")?;
    Some((name.to_string(), value.to_string()))
}

/// The values of a git config text (each a word, quotes dropped) and its
/// `[alias]` entries.
fn read_config(text: &str) -> (Vec<String>, Vec<(String, String)>) {
    let mut values = Vec::new();
    let mut aliases = Vec::new();
    let mut section = String::new();
    for line in text.lines().take(20_000) {
        let line = line.trim();
        if line.starts_with(['#', ';']) || line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('[') {
            section = head
                .trim_end_matches(']')
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = unquote(value.trim());
        values.push(value.clone());
        if section == "alias" {
            aliases.push((key.trim().to_string(), value));
        }
    }
    (values, aliases)
}

/// A git config value with its double quotes and their escapes read.
fn unquote(value: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            '#' | ';' if !quoted => break,
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_values_are_read() {
        let (values, aliases) = read_config(
            "[core]\n\tpager = less\n[alias]\n\tsum = \"!sh tools/s.sh\" # run\n\tlg = log --oneline\n",
        );
        assert_eq!(values, ["less", "!sh tools/s.sh", "log --oneline"]);
        assert_eq!(
            aliases,
            [
                ("sum".to_string(), "!sh tools/s.sh".to_string()),
                ("lg".to_string(), "log --oneline".to_string())
            ]
        );
        assert_eq!(
            alias_of("alias.x=!sh tools/w.sh"),
            Some(("x".to_string(), "!sh tools/w.sh".to_string()))
        );
    }
}
