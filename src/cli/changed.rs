//! `add --changed`: git's view of a change turned into preset entries;
//! and the words of git's failures for `add --changed`, `build --changed`
//! and `build --diff` (the build's extra files and `## Changes` section
//! are resolved by the engine, `core::engine::ask`). What git is asked
//! and how is `core::git`.
//!
//! Changed files pass through the project's walk, so what the walk never
//! shows (built-in ignores such as `ctxcurate.toml` itself,
//! `.ctxcurateignore`, binaries the walk skips) is not added either, nor
//! is a credential file (`core::git::held_back`), whose diff is dropped
//! too. `add --changed` records no consent: git named the files, not the
//! user.
//! Outside a git repository each of these is a user error (exit 1) and
//! nothing is changed or written.

use anyhow::Result;
use ctxcurate::core::engine::Workspace;
use ctxcurate::core::git::GitError;
use ctxcurate::core::model::ViewMode;
use ctxcurate::core::project::Project;
use ctxcurate::core::sources::Sources;
use ctxcurate::text::error_chain;
use ctxcurate::text::sanitize::display_line;

use super::args::{Command, PresetTarget};
use super::{Ctx, user_err};

/// `ctxcurate add --changed [REF]`: add the changed files to a preset as
/// `add` would add them by name.
pub fn add(rev: &str, mode: Option<ViewMode>, target: PresetTarget, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let exclude = match &target.preset {
        None => project.active_preset().exclude,
        Some(name) => project
            .preset(name)
            .map(|(p, _)| p.exclude.clone())
            .unwrap_or_default(),
    };
    let files = changed_in_project(&project, rev, &exclude, ctx)?;
    if files.is_empty() {
        writeln!(
            ctx.out,
            "no changed files against {}: nothing added",
            display_line(rev, 200)
        )?;
        return Ok(());
    }
    let mut paths = Vec::with_capacity(files.len());
    for rel in &files {
        let abs = project.root.join(rel);
        let Some(abs) = abs.to_str() else {
            user_err!(
                "the project root {} is not valid UTF-8; add the files by name",
                project.root.display()
            );
        };
        paths.push(abs.to_string());
    }
    super::edit::run(
        Command::Add {
            paths,
            mode,
            target,
            // Set, so that the add records no consent: git named these
            // files, the user did not.
            changed: Some(rev.to_string()),
        },
        ctx,
    )
}

/// The changed files git reports that the project's walk shows and the
/// preset does not exclude, with a note on stderr for each kind of file
/// left out.
fn changed_in_project(
    project: &Project,
    rev: &str,
    exclude: &[String],
    ctx: &mut Ctx,
) -> Result<Vec<String>> {
    let sources = Sources::new();
    let changed = match Workspace::open(project, &sources).changed_files(rev, exclude) {
        Ok(c) => c,
        Err(e) => return git_err("--changed", e),
    };
    for note in changed.notes() {
        writeln!(ctx.err, "note: {}", display_line(&note, 1000))?;
    }
    Ok(changed.paths)
}

/// A git failure as the user error `flag` reports: no repository (or not
/// this checkout's own) is said as it is, anything else after the flag.
pub(super) fn git_err<T>(flag: &str, e: GitError) -> Result<T> {
    match e {
        e @ GitError::NotARepo { .. } => user_err!(
            "{}: --changed and --diff need one",
            display_line(&error_chain(&e), 500)
        ),
        e @ GitError::NotOwn { .. } => user_err!("{}", display_line(&error_chain(&e), 500)),
        e => user_err!("{flag}: {}", display_line(&error_chain(&e), 500)),
    }
}
