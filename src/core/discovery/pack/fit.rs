//! Fitting the targets and their direct imports together (docs/ARCHITECTURE.md,
//! "Discovery"). Each is tried in its forms from the one wanted down
//! (`reductions`: the target at the user's own view, an import in full,
//! then skeleton, outline). The targets come first: each keeps the best
//! form the budget allows them alone, so a target is reduced only when no
//! import is left to give room (and one that fits no form is dropped, which
//! the caller reports as missing). The imports share what the targets
//! leave:
//!
//! 1. they are reduced one step at a time, the largest first, until they
//!    fit or every one is at its cheapest — a large import becomes an
//!    outline before a small one is lost;
//! 2. then they are dropped, the lowest ranked first;
//! 3. what was dropped comes back at its cheapest, in rank order, where the
//!    room freed allows, and each grows back to the best form that fits,
//!    by rank.
//!
//! The costs are each form's block in the output (`Packer::block_cost`);
//! the exact count of the finished text has the last word.

use crate::core::compose::RenderedFile;
use crate::core::walk::ResolvedItem;

use super::{PackedItem, Packer, Role, reductions};

/// One candidate placed: what became of it, its file when included (or
/// skipped, for `compose::drop_skipped`), and its cheapest cost.
pub(super) struct Placed {
    pub item: PackedItem,
    pub file: Option<RenderedFile>,
    pub cheapest: usize,
}

/// A candidate's forms, best first, each cheaper than the one before.
struct Ladder {
    forms: Vec<(RenderedFile, usize)>,
    /// The form chosen; `None`: dropped.
    at: Option<usize>,
    target: bool,
}

impl Ladder {
    fn cost(&self) -> usize {
        self.at.map_or(0, |i| self.forms[i].1)
    }

    fn cheapest(&self) -> usize {
        self.forms.last().map_or(0, |f| f.1)
    }

    /// Whether a cheaper form is left.
    fn reducible(&self) -> bool {
        self.at.is_some_and(|i| i + 1 < self.forms.len())
    }
}

/// Place `group` (the targets, then the direct imports by rank) in `left`,
/// taking what they use from it; `spare` (the room kept for the `## Left
/// out` note) goes to the targets when they need it to keep their form.
pub(super) fn fit_group(
    packer: &Packer,
    group: &[(ResolvedItem, Role)],
    left: &mut usize,
    spare: &mut usize,
) -> Vec<Placed> {
    let progress = packer.codebase.sources.progress();
    let mut placed: Vec<Placed> = Vec::with_capacity(group.len());
    // The wanted forms first: most packs fit them as they are, and the
    // reductions are rendered only when they do not.
    let mut ladders: Vec<Option<Ladder>> = Vec::with_capacity(group.len());
    for (resolved, role) in group {
        progress.step();
        let item = PackedItem::dropped(resolved, *role);
        // Past the source bound, a form made from a parse becomes whole.
        let wanted = packer
            .modes(resolved, *role, &[wanted_mode(resolved)])
            .first()
            .copied()
            .unwrap_or(crate::core::model::ViewMode::Full);
        let file = packer.render_as(resolved, wanted);
        if file.skipped.is_some() {
            // Binary or oversize: costs nothing, and `compose::drop_skipped`
            // leaves it out with one note for all of them.
            placed.push(Placed {
                item,
                file: Some(file),
                cheapest: 0,
            });
            ladders.push(None);
            continue;
        }
        let cost = packer.file_cost(&file);
        placed.push(Placed {
            item,
            file: None,
            cheapest: cost,
        });
        ladders.push(Some(Ladder {
            forms: vec![(file, cost)],
            at: Some(0),
            target: *role == Role::Target,
        }));
    }
    let wanted: usize = ladders.iter().flatten().map(Ladder::cost).sum();
    if wanted > *left {
        for ((resolved, role), ladder) in group.iter().zip(ladders.iter_mut()) {
            if let Some(ladder) = ladder {
                add_reductions(packer, resolved, *role, ladder);
            }
        }
        let (mut targets, mut imports): (Vec<&mut Ladder>, Vec<&mut Ladder>) =
            ladders.iter_mut().flatten().partition(|l| l.target);
        // A target comes before the note that names what was left out: it
        // may take the note's room.
        settle(&mut targets, *left + *spare);
        let taken: usize = targets.iter().map(|l| l.cost()).sum();
        let from_spare = taken.saturating_sub(*left).min(*spare);
        *spare -= from_spare;
        *left += from_spare;
        settle(&mut imports, left.saturating_sub(taken));
    }
    for (p, ladder) in placed.iter_mut().zip(ladders) {
        let Some(mut ladder) = ladder else { continue };
        p.cheapest = ladder.cheapest();
        p.item.needs = Some(p.cheapest);
        if let Some(i) = ladder.at {
            let (file, cost) = ladder.forms.swap_remove(i);
            *left = left.saturating_sub(cost);
            p.item.mode = Some(file.mode);
            p.item.tokens = cost;
            p.item.needs = None;
            p.file = Some(file);
        }
    }
    placed
}

