//! What a pack tells the user: the numbers (`PackStats`, on stderr and in
//! `--stats-json`), the targets left out, the files the preset excludes
//! that discovery left out, the unresolved imports, and the
//! budget a model window leaves.

use serde::Serialize;

use crate::core::discovery::graph::{Reach, UnresolvedImport};
use crate::core::discovery::mentions::Mention;
use crate::core::discovery::repo_map::RepoMap;
use crate::core::model::ViewMode;

use super::PackedItem;
use super::left_out::Dropped;

/// How many unresolved imports the stats show by name.
pub const UNRESOLVED_EXAMPLES: usize = 5;
/// How many excluded files the note names.
const EXCLUDED_EXAMPLES: usize = 5;

/// Numbers for the user (stderr) and for machines (`--stats-json`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PackStats {
    pub targets: usize,
    /// Files reached through imports (targets excluded).
    pub discovered: usize,
    /// Files that import a target (not counted in `discovered`).
    pub callers: usize,
    /// Import statements of the project that name it but no file of it.
    pub unresolved_imports: usize,
    /// The first of them (at most [`UNRESOLVED_EXAMPLES`]).
    pub unresolved_examples: Vec<UnresolvedImport>,
    /// Tokens of the task section (counted before any file).
    pub task_tokens: usize,
    /// The paths and identifiers the task names, with the files each
    /// matched (none: a typo, or not in the project).
    pub mentions: Vec<Mention>,
    /// Files the targets reach or the task names that the preset excludes,
    /// left out, sorted.
    pub excluded: Vec<String>,
    /// Credential files the targets reach or the task names, left out
    /// (only a preset entry naming one brings it in), sorted.
    pub sensitive: Vec<String>,
    /// Discovered files left out for a likely secret, each with where it
    /// is (`a.py:3`), sorted by path.
    pub held_secrets: Vec<String>,
    pub candidates: usize,
    pub included: usize,
    /// Included files that took the room a complete map left (`fill`).
    pub filled: usize,
    pub full: usize,
    pub reduced: usize,
    pub dropped: usize,
    pub map_outlined: usize,
    pub map_listed: usize,
    pub map_tokens: usize,
    pub tokens: usize,
    pub budget: usize,
    pub utilisation: f64,
    /// The paths of the dropped candidates, in rank order.
    pub dropped_files: Vec<String>,
    /// What was left out and why: the candidates dropped for lack of room
    /// (rank order, with their cheapest size), then the files the preset
    /// excludes and the credential files the targets reached.
    pub left_out: Vec<Dropped>,
    /// The files included in a cheaper form than wanted, in rank order.
    pub reduced_files: Vec<Reduced>,
    /// What a bound left out of the import graph (a resolver config read
    /// in part, package edges cut), one line each.
    pub limits: Vec<String>,
}

/// A file included in a cheaper form than wanted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reduced {
    pub path: String,
    pub wanted: ViewMode,
    pub mode: ViewMode,
}

impl PackStats {
    /// One line on the unresolved imports for the user, `None` when every
    /// import of the project resolved.
    pub fn unresolved_note(&self) -> Option<String> {
        unresolved_note(self.unresolved_imports, &self.unresolved_examples)
    }

    /// "left out N files for lack of room: a, b, …": `None` when every
    /// candidate fitted.
    pub fn dropped_note(&self) -> Option<String> {
        let (one, many) = ("file for lack of room", "files for lack of room");
        left_out_note(&self.dropped_files, one, many, "")
    }

    /// "left out N files the preset excludes: a, b, …": `None` when the
    /// exclusions took nothing away.
    pub fn excluded_note(&self) -> Option<String> {
        let (one, many) = ("file the preset excludes", "files the preset excludes");
        left_out_note(&self.excluded, one, many, "")
    }

    /// "left out N credential files discovery reached: a, …; …": `None`
    /// when it reached none.
    pub fn sensitive_note(&self) -> Option<String> {
        left_out_note(
            &self.sensitive,
            "credential file discovery reached",
            "credential files discovery reached",
            " (only a preset entry naming one brings it in)",
        )
    }
}

impl PackStats {
    /// "held N discovered files: likely secret at a.py:3, …": `None` when
    /// no discovered file held one.
    pub fn held_note(&self) -> Option<String> {
        let n = self.held_secrets.len();
        let first = self.held_secrets.first()?;
        let what = if n == 1 { "file" } else { "files" };
        let mut line = format!("held {n} discovered {what}: likely secret at {first}");
        for at in self.held_secrets.iter().skip(1).take(EXCLUDED_EXAMPLES - 1) {
            line.push_str(", ");
            line.push_str(at);
        }
        if n > EXCLUDED_EXAMPLES {
            line.push_str(&format!(" and {} more", n - EXCLUDED_EXAMPLES));
        }
        // Choosing the file makes its secret refuse the build, as any
        // file the user chose: sending it takes allowing secrets too.
        line.push_str(
            " (to send one anyway, make it a target or a preset entry and allow secrets)",
        );
        Some(line)
    }
}

