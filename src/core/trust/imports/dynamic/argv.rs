//! A program a Python script runs itself by an argv or a shell line it
//! computes (`subprocess.run(["sh", os.environ["R"]])`,
//! `subprocess.call([sys.executable, name])`, `os.execv(x, …)`,
//! `os.system(f"sh {name}")`): what runs is decided only as the script
//! runs, a refusal. A literal, or a name bound only to literals, is known
//! (the literal readers cover the file it names); a computed argument of
//! a program that runs no script (`["git", "log", ref]`) runs no project
//! file and is let be. Text, not a parse: more refusals, never fewer.

mod hooks;
mod indirect;
mod sinks;

pub(in crate::core::trust::imports) use sinks::{Defined, MAX_SINKS, Sink, sink_calls};

pub(super) use hooks::{argv_refusals, inherits, line_refusals, own_env_line};

use super::py_names::{self, Names};
use super::{Bound, MAX_CALLS, arguments, literal, shown};
use indirect::Called;

/// How a call hands over what it runs.
#[derive(Clone, Copy)]
enum Form {
    /// An argv (program first), or a lone program, or with
    /// `shell=True` a shell line: the argument at this index.
    Argv(usize),
    /// A shell line at this index.
    Shell(usize),
    /// The program's path at the first index, an argv (its first item
    /// the name shown, `argv[0]`) at the second.
    PathArgv(usize, usize),
    /// The program's path at the first index, the argv's items as the
    /// call's arguments from the second on (`argv[0]` first when `true`).
    PathSpread(usize, usize, bool),
}

/// The calls read, each preceded by no name character (`os.` and
/// `subprocess.` are part of the text matched).
const CALLS: &[(&str, Form)] = &[
    ("subprocess.run(", Form::Argv(0)),
    ("subprocess.call(", Form::Argv(0)),
    ("check_call(", Form::Argv(0)),
    ("check_output(", Form::Argv(0)),
    ("Popen(", Form::Argv(0)),
    ("pty.spawn(", Form::Argv(0)),
    ("os.system(", Form::Shell(0)),
    ("os.popen(", Form::Shell(0)),
    ("getoutput(", Form::Shell(0)),
    ("getstatusoutput(", Form::Shell(0)),
    ("create_subprocess_shell(", Form::Shell(0)),
    ("create_subprocess_exec(", Form::PathSpread(0, 1, false)),
    ("os.execv(", Form::PathArgv(0, 1)),
    ("os.execve(", Form::PathArgv(0, 1)),
    ("os.execvp(", Form::PathArgv(0, 1)),
    ("os.execvpe(", Form::PathArgv(0, 1)),
    ("os.posix_spawn(", Form::PathArgv(0, 1)),
    ("os.posix_spawnp(", Form::PathArgv(0, 1)),
    ("os.spawnv(", Form::PathArgv(1, 2)),
    ("os.spawnve(", Form::PathArgv(1, 2)),
    ("os.spawnvp(", Form::PathArgv(1, 2)),
    ("os.spawnvpe(", Form::PathArgv(1, 2)),
    ("os.execl(", Form::PathSpread(0, 1, true)),
    ("os.execle(", Form::PathSpread(0, 1, true)),
    ("os.execlp(", Form::PathSpread(0, 1, true)),
    ("os.execlpe(", Form::PathSpread(0, 1, true)),
    ("os.spawnl(", Form::PathSpread(1, 2, true)),
    ("os.spawnle(", Form::PathSpread(1, 2, true)),
    ("os.spawnlp(", Form::PathSpread(1, 2, true)),
    ("os.spawnlpe(", Form::PathSpread(1, 2, true)),
];

/// Programs that run a script (or code) their arguments name.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "python", "python2", "python3", "pypy", "pypy3", "node",
    "nodejs", "deno", "bun", "tsx", "ts-node", "ruby", "perl", "php", "lua", "luajit", "env",
];

/// How deep a name bound to a list, or `env`'s program, is followed.
const MAX_DEPTH: usize = 4;

