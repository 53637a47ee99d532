//! What a task runner reads from the project for a consented command:
//! `deno task NAME` runs the line the root's `deno.json`/`deno.jsonc`
//! (or the file `--config`/`-c` names) gives the task, and its
//! `dependencies` first; `npm run NAME` (also `npm test`, `npm start`,
//! `yarn NAME`, `pnpm NAME`, `bun run NAME`) the root's `package.json`
//! script of that name, with its `pre`/`post` scripts; `make` the
//! recipes of the makefile it reads (`GNUmakefile`, `makefile`,
//! `Makefile`, or `-f FILE`, in `-C DIR`), and the files it `include`s.
//! And the import maps a Deno command names with `--import-map PATH` /
//! `--import-map=PATH`. A consent covers the file a task is read from
//! and what each task line runs, as if the command had said it; a
//! pattern in a task line counts as one in the command (a makefile's
//! recipes, all read, are for the files they name only).

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

/// One line a task runner runs for a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TaskLine {
    /// The root-relative file it was read from.
    pub(super) config: String,
    pub(super) line: String,
    /// The line is the task the command names (its patterns count), not
    /// one of every recipe of a makefile.
    pub(super) named: bool,
}

/// The lines the tasks `command` runs (and the tasks those run), each
/// with the root-relative file it was read from; a makefile read with no
/// line (`named`: false, empty) still counts as read. Bounded by
/// [`MAX_TASK_LINES`].
pub(super) fn task_lines(real_root: &Path, command: &CommandLine) -> Vec<TaskLine> {
    let mut out: Vec<TaskLine> = Vec::new();
    let mut pending = vec![command.clone()];
    while let Some(line) = pending.pop() {
        let words = plain_words(&line);
        let mut found = Vec::new();
        for (config, name) in deno_tasks(&words) {
            found.extend(
                task(real_root, config.as_deref(), &name, 0)
                    .into_iter()
                    .map(|(config, line)| TaskLine {
                        config,
                        line,
                        named: true,
                    }),
            );
        }
        found.extend(npm_scripts(real_root, &words));
        found.extend(make_recipes(real_root, &words));
        for task in found {
            if out.len() >= MAX_TASK_LINES {
                return out;
            }
            if !out.contains(&task) {
                if task.named {
                    pending.push(CommandLine::Shell(task.line.clone()));
                }
                out.push(task);
            }
        }
    }
    out
}

/// The programs that run a `package.json` script.
const NODE_RUNNERS: [&str; 4] = ["npm", "pnpm", "yarn", "bun"];

/// The `package.json` scripts `words` run (`npm run NAME`, `npm test`,
/// `yarn NAME`, …), each with its `pre` and `post` script.
fn npm_scripts(real_root: &Path, words: &[String]) -> Vec<TaskLine> {
    let mut names = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if !NODE_RUNNERS.contains(&program) {
            continue;
        }
        let mut rest = words[at + 1..].iter().filter(|w| !w.starts_with('-'));
        let name = match rest.next().map(String::as_str) {
            Some("run" | "run-script" | "rum" | "urn") => rest.next().cloned(),
            Some(short @ ("test" | "t" | "tst" | "start" | "stop" | "restart")) => Some(
                if short.starts_with('t') {
                    "test"
                } else {
                    short
                }
                .to_string(),
            ),
            // `yarn NAME`, `pnpm NAME`, `bun NAME`: a script when one has
            // that name.
            Some(other) if program != "npm" => Some(other.to_string()),
            _ => None,
        };
        names.extend(name);
    }
    if names.is_empty() {
        return Vec::new();
    }
    let Some(json) = super::imports::small_text(&real_root.join("package.json"))
        .filter(|t| t.len() <= 1 << 20)
        .and_then(|t| jsonc(&t))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for name in names {
        for script in [format!("pre{name}"), name.clone(), format!("post{name}")] {
            if let Some(line) = json
                .get("scripts")
                .and_then(|s| s.get(&script))
                .and_then(|l| l.as_str())
            {
                out.push(TaskLine {
                    config: "package.json".into(),
                    line: line.to_string(),
                    named: true,
                });
            }
        }
    }
    out
}

/// The most makefiles read for one command (`include`s).
const MAX_MAKEFILES: usize = 16;

