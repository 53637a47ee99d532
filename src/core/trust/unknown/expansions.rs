//! Whether a word's expansions are known before it runs: a command
//! substitution that prints a folder of the script's (`dirname "$0"`,
//! `git rev-parse --show-toplevel`) or where a program is (`command -v
//! x`) is; one that prints a file's line, or a variable set from one, is
//! not. A variable the text never sets, in the word naming a script
//! (`python3 tools/summ${X}arize.py`, `tools/$X.sh`), is the
//! environment's where it runs, so no review sees the file it names
//! (recheck 25).

use std::collections::HashMap;

use super::shell_words::{substitutions, variables};
use super::{INTERPRETERS, Value};

/// How a word (as written) is decided only as it runs: a command's
/// output that names no folder of the script's, or a variable set so.
pub(super) fn unknown_in(word: &str, vars: &HashMap<String, Value>) -> Option<String> {
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

/// Variables a script word may use without the text setting them: where
/// the command runs (`$PWD`, the root for a summary command), the user's
/// home (outside the project), the script's own path.
const FROM_WHERE_IT_RUNS: &[&str] = &["PWD", "HOME", "BASH_SOURCE", "0"];

/// How a word naming a script (or, when `command`, a program) is decided
/// only where it runs, by what no review sees (recheck 25):
/// - an expansion inside the file's own name (`tools/summ${X}arize.py`,
///   `tools/$f.sh`, `summarize$*.py`): the name is made as it runs; a
///   name that is one expansion of a variable the text sets to a path
///   (`f=tools/lib.sh; . "./$f"`, read as that path) or that falls back
///   (`${S:-tools/w.sh}`) is known;
/// - a variable the text never sets past the word's start
///   (`python3${IFS}tools/s.py`, `tools/$X/lib.sh`): the environment's.
///   A leading one names a folder (`"$ROOT/lib/x.sh"`: `lib/x.sh` is
///   looked for beside the script and in the root).
///
/// A word that is one expansion alone is the caller's word when
/// positional (`"$@"`, `"$1"`: read where they were written) and the
/// user's own program when a command (`$PYTHON`, `"${EDITOR}"`).
pub(super) fn unset_in(word: &str, vars: &HashMap<String, Value>, command: bool) -> Option<String> {
    let plain = word.trim_matches('"');
    let positional = |v: &str| {
        v != "0" && (v.chars().all(|c| c.is_ascii_digit()) || matches!(v, "*" | "@" | "#"))
    };
    let known = |v: &str| {
        vars.contains_key(v)
            || FROM_WHERE_IT_RUNS.contains(&v)
            || ["-", ":-", "=", ":="]
                .iter()
                .any(|op| plain.contains(&format!("${{{v}{op}")))
    };
    let expansions = expansions(plain);
    if let [(0, end, name)] = expansions.as_slice()
        && *end == plain.len()
        && (positional(name) || command || known(name))
    {
        return None;
    }
    let last = plain.rfind('/').map_or(0, |i| i + 1);
    for (start, end, name) in &expansions {
        let in_name = *end > last;
        let whole_name = *start == last && *end == plain.len();
        let refused = if in_name {
            // In a script the command runs, the whole word one variable
            // (`sh "$RUNNER"`): its value is a whole path, which a parent
            // script sets (a literal there is covered, a value known only
            // as it runs refused where it is set: round 13). On the
            // command's own line it is the user's environment's: refused.
            let alone = whole_name
                && *start == 0
                && !positional(name)
                && vars.contains_key(super::IN_A_SCRIPT);
            !(alone || (whole_name && known(name) && !positional(name)))
        } else {
            *start > 0 && (positional(name) || !known(name))
        };
        if refused {
            return Some(format!(
                "is named with `${name}` as it runs (a variable {})",
                if known(name) {
                    "inside the file's name"
                } else {
                    "this text never sets"
                }
            ));
        }
    }
    None
}

/// The parameter expansions of `word` (`$X`, `${X…}`, `$1`, `$*`, `$@`,
/// `$#`) outside single quotes and command substitutions: each one's
/// start, end and name.
fn expansions(word: &str) -> Vec<(usize, usize, String)> {
    let bytes = word.as_bytes();
    let mut out = Vec::new();
    let mut single = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => single = !single,
            b'$' if !single => {
                let start = i;
                let braced = bytes.get(i + 1) == Some(&b'{');
                let from = i + 1 + usize::from(braced);
                let mut to = from;
                if bytes.get(from).is_some_and(|b| b"*@#".contains(b)) {
                    to += 1;
                } else {
                    while bytes
                        .get(to)
                        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    {
                        to += 1;
                    }
                }
                if to > from {
                    let end = if braced {
                        bytes[to..]
                            .iter()
                            .position(|&b| b == b'}')
                            .map_or(bytes.len(), |n| to + n + 1)
                    } else {
                        to
                    };
                    out.push((start, end, word[from..to].to_string()));
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
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
pub(super) fn is_interpreter(name: &str) -> bool {
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
