//! Per-file transforms: one file's text and its preset entry in, the text
//! the model sees out (docs/ARCHITECTURE.md, "core::views"). Symbol-aware modes fall back to a
//! summary for files without a grammar, and say so (`no_grammar`);
//! `ViewMode::needs_grammar` is what the TUI's mode cycle, `set`, `mask`,
//! `symbols` and the MCP server ask. Summaries and skeletons leave out
//! licence banners (`syntax::licence`, by the language row's comment kinds).

use std::fmt::Write;
use std::sync::Arc;

use crate::core::anchor::{self, Resolution};
use crate::core::model::{FileItem, ViewMode};
use crate::core::summary::Summary;
use crate::core::summary::heuristic;
use crate::core::syntax::{self, CMacros, Lang, SymbolTree};
use crate::text::sanitize::escape_line;

/// The body shown for a file in `none` mode.
pub const EXCLUDED: &str = "(context excluded)";

/// The body of a `custom` view whose slices are all stale.
pub const NO_SLICE: &str = "(no slice of this file resolves: see the notes)";

/// One file's rendered view.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct View {
    /// The mode that produced `text` (a symbol mode on a file without a
    /// grammar reports `summary`).
    pub mode: ViewMode,
    /// Shared with the file's text in `full` mode.
    pub text: Arc<str>,
    /// Things the reader should know (stale slices, fallbacks).
    pub notes: Vec<Note>,
}

/// What a [`Note`] is about, so a reader (the TUI marking files with
/// stale slices) asks its kind, never matches its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// A slice that no longer resolves: not shown.
    StaleSlice,
    /// A slice edited since it was made: re-anchored and shown.
    EditedSlice,
    /// A symbol named in `ast_mask` that the file no longer has.
    MissingSymbol,
    /// How the summary was made (the external command failed, was cut).
    Summary,
    /// Invalid UTF-8 was replaced.
    Encoding,
    /// Anything else.
    Other,
}

/// One note on a rendered file: its kind and the text shown to the user
/// and the model.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Note {
    pub kind: NoteKind,
    pub text: String,
}

impl Note {
    pub fn new(kind: NoteKind, text: impl Into<String>) -> Note {
        Note {
            kind,
            text: text.into(),
        }
    }
}

