//! Read-only commands on single files: `view`, `symbols`, `tokens`.
//!
//! They read files as `build` does: the `max_file_size` of the project
//! and global config applies, lifted by `force_full` on the file's preset
//! entry (its own or a glob's) or by `--force-full`. `tokens` only reads,
//! so a file named on its command line is counted whatever its size (with
//! a note over the cap), and `-` counts standard input.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use ctxcurate::core::model::{FileItem, Preset, TokenizerKind, ViewMode};
use ctxcurate::core::paths;
use ctxcurate::core::project::Project;
use ctxcurate::core::syntax::{self, CMacros, Lang, Symbol};
use ctxcurate::core::walk::{self, Content, FileProblem, ReadPolicy};
use ctxcurate::core::{symbol_costs, tokens, views};
use ctxcurate::text::sanitize::escape_line;
use rayon::prelude::*;

use super::{Ctx, user_err, write_content};

/// The tokens of standard input (`tokens -`), which must be UTF-8 text.
fn count_stdin(kind: TokenizerKind) -> Result<usize> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(tokens::count(kind, &text)),
        Err(e) => user_err!(
            "standard input is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    }
}

/// Where a file named on the command line is read from: inside the
/// project, its root and relative path; outside it (the user named it
/// explicitly, as with `cat`), its own folder and name.
fn locate(ctx: &Ctx, path: &Path) -> Result<(PathBuf, String)> {
    let root = paths::find_root(&ctx.cwd);
    if let Ok(rel) = ctx.rel_path(&root, path) {
        return Ok((root, rel));
    }
    let abs = ctx.cwd.join(path);
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => Ok((dir.to_path_buf(), name.to_string_lossy().into_owned())),
        _ => user_err!("{}: not a file", path.display()),
    }
}

/// A file named on the command line, read as `build` would read it.
struct Named {
    rel: String,
    /// Its preset entry (an outside file, or one the preset does not
    /// name, gets a fresh one).
    item: FileItem,
    text: String,
    /// The project's extra C/C++ macros (`[syntax] c_macros`).
    macros: CMacros,
    /// The project's tokenizer (o200k without a project).
    tokenizer: TokenizerKind,
}

/// Read `path` under the read policy of the project around the working
/// directory (project and global config; the defaults when there is no
/// project file or it does not parse, with a warning), its entry's `force_full` or
/// `--force-full` lifting the size cap.
fn read_named(ctx: &mut Ctx, path: &Path, force_full: bool) -> Result<Named> {
    let (root, rel) = locate(ctx, path)?;
    let project = ctx.project_or_defaults()?;
    let policy = project.as_ref().map_or_else(ReadPolicy::default, |p| {
        ReadPolicy::from_settings(&p.settings)
    });
    // Only a file of this project has an entry in its preset.
    let item = project
        .as_ref()
        .filter(|p| p.root == root)
        .and_then(|p| {
            let preset = p.active_preset();
            walk::entry_for(&preset.files, &preset.exclude, &rel)
        })
        .unwrap_or_else(|| FileItem::new(rel.clone()));
    // A file outside the project reads no macro of the project's files.
    let macros = project
        .as_ref()
        .map(|p| {
            let macros = p.c_macros();
            if p.root == root {
                macros
            } else {
                macros.without_project()
            }
        })
        .unwrap_or_default();
    let tokenizer = project
        .as_ref()
        .map_or(TokenizerKind::O200k, |p| p.settings.tokenizer);
    let force = force_full || item.force_full;
    match walk::read_content_with(&root, &rel, &policy, force) {
        Content::Text { text, .. } => Ok(Named {
            rel,
            item,
            text: text.to_string(),
            macros,
            tokenizer,
        }),
        Content::Unreadable(problem) => user_err!("{rel}: {}", explain(&problem)),
    }
}

/// A read problem as these commands word it: a file over the size cap
/// names the ways to read it anyway.
fn explain(problem: &FileProblem) -> String {
    match problem {
        FileProblem::TooLarge { bytes, limit } => format!(
            "file too large ({bytes} bytes, max_file_size {limit}) skipped; \
             --force-full reads it, or raise max_file_size in ctxcurate.toml \
             or your global config"
        ),
        other => other.to_string(),
    }
}

pub fn view(path: &Path, mode: ViewMode, force_full: bool, ctx: &mut Ctx) -> Result<()> {
    let Named {
        rel,
        item,
        text,
        macros,
        ..
    } = read_named(ctx, path, force_full)?;
    let view = views::render_with(&rel, &text, mode, &item, &macros);
    write_content(ctx, &view.text)?;
    if view.mode != mode && mode.needs_grammar() && !views::has_grammar(&rel, &text) {
        writeln!(
            ctx.err,
            "note: {}: {}; showing {}",
            escape_line(&rel),
            views::no_grammar(&rel),
            view.mode
        )?;
    } else if view.mode != mode {
        writeln!(
            ctx.err,
            "note: {} has no {mode} view; showing {}",
            escape_line(&rel),
            view.mode
        )?;
    }
    for note in &view.notes {
        writeln!(ctx.err, "note: {note}")?;
    }
    Ok(())
}

