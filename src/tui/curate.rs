//! Curation edits on the active preset, called from `update`: include and
//! exclude, view modes, flags, masks, slices and batch operations. Each
//! edit is one call of `core::curation` and one undoable step
//! (`undo::edit`).

use crate::core::anchor;
use crate::core::curation;
use crate::core::model::{FileItem, MaskState, ViewMode};
use crate::core::views;
use crate::text::words::noun_for;

use crate::tui::messages::Effect;
use crate::tui::state::{Level, State};
use crate::tui::undo::edit;

/// Space on a file or folder, or on a `v` selection (all of it).
pub fn toggle_include(state: &mut State) -> Vec<Effect> {
    if state.tree.selection().is_some() {
        return toggle_selection(state);
    }
    let Some(row) = state.current_row().cloned() else {
        return Vec::new();
    };
    if !row.is_dir {
        return toggle_file(state, &row.path);
    }
    let total = state.tree.files.count_under(&row.path);
    let inside = state.walk.included_under(&row.path);
    let all_in = total > 0 && inside == total;
    let dir = row.path.clone();
    let files = if all_in {
        state.tree.files.files_under(&dir)
    } else {
        Vec::new()
    };
    edit(state, move |preset, _| {
        if all_in {
            curation::exclude_folder(preset, &dir, &files);
            Ok(format!(
                "excluded {dir}/ ({total} {})",
                noun_for(total, "file")
            ))
        } else {
            curation::include_folder(preset, &dir, None);
            Ok(format!(
                "included {dir}/** ({total} {})",
                noun_for(total, "file")
            ))
        }
    })
}

/// Space on a `v` selection: as Space on each of its rows, in one
/// undoable step, and the selection ends. When every file the selection
/// covers is included, all go out (a folder as Space excludes one);
/// else all come in (a folder as its glob, `dir/**`; a file under a
/// selected folder through that glob, not an entry of its own).
fn toggle_selection(state: &mut State) -> Vec<Effect> {
    let Some((from, to)) = state.tree.selection() else {
        return Vec::new();
    };
    state.tree.range_anchor = None;
    let rows: Vec<_> = state
        .tree
        .rows
        .iter()
        .skip(from)
        .take(to + 1 - from)
        .cloned()
        .collect();
    let dirs: Vec<String> = rows
        .iter()
        .filter(|r| r.is_dir)
        .map(|r| r.path.clone())
        .collect();
    let under_a_dir = |path: &str| {
        dirs.iter().any(|d| {
            path.len() > d.len() && path.starts_with(d.as_str()) && path[d.len()..].starts_with('/')
        })
    };
    // Outermost folders only: a folder inside a selected one is covered.
    let top_dirs: Vec<String> = dirs.iter().filter(|d| !under_a_dir(d)).cloned().collect();
    let files: Vec<String> = rows
        .iter()
        .filter(|r| !r.is_dir && !under_a_dir(&r.path))
        .map(|r| r.path.clone())
        .collect();
    let mut covered: Vec<String> = files.clone();
    for dir in &top_dirs {
        covered.extend(state.tree.files.files_under(dir));
    }
    if covered.is_empty() {
        state.say(Level::Info, "nothing selected to include");
        return Vec::new();
    }
    let all_in = covered.iter().all(|f| state.is_included(f));
    let under: Vec<(String, Vec<String>)> = top_dirs
        .iter()
        .map(|d| (d.clone(), state.tree.files.files_under(d)))
        .collect();
    let n = covered.len();
    if !all_in {
        // The user's own choice, as Space on one file records it.
        let own: Vec<String> = files
            .iter()
            .filter(|f| !state.is_included(f))
            .cloned()
            .collect();
        if let Err(e) = state.project.allow_own(&own) {
            state.say(Level::Warn, format!("{e}: those files stay left out"));
        }
    }
    let included: Vec<bool> = files.iter().map(|f| state.is_included(f)).collect();
    edit(state, move |preset, _| {
        if all_in {
            for (dir, files) in &under {
                curation::exclude_folder(preset, dir, files);
            }
            for f in &files {
                curation::exclude(preset, f).map_err(|e| e.to_string())?;
            }
            Ok(format!(
                "excluded the selection ({n} {})",
                noun_for(n, "file")
            ))
        } else {
            for (dir, _) in &under {
                curation::include_folder(preset, dir, None);
            }
            for (f, _) in files.iter().zip(&included).filter(|(_, inc)| !**inc) {
                curation::include(preset, f, None).map_err(|e| e.to_string())?;
            }
            Ok(format!(
                "included the selection ({n} {})",
                noun_for(n, "file")
            ))
        }
    })
}

