//! `ctxcurate map`: the repo map of the project, ranked around the target
//! files and sized to its token budget, on stdout; its size and the imports
//! that did not resolve on stderr. The targets themselves are left out:
//! they go to the model in full, so outlining them would spend the map's
//! budget twice.

use anyhow::Result;
use ctxcurate::core::discovery::pack::{UNRESOLVED_EXAMPLES, unresolved_note};
use ctxcurate::core::engine::{MapBuilt, Workspace};
use ctxcurate::text::sanitize::display_line;
use ctxcurate::text::words::noun_for;

use super::args::MapArgs;
use super::build::{chosen_preset, target_path};
use super::{Ctx, progress};

pub fn map(args: MapArgs, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let preset = chosen_preset(&project, args.preset.as_deref())?;
    let mut targets = Vec::new();
    for t in &args.targets {
        targets.push(target_path(ctx, &project, t)?);
    }
    if targets.is_empty() {
        targets = preset.targets.clone();
    }
    let tokenizer = args.tokenizer.unwrap_or(project.settings.tokenizer);
    let budget = args.budget.unwrap_or(project.settings.repo_map_budget);
    let sources = project.run_cache();
    let shown = progress::show(ctx, sources.progress());
    let MapBuilt {
        map,
        files,
        unresolved,
        limits,
    } = Workspace::open(&project, &sources).repo_map(&preset, &targets, budget, tokenizer);
    drop(shown);
    ctx.out.write_all(map.text.as_bytes())?;
    if args.stats_json {
        let value = serde_json::json!({
            "listed": map.listed,
            "outlined": map.outlined,
            "candidates": map.candidates,
            "tokens": map.tokens,
            "budget": budget,
            "tokenizer": tokenizer.as_str(),
            "files": files,
            "unresolved_imports": unresolved.len(),
            "unresolved_examples": &unresolved[..unresolved.len().min(UNRESOLVED_EXAMPLES)],
            "limits": limits,
        });
        writeln!(ctx.err, "{value}")?;
        return Ok(());
    }
    if map.listed == 0 && map.candidates > 0 {
        writeln!(
            ctx.err,
            "warning: a budget of {budget} tokens is too small for a repo map"
        )?;
    }
    writeln!(
        ctx.err,
        "repo map: {} of {} {} listed, {} with outlines; {} / {budget} tokens ({tokenizer})",
        map.listed,
        map.candidates,
        noun_for(map.candidates, "file"),
        map.outlined,
        map.tokens
    )?;
    if let Some(note) = unresolved_note(unresolved.len(), &unresolved) {
        writeln!(ctx.err, "note: {}", display_line(&note, 500))?;
    }
    for note in &limits {
        writeln!(ctx.err, "note: {}", display_line(note, 500))?;
    }
    Ok(())
}
