//! What a task runner reads from the project for a consented command:
//! `deno task NAME` runs the line the `deno.json`/`deno.jsonc` where it
//! runs (or the file `--config`/`-c` names) gives the task, and its
//! `dependencies` first; `npm run NAME` (also `npm test`, `npm start`,
//! `yarn NAME`, `pnpm NAME`, `bun run NAME`) the `package.json`
//! script of that name, with its `pre`/`post` scripts; `make` the
//! recipes of the makefile it reads (`GNUmakefile`, `makefile`,
//! `Makefile`, or `-f FILE`, in `-C DIR`), and the files it `include`s:
//! of its goals, their prerequisites and the pattern rules that make
//! them, variables put in, with what it sets `SHELL` and `CC`, … to. A
//! task line that runs a task (`$(MAKE) -C sub`, `cd sub && make`) is
//! read in turn, in its folder, [`MAX_TASK_DEPTH`] deep.
//! And the import maps a Deno command names with `--import-map PATH` /
//! `--import-map=PATH`. A consent covers the file a task is read from
//! and what each task line runs, as if the command had said it; a
//! pattern in a task line counts as one in the command (a makefile's
//! recipes, all read, are for the files they name only).

use std::borrow::Cow;
use std::path::Path;

use crate::core::model::CommandLine;
use crate::core::module_maps::script::jsonc;

mod automatic;
mod expand;
mod git_alias;
mod git_worktree;
mod made_inputs;
mod node_runner;
mod pytest_collect;
mod runner_configs;

/// The most task lines read for one command (tasks running tasks), and
/// the most goals, recipe lines and scripts read along the way. A reading
/// stopped at this bound or any other below ([`was_cut`]) makes the
/// command one that cannot be consented to: what lies past a bound would
/// run unreviewed.
pub(super) const MAX_TASK_LINES: usize = 256;

thread_local! {
    /// Whether the last [`task_lines`] on this thread stopped at a bound.
    static CUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Why the last [`task_lines`] on this thread found what a command
    /// runs to be known only as it runs (a refusal each).
    static REFUSALS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The files outside the project the last [`task_lines`] on this
    /// thread read as the command's (a linked work tree's repository
    /// config), each a place line with its content's hash.
    static OUTSIDE: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    /// What the expansions of one [`task_lines`] may still spend, all its
    /// makes together: references and calls, and bytes of values read.
    static EXPANSION: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// Note that the reading stops at a bound with more left to read.
pub(super) fn cut() {
    CUT.with(|c| c.set(true));
}

/// Note that what a task runs is known only as it runs: `why`, for the
/// user (`trust/unknown.rs` marks it as a refusal).
pub(super) fn refuse(why: String) {
    REFUSALS.with(|r| {
        let mut r = r.borrow_mut();
        if !r.contains(&why) {
            r.push(why);
        }
    });
}

/// What a place of [`note_outside`] says between the file and its
/// content's hash.
pub(super) const OUTSIDE_READ: &str = ": read by git, outside the project, sha256 ";

/// What a place of [`note_outside`] says for a file not there (or not
/// readable) instead of a hash.
pub(super) const NOTHING_THERE: &str = "nothing there";

/// Note that file `path`, outside the project, was read as the
/// command's: its content (`None`: nothing readable there) is covered
/// by a place.
pub(super) fn note_outside(path: &Path, content: Option<&str>) {
    let hash = content.map_or_else(
        || NOTHING_THERE.to_string(),
        |text| crate::core::tokens::sha256_hex(text.as_bytes()),
    );
    note_place(format!("{}{OUTSIDE_READ}{hash}", path.display()));
}

/// Note place `line` of what the command runs (the names make's built-in
/// rules look for), once.
fn note_place(line: String) {
    OUTSIDE.with(|o| {
        let mut o = o.borrow_mut();
        if !o.contains(&line) {
            o.push(line);
        }
    });
}

/// The places of the last [`task_lines`] on this thread
/// ([`note_outside`]).
pub(super) fn outside_places() -> Vec<String> {
    OUTSIDE.with(|o| o.borrow().clone())
}

/// The refusals of the last [`task_lines`] on this thread ([`refuse`]).
pub(super) fn refusals() -> Vec<String> {
    REFUSALS.with(|r| r.borrow().clone())
}

/// Whether the last [`task_lines`] on this thread left something unread
/// at a bound (lines, goals, makefiles, bytes, depth).
pub(super) fn was_cut() -> bool {
    CUT.with(|c| c.get())
}

/// How deep tasks that run tasks are followed: a recipe's `$(MAKE) -C
/// sub` into a folder whose makefile does the same, a script's `npm run`.
pub(super) const MAX_TASK_DEPTH: usize = 8;

/// The longest task line read (a recipe, a script): a longer one is not
/// followed, and makes the command one that cannot be consented to
/// (`scripts::TOO_MANY_WORDS`).
pub(super) const MAX_TASK_LINE_BYTES: usize = 64 << 10;

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
    // `deno run --config other.json`: its `imports` (and the map its
    // `importMap` names) are the command's import map.
    let deno = words.iter().any(|w| w.rsplit('/').next() == Some("deno"));
    let mut out = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if word == "--import-map" || (deno && (word == "--config" || word == "-c")) {
            out.extend(words.next().cloned());
        } else if let Some(path) = word.strip_prefix("--import-map=") {
            out.push(path.to_string());
        } else if let Some(path) = word.strip_prefix("--config=").filter(|_| deno) {
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
    /// The root-relative folder the line runs in (`""`: the root): the
    /// `-C` folder of a `make`, the folder of a `package.json`.
    pub(super) dir: String,
    pub(super) line: String,
    /// The line is the task the command names (its patterns count), not
    /// one of every recipe of a makefile.
    pub(super) named: bool,
}

/// The lines the tasks `command` runs (and the tasks those run), each
/// with the root-relative file it was read from; a makefile read with no
/// line (`named`: false, empty) still counts as read. Bounded by
/// [`MAX_TASK_LINES`]; [`was_cut`] says whether a bound stopped it.
pub(super) fn task_lines(real_root: &Path, command: &CommandLine) -> Vec<TaskLine> {
    CUT.with(|c| c.set(false));
    REFUSALS.with(|r| r.borrow_mut().clear());
    OUTSIDE.with(|o| o.borrow_mut().clear());
    EXPANSION.with(|e| e.set((MAX_EXPANSION_STEPS, MAX_EXPANSION_WORK)));
    let mut out: Vec<TaskLine> = Vec::new();
    let mut pending = vec![(command.clone(), String::new(), 0)];
    let mut make_bytes = MAX_MAKE_BYTES;
    let mut lines = 0usize;
    while let Some((line, dir, depth)) = pending.pop() {
        let words = plain_words(&line);
        let mut found = Vec::new();
        for (config, name) in deno_tasks(&words) {
            found.extend(task(real_root, &dir, config.as_deref(), &name, 0));
        }
        if node_runner::runs_one(&words) {
            found.extend(node_runner::configs(real_root, &dir));
        }
        found.extend(node_runner::folder_mains(real_root, &dir, &words));
        found.extend(git_alias::lines(real_root, &dir, &line));
        found.extend(runner_configs::lines(real_root, &dir, &words));
        let scripts = npm_scripts(real_root, &dir, &words);
        found.extend(node_runner::bins(&dir, &scripts, &words));
        found.extend(scripts);
        found.extend(make_recipes(real_root, &dir, &words, &mut make_bytes));
        for task in found {
            if out.contains(&task) {
                continue;
            }
            // A line past the depth that still runs tasks of its own. The
            // files read or remade from (no line) have bounds of their own.
            if depth > MAX_TASK_DEPTH || (task.named && lines >= MAX_TASK_LINES) {
                cut();
                return out;
            }
            lines += usize::from(task.named);
            if task.named && task.line.len() <= MAX_TASK_LINE_BYTES {
                pending.push((
                    CommandLine::Shell(task.line.clone()),
                    task.dir.clone(),
                    depth + 1,
                ));
            }
            out.push(task);
        }
    }
    out
}

/// The programs that run a `package.json` script.
const NODE_RUNNERS: [&str; 4] = ["npm", "pnpm", "yarn", "bun"];

/// The options of those runners that name the folder of the package
/// whose scripts run.
const FOLDER_OPTIONS: [&str; 5] = ["--prefix", "-C", "--dir", "--cwd", "--cd"];

/// Their options that take the next word as a value.
const VALUE_OPTIONS: [&str; 10] = [
    "--workspace",
    "-w",
    "--filter",
    "-F",
    "--userconfig",
    "--cache",
    "--loglevel",
    "--registry",
    "--script-shell",
    "--globalconfig",
];

/// The `package.json` scripts `words` run in folder `dir` (`npm run
/// NAME`, `npm test`, `yarn NAME`, …), each with its `pre` and `post`
/// script.
fn npm_scripts(real_root: &Path, dir: &str, words: &[String]) -> Vec<TaskLine> {
    let mut names = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if !NODE_RUNNERS.contains(&program) {
            continue;
        }
        // Options, and the values of those that take one as the next
        // word (`npm --prefix sub run x`, recheck 25: `sub` was read as
        // the subcommand); a folder option names where the scripts are.
        let mut folder: Option<String> = None;
        let mut plain: Vec<&String> = Vec::new();
        let mut args = words[at + 1..].iter();
        while let Some(arg) = args.next() {
            if let Some((option, value)) = arg.split_once('=').filter(|(o, _)| o.starts_with('-')) {
                if FOLDER_OPTIONS.contains(&option) {
                    folder = Some(value.to_string());
                }
            } else if FOLDER_OPTIONS.contains(&arg.as_str()) {
                folder = args.next().cloned();
            } else if VALUE_OPTIONS.contains(&arg.as_str()) {
                args.next();
            } else if !arg.starts_with('-') {
                plain.push(arg);
            }
        }
        let script_dir = match folder.as_deref() {
            Some(f)
                if !f.is_empty() && f != "." && !f.starts_with('/') && !f.contains(['$', '`']) =>
            {
                crate::core::module_maps::join_rel(dir, f).unwrap_or_else(|| dir.to_string())
            }
            _ => dir.to_string(),
        };
        let mut rest = plain.into_iter();
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
        names.extend(name.map(|n| (n, script_dir.clone())));
        // A line naming a script thousands of times runs a few.
        if names.len() >= MAX_TASK_LINES {
            cut();
            break;
        }
    }
    let mut out = Vec::new();
    for (name, dir) in names {
        let config = crate::core::module_maps::join(&dir, "package.json");
        let Some(json) = super::imports::small_text(&real_root.join(&config))
            .filter(|t| t.len() <= 1 << 20)
            .and_then(|t| jsonc(&t))
        else {
            continue;
        };
        for script in [format!("pre{name}"), name.clone(), format!("post{name}")] {
            if let Some(line) = json
                .get("scripts")
                .and_then(|s| s.get(&script))
                .and_then(|l| l.as_str())
            {
                out.push(TaskLine {
                    config: config.clone(),
                    dir: dir.clone(),
                    line: node_runner::npm_variables(line, &json),
                    named: true,
                });
            }
        }
    }
    out
}