/// What a Python file runs by a computed argv: the lines that run a
/// program or script known only as they run, and the functions that
/// hand one of their parameters over as an argv or shell line (shell
/// sinks: their callers' arguments are read as that argv or line).
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::core::trust::imports) struct Runs {
    pub(in crate::core::trust::imports) unknown: Vec<String>,
    pub(in crate::core::trust::imports) sinks: Vec<Sink>,
    /// Whether it calls a sink that runs a shell line (its strings are
    /// then shell lines).
    pub(in crate::core::trust::imports) hands_a_shell: bool,
    /// What a known argv or shell line runs that no review covers (a
    /// git command that runs the repository's hooks, a shell line's
    /// `xargs sh`; `trust/unknown.rs`): why, and the call's line.
    pub(in crate::core::trust::imports) refusals: Vec<(String, String)>,
}

/// The module each call of [`CALLS`] written without one belongs to.
const MODULE_OF: &[(&str, &str)] = &[
    ("check_call", "subprocess"),
    ("check_output", "subprocess"),
    ("Popen", "subprocess"),
    ("getoutput", "subprocess"),
    ("getstatusoutput", "subprocess"),
    ("create_subprocess_shell", "asyncio"),
    ("create_subprocess_exec", "asyncio"),
];

/// The calls read in `code`: [`CALLS`], the names its imports give
/// them (`from subprocess import run as r` → `r(`, `import subprocess as
/// sp` → `sp.run(`), and those it reaches otherwise ([`indirect`]), each
/// with whether it is a bare name (then `obj.r(` is another function);
/// and the places of a program-running module's function chosen by a
/// computed name.
fn calls(code: &str) -> (Vec<Called>, indirect::Chosen) {
    let mut out: Vec<Called> = CALLS
        .iter()
        .map(|(call, form)| Called::new(call.to_string(), *form, false))
        .collect();
    let mut aliases: Vec<(String, String)> = Vec::new();
    for import in py_names::imports(code) {
        if import.name.is_none() && import.local != import.module {
            aliases.push((import.local.clone(), import.module.clone()));
        }
        for (call, form) in CALLS {
            let name = call.trim_end_matches('(');
            let (module, bare) = match name.split_once('.') {
                Some(split) => split,
                None => match MODULE_OF.iter().find(|(n, _)| *n == name) {
                    Some((_, module)) => (*module, name),
                    None => continue,
                },
            };
            if import.module != module {
                continue;
            }
            let added = match import.name.as_deref() {
                None if name.contains('.') && import.local != module => {
                    (format!("{}.{bare}(", import.local), false)
                }
                Some("*") if name.contains('.') => (format!("{bare}("), true),
                Some(taken) if taken == bare && import.local != name => {
                    (format!("{}(", import.local), true)
                }
                _ => continue,
            };
            if !out.iter().any(|c| c.call == added.0) {
                out.push(Called::new(added.0, *form, added.1));
            }
        }
    }
    let chosen = indirect::add(code, &aliases, &mut out);
    // `run = subprocess.run`, `sh = os.system`, `p = sp.Popen`, `run =
    // getattr(sp, "run")`: a name bound to one of those (twice over:
    // `r = run`).
    for _ in 0..2 {
        for line in code.lines().take(MAX_LINES) {
            let Some((name, value)) = line.trim().split_once('=') else {
                continue;
            };
            let (name, value) = (name.trim(), value.trim());
            let dotted = value.split('.').all(super::is_identifier)
                || out.iter().any(|c| c.call.strip_suffix('(') == Some(value));
            if !super::is_identifier(name) || !dotted {
                continue;
            }
            let same = |call: &str| {
                let called = call.trim_end_matches('(');
                called == value || !called.contains('.') && value.ends_with(&format!(".{called}"))
            };
            let Some(form) = out.iter().find(|c| same(&c.call)).map(|c| c.form) else {
                continue;
            };
            let call = format!("{name}(");
            if !out.iter().any(|c| c.call == call) {
                out.push(Called::new(call, form, true));
            }
        }
    }
    indirect::add_partials(code, &mut out);
    (out, chosen)
}

/// The most lines of a file read for names bound to a call.
const MAX_LINES: usize = 50_000;

