//! What a Node script runs itself through `child_process` (consent round
//! 6, items 2 and 3), read as Python's argv is since round 5
//! ([`super::argv`]): a program `execFile`, `spawn` (and their `Sync`
//! forms) is handed that is known only as it runs, an interpreter's
//! script that is, a module `fork` is handed that is, or an
//! `exec`/`execSync` line whose written start does not name its program
//! (`` execSync(`${x}`) ``): refused. A literal, a name bound only to
//! literals and `process.execPath` are known. A known argv or line is
//! read as shell text is (`trust/unknown.rs`): a git command that runs
//! the repository's hooks is refused. Only the functions of
//! `child_process` are read, by the names the file gives them
//! (`const cp = require('child_process')`, `const { spawn } = …`,
//! `import { execFile as run } from 'child_process'`), so a regular
//! expression's `.exec(` is none. Text, not a parse.

use super::argv::{self, COMPUTED};
use super::py_names::Names;
use super::{
    Bound, JS_KNOWN, Lang, MAX_CALLS, arguments, identifiers, is_identifier, js_code, shown,
    without_literals,
};

mod runners;

/// How a function that runs programs takes what it runs.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A shell line first.
    Shell,
    /// A program, then its arguments as an array.
    File,
    /// A Node module's path, run with Node.
    Fork,
    /// A tagged template (execa's `` $`cmd ${x}` ``): read as a line.
    Template,
    /// A program and its arguments spread (shelljs's `cmd('git',
    /// 'log')`), options last.
    Spread,
}

/// What a Node script runs through `child_process` that is known only
/// as it runs (its lines, a refusal each), and what a known argv or line
/// runs that no review covers (why, and the line).
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::core::trust::imports) struct NodeRuns {
    pub(in crate::core::trust::imports) unknown: Vec<String>,
    pub(in crate::core::trust::imports) refusals: Vec<(String, String)>,
}

/// What JavaScript `text` runs through `child_process`.
pub(in crate::core::trust::imports) fn js(text: &str) -> NodeRuns {
    let mut out = NodeRuns::default();
    if !runners::mentioned(text) {
        return out;
    }
    let code = js_code(text);
    let bound = Bound::read(&code, Lang::Js);
    let names = Names::read(&code, bound);
    let found = calls(&code);
    let mut locals: Vec<String> = found
        .iter()
        .map(|(c, _, _)| c.trim_end_matches(['(', '`']).to_string())
        .collect();
    locals.extend(module_locals(&code));
    for line in runners::reexports(&code, &locals) {
        let why = "re-exports a function that runs programs (`child_process`, `execa`, \
                   `cross-spawn`, `shelljs`): the calls of the files that import it are not \
                   read across files"
            .to_string();
        let found = (why, line);
        if !out.refusals.contains(&found) {
            out.refusals.push(found);
        }
    }
    for (call, kind, bare) in found {
        if kind == Kind::Template {
            with_options(&code, &call, &names, &mut out);
        }
        for (at, _) in code.match_indices(&call).take(MAX_CALLS) {
            let before = code[..at].chars().next_back();
            let method = before
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || (bare && c == '.'));
            if method || code[..at].trim_end().ends_with("function") {
                continue;
            }
            let rest = &code[at + call.len()..];
            let args = match kind {
                // `` $`…` ``: the template up to its closing backtick.
                Kind::Template => vec![format!("`{}`", rest.split('`').next().unwrap_or(""))],
                _ => arguments(rest),
            };
            let (known, refusals) = judge(&args, kind, &names);
            let shown = shown(&code, at);
            if !known && !out.unknown.contains(&shown) {
                out.unknown.push(shown.clone());
            }
            for why in refusals {
                let found = (why, shown.clone());
                if !out.refusals.contains(&found) {
                    out.refusals.push(found);
                }
            }
        }
    }
    out
}

/// The names `code` binds to a runner module itself (`const cp =
/// require('child_process')`, `import * as e from 'execa'`).
fn module_locals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for quote in ['\'', '"', '`'] {
        for runner in runners::RUNNERS {
            let spec = format!("{quote}{}{quote}", runner.spec);
            for (at, _) in code.match_indices(&spec).take(MAX_CALLS) {
                for (local, taken) in bindings(&code[..at]) {
                    if taken.is_none() && !out.contains(&local) {
                        out.push(local);
                    }
                }
            }
        }
    }
    out
}

