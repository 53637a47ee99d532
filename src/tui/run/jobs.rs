//! The worker's jobs: composing, parsing symbols, reading raw text,
//! preparing clipboard text and writing output files. Each job is a plain
//! function of its inputs and the shared cache, returning the event that
//! carries its result back to `update`; the event loop runs them on a
//! worker thread, tests run them inline. The summary command, if any, runs
//! inside the compose jobs, so it never blocks the UI thread. git runs
//! apart from the worker ([`run_apart`]): a repository can make it wait.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::core::compose::output_file;
use crate::core::compose::{self, ComposeOptions, Composition, RenderedFile};
use crate::core::discovery::{context, pack};
use crate::core::git::Repo;
use crate::core::model::{FileItem, Format, TokenizerKind};
use crate::core::secrets::Scanner;
use crate::core::sources::Sources;
use crate::core::views;
use crate::core::walk::ResolvedItem;
use crate::text::error_chain;

use crate::tui::messages::{Event, Job};
use crate::tui::state::model::{Composed, ComposedFile, FileBlock, SymbolsView};

/// Compositions up to this size are counted exactly as a whole; larger
/// ones sum their per-file counts (cached) so the gauge stays fast.
const EXACT_TOTAL_LIMIT: usize = 2 * 1024 * 1024;

/// Run one job.
pub fn run(job: Job, root: &Path, cache: &Sources) -> Event {
    match job {
        Job::Compose {
            generation,
            preset,
            opts,
            map,
            tokenizer,
            walked,
        } => {
            let c = context::compose(root, &preset, &opts, &map, cache, Some(&walked));
            Event::Composed(summarize(
                root,
                generation,
                &c,
                opts.format,
                tokenizer,
                cache,
            ))
        }
        Job::Count {
            files,
            opts,
            tokenizer,
        } => Event::Counted(
            files
                .iter()
                .map(|r| {
                    let f = compose::render_file(root, r, &opts, cache);
                    // A binary or oversize file is left out of the text.
                    let n = match f.skipped {
                        Some(_) => 0,
                        None => cache.count(tokenizer, &compose::markdown_file(&f)),
                    };
                    (f.path, f.key, n)
                })
                .collect(),
        ),
        Job::Symbols(path) => Event::Symbols(SymbolsView {
            tree: cache.symbols(root, &path),
            path,
        }),
        Job::Raw(path) => {
            let file = cache.file(root, &path);
            match file.text() {
                Some(t) => Event::RawText {
                    path,
                    lines: Arc::new(t.lines().map(str::to_string).collect()),
                },
                None => Event::JobFailed(format!("{path}: {}", problem_text(&file.content))),
            }
        }
        Job::Yank {
            preset,
            opts,
            map,
            tokenizer,
            walked,
            ready,
        } => {
            let c = ready.unwrap_or_else(|| {
                Arc::new(context::compose(
                    root,
                    &preset,
                    &opts,
                    &map,
                    cache,
                    Some(&walked),
                ))
            });
            let n = c.files.iter().filter(|f| f.aggregate).count();
            let errors = c.files.iter().filter(|f| f.error.is_some()).count();
            let label = if errors > 0 {
                format!("context ({n} files, {errors} shown as ERROR)")
            } else {
                format!("context ({n} files)")
            };
            Event::CopyReady {
                tokens: cache.count(tokenizer, &c.text),
                findings: Scanner::new(root, cache).composition(&c, &preset, opts.max_messages),
                text: c.text.clone(),
                label,
                tokenizer,
            }
        }
        Job::YankFile {
            item,
            opts,
            tokenizer,
        } => {
            let resolved = ResolvedItem {
                path: item.path.clone(),
                item,
                entry: 0,
            };
            let file = compose::render_file(root, &resolved, &opts, cache);
            let text = match &file.error {
                Some(e) => format!("ERROR: {e}: {}", file.path),
                None => file.text.to_string(),
            };
            Event::CopyReady {
                tokens: cache.count(tokenizer, &text),
                findings: Scanner::new(root, cache).file(&file),
                text,
                label: format!("{} [{}]", file.path, file.mode),
                tokenizer,
            }
        }
        Job::Discover {
            generation,
            preset,
            targets,
            opts,
            consent,
            walked,
        } => {
            let patterns = crate::core::walk::WalkPatterns::default();
            let (preset, _) = consent.gate(root, &preset, Some(&walked), &patterns);
            // The targets are the preset's: a held one goes too.
            let targets: Vec<String> = targets
                .into_iter()
                .filter(|t| preset.targets.contains(t))
                .collect();
            let packed = pack::pack(root, &preset, &targets, &opts, cache, &walked);
            let composed = summarize(
                root,
                generation,
                &packed.composition(),
                opts.format,
                opts.tokenizer,
                cache,
            );
            Event::Discovered {
                generation,
                packed: Box::new(packed),
                composed: Box::new(composed),
            }
        }
        job @ Job::Changed { .. } => run_apart(job, root),
        Job::PresetTotals {
            presets,
            opts,
            map,
            tokenizer,
            walked,
        } => Event::PresetTotals(
            presets
                .into_iter()
                .map(|(key, preset)| {
                    let c = context::compose(root, &preset, &opts, &map, cache, Some(&walked));
                    let (tokens, exact) = total(&c, tokenizer, cache);
                    (key, tokens, exact)
                })
                .collect(),
        ),
        Job::ClearCache => {
            let cleared = cache.summarizer().disk().clear();
            cache.clear_views();
            Event::CacheCleared(cleared.map_err(|e| format!("cannot clear the cache: {e}")))
        }
        Job::Block {
            item,
            generation,
            opts,
            tokenizer,
        } => Event::Block(Arc::new(block(
            root, item, generation, &opts, tokenizer, cache,
        ))),
        Job::WriteOutput {
            preset,
            opts,
            settings,
            walked,
            ready,
        } => {
            let map = context::MapOptions::from_settings(&settings);
            let c = ready.unwrap_or_else(|| {
                Arc::new(context::compose(
                    root,
                    &preset,
                    &opts,
                    &map,
                    cache,
                    Some(&walked),
                ))
            });
            let findings = Scanner::new(root, cache).composition(&c, &preset, opts.max_messages);
            // As `ctxcurate build --save` does (the same function): refuse
            // likely secrets; inside the root unless trusted settings say
            // otherwise; a number taken by another process is skipped.
            match output_file::save_scanned(root, &settings, opts.format, &c.text, &findings, false)
            {
                Ok(path) => Event::Wrote(Ok(path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string())),
                Err(e @ output_file::SaveError::Secrets { .. }) => Event::Wrote(Err(format!(
                    "not written: {e}; `ctxcurate build --save --allow-secrets` writes it anyway"
                ))),
                Err(e) => Event::Wrote(Err(format!("not written: {e}"))),
            }
        }
    }
}

