//! The worker's jobs: composing, parsing symbols, reading raw text,
//! preparing clipboard text and writing output files. Each kind is one
//! small function: the job's inputs as a request to `core::engine` (which
//! composes, packs, scans, counts and delivers, as it does for the CLI),
//! the result as the event that carries it back to `update`. The event
//! loop runs them on a worker thread, which takes them from [`Waiting`]
//! (newest composition and preview block win); tests run them inline.
//! The summary command, if any, runs inside the compose jobs, so it never
//! blocks the UI thread. git runs apart from the worker ([`run_apart`]):
//! a repository can make it wait.

use crate::text::words::noun_for;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::core::compose::{self, Composition, RenderedFile};
use crate::core::engine::{
    self, BuildError, BuildKind, BuildRequest, Destination, MapOptions, Workspace,
};
use crate::core::git::Repo;
use crate::core::model::{Format, Settings, TokenizerKind};
use crate::core::sources::Sources;
use crate::core::symbol_costs::symbol_costs;
use crate::core::views;
use crate::text::error_chain;

use crate::tui::messages::{
    BlockJob, ChangedJob, ComposeJob, DiscoverJob, Event, FileJob, Job, SymbolsJob, TotalsJob,
    WriteForCopyJob, WriteJob, WroteForCopy, YankJob,
};
use crate::tui::state::model::{Composed, ComposedFile, FileBlock, SymbolsView};

/// Run one job: its inputs as a request to the engine (`core::engine`),
/// the result as the event `update` takes.
pub fn run(job: Job, root: &Path, sources: &Sources, settings: &Settings) -> Event {
    // The workspace has the project's settings as the app had them when
    // it handed the job over (`w`'s output file, the walk patterns
    // discovery's consent gate asks with); each job's own options come
    // with it.
    let workspace = Workspace::shared(root, settings.clone(), sources);
    match job {
        Job::Compose(job) => compose(workspace, job),
        Job::Count(job) => {
            Event::Counted(workspace.block_tokens(&job.files, &job.opts, job.tokenizer))
        }
        Job::Symbols(job) => Event::Symbols(symbols(root, sources, job)),
        Job::Raw(path) => raw(root, sources, path),
        Job::Yank(job) => yank(workspace, job),
        Job::YankFile(job) => yank_file(&workspace, job),
        Job::Discover(job) => discover(workspace, job),
        job @ Job::Changed(_) => run_apart(job, root),
        Job::PresetTotals(job) => preset_totals(workspace, job),
        Job::ClearCache => Event::CacheCleared(
            workspace
                .clear_cache()
                .map_err(|e| format!("cannot clear the cache: {e}")),
        ),
        Job::Block(job) => Event::Block(Arc::new(block(&workspace, job))),
        Job::WriteOutput(job) => write_output(workspace, job),
        Job::WriteForCopy(job) => Event::WroteForCopy(write_for_copy(&workspace, job)),
    }
}

/// The symbols pane's content: the file's symbol tree and what each
/// symbol costs in tokens (`core::symbol_costs`: counted once per content
/// and tokenizer, then kept), in the pane's order.
fn symbols(root: &Path, sources: &Sources, job: SymbolsJob) -> SymbolsView {
    let SymbolsJob { path, tokenizer } = job;
    match symbol_costs(sources, root, &path, tokenizer) {
        Some(costs) => SymbolsView {
            path,
            tree: Some(costs.tree),
            tokens: costs.costs,
            tokenizer,
        },
        None => SymbolsView {
            path,
            tree: None,
            tokens: Vec::new(),
            tokenizer,
        },
    }
}

/// The preview's composition, laid out and counted.
fn compose(workspace: Workspace<'_>, job: ComposeJob) -> Event {
    let workspace = workspace.with_walk(job.walked);
    let c = workspace.compose(&job.preset, &job.opts, &job.map);
    Event::Composed(summarize(
        &workspace,
        job.generation,
        &c,
        job.opts.format,
        job.tokenizer,
    ))
}