/// Reads a template tag given options first (execa's `` $(opts)`…` ``,
/// round 8): `call` is the tag with its backtick; the options are read
/// for an environment of its own.
fn with_options(code: &str, call: &str, names: &Names, out: &mut NodeRuns) {
    let tag = call.trim_end_matches('`');
    let open_text = format!("{tag}(");
    for (at, _) in code.match_indices(&open_text).take(MAX_CALLS) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
            continue;
        }
        let rest = &code[at + open_text.len()..];
        let options = arguments(rest);
        let inside: usize = options.iter().map(|o| o.len()).sum::<usize>() + options.len() - 1;
        let Some(after) = rest.get(inside..).and_then(|r| r.strip_prefix(')')) else {
            continue;
        };
        let Some(template) = after.strip_prefix('`') else {
            continue;
        };
        let mut args = vec![format!("`{}`", template.split('`').next().unwrap_or(""))];
        args.extend(options);
        let (known, refusals) = judge(&args, Kind::Template, names);
        let shown = shown(code, at);
        if !known && !out.unknown.contains(&shown) {
            out.unknown.push(shown.clone());
        }
        for why in refusals {
            let found = (why, shown.clone());
            if !out.refusals.contains(&found) {
                out.refusals.push(found);
            }
        }
    }
}

/// The call texts of the functions of [`runners::RUNNERS`] in `code`,
/// each with its kind and whether it is a bare name (`spawn(`, not
/// `x.spawn(`), and the names bound to them ([`runners::bound_names`]).
fn calls(code: &str) -> Vec<(String, Kind, bool)> {
    let mut out: Vec<(String, Kind, bool)> = Vec::new();
    let mut add = |call: String, kind: Kind, bare: bool| {
        // `` $.sync`…` `` and `` $.s`…` `` (round 8).
        if kind == Kind::Template
            && let Some(tag) = call.strip_suffix('`')
        {
            for sync in [format!("{tag}.sync`"), format!("{tag}.s`")] {
                if !out.iter().any(|(c, _, _)| *c == sync) {
                    out.push((sync, kind, false));
                }
            }
        }
        if !out.iter().any(|(c, _, _)| *c == call) {
            out.push((call, kind, bare));
        }
    };
    // A template is called with no `(`: `` $` ``.
    let text = |name: &str, kind: Kind| match kind {
        Kind::Template => format!("{name}`"),
        _ => format!("{name}("),
    };
    for quote in ['\'', '"', '`'] {
        for (spec, name, kind) in runners::GLOBALS {
            if code.contains(&format!("{quote}{spec}{quote}")) {
                add(format!("{name}("), *kind, true);
            }
        }
        for runner in runners::RUNNERS {
            let spec = format!("{quote}{}{quote}", runner.spec);
            for (at, _) in code.match_indices(&spec).take(MAX_CALLS) {
                let after = &code[at + spec.len()..];
                // `require('child_process').execSync(…)`.
                if after.starts_with(").") {
                    for (name, kind) in runner.members {
                        add(
                            text(&format!("require({spec}).{name}"), *kind),
                            *kind,
                            false,
                        );
                    }
                }
                for (local, taken) in bindings(&code[..at]) {
                    match taken {
                        None => {
                            if let Some(kind) = runner.itself {
                                add(format!("{local}("), kind, true);
                            }
                            for (name, kind) in runner.members {
                                add(text(&format!("{local}.{name}"), *kind), *kind, false);
                            }
                        }
                        Some(name) => {
                            if let Some((_, kind)) = runner.named.iter().find(|(n, _)| *n == name) {
                                add(text(&local, *kind), *kind, true);
                            }
                        }
                    }
                }
            }
        }
    }
    runners::bound_names(code, &mut out);
    out
}

