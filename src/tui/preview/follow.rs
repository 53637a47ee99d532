//! The preview follows what the user looks at: the block a file outside
//! the composition would add (rendered on the worker, kept per path and
//! render key while the preset stays the same), the lines of the symbol
//! under the symbols cursor (scrolled to and highlighted), `:` to go to a
//! line, `/` `n` `N` to search the lines shown, and `c` to slice the
//! symbol under the cursor. What is shown is `preview::shown`; this
//! module only moves the preview and asks for work. Called from `update`,
//! `navigate` and `overlays`.

use crate::core::curation;
use crate::core::model::{FileItem, MaskState, ViewMode};
use crate::core::sources::render_key;
use crate::core::syntax::Symbol;
use crate::text::sanitize::display_line;

use crate::text::words::plural;
use crate::tui::messages::{BlockJob, Effect, Job};
use crate::tui::preview::{Shown, body_range, shown, symbol_lines};
use crate::tui::state::model::FileBlock;
use crate::tui::state::preview::PreviewSearch;
use crate::tui::state::symbols::flat_symbols;
use crate::tui::state::{Level, Overlay, Pane, Prompt, State};

/// At most this many rendered blocks are kept (a walk over many files
/// outside the preset must not hold them all).
const BLOCKS_KEPT: usize = 64;

/// The entry `path` would get from Space: its earlier curation (excluded
/// with Space this session), else what `core::curation::include` gives it
/// (a glob's entry, or a plain `full` one).
pub fn would_be_item(state: &State, path: &str) -> FileItem {
    if let Some(item) = state.parked.get(path) {
        return item.clone();
    }
    let mut preset = state.preset();
    curation::include(&mut preset, path, None)
        .ok()
        .and_then(|_| curation::effective_item(&preset, path))
        .map(|mut item| {
            item.path = path.to_string();
            item
        })
        .unwrap_or_else(|| FileItem::new(path))
}

/// After the tree cursor moved: a view of its own (a block, a folder)
/// starts at its top, the symbol highlight is gone, and a file outside
/// the composition has its block rendered.
pub fn follow_tree(state: &mut State) -> Vec<Effect> {
    state.preview.highlight = None;
    if !matches!(shown(state), Shown::Composition(_) | Shown::Raw(_)) {
        state.preview.scroll = 0;
    }
    request_block(state)
}

/// A composition arrived: the symbol under the symbols cursor is found
/// again in it (a mask just changed, say), and the block of a file the
/// composition no longer holds is rendered.
pub fn after_compose(state: &mut State) -> Vec<Effect> {
    // The highlight's lines were of the text before: found again (quietly:
    // the status line keeps what the edit said).
    if state.focus == Pane::Symbols || state.preview.highlight.is_some() {
        follow_symbol(state, false);
    }
    request_block(state)
}

/// Ask the worker for the block of the current file if it is outside the
/// composition and no block for its current entry is kept.
pub fn request_block(state: &mut State) -> Vec<Effect> {
    let generation = state.composition.generation;
    state
        .preview
        .blocks
        .retain(|_, b| b.generation == generation);
    let Some(path) = state.current_file().map(str::to_string) else {
        return Vec::new();
    };
    if !crate::tui::preview::outside(state, &path) {
        return Vec::new();
    }
    let item = would_be_item(state, &path);
    let opts = state.compose_options();
    let key = render_key(&item, opts.mode_for(&item));
    if state
        .preview
        .blocks
        .get(&path)
        .is_some_and(|b| b.key == key)
    {
        return Vec::new();
    }
    vec![Effect::job(Job::Block(BlockJob {
        item,
        generation,
        opts,
        tokenizer: state.project.settings.tokenizer,
    }))]
}

/// A block came back from the worker: kept if it is for the preset as it
/// is now.
pub fn on_block(state: &mut State, block: std::sync::Arc<FileBlock>) {
    if block.generation != state.composition.generation {
        return;
    }
    if state.preview.blocks.len() >= BLOCKS_KEPT {
        state.preview.blocks.clear();
    }
    let path = block.path.clone();
    state.preview.blocks.insert(path.clone(), block);
    if state.focus == Pane::Symbols && state.symbols.view.as_ref().is_some_and(|s| s.path == path) {
        follow_symbol(state, false);
    }
}

