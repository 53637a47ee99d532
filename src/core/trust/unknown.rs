//! What a shell command or script runs that cannot be known before it
//! runs, so no consent can cover it: a script chosen by what a command
//! prints (`sh $(cat tools/which)`, ``python3 `cat tools/n` ``,
//! `. <(cat x)`), or by a variable set that way or read from input
//! (`R=$(cat tools/cmd); $R`, `read R < f; sh "$R"`). Each is a refusal,
//! as a pattern is (`trust/scripts.rs`): the file that runs is decided
//! when it runs, after the review. A command held in a variable set to a
//! literal (`R="sh tools/w.sh"; $R`) is known: its words are covered as
//! the script's own (`imports/literal.rs`).
//!
//! The substitutions that name the script's own folder or the root
//! (`"$(dirname "$0")"/w.sh`, `$(cd "$(dirname "$0")" && pwd)`,
//! `$(git rev-parse --show-toplevel)`) choose no file and are allowed.
//! Only what decides the program or its script counts: `echo $(date)` or
//! `python3 tools/s.py --since "$(date)"` runs what was reviewed.
//!
//! A `git` command that runs the repository's hooks (`commit`,
//! `checkout`, `push`, …) is refused the same way: its hooks are what
//! `.git/hooks` holds when it runs, which no review covers.
//!
//! This file reads statements and what each runs; the words themselves
//! come from `shell_words`, whether an expansion is known from
//! `expansions`, which git runs hooks from `git_hooks`, what a line sets
//! for git from `git_settings`, and the scripts `xargs` and `find` are
//! handed from `input_scripts` (split in consent round 9, no change of
//! behaviour).

use std::collections::HashMap;

mod awk_programs;
mod expansions;
mod git_hooks;
mod git_settings;
mod input_scripts;
mod shell_words;

use expansions::{is_interpreter, unknown_in, unset_in};
pub use git_hooks::{GIT_WITH_VALUE, git_runs_hooks, git_runs_hooks_in_own_env};
use git_settings::{built_assignment, git_setting, refuse_built_name};
use input_scripts::{find_chooses, program_from_input, xargs_chooses};
use shell_words::{assignment, statements, unquote};
pub(super) use shell_words::{parameter_words, substitutions};

/// What a refusal of this kind starts with in the list of patterns a
/// command cannot be trusted for (the rest says why).
pub const MARK: &str = "cannot be known before it runs: ";

/// How deep shells inside shells are read (`bash -c "sh -c '…'"`).
const MAX_DEPTH: usize = 4;

/// The most statements read from one text.
const MAX_STATEMENTS: usize = 20_000;

/// Shells, and the commands that run a file or a line of shell.
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "busybox",
];

/// Interpreters whose first argument that is no option is the script.
const INTERPRETERS: &[&str] = &[
    "python", "node", "nodejs", "deno", "bun", "ruby", "perl", "php", "lua", "luajit", "Rscript",
    "tsx", "ts-node", "pwsh", "tclsh", "awk", "gawk", "make", "gmake", "npx", "uv",
];

/// Words before a command that leave it the command.
const PREFIXES: &[&str] = &[
    "if", "then", "do", "else", "elif", "while", "until", "!", "time", "exec", "command",
    "builtin", "nohup", "env", "nice", "timeout", "{", "stdbuf", "setsid", "ionice", "unbuffer",
];

/// The refusals for shell text `text` (a command line or a script), each
/// [`MARK`] and why, in order, each once.
pub fn shell(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    read(text, 0, &mut HashMap::new(), &mut out);
    out
}

/// The refusal of a command's own line (`text`) that runs a shell or
/// interpreter given no script (recheck 26: `summary_command = "sh"`
/// runs the file it summarizes; `sed … | python3` what the pipe hands
/// it). Read on the command's line only: in a script, a program's input is
/// the script's own, and an argv rebuilt from code is no line.
pub fn program_read_from_input(text: &str) -> Option<String> {
    program_read_from_input_at(text, 0)
}