/// The picker's totals: each preset composed and counted as the gauge
/// counts.
fn preset_totals(workspace: Workspace<'_>, job: TotalsJob) -> Event {
    let workspace = workspace.with_walk(job.walked);
    let totals = job.presets.into_iter().map(|(key, preset)| {
        let (tokens, exact) = workspace.preset_total(&preset, &job.opts, &job.map, job.tokenizer);
        (key, tokens, exact)
    });
    Event::PresetTotals(totals.collect())
}

/// `y`: the context composed fresh (or the shown discovery's), counted
/// and scanned, for the clipboard.
fn yank(workspace: Workspace<'_>, job: YankJob) -> Event {
    let YankJob {
        preset,
        opts,
        map,
        tokenizer,
        walked,
        ready,
    } = job;
    let req = BuildRequest {
        compose: opts,
        map: MapOptions { tokenizer, ..map },
        kind: BuildKind::Compose,
        // Back to the app, which asks before copying secrets.
        destination: Destination::Caller,
        allow_secrets: true,
        reuse: ready,
        ..BuildRequest::new(preset, workspace.settings())
    };
    match workspace.with_walk(walked).build(req) {
        Ok(built) => {
            let (n, errors) = (built.rendered(), built.with_errors());
            let label = if errors > 0 {
                format!(
                    "context ({n} {}, {errors} shown as ERROR)",
                    noun_for(n, "file")
                )
            } else {
                format!("context ({n} {})", noun_for(n, "file"))
            };
            Event::CopyReady {
                tokens: built.tokens,
                findings: built.findings,
                text: built.text,
                label,
                tokenizer,
            }
        }
        // Back to the caller with secrets allowed: nothing refuses it.
        Err(refused) => Event::JobFailed(format!("not copied: {}", refused.why)),
    }
}

/// `Y`: one file's view for the clipboard.
fn yank_file(workspace: &Workspace<'_>, job: FileJob) -> Event {
    let tokenizer = job.tokenizer;
    let copy = workspace.file_copy(job.item, &job.opts, tokenizer);
    Event::CopyReady {
        tokens: copy.tokens,
        findings: copy.findings,
        text: copy.text,
        label: copy.label,
        tokenizer,
    }
}

/// `w`: the numbered output file, as `ctxcurate build --save` writes it
/// (the same engine call): likely secrets refuse it; inside the root
/// unless trusted settings say otherwise; a number taken by another
/// process is skipped.
fn write_output(workspace: Workspace<'_>, job: WriteJob) -> Event {
    let WriteJob {
        preset,
        opts,
        walked,
        ready,
    } = job;
    let req = BuildRequest {
        compose: opts,
        kind: BuildKind::Compose,
        destination: Destination::NextOutputFile,
        reuse: ready,
        ..BuildRequest::new(preset, workspace.settings())
    };
    let root = workspace.root().to_path_buf();
    // Saved in the CLI's memory-saving order, the sources let go.
    let mut workspace = workspace.with_walk(walked).releasing();
    Event::Wrote(match workspace.build(req) {
        Ok(built) => {
            let path = built.written.unwrap_or_default();
            Ok(path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string())
        }
        Err(refused) => match refused.why {
            e @ BuildError::Secrets { .. } => Err(format!(
                "not written: {e}; `ctxcurate build --save --allow-secrets` writes it anyway"
            )),
            e => Err(format!("not written: {e}")),
        },
    })
}

/// A copy too large for OSC 52, written to the numbered output file
/// instead: the same engine call and secret rule as `w` (likely secrets
/// only where the user let them go to the clipboard), the copy's own text.
fn write_for_copy(workspace: &Workspace<'_>, job: WriteForCopyJob) -> WroteForCopy {
    let WriteForCopyJob {
        text,
        findings,
        allow_secrets,
        format,
        unreachable,
    } = job;
    let saved = workspace.save(
        &text,
        &findings,
        format,
        &Destination::NextOutputFile,
        allow_secrets,
    );
    let root = workspace.root();
    let result = match saved {
        Ok(Some(path)) => {
            let shown = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            // The path is pasted elsewhere (another shell, a chat): it
            // must not depend on this process's directory.
            let absolute = std::path::absolute(&path).unwrap_or(path);
            Ok((absolute.display().to_string(), shown))
        }
        Ok(None) => Err("not written: no output file was made".to_string()),
        Err(e) => Err(format!("not written: {}", error_chain(&e))),
    };
    WroteForCopy {
        result,
        bytes: text.len(),
        unreachable,
    }
}

