//! `ctxcurate stats`: where the tokens of a preset's composition go, file
//! by file (the table of `core::token_map`), as text or JSON; and the
//! `completions` and `man` commands, which print what clap derives.

use anyhow::Result;
use clap::CommandFactory;
use ctxcurate::core::compose::ComposeOptions;
use ctxcurate::core::engine::{MapOptions, Workspace};
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::token_map::TokenMap;
use ctxcurate::text::sanitize::{display_line, escape_line};

use super::Ctx;
use super::build::chosen_preset;

/// Width of the bar column of the text table.
const BAR_WIDTH: usize = 20;

pub fn stats(
    preset: Option<&str>,
    tokenizer: Option<TokenizerKind>,
    json: bool,
    ctx: &mut Ctx,
) -> Result<()> {
    let project = ctx.project()?;
    let consent = project.entry_consent(preset.unwrap_or(project.active_preset_name()));
    let preset = chosen_preset(&project, preset)?;
    let mut opts = ComposeOptions::from_settings(&project.settings);
    opts.consent = consent;
    let kind = tokenizer.unwrap_or(project.settings.tokenizer);
    let sources = project.run_cache();
    let map = MapOptions {
        tokenizer: kind,
        ..MapOptions::from_settings(&project.settings)
    };
    let composition = Workspace::open(&project, &sources).compose(&preset, &opts, &map);
    for problem in &composition.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    let map = TokenMap::of(&composition, &sources, kind, project.settings.budget);
    if json {
        serde_json::to_writer_pretty(&mut *ctx.out, &map)?;
        writeln!(ctx.out)?;
    } else {
        // One row per file, whatever its name: a newline or a control in
        // a path is shown, never printed (JSON escapes them itself).
        let mut shown = map;
        for row in &mut shown.files {
            row.path = escape_line(&row.path).into_owned();
        }
        ctx.out.write_all(shown.table(BAR_WIDTH).as_bytes())?;
    }
    Ok(())
}

/// A completion script for `shell` on stdout.
pub fn completions(shell: clap_complete::Shell, ctx: &mut Ctx) -> Result<()> {
    // Into a buffer first: clap_complete panics on a write error, and a
    // closed pipe (`| head`) must stay an ordinary error.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut super::Cli::command(), "ctxcurate", &mut script);
    ctx.out.write_all(&script)?;
    Ok(())
}

/// The man page, in roff, on stdout.
pub fn man(ctx: &mut Ctx) -> Result<()> {
    clap_mangen::Man::new(super::Cli::command()).render(&mut ctx.out)?;
    Ok(())
}
