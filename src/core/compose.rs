//! Composition: a preset's files, screenshots and discussion turned into
//! the one text the model sees (docs/ARCHITECTURE.md, "core::compose"), as
//! Markdown or XML.
//!
//! The stable part comes first (files, then screenshots) and the changing
//! discussion last, so provider prompt caches hit. The output depends only
//! on the inputs: same files and preset, same bytes.
//!
//! This module reads and renders the files and puts the text together;
//! its submodules hold one idea each: `options` (how to compose, which
//! mode a file renders in), `tree` (the directory tree before the files),
//! `changes` (the `## Changes` section of `build --diff`), `markdown` and
//! `xml` (the two output formats, each of which makes sure
//! no content can forge structure). The numbered output file is
//! `core::engine::output_file`.

mod blocks;
pub mod changes;
pub mod markdown;
pub mod options;
pub mod out;
pub mod tree;
pub mod xml;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::core::model::{DiscussionEntry, FileItem, Format, Preset, ViewMode};
use crate::core::sources::{Codebase, Sources, render_key};
use crate::core::trust;
use crate::core::views;
use crate::core::walk::{self, ResolvedItem};
use crate::text::sanitize::escape_line;
pub use blocks::FilesSection;
pub use markdown::{fence_for, fence_lang, file_name, files_heading, markdown_file, task_markdown};
pub use options::{ComposeOptions, Sections, focus_matches};
pub use out::{Out, Sink};
use xml::Kind;
pub use xml::document as xml_document;

/// One file of a composition, rendered.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedFile {
    pub path: String,
    /// The mode that produced `text`.
    pub mode: ViewMode,
    /// The rendered body (empty when `error` is set); shared with the
    /// cached view (and, in `full` mode, the file's text).
    pub text: Arc<str>,
    /// Why the file could not be shown (`file not found`, …).
    pub error: Option<String>,
    /// Set for a binary or oversize file ([`walk::FileProblem::is_skip`]):
    /// [`drop_skipped`] leaves it out of the text.
    pub skipped: Option<walk::FileProblem>,
    pub notes: Vec<views::Note>,
    /// `false`: listed but not rendered (`auto_aggregate = false`).
    pub aggregate: bool,
    /// [`render_key`] of the entry and requested mode: equal keys and
    /// content give equal output.
    pub key: String,
    /// Where `text` stands verbatim in the composed text, set by
    /// [`Parts::assemble`] (the secret scan skips what it scanned per
    /// file); `None` when it is not there as is (escaped XML) or the file
    /// was not assembled.
    pub body_at: Option<Range<usize>>,
}

/// An empty body, shared: a build of 100,000 files releases as many
/// bodies, and `Arc::from("")` allocates each time.
pub(crate) fn no_text() -> Arc<str> {
    static EMPTY: std::sync::LazyLock<Arc<str>> = std::sync::LazyLock::new(|| Arc::from(""));
    Arc::clone(&EMPTY)
}

/// A composed context.
#[derive(Debug, Clone, PartialEq)]
pub struct Composition {
    pub text: String,
    pub files: Vec<RenderedFile>,
    /// Problems with the preset itself (bad globs, globs matching nothing,
    /// the walk's and the map's notes), then the notes on files left out.
    pub problems: Vec<String>,
    /// How many of the last `problems` name files left out (binary,
    /// oversize, held for consent): the TUI marks those in its tree and
    /// says the rest.
    pub left_out_notes: usize,
    /// Files of the preset left out as binary or oversize, and explicit
    /// entries held for the user's consent (`trust::entries`); one note in
    /// `problems` says so for each kind.
    pub skipped: Vec<String>,
    /// The repo map section as it stands in `text` (`None`: no map), so
    /// where the tokens go can count it apart from the rest.
    pub map: Option<String>,
}

/// Read and render one resolved entry of `codebase` through its sources.
pub fn render_file(
    codebase: &Codebase,
    resolved: &ResolvedItem,
    opts: &ComposeOptions,
) -> RenderedFile {
    render_at(codebase, resolved.path.clone(), &resolved.settings, opts)
}