/// `i`: the pack around the targets, and its text laid out for the
/// preview. Its workspace has the project's settings, so the consent gate
/// walks with the project's patterns, as `build --pack` does.
fn discover(workspace: Workspace<'_>, job: DiscoverJob) -> Event {
    let DiscoverJob {
        generation,
        preset,
        targets,
        opts,
        consent,
        walked,
    } = job;
    let workspace = workspace.with_walk(walked);
    let packed = workspace.discover(&preset, &targets, &opts, &consent);
    let composed = summarize(
        &workspace,
        generation,
        &packed.composition(),
        opts.format,
        opts.tokenizer,
    );
    Event::Discovered {
        generation,
        packed: Box::new(packed),
        composed: Box::new(composed),
    }
}

/// A file's raw text, for slicing.
fn raw(root: &Path, sources: &Sources, path: String) -> Event {
    let file = sources.file(root, &path);
    match file.text() {
        Some(t) => Event::RawText {
            path,
            lines: Arc::new(t.lines().map(str::to_string).collect()),
        },
        None => Event::JobFailed(format!("{path}: {}", problem_text(&file.content))),
    }
}

/// Run a job that [`Job::runs_apart`]: git, with its deadline, on the
/// caller's thread (the app gives it one of its own). A panic comes back
/// as a failed job, as the worker reports one.
pub fn run_apart(job: Job, root: &Path) -> Event {
    let run = std::panic::AssertUnwindSafe(|| match job {
        Job::Changed(ChangedJob {
            include,
            walked,
            exclude,
        }) => Event::Changed {
            include,
            result: Repo::open(root)
                .and_then(|repo| repo.changed_files(None))
                .map(|changed| changed.in_walk(&walked).without_excluded(&exclude))
                .map_err(|e| error_chain(&e)),
        },
        other => Event::JobFailed(format!(
            "internal error: {} is not a job that runs apart",
            other.describe()
        )),
    });
    std::panic::catch_unwind(run)
        .unwrap_or_else(|_| Event::JobFailed("internal error while asking git".into()))
}

/// The block `item` would add to the composition (the engine renders it
/// as `Y` and `build` render it), as lines for the preview.
fn block(workspace: &Workspace<'_>, job: BlockJob) -> FileBlock {
    let BlockJob {
        item,
        generation,
        opts,
        tokenizer,
    } = job;
    let engine::FileBlock { file, text, tokens } = workspace.block(item, &opts, tokenizer);
    FileBlock {
        tokens,
        // A binary or oversize file adds no section to a build, only a
        // note: its block is empty.
        lines: Arc::new(text.lines().map(str::to_string).collect()),
        problem: match &file.skipped {
            Some(why) => Some(format!("{why}: a build leaves it out with a note")),
            None => file.error.clone(),
        },
        path: file.path,
        key: file.key,
        generation,
        mode: file.mode,
    }
}

fn problem_text(content: &crate::core::walk::Content) -> String {
    match content {
        crate::core::walk::Content::Unreadable(p) => p.to_string(),
        crate::core::walk::Content::Text { .. } => String::new(),
    }
}