/// Scroll the preview to the symbol under the symbols cursor and
/// highlight its lines (in the block shown, or in the raw text);
/// `announce`: say so when its view does not show it.
pub fn follow_symbol(state: &mut State, announce: bool) {
    state.preview.highlight = None;
    let Some(found) = locate_symbol(state) else {
        return;
    };
    match found {
        Ok((start, end)) => {
            if state.preview.raw {
                state.preview.raw_cursor = start;
            } else {
                state.preview.scroll = start;
            }
            state.preview.highlight = Some((start, end));
        }
        Err(message) if announce => state.say(Level::Info, message),
        Err(_) => {}
    }
}

/// Where the symbol under the symbols cursor is in the lines shown:
/// `None` when there is no symbol or no block of its file is shown,
/// `Err` when its view does not show it.
fn locate_symbol(state: &State) -> Option<Result<(usize, usize), String>> {
    let view = state.symbols.view.as_ref()?;
    let tree = view.tree.as_ref()?;
    let flat = flat_symbols(tree);
    let (_, symbol) = *flat.get(state.symbols.cursor)?;
    let shown = shown(state);
    if let Shown::Raw(lines) = shown {
        // The raw text is the file itself: its lines are the symbol's.
        let raw_path = state.preview.raw_text.as_ref().map(|(p, _)| p.as_str());
        if raw_path != Some(view.path.as_str()) || lines.is_empty() {
            return None;
        }
        let last = lines.len() - 1;
        let start = symbol.start_line.saturating_sub(1).min(last);
        return Some(Ok((
            start,
            symbol.end_line.saturating_sub(1).clamp(start, last),
        )));
    }
    let (lines, heading, end, mode, item) = match shown {
        Shown::Composition(c) => {
            let i = *c.index.get(&view.path)?;
            let f = c.files.get(i)?;
            let end = c.files.get(i + 1).map_or(c.lines.len(), |n| n.line);
            let item = state.item_for(&view.path)?;
            (c.lines.as_slice(), f.line, end, f.mode, item)
        }
        Shown::Block(b) if b.path == view.path => (
            b.lines.as_slice(),
            0,
            b.lines.len(),
            b.mode,
            would_be_item(state, &view.path),
        ),
        _ => return None,
    };
    let format = state.project.settings.format;
    let not_shown = || {
        format!(
            "{} is not shown in the {mode} view of {}",
            display_line(&symbol.path, 60),
            display_line(&view.path, 80)
        )
    };
    let Some((from, to)) = body_range(lines, heading, end, format) else {
        return Some(Err(not_shown()));
    };
    let visible = if mode == ViewMode::Masked {
        visible_when_masked(&item, &tree.symbols, &flat)
    } else {
        vec![true; flat.len()]
    };
    Some(
        symbol_lines(
            &lines[from..to],
            mode,
            &flat,
            &visible,
            state.symbols.cursor,
        )
        .map(|(a, b)| (from + a, from + b))
        .ok_or_else(not_shown),
    )
}

/// Which symbols the masked view of `item` shows: all but the hidden
/// ones, and a hidden one whose descendant is set visible shows its
/// header (the rule of `core::syntax::mask`).
fn visible_when_masked(
    item: &FileItem,
    symbols: &[Symbol],
    flat: &[(usize, &Symbol)],
) -> Vec<bool> {
    let states = curation::mask_states(item, symbols);
    (0..flat.len())
        .map(|i| {
            if states.get(i) != Some(&MaskState::Hide) {
                return true;
            }
            let depth = flat[i].0;
            flat[i + 1..]
                .iter()
                .take_while(|(d, _)| *d > depth)
                .any(|(_, s)| {
                    s.own_entry(&item.ast_mask)
                        .is_some_and(|m| m != MaskState::Hide)
                })
        })
        .collect()
}

/// `:` in the preview: ask for a line number.
pub fn goto_line_prompt(state: &mut State) -> Vec<Effect> {
    state.overlay = Some(Overlay::Input {
        prompt: Prompt::GotoLine,
        buffer: String::new(),
    });
    Vec::new()
}

