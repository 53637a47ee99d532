//! `ctxcurate build`: compose a preset — or pack it into a token budget
//! around target files — and write it to stdout, a file, or the next
//! numbered output file; the token total or the packing stats go to stderr.
//! `--changed` and `--diff` bring in git's view of the change (see
//! `cli::changed`).

use ctxcurate::text::words::{noun_for, thousands};
use std::path::{Path, PathBuf};

use anyhow::Result;
use ctxcurate::core::compose::RenderedFile;
use ctxcurate::core::discovery::pack::PackStats;
use ctxcurate::core::engine::{
    Answered, AskError, AskRefused, BuildAsk, BuildError, Built, Destination, PackReport, Refused,
    Said, TargetError, TaskText, build_asked,
};
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::secrets::Finding;
use ctxcurate::core::walk::{self, IgnoreFileNote};
use ctxcurate::text::error_chain;
use ctxcurate::text::sanitize::display_line;

use super::args::BuildArgs;
use super::{Ctx, changed, progress, user_err, write_content};

/// `ctxcurate build` without `--watch` (`cli::watch` builds with it).
pub fn build(args: BuildArgs, ctx: &mut Ctx) -> Result<()> {
    build_once(&args, ctx, &Rebuild::default(), None)
}

/// `--task-file -`: the task read from standard input, once (a watch's
/// rebuilds keep it), as `task set -` reads it.
pub(super) fn task_from_stdin(mut args: BuildArgs) -> Result<BuildArgs> {
    if args.task.is_some() || args.task_file.as_deref() != Some(std::path::Path::new("-")) {
        return Ok(args);
    }
    let mut bytes = Vec::new();
    if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes) {
        user_err!("cannot read the task from stdin: {e}");
    }
    match String::from_utf8(bytes) {
        Ok(text) => {
            args.task = Some(text);
            args.task_file = None;
            Ok(args)
        }
        Err(e) => user_err!(
            "cannot read the task from stdin: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    }
}

/// What a rebuild of `build --watch` adds to a build.
#[derive(Default)]
pub(super) struct Rebuild<'a> {
    /// What changed: opens the report's last line.
    pub note: Option<&'a str>,
    /// The output's own root-relative path: left out, or each rebuild
    /// would compose the last one's output into the next.
    pub output: Option<&'a str>,
}

/// One build as `build` makes it (with `rebuild`'s additions); `included`
/// (a watch's) gets the files it composed (also when it was refused), for the watch
/// to know which changes matter.
pub(super) fn build_once(
    args: &BuildArgs,
    ctx: &mut Ctx,
    rebuild: &Rebuild,
    included: Option<&mut Vec<String>>,
) -> Result<()> {
    // Opening the project and applying the personal layer each resolve
    // the settings: one scan of the command's scripts serves the build;
    // the next build (a watch's) reads the disk again.
    ctxcurate::core::trust::one_scan::run(|| build_scanned(args, ctx, rebuild, included))
}

/// [`build_once`], inside one scan of the command's scripts.
fn build_scanned(
    args: &BuildArgs,
    ctx: &mut Ctx,
    rebuild: &Rebuild,
    included: Option<&mut Vec<String>>,
) -> Result<()> {
    let project = ctx.project()?;
    // An output inside the project is none of its input: a second
    // `build -o out.md` composed the first one's (a watch names it).
    let own = match (&args.output, rebuild.output) {
        (Some(output), None) if !args.save => output_rel(&project.root, &ctx.cwd.join(output)),
        _ => None,
    };
    let ask = ask(args, rebuild.output.or(own.as_deref()), ctx);
    let answered = build_asked(&project, ask, |progress| progress::show(ctx, progress));
    let Answered { said, outcome } = match answered {
        Ok(answered) => answered,
        Err(refused) => {
            let AskRefused { said, why } = *refused;
            report_said(&said, args, ctx)?;
            return refuse(why);
        }
    };
    report_said(&said, args, ctx)?;
    let built = match &outcome {
        Ok(built) => built,
        Err(refused) => &refused.so_far,
    };
    // Only a watch asks: a one-off build of 100,000 files copies no paths.
    if let Some(included) = included {
        *included = built.paths().map(str::to_string).collect();
        included.sort_unstable();
    }
    report(outcome, args, rebuild.note, project.settings.budget, ctx)
}

