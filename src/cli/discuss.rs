//! `ctxcurate discuss|shot|task`: the parts of a preset that are not
//! files — the discussion history, screenshots and the task. Each edit is
//! one [`Project::edit`] around a `core::curation::discussion` call (the
//! edits the TUI's `E`, `ctrl-k`, `e` and Space on an image make); this
//! module only reads the text (argument, `--file`, stdin), checks the
//! paths on disk and refuses likely secrets unless `--allow-secrets`.

use std::io::Read;
use std::path::Path;

use anyhow::Result;
use ctxcurate::core::curation::discussion as talk;
use ctxcurate::core::engine::ask;
use ctxcurate::core::model::DiscussionEntry;
use ctxcurate::core::paths::confine;
use ctxcurate::core::project::Project;
use ctxcurate::text::sanitize::display_line;
use ctxcurate::text::words::plural;

use super::args::{DiscussCommand, PresetTarget, ShotCommand, TaskCommand, TextSource};
use super::edit::{edit_noting, note_copied, target_preset};
use super::{Ctx, UserError, user_err};

/// How much of a message's first line `discuss list` shows.
const LIST_WIDTH: usize = 100;

pub fn discuss(command: DiscussCommand, ctx: &mut Ctx) -> Result<()> {
    match command {
        DiscussCommand::Add {
            role,
            source,
            target,
        } => {
            let role = talk::normalize_role(&role)?;
            let text = read_source(&source, ctx)?;
            refuse_secrets("the message", &text, source.allow_secrets)?;
            edit(ctx, &target, |preset| {
                let count = talk::add_message(preset, &role, &text)?;
                Ok(format!(
                    "discussion: {} (added one by {role})",
                    plural(count, "message")
                ))
            })
        }
        DiscussCommand::Compact {
            text,
            allow_secrets,
            target,
        } => {
            let text = text.unwrap_or_default();
            refuse_secrets("the summary", &text, allow_secrets)?;
            edit(ctx, &target, |preset| {
                let count = talk::add_compaction(preset, &text)?;
                Ok(format!(
                    "discussion: compaction point added ({}; the history starts there)",
                    plural(count, "entry")
                ))
            })
        }
        DiscussCommand::List { preset } => {
            let project = ctx.project()?;
            let preset = ask::preset_named(&project, preset.as_deref())?.0;
            if preset.discussion.is_empty() {
                writeln!(ctx.err, "no discussion in this preset")?;
            }
            for (i, entry) in preset.discussion.iter().enumerate() {
                writeln!(ctx.out, "{}", list_line(i + 1, entry))?;
            }
            Ok(())
        }
        DiscussCommand::Clear { target } => edit(ctx, &target, |preset| {
            let count = talk::clear_discussion(preset);
            Ok(format!(
                "discussion cleared ({} removed)",
                plural(count, "entry")
            ))
        }),
    }
}

pub fn shot(command: ShotCommand, ctx: &mut Ctx) -> Result<()> {
    let mut project = ctx.project()?;
    let root = project.root.clone();
    let (paths, adding, target) = match command {
        ShotCommand::Add { paths, target } => (paths, true, target),
        ShotCommand::Rm { paths, target } => (paths, false, target),
    };
    let mut rels = Vec::new();
    for arg in &paths {
        let rel = ctx.rel_path(&root, Path::new(arg))?;
        if adding {
            talk::check_screenshot_path(&rel)?;
            confine::check_file_inside(&root, &rel).map_err(|e| UserError(e.to_string()))?;
        }
        rels.push(rel);
    }
    let (message, copied) = edit_noting(&mut project, |project| -> Result<String> {
        let (name, preset) = target_preset(project, &target)?;
        let mut changed = 0;
        for rel in &rels {
            if adding {
                changed += usize::from(talk::add_screenshot(preset, rel)?);
            } else if talk::remove_screenshot(preset, rel) {
                changed += 1;
            } else {
                user_err!("{rel} is not a screenshot of preset {name}");
            }
        }
        Ok(format!(
            "{} {} {} preset {name} ({} in all)",
            if adding { "added" } else { "removed" },
            plural(changed, "screenshot"),
            if adding { "to" } else { "from" },
            preset.screenshots.len()
        ))
    })?;
    writeln!(ctx.out, "{}", display_line(&message, usize::MAX))?;
    note_copied(ctx, &copied)
}

