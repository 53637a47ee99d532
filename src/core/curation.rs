//! Curation: every edit of a preset, once, as pure functions over a
//! [`Preset`] (see docs/ARCHITECTURE.md, "core::curation"). The CLI (`cli/edit.rs`) and
//! the TUI (`tui/curate.rs`, `tui/discover.rs`) only decide *which* edit to
//! make; the edit itself — which entry it lands on, where a new entry is
//! inserted, how a glob's entry is copied, when an exclusion is recorded —
//! lives here, so both front ends write the same `ctxcurate.toml`.
//!
//! Three rules hold for every edit:
//!
//! - **Copy on write.** Editing a file that only a glob entry includes
//!   creates an explicit entry that starts as a copy of the glob's entry
//!   (mode, masks, flags), so the edit changes one thing only.
//! - **One insertion order.** A new explicit entry goes before the first
//!   explicit entry whose path sorts after it (new files land next to their
//!   neighbours); a new glob entry goes at the end.
//! - **No stray entries.** An edit that leaves an explicit entry equal to
//!   what its glob would give the file anyway removes the entry: toggling
//!   `force_full` twice leaves the file as it was.
//!
//! Nothing here reads the disk: the front ends check that a file exists,
//! read a slice's text or list a folder's files, then call in.
//! Preset-level operations (apply, save as, rename, delete) are the
//! methods of `core::project::Project`, which both front ends call.

use thiserror::Error;

use crate::core::model::{FileItem, MaskState, Preset, Slice, ViewMode};
use crate::core::syntax::{self, Symbol, SymbolTree};
use crate::core::walk;

pub mod discussion;

/// Why an edit was refused (the preset is unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CurationError {
    #[error("{0} is never included (history files and the cache directory are excluded)")]
    Blacklisted(String),
    #[error("{0} is not in the preset")]
    NotInPreset(String),
    #[error("no slice {index} in {path} ({})", crate::text::words::plural(*count, "slice"))]
    NoSuchSlice {
        path: String,
        index: usize,
        count: usize,
    },
    #[error("{0}: not a path inside the project (absolute, or with . or ..)")]
    OutsideRoot(String),
    #[error("{0}: not an image (png, jpg, jpeg, gif, webp, svg)")]
    NotAnImage(String),
    #[error("role {0:?} must be one plain word (User, Assistant, Reviewer, …)")]
    BadRole(String),
    #[error("the message is empty")]
    EmptyMessage,
    #[error(
        "no messages since the last compaction point: nothing to compact (a summary may start a discussion)"
    )]
    NothingToCompact,
}

/// What [`include`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Included {
    /// A new explicit entry was added.
    Added,
    /// The path had an explicit entry already (its mode may have changed).
    AlreadyListed,
    /// An exclusion named the path: it is gone, and a glob entry includes
    /// the path again.
    ByGlob,
}

/// The entry `path` renders with when it has no explicit entry of its own:
/// a copy of the first glob entry that includes it, with the concrete path
/// — `None` when no glob includes it or an exclusion keeps it out.
pub fn inherited(preset: &Preset, path: &str) -> Option<FileItem> {
    // A glob entry stands for itself: no other glob "includes" it.
    if walk::is_glob(path) {
        return None;
    }
    let others: Vec<FileItem> = preset
        .files
        .iter()
        .filter(|f| f.path != path)
        .cloned()
        .collect();
    let (resolved, _) = walk::expand_over(&others, &preset.exclude, &[path.to_string()]);
    resolved
        .into_iter()
        .find(|r| r.path == path)
        .map(walk::ResolvedItem::into_item)
}

/// The entry `path` renders with: its explicit entry, else [`inherited`].
pub fn effective_item(preset: &Preset, path: &str) -> Option<FileItem> {
    preset
        .item(path)
        .cloned()
        .or_else(|| inherited(preset, path))
}

/// Insert `item` where the one insertion order puts it: an explicit entry
/// before the first explicit entry whose path sorts after it, a glob at
/// the end. Returns where it went.
pub fn insert_entry(preset: &mut Preset, item: FileItem) -> usize {
    let at = if walk::is_glob(&item.path) {
        preset.files.len()
    } else {
        preset
            .files
            .iter()
            .position(|f| !walk::is_glob(&f.path) && f.path > item.path)
            .unwrap_or(preset.files.len())
    };
    preset.files.insert(at, item);
    at
}

