//! The editing tools (`--allow-edits`): each changes one preset through
//! the curation core under `Project::edit` — the project lock, the file
//! reloaded as it is on disk, saved atomically with its comments and
//! layout — as the CLI's `add`, `rm`, `set` and `mask` do, so a person in
//! the TUI sees the agent's edit like any other writer's. The client named
//! the files: no consent is recorded, so a credential file added here
//! stays held until the person allows it.

use std::path::Path;

use ctxcurate::core::curation::{self, CurationError, Included};
use ctxcurate::core::model::{FileItem, MaskState, Preset, ViewMode};
use ctxcurate::core::project::{Project, ProjectError, Scope};
use ctxcurate::core::syntax::SymbolTree;
use ctxcurate::core::walk;

use super::args::{ExcludeArgs, IncludeArgs, MaskArgs, SavePresetArgs, SetModeArgs};
use super::error::ToolError;
use super::request::{agent_consent, inside, named, shown_name, shown_path};
use super::{edit_globs, glob_links};
use ctxcurate::text::sanitize::display_line;

impl From<ProjectError> for ToolError {
    fn from(e: ProjectError) -> Self {
        ToolError::new(ctxcurate::text::error_chain(&e))
    }
}

impl From<CurationError> for ToolError {
    fn from(e: CurationError) -> Self {
        ToolError::new(e.to_string())
    }
}

/// The preset an edit changes: the active one, or `name` (copied from the
/// global config, or created empty, in the project file, under the name
/// rule every front end follows). The name comes back as a reply shows
/// it ([`shown_name`]): a hand-written project file may hold any name.
fn target<'a>(
    project: &'a mut Project,
    name: Option<&str>,
) -> Result<(String, &'a mut Preset), ToolError> {
    let name = name.map_or_else(|| project.active_preset_name().to_string(), str::to_string);
    refuse_global(project, &name)?;
    let preset = project.preset_to_edit(&name)?;
    Ok((shown_name(&name), preset))
}

/// An error when `name` is a preset only the user's global config holds:
/// an agent's edit of it would copy it whole (its description, task,
/// discussion, paths into their home) into the team's file (sweep 13,
/// G1). The user edits their own.
fn refuse_global(project: &Project, name: &str) -> Result<(), ToolError> {
    match project.preset(name) {
        Some((_, Scope::Global)) => Err(ToolError::new(format!(
            "preset {} is the user's own, in their global config; an agent may not copy it \
             into the project's file (edit a project preset, or name a new one)",
            shown_name(name)
        ))),
        _ => Ok(()),
    }
}

/// What one `include`/`exclude` path names.
enum Named {
    File(String),
    Folder(String),
    Glob(String),
}

fn name_of(root: &Path, arg: &str) -> Result<Named, ToolError> {
    let rel = inside(root, arg)?;
    let rel = rel.strip_suffix("/**").unwrap_or(&rel).to_string();
    let abs = root.join(&rel);
    if abs.is_dir() {
        Ok(Named::Folder(rel))
    } else if abs.is_file() {
        Ok(Named::File(rel))
    } else if walk::is_glob(&rel) {
        walk::compile_glob(&rel).map_err(|e| {
            // The glob crate's error quotes the glob too.
            ToolError::new(display_line(&format!("bad glob {rel}: {e}"), 400))
        })?;
        Ok(Named::Glob(rel))
    } else {
        // The agent's own path, shown on one line: a line break in it would
        // read as a second line of the answer.
        Err(ToolError::new(format!(
            "{}: no such file or folder",
            shown_path(&rel)
        )))
    }
}

/// Refuse a glob an agent may not write ([`edit_globs`]): one naming
/// credential files alone, or whose fixed folders lead out of the root
/// through a link or into version control data.
fn refuse_glob(root: &Path, glob: &str) -> Result<(), ToolError> {
    let folders = edit_globs::fixed_folders(glob);
    if edit_globs::credentials_only(glob) {
        return Err(ToolError::new(format!(
            "refused: the glob {} names credential files and nothing else; an agent may not \
             add them to the project's presets (the user can, with `ctxcurate add` or the TUI)",
            shown_path(glob)
        )));
    }
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let leads_out = (!folders.is_empty()
        && std::fs::canonicalize(root.join(folders))
            .is_ok_and(|real| !real.starts_with(&real_root)))
        || glob_links::crosses_link_out(root, &real_root, glob);
    let into_git = folders.split('/').any(|c| c == ".git")
        || edit_globs::reaches_git(glob)
        || edit_globs::reaches_git(&format!("{glob}/**"))
        || std::fs::canonicalize(root.join(folders))
            .is_ok_and(|real| real.starts_with(real_root.join(".git")));
    if leads_out || into_git {
        return Err(ToolError::new(format!(
            "refused: the glob {} reaches {}; an agent may not add it to the project's presets",
            shown_path(glob),
            if leads_out {
                "outside the project through a link"
            } else {
                "version control data"
            }
        )));
    }
    Ok(())
}