/// The most makefiles read for one `make` (`include`s).
pub(super) const MAX_MAKEFILES: usize = 64;

/// The most bytes a makefile variable grows to when expanded.
const MAX_EXPANSION: usize = 64 << 10;

/// The most bytes expansion adds to the makefiles one `make` reads, all
/// rules together: past it, prerequisites are kept as written.
const MAX_EXPANDED: usize = 1 << 20;

/// The most references and function calls expanded for one command,
/// all the lines of all its makes together.
const MAX_EXPANSION_STEPS: usize = 1_000_000;

/// The most bytes of variable values expansion reads for one command.
const MAX_EXPANSION_WORK: usize = 64 << 20;

/// How deep `$(eval …)` text that evaluates more is read.
const MAX_EVAL_DEPTH: usize = 8;

/// The most bytes of makefiles read for one command, all `make`s and
/// sub-makes together.
pub(super) const MAX_MAKE_BYTES: usize = 16 << 20;

/// The most goals waiting to be looked at in one `make`, and the most
/// pattern rules taken for one goal.
pub(super) const MAX_GOALS: usize = 1024;

/// The variables make runs programs from without a recipe naming them:
/// `SHELL` runs every recipe line, the others are the programs of its
/// built-in rules (`%.o: %.c` runs `$(CC)`). Set by a makefile, each
/// counts as a line it runs; and what the shell runs before each line
/// (`BASH_ENV`, `ENV`) or is given with it (`.SHELLFLAGS`).
const MAKE_PROGRAMS: [&str; 15] = [
    "SHELL",
    "CC",
    "CXX",
    "CPP",
    "AS",
    "AR",
    "LD",
    "YACC",
    "LEX",
    "FC",
    "PC",
    "M2C",
    "BASH_ENV",
    "ENV",
    ".SHELLFLAGS",
];

/// Whether word `at` of `words` runs make: `make`, `gmake`, or a recipe's
/// `$(MAKE)` (split into `$`, `MAKE`), `${MAKE}`, `$MAKE`.
fn runs_make(words: &[String], at: usize) -> bool {
    let word = words[at].as_str();
    let program = word.rsplit('/').next().unwrap_or(word);
    matches!(program, "make" | "gmake" | "${MAKE}" | "$MAKE")
        || (word == "MAKE" && at > 0 && words[at - 1] == "$")
}

/// The recipes `make` runs for `words` (run in folder `dir`): of the
/// targets it names (else the first), of their prerequisites, and of the
/// pattern rules that make those, in the makefile it reads (in `-C DIR`,
/// or the folder a `cd DIR` before it left) and the files that includes
/// (each read as a task file). A recipe's own `$(MAKE) -C sub` is read
/// in turn by [`task_lines`].
/// Makefiles are read while `budget` bytes are left, and it is spent.
fn make_recipes(
    real_root: &Path,
    dir: &str,
    words: &[String],
    budget: &mut usize,
) -> Vec<TaskLine> {
    let mut out = Vec::new();
    // Where the line is by now: a `cd DIR` moves it for what follows.
    let mut here = Some(dir.to_string());
    let mut makes = 0;
    for at in 0..words.len() {
        if words[at] == "cd" {
            here = here.and_then(|h| crate::core::module_maps::join_rel(&h, words.get(at + 1)?));
            continue;
        }
        if !runs_make(words, at) {
            continue;
        }
        // A line of `make make make …` runs a few, not one per word.
        makes += 1;
        if makes > MAX_MAKEFILES {
            cut();
            break;
        }
        let Some(here) = here.clone() else {
            continue;
        };
        let make = MakeArgs::parse(&words[at + 1..]);
        // `make -f -`: the makefile is what it reads on its input, the
        // file summarized (recheck 28).
        if make
            .file
            .as_deref()
            .is_some_and(super::unknown::names_own_input)
        {
            refuse(
                "runs make with its makefile read from its input (`-f -`), the file \
                    summarized"
                    .to_string(),
            );
        }
        let Some(dir) = crate::core::module_maps::join_rel(&here, &make.dir) else {
            continue;
        };
        let first: Option<String> = match make.file {
            Some(f) => crate::core::module_maps::join_rel(&dir, &f),
            None => ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .map(|n| crate::core::module_maps::join(&dir, n))
                .find(|rel| real_root.join(rel).is_file()),
        };
        let include: Vec<String> = make
            .include
            .iter()
            .filter_map(|i| crate::core::module_maps::join_rel(&dir, i))
            .collect();
        let (mut rules, read) = read_makefiles(real_root, first, &dir, &include, budget);
        out.extend(read.iter().map(|rel| TaskLine {
            config: rel.clone(),
            dir: dir.clone(),
            line: String::new(),
            named: false,
        }));

        let mut goals = make.goals;
        if goals.is_empty() {
            goals.extend(rules.first.clone());
        }
        rules.expand_again();
        let tried = rules.tried.clone();
        let goals = rules.goals_with_remakes(goals, &tried);
        let mut recipes = rules.recipes_of(goals.clone());
        // What `$(shell …)` runs, as make reads the makefiles.
        let shells = std::mem::take(&mut rules.shells);
        recipes.extend(shells.iter().map(|(file, line)| Recipe::new(file, line)));
        let lines = every_recipe_line(&mut rules, recipes, read.first(), real_root, &dir);
        let texts: Vec<&str> = lines.iter().map(|(_, line)| line.as_str()).collect();
        let remade = rules.remade(real_root, &dir, &goals, &texts);
        rules.refuse_compiler_programs(&texts);
        if let Some(place) = remade.place {
            note_place(place);
        }
        if remade.compiles
            && let Some(file) = read.first()
        {
            out.push(TaskLine {
                config: file.clone(),
                dir: dir.clone(),
                line: rules.expand(made_inputs::BUILT_IN_COMPILE),
                named: true,
            });
        }
        for source in remade.sources {
            out.push(TaskLine {
                config: source,
                dir: dir.clone(),
                line: String::new(),
                named: false,
            });
        }
        for (file, line) in lines {
            out.push(TaskLine {
                config: file,
                dir: dir.clone(),
                line,
                named: true,
            });
        }
        if was_cut() {
            break;
        }
    }
    out
}

/// The lines a make run in folder `dir` runs: `recipes`' (each refused
/// when it reads its program from make's input, or `.SHELLFLAGS` has the
/// shell do so), then what the makefile (`first`) sets `SHELL`, `CC`, …
/// to (values, not lines: `PYTHON = python3` runs no program read from
/// its input).
fn every_recipe_line(
    rules: &mut Rules,
    recipes: Vec<Recipe>,
    first: Option<&String>,
    real_root: &Path,
    dir: &str,
) -> Vec<(String, String)> {
    let programs: Vec<Recipe> = MAKE_PROGRAMS
        .iter()
        .filter_map(|name| Some(Recipe::new(first?, rules.variables.get(*name)?)))
        .collect();
    // A recipe's `$(SHELL)` is make's own `/bin/sh` when no makefile sets
    // it (recheck 28: `@$(SHELL)` read as an empty line).
    rules
        .variables
        .entry("SHELL".to_string())
        .or_insert_with(|| "/bin/sh".to_string());
    let mut lines = recipe_lines(rules, recipes, real_root, dir);
    refuse_input_programs(&lines);
    refuse_shell_flags(rules);
    lines.extend(recipe_lines(rules, programs, real_root, dir));
    lines
}

/// A refusal for each recipe line (`lines`, each with its file) whose
/// shell or interpreter reads its program from its input: a recipe runs
/// with make's input, the file summarized (session 27: `@sh`, `sed … |
/// python3` as a recipe).
fn refuse_input_programs(lines: &[(String, String)]) {
    for (file, line) in lines {
        if let Some(why) = super::unknown::program_read_from_input(line) {
            let why = why.strip_prefix(super::unknown::MARK).unwrap_or(&why);
            let shown: String = line.trim().chars().take(80).collect();
            refuse(format!("{why} (a recipe of {file}: `{shown}`)"));
        }
    }
}

/// A refusal when `.SHELLFLAGS` has the shell read its program from
/// somewhere other than the recipe (`-s`, `-`, `/dev/stdin`; make gives
/// it the recipe after `-c`, recheck 28).
fn refuse_shell_flags(rules: &Rules) {
    let Some(flags) = rules.variables.get(".SHELLFLAGS") else {
        return;
    };
    let last = flags.split_whitespace().last().unwrap_or("");
    let takes_line =
        last.len() > 1 && last.starts_with('-') && !last.starts_with("--") && last.ends_with('c');
    if !takes_line {
        let shown: String = flags.trim().chars().take(80).collect();
        refuse(format!(
            "runs its recipes with `.SHELLFLAGS = {shown}`, whose shell may read its \
             program from its input, the file summarized"
        ));
    }
}