/// [`render_file`], the entry's path taken over by the rendered file: a
/// build's record of each file keeps the plan's allocation (made on the
/// thread that planned, where the plan's freed memory is reused) rather
/// than a copy made on a worker.
pub fn render_owned(
    codebase: &Codebase,
    resolved: ResolvedItem,
    opts: &ComposeOptions,
) -> RenderedFile {
    let ResolvedItem { path, settings, .. } = resolved;
    render_at(codebase, path, &settings, opts)
}

/// The file `path` rendered under its entry's settings `item` (whose own
/// path may be the glob that brought the file in).
fn render_at(
    codebase: &Codebase,
    path: String,
    item: &FileItem,
    opts: &ComposeOptions,
) -> RenderedFile {
    let Codebase { root, sources, .. } = *codebase;
    sources.set_policy(opts.read);
    let mode = opts.mode_at(&path, item);
    let mut file = RenderedFile {
        path,
        mode,
        text: no_text(),
        error: None,
        skipped: None,
        notes: Vec::new(),
        aggregate: item.auto_aggregate,
        key: render_key(item, mode),
        body_at: None,
    };
    if !item.auto_aggregate {
        return file;
    }
    match sources.view(root, &file.path, item, file.mode) {
        Ok((view, lossy)) => {
            file.mode = view.mode;
            file.text = view.text.clone();
            file.notes = view.notes.clone();
            if lossy {
                file.notes.insert(
                    0,
                    views::Note::new(
                        views::NoteKind::Encoding,
                        "invalid UTF-8 replaced with U+FFFD",
                    ),
                );
            }
        }
        Err(problem) => {
            file.error = Some(problem.to_string());
            file.skipped = problem.is_skip().then_some(problem);
        }
    }
    file
}

/// Compose `preset` over the project at `root` with fresh sources (no
/// repo map). Front ends build through `core::engine`, which adds the map
/// and the secret scan; this and [`compose_with`] serve tests and benches.
pub fn compose(root: &Path, preset: &Preset, opts: &ComposeOptions) -> Composition {
    compose_with(&Codebase::new(root, &Sources::new()), preset, opts)
}

/// Compose over `codebase`, whose sources may be long-lived; with its walk,
/// globs need no new walk.
pub fn compose_with(codebase: &Codebase, preset: &Preset, opts: &ComposeOptions) -> Composition {
    render_parts(codebase, preset, opts, |_, _, _| MapPart::default()).assemble(
        preset,
        opts,
        Bodies::Keep,
    )
}

/// A composition before its text is put together: the rendered files, the
/// map and the problems. A preview assembles it whole
/// ([`Parts::assemble`]); a build (`core::engine::stream`) writes the
/// files section itself as the files are rendered and takes the rest from
/// [`Parts::head_and_tail`].
#[derive(Debug)]
pub struct Parts {
    pub files: Vec<RenderedFile>,
    /// Files shown whole with nothing more to tell (in the tree: no
    /// error, no note), kept by path only: a build to a file keeps no
    /// more of them, as 100,000 records weigh 17 MB
    /// (`core::engine::stream`). Empty for a preview, whose `files` hold
    /// every file.
    pub plain: Vec<String>,
    pub problems: Vec<String>,
    /// See [`Composition::left_out_notes`].
    left_out_notes: usize,
    pub skipped: Vec<String>,
    map: Option<String>,
    /// The project's files, when a section lists them.
    project_files: Option<Arc<[String]>>,
}

/// What [`Parts::assemble`] does with each file's body once written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bodies {
    Keep,
    /// Drop it (the composition's files keep everything but their text).
    Release,
}

impl Parts {
    /// The composed text, in `opts.format`.
    pub fn assemble(
        mut self,
        preset: &Preset,
        opts: &ComposeOptions,
        bodies: Bodies,
    ) -> Composition {
        let (text, note) = match self.project_files.take() {
            Some(project_files) => {
                let mut opts = opts.clone();
                opts.sections.project_files = project_files;
                render_text(&mut self.files, preset, &opts, self.map.as_deref(), bodies)
            }
            None => render_text(&mut self.files, preset, opts, self.map.as_deref(), bodies),
        };
        self.note(note);
        Composition {
            text,
            files: self.files,
            problems: self.problems,
            left_out_notes: self.left_out_notes,
            skipped: self.skipped,
            map: self.map.filter(|m| !m.is_empty()),
        }
    }

