//! An environment variable that makes a program the script starts run
//! a file, set from what is computed (recheck 21, item 8): bash runs
//! `$BASH_ENV` and sh `$ENV` before a script, so `ENV['BASH_ENV'] = x;
//! system('bash', '-c', 'true')` runs `x` unreviewed. Ruby's
//! `ENV['X'] = v`, `ENV.store('X', v)`, `{'X' => v}`; PHP's
//! `putenv("X=$v")`, `['X' => $v]`; Perl's `$ENV{X} = $v`, `X => $v`:
//! a line setting one of [`NAMES`] to anything but a written string is
//! refused.

/// The variables whose value a started program runs or loads.
const NAMES: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "LD_PRELOAD",
    "PERL5OPT",
    "RUBYOPT",
    "NODE_OPTIONS",
];

/// Whether `line` sets one of [`NAMES`] to a computed value.
pub(super) fn line(line: &str) -> bool {
    NAMES.iter().any(|name| {
        super::too_many(line, name)
            || line.match_indices(name).any(|(at, _)| {
                let before = &line[..at];
                let rest = &line[at + name.len()..];
                let prev = before.chars().next_back();
                if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                    || rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    return false;
                }
                // `"BASH_ENV=…"`: the string sets it (PHP's `putenv`).
                if matches!(prev, Some('"' | '\'')) && rest.starts_with('=') {
                    let expr = super::until_end(&line[at - 1..]);
                    let expr = super::super::env_path::split_top(expr, ',');
                    return !expr.first().is_some_and(|e| written(e.trim()));
                }
                // A key: `'BASH_ENV'`, `{BASH_ENV}`, `BASH_ENV =>`, `BASH_ENV:`.
                let rest = rest.trim_start_matches(['"', '\'']);
                let quoted = matches!(prev, Some('"' | '\''));
                let braced = before.ends_with('{') && rest.starts_with('}');
                let keyed = rest.trim_start().starts_with("=>") || rest.starts_with(':');
                if !(quoted || braced || keyed) {
                    return false;
                }
                let rest = rest.trim_start_matches([']', '}', ')', ':']).trim_start();
                let value = ["=>", ","]
                    .iter()
                    .find_map(|op| rest.strip_prefix(op))
                    .or_else(|| {
                        rest.strip_prefix('=')
                            .filter(|v| !v.starts_with(['=', '~']))
                    })
                    .or_else(|| (keyed && rest.starts_with(|c: char| c != '=')).then_some(rest));
                let Some(value) = value else {
                    return false;
                };
                let value = super::until_end(value.trim_start());
                let value = super::super::env_path::split_top(value, ',');
                let value = value.first().map_or("", |v| v.trim());
                !value.is_empty() && !written(value)
            })
    })
}

/// A string written out whole, interpolating nothing.
fn written(expr: &str) -> bool {
    let Some(q) = expr.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    let Some(inner) = expr[1..].strip_suffix(q) else {
        return false;
    };
    !(inner.contains(q) || q == '"' && inner.contains(['$', '@', '{']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_computed_bash_env_is_found_and_a_written_or_read_one_is_not() {
        for l in [
            "ENV['BASH_ENV'] = w",
            "ENV[\"ENV\"] = w",
            "ENV.store('BASH_ENV', w)",
            "system({'BASH_ENV' => w}, 'bash', '-c', 'true')",
            "putenv(\"BASH_ENV=$w\");",
            "putenv('BASH_ENV=' . $w);",
            "$ENV{BASH_ENV} = $w;",
            "local $ENV{'ENV'} = $w;",
            "spawn({ BASH_ENV: w }, 'bash')",
        ] {
            assert!(line(l), "{l}");
        }
        for l in [
            "ENV['BASH_ENV'] = '/dev/null'",
            "x = ENV['HOME']",
            "ENV.delete('BASH_ENV')",
            "if ENV['ENV'] == 'x'",
            "putenv('BASH_ENV=');",
            "$ENV{PATH} = $p;",
            "my $env = $ENV{ENV};",
        ] {
            assert!(!line(l), "{l}");
        }
    }
}