/// The recipes `make` runs for `words`: of the targets it names (else
/// the first), and of their prerequisites, in the makefile it reads and
/// the files that includes (each read as a task file).
fn make_recipes(real_root: &Path, words: &[String]) -> Vec<TaskLine> {
    let mut out = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if !matches!(program, "make" | "gmake") {
            continue;
        }
        let mut dir = String::new();
        let mut file = None;
        let mut goals = Vec::new();
        let mut rest = words[at + 1..].iter();
        while let Some(word) = rest.next() {
            match word.as_str() {
                "-C" | "--directory" => dir = rest.next().cloned().unwrap_or_default(),
                "-f" | "--file" | "--makefile" => file = rest.next().cloned(),
                "-I" | "-o" | "-W" | "-j" | "-l" => {
                    rest.next();
                }
                w if w.starts_with("--directory=") => dir = w["--directory=".len()..].to_string(),
                w if w.starts_with("-C") => dir = w[2..].to_string(),
                w if w.starts_with("--file=") => file = Some(w["--file=".len()..].to_string()),
                w if w.starts_with("-f") && w.len() > 2 => file = Some(w[2..].to_string()),
                w if w.starts_with('-') || w.contains('=') => {}
                // The command goes on after `&&`, `;`: no more goals.
                w if !w.chars().all(|c| c.is_alphanumeric() || "._-/".contains(c)) => break,
                w => goals.push(w.to_string()),
            }
        }
        let Some(dir) = crate::core::module_maps::join_rel("", &dir) else {
            continue;
        };
        let first: Option<String> = match file {
            Some(f) => crate::core::module_maps::join_rel(&dir, &f),
            None => ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .map(|n| crate::core::module_maps::join(&dir, n))
                .find(|rel| real_root.join(rel).is_file()),
        };
        let mut rules = Rules::default();
        let mut queue: Vec<String> = first.into_iter().collect();
        let mut read = 0;
        while let Some(rel) = queue.pop() {
            read += 1;
            if read > MAX_MAKEFILES {
                break;
            }
            let Some(text) = super::imports::small_text(&real_root.join(&rel)) else {
                continue;
            };
            out.push(TaskLine {
                config: rel.clone(),
                line: String::new(),
                named: false,
            });
            for name in rules.read(&rel, &text) {
                // Relative to where make runs (the `-C` folder).
                if let Some(rel) = crate::core::module_maps::join_rel(&dir, &name) {
                    queue.push(rel);
                }
            }
        }
        if goals.is_empty() {
            goals.extend(rules.first.clone());
        }
        let mut seen: Vec<String> = Vec::new();
        while let Some(goal) = goals.pop() {
            if seen.contains(&goal) || seen.len() >= MAX_TASK_LINES {
                continue;
            }
            seen.push(goal.clone());
            for rule in rules.of(&goal) {
                goals.extend(rule.prerequisites.iter().cloned());
                for line in &rule.recipe {
                    out.push(TaskLine {
                        config: rule.file.clone(),
                        line: line.clone(),
                        named: true,
                    });
                }
            }
        }
    }
    out
}

/// One rule of a makefile.
struct Rule {
    file: String,
    targets: Vec<String>,
    prerequisites: Vec<String>,
    recipe: Vec<String>,
}

/// The rules of the makefiles read, and the default goal.
#[derive(Default)]
struct Rules {
    rules: Vec<Rule>,
    first: Option<String>,
}

