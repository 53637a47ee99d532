//! The variables a shell line sets that change what a git run after it
//! reads ([`git_env`]): git's settings variables, the repository and
//! work tree it uses (`GIT_DIR`, `GIT_COMMON_DIR`, `GIT_WORK_TREE`), and
//! a variable whose name is built as the line runs. Each set is a
//! refusal; removing one of the summary's own is too.

use super::super::git_env;
use super::refuse;
use super::shell_words::unquote;

/// Refuse setting (or, `removed`, removing) a variable through which a
/// script changes what its git reads ([`git_env`]). `GIT_DIR`,
/// `GIT_COMMON_DIR` and `GIT_WORK_TREE` set in shell text are refused
/// too (consent round 9): a git run after them, here or in a script
/// that inherits them, reads a repository (its config, its aliases) or
/// a work tree no review found (round 8 let them be, reading only a
/// command's own `GIT_DIR=x git …` in `tasks/git_alias.rs`).
pub(super) fn git_setting(name: &str, removed: bool, out: &mut Vec<String>) {
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
/// of git's or one that makes a program load a file
/// ([`git_env::may_be_watched`]: `${p}_HOME` may not).
pub(super) fn built_assignment(word: &str) -> Option<String> {
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
    (name_like && git_env::may_be_watched(&parts)).then(|| name.to_string())
}

/// Refuse setting a variable whose name `name` is built as it runs.
pub(super) fn refuse_built_name(name: &str, out: &mut Vec<String>) {
    refuse(
        out,
        format!(
            "sets a variable whose name is built as it runs (`{name}`), which may be one of \
             git's (`GIT_DIR`, `GIT_CONFIG_…`) or one that makes a program load a file \
             (`BASH_ENV`, `LD_PRELOAD`, `NODE_OPTIONS`, …) for the programs it runs"
        ),
    );
}