/// The lines `recipes` run, each with its file, in a make run in folder
/// `dir`: a recipe's `$(GEN)` runs what the variable holds, `$(call
/// RUN,x)` what `RUN` makes of `x`, its `$<` the prerequisite of each
/// goal (found through `vpath`), a `$(shell …)` its command. At most
/// [`MAX_TASK_LINES`].
fn recipe_lines(
    rules: &mut Rules,
    mut recipes: Vec<Recipe>,
    real_root: &Path,
    dir: &str,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    if !rules.vpaths.is_empty() || rules.variables.contains_key("VPATH") {
        for recipe in &mut recipes {
            for (_, prerequisites) in &mut recipe.goals {
                for p in prerequisites.iter_mut() {
                    *p = rules.locate(real_root, dir, p);
                }
            }
        }
    }
    let mut at = 0;
    while at < recipes.len() {
        let recipe = &recipes[at];
        at += 1;
        let first = rules.expanded_with(&recipe.line, None);
        if !first.evals.is_empty() {
            cut();
        }
        // The line again with each value a conditional's branch gives a
        // variable it names, where the values joined are not its words
        // (`sh tools/$(S).sh`).
        let mut texts = vec![first.text];
        for name in &first.named {
            for value in rules.alternatives.get(name).cloned().unwrap_or_default() {
                if holds_words(&texts[0], &value) {
                    continue;
                }
                let other = rules.expanded_with(&recipe.line, Some((name.clone(), value)));
                if !texts.contains(&other.text) && texts.len() < 16 {
                    texts.push(other.text);
                }
            }
        }
        let shells = first.shells;
        let file = recipe.file.clone();
        for text in texts {
            // A `define` block's lines, each without its recipe tab.
            let text = match text.contains("\n\t") || text.starts_with('\t') {
                true => text
                    .lines()
                    .map(|l| l.trim_start_matches('\t'))
                    .collect::<Vec<_>>()
                    .join("\n"),
                false => text,
            };
            for line in recipe.lines(&text, &mut |l| rules.expand(l)) {
                if rules.unexpanded(&line) {
                    cut();
                }
                if out.len() >= MAX_TASK_LINES {
                    cut();
                    return out;
                }
                if !out.iter().any(|(f, l)| *f == file && *l == line) {
                    out.push((file.clone(), line));
                }
            }
        }
        for command in shells {
            if recipes.len() < 2 * MAX_TASK_LINES {
                recipes.push(Recipe::new(&file, &command));
            }
        }
    }
    out
}

/// What a `make` command line says: its `-C` folder (relative to where
/// it runs), its `-f` file (relative to that folder) and its goals.
#[derive(Default)]
struct MakeArgs {
    dir: String,
    file: Option<String>,
    goals: Vec<String>,
    /// The `-I` folders an `include` not found in `dir` is looked for in
    /// (relative to `dir`).
    include: Vec<String>,
}

impl MakeArgs {
    /// The arguments `rest` (the words after `make`).
    fn parse(rest: &[String]) -> MakeArgs {
        let mut out = MakeArgs::default();
        let mut rest = rest.iter();
        while let Some(word) = rest.next() {
            match word.as_str() {
                "-C" | "--directory" => out.dir = rest.next().cloned().unwrap_or_default(),
                "-f" | "--file" | "--makefile" => out.file = rest.next().cloned(),
                "-I" | "--include-dir" => out.include.extend(rest.next().cloned()),
                w if w.starts_with("--include-dir=") => {
                    out.include.push(w["--include-dir=".len()..].to_string())
                }
                w if w.starts_with("-I") && w.len() > 2 => out.include.push(w[2..].to_string()),
                "-o" | "-W" | "-j" | "-l" => {
                    rest.next();
                }
                w if w.starts_with("--directory=") => {
                    out.dir = w["--directory=".len()..].to_string()
                }
                w if w.starts_with("-C") => out.dir = w[2..].to_string(),
                w if w.starts_with("--file=") => out.file = Some(w["--file=".len()..].to_string()),
                w if w.starts_with("-f") && w.len() > 2 => out.file = Some(w[2..].to_string()),
                w if w.starts_with('-') || w.contains('=') => {}
                // The command goes on after `&&`, `;`: no more goals.
                w if !w.chars().all(|c| c.is_alphanumeric() || "._-/".contains(c)) => break,
                _ if out.goals.len() >= MAX_GOALS => break,
                w => out.goals.push(w.to_string()),
            }
        }
        out
    }
}

/// The rules of makefile `first` (root-relative) and of the files it
/// includes (relative to `dir`, where make runs, else in the `-I`
/// folders `include` names), each read once where it is included, at
/// most [`MAX_MAKEFILES`], while `budget` bytes last; with the files read
/// (a consent is checked against a new reading: one that appears later
/// is new to what the command runs).
fn read_makefiles(
    real_root: &Path,
    first: Option<String>,
    dir: &str,
    include: &[String],
    budget: &mut usize,
) -> (Rules, Vec<String>) {
    let mut rules = Rules {
        root: real_root.to_path_buf(),
        dir: dir.to_string(),
        include_dirs: include.to_vec(),
        budget: *budget,
        ..Rules::default()
    };
    let curdir = real_root.join(dir).to_string_lossy().into_owned();
    rules.variables.insert("CURDIR".to_string(), curdir);
    if let Some(first) = first {
        let listed = match dir {
            "" => first.as_str(),
            dir => first.strip_prefix(&format!("{dir}/")).unwrap_or(&first),
        };
        let listed = listed.to_string();
        rules.include_file(first, &listed);
    }
    *budget = rules.budget;
    let read = std::mem::take(&mut rules.files);
    (rules, read)
}

/// The special targets make reads as settings, not as files or suffixes.
const SPECIAL_TARGETS: &[&str] = &[
    ".PHONY",
    ".SUFFIXES",
    ".DEFAULT",
    ".PRECIOUS",
    ".INTERMEDIATE",
    ".NOTINTERMEDIATE",
    ".SECONDARY",
    ".SECONDEXPANSION",
    ".DELETE_ON_ERROR",
    ".IGNORE",
    ".LOW_RESOLUTION_TIME",
    ".SILENT",
    ".EXPORT_ALL_VARIABLES",
    ".NOTPARALLEL",
    ".ONESHELL",
    ".POSIX",
    ".WAIT",
    ".EXTRA_PREREQS",
    ".DEFAULT_GOAL",
    ".FEATURES",
    ".INCLUDE_DIRS",
    ".VARIABLES",
];

/// The pattern rule (target, source) an old-style suffix rule `target`
/// is (recheck 26): `.in` makes `%` from `%.in`, `.tpl.run` makes
/// `%.run` from `%.tpl` (GNU make reads both so for the known suffixes;
/// any are taken here, as a new suffix could be added).
fn suffix_rule(target: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = target.split('.').collect();
    let plain = |p: &str| !p.is_empty() && !p.contains(['/', '%', '$']);
    if !target.starts_with('.') || SPECIAL_TARGETS.contains(&target) {
        return None;
    }
    match parts.as_slice() {
        ["", from] if plain(from) => Some(("%".to_string(), format!("%.{from}"))),
        ["", from, to] if plain(from) && plain(to) => {
            Some((format!("%.{to}"), format!("%.{from}")))
        }
        _ => None,
    }
}

/// One rule of a makefile.
struct Rule {
    file: String,
    /// Its targets; a pattern rule's (`%.o`) hold a `%`.
    targets: Vec<String>,
    /// As written (a pattern rule's hold a `%`), variables expanded.
    prerequisites: Vec<String>,
    recipe: Vec<String>,
    /// More recipe lines than were kept: reaching it cuts the reading.
    cut: bool,
}

/// A recipe line to review, with the goals it makes when it names their
/// prerequisites (`$<`): what it runs is read for each
/// ([`automatic`]).
struct Recipe {
    file: String,
    line: String,
    /// Of a rule written for its goals (no `%`).
    explicit: bool,
    /// Each goal with its prerequisites.
    goals: Vec<(String, Vec<String>)>,
}

impl Recipe {
    fn new(file: &str, line: &str) -> Recipe {
        Recipe {
            file: file.to_string(),
            line: line.to_string(),
            explicit: true,
            goals: Vec::new(),
        }
    }

    /// The lines this recipe runs, `line` its text with variables put
    /// in: the line for each goal when it runs a prerequisite or its rule
    /// is written for its goals, else the line once. A function over the
    /// goal's variables (`$(word 2,$^)`) is made, filled in, by `expand`.
    fn lines(&self, line: &str, expand: &mut dyn FnMut(&str) -> String) -> Vec<String> {
        let runs_input = || automatic::runs_input(&expand::stand_ins(line));
        if self.goals.is_empty() || !(self.explicit || runs_input()) {
            return vec![line.to_string()];
        }
        let mut out: Vec<String> = Vec::new();
        for (goal, prerequisites) in &self.goals {
            let mut filled = automatic::fill(line, goal, prerequisites);
            if filled.contains("$(") || filled.contains("${") {
                filled = expand(&filled);
            }
            if !out.contains(&filled) {
                out.push(filled);
            }
        }
        out
    }
}

/// The rules of the makefiles read, their variables, and the default
/// goal.
#[derive(Default)]
struct Rules {
    rules: Vec<Rule>,
    variables: std::collections::HashMap<String, String>,
    /// Variables set to more than was kept ([`MAX_EXPANSION`], or past
    /// the count): a line still naming one after expansion cuts the
    /// reading.
    dropped: std::collections::HashSet<String>,
    /// Bytes expansion has added so far (at most [`MAX_EXPANDED`]).
    expanded: usize,
    first: Option<String>,
    /// The commands of `$(shell …)` the makefiles hold, each with its
    /// file: make runs them as it reads, whatever the goal; and each
    /// `include` of a pattern, as `include PATTERN`.
    shells: Vec<(String, String)>,
    /// The `vpath PATTERN DIRS` lines read: where a prerequisite not
    /// found where make runs is looked for.
    vpaths: Vec<(String, Vec<String>)>,
    /// How deep in `$(eval …)` text the reading is.
    eval_depth: usize,
    /// The values each branch of a conditional gives a variable set
    /// there (at most 8 a variable, 256 variables).
    alternatives: std::collections::HashMap<String, Vec<String>>,
    /// The real root, the folder make runs in (root-relative) and the
    /// `-I` folders (relative to it).
    root: std::path::PathBuf,
    dir: String,
    include_dirs: Vec<String>,
    /// The makefiles looked for, and those read (root-relative).
    tried: Vec<String>,
    files: Vec<String>,
    /// Bytes of makefiles that may still be read.
    budget: usize,
    /// How deep in included files the reading is.
    including: usize,
    /// The shared objects `load` names (relative to where make runs):
    /// make runs them inside itself, and remakes them first.
    loads: Vec<String>,
    /// Whether `.SECONDEXPANSION` was named: a prerequisite's `$$(X)` is
    /// then expanded again.
    second_expansion: bool,
}

