//! Commands about what a curation keeps between runs: `cache stats|clear`
//! (the on-disk cache of summaries under `.ctxcurate/cache`, and the bound
//! on what one process keeps in memory) and `slices`
//! (a file's anchored slices, resolved against the file as it is now).

use std::path::Path;

use anyhow::Result;
use ctxcurate::core::anchor::{self, Resolution};
use ctxcurate::core::store::DiskCache;
use ctxcurate::text::sanitize::display_line;

use super::args::CacheCommand;
use super::{Ctx, read_text, user_err};
use ctxcurate::text::words::noun_for;

pub fn run(cmd: CacheCommand, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let disk = DiskCache::open(&project.root);
    let dir = disk
        .dir()
        .map(|d| {
            d.strip_prefix(&project.root)
                .unwrap_or(d)
                .display()
                .to_string()
        })
        .unwrap_or_default();
    match cmd {
        CacheCommand::Stats => {
            let stats = disk.stats();
            if stats.is_empty() {
                writeln!(ctx.out, "{dir}: empty")?;
            }
            for b in &stats {
                writeln!(
                    ctx.out,
                    "{}\t{} {}\t{} bytes",
                    b.name,
                    b.entries,
                    noun_for(b.entries, "entry"),
                    b.bytes
                )?;
            }
            if stats.len() > 1 {
                let entries: usize = stats.iter().map(|b| b.entries).sum();
                let bytes: u64 = stats.iter().map(|b| b.bytes).sum();
                writeln!(
                    ctx.out,
                    "total\t{entries} {}\t{bytes} bytes",
                    noun_for(entries, "entry")
                )?;
            }
            // The in-memory caches of one run (this one holds nothing yet):
            // their bound, from the settings.
            let memory = project.file_cache().memory_stats();
            let bound: usize = memory.iter().map(|(_, s)| s.capacity).sum();
            let shares: Vec<String> = memory
                .iter()
                .map(|(name, s)| format!("{name} {} MiB", s.capacity >> 20))
                .collect();
            writeln!(
                ctx.out,
                "memory\tat most {} MiB per process (memory_cache = {}): {}",
                bound >> 20,
                project.settings.memory_cache,
                shares.join(", ")
            )?;
        }
        CacheCommand::Clear => match disk.clear() {
            Ok(n) => writeln!(ctx.out, "{dir}: removed {n} {}", noun_for(n, "entry"))?,
            Err(e) => user_err!("cannot clear {dir}: {e}"),
        },
    }
    Ok(())
}

/// `ctxcurate slices PATH`: one line per slice of the file's entry in the
/// preset, with its resolution against the current file.
pub fn slices(path: &str, preset: Option<&str>, ctx: &mut Ctx) -> Result<()> {
    let project = ctx.project()?;
    let rel = ctx.rel_path(&project.root, Path::new(path))?;
    let preset = match preset {
        None => project.active_preset(),
        Some(name) => match project.preset(name) {
            Some((p, _)) => p.clone(),
            None => user_err!("no preset named `{name}`"),
        },
    };
    let Some(item) = preset.item(&rel) else {
        user_err!("{rel} is not in the preset");
    };
    if item.custom_slices.is_empty() {
        writeln!(ctx.out, "{}: no slices", display_line(&rel, 500))?;
        return Ok(());
    }
    let text = read_text(&project.root, &rel)?;
    let mut resolver = anchor::Resolver::new(&text);
    for (i, slice) in item.custom_slices.iter().enumerate() {
        let res = resolver.resolve(slice);
        let mut line = format!("{}. lines {}-{}", i + 1, slice.start_line, slice.end_line);
        if let Some(tag) = &slice.tag {
            line.push_str(&format!(" [{}]", display_line(tag, 60)));
        }
        line.push_str(&format!(": {}", res.describe()));
        match &res {
            Resolution::Kept { .. } => {}
            Resolution::Moved { start, end, .. } | Resolution::Reanchored { start, end } => {
                line.push_str(&format!(" → lines {start}-{end}"));
            }
            Resolution::Stale { reason } => line.push_str(&format!(" ({reason})")),
        }
        writeln!(ctx.out, "{line}")?;
    }
    Ok(())
}
