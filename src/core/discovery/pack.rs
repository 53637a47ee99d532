//! Packing a token budget (docs/ARCHITECTURE.md, "Discovery"): from a few target files, discover
//! what else the model needs through the import graph, and fill the budget
//! in priority order — the targets at the user's own view (their preset
//! entry: masked, slices, forced full; else in full), their direct imports
//! in full, transitive imports as skeletons by rank, the files that import
//! a target (callers, tests), the repo map, then the preset's own entries.
//! The targets and their direct imports are fitted together (`fit`): every
//! import is reduced (full → skeleton → outline, the largest first) before
//! the lowest ranked is dropped, and a target is reduced only when no
//! import is left to give room. Any later item that does not fit is
//! reduced before it is dropped — every candidate is tried, in rank order.
//! What was dropped is named in a `## Left out` note after the map
//! (`left_out`), counted in the budget; the exact count of the finished
//! text is checked last, so the result never exceeds the budget. A file
//! the preset excludes, or a credential file, is never a candidate nor in
//! the map, however it is reached (`exclusions`). Targets that do not fit
//! are reported apart ([`Packed::missing_targets`]): the caller decides
//! whether that is an error.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::core::compose::{self, ComposeOptions, Composition, RenderedFile, Sections};
use crate::core::discovery::exclusions::{Excluded, LeftOut};
use crate::core::discovery::graph::{ImportGraph, Ranked};
use crate::core::discovery::relevance::Relevance;
use crate::core::discovery::repo_map::{self, RepoMap};
use crate::core::model::{Format, MaskState, Preset, Strategy, TokenizerKind, ViewMode};
use crate::core::profile::Phases;
use crate::core::sources::Codebase;
use crate::core::walk::{self, ReadPolicy, ResolvedItem};

mod ahead;
mod candidates;
mod costs;
mod fill;
mod fit;
mod forms;
pub mod left_out;
mod ranking;
mod report;
mod source_bound;

use candidates::{Candidates, build_candidates};
use forms::{Form, reductions};
use ranking::{RELEVANT_CANDIDATES, named_paths};
pub use ranking::{Ranking, ranking};
use report::stats;
pub use report::{
    MissingTarget, PackStats, Reduced, UNRESOLVED_EXAMPLES, unresolved_note, window_budget,
};
use source_bound::SourceBound;

/// Tokens kept for the blank line between the files and the map.
const MAP_SEPARATOR: usize = 1;

/// What to pack and how.
#[derive(Debug, Clone, PartialEq)]
pub struct PackOptions {
    pub budget: usize,
    /// Tokens kept for the repo map before the preset's own entries (the
    /// targets and their imports come first); the map also takes whatever
    /// is left at the end.
    pub map_budget: usize,
    pub tokenizer: TokenizerKind,
    pub format: Format,
    pub max_messages: usize,
    pub include_dirs: Vec<String>,
    /// How files are read (size cap, outside-root entries).
    pub read: ReadPolicy,
    /// The sections around the files (the directory tree, the changes),
    /// as in a composition; they count against the budget first.
    pub sections: Sections,
    /// Files to leave out for a likely secret (path, where it is): the
    /// engine holds the discovered files whose text the scan flagged.
    pub hold: Vec<(String, String)>,
    /// With a task, fill the room a complete repo map leaves with more
    /// files (`fill`): a build's output; not the TUI's proposal, which the
    /// user accepts into the preset file by file.
    pub fill: bool,
}

impl PackOptions {
    /// The options the settings give (budgets, tokenizer, format, reading);
    /// the CLI's flags override fields of this, the TUI uses it as is.
    pub fn from_settings(settings: &crate::core::model::Settings) -> Self {
        PackOptions {
            budget: settings.budget,
            map_budget: settings.repo_map_budget,
            tokenizer: settings.tokenizer,
            format: settings.format,
            max_messages: settings.max_messages,
            include_dirs: settings.include_dirs.clone(),
            read: ReadPolicy::from_settings(settings),
            sections: crate::core::compose::Sections::from_settings(settings),
            hold: Vec::new(),
            fill: true,
        }
    }
}

/// Why an item is in the pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Target,
    Import,
    Transitive,
    /// A file that imports a target (a caller, a test).
    Caller,
    /// A file the task names by path.
    Mentioned,
    /// A file ranked for the task (its words, the identifiers it defines,
    /// its neighbours in the import graph).
    Relevant,
    Preset,
    /// A file the room a complete repo map left took, with a task (`fill`).
    Fill,
}