/// The names the statement that ends at `before` (just before the
/// module's specifier) binds: `(local, None)` for the module
/// (`const cp = require(`, `import * as cp from`, `import cp from`),
/// `(local, Some(name))` for a function taken from it (`const { spawn,
/// exec: run } = require(`, `import { execFile as run } from`).
fn bindings(before: &str) -> Vec<(String, Option<String>)> {
    // The last 2000 bytes, from a character's start.
    let mut from = before.len().saturating_sub(2000);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let window = &before[from..];
    let start = ["const ", "let ", "var ", "import "]
        .iter()
        .filter_map(|k| window.rfind(k).map(|at| at + k.len()))
        .max();
    let Some(start) = start else {
        return Vec::new();
    };
    let statement = &window[start..];
    // `= require(` / ` from `: what precedes is bound.
    let target = match (statement.rfind("= require("), statement.rfind(" from ")) {
        (Some(at), _) => &statement[..at],
        (None, Some(at)) => &statement[..at],
        (None, None) => return Vec::new(),
    };
    let mut out = Vec::new();
    let (outside, inside) = match (target.find('{'), target.rfind('}')) {
        (Some(open), Some(close)) if open < close => (
            format!("{}{}", &target[..open], &target[close + 1..]),
            Some(&target[open + 1..close]),
        ),
        _ => (target.to_string(), None),
    };
    for item in inside.into_iter().flat_map(|i| i.split(',')) {
        let item = item.trim();
        let (name, local) = match item.split_once(':').or_else(|| item.split_once(" as ")) {
            Some((name, local)) => (name.trim(), local.trim()),
            None => (item, item),
        };
        if is_identifier(name) && is_identifier(local) {
            out.push((local.to_string(), Some(name.to_string())));
        }
    }
    let outside = outside.replace("* as ", "").replace(',', " ");
    for word in outside.split_whitespace() {
        if is_identifier(word) {
            out.push((word.to_string(), None));
        }
    }
    out
}

/// Whether what a call runs is known, and why its known argv or line
/// runs what no review covers.
fn judge(args: &[String], kind: Kind, names: &Names) -> (bool, Vec<String>) {
    let Some(first) = args.first().map(|a| a.trim()).filter(|a| !a.is_empty()) else {
        return (true, Vec::new());
    };
    // A child given an environment of its own (round 8): read as run
    // after `env -i`.
    let own = own_env(&args[1..], names);
    let prefix = if own { "env -i " } else { "" };
    match kind {
        Kind::Shell | Kind::Template => line(first, names, prefix),
        Kind::Fork => (
            value(first, names).is_some() || path_known(first, names),
            match own {
                true => argv::line_refusals(&["env -i node <module>".to_string()]),
                false => Vec::new(),
            },
        ),
        Kind::Spread => {
            let argv: Vec<String> = args
                .iter()
                .map(|a| a.trim())
                .take_while(|a| !a.starts_with('{'))
                .map(node_item)
                .collect();
            let known = argv::argv_known(&argv, names, true, 0);
            match own {
                true => (
                    known,
                    argv::line_refusals(&[argv::own_env_line(&argv, names)]),
                ),
                false => (known, argv::argv_refusals(&argv, names)),
            }
        }
        Kind::File => {
            let items: Option<Vec<String>> = args.get(1).map(|a| a.trim()).and_then(|list| {
                let inner = list.strip_prefix('[')?.strip_suffix(']')?;
                Some(
                    arguments(inner)
                        .into_iter()
                        .map(|a| node_item(a.trim()))
                        .filter(|a| !a.is_empty())
                        .collect(),
                )
            });
            let written = items.is_some();
            let given_list = args.get(1).is_some_and(|a| !a.trim().starts_with('{'));
            let shell = args.iter().skip(1).any(|a| {
                let a: String = a.split_whitespace().collect();
                a.contains("shell:true")
            });
            let mut argv = vec![node_item(first)];
            match items {
                Some(items) => argv.extend(items),
                None if given_list => argv.push(COMPUTED.to_string()),
                None => {}
            }
            if shell {
                // The program and its arguments joined: one shell line.
                let words: Option<Vec<String>> = argv
                    .iter()
                    .map(|w| value(w, names).and_then(|v| v.into_iter().next()))
                    .collect();
                return match words {
                    Some(words) => (
                        true,
                        argv::line_refusals(&[format!("{prefix}{}", words.join(" "))]),
                    ),
                    None => (false, Vec::new()),
                };
            }
            let known = argv::argv_known(&argv, names, written, 0);
            match own {
                true => (
                    known,
                    argv::line_refusals(&[argv::own_env_line(&argv, names)]),
                ),
                false => (known, argv::argv_refusals(&argv, names)),
            }
        }
    }
}

