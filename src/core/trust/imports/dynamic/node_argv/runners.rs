//! The Node modules whose functions run programs (consent round 7):
//! `child_process` (round 6), `execa` (its functions, the default
//! export of older versions and its `$` template), `cross-spawn` and
//! `shelljs`'s `exec` (and, round 8, its `cmd`, execa's `$(options)`
//! and `$.sync` templates, a namespace's `default`); and the names a
//! file binds to one of their functions by assignment (`const run =
//! cp.execSync`) or through `util.promisify` (`const exec =
//! promisify(cp.exec)`). Each call is then read as `child_process`'s of
//! the same kind is. A file that re-exports one ([`reexports`]) is
//! refused: its importers' calls are not read across files.

use super::Kind;

/// A module that runs programs: its specifier, what a name bound to
/// the module itself runs when called (`spawn(` of `const spawn =
/// require('cross-spawn')`), its functions read as `local.name(`, and
/// those a file takes by name (`const { execa } = require('execa')`).
pub(super) struct Runner {
    pub(super) spec: &'static str,
    pub(super) itself: Option<Kind>,
    pub(super) members: &'static [(&'static str, Kind)],
    pub(super) named: &'static [(&'static str, Kind)],
}

/// `child_process`'s functions.
const CHILD_PROCESS: &[(&str, Kind)] = &[
    ("exec", Kind::Shell),
    ("execSync", Kind::Shell),
    ("execFile", Kind::File),
    ("execFileSync", Kind::File),
    ("spawn", Kind::File),
    ("spawnSync", Kind::File),
    ("fork", Kind::Fork),
];

/// `execa`'s, as names (v6 on) and as the default export's members
/// (v5: `execa.sync`, `execa.command`, `execa.node`). A command string
/// is split at spaces, not run by a shell: read as a shell line, which
/// reads more, never less.
const EXECA: &[(&str, Kind)] = &[
    ("execa", Kind::File),
    ("execaSync", Kind::File),
    ("execaCommand", Kind::Shell),
    ("execaCommandSync", Kind::Shell),
    ("execaNode", Kind::Fork),
    ("sync", Kind::File),
    ("command", Kind::Shell),
    ("commandSync", Kind::Shell),
    ("node", Kind::Fork),
    ("$", Kind::Template),
    // `import * as e from 'execa'` (round 8).
    ("default", Kind::File),
];

/// `cross-spawn`'s.
const CROSS_SPAWN: &[(&str, Kind)] = &[
    ("spawn", Kind::File),
    ("sync", Kind::File),
    ("default", Kind::File),
];

/// `shelljs`'s: `exec` runs a line, `cmd` (0.9) a program with its
/// arguments spread.
const SHELLJS: &[(&str, Kind)] = &[("exec", Kind::Shell), ("cmd", Kind::Spread)];

pub(super) const RUNNERS: &[Runner] = &[
    Runner {
        spec: "child_process",
        itself: None,
        members: CHILD_PROCESS,
        named: CHILD_PROCESS,
    },
    Runner {
        spec: "node:child_process",
        itself: None,
        members: CHILD_PROCESS,
        named: CHILD_PROCESS,
    },
    Runner {
        spec: "execa",
        itself: Some(Kind::File),
        members: EXECA,
        named: EXECA,
    },
    Runner {
        spec: "cross-spawn",
        itself: Some(Kind::File),
        members: CROSS_SPAWN,
        named: CROSS_SPAWN,
    },
    Runner {
        spec: "shelljs",
        itself: None,
        members: SHELLJS,
        named: SHELLJS,
    },
];

/// `require('shelljs/global')` makes `exec(` a global.
pub(super) const GLOBALS: &[(&str, &str, Kind)] = &[
    ("shelljs/global", "exec", Kind::Shell),
    ("shelljs/global", "cmd", Kind::Spread),
];

/// Whether `text` may name one of the modules (the cheap test first).
pub(super) fn mentioned(text: &str) -> bool {
    ["child_process", "execa", "cross-spawn", "shelljs"]
        .iter()
        .any(|m| text.contains(m))
}