/// Enter on the `:` prompt: that line of the lines shown goes to the top
/// (in the raw text, the cursor goes to it).
pub fn goto_line(state: &mut State, typed: &str) {
    let len = shown(state).lines().len();
    match typed.trim().parse::<usize>() {
        Ok(n) if (1..=len).contains(&n) => {
            state.preview.set_top(n - 1);
            state.say(Level::Info, format!("line {n}/{len}"));
        }
        // A folder's or a pending file's summary has no numbered lines.
        Ok(n) if len == 0 => state.say(
            Level::Warn,
            format!(
                "no line {n}: the preview shows no text here (a file or the composition has lines)"
            ),
        ),
        Ok(n) => state.say(
            Level::Warn,
            format!("no line {n}: the preview shows {}", plural(len, "line")),
        ),
        Err(_) => state.say(
            Level::Warn,
            format!(
                "not a line number: “{}” (: then a number, Enter)",
                display_line(typed, 40)
            ),
        ),
    }
}

/// `/` in the preview: ask for the text to look for.
pub fn search_prompt(state: &mut State) -> Vec<Effect> {
    state.overlay = Some(Overlay::Input {
        prompt: Prompt::Search,
        buffer: String::new(),
    });
    Vec::new()
}

/// Enter on the `/` prompt: the first line at or below the top that
/// holds the text (case-insensitive); an empty search clears it.
pub fn search(state: &mut State, typed: &str) {
    if typed.trim().is_empty() {
        state.preview.search = None;
        state.say(Level::Info, "search cleared");
        return;
    }
    state.preview.search = Some(PreviewSearch {
        query: typed.to_string(),
        line: None,
    });
    jump(state, Step::First);
}

/// `n` / `N`: the next or previous matching line (wrapping around).
pub fn search_step(state: &mut State, forward: bool) {
    if state.preview.search.is_none() {
        state.say(
            Level::Info,
            "no search yet: / looks for text in the preview",
        );
        return;
    }
    jump(state, if forward { Step::Next } else { Step::Prev });
}

#[derive(Clone, Copy)]
enum Step {
    First,
    Next,
    Prev,
}

fn jump(state: &mut State, step: Step) {
    let Some(query) = state.preview.search.as_ref().map(|s| s.query.clone()) else {
        return;
    };
    let matches = matching_lines(shown(state).lines(), &query);
    let top = state.preview.top();
    let Some(&first) = matches.first() else {
        if let Some(s) = &mut state.preview.search {
            s.line = None;
        }
        state.say(
            Level::Warn,
            format!("no match for “{}”", display_line(&query, 40)),
        );
        return;
    };
    let index = match step {
        Step::First => matches.iter().position(|&m| m >= top),
        Step::Next => matches.iter().position(|&m| m > top),
        Step::Prev => matches.iter().rposition(|&m| m < top),
    };
    let index = index.unwrap_or(match step {
        Step::Prev => matches.len() - 1,
        _ => 0,
    });
    let line = matches.get(index).copied().unwrap_or(first);
    state.preview.set_top(line);
    if let Some(s) = &mut state.preview.search {
        s.line = Some(line);
    }
    state.say(
        Level::Info,
        format!(
            "match {}/{} · “{}” · n next, N previous",
            index + 1,
            matches.len(),
            display_line(&query, 40)
        ),
    );
}

/// The lines holding `query`, ignoring case.
pub fn matching_lines(lines: &[String], query: &str) -> Vec<usize> {
    let needle = query.to_lowercase();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.to_lowercase().contains(&needle))
        .map(|(i, _)| i)
        .collect()
}

/// `c` in the symbols pane: a slice of the symbol's lines, tagged at the
/// prompt `v … v` uses (pre-filled with the symbol's path); Enter adds it
/// through the same path as a slice marked in the raw text.
pub fn slice_symbol(state: &mut State) -> Vec<Effect> {
    if state.focus != Pane::Symbols {
        return Vec::new();
    }
    let picked = state.symbols.view.as_ref().and_then(|view| {
        let s = state.symbols.selected()?;
        Some((view.path.clone(), s.path.clone(), s.start_line, s.end_line))
    });
    let Some((path, symbol, start, end)) = picked else {
        state.say(Level::Info, "no symbol under the cursor");
        return Vec::new();
    };
    state.overlay = Some(Overlay::Input {
        prompt: Prompt::SliceTag {
            path: path.clone(),
            start,
            end,
        },
        buffer: symbol,
    });
    // The slice is anchored in the file's text, which the raw view holds.
    if matches!(&state.preview.raw_text, Some((p, _)) if *p == path) {
        Vec::new()
    } else {
        vec![Effect::job(Job::Raw(path))]
    }
}