/// [`program_read_from_input`] inside `depth` shells' `-c` lines (`sh -c
/// "exec python3"`).
fn program_read_from_input_at(text: &str, depth: usize) -> Option<String> {
    let mut vars = HashMap::new();
    for words in statements(text).into_iter().take(MAX_STATEMENTS) {
        let (at, _) = before_command(&words, &mut vars, &mut Vec::new());
        let Some(command) = words.get(at) else {
            continue;
        };
        let plain = unquote(command);
        let name = plain.rsplit('/').next().unwrap_or(&plain);
        let args = &words[at + 1..];
        // `sh -c "exec python3"`: the line's own; `xargs sh -c`: the input
        // is the line.
        let mut line_of = args.iter().skip_while(|a| !is_c_option(a)).skip(1);
        let shell = SHELLS.contains(&name);
        let line = line_of.next();
        let by_xargs = name == "xargs"
            && args.last().is_some_and(|a| is_c_option(a))
            && args
                .iter()
                .any(|a| SHELLS.contains(&unquote(a).rsplit('/').next().unwrap_or("")));
        let inner = match (shell, line) {
            (true, Some(line)) if depth < MAX_DEPTH => {
                program_read_from_input_at(&unquote(line), depth + 1)
            }
            _ => None,
        };
        if inner.is_some() {
            return inner;
        }
        if program_from_input(name, args) || by_xargs {
            return Some(format!(
                "{MARK}runs `{name}` with no script: its program is what it reads on its input \
                 (the file summarized, or what a pipe hands it)"
            ));
        }
    }
    None
}

/// Whether `name` names a program's own input (`-`, `/dev/stdin`,
/// `/proc/self/fd/0`, however its slashes are written).
pub fn names_own_input(name: &str) -> bool {
    input_scripts::names_input(name)
}

/// Whether shell word `word` is a `-c` option (`-c`, `-ec`).
fn is_c_option(word: &str) -> bool {
    let word = unquote(word);
    word.len() > 1 && word.starts_with('-') && !word.starts_with("--") && word.contains('c')
}

/// [`shell`] of a script the command runs (a parent may set what it
/// names by a variable), with [`program_read_from_input`]: its input is
/// the command's (`exec python3` in it runs the file summarized: recheck
/// 26).
pub fn script(text: &str) -> Vec<String> {
    let mut vars = HashMap::from([(IN_A_SCRIPT.to_string(), Value::Known)]);
    let mut out = Vec::new();
    read(text, 0, &mut vars, &mut out);
    out.extend(program_read_from_input(text));
    out
}

/// The variables shell text `text` leaves set to what is known only as
/// it runs, each with how (`RUNNER` of `export RUNNER=$(cat f)`): a
/// script it sources, or a child it starts, may run them.
pub fn unknown_variables(text: &str) -> Vec<(String, String)> {
    let mut vars = HashMap::new();
    read(text, 0, &mut vars, &mut Vec::new());
    let mut out: Vec<(String, String)> = vars
        .into_iter()
        .filter_map(|(name, value)| match value {
            Value::Unknown(how) => Some((name, how)),
            Value::Known => None,
        })
        .collect();
    out.sort();
    out
}

/// [`shell`] of `text` with the variables `inherited` set as they are
/// where it runs ([`unknown_variables`] of the scripts that run it or
/// that it sources).
pub fn shell_inheriting(text: &str, inherited: &[(String, String)]) -> Vec<String> {
    let mut vars: HashMap<String, Value> = inherited
        .iter()
        .map(|(name, how)| (name.clone(), Value::Unknown(how.clone())))
        .collect();
    vars.insert(IN_A_SCRIPT.to_string(), Value::Known);
    let mut out = Vec::new();
    read(text, 0, &mut vars, &mut out);
    out
}

/// The words of shell text as its programs get them (quotes taken
/// out), its statements one after another.
pub fn words(text: &str) -> Vec<String> {
    statements(text)
        .into_iter()
        .flatten()
        .map(|w| unquote(&w))
        .collect()
}

/// Whether file `rel` is an awk program (`by_awk`: run with awk, or by
/// its extension or its `#!`) that runs commands of its own
/// ([`awk_programs`]).
pub fn awk_file_runs_commands(rel: &str, text: &str, by_awk: bool) -> bool {
    let first = text.lines().next().unwrap_or("");
    let awk = by_awk || rel.ends_with(".awk") || (first.starts_with("#!") && first.contains("awk"));
    awk && awk_programs::program_runs_commands(text)
}

