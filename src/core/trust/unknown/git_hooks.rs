//! Which `git` runs the repository's hooks: a subcommand that writes
//! the index or a ref (`commit`, `checkout`, `add`, …), a setting on its
//! command line that names hooks or the fsmonitor program, and, for a
//! git run with an environment of its own, anything but a reading
//! subcommand. Shared with the readers of Python's, Node's and the
//! other scripts' argvs.

use super::shell_words::unquote;

/// The options of `git` that take a value as the next word.
pub const GIT_WITH_VALUE: [&str; 6] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
];

/// The git commands whose work runs the repository's hooks
/// (`pre-commit`, `post-checkout`, `post-merge`, `pre-push`,
/// `pre-rebase`, `reference-transaction`, …): what `.git/hooks` or
/// `core.hooksPath` holds when they run. Reading commands (`log`, `diff`,
/// `show`, `status`, `branch --show-current`) are not among them.
const RUNS_HOOKS: &[&str] = &[
    "commit",
    "merge",
    "pull",
    "rebase",
    "am",
    "checkout",
    "switch",
    "push",
    "cherry-pick",
    "revert",
    "fetch",
    "clone",
    "worktree",
    "gc",
    "maintenance",
    "send-email",
    "update-ref",
    "reset",
    // They write the index, which runs `post-index-change` (round 7);
    // a summary command runs with hooks off (`core::summary::command`),
    // but not a git the script runs with an environment of its own.
    "add",
    "rm",
    "mv",
    "restore",
    "update-index",
    "read-tree",
    "bisect",
    "filter-branch",
    "sparse-checkout",
];

/// Why `git` given `args` (quotes kept or not) runs the repository's
/// hooks, when it does ([`RUNS_HOOKS`]): for the shell text read here and
/// the argvs and lines a Python or Node script runs itself.
pub fn git_runs_hooks(args: &[String]) -> Option<String> {
    if let Some(setting) = hooks_setting(args) {
        return Some(format!(
            "runs git with `{setting}`, which names the programs git runs as hooks"
        ));
    }
    let sub = git_subcommand(args)?;
    RUNS_HOOKS.contains(&sub.as_str()).then(|| {
        format!(
            "runs `git {sub}`, which runs the repository's hooks (`.git/hooks`, \
             `core.hooksPath`) as they are then"
        )
    })
}

/// A setting given on git's command line (`-c k=v`, `--config-env`)
/// that names where hooks or the fsmonitor program are, or one known
/// only as it runs (it may): it overrides the summary's hooks-off
/// environment.
fn hooks_setting(args: &[String]) -> Option<String> {
    let mut words = args.iter().map(|a| unquote(a));
    while let Some(word) = words.next() {
        let setting = match word.as_str() {
            "-c" | "--config-env" => words.next()?,
            "-C" | "--git-dir" | "--work-tree" | "--namespace" => {
                words.next();
                continue;
            }
            w if w.starts_with("--config-env=") => w["--config-env=".len()..].to_string(),
            w if !w.starts_with('-') => return None,
            _ => continue,
        };
        let lower = setting.to_ascii_lowercase();
        if lower.contains("hookspath")
            || lower.contains("fsmonitor")
            || setting.contains(['$', '<', '`'])
        {
            return Some(setting);
        }
    }
    None
}

/// The git subcommands that write neither the index nor a ref (so run
/// no hook) whatever the environment: all a git run with an environment
/// of its own (`env -i git …`, Python's `env={…}`) may run, for such a
/// git does not get the summary's hooks-off settings (round 7).
const WRITES_NOTHING: &[&str] = &[
    "log",
    "show",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "cat-file",
    "config",
    "version",
    "help",
    "rev-list",
    "blame",
    "grep",
    "shortlog",
    "name-rev",
    "merge-base",
    "show-ref",
    "for-each-ref",
    "var",
];

/// Why `git` given `args`, run with an environment of its own, may run
/// the repository's hooks: any subcommand but [`WRITES_NOTHING`] (`git
/// status` writes the index, `git branch x` a ref), and what
/// [`git_runs_hooks`] refuses.
pub fn git_runs_hooks_in_own_env(args: &[String]) -> Option<String> {
    if let Some(why) = git_runs_hooks(args) {
        return Some(why);
    }
    let sub = git_subcommand(args)?;
    (!WRITES_NOTHING.contains(&sub.as_str())).then(|| {
        format!(
            "runs `git {sub}` with an environment of its own, without the hooks-off \
             settings a summary command gets: it may write the index or a ref and run the \
             repository's hooks (`post-index-change`, `reference-transaction`) as they are then"
        )
    })
}

/// The subcommand `git` runs: its first word that is no option nor an
/// option's value (`git -C sub -c k=v commit` → `commit`).
fn git_subcommand(args: &[String]) -> Option<String> {
    let mut rest = args.iter().map(|a| unquote(a));
    while let Some(word) = rest.next() {
        if GIT_WITH_VALUE.contains(&word.as_str()) {
            rest.next();
        } else if !word.starts_with('-') {
            return Some(word);
        }
    }
    None
}