/// The most lines read for names bound to a call.
const MAX_LINES: usize = 50_000;

/// Adds to `out` the names `code` binds to one of its calls (each a
/// call text with its `(`, its kind and whether it is a bare name):
/// `const run = cp.execSync`, `exec = util.promisify(cp.exec)`,
/// `require('util').promisify(execFile)`; twice over (`const r = run`).
pub(super) fn bound_names(code: &str, out: &mut Vec<(String, Kind, bool)>) {
    for _ in 0..2 {
        for line in code.lines().take(MAX_LINES) {
            let line = line.trim();
            let line = ["const ", "let ", "var "]
                .iter()
                .find_map(|k| line.strip_prefix(k))
                .unwrap_or(line);
            let Some((name, value)) = line.split_once('=') else {
                continue;
            };
            let (name, value) = (name.trim(), value.trim().trim_end_matches(';').trim());
            if !super::is_identifier(name) || value.starts_with(['=', '>']) {
                continue;
            }
            let value = [
                "util.promisify(",
                "promisify(",
                "require('util').promisify(",
                "require(\"util\").promisify(",
            ]
            .iter()
            .find_map(|w| value.strip_prefix(w)?.strip_suffix(')'))
            .unwrap_or(value)
            .trim();
            // `const $$ = $({ stdio: 'inherit' })`: a template with
            // options (round 8).
            let template = out.iter().find(|(c, k, _)| {
                *k == Kind::Template
                    && c.strip_suffix('`').is_some_and(|t| {
                        value.starts_with(&format!("{t}(")) && value.ends_with(')')
                    })
            });
            if let Some((_, kind, _)) = template {
                let (call, kind) = (format!("{name}`"), *kind);
                if !out.iter().any(|(c, _, _)| *c == call) {
                    out.push((call, kind, true));
                }
                continue;
            }
            let Some(kind) = out
                .iter()
                .find(|(c, _, _)| c.strip_suffix('(') == Some(value))
                .map(|(_, k, _)| *k)
            else {
                continue;
            };
            let call = format!("{name}(");
            if !out.iter().any(|(c, _, _)| *c == call) {
                out.push((call, kind, true));
            }
        }
    }
}

/// What a file's line re-exports of a runner module, when it does
/// (round 8): `module.exports = require('execa')`, `exports.run =
/// cp.execSync`, `module.exports = { go: cp.execSync }`, `export * from
/// 'execa'`, `export { execa } from 'execa'`, `export default run`,
/// `export { run }`, with `locals` the names the file binds to a runner
/// module or one of its functions. Its importers may call it with what
/// is known only as they run, and they are read one file at a time.
pub(super) fn reexports(code: &str, locals: &[String]) -> Vec<String> {
    let specs = |text: &str| {
        RUNNERS.iter().any(|r| {
            ['\'', '"', '`']
                .iter()
                .any(|q| text.contains(&format!("{q}{}{q}", r.spec)))
        }) || text.contains("'shelljs/global'")
    };
    let names_local = |text: &str| {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
            .any(|word| {
                let head = word.split('.').next().unwrap_or(word);
                locals.iter().any(|l| l == word || l == head)
            })
    };
    let mut out = Vec::new();
    for line in code.lines().take(MAX_LINES) {
        let line = line.trim();
        let exported = match line.split_once('=') {
            Some((target, value))
                if !value.starts_with(['=', '>'])
                    && (target.trim() == "module.exports"
                        || target.trim().starts_with("module.exports.")
                        || target.trim().starts_with("exports.")) =>
            {
                specs(value) || names_local(value)
            }
            _ => {
                line.starts_with("export ")
                    && (line.contains(" from ") && specs(line)
                        || !line.contains(" from ") && names_local(&line["export ".len()..]))
            }
        };
        if exported {
            out.push(line.chars().take(80).collect());
        }
    }
    out
}