/// Run `change` on the explicit entry of `path` (created by copy on write
/// when needed), then drop the entry if it now equals what `path` inherits.
pub fn edit_entry<R>(
    preset: &mut Preset,
    path: &str,
    change: impl FnOnce(&mut FileItem) -> R,
) -> Result<R, CurationError> {
    if walk::is_blacklisted(path) {
        return Err(CurationError::Blacklisted(path.to_string()));
    }
    let at = match preset.files.iter().position(|f| f.path == path) {
        Some(at) => at,
        None => {
            let mut item = inherited(preset, path).unwrap_or_else(|| FileItem::new(path));
            item.path = path.to_string();
            insert_entry(preset, item)
        }
    };
    let result = change(&mut preset.files[at]);
    tidy(preset, path);
    Ok(result)
}

/// Drop the explicit entry of `path` when its glob gives the same.
fn tidy(preset: &mut Preset, path: &str) {
    let Some(at) = preset.files.iter().position(|f| f.path == path) else {
        return;
    };
    if inherited(preset, path).as_ref() == Some(&preset.files[at]) {
        preset.files.remove(at);
    }
}

/// Put `path` (a file or a glob) into the preset: drop an exclusion naming
/// it exactly; if a glob entry then includes it, that is all (with `mode`,
/// the file gets its own entry in that mode). Otherwise `path` gets its own
/// entry — a copy of the glob entry that includes it already (the CLI's
/// `add` of a globbed file lists it by name), else a new `full` one — in
/// `mode` if given.
pub fn include(
    preset: &mut Preset,
    path: &str,
    mode: Option<ViewMode>,
) -> Result<Included, CurationError> {
    if walk::is_blacklisted(path) {
        return Err(CurationError::Blacklisted(path.to_string()));
    }
    let excluded = preset.exclude.iter().any(|e| e == path);
    preset.exclude.retain(|e| e != path);
    let how = if preset.item(path).is_some() {
        Included::AlreadyListed
    } else if excluded && inherited(preset, path).is_some() {
        Included::ByGlob
    } else {
        let mut item = inherited(preset, path).unwrap_or_else(|| FileItem::new(path));
        item.path = path.to_string();
        if let Some(mode) = mode {
            switch_mode(&mut item, mode);
        }
        insert_entry(preset, item);
        return Ok(Included::Added);
    };
    if let Some(mode) = mode {
        edit_entry(preset, path, |item| switch_mode(item, mode))?;
    }
    Ok(how)
}

/// Bring back an entry taken out earlier (the TUI keeps the curation of a
/// file excluded with Space, so including it again restores it).
pub fn restore(preset: &mut Preset, item: FileItem) -> Result<(), CurationError> {
    let path = item.path.clone();
    if walk::is_blacklisted(&path) {
        return Err(CurationError::Blacklisted(path));
    }
    preset.exclude.retain(|e| *e != path);
    preset.files.retain(|f| f.path != path);
    insert_entry(preset, item);
    tidy(preset, &path);
    Ok(())
}

/// Take the file `path` out of the preset: drop its explicit entry and,
/// when a glob entry would still include it, record an exclusion. The
/// dropped entry is returned; a path the preset does not include at all is
/// an error.
pub fn exclude(preset: &mut Preset, path: &str) -> Result<Option<FileItem>, CurationError> {
    let dropped = preset
        .files
        .iter()
        .position(|f| f.path == path)
        .map(|i| preset.files.remove(i));
    let by_glob = !walk::is_glob(path) && inherited(preset, path).is_some();
    if by_glob {
        if !preset.exclude.iter().any(|e| e == path) {
            preset.exclude.push(path.to_string());
        }
    } else if dropped.is_none() {
        return Err(CurationError::NotInPreset(path.to_string()));
    }
    Ok(dropped)
}