/// Refuse an entry a build would hold for the user's consent: a
/// credential file (`.env`), version control data, an ignored file, or a
/// path that leads out of the root through a link. An agent's edit would
/// write it into the team's file; the person adds it themselves if they
/// want it (`ctxcurate add`, the TUI), and allows it there.
fn refuse_held(project: &Project, names: &[Named]) -> Result<(), ToolError> {
    let entries: Vec<FileItem> = names
        .iter()
        .filter_map(|n| match n {
            Named::File(rel) => Some(FileItem::new(rel.as_str())),
            Named::Folder(dir) => Some(FileItem::new(dir.as_str())),
            Named::Glob(_) => None,
        })
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    // A link on the way out of the root (the names alone look inside).
    let real_root = std::fs::canonicalize(&project.root).unwrap_or_else(|_| project.root.clone());
    for entry in &entries {
        // A link inside the root to its `.git` (recheck 22b: `gl/**` was
        // taken as the folder `gl`).
        if let Ok(real) = std::fs::canonicalize(project.root.join(&entry.path))
            && real.starts_with(real_root.join(".git"))
        {
            return Err(ToolError::new(format!(
                "refused: {} leads to version control data; an agent may not add it to the \
                 project's presets",
                display_line(&entry.path, 200)
            )));
        }
        if let Ok(real) = std::fs::canonicalize(project.root.join(&entry.path))
            && !real.starts_with(&real_root)
        {
            return Err(ToolError::new(format!(
                "refused: {} is a file outside the project (it leads to {}); an agent may \
                 not add it to the project's presets",
                display_line(&entry.path, 200),
                display_line(&real.display().to_string(), 200)
            )));
        }
    }
    let patterns = walk::WalkPatterns::from_settings(&project.settings);
    let held = agent_consent(project).held(&project.root, &entries, None, &patterns);
    match held.first() {
        None => Ok(()),
        Some(h) => {
            let leads = h
                .target()
                .map(|to| format!(" (it leads to {})", display_line(to, 200)))
                .unwrap_or_default();
            Err(ToolError::new(format!(
                "refused: {} is {}{leads}; an agent may not add it to the project's \
                 presets (the user can, with `ctxcurate add` or the TUI)",
                display_line(&h.path, 200),
                h.reason.describe()
            )))
        }
    }
}

pub fn include(project: &mut Project, args: &IncludeArgs) -> Result<String, ToolError> {
    super::request::at_most("paths", args.paths.len())?;
    let root = project.root.clone();
    let names = args
        .paths
        .iter()
        .map(|p| name_of(&root, p))
        .collect::<Result<Vec<_>, _>>()?;
    refuse_held(project, &names)?;
    for n in &names {
        if let Named::Glob(glob) = n {
            refuse_glob(&root, glob)?;
        }
    }
    let mode = args
        .mode
        .as_deref()
        .map(|m| named::<ViewMode>("mode", m))
        .transpose()?;
    project.edit(|project| {
        let (name, preset) = target(project, args.preset.as_deref())?;
        let mut said = Vec::new();
        for n in &names {
            let (entry, how) = match n {
                Named::Folder(dir) => (
                    format!("{dir}/**"),
                    curation::include_folder(preset, dir, mode),
                ),
                Named::File(rel) | Named::Glob(rel) => {
                    (rel.clone(), curation::include(preset, rel, mode)?)
                }
            };
            let entry = shown_path(&entry);
            said.push(match how {
                Included::Added => format!("{entry} added"),
                Included::AlreadyListed => format!("{entry} was already listed"),
                Included::ByGlob => format!("{entry} is no longer excluded (a glob includes it)"),
            });
        }
        Ok(format!("preset {name}: {}", said.join("; ")))
    })
}

