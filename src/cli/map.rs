//! `ctxcurate map`: the repo map of the project, ranked around the target
//! files and sized to its token budget, on stdout; its size and the imports
//! that did not resolve on stderr. The targets themselves are left out:
//! they go to the model in full, so outlining them would spend the map's
//! budget twice.

use anyhow::Result;
use ctxcurate::core::discovery::pack::{UNRESOLVED_EXAMPLES, unresolved_note};
use ctxcurate::core::engine::{MapAnswered, MapAsk, MapBuilt, map_asked};
use ctxcurate::text::sanitize::display_line;
use ctxcurate::text::words::noun_for;

use super::args::MapArgs;
use super::build::refuse;
use super::{Ctx, progress};

pub fn map(args: MapArgs, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let ask = MapAsk {
        cwd: ctx.cwd.clone(),
        preset: args.preset.clone(),
        targets: args.targets.clone(),
        budget: args.budget,
        tokenizer: args.tokenizer,
    };
    let answered = map_asked(&project, ask, |p| progress::show(ctx, p));
    let MapAnswered {
        built:
            MapBuilt {
                map,
                files,
                unresolved,
                limits,
                held,
            },
        budget,
        tokenizer,
        ..
    } = match answered {
        Ok(answered) => answered,
        Err(why) => return refuse(why),
    };
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
            "held": held,
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
    if let Some(first) = held.first() {
        writeln!(
            ctx.err,
            "note: held {} {} out of the map: likely secret at {}{}",
            held.len(),
            noun_for(held.len(), "file"),
            display_line(first, 200),
            match held.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            }
        )?;
    }
    for note in &limits {
        writeln!(ctx.err, "note: {}", display_line(note, 500))?;
    }
    Ok(())
}
