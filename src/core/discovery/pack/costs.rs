//! What a candidate costs a pack: its block (with its separator and its
//! line in the directory tree), what its cheapest form takes, and the most
//! a file ranked for the task may take of the budget.

use crate::core::compose::{self, RenderedFile};
use crate::core::model::{Format, TreeMode, ViewMode};
use crate::core::walk::ResolvedItem;

use super::{
    BEST_SHARE, FIRST_FEW, FLOOR_SHARE, PackedItem, Packer, RELEVANT_SHARE, Role, shows_nothing,
};

impl Packer<'_> {
    /// What `file` adds to the output: its block, or its line in the list
    /// of files named only.
    pub(super) fn file_cost(&self, file: &RenderedFile) -> usize {
        if file.aggregate {
            self.block_cost(file, 1)
        } else {
            self.count(&format!("\n- `{}`", file.path))
        }
    }

    /// The block a file adds to the output, with its separator, and its
    /// entry in the directory tree.
    pub(super) fn block_cost(&self, f: &RenderedFile, index: usize) -> usize {
        let block = match self.opts.format {
            Format::Markdown => format!("\n\n{}", compose::markdown_file(f)),
            Format::Xml => compose::xml_document(index, f),
        };
        self.count(&block) + self.tree_cost(&f.path)
    }

    /// What a file adds to a `tree = "included"` directory tree: its tree
    /// alone (folders it shares with files already in cost less, a folder
    /// chain it splits a little more); the exact count of the finished
    /// text has the last word.
    pub(super) fn tree_cost(&self, path: &str) -> usize {
        if self.compose_opts.sections.tree != TreeMode::Included {
            return 0;
        }
        self.count(&compose::tree::render(vec![path]))
    }

    /// The frame of a `tree = "included"` directory tree, which the first
    /// file brings.
    pub(super) fn tree_frame_cost(&self) -> usize {
        if self.compose_opts.sections.tree != TreeMode::Included {
            return 0;
        }
        self.count(match self.opts.format {
            Format::Markdown => "## Directory Tree\n\n```\n```\n\n",
            Format::Xml => "<directory_tree>\n</directory_tree>\n",
        })
    }

    /// The most a candidate of `role` may take: a file ranked for the task
    /// a share of the budget, in any form, so the next best files fit too
    /// (a header declaring everything has an outline larger than most
    /// files).
    pub(super) fn cap(&self, resolved: &ResolvedItem, role: Role) -> usize {
        let best = self
            .relevance
            .files
            .first()
            .is_some_and(|s| s.path == resolved.path);
        match role {
            Role::Relevant if best => (self.opts.budget as f64 * BEST_SHARE) as usize,
            Role::Relevant | Role::Fill => (self.opts.budget as f64 * RELEVANT_SHARE) as usize,
            _ => usize::MAX,
        }
    }

    /// The most the cheapest form of a candidate of `role` may take: its
    /// cap, or for one of the first few files ranked for the task, up to
    /// [`FLOOR_SHARE`] of the budget (the files after it still keep the
    /// room [`ahead::Ahead`] holds for them).
    pub(super) fn floor_cap(&self, resolved: &ResolvedItem, role: Role) -> usize {
        let cap = self.cap(resolved, role);
        if role == Role::Relevant && self.ranked_within(resolved, FIRST_FEW) {
            cap.max((self.opts.budget as f64 * FLOOR_SHARE) as usize)
        } else {
            cap
        }
    }

    /// Whether `resolved` is one of the first `n` files ranked for the
    /// task.
    pub(super) fn ranked_within(&self, resolved: &ResolvedItem, n: usize) -> bool {
        self.relevance
            .files
            .iter()
            .take(n)
            .any(|s| s.path == resolved.path)
    }

    /// What the cheapest form of `resolved` as a candidate of `role`
    /// costs; `None` when it is no block (binary, oversize, named only) or
    /// over what its cheapest form may take ([`Self::floor_cap`]).
    pub(super) fn floor_cost(&self, resolved: &ResolvedItem, role: Role) -> Option<usize> {
        if !resolved.settings.auto_aggregate {
            return None;
        }
        let wanted = PackedItem::dropped(resolved, role).wanted;
        let forms = self.forms(resolved, role, wanted);
        // The last form, and the outline: the symbols a task is about can
        // be many (every name of `socket.py` says `socket`).
        let outline = forms
            .iter()
            .find(|f| f.mode == ViewMode::Outline && f.mask.is_none());
        let cheap = forms.last().into_iter().chain(outline);
        let mut floor: Option<usize> = None;
        for form in cheap {
            let file = match &form.mask {
                Some(mask) => self.render_masked(resolved, mask),
                None => self.render_as(resolved, form.mode),
            };
            if file.skipped.is_some() {
                return None;
            }
            if Some(form) != forms.first() && shows_nothing(&file) {
                continue;
            }
            let cost = self.block_cost(&file, 1);
            floor = Some(floor.map_or(cost, |f| f.min(cost)));
        }
        floor.filter(|&cost| cost <= self.floor_cap(resolved, role))
    }
}