impl std::ops::Deref for Note {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<&str> for Note {
    fn from(text: &str) -> Note {
        Note::new(NoteKind::Other, text)
    }
}

impl From<String> for Note {
    fn from(text: String) -> Note {
        Note::new(NoteKind::Other, text)
    }
}

/// Whether `path` (with content `text`) has a grammar: the same test the
/// render makes ([`Lang::detect`]).
pub fn has_grammar(path: &str, text: &str) -> bool {
    Lang::detect(path, text).is_some()
}

/// Whether the name alone says `path` has a grammar: `Some` for a name
/// with an extension, `None` for one without (its `#!` line decides, so
/// the text must be read).
pub fn grammar_by_name(path: &str) -> Option<bool> {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.contains('.').then(|| Lang::from_path(path).is_some())
}

/// Why a file without a grammar offers fewer modes (those that do not
/// [`ViewMode::needs_grammar`]), in one line: `no
/// grammar for .yaml: skeleton/outline/masked are not offered` (a name
/// without an extension is named whole).
pub fn no_grammar(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let what = match name.rsplit_once('.') {
        Some((_, ext)) if !ext.is_empty() => format!(".{ext}"),
        _ => name.to_string(),
    };
    format!(
        "no grammar for {}: skeleton/outline/masked are not offered",
        escape_line(&what)
    )
}

/// Render `text` (the content of `path`) as `item` asks, in `mode`, with
/// the heuristic summaries and no cache.
pub fn render(path: &str, text: &str, mode: ViewMode, item: &FileItem) -> View {
    render_with(path, text, mode, item, &CMacros::default())
}

/// [`render`] with the project's extra C/C++ macros (`[syntax] c_macros`).
pub fn render_with(
    path: &str,
    text: &str,
    mode: ViewMode,
    item: &FileItem,
    macros: &CMacros,
) -> View {
    let parse =
        || Lang::detect(path, text).map(|lang| Arc::new(syntax::parse_with(lang, text, macros)));
    let summarize = || Summary {
        text: heuristic::summarize(path, text),
        notes: Vec::new(),
    };
    render_parsed(&Arc::from(text), mode, item, parse, summarize)
}

/// [`render`] with the parse and the summary supplied by the caller (a
/// cache that already holds the file's symbol tree, a summarizer with its
/// disk cache); `parse` runs only for symbol modes, `summarize` only when
/// the view is a summary.
pub fn render_parsed(
    text: &Arc<str>,
    mode: ViewMode,
    item: &FileItem,
    parse: impl FnOnce() -> Option<Arc<SymbolTree>>,
    summarize: impl FnOnce() -> Summary,
) -> View {
    let mut notes = Vec::new();
    let wants_tree = matches!(
        mode,
        ViewMode::Skeleton | ViewMode::Outline | ViewMode::Masked
    );
    let tree = if wants_tree { parse() } else { None };
    if let Some(stopped) = tree.as_ref().filter(|t| t.parse_stopped) {
        // No symbols to shape a view by: the text as it is, said so.
        let note = format!("{}: shown in full", parse_stopped_note(stopped.lang));
        notes.push(Note::new(NoteKind::Other, note));
        return View {
            mode: ViewMode::Full,
            text: text.clone(),
            notes,
        };
    }
    let (mode, text) = match (mode, tree) {
        (ViewMode::Full, _) => {
            return View {
                mode: ViewMode::Full,
                text: text.clone(),
                notes,
            };
        }
        (ViewMode::None, _) => (ViewMode::None, EXCLUDED.to_string()),
        (ViewMode::Skeleton, Some(tree)) => (ViewMode::Skeleton, syntax::skeleton(&tree, text)),
        (ViewMode::Outline, Some(tree)) => (ViewMode::Outline, syntax::outline(&tree)),
        (ViewMode::Masked, Some(tree)) => {
            let out = syntax::masked(&tree, text, item.mask_default, &item.ast_mask);
            // Every path a symbol has or had before (it names it still),
            // once: a lookup per entry, not a walk of the tree (20,000
            // entries over 8,000 symbols took half a minute).
            let known: std::collections::HashSet<&str> = tree
                .iter()
                .flat_map(|s| std::iter::once(s.path.as_str()).chain(s.legacy.as_deref()))
                .collect();
            // Each by name up to a bound, then one note for the rest: a
            // project file masking 120,000 names a file does not have put
            // 6 MB of notes in the context (recheck 16).
            let missing: Vec<&String> = item
                .ast_mask
                .keys()
                .filter(|name| !known.contains(name.as_str()))
                .collect();
            for name in missing.iter().take(MISSING_SYMBOLS_NAMED) {
                notes.push(Note::new(
                    NoteKind::MissingSymbol,
                    format!("masked symbol `{name}` not found"),
                ));
            }
            if missing.len() > MISSING_SYMBOLS_NAMED {
                notes.push(Note::new(
                    NoteKind::MissingSymbol,
                    format!(
                        "{} more masked symbols not found (`ctxcurate symbols` lists the file's)",
                        missing.len() - MISSING_SYMBOLS_NAMED
                    ),
                ));
            }
            (ViewMode::Masked, out)
        }
        (ViewMode::Custom, _) if !item.custom_slices.is_empty() => {
            let mut shown = render_slices(text, item, &mut notes);
            if shown.is_empty() {
                shown = NO_SLICE.to_string();
            }
            (ViewMode::Custom, shown)
        }
        _ => {
            let summary = summarize();
            notes.extend(
                summary
                    .notes
                    .into_iter()
                    .map(|n| Note::new(NoteKind::Summary, n)),
            );
            (ViewMode::Summary, summary.text)
        }
    };
    View {
        mode,
        text: Arc::from(text),
        notes,
    }
}

/// Why a file has no symbols when its parse was stopped at its deadline
/// (`CTXCURATE_PARSE_TIMEOUT`) or its memory bound.
pub fn parse_stopped_note(lang: Lang) -> String {
    format!(
        "parsing as {} stopped after {} s per 512 KiB (less, down to 50 ms, once many parses were stopped or slow) or at its memory bound (malformed code that tree-sitter recovers from slowly)",
        lang.name(),
        syntax::parse_deadline().as_secs_f64()
    )
}

/// The masked symbols a file does not have that are named one by one; the
/// rest are counted in one note. A composition names as many across its
/// files (`compose::FilesSection`).
pub const MISSING_SYMBOLS_NAMED: usize = 32;

/// The slices of one file show at most this many times its text (plus
/// [`SLICES_SLACK`]): overlapping slices are fine, but a project file
/// giving an 860 KB file 1,200 slices that each cover it whole took 3 GB.
const SLICES_TIMES: usize = 2;
const SLICES_SLACK: usize = 64 * 1024;

/// Each slice headed by its tag, comment and current line range; stale
/// slices are reported, never rendered. Slices past what the file's text
/// bounds ([`SLICES_TIMES`]) are left out with a note.
fn render_slices(text: &str, item: &FileItem, notes: &mut Vec<Note>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut parts: Vec<String> = Vec::new();
    let bound = text
        .len()
        .saturating_mul(SLICES_TIMES)
        .saturating_add(SLICES_SLACK);
    let mut shown = 0usize;
    let total = item.custom_slices.len();
    let mut resolver = anchor::Resolver::new(text);
    for (index, slice) in item.custom_slices.iter().enumerate() {
        if let Some(reason) = resolver.spent() {
            let why = reason.strip_prefix("not looked for: ").unwrap_or(reason);
            notes.push(Note::new(
                NoteKind::StaleSlice,
                format!(
                    "{} of {total} slices not looked for: {why} (`ctxcurate slices` lists them)",
                    total - index
                ),
            ));
            break;
        }
        let label = slice_label(slice.tag.as_deref(), slice.comment.as_deref());
        match resolver.resolve(slice) {
            Resolution::Stale { reason } => notes.push(Note::new(
                NoteKind::StaleSlice,
                format!(
                    "stale slice{label} (was lines {}-{}): {reason}",
                    slice.start_line, slice.end_line
                ),
            )),
            res => {
                let (start, end) = res.range().unwrap_or((1, 0));
                let body = lines.get(start.saturating_sub(1)..end).unwrap_or_default();
                // Past the bound with this slice: it and the rest are left
                // out (recheck 25: checked before adding, the bound let
                // one slice more through, three times the file's text).
                let size: usize = body.iter().map(|l| l.len() + 1).sum();
                if shown.saturating_add(size) > bound {
                    notes.push(Note::new(
                        NoteKind::Other,
                        format!(
                            "{} of {total} slices left out: together they would show the file more than {SLICES_TIMES} times",
                            total - index
                        ),
                    ));
                    break;
                }
                let mut part = format!("--- slice{label}, lines {start}-{end}");
                match res {
                    Resolution::Moved { by, .. } => {
                        let _ = write!(part, " (moved {by:+} lines)");
                    }
                    Resolution::Reanchored { .. } => {
                        part.push_str(" (re-anchored: edited since it was made)");
                        notes.push(Note::new(
                            NoteKind::EditedSlice,
                            format!(
                                "slice{label} (was lines {}-{}) was edited: lines {start}-{end} between its anchors are shown",
                                slice.start_line, slice.end_line
                            ),
                        ));
                    }
                    _ => {}
                }
                part.push_str(" ---\n");
                for line in body {
                    part.push_str(line);
                    part.push('\n');
                }
                shown += part.len();
                parts.push(part);
            }
        }
    }
    parts.join("\n")
}

fn slice_label(tag: Option<&str>, comment: Option<&str>) -> String {
    let mut label = String::new();
    // One line whatever the project file says (see `text::sanitize`).
    if let Some(tag) = tag {
        let _ = write!(label, " [{}]", escape_line(tag));
    }
    if let Some(comment) = comment {
        let _ = write!(label, " ({})", escape_line(comment));
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Slice;

    #[test]
    fn full_none_and_summary_fallback() {
        let item = FileItem::new("notes.txt");
        let v = render("notes.txt", "hello\n", ViewMode::Full, &item);
        assert_eq!((v.mode, &*v.text), (ViewMode::Full, "hello\n"));
        let v = render("notes.txt", "hello\n", ViewMode::None, &item);
        assert_eq!(&*v.text, EXCLUDED);
        let v = render("notes.txt", "hello\n", ViewMode::Skeleton, &item);
        assert_eq!(v.mode, ViewMode::Summary);
        // Too small to summarize: the file is its own summary.
        assert_eq!(&*v.text, "hello\n");
    }

    #[test]
    fn custom_slices_render_and_stale_ones_are_notes() {
        let text = "one\ntwo\nthree\nfour\n";
        let mut item = FileItem::new("a.txt");
        item.custom_slices = vec![
            Slice {
                tag: Some("mid".into()),
                comment: Some("the middle".into()),
                ..anchor::create_slice(text, 2, 3).unwrap()
            },
            Slice {
                start_line: 9,
                end_line: 12,
                ..Slice::default()
            },
        ];
        let v = render("a.txt", text, ViewMode::Custom, &item);
        assert_eq!(v.mode, ViewMode::Custom);
        assert_eq!(
            &*v.text,
            "--- slice [mid] (the middle), lines 2-3 ---\ntwo\nthree\n"
        );
        assert_eq!(v.notes.len(), 1);
        assert_eq!(v.notes[0].kind, NoteKind::StaleSlice);
        assert!(v.notes[0].starts_with("stale slice (was lines 9-12)"));
    }

    #[test]
    fn files_without_a_grammar_say_so() {
        assert!(ViewMode::Masked.needs_grammar() && !ViewMode::Custom.needs_grammar());
        assert_eq!(grammar_by_name("a/b.yaml"), Some(false));
        assert_eq!(grammar_by_name("a/b.RS"), Some(true));
        assert_eq!(grammar_by_name("bin/tool"), None);
        assert!(has_grammar("bin/tool", "#!/usr/bin/env python3\n"));
        assert!(!has_grammar("bin/tool", "hello\n"));
        assert_eq!(
            no_grammar("conf/app.yaml"),
            "no grammar for .yaml: skeleton/outline/masked are not offered"
        );
        assert_eq!(
            no_grammar("Makefile"),
            "no grammar for Makefile: skeleton/outline/masked are not offered"
        );
        assert_eq!(
            no_grammar("x.\n"),
            "no grammar for .␊: skeleton/outline/masked are not offered"
        );
    }

    #[test]
    fn custom_without_slices_is_summary() {
        let item = FileItem::new("a.txt");
        let v = render("a.txt", "x\n", ViewMode::Custom, &item);
        assert_eq!(v.mode, ViewMode::Summary);
    }
}
