//! `ctxcurate build`: compose a preset and write it to stdout, a file, or
//! the next numbered output file; the token total goes to stderr.

use anyhow::Result;
use ctxcurate::core::compose::{self, ComposeOptions};
use ctxcurate::core::model::Preset;
use ctxcurate::core::project::Project;
use ctxcurate::core::{secrets, tokens};
use ctxcurate::tui::sanitize::display_line;

use super::args::BuildArgs;
use super::{Ctx, user_err, write_content};

pub fn build(args: BuildArgs, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let preset = chosen_preset(&project, args.preset.as_deref())?;
    for missing in project.missing_files(&preset) {
        writeln!(
            ctx.err,
            "warning: preset file not found: {}",
            display_line(&missing, 300)
        )?;
    }
    let mut opts = ComposeOptions::from_settings(&project.settings);
    if let Some(s) = args.strategy {
        opts.strategy = s;
    }
    if let Some(f) = args.format {
        opts.format = f;
    }
    let tokenizer = args.tokenizer.unwrap_or(project.settings.tokenizer);

    let composition = compose::compose(&project.root, &preset, &opts);
    for problem in &composition.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    // One line per file that could not be shown or was shown with a
    // caveat; the build itself goes on.
    for f in &composition.files {
        if let Some(e) = &f.error {
            let line = format!("{}: {e}", f.path);
            writeln!(ctx.err, "warning: {}", display_line(&line, 500))?;
        }
        for note in &f.notes {
            let line = format!("{}: {note}", f.path);
            writeln!(ctx.err, "note: {}", display_line(&line, 500))?;
        }
    }
    let findings = secrets::scan_composition(&composition);
    if !findings.is_empty() {
        let verb = if args.allow_secrets {
            "warning"
        } else {
            "error"
        };
        for finding in &findings {
            let line = finding.to_string();
            writeln!(
                ctx.err,
                "{verb}: likely secret: {}",
                display_line(&line, 300)
            )?;
        }
        if !args.allow_secrets {
            user_err!(
                "refusing to write a context with {} likely secret(s); \
                 remove them (or exclude the files) or pass --allow-secrets",
                findings.len()
            );
        }
    }
    let total = tokens::count(tokenizer, &composition.text);

    let target = if args.save {
        Some(compose::next_output_path(&project.root, &project.settings))
    } else {
        args.output.map(|p| ctx.cwd.join(p))
    };
    match &target {
        Some(path) => {
            let written = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(path, &composition.text));
            if let Err(e) = written {
                user_err!("cannot write {}: {e}", path.display());
            }
        }
        None => write_content(ctx, &composition.text)?,
    }
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
        write!(ctx.err, ", written to {}", path.display())?;
    }
    writeln!(ctx.err)?;
    Ok(())
}

/// The named preset, or the active one; an unknown name is an error but a
/// missing active preset is simply empty (a fresh project).
fn chosen_preset(project: &Project, name: Option<&str>) -> Result<Preset> {
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
