//! What a shell script reaches as it runs: the files it `source`s (or
//! `.`s), read statement by statement, and the programs of the project
//! folders it puts in `PATH`. Moved out of `imports.rs` (consent round
//! 7); no change of behaviour.

use super::{
    MAX_NAMES, Reached, after_expansion, literal,
    places::{path_folder, place},
};
use std::path::{Path, PathBuf};

/// The files a shell text `source`s or `.`s by a relative path.
pub(super) fn shell_sources(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        for stmt in statements(line) {
            let rest = stmt
                .strip_prefix("source ")
                .or_else(|| stmt.strip_prefix(". "));
            let Some(rest) = rest else { continue };
            let word = first_word(rest);
            // `"$(dirname "$0")/lib.sh"`, `${BASH_SOURCE%/*}/lib.sh`,
            // `$DIR/lib.sh`: the folder is the script's (looked for there
            // and in the root, as any sourced path).
            let word = after_expansion(&word).unwrap_or(&word);
            if !word.is_empty() && !word.starts_with('/') && !word.contains('$') {
                out.push(word.to_string());
            }
        }
    }
    out
}

/// The statements of a shell line: split at `;`, `&` and `|` outside
/// `$(…)` and `${…}`, trimmed.
pub(super) fn statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        let after = std::mem::replace(&mut previous, c);
        match c {
            '(' | '{' if after == '$' || depth > 0 => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            // A function's `{ … }`, a subshell's `( … )`: commands inside.
            ';' | '&' | '|' | '{' | '}' | '(' | ')' if depth == 0 => {
                out.push(line[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    out.push(line[start..].trim());
    out
}

/// The first shell word of `text`: up to a blank outside `$(…)` and
/// `${…}`, its quotes dropped.
pub(super) fn first_word(text: &str) -> String {
    let mut depth = 0usize;
    let mut word = String::new();
    for c in text.trim_start().chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth == 0 => break,
            _ => {}
        }
        if c != '"' && c != '\'' {
            word.push(c);
        }
    }
    word
}

/// What shell script `text` (in folder `here`) runs: the files it
/// sources and those its commands name, looked for beside it and in the
/// root; the scripts it names by a pattern.
pub(super) fn shell_runs(
    real_root: &Path,
    text: &str,
    here: &Path,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let named = literal::shell(text);
    out.patterns
        .extend(named.patterns.iter().take(MAX_NAMES).cloned());
    let refusals: Vec<String> = super::super::unknown::script(text)
        .into_iter()
        .filter(|r| !super::super::unknown::repeats_a_pattern(r, named.patterns.iter()))
        .take(MAX_NAMES)
        .collect();
    out.patterns.extend(refusals);
    let sourced = shell_sources(text).into_iter().chain(named.paths);
    for sourced in super::within(sourced, 2 * MAX_NAMES, out) {
        for base in [here, real_root] {
            place(real_root, &base.join(&sourced), out, found);
        }
    }
    for folder in super::within(&named.folders, MAX_NAMES, out) {
        for base in [here, real_root] {
            path_folder(real_root, &base.join(folder), out, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sourced_shell_files_are_read() {
        assert_eq!(
            shell_sources("source ./lib.sh\n. \"common.sh\"; echo\nsource $X\nsource /etc/x\n"),
            ["./lib.sh", "common.sh"]
        );
    }

    /// The idioms that source a file beside the script name it by the
    /// script's folder: what follows that folder is read (round eight).
    #[test]
    fn files_sourced_from_the_scripts_folder_are_read() {
        let text = ". \"$(dirname \"$0\")/lib.sh\"\n\
                    source \"${BASH_SOURCE%/*}/../common/env.sh\"\n\
                    source $HERE/util.sh\n\
                    . \"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)/more.sh\"\n\
                    source \"$DIR/$NAME.sh\"\n";
        assert_eq!(
            shell_sources(text),
            ["lib.sh", "../common/env.sh", "util.sh", "more.sh"]
        );
    }
}
