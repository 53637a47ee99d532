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

use std::collections::HashMap;

use super::git_env;

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
    "builtin", "nohup", "env", "nice", "timeout", "{",
];

/// The refusals for shell text `text` (a command line or a script), each
/// [`MARK`] and why, in order, each once.
pub fn shell(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    read(text, 0, &mut HashMap::new(), &mut out);
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
            let known = match unknown_in(value, vars) {
                Some(how) => Value::Unknown(how),
                None => Value::Known,
            };
            vars.insert(name.to_string(), known);
        } else if let Some(name) = built_assignment(word) {
            refuse_built_name(&name, out);
        } else if PREFIXES.contains(&unquote(word).as_str()) {
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
    if let Some(how) = unknown_in(command, vars) {
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
        "for" | "select" => {
            let list = args.iter().skip_while(|w| *w != "in").skip(1);
            let how = list.filter_map(|w| unknown_in(w, vars)).next();
            if let Some(var) = args.first() {
                let value = how.map_or(Value::Known, Value::Unknown);
                vars.insert(unquote(var), value);
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

/// Set in a shell's variables while a line run with an environment of
/// its own is read (`env -i sh -c '…'`): no variable has this name.
const OWN_ENV: &str = "\u{0}own-env";

/// Refuse setting (or, `removed`, removing) a variable through which a
/// script changes what its git reads ([`git_env`]). `GIT_DIR`,
/// `GIT_COMMON_DIR` and `GIT_WORK_TREE` set in shell text are refused
/// too (consent round 9): a git run after them, here or in a script
/// that inherits them, reads a repository (its config, its aliases) or
/// a work tree no review found (round 8 let them be, reading only a
/// command's own `GIT_DIR=x git …` in `tasks/git_alias.rs`).
fn git_setting(name: &str, removed: bool, out: &mut Vec<String>) {
    let why = match removed {
        true => git_env::why_removed(name),
        false => git_env::why_set(name),
    };
    if let Some(why) = why {
        refuse(out, why);
    }
}

/// `NAME=value` whose name is built as it runs (`"$n"=x`, `GIT_$k=x`,
/// `"${p}_HOME=x"`, round 9): the name as written, when it may be one
/// of git's ([`git_env::may_be_git_s`]: `${p}_HOME` may not).
fn built_assignment(word: &str) -> Option<String> {
    let plain = unquote(word);
    let (name, _) = plain.split_once('=')?;
    let name = name.strip_suffix('+').unwrap_or(name);
    if !name.contains(['$', '`']) {
        return None;
    }
    // The written parts: what is left once each expansion is cut out.
    let mut parts = vec![String::new()];
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' if chars.peek() == Some(&'{') => {
                chars.by_ref().find(|&d| d == '}');
                parts.push(String::new());
            }
            '$' if chars.peek() == Some(&'(') => {
                let mut depth = 0usize;
                for d in chars.by_ref() {
                    match d {
                        '(' => depth += 1,
                        ')' if depth <= 1 => break,
                        ')' => depth -= 1,
                        _ => {}
                    }
                }
                parts.push(String::new());
            }
            '$' => {
                while chars
                    .next_if(|d| d.is_ascii_alphanumeric() || *d == '_')
                    .is_some()
                {}
                parts.push(String::new());
            }
            '`' => {
                chars.by_ref().find(|&d| d == '`');
                parts.push(String::new());
            }
            c => parts.last_mut().into_iter().for_each(|p| p.push(c)),
        }
    }
    parts.retain(|p| !p.is_empty());
    // `[ "$a" = "$b" ]` reads no name; a name holds no blank.
    let name_like = !parts.iter().any(|p| p.contains(char::is_whitespace));
    (name_like && git_env::may_be_git_s(&parts)).then(|| name.to_string())
}

/// Refuse setting a variable whose name `name` is built as it runs.
fn refuse_built_name(name: &str, out: &mut Vec<String>) {
    refuse(
        out,
        format!(
            "sets a variable whose name is built as it runs (`{name}`), which may be one of \
             git's (`GIT_DIR`, `GIT_CONFIG_…`) for the programs it runs"
        ),
    );
}

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

/// The git commands whose work runs the repository's hooks
/// (`pre-commit`, `post-checkout`, `post-merge`, `pre-push`,
/// `pre-rebase`, `reference-transaction`, …): what `.git/hooks` or
/// `core.hooksPath` holds when they run. Reading commands (`log`, `diff`,
/// `show`, `status`, `branch --show-current`) are not among them.
const RUNS_HOOKS: &[&str] = &[
    "commit",
    "merge",
    "pull",
    "rebase",
    "am",
    "checkout",
    "switch",
    "push",
    "cherry-pick",
    "revert",
    "fetch",
    "clone",
    "worktree",
    "gc",
    "maintenance",
    "send-email",
    "update-ref",
    "reset",
    // They write the index, which runs `post-index-change` (round 7);
    // a summary command runs with hooks off (`core::summary::command`),
    // but not a git the script runs with an environment of its own.
    "add",
    "rm",
    "mv",
    "restore",
    "update-index",
    "read-tree",
    "bisect",
    "filter-branch",
    "sparse-checkout",
];

/// Why `git` given `args` (quotes kept or not) runs the repository's
/// hooks, when it does ([`RUNS_HOOKS`]): for the shell text read here and
/// the argvs and lines a Python or Node script runs itself.
pub fn git_runs_hooks(args: &[String]) -> Option<String> {
    if let Some(setting) = hooks_setting(args) {
        return Some(format!(
            "runs git with `{setting}`, which names the programs git runs as hooks"
        ));
    }
    let sub = git_subcommand(args)?;
    RUNS_HOOKS.contains(&sub.as_str()).then(|| {
        format!(
            "runs `git {sub}`, which runs the repository's hooks (`.git/hooks`, \
             `core.hooksPath`) as they are then"
        )
    })
}

/// A setting given on git's command line (`-c k=v`, `--config-env`)
/// that names where hooks or the fsmonitor program are, or one known
/// only as it runs (it may): it overrides the summary's hooks-off
/// environment.
fn hooks_setting(args: &[String]) -> Option<String> {
    let mut words = args.iter().map(|a| unquote(a));
    while let Some(word) = words.next() {
        let setting = match word.as_str() {
            "-c" | "--config-env" => words.next()?,
            "-C" | "--git-dir" | "--work-tree" | "--namespace" => {
                words.next();
                continue;
            }
            w if w.starts_with("--config-env=") => w["--config-env=".len()..].to_string(),
            w if !w.starts_with('-') => return None,
            _ => continue,
        };
        let lower = setting.to_ascii_lowercase();
        if lower.contains("hookspath")
            || lower.contains("fsmonitor")
            || setting.contains(['$', '<', '`'])
        {
            return Some(setting);
        }
    }
    None
}

/// The git subcommands that write neither the index nor a ref (so run
/// no hook) whatever the environment: all a git run with an environment
/// of its own (`env -i git …`, Python's `env={…}`) may run, for such a
/// git does not get the summary's hooks-off settings (round 7).
const WRITES_NOTHING: &[&str] = &[
    "log",
    "show",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "cat-file",
    "config",
    "version",
    "help",
    "rev-list",
    "blame",
    "grep",
    "shortlog",
    "name-rev",
    "merge-base",
    "show-ref",
    "for-each-ref",
    "var",
];

/// Why `git` given `args`, run with an environment of its own, may run
/// the repository's hooks: any subcommand but [`WRITES_NOTHING`] (`git
/// status` writes the index, `git branch x` a ref), and what
/// [`git_runs_hooks`] refuses.
pub fn git_runs_hooks_in_own_env(args: &[String]) -> Option<String> {
    if let Some(why) = git_runs_hooks(args) {
        return Some(why);
    }
    let sub = git_subcommand(args)?;
    (!WRITES_NOTHING.contains(&sub.as_str())).then(|| {
        format!(
            "runs `git {sub}` with an environment of its own, without the hooks-off \
             settings a summary command gets: it may write the index or a ref and run the \
             repository's hooks (`post-index-change`, `reference-transaction`) as they are then"
        )
    })
}

/// The subcommand `git` runs: its first word that is no option nor an
/// option's value (`git -C sub -c k=v commit` → `commit`).
fn git_subcommand(args: &[String]) -> Option<String> {
    const VALUED: &[&str] = &[
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
    ];
    let mut rest = args.iter().map(|a| unquote(a));
    while let Some(word) = rest.next() {
        if VALUED.contains(&word.as_str()) {
            rest.next();
        } else if !word.starts_with('-') {
            return Some(word);
        }
    }
    None
}

/// Whether `program` run with `args` runs a script that is not written
/// there: one that comes in place of `placeholder` (`xargs -I{}`, `find
/// -exec … {}`), or, when the input's names are `appended` (plain
/// `xargs`), a shell or interpreter given no script of its own.
fn chooses_script(
    program: &str,
    args: &[String],
    placeholder: Option<&str>,
    appended: bool,
) -> bool {
    let holds = |word: &str| placeholder.is_some_and(|p| !p.is_empty() && word.contains(p));
    // Its words stop at a redirection (`xargs python3 < list`).
    let redirection = |w: &String| {
        w.trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with(['<', '>'])
    };
    let args = &args[..args.iter().position(redirection).unwrap_or(args.len())];
    let plain = unquote(program);
    let name = plain.rsplit('/').next().unwrap_or(&plain);
    if holds(program) {
        return true;
    }
    let shell = SHELLS.contains(&name);
    if !shell && !is_interpreter(name) {
        return false;
    }
    if shell && args.iter().any(|a| holds(a)) {
        // `sh -c 'python3 {}'`: the line itself runs what comes in.
        return true;
    }
    let mut options = args.iter().take_while(|a| a.starts_with('-'));
    if shell && options.any(|o| !o.starts_with("--") && o.contains('c')) {
        return false;
    }
    match args.iter().find(|a| !a.starts_with('-')) {
        Some(script) => holds(script),
        None => appended,
    }
}

/// The program `xargs` runs (its first word that is no option nor an
/// option's value), when it runs a script its input names (`xargs
/// python3 < list`, `xargs -I{} sh {}`); `None` for a program that runs
/// no file it is given (`xargs rm`, `xargs python3 tools/s.py`).
fn xargs_chooses(args: &[String]) -> Option<String> {
    // Options of GNU and BSD xargs that take a value as the next word.
    const VALUED: &[&str] = &[
        "-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "-J", "-R", "-S",
    ];
    let mut placeholder = None;
    let mut at = 0;
    while let Some(word) = args.get(at) {
        let plain = unquote(word);
        if plain == "--" {
            at += 1;
            break;
        }
        if !plain.starts_with('-') {
            break;
        }
        if plain == "-I" || plain == "-J" {
            placeholder = args.get(at + 1).map(|p| unquote(p));
        } else if let Some(p) = plain
            .strip_prefix("-I")
            .or_else(|| plain.strip_prefix("--replace="))
        {
            placeholder = Some(p.to_string());
        } else if plain == "-i" || plain == "--replace" {
            placeholder = Some("{}".into());
        }
        at += if VALUED.contains(&plain.as_str()) {
            2
        } else {
            1
        };
    }
    let program = args.get(at)?;
    let appended = placeholder.is_none();
    chooses_script(program, &args[at + 1..], placeholder.as_deref(), appended)
        .then(|| program.clone())
}

/// The program `find … -exec PROGRAM … {} ;` (or `-execdir`, `-ok`,
/// `-okdir`) runs, when it runs the files `find` finds as scripts: files
/// a pattern matches, which a new file can be.
fn find_chooses(args: &[String]) -> Option<String> {
    let words: Vec<String> = args.iter().map(|a| unquote(a)).collect();
    let mut at = 0;
    while at < words.len() {
        if !["-exec", "-execdir", "-ok", "-okdir"].contains(&words[at].as_str()) {
            at += 1;
            continue;
        }
        let program = words.get(at + 1)?;
        let end = words[at + 2..]
            .iter()
            .position(|w| w == ";" || w == "\\;" || w == "+")
            .map_or(words.len(), |n| at + 2 + n);
        if chooses_script(program, &words[at + 2..end], Some("{}"), false) {
            return Some(program.clone());
        }
        at = end;
    }
    None
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
        if let Some(how) = unknown_in(arg, vars) {
            refuse(out, format!("runs with `{name}` a file that {how}"));
            return;
        }
        if !arg.starts_with('-') {
            return;
        }
    }
}

/// How a word (as written) is decided only as it runs: a command's
/// output that names no folder of the script's, or a variable set so.
fn unknown_in(word: &str, vars: &HashMap<String, Value>) -> Option<String> {
    for body in substitutions(word) {
        // `$(MAKE)`, `$(CC)`: a make variable a recipe line still holds
        // (past a bound), not a command (no program is named in capitals).
        let make_variable = body.chars().any(|c| c.is_ascii_uppercase())
            && body
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if !make_variable && !names_own_folder(&body, vars) {
            let shown: String = body.chars().take(60).collect();
            return Some(format!("is what `{shown}` prints"));
        }
    }
    for var in variables(word) {
        if let Some(Value::Unknown(how)) = vars.get(&var) {
            return Some(format!("`${var}` holds, which {how}"));
        }
    }
    None
}

/// Whether a substitution's command (`dirname "$0"`, `pwd`, `cd "$(dirname
/// "$0")" && pwd`, `git rev-parse --show-toplevel`, `realpath "$0"`)
/// prints a folder of the script's or the root, with nothing unknown in it.
fn names_own_folder(body: &str, vars: &HashMap<String, Value>) -> bool {
    let body = body.trim();
    if finds_a_program(body) {
        return true;
    }
    if body.starts_with("git rev-parse --show-") {
        return true;
    }
    let first = body.split_whitespace().next().unwrap_or("");
    let folder = ["dirname", "pwd", "cd", "realpath", "readlink", "basename"].contains(&first);
    folder
        && !body.contains('<')
        && body
            .split(['&', ';', '|'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .all(|s| {
                let cmd = s.split_whitespace().next().unwrap_or("");
                [
                    "dirname", "pwd", "cd", "realpath", "readlink", "basename", "echo",
                ]
                .contains(&cmd)
            })
        && unknown_in(body, vars).is_none()
}

/// Whether `name` is one of [`INTERPRETERS`], with a version
/// (`python3.11`, `ruby3.2`).
fn is_interpreter(name: &str) -> bool {
    INTERPRETERS.iter().any(|i| {
        name.strip_prefix(i)
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    })
}

/// Whether a substitution's command only prints where a program of a
/// name is found (`command -v X`, `type -P X`, `which X`, cut with
/// `head`, `tail`, `|| true`): running what it prints is running the
/// program by its name, which is what was reviewed.
fn finds_a_program(body: &str) -> bool {
    let mut parts = body
        .split(['&', ';', '|'])
        .map(str::trim)
        .filter(|s| !s.is_empty());
    // The first part finds the program; `head`/`tail` only cut what it
    // printed (`head -1 tools/list` alone prints a file's line: recheck
    // 14, F7), with options and counts, no file.
    let finds = parts.next().is_some_and(|s| {
        let words: Vec<&str> = s.split_whitespace().collect();
        matches!(
            words.as_slice(),
            ["command", "-v", ..] | ["type", "-P" | "-p", ..] | ["which", ..]
        )
    });
    finds
        && parts.all(|s| {
            let words: Vec<&str> = s.split_whitespace().collect();
            match words.as_slice() {
                ["true"] => true,
                ["head" | "tail", options @ ..] => options
                    .iter()
                    .all(|o| o.starts_with('-') || o.chars().all(|c| c.is_ascii_digit())),
                _ => false,
            }
        })
}

/// The bodies of the command substitutions of a word (`$(…)`, `` `…` ``,
/// `<(…)`), outermost first; `$((…))` is arithmetic, no command.
pub(super) fn substitutions(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut single = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            single = !single;
        } else if !single && c == '`' {
            let end = chars[i + 1..].iter().position(|&d| d == '`');
            let end = end.map_or(chars.len(), |e| i + 1 + e);
            out.push(chars[i + 1..end].iter().collect());
            i = end;
        } else if !single
            && (c == '$' || c == '<' || c == '>')
            && chars.get(i + 1) == Some(&'(')
            && !(c == '$' && chars.get(i + 2) == Some(&'('))
        {
            let end = closing(&chars, i + 1);
            out.push(chars[i + 2..end].iter().collect());
            i = end;
        }
        i += 1;
    }
    out
}

/// The words a parameter expansion of `word` may take instead of the
/// variable's value (`tools/w.sh` of `${S:-tools/w.sh}`, `${S-…}`,
/// `${S:=…}`, `${S=…}`, `${S:+…}`, `${S+…}`), as written, outermost
/// first: unless the environment says otherwise, that word is what runs.
pub(super) fn parameter_words(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < chars.len() {
        if chars[i] != '$' || chars[i + 1] != '{' {
            i += 1;
            continue;
        }
        let end = closing_brace(&chars, i + 1);
        let body: String = chars[i + 2..end].iter().collect();
        let name_end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let rest = &body[name_end..];
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        if name_end > 0
            && let Some(value) = rest.strip_prefix(['-', '=', '+'])
        {
            out.push(value.to_string());
        }
        i += 2;
    }
    out
}

/// The index of the `}` closing the `{` at `open` (or the end).
fn closing_brace(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

/// The index of the `)` closing the `(` at `open` (or the end).
fn closing(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

/// The names of the variables a word expands (`$R`, `${R}`, `${R:-x}`),
/// outside single quotes.
fn variables(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut single = false;
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => single = !single,
            '$' if !single => {
                let braced = chars.peek() == Some(&'{');
                if braced {
                    chars.next();
                }
                let mut name = String::new();
                while let Some(&n) = chars.peek() {
                    if !(n.is_ascii_alphanumeric() || n == '_') {
                        break;
                    }
                    name.push(n);
                    chars.next();
                }
                if !name.is_empty() {
                    out.push(name);
                }
            }
            _ => {}
        }
    }
    out
}

/// `NAME=value` (or `NAME+=value`): the name and the value as written.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let name = name.strip_suffix('+').unwrap_or(name);
    // `a["$i"]=1`: an array's element.
    let name = match name.split_once('[') {
        Some((array, _)) if name.ends_with(']') => array,
        _ => name,
    };
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((name, value))
}

