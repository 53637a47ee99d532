//! What the preview pane shows for the row under the tree cursor, and
//! where a symbol's lines are in it. The preview follows what the user
//! looks at: a file of the composition shows the composition at its block,
//! a file outside it shows the block it would add (a [`FileBlock`] the
//! worker rendered), a folder shows how much of it is included, `r` shows
//! the raw text. The `:`, `/`, `n`, `N` keys and the symbols cursor act on
//! the lines of [`shown`]. Pure functions of the state: rendering and the
//! handlers (`preview::follow`) both use them.

pub mod follow;
pub mod raw;
pub mod render;

use crate::core::model::{Format, ViewMode};
use crate::core::syntax::Symbol;

use crate::tui::state::State;
use crate::tui::state::model::{Composed, FileBlock};

/// What the preview pane shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shown<'a> {
    /// The raw text of the current file (`r`).
    Raw(&'a [String]),
    /// The composition (scrolled to the current file, or to the first
    /// file of the current folder).
    Composition(&'a Composed),
    /// The block a file outside the composition would add.
    Block(&'a FileBlock),
    /// That block is being rendered.
    Pending(&'a str),
    /// An included file rendered as a name only (`auto_aggregate` off).
    Listed(&'a str),
    /// A folder none of whose files the composition holds.
    Folder {
        path: &'a str,
        included: usize,
        total: usize,
    },
    /// Nothing yet (loading, composing, an empty tree).
    Nothing,
}

impl<'a> Shown<'a> {
    /// The lines shown, as the views hold them (not sanitized).
    pub fn lines(self) -> &'a [String] {
        match self {
            Shown::Raw(lines) => lines,
            Shown::Composition(c) => c.lines.as_slice(),
            Shown::Block(b) => b.lines.as_slice(),
            Shown::Pending(_) | Shown::Listed(_) | Shown::Folder { .. } | Shown::Nothing => &[],
        }
    }
}

/// What the preview shows for the current row.
pub fn shown(state: &State) -> Shown<'_> {
    if state.preview.raw {
        return match &state.preview.raw_text {
            Some((_, lines)) => Shown::Raw(lines.as_slice()),
            None => Shown::Nothing,
        };
    }
    let Some(row) = state.current_row() else {
        return state
            .composition
            .composed
            .as_ref()
            .map_or(Shown::Nothing, Shown::Composition);
    };
    if row.is_dir {
        let holds = state.composition.composed.as_ref().is_some_and(|c| {
            let prefix = format!("{}/", row.path);
            c.files.iter().any(|f| f.path.starts_with(&prefix))
        });
        if !holds {
            return Shown::Folder {
                path: &row.path,
                included: state.walk.included_under(&row.path),
                total: state.tree.files.count_under(&row.path),
            };
        }
    } else if outside(state, &row.path) {
        return match block_of(state, &row.path) {
            Some(b) => Shown::Block(b),
            None => Shown::Pending(&row.path),
        };
    } else if state.composed_file(&row.path).is_none()
        && state.item_for(&row.path).is_some_and(|i| !i.auto_aggregate)
    {
        return Shown::Listed(&row.path);
    }
    state
        .composition
        .composed
        .as_ref()
        .map_or(Shown::Nothing, Shown::Composition)
}

/// Why `path`, shown in `shown` mode, is not in the mode its entry asks:
/// a file without a grammar asked for skeleton, outline or masked shows
/// its summary (`no grammar for .yaml: …`). The preview's header line.
pub fn fallback_note(state: &State, path: &str, shown: ViewMode) -> Option<String> {
    let asked = state.item_for(path)?.effective_mode();
    let fell_back = asked.needs_grammar() && shown == ViewMode::Summary;
    (fell_back && !state.symbols.has_grammar(path)).then(|| {
        format!(
            "{asked} shows its summary: {}",
            crate::core::views::no_grammar(path)
        )
    })
}

/// `true` when `path` is neither in the composition shown nor included
/// by the preset: the preview shows what it would add.
pub fn outside(state: &State, path: &str) -> bool {
    state.composed_file(path).is_none() && !state.is_included(path)
}

/// The rendered block of `path` for the current preset, if the worker
/// has made it.
pub fn block_of<'a>(state: &'a State, path: &str) -> Option<&'a FileBlock> {
    state
        .preview
        .blocks
        .get(path)
        .map(|b| b.as_ref())
        .filter(|b| b.generation == state.composition.generation)
}

