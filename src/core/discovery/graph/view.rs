//! The imports of a file as the user shows it: a file of the preset in
//! the masked view with symbols set to `hide` imports only what its shown
//! text imports. An import inside a hidden symbol (`use crate::test::*`
//! in a hidden `mod tests`, a function-local import of a hidden function)
//! is not an edge of the file's view, so discovery does not follow it.
//! The text read for imports is the file's with each hidden symbol
//! blanked (lines kept, so nothing else moves).

use std::collections::HashMap;

use crate::core::model::{FileItem, MaskState, Preset, ViewMode};
use crate::core::sources::Codebase;
use crate::core::syntax::{self, Symbol};
use crate::core::walk;

/// The text to read imports from, by path, for each explicit entry of
/// `preset` whose view hides symbols; a file not named reads as it is.
pub fn shown_texts(codebase: &Codebase, preset: &Preset) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for item in &preset.files {
        if walk::is_glob(&item.path) || item.effective_mode() != ViewMode::Masked {
            continue;
        }
        let hides = item.mask_default == MaskState::Hide
            || item.ast_mask.values().any(|s| *s == MaskState::Hide);
        if !hides {
            continue;
        }
        let Some(tree) = codebase.sources.symbols(codebase.root, &item.path) else {
            continue;
        };
        let file = codebase.sources.file(codebase.root, &item.path);
        let Some(text) = file.text() else {
            continue;
        };
        let mut ranges = Vec::new();
        hidden(item, &tree.symbols, item.mask_default, &mut ranges);
        if !ranges.is_empty() {
            out.insert(item.path.clone(), blank(text, &ranges));
        }
    }
    out
}

/// The byte ranges of the symbols `item` hides (a hidden symbol's
/// children go with it), by the masked view's rule: a symbol's own
/// entry, else its parent's state, else the file's default.
fn hidden(
    item: &FileItem,
    symbols: &[Symbol],
    inherited: MaskState,
    out: &mut Vec<std::ops::Range<usize>>,
) {
    for s in symbols {
        let state = syntax::mask_state_of(&item.ast_mask, s, inherited);
        if state == MaskState::Hide {
            out.push(s.range.clone());
        } else {
            hidden(item, &s.children, state, out);
        }
    }
}

/// `text` with every byte in `ranges` but line breaks made a space.
fn blank(text: &str, ranges: &[std::ops::Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in ranges {
        let end = r.end.min(bytes.len());
        for b in bytes.get_mut(r.start.min(end)..end).into_iter().flatten() {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes were written over whole symbols' ranges (which
    // start and end on character boundaries); a lossy read is a guard.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::ImportGraph;
    use crate::core::sources::Sources;

    /// A function-local import of a hidden function is no edge of the
    /// file's view; shown, it is.
    #[test]
    fn an_import_inside_a_hidden_symbol_is_not_followed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let write = |p: &str, t: &str| std::fs::write(dir.path().join(p), t).expect("write");
        write(
            "app.py",
            "import os\n\n\ndef run():\n    return os.getcwd()\n\n\ndef _debug():\n    import helpers\n    return helpers\n",
        );
        write("helpers.py", "def dump():\n    return 1\n");
        let files = vec!["app.py".to_string(), "helpers.py".to_string()];
        let sources = Sources::new();
        let codebase = Codebase::new(dir.path(), &sources).with_walk(&files);
        let mut item = FileItem::new("app.py");
        item.view_mode = ViewMode::Masked;
        item.ast_mask.insert("_debug".into(), MaskState::Hide);
        let mut preset = Preset::default();
        preset.files.push(item.clone());
        let shown = shown_texts(&codebase, &preset);
        assert!(!shown["app.py"].contains("import helpers"), "{shown:?}");
        let graph = ImportGraph::build_viewed(&codebase, &[], &preset);
        assert!(graph.imports_of("app.py").is_empty());
        preset.files[0]
            .ast_mask
            .insert("_debug".into(), MaskState::Sig);
        let graph = ImportGraph::build_viewed(&codebase, &[], &preset);
        assert_eq!(graph.imports_of("app.py"), ["helpers.py"]);
    }
}
