//! A composition built as it is written (docs/ARCHITECTURE.md,
//! "core::engine"): its files are read, rendered and scanned a chunk at a
//! time, and each block goes to the destination as it is rendered, its
//! tokens counted and the text around it scanned as it goes, so the
//! build's memory does not grow with its output.
//!
//! The files section goes to a spool (a `String` for a caller that wants
//! the text, else a temporary file beside the destination): what comes
//! before it (the directory tree) is known only once every file was read,
//! and nothing may reach the destination before the secret rule passed.
//! Then the destination is written in one go — the tree, the spool, the
//! rest — into a temporary file renamed into place, so a refused or
//! failed build leaves no file and an older output intact.
//!
//! Files go in chunks of `CHUNK` (rendered and their bodies scanned,
//! overlapped with writing the previous chunk to the spool); tokens are
//! counted as the text goes by (`tokens::stream::StreamCount`, in pieces
//! cut where the count stays exact) and the text between the bodies is
//! scanned (`secrets::StreamScan`). The clipboard and the server get the
//! text in memory through the same rendering (`compose::Sink`).

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, Write};
use std::sync::Arc;

use rayon::prelude::*;

use crate::core::compose::{
    self, Bodies, ComposeOptions, FilesSection, Out, Plan, RenderedFile, Sink, tree,
};
use crate::core::discovery::context;
use crate::core::secrets::{CleanTexts, RuleSet, Scanner, StreamScan};
use crate::core::tokens::stream::StreamCount;
use crate::core::walk::ResolvedItem;

use super::Workspace;
use super::error::{BuildError, Refused};
use super::output_file;
use super::request::{BuildRequest, Built, Destination, Spooled};
use crate::core::profile;

/// Files read, rendered and scanned at a time (on every core), then
/// written in order.
const CHUNK: usize = 256;

/// The token count's segments are about this long (each is looked up
/// in the count cache, so a warm build does not encode it again): the
/// count holds about two of them (the first, kept for the text before
/// the stream, and the one being filled).
const SEGMENT: usize = 1 << 19;

/// What a streamed build keeps of each file it wrote.
#[derive(Debug, Clone, Copy)]
enum Records {
    /// Its whole record (the caller composes with it: the TUI).
    Whole,
    /// What a report of the build needs: the path of a file shown whole
    /// with nothing more to tell ([`compose::Parts::plain`]), the record
    /// of any other.
    Report,
}

/// Where the files section is written while it is made.
enum Spool {
    Text(String),
    File(BufWriter<File>),
}

impl Spool {
    /// A spool for `destination`: in memory for the caller's text, else
    /// an unnamed temporary file in the system's temporary folder (no
    /// name, so a killed build leaves nothing behind; the destination's
    /// folder is made only when the output is delivered, after the
    /// secret check).
    fn for_destination(destination: &Destination) -> io::Result<Spool> {
        if matches!(destination, Destination::Caller) {
            return Ok(Spool::Text(String::new()));
        }
        let file = tempfile::tempfile()?;
        Ok(Spool::File(BufWriter::with_capacity(256 * 1024, file)))
    }
}

/// What every piece of the files section goes through: the spool, the
/// token count and the scan of the text around the bodies.
struct StreamSink<'r, 'c> {
    spool: Spool,
    /// The first write error (the rest is not written).
    error: Option<io::Error>,
    count: StreamCount,
    counter: &'c mut (dyn FnMut(&str) -> usize + Send),
    scan: StreamScan<'r>,
}

impl StreamSink<'_, '_> {
    fn spool(&mut self, s: &str) {
        match &mut self.spool {
            Spool::Text(text) => text.push_str(s),
            Spool::File(file) => {
                if self.error.is_none()
                    && let Err(e) = file.write_all(s.as_bytes())
                {
                    self.error = Some(e);
                }
            }
        }
        self.count.push(s, self.counter);
    }
}

impl Sink for StreamSink<'_, '_> {
    fn text(&mut self, s: &str) {
        self.spool(s);
        self.scan.text(s);
    }

    fn body(&mut self, s: &str) {
        self.spool(s);
        self.scan.body(s);
    }
}

