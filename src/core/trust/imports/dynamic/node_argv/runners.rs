//! The Node modules whose functions run programs (consent round 7):
//! `child_process` (round 6), `execa` (its functions, the default
//! export of older versions and its `$` template), `cross-spawn` and
//! `shelljs`'s `exec`; and the names a file binds to one of their
//! functions by assignment (`const run = cp.execSync`) or through
//! `util.promisify` (`const exec = promisify(cp.exec)`). Each call is
//! then read as `child_process`'s of the same kind is.

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
];

/// `cross-spawn`'s.
const CROSS_SPAWN: &[(&str, Kind)] = &[("spawn", Kind::File), ("sync", Kind::File)];

/// `shelljs`'s.
const SHELLJS: &[(&str, Kind)] = &[("exec", Kind::Shell)];

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
pub(super) const GLOBALS: &[(&str, &str, Kind)] = &[("shelljs/global", "exec", Kind::Shell)];

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