/// One candidate and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackedItem {
    pub path: String,
    pub role: Role,
    /// The mode it was wanted in.
    pub wanted: ViewMode,
    /// The mode it is included in; `None`: dropped.
    pub mode: Option<ViewMode>,
    /// Its share of the total (0 when dropped).
    pub tokens: usize,
    /// Dropped for lack of room: what its cheapest form would have taken
    /// (`None`: included, or left out for what it is, binary or oversize,
    /// or [`Self::unreduced`]).
    pub needs: Option<usize>,
    /// Dropped past the pack's source bound (`pack/source_bound.rs`): it
    /// was tried only whole (or named), not in the reduced forms a parse
    /// makes, so what its cheapest form would take is not known.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unreduced: bool,
    /// Why discovery picked it (a file ranked for the task: the words and
    /// mentions it matched, its neighbours, its score).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
}

impl PackedItem {
    fn dropped(resolved: &ResolvedItem, role: Role) -> Self {
        PackedItem {
            path: resolved.path.clone(),
            role,
            wanted: if resolved.settings.force_full {
                ViewMode::Full
            } else {
                resolved.settings.view_mode
            },
            mode: None,
            tokens: 0,
            needs: None,
            unreduced: false,
            reasons: Vec::new(),
        }
    }
}

/// A packed context.
#[derive(Debug, Clone)]
pub struct Packed {
    pub text: String,
    pub items: Vec<PackedItem>,
    /// The included files, rendered, in output order.
    pub files: Vec<RenderedFile>,
    pub map: RepoMap,
    pub stats: PackStats,
    /// Problems with the preset (bad globs) and the budget itself.
    pub problems: Vec<String>,
    /// Files left out as binary or oversize (one note in `problems`).
    pub skipped: Vec<String>,
    /// Targets left out for lack of room (not in `problems`).
    pub missing_targets: Vec<MissingTarget>,
}

impl Packed {
    /// The packed text as a composition (its files and problems), for the
    /// front ends that show, copy or write it like a preset's.
    pub fn composition(&self) -> Composition {
        Composition {
            text: self.text.clone(),
            files: self.files.clone(),
            problems: self.problems.clone(),
            left_out_notes: 0,
            skipped: self.skipped.clone(),
            map: Some(self.map.text.clone()).filter(|m| !m.is_empty()),
        }
    }
}

/// The share of the budget the best file for the task may take, and any
/// other file ranked for it: the next best files matter too, so a large
/// one comes in reduced rather than crowd them out.
const BEST_SHARE: f64 = 0.4;
const RELEVANT_SHARE: f64 = 0.2;
/// The share of the budget the cheapest form of one of the first
/// [`FIRST_FEW`] files ranked for the task may take, past its cap: a large
/// file the task is about (a 1,500-line `context.go` whose outline alone is
/// 3,800 tokens) comes in as its outline rather than not at all, while its
/// fuller forms keep to the cap and the files after it keep their room.
const FLOOR_SHARE: f64 = 0.5;
const FIRST_FEW: usize = 4;
/// How many of the symbols the task is about one of the first
/// [`FOCUS_FEW`] files ranked keeps when even those symbols alone are too
/// large, from the most.
const FOCUS_SIZES: [usize; 2] = [8, 3];
const FOCUS_FEW: usize = 8;
/// How many candidates are rendered ahead of the fit, on every core.
const RENDERED_AHEAD: usize = 256;
/// How many times the room a complete map leaves is filled (`fill`).
const FILL_ROUNDS: usize = 3;

/// Pack `preset` and `targets` over `codebase` (its walk: the project's
/// files) into `opts.budget` tokens.
pub fn pack(
    codebase: &Codebase,
    preset: &Preset,
    targets: &[String],
    opts: &PackOptions,
) -> Packed {
    codebase.sources.set_policy(opts.read);
    let phases = Phases::start();
    let graph = ImportGraph::build(codebase, &opts.include_dirs);
    phases.mark("pack: import graph");
    pack_with(codebase, preset, targets, opts, &graph)
}

