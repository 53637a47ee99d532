//! Commands that edit a preset headlessly: `add`, `rm`, `set`, `mask`,
//! `slice`. Each changes one preset through [`Project::edit`]: under the
//! project lock, on the file as it is on disk then (so parallel runs keep
//! each other's edits), saved atomically with the user's comments and
//! layout kept; `ctxcurate.toml` is created with a `default` preset when
//! there is none.

use std::path::Path;

use anyhow::Result;
use ctxcurate::core::anchor;
use ctxcurate::core::curation::{self, CurationError, Included};
use ctxcurate::core::model::{FileItem, Preset, Settings, ViewMode};
use ctxcurate::core::project::{Project, Scope};
use ctxcurate::core::syntax::{self, CMacros, Lang};
use ctxcurate::core::views;
use ctxcurate::core::walk::{self, Content, FileProblem};
use ctxcurate::text::sanitize::{display_line, escape_line};

use super::args::{Command, PresetTarget};
use super::{Ctx, read_text, user_err};
use ctxcurate::text::words::plural;

pub fn run(command: Command, ctx: &mut Ctx) -> Result<()> {
    let mut project = ctx.project()?;
    let (message, copied) = edit_noting(&mut project, |project| apply(command, project, ctx))?;
    // The message names files: one line, whatever their names hold.
    writeln!(ctx.out, "{}", escape_line(&message))?;
    note_copied(ctx, &copied)
}

/// [`Project::edit`], and the names of the presets it copied from the
/// user's global config into the project file (an edit of a preset only
/// the global config holds writes it, whole, where the team reads it).
pub(super) fn edit_noting<T>(
    project: &mut Project,
    change: impl FnOnce(&mut Project) -> Result<T>,
) -> Result<(T, Vec<String>)> {
    project.edit(|project| {
        let global: Vec<String> = project
            .preset_names()
            .into_iter()
            .filter(|(_, scope)| *scope == Scope::Global)
            .map(|(name, _)| name)
            .collect();
        let out = change(project)?;
        let copied = global
            .into_iter()
            .filter(|name| matches!(project.preset(name), Some((_, Scope::Project))))
            .collect();
        Ok((out, copied))
    })
}

/// Say on stderr which of the user's own presets an edit copied into the
/// project file.
pub(super) fn note_copied(ctx: &mut Ctx, copied: &[String]) -> Result<()> {
    for name in copied {
        writeln!(
            ctx.err,
            "note: preset {} was your own (global config); the edit copied it whole into \
             ctxcurate.toml, which the project shares, and that copy now wins over yours here",
            display_line(name, 80)
        )?;
    }
    Ok(())
}