    /// The problem found while the files section was written, if any
    /// ([`FilesSection::end`]), before the notes on files left out, which
    /// stay last.
    pub fn note(&mut self, note: Option<String>) {
        let at = self.problems.len() - self.left_out_notes.min(self.problems.len());
        self.problems.splice(at..at, note);
    }

    /// The text before and after the files section (see [`head`] and
    /// [`tail`]), for a caller that writes the files section itself.
    pub fn head_and_tail(&self, preset: &Preset, opts: &ComposeOptions) -> (String, String) {
        let map = self.map.as_deref();
        match &self.project_files {
            Some(project_files) => {
                let mut opts = opts.clone();
                opts.sections.project_files = project_files.clone();
                (
                    head(&self.files, &self.plain, &opts),
                    tail(preset, &opts, map),
                )
            }
            None => (
                head(&self.files, &self.plain, opts),
                tail(preset, opts, map),
            ),
        }
    }

    /// The composition of these parts whose files section is `files_text`
    /// (its bodies' places counted from its start): `head`, it and `tail`
    /// as one text.
    pub fn into_composition(mut self, text: String, head_len: usize) -> Composition {
        for f in &mut self.files {
            f.body_at = f
                .body_at
                .take()
                .map(|at| at.start + head_len..at.end + head_len);
        }
        Composition {
            text,
            files: self.files,
            problems: self.problems,
            left_out_notes: self.left_out_notes,
            skipped: self.skipped,
            map: self.map.filter(|m| !m.is_empty()),
        }
    }
}

/// A composition of `codebase` up to the text: the files read and rendered
/// (on every core), the skipped ones set apart, and the map, which `map`
/// is given the rendered files (and the paths of [`Parts::plain`]) and
/// `codebase` with its walk to make (`None`:
/// no map; `core::discovery::context` builds it, so this module stays
/// below discovery). Without a walk in `codebase`, one is made with
/// `opts.walk` when something needs it.
pub fn render_parts(
    codebase: &Codebase,
    preset: &Preset,
    opts: &ComposeOptions,
    map: impl FnOnce(&[RenderedFile], &[String], &Codebase) -> MapPart,
) -> Parts {
    let plan = Plan::new(codebase, preset, opts);
    let progress = codebase.sources.progress();
    progress.start("files rendered", plan.resolved.len());
    let files: Vec<RenderedFile> = plan
        .resolved
        .par_iter()
        .map(|r| {
            let file = render_file(codebase, r, opts);
            progress.step();
            file
        })
        .collect();
    plan.finish(codebase, preset, opts, files, Vec::new(), map)
}

/// A repo map as a composition gets it: its text (`None`: no map) and
/// what a bound left out of the import graph under it, for the problems.
#[derive(Debug, Default)]
pub struct MapPart {
    pub text: Option<String>,
    pub notes: Vec<String>,
}

/// What a composition will read, before anything is read: the preset's
/// entries resolved (globs expanded over the walk, focus files added,
/// held entries set apart). [`render_parts`] renders them all at once;
/// `stream` renders them a few at a time.
pub struct Plan {
    pub resolved: Vec<ResolvedItem>,
    problems: Vec<String>,
    held: Vec<trust::entries::Held>,
    /// The walk made here, when `codebase` had none and something needed it.
    own_walk: OwnWalk,
}

/// A walk a composition makes itself (its caller handed none), made once
/// when first needed, with what it said about the ignore files below the
/// root (for the problems: `stats` and MCP `token_map` compose this way).
#[derive(Debug, Default)]
struct OwnWalk {
    files: Option<Arc<[String]>>,
    notes: Vec<walk::IgnoreFileNote>,
}