/// [`pack`] over an import graph the caller already built: build the
/// candidates, fit them in rank order (keeping room for the map before the
/// preset's entries), shrink the whole to the exact budget, count.
pub fn pack_with(
    codebase: &Codebase,
    preset: &Preset,
    targets: &[String],
    opts: &PackOptions,
    graph: &ImportGraph,
) -> Packed {
    let phases = Phases::start();
    let Ranking {
        mut ranked,
        mentions,
        mut excluded,
        relevance,
    } = ranking(codebase, preset, targets, graph);
    phases.mark("pack: ranking");
    if !opts.hold.is_empty() {
        excluded.hold(&opts.hold);
        ranked.retain(|r| !excluded.contains(&r.path));
    }
    // What the preset excludes, or no glob would bring in, never becomes
    // a candidate, however it is reached; the stats name it as left out.
    let mut kept_out = LeftOut::default();
    let mentioned = excluded.split(named_paths(&mentions), &mut kept_out);
    let mut reach = graph.reach(targets);
    for list in [&mut reach.direct, &mut reach.transitive, &mut reach.callers] {
        *list = excluded.split(std::mem::take(list), &mut kept_out);
    }
    let relevant: Vec<String> = relevance
        .candidates(RELEVANT_CANDIDATES)
        .map(|s| s.path.clone())
        .collect();
    let relevant = excluded.split(relevant, &mut kept_out);
    let (candidates, preset_from, problems) = build_candidates(
        preset,
        targets,
        &mentioned,
        &relevant,
        codebase.files(),
        &ranked,
        &reach,
    );
    let packer = Packer::new(codebase, opts, preset, &relevance, &candidates);
    let mut problems: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    let base = packer.count(&packer.assemble(&[], "")) + packer.tree_frame_cost();
    let mut fitted = packer.fit_all(&candidates, preset_from, &ranked, base);
    packer.mark_unreduced(&mut fitted.items);
    phases.mark("pack: fit");
    for item in &mut fitted.items {
        if let Some(scored) = relevance.get(&item.path) {
            item.reasons = scored.why.reasons();
        }
    }
    let (files, skipped) = compose::drop_skipped(std::mem::take(&mut fitted.files), &mut problems);
    fitted.files = files;
    let (mut text, mut map) = packer.shrink(&ranked, &mut fitted);
    phases.mark("pack: map and shrink");
    if opts.fill && !preset.task.trim().is_empty() {
        (text, map) = packer.fill_room(text, map, &ranked, &excluded, &mut fitted);
        phases.mark("pack: fill");
    }
    let unreduced = fitted.items.iter().filter(|i| i.unreduced).count();
    if unreduced > 0 {
        problems.push(source_bound::note(unreduced));
    }
    let (text, tokens) = packer.within_budget(text, &mut problems);
    phases.mark("pack: counted");
    let missing_targets = fitted.missing_targets(opts.budget);
    let mut stats = stats(&fitted.items, &reach, targets, &map, tokens, opts.budget);
    stats.task_tokens =
        compose::task_markdown(&preset.task).map_or(0, |section| packer.count(&section));
    stats.mentions = mentions;
    stats.excluded = kept_out.excluded.into_iter().collect();
    stats.sensitive = kept_out.sensitive.into_iter().collect();
    // Every file held, whether a candidate or only the map reached it.
    let held: std::collections::BTreeMap<String, String> = opts.hold.iter().cloned().collect();
    stats.held_secrets = held.values().cloned().collect();
    stats.left_out = left_out::for_budget(&fitted.items);
    stats
        .left_out
        .extend(left_out::by_choice(&stats.excluded, &stats.sensitive));
    stats.left_out.extend(left_out::held(&held));
    stats.unresolved_imports = graph.unresolved().len();
    stats.limits = graph.limits();
    stats.unresolved_examples =
        graph.unresolved()[..stats.unresolved_imports.min(UNRESOLVED_EXAMPLES)].to_vec();
    Packed {
        text,
        items: fitted.items,
        files: fitted.files,
        map,
        stats,
        problems,
        skipped,
        missing_targets,
    }
}

/// The candidates after fitting: what became of each, the included files
/// in output order, and the budget left.
struct Fitted {
    items: Vec<PackedItem>,
    files: Vec<RenderedFile>,
    left: usize,
    /// A target's cost alone at its cheapest form, for the error.
    target_costs: HashMap<String, usize>,
    /// The targets no budget shows (binary, oversize), and why.
    unreadable_targets: HashMap<String, String>,
}