/// Whether a module path is built from the script's folder and
/// literals only (`path.join(__dirname, "w.js")`): each name in it a
/// path word or bound only to literals (`fs.readFileSync(…)` is not).
fn path_known(expr: &str, names: &Names) -> bool {
    let (rest, expansions) = without_literals(expr);
    identifiers(&rest)
        .into_iter()
        .chain(expansions.iter().flat_map(|e| identifiers(e)))
        .all(|name| JS_KNOWN.contains(&name.as_str()) || names.values(&name).is_some())
}

/// An argv item as the argv reader takes it: `process.execPath` (and
/// `process.argv0`, `process.argv[0]`) is Node.
fn node_item(item: &str) -> String {
    match item {
        "process.execPath" | "process.argv0" | "process.argv[0]" => "'node'".to_string(),
        other => other.to_string(),
    }
}

/// The values of a JavaScript expression ([`argv::value`]); a template
/// that expands (`` `${x}` ``) has none.
fn value(expr: &str, names: &Names) -> Option<Vec<String>> {
    if expr.contains("${") {
        return None;
    }
    argv::value(&node_item(expr), names)
}

/// Whether a shell line is known, and its refusals: a literal (or a
/// name bound to literals) is read as shell text; a template or a sum
/// whose written start names its program (and an interpreter's script)
/// is known, that start read.
/// Each line is read after `prefix` (`env -i ` for a child given an
/// environment of its own).
fn line(expr: &str, names: &Names, prefix: &str) -> (bool, Vec<String>) {
    line_at(expr, names, prefix, 0)
}

fn line_at(expr: &str, names: &Names, prefix: &str, depth: usize) -> (bool, Vec<String>) {
    if let Some(lines) = value(expr, names) {
        let lines: Vec<String> = lines.iter().map(|l| format!("{prefix}{l}")).collect();
        return (true, argv::line_refusals(&lines));
    }
    // `const cmd = `git log ${ref}``: the line it is bound to, once.
    if depth < 4
        && !names.loose.contains(expr)
        && let Some([one]) = names.assigned.get(expr).map(Vec::as_slice)
    {
        return line_at(one, names, prefix, depth + 1);
    }
    let Some(start) = written_start(expr) else {
        return (false, Vec::new());
    };
    let whole = match start.ends_with(char::is_whitespace) {
        true => start.as_str(),
        false => start
            .rsplit_once(char::is_whitespace)
            .map_or("", |(w, _)| w),
    };
    let refusals = match whole.trim().is_empty() {
        true => Vec::new(),
        false => argv::line_refusals(&[format!("{prefix}{whole}")]),
    };
    (argv::start_known(&start), refusals)
}

/// Whether a call's options (`args`: what follows the program or line)
/// give the child an environment of its own: an `env` that is not built
/// from `process.env` (`env: { PATH: p }`, `env: {}`, a name `env`
/// bound only to such), or execa's `extendEnv: false`. Options held in
/// a variable are not read.
fn own_env(args: &[String], names: &Names) -> bool {
    args.iter().any(|arg| {
        let Some(inner) = arg.trim().strip_prefix('{') else {
            return false;
        };
        arguments(inner).iter().any(|property| {
            let property = property.trim();
            let compact: String = property.split_whitespace().collect();
            if compact.starts_with("extendEnv:false") {
                return true;
            }
            match property.split_once(':') {
                Some((key, value)) if key.trim().trim_matches(['\'', '"']) == "env" => {
                    !argv::inherits(value, "process.env")
                }
                // `{ env }`: the values bound to `env`.
                None if property == "env" => names
                    .assigned
                    .get("env")
                    .is_some_and(|v| !v.iter().any(|x| argv::inherits(x, "process.env"))),
                _ => false,
            }
        })
    })
}