/// The mode `resolved` is wanted in (its own, or full when forced).
fn wanted_mode(resolved: &ResolvedItem) -> crate::core::model::ViewMode {
    PackedItem::dropped(resolved, Role::Import).wanted
}

/// The cheaper forms of `ladder`'s file: those that render differently
/// (a file without a grammar renders skeleton and outline as one summary)
/// and cost less than the form before.
fn add_reductions(packer: &Packer, resolved: &ResolvedItem, role: Role, ladder: &mut Ladder) {
    if !resolved.settings.auto_aggregate {
        // Listed by name only: one form.
        return;
    }
    let modes = packer.modes(resolved, role, reductions(wanted_mode(resolved)));
    for &mode in modes.iter().skip(1) {
        let file = packer.render_as(resolved, mode);
        if file.skipped.is_some() || ladder.forms.iter().any(|(f, _)| f.mode == file.mode) {
            continue;
        }
        let cost = packer.file_cost(&file);
        if ladder
            .forms
            .last()
            .is_some_and(|(_, before)| cost < *before)
        {
            ladder.forms.push((file, cost));
        }
    }
}

/// Choose each ladder's form (or drop it) so together they fit `room`, by
/// the steps of the module doc; `ladders` in rank order.
fn settle(ladders: &mut [&mut Ladder], room: usize) {
    let total = |ls: &[&mut Ladder]| ls.iter().map(|l| l.cost()).sum::<usize>();
    // Reduce, the largest first (the lowest ranked among equals).
    while total(ladders) > room {
        let Some(l) = ladders
            .iter_mut()
            .enumerate()
            .filter(|(_, l)| l.reducible())
            .max_by_key(|(i, l)| (l.cost(), *i))
            .map(|(_, l)| l)
        else {
            break;
        };
        l.at = l.at.map(|i| i + 1);
    }
    // Drop, the lowest ranked first.
    while total(ladders) > room {
        let Some(l) = ladders.iter_mut().rev().find(|l| l.at.is_some()) else {
            break;
        };
        l.at = None;
    }
    // Bring back what the room freed allows, at its cheapest, then grow.
    let mut used = total(ladders);
    for l in ladders.iter_mut().filter(|l| l.at.is_none()) {
        let cheapest = l.cheapest();
        if !l.forms.is_empty() && used + cheapest <= room {
            l.at = Some(l.forms.len() - 1);
            used += cheapest;
        }
    }
    for l in ladders.iter_mut() {
        let Some(at) = l.at else { continue };
        let now = l.forms[at].1;
        if let Some(better) = (0..at).find(|&j| used - now + l.forms[j].1 <= room) {
            l.at = Some(better);
            used = used - now + l.forms[better].1;
        }
    }
}