/// The flags as what the user asked: the preset, git's changes
/// (`--changed`, `--diff`), the task, the targets as typed, the overrides,
/// the budgets, where the text goes.
fn ask(args: &BuildArgs, own_output: Option<&str>, ctx: &Ctx) -> BuildAsk {
    let task = match (&args.task, &args.task_file) {
        (Some(task), _) => Some(TaskText::Text(task.clone())),
        (None, Some(file)) => Some(TaskText::File(file.clone())),
        (None, None) => None,
    };
    let destination = if args.save {
        Destination::NextOutputFile
    } else {
        match &args.output {
            Some(p) => Destination::Path(ctx.cwd.join(p)),
            // A terminal gets the text line by line, made safe to show;
            // a pipe gets it streamed from a file, never held whole.
            None if ctx.out_is_terminal => Destination::Caller,
            None => Destination::Stream,
        }
    };
    BuildAsk {
        cwd: ctx.cwd.clone(),
        preset: args.preset.clone(),
        changed: args.changed.clone(),
        diff: args.diff.clone(),
        task,
        targets: args.targets.clone(),
        exclude: own_output.map(str::to_string).into_iter().collect(),
        strategy: args.strategy,
        format: args.format,
        focus: args.focus.clone(),
        tree: args.tree,
        tokenizer: args.tokenizer,
        budget: args.budget,
        map_budget: args.map_budget,
        allow_partial: args.allow_partial,
        allow_secrets: args.allow_secrets,
        destination,
    }
}

/// What resolving the flags said, on stderr (`--stats-json` keeps stderr
/// one JSON value: no note on an empty preset there).
fn report_said(said: &[Said], args: &BuildArgs, ctx: &mut Ctx) -> Result<()> {
    for said in said {
        match said {
            Said::ChangedNote(note) => writeln!(ctx.err, "note: {}", display_line(note, 1000))?,
            Said::ChangedOnTop { files, rev, added } => writeln!(
                ctx.err,
                "note: {files} changed {} against {}, {added} added on top of the preset",
                noun_for(*files, "file"),
                display_line(rev, 200),
            )?,
            Said::Empty { .. } if args.stats_json => {}
            Said::Empty { preset } => writeln!(
                ctx.err,
                "note: preset {} has no files yet: `ctxcurate add PATH` adds some",
                display_line(preset, 100)
            )?,
            Said::Missing(path) => writeln!(
                ctx.err,
                "warning: preset file not found: {}",
                display_line(path, 300)
            )?,
            Said::DiffNote(note) => writeln!(ctx.err, "note: {}", display_line(note, 500))?,
            Said::EmptyTaskFile(_) if args.stats_json => {}
            Said::EmptyTaskFile(file) => writeln!(
                ctx.err,
                "note: the task file {} is empty: this build has no task",
                display_line(&file.display().to_string(), 300)
            )?,
        }
    }
    Ok(())
}

/// Why the flags made no request, as the user error it is.
pub(super) fn refuse(why: AskError) -> Result<()> {
    match why {
        AskError::Preset(e) => Err(e.into()),
        AskError::Git { diff, error } => {
            changed::git_err(if diff { "--diff" } else { "--changed" }, error)
        }
        AskError::TaskFile { path, source } => {
            user_err!("cannot read the task file {}: {source}", path.display())
        }
        AskError::Target(e) => target_err(e),
    }
}

/// A path that is no target, as the user error it is.
fn target_err<T>(e: TargetError) -> Result<T> {
    match e {
        TargetError::Folder(rel) => {
            user_err!("{} is a folder: targets are files", display_line(&rel, 300))
        }
        TargetError::NotFound(rel) => user_err!("target not found: {}", display_line(&rel, 300)),
        e => user_err!("{e}"),
    }
}

/// The result on stderr (and the text on stdout when it came back to the
/// caller), in the order the build went: what the walk and the pack said,
/// the preset's problems, the files' warnings and notes, the likely
/// secrets, then where the text went and its size. A refusal is reported
/// where the build stopped, after what it had said until then.
fn report(
    outcome: Result<Built, Box<Refused>>,
    args: &BuildArgs,
    note: Option<&str>,
    budget: usize,
    ctx: &mut Ctx,
) -> Result<()> {
    let (built, refused) = match outcome {
        Ok(built) => (built, None),
        Err(refused) => {
            let Refused { why, so_far } = *refused;
            (*so_far, Some(why))
        }
    };
    report_preparation(&built, refused.as_ref(), ctx)?;
    report_files(&built.files, ctx)?;
    report_secrets(&built.findings, args.allow_secrets, ctx)?;
    match refused {
        Some(BuildError::Secrets { count, .. }) => user_err!(
            "refusing to write a context with {count} likely {}; \
             remove them (or exclude the files) or pass --allow-secrets",
            noun_for(count, "secret")
        ),
        Some(BuildError::Output(e)) => user_err!("{}", display_line(&error_chain(&e), 500)),
        Some(why) => user_err!("{why}"),
        None => {}
    }
    match &built.spooled {
        Some(spooled) => spooled.write_to(ctx.out)?,
        None if built.written.is_none() => write_content(ctx, &built.text)?,
        None => {}
    }
    if let Some(note) = note.filter(|_| !args.stats_json) {
        write!(ctx.err, "{} · ", display_line(note, 300))?;
    }
    match &built.packed {
        Some(packed) => report_pack(
            packed,
            built.tokenizer,
            built.written.as_ref(),
            args.stats_json,
            ctx,
        ),
        None if args.stats_json => report_size_json(&built, budget, ctx),
        None => report_size(&built, budget, ctx),
    }
}

