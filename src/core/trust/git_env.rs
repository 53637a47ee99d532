//! The environment variables through which a script changes what the
//! `git` it runs reads (consent round 8): every summary command runs
//! with hooks off through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/
//! `GIT_CONFIG_VALUE_n` (`core::summary::command`), and a script that
//! sets `GIT_CONFIG_COUNT` or a `GIT_CONFIG_KEY_n` replaces those
//! settings; `GIT_CONFIG_PARAMETERS` (read after them) overrides them;
//! `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM` and `GIT_CONFIG` name a
//! settings file, `GIT_DIR` and `GIT_COMMON_DIR` a repository (its
//! settings), `GIT_WORK_TREE` the tree whose attributes git reads (round
//! 9), `GIT_EXEC_PATH` the folder git runs its subcommands from:
//! none of which a review covers. Setting one is refused, and so is
//! removing one of the summary's own (`GIT_CONFIG_COUNT`, `_KEY_n`,
//! `_VALUE_n`); removing another (`delete $ENV{GIT_DIR}`) gives git its
//! defaults and is let be, as reading one is (`os.environ.get("GIT_DIR")`).
//!
//! [`script`] reads a Python, Node, Perl, Ruby or PHP script's text for
//! a write of one (`os.environ["GIT_DIR"] = …`, `os.putenv(…)`,
//! `env={**os.environ, "GIT_DIR": …}`, `process.env.GIT_DIR = …`, `{
//! GIT_DIR: … }`, `$ENV{GIT_DIR} = …`, `ENV["GIT_DIR"] = …`,
//! `putenv("GIT_DIR=…")`, `del`/`delete`/`unset`/`.pop(`): text, not a
//! parse, so an occurrence that is not plainly a read is taken for a
//! write (more refusals, never fewer). A name built as it runs
//! (`os.environ[k] = v`, `os.environ["GIT_" + x]`) is found by
//! [`computed`] (round 9).

mod computed;

pub use computed::{LOADERS, Syntax, may_be_watched, runs_programs, writes as built_name_writes};

/// The most lines read, and writes kept.
const MAX_LINES: usize = 50_000;
const MAX_FOUND: usize = 16;

/// Whether `name` is one of the summary's own hooks-off settings (git
/// reads the first `GIT_CONFIG_COUNT` of `GIT_CONFIG_KEY_n`/`VALUE_n`).
fn summary_own(name: &str) -> bool {
    name == "GIT_CONFIG_COUNT"
        || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
}

/// Why setting environment variable `name` changes what a `git` run
/// then reads in a way no review covers, when it does.
pub fn why_set(name: &str) -> Option<String> {
    let what = if summary_own(name) || name == "GIT_CONFIG_PARAMETERS" {
        "git reads settings from it, which replace or override the hooks-off settings a \
         summary command gets (`core.hooksPath`) and may name programs git runs"
    } else if matches!(
        name,
        "GIT_CONFIG_GLOBAL" | "GIT_CONFIG_SYSTEM" | "GIT_CONFIG"
    ) {
        "git then reads its settings from a file no review covers (they may name programs \
         git runs: `core.pager`, `diff.external`, aliases)"
    } else if matches!(name, "GIT_DIR" | "GIT_COMMON_DIR") {
        "git then uses a repository whose settings and hooks no review covers"
    } else if name == "GIT_WORK_TREE" {
        "git then works in a tree whose attributes (the filters and drivers they name) no \
         review covers"
    } else if name == "GIT_EXEC_PATH" {
        "git then runs its subcommands from a folder no review covers"
    } else {
        return None;
    };
    Some(format!("sets `{name}` for what it runs: {what}"))
}

/// Why removing environment variable `name` does, when it does: only
/// the summary's own settings are lost.
pub fn why_removed(name: &str) -> Option<String> {
    summary_own(name).then(|| {
        format!(
            "removes `{name}` from what it runs: a git run then loses the hooks-off settings \
             a summary command gets and may run the repository's hooks"
        )
    })
}

/// Whether `name` is one of the variables read here.
pub fn watched(name: &str) -> bool {
    why_set(name).is_some()
}

/// What precedes a name in a read of it (the opening quote or bracket
/// passed over): a function that reads a variable.
const READS: &[&str] = &[
    ".get(",
    "getenv(",
    "getenv (",
    ".fetch(",
    ".key?(",
    ".has_key?(",
    ".include?(",
    "exists $ENV{",
    "defined $ENV{",
    "isset(",
    "array_key_exists(",
    "hasOwnProperty(",
    "${",
];

/// What precedes a name in a removal of it.
const REMOVES: &[&str] = &[
    "del os.environ[",
    "delete $ENV{",
    "delete local $ENV{",
    "delete process.env.",
    "delete process.env[",
    "delete env.",
    "delete env[",
    ".pop(",
    "unsetenv(",
    ".delete(",
    "unset(",
    "del env[",
];

