//! Build a context: compose the preset (streamed, see `stream`) or pack
//! it into a budget, scan it for secrets, count it, and hand it to
//! `deliver`.
//!
//! `Workspace::compose` is a preview's composition (not scanned or counted:
//! `stats`, the TUI's preview); `Workspace::discover` the TUI's discovery.

use std::sync::Arc;

use crate::core::compose::changes::Changes;
use crate::core::compose::{self, Bodies, ComposeOptions, Composition};
use crate::core::discovery::context::{self, MapOptions};
use crate::core::discovery::graph::ImportGraph;
use crate::core::discovery::pack::{self, PackOptions, Packed};
use crate::core::model::{Format, Preset, TokenizerKind};
use crate::core::secret_scan::rules::RuleSet;
use crate::core::secrets::{CleanTexts, Scanner};
use crate::core::{tokens, trust};

use super::Workspace;
use super::error::{BuildError, Refused};
use super::request::{BuildKind, BuildRequest, Built, PackReport};

impl Workspace<'_> {
    /// Build what `req` asks for: compose or pack (see [`BuildKind`]),
    /// scan for secrets, count, and deliver to `req.destination` (likely
    /// secrets refuse every destination unless `req.allow_secrets`).
    pub fn build(&mut self, req: BuildRequest) -> Result<Built, Box<Refused>> {
        if let Some(ready) = req.reuse.clone() {
            return self.build_from(&ready, &req);
        }
        let packs = match req.kind {
            BuildKind::Compose => false,
            BuildKind::Pack => true,
            BuildKind::Auto => self.asks_for_budget(&req),
        };
        if packs {
            self.pack(req)
        } else {
            self.compose_streamed(req)
        }
    }

    /// The preset's composition as a preview shows it (bodies kept, not
    /// scanned or counted): `ctxcurate stats`, the TUI's preview and gauge.
    pub fn compose(&self, preset: &Preset, opts: &ComposeOptions, map: &MapOptions) -> Composition {
        context::parts(&self.codebase(), preset, opts, map).assemble(preset, opts, Bodies::Keep)
    }

    /// Pack `req.preset` into the budget around its targets and
    /// `req.targets`: the budget is `req.budget`, else what the model
    /// window leaves after the task, else the settings'; the changes are
    /// fitted first; the preset's held entries (and held targets it names)
    /// wait for consent.
    pub fn pack(&mut self, mut req: BuildRequest) -> Result<Built, Box<Refused>> {
        let tokenizer = req.tokenizer();
        let mut built = Built::empty(tokenizer);
        let task_tokens = self.task_tokens(&req);
        let budget = req
            .budget
            .or(self.window(task_tokens))
            .unwrap_or(self.settings.budget);
        let mut sections = req.compose.sections.clone();
        if let Some(changes) = req.changes.take() {
            let fitted = fit_changes(
                changes,
                req.compose.format,
                tokenizer,
                budget,
                req.allow_partial,
            );
            match fitted {
                Ok((fitted, dropped)) => {
                    built.changes_dropped = dropped;
                    sections.changes = Some(Arc::new(fitted));
                }
                Err(why) => return Err(Refused::new(why, built)),
            }
        }
        let opts = PackOptions {
            budget,
            map_budget: req.map_budget.unwrap_or(self.settings.repo_map_budget),
            tokenizer,
            format: req.compose.format,
            max_messages: req.compose.max_messages,
            sections,
            ..PackOptions::from_settings(&self.settings)
        };
        let walked = self.walk();
        built.walk_notes = std::mem::take(&mut self.walk_notes);
        // The pack reads what the composition would: held entries wait
        // for consent (`trust::entries`), with the same note.
        let (gated, held) =
            req.compose
                .consent
                .gate(&self.root, &req.preset, Some(&walked), &self.patterns);
        built.held = trust::entries::held_note(&held);
        let mut targets = req.preset.targets.clone();
        for t in &req.targets {
            if !targets.contains(t) {
                targets.push(t.clone());
            }
        }
        // A held target of the preset goes too; one named in the request
        // is the user's own.
        targets.retain(|t| gated.targets.contains(t) || req.targets.contains(t));
        let codebase = self.codebase().with_walk(&walked);
        let (packed, findings) = pack_holding_secrets(&codebase, &gated, &targets, opts.clone());
        built.findings = findings;
        let Packed {
            text,
            items,
            files,
            stats,
            problems,
            missing_targets,
            ..
        } = packed;
        built.tokens = stats.tokens;
        built.text = text;
        built.files = files;
        built.problems = problems;
        built.packed = Some(PackReport {
            items,
            stats,
            missing_targets,
        });
        if built.text.is_empty() && task_tokens > 0 {
            // The task is never dropped: without room for it, no context.
            let why = BuildError::TaskDoesNotFit {
                task_tokens,
                budget: opts.budget,
            };
            return Err(Refused::new(why, built));
        }
        let missing = built
            .packed
            .as_ref()
            .map_or(&[][..], |p| &p.missing_targets);
        if !missing.is_empty() && !req.allow_partial {
            let why = BuildError::TargetsDoNotFit {
                missing: missing.to_vec(),
            };
            return Err(Refused::new(why, built));
        }
        self.deliver(built, &req)
    }

    /// A discovery (the TUI's `i`): `preset` packed around `targets`
    /// with `opts`, its held entries (and held targets) left out, and a
    /// discovered file holding a likely secret held back and named, as a
    /// packed build does.
    pub fn discover(
        &self,
        preset: &Preset,
        targets: &[String],
        opts: &PackOptions,
        consent: &trust::entries::EntryConsent,
    ) -> Packed {
        let codebase = self.codebase();
        let (preset, _) = consent.gate(
            codebase.root,
            preset,
            Some(codebase.files()),
            &self.patterns,
        );
        // The targets are the preset's: a held one goes too.
        let targets: Vec<String> = targets
            .iter()
            .filter(|t| preset.targets.contains(t))
            .cloned()
            .collect();
        pack_holding_secrets(&codebase, &preset, &targets, opts.clone()).0
    }

    /// `ready` (composed before) scanned whole, counted and delivered.
    fn build_from(&self, ready: &Composition, req: &BuildRequest) -> Result<Built, Box<Refused>> {
        let mut built = Built::empty(req.tokenizer());
        built.tokens = self.sources.count(req.tokenizer(), &ready.text);
        built.map_tokens = ready
            .map
            .as_deref()
            .map_or(0, |m| self.sources.count(req.tokenizer(), m));
        built.findings = Scanner::new(&self.codebase()).composition(
            ready,
            &req.preset,
            req.compose.max_messages,
        );
        built.text = ready.text.clone();
        built.files = ready.files.clone();
        built.problems = ready.problems.clone();
        self.deliver(built, req)
    }

    /// Whether a build packs ([`BuildKind::Auto`]): targets named, a
    /// budget given, a task to fit into the model window, or a task alone
    /// (a preset with no files: the task finds them).
    fn asks_for_budget(&self, req: &BuildRequest) -> bool {
        let task = !req.preset.task.trim().is_empty();
        let task_steers =
            task && (req.preset.files.is_empty() || self.window(self.task_tokens(req)).is_some());
        !req.targets.is_empty() || req.budget.is_some() || task_steers
    }

    /// The tokens of the task's section (0 without a task).
    fn task_tokens(&self, req: &BuildRequest) -> usize {
        compose::task_markdown(&req.preset.task)
            .map_or(0, |section| self.sources.count(req.tokenizer(), &section))
    }

    /// What the model window leaves for the context (`None`: no window
    /// set).
    fn window(&self, task_tokens: usize) -> Option<usize> {
        pack::window_budget(
            self.settings.model_window,
            self.settings.output_reserve,
            task_tokens,
        )
    }
}