/// The places of `call` in `code` that call it: not a longer name's end
/// (`my_run(`), nor its definition, nor for a `bare` name a method's
/// (`obj.run(`).
fn call_sites<'a>(code: &'a str, call: &'a str, bare: bool) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(call)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let before = code[..at].chars().next_back();
            !(before.is_some_and(|c| c.is_alphanumeric() || c == '_' || (bare && c == '.'))
                || code[..at].trim_end().ends_with("def"))
        })
        .take(MAX_CALLS)
}

/// The names seen at `at`: its function's ([`Names::in_def`]), kept in
/// `scopes` by the function's start, or the file's.
fn names_at<'a>(
    code: &str,
    at: usize,
    file: &'a Names,
    scopes: &'a mut std::collections::HashMap<usize, Names>,
) -> &'a Names {
    match py_names::enclosing_def(code, at) {
        Some(def) => scopes
            .entry(def.start())
            .or_insert_with(|| Names::in_def(code, &def, file)),
        None => file,
    }
}

/// The calls of Python `code` (comments and docstrings blanked) that run
/// a program or script known only as they run, each line once, trimmed;
/// an argv or line that is the enclosing function's parameter makes that
/// function a [`Sink`] instead.
pub(super) fn python(code: &str, bound: &Bound) -> Runs {
    let file = Names::read(code, bound.clone());
    let mut scopes = std::collections::HashMap::new();
    let mut out = Runs::default();
    let (called, chosen) = calls(code);
    for (at, module) in chosen {
        out.refuse(
            code,
            at,
            format!("calls a function of `{module}` chosen by a name known only as it runs"),
        );
    }
    for Called {
        call,
        form,
        bare,
        extra,
    } in called
    {
        // Past the calls read, a call could run anything unreviewed.
        if code.matches(call.as_str()).nth(MAX_CALLS).is_some() {
            out.unknown.push(format!(
                "more than {MAX_CALLS} calls of `{call}`: the rest are not read"
            ));
        }
        for at in call_sites(code, &call, bare) {
            let names = names_at(code, at, &file, &mut scopes);
            let mut args = extra.clone();
            args.extend(arguments(&code[at + call.len()..]));
            let call = Call {
                args: &args,
                bound: names,
            };
            if !call.known(form) {
                out.note(code, at, call.handed(form));
            }
            for why in call.refusals(form) {
                out.refuse(code, at, why);
            }
        }
    }
    out
}

impl Runs {
    /// A call at `at` runs what is known only as it runs: a sink when
    /// it hands over `handed` (a parameter's name, whether a shell
    /// line) of the function around it, else a refusal.
    fn note(&mut self, code: &str, at: usize, handed: Option<(String, bool)>) {
        if let Some((param, shell)) = handed
            && let Some(def) = py_names::enclosing_def(code, at)
            && let Some(index) = def.params.iter().position(|p| *p == param)
        {
            let sink = Sink::new(def.name, index, param, shell);
            if !self.sinks.contains(&sink) && self.sinks.len() < MAX_SINKS {
                self.sinks.push(sink);
            }
            return;
        }
        let shown = shown(code, at);
        if !self.unknown.contains(&shown) {
            self.unknown.push(shown);
        }
    }

    /// The call at `at` runs what no review covers, for `why`.
    fn refuse(&mut self, code: &str, at: usize, why: String) {
        let found = (why, shown(code, at));
        if !self.refusals.contains(&found) && self.refusals.len() < MAX_SINKS {
            self.refusals.push(found);
        }
    }
}

/// One call's arguments, read with the names the script binds.
struct Call<'a> {
    args: &'a [String],
    bound: &'a Names,
}