/// What an expansion made of a text: the text, the `$(eval …)` texts and
/// `$(shell …)` commands it met, and the variables it named.
struct Expanded {
    text: String,
    evals: Vec<String>,
    shells: Vec<String>,
    named: Vec<String>,
}

/// `name` assigned `value` by a makefile line (`X = v`, `X := v`, `X ::=
/// v`, `X ?= v`, `X += v`, `X != cmd`, after `export` or `override`), or
/// `None` when the line is no assignment. The flags say `+=`, and `:=`
/// (`::=`, `:::=`: the value expanded as the line is read).
fn assignment(line: &str) -> Option<(&str, &str, bool, bool)> {
    let eq = line.find('=')?;
    // `a: b` before any `=` is a rule (`a: X = v` sets a target's own).
    if line[..eq].contains(':') && !line[..eq].ends_with(':') {
        return None;
    }
    let head = &line[..eq];
    let append = head.ends_with('+');
    let immediate = head.ends_with(':');
    let name = head.trim_end_matches([':', '+', '?', '!']).trim();
    let name = ["export ", "override "]
        .iter()
        .fold(name, |n, p| n.strip_prefix(p).unwrap_or(n))
        .trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    Some((name, line[eq + 1..].trim(), append, immediate))
}

impl Rules {
    /// Read makefile `rel` (root-relative; `listed` as make names it in
    /// `MAKEFILE_LIST`, relative to where it runs) where it is included,
    /// once: what it sets holds for the lines after the `include`.
    fn include_file(&mut self, rel: String, listed: &str) {
        // A file included twice (an include loop) is read once; a missing
        // one (`-include $(DEPS)` before a build) costs a look.
        if self.tried.contains(&rel) {
            return;
        }
        if self.tried.len() >= MAX_MAKEFILES * 16 || self.including >= MAX_TASK_DEPTH * 2 {
            cut();
            return;
        }
        self.tried.push(rel.clone());
        let Some(text) = super::imports::small_text(&self.root.join(&rel)) else {
            return;
        };
        if self.files.len() >= MAX_MAKEFILES || text.len() > self.budget {
            self.budget = 0;
            cut();
            return;
        }
        self.budget -= text.len();
        self.files.push(rel.clone());
        let list = match self.variables.get("MAKEFILE_LIST") {
            Some(old) => format!("{old} {listed}"),
            None => listed.to_string(),
        };
        self.variables.insert("MAKEFILE_LIST".to_string(), list);
        self.including += 1;
        self.read(&rel, &text);
        self.including -= 1;
    }

    /// An `include` (`-include`, `sinclude`) of makefile `file` naming
    /// `names`: make expands them as it reads the line, and reads each
    /// from where it runs, else from the first `-I` folder holding it.
    /// One it could not expand is not read (the reading is cut); a
    /// pattern is one in what the command runs (a makefile added later
    /// would match it).
    fn include(&mut self, file: &str, names: &str) {
        let names = self.expand(names);
        for name in names.split_whitespace() {
            if name.contains('$') {
                cut();
            } else if name.contains(['*', '?', '[']) {
                // Said as make's own (recheck 26: it read as a pattern the
                // shell expands).
                refuse(format!(
                    "includes the makefiles a pattern matches ({}: `{name}`), which a \
                     makefile added later would match",
                    file
                ));
            } else {
                let found = std::iter::once(self.dir.as_str())
                    .chain(self.include_dirs.iter().map(String::as_str))
                    .filter_map(|d| crate::core::module_maps::join_rel(d, name))
                    .find(|rel| self.root.join(rel).is_file())
                    .or_else(|| crate::core::module_maps::join_rel(&self.dir, name));
                if let Some(rel) = found {
                    self.include_file(rel, name);
                }
            }
        }
    }