/// The writes of a watched variable in a script's `text` (`comment`
/// starts its comment lines): why, and the line.
pub fn script(text: &str, comment: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    if !text.contains("GIT_") {
        return out;
    }
    for line in text.lines().take(MAX_LINES) {
        let trimmed = line.trim();
        if trimmed.starts_with(comment) || !trimmed.contains("GIT_") {
            continue;
        }
        for why in line_writes(trimmed) {
            let shown: String = trimmed.chars().take(80).collect();
            let found = (why, shown);
            if !out.contains(&found) && out.len() < MAX_FOUND {
                out.push(found);
            }
        }
    }
    out
}

/// Why each watched name written in `line` is refused.
fn line_writes(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (at, _) in line.match_indices("GIT_") {
        if line[..at].chars().next_back().is_some_and(word) {
            continue;
        }
        let rest = &line[at..];
        let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        let name = &rest[..end];
        if !watched(name) {
            continue;
        }
        let before = line[..at].trim_end_matches(['\'', '"', '`', ' ']);
        let after = rest[end..].trim_start_matches(['\'', '"', '`', ']', '}', ' ', ')']);
        if READS.iter().any(|r| before.ends_with(r)) {
            continue;
        }
        let removed = REMOVES.iter().any(|r| before.ends_with(r))
            || before.ends_with("unset")
            || before.ends_with("-u");
        let why = if removed {
            why_removed(name)
        } else if sets(after) {
            why_set(name)
        } else {
            None
        };
        if let Some(why) = why
            && !out.contains(&why)
        {
            out.push(why);
        }
    }
    out
}

/// Whether what follows a name (past its closing quote or bracket)
/// gives it a value: `= …` (not `==`, `=~`), `: …` (an object's or a
/// dict's key; not `::`, nor a shell's `${X:-…}`, a read), `=> …`,
/// `, …` (an argument before the value: `os.putenv("X", v)`,
/// `setdefault`), `||=`, `.=`, `+=`.
fn sets(after: &str) -> bool {
    let after = after.trim_start();
    if let Some(value) = after.strip_prefix('=') {
        return !value.starts_with(['=', '~']);
    }
    if let Some(value) = after.strip_prefix(':') {
        return !value.starts_with(':');
    }
    after.starts_with(',')
        || after.starts_with("||=")
        || after.starts_with(".=")
        || after.starts_with("+=")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_setting_git_s_settings_or_repository_is_named() {
        for (text, comment) in [
            (
                "os.environ['GIT_CONFIG_PARAMETERS'] = \"'core.hookspath'='h'\"",
                "#",
            ),
            ("os.environ[\"GIT_DIR\"]=w", "#"),
            ("os.putenv('GIT_CONFIG_GLOBAL', w)", "#"),
            ("os.environ.setdefault('GIT_EXEC_PATH', w)", "#"),
            ("os.environ['GIT_WORK_TREE'] = w", "#"),
            (
                "subprocess.run(['git', 'log'], env={**os.environ, 'GIT_DIR': w})",
                "#",
            ),
            (
                "subprocess.run(['git', 'log'], env=dict(os.environ, GIT_CONFIG_COUNT='0'))",
                "#",
            ),
            ("os.environ.update(GIT_CONFIG_SYSTEM=w)", "#"),
            ("del os.environ['GIT_CONFIG_COUNT']", "#"),
            ("os.environ.pop('GIT_CONFIG_KEY_0', None)", "#"),
            ("process.env.GIT_CONFIG_PARAMETERS = w", "//"),
            (
                "spawn('git', ['log'], { env: { ...process.env, GIT_DIR: w } })",
                "//",
            ),
            ("process.env['GIT_CONFIG_COUNT'] = '0'", "//"),
            ("delete process.env.GIT_CONFIG_COUNT", "//"),
            ("$ENV{GIT_CONFIG_PARAMETERS} = $w;", "#"),
            ("local $ENV{'GIT_DIR'} = $w;", "#"),
            ("ENV['GIT_EXEC_PATH'] = w", "#"),
            ("system({ 'GIT_DIR' => w }, 'git', 'log')", "#"),
            ("putenv('GIT_CONFIG_GLOBAL=' . $w);", "//"),
            ("$_ENV['GIT_DIR'] = $w;", "//"),
        ] {
            assert_eq!(script(text, comment).len(), 1, "{text}");
        }
        for (text, comment) in [
            ("d = os.environ.get('GIT_DIR')", "#"),
            ("if os.environ['GIT_DIR'] == d: pass", "#"),
            ("x = os.getenv(\"GIT_EXEC_PATH\", '')", "#"),
            ("delete $ENV{GIT_DIR};", "#"),
            ("env.pop('GIT_DIR', None)", "#"),
            ("# os.environ['GIT_DIR'] = w", "#"),
            ("const d = process.env.GIT_DIR || '.git'", "//"),
            ("my $d = $ENV{GIT_DIR};", "#"),
            ("os.environ['GIT_CONFIG_NOSYSTEM'] = '1'", "#"),
            ("os.environ['GIT_DIRECTORY'] = w", "#"),
            ("os.environ['MY_GIT_DIR'] = w", "#"),
        ] {
            assert_eq!(script(text, comment), Vec::new(), "{text}");
        }
    }
}