impl Call<'_> {
    /// The positional argument at `index` (`args=` for the first).
    fn arg(&self, index: usize) -> Option<&str> {
        let positional: Vec<&str> = self
            .args
            .iter()
            .map(|a| a.trim())
            .filter(|a| !a.is_empty() && keyword(a).is_none())
            .collect();
        let named = || {
            self.args
                .iter()
                .find_map(|a| keyword(a.trim()).filter(|(k, _)| *k == "args"))
                .map(|(_, v)| v)
        };
        match positional.get(index) {
            Some(arg) => Some(arg),
            None if index == 0 => named(),
            None => None,
        }
    }

    /// Whether what the call runs is known.
    fn known(&self, form: Form) -> bool {
        let shell = self.args.iter().any(|a| is_shell_true(a));
        match form {
            Form::Argv(i) => match self.arg(i) {
                None => true,
                Some(arg) => match (argvs(arg, self.bound, 0), shell) {
                    (Some(argvs), true) => argvs.iter().all(|items| {
                        items
                            .first()
                            .is_none_or(|line| shell_line_known(line, self.bound))
                    }),
                    (Some(argvs), false) => {
                        let written = !super::is_identifier(arg);
                        argvs
                            .iter()
                            .all(|items| argv_known(items, self.bound, written, 0))
                    }
                    (None, true) => shell_line_known(arg, self.bound),
                    (None, false) => value(arg, self.bound).is_some(),
                },
            },
            Form::Shell(i) => self
                .arg(i)
                .is_none_or(|arg| shell_line_known(arg, self.bound)),
            Form::PathArgv(p, a) => match self.arg(a).and_then(|arg| argvs(arg, self.bound, 0)) {
                Some(argvs) => argvs
                    .into_iter()
                    .all(|items| self.path_known(p, Some(items.into_iter().skip(1).collect()))),
                None => self.path_known(p, None),
            },
            Form::PathSpread(p, from, with_argv0) => {
                let skip = from + usize::from(with_argv0);
                let rest: Vec<String> = self
                    .args
                    .iter()
                    .filter(|a| keyword(a.trim()).is_none())
                    .skip(skip)
                    .cloned()
                    .collect();
                self.path_known(p, Some(rest))
            }
        }
    }

    /// The name a call hands over whole as what it runs (`run(cmd)`,
    /// `check_output(*args)`), and whether as a shell line: a
    /// parameter's, when the call is in a function.
    fn handed(&self, form: Form) -> Option<(String, bool)> {
        let (index, shell) = match form {
            Form::Argv(i) => (i, self.args.iter().any(|a| is_shell_true(a))),
            Form::Shell(i) => (i, true),
            Form::PathArgv(..) | Form::PathSpread(..) => return None,
        };
        let arg = self.arg(index)?.trim_start_matches('*');
        let arg = sinks::wrapped(arg).unwrap_or(arg);
        super::is_identifier(arg).then(|| (arg.to_string(), shell))
    }

    /// A program's path at `index`, then `rest`, its arguments (`None`
    /// when they are known only as it runs).
    fn path_known(&self, index: usize, rest: Option<Vec<String>>) -> bool {
        let Some(program) = self.arg(index) else {
            return true;
        };
        let mut argv = vec![program.to_string()];
        match rest {
            Some(rest) => argv.extend(rest),
            None => argv.push(COMPUTED.to_string()),
        }
        argv_known(&argv, self.bound, false, 0)
    }
}

/// Whether a call's argument is `shell=True`.
fn is_shell_true(arg: &str) -> bool {
    arg.split_whitespace().collect::<String>() == "shell=True"
}

/// `name=value` of a keyword argument, split.
fn keyword(arg: &str) -> Option<(&str, &str)> {
    let (name, value) = arg.split_once('=')?;
    let name = name.trim();
    (super::is_identifier(name) && !value.starts_with('=')).then_some((name, value.trim()))
}

/// The argvs a list or tuple expression (`["sh", w]`) may be, or a
/// name bound to such (each binding one), or their sum (`base + [w]`):
/// `None` when it is none of these (a parameter, a list built as it
/// runs). A part of a sum that is none ends the argv in a computed item.
fn argvs(expr: &str, bound: &Names, depth: usize) -> Option<Vec<Vec<String>>> {
    let expr = expr.trim();
    if depth >= MAX_DEPTH {
        return None;
    }
    if super::is_identifier(expr) {
        if bound.loose.contains(expr) {
            return None;
        }
        let mut out = Vec::new();
        for value in bound.assigned.get(expr)? {
            // `cmd = [` with its items on the lines after.
            let value = match value.trim() {
                "[" | "(" => bound.lists.get(expr)?,
                _ => value,
            };
            out.extend(argvs(value, bound, depth + 1)?);
        }
        return Some(out);
    }
    let parts = super::env_path::split_top(expr, '+');
    let mut items: Vec<String> = Vec::new();
    for (n, part) in parts.iter().enumerate() {
        let part = part.trim();
        let inner = part
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .or_else(|| part.strip_prefix('(').and_then(|r| r.strip_suffix(')')));
        match inner {
            Some(inner) => items.extend(
                arguments(inner)
                    .into_iter()
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty()),
            ),
            None => match argvs(part, bound, depth + 1).as_deref() {
                Some([one]) if super::is_identifier(part) => items.extend(one.iter().cloned()),
                _ if n == 0 => return None,
                _ => {
                    items.push(COMPUTED.to_string());
                    break;
                }
            },
        }
    }
    Some(vec![items])
}