    /// Read the rules and variables of makefile `file` (and of what it
    /// includes, where it includes them).
    fn read(&mut self, file: &str, text: &str) {
        let mut current: Option<usize> = None;
        // Inside `ifeq`/`ifdef`/… (depth), and the `define NAME` block
        // being read, with its lines.
        let mut conditional = 0usize;
        let mut defining: Option<(String, Vec<String>)> = None;
        for line in logical_lines(text) {
            let line = line.as_ref();
            if let Some((name, lines)) = defining.as_mut() {
                if line.trim() == "endef" {
                    let value = lines.join("\n");
                    let name = std::mem::take(name);
                    defining = None;
                    self.set(&name, &value, false, conditional > 0);
                } else {
                    // Tabs kept: a template `$(eval)` reads has recipes.
                    lines.push(line.to_string());
                }
                continue;
            }
            for command in shell_calls(line) {
                if self.shells.len() < MAX_TASK_LINES {
                    self.shells.push((file.to_string(), command));
                } else {
                    cut();
                }
            }
            if let Some(recipe) = line.strip_prefix('\t') {
                self.add_recipe(current, recipe);
                continue;
            }
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            current = None;
            let word = trimmed.split_whitespace().next().unwrap_or("");
            match word {
                "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                    conditional += 1;
                    continue;
                }
                "endif" => {
                    conditional = conditional.saturating_sub(1);
                    continue;
                }
                "else" => continue,
                "vpath" => {
                    let expanded = self.expand(trimmed);
                    let mut words = expanded.split_whitespace().skip(1);
                    if let Some(pattern) = words.next()
                        && self.vpaths.len() < MAX_TASK_LINES
                    {
                        let dirs = words.flat_map(|w| w.split(':')).map(str::to_string);
                        self.vpaths.push((pattern.to_string(), dirs.collect()));
                    }
                    continue;
                }
                "define" => {
                    let name = trimmed["define".len()..]
                        .trim()
                        .trim_end_matches(['=', ':', '+', '?', '!', ' '])
                        .to_string();
                    defining = Some((name, Vec::new()));
                    continue;
                }
                _ => {}
            }
            if let Some(names) = ["include ", "-include ", "sinclude "]
                .iter()
                .find_map(|k| trimmed.strip_prefix(k))
            {
                self.include(file, names);
                continue;
            }
            if let Some(names) = ["load ", "-load "]
                .iter()
                .find_map(|k| trimmed.strip_prefix(k))
            {
                self.load(names);
                continue;
            }
            if trimmed.contains("$(eval ") || trimmed.contains("${eval ") || expand::called(trimmed)
            {
                self.evaluate(file, trimmed);
                continue;
            }
            if let Some((name, value, append, immediate)) = assignment(trimmed) {
                let value = match immediate {
                    true => Cow::Owned(self.expand(value)),
                    false => Cow::Borrowed(value),
                };
                self.set(name, &value, append, conditional > 0);
                continue;
            }
            if let Some((head, tail)) = line.split_once(':') {
                self.add_rule(file, head, tail);
                current = Some(self.rules.len() - 1);
            }
        }
    }

    /// A recipe line (after its tab) of rule `current`: a line of its
    /// own, or the rest of the last one when that ended with `\` (the
    /// shell reads them as one: a `case` over several lines).
    fn add_recipe(&mut self, current: Option<usize>, recipe: &str) {
        let Some(rule) = current.and_then(|i| self.rules.get_mut(i)) else {
            return;
        };
        if let Some(last) = rule.recipe.last_mut()
            && let Some(head) = last.strip_suffix('\\')
        {
            match head.len() + recipe.len() < MAX_TASK_LINE_BYTES {
                true => *last = format!("{head} {}", recipe.trim_start()),
                false => cut(),
            }
            return;
        }
        let recipe = recipe.trim_start_matches(['@', '-', '+', ' ']);
        if recipe.is_empty() {
            return;
        }
        match rule.recipe.len() < MAX_TASK_LINES {
            true => rule.recipe.push(recipe.to_string()),
            false => rule.cut = true,
        }
    }

    /// The rule of line `head: tail` (`a: b`, `a:: b`, `a: b; recipe`, a
    /// static pattern rule), added last.
    fn add_rule(&mut self, file: &str, head: &str, tail: &str) {
        let (tail, inline) = match tail.split_once(';') {
            Some((p, r)) => (p, Some(r.trim())),
            None => (tail, None),
        };
        // `a:: b` (double colon) reads as `a: b`.
        let tail = tail.strip_prefix(':').unwrap_or(tail);
        // A static pattern rule (`$(OBJS): %.o: %.c`) counts as the
        // pattern rule `%.o: %.c`, whichever targets it lists.
        let (targets, prerequisites) = match tail.split_once(':') {
            Some((pattern, prerequisites)) => (pattern.trim().to_string(), prerequisites),
            None => (head.to_string(), tail),
        };
        let targets: Vec<String> = self
            .expand(&targets)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        if targets.iter().any(|t| t == ".SECONDEXPANSION") {
            self.second_expansion = true;
        }
        if prerequisites
            .split_whitespace()
            .any(|p| p.starts_with("-l"))
        {
            refuse(format!(
                "has a prerequisite make finds by searching for a library (`-lNAME`: {file}), \
                 which is not followed"
            ));
        }
        if self.first.is_none()
            && let Some(t) = targets
                .iter()
                .find(|t| !t.starts_with('.') && !t.contains('%'))
        {
            self.first = Some(t.clone());
        }
        let mut prerequisites: Vec<String> = self
            .expand(prerequisites)
            .split_whitespace()
            .filter(|p| *p != "|")
            .map(str::to_string)
            .collect();
        let mut targets = targets;
        if let [target] = targets.as_slice()
            && let Some((pattern, source)) = suffix_rule(target)
        {
            targets = vec![pattern];
            prerequisites.insert(0, source);
        }
        self.rules.push(Rule {
            file: file.to_string(),
            targets,
            prerequisites,
            recipe: inline
                .filter(|r| !r.is_empty())
                .map(str::to_string)
                .into_iter()
                .collect(),
            cut: false,
        });
    }

    /// Set variable `name` to `value` (after its old value for `+=`). In
    /// a conditional, which branch make takes is not known: a value set
    /// before is kept beside the new one, so a recipe naming the variable
    /// names every file either branch would run.
    fn set(&mut self, name: &str, value: &str, append: bool, conditional: bool) {
        // A sub-make reads the makefiles `MAKEFILES` names before its own
        // (recheck 26): not read here.
        if name == "MAKEFILES" && !value.trim().is_empty() {
            refuse(
                "sets `MAKEFILES`, the makefiles every sub-make reads first, which are not \
                 read for review"
                    .to_string(),
            );
        }
        // Each value a branch gives, for the lines that put the variable
        // inside a word (`sh tools/$(S).sh`): the joined value is no name.
        match (conditional, append) {
            (true, false) if self.alternatives.len() < 256 => {
                let old = self.variables.get(name).cloned();
                let values = self.alternatives.entry(name.to_string()).or_default();
                if values.is_empty() {
                    values.extend(old);
                }
                if values.len() < 8 {
                    values.push(value.to_string());
                }
            }
            (_, true) => {
                for v in self.alternatives.get_mut(name).into_iter().flatten() {
                    v.push(' ');
                    v.push_str(value);
                }
            }
            (false, false) => {
                self.alternatives.remove(name);
            }
            _ => {}
        }
        let value = match self.variables.get(name) {
            Some(old) if append || conditional => format!("{old} {value}"),
            _ => value.to_string(),
        };
        if value.len() <= MAX_EXPANSION && self.variables.len() < 4096 {
            self.variables.insert(name.to_string(), value);
        } else if self.dropped.len() < 4096 {
            self.variables.remove(name);
            self.dropped.insert(name.to_string());
        } else {
            cut();
        }
    }

    /// Whether recipe line `line` names a goal's prerequisites (`$<`, …),
    /// itself or in a variable it names (`RUN = python3 $<`).
    fn names_inputs(&self, line: &str) -> bool {
        automatic::names_inputs(line)
            || expand::references(line).into_iter().any(|(open, close)| {
                self.variables
                    .get(&line[open + 2..close])
                    .is_some_and(|v| expand::automatic(v))
            })
    }

    /// Whether `text`, expanded, still names a variable the makefiles set
    /// (`$(X)`, `${X}`) or a function call: one expansion did not reach
    /// (its budget, its depth) or one set past what was kept. What it
    /// holds is unread.
    fn unexpanded(&self, text: &str) -> bool {
        expand::names_unexpanded(text, &|name| {
            self.variables.contains_key(name) || self.dropped.contains(name)
        })
    }

    /// `text` with the variables read so far put in and make's functions
    /// evaluated ([`expand`]), within [`MAX_EXPANSION`] bytes; past a
    /// bound, as written. An `$(eval …)` met here (a recipe's, made while
    /// it runs) is not read: it cuts the reading.
    fn expand(&mut self, text: &str) -> String {
        let (out, evals, _) = self.expansion(text);
        if !evals.is_empty() {
            cut();
        }
        out
    }

    /// `text` expanded as [`Rules::expand`], with the texts of the
    /// `$(eval …)` and the commands of the `$(shell …)` it met.
    fn expansion(&mut self, text: &str) -> (String, Vec<String>, Vec<String>) {
        let out = self.expanded_with(text, None);
        (out.text, out.evals, out.shells)
    }

    /// `text` expanded as [`Rules::expansion`], variable `overriding.0`
    /// set to `overriding.1`; with the variables it named.
    fn expanded_with(&mut self, text: &str, overriding: Option<(String, String)>) -> Expanded {
        let mut out = Expanded {
            text: text.to_string(),
            evals: Vec::new(),
            shells: Vec::new(),
            named: Vec::new(),
        };
        if !text.contains('$') {
            return out;
        }
        let room = MAX_EXPANSION.min(MAX_EXPANDED.saturating_sub(self.expanded) + text.len());
        let (steps, work) = EXPANSION.with(|e| e.get());
        let mut expansion =
            expand::Expansion::new(&self.variables, &self.dropped, room, steps, work);
        expansion.overriding = overriding;
        let expanded = expansion.expand(text);
        EXPANSION.with(|e| e.set((expansion.steps, expansion.work)));
        if expansion.stopped {
            return out;
        }
        self.expanded += expanded.len().saturating_sub(text.len());
        out.text = expanded;
        out.evals = expansion.evals;
        out.shells = expansion.shells;
        out.named = expansion.named;
        out
    }

    /// Line `line` of makefile `file` that calls `$(eval …)` or starts
    /// with a function (`$(error …)`, `$(foreach …)`), which make expands
    /// before it reads the line: the text each eval makes, and what is
    /// left of the line, are read as makefile lines (rules made from a
    /// template), [`MAX_EVAL_DEPTH`] deep.
    fn evaluate(&mut self, file: &str, line: &str) {
        let (left, mut evals, shells) = self.expansion(line);
        if left != line && !left.trim().is_empty() {
            evals.push(left);
        }
        self.shells
            .extend(shells.into_iter().map(|c| (file.to_string(), c)));
        if self.eval_depth >= MAX_EVAL_DEPTH {
            cut();
            return;
        }
        self.eval_depth += 1;
        for text in evals {
            self.read(file, &text);
        }
        self.eval_depth -= 1;
    }

    /// The folders `vpath` (for a pattern matching `name`) and `VPATH`
    /// name, where make looks for `name` when it is not where make runs.
    fn vpath_folders(&self, name: &str) -> Vec<&str> {
        let mut folders: Vec<&str> = Vec::new();
        for (pattern, dirs) in &self.vpaths {
            if stem(pattern, name).is_some() || pattern == name || pattern == "%" {
                folders.extend(dirs.iter().map(String::as_str));
            }
        }
        if let Some(all) = self.variables.get("VPATH") {
            folders.extend(all.split([':', ' ', '\t']).filter(|d| !d.is_empty()));
        }
        folders
    }

    /// Where make finds prerequisite `name` of a goal made in folder
    /// `dir`: there, else through `vpath`/`VPATH` (`tools/gen.py` for
    /// `gen.py` and `vpath %.py tools`). A consent is checked against a
    /// new reading: a file added where make looks first is then the one
    /// named.
    fn locate(&self, real_root: &Path, dir: &str, name: &str) -> String {
        let here = |rel: &str| {
            crate::core::module_maps::join_rel(dir, rel)
                .is_some_and(|p| real_root.join(p).is_file())
        };
        let folders = self.vpath_folders(name);
        if folders.is_empty() || name.starts_with('/') || name.contains('$') || here(name) {
            return name.to_string();
        }
        if self
            .rules
            .iter()
            .any(|r| r.targets.iter().any(|t| t == name))
        {
            return name.to_string();
        }
        folders
            .into_iter()
            .take(64)
            .map(|folder| format!("{}/{name}", folder.trim_end_matches('/')))
            .find(|candidate| here(candidate))
            .unwrap_or_else(|| name.to_string())
    }

    /// The recipe lines (with the file each is from) that making `goals`
    /// runs: theirs, their prerequisites' and so on, at most
    /// [`MAX_GOALS`] goals a rule makes and [`MAX_TASK_LINES`] distinct
    /// lines.
    fn recipes_of(&self, mut goals: Vec<String>) -> Vec<Recipe> {
        let mut seen: Vec<String> = Vec::new();
        let mut recipes: Vec<Recipe> = Vec::new();
        // The pattern rules each goal was reached through: make uses no
        // rule twice in one chain (`tools/%: tools/%.o` makes
        // `tools/sum` from `tools/sum.o`, not that from `tools/sum.o.o`:
        // recheck 28, such a makefile was cut at the bound).
        let mut chains: std::collections::HashMap<String, Vec<usize>> = Default::default();
        while let Some(goal) = goals.pop() {
            if seen.contains(&goal) {
                continue;
            }
            let chain = chains.get(&goal).cloned().unwrap_or_default();
            // A plain file (no rule makes it) runs nothing.
            let making = self.making(&goal);
            // Past a bound the command cannot be consented to: reading
            // on would only cost time.
            if was_cut() {
                return recipes;
            }
            if making.is_empty() {
                continue;
            }
            if seen.len() >= MAX_GOALS {
                cut();
                return recipes;
            }
            seen.push(goal.clone());
            for (rule, prerequisites) in making {
                let pattern = rule.targets.iter().any(|t| t.contains('%'));
                let index = self.rules.iter().position(|r| std::ptr::eq(r, rule));
                if pattern && index.is_some_and(|i| chain.contains(&i)) {
                    continue;
                }
                if rule.cut || prerequisites.iter().any(|p| self.unexpanded(p)) {
                    cut();
                    return recipes;
                }
                if prerequisites.len() > MAX_GOALS.saturating_sub(goals.len()) {
                    cut();
                    return recipes;
                }
                for line in &rule.recipe {
                    // A pattern rule's recipe, the same for every object,
                    // is one line to review; the goals it makes are kept
                    // for what `$<` runs.
                    let at = recipes
                        .iter()
                        .position(|r| r.file == rule.file && &r.line == line);
                    let at = match at {
                        Some(at) => at,
                        None if recipes.len() >= MAX_TASK_LINES => {
                            cut();
                            return recipes;
                        }
                        None => {
                            let mut recipe = Recipe::new(&rule.file, line);
                            recipe.explicit = !rule.targets.iter().any(|t| t.contains('%'));
                            recipes.push(recipe);
                            recipes.len() - 1
                        }
                    };
                    if self.names_inputs(line) && recipes[at].goals.len() < MAX_GOALS {
                        recipes[at]
                            .goals
                            .push((goal.clone(), prerequisites.clone()));
                    }
                }
                // A match-anything rule (`%: %.in`) matches its own
                // prerequisite too: only one there is followed (the sources
                // it looks for are covered as such, `made_inputs`).
                let anything = rule.targets.iter().any(|t| t == "%");
                let mut next = chain.clone();
                next.extend(index.filter(|_| pattern));
                for p in prerequisites.into_iter().filter(|p| {
                    !anything
                        || crate::core::module_maps::join_rel(&self.dir, p)
                            .is_some_and(|rel| self.root.join(rel).is_file())
                }) {
                    chains.entry(p.clone()).or_insert_with(|| next.clone());
                    goals.push(p);
                }
            }
        }
        recipes
    }

    /// The rules that make `goal`, each with its prerequisites for it: the
    /// explicit rules naming it, and, when none of them has a recipe,
    /// every pattern rule whose target matches it (its `%` in the
    /// prerequisites replaced by the stem).
    fn making(&self, goal: &str) -> Vec<(&Rule, Vec<String>)> {
        let explicit: Vec<(&Rule, Vec<String>)> = self
            .rules
            .iter()
            .filter(|r| r.targets.iter().any(|t| t == goal))
            .map(|r| (r, r.prerequisites.clone()))
            .collect();
        if explicit.iter().any(|(r, _)| !r.recipe.is_empty()) {
            return explicit;
        }
        let mut out = explicit;
        for rule in &self.rules {
            let Some(stem) = rule.targets.iter().find_map(|t| stem(t, goal)) else {
                continue;
            };
            if out.len() >= MAX_GOALS {
                cut();
                break;
            }
            let prerequisites = rule
                .prerequisites
                .iter()
                .map(|p| p.replacen('%', stem, 1))
                .collect();
            out.push((rule, prerequisites));
        }
        out
    }
}