/// Include or exclude one file (Space on a file in the tree, Space in the
/// finder, `x` in the tokens overlay): one undoable step. Excluding parks
/// the file's curation, so including it again in this session brings its
/// view mode, masks and slices back.
pub fn toggle_file(state: &mut State, path: &str) -> Vec<Effect> {
    let included = state.is_included(path);
    if !included {
        // The user's own choice in this checkout: a project preset's
        // entry to this file, if it is a credential or ignored file, is
        // read from now on (`Project::allow_own`). Recorded before the
        // edit, whose composition reads the consent.
        if let Err(e) = state.project.allow_own(&[path.to_string()]) {
            state.say(Level::Warn, format!("{e}: {path} stays left out"));
        }
    }
    let parked = state.parked.get(path).cloned();
    let mut dropped = None;
    let effects = edit(state, |preset, _| {
        if included {
            dropped = curation::exclude(preset, path).map_err(|e| e.to_string())?;
            Ok(format!("excluded {path}"))
        } else {
            let restored = parked.is_some();
            match parked {
                Some(item) => curation::restore(preset, item),
                None => curation::include(preset, path, None).map(drop),
            }
            .map_err(|e| e.to_string())?;
            Ok(format!(
                "included {path}{}",
                if restored {
                    " (with its earlier curation)"
                } else {
                    ""
                }
            ))
        }
    });
    match dropped {
        Some(item) if item != FileItem::new(path) => {
            state.parked.insert(path.to_string(), item);
        }
        _ if !included => {
            state.parked.remove(path);
        }
        _ => {}
    }
    effects
}

/// `m` / `M`: the next or previous view mode of the current file.
pub fn cycle_mode(state: &mut State, forward: bool) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        state.say(
            Level::Info,
            "view modes apply to files (use v and a batch key for folders)",
        );
        return Vec::new();
    };
    cycle_mode_of(state, &path, forward)
}

/// The next or previous view mode of `path` (`m` / `M` in the tree and
/// in the tokens overlay): one `core::curation` edit, one undo step. A
/// file without a grammar skips skeleton, outline and masked, and the
/// message says why.
pub fn cycle_mode_of(state: &mut State, path: &str, forward: bool) -> Vec<Effect> {
    let grammar = state.symbols.has_grammar(path);
    edit(state, |preset, _| {
        let item =
            curation::cycle_mode(preset, path, forward, grammar).map_err(|e| e.to_string())?;
        let why = if grammar {
            String::new()
        } else {
            format!(" ({})", views::no_grammar(path))
        };
        if item.view_mode == ViewMode::Custom && item.custom_slices.is_empty() {
            Ok(format!(
                "{path}: custom — no slices yet, so its summary shows (r in the preview makes one){why}"
            ))
        } else if item.view_mode == ViewMode::Masked {
            Ok(format!(
                "{path}: masked (symbols without a mask of their own: {}){why}",
                item.mask_default
            ))
        } else {
            Ok(format!("{path}: {}{why}", item.view_mode))
        }
    })
}

