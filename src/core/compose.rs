//! Composition: a preset's files, screenshots and discussion turned into
//! the one text the model sees (docs/ARCHITECTURE.md, "core::compose"), as Markdown or XML.
//!
//! The stable part comes first (files, then screenshots) and the changing
//! discussion last, so provider prompt caches hit. The output depends only
//! on the inputs: same files and preset, same bytes.
//!
//! No content can forge structure. In Markdown every one-line field (a
//! path in a heading, a screenshot name, a role, a note) goes through
//! [`escape_line`], so a file named `a\n### b.py` is one heading showing
//! `a␊### b.py`. In XML everything from a file, a path or the discussion
//! goes through [`xml::escape`]: bodies stay verbatim (CDATA when they hold
//! `<`, `&` or `]]>`), fields are entity-escaped, and the output always
//! parses into one `<document>` per file (see `core::xml`).

use std::fmt::Write;
use std::path::Path;

use rayon::prelude::*;

use crate::core::cache::{FileCache, render_key};
use crate::core::model::{DiscussionEntry, Format, Preset, Settings, Strategy, ViewMode};
use crate::core::syntax::Lang;
use crate::core::views;
use crate::core::walk::{self, ResolvedItem};
pub use crate::core::xml::document as xml_document;
use crate::core::xml::{self, Kind};
use crate::text::sanitize::escape_line;

/// How to compose, resolved from settings and command-line overrides.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposeOptions {
    pub strategy: Strategy,
    pub summary_only: bool,
    pub format: Format,
    /// Only the newest N discussion messages (0: all).
    pub max_messages: usize,
    /// A focus build (`build --focus`, see `core::pack`): these files in full
    /// whatever their mode, every other code file as a skeleton. Each is a
    /// path, a basename or a `/`-suffix of a path.
    pub focus: Vec<String>,
    /// How files are read (size cap, outside-root entries).
    pub read: walk::ReadPolicy,
}

impl ComposeOptions {
    pub fn from_settings(s: &Settings) -> Self {
        ComposeOptions {
            strategy: s.strategy,
            summary_only: s.summary_only,
            format: s.format,
            max_messages: s.max_messages,
            focus: Vec::new(),
            read: walk::ReadPolicy::from_settings(s),
        }
    }

    /// `true` for a focus build.
    pub fn focused(&self) -> bool {
        !self.focus.is_empty()
    }

    /// `true` when `path` is one of the focus files.
    pub fn is_focus(&self, path: &str) -> bool {
        self.focus.iter().any(|f| focus_matches(f, path))
    }

    /// `true` when every file is rendered as a summary.
    pub fn summarizes(&self) -> bool {
        match self.strategy {
            Strategy::Summarize => true,
            Strategy::Full => false,
            Strategy::Auto => self.summary_only,
        }
    }

    /// The mode a file renders in under this strategy (or focus build:
    /// focus and `force_full` files full, slices and excluded files as
    /// they are, other code files as skeletons — signatures with the
    /// bodies elided —, anything else by its own mode).
    pub fn mode_for(&self, item: &crate::core::model::FileItem) -> ViewMode {
        if self.focused() {
            return if item.force_full || self.is_focus(&item.path) {
                ViewMode::Full
            } else if matches!(item.view_mode, ViewMode::Custom | ViewMode::None) {
                item.view_mode
            } else if Lang::from_path(&item.path).is_some() {
                ViewMode::Skeleton
            } else {
                item.view_mode
            };
        }
        if item.force_full || self.strategy == Strategy::Full {
            ViewMode::Full
        } else if self.summarizes() {
            ViewMode::Summary
        } else {
            item.view_mode
        }
    }
}

/// `true` when the focus argument `focus` names `path`: the same path, its
/// basename, or a suffix of it starting after a `/`.
pub fn focus_matches(focus: &str, path: &str) -> bool {
    let focus = focus.trim_start_matches("./");
    !focus.is_empty()
        && (path == focus
            || path
                .strip_suffix(focus)
                .is_some_and(|head| head.ends_with('/')))
}

