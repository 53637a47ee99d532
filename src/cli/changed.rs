//! `add --changed`, `build --changed` and `build --diff`: git's view of a
//! change turned into preset entries, extra files of one build, or the
//! `## Changes` section. What git is asked and how is `core::git`; this
//! file decides what to do with the answer and says it on stderr (a
//! packed build fits the changes to its budget in `core::engine`).
//!
//! Changed files pass through the project's walk, so what the walk never
//! shows (built-in ignores such as `ctxcurate.toml` itself,
//! `.ctxcurateignore`, binaries the walk skips) is not added either, nor
//! is a credential file (`core::git::held_back`), whose diff is dropped
//! too. `add --changed` records no consent: git named the files, not the
//! user.
//! Outside a git repository each of these is a user error (exit 1) and
//! nothing is changed or written.

use ctxcurate::text::words::noun_for;
use std::collections::HashSet;

use anyhow::Result;
use ctxcurate::core::compose::changes::Changes;
use ctxcurate::core::engine::Workspace;
use ctxcurate::core::git::GitError;
use ctxcurate::core::model::{FileItem, Preset, ViewMode};
use ctxcurate::core::project::Project;
use ctxcurate::core::sources::Sources;
use ctxcurate::core::walk;
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

/// `build --changed [REF]`: `preset` with the changed files it does not
/// already show added in full (for this build only).
pub fn on_top(project: &Project, mut preset: Preset, rev: &str, ctx: &mut Ctx) -> Result<Preset> {
    let files = changed_in_project(project, rev, &preset.exclude, ctx)?;
    let walked = project.walk();
    let (resolved, _) = walk::expand_over(&preset.files, &preset.exclude, &walked);
    let shown: HashSet<&str> = resolved.iter().map(|r| r.path.as_str()).collect();
    let new: Vec<String> = files
        .iter()
        .filter(|p| !shown.contains(p.as_str()))
        .cloned()
        .collect();
    writeln!(
        ctx.err,
        "note: {} changed {} against {}, {} added on top of the preset",
        files.len(),
        noun_for(files.len(), "file"),
        display_line(rev, 200),
        new.len()
    )?;
    preset.files.extend(new.into_iter().map(FileItem::new));
    Ok(preset)
}

/// `build --diff [REF]`: the changes to the files the project shows and
/// the preset does not exclude, capped at `max_bytes`.
pub fn diff(project: &Project, rev: &str, exclude: &[String], ctx: &mut Ctx) -> Result<Changes> {
    let sources = Sources::new();
    let changes = match Workspace::open(project, &sources).diff(rev, exclude) {
        Ok(c) => c,
        Err(e) => return git_err("--diff", e),
    };
    for note in &changes.notes {
        writeln!(ctx.err, "note: {}", display_line(note, 500))?;
    }
    Ok(changes)
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
fn git_err<T>(flag: &str, e: GitError) -> Result<T> {
    match e {
        e @ GitError::NotARepo { .. } => user_err!(
            "{}: --changed and --diff need one",
            display_line(&error_chain(&e), 500)
        ),
        e @ GitError::NotOwn { .. } => user_err!("{}", display_line(&error_chain(&e), 500)),
        e => user_err!("{flag}: {}", display_line(&error_chain(&e), 500)),
    }
}
