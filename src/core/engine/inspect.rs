//! One file as a front end asks about it outside a build: its entry in a
//! preset (with its mode, masks and `force_full`), its symbol tree and
//! what each symbol costs.

use std::sync::Arc;

use crate::core::model::{FileItem, Preset};
use crate::core::symbol_costs::{self, SymbolCosts};
use crate::core::syntax::SymbolTree;
use crate::core::walk;

use super::Workspace;

impl Workspace<'_> {
    /// `rel`'s entry in `preset` as a build resolves it: its own entry, or
    /// the glob entry that pulls it in; `None` when the preset does not
    /// show it.
    pub fn entry_for(&self, preset: &Preset, rel: &str) -> Option<FileItem> {
        walk::entry_for(&preset.files, &preset.exclude, rel)
    }

    /// The symbol tree of `rel` (parsed once per content, kept warm in
    /// the sources); `None` for a file without a grammar or unreadable.
    pub fn symbols(&self, rel: &str) -> Option<Arc<SymbolTree>> {
        self.sources.symbols(&self.root, rel)
    }

    /// The symbols of `rel` with what each costs in the project's
    /// tokenizer (see `core::symbol_costs`); `None` as for
    /// [`Workspace::symbols`].
    pub fn symbol_costs(&self, rel: &str) -> Option<SymbolCosts> {
        symbol_costs::symbol_costs(self.sources, &self.root, rel, self.settings.tokenizer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Settings, ViewMode};
    use crate::core::sources::Sources;

    #[test]
    fn a_file_has_the_entry_of_the_glob_that_shows_it_and_its_symbols() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("src/a.py"),
            "class A:\n    def run(self):\n        pass\n",
        )
        .unwrap();
        let mut preset = Preset::default();
        let mut glob = FileItem::new("src/*.py");
        glob.view_mode = ViewMode::Skeleton;
        preset.files.push(glob);
        let sources = Sources::new();
        let ws = Workspace::shared(dir.path(), Settings::default(), &sources);
        let item = ws.entry_for(&preset, "src/a.py").unwrap();
        assert_eq!(item.view_mode, ViewMode::Skeleton);
        assert!(ws.entry_for(&preset, "b.py").is_none());
        let tree = ws.symbols("src/a.py").unwrap();
        assert!(tree.find("A.run").is_some());
    }
}