/// One file of a composition, rendered.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedFile {
    pub path: String,
    /// The mode that produced `text`.
    pub mode: ViewMode,
    /// The rendered body (empty when `error` is set).
    pub text: String,
    /// Why the file could not be shown (`file not found`, …).
    pub error: Option<String>,
    pub notes: Vec<String>,
    /// `false`: listed but not rendered (`auto_aggregate = false`).
    pub aggregate: bool,
    /// [`render_key`] of the entry and requested mode: equal keys and
    /// content give equal output.
    pub key: String,
}

/// A composed context.
#[derive(Debug, Clone, PartialEq)]
pub struct Composition {
    pub text: String,
    pub files: Vec<RenderedFile>,
    /// Problems with the preset itself (bad globs, globs matching nothing).
    pub problems: Vec<String>,
}

/// Read and render one resolved entry through `cache`.
pub fn render_file(
    root: &Path,
    resolved: &ResolvedItem,
    opts: &ComposeOptions,
    cache: &FileCache,
) -> RenderedFile {
    cache.set_policy(opts.read);
    let item = &resolved.item;
    let mode = opts.mode_for(item);
    let mut file = RenderedFile {
        path: resolved.path.clone(),
        mode,
        text: String::new(),
        error: None,
        notes: Vec::new(),
        aggregate: item.auto_aggregate,
        key: render_key(item, mode),
    };
    if !item.auto_aggregate {
        return file;
    }
    match cache.view(root, &resolved.path, item, file.mode) {
        Ok((view, lossy)) => {
            file.mode = view.mode;
            file.text = view.text.clone();
            file.notes = view.notes.clone();
            if lossy {
                file.notes
                    .insert(0, "invalid UTF-8 replaced with U+FFFD".to_string());
            }
        }
        Err(problem) => file.error = Some(problem.to_string()),
    }
    file
}

/// Compose `preset` over the project at `root` with a fresh cache.
pub fn compose(root: &Path, preset: &Preset, opts: &ComposeOptions) -> Composition {
    compose_with(root, preset, opts, &FileCache::new(), None)
}

/// Compose through a long-lived `cache`; `walked` is the project's file
/// list when the caller already has it (globs then need no new walk).
pub fn compose_with(
    root: &Path,
    preset: &Preset,
    opts: &ComposeOptions,
    cache: &FileCache,
    walked: Option<&[String]>,
) -> Composition {
    cache.set_policy(opts.read);
    let (mut resolved, problems) =
        walk::expand_items(&preset.files, &preset.exclude, || match walked {
            Some(files) => files.to_vec(),
            None => walk::walk_files(root),
        });
    let mut problems: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    add_focus_files(root, opts, &mut resolved, &mut problems);
    let files: Vec<RenderedFile> = resolved
        .par_iter()
        .map(|r| render_file(root, r, opts, cache))
        .collect();
    let files = skip_matched_binaries(preset, &resolved, files, &mut problems);
    let text = assemble(&files, preset, opts, None);
    Composition {
        text,
        files,
        problems,
    }
}

/// Binary files a glob entry matched are dropped with one note in
/// `problems` (an explicitly named binary keeps its error section).
fn skip_matched_binaries(
    preset: &Preset,
    resolved: &[ResolvedItem],
    files: Vec<RenderedFile>,
    problems: &mut Vec<String>,
) -> Vec<RenderedFile> {
    let binary = walk::FileProblem::Binary.to_string();
    let mut skipped = 0usize;
    let kept: Vec<RenderedFile> = resolved
        .iter()
        .zip(files)
        .filter_map(|(r, f)| {
            let from_glob = preset
                .files
                .get(r.entry)
                .is_some_and(|e| e.path != r.path && walk::is_glob(&e.path));
            if from_glob && f.error.as_deref() == Some(binary.as_str()) {
                skipped += 1;
                None
            } else {
                Some(f)
            }
        })
        .collect();
    if skipped > 0 {
        problems.push(format!("{skipped} binary file(s) matched by globs skipped"));
    }
    kept
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
            resolved.push(ResolvedItem {
                path: rel.clone(),
                item: crate::core::model::FileItem::new(rel),
                entry: usize::MAX,
            });
        } else {
            problems.push(format!(
                "focus `{focus}` matches no file of the preset or the project"
            ));
        }
    }
}