/// Include the folder `dir`: its `dir/**` glob entry (added at the end
/// unless listed), and no exclusion under it any more. With `mode`, the
/// glob entry renders in that mode. The root (`""`) is `**`.
pub fn include_folder(preset: &mut Preset, dir: &str, mode: Option<ViewMode>) -> Included {
    let glob = folder_glob(dir);
    if dir.is_empty() {
        preset.exclude.clear();
    } else {
        let prefix = format!("{dir}/");
        preset
            .exclude
            .retain(|e| *e != dir && !e.starts_with(&prefix));
    }
    match preset.item_mut(&glob) {
        Some(item) => {
            if let Some(mode) = mode {
                switch_mode(item, mode);
            }
            Included::AlreadyListed
        }
        None => {
            let mut item = FileItem::new(glob);
            switch_mode(&mut item, mode.unwrap_or(ViewMode::Full));
            insert_entry(preset, item);
            Included::Added
        }
    }
}

/// The glob entry that includes the folder `dir`: `dir/**`, or `**` for
/// the root (`""`).
pub fn folder_glob(dir: &str) -> String {
    if dir.is_empty() {
        "**".to_string()
    } else {
        format!("{dir}/**")
    }
}

/// Take the folder `dir` out: every entry and exclusion under it goes, and
/// when a broader glob (`**/*.py`) still reaches one of `files` (the
/// folder's files, sorted) the folder itself is excluded.
pub fn exclude_folder(preset: &mut Preset, dir: &str, files: &[String]) {
    let prefix = format!("{dir}/");
    preset
        .files
        .retain(|f| !f.path.starts_with(&prefix) && f.path != dir);
    preset.exclude.retain(|e| !e.starts_with(&prefix));
    let (still, _) = walk::expand_over(&preset.files, &preset.exclude, files);
    let reached = still.iter().any(|r| r.path.starts_with(&prefix));
    if reached && !preset.exclude.iter().any(|e| e == dir) {
        preset.exclude.push(dir.to_string());
    }
}

/// Set the view mode of `path`.
pub fn set_mode(preset: &mut Preset, path: &str, mode: ViewMode) -> Result<(), CurationError> {
    edit_entry(preset, path, |item| switch_mode(item, mode))
}

/// Switch `item` to `mode`: the one rule for every way a file gets a mode
/// (`set --mode`, `add --mode`, `m` in the TUI, a folder's mode). A file
/// that enters `masked` with no mask of its own starts from `sig` (signatures and docstrings: the API), so the
/// bodies the user picks with `d` are the ones shown in full; leaving
/// `masked` still untouched takes that default back, so cycling through
/// the modes leaves no trace in the file.
fn switch_mode(item: &mut FileItem, mode: ViewMode) {
    let entering = mode == ViewMode::Masked && item.view_mode != ViewMode::Masked;
    let leaving = mode != ViewMode::Masked && item.view_mode == ViewMode::Masked;
    if item.ast_mask.is_empty() {
        if entering && item.mask_default == MaskState::Def {
            item.mask_default = MaskState::Sig;
        } else if leaving && item.mask_default == MaskState::Sig {
            item.mask_default = MaskState::Def;
        }
    }
    item.view_mode = mode;
}

/// Step the view mode of `path` forward or back; the new mode. A file
/// without a grammar (`has_grammar` false) skips skeleton, outline and
/// masked: on it they would only repeat its summary
/// ([`ViewMode::needs_grammar`]).
pub fn cycle_mode(
    preset: &mut Preset,
    path: &str,
    forward: bool,
    has_grammar: bool,
) -> Result<FileItem, CurationError> {
    edit_entry(preset, path, |item| {
        let step = |m: ViewMode| if forward { m.next() } else { m.prev() };
        let mut mode = step(item.view_mode);
        // Bounded: full and none never need a grammar.
        while !has_grammar && mode.needs_grammar() {
            mode = step(mode);
        }
        switch_mode(item, mode);
        item.clone()
    })
}

/// Set or clear `force_full` of `path`.
pub fn set_force_full(preset: &mut Preset, path: &str, on: bool) -> Result<(), CurationError> {
    edit_entry(preset, path, |item| item.force_full = on)
}

/// Set `auto_aggregate` of `path` (`false`: listed, not rendered).
pub fn set_auto_aggregate(preset: &mut Preset, path: &str, on: bool) -> Result<(), CurationError> {
    edit_entry(preset, path, |item| item.auto_aggregate = on)
}