pub fn symbols(path: &Path, json: bool, force_full: bool, ctx: &mut Ctx) -> Result<()> {
    let (_, rel) = locate(ctx, path)?;
    if views::grammar_by_name(&rel) == Some(false) {
        user_err!("{rel}: no symbols: {}", views::no_grammar(&rel));
    }
    let Named {
        rel,
        text,
        macros,
        tokenizer,
        ..
    } = read_named(ctx, path, force_full)?;
    let Some(lang) = Lang::detect(&rel, &text) else {
        user_err!("{rel}: no symbols: {}", views::no_grammar(&rel));
    };
    let tree = syntax::parse_with(lang, &text, &macros);
    // What hiding each one takes off (the symbols pane's column).
    let costs = syntax::costs::symbol_costs(&tree, &text, |s| tokens::count(tokenizer, s));
    if json {
        let costed = symbol_costs::with_costs(&tree.symbols, &costs);
        serde_json::to_writer_pretty(&mut *ctx.out, &costed)?;
        writeln!(ctx.out)?;
    } else {
        let mut costs = costs.iter();
        for sym in &tree.symbols {
            write_symbol(ctx.out, sym, 0, &mut costs)?;
        }
    }
    if tree.parse_stopped {
        writeln!(
            ctx.err,
            "note: {}: no symbols: {}",
            escape_line(&rel),
            views::parse_stopped_note(lang)
        )?;
    } else if let Some(line) = tree.error_line {
        writeln!(
            ctx.err,
            "note: {} has syntax errors (first at line {line}); symbols may be incomplete",
            escape_line(&rel)
        )?;
    }
    Ok(())
}

/// `sym` and its children, one a line: kind, path, lines, what it costs
/// (the next of `costs`, in depth-first order) and its signature.
fn write_symbol(
    out: &mut dyn Write,
    sym: &Symbol,
    depth: usize,
    costs: &mut std::slice::Iter<usize>,
) -> Result<()> {
    let cost = costs
        .next()
        .map_or_else(String::new, |n| format!("  {n} tok"));
    // A path that says its kind (`impl Table`, C's `struct Point`) is not
    // preceded by it again.
    let kind = sym.kind.as_str();
    let kind = if sym.path.starts_with(&format!("{kind} ")) {
        String::new()
    } else {
        format!("{kind} ")
    };
    writeln!(
        out,
        "{}{kind}{}  L{}-{}{cost}  {}",
        "  ".repeat(depth),
        escape_line(&sym.path),
        sym.start_line,
        sym.end_line,
        // One line by construction, but its text is the file's: a raw
        // control in a default value is shown, not printed.
        escape_line(&sym.signature)
    )?;
    for child in &sym.children {
        write_symbol(out, child, depth + 1, costs)?;
    }
    Ok(())
}

pub fn tokens(
    paths: &[PathBuf],
    tokenizer: Option<TokenizerKind>,
    force_full: bool,
    ctx: &mut Ctx,
) -> Result<()> {
    let root = paths::find_root(&ctx.cwd);
    // `-` is standard input, as Unix tools read it; the rest are files.
    let from_stdin = paths.iter().any(|p| p.as_os_str() == "-");
    let named: Vec<&PathBuf> = paths.iter().filter(|p| p.as_os_str() != "-").collect();
    // The project's settings and preset decide what may be read, as in
    // `build`; without a project file, the defaults (and global config).
    let project = if paths.is_empty() {
        Some(ctx.project()?)
    } else {
        ctx.project_or_defaults()?
    };
    let policy = project.as_ref().map_or_else(ReadPolicy::default, |p| {
        ReadPolicy::from_settings(&p.settings)
    });
    let kind = tokenizer
        .or(project.as_ref().map(|p| p.settings.tokenizer))
        .unwrap_or(TokenizerKind::O200k);
    let preset = project
        .as_ref()
        .map(Project::active_preset)
        .unwrap_or_default();
    let patterns = project
        .as_ref()
        .map_or_else(walk::WalkPatterns::default, |p| {
            walk::WalkPatterns::from_settings(&p.settings)
        });
    let files = files_to_count(paths, &named, &root, &preset, &patterns, ctx)?;
    let (mut counts, over_cap) = count_files(files, &root, &policy, kind, force_full);
    if from_stdin {
        counts.push(("-".to_string(), Ok(count_stdin(kind)?)));
    }
    if counts.is_empty() && !paths.is_empty() {
        user_err!("no file to count");
    }
    report_counts(&counts, &over_cap, kind, policy.max_file_size, ctx)
}

/// A file to count: (root, path under it, forced, named).
type ToCount = (PathBuf, String, bool, bool);

/// A file's row name and its count, or why it has none.
type Counted = (String, Result<usize, FileProblem>);

