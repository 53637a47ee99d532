//! Whether a word's expansions are known before it runs: a command
//! substitution that prints a folder of the script's (`dirname "$0"`,
//! `git rev-parse --show-toplevel`) or where a program is (`command -v
//! x`) is; one that prints a file's line, or a variable set from one, is
//! not.

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
