//! What a task runner reads from the project for a consented command:
//! `deno task NAME` runs the line the root's `deno.json`/`deno.jsonc`
//! (or the file `--config`/`-c` names) gives the task, and its
//! `dependencies` first; and the import maps a Deno command names with
//! `--import-map PATH` / `--import-map=PATH`. A consent covers the
//! config file itself and what each task line runs, as if the command
//! had said it.

use std::path::Path;

use crate::core::model::CommandLine;
use crate::core::module_maps::script::jsonc;

/// The most task lines read for one command (tasks running tasks).
const MAX_TASK_LINES: usize = 64;

/// The words of a command as the program sees them: an argv's elements,
/// or a shell line split at blanks and shell punctuation, quotes dropped.
pub(super) fn plain_words(command: &CommandLine) -> Vec<String> {
    let Some(argv) = command.argv() else {
        return Vec::new();
    };
    let words: Vec<String> = match command {
        CommandLine::Shell(_) => argv
            .get(2)
            .map(|line| {
                line.split(|c: char| c.is_whitespace() || ";&|()".contains(c))
                    .map(|w| w.replace(['\'', '"'], ""))
                    .collect()
            })
            .unwrap_or_default(),
        CommandLine::Argv(_) => argv,
    };
    words.into_iter().filter(|w| !w.is_empty()).collect()
}

/// The import maps a command names (`--import-map PATH`,
/// `--import-map=PATH`), as written (relative to where it runs); URLs and
/// absolute paths left out.
pub(super) fn import_map_args(command: &CommandLine) -> Vec<String> {
    let words = plain_words(command);
    let mut out = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if word == "--import-map" {
            out.extend(words.next().cloned());
        } else if let Some(path) = word.strip_prefix("--import-map=") {
            out.push(path.to_string());
        }
    }
    out.retain(|p| !p.is_empty() && !p.starts_with('/') && !p.contains(':') && !p.contains('$'));
    out
}

/// The lines the Deno tasks `command` runs (and the tasks those run), each
/// with the root-relative config file it was read from, the command first
/// excluded. Bounded by [`MAX_TASK_LINES`].
pub(super) fn task_lines(real_root: &Path, command: &CommandLine) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut pending = vec![command.clone()];
    while let Some(line) = pending.pop() {
        for (config, name) in deno_tasks(&plain_words(&line)) {
            for (config, text) in task(real_root, config.as_deref(), &name, 0) {
                if out.len() >= MAX_TASK_LINES {
                    return out;
                }
                if !out.iter().any(|(_, t)| *t == text) {
                    pending.push(CommandLine::Shell(text.clone()));
                    out.push((config, text));
                }
            }
        }
    }
    out
}

/// Each `deno task NAME` in `words`: the config file `--config`/`-c`
/// names, if it does, and the task's name.
fn deno_tasks(words: &[String]) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if program != "deno" || words.get(at + 1).map(String::as_str) != Some("task") {
            continue;
        }
        let mut config = None;
        let mut rest = words[at + 2..].iter();
        while let Some(word) = rest.next() {
            if word == "--config" || word == "-c" {
                config = rest.next().cloned();
            } else if let Some(path) = word.strip_prefix("--config=") {
                config = Some(path.to_string());
            } else if word == "--cwd" || word == "-f" || word == "--filter" {
                rest.next();
            } else if !word.starts_with('-') {
                out.push((config, word.clone()));
                break;
            }
        }
    }
    out
}

/// The lines task `name` runs, its dependencies first, with the config
/// file read (root-relative): `config` when given, else the root's
/// `deno.json`, else `deno.jsonc`.
fn task(real_root: &Path, config: Option<&str>, name: &str, depth: usize) -> Vec<(String, String)> {
    let names: Vec<String> = match config {
        Some(c) => vec![c.to_string()],
        None => vec!["deno.json".into(), "deno.jsonc".into()],
    };
    let Some((rel, json)) = names.into_iter().find_map(|rel| {
        let rel = crate::core::module_maps::join_rel("", &rel)?;
        let text = super::imports::small_text(&real_root.join(&rel))?;
        Some((rel, jsonc(&text)?))
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut names = vec![(name.to_string(), depth)];
    while let Some((name, depth)) = names.pop() {
        let Some(entry) = json.get("tasks").and_then(|t| t.get(&name)) else {
            continue;
        };
        let line = entry
            .as_str()
            .or_else(|| entry.get("command")?.as_str())
            .map(str::to_string);
        if let Some(line) = line
            && !out.iter().any(|(_, l)| *l == line)
        {
            out.push((rel.clone(), line));
        }
        if depth < 8 && out.len() < MAX_TASK_LINES {
            let deps = entry.get("dependencies").and_then(|d| d.as_array());
            for dep in deps.into_iter().flatten().filter_map(|d| d.as_str()) {
                names.push((dep.to_string(), depth + 1));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(line: &str) -> CommandLine {
        CommandLine::Shell(line.to_string())
    }

    #[test]
    fn import_maps_are_read_in_both_forms() {
        assert_eq!(
            import_map_args(&shell(
                "deno run --import-map maps/a.json -A --import-map='b.json' x.ts"
            )),
            ["maps/a.json", "b.json"]
        );
        let argv = CommandLine::Argv(vec![
            "deno".into(),
            "run".into(),
            "--import-map=https://x/m.json".into(),
            "--import-map".into(),
            "/etc/m.json".into(),
            "--import-map=c.json".into(),
        ]);
        assert_eq!(import_map_args(&argv), ["c.json"]);
    }

    #[test]
    fn deno_task_names_and_configs_are_read() {
        let words = |s: &str| plain_words(&shell(s));
        assert_eq!(
            deno_tasks(&words("deno task --config cfg/deno.json sum a b")),
            [(Some("cfg/deno.json".to_string()), "sum".to_string())]
        );
        assert_eq!(
            deno_tasks(&words("/usr/bin/deno task -q sum && deno task")),
            [(None, "sum".to_string())]
        );
        assert!(deno_tasks(&words("deno run task.ts")).is_empty());
    }

    #[test]
    fn a_task_runs_its_dependencies_and_the_tasks_it_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("deno.json"),
            r#"{ "tasks": {
                "sum": { "command": "deno run tools/sum.ts", "dependencies": ["gen"] },
                "gen": "python3 tools/gen.py && deno task sum",
                "loop": "deno task loop"
            } }"#,
        )
        .unwrap();
        let lines = task_lines(dir.path(), &shell("deno task sum"));
        let texts: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(
            texts,
            [
                "deno run tools/sum.ts",
                "python3 tools/gen.py && deno task sum"
            ]
        );
        assert!(lines.iter().all(|(c, _)| c == "deno.json"));
        // A task that runs itself ends.
        assert_eq!(task_lines(dir.path(), &shell("deno task loop")).len(), 1);
    }
}