impl Plan {
    pub fn new(codebase: &Codebase, preset: &Preset, opts: &ComposeOptions) -> Plan {
        let Codebase {
            root,
            sources,
            walked,
        } = *codebase;
        sources.set_policy(opts.read);
        let mut own_walk = OwnWalk::default();
        // A project preset's explicit entries to credential files, VCS
        // folders and ignored files wait for the user's consent; the check
        // asks the walk (the one globs need, when there is one).
        let has_globs = preset.files.iter().any(|e| walk::is_glob(&e.path));
        let own =
            (walked.is_none() && has_globs).then(|| project_files(codebase, opts, &mut own_walk));
        let (gated, held) = opts
            .consent
            .gate(root, preset, walked.or(own.as_deref()), &opts.walk);
        // Over the walk as it is kept: a copy of 100,000 paths would be
        // the build's largest allocation.
        let (mut resolved, problems) = if !gated.files.iter().any(|e| walk::is_glob(&e.path)) {
            walk::expand_over(&gated.files, &gated.exclude, &[])
        } else if let Some(files) = walked {
            walk::expand_over(&gated.files, &gated.exclude, files)
        } else {
            let files = project_files(codebase, opts, &mut own_walk);
            walk::expand_over(&gated.files, &gated.exclude, &files)
        };
        let mut problems: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        add_focus_files(root, opts, &mut resolved, &mut problems);
        let known = walked.or(own_walk.files.as_deref());
        problems.extend(fold_missing(root, known, &mut resolved));
        Plan {
            resolved,
            problems,
            held,
            own_walk,
        }
    }

    /// The parts, once every entry of the plan is rendered as `files`
    /// and `plain` (see [`Parts::plain`]; in order; bodies may have been
    /// released): the skipped files set
    /// apart, the held entries noted, the map made.
    pub fn finish(
        mut self,
        codebase: &Codebase,
        preset: &Preset,
        opts: &ComposeOptions,
        files: Vec<RenderedFile>,
        plain: Vec<String>,
        map: impl FnOnce(&[RenderedFile], &[String], &Codebase) -> MapPart,
    ) -> Parts {
        let mut problems = std::mem::take(&mut self.problems);
        let mut left_out = Vec::new();
        let (files, mut skipped) = drop_skipped(files, &mut left_out);
        // Held entries are left out as skipped ones are (the TUI marks them).
        let held = std::mem::take(&mut self.held);
        left_out.extend(trust::entries::held_note(&held));
        skipped.extend(held.into_iter().map(|h| h.path));
        let map = if preset.repo_map > 0 {
            let walked = project_files(codebase, opts, &mut self.own_walk);
            let made = map(&files, &plain, &codebase.with_walk(&walked));
            problems.extend(made.notes);
            made.text
        } else {
            None
        };
        let listed = opts
            .sections
            .needs_project_files()
            .then(|| project_files(codebase, opts, &mut self.own_walk));
        problems.extend(walk::notes_lines(&self.own_walk.notes));
        let left_out_notes = left_out.len();
        problems.extend(left_out);
        Parts {
            files,
            plain,
            problems,
            left_out_notes,
            skipped,
            map,
            project_files: listed,
        }
    }
}

/// The project's files: `codebase`'s walk, or one made once (into `own`,
/// with its notes) with `opts.walk`.
fn project_files(codebase: &Codebase, opts: &ComposeOptions, own: &mut OwnWalk) -> Arc<[String]> {
    if let Some(files) = codebase.walked {
        return Arc::from(files);
    }
    if let Some(files) = &own.files {
        return files.clone();
    }
    let walked = walk::walk_files_noted(codebase.root, &opts.walk);
    own.notes = walked.notes;
    let files: Arc<[String]> = Arc::from(walked.files);
    own.files = Some(files.clone());
    files
}

/// The files of a preset's own entries that a composition shows as
/// `ERROR: file not found` sections, one by one; past them, one note.
pub const MISSING_FILES_SHOWN: usize = 32;

/// Past the first [`MISSING_FILES_SHOWN`] explicit entries naming no file,
/// the rest are taken out of `resolved` and said in one note: 80,860
/// missing paths in a project file put as many `ERROR` sections (1.9
/// million tokens) into the context (recheck 16b). A preset with fewer
/// explicit entries costs nothing here (the files are looked at when
/// read). A path in the walk (`walked`, sorted) is there: no look.
fn fold_missing(
    root: &Path,
    walked: Option<&[String]>,
    resolved: &mut Vec<ResolvedItem>,
) -> Option<String> {
    let explicit = |r: &ResolvedItem| !walk::is_glob(&r.settings.path);
    if resolved.iter().filter(|r| explicit(r)).count() <= MISSING_FILES_SHOWN {
        return None;
    }
    let (mut missing, mut named) = (0usize, Vec::new());
    resolved.retain(|r| {
        // A path leaving the root is refused when read, never looked for.
        let absent = explicit(r)
            && walk::is_inside(&r.path)
            && walked.is_none_or(|w| w.binary_search(&r.path).is_err())
            && root
                .join(&r.path)
                .symlink_metadata()
                .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
        if !absent {
            return true;
        }
        missing += 1;
        if missing <= MISSING_FILES_SHOWN {
            return true;
        }
        if named.len() < 3 {
            named.push(r.path.clone());
        }
        false
    });
    let more = missing
        .checked_sub(MISSING_FILES_SHOWN)
        .filter(|&n| n > 0)?;
    let tail = if more > named.len() { ", …" } else { "" };
    Some(format!(
        "{more} more files of the preset not found, left out of the context ({} are shown as errors): {}{tail}",
        MISSING_FILES_SHOWN,
        named.join(", ")
    ))
}

