//! `ctxcurate build`: compose a preset — or pack it into a token budget
//! around target files — and write it to stdout, a file, or the next
//! numbered output file; the token total or the packing stats go to stderr.
//! `--changed` and `--diff` bring in git's view of the change (see
//! `cli::changed`).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use ctxcurate::core::compose::RenderedFile;
use ctxcurate::core::engine::output_file::{self, SaveError};
use ctxcurate::core::compose::{self, Bodies, ComposeOptions};
use ctxcurate::core::discovery::context::{self, MapOptions};
use ctxcurate::core::discovery::pack::{self, PackOptions, PackStats, Packed};
use ctxcurate::core::model::{Format, Preset, TokenizerKind};
use ctxcurate::core::project::Project;
use ctxcurate::core::secrets::{Finding, RuleSet, Scanner};
use ctxcurate::core::trust;
use ctxcurate::core::walk;
use ctxcurate::text::error_chain;
use ctxcurate::text::sanitize::display_line;

use super::args::BuildArgs;
use super::{Ctx, changed, progress, user_err, write_content};

pub fn build(args: BuildArgs, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let mut preset = chosen_preset(&project, args.preset.as_deref())?;
    if let Some(rev) = &args.changed {
        preset = changed::on_top(&project, preset, rev, ctx)?;
    }
    if let Some(task) = task_arg(&args, ctx)? {
        preset.task = task;
    }
    for missing in project.missing_files(&preset) {
        writeln!(
            ctx.err,
            "warning: preset file not found: {}",
            display_line(&missing, 300)
        )?;
    }
    let mut opts = ComposeOptions::from_settings(&project.settings);
    opts.consent = project.entry_consent(
        args.preset
            .as_deref()
            .unwrap_or(project.active_preset_name()),
    );
    if let Some(s) = args.strategy {
        opts.strategy = s;
    }
    if let Some(f) = args.format {
        opts.format = f;
    }
    opts.focus = args.focus.clone();
    if let Some(tree) = args.tree {
        opts.sections.tree = tree;
    }
    let changes = match &args.diff {
        Some(rev) => Some(changed::diff(
            &project,
            rev,
            &preset.exclude,
            project.settings.max_file_size,
            ctx,
        )?),
        None => None,
    };
    let tokenizer = args.tokenizer.unwrap_or(project.settings.tokenizer);
    let cache = project.run_cache();
    let patterns = walk::WalkPatterns::from_settings(&project.settings);
    let mut targets = preset.targets.clone();
    let mut own_targets = Vec::new();
    for t in &args.targets {
        let rel = target_path(ctx, &project, t)?;
        own_targets.push(rel.clone());
        if !targets.contains(&rel) {
            targets.push(rel);
        }
    }
    let task_tokens =
        compose::task_markdown(&preset.task).map_or(0, |section| cache.count(tokenizer, &section));
    let window = pack::window_budget(
        project.settings.model_window,
        project.settings.output_reserve,
        task_tokens,
    );
    let task_steers = !preset.task.trim().is_empty() && window.is_some();
    if !args.targets.is_empty() || args.budget.is_some() || task_steers {
        let budget = args.budget.or(window).unwrap_or(project.settings.budget);
        if let Some(changes) = changes {
            let fitted = changed::fit(
                changes,
                opts.format,
                tokenizer,
                budget,
                args.allow_partial,
                ctx,
            )?;
            opts.sections.changes = Some(Arc::new(fitted));
        }
        let consent = opts.consent.clone();
        let opts = PackOptions {
            budget,
            map_budget: args.map_budget.unwrap_or(project.settings.repo_map_budget),
            tokenizer,
            format: opts.format,
            max_messages: opts.max_messages,
            sections: opts.sections.clone(),
            ..PackOptions::from_settings(&project.settings)
        };
        let shown = progress::show(ctx, cache.progress());
        let walked = walk_noting(&project.root, &patterns, ctx)?;
        // The pack reads what the composition would: held entries wait
        // for consent (`trust::entries`), with the same note.
        let (gated, held) = consent.gate(&project.root, &preset, Some(&walked), &patterns);
        if let Some(note) = trust::entries::held_note(&held) {
            writeln!(ctx.err, "warning: {}", display_line(&note, 300))?;
        }
        // A held target of the preset goes too; one named here is the
        // user's own.
        targets.retain(|t| gated.targets.contains(t) || own_targets.contains(t));
        let packed = pack::pack(&project.root, &gated, &targets, &opts, &cache, &walked);
        cache.progress().start("scanning for secrets", 0);
        let findings =
            Scanner::new(&project.root, &cache).packed(&packed, &preset, opts.max_messages);
        drop(shown);
        if packed.text.is_empty() && task_tokens > 0 {
            // The task is never dropped: without room for it, no context.
            user_err!(
                "the task ({task_tokens} tokens) and the headings do not fit the budget of {} tokens",
                opts.budget
            );
        }
        for problem in &packed.problems {
            writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
        }
        if let Some(first) = packed.missing_targets.first() {
            if !args.allow_partial {
                let also = match packed.missing_targets.len() {
                    1 => String::new(),
                    n => format!(" (and {} more targets)", n - 1),
                };
                user_err!(
                    "{}{also}: raise --budget, or pass --allow-partial to build without it",
                    display_line(&first.to_string(), 300)
                );
            }
            for missing in &packed.missing_targets {
                writeln!(
                    ctx.err,
                    "warning: {}",
                    display_line(&missing.to_string(), 300)
                )?;
            }
        }
        report_files(&packed.files, ctx)?;
        report_secrets(&findings, args.allow_secrets, ctx)?;
        let path = write_out(&args, &project, opts.format, &packed.text, &findings, ctx)?;
        return report_pack(&packed, tokenizer, path, args.stats_json, ctx);
    }

    opts.sections.changes = changes.map(Arc::new);
    // Globs expand over the walk with the project's ignore patterns.
    let walked = if preset.files.iter().any(|f| walk::is_glob(&f.path)) {
        Some(walk_noting(&project.root, &patterns, ctx)?)
    } else {
        None
    };
    let map = MapOptions {
        tokenizer,
        ..MapOptions::from_settings(&project.settings)
    };
    let shown = progress::show(ctx, cache.progress());
    let parts = context::parts(
        &project.root,
        &preset,
        &opts,
        &map,
        &cache,
        walked.as_deref(),
    );
    // The files are scanned for secrets first, so the text can be put
    // together as their bodies are let go: the files' texts and the
    // composed text are never all held at once (the build's peak memory).
    cache.progress().start("scanning for secrets", 0);
    let rules = RuleSet::compile_builtin();
    let scanner = Scanner::with_rules(&project.root, &cache, &rules);
    let in_files = scanner.files(&parts.files);
    cache.clear();
    let composition = parts.assemble(&preset, &opts, Bodies::Release);
    let findings = scanner.composition_after(in_files, &composition, &preset, opts.max_messages);
    drop(rules);
    ctxcurate::core::memory::trim();
    cache.progress().start("counting tokens", 0);
    let total = cache.count(tokenizer, &composition.text);
    drop(shown);
    for problem in &composition.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    report_files(&composition.files, ctx)?;
    report_secrets(&findings, args.allow_secrets, ctx)?;
    let target = write_out(
        &args,
        &project,
        opts.format,
        &composition.text,
        &findings,
        ctx,
    )?;
    let rendered = composition.files.iter().filter(|f| f.aggregate).count();
    let errors = composition
        .files
        .iter()
        .filter(|f| f.error.is_some())
        .count();
    write!(ctx.err, "{rendered} files, {total} tokens ({tokenizer})")?;
    if errors > 0 {
        write!(ctx.err, ", {errors} with errors")?;
    }
    if let Some(path) = &target {
        let shown = path.display().to_string();
        write!(ctx.err, ", written to {}", display_line(&shown, 500))?;
    }
    writeln!(ctx.err)?;
    Ok(())
}