/// How many times a pack is made again without the discovered files its
/// scan flagged (each round holds every file flagged so far).
const HOLD_ROUNDS: usize = 3;

/// Pack and scan; a likely secret in a file discovery brought in (an
/// import, a file ranked for the task, one the map outlines) holds that
/// file back and packs again, so only the files the user chose (targets,
/// the preset's entries) can refuse the build.
fn pack_holding_secrets(
    codebase: &crate::core::sources::Codebase,
    preset: &Preset,
    targets: &[String],
    mut opts: PackOptions,
) -> (Packed, Vec<crate::core::secrets::Finding>) {
    codebase.sources.set_policy(opts.read);
    // The map and the whole text are counted after the ranking and the
    // fit: the tokenizer is built meanwhile.
    tokens::warm_up(opts.tokenizer);
    // One version of each file for the whole pack: its imports, terms and
    // names are each looked up by stamp, taken once.
    let _snapshot = codebase.sources.snapshot();
    // Imports inside what the preset hides are no edges of its files.
    let phases = crate::core::profile::Phases::start();
    let graph = ImportGraph::build_viewed(codebase, &opts.include_dirs, preset);
    phases.mark("import graph");
    // Texts that passed the scan before (a full build's files, a view an
    // earlier task packed) pass again without it.
    let clean = CleanTexts::load(codebase.sources, RuleSet::builtin());
    let scanner = Scanner::new(codebase).remembering(&clean);
    let mut round = 0;
    let done = loop {
        let packed = pack::pack_with(codebase, preset, targets, &opts, &graph);
        phases.mark("packed");
        codebase.sources.progress().start("scanning for secrets", 0);
        let findings = scanner.packed(&packed, preset, opts.max_messages);
        phases.mark("secret scan");
        let discovered = discovered_secrets(&packed, preset, &findings);
        if discovered.is_empty() || round == HOLD_ROUNDS {
            break (packed, findings);
        }
        opts.hold.extend(discovered);
        round += 1;
    };
    clean.save(codebase.sources);
    done
}