/// Make the edit `command` asks for; the message to print.
fn apply(command: Command, project: &mut Project, ctx: &mut Ctx) -> Result<String> {
    let project = &mut *project;
    let message = match command {
        Command::Add {
            paths,
            mode,
            target,
            changed,
        } => {
            // `add --changed` (which passes its files here with `changed`
            // set) adds what git named, not the user: no consent recorded.
            let own_choice = changed.is_none();
            add(project, &paths, mode, &target, own_choice, ctx)?
        }
        Command::Rm { paths, target } => rm(project, &paths, &target, ctx)?,
        Command::Set {
            path,
            mode,
            force_full,
            no_force_full,
            no_aggregate,
            aggregate,
            mask_default,
            target,
        } => {
            let root = project.root.clone();
            let rel = ctx.rel_path(&root, Path::new(&path))?;
            let (name, preset) = target_preset(project, &target)?;
            check_file(preset, &root, &rel)?;
            // A file the preset does not take yet is added by the change:
            // said, so it is no surprise in the next build.
            let new = curation::effective_item(preset, &rel).is_none();
            if let Some(mode) = mode {
                curation::set_mode(preset, &rel, mode)?;
            }
            if force_full || no_force_full {
                curation::set_force_full(preset, &rel, force_full)?;
            }
            if aggregate || no_aggregate {
                curation::set_auto_aggregate(preset, &rel, aggregate)?;
            }
            if let Some(state) = mask_default {
                curation::set_mask_default(preset, &rel, state)?;
            }
            let item =
                curation::effective_item(preset, &rel).unwrap_or_else(|| FileItem::new(&rel));
            // Kept as asked (a later grammar, a glob's habit), but said.
            let grammar = views::grammar_by_name(&rel).unwrap_or_else(|| {
                read_text(&root, &rel).is_ok_and(|t| views::has_grammar(&rel, &t))
            });
            let why = match mode {
                Some(mode) if mode.needs_grammar() && !grammar => {
                    format!(" ({}; it renders its summary)", views::no_grammar(&rel))
                }
                _ => String::new(),
            };
            if new {
                format!("added {} to preset {name}{why}", describe(&item, grammar))
            } else {
                format!("{} in preset {name}{why}", describe(&item, grammar))
            }
        }
        Command::Mask {
            path,
            symbol,
            state,
            target,
        } => {
            let root = project.root.clone();
            let rel = ctx.rel_path(&root, Path::new(&path))?;
            let (path, old) = check_symbol(&root, &rel, &symbol, &project.c_macros())?;
            let (name, preset) = target_preset(project, &target)?;
            check_file(preset, &root, &rel)?;
            let whole = curation::set_mask_replacing(preset, &rel, &path, old.as_deref(), state)?;
            let rest = if whole {
                " (masked view; the other symbols stay in full)"
            } else {
                ""
            };
            let typed = if path == symbol.trim() {
                String::new()
            } else {
                format!(" (for `{symbol}`)")
            };
            format!("{rel}: {path} = {state}{typed} in preset {name}{rest}")
        }
        Command::Slice {
            path,
            start,
            end,
            tag,
            comment,
            target,
        } => {
            let root = project.root.clone();
            let rel = ctx.rel_path(&root, Path::new(&path))?;
            let text = read_text(&root, &rel)?;
            let Some(mut slice) = anchor::create_slice(&text, start, end) else {
                user_err!(
                    "{rel}: lines {start}-{end} are not a range of the file ({})",
                    plural(text.lines().count(), "line")
                );
            };
            slice.tag = tag;
            slice.comment = comment;
            let (name, preset) = target_preset(project, &target)?;
            check_file(preset, &root, &rel)?;
            curation::add_slice(preset, &rel, slice)?;
            format!("{rel}: slice of lines {start}-{end} added to preset {name}")
        }
        _ => unreachable!("edit::run is only called with edit commands"),
    };
    Ok(message)
}

/// The preset an edit applies to, created (or copied from the global
/// config) in the project file when needed.
pub(super) fn target_preset<'a>(
    project: &'a mut Project,
    target: &PresetTarget,
) -> Result<(String, &'a mut Preset)> {
    let name = match &target.preset {
        None => project.active_preset_name().to_string(),
        Some(name) => name.clone(),
    };
    let preset = project.preset_to_edit(&name)?;
    Ok((name, preset))
}

/// An edit may create an entry for `rel` only when the file exists (an
/// entry the preset lists already may name a missing file).
fn check_file(preset: &Preset, root: &Path, rel: &str) -> Result<()> {
    if walk::is_blacklisted(rel) {
        user_err!("{rel} is never included (history files and the cache directory are excluded)");
    }
    if preset.item(rel).is_none() && !root.join(rel).is_file() {
        user_err!("{rel}: file not found");
    }
    Ok(())
}