impl Rules {
    /// Read the rules of makefile `file`; the files it includes.
    fn read(&mut self, file: &str, text: &str) -> Vec<String> {
        let mut included = Vec::new();
        let mut current: Option<usize> = None;
        for line in text.lines() {
            if let Some(recipe) = line.strip_prefix('\t') {
                let recipe = recipe.trim_start_matches(['@', '-', '+', ' ']);
                if let Some(rule) = current.and_then(|i| self.rules.get_mut(i))
                    && !recipe.is_empty()
                    && rule.recipe.len() < MAX_TASK_LINES
                {
                    rule.recipe.push(recipe.to_string());
                }
                continue;
            }
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            current = None;
            if let Some(names) = ["include ", "-include ", "sinclude "]
                .iter()
                .find_map(|k| line.strip_prefix(k))
            {
                included.extend(
                    names
                        .split_whitespace()
                        .filter(|n| !n.contains(['$', '*', '?', '[']))
                        .map(str::to_string),
                );
                continue;
            }
            let Some((head, tail)) = line.split_once(':') else {
                continue;
            };
            // `X := v`, `X ::= v`: an assignment, no rule.
            if tail.starts_with('=') || tail.starts_with(":=") || head.contains('=') {
                continue;
            }
            let (prerequisites, inline) = match tail.split_once(';') {
                Some((p, r)) => (p, Some(r.trim())),
                None => (tail, None),
            };
            let targets: Vec<String> = head.split_whitespace().map(str::to_string).collect();
            if self.first.is_none()
                && let Some(t) = targets
                    .iter()
                    .find(|t| !t.starts_with('.') && !t.contains('%'))
            {
                self.first = Some(t.clone());
            }
            self.rules.push(Rule {
                file: file.to_string(),
                targets,
                prerequisites: prerequisites
                    .trim_start_matches(':')
                    .split_whitespace()
                    .filter(|p| *p != "|")
                    .map(str::to_string)
                    .collect(),
                recipe: inline
                    .filter(|r| !r.is_empty())
                    .map(str::to_string)
                    .into_iter()
                    .collect(),
            });
            current = Some(self.rules.len() - 1);
        }
        included
    }

    /// The rules that make `goal`.
    fn of(&self, goal: &str) -> impl Iterator<Item = &Rule> {
        self.rules
            .iter()
            .filter(move |r| r.targets.iter().any(|t| t == goal))
    }
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
        let texts: Vec<&str> = lines.iter().map(|t| t.line.as_str()).collect();
        assert_eq!(
            texts,
            [
                "deno run tools/sum.ts",
                "python3 tools/gen.py && deno task sum"
            ]
        );
        assert!(lines.iter().all(|t| t.config == "deno.json" && t.named));
        // A task that runs itself ends.
        assert_eq!(task_lines(dir.path(), &shell("deno task loop")).len(), 1);
    }

    #[test]
    fn make_runs_the_recipes_of_its_goals_and_their_prerequisites() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Makefile"),
            "CC := cc\ninclude rules.mk\n\nall: build\n\t@echo all\n\n\
             summary: gen\n\t@python3 tools/sum.py\n\nclean:\n\trm -rf *.o\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("rules.mk"), "gen: ; sh tools/gen.sh\n").unwrap();
        let lines = task_lines(dir.path(), &shell("make -s summary && echo done"));
        let named: Vec<(&str, &str)> = lines
            .iter()
            .filter(|t| t.named)
            .map(|t| (t.config.as_str(), t.line.as_str()))
            .collect();
        assert_eq!(
            named,
            [
                ("Makefile", "python3 tools/sum.py"),
                ("rules.mk", "sh tools/gen.sh")
            ]
        );
        let read: Vec<&str> = lines
            .iter()
            .filter(|t| !t.named)
            .map(|t| t.config.as_str())
            .collect();
        assert_eq!(read, ["Makefile", "rules.mk"]);
        // No goal: the first target.
        let lines = task_lines(dir.path(), &shell("make"));
        assert!(lines.iter().any(|t| t.line == "echo all"), "{lines:?}");
        assert!(
            !lines.iter().any(|t| t.line.contains("rm -rf")),
            "{lines:?}"
        );
    }

    #[test]
    fn npm_runs_the_script_with_its_pre_and_post_scripts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            r#"{ "scripts": { "presum": "node tools/pre.js", "sum": "node tools/sum.js", "test": "jest" } }"#,
        )
        .unwrap();
        for (command, want) in [
            (
                "npm run -s sum",
                &["node tools/pre.js", "node tools/sum.js"][..],
            ),
            ("yarn sum", &["node tools/pre.js", "node tools/sum.js"]),
            ("npm t", &["jest"]),
            ("npm install", &[]),
        ] {
            let lines = task_lines(dir.path(), &shell(command));
            let texts: Vec<&str> = lines.iter().map(|t| t.line.as_str()).collect();
            assert_eq!(texts, want, "{command}");
        }
    }
}