/// What is known of a variable's value where a script uses it.
#[derive(Clone)]
enum Value {
    Known,
    /// Set from what a command printed or from input: how.
    Unknown(String),
}

/// Read `text` at shell depth `depth`, with the variables set so far.
fn read(text: &str, depth: usize, vars: &mut HashMap<String, Value>, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    for words in statements(text).into_iter().take(MAX_STATEMENTS) {
        statement(&words, depth, vars, out);
    }
}

/// Note `why` once.
fn refuse(out: &mut Vec<String>, why: String) {
    let line = format!("{MARK}{why}");
    if !out.contains(&line) {
        out.push(line);
    }
}

/// Read the words before a statement's command (assignments, `env -i`,
/// `timeout 5`): where the command is, and whether it runs with an
/// environment of its own (`env -i`, a `GIT_CONFIG_…=` assignment, or
/// inside a line run so).
fn before_command(
    words: &[String],
    vars: &mut HashMap<String, Value>,
    out: &mut Vec<String>,
) -> (usize, bool) {
    let mut at = 0;
    // `env -i` or `GIT_CONFIG_…=` before the command: a git it runs does
    // not get the summary's hooks-off settings.
    let mut own_env = vars.contains_key(OWN_ENV);
    while let Some(word) = words.get(at) {
        if let Some((name, value)) = assignment(word) {
            own_env |= name.starts_with("GIT_CONFIG");
            git_setting(name, false, out);
            loader_variable(name, value, vars, out);
            let known = match unknown_in(value, vars) {
                Some(how) => Value::Unknown(how),
                None => Value::Known,
            };
            vars.insert(name.to_string(), known);
        } else if let Some(name) = built_assignment(word) {
            refuse_built_name(&name, out);
        } else if PREFIXES.contains(&unquote(word).rsplit('/').next().unwrap_or("")) {
            // `env -i`, `timeout 5`, `nice -n 5`: their options and values.
            while words
                .get(at + 1)
                .is_some_and(|w| w.starts_with('-') || w.chars().all(|c| c.is_ascii_digit()))
            {
                at += 1;
                let option = unquote(&words[at]);
                own_env |= unquote(word) == "env"
                    && matches!(option.as_str(), "-i" | "-" | "--ignore-environment");
                // `env -u NAME`: the name is the option's.
                if unquote(word) == "env" && option == "-u" {
                    at += 1;
                    if let Some(name) = words.get(at) {
                        git_setting(&unquote(name), true, out);
                    }
                }
            }
        } else {
            break;
        }
        at += 1;
    }
    (at, own_env)
}

/// Refuse an assignment of a variable that makes a program load or run
/// a file ([`super::git_env::LOADERS`]: `NODE_OPTIONS`, `BASH_ENV`,
/// `LD_PRELOAD`, `RUBYLIB`, `PYTHONPATH`, `PHPRC`, …, consent round 12)
/// whose value is known only as it runs (`NODE_OPTIONS="--require $(cat
/// f)"`): what it loads is decided then.
fn loader_variable(name: &str, value: &str, vars: &HashMap<String, Value>, out: &mut Vec<String>) {
    // Where Lua's `require` looks: not read here (recheck 25), so a
    // module added in a folder it names would run unreviewed.
    if name.starts_with("LUA_PATH") || name.starts_with("LUA_CPATH") {
        refuse(
            out,
            format!("sets `{name}` (where Lua's `require` looks), which is not reviewed"),
        );
    }
    if super::git_env::LOADERS.contains(&name)
        && let Some(how) = unknown_in(value, vars)
    {
        refuse(
            out,
            format!("sets `{name}` (what its program loads first) to a value that {how}"),
        );
    }
}

/// `for f in …; do`: the loop variable is unknown when its list is
/// (a pattern, a command's output) or, with no list, when the positional
/// parameters are (`set -- tools/*`).
fn loop_variable(args: &[String], vars: &mut HashMap<String, Value>) {
    let listed = args.iter().any(|w| w == "in");
    let list = args.iter().skip_while(|w| *w != "in").skip(1);
    let how = list
        .filter_map(|w| unknown_in(w, vars).or_else(|| matched_by(w)))
        .next()
        .or_else(|| match vars.get("@") {
            Some(Value::Unknown(how)) if !listed => Some(how.clone()),
            _ => None,
        });
    if let Some(var) = args.first() {
        let value = how.map_or(Value::Known, Value::Unknown);
        vars.insert(unquote(var.trim_end_matches(';')), value);
    }
}

