//! What a preset composes to, for every front end: its files as
//! `core::compose` renders them, and — when the preset asks for one with
//! `repo_map = N` — a repo map of the project's other files ranked around
//! its targets, exactly as a packed build ranks them (without the files
//! the preset excludes). `core::engine` builds every composition (for
//! `ctxcurate build`, `stats` and the TUI's preview, gauge, `y` and `w`)
//! from [`parts`], so an accepted discovery composes to the files and the
//! map it packed.

use std::collections::HashSet;

use crate::core::compose::{self, ComposeOptions, MapPart, Parts, RenderedFile};
use crate::core::discovery::graph::ImportGraph;
use crate::core::discovery::pack;
use crate::core::discovery::repo_map;
use crate::core::model::{Preset, Settings, TokenizerKind};
use crate::core::sources::Codebase;

/// What the repo map of a preset needs besides the compose options.
#[derive(Debug, Clone, PartialEq)]
pub struct MapOptions {
    /// Counts the map's size against `Preset::repo_map`.
    pub tokenizer: TokenizerKind,
    /// Folders searched for `#include` (as in discovery).
    pub include_dirs: Vec<String>,
}

impl MapOptions {
    /// As the settings say.
    pub fn from_settings(settings: &Settings) -> Self {
        MapOptions {
            tokenizer: settings.tokenizer,
            include_dirs: settings.include_dirs.clone(),
        }
    }
}

/// `preset`'s composition of `codebase` up to the text (see
/// [`compose::Parts`]). With `repo_map > 0` and targets, the map lists the files the
/// context does not hold, ranked around the targets and the files the
/// task names, in at most `repo_map` tokens; without targets there is
/// nothing to rank around and no map.
pub fn parts(
    codebase: &Codebase,
    preset: &Preset,
    opts: &ComposeOptions,
    map: &MapOptions,
) -> Parts {
    compose::render_parts(codebase, preset, opts, map_for(preset, map))
}

/// What makes the repo map of [`parts`] from the rendered files (for a
/// caller that renders them itself, as a streamed build does).
pub fn map_for<'a>(
    preset: &'a Preset,
    map: &'a MapOptions,
) -> impl FnOnce(&[RenderedFile], &[String], &Codebase) -> MapPart + 'a {
    move |files, plain, codebase| {
        if preset.targets.is_empty() {
            return MapPart::default();
        }
        let graph = ImportGraph::build_viewed(codebase, &map.include_dirs, preset);
        let ranked = pack::ranking(codebase, preset, &preset.targets, &graph).ranked;
        let shown: HashSet<&str> = files
            .iter()
            .filter(|f| f.aggregate)
            .map(|f| f.path.as_str())
            .chain(plain.iter().map(String::as_str))
            .collect();
        let map = repo_map::build(codebase, &ranked, &shown, preset.repo_map, map.tokenizer);
        let mut notes = graph.limits();
        notes.extend(map.note);
        MapPart {
            text: (!map.text.is_empty()).then_some(map.text),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::compose::Bodies;
    use crate::core::model::FileItem;

    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (rel, text) in [
            ("app.py", "from pkg.core import App\n\nApp().run()\n"),
            ("pkg/__init__.py", ""),
            (
                "pkg/core.py",
                "from pkg.util import helper\n\nclass App:\n    def run(self):\n        return helper()\n",
            ),
            ("pkg/util.py", "def helper():\n    return 1\n"),
        ] {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    fn compose_of(dir: &std::path::Path, preset: &Preset) -> String {
        let opts = ComposeOptions::from_settings(&Settings::default());
        let map = MapOptions::from_settings(&Settings::default());
        let sources = crate::core::sources::Sources::new();
        parts(&Codebase::new(dir, &sources), preset, &opts, &map)
            .assemble(preset, &opts, Bodies::Keep)
            .text
    }

    #[test]
    fn a_preset_with_a_map_lists_what_its_files_do_not_hold() {
        let dir = project();
        let mut preset = Preset {
            targets: vec!["app.py".into()],
            ..Preset::default()
        };
        preset.files.push(FileItem::new("app.py"));
        let plain = compose_of(dir.path(), &preset);
        assert!(!plain.contains("pkg/util.py"), "{plain}");
        preset.repo_map = 500;
        let mapped = compose_of(dir.path(), &preset);
        assert!(mapped.starts_with(&plain[..plain.len() - 1]), "{mapped}");
        assert!(mapped.contains("pkg/core.py"), "{mapped}");
        assert!(mapped.contains("pkg/util.py"), "{mapped}");
        // The file in the context is not in its map.
        let map = &mapped[plain.len()..];
        assert!(!map.contains("app.py"), "{map}");
    }

    #[test]
    fn no_targets_no_map() {
        let dir = project();
        let mut preset = Preset {
            repo_map: 500,
            ..Preset::default()
        };
        preset.files.push(FileItem::new("app.py"));
        let text = compose_of(dir.path(), &preset);
        assert!(!text.contains("pkg/util.py"), "{text}");
    }
}
