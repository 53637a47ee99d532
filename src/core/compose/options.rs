//! How to compose: [`ComposeOptions`], resolved from the settings and the
//! command line, and the rule that picks each file's view mode under a
//! strategy or a focus build.

use std::sync::Arc;

use super::changes::Changes;
use crate::core::model::{FileItem, Format, Settings, Strategy, TreeMode, ViewMode};
use crate::core::syntax::Lang;
use crate::core::trust::entries::EntryConsent;
use crate::core::walk;

/// How to compose, resolved from settings and command-line overrides.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposeOptions {
    pub strategy: Strategy,
    pub summary_only: bool,
    pub format: Format,
    /// Only the newest N discussion messages (0: all).
    pub max_messages: usize,
    /// A focus build (`build --focus`, see `core::discovery::pack`): these files in full
    /// whatever their mode, every other code file as a skeleton. Each is a
    /// path, a basename or a `/`-suffix of a path.
    pub focus: Vec<String>,
    /// How files are read (size cap, outside-root entries).
    pub read: walk::ReadPolicy,
    /// The `[project] ignore`/`unignore` patterns of a walk the
    /// composition makes itself (globs, `tree = "all"`).
    pub walk: walk::WalkPatterns,
    /// What the text shows besides the files: the tree, the changes.
    pub sections: Sections,
    /// Which of the preset's explicit entries may be read (a project
    /// preset's entries to credential files, VCS folders and ignored
    /// files need the user's consent, see `core::trust::entries`). The
    /// default holds them: a front end sets it from
    /// `Project::entry_consent`.
    pub consent: EntryConsent,
}

/// The sections a composition adds around its files, which a packed build
/// (`core::discovery::pack`) shows too and counts against its budget first.
#[derive(Debug, Clone, PartialEq)]
pub struct Sections {
    /// Which directory tree goes before the files (see `compose::tree`).
    pub tree: TreeMode,
    /// The project's files, for `tree = "all"`: filled from the walk by
    /// `compose_with` and `pack` when the mode needs it and this is empty.
    pub project_files: Arc<[String]>,
    /// The `## Changes` section (`build --diff`), last; `None`: none.
    pub changes: Option<Arc<Changes>>,
    /// A pack's `## Left out` note, rendered for the format already
    /// (`core::discovery::pack::left_out`), after the repo map; `None`: none.
    pub left_out: Option<Arc<str>>,
}

impl Sections {
    /// The sections the settings ask for.
    pub fn from_settings(s: &Settings) -> Self {
        Sections {
            tree: s.tree,
            project_files: Arc::from([]),
            changes: None,
            left_out: None,
        }
    }

    /// `true` when the tree needs the project's files and has none yet.
    pub fn needs_project_files(&self) -> bool {
        self.tree == TreeMode::All && self.project_files.is_empty()
    }
}

impl Default for Sections {
    /// As the built-in settings say.
    fn default() -> Self {
        Sections::from_settings(&Settings::default())
    }
}

impl ComposeOptions {
    pub fn from_settings(s: &Settings) -> Self {
        ComposeOptions {
            strategy: s.strategy,
            summary_only: s.summary_only,
            format: s.format,
            max_messages: s.max_messages,
            focus: Vec::new(),
            read: walk::ReadPolicy::from_settings(s),
            walk: walk::WalkPatterns::from_settings(s),
            sections: Sections::from_settings(s),
            consent: EntryConsent::default(),
        }
    }

    /// `true` for a focus build.
    pub fn focused(&self) -> bool {
        !self.focus.is_empty()
    }

    /// `true` when `path` is one of the focus files.
    pub fn is_focus(&self, path: &str) -> bool {
        self.focus.iter().any(|f| focus_matches(f, path))
    }

    /// `true` when every file is rendered as a summary.
    pub fn summarizes(&self) -> bool {
        match self.strategy {
            Strategy::Summarize => true,
            Strategy::Full => false,
            Strategy::Auto => self.summary_only,
        }
    }

    /// The mode a file renders in under this strategy (or focus build:
    /// focus and `force_full` files full, slices and excluded files as
    /// they are, other code files as skeletons — signatures with the
    /// bodies elided —, anything else by its own mode).
    pub fn mode_for(&self, item: &FileItem) -> ViewMode {
        self.mode_at(&item.path, item)
    }

    /// [`ComposeOptions::mode_for`] the file `path` under the settings
    /// `item` (whose own path may be the glob that brought it in).
    pub fn mode_at(&self, path: &str, item: &FileItem) -> ViewMode {
        if self.focused() {
            return if item.force_full || self.is_focus(path) {
                ViewMode::Full
            } else if matches!(item.view_mode, ViewMode::Custom | ViewMode::None) {
                item.view_mode
            } else if Lang::from_path(path).is_some_and(Lang::is_code) {
                ViewMode::Skeleton
            } else {
                item.view_mode
            };
        }
        if item.force_full || self.strategy == Strategy::Full {
            ViewMode::Full
        } else if self.summarizes() {
            ViewMode::Summary
        } else {
            item.view_mode
        }
    }
}

/// `true` when the focus argument `focus` names `path`: the same path, its
/// basename, or a suffix of it starting after a `/`.
pub fn focus_matches(focus: &str, path: &str) -> bool {
    let focus = focus.trim_start_matches("./");
    !focus.is_empty()
        && (path == focus
            || path
                .strip_suffix(focus)
                .is_some_and(|head| head.ends_with('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focus_matching_and_modes() {
        assert!(focus_matches("src/a.py", "src/a.py"));
        assert!(focus_matches("a.py", "src/a.py"));
        assert!(focus_matches("./src/a.py", "src/a.py"));
        assert!(focus_matches("core/a.py", "src/core/a.py"));
        assert!(!focus_matches("ore/a.py", "src/core/a.py"));
        assert!(!focus_matches("a.py", "src/ba.py"));
        assert!(!focus_matches("", "a.py"));
        let mut o = ComposeOptions::from_settings(&Settings::default());
        o.strategy = Strategy::Summarize;
        o.focus = vec!["a.py".into()];
        let item = |path: &str, mode| FileItem {
            view_mode: mode,
            ..FileItem::new(path)
        };
        assert_eq!(
            o.mode_for(&item("x/a.py", ViewMode::Outline)),
            ViewMode::Full
        );
        assert_eq!(
            o.mode_for(&item("b.py", ViewMode::Full)),
            ViewMode::Skeleton
        );
        assert_eq!(
            o.mode_for(&item("b.c", ViewMode::Masked)),
            ViewMode::Skeleton
        );
        assert_eq!(
            o.mode_for(&item("b.py", ViewMode::Custom)),
            ViewMode::Custom
        );
        assert_eq!(o.mode_for(&item("r.md", ViewMode::Full)), ViewMode::Full);
        let mut forced = item("c.py", ViewMode::Summary);
        forced.force_full = true;
        assert_eq!(o.mode_for(&forced), ViewMode::Full);
    }

    #[test]
    fn strategy_modes() {
        let mut item = FileItem::new("a.py");
        item.view_mode = ViewMode::Skeleton;
        let mut o = ComposeOptions::from_settings(&Settings::default());
        assert_eq!(o.mode_for(&item), ViewMode::Skeleton);
        o.summary_only = true;
        assert_eq!(o.mode_for(&item), ViewMode::Summary);
        o.strategy = Strategy::Full;
        assert_eq!(o.mode_for(&item), ViewMode::Full);
        o.strategy = Strategy::Summarize;
        item.force_full = true;
        assert_eq!(o.mode_for(&item), ViewMode::Full);
    }
}