/// Set the state of symbols of `path` not named in its mask.
pub fn set_mask_default(
    preset: &mut Preset,
    path: &str,
    state: MaskState,
) -> Result<(), CurationError> {
    edit_entry(preset, path, |item| item.mask_default = state)
}

/// Mask `symbol` of `path` (the file switches to `masked`). The first
/// mask on a file shown in full (or not included yet) keeps what was
/// shown: every other symbol stays `def` and only `symbol` changes, so
/// hiding one function takes about that function off the count. From
/// another view the file starts from `sig`, as [`switch_mode`] says.
/// Whether the file was shown in full.
pub fn set_mask(
    preset: &mut Preset,
    path: &str,
    symbol: &str,
    state: MaskState,
) -> Result<bool, CurationError> {
    set_mask_replacing(preset, path, symbol, None, state)
}

/// [`set_mask`], the entry under `old` removed: the path the symbol had
/// before ([`Symbol::legacy`]), which would still apply.
pub fn set_mask_replacing(
    preset: &mut Preset,
    path: &str,
    symbol: &str,
    old: Option<&str>,
    state: MaskState,
) -> Result<bool, CurationError> {
    edit_entry(preset, path, |item| {
        if let Some(old) = old {
            item.ast_mask.remove(old);
        }
        let whole = item.view_mode == ViewMode::Full;
        if whole {
            item.view_mode = ViewMode::Masked;
            item.mask_default = MaskState::Def;
            item.ast_mask.clear();
        } else {
            switch_mode(item, ViewMode::Masked);
        }
        item.ast_mask.insert(symbol.to_string(), state);
        whole
    })
}

/// Every symbol of `path` in `def` (the file switches to `masked`).
pub fn mask_all_def(preset: &mut Preset, path: &str) -> Result<(), CurationError> {
    edit_entry(preset, path, |item| {
        item.view_mode = ViewMode::Masked;
        item.mask_default = MaskState::Def;
        item.ast_mask.clear();
    })
}

/// The state each symbol of `symbols` renders in under `item`, depth-first
/// (the order of the symbols pane): the rule of the masked view
/// (`core::syntax`'s masker) — a symbol's own mask entry, else its
/// parent's state in the symbol tree, else the file's default. The tree,
/// not the path's spelling, says who the parent is: a C++ out-of-line
/// definition `ns::C::f#def` is a top-level symbol and does not inherit
/// from `ns::C`.
pub fn mask_states(item: &FileItem, symbols: &[Symbol]) -> Vec<MaskState> {
    fn walk(item: &FileItem, symbols: &[Symbol], inherited: MaskState, out: &mut Vec<MaskState>) {
        for s in symbols {
            let state = syntax::mask_state_of(&item.ast_mask, s, inherited);
            out.push(state);
            walk(item, &s.children, state, out);
        }
    }
    let mut out = Vec::new();
    walk(item, symbols, item.mask_default, &mut out);
    out
}

/// The state `symbol` renders in under `item` (the rule of
/// [`mask_states`]); a symbol not in the tree has its own entry or the
/// default.
pub fn mask_state(item: &FileItem, tree: &SymbolTree, symbol: &str) -> MaskState {
    let mut flat = Vec::new();
    fn paths<'a>(symbols: &'a [Symbol], out: &mut Vec<&'a str>) {
        for s in symbols {
            out.push(s.path.as_str());
            paths(&s.children, out);
        }
    }
    paths(&tree.symbols, &mut flat);
    match flat.iter().position(|p| *p == symbol) {
        Some(i) => mask_states(item, &tree.symbols)[i],
        None => item
            .ast_mask
            .get(symbol)
            .copied()
            .unwrap_or(item.mask_default),
    }
}

/// Add `slice` to `path` (the file switches to `custom`).
pub fn add_slice(preset: &mut Preset, path: &str, slice: Slice) -> Result<(), CurationError> {
    edit_entry(preset, path, |item| {
        item.custom_slices.push(slice);
        item.view_mode = ViewMode::Custom;
    })
}