/// A word with its quotes and backslashes taken out, as the program gets it.
fn unquote(word: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => out.extend(chars.next()),
            (Some(_), c) => out.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, c) => out.push(c),
        }
    }
    out
}

/// The statements of shell text, each its words as written (quotes and
/// substitutions kept whole): split at newlines, `;`, `&`, `|`, and a
/// subshell's or a function's parentheses, outside quotes and
/// substitutions; comments left out.
fn statements(text: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    // Inside `[[ … ]]`.
    let mut test = false;
    // The delimiters of the here-documents that start on this line.
    let mut heredocs: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let end_word = |word: &mut String, words: &mut Vec<String>| {
        if !word.is_empty() {
            words.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') => {
                quote = None;
                word.push(c);
            }
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(c);
                word.extend(chars.next());
            }
            (Some('`'), '`') if depth == 0 => {
                quote = None;
                word.push(c);
            }
            (Some('"'), '"') if depth == 0 => {
                quote = None;
                word.push(c);
            }
            // `<<EOF` (not `<<<`): the lines up to `EOF` are data.
            (None, '<') if depth == 0 && chars.peek() == Some(&'<') => {
                chars.next();
                if chars.peek() == Some(&'<') {
                    chars.next();
                    continue;
                }
                let delimiter = heredoc_delimiter(&mut chars);
                if !delimiter.is_empty() {
                    heredocs.push(delimiter);
                }
            }
            // `NAME=(a b c)`: an array's words, one assignment.
            (None, '(') if word.ends_with('=') => {
                word.push(c);
                depth += 1;
            }
            (_, '$' | '<' | '>') if chars.peek() == Some(&'(') => {
                word.push(c);
                word.extend(chars.next());
                depth += 1;
            }
            (_, '(') if depth > 0 => {
                depth += 1;
                word.push(c);
            }
            (_, ')') if depth > 0 => {
                depth -= 1;
                word.push(c);
            }
            (Some(_), c) => word.push(c),
            (None, _) if depth > 0 => word.push(c),
            (None, '\'' | '"' | '`') => {
                quote = Some(c);
                word.push(c);
            }
            (None, '#') if word.is_empty() => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            (None, c) if c.is_whitespace() && c != '\n' => {
                end_word(&mut word, &mut words);
                test = match words.last().map(String::as_str) {
                    Some("[[") => true,
                    Some("]]") => false,
                    _ => test,
                };
            }
            // Inside `[[ … ]]`, `||`, `&&` and parentheses join tests.
            (None, c) if test && "&|()".contains(c) => end_word(&mut word, &mut words),
            (None, c) if "\n;&|()".contains(c) => {
                test = false;
                if c == '\n' {
                    skip_heredocs(&mut chars, &mut heredocs);
                }
                end_word(&mut word, &mut words);
                if !words.is_empty() {
                    out.push(std::mem::take(&mut words));
                }
            }
            (None, '}') if word.is_empty() => {}
            (None, c) => word.push(c),
        }
    }
    end_word(&mut word, &mut words);
    if !words.is_empty() {
        out.push(words);
    }
    out
}