/// Where the body of the file block starting at line `heading` of
/// `lines` is: the lines after its opening fence (Markdown) or its
/// `<document_content>` line (XML), up to `end` (the next block, or the
/// end). `None` when the block has no body (an error, `none` mode).
pub fn body_range(
    lines: &[String],
    heading: usize,
    end: usize,
    format: Format,
) -> Option<(usize, usize)> {
    let end = end.min(lines.len());
    let opener = (heading + 1..end.min(heading + 4)).find(|&i| match format {
        Format::Markdown => lines[i].starts_with("```"),
        Format::Xml => lines[i] == "<document_content>",
    })?;
    let start = opener + 1;
    let fence: String = lines[opener].chars().take_while(|&c| c == '`').collect();
    // The body ends before the closing fence / tag.
    let close = (start..end)
        .rev()
        .find(|&i| match format {
            Format::Markdown => lines[i] == fence,
            Format::Xml => lines[i] == "</document_content>",
        })
        .unwrap_or(end);
    Some((start, close.max(start)))
}

/// The lines (0-based, inclusive, relative to `body`) where symbol
/// `target` of `flat` (a file's symbols, depth-first, as the symbols pane
/// lists them) shows in a file's rendered body in `mode`. `visible[i]`
/// says whether symbol `i` renders at all (a hidden masked symbol does
/// not). In `full` the lines are the file's own; otherwise each visible
/// symbol's head (its signature up to its name) is looked for in order,
/// and a symbol runs at most its own length, up to the next symbol that
/// is not inside it. `None`: the view does not show it.
pub fn symbol_lines(
    body: &[String],
    mode: ViewMode,
    flat: &[(usize, &Symbol)],
    visible: &[bool],
    target: usize,
) -> Option<(usize, usize)> {
    let (depth, symbol) = *flat.get(target)?;
    if body.is_empty() {
        return None;
    }
    let last = body.len() - 1;
    if mode == ViewMode::Full {
        let start = symbol.start_line.checked_sub(1)?;
        return (start <= last).then(|| (start, (symbol.end_line.max(1) - 1).min(last)));
    }
    // Prose views mention a symbol inside a line; code views start a line
    // with it.
    let anywhere = matches!(mode, ViewMode::Summary | ViewMode::Outline);
    let mut starts: Vec<Option<usize>> = vec![None; flat.len()];
    let mut from = 0;
    for (i, (_, s)) in flat.iter().enumerate() {
        if !visible.get(i).copied().unwrap_or(true) {
            continue;
        }
        let head = head_of(s);
        if let Some(j) = (from..body.len()).find(|&j| is_head(&body[j], &head, anywhere)) {
            starts[i] = Some(j);
            from = j + 1;
        }
    }
    let mut start = starts[target]?;
    // Decorators above a Python definition belong to it.
    let floor = starts[..target].iter().flatten().max().map_or(0, |s| s + 1);
    while start > floor && body[start - 1].trim_start().starts_with('@') {
        start -= 1;
    }
    let own = symbol.end_line.saturating_sub(symbol.start_line);
    let next = flat
        .iter()
        .enumerate()
        .skip(target + 1)
        .find(|(i, (d, _))| *d <= depth && starts[*i].is_some())
        .and_then(|(i, _)| starts[i]);
    let mut end = (start + own).min(last);
    if let Some(next) = next {
        end = end.min(next.saturating_sub(1).max(start));
    }
    while end > start && body[end].trim().is_empty() {
        end -= 1;
    }
    Some((start, end))
}