pub fn task(command: TaskCommand, ctx: &mut Ctx) -> Result<()> {
    match command {
        TaskCommand::Set { source, target } => {
            let text = read_source(&source, ctx)?;
            refuse_secrets("the task", &text, source.allow_secrets)?;
            if text.trim().is_empty() {
                user_err!("the task is empty (`ctxcurate task clear` removes it)");
            }
            edit(ctx, &target, |preset| {
                talk::set_task(preset, &text);
                Ok(format!(
                    "task set ({})",
                    plural(preset.task.lines().count(), "line")
                ))
            })
        }
        TaskCommand::Show { preset } => {
            let project = ctx.project()?;
            let preset = ask::preset_named(&project, preset.as_deref())?.0;
            if preset.task.is_empty() {
                writeln!(ctx.err, "no task in this preset")?;
                return Ok(());
            }
            super::write_content(ctx, &preset.task)
        }
        TaskCommand::Clear { target } => edit(ctx, &target, |preset| {
            Ok(if talk::set_task(preset, "") {
                "task cleared".to_string()
            } else {
                "there was no task".to_string()
            })
        }),
    }
}

/// Run `change` on the target preset as one [`Project::edit`] and print
/// its message.
fn edit(
    ctx: &mut Ctx,
    target: &PresetTarget,
    change: impl FnOnce(&mut ctxcurate::core::model::Preset) -> Result<String>,
) -> Result<()> {
    let mut project: Project = ctx.project()?;
    let (message, copied) = edit_noting(&mut project, |project| -> Result<String> {
        let (name, preset) = target_preset(project, target)?;
        Ok(format!("{} in preset {name}", change(preset)?))
    })?;
    writeln!(ctx.out, "{}", display_line(&message, usize::MAX))?;
    note_copied(ctx, &copied)
}

/// The text of a message or task: the argument, `--file FILE`, or stdin
/// for `-` (either way); it must be UTF-8.
fn read_source(source: &TextSource, ctx: &Ctx) -> Result<String> {
    let (bytes, what) = match (&source.text, &source.file) {
        (Some(text), None) if text != "-" => return Ok(text.clone()),
        (_, Some(file)) if file.as_os_str() != "-" => {
            let path = ctx.cwd.join(file);
            match std::fs::read(&path) {
                Ok(bytes) => (bytes, file.display().to_string()),
                Err(e) => user_err!("cannot read {}: {e}", file.display()),
            }
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| UserError(format!("cannot read stdin: {e}")))?;
            (bytes, "stdin".to_string())
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) => user_err!(
            "{what} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    }
}

/// Refuse `text` when it holds a likely secret, unless allowed.
fn refuse_secrets(what: &str, text: &str, allow: bool) -> Result<()> {
    match talk::secrets_in(text) {
        Some(found) if !allow => {
            user_err!("{what} holds {found}; not saved (--allow-secrets keeps it anyway)")
        }
        _ => Ok(()),
    }
}

/// One line of `discuss list`: number, role, first line (escaped), and
/// how many lines follow.
fn list_line(number: usize, entry: &DiscussionEntry) -> String {
    let mut lines = entry.content.lines();
    let first = display_line(lines.next().unwrap_or(""), LIST_WIDTH);
    let more = lines.count();
    let more = if more > 0 {
        format!(" (+{})", plural(more, "line"))
    } else {
        String::new()
    };
    if entry.role == DiscussionEntry::COMPACTION {
        format!("{number:>3}  -- compaction -- {first}{more}")
    } else {
        format!(
            "{number:>3}  {}: {first}{more}",
            display_line(&entry.role, 40)
        )
    }
}