/// Where each file stands in the composed text, and the token counts.
fn summarize(
    workspace: &Workspace<'_>,
    generation: u64,
    c: &Composition,
    format: Format,
    tokenizer: TokenizerKind,
) -> Composed {
    let (root, sources) = (workspace.root(), workspace.sources());
    let lines: Vec<String> = c.text.lines().map(str::to_string).collect();
    let mut files = Vec::new();
    let mut finder = SectionFinder::new(&c.text);
    // Counting every file is the long part of a first composition of a
    // huge tree: the gauge shows it (`Event::Progress`).
    let progress = sources.progress();
    progress.start("files counted", c.files.len());
    let shown: Vec<&RenderedFile> = c.files.iter().filter(|f| f.aggregate).collect();
    // Each file's block and count, on both cores; then where each block
    // starts, in order.
    let counted: Vec<(String, usize, bool)> = shown
        .par_iter()
        .map(|f| {
            let markdown = compose::markdown_file(f);
            let tokens = sources.count(tokenizer, &markdown);
            let summary_cached = f.error.is_none() && sources.summary_cached(root, &f.path);
            progress.step();
            (markdown, tokens, summary_cached)
        })
        .collect();
    for (i, (f, (markdown, tokens, summary_cached))) in shown.iter().zip(counted).enumerate() {
        let line = match format {
            Format::Markdown => finder.find(&markdown),
            // The `<source>` line, one after `<document index=…>`.
            Format::Xml => finder.find(&compose::xml_document(i + 1, f)) + 1,
        };
        files.push(ComposedFile {
            path: f.path.clone(),
            key: f.key.clone(),
            line,
            tokens,
            error: f.error.is_some(),
            summary_cached,
            stale_slices: f
                .notes
                .iter()
                .filter(|n| n.kind == views::NoteKind::StaleSlice)
                .count(),
            mode: f.mode,
        });
    }
    progress.start("", 0);
    let (total_tokens, exact) = if c.text.len() <= engine::EXACT_TOTAL_LIMIT {
        (sources.count(tokenizer, &c.text), true)
    } else {
        (files.iter().map(|f| f.tokens).sum(), false)
    };
    let index = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.clone(), i))
        .collect();
    Composed {
        generation,
        index,
        text: Arc::from(c.text.as_str()),
        lines: Arc::new(lines),
        files,
        total_tokens,
        exact,
        map_tokens: c.map.as_deref().map_or(0, |m| sources.count(tokenizer, m)),
        skipped: {
            let mut skipped = c.skipped.clone();
            skipped.sort_unstable();
            skipped
        },
        problems: c
            .problems
            .iter()
            .take(c.problems.len().saturating_sub(c.left_out_notes))
            .cloned()
            .collect(),
    }
}

/// Finds each file's block in the composed text, in order: a block is
/// looked for only after the end of the one before, so a file whose
/// content quotes another file's heading (or whole block) cannot move
/// where the preview jumps for that file.
struct SectionFinder<'a> {
    text: &'a str,
    /// Byte offset where the next block may start, and its line.
    at: usize,
    line: usize,
}

impl<'a> SectionFinder<'a> {
    fn new(text: &'a str) -> Self {
        SectionFinder {
            text,
            at: 0,
            line: 0,
        }
    }

    /// The line where `block` starts (after the previous block); the
    /// current line when it is not found.
    fn find(&mut self, block: &str) -> usize {
        let Some(offset) = self.text[self.at..].find(block) else {
            return self.line;
        };
        let start = self.at + offset;
        self.line += newlines(&self.text[self.at..start]);
        let found = self.line;
        self.line += newlines(block);
        self.at = start + block.len();
        found
    }
}

fn newlines(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'\n').count()
}

/// The jobs waiting for the worker. A kind whose newer job supersedes the
/// older (a composition, a preview block, the symbols of the file under
/// the cursor: the preset or the cursor has moved on) has one typed latest-wins slot (gitui's `AsyncSingleJob`): a
/// new job replaces the one waiting there, which is dropped unrun. Every
/// other job waits in line. The worker takes them in the order they were
/// asked for.
#[derive(Debug, Default)]
pub struct Waiting {
    /// Jobs asked for so far: each job's place in the order.
    asked: u64,
    compose: Latest<ComposeJob>,
    block: Latest<BlockJob>,
    symbols: Latest<SymbolsJob>,
    queue: VecDeque<(u64, Job)>,
}

