//! What `git` reads from the project that runs code: its repository's
//! `.git/config` (an alias `sum = !sh tools/s.sh` runs a shell line;
//! `core.pager`, `core.fsmonitor`, `diff.external` and the like run
//! programs; `include.path` reads another file), and the aliases the
//! command sets itself (`git -c alias.x='!sh tools/s.sh' x`). The
//! project files a config includes (`include.path`, `includeIf`) are
//! read as it is, and `git -C sub` reads `sub`'s own `.git/config` and
//! runs its alias in `sub`. A command
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
        // `git -C sub …` runs in `sub`, with its repository's config.
        let mut repo = dir.to_string();
        while let Some(arg) = rest.next() {
            if arg == "-c" {
                let set = rest.next().map(String::as_str).unwrap_or("");
                aliases.extend(alias_of(set));
            } else if arg == "-C" {
                let to = rest.next().map(String::as_str).unwrap_or("");
                match join_rel(&repo, to) {
                    Some(joined) => repo = joined,
                    None => break,
                }
            } else if WITH_VALUE.contains(&arg.as_str()) {
                rest.next();
            } else if !arg.starts_with('-') {
                subcommand = Some(arg.clone());
                break;
            }
        }
        // Git finds the repository from there up; a shell alias runs at
        // the top of its work tree.
        let repo = top_of(real_root, &repo);
        let config = join_rel(&repo, ".git/config").unwrap_or_default();
        for (file, read) in configs(real_root, &config) {
            aliases.extend(read.aliases);
            out.push(TaskLine {
                config: file,
                dir: repo.clone(),
                line: read.values.join(" "),
                named: false,
            });
        }
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
                config: config.clone(),
                dir: repo.clone(),
                line,
                named: true,
            });
        }
    }
    out
}

/// The most config files read for one `git` (the repository's and the
/// files it includes, and those they include).
const MAX_CONFIGS: usize = 16;

/// A root-relative config file (`.git/config`) and the project files it
/// pulls in with `include.path` / `includeIf….path` (relative to the
/// including file's folder), each with its values and aliases, in the
/// order git reads them; a file outside the root is left out.
fn configs(real_root: &Path, config: &str) -> Vec<(String, Config)> {
    let mut out: Vec<(String, Config)> = Vec::new();
    let mut pending = vec![config.to_string()];
    while let Some(file) = pending.pop() {
        if out.len() >= MAX_CONFIGS {
            break;
        }
        if out.iter().any(|(f, _)| *f == file) {
            continue;
        }
        let text =
            crate::core::trust::imports::small_text(&real_root.join(&file)).unwrap_or_default();
        let read = read_config(&text);
        let folder = file.rsplit_once('/').map_or("", |(d, _)| d);
        for include in read.includes.iter().rev() {
            if let Some(rel) = join_rel(folder, include) {
                pending.push(rel);
            }
        }
        out.push((file, read));
    }
    out
}

/// The folder from `rel` up to the root (root-relative) that holds a
/// `.git`: the top of the work tree git finds from `rel` (the root when
/// none does).
fn top_of(real_root: &Path, rel: &str) -> String {
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    while !parts.is_empty() {
        let here = parts.join("/");
        if real_root.join(&here).join(".git").exists() {
            return here;
        }
        parts.pop();
    }
    String::new()
}

/// `rel` (root-relative, `/`-separated) joined with `path`, `..` steps
/// taken; `None` for an absolute path, `~`, or one leading out of the
/// root.
fn join_rel(rel: &str, path: &str) -> Option<String> {
    if path.starts_with(['/', '~']) || path.contains('$') {
        return None;
    }
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// `alias.NAME=VALUE` (a `-c` setting): the alias.
fn alias_of(setting: &str) -> Option<(String, String)> {
    let (key, value) = setting.split_once('=')?;
    let name = key.strip_prefix("alias.")?;
    Some((name.to_string(), value.to_string()))
}

/// What one git config text says.
#[derive(Debug, Default)]
struct Config {
    /// Its values, each a word, quotes dropped.
    values: Vec<String>,
    /// Its `[alias]` entries.
    aliases: Vec<(String, String)>,
    /// The files it includes (`[include] path`, `[includeIf "…"] path`),
    /// as written.
    includes: Vec<String>,
}

/// The values of a git config text (each a word, quotes dropped), its
/// `[alias]` entries and the files it includes.
fn read_config(text: &str) -> Config {
    let mut out = Config::default();
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
        out.values.push(value.clone());
        let key = key.trim();
        if section == "alias" {
            out.aliases.push((key.to_string(), value));
        } else if matches!(section.as_str(), "include" | "includeif")
            && key.eq_ignore_ascii_case("path")
        {
            out.includes.push(value);
        }
    }
    out
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
        let config = read_config(
            "[core]\n\tpager = less\n[alias]\n\tsum = \"!sh tools/s.sh\" # run\n\tlg = log --oneline\n\
             [includeIf \"gitdir:x/\"]\n\tpath = ../tools/git.cfg\n",
        );
        assert_eq!(
            config.values,
            [
                "less",
                "!sh tools/s.sh",
                "log --oneline",
                "../tools/git.cfg"
            ]
        );
        assert_eq!(config.includes, ["../tools/git.cfg"]);
        assert_eq!(
            join_rel(".git", "../tools/git.cfg").as_deref(),
            Some("tools/git.cfg")
        );
        assert_eq!(join_rel("", "../x"), None);
        assert_eq!(
            config.aliases,
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