/// Binary and oversize files are left out, with one note in `problems`
/// for all of them (never an `ERROR:` section in the text); their paths
/// are returned beside the files kept (the TUI marks them).
pub fn drop_skipped(
    mut files: Vec<RenderedFile>,
    problems: &mut Vec<String>,
) -> (Vec<RenderedFile>, Vec<String>) {
    // In place: a build of 100,000 files holds no second list of them.
    problems.extend(walk::skipped_note(
        files
            .iter()
            .filter_map(|f| Some((f.path.as_str(), f.skipped.as_ref()?))),
    ));
    let skipped = files
        .iter()
        .filter(|f| f.skipped.is_some())
        .map(|f| f.path.clone())
        .collect();
    files.retain(|f| f.skipped.is_none());
    (files, skipped)
}

/// A focus file the preset does not list is added (in full) when it is a
/// file of the project; a focus matching nothing is a problem.
fn add_focus_files(
    root: &Path,
    opts: &ComposeOptions,
    resolved: &mut Vec<ResolvedItem>,
    problems: &mut Vec<String>,
) {
    for focus in &opts.focus {
        if resolved.iter().any(|r| focus_matches(focus, &r.path)) {
            continue;
        }
        let rel = focus.trim_start_matches("./").to_string();
        if walk::is_inside(&rel) && root.join(&rel).is_file() {
            resolved.push(ResolvedItem::new(FileItem::new(rel), usize::MAX));
        } else {
            problems.push(format!(
                "focus `{focus}` matches no file of the preset or the project"
            ));
        }
    }
}

/// The whole text: the directory tree (`opts.sections.tree`), the files,
/// then `map` (a repo map section, for packed builds), screenshots,
/// discussion and the changes (`opts.sections.changes`), in
/// `opts.format`. In XML these are all children of the one root
/// `<documents>`; the tree comes before the `<document>`s, the rest after
/// them.
pub fn assemble(
    files: &[RenderedFile],
    preset: &Preset,
    opts: &ComposeOptions,
    map: Option<&str>,
) -> String {
    // The renderers note where each body lands; these copies share the
    // bodies. (Masked symbols not found past the bound go unnamed in
    // this text; the files given keep their notes for the report.)
    render_text(&mut files.to_vec(), preset, opts, map, Bodies::Keep).0
}

/// [`assemble`] over files it may annotate (`body_at`) and release; with
/// the files section's note, if it has one ([`FilesSection::end`]).
fn render_text(
    files: &mut [RenderedFile],
    preset: &Preset,
    opts: &ComposeOptions,
    map: Option<&str>,
    bodies: Bodies,
) -> (String, Option<String>) {
    let (head, tail) = (head(files, &[], opts), tail(preset, opts, map));
    let size: usize = files
        .iter()
        .map(|f| f.text.len() + f.path.len() + 128)
        .sum();
    // The output is written once, into one buffer sized for it.
    let mut text = String::with_capacity(head.len() + size + tail.len());
    let mut out = Out::new(&mut text);
    out.push_str(&head);
    let mut section = FilesSection::start(&mut out, opts);
    for f in files.iter_mut() {
        section.file(&mut out, f, bodies);
    }
    let note = section.end(&mut out);
    out.push_str(&tail);
    (text, note)
}

/// The text before the files section in `opts.format` (the directory
/// tree of `files` and `plain`, see [`Parts::plain`]).
pub fn head(files: &[RenderedFile], plain: &[String], opts: &ComposeOptions) -> String {
    let tree = tree::render(tree::paths(files, plain, opts));
    match opts.format {
        Format::Markdown => markdown::head(tree),
        Format::Xml => xml::head(&tree, opts),
    }
}