/// The text a computed JavaScript string starts with as written: a
/// template's up to its first `${`, a literal's joined to more (`"sh "
/// + w`).
fn written_start(expr: &str) -> Option<String> {
    let quote = expr
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let body = &expr[1..];
    let end = body.find(quote).unwrap_or(body.len());
    let body = &body[..end];
    let stop = match quote {
        '`' => body.find("${").unwrap_or(body.len()),
        _ => body.len(),
    };
    Some(body[..stop].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_computed_program_or_script_is_named_and_a_known_one_is_not() {
        let read = "const fs = require('fs')\nconst w = fs.readFileSync('x', 'utf8')\n";
        for rest in [
            "const { execFileSync } = require('child_process')\nexecFileSync(w, [])\n",
            "const cp = require('child_process')\ncp.spawnSync('sh', [w])\n",
            "const { fork } = require('child_process')\nfork(w)\n",
            "const { execSync } = require('child_process')\nexecSync(`${w}`)\n",
            "const child_process = require('node:child_process')\nchild_process.spawn(w)\n",
            "import { execFile as run } from 'child_process'\nrun('bash', [w])\n",
            "import * as cp from 'child_process'\ncp.exec('sh ' + w)\n",
            "const {\n  spawn,\n} = require('child_process')\nspawn(process.execPath, args)\n",
            "require('child_process').execSync(w)\n",
            "const cp = require('child_process')\nconst c = `${w}`\ncp.execSync(c)\n",
            "const cp = require('child_process')\nconst s = `${w}/x.sh`\ncp.spawn('sh', [s])\n",
        ] {
            let text = format!("{read}{rest}");
            assert_eq!(js(&text).unknown.len(), 1, "{text}");
        }
        for text in [
            "const cp = require('child_process')\ncp.execSync('git log -1')\n\
             cp.spawnSync('git', ['diff', ref])\ncp.execFileSync('sh', ['tools/w.sh'])\n\
             const re = /a/; re.exec('a')\n",
            "const { spawnSync } = require('child_process')\n\
             spawnSync(process.execPath, ['tools/w.js'], { stdio: 'inherit' })\n",
            "const { execSync } = require('child_process')\nexecSync(`git show ${ref}`)\n",
            "const { fork } = require('child_process')\nfork(path.join(__dirname, 'w.js'))\n",
            "const re = /a/\nre.exec(w)\nspawn(w)\n",
            "const cp = require('child_process')\nconst c = `git log ${ref}`\ncp.execSync(c)\n",
        ] {
            assert_eq!(js(text).unknown, Vec::<String>::new(), "{text}");
        }
    }

    /// The statement before the specifier is read from a character's
    /// start, whatever the text before it holds.
    #[test]
    fn a_long_text_of_wide_characters_before_the_module_is_read() {
        for pad in ["é", "日", "🦀"] {
            let text = format!(
                "// {}\nconst cp = require('child_process')\ncp.execSync(w)\n",
                pad.repeat(1200)
            );
            assert_eq!(js(&text).unknown.len(), 1);
            let text = format!(
                "const x = '{}'; const cp = require('child_process')\ncp.execSync(w)\n",
                pad.repeat(997)
            );
            assert_eq!(js(&text).unknown.len(), 1);
        }
    }

    /// Round 8: a re-export of a runner is a refusal; exporting a
    /// function of one's own that uses one is not.
    #[test]
    fn a_re_export_of_a_runner_is_refused() {
        for text in [
            "module.exports = require('execa')\n",
            "export * from 'cross-spawn'\n",
            "export { execa as run } from 'execa'\n",
            "const cp = require('child_process')\nmodule.exports = { go: cp.execSync }\n",
            "const cp = require('child_process')\nexports.cp = cp\n",
            "import { spawn } from 'child_process'\nexport default spawn\n",
        ] {
            assert_eq!(js(text).refusals.len(), 1, "{text}");
        }
        for text in [
            "const cp = require('child_process')\nfunction go() { cp.execSync('ls') }\n\
             module.exports = { go }\n",
            "const cp = require('child_process')\nexport function log() { return 1 }\n",
        ] {
            assert_eq!(js(text).refusals, Vec::new(), "{text}");
        }
    }

    #[test]
    fn a_git_command_that_runs_hooks_is_refused_and_a_reading_one_is_not() {
        for text in [
            "const cp = require('child_process')\ncp.execSync('git commit -qm x')\n",
            "const { spawn } = require('child_process')\nspawn('git', ['push'])\n",
            "const { execFile } = require('child_process')\nexecFile('git', ['checkout', b])\n",
            "const { execSync } = require('child_process')\nexecSync(`git commit -m ${m}`)\n",
            "const cp = require('child_process')\ncp.spawn('git', ['pull'], { shell: true })\n",
        ] {
            assert_eq!(js(text).refusals.len(), 1, "{text}");
        }
        let text = "const cp = require('child_process')\ncp.execSync('git status')\n\
                    cp.spawnSync('git', ['log', '-1'])\ncp.execFileSync('git', ['show', ref])\n";
        assert_eq!(js(text).refusals, Vec::new(), "{text}");
    }
}
