//! One file as a front end asks about it outside a build: its entry in a
//! preset (with its mode, masks and `force_full`) and its symbol tree.

use std::sync::Arc;

use crate::core::model::{FileItem, Preset};
use crate::core::syntax::SymbolTree;
use crate::core::walk;

use super::Workspace;

impl Workspace<'_> {
    /// `rel`'s entry in `preset` as a build resolves it: its own entry, or
    /// the glob entry that pulls it in; `None` when the preset does not
    /// show it.
    pub fn entry_for(&self, preset: &Preset, rel: &str) -> Option<FileItem> {
        let files = [rel.to_string()];
        let (resolved, _) = walk::expand_over(&preset.files, &preset.exclude, &files);
        resolved.into_iter().find(|r| r.path == rel).map(|r| r.item)
    }

    /// The symbol tree of `rel` (parsed once per content, kept warm in
    /// the sources); `None` for a file without a grammar or unreadable.
    pub fn symbols(&self, rel: &str) -> Option<Arc<SymbolTree>> {
        self.sources.symbols(&self.root, rel)
    }
}