/// Whether `text` holds `words` (its words, in order) as words of its
/// own: not inside a longer word.
fn holds_words(text: &str, words: &str) -> bool {
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    if words.is_empty() {
        return true;
    }
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    text.match_indices(&words).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + words.len()..].chars().next();
        before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace)
    })
}

/// The lines of makefile text `text` as make reads them: a line ended by
/// `\\` goes on with the next (one space for the break), but a recipe's
/// (its tab kept: the shell reads it) and one in a `define` block.
fn logical_lines(text: &str) -> Vec<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    let mut out: Vec<Cow<'_, str>> = Vec::new();
    let mut defining = false;
    let mut joined: Option<String> = None;
    for line in text.lines() {
        let continued = (line.len() - line.trim_end_matches('\\').len()) % 2 == 1;
        // The line without the `\\` that joins it to the next.
        let body = match continued {
            true => &line[..line.len() - 1],
            false => line,
        };
        if let Some(head) = joined.as_mut() {
            head.push(' ');
            head.push_str(body.trim_start());
            if head.len() > MAX_TASK_LINE_BYTES {
                cut();
            }
            if !continued || head.len() > MAX_TASK_LINE_BYTES {
                out.extend(joined.take().map(Cow::Owned));
            }
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if defining || line.starts_with('\t') || !continued {
            defining = match word {
                "define" => true,
                "endef" => false,
                _ => defining,
            };
            out.push(Cow::Borrowed(line));
        } else {
            joined = Some(body.to_string());
        }
    }
    out.extend(joined.map(Cow::Owned));
    out
}

/// The commands of the `$(shell CMD)` and `${shell CMD}` calls on a
/// makefile line, parentheses inside the command balanced.
fn shell_calls(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("$(shell ").or_else(|| rest.find("${shell ")) {
        let close = if rest[at + 1..].starts_with('(') {
            (b'(', b')')
        } else {
            (b'{', b'}')
        };
        let body = &rest[at + "$(shell ".len()..];
        let mut depth = 1usize;
        let mut end = body.len();
        for (i, b) in body.bytes().enumerate() {
            if b == close.0 {
                depth += 1;
            } else if b == close.1 {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
        }
        out.push(body[..end].trim().to_string());
        rest = body.get(end..).unwrap_or("");
    }
    out
}

/// What `%` stands for when `goal` matches target pattern `pattern`
/// (`%.o` and `main.o`: `main`), or `None`.
fn stem<'a>(pattern: &str, goal: &'a str) -> Option<&'a str> {
    let (prefix, suffix) = pattern.split_once('%')?;
    if goal.len() <= prefix.len() + suffix.len() {
        return None;
    }
    goal.strip_prefix(prefix)?.strip_suffix(suffix)
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
        if out.len() >= MAX_TASK_LINES {
            cut();
            break;
        }
    }
    out
}