impl Fitted {
    /// Record a candidate placed (`cost`: the context with it alone at its
    /// cheapest, kept for a target's error).
    fn place(&mut self, item: PackedItem, file: Option<RenderedFile>, cost: usize) {
        if item.role == Role::Target {
            self.target_costs.insert(item.path.clone(), cost);
            if let Some(why) = file.as_ref().and_then(|f| f.skipped.as_ref()) {
                self.unreadable_targets
                    .insert(item.path.clone(), why.to_string());
            }
        }
        self.items.push(item);
        self.files.extend(file);
    }

    /// The targets that were dropped, with what they would have cost.
    fn missing_targets(&self, budget: usize) -> Vec<MissingTarget> {
        self.items
            .iter()
            .filter(|i| i.role == Role::Target && i.mode.is_none())
            .map(|i| MissingTarget {
                path: i.path.clone(),
                tokens: self.target_costs.get(&i.path).copied(),
                budget,
                unreadable: self.unreadable_targets.get(&i.path).cloned(),
            })
            .collect()
    }
}

struct Packer<'a> {
    codebase: Codebase<'a>,
    opts: &'a PackOptions,
    compose_opts: ComposeOptions,
    preset: &'a Preset,
    relevance: &'a Relevance,
    /// The names the repo maps of this pack looked up, counted once.
    naming: repo_map::Naming,
    /// Which discovered files may be parsed for their reduced forms.
    bound: SourceBound<'a>,
}

impl<'a> Packer<'a> {
    fn new(
        codebase: &Codebase<'a>,
        opts: &'a PackOptions,
        preset: &'a Preset,
        relevance: &'a Relevance,
        candidates: &'a Candidates,
    ) -> Self {
        let mut compose_opts = ComposeOptions {
            strategy: Strategy::Auto,
            summary_only: false,
            format: opts.format,
            max_messages: opts.max_messages,
            focus: Vec::new(),
            read: opts.read,
            // The pack is handed the walk; it never walks by itself.
            walk: walk::WalkPatterns::default(),
            sections: opts.sections.clone(),
            // Unused: the pack renders files one by one; its caller hands
            // it a preset gated by `trust::entries` already.
            consent: Default::default(),
        };
        if compose_opts.sections.needs_project_files() {
            compose_opts.sections.project_files = Arc::from(codebase.files());
        }
        Packer {
            codebase: *codebase,
            opts,
            compose_opts,
            preset,
            relevance,
            naming: repo_map::Naming::default(),
            bound: SourceBound::over(&candidates.list, opts.read),
        }
    }

    /// Fit every candidate in order into what `base` (the headings,
    /// screenshots and discussion) leaves of the budget, keeping room for
    /// the `## Left out` note: first a bound of any note, then, when
    /// something was reduced or dropped, again with the room the note of
    /// that first fit takes (a file is worth more than the slack of a
    /// bound).
    fn fit_all(
        &self,
        candidates: &Candidates,
        preset_from: usize,
        ranked: &[Ranked],
        base: usize,
    ) -> Fitted {
        self.render_ahead(candidates);
        let left = self.opts.budget.saturating_sub(base);
        let bound = self.reserve_note(candidates, left);
        let first = self.fit_reserving(candidates, preset_from, ranked, base, bound);
        let note = left_out::render(&left_out::for_budget(&first.items), self.opts.format);
        let needed = note.map_or(0, |note| self.count(&format!("\n\n{note}")));
        // Nothing left out or reduced: the room kept went to the map.
        if needed >= bound || first.items.iter().all(|i| i.mode == Some(i.wanted)) {
            return first;
        }
        self.fit_reserving(candidates, preset_from, ranked, base, needed)
    }