/// Run a job that [`Job::runs_apart`]: git, with its deadline, on the
/// caller's thread (the app gives it one of its own). A panic comes back
/// as a failed job, as the worker reports one.
pub fn run_apart(job: Job, root: &Path) -> Event {
    let run = std::panic::AssertUnwindSafe(|| match job {
        Job::Changed {
            include,
            walked,
            exclude,
        } => Event::Changed {
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

/// The block `item` would add to the composition: rendered by
/// `compose::render_file` (as `Y` and `build` render it) and laid out as
/// the composition lays out a file, in the output format.
fn block(
    root: &Path,
    item: FileItem,
    generation: u64,
    opts: &ComposeOptions,
    tokenizer: TokenizerKind,
    cache: &Sources,
) -> FileBlock {
    let resolved = ResolvedItem {
        path: item.path.clone(),
        item,
        entry: 0,
    };
    let file = compose::render_file(root, &resolved, opts, cache);
    let text = match opts.format {
        Format::Markdown => compose::markdown_file(&file),
        Format::Xml => compose::xml_document(1, &file),
    };
    FileBlock {
        tokens: match file.skipped {
            Some(_) => 0,
            None => cache.count(tokenizer, &text),
        },
        // A binary or oversize file adds no section to a build, only a
        // note: its block is empty.
        lines: Arc::new(match file.skipped {
            Some(_) => Vec::new(),
            None => text.lines().map(str::to_string).collect(),
        }),
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

/// The tokens of a composition as the gauge counts them: the whole text,
/// or past [`EXACT_TOTAL_LIMIT`] the sum of its files' (cached) counts.
fn total(c: &Composition, tokenizer: TokenizerKind, cache: &Sources) -> (usize, bool) {
    if c.text.len() <= EXACT_TOTAL_LIMIT {
        (cache.count(tokenizer, &c.text), true)
    } else {
        let files = c.files.iter().filter(|f| f.aggregate);
        let sum = files
            .map(|f| cache.count(tokenizer, &compose::markdown_file(f)))
            .sum();
        (sum, false)
    }
}

/// Where each file stands in the composed text, and the token counts.
fn summarize(
    root: &Path,
    generation: u64,
    c: &Composition,
    format: Format,
    tokenizer: TokenizerKind,
    cache: &Sources,
) -> Composed {
    let lines: Vec<String> = c.text.lines().map(str::to_string).collect();
    let mut files = Vec::new();
    let mut finder = SectionFinder::new(&c.text);
    // Counting every file is the long part of a first composition of a
    // huge tree: the gauge shows it (`Event::Progress`).
    let progress = cache.progress();
    progress.start("files counted", c.files.len());
    let shown: Vec<&RenderedFile> = c.files.iter().filter(|f| f.aggregate).collect();
    // Each file's block and count, on both cores; then where each block
    // starts, in order.
    let counted: Vec<(String, usize, bool)> = shown
        .par_iter()
        .map(|f| {
            let markdown = compose::markdown_file(f);
            let tokens = cache.count(tokenizer, &markdown);
            let summary_cached = f.error.is_none() && cache.summary_cached(root, &f.path);
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
    let (total_tokens, exact) = if c.text.len() <= EXACT_TOTAL_LIMIT {
        (cache.count(tokenizer, &c.text), true)
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
        skipped: {
            let mut skipped = c.skipped.clone();
            skipped.sort_unstable();
            skipped
        },
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