/// A symbol's head: its signature up to the end of its name (the whole
/// signature's first 60 characters when the name is not in it).
fn head_of(symbol: &Symbol) -> String {
    let sig = symbol.signature.trim();
    let name = symbol.name.as_str();
    let mut at = None;
    for (i, _) in sig.match_indices(name) {
        let before = sig[..i].chars().next_back();
        let after = sig[i + name.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            at = Some(i + name.len());
            break;
        }
    }
    match at {
        Some(end) if !name.is_empty() => sig[..end].to_string(),
        _ => sig.chars().take(60).collect(),
    }
}

/// Whether `line` starts (or, in prose, holds) `head` as whole words.
fn is_head(line: &str, head: &str, anywhere: bool) -> bool {
    if head.is_empty() {
        return false;
    }
    let line = line.trim_start();
    let word_ends = |at: usize| !line[at..].chars().next().is_some_and(is_ident);
    if anywhere {
        line.match_indices(head).any(|(i, _)| {
            !line[..i].chars().next_back().is_some_and(is_ident) && word_ends(i + head.len())
        })
    } else {
        line.starts_with(head) && word_ends(head.len())
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::syntax::{self, Lang};
    use crate::tui::state::symbols::flat_symbols;

    const SOURCE: &str = "import os\n\n\nclass A:\n    @property\n    def run(self):\n        return 1\n\n    def stop(self):\n        return 2\n\n\ndef main():\n    A().run\n";

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn full_maps_one_to_one_and_other_views_by_signature() {
        let tree = syntax::parse(Lang::Python, SOURCE);
        let flat = flat_symbols(&tree);
        let names: Vec<&str> = flat.iter().map(|(_, s)| s.path.as_str()).collect();
        assert_eq!(names, ["A", "A.run", "A.stop", "main"]);
        let body = lines(SOURCE);
        let all = vec![true; flat.len()];
        assert_eq!(
            symbol_lines(&body, ViewMode::Full, &flat, &all, 1),
            Some((4, 6))
        );
        // A masked body: run's body elided, stop hidden.
        let masked = lines(
            "import os\n\n\nclass A:\n    @property\n    def run(self):\n        ...\n\n\ndef main():\n    A().run\n",
        );
        let visible = [true, true, false, true];
        assert_eq!(
            symbol_lines(&masked, ViewMode::Masked, &flat, &visible, 1),
            Some((4, 6)),
            "the decorator belongs to it; the blank lines after it do not"
        );
        assert_eq!(
            symbol_lines(&masked, ViewMode::Masked, &flat, &visible, 2),
            None
        );
        assert_eq!(
            symbol_lines(&masked, ViewMode::Masked, &flat, &visible, 3),
            Some((9, 10))
        );
        // A same-named line before the symbol's place is not it.
        let decoy = lines("def mainly(): ...\nclass A:\n    def run(self): ...\ndef main(): ...\n");
        assert_eq!(
            symbol_lines(&decoy, ViewMode::Skeleton, &flat, &all, 3),
            Some((3, 3))
        );
    }

    #[test]
    fn body_range_finds_the_fenced_or_tagged_body() {
        let md = lines("### a.py\n\n````python\nx = 1\n```\n````\n\n> note: n\n");
        assert_eq!(body_range(&md, 0, md.len(), Format::Markdown), Some((3, 5)));
        let xml = lines(
            "<document index=\"1\">\n<source>a.py</source>\n<document_content>\nx = 1\n</document_content>\n</document>\n",
        );
        assert_eq!(body_range(&xml, 1, xml.len(), Format::Xml), Some((3, 4)));
        let error = lines("### a.py\n\nERROR: file not found: a.py\n");
        assert_eq!(body_range(&error, 0, error.len(), Format::Markdown), None);
    }
}