/// A composition's size on stderr as one JSON value (`--stats-json`
/// without packing): what [`report_size`] says, under the names the
/// packed build's JSON and `stats --json` use.
fn report_size_json(built: &Built, budget: usize, ctx: &mut Ctx) -> Result<()> {
    let value = serde_json::json!({
        "packed": false,
        "stats": {
            "files": built.rendered(),
            "errors": built.with_errors(),
            "tokens": built.tokens,
            "exact": built.exact,
            "map_tokens": built.map_tokens,
            "budget": budget,
            "over_budget": budget > 0 && built.tokens > budget,
        },
        "tokenizer": built.tokenizer.as_str(),
        "written_to": built.written.as_ref().map(|p| p.display().to_string()),
    });
    writeln!(ctx.err, "{value}")?;
    Ok(())
}

/// What the build said before its files: the diffs left out to fit, the
/// walk's notes, the held entries, the preset's problems, the targets
/// left out; a refusal at one of these steps ends the report there.
fn report_preparation(built: &Built, refused: Option<&BuildError>, ctx: &mut Ctx) -> Result<()> {
    for note in &built.changes_dropped {
        writeln!(ctx.err, "warning: {}", display_line(note, 500))?;
    }
    if let Some(BuildError::ChangesOverBudget {
        against,
        tokens,
        budget,
    }) = refused
    {
        user_err!(
            "the changes against {} take {tokens} tokens, over the budget of {budget}: \
             raise --budget, compare with a nearer REF, or pass --allow-partial to leave \
             out the largest files' diffs",
            display_line(against, 200)
        );
    }
    report_walk(&built.walk_notes, ctx)?;
    if let Some(note) = &built.held {
        writeln!(ctx.err, "warning: {}", display_line(note, 300))?;
    }
    if let Some(why @ BuildError::TaskDoesNotFit { .. }) = refused {
        user_err!("{why}");
    }
    for problem in &built.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    if let Some(BuildError::TargetsDoNotFit { missing }) = refused
        && let Some(first) = missing.first()
    {
        let also = match missing.len() {
            1 => String::new(),
            n => format!(" (and {} more targets)", n - 1),
        };
        let raise = if first.unreadable.is_none() {
            "raise --budget, or "
        } else {
            ""
        };
        user_err!(
            "{}{also}: {raise}pass --allow-partial to build without it",
            display_line(&first.to_string(), 300)
        );
    }
    for missing in built.packed.iter().flat_map(|p| &p.missing_targets) {
        writeln!(
            ctx.err,
            "warning: {}",
            display_line(&missing.to_string(), 300)
        )?;
    }
    Ok(())
}

/// A composition's size on stderr: files, tokens, errors, where written;
/// then, past the project's `budget` (the TUI's gauge turns red there),
/// a note on what to do about it.
fn report_size(built: &Built, budget: usize, ctx: &mut Ctx) -> Result<()> {
    let (rendered, errors) = (built.rendered(), built.with_errors());
    write!(
        ctx.err,
        "{rendered} {}, {} tokens ({})",
        noun_for(rendered, "file"),
        built.tokens,
        built.tokenizer
    )?;
    if errors > 0 {
        write!(ctx.err, ", {errors} with errors")?;
    }
    if let Some(path) = &built.written {
        let shown = path.display().to_string();
        write!(ctx.err, ", written to {}", display_line(&shown, 500))?;
    }
    writeln!(ctx.err)?;
    if budget > 0 && built.tokens > budget {
        writeln!(
            ctx.err,
            "note: {} tokens is {:.0}% of the budget of {} tokens: `ctxcurate stats` shows \
             where they go; `build --budget {budget}` packs the context to fit",
            thousands(built.tokens),
            built.tokens as f64 * 100.0 / budget as f64,
            thousands(budget),
        )?;
    }
    Ok(())
}

/// The files that could not be shown named one by one on stderr; the
/// rest are counted in one line.
const FILE_ERRORS_NAMED: usize = 32;