/// The lines task `name` runs, its dependencies first, with the config
/// file read (root-relative): `config` when given (relative to `dir`,
/// where the command runs), else `dir`'s `deno.json`, else `deno.jsonc`.
fn task(
    real_root: &Path,
    dir: &str,
    config: Option<&str>,
    name: &str,
    depth: usize,
) -> Vec<TaskLine> {
    let names: Vec<String> = match config {
        Some(c) => vec![c.to_string()],
        None => vec!["deno.json".into(), "deno.jsonc".into()],
    };
    let Some((rel, json)) = names.into_iter().find_map(|rel| {
        let rel = crate::core::module_maps::join_rel(dir, &rel)?;
        let text = super::imports::small_text(&real_root.join(&rel))?;
        Some((rel, jsonc(&text)?))
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut names = vec![(name.to_string(), depth)];
    let mut seen = vec![name.to_string()];
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
        let deps = entry.get("dependencies").and_then(|d| d.as_array());
        for dep in deps.into_iter().flatten().filter_map(|d| d.as_str()) {
            // A task depended on twice (a loop) is read once.
            if seen.iter().any(|s| s == dep) {
                continue;
            }
            if depth >= MAX_TASK_DEPTH || out.len() >= MAX_TASK_LINES {
                cut();
                break;
            }
            seen.push(dep.to_string());
            names.push((dep.to_string(), depth + 1));
        }
    }
    // Deno runs a task in its config file's folder.
    let folder = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    out.into_iter()
        .map(|(config, line)| TaskLine {
            config,
            dir: folder.clone(),
            line,
            named: true,
        })
        .collect()
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
                ("rules.mk", "sh tools/gen.sh"),
                // The compiler the makefile sets runs in built-in rules.
                ("Makefile", "cc"),
            ]
        );
        let read: Vec<&str> = lines
            .iter()
            .filter(|t| !t.named)
            .map(|t| t.config.as_str())
            .collect();
        assert_eq!(read, ["Makefile", "rules.mk"]);
        // No goal: the first target, read in order, includes included.
        let lines = task_lines(dir.path(), &shell("make"));
        assert!(
            lines.iter().any(|t| t.line == "sh tools/gen.sh"),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|t| t.line == "echo all"), "{lines:?}");
        assert!(
            !lines.iter().any(|t| t.line.contains("rm -rf")),
            "{lines:?}"
        );
    }

    #[test]
    fn npm_runs_the_script_with_its_pre_and_post_scripts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::write(
            dir.path().join("sub/package.json"),
            r#"{ "scripts": { "sum": "node sub/s.js" } }"#,
        )
        .unwrap();
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
            // Recheck 25: a folder option's value apart from it.
            (
                "npm --prefix . run -s sum",
                &["node tools/pre.js", "node tools/sum.js"],
            ),
            ("npm --prefix sub run sum", &["node sub/s.js"]),
            ("pnpm -C sub run sum", &["node sub/s.js"]),
            (
                "npm --loglevel silent run sum",
                &["node tools/pre.js", "node tools/sum.js"],
            ),
        ] {
            let lines = task_lines(dir.path(), &shell(command));
            let texts: Vec<&str> = lines
                .iter()
                .filter(|t| t.named)
                .map(|t| t.line.as_str())
                .collect();
            assert_eq!(texts, want, "{command}");
        }
        // The project's `.npmrc` is read (its values name what runs), and
        // a script's bare program is looked for in `node_modules/.bin`.
        std::fs::write(
            dir.path().join(".npmrc"),
            "node-options=--require ./tools/evil.js\n",
        )
        .unwrap();
        let read: Vec<(String, String)> = task_lines(dir.path(), &shell("npm t"))
            .into_iter()
            .filter(|t| !t.named)
            .map(|t| (t.config, t.line))
            .collect();
        assert_eq!(
            read,
            [
                (
                    ".npmrc".to_string(),
                    "--require ./tools/evil.js".to_string()
                ),
                (
                    "package.json".to_string(),
                    "node_modules/.bin/jest".to_string()
                )
            ]
        );
    }

    /// The named lines of `command` as (file read, folder run in, line),
    /// sorted.
    fn named_lines(root: &Path, command: &str) -> Vec<(String, String, String)> {
        let mut out: Vec<(String, String, String)> = task_lines(root, &shell(command))
            .into_iter()
            .filter(|t| t.named)
            .map(|t| (t.config, t.dir, t.line))
            .collect();
        out.sort();
        out
    }

    fn owned(lines: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
        let mut out: Vec<(String, String, String)> = lines
            .iter()
            .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
            .collect();
        out.sort();
        out
    }

    /// A goal's prerequisites are made by pattern rules (`%.o: %.c`, a
    /// static pattern rule, a chain of them) when no explicit rule makes
    /// them; the variables a prerequisite list names are expanded. Every
    /// pattern rule that matches counts: a file that appears later (a
    /// `.y` for `%.c: %.y`) would make make use it.
    #[test]
    fn make_runs_the_pattern_rules_its_goals_prerequisites_reach() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Makefile"),
            "OBJS = main.o\nOBJS += util.o\nDOCS := out/sum.txt\n\n\
             summary: $(DOCS) ${OBJS}\n\t@cat out/sum.txt\n\n\
             out/%.txt: notes/%.md\n\tpython3 tools/render.py $< > $@\n\n\
             $(OBJS): %.o: %.c\n\tsh tools/cc.sh $<\n\n\
             %.c: %.y\n\tsh tools/yacc.sh $<\n\n\
             %.h: %.txt\n\tsh tools/never.sh\n\n\
             clean:\n\trm -rf out\n",
        )
        .unwrap();
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "cat out/sum.txt"),
                ("Makefile", "", "python3 tools/render.py $< > $@"),
                ("Makefile", "", "sh tools/cc.sh $<"),
                ("Makefile", "", "sh tools/yacc.sh $<"),
            ])
        );
    }

    /// `$(MAKE) -C sub` (also `${MAKE}`, `make -C`, `cd sub && $(MAKE)`)
    /// in a recipe reads the sub-folder's makefile, its goals' recipes run
    /// in that folder, and its own `-C` is relative to it.
    #[test]
    fn make_follows_recursive_makes_into_sub_folders() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["docs", "api"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        std::fs::write(
            dir.path().join("Makefile"),
            "summary:\n\t$(MAKE) -C docs summary\n\tcd api && $(MAKE) gen\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("docs/Makefile"),
            "summary:\n\tpython3 ../tools/sum.py\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("api/makefile"),
            "gen:\n\t${MAKE} -C ../docs summary\n\tsh gen.sh\n",
        )
        .unwrap();
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "$(MAKE) -C docs summary"),
                ("Makefile", "", "cd api && $(MAKE) gen"),
                ("api/makefile", "api", "${MAKE} -C ../docs summary"),
                ("api/makefile", "api", "sh gen.sh"),
                ("docs/Makefile", "docs", "python3 ../tools/sum.py"),
            ])
        );
        let read: Vec<String> = task_lines(dir.path(), &shell("make summary"))
            .into_iter()
            .filter(|t| !t.named)
            .map(|t| t.config)
            .collect();
        let mut read = read;
        read.sort();
        assert_eq!(read, ["Makefile", "api/makefile", "docs/Makefile"]);
    }

    /// Makes that recurse without end (into ever deeper folders, into
    /// their own folder, through includes that include each other) stop.
    #[test]
    fn endless_recursive_makes_and_include_loops_stop() {
        let dir = tempfile::tempdir().unwrap();
        let mut folder = dir.path().to_path_buf();
        for _ in 0..40 {
            std::fs::write(
                folder.join("Makefile"),
                "all:\n\t$(MAKE) -C a\n\t$(MAKE) -C .\n",
            )
            .unwrap();
            folder = folder.join("a");
            std::fs::create_dir(&folder).unwrap();
        }
        let lines = task_lines(dir.path(), &shell("make"));
        let deepest = lines.iter().map(|t| t.dir.matches('a').count()).max();
        // The command's makefile is the root's, each sub-make's one folder
        // deeper, up to the bound.
        assert_eq!(deepest, Some(MAX_TASK_DEPTH), "{lines:?}");
        let loops = tempfile::tempdir().unwrap();
        std::fs::write(loops.path().join("Makefile"), "include a.mk\nall: x\n").unwrap();
        std::fs::write(loops.path().join("a.mk"), "include b.mk\n").unwrap();
        std::fs::write(
            loops.path().join("b.mk"),
            "include a.mk Makefile\nx:\n\techo x\n",
        )
        .unwrap();
        let lines = task_lines(loops.path(), &shell("make"));
        let read: Vec<&str> = lines
            .iter()
            .filter(|t| !t.named)
            .map(|t| t.config.as_str())
            .collect();
        assert_eq!(read, ["Makefile", "a.mk", "b.mk"]);
        assert!(lines.iter().any(|t| t.line == "echo x"), "{lines:?}");
    }

    /// A makefile built to blow up: a large variable named by thousands
    /// of rules, and thousands of pattern rules that
    /// all match every goal, each with many recipe lines. What is held
    /// stays bounded (expansion by a budget, goals and lines by their
    /// caps), and it ends quickly.
    #[test]
    fn makefile_bombs_stay_bounded() {
        let dir = tempfile::tempdir().unwrap();
        // 60 KB named by 20,000 rules: 1.2 GB once expanded (the
        // binary before the budget passed 9 GB and 2 minutes on it).
        let mut text = format!("A = {}\n", "x ".repeat(30_000));
        for i in 0..20_000 {
            text.push_str(&format!("t{i}: $(A)\n"));
        }
        let mut rules = Rules::default();
        rules.read("Makefile", &text);
        let held: usize = rules
            .rules
            .iter()
            .flat_map(|r| &r.prerequisites)
            .map(String::len)
            .sum();
        assert!(
            held <= MAX_EXPANDED + text.len(),
            "{held} bytes of prerequisites held"
        );

        let mut text = String::from("all: a.o\n");
        for i in 0..5_000 {
            text.push_str(&format!("%: %.{i}\n"));
            text.push_str(&"\techo x\n".repeat(64));
        }
        std::fs::write(dir.path().join("Makefile"), &text).unwrap();
        let words: Vec<String> = vec!["make".into()];
        let lines = make_recipes(dir.path(), "", &words, &mut MAX_MAKE_BYTES.clone());
        assert!(
            lines.len() <= MAX_TASK_LINES + MAX_MAKEFILES,
            "{}",
            lines.len()
        );
    }

    /// Makes that each read megabytes (one makefile read by many
    /// `$(MAKE) -f`) stop at a budget of bytes read for the command.
    #[test]
    fn the_makefiles_read_for_one_command_have_a_byte_budget() {
        let dir = tempfile::tempdir().unwrap();
        let big = format!(
            "x:\n\techo x\n{}",
            "# filler line of a large makefile\n".repeat(60_000)
        );
        let mut root = String::from("all:\n");
        for i in 0..24 {
            std::fs::write(dir.path().join(format!("m{i}.mk")), &big).unwrap();
            root.push_str(&format!("\t$(MAKE) -f m{i}.mk x\n"));
        }
        std::fs::write(dir.path().join("Makefile"), root).unwrap();
        let lines = task_lines(dir.path(), &shell("make"));
        let read = lines.iter().filter(|t| !t.named).count();
        assert!(read > 1, "{lines:?}");
        assert!(
            read * big.len() <= MAX_MAKE_BYTES + big.len(),
            "{read} makefiles read"
        );
    }

    /// A task line that names a runner thousands of times (`make make
    /// …`, `yarn x yarn x …`) runs a few: each `make` read the makefile
    /// and took every word after it as a goal (quadratic), each `yarn x`
    /// gave three lines.
    #[test]
    fn a_line_repeating_a_runner_runs_a_few() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Makefile"), "all:\n\techo all\n").unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            r#"{ "scripts": { "prex": "echo pre", "x": "echo x" } }"#,
        )
        .unwrap();
        let words: Vec<String> = vec!["make".to_string(); 200_000];
        let lines = make_recipes(dir.path(), "", &words, &mut MAX_MAKE_BYTES.clone());
        let read = lines.iter().filter(|t| !t.named).count();
        assert_eq!(read, MAX_MAKEFILES);
        let words: Vec<String> = ["yarn", "x"]
            .repeat(100_000)
            .into_iter()
            .map(String::from)
            .collect();
        let lines = npm_scripts(dir.path(), "", &words);
        assert_eq!(lines.len(), 2 * MAX_TASK_LINES);
    }

    /// A recipe's variables are put in (`$(GEN)` runs what `GEN` holds),
    /// and what the makefile sets `SHELL` (every recipe runs through it)
    /// and the programs of make's built-in rules (`CC` for `%.o: %.c`) to
    /// runs too.
    #[test]
    fn make_runs_what_its_variables_hold() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Makefile"),
            "GEN = python3 tools/gen.py\nSHELL := tools/sh.sh\nCC = sh tools/cc.sh\n\
             summary: a.o\n\t@$(GEN) > $@\n",
        )
        .unwrap();
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "python3 tools/gen.py > $@"),
                ("Makefile", "", "sh tools/cc.sh"),
                ("Makefile", "", "tools/sh.sh"),
            ])
        );
    }

    /// Session 27: a recipe runs with make's input, the file summarized;
    /// a shell or interpreter given no script there runs it. A variable's
    /// value naming a program (`PYTHON = python3`) is no such line.
    #[test]
    fn a_recipe_reading_its_program_from_input_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("Makefile"), text).unwrap();
        let refused = || {
            refusals().iter().any(|r| {
                r.contains("with no script") && r.contains("a recipe of Makefile")
                    || r.contains(".SHELLFLAGS")
                    || r.contains("makefile read from its input")
            })
        };
        for text in [
            "summary:\n\t@sh\n",
            "summary:\n\t@sed 's/x/y/' | python3\n",
            "RUN = bash\nsummary:\n\t$(RUN)\n",
            "summary: x\n\t@echo\nx:\n\tsh -s\n",
            "summary:\n\t@sh /dev/stdin\n",
            "X := $(shell sh)\nsummary:\n\t@true\n",
            // Recheck 28: make's own shell, flags that read the input.
            "summary:\n\t@$(SHELL)\n",
            ".SHELLFLAGS := -s\nsummary:\n\t@true\n",
            "summary:\n\t@$(MAKE) -f - x\n",
        ] {
            write(text);
            named_lines(dir.path(), "make summary");
            assert!(refused(), "{text}: {:?}", refusals());
        }
        for text in [
            "PYTHON ?= python3\nSHELL := /bin/bash\nsummary:\n\t@$(PYTHON) tools/s.py\n",
            "summary:\n\t@sh tools/s.sh\n",
            "summary:\n\t@python3 - < tools/s.py\n",
            "summary:\n\t@cat\n",
            ".SHELLFLAGS := -ec\nsummary:\n\t@sh tools/s.sh\n",
        ] {
            write(text);
            named_lines(dir.path(), "make summary");
            assert!(!refused(), "{text}: {:?}", refusals());
        }
    }

    /// What make runs beyond a rule's own lines: a `define` block a recipe
    /// names, either branch of a conditional (which one make takes is not
    /// known), and every `$(shell …)` (run as make reads, whatever the
    /// goal). Each was missed: editing the script it names ran unreviewed.
    #[test]
    fn make_runs_define_blocks_both_branches_and_shell_calls() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Makefile"),
            "VERSION := $(shell sh tools/version.sh --short)\n\
             ifeq ($(MODE),fast)\nTOOL = tools/fast.py\nelse ifdef SLOW\n\
             TOOL = tools/slow.py\nelse\nTOOL = tools/plain.py\nendif\n\
             define RUN_ALL =\n\tpython3 tools/prep.py\n\tpython3 $(TOOL)\nendef\n\
             AFTER = tools/after.sh\n\
             summary:\n\t$(RUN_ALL)\n\tsh $(AFTER)\n\
             clean:\n\trm -rf out\n",
        )
        .unwrap();
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                (
                    "Makefile",
                    "",
                    "python3 tools/prep.py\npython3 tools/fast.py tools/slow.py tools/plain.py"
                ),
                ("Makefile", "", "sh tools/after.sh"),
                ("Makefile", "", "sh tools/version.sh --short"),
            ])
        );
        assert_eq!(
            named_lines(dir.path(), "make clean"),
            owned(&[
                ("Makefile", "", "rm -rf out"),
                ("Makefile", "", "sh tools/version.sh --short"),
            ])
        );
        // `$<` runs the prerequisite: the goal's own (a rule written for
        // it), each goal's where a pattern rule runs it; `$(CC) -c $<`
        // stays one line however many objects.
        std::fs::write(
            dir.path().join("Makefile"),
            "summary: tools/gen.py data.csv\n\t@python3 $< $(word 2,$^)\n\
             summary: a.o b.o report.txt\n\
             %.o: %.c\n\t$(CC) -c $< -o $@\n\
             %.txt: tools/%.sh\n\tsh $<\n",
        )
        .unwrap();
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "$(CC) -c $< -o $@"),
                ("Makefile", "", "python3 tools/gen.py data.csv"),
                ("Makefile", "", "sh tools/report.sh"),
            ])
        );
        // `make -I mk` finds an include in `mk/` when it is not beside.
        std::fs::create_dir_all(dir.path().join("mk")).unwrap();
        std::fs::write(
            dir.path().join("mk/rules.mk"),
            "summary:\n\tsh tools/inc.sh\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("Makefile"), "include rules.mk\n").unwrap();
        for command in [
            "make -I mk summary",
            "make -Imk summary",
            "make --include-dir=mk summary",
        ] {
            assert_eq!(
                named_lines(dir.path(), command),
                owned(&[("mk/rules.mk", "", "sh tools/inc.sh")]),
                "{command}"
            );
        }
        // Lines ended by `\\` are one line to the shell.
        std::fs::write(
            dir.path().join("Makefile"),
            "go:\n\tcase $$(go version) in \\\n\t  *1.[0-5].*) sh tools/old.sh ;; \\\n\tesac\n",
        )
        .unwrap();
        let lines = named_lines(dir.path(), "make go");
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line = &lines[0].2;
        assert!(
            line.starts_with("case ")
                && line.contains(") sh tools/old.sh ;;")
                && line.ends_with(" esac"),
            "{line}"
        );
        assert_eq!(
            shell_calls("X := $(shell a $(b) c) ${shell d}"),
            ["a $(b) c", "d"]
        );
        assert_eq!(shell_calls("$(shell unclosed"), ["unclosed"]);
    }

    /// What make's functions make a recipe run: `$(call RUN,x)` the
    /// script `RUN` makes of `x`, `$(foreach …)` each script of a list,
    /// rules a `$(eval $(call TEMPLATE,…))` makes, and a prerequisite
    /// found through `vpath`/`VPATH`. Each was missed: the line named no
    /// script (`$(call` and `RUN,tools/x.sh)` are no paths), or the wrong
    /// one (`python3 gen.py` where make runs `tools/gen.py`).
    #[test]
    fn make_runs_what_its_functions_make_and_vpath_finds() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("Makefile"), text).unwrap();
        write(
            "RUN = sh $(1) --quiet\nSCRIPTS = tools/a.sh tools/b.sh\n\
             summary:\n\t@$(call RUN,tools/x.sh)\n\t$(foreach s,$(SCRIPTS),sh $(s);)\n",
        );
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "sh tools/a.sh; sh tools/b.sh;"),
                ("Makefile", "", "sh tools/x.sh --quiet"),
            ])
        );
        write(
            "PROGRAMS = summary report\n\
             define PROGRAM_template =\n$(1): $$($(1)_DEPS)\n\tpython3 tools/$(1).py $$@\nendef\n\
             summary_DEPS = gen.txt\n\
             $(foreach p,$(PROGRAMS),$(eval $(call PROGRAM_template,$(p))))\n\
             gen.txt:\n\tsh tools/gen.sh\n",
        );
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "python3 tools/summary.py $@"),
                ("Makefile", "", "sh tools/gen.sh"),
            ])
        );
        std::fs::create_dir_all(dir.path().join("tools")).unwrap();
        std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
        std::fs::write(dir.path().join("tools/gen.py"), "").unwrap();
        std::fs::write(dir.path().join("scripts/run.sh"), "").unwrap();
        write(
            "vpath %.py scripts tools\nVPATH = other:scripts\n\
             summary: gen.py run.sh\n\tpython3 $<\n\tsh $(word 2,$^)\n",
        );
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "python3 tools/gen.py"),
                ("Makefile", "", "sh scripts/run.sh"),
            ])
        );
        // A line that is a call (`$(error …)`) is no rule, whatever
        // colons its message holds (micropython's ports/unix), and
        // variables naming each other through both branches of a
        // conditional end.
        write(
            "ifdef VARIANT_DIR\nVARIANT ?= $(notdir $(VARIANT_DIR:/=))\nelse\n\
             VARIANT ?= standard\nVARIANT_DIR ?= variants/$(VARIANT)\nendif\n\
             $(error Invalid VARIANT specified: $(VARIANT_DIR))\n\
             summary: $(VARIANT_DIR)/x\n\tsh tools/a.sh\n",
        );
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[("Makefile", "", "sh tools/a.sh")])
        );
        assert!(!was_cut());
        // An include's name is expanded; one by a pattern is refused;
        // missing ones (`-include $(DEPS)`
        // before a build) are no makefiles read.
        std::fs::write(dir.path().join("mk.mk"), "summary:\n\tsh tools/mk.sh\n").unwrap();
        let objects: Vec<String> = (0..300).map(|i| format!("o{i}.o")).collect();
        write(&format!(
            "M = mk\nOBJS = {}\ninclude $(M).mk\n-include $(OBJS:.o=.d)\n",
            objects.join(" ")
        ));
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[("mk.mk", "", "sh tools/mk.sh")])
        );
        assert!(!was_cut());
        write("include m*.mk\n");
        assert_eq!(named_lines(dir.path(), "make summary"), owned(&[]));
        assert!(
            refusals()
                .iter()
                .any(|r| r.contains("includes the makefiles a pattern matches")),
            "{:?}",
            refusals()
        );
        // A variable each branch of a conditional sets, inside a word:
        // the line once for each value; and bash's BASH_ENV.
        write(
            "ifeq ($(wildcard tools/flag),)\nS = a\nelse\nS = b\nendif\n\
             export BASH_ENV = tools/env.sh\nsummary:\n\t@sh tools/$(S).sh\n",
        );
        assert_eq!(
            named_lines(dir.path(), "make summary"),
            owned(&[
                ("Makefile", "", "sh tools/a b.sh"),
                ("Makefile", "", "sh tools/a.sh"),
                ("Makefile", "", "sh tools/b.sh"),
                ("Makefile", "", "tools/env.sh"),
            ])
        );
        // What is left unexpanded by a bound, or cannot be known, cuts
        // the reading where a goal reaches it.
        for text in [
            "X = $(call X)$(call X)\nsummary:\n\t$(call X)\n",
            "summary:\n\tsh $(file <list.txt)\n",
            "summary:\n\t$(eval x: ; sh y.sh)\n",
            "include $(shell ls)\n",
        ] {
            write(text);
            task_lines(dir.path(), &shell("make summary"));
            assert!(was_cut(), "{text}");
        }
        write("X = $(call X)$(call X)\nsummary:\n\t$(call X)\nclean:\n\trm -f $(word 1,$^)\n");
        task_lines(dir.path(), &shell("make clean"));
        assert!(!was_cut());
    }

    /// An included makefile is read where it is included: what it sets
    /// names the next include (`include $(TOP)/py/py.mk` after `include
    /// mkenv.mk` sets `TOP`), `MAKEFILE_LIST` lists the files read so far,
    /// a line ended by `\\` goes on, and a variable nothing sets is empty
    /// (micropython's ports: each was refused, or read nothing).
    #[test]
    fn make_reads_an_include_where_it_stands() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "ports/unix/Makefile",
            "include ../../py/mkenv.mk\ninclude $(TOP)/py/py.mk\n\
             $(foreach d, $(USER_C_MODULES), \\\n  $(eval include $(d)/x.mk) \\\n)\n\
             summary:\n\tsh $(TOP)/tools/$(TOOL)\n",
        );
        // `:=` expands as the line is read, `MAKEFILE_LIST` growing after.
        write(
            "py/mkenv.mk",
            "THIS_MAKEFILE := $(lastword $(MAKEFILE_LIST))\n\
             TOP := $(patsubst %/py/mkenv.mk,%,$(THIS_MAKEFILE))\ninclude $(TOP)/py/verbose.mk\n",
        );
        write("py/verbose.mk", "Q = @\n");
        write(
            "py/py.mk",
            "THIS_MAKEFILE = $(lastword $(MAKEFILE_LIST))\n\
             include $(dir $(THIS_MAKEFILE))tool.mk\n",
        );
        write("py/tool.mk", "TOOL = run.sh\n");
        assert_eq!(
            named_lines(dir.path(), "make -C ports/unix summary"),
            owned(&[("ports/unix/Makefile", "ports/unix", "sh ../../tools/run.sh")])
        );
        assert!(!was_cut());
    }

    /// Makefiles made of make's and the shell's pieces in any order (a
    /// `define` never closed, `$(shell` never closed, a `case` without
    /// `esac`, continuations at the end) are read without a panic.
    #[test]
    fn any_makefile_is_read_without_a_panic() {
        use proptest::prelude::*;
        const PIECES: &[&str] = &[
            "\n",
            "\t",
            " ",
            "\\\n",
            "summary:",
            "all: summary",
            "%.o: %.c",
            "X = ",
            "X += ",
            "X := ",
            "define X",
            "define X =",
            "endef",
            "ifeq ($(X),1)",
            "ifdef X",
            "else",
            "else ifeq (a,b)",
            "endif",
            "$(shell ",
            "${shell ",
            ")",
            "}",
            "(",
            "$(X)",
            "${X}",
            "$$",
            "case ",
            " in ",
            "*)",
            "a|b)",
            ";;",
            "esac",
            "include ",
            "-include x.mk",
            "sh tools/a.sh",
            "python3 t.py",
            "@",
            "-",
            "'",
            "\"",
            "*.c",
            "[ab]",
            "{a,b}",
            "é",
            "$(call X,",
            "$(foreach v,",
            "$(eval ",
            "$(if ",
            "$(patsubst %,",
            "$(word 2,$^)",
            "$(1)",
            ",",
            "$<",
            "vpath % ",
            "VPATH = ",
            "define T\n$(1):\n\t$$(X)\nendef\n",
        ];
        let dir = tempfile::tempdir().unwrap();
        let piece = proptest::sample::select(PIECES).prop_map(str::to_string);
        let text = proptest::collection::vec(piece, 0..80).prop_map(|v| v.concat());
        // `CTXCURATE_FUZZ_CASES` as the integration suite's properties.
        let cases = std::env::var("CTXCURATE_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(64);
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        runner
            .run(&text, |text| {
                std::fs::write(dir.path().join("Makefile"), &text).unwrap();
                std::fs::write(dir.path().join("x.mk"), &text).unwrap();
                for command in ["make summary", "make -I . all", "make"] {
                    let _ = task_lines(dir.path(), &shell(command));
                }
                let _ = shell_calls(&text);
                let _ = crate::core::trust::shell_globs::shell_patterns(&text);
                Ok(())
            })
            .unwrap();
    }
}