/// `f` / `a`: toggle force_full or auto_aggregate of the current file.
pub fn toggle_flag(state: &mut State, force_full: bool) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        return Vec::new();
    };
    edit(state, |preset, _| {
        let item = curation::effective_item(preset, &path).unwrap_or_else(|| FileItem::new(&path));
        if force_full {
            let on = !item.force_full;
            curation::set_force_full(preset, &path, on).map_err(|e| e.to_string())?;
            Ok(format!("{path}: force_full {}", on_off(on)))
        } else {
            let on = !item.auto_aggregate;
            curation::set_auto_aggregate(preset, &path, on).map_err(|e| e.to_string())?;
            Ok(format!(
                "{path}: {}",
                if on {
                    "rendered"
                } else {
                    "listed only (auto_aggregate off)"
                }
            ))
        }
    })
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// The files a batch key acts on: every file in the `v` selection (files
/// under selected folders included), else the row under the cursor.
fn batch_targets(state: &State) -> Vec<String> {
    let (from, to) = state
        .tree
        .selection()
        .unwrap_or((state.tree.cursor, state.tree.cursor));
    let mut out = Vec::new();
    for row in state.tree.rows.iter().skip(from).take(to + 1 - from) {
        if row.is_dir {
            // A folder in the selection stands for its included files (all
            // of them when none is included yet).
            let files = state.tree.files.files_under(&row.path);
            let included: Vec<String> = files
                .iter()
                .filter(|f| state.is_included(f))
                .cloned()
                .collect();
            out.extend(if included.is_empty() { files } else { included });
        } else {
            out.push(row.path.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// What a batch key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Batch {
    Mode(ViewMode),
    MaskedDef,
    Remove,
}

/// `F A S D X` on the selection.
pub fn batch(state: &mut State, op: Batch) -> Vec<Effect> {
    let targets = batch_targets(state);
    state.tree.range_anchor = None;
    if targets.is_empty() {
        return Vec::new();
    }
    // A file of the selection that is not included is not removed: the
    // count says what went.
    let n = match op {
        Batch::Remove => targets.iter().filter(|p| state.is_included(p)).count(),
        _ => targets.len(),
    };
    edit(state, |preset, _| {
        for path in &targets {
            let done = match op {
                // A file of the selection that is not included stays out.
                Batch::Remove => curation::exclude(preset, path).map(drop).or(Ok(())),
                Batch::Mode(mode) => curation::set_mode(preset, path, mode)
                    .and_then(|()| curation::set_force_full(preset, path, false)),
                Batch::MaskedDef => curation::mask_all_def(preset, path),
            };
            done.map_err(|e: curation::CurationError| e.to_string())?;
        }
        Ok(match op {
            Batch::Remove => format!("removed {n} {}", noun_for(n, "file")),
            Batch::Mode(mode) => format!("{n} {}: {mode}", noun_for(n, "file")),
            Batch::MaskedDef => format!("{n} {}: masked, every symbol def", noun_for(n, "file")),
        })
    })
}

/// `d s g x` / Space in the symbols pane.
pub fn mask(state: &mut State, symbol: &str, to: Option<MaskState>) -> Vec<Effect> {
    let Some(path) = state.symbols.view.as_ref().map(|s| s.path.clone()) else {
        return Vec::new();
    };
    let tree = state.symbols.view.as_ref().and_then(|s| s.tree.clone());
    let current = tree.as_ref().and_then(|tree| {
        state
            .item_for(&path)
            .map(|item| curation::mask_state(&item, tree, symbol))
    });
    let included = state.is_included(&path);
    // Its entry under the path it had before goes (`Symbol::legacy`).
    let old = tree
        .as_ref()
        .and_then(|tree| tree.find(symbol)?.legacy.clone());
    edit(state, |preset, _| {
        let state = to.unwrap_or_else(|| current.unwrap_or_default().next());
        let whole = curation::set_mask_replacing(preset, &path, symbol, old.as_deref(), state)
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "{path}: {symbol} = {state}{}",
            mask_note(included, whole)
        ))
    })
}

/// What a symbol's mask did to its file besides that symbol: included
/// it (it was not), and switched it from full to the masked view with
/// every other symbol as it was.
pub fn mask_note(included: bool, whole: bool) -> &'static str {
    match (included, whole) {
        (false, _) => " (the file is now included: masked, its other symbols in full)",
        (true, true) => " (masked view; the other symbols stay in full)",
        (true, false) => "",
    }
}

/// `=` in the symbols pane: the file's default mask steps to the next
/// state (the file switches to `masked`).
pub fn cycle_mask_default(state: &mut State) -> Vec<Effect> {
    let Some(path) = state.symbols.view.as_ref().map(|s| s.path.clone()) else {
        return Vec::new();
    };
    let Some(item) = state.item_for(&path) else {
        state.say(Level::Warn, "include the file first (Space in the tree)");
        return Vec::new();
    };
    let next = if item.view_mode == ViewMode::Masked {
        item.mask_default.next()
    } else {
        // Entering masked starts from sig: the next step shows it.
        MaskState::Sig
    };
    edit(state, |preset, _| {
        curation::set_mode(preset, &path, ViewMode::Masked).map_err(|e| e.to_string())?;
        curation::set_mask_default(preset, &path, next).map_err(|e| e.to_string())?;
        Ok(format!(
            "{path}: symbols without their own mask are {next} (masked view)"
        ))
    })
}

/// Enter on the slice-tag prompt: add the slice to the file.
pub fn add_slice(
    state: &mut State,
    path: String,
    start: usize,
    end: usize,
    tag: String,
) -> Vec<Effect> {
    let text = match &state.preview.raw_text {
        Some((p, lines)) if *p == path => lines.join("\n"),
        _ => {
            state.say(Level::Error, "the file's text is not loaded");
            return Vec::new();
        }
    };
    let Some(mut slice) = anchor::create_slice(&text, start, end) else {
        state.say(
            Level::Error,
            format!("lines {start}-{end} are not in {path}"),
        );
        return Vec::new();
    };
    if !tag.trim().is_empty() {
        slice.tag = Some(tag.trim().to_string());
    }
    edit(state, |preset, _| {
        curation::add_slice(preset, &path, slice).map_err(|e| e.to_string())?;
        Ok(format!(
            "{path}: slice of lines {start}-{end} added (custom view)"
        ))
    })
}
