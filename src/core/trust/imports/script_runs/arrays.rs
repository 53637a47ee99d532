//! Perl arrays bound only to written lists (consent round 8, item 5):
//! `my @argv = ('pg_ctlcluster', $version, $cluster, 'stop'); system
//! @argv` runs `pg_ctlcluster`, a program known before it runs (its
//! other words may be computed, as in any argv). Each binding of the
//! name in the file is one argv (`my @argv` in two subs: both read). A
//! name also bound otherwise (`@cmd = map …`, `= split …`, `= @other`),
//! given an item at its front (`unshift`, `splice`) or an element
//! (`$cmd[0] = …`) is not known: its runs stay refused. `push` adds
//! words after the program, which an argv's judge reads as it reads any
//! computed word (an interpreter's script still needs to be written).
//! A declaration with no list (`my @cmd;`) or a binding without one
//! (`@cmd = (…)`, which may come after the run) adds the empty list:
//! the call's next word is then its program. And `$^X` is the perl that
//! runs the script (as Python's `sys.executable` is Python).

use std::collections::HashMap;

use super::super::env_path::split_top;

/// The most lists kept for one name.
const MAX_LISTS: usize = 16;

/// The lists each array of `lines` is bound to, when all its bindings
/// are written lists; `None` for one that is not known.
pub(super) fn bindings(lines: &[&str]) -> HashMap<String, Option<Vec<Vec<String>>>> {
    let mut out: HashMap<String, Option<Vec<Vec<String>>>> = HashMap::new();
    // `$_[0] = …` in a sub changes its caller's array: none is known.
    let aliased = lines.iter().any(|l| {
        l.split("$_[").skip(1).any(|after| {
            after.split_once(']').is_some_and(|(_, rest)| {
                let rest = rest.trim_start();
                rest.starts_with('=') && !rest.starts_with("==")
            })
        })
    });
    for line in lines {
        let t = line.trim();
        for (at, sigil) in t.match_indices(['@', '$']) {
            let rest = &t[at + 1..];
            let rest = rest
                .strip_prefix('#')
                .filter(|_| sigil == "$")
                .unwrap_or(rest);
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let after = rest[end..].trim_start();
            let gives = |a: &str| {
                a.strip_prefix('=')
                    .is_some_and(|v| !v.starts_with(['=', '~', '>']))
            };
            let before = t[..at].trim_end();
            let word_before = before.trim_end_matches('(').trim_end();
            let changed = match sigil {
                "@" => {
                    // `shift @cmd`, `unshift`, `splice`, `pop`; aliased
                    // by `for`/`map`/`grep` or a reference; a list
                    // assignment (`my ($a, @cmd) = …`).
                    [
                        "shift", "unshift", "splice", "pop", "for", "foreach", "map", "grep",
                    ]
                    .iter()
                    .any(|w| {
                        word_before.ends_with(w)
                            && !word_before[..word_before.len() - w.len()]
                                .ends_with(|c: char| c.is_alphanumeric() || c == '_')
                    }) || before.ends_with(['\\', '}'])
                        || before.contains("for") && before.ends_with('(')
                        || after.starts_with(')') && gives(after[1..].trim_start())
                }
                // `$cmd[0] = …`, `$#cmd = …`.
                _ => {
                    (after.starts_with('[')
                        && after
                            .split_once(']')
                            .is_some_and(|(_, r)| gives(r.trim_start())))
                        || t[at + 1..].starts_with('#') && gives(after)
                }
            };
            if changed || aliased {
                out.insert(name.to_string(), None);
                continue;
            }
            // `my @cmd;` (or `my (@cmd)`, `our @cmd;`): empty until set,
            // and an empty list runs the call's next word (round 8).
            let declared = ["my", "our", "local"]
                .iter()
                .any(|k| word_before.ends_with(k));
            let empty = sigil == "@"
                && (declared && (after.starts_with(';') || after.starts_with(')'))
                    || !declared && gives(after));
            if empty {
                let entry = out
                    .entry(name.to_string())
                    .or_insert_with(|| Some(Vec::new()));
                if let Some(lists) = entry.as_mut()
                    && !lists.contains(&Vec::new())
                {
                    lists.push(Vec::new());
                }
            }
            if sigil == "@" && gives(after) {
                // `@cmd = (…)` anywhere on the line (`sub f { my @cmd = … }`).
                let value = after[1..].split(';').next().unwrap_or("").trim();
                let list = items(value);
                let entry = out
                    .entry(name.to_string())
                    .or_insert_with(|| Some(Vec::new()));
                match (list, entry.as_mut()) {
                    (Some(list), Some(lists)) if lists.len() < MAX_LISTS => lists.push(list),
                    _ => *entry = None,
                }
            }
        }
    }
    out
}