/// The heading of the files section.
pub fn files_heading(opts: &ComposeOptions) -> &'static str {
    if opts.focused() {
        "## Files (Focused)"
    } else if opts.summarizes() {
        "## Files (Summary)"
    } else {
        "## Files"
    }
}

/// The whole text: the files, then `map` (a repo map section, for packed
/// builds), screenshots and discussion, in `opts.format`. In XML these are
/// all children of the one root `<documents>`, after the `<document>`s.
pub fn assemble(
    files: &[RenderedFile],
    preset: &Preset,
    opts: &ComposeOptions,
    map: Option<&str>,
) -> String {
    match opts.format {
        Format::Markdown => markdown(files, preset, opts, map),
        Format::Xml => xml::render(files, preset, opts, map),
    }
}

fn markdown(
    files: &[RenderedFile],
    preset: &Preset,
    opts: &ComposeOptions,
    map: Option<&str>,
) -> String {
    let mut sections = vec![markdown_files(files, opts)];
    if let Some(map) = map.filter(|m| !m.is_empty()) {
        sections.push(map.trim_end().to_string());
    }
    if !preset.screenshots.is_empty() {
        let shots: Vec<String> = preset
            .screenshots
            .iter()
            .map(|p| format!("![{}]({})", escape_line(file_name(p)), escape_line(p)))
            .collect();
        sections.push(format!("## Screenshots\n\n{}", shots.join("\n")));
    }
    let messages = visible_discussion(&preset.discussion, opts.max_messages);
    if !messages.is_empty() {
        let excerpts: Vec<String> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                format!(
                    "### Discussion Excerpt {}\n\n{}: {}",
                    i + 1,
                    escape_line(&m.role),
                    m.content.trim()
                )
            })
            .collect();
        sections.push(format!(
            "## Discussion History\n\n{}",
            excerpts.join("\n\n---\n\n")
        ));
    }
    sections.extend(task_markdown(&preset.task));
    let mut out = sections.join("\n\n");
    out.push('\n');
    out
}

/// The `## Task` section: last, after the discussion, so everything before
/// it stays a stable, cacheable prefix; the task verbatim (trimmed).
pub fn task_markdown(task: &str) -> Option<String> {
    let task = task.trim();
    (!task.is_empty()).then(|| format!("## Task\n\n{task}"))
}

fn markdown_files(files: &[RenderedFile], opts: &ComposeOptions) -> String {
    let mut out = String::from(files_heading(opts));
    let shown: Vec<&RenderedFile> = files.iter().filter(|f| f.aggregate).collect();
    if shown.is_empty() {
        out.push_str("\n\n(no files)");
    }
    for f in shown {
        out.push_str("\n\n");
        out.push_str(&markdown_file(f));
    }
    let listed: Vec<&RenderedFile> = files.iter().filter(|f| !f.aggregate).collect();
    if !listed.is_empty() {
        out.push_str("\n\nAlso in this project, not included (ask for them if needed):\n");
        let names: Vec<String> = listed
            .iter()
            .map(|f| format!("- `{}`", escape_line(&f.path)))
            .collect();
        out.push_str(&names.join("\n"));
    }
    out
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

/// One file as a Markdown block: heading, fenced body, notes.
pub fn markdown_file(f: &RenderedFile) -> String {
    let mut out = section_line(&f.path, Format::Markdown);
    if f.error.is_none() && f.mode != ViewMode::Full {
        let _ = write!(out, " [{}]", f.mode);
    }
    out.push_str("\n\n");
    if let Some(err) = &f.error {
        out.push_str(&escape_line(&format!("ERROR: {err}: {}", f.path)));
        return out;
    }
    if f.mode == ViewMode::None {
        out.push_str(views::EXCLUDED);
        return out;
    }
    let fence = fence_for(&f.text);
    // Summaries and outlines are prose about the code, not code.
    let lang = match f.mode {
        ViewMode::Full | ViewMode::Skeleton | ViewMode::Masked | ViewMode::Custom => {
            // A `.h` written in C++ is fenced as C++.
            match Lang::detect(&f.path, &f.text) {
                Some(Lang::Cpp) => "cpp",
                _ => fence_lang(&f.path),
            }
        }
        _ => "",
    };
    let body = f.text.strip_suffix('\n').unwrap_or(&f.text);
    let _ = write!(out, "{fence}{lang}\n{body}\n{fence}");
    for note in &f.notes {
        let _ = write!(out, "\n\n> note: {}", escape_line(note));
    }
    out
}

/// A backtick fence longer than any run of backticks in `text` (at least 3).
pub fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// The fence info string for a path, by extension ("" when unknown).
pub fn fence_lang(path: &str) -> &'static str {
    let name = file_name(path);
    if name == "Makefile" || name == "makefile" {
        return "make";
    }
    if name == "Dockerfile" {
        return "dockerfile";
    }
    let Some((_, ext)) = name.rsplit_once('.') else {
        return "";
    };
    match ext.to_ascii_lowercase().as_str() {
        "py" | "pyi" => "python",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "rs" => "rust",
        "go" => "go",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" => "typescript",
        "tsx" => "tsx",
        "jsx" => "jsx",
        "java" => "java",
        "kt" => "kotlin",
        "rb" => "ruby",
        "sh" | "bash" => "bash",
        "md" | "markdown" => "markdown",
        "toml" => "toml",
        "json" => "json",
        "yaml" | "yml" => "yaml",
        "ini" | "cfg" => "ini",
        "html" | "htm" => "html",
        "css" => "css",
        "sql" => "sql",
        "xml" => "xml",
        _ => "",
    }
}