    /// [`Self::fit_all`] with `note_reserve` tokens kept for the note (the
    /// targets may take them); before the preset's entries, keep the room
    /// the map needs.
    fn fit_reserving(
        &self,
        candidates: &Candidates,
        preset_from: usize,
        ranked: &[Ranked],
        base: usize,
        note_reserve: usize,
    ) -> Fitted {
        let mut fitted = Fitted {
            items: Vec::with_capacity(candidates.list.len()),
            files: Vec::new(),
            left: self.opts.budget.saturating_sub(base),
            target_costs: HashMap::new(),
            unreadable_targets: HashMap::new(),
        };
        let mut map_reserve = 0;
        let mut note_reserve = note_reserve.min(fitted.left);
        fitted.left -= note_reserve;
        let progress = self.codebase.sources.progress();
        progress.start("candidates packed", candidates.list.len());
        // The targets and their direct imports are fitted together: imports
        // reduced before any is dropped, the targets last (`fit`).
        let group = candidates
            .list
            .iter()
            .take_while(|(_, role)| matches!(role, Role::Target | Role::Import))
            .count();
        for placed in fit::fit_group(
            self,
            &candidates.list[..group],
            &mut fitted.left,
            &mut note_reserve,
        ) {
            fitted.place(placed.item, placed.file, base + placed.cheapest);
        }
        // The next files ranked for the task keep the room of their
        // cheapest forms while the better ones are fitted (`ahead`).
        let mut ahead = ahead::Ahead::new(self, &candidates.list, group, fitted.left);
        for (i, (resolved, role)) in candidates.list.iter().enumerate().skip(group) {
            progress.step();
            if i == preset_from {
                map_reserve = self.reserve_map(ranked, &fitted.files, fitted.left);
                fitted.left -= map_reserve;
            }
            let (mut item, mut file, mut cheapest) =
                self.fit_within(resolved, *role, &mut fitted.left, ahead.after(i));
            if item.mode.is_none()
                && cheapest <= self.floor_cap(resolved, *role)
                && ahead.release_for(i, cheapest, fitted.left)
            {
                // The room given up buys its cheapest form, no more: the
                // rest goes on to the next files.
                let kept = fitted.left - cheapest;
                (item, file, cheapest) = self.fit_within(resolved, *role, &mut fitted.left, kept);
            }
            fitted.place(item, file, base + cheapest);
        }
        fitted.left += map_reserve + note_reserve;
        fitted
    }

    /// Render and count the cheapest and the wanted form of each candidate
    /// on every core, so the fit, which goes one candidate at a time in
    /// rank order, finds each file's parse, views and counts made (all
    /// cached per content).
    /// The preset's own entries are left to the fit: a preset of every
    /// file would have each rendered in forms it never needs.
    fn render_ahead(&self, candidates: &Candidates) {
        let discovered: Vec<&(ResolvedItem, Role)> = candidates
            .list
            .iter()
            .filter(|(_, role)| *role != Role::Preset)
            .take(RENDERED_AHEAD)
            .collect();
        discovered.par_iter().for_each(|(resolved, role)| {
            if !resolved.settings.auto_aggregate {
                return;
            }
            let wanted = PackedItem::dropped(resolved, *role).wanted;
            let forms = self.forms(resolved, *role, wanted);
            // The fit always renders the cheapest form and the wanted one
            // (the parse, the read and the largest count); the forms
            // between are cheap once the parse is made.
            let ends = forms.last().into_iter().chain(forms.first());
            for form in ends {
                let file = match &form.mask {
                    Some(mask) => self.render_masked(resolved, mask),
                    None => self.render_as(resolved, form.mode),
                };
                if file.skipped.is_some() {
                    return;
                }
                self.block_cost(&file, 1);
            }
        });
    }

    /// The tokens to keep for the `## Left out` note while the files are
    /// fitted: an upper bound of any note over these candidates, at most
    /// an eighth of `left`; the map takes what the note does not use.
    fn reserve_note(&self, candidates: &Candidates, left: usize) -> usize {
        let paths: Vec<&str> = candidates
            .list
            .iter()
            .map(|(r, _)| r.path.as_str())
            .collect();
        left_out::upper_bound(&paths, self.opts.format)
            .map_or(0, |note| self.count(&format!("\n\n{note}")))
            .min(left / 8)
    }

    /// The tokens to keep for the map (at most `map_budget` and `left`):
    /// what a map of the files not yet included needs. The map comes
    /// before the preset's entries, so it is reserved before they take
    /// the rest.
    fn reserve_map(&self, ranked: &[Ranked], files: &[RenderedFile], left: usize) -> usize {
        let so_far: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let room = self.opts.map_budget.min(left);
        let provisional = repo_map::build_with(
            &self.codebase,
            ranked,
            &so_far,
            room,
            self.opts.tokenizer,
            &self.naming,
        );
        room.min(provisional.tokens + MAP_SEPARATOR)
    }

