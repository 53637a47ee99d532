//! What `git` reads from the project that runs code: its repository's
//! `.git/config` (an alias `sum = !sh tools/s.sh` runs a shell line;
//! `core.pager`, `core.fsmonitor`, `diff.external` and the like run
//! programs; `include.path` reads another file), and the aliases the
//! command sets itself (`git -c alias.x='!sh tools/s.sh' x`). The
//! project files a config includes (`include.path`, `includeIf`) are
//! read as it is, and `git -C sub` reads `sub`'s own `.git/config` and
//! runs its alias in `sub`; a `.git` that is a file (`gitdir: …`, a
//! submodule's or a linked work tree's) is followed to the config it
//! points to, as `--git-dir=…` is (a `GIT_DIR=…` in the line is
//! refused by `trust/unknown.rs`, round 9), and one leading out of the
//! project is a refusal (no review saw it). A command
//! that runs `git` covers `.git/config` as a file it reads (any edit
//! withdraws the consent) with its values as words (each file they name
//! is covered), and the alias it runs is a task line of its own, read as
//! the command's (so a pattern or a command's output there is refused
//! as it is in the command).

use std::path::Path;

use super::TaskLine;
use crate::core::model::CommandLine;
use crate::core::trust::unknown::GIT_WITH_VALUE;

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
        // `GIT_DIR=x git …` (or an earlier `export GIT_DIR=x`), `--git-dir`.
        let mut git_dir = words[..at]
            .iter()
            .filter_map(|w| w.strip_prefix("GIT_DIR="))
            .next_back()
            .map(str::to_string);
        while let Some(arg) = rest.next() {
            if arg == "-c" {
                let set = rest.next().map(String::as_str).unwrap_or("");
                aliases.extend(alias_of(set));
            } else if arg == "--git-dir" || arg.starts_with("--git-dir=") {
                let value = match arg.strip_prefix("--git-dir=") {
                    Some(value) => Some(value),
                    None => rest.next().map(String::as_str),
                };
                git_dir = value.map(|v| v.to_string());
            } else if arg == "-C" {
                let to = rest.next().map(String::as_str).unwrap_or("");
                match join_rel(&repo, to) {
                    Some(joined) => repo = joined,
                    None => break,
                }
            } else if GIT_WITH_VALUE.contains(&arg.as_str()) {
                rest.next();
            } else if !arg.starts_with('-') {
                subcommand = Some(arg.clone());
                break;
            }
        }
        // Git finds the repository from there up (or where `--git-dir`
        // says); a shell alias runs at the top of its work tree.
        let repository = match &git_dir {
            Some(named) => join_rel(&repo, named).ok_or_else(|| named.clone()),
            None => Ok(join_rel(&top_of(real_root, &repo), ".git").unwrap_or_default()),
        };
        let repo = top_of(real_root, &repo);
        let Some(config_files) = repository
            .and_then(|git| repository_configs(real_root, &git))
            .map_err(|leads| {
                super::refuse(format!(
                    "runs `git` with a repository outside the project or not found \
                     (`{leads}`), whose config (its aliases) no review saw"
                ))
            })
            .ok()
        else {
            continue;
        };
        let config = config_files.first().cloned().unwrap_or_default();
        for (file, read) in config_files.iter().flat_map(|c| configs(real_root, c)) {
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

/// The config files of the repository folder `git` (root-relative):
/// its `config`, and for a linked work tree (its `commondir`) the shared
/// one and its `config.worktree`. A `.git` that is a file (`gitdir:
/// ../.git/modules/sub`, as a submodule's or a work tree's) is followed;
/// `Err` with the place named when it leads out of the project (or
/// cannot be read), where no review looks.
fn repository_configs(real_root: &Path, git: &str) -> Result<Vec<String>, String> {
    let git = match real_root.join(git).is_file() {
        // The root's own `.git`, written by git for a linked work tree
        // or a submodule: its configs, outside (`git_worktree.rs`).
        true => match pointed_to(real_root, git, "gitdir:") {
            Err(leads) if git == ".git" => {
                let outside = super::git_worktree::configs(real_root).ok_or(leads)?;
                return Ok(outside.iter().map(|p| p.display().to_string()).collect());
            }
            pointed => pointed?,
        },
        false => inside(real_root, git)?,
    };
    let mut out = vec![join_rel(&git, "config").unwrap_or_default()];
    let commondir = join_rel(&git, "commondir").unwrap_or_default();
    if real_root.join(&commondir).is_file() {
        let common = pointed_to(real_root, &commondir, "")?;
        out.push(join_rel(&common, "config").unwrap_or_default());
        out.push(join_rel(&git, "config.worktree").unwrap_or_default());
    }
    Ok(out)
}

/// The folder the first line of file `rel` names after `prefix` (a
/// `.git` file's `gitdir: …`, a `commondir`'s path), relative to the
/// file's folder or absolute: root-relative, or `Err` when it leads out
/// of the project or the file says no such thing.
fn pointed_to(real_root: &Path, rel: &str, prefix: &str) -> Result<String, String> {
    let text = crate::core::trust::imports::small_text(&real_root.join(rel))
        .filter(|t| t.len() <= 4096)
        .ok_or_else(|| rel.to_string())?;
    let line = text.lines().next().unwrap_or("");
    let target = line
        .strip_prefix(prefix)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| rel.to_string())?;
    let folder = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let path = real_root.join(folder).join(target);
    let real = std::fs::canonicalize(&path).map_err(|_| target.to_string())?;
    let inside = real
        .strip_prefix(real_root)
        .map_err(|_| target.to_string())?;
    Ok(crate::core::walk::rel_string(inside))
}

/// `rel` when it leads (links followed) to a place inside the project
/// or to nothing (no repository: no config), else `Err` naming it.
fn inside(real_root: &Path, rel: &str) -> Result<String, String> {
    match std::fs::canonicalize(real_root.join(rel)) {
        Ok(real) if !real.starts_with(real_root) => Err(rel.to_string()),
        _ => Ok(rel.to_string()),
    }
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
        let text = crate::core::trust::imports::small_text(&real_root.join(&file));
        let read = read_config(text.as_deref().unwrap_or_default());
        // A config outside the project (a linked work tree's): its
        // content is covered; what it includes is not read, so refused.
        if Path::new(&file).is_absolute() {
            super::note_outside(Path::new(&file), text.as_deref());
            if let Some(include) = read.includes.first() {
                super::refuse(format!(
                    "runs `git`, whose config outside the project ({file}) includes                      `{include}`, which no review saw"
                ));
            }
            out.push((file, read));
            continue;
        }
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
    for line in logical_lines(text).iter().take(20_000) {
        let mut line = line.trim();
        if line.starts_with(['#', ';']) || line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('[') {
            // `[alias] sum = !sh x`: a key may follow on the header's line.
            let (head, rest) = head.split_once(']').unwrap_or((head, ""));
            section = head
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            line = rest.trim();
            if line.is_empty() || line.starts_with(['#', ';']) {
                continue;
            }
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

/// The lines of a git config text as git reads them: one ending in a
/// `\` goes on with the next.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut joining = false;
    for line in text.lines().take(20_000) {
        let (body, continues) = match line.strip_suffix('\\') {
            Some(body) => (body, true),
            None => (line, false),
        };
        match out.last_mut() {
            Some(last) if joining => last.push_str(body),
            _ => out.push(body.to_string()),
        }
        joining = continues;
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