/// An argv item that stands for what is known only as it runs.
pub(super) const COMPUTED: &str = "<computed>";

/// The strings an argument may be: a literal, a name bound only to
/// literals, `a if c else b` of those, `sys.executable` (`python3`),
/// `shutil.which("x")`; `None` when it is known only as it runs.
pub(super) fn value(expr: &str, bound: &Names) -> Option<Vec<String>> {
    value_at(expr, bound, 0)
}

fn value_at(expr: &str, bound: &Names, depth: usize) -> Option<Vec<String>> {
    let expr = expr.trim();
    if depth >= MAX_DEPTH || expr == COMPUTED {
        return None;
    }
    if matches!(expr, "sys.executable" | "_sys.executable") {
        return Some(vec!["python3".to_string()]);
    }
    if let Some((then, rest)) = expr.split_once(" if ")
        && let Some((_, otherwise)) = rest.split_once(" else ")
    {
        let mut out = value_at(then, bound, depth + 1)?;
        out.extend(value_at(otherwise, bound, depth + 1)?);
        return Some(out);
    }
    let inner = expr
        .strip_prefix("shutil.which(")
        .or_else(|| expr.strip_prefix("which("))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(expr);
    let inner = inner
        .strip_prefix('r')
        .filter(|r| literal(r).is_some())
        .unwrap_or(inner);
    if let Some(text) = literal(inner) {
        // A JavaScript template that expands (`` `${dir}/w.sh` ``) is
        // known only as it runs.
        return (!(inner.starts_with('`') && text.contains("${"))).then(|| vec![text.to_string()]);
    }
    if let Some(values) = bound.values(inner) {
        return Some(values);
    }
    let one = bound.single(inner)?;
    value_at(one, bound, depth + 1)
}