/// One kind's slot: the newest job asked for, until the worker takes it.
#[derive(Debug)]
struct Latest<T>(Option<(u64, T)>);

impl<T> Default for Latest<T> {
    fn default() -> Self {
        Latest(None)
    }
}

impl<T> Latest<T> {
    /// Hold `job` (asked for `n`th), dropping the one waiting.
    fn put(&mut self, n: u64, job: T) {
        self.0 = Some((n, job));
    }

    fn asked(&self) -> Option<u64> {
        self.0.as_ref().map(|(n, _)| *n)
    }

    fn take(&mut self) -> Option<T> {
        self.0.take().map(|(_, job)| job)
    }
}

impl Waiting {
    /// Wait with the others (or replace the older of its kind).
    pub fn push(&mut self, job: Job) {
        self.asked += 1;
        let n = self.asked;
        match job {
            Job::Compose(job) => self.compose.put(n, job),
            Job::Block(job) => self.block.put(n, job),
            Job::Symbols(job) => self.symbols.put(n, job),
            job => self.queue.push_back((n, job)),
        }
    }

    /// The job asked for first among those waiting.
    pub fn take(&mut self) -> Option<Job> {
        let compose = self.compose.asked();
        let block = self.block.asked();
        let symbols = self.symbols.asked();
        let queued = self.queue.front().map(|(n, _)| *n);
        let first = [compose, block, symbols, queued]
            .into_iter()
            .flatten()
            .min()?;
        if compose == Some(first) {
            self.compose.take().map(Job::Compose)
        } else if block == Some(first) {
            self.block.take().map(Job::Block)
        } else if symbols == Some(first) {
            self.symbols.take().map(Job::Symbols)
        } else {
            self.queue.pop_front().map(|(_, job)| job)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::compose::ComposeOptions;
    use crate::core::model::{FileItem, Preset, Settings};

    fn compose_job(generation: u64) -> Job {
        let settings = Settings::default();
        Job::Compose(ComposeJob {
            generation,
            preset: Preset::default(),
            opts: ComposeOptions::from_settings(&settings),
            map: MapOptions::from_settings(&settings),
            tokenizer: settings.tokenizer,
            walked: Arc::new(Vec::new()),
        })
    }

    fn block_job(path: &str) -> Job {
        let settings = Settings::default();
        Job::Block(BlockJob {
            item: FileItem::new(path),
            generation: 0,
            opts: ComposeOptions::from_settings(&settings),
            tokenizer: settings.tokenizer,
        })
    }

    fn symbols_job(path: &str) -> Job {
        Job::Symbols(SymbolsJob {
            path: path.into(),
            tokenizer: Settings::default().tokenizer,
        })
    }

    fn describe(waiting: &mut Waiting) -> Vec<String> {
        std::iter::from_fn(|| waiting.take())
            .map(|job| match job {
                Job::Compose(c) => format!("compose {}", c.generation),
                other => other.describe(),
            })
            .collect()
    }

    /// Superseded compositions, blocks and symbols are dropped by their slot; the
    /// rest run in the order asked, the newest of a kind at its own place.
    #[test]
    fn the_newest_of_a_kind_wins_and_the_order_holds() {
        let mut waiting = Waiting::default();
        waiting.push(compose_job(1));
        waiting.push(Job::Raw("a.py".into()));
        waiting.push(block_job("x.py"));
        waiting.push(Job::ClearCache);
        waiting.push(compose_job(2));
        waiting.push(symbols_job("a.py"));
        waiting.push(block_job("y.py"));
        waiting.push(symbols_job("b.py"));
        assert_eq!(
            describe(&mut waiting),
            [
                "reading a.py",
                "clearing the cache",
                "compose 2",
                "rendering y.py",
                "reading the symbols of b.py",
            ]
        );
        assert!(waiting.take().is_none());
        waiting.push(compose_job(3));
        assert_eq!(describe(&mut waiting), ["compose 3"]);
    }
}