/// `node --test` with no file or folder: its runner finds the test files
/// by patterns as it runs (recheck 25).
fn finds_tests_by_pattern(name: &str, args: &[String]) -> bool {
    ["node", "nodejs"].contains(&name)
        && args.iter().any(|a| unquote(a) == "--test")
        && args
            .iter()
            .all(|a| a.starts_with('-') || a.starts_with(['>', '<', '2', '&']))
}

/// Read one statement (its words as written, quotes kept).
fn statement(
    words: &[String],
    depth: usize,
    vars: &mut HashMap<String, Value>,
    out: &mut Vec<String>,
) {
    let (at, own_env) = before_command(words, vars, out);
    let Some(command) = words.get(at) else {
        return;
    };
    if let Some(how) = unknown_in(command, vars).or_else(|| unset_in(command, vars, true)) {
        refuse(out, format!("runs a command that {how}"));
        return;
    }
    let args = &words[at + 1..];
    let plain = unquote(command);
    if own_env
        && plain.rsplit('/').next() == Some("git")
        && let Some(why) = git_runs_hooks_in_own_env(args)
    {
        refuse(out, why);
        return;
    }
    let name = plain.rsplit('/').next().unwrap_or(&plain);
    if own_env && (SHELLS.contains(&name) || is_interpreter(name)) {
        own_env_child(name, args, depth, vars, out);
        return;
    }
    match name {
        "read" | "mapfile" | "readarray" => {
            for arg in args.iter().filter(|a| !a.starts_with('-')) {
                vars.insert(unquote(arg), Value::Unknown(format!("is read by `{name}`")));
            }
        }
        "for" | "select" => loop_variable(args, vars),
        // `set -- tools/conf.d/*`: the positional parameters a pattern
        // makes (recheck 25).
        "set" => {
            if let Some(how) = args.iter().find_map(|w| matched_by(w)) {
                vars.insert("@".to_string(), Value::Unknown(how));
            }
        }
        "unset" => {
            for arg in args.iter().filter(|a| !a.starts_with('-')) {
                git_setting(&unquote(arg), true, out);
            }
        }
        "export" | "local" | "declare" | "typeset" | "readonly" => {
            for name in args.iter().filter_map(|a| built_assignment(a)) {
                refuse_built_name(&name, out);
            }
            for (var, value) in args.iter().filter_map(|a| assignment(a)) {
                git_setting(var, false, out);
                loader_variable(var, value, vars, out);
                let known = unknown_in(value, vars).map_or(Value::Known, Value::Unknown);
                vars.insert(var.to_string(), known);
            }
        }
        "eval" => {
            if let Some(how) = args.iter().find_map(|a| unknown_in(a, vars)) {
                refuse(out, format!("runs with `eval` a line that {how}"));
            }
            let line: Vec<String> = args.iter().map(|a| unquote(a)).collect();
            read(&line.join(" "), depth + 1, vars, out);
        }
        "source" | "." => script_arg(name, args, 0, vars, out),
        "git" => {
            if let Some(why) = git_runs_hooks(args) {
                refuse(out, why);
            }
        }
        "xargs" => {
            if let Some(program) = xargs_chooses(args) {
                refuse(
                    out,
                    format!("runs with `xargs {program}` the files its input names"),
                );
            }
        }
        "find" => {
            if let Some(program) = find_chooses(args) {
                refuse(
                    out,
                    format!("runs with `find -exec {program}` the files `find` finds"),
                );
            }
        }
        _ if SHELLS.contains(&name) => shell_args(name, args, depth, vars, out),
        _ if finds_tests_by_pattern(name, args) => refuse(
            out,
            "runs `node --test`, whose runner finds its test files by patterns as it runs"
                .to_string(),
        ),
        _ if awk_programs::runs_commands(name, args) => refuse(
            out,
            format!("runs an `{name}` program that runs commands, which are not read"),
        ),
        _ if is_interpreter(name) => {
            // `deno run x`, `uv run x`, `bun run x`: past the subcommand.
            let skip = usize::from(
                ["deno", "bun", "uv", "npx"].contains(&name)
                    && args.first().is_some_and(|a| !a.starts_with('-')),
            );
            script_arg(name, args, skip, vars, out);
        }
        _ => {}
    }
}