    /// The text with a map of what the files did not include, in the room
    /// they left, and the `## Left out` note; then the exact count of the
    /// whole decides, shrinking the map first, then dropping the last
    /// files that are not targets, then the note, then the targets, until
    /// it fits.
    fn shrink(&self, ranked: &[Ranked], fitted: &mut Fitted) -> (String, RepoMap) {
        let included_paths: Vec<String> = fitted.files.iter().map(|f| f.path.clone()).collect();
        let included: HashSet<&str> = included_paths.iter().map(String::as_str).collect();
        let targets: HashSet<String> = fitted
            .items
            .iter()
            .filter(|i| i.role == Role::Target)
            .map(|i| i.path.clone())
            .collect();
        let mut map_room = fitted.left;
        let mut map = RepoMap::default();
        // How many files the note names: all it may, none (a count), or no
        // note at all (`None`).
        let mut naming = Some(left_out::LISTED);
        loop {
            map = if map_room == map.tokens && !map.text.is_empty() {
                map
            } else {
                repo_map::build_with(
                    &self.codebase,
                    ranked,
                    &included,
                    map_room,
                    self.opts.tokenizer,
                    &self.naming,
                )
            };
            let note = naming.and_then(|n| {
                left_out::render_naming(&left_out::for_budget(&fitted.items), self.opts.format, n)
            });
            let has_note = note.is_some();
            let text = self.assemble_with(&fitted.files, &map.text, note);
            let total = self.count(&text);
            if total <= self.opts.budget || (fitted.files.is_empty() && map.text.is_empty()) {
                return (text, map);
            }
            let over = total - self.opts.budget;
            if !map.text.is_empty() {
                map_room = map.tokens.saturating_sub(over.max(1));
                continue;
            }
            if has_note && naming > Some(0) {
                naming = Some(0);
                continue;
            }
            let last = match fitted
                .files
                .iter()
                .rposition(|f| !targets.contains(&f.path))
            {
                Some(i) => Some(fitted.files.remove(i)),
                None if has_note => {
                    naming = None;
                    continue;
                }
                None => fitted.files.pop(),
            };
            if let Some(last) = last
                && let Some(item) = fitted
                    .items
                    .iter_mut()
                    .rev()
                    .find(|it| it.path == last.path)
            {
                item.needs = Some(item.tokens);
                item.mode = None;
                item.tokens = 0;
                self.mark_unreduced(std::slice::from_mut(item));
            }
        }
    }

    /// With room left after a complete map, more files best first
    /// (`fill`), then the map and the exact count again.
    fn fill_room(
        &self,
        mut text: String,
        mut map: RepoMap,
        ranked: &[Ranked],
        excluded: &Excluded,
        fitted: &mut Fitted,
    ) -> (String, RepoMap) {
        // The map shrinks as files come in, so what it gives up is room
        // for another round.
        for _ in 0..FILL_ROUNDS {
            let room = self.opts.budget.saturating_sub(self.count(&text));
            if !fill::worth_filling(self.opts.budget, room) {
                break;
            }
            let taken: HashSet<&str> = fitted.items.iter().map(|i| i.path.as_str()).collect();
            let walked = self.codebase.files();
            let order = fill::order(self.relevance, ranked, walked, &taken, excluded);
            let filled = fill::fill(self, &order, room);
            if filled.items.is_empty() {
                break;
            }
            fitted.items.extend(filled.items);
            self.mark_unreduced(&mut fitted.items);
            fitted.files.extend(filled.files);
            // The map loses the files now in; it takes what they left.
            fitted.left = map.tokens + filled.left;
            (text, map) = self.shrink(ranked, fitted);
        }
        (text, map)
    }

    /// `text` and its count if it is within the budget; otherwise not even
    /// the headings (or the discussion) fit, and an empty context is the
    /// only one within it.
    fn within_budget(&self, mut text: String, problems: &mut Vec<String>) -> (String, usize) {
        let tokens = self.count(&text);
        if tokens <= self.opts.budget {
            return (text, tokens);
        }
        let what = if self.preset.task.trim().is_empty() {
            "the headings, screenshots and discussion"
        } else {
            "the headings, screenshots, discussion and task"
        };
        problems.push(format!(
            "a budget of {} tokens is too small for any context ({what} alone take {tokens})",
            self.opts.budget
        ));
        text.clear();
        (text, 0)
    }

    fn count(&self, text: &str) -> usize {
        self.codebase.sources.count(self.opts.tokenizer, text)
    }

    fn assemble(&self, files: &[RenderedFile], map: &str) -> String {
        compose::assemble(files, self.preset, &self.compose_opts, Some(map))
    }