/// "left out N <what>: a, b, … and M more<tail>": `None` for none.
fn left_out_note(paths: &[String], one: &str, many: &str, tail: &str) -> Option<String> {
    let n = paths.len();
    let first = paths.first()?;
    let what = if n == 1 { one } else { many };
    let mut line = format!("left out {n} {what}: {first}");
    for path in paths.iter().skip(1).take(EXCLUDED_EXAMPLES - 1) {
        line.push_str(", ");
        line.push_str(path);
    }
    if n > EXCLUDED_EXAMPLES {
        line.push_str(&format!(" and {} more", n - EXCLUDED_EXAMPLES));
    }
    line.push_str(tail);
    Some(line)
}

/// "N imports did not resolve to a project file, e.g. `…` in a.py, …":
/// `None` for none.
pub fn unresolved_note(count: usize, examples: &[UnresolvedImport]) -> Option<String> {
    let first = examples.first()?;
    let plural = if count == 1 { "" } else { "s" };
    let more = examples
        .iter()
        .skip(1)
        .take(2)
        .map(|u| format!("`{}` in {}", u.import, u.file))
        .collect::<Vec<_>>();
    let mut line = format!(
        "{count} import{plural} did not resolve to a project file, e.g. `{}` in {}",
        first.import, first.file
    );
    for m in more {
        line.push_str(", ");
        line.push_str(&m);
    }
    Some(line)
}

/// The budget of a pack when the settings think in model windows
/// (`model_window` set): the window minus the reserve for the answer minus
/// the task; `None` when `model_window` is 0.
pub fn window_budget(
    model_window: usize,
    output_reserve: usize,
    task_tokens: usize,
) -> Option<usize> {
    (model_window > 0).then(|| {
        model_window
            .saturating_sub(output_reserve)
            .saturating_sub(task_tokens)
    })
}

/// A target the pack could not include.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingTarget {
    pub path: String,
    /// Tokens the context would take with the target alone at its cheapest
    /// form (headings included); `None` if it was never tried.
    pub tokens: Option<usize>,
    pub budget: usize,
    /// Why it cannot be shown at any budget (a binary file, one over the
    /// size cap), when that is why it is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
}

impl std::fmt::Display for MissingTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(why) = &self.unreadable {
            return write!(f, "target {} cannot be packed: {why}", self.path);
        }
        match self.tokens {
            Some(tokens) => write!(
                f,
                "target {} does not fit the budget: it takes {tokens} tokens even as an outline (with the headings), the budget is {}",
                self.path, self.budget
            ),
            None => write!(
                f,
                "target {} does not fit the budget of {} tokens",
                self.path, self.budget
            ),
        }
    }
}

pub(super) fn stats(
    items: &[PackedItem],
    reach: &Reach,
    targets: &[String],
    map: &RepoMap,
    tokens: usize,
    budget: usize,
) -> PackStats {
    let included: Vec<&PackedItem> = items.iter().filter(|i| i.mode.is_some()).collect();
    PackStats {
        targets: targets.len(),
        discovered: reach.direct.len() + reach.transitive.len(),
        callers: reach.callers.len(),
        candidates: items.len(),
        included: included.len(),
        filled: included
            .iter()
            .filter(|i| i.role == super::Role::Fill)
            .count(),
        full: included
            .iter()
            .filter(|i| i.mode == Some(ViewMode::Full))
            .count(),
        reduced: included.iter().filter(|i| i.mode != Some(i.wanted)).count(),
        dropped: items.len() - included.len(),
        map_outlined: map.outlined,
        map_listed: map.listed,
        map_tokens: map.tokens,
        tokens,
        budget,
        utilisation: if budget == 0 {
            0.0
        } else {
            tokens as f64 / budget as f64
        },
        dropped_files: items
            .iter()
            .filter(|i| i.mode.is_none())
            .map(|i| i.path.clone())
            .collect(),
        reduced_files: included
            .iter()
            .filter_map(|i| {
                let mode = i.mode.filter(|m| *m != i.wanted)?;
                Some(Reduced {
                    path: i.path.clone(),
                    wanted: i.wanted,
                    mode,
                })
            })
            .collect(),
        ..PackStats::default()
    }
}