/// Set in a shell's variables while a script the command runs (not its
/// own line) is read: a variable it never sets may be a parent's.
const IN_A_SCRIPT: &str = "\u{0}in-a-script";

/// Set in a shell's variables while a line run with an environment of
/// its own is read (`env -i sh -c '…'`): no variable has this name.
const OWN_ENV: &str = "\u{0}own-env";

/// A shell or interpreter run with an environment of its own (`env -i
/// sh …`, round 8): a git its script runs does not get the summary's
/// hooks-off settings. A shell's `-c` line is read as run that way too;
/// a script (which no reader here reads so) is refused.
fn own_env_child(
    name: &str,
    args: &[String],
    depth: usize,
    vars: &mut HashMap<String, Value>,
    out: &mut Vec<String>,
) {
    if SHELLS.contains(&name) {
        let mut inner = vars.clone();
        inner.insert(OWN_ENV.to_string(), Value::Known);
        if dash_c(name, args, depth, &mut inner, out) {
            return;
        }
    }
    refuse(
        out,
        format!(
            "runs `{name}` with an environment of its own, without the hooks-off settings a \
             summary command gets: a git its script runs may run the repository's hooks"
        ),
    );
}

/// The arguments of a shell: the line of its `-c`, read in turn, or its
/// script, which must be known.
fn shell_args(
    name: &str,
    args: &[String],
    depth: usize,
    vars: &mut HashMap<String, Value>,
    out: &mut Vec<String>,
) {
    if !dash_c(name, args, depth, &mut vars.clone(), out) {
        script_arg(name, args, 0, vars, out);
    }
}

/// A shell's `-c` line (among its leading options), read in turn with
/// `vars`: whether there was one.
fn dash_c(
    name: &str,
    args: &[String],
    depth: usize,
    vars: &mut HashMap<String, Value>,
    out: &mut Vec<String>,
) -> bool {
    let mut rest = args.iter();
    while let Some(option) = rest.next() {
        if !option.starts_with('-') || option == "--" {
            return false;
        }
        if !option.starts_with("--") && option.contains('c') {
            if let Some(line) = rest.next() {
                if let Some(how) = unknown_in(line, vars) {
                    refuse(out, format!("runs with `{name} -c` a line that {how}"));
                }
                read(&unquote(line), depth + 1, vars, out);
            }
            return true;
        }
    }
    false
}

/// The words of a program's arguments up to its script (the first that
/// is no option, after `skip` subcommand words): each must be known.
fn script_arg(
    name: &str,
    args: &[String],
    skip: usize,
    vars: &HashMap<String, Value>,
    out: &mut Vec<String>,
) {
    for arg in args.iter().skip(skip) {
        let how = unknown_in(arg, vars)
            .or_else(|| unset_in(arg, vars, false))
            .or_else(|| matched_by(arg));
        if let Some(how) = how {
            refuse(out, format!("runs with `{name}` a file that {how}"));
            return;
        }
        if !arg.starts_with('-') {
            return;
        }
    }
}

/// How a word is a pattern the shell expands into file names as it
/// runs (`tools/conf.d/*`, `[a-z]*`, `tools/lib*`): whatever file a
/// checkout adds that matches is among them (recheck 25: in a script,
/// such a pattern was refused only when it ended in a script's
/// extension).
fn matched_by(word: &str) -> Option<String> {
    let pattern = super::shell_globs::shell_patterns(word)
        .into_iter()
        .next()?;
    Some(format!(
        "is each file the pattern `{}` matches",
        shown_pattern(&pattern)
    ))
}

/// A pattern as [`matched_by`] shows it.
fn shown_pattern(pattern: &str) -> String {
    pattern.chars().take(60).collect()
}

/// Whether `refusal` is [`matched_by`]'s for one of `patterns`, which are
/// refused already as patterns (each said once).
pub fn repeats_a_pattern<'p>(
    refusal: &str,
    mut patterns: impl Iterator<Item = &'p String>,
) -> bool {
    patterns.any(|p| refusal.ends_with(&format!("the pattern `{}` matches", shown_pattern(p))))
}

#[cfg(test)]
mod tests;