    /// [`Self::assemble`] with the `## Left out` note after the map.
    fn assemble_with(&self, files: &[RenderedFile], map: &str, note: Option<String>) -> String {
        let Some(note) = note else {
            return self.assemble(files, map);
        };
        let mut opts = self.compose_opts.clone();
        opts.sections.left_out = Some(Arc::from(note));
        compose::assemble(files, self.preset, &opts, Some(map))
    }

    /// [`Self::fit`] in what `left` holds beyond the `kept` tokens, taking
    /// what it uses from `left`.
    fn fit_within(
        &self,
        resolved: &ResolvedItem,
        role: Role,
        left: &mut usize,
        kept: usize,
    ) -> (PackedItem, Option<RenderedFile>, usize) {
        let mut room = left.saturating_sub(kept);
        let before = room;
        let placed = self.fit(resolved, role, &mut room);
        *left -= before - room;
        placed
    }

    /// Include `resolved` in the first of its modes that fits in `left`;
    /// also the cost of its cheapest form. The cheapest form is tried first,
    /// so a file that cannot fit is dropped after one render.
    fn fit(
        &self,
        resolved: &ResolvedItem,
        role: Role,
        left: &mut usize,
    ) -> (PackedItem, Option<RenderedFile>, usize) {
        let mut out = PackedItem::dropped(resolved, role);
        let wanted = out.wanted;
        if !resolved.settings.auto_aggregate {
            // Listed by name only, as the user asked.
            let file = compose::render_file(&self.codebase, resolved, &self.compose_opts);
            let cost = self.count(&format!("\n- `{}`", file.path));
            if cost <= *left {
                *left -= cost;
                out.mode = Some(wanted);
                out.tokens = cost;
                return (out, Some(file), cost);
            }
            out.needs = Some(cost);
            return (out, None, cost);
        }
        let forms = self.forms(resolved, role, wanted);
        let render = |form: &Form| match &form.mask {
            Some(mask) => self.render_masked(resolved, mask),
            None => self.render_as(resolved, form.mode),
        };
        let cheapest_form = forms.last().cloned().unwrap_or(Form {
            mode: wanted,
            mask: None,
        });
        let cheapest_file = render(&cheapest_form);
        if cheapest_file.skipped.is_some() {
            // Binary or oversize: costs nothing, and `compose::drop_skipped`
            // leaves it out with one note for all of them.
            return (out, Some(cheapest_file), 0);
        }
        let cap = self.cap(resolved, role);
        // The last form is most often the cheapest, but not always (the
        // outline of many short functions is longer than their skeleton):
        // the others are tried even when it does not fit.
        // A reduced form that shows nothing (the outline of a file of
        // re-exports) is no form of it: the file comes in as more, or not.
        let nothing = |i: usize, file: &RenderedFile| i > 0 && shows_nothing(file);
        let mut cheapest = if nothing(forms.len().saturating_sub(1), &cheapest_file) {
            usize::MAX
        } else {
            self.block_cost(&cheapest_file, 1)
        };
        // The cheapest form seen, for a file whose every form is over its
        // cap but whose cheapest is within its floor cap.
        let mut lowest = (cheapest, cheapest_file.clone());
        let mut tried: Vec<(ViewMode, Option<MaskState>)> = Vec::new();
        for (i, form) in forms.iter().enumerate() {
            let file = if form == &cheapest_form {
                cheapest_file.clone()
            } else {
                render(form)
            };
            if nothing(i, &file) {
                continue;
            }
            // A file without a grammar renders skeleton and outline as the
            // same summary: try it once.
            let key = (file.mode, form.mask.as_ref().map(|m| m.rest));
            if tried.contains(&key) {
                continue;
            }
            tried.push(key);
            let cost = self.block_cost(&file, 1);
            cheapest = cheapest.min(cost);
            if cost <= *left && cost <= cap {
                *left -= cost;
                out.mode = Some(file.mode);
                out.tokens = cost;
                return (out, Some(file), cheapest);
            }
            if cost < lowest.0 {
                lowest = (cost, file);
            }
        }
        let (cost, file) = lowest;
        if cost <= *left && cost <= self.floor_cap(resolved, role) {
            *left -= cost;
            out.mode = Some(file.mode);
            out.tokens = cost;
            return (out, Some(file), cheapest);
        }
        out.needs = Some(cheapest);
        (out, None, cheapest)
    }
}

/// Whether `file` renders to nothing but blank lines (and is no error).
fn shows_nothing(file: &RenderedFile) -> bool {
    file.error.is_none() && file.skipped.is_none() && file.text.trim().is_empty()
}
