//! The forms a pack tries a candidate in, from the one wanted down: the
//! view modes (`reductions`), and for a file the task found, masks that
//! show the symbols the task is about; and each form rendered.

use std::collections::BTreeMap;

use crate::core::compose::{self, RenderedFile};
use crate::core::model::{MaskState, ViewMode};
use crate::core::walk::ResolvedItem;

use super::{FOCUS_FEW, FOCUS_SIZES, Packer, Role};

/// One form a candidate is tried in: a view mode, and for a file the task
/// found, the mask that shows what the task is about.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Form {
    pub mode: ViewMode,
    pub mask: Option<Mask>,
}

impl Form {
    /// The masked view with `symbols` in full, the rest as `rest`.
    pub(super) fn masked(symbols: BTreeMap<String, MaskState>, rest: MaskState) -> Form {
        Form {
            mode: ViewMode::Masked,
            mask: Some(Mask { symbols, rest }),
        }
    }
}

/// The symbols the task is about in full, the rest as `rest`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Mask {
    pub symbols: BTreeMap<String, MaskState>,
    pub rest: MaskState,
}

/// The modes an item is tried in, from `wanted` down.
pub(super) fn reductions(wanted: ViewMode) -> &'static [ViewMode] {
    use ViewMode::*;
    match wanted {
        Full => &[Full, Skeleton, Outline],
        Skeleton => &[Skeleton, Outline],
        Masked => &[Masked, Skeleton, Outline],
        Custom => &[Custom, Outline],
        Summary => &[Summary],
        Outline => &[Outline],
        None => &[None],
    }
}

impl Packer<'_> {
    /// The forms `resolved` is tried in, from `wanted` down: a file the
    /// task found, wanted whole, is next tried with the symbols the task
    /// is about in full and the rest as signatures, before its skeleton
    /// and outline; last with those symbols alone (for one of the first
    /// [`FOCUS_FEW`] ranked, then the weightiest of them alone).
    pub(super) fn forms(&self, resolved: &ResolvedItem, role: Role, wanted: ViewMode) -> Vec<Form> {
        let mut forms: Vec<Form> = self
            .modes(resolved, role, reductions(wanted))
            .into_iter()
            .map(|mode| Form { mode, mask: None })
            .collect();
        if !self.may_parse(resolved, role) {
            return forms;
        }
        let discovered = matches!(role, Role::Relevant | Role::Mentioned);
        if discovered && wanted == ViewMode::Full && resolved.entry == usize::MAX {
            let names = self
                .codebase
                .sources
                .symbol_names(self.codebase.root, &resolved.path);
            let names = names.as_deref();
            if let Some(mask) = names.and_then(|n| self.relevance.task_mask(n)) {
                // Last, for a file whose outline is still too large: the
                // symbols the task is about alone, the rest hidden; for
                // one of the first few files ranked, then fewer of them,
                // the weightiest, so the file the task is most about
                // comes in at its heart rather than not at all.
                let all = mask.len();
                forms.push(Form::masked(mask.clone(), MaskState::Hide));
                if self.ranked_within(resolved, FOCUS_FEW) {
                    for &most in FOCUS_SIZES.iter().filter(|&&n| n < all) {
                        if let Some(focus) = names.and_then(|n| self.relevance.task_focus(n, most))
                        {
                            forms.push(Form::masked(focus, MaskState::Hide));
                        }
                    }
                }
                forms.insert(1, Form::masked(mask, MaskState::Sig));
            }
        }
        forms
    }

    /// `resolved` in the masked view with `mask`.
    pub(super) fn render_masked(&self, resolved: &ResolvedItem, mask: &Mask) -> RenderedFile {
        let mut attempt = resolved.clone();
        let settings = attempt.settings_mut();
        settings.view_mode = ViewMode::Masked;
        settings.force_full = false;
        settings.mask_default = mask.rest;
        settings.ast_mask = mask.symbols.clone();
        compose::render_file(&self.codebase, &attempt, &self.compose_opts)
    }

    /// `resolved` rendered in `mode` (its own settings otherwise).
    pub(super) fn render_as(&self, resolved: &ResolvedItem, mode: ViewMode) -> RenderedFile {
        let mut attempt = resolved.clone();
        let settings = attempt.settings_mut();
        settings.view_mode = mode;
        settings.force_full = false;
        compose::render_file(&self.codebase, &attempt, &self.compose_opts)
    }
}