/// A `--target` argument as a root-relative path to an existing file.
pub fn target_path(ctx: &Ctx, project: &Project, arg: &std::path::Path) -> Result<String> {
    let rel = ctx.rel_path(&project.root, arg)?;
    let path = project.root.join(&rel);
    if path.is_dir() {
        user_err!("{} is a folder: targets are files", display_line(&rel, 300));
    }
    if !path.is_file() {
        user_err!("target not found: {}", display_line(&rel, 300));
    }
    Ok(rel)
}

/// Write `text` where the flags say (`--save`: the next numbered output
/// file, inside the root unless trusted settings say otherwise; `-o FILE`;
/// else stdout); the path written, if any. Likely secrets (`findings`)
/// refuse every destination unless `--allow-secrets`.
fn write_out(
    args: &BuildArgs,
    project: &Project,
    format: Format,
    text: &str,
    findings: &[Finding],
    ctx: &mut Ctx,
) -> Result<Option<PathBuf>> {
    let written = if args.save {
        output_file::save_scanned(
            &project.root,
            &project.settings,
            format,
            text,
            findings,
            args.allow_secrets,
        )
        .map(Some)
    } else {
        output_file::check_secrets(findings, args.allow_secrets).map(|()| None)
    };
    let saved = match written {
        Ok(saved) => saved,
        Err(SaveError::Secrets { count, .. }) => user_err!(
            "refusing to write a context with {count} likely secret(s); \
             remove them (or exclude the files) or pass --allow-secrets"
        ),
        Err(SaveError::Output(e)) => user_err!("{}", display_line(&error_chain(&e), 500)),
    };
    if saved.is_some() {
        return Ok(saved);
    }
    let Some(path) = args.output.as_ref().map(|p| ctx.cwd.join(p)) else {
        write_content(ctx, text)?;
        return Ok(None);
    };
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, text));
    if let Err(e) = written {
        user_err!("cannot write {}: {e}", path.display());
    }
    Ok(Some(path))
}