/// What to count: the active preset's files when no path is named, else
/// each named path. A named file outside the project is counted too (it is only read), under its own folder.
/// A file named on the command line is read whatever its size: counting
/// only reads it (`max_file_size` bounds what a context carries). A
/// folder of the project stands for its files as the walk sees them
/// (as `add` takes it), each under the cap unless forced.
fn files_to_count(
    paths: &[PathBuf],
    named: &[&PathBuf],
    root: &Path,
    preset: &Preset,
    patterns: &walk::WalkPatterns,
    ctx: &mut Ctx,
) -> Result<Vec<ToCount>> {
    let mut walked: Option<Vec<String>> = None;
    let files = if paths.is_empty() {
        let (resolved, _) = walk::expand_items(&preset.files, &preset.exclude, || {
            walk::walk_files_with(root, patterns)
        });
        resolved
            .into_iter()
            .map(|r| (root.to_path_buf(), r.path, r.settings.force_full, false))
            .collect()
    } else {
        let mut files = Vec::new();
        for p in named {
            // The project's root itself (`tokens .`) is its top folder.
            let is_root =
                paths::normalize_rel(root, &ctx.cwd.join(p)).is_some_and(|r| r.is_empty());
            let (dir, rel) = if is_root {
                (root.to_path_buf(), String::new())
            } else {
                locate(ctx, p)?
            };
            let forced_entry = |rel: &str| {
                walk::entry_for(&preset.files, &preset.exclude, rel).is_some_and(|i| i.force_full)
            };
            if dir == root && root.join(&rel).is_dir() {
                let all = walked.get_or_insert_with(|| walk::walk_files_with(root, patterns));
                let prefix = format!("{}/", rel.trim_end_matches('/'));
                let under: Vec<&String> = all
                    .iter()
                    .filter(|f| rel.is_empty() || f.starts_with(&prefix))
                    .collect();
                if under.is_empty() {
                    writeln!(
                        ctx.err,
                        "warning: {} holds no file to count (the walk ignores what is in it)",
                        escape_line(if rel.is_empty() { "." } else { &rel })
                    )?;
                }
                for f in under {
                    files.push((root.to_path_buf(), f.clone(), forced_entry(f), false));
                }
            } else {
                let forced = dir == root && forced_entry(&rel);
                files.push((dir, rel, forced, true));
            }
        }
        files
    };
    Ok(files)
}

/// Each file's count (or why it has none), shown as its row names it, and
/// the files over `max_file_size` counted in full (name, bytes).
fn count_files(
    files: Vec<ToCount>,
    root: &Path,
    policy: &ReadPolicy,
    kind: TokenizerKind,
    force_full: bool,
) -> (Vec<Counted>, Vec<(String, usize)>) {
    let max = policy.max_file_size;
    let mut over_cap = Vec::new();
    let counts: Vec<Counted> = files
        .into_par_iter()
        .map(|(dir, rel, forced, named)| {
            let n = match walk::read_content_with(&dir, &rel, policy, force_full || forced || named)
            {
                Content::Text { text, .. } => Ok((tokens::count(kind, &text), text.len())),
                Content::Unreadable(p) => Err(p),
            };
            let shown = if dir == root {
                rel
            } else {
                dir.join(&rel).display().to_string()
            };
            // One row per file, whatever its name: a newline or a control
            // in it is shown, never printed.
            (escape_line(&shown).into_owned(), n, forced)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(shown, n, forced)| {
            if let Ok((_, bytes)) = n
                && bytes as u64 > max
                && !(force_full || forced)
            {
                over_cap.push((shown.clone(), bytes));
            }
            (shown, n.map(|(tokens, _)| tokens))
        })
        .collect();
    (counts, over_cap)
}

/// The rows, the total, the notes on files over the cap and on those not
/// counted; an error when none could be.
fn report_counts(
    counts: &[Counted],
    over_cap: &[(String, usize)],
    kind: TokenizerKind,
    max: u64,
    ctx: &mut Ctx,
) -> Result<()> {
    let mut total = 0;
    let mut skipped = Vec::new();
    for (rel, n) in counts {
        match n {
            Ok(n) => {
                total += n;
                writeln!(ctx.out, "{n:>9}  {rel}")?;
            }
            Err(e) => {
                writeln!(ctx.out, "{:>9}  {rel} ({e})", "-")?;
                skipped.push((rel, e));
            }
        }
    }
    writeln!(ctx.out, "{total:>9}  total ({kind})")?;
    for (rel, bytes) in over_cap {
        writeln!(
            ctx.err,
            "note: {rel} is {bytes} bytes, over max_file_size ({max}): counted in full here; \
             a context shows it as a one-line note unless its entry has force_full"
        )?;
    }
    for (rel, problem) in &skipped {
        writeln!(ctx.err, "warning: {rel} not counted: {}", explain(problem))?;
    }
    // A total of nothing is no answer: fail rather than print "0 total".
    if !skipped.is_empty() && skipped.len() == counts.len() {
        user_err!("no file could be counted ({} skipped)", skipped.len());
    }
    Ok(())
}
