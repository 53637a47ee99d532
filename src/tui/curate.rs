//! Curation edits on the active preset, called from `update`: include and
//! exclude, view modes, flags, masks, slices and batch operations. Each
//! edit is one undoable step.

use crate::core::anchor;
use crate::core::model::{FileItem, MaskState, Preset, ViewMode};
use crate::core::walk;

use super::event::Effect;
use super::state::{HISTORY_LIMIT, Level, State};
use super::update::recompose;

/// Run `edit` on the active preset as one undoable step. The closure
/// returns the status message, or an error message (nothing changes).
pub fn edit(
    state: &mut State,
    edit: impl FnOnce(&mut Preset, &State) -> Result<String, String>,
) -> Vec<Effect> {
    let before = state.project.file.clone();
    let mut preset = state.preset();
    match edit(&mut preset, state) {
        Ok(message) => {
            *state.project.active_preset_mut() = preset;
            commit(state, before, message)
        }
        Err(message) => {
            state.say(Level::Warn, message);
            Vec::new()
        }
    }
}

/// Record `before` for undo, refresh what derives from the preset, save
/// and recompose.
pub fn commit(
    state: &mut State,
    before: crate::core::model::ProjectFile,
    mut message: String,
) -> Vec<Effect> {
    if state.project.file == before {
        state.say(Level::Info, message);
        return Vec::new();
    }
    state.history.undo.push(before);
    if state.history.undo.len() > HISTORY_LIMIT {
        state.history.undo.remove(0);
    }
    state.history.redo.clear();
    // A pending discovery was packed for the preset as it was.
    if state.discovery.take().is_some() {
        message.push_str(" · discovery proposals dropped (press i again)");
    }
    state.project.refresh_settings();
    state.refresh();
    state.say(Level::Info, message);
    let mut effects = vec![Effect::Save];
    effects.extend(recompose(state));
    effects
}

/// The explicit entry for `path`, created when needed: a copy of the glob
/// entry that includes it (explicit entries win over globs), or a new
/// `full` entry.
pub fn entry_mut<'a>(preset: &'a mut Preset, state: &State, path: &str) -> &'a mut FileItem {
    if let Some(i) = preset.files.iter().position(|f| f.path == path) {
        return &mut preset.files[i];
    }
    let mut item = state.item_for(path).unwrap_or_else(|| FileItem::new(path));
    item.path = path.to_string();
    insert_sorted(preset, item);
    let at = preset
        .files
        .iter()
        .position(|f| f.path == path)
        .unwrap_or(preset.files.len() - 1);
    &mut preset.files[at]
}

/// Add an explicit entry in path order among the explicit entries (new
/// files land next to their neighbours in the output, not at its end).
pub fn insert_sorted(preset: &mut Preset, item: FileItem) {
    let at = preset
        .files
        .iter()
        .position(|f| !walk::is_glob(&f.path) && f.path > item.path)
        .unwrap_or(preset.files.len());
    preset.files.insert(at, item);
}

/// Take `path` out of the preset: drop its explicit entry and, when a
/// glob entry would still pull it in, add it to the preset's `exclude`.
/// The dropped entry is returned so its curation can come back with it.
fn exclude(preset: &mut Preset, path: &str) -> Option<FileItem> {
    let dropped = preset
        .files
        .iter()
        .position(|f| f.path == path)
        .map(|i| preset.files.remove(i));
    if glob_including(preset, path).is_some() && !preset.exclude.iter().any(|e| e == path) {
        preset.exclude.push(path.to_string());
    }
    dropped
}

/// Put `path` into the preset: drop an exclusion naming it exactly, and add
/// an explicit entry unless a glob now includes it. An entry excluded
/// earlier in this session (`parked`) comes back with its curation.
fn include(preset: &mut Preset, path: &str, parked: Option<FileItem>) {
    preset.exclude.retain(|e| e != path);
    if let Some(item) = parked {
        insert_sorted(preset, item);
        return;
    }
    let (resolved, _) = walk::expand_over(
        &preset.files,
        &preset.exclude,
        std::slice::from_ref(&path.to_string()),
    );
    if !resolved.iter().any(|r| r.path == path) {
        insert_sorted(preset, FileItem::new(path));
    }
}

/// Index of a glob entry of `preset` that matches `path`.
fn glob_including(preset: &Preset, path: &str) -> Option<usize> {
    preset.files.iter().position(|f| {
        walk::is_glob(&f.path) && walk::compile_glob(&f.path).is_ok_and(|g| g.is_match(path))
    })
}