pub fn exclude(project: &mut Project, args: &ExcludeArgs) -> Result<String, ToolError> {
    super::request::at_most("paths", args.paths.len())?;
    let root = project.root.clone();
    let names = args
        .paths
        .iter()
        .map(|p| name_of(&root, p))
        .collect::<Result<Vec<_>, _>>()?;
    let walked = project.walk();
    project.edit(|project| {
        let (name, preset) = target(project, args.preset.as_deref())?;
        let mut removed = Vec::new();
        for n in &names {
            match n {
                Named::Folder(dir) => {
                    let prefix = format!("{dir}/");
                    let files: Vec<String> = walked
                        .iter()
                        .filter(|f| f.starts_with(&prefix))
                        .cloned()
                        .collect();
                    let before = (preset.files.len(), preset.exclude.len());
                    curation::exclude_folder(preset, dir, &files);
                    if (preset.files.len(), preset.exclude.len()) == before {
                        return Err(ToolError::new(format!(
                            "{} is not in preset {name}",
                            shown_path(dir)
                        )));
                    }
                    removed.push(shown_path(dir));
                }
                Named::File(rel) | Named::Glob(rel) => {
                    curation::exclude(preset, rel)?;
                    removed.push(shown_path(rel));
                }
            }
        }
        Ok(format!("removed {} from preset {name}", removed.join(", ")))
    })
}

/// An edit may give an entry only to a file that exists or that the
/// preset lists already.
fn check_file(preset: &Preset, root: &Path, rel: &str) -> Result<(), ToolError> {
    if preset.item(rel).is_none() && !root.join(rel).is_file() {
        return Err(ToolError::new(format!(
            "{}: file not found",
            shown_path(rel)
        )));
    }
    Ok(())
}

/// `set_mode` and `mask` write an entry for exactly `rel` when the preset
/// has none: refused, as `include` refuses it, when a build would hold
/// that entry for the user's consent (`.env`, a file behind a link out).
fn refuse_new_held(
    project: &mut Project,
    preset: Option<&str>,
    rel: &str,
) -> Result<(), ToolError> {
    let (_, target) = target(project, preset)?;
    if target.item(rel).is_some() {
        return Ok(());
    }
    refuse_held(project, &[Named::File(rel.to_string())])
}

pub fn set_mode(project: &mut Project, args: &SetModeArgs) -> Result<String, ToolError> {
    let rel = inside(&project.root, &args.path)?;
    let mode = named::<ViewMode>("mode", &args.mode)?;
    let root = project.root.clone();
    project.edit(|project| {
        refuse_new_held(project, args.preset.as_deref(), &rel)?;
        let (name, preset) = target(project, args.preset.as_deref())?;
        check_file(preset, &root, &rel)?;
        curation::set_mode(preset, &rel, mode)?;
        Ok(format!("{} [{mode}] in preset {name}", shown_path(&rel)))
    })
}

/// `symbols` is the file's tree as the engine parsed it (`None`: no
/// grammar, or unreadable).
pub fn mask(
    project: &mut Project,
    args: &MaskArgs,
    rel: &str,
    symbols: Option<&SymbolTree>,
) -> Result<String, ToolError> {
    let state = named::<MaskState>("state", &args.state)?;
    let Some(tree) = symbols else {
        return Err(ToolError::new(format!(
            "{}: no symbols for this file (files in a language with a grammar have them: \
             Python, C, C++, Rust, TypeScript, Go, Java, …)",
            shown_path(rel)
        )));
    };
    let Some(found) = tree.resolve(&args.symbol) else {
        return Err(ToolError::new(format!(
            "{}: no symbol `{}` (the `symbols` tool lists them)",
            shown_path(rel),
            shown_name(&args.symbol)
        )));
    };
    let (path, old) = (found.path.clone(), found.legacy.clone());
    let typed = if path == args.symbol.trim() {
        String::new()
    } else {
        format!(" (for `{}`)", shown_name(&args.symbol))
    };
    let root = project.root.clone();
    project.edit(|project| {
        refuse_new_held(project, args.preset.as_deref(), rel)?;
        let (name, preset) = target(project, args.preset.as_deref())?;
        check_file(preset, &root, rel)?;
        let whole = curation::set_mask_replacing(preset, rel, &path, old.as_deref(), state)?;
        let rest = if whole {
            " (masked view; the other symbols stay in full)"
        } else {
            ""
        };
        Ok(format!(
            "{}: {} = {state}{typed} in preset {name}{rest}",
            shown_path(rel),
            shown_name(&path)
        ))
    })
}

/// `save_preset`: the new preset goes into `ctxcurate.toml` (shared);
/// that it is now the active one is the user's own state in this
/// checkout, as a switch in the TUI or `preset apply` is.
pub fn save_preset(project: &mut Project, args: &SavePresetArgs) -> Result<String, ToolError> {
    project.edit(|project| {
        refuse_global(project, project.active_preset_name())?;
        project.save_as(&args.name)?;
        Ok(format!(
            "the active preset saved as {}, now the active one (for this user, in this checkout)",
            shown_name(&args.name)
        ))
    })
}