/// One line per file that could not be shown (the first
/// [`FILE_ERRORS_NAMED`]) or was shown with a caveat; the build itself
/// goes on.
fn report_files(files: &[RenderedFile], ctx: &mut Ctx) -> Result<()> {
    let failed = files.iter().filter(|f| f.error.is_some()).count();
    let mut named = 0usize;
    for f in files {
        if let Some(e) = &f.error {
            // The first by name; a project file listing 80,000 missing
            // paths printed 80,000 lines (recheck 16).
            named += 1;
            if named <= FILE_ERRORS_NAMED {
                let line = format!("{}: {e}", f.path);
                writeln!(ctx.err, "warning: {}", display_line(&line, 500))?;
            } else if named == FILE_ERRORS_NAMED + 1 {
                writeln!(
                    ctx.err,
                    "warning: {} more files could not be shown (the context names each)",
                    thousands(failed - FILE_ERRORS_NAMED)
                )?;
            }
        }
        for note in &f.notes {
            let line = format!("{}: {note}", f.path);
            writeln!(ctx.err, "note: {}", display_line(&line, 500))?;
        }
    }
    Ok(())
}

/// Each likely secret named by file and line, masked: an error when it
/// will stop the build (see `core::engine::Workspace::save`), else a
/// warning.
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
    packed: &PackReport,
    tokenizer: TokenizerKind,
    path: Option<&PathBuf>,
    json: bool,
    ctx: &mut Ctx,
) -> Result<()> {
    let s: &PackStats = &packed.stats;
    if json {
        let value = serde_json::json!({
            "packed": true,
            "stats": s,
            "tokenizer": tokenizer.as_str(),
            "items": packed.items,
            "written_to": path.map(|p| p.display().to_string()),
        });
        writeln!(ctx.err, "{value}")?;
        return Ok(());
    }
    write!(
        ctx.err,
        "packed {} of {} {} ({} full, {} in their own view, {} reduced; {} dropped; \
         {} discovered from {} {}{}), \
         repo map {} {} ({} outlined, {} tokens): {} / {} tokens ({:.1}%, {tokenizer})",
        s.included,
        s.candidates,
        noun_for(s.candidates, "candidate"),
        s.full,
        s.included.saturating_sub(s.full + s.reduced),
        s.reduced,
        s.dropped,
        s.discovered,
        s.targets,
        noun_for(s.targets, "target"),
        if s.filled > 0 {
            format!("; {} in the room the map left", s.filled)
        } else {
            String::new()
        },
        s.map_listed,
        noun_for(s.map_listed, "file"),
        s.map_outlined,
        s.map_tokens,
        s.tokens,
        s.budget,
        s.utilisation * 100.0,
    )?;
    if let Some(path) = path {
        let shown = path.display().to_string();
        write!(ctx.err, ", written to {}", display_line(&shown, 500))?;
    }
    writeln!(ctx.err)?;
    if let Some(note) = s.unresolved_note() {
        writeln!(ctx.err, "note: {}", display_line(&note, 500))?;
    }
    for note in &s.limits {
        writeln!(ctx.err, "note: {}", display_line(note, 500))?;
    }
    for note in [
        s.dropped_note(),
        s.excluded_note(),
        s.sensitive_note(),
        s.held_note(),
    ]
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

/// Which ignore files below the root the walk skipped or cut (the
/// root's own were said when the project opened).
fn report_walk(notes: &[IgnoreFileNote], ctx: &mut Ctx) -> Result<()> {
    for line in walk::notes_lines(notes) {
        writeln!(ctx.err, "warning: {}", display_line(&line, 300))?;
    }
    Ok(())
}

/// The output's root-relative path, when it lies inside the root.
/// The output's folders may not exist yet (the first build makes them):
/// the nearest folder that does is resolved and the rest appended, so an
/// output in a new folder is still kept out of its own rebuilds.
pub(super) fn output_rel(root: &Path, output: &Path) -> Option<String> {
    let mut rest = vec![output.file_name()?];
    let mut dir = output.parent()?;
    let resolved = loop {
        match dir.canonicalize() {
            Ok(resolved) => break resolved,
            Err(_) => {
                rest.push(dir.file_name()?);
                dir = dir.parent()?;
            }
        }
    };
    let full: PathBuf = rest
        .iter()
        .rev()
        .fold(resolved, |path, part| path.join(part));
    let root = root.canonicalize().ok()?;
    full.strip_prefix(&root).ok().map(walk::rel_string)
}

#[cfg(test)]
mod tests {
    use super::output_rel;

    /// An output in a folder the first build has yet to make is still
    /// known to be the project's own file (else `--watch` would compose
    /// its own output into the next build, forever).
    #[test]
    fn an_output_in_a_new_folder_is_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let rel = output_rel(root, &root.join("gen/sub/out.md"));
        assert_eq!(rel.as_deref(), Some("gen/sub/out.md"));
        assert_eq!(
            output_rel(root, &root.join("out.md")).as_deref(),
            Some("out.md")
        );
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(output_rel(root, &outside.path().join("new/out.md")), None);
    }
}