/// Space on a file or folder.
pub fn toggle_include(state: &mut State) -> Vec<Effect> {
    let Some(row) = state.current_row().cloned() else {
        return Vec::new();
    };
    if !row.is_dir {
        let included = state.is_included(&row.path);
        let parked = state.parked.get(&row.path).cloned();
        let mut dropped = None;
        let effects = edit(state, |preset, _| {
            if included {
                dropped = exclude(preset, &row.path);
                Ok(format!("excluded {}", row.path))
            } else {
                let restored = parked.is_some();
                include(preset, &row.path, parked);
                Ok(format!(
                    "included {}{}",
                    row.path,
                    if restored {
                        " (with its earlier curation)"
                    } else {
                        ""
                    }
                ))
            }
        });
        match dropped {
            Some(item) if item != FileItem::new(row.path.clone()) => {
                state.parked.insert(row.path.clone(), item);
            }
            _ if !included => {
                state.parked.remove(&row.path);
            }
            _ => {}
        }
        return effects;
    }
    let total = state.files.count_under(&row.path);
    let inside = state.included_under(&row.path);
    let all_in = total > 0 && inside == total;
    let dir = row.path.clone();
    let files = if all_in {
        state.files.files_under(&dir)
    } else {
        Vec::new()
    };
    edit(state, move |preset, _| {
        let prefix = format!("{dir}/");
        let glob = format!("{dir}/**");
        if all_in {
            preset
                .files
                .retain(|f| !f.path.starts_with(&prefix) && f.path != dir);
            preset.exclude.retain(|e| !e.starts_with(&prefix));
            // A broader glob (`**/*.py`) may still reach into the folder.
            let (still, _) = walk::expand_over(&preset.files, &preset.exclude, &files);
            if !still.is_empty() {
                preset.exclude.push(dir.clone());
            }
            Ok(format!("excluded {dir}/ ({total} files)"))
        } else {
            preset
                .exclude
                .retain(|e| *e != dir && !e.starts_with(&prefix));
            if !preset.files.iter().any(|f| f.path == glob) {
                preset.files.push(FileItem::new(glob.clone()));
            }
            Ok(format!("included {glob} ({total} files)"))
        }
    })
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
    edit(state, |preset, st| {
        let item = entry_mut(preset, st, &path);
        item.view_mode = if forward {
            item.view_mode.next()
        } else {
            item.view_mode.prev()
        };
        if item.view_mode == ViewMode::Custom && item.custom_slices.is_empty() {
            Ok(format!(
                "{path}: custom — no slices yet, so its summary shows (r in the preview makes one)"
            ))
        } else {
            Ok(format!("{path}: {}", item.view_mode))
        }
    })
}

/// `f` / `a`: toggle force_full or auto_aggregate of the current file.
pub fn toggle_flag(state: &mut State, force_full: bool) -> Vec<Effect> {
    let Some(path) = state.current_file().map(str::to_string) else {
        return Vec::new();
    };
    edit(state, |preset, st| {
        let item = entry_mut(preset, st, &path);
        if force_full {
            item.force_full = !item.force_full;
            Ok(format!("{path}: force_full {}", on_off(item.force_full)))
        } else {
            item.auto_aggregate = !item.auto_aggregate;
            Ok(format!(
                "{path}: {}",
                if item.auto_aggregate {
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
    let (from, to) = state.selection().unwrap_or((state.cursor, state.cursor));
    let mut out = Vec::new();
    for row in state.rows.iter().skip(from).take(to + 1 - from) {
        if row.is_dir {
            // A folder in the selection stands for its included files (all
            // of them when none is included yet).
            let files = state.files.files_under(&row.path);
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
    state.range_anchor = None;
    if targets.is_empty() {
        return Vec::new();
    }
    let n = targets.len();
    edit(state, |preset, st| {
        for path in &targets {
            match op {
                Batch::Remove => {
                    exclude(preset, path);
                }
                Batch::Mode(mode) => {
                    let item = entry_mut(preset, st, path);
                    item.view_mode = mode;
                    item.force_full = false;
                }
                Batch::MaskedDef => {
                    let item = entry_mut(preset, st, path);
                    item.view_mode = ViewMode::Masked;
                    item.mask_default = MaskState::Def;
                    item.ast_mask.clear();
                }
            }
        }
        Ok(match op {
            Batch::Remove => format!("removed {n} files"),
            Batch::Mode(mode) => format!("{n} files: {mode}"),
            Batch::MaskedDef => format!("{n} files: masked, every symbol def"),
        })
    })
}

/// `d s g x` / Space in the symbols pane.
pub fn mask(state: &mut State, symbol: &str, to: Option<MaskState>) -> Vec<Effect> {
    let Some(path) = state.symbols.as_ref().map(|s| s.path.clone()) else {
        return Vec::new();
    };
    let current = state
        .item_for(&path)
        .map(|item| effective_mask(&item, symbol));
    edit(state, |preset, st| {
        let item = entry_mut(preset, st, &path);
        let state = to.unwrap_or_else(|| current.unwrap_or_default().next());
        item.ast_mask.insert(symbol.to_string(), state);
        item.view_mode = ViewMode::Masked;
        Ok(format!("{path}: {symbol} = {state}"))
    })
}

/// The state a symbol renders in under `item`'s mask: its own, else its
/// nearest named ancestor's, else the default.
pub fn effective_mask(item: &FileItem, symbol: &str) -> MaskState {
    let mut path = symbol;
    loop {
        if let Some(s) = item.ast_mask.get(path) {
            return *s;
        }
        match parent_path(path) {
            Some(p) => path = p,
            None => return item.mask_default,
        }
    }
}

/// `A.b` → `A`, `ns::C::f` → `ns::C`, `f#2` → none.
fn parent_path(path: &str) -> Option<&str> {
    let base = path.split('#').next().unwrap_or(path);
    let dot = base.rfind('.');
    let colons = base.rfind("::");
    match (dot, colons) {
        (Some(d), Some(c)) => Some(&base[..d.max(c)]),
        (Some(d), None) => Some(&base[..d]),
        (None, Some(c)) => Some(&base[..c]),
        (None, None) => None,
    }
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
    edit(state, |preset, st| {
        let item = entry_mut(preset, st, &path);
        item.custom_slices.push(slice);
        item.view_mode = ViewMode::Custom;
        Ok(format!(
            "{path}: slice of lines {start}-{end} added (custom view)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_of_symbol_paths() {
        assert_eq!(parent_path("App.run"), Some("App"));
        assert_eq!(parent_path("ns::C::f#2"), Some("ns::C"));
        assert_eq!(parent_path("main"), None);
        let mut item = FileItem::new("a.py");
        item.mask_default = MaskState::Sig;
        item.ast_mask.insert("App".into(), MaskState::Hide);
        assert_eq!(effective_mask(&item, "App.run"), MaskState::Hide);
        assert_eq!(effective_mask(&item, "main"), MaskState::Sig);
    }
}
