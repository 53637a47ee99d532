//! Read-only commands on single files: `view`, `symbols`, `tokens`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use ctxcurate::core::model::{FileItem, TokenizerKind, ViewMode};
use ctxcurate::core::project::{self, Project};
use ctxcurate::core::syntax::{self, Lang, Symbol};
use ctxcurate::core::walk::{self, Content};
use ctxcurate::core::{tokens, views};
use rayon::prelude::*;

use super::{Ctx, read_text, user_err, write_content};

/// Where a file named on the command line is read from: inside the
/// project, its root and relative path; outside it (the user named it
/// explicitly, as with `cat`), its own folder and name.
fn locate(ctx: &Ctx, path: &Path) -> Result<(PathBuf, String)> {
    let root = project::find_root(&ctx.cwd);
    if let Ok(rel) = ctx.rel_path(&root, path) {
        return Ok((root, rel));
    }
    let abs = ctx.cwd.join(path);
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => Ok((dir.to_path_buf(), name.to_string_lossy().into_owned())),
        _ => user_err!("{}: not a file", path.display()),
    }
}

pub fn view(path: &Path, mode: ViewMode, ctx: &mut Ctx) -> Result<()> {
    let (root, rel) = locate(ctx, path)?;
    let text = read_text(&root, &rel)?;
    // The preset's entry carries the masks and slices the view needs (only
    // for a file of this project: an outside file has no entry).
    let item = Project::open(&ctx.cwd)
        .ok()
        .filter(|p| p.root == root)
        .and_then(|p| p.active_preset().item(&rel).cloned())
        .unwrap_or_else(|| FileItem::new(rel.clone()));
    let view = views::render(&rel, &text, mode, &item);
    write_content(ctx, &view.text)?;
    if view.mode != mode {
        writeln!(
            ctx.err,
            "note: {rel} has no {mode} view; showing {}",
            view.mode
        )?;
    }
    for note in &view.notes {
        writeln!(ctx.err, "note: {note}")?;
    }
    Ok(())
}

pub fn symbols(path: &Path, json: bool, ctx: &mut Ctx) -> Result<()> {
    let (root, rel) = locate(ctx, path)?;
    if Lang::from_path(&rel).is_none() {
        user_err!("{rel}: no symbols for this file type (Python, C and C++ files have them)");
    }
    let text = read_text(&root, &rel)?;
    let Some(lang) = Lang::detect(&rel, &text) else {
        user_err!("{rel}: no symbols for this file type (Python, C and C++ files have them)");
    };
    let tree = syntax::parse(lang, &text);
    if json {
        serde_json::to_writer_pretty(&mut *ctx.out, &tree.symbols)?;
        writeln!(ctx.out)?;
    } else {
        for sym in &tree.symbols {
            write_symbol(ctx.out, sym, 0)?;
        }
    }
    if let Some(line) = tree.error_line {
        writeln!(
            ctx.err,
            "note: {rel} has syntax errors (first at line {line}); symbols may be incomplete"
        )?;
    }
    Ok(())
}

fn write_symbol(out: &mut dyn Write, sym: &Symbol, depth: usize) -> Result<()> {
    writeln!(
        out,
        "{}{} {}  L{}-{}  {}",
        "  ".repeat(depth),
        sym.kind.as_str(),
        sym.path,
        sym.start_line,
        sym.end_line,
        sym.signature
    )?;
    for child in &sym.children {
        write_symbol(out, child, depth + 1)?;
    }
    Ok(())
}

pub fn tokens(paths: &[PathBuf], tokenizer: Option<TokenizerKind>, ctx: &mut Ctx) -> Result<()> {
    let root = project::find_root(&ctx.cwd);
    let (rels, kind) = if paths.is_empty() {
        let project = ctx.project()?;
        let preset = project.active_preset();
        let (resolved, _) =
            walk::expand_items(&preset.files, &preset.exclude, || walk::walk_files(&root));
        let rels = resolved.into_iter().map(|r| r.path).collect();
        (rels, tokenizer.unwrap_or(project.settings.tokenizer))
    } else {
        let rels = paths
            .iter()
            .map(|p| ctx.rel_path(&root, p))
            .collect::<Result<Vec<_>>>()?;
        let kind = tokenizer.unwrap_or_else(|| {
            Project::open(&ctx.cwd)
                .map(|p| p.settings.tokenizer)
                .unwrap_or(TokenizerKind::O200k)
        });
        (rels, kind)
    };
    let counts: Vec<(String, Result<usize, String>)> = rels
        .into_par_iter()
        .map(|rel| {
            let n = match walk::read_content(&root, &rel) {
                Content::Text { text, .. } => Ok(tokens::count(kind, &text)),
                Content::Unreadable(p) => Err(p.to_string()),
            };
            (rel, n)
        })
        .collect();
    let mut total = 0;
    for (rel, n) in &counts {
        match n {
            Ok(n) => {
                total += n;
                writeln!(ctx.out, "{n:>9}  {rel}")?;
            }
            Err(e) => writeln!(ctx.out, "{:>9}  {rel} ({e})", "-")?,
        }
    }
    writeln!(ctx.out, "{total:>9}  total ({kind})")?;
    Ok(())
}