/// The last component of a `/`-separated path.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
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
    use crate::core::model::FileItem;

    fn entry(role: &str, content: &str) -> DiscussionEntry {
        DiscussionEntry {
            role: role.into(),
            content: content.into(),
            extra: Default::default(),
        }
    }

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ``` b"), "````");
        assert_eq!(fence_for("`````"), "``````");
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

    #[test]
    fn focus_matching_and_modes() {
        assert!(focus_matches("src/a.py", "src/a.py"));
        assert!(focus_matches("a.py", "src/a.py"));
        assert!(focus_matches("./src/a.py", "src/a.py"));
        assert!(focus_matches("core/a.py", "src/core/a.py"));
        assert!(!focus_matches("ore/a.py", "src/core/a.py"));
        assert!(!focus_matches("a.py", "src/ba.py"));
        assert!(!focus_matches("", "a.py"));
        let mut o = ComposeOptions::from_settings(&Settings::default());
        o.strategy = Strategy::Summarize;
        o.focus = vec!["a.py".into()];
        let item = |path: &str, mode| FileItem {
            view_mode: mode,
            ..FileItem::new(path)
        };
        assert_eq!(
            o.mode_for(&item("x/a.py", ViewMode::Outline)),
            ViewMode::Full
        );
        assert_eq!(
            o.mode_for(&item("b.py", ViewMode::Full)),
            ViewMode::Skeleton
        );
        assert_eq!(
            o.mode_for(&item("b.c", ViewMode::Masked)),
            ViewMode::Skeleton
        );
        assert_eq!(
            o.mode_for(&item("b.py", ViewMode::Custom)),
            ViewMode::Custom
        );
        assert_eq!(o.mode_for(&item("r.md", ViewMode::Full)), ViewMode::Full);
        let mut forced = item("c.py", ViewMode::Summary);
        forced.force_full = true;
        assert_eq!(o.mode_for(&forced), ViewMode::Full);
        assert_eq!(files_heading(&o), "## Files (Focused)");
    }

    #[test]
    fn strategy_modes() {
        let mut item = FileItem::new("a.py");
        item.view_mode = ViewMode::Skeleton;
        let mut o = ComposeOptions::from_settings(&Settings::default());
        assert_eq!(o.mode_for(&item), ViewMode::Skeleton);
        o.summary_only = true;
        assert_eq!(o.mode_for(&item), ViewMode::Summary);
        o.strategy = Strategy::Full;
        assert_eq!(o.mode_for(&item), ViewMode::Full);
        o.strategy = Strategy::Summarize;
        item.force_full = true;
        assert_eq!(o.mode_for(&item), ViewMode::Full);
    }
}
