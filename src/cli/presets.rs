//! `ctxcurate preset …`: list, show, save-as, apply, rename, delete.
//!
//! Applying a preset is the user's own choice: it goes to their state
//! file for this checkout (`core::project::personal`), never into the
//! shared `ctxcurate.toml`; `preset save` writes the new preset there,
//! not which one is active.

use anyhow::Result;
use ctxcurate::core::project::{Project, Scope};
use ctxcurate::text::sanitize::display_line;
use ctxcurate::text::words::plural;

/// Names and paths come from files: shown escaped, never raw.
fn safe(s: &str) -> String {
    display_line(s, 200).into_owned()
}

use super::Ctx;
use super::args::PresetCommand;

pub fn run(cmd: PresetCommand, ctx: &mut Ctx) -> Result<()> {
    let mut project = ctx.project()?;
    let message = match cmd {
        PresetCommand::List | PresetCommand::Show { .. } => return show(cmd, &project, ctx),
        // Edits run under the project lock, on the file as it is then.
        PresetCommand::Save { name } => project.edit(|p| {
            p.save_as(&name)
                .map(|()| format!("saved preset {name} and made it active"))
        })?,
        // Without a state directory, opening the project said that the
        // choice is not remembered.
        PresetCommand::Apply { name } => project.edit(|p| {
            p.apply(&name).map(|()| {
                format!(
                    "active preset is now {} (for you, in this checkout)",
                    safe(&name)
                )
            })
        })?,
        PresetCommand::Rename { old, new } => project.edit(|p| {
            p.rename(&old, &new)
                .map(|()| format!("renamed preset {old} to {new}"))
        })?,
        PresetCommand::Delete { name } => {
            project.edit(|p| p.delete(&name).map(|()| format!("deleted preset {name}")))?
        }
    };
    writeln!(ctx.out, "{message}")?;
    Ok(())
}

/// `preset list` and `preset show`: read only.
fn show(cmd: PresetCommand, project: &Project, ctx: &mut Ctx) -> Result<()> {
    match cmd {
        PresetCommand::List => {
            let active = project.active_preset_name().to_string();
            let names = project.preset_names();
            if names.is_empty() {
                writeln!(
                    ctx.out,
                    "(no presets; `{active}` is created on the first edit)"
                )?;
            }
            for (name, scope) in names {
                let mark = if name == active { '*' } else { ' ' };
                let desc = project
                    .preset(&name)
                    .map(|(p, _)| p.description.clone())
                    .unwrap_or_default();
                let scope = match scope {
                    Scope::Project => "",
                    Scope::Global => " (global)",
                };
                let line = format!("{mark} {}{scope}", safe(&name));
                if desc.is_empty() {
                    writeln!(ctx.out, "{line}")?;
                } else {
                    writeln!(ctx.out, "{line}  — {}", safe(&desc))?;
                }
            }
            Ok(())
        }
        PresetCommand::Show { name } => {
            let asked = name.is_some();
            let name = name.unwrap_or_else(|| project.active_preset_name().to_string());
            let Some((preset, scope)) = project.preset(&name) else {
                if !asked {
                    // The active preset before its first edit: `build`
                    // composes it (empty), so it is no error to show it.
                    writeln!(
                        ctx.out,
                        "preset {} (no files yet; `ctxcurate add PATH` adds some)",
                        safe(&name)
                    )?;
                    return Ok(());
                }
                return Err(project.no_such_preset(&name).into());
            };
            let scope = match scope {
                Scope::Project => "project",
                Scope::Global => "global",
            };
            writeln!(ctx.out, "preset {} ({scope})", safe(&name))?;
            if !preset.description.is_empty() {
                writeln!(ctx.out, "  {}", safe(&preset.description))?;
            }
            for f in &preset.files {
                let mut flags = vec![f.view_mode.to_string()];
                if f.force_full {
                    flags.push("force_full".into());
                }
                if !f.auto_aggregate {
                    flags.push("listed only".into());
                }
                if !f.ast_mask.is_empty() {
                    flags.push(format!("{} masked", plural(f.ast_mask.len(), "symbol")));
                }
                if !f.custom_slices.is_empty() {
                    flags.push(plural(f.custom_slices.len(), "slice"));
                }
                writeln!(ctx.out, "  {}  [{}]", safe(&f.path), flags.join(", "))?;
            }
            for e in &preset.exclude {
                writeln!(ctx.out, "  exclude {}", safe(e))?;
            }
            for t in &preset.targets {
                writeln!(ctx.out, "  target {}", safe(t))?;
            }
            if preset.repo_map > 0 {
                writeln!(ctx.out, "  repo map {} tokens", preset.repo_map)?;
            }
            if !preset.task.is_empty() {
                writeln!(ctx.out, "  task {}", safe(&preset.task))?;
            }
            for s in &preset.screenshots {
                writeln!(ctx.out, "  screenshot {}", safe(s))?;
            }
            if !preset.discussion.is_empty() {
                writeln!(
                    ctx.out,
                    "  {}",
                    plural(preset.discussion.len(), "discussion message")
                )?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