/// Remove the slice at `index` (0-based) of `path`; the removed slice.
pub fn remove_slice(preset: &mut Preset, path: &str, index: usize) -> Result<Slice, CurationError> {
    let count = preset.item(path).map_or(0, |i| i.custom_slices.len());
    if index >= count {
        return Err(CurationError::NoSuchSlice {
            path: path.to_string(),
            index,
            count,
        });
    }
    edit_entry(preset, path, |item| item.custom_slices.remove(index))
}

/// Mark (`true`) or unmark `path` as a target; the targets stay sorted.
pub fn set_target(preset: &mut Preset, path: &str, on: bool) {
    preset.targets.retain(|t| t != path);
    if on {
        preset.targets.push(path.to_string());
        preset.targets.sort();
    }
}

/// Whether `path` is one of the preset's targets.
pub fn is_target(preset: &Preset, path: &str) -> bool {
    preset.targets.iter().any(|t| t == path)
}

/// Keep what a discovery packed, so the preset composes to it: every
/// `proposed` file the preset does not include yet, in its packed mode;
/// the preset's own files as the pack left them (`changed`: reduced to a
/// mode, or `None`: listed only); and the pack's repo map size as the
/// preset's `repo_map` (0: the pack had no map).
pub fn accept_pack(
    preset: &mut Preset,
    proposed: &[(String, ViewMode)],
    changed: &[(String, Option<ViewMode>)],
    map_tokens: usize,
) -> Result<(), CurationError> {
    for (path, mode) in proposed {
        if effective_item(preset, path).is_none() {
            include(preset, path, Some(*mode))?;
        }
    }
    for (path, mode) in changed {
        edit_entry(preset, path, |item| {
            item.force_full = false;
            match mode {
                Some(mode) => {
                    item.view_mode = *mode;
                    item.auto_aggregate = true;
                }
                None => item.auto_aggregate = false,
            }
        })?;
    }
    preset.repo_map = map_tokens;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a grammar the cycle skips skeleton, outline and masked both
    /// ways, from any mode (one set by hand included); with one it visits
    /// every mode.
    #[test]
    fn the_cycle_skips_the_modes_a_file_without_a_grammar_lacks() {
        let mut preset = Preset::default();
        include(&mut preset, "a.yaml", None).expect("include");
        fn walk(preset: &mut Preset, forward: bool, grammar: bool) -> ViewMode {
            let item = cycle_mode(preset, "a.yaml", forward, grammar).expect("cycle");
            item.view_mode
        }
        let ahead: Vec<ViewMode> = (0..4).map(|_| walk(&mut preset, true, false)).collect();
        assert_eq!(
            ahead,
            [
                ViewMode::Summary,
                ViewMode::Custom,
                ViewMode::None,
                ViewMode::Full
            ]
        );
        let back: Vec<ViewMode> = (0..4).map(|_| walk(&mut preset, false, false)).collect();
        assert_eq!(
            back,
            [
                ViewMode::None,
                ViewMode::Custom,
                ViewMode::Summary,
                ViewMode::Full
            ]
        );
        let all: Vec<ViewMode> = (0..7).map(|_| walk(&mut preset, true, true)).collect();
        assert_eq!(
            all,
            [
                ViewMode::Summary,
                ViewMode::Skeleton,
                ViewMode::Outline,
                ViewMode::Masked,
                ViewMode::Custom,
                ViewMode::None,
                ViewMode::Full
            ]
        );
        set_mode(&mut preset, "a.yaml", ViewMode::Skeleton).expect("mode");
        assert_eq!(walk(&mut preset, true, false), ViewMode::Custom);
    }

    /// Masked mode starts from `sig` (the API); batch `D` keeps `def`;
    /// cycling through `masked` untouched leaves no trace; a file with a
    /// mask of its own keeps its default.
    #[test]
    fn masked_mode_starts_from_signatures() {
        let mut preset = Preset::default();
        include(&mut preset, "a.py", None).expect("include");
        set_mode(&mut preset, "a.py", ViewMode::Masked).expect("mode");
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(
            (item.view_mode, item.mask_default),
            (ViewMode::Masked, MaskState::Sig)
        );
        set_mode(&mut preset, "a.py", ViewMode::Skeleton).expect("mode");
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(item.mask_default, MaskState::Def, "no trace once it leaves");
        // `d` on one symbol: that body in full, the rest as signatures.
        set_mask(&mut preset, "a.py", "f", MaskState::Def).expect("mask");
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(item.mask_default, MaskState::Sig);
        assert_eq!(item.ast_mask.get("f"), Some(&MaskState::Def));
        set_mode(&mut preset, "a.py", ViewMode::Full).expect("mode");
        set_mode(&mut preset, "a.py", ViewMode::Masked).expect("mode");
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(item.mask_default, MaskState::Sig, "its own mask kept");
        mask_all_def(&mut preset, "a.py").expect("batch D");
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(
            item.mask_default,
            MaskState::Def,
            "batch D: every symbol def"
        );
    }

    /// The first mask on a file shown in full changes only the symbol it
    /// names: the rest stays `def`, also for a file not included yet
    /// and for a stale mask left from an earlier masked view.
    #[test]
    fn a_first_mask_on_a_full_file_keeps_the_rest_as_shown() {
        let mut preset = Preset::default();
        include(&mut preset, "a.py", None).expect("include");
        let whole = set_mask(&mut preset, "a.py", "f", MaskState::Hide).expect("mask");
        assert!(whole);
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(
            (item.view_mode, item.mask_default),
            (ViewMode::Masked, MaskState::Def)
        );
        assert_eq!(
            item.ast_mask.into_iter().collect::<Vec<_>>(),
            [("f".to_string(), MaskState::Hide)]
        );
        // Back to full with a mask of its own, then a mask again: only
        // the symbol named differs from full.
        set_mask(&mut preset, "a.py", "g", MaskState::Sig).expect("mask");
        set_mode(&mut preset, "a.py", ViewMode::Full).expect("mode");
        assert!(set_mask(&mut preset, "a.py", "h", MaskState::Hide).expect("mask"));
        let item = preset.item("a.py").expect("entry").clone();
        assert_eq!(item.mask_default, MaskState::Def);
        assert_eq!(item.ast_mask.len(), 1, "{:?}", item.ast_mask);
        // A file not included comes in the same way.
        assert!(set_mask(&mut preset, "b.py", "k", MaskState::Sig).expect("mask"));
        assert_eq!(
            preset.item("b.py").expect("entry").mask_default,
            MaskState::Def
        );
        // Already masked: nothing else changes.
        assert!(!set_mask(&mut preset, "a.py", "f", MaskState::Sig).expect("mask"));
        assert_eq!(preset.item("a.py").expect("entry").ast_mask.len(), 2);
    }

    fn globbed() -> Preset {
        let mut glob = FileItem::new("src/**");
        glob.view_mode = ViewMode::Skeleton;
        glob.ast_mask.insert("App".into(), MaskState::Hide);
        Preset {
            files: vec![FileItem::new("README.md"), glob],
            ..Preset::default()
        }
    }

    #[test]
    fn force_full_on_a_globbed_file_copies_the_glob_and_twice_leaves_nothing() {
        let mut p = globbed();
        set_force_full(&mut p, "src/a.py", true).unwrap();
        let item = p.item("src/a.py").expect("explicit entry");
        assert_eq!(item.view_mode, ViewMode::Skeleton);
        assert_eq!(item.ast_mask.get("App"), Some(&MaskState::Hide));
        assert!(item.force_full);
        // After every explicit entry that sorts before it (globs do not count).
        assert_eq!(p.files[2].path, "src/a.py");
        set_force_full(&mut p, "src/a.py", false).unwrap();
        assert_eq!(p, globbed());
    }

    #[test]
    fn new_entries_are_sorted_among_explicit_ones_and_globs_go_last() {
        let mut p = Preset::default();
        for path in ["b.py", "docs/**", "a.py", "c.py"] {
            include(&mut p, path, None).unwrap();
        }
        let paths: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.py", "b.py", "docs/**", "c.py"]);
    }

    #[test]
    fn exclude_and_include_by_glob() {
        let mut p = globbed();
        assert_eq!(exclude(&mut p, "src/a.py").unwrap(), None);
        assert_eq!(p.exclude, ["src/a.py"]);
        assert_eq!(include(&mut p, "src/a.py", None).unwrap(), Included::ByGlob);
        assert_eq!(p, globbed());
        // Included already: listed by name, as a copy of the glob's entry.
        assert_eq!(include(&mut p, "src/a.py", None).unwrap(), Included::Added);
        assert_eq!(p.item("src/a.py").unwrap().view_mode, ViewMode::Skeleton);
        exclude(&mut p, "src/a.py").unwrap();
        include(&mut p, "src/a.py", None).unwrap();
        assert_eq!(
            exclude(&mut p, "other.py"),
            Err(CurationError::NotInPreset("other.py".into()))
        );
        assert!(matches!(
            include(&mut p, ".ctxcurate/cache/x", None),
            Err(CurationError::Blacklisted(_))
        ));
    }

    #[test]
    fn include_with_a_mode_on_a_globbed_file_copies_the_glob() {
        let mut p = globbed();
        include(&mut p, "src/a.py", Some(ViewMode::Outline)).unwrap();
        let item = p.item("src/a.py").unwrap();
        assert_eq!(item.view_mode, ViewMode::Outline);
        assert_eq!(item.ast_mask.len(), 1);
    }

    #[test]
    fn a_folder_is_excluded_only_when_a_broader_glob_still_reaches_it() {
        let files = ["lib/a.py".to_string(), "lib/b.py".to_string()];
        let mut p = globbed();
        include_folder(&mut p, "lib", None);
        exclude_folder(&mut p, "lib", &files);
        // README.md (an explicit entry elsewhere) does not count.
        assert_eq!(p, globbed());
        p.files.push(FileItem::new("**/*.py"));
        exclude_folder(&mut p, "lib", &files);
        assert_eq!(p.exclude, ["lib"]);
        include_folder(&mut p, "lib", None);
        assert!(p.exclude.is_empty());
    }

    #[test]
    fn the_root_folder_is_every_file() {
        let mut p = globbed();
        p.exclude = vec!["lib".to_string(), "src/a.py".to_string()];
        assert_eq!(include_folder(&mut p, "", None), Included::Added);
        assert_eq!(p.files.last().map(|f| f.path.as_str()), Some("**"));
        assert!(p.exclude.is_empty());
        assert_eq!(include_folder(&mut p, "", None), Included::AlreadyListed);
    }

    #[test]
    fn mask_inheritance_follows_the_symbol_tree() {
        let source = "namespace ns {\nstruct C {\n  void f();\n  void g();\n};\n}\nvoid ns::C::f() {\n  int x = 1;\n}\n";
        let tree = crate::core::syntax::parse(crate::core::syntax::Lang::Cpp, source);
        let mut item = FileItem::new("a.cpp");
        item.mask_default = MaskState::Sig;
        item.ast_mask.insert("ns::C".into(), MaskState::Hide);
        item.ast_mask.insert("ns::C::g".into(), MaskState::Def);
        assert_eq!(mask_state(&item, &tree, "ns"), MaskState::Sig);
        assert_eq!(mask_state(&item, &tree, "ns::C::f"), MaskState::Hide);
        assert_eq!(mask_state(&item, &tree, "ns::C::g"), MaskState::Def);
        // Out of line: a top-level symbol, as the masked view renders it.
        assert_eq!(mask_state(&item, &tree, "ns::C::f#def"), MaskState::Sig);
        assert_eq!(mask_states(&item, &tree.symbols).len(), 5);
        assert_eq!(mask_state(&item, &tree, "gone"), MaskState::Sig);
    }

    #[test]
    fn slices_and_targets() {
        let mut p = Preset::default();
        let slice = Slice {
            start_line: 1,
            end_line: 2,
            ..Slice::default()
        };
        add_slice(&mut p, "a.py", slice.clone()).unwrap();
        assert_eq!(p.files[0].view_mode, ViewMode::Custom);
        assert!(remove_slice(&mut p, "a.py", 3).is_err());
        assert_eq!(remove_slice(&mut p, "a.py", 0).unwrap(), slice);
        set_target(&mut p, "b.py", true);
        set_target(&mut p, "a.py", true);
        assert_eq!(p.targets, ["a.py", "b.py"]);
        set_target(&mut p, "b.py", false);
        assert!(!is_target(&p, "b.py"));
    }
}