impl Workspace<'_> {
    /// Compose `req.preset` as a stream (see the module doc), check the
    /// secret rule, and deliver to `req.destination`.
    pub(super) fn compose_streamed(&mut self, req: BuildRequest) -> Result<Built, Box<Refused>> {
        let phases = profile::Phases::start();
        let preset = &req.preset;
        let tokenizer = req.tokenizer();
        let mut built = Built::empty(tokenizer);
        let mut opts = req.compose.clone();
        if let Some(changes) = &req.changes {
            opts.sections.changes = Some(Arc::new(changes.clone()));
        }
        // Globs expand over the walk with the project's ignore patterns.
        if preset
            .files
            .iter()
            .any(|f| crate::core::walk::is_glob(&f.path))
        {
            self.walk();
            phases.mark("walked");
        }
        built.walk_notes = std::mem::take(&mut self.walk_notes);
        let spool = match Spool::for_destination(&req.destination) {
            Ok(spool) => spool,
            Err(source) => return Err(Refused::new(self.write_error(&req, source), built)),
        };
        // A one-shot build compiles its own rules and drops them after.
        let owned;
        let rules = if self.one_shot {
            owned = RuleSet::compile_builtin();
            &owned
        } else {
            RuleSet::builtin()
        };
        let sources = self.sources;
        let mut counter = |s: &str| sources.count(tokenizer, s);
        // A one-shot build lets the walk go once the plan holds its paths,
        // when nothing after needs it (the project's files listed, the
        // repo map): 5 MB at 100,000 files.
        let walk_done =
            self.one_shot && preset.repo_map == 0 && !opts.sections.needs_project_files();
        let walk = if walk_done { self.walked.take() } else { None };
        let codebase = self.codebase();
        // Files whose text passed the scan in an earlier build pass again
        // without it (a warm build's largest saving).
        let clean = CleanTexts::load(self.sources, rules);
        let scanner = Scanner::with_rules(&codebase, rules).remembering(&clean);
        let mut sink = StreamSink {
            spool,
            error: None,
            count: StreamCount::new(SEGMENT),
            counter: &mut counter,
            scan: scanner.stream(preset, opts.max_messages),
        };
        let mut plan = match &walk {
            Some(walk) => Plan::new(&codebase.with_walk(walk), preset, &opts),
            None => Plan::new(&codebase, preset, &opts),
        };
        drop(walk);
        let resolved = std::mem::take(&mut plan.resolved);
        phases.mark("planned");
        // A build that goes to a file keeps of each file what a report
        // of it needs: a path, and the rest only for a file with more to
        // tell (a record of each of 100,000 files weighs 17 MB).
        let records = match req.destination {
            Destination::Caller => Records::Whole,
            _ => Records::Report,
        };
        let (files, plain, note) = self.stream_files(resolved, &opts, &scanner, &mut sink, records);
        phases.mark("files streamed");
        let mut parts = plan.finish(
            &codebase,
            preset,
            &opts,
            files,
            plain,
            context::map_for(preset, &req.map),
        );
        parts.note(note);
        let (head, tail) = parts.head_and_tail(preset, &opts);
        built.plain = std::mem::take(&mut parts.plain);
        let StreamSink {
            spool,
            error,
            count,
            counter,
            scan,
        } = sink;
        built.findings = scan.finish(&head, &tail);
        clean.save(self.sources);
        self.sources.progress().start("counting tokens", 0);
        built.tokens = count.finish(&head, &tail, counter);
        phases.mark("scanned and counted");
        let composition = parts.into_composition(String::new(), head.len());
        built.map_tokens = composition
            .map
            .as_deref()
            .map_or(0, |m| self.sources.count(tokenizer, m));
        built.files = composition.files;
        built.problems = composition.problems;
        if let Err(why) = output_file::check_secrets(&built.findings, req.allow_secrets) {
            return Err(Refused::new(why.into(), built));
        }
        if let Some(source) = error {
            return Err(Refused::new(self.write_error(&req, source), built));
        }
        let written = match spool {
            Spool::Text(files) => {
                built.text = format!("{head}{files}{tail}");
                Ok(None)
            }
            Spool::File(file) => self.deliver_spool(file, head, tail, &req, &mut built),
        };
        phases.mark("delivered");
        match written {
            Ok(written) => {
                built.written = written;
                Ok(built)
            }
            Err(why) => Err(Refused::new(why, built)),
        }
    }

    /// The plan's files (`resolved`) rendered, scanned and written a chunk
    /// at a time through `sink` (bodies released once written; binary and
    /// oversize files not written); all of them, in order, as `records`
    /// says: (the records, the paths of [`compose::Parts::plain`]). The
    /// entries are let go as they are rendered.
    fn stream_files(
        &self,
        mut resolved: Vec<ResolvedItem>,
        opts: &ComposeOptions,
        scanner: &Scanner,
        sink: &mut StreamSink,
        records: Records,
    ) -> (Vec<RenderedFile>, Vec<String>, Option<String>) {
        let codebase = self.codebase();
        let progress = self.sources.progress();
        progress.start("files rendered", resolved.len());
        // Its pages are touched only as it fills.
        let (mut files, mut plain) = match records {
            Records::Whole => (Vec::with_capacity(resolved.len()), Vec::new()),
            Records::Report => (Vec::new(), Vec::with_capacity(resolved.len())),
        };
        let mut out = Out::new(sink);
        let mut section = FilesSection::start(&mut out, opts);
        let mut written = out.len();
        // Taken from the end, so each chunk is split off without moving
        // the rest.
        resolved.reverse();
        let mut next_chunk = || {
            if resolved.is_empty() {
                return None;
            }
            let mut chunk = resolved.split_off(resolved.len().saturating_sub(CHUNK));
            chunk.reverse();
            if resolved.len() < resolved.capacity() / 2 {
                resolved.shrink_to_fit();
            }
            Some(chunk)
        };
        // A chunk read, rendered and its bodies scanned (on every core).
        let (rendering, scanning, writing) = (
            profile::Total::default(),
            profile::Total::default(),
            profile::Total::default(),
        );
        let prepare = |chunk: Vec<ResolvedItem>| {
            let rendered: Vec<RenderedFile> = rendering.time(|| {
                chunk
                    .into_par_iter()
                    .map(|r| {
                        let file = compose::render_owned(&codebase, r, opts);
                        progress.step();
                        file
                    })
                    .collect()
            });
            let found = scanning.time(|| scanner.files(&rendered));
            (rendered, found)
        };
        let mut ready = next_chunk().map(prepare);
        while let Some((mut rendered, found)) = ready.take() {
            // The next chunk is prepared while this one is written.
            let upcoming = next_chunk();
            let write = || {
                writing.time(|| {
                    sink.scan.add_files(found);
                    if self.one_shot {
                        // Read once: nothing is kept for a later build.
                        self.sources.release();
                    }
                    let mut out = Out::resume(&mut *sink, written);
                    for f in &mut rendered {
                        if f.skipped.is_none() {
                            section.file(&mut out, f, Bodies::Release);
                        }
                    }
                    written = out.len();
                })
            };
            ready = rayon::join(|| upcoming.map(prepare), write).0;
            match records {
                Records::Whole => files.append(&mut rendered),
                Records::Report => {
                    for mut f in rendered {
                        if tree::in_tree(&f) && f.notes.is_empty() {
                            plain.push(std::mem::take(&mut f.path));
                        } else {
                            // Not its render key (a cache's).
                            f.key = String::new();
                            files.push(f);
                        }
                    }
                }
            }
        }
        let note = section.end(&mut Out::resume(sink, written));
        profile::totals(
            "chunks",
            &[
                ("rendering", &rendering),
                ("scanning", &scanning),
                ("writing", &writing),
            ],
        );
        (files, plain, note)
    }

    /// The spooled files section delivered with `head` and `tail`: to
    /// the named file or the next numbered one, or back to the caller as
    /// a [`Spooled`] text; where it was written.
    fn deliver_spool(
        &self,
        file: BufWriter<File>,
        head: String,
        tail: String,
        req: &BuildRequest,
        built: &mut Built,
    ) -> Result<Option<std::path::PathBuf>, BuildError> {
        let mut spool = match file.into_inner() {
            Ok(spool) => spool,
            Err(e) => return Err(self.write_error(req, e.into_error())),
        };
        let copy = |out: &mut File| -> io::Result<()> {
            out.write_all(head.as_bytes())?;
            spool.rewind()?;
            io::copy(&mut spool, out)?;
            out.write_all(tail.as_bytes())
        };
        match &req.destination {
            Destination::Path(path) => {
                output_file::check_named(&self.root, path).map_err(BuildError::Output)?;
                match output_file::write_named(&self.root, path, copy) {
                    Ok(()) => Ok(Some(path.clone())),
                    Err(source) => Err(self.write_error(req, source)),
                }
            }
            Destination::NextOutputFile => {
                let format = req.compose.format;
                output_file::write_next_with(&self.root, &self.settings, format, copy)
                    .map(Some)
                    .map_err(BuildError::Output)
            }
            Destination::Stream => {
                built.spooled = Some(Spooled {
                    head,
                    file: Arc::new(spool),
                    tail,
                });
                Ok(None)
            }
            // The caller's text is spooled in memory, never here.
            Destination::Caller => Ok(None),
        }
    }

    /// A failed write, named by where it went.
    fn write_error(&self, req: &BuildRequest, source: io::Error) -> BuildError {
        match &req.destination {
            Destination::Path(path) => BuildError::Write {
                path: path.clone(),
                source,
            },
            _ => BuildError::Write {
                path: std::env::temp_dir(),
                source,
            },
        }
    }
}

impl Spooled {
    /// Write the whole text to `out`.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.head.as_bytes())?;
        // Read from the start; `&File` reads and seeks without `mut`.
        let mut file: &File = &self.file;
        file.rewind()?;
        let mut buf = vec![0; 256 * 1024];
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            out.write_all(&buf[..n])?;
        }
        out.write_all(self.tail.as_bytes())
    }

    /// The whole text's length in bytes.
    pub fn len(&self) -> u64 {
        let files = self.file.metadata().map_or(0, |m| m.len());
        self.head.len() as u64 + files + self.tail.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