/// One line per file that could not be shown or was shown with a caveat;
/// the build itself goes on.
fn report_files(files: &[RenderedFile], ctx: &mut Ctx) -> Result<()> {
    for f in files {
        if let Some(e) = &f.error {
            let line = format!("{}: {e}", f.path);
            writeln!(ctx.err, "warning: {}", display_line(&line, 500))?;
        }
        for note in &f.notes {
            let line = format!("{}: {note}", f.path);
            writeln!(ctx.err, "note: {}", display_line(&line, 500))?;
        }
    }
    Ok(())
}

/// Each likely secret named by file and line, masked: an error when it
/// will stop the build (see [`write_out`]), else a warning.
fn report_secrets(findings: &[Finding], allow: bool, ctx: &mut Ctx) -> Result<()> {
    let verb = if allow { "warning" } else { "error" };
    for finding in findings {
        let line = finding.to_string();
        writeln!(
            ctx.err,
            "{verb}: likely secret: {}",
            display_line(&line, 300)
        )?;
    }
    Ok(())
}

/// The packing stats on stderr: one line for people, or JSON.
fn report_pack(
    packed: &Packed,
    tokenizer: TokenizerKind,
    path: Option<PathBuf>,
    json: bool,
    ctx: &mut Ctx,
) -> Result<()> {
    let s: &PackStats = &packed.stats;
    if json {
        let value = serde_json::json!({
            "stats": s,
            "tokenizer": tokenizer.as_str(),
            "items": packed.items,
            "written_to": path.as_ref().map(|p| p.display().to_string()),
        });
        writeln!(ctx.err, "{value}")?;
        return Ok(());
    }
    write!(
        ctx.err,
        "packed {} of {} candidates ({} full, {} in their own view, {} reduced; {} dropped; \
         {} discovered from {} targets), \
         repo map {} files ({} outlined, {} tokens): {} / {} tokens ({:.1}%, {tokenizer})",
        s.included,
        s.candidates,
        s.full,
        s.included.saturating_sub(s.full + s.reduced),
        s.reduced,
        s.dropped,
        s.discovered,
        s.targets,
        s.map_listed,
        s.map_outlined,
        s.map_tokens,
        s.tokens,
        s.budget,
        s.utilisation * 100.0,
    )?;
    if let Some(path) = &path {
        let shown = path.display().to_string();
        write!(ctx.err, ", written to {}", display_line(&shown, 500))?;
    }
    writeln!(ctx.err)?;
    if let Some(note) = s.unresolved_note() {
        writeln!(ctx.err, "note: {}", display_line(&note, 500))?;
    }
    for note in [s.excluded_note(), s.sensitive_note()]
        .into_iter()
        .flatten()
    {
        writeln!(ctx.err, "note: {}", display_line(&note, 500))?;
    }
    if !s.mentions.is_empty() {
        let shown: Vec<String> = s
            .mentions
            .iter()
            .map(|m| match m.files.len() {
                0 => format!("`{}` (no match)", m.text),
                1 => format!("`{}` → {}", m.text, m.files[0]),
                n => format!("`{}` → {n} files", m.text),
            })
            .collect();
        let line = format!(
            "task ({} tokens) mentions: {}",
            s.task_tokens,
            shown.join(", ")
        );
        writeln!(ctx.err, "note: {}", display_line(&line, 1000))?;
    }
    Ok(())
}

/// The task from `--task` or `--task-file`, if either is given.
fn task_arg(args: &BuildArgs, ctx: &Ctx) -> Result<Option<String>> {
    if let Some(task) = &args.task {
        return Ok(Some(task.clone()));
    }
    let Some(file) = &args.task_file else {
        return Ok(None);
    };
    let path = ctx.cwd.join(file);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text)),
        Err(e) => user_err!("cannot read the task file {}: {e}", path.display()),
    }
}

/// The named preset, or the active one; an unknown name is an error but a
/// missing active preset is simply empty (a fresh project).
pub fn chosen_preset(project: &Project, name: Option<&str>) -> Result<Preset> {
    match name {
        None => Ok(project.active_preset()),
        Some(name) => match project.preset(name) {
            Some((p, _)) => Ok(p.clone()),
            None => {
                let names: Vec<String> =
                    project.preset_names().into_iter().map(|(n, _)| n).collect();
                user_err!("no preset named `{name}` (presets: {})", names.join(", "))
            }
        },
    }
}

/// The project's walk, saying which ignore files below the root it
/// skipped or cut (the root's own were said when the project opened).
fn walk_noting(
    root: &std::path::Path,
    patterns: &walk::WalkPatterns,
    ctx: &mut Ctx,
) -> Result<Vec<String>> {
    /// Notes named one by one; a checkout with many bad ignore files
    /// gets one more line for the rest.
    const SHOWN: usize = 5;
    let walked = walk::walk_files_noted(root, patterns);
    for note in walked.notes.iter().take(SHOWN) {
        writeln!(ctx.err, "warning: {}", display_line(&note.to_string(), 300))?;
    }
    if let Some(more) = walked.notes.len().checked_sub(SHOWN).filter(|&n| n > 0) {
        writeln!(ctx.err, "warning: {more} more ignore files skipped or cut")?;
    }
    Ok(walked.files)
}