/// The items of a written list: `(a, b)`, `qw(a b)`, `(qw(a b), $c)`.
fn items(value: &str) -> Option<Vec<String>> {
    if let Some(words) = qw(value) {
        return Some(words);
    }
    let inner = value.strip_prefix('(')?.strip_suffix(')')?;
    let mut out = Vec::new();
    for item in split_top(inner, ',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        match qw(item) {
            Some(words) => out.extend(words),
            None => out.push(item.to_string()),
        }
    }
    Some(out)
}

/// The words of `qw(…)`/`qw/…/`/`qw[…]`, each single-quoted.
fn qw(text: &str) -> Option<Vec<String>> {
    let body = text.strip_prefix("qw")?;
    let open = body.chars().next()?;
    let close = match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    };
    let inner = body[open.len_utf8()..].strip_suffix(close)?;
    Some(inner.split_whitespace().map(|w| format!("'{w}'")).collect())
}

/// The argvs a call's `args` may be with each `@name` of `arrays`
/// replaced by its lists (one argv per list), or `args` as they are.
pub(super) fn expand(
    args: &[String],
    arrays: &HashMap<String, Option<Vec<Vec<String>>>>,
) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for arg in args {
        let lists = arg
            .strip_prefix('@')
            .and_then(|name| arrays.get(name))
            .and_then(|l| l.as_ref());
        match lists {
            Some(lists) if !lists.is_empty() => {
                out = out
                    .iter()
                    .flat_map(|done| {
                        lists.iter().map(move |list| {
                            let mut argv = done.clone();
                            argv.extend(list.iter().cloned());
                            argv
                        })
                    })
                    .take(MAX_LISTS)
                    .collect();
            }
            _ => {
                for argv in &mut out {
                    argv.push(arg.clone());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_bound_to_written_lists_is_read_and_one_changed_at_its_front_is_not() {
        let lines = [
            "my @argv = ('pg_ctlcluster', $version, $cluster, 'stop');",
            "@argv = qw(git log -1);",
            "my @cmd = ('cc', '-c');",
            "unshift @cmd, $w;",
            "my @x = split / /, $line;",
            "my @y = ('ls');",
            "$y[0] = $w;",
            "sub f { my @z = ('ls'); system @z; }",
            "sub g { my @z = ($w); system @z; }",
            "for my $x (@r) { } my @r = ('ls');",
            "my @s = ('ls'); f(\\@s);",
        ];
        let arrays = bindings(&lines);
        assert_eq!(
            expand(&["@argv".to_string()], &arrays),
            [
                vec!["'pg_ctlcluster'", "$version", "$cluster", "'stop'"],
                // Set without `my` here: maybe run before, empty.
                vec![],
                vec!["'git'", "'log'", "'-1'"],
            ]
        );
        assert_eq!(
            arrays.get("z").and_then(|l| l.as_ref()).map(Vec::len),
            Some(2)
        );
        let declared = bindings(&["my @c;", "if ($s) { @c = qw(ln -s); }"]);
        assert_eq!(
            expand(&["@c".to_string(), "$f".to_string()], &declared),
            [vec!["$f"], vec!["'ln'", "'-s'", "$f"]]
        );
        for name in ["cmd", "x", "y", "r", "s"] {
            assert_eq!(arrays.get(name), Some(&None), "{name}");
        }
        assert_eq!(
            expand(&["@cmd".to_string(), "$f".to_string()], &arrays),
            [vec!["@cmd", "$f"]]
        );
    }
}