/// The text after the files section in `opts.format`: `map`,
/// screenshots, discussion, changes, task.
pub fn tail(preset: &Preset, opts: &ComposeOptions, map: Option<&str>) -> String {
    match opts.format {
        Format::Markdown => markdown::tail(preset, opts, map),
        Format::Xml => xml::tail(preset, opts, map),
    }
}

/// The line that names `path` at the start of its section: its Markdown
/// heading (a ` [mode]` may follow) or its XML `<source>` line, escaped so
/// it stays one line.
pub fn section_line(path: &str, format: Format) -> String {
    match format {
        Format::Markdown => format!("### {}", escape_line(path)),
        Format::Xml => format!("<source>{}</source>", xml::escape(path, Kind::Field)),
    }
}

/// The discussion as rendered: from the latest compaction point on (the
/// compaction entry included, as the summary of what came before), then
/// only the newest `max_messages` (0: all).
pub fn visible_discussion(entries: &[DiscussionEntry], max_messages: usize) -> &[DiscussionEntry] {
    let from = entries
        .iter()
        .rposition(|e| e.role == DiscussionEntry::COMPACTION)
        .unwrap_or(0);
    let tail = &entries[from..];
    if max_messages > 0 && tail.len() > max_messages {
        &tail[tail.len() - max_messages..]
    } else {
        tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(role: &str, content: &str) -> DiscussionEntry {
        DiscussionEntry {
            role: role.into(),
            content: content.into(),
            extra: Default::default(),
        }
    }

    #[test]
    fn discussion_compaction_and_limit() {
        let d = vec![
            entry("User", "a"),
            entry("AI", "b"),
            entry("Compaction", "sum"),
            entry("User", "c"),
            entry("AI", "d"),
        ];
        let roles = |v: &[DiscussionEntry]| v.iter().map(|e| e.content.clone()).collect::<Vec<_>>();
        assert_eq!(roles(visible_discussion(&d, 0)), ["sum", "c", "d"]);
        assert_eq!(roles(visible_discussion(&d, 2)), ["c", "d"]);
        assert_eq!(roles(visible_discussion(&d[..2], 0)), ["a", "b"]);
    }

    /// Assembling as the bodies go gives the same bytes as keeping them,
    /// in both formats, and each body's recorded place holds it verbatim
    /// (none for a body XML had to change).
    #[test]
    fn released_bodies_assemble_to_the_same_text_and_places() {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = [
            ("a.py", "def f():\n    return 1\n"),
            (
                "b.h",
                "#include <stdio.h>\nint g(int a) { return a && 1; }\n",
            ),
            ("c.txt", "x]]>y\n"),
            ("d.py", "no_newline = 1"),
            ("e.txt", ""),
            ("f.txt", "bell \x07 here\n"),
        ];
        let mut preset = Preset::default();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
            preset.files.push(FileItem::new(name));
        }
        for format in [Format::Markdown, Format::Xml] {
            let mut opts = ComposeOptions::from_settings(&Default::default());
            opts.format = format;
            let sources = Sources::new();
            let codebase = Codebase::new(dir.path(), &sources);
            let kept = compose_with(&codebase, &preset, &opts);
            let parts = render_parts(&codebase, &preset, &opts, |_, _, _| MapPart::default());
            let released = parts.assemble(&preset, &opts, Bodies::Release);
            assert_eq!(released.text, kept.text, "{format:?}");
            for (k, r) in kept.files.iter().zip(&released.files) {
                assert!(r.text.is_empty(), "{format:?} {}", r.path);
                assert_eq!(r.body_at, k.body_at, "{format:?} {}", r.path);
                if let Some(at) = &k.body_at {
                    assert_eq!(&kept.text[at.clone()], &*k.text, "{format:?} {}", k.path);
                }
            }
            let placed: Vec<&str> = kept
                .files
                .iter()
                .filter(|f| f.body_at.is_some())
                .map(|f| f.path.as_str())
                .collect();
            let want: &[&str] = match format {
                Format::Markdown => &["a.py", "b.h", "c.txt", "d.py", "e.txt", "f.txt"],
                Format::Xml => &["a.py", "b.h", "d.py", "e.txt"],
            };
            assert_eq!(placed, want, "{format:?}");
        }
    }
}