/// The delimiter of a here-document after its `<<` (`-EOF`, `'EOF'`,
/// `"EOF"`: `EOF`).
fn heredoc_delimiter(chars: &mut std::iter::Peekable<std::str::Chars>) -> String {
    let mut delimiter = String::new();
    while chars
        .next_if(|&n| n == '-' || n == ' ' || n == '\t')
        .is_some()
    {}
    while let Some(&n) = chars.peek() {
        if n.is_whitespace() || ";&|<>()".contains(n) {
            break;
        }
        if !"'\"\\".contains(n) {
            delimiter.push(n);
        }
        chars.next();
    }
    delimiter
}

/// Past the bodies of the here-documents `heredocs` (the line after
/// their start): each up to the line holding its delimiter alone.
fn skip_heredocs(chars: &mut std::iter::Peekable<std::str::Chars>, heredocs: &mut Vec<String>) {
    for delimiter in std::mem::take(heredocs) {
        loop {
            let line: String = chars.by_ref().take_while(|&c| c != '\n').collect();
            if line.trim() == delimiter || chars.peek().is_none() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> bool {
        !shell(text).is_empty()
    }

    #[test]
    fn a_git_that_may_run_hooks_is_refused_and_one_in_its_own_environment_more_so() {
        for text in [
            "git add x",
            "git -C d -c core.hooksPath=h status",
            "git -c core.fsmonitor=m diff",
            "git -c \"$K\" log",
            "env -i PATH=/bin git status",
            "env -u GIT_CONFIG_COUNT git branch x",
            "GIT_CONFIG_PARAMETERS= git diff",
        ] {
            assert!(refused(text), "{text}");
        }
        for text in [
            "git status",
            "git diff --stat",
            "git branch --show-current",
            "git -c color.ui=never log",
            "env -i PATH=/bin git log -1",
            "env A=1 git status",
        ] {
            assert!(!refused(text), "{text}");
        }
    }

    /// Round 8: a shell or interpreter run with an environment of its
    /// own, and a script that sets git's settings variables itself.
    #[test]
    fn a_child_in_its_own_environment_and_git_s_settings_variables_are_refused() {
        for text in [
            "env -i PATH=/bin sh tools/w.sh",
            "env -i python3 tools/w.py",
            "env -i sh -c 'git status'",
            "env - bash -c \"cd x && git branch y\"",
            "export GIT_CONFIG_PARAMETERS=\"'core.hookspath'='h'\"\ngit status",
            "GIT_CONFIG_COUNT=0\ngit status",
            "unset GIT_CONFIG_COUNT; git status",
            "GIT_EXEC_PATH=tools git log",
            "export GIT_CONFIG_GLOBAL=tools/gitconfig",
            "env GIT_CONFIG_SYSTEM=x git log",
            "env -u GIT_CONFIG_KEY_0 git log",
            // Round 9: a repository or work tree named in shell text,
            // and a variable's name built as it runs.
            "GIT_DIR=other.git git log",
            "export GIT_DIR=/elsewhere/.git\ngit log",
            "env GIT_COMMON_DIR=x git status",
            "GIT_WORK_TREE=w git diff",
            "export \"$n=x\"; git log",
            "export GIT_$k=x",
            "env \"GIT_${k}=x\" git log",
            "declare -x \"$(cat tools/n)\"=x",
        ] {
            assert!(refused(text), "{text}");
        }
        for text in [
            "env -i sh -c 'git log -1'",
            "env -i PATH=/bin git log",
            "sh tools/w.sh",
            "unset GIT_DIR; git status",
            "export \"${prefix}_STUB_PLAN\"=x",
            "[ \"$a\" = \"$b\" ] && git log",
            "env -u GIT_DIR git status",
            "echo \"$GIT_DIR\"",
        ] {
            assert!(!refused(text), "{text}");
        }
    }

    #[test]
    fn a_script_chosen_by_a_command_s_output_cannot_be_known() {
        for text in [
            "sh $(cat tools/which)",
            "python3 `cat tools/n`",
            "bash -c \"sh $(cat tools/w)\"",
            ". <(cat tools/lib)",
            "R=$(cat tools/cmd); $R",
            "R=`cat tools/cmd`\nsh \"$R\"",
            "read -r R < tools/cmd; sh $R",
            "for f in $(cat tools/list); do . \"$f\"; done",
            "$(cat tools/cmd) --flag",
            "eval \"$(cat tools/cmd)\"",
            "deno run $(cat tools/which)",
            "if true; then sh $(cat x); fi",
            "cat <<'EOS' > f\nx\nEOS\nsh $(cat tools/which)",
            "sh \"$(cd $(cat tools/d) && pwd)/w.sh\"",
            // Recheck 14, F7: a line of a list file, and xargs or find
            // handing an interpreter the names they read or find.
            "python3 \"$(head -1 tools/list.txt)\"",
            "python3 $(tail -n 1 tools/list.txt)",
            "sh $(command -v x | head -1 tools/list)",
            "xargs python3 < tools/list.txt",
            "cat tools/list.txt | xargs -n 1 python3",
            "xargs -I{} sh -c 'python3 {}' < tools/list.txt",
            "xargs -a tools/list.txt -L1 bash",
            "xargs -I % % < tools/cmds",
            "find tools -name '*.py' -exec python3 {} \\;",
            "git commit -qm summary",
            "git -C sub -c user.name=x checkout main",
            "cd tools && git push origin HEAD",
            "find . -name 'run*.sh' -execdir sh {} +",
        ] {
            assert!(refused(text), "{text}");
        }
    }

    #[test]
    fn what_names_the_script_s_own_folder_or_is_data_is_known() {
        for text in [
            "sh \"$(dirname \"$0\")\"/w.sh",
            "HERE=$(cd \"$(dirname \"$0\")\" && pwd)\n. \"$HERE/lib.sh\"",
            "ROOT=$(git rev-parse --show-toplevel); python3 \"$ROOT/tools/s.py\"",
            "echo $(date) > out.txt",
            "python3 tools/s.py --since \"$(date)\"",
            "V=$(git describe); echo $V",
            "R=\"sh tools/w.sh\"; $R",
            "echo '$(cat x)'; sh tools/w.sh # $(cat y)",
            "x=$((1 + 2)); sh tools/w.sh",
            "exec \"$@\"",
            "${PYTHON:-python3} tools/s.py",
            "$(MAKE) -C sub",
            "if [[ -z \"$v\" || \"$v\" == x ]]; then echo; fi",
            "read -r v < f; if [[ -z \"$v\" || \"$v\" == \\#* ]]; then :; fi",
            "IFS=: vs=(${V:-$(pyenv-version-name -f)})\nfor v in \"${vs[@]}\"; do echo \"$v\"; done",
            "R=$(type -P readlink)\n$R -f x",
            "p=$(command -v \"tool-$1\" || true)\nexec \"$p\" \"$@\"",
            "for i in $(names); do seen[\"$i\"]=1; done",
            "make_shims $(list --executables)",
            "cat <<EOS\n( (\"$(x)\" -split ' ') )\nEOS\nsh tools/w.sh",
            "P=$(command -v python3 | head -n 1); $P tools/s.py",
            "git ls-files | xargs wc -l",
            "xargs -0 rm -f < tools/stale",
            "find . -name '*.pyc' -exec rm {} +",
            "find tools -exec python3 tools/s.py {} \\;",
            "xargs python3 tools/s.py < tools/list.txt",
            "git log --oneline -5",
            "git -C sub diff --stat HEAD~1",
            "git branch --show-current; git status --short",
            "xargs -I{} python3 tools/s.py --file {} < tools/list.txt",
        ] {
            assert!(!refused(text), "{text}: {:?}", shell(text));
        }
    }
}