/// The files of `findings` that discovery brought in (not a target nor a
/// preset entry), each once, with where its first secret is.
fn discovered_secrets(
    packed: &Packed,
    preset: &Preset,
    findings: &[crate::core::secrets::Finding],
) -> Vec<(String, String)> {
    use crate::core::discovery::pack::Role;
    use crate::core::secrets::Place;
    let mut out: Vec<(String, String)> = Vec::new();
    for f in findings {
        let (path, line) = match &f.place {
            Place::File { path, line } | Place::View { path, line, .. } => (path, *line),
            Place::MapFile { path, line } => (path, *line),
            _ => continue,
        };
        let chosen = packed
            .items
            .iter()
            .any(|i| &i.path == path && matches!(i.role, Role::Target | Role::Preset));
        if chosen || out.iter().any(|(p, _)| p == path) {
            continue;
        }
        out.push((path.clone(), format!("{path}:{line} ({})", f.kind)));
    }
    // A file a glob of the preset brings in is the user's choice too.
    let flagged: Vec<String> = out.iter().map(|(p, _)| p.clone()).collect();
    let (listed, _) =
        crate::core::walk::expand_items(&preset.files, &preset.exclude, || flagged.clone());
    out.retain(|(p, _)| !listed.iter().any(|r| &r.path == p));
    out
}

/// In a packed build the changes come first: a diff over the whole
/// budget is refused, or with `allow_partial` loses its largest files'
/// parts (each named in a note, returned) until it fits.
fn fit_changes(
    mut changes: Changes,
    format: Format,
    tokenizer: TokenizerKind,
    budget: usize,
    allow_partial: bool,
) -> Result<(Changes, Vec<String>), BuildError> {
    let cost = |c: &Changes| {
        tokens::count(
            tokenizer,
            &match format {
                Format::Markdown => c.markdown(),
                Format::Xml => c.xml(),
            },
        )
    };
    let mut tokens = cost(&changes);
    if tokens <= budget {
        return Ok((changes, Vec::new()));
    }
    if !allow_partial {
        return Err(BuildError::ChangesOverBudget {
            against: changes.against,
            tokens,
            budget,
        });
    }
    let mut dropped = Vec::new();
    while tokens > budget && !changes.files.is_empty() {
        let largest = changes
            .files
            .iter()
            .enumerate()
            .max_by_key(|(_, f)| f.text.len())
            .map_or(0, |(i, _)| i);
        let file = changes.files.remove(largest);
        let note = format!("{}: its diff is left out to fit the budget", file.path);
        dropped.push(note.clone());
        changes.notes.push(note);
        tokens = cost(&changes);
    }
    Ok((changes, dropped))
}