/// The symbol `symbol` names in `rel` (its path, or another way to write
/// it: `SymbolTree::resolve`): its path and the path it had before, if
/// any; else an error naming the symbols it may have meant.
fn check_symbol(
    root: &Path,
    rel: &str,
    symbol: &str,
    macros: &CMacros,
) -> Result<(String, Option<String>)> {
    if views::grammar_by_name(rel) == Some(false) {
        user_err!("{rel}: no symbols to mask: {}", views::no_grammar(rel));
    }
    let text = read_text(root, rel)?;
    let Some(lang) = Lang::detect(rel, &text) else {
        user_err!("{rel}: no symbols to mask: {}", views::no_grammar(rel));
    };
    let tree = syntax::parse_with(lang, &text, macros);
    if let Some(found) = tree.resolve(symbol) {
        return Ok((found.path.clone(), found.legacy.clone()));
    }
    let last = symbol
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(symbol)
        .to_lowercase();
    let mut near: Vec<String> = Vec::new();
    collect_near(&tree.symbols, &last, &mut near);
    if near.is_empty() {
        user_err!("{rel}: no symbol `{symbol}` (see `ctxcurate symbols {rel}`)");
    }
    user_err!(
        "{rel}: no symbol `{symbol}`; did you mean {}?",
        near.iter()
            .take(5)
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Symbols whose name looks like `needle`: one contains the other, or
/// they are a slip of the keyboard apart (one edit in a short name, two
/// from six characters on: `nope` is not a typo of `copy`).
fn collect_near(symbols: &[syntax::Symbol], needle: &str, out: &mut Vec<String>) {
    let slips = match needle.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    for s in symbols {
        let name = s.name.to_lowercase();
        if name.contains(needle)
            || (name.len() >= 3 && needle.contains(&name))
            || edit_distance(&name, needle) <= slips
        {
            out.push(s.path.clone());
        }
        collect_near(&s.children, needle, out);
    }
}

/// Levenshtein distance (names are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(cur)
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// `path [mode]` and its flags; a masked file with a grammar says what
/// its symbols without a mask of their own show.
fn describe(item: &FileItem, grammar: bool) -> String {
    let mut s = format!("{} [{}]", item.path, item.view_mode);
    if item.view_mode == ViewMode::Masked && grammar {
        s.push_str(&format!(
            " (symbols without a mask of their own: {})",
            item.mask_default
        ));
    }
    if item.force_full {
        s.push_str(" force_full");
    }
    if !item.auto_aggregate {
        s.push_str(" listed only");
    }
    s
}

fn add(
    project: &mut Project,
    paths: &[String],
    mode: Option<ViewMode>,
    target: &PresetTarget,
    own_choice: bool,
    ctx: &mut Ctx,
) -> Result<String> {
    let root = project.root.clone();
    let mut entries = Vec::new();
    for arg in paths {
        entries.push(entry_path(&root, arg, ctx)?);
    }
    warn_unmatched_globs(&root, &project.settings, &entries, ctx)?;
    let (name, preset) = target_preset(project, target)?;
    let mut added = Vec::new();
    let mut own = Vec::new();
    let mut capped = Vec::new();
    for entry in entries {
        // A folder (`dir/**`, the root's `**`) is included as Space on a
        // folder does.
        let folder = match entry.as_str() {
            "**" => Some(""),
            _ => entry
                .strip_suffix("/**")
                .filter(|dir| root.join(dir).is_dir()),
        };
        let how = match folder {
            Some(dir) => curation::include_folder(preset, dir, mode),
            None => curation::include(preset, &entry, mode)?,
        };
        if folder.is_none() && !walk::is_glob(&entry) {
            own.push(entry.clone());
            // An entry with force_full is read whatever its size.
            if !curation::effective_item(preset, &entry).is_some_and(|i| i.force_full) {
                capped.push(entry.clone());
            }
        }
        match how {
            Included::Added => added.push(entry),
            Included::AlreadyListed => {
                writeln!(ctx.err, "note: {} was already listed", escape_line(&entry))?
            }
            Included::ByGlob => writeln!(
                ctx.err,
                "note: {} is no longer excluded (a glob includes it)",
                escape_line(&entry)
            )?,
        }
    }
    warn_skipped_files(&root, &project.settings, &capped, ctx)?;
    if own_choice {
        allow_own(project, &own, ctx)?;
    }
    Ok(format!(
        "added {} to preset {name}{}",
        plural(added.len(), "entry"),
        if added.is_empty() {
            String::new()
        } else {
            format!(": {}", added.join(", "))
        }
    ))
}

/// A glob that matches no file now is most likely a typo (`zz*.py`): say
/// so at `add` time, not only at the next build. It is still added (a
/// warning, not an error): a glob may name files that appear later, such
/// as generated ones, and `rm` takes it out again.
fn warn_unmatched_globs(
    root: &Path,
    settings: &Settings,
    entries: &[String],
    ctx: &mut Ctx,
) -> Result<()> {
    let globs: Vec<FileItem> = entries
        .iter()
        .filter(|e| walk::is_glob(e))
        .map(FileItem::new)
        .collect();
    if globs.is_empty() {
        return Ok(());
    }
    let files = walk::walk_files_with(root, &walk::WalkPatterns::from_settings(settings));
    for glob in &globs {
        let (found, _) = walk::expand_over(std::slice::from_ref(glob), &[], &files);
        if found.is_empty() {
            writeln!(
                ctx.err,
                "warning: glob `{0}` matches no file (added anyway, for files that appear \
                 later; `ctxcurate rm '{0}'` takes it out)",
                escape_line(&glob.path)
            )?;
        }
    }
    Ok(())
}

/// A file named to `add` that a build leaves out (binary, over
/// `max_file_size`) is said now, with what brings it in, not only at the
/// next build. Reading stops at the cap.
fn warn_skipped_files(
    root: &Path,
    settings: &Settings,
    files: &[String],
    ctx: &mut Ctx,
) -> Result<()> {
    let policy = walk::ReadPolicy::from_settings(settings);
    for rel in files {
        match walk::read_content_with(root, rel, &policy, false) {
            Content::Unreadable(FileProblem::Binary) => writeln!(
                ctx.err,
                "warning: {} is binary: a build leaves it out",
                escape_line(rel)
            )?,
            Content::Unreadable(FileProblem::TooLarge { bytes, limit }) => writeln!(
                ctx.err,
                "warning: {0} is {bytes} bytes, over max_file_size ({limit}): a build leaves \
                 it out unless `ctxcurate set {0} --force-full`",
                escape_line(rel)
            )?,
            _ => {}
        }
    }
    Ok(())
}

/// Files the user named to `add` are their own choice in this checkout
/// (see `Project::allow_own`); a store that cannot be written is said.
fn allow_own(project: &mut Project, files: &[String], ctx: &mut Ctx) -> Result<()> {
    if let Err(e) = project.allow_own(files) {
        writeln!(
            ctx.err,
            "warning: {e}: a credential or ignored file added here is left out until `ctxcurate trust`"
        )?;
    }
    Ok(())
}

/// What an `add` argument becomes in the preset: a file's relative path, a
/// directory's `dir/**` glob, or a glob made relative to the root.
fn entry_path(root: &Path, arg: &str, ctx: &Ctx) -> Result<String> {
    if walk::is_glob(arg) && !Path::new(arg).exists() {
        return glob_entry(root, arg, ctx);
    }
    let rel = ctx.project_path(root, Path::new(arg))?;
    let abs = root.join(&rel);
    if abs.is_dir() {
        Ok(curation::folder_glob(&rel))
    } else if abs.is_file() {
        if walk::is_blacklisted(&rel) {
            user_err!(
                "{rel} is never included (history files and the cache directory are excluded)"
            );
        }
        Ok(rel)
    } else if abs.symlink_metadata().is_ok() {
        // There, but a FIFO, a socket, a device or a dangling link: a
        // context holds regular files only.
        user_err!("{arg}: not a regular file (a context holds files and folders)")
    } else {
        user_err!("{arg}: no such file or directory")
    }
}

/// A glob typed in the current directory as the root-relative pattern
/// stored in the preset (`*.py` in `src/` is `src/*.py`).
fn glob_entry(root: &Path, arg: &str, ctx: &Ctx) -> Result<String> {
    if arg.starts_with('/') || arg.split('/').any(|c| c == "..") {
        user_err!("glob {arg} must be relative and stay inside the project");
    }
    walk::compile_glob(arg).map_err(|e| super::UserError(format!("bad glob {arg}: {e}")))?;
    let prefix = match ctx.rel_path(root, Path::new(".")) {
        Ok(base) => format!("{base}/"),
        Err(_) => String::new(),
    };
    Ok(format!("{prefix}{arg}"))
}

fn rm(
    project: &mut Project,
    paths: &[String],
    target: &PresetTarget,
    ctx: &mut Ctx,
) -> Result<String> {
    let root = project.root.clone();
    let mut wanted = Vec::new();
    for arg in paths {
        // Globs are stored relative to the root, as `add` stored them.
        if walk::is_glob(arg) && !Path::new(arg).exists() {
            wanted.push((glob_entry(&root, arg, ctx)?, None));
            continue;
        }
        let rel = ctx.rel_path(&root, Path::new(arg))?;
        let rel = rel.strip_suffix("/**").unwrap_or(&rel).to_string();
        if root.join(&rel).is_dir() {
            let prefix = format!("{rel}/");
            let files: Vec<String> = project
                .walk()
                .into_iter()
                .filter(|f| f.starts_with(&prefix))
                .collect();
            wanted.push((rel, Some(files)));
        } else {
            wanted.push((rel, None));
        }
    }
    let (name, preset) = target_preset(project, target)?;
    let mut removed = Vec::new();
    for (rel, folder_files) in wanted {
        match folder_files {
            Some(files) => {
                // A folder: everything under it goes, as Space on a folder.
                let before = (preset.files.len(), preset.exclude.len());
                curation::exclude_folder(preset, &rel, &files);
                if (preset.files.len(), preset.exclude.len()) == before {
                    user_err!("{rel} is not in preset {name}");
                }
            }
            None => {
                match curation::exclude(preset, &rel) {
                    Err(CurationError::NotInPreset(_)) => {
                        user_err!("{rel} is not in preset {name}")
                    }
                    other => other?,
                };
            }
        }
        removed.push(rel);
    }
    Ok(format!("removed {} from preset {name}", removed.join(", ")))
}