/// A program's name without its folder.
pub(super) fn base(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// Whether `program` runs JavaScript.
fn is_node(program: &str) -> bool {
    matches!(
        base(program),
        "node" | "nodejs" | "deno" | "bun" | "tsx" | "ts-node"
    )
}

/// Whether a program that runs scripts is `program`.
pub(in crate::core::trust::imports) fn interpreter(program: &str) -> bool {
    let name = base(program);
    INTERPRETERS.contains(&name)
        || name.starts_with("python") && name[6..].chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// Whether the argv `items` (program first) runs a known program and,
/// for an interpreter, a known script. `literal_list`: the items are
/// all there are (a list written out, not a name that may be added to).
pub(super) fn argv_known(
    items: &[String],
    bound: &Names,
    literal_list: bool,
    depth: usize,
) -> bool {
    let Some(first) = items.first() else {
        return true;
    };
    let Some(programs) = value(first, bound) else {
        return false;
    };
    programs.iter().all(|p| {
        if wrapper(p) {
            return depth < MAX_DEPTH && wrapped_known(&items[1..], bound, literal_list, depth);
        }
        !interpreter(p) || script_known(p, &items[1..], bound, literal_list, depth)
    })
}

/// Programs that run the words after them as a command (`nice sh x`,
/// `timeout 5 sh x`, `nohup sh x`; `env` is read as an interpreter).
const WRAPPERS: &[&str] = &[
    "nice", "nohup", "setsid", "timeout", "stdbuf", "sudo", "doas", "xargs", "exec", "command",
    "builtin", "time", "ionice", "chrt", "taskset", "flock", "unbuffer", "chroot", "runuser", "su",
    "strace", "ltrace", "valgrind", "firejail", "watch",
];

/// Whether `program` runs the words after it as a command (recheck 20:
/// `system('nice', 'sh', w)` ran what `w` named unreviewed).
pub(in crate::core::trust::imports) fn wrapper(program: &str) -> bool {
    WRAPPERS.contains(&base(program))
}

/// Whether what a wrapper runs, `rest` (its options, a number such as
/// `timeout`'s, then the command), is known: every word a known value,
/// and the command known as an argv of its own.
fn wrapped_known(rest: &[String], bound: &Names, literal_list: bool, depth: usize) -> bool {
    let mut command = rest.len();
    for (at, item) in rest.iter().enumerate() {
        let Some(values) = value(item, bound) else {
            return false;
        };
        let word = values.first().map_or("", String::as_str);
        let option = word.starts_with('-')
            || !word.is_empty() && word.chars().all(|c| c.is_ascii_digit() || c == '.');
        if !option && command == rest.len() {
            command = at;
        }
    }
    argv_known(&rest[command..], bound, literal_list, depth + 1)
}

/// Whether interpreter `program`, given `rest`, runs a known script.
fn script_known(
    program: &str,
    rest: &[String],
    bound: &Names,
    literal_list: bool,
    depth: usize,
) -> bool {
    let env = base(program) == "env";
    let mut words = rest.iter().enumerate();
    while let Some((at, item)) = words.next() {
        let Some(values) = value(item, bound) else {
            return false;
        };
        let word = values.first().map_or("", String::as_str);
        if env && word.contains('=') && !word.starts_with('-') {
            continue;
        }
        if env && !word.starts_with('-') {
            return depth < MAX_DEPTH && argv_known(&rest[at..], bound, literal_list, depth + 1);
        }
        match word {
            // A shell's `-c` line: read as one.
            "-c" if !base(program).starts_with("python") && !is_node(program) => {
                return words
                    .next()
                    .is_none_or(|(_, line)| shell_line_known(line, bound));
            }
            // The code or module that follows: known when it is.
            "-c" | "-m" | "-e" | "--eval" | "-p" | "--print" | "-r" | "--require" => {
                return words
                    .next()
                    .is_none_or(|(_, code)| value(code, bound).is_some());
            }
            w if w.starts_with('-') => {}
            _ => return true,
        }
    }
    // An interpreter given no script reads one from its input.
    literal_list && !rest.is_empty()
}

/// Whether a shell line is known: a literal (or bound to literals, read
/// as any string of the script is), `" ".join(argv)` of a known argv, or
/// one whose written start names its program and, for an interpreter,
/// its script (`f"git log {ref}"`, `"rm -rf " + tmp`).
fn shell_line_known(expr: &str, bound: &Names) -> bool {
    let expr = expr.trim();
    if value(expr, bound).is_some() {
        return true;
    }
    if let Some(list) = joined(expr)
        && let Some(argvs) = argvs(list, bound, 0)
    {
        return argvs.iter().all(|items| argv_known(items, bound, true, 0));
    }
    written_start(expr).is_some_and(|start| start_known(&start))
}

/// Whether the written start of a computed shell line (the text before
/// its first computed part) names its program and, for an interpreter,
/// its script.
///
/// Each of its commands counts (round 10, REVIEW_C10 B5: `stty -g; sh
/// %s` runs `sh` with a computed script), split at `;`, `&&`, `|`,
/// newline, `$(`, backtick or `(`; those before the last are whole. A
/// program written with an escape (`\x73h`), or a word that runs the
/// next one (`exec`, `nohup`, `then`, `.`), names no program.
pub(in crate::core::trust::imports) fn start_known(start: &str) -> bool {
    // `\n` as written in a double-quoted string is a newline too.
    let start = start.replace("\\n", "\n");
    let mut commands: Vec<&str> = start.split([';', '&', '|', '\n', '(', '`']).collect();
    let last = commands.pop().unwrap_or_default();
    commands
        .iter()
        .filter(|c| !c.trim().is_empty())
        .all(|c| command_known(&format!("{c} ")))
        && command_known(last)
}

/// [`start_known`] for one command: `start` ends in whitespace when
/// its last word is whole.
fn command_known(start: &str) -> bool {
    let words: Vec<&str> = start.split_whitespace().collect();
    // The last word may go on in what is computed.
    let complete = match start.ends_with(char::is_whitespace) {
        true => &words[..],
        false => &words[..words.len().saturating_sub(1)],
    };
    let Some(program) = complete
        .iter()
        .find(|w| !w.contains('=') || w.starts_with(['-', '/', '.']))
    else {
        return false;
    };
    let after_program = complete.iter().skip_while(|w| *w != program).nth(1);
    // `command -v x` only looks a program up.
    let looks_up =
        *program == "command" && after_program.is_some_and(|w| matches!(*w, "-v" | "-V"));
    if program.contains('\\') || RUNS_NEXT.contains(program) && !looks_up {
        return false;
    }
    if !interpreter(program) || program.contains('$') {
        return !program.contains(['$', '{', '`']);
    }
    let after = complete.iter().skip_while(|w| *w != program).skip(1);
    let mut after = after.peekable();
    while let Some(word) = after.next() {
        match *word {
            // `-s` and `-` read the script from stdin (recheck 21, item
            // 2: `sh < #{w}`, `bash -s < $f`): not known here.
            "-c" | "-m" | "-e" | "-s" | "-" => return false,
            w if w.starts_with('-') => {}
            // A redirect is no script (`sh < x`: stdin is); its target
            // follows it or is written onto it.
            w if redirect(w).is_some() => {
                if redirect(w) == Some(true) {
                    after.next();
                }
            }
            // A script the line builds as it runs (`sh $X`).
            w if w.contains(['$', '`']) => return false,
            _ => return true,
        }
        if after.peek().is_none() {
            break;
        }
    }
    false
}

/// Whether `word` is a shell redirect: `Some(true)` when its target is
/// the next word (`<`, `2>`, `&>`), `Some(false)` when written onto it
/// (`<x`, `2>/dev/null`, `>&2`).
fn redirect(word: &str) -> Option<bool> {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest.strip_prefix('&').unwrap_or(rest);
    let ops = rest.trim_start_matches(['<', '>']);
    if ops.len() == rest.len() {
        return None;
    }
    let target = ops.trim_start_matches(['&', '|']);
    Some(target.is_empty())
}

/// Shell words that run the words after them as a command or a script.
const RUNS_NEXT: &[&str] = &[
    "exec", "command", "builtin", "nohup", "time", "nice", "timeout", "xargs", "sudo", "eval",
    "source", ".", "then", "do", "else", "elif", "if", "while", "until", "!", "{",
];

/// The list of `" ".join(list)` (`shlex.join(list)` too).
fn joined(expr: &str) -> Option<&str> {
    let rest = match expr.strip_prefix("shlex.join(") {
        Some(rest) => rest,
        None => {
            let quote = expr.chars().next().filter(|c| matches!(c, '"' | '\''))?;
            let close = expr[1..].find(quote)? + 1;
            expr[close + 1..].strip_prefix(".join(")?
        }
    };
    rest.strip_suffix(')')
}

/// The text a computed string starts with as written: an f-string's up
/// to its first `{`, a literal's joined to more (`"sh " + w`) or
/// formatted (`"sh {}".format(w)`, `"sh %s" % w`) up to its first
/// placeholder.
fn written_start(expr: &str) -> Option<String> {
    let lower = expr.to_ascii_lowercase();
    let formatted = ["f\"", "f'", "rf\"", "rf'", "fr\"", "fr'"]
        .iter()
        .find(|p| lower.starts_with(*p));
    let (body_from, cut): (usize, &[char]) = match formatted {
        Some(prefix) => (prefix.len(), &['{']),
        None if expr.starts_with(['"', '\'']) => (1, &['{', '%']),
        None => return None,
    };
    let quote = expr[body_from - 1..].chars().next()?;
    let body = &expr[body_from..];
    let end = body.find(quote).unwrap_or(body.len());
    let body = &body[..end];
    let stop = body.find(cut).unwrap_or(body.len());
    Some(body[..stop].to_string())
}

#[cfg(test)]
mod tests;
