//! Every language's symbols, skeleton, outline, masked view and the rest:
//! the first byte picks the language, the rest is the file. Never a
//! panic; `full` is the text itself; symbols stay inside the file; a
//! Python file without syntax errors keeps a skeleton without them. Time
//! is bounded by the parse deadline (run with `-timeout`).
#![no_main]

use ctxcurate::core::model::{FileItem, MaskState, ViewMode};
use ctxcurate::core::syntax::{self, Lang, Symbol};
use ctxcurate::core::views;
use libfuzzer_sys::fuzz_target;

const PATHS: &[&str] = &[
    "m.py",
    "m.c",
    "m.cpp",
    "m.rs",
    "m.ts",
    "m.tsx",
    "m.js",
    "m.go",
    "M.java",
    "m.cs",
    "m.sh",
    "m.php",
    "m.kt",
    "m.swift",
    "m.rb",
    "m.lua",
    "m.md",
    "notes.txt",
];

fn all(symbols: &[Symbol], out: &mut Vec<Symbol>) {
    for s in symbols {
        out.push(s.clone());
        all(&s.children, out);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let path = PATHS[pick as usize % PATHS.len()];
    let text = String::from_utf8_lossy(rest).into_owned();
    let mut item = FileItem::new(path);
    if let Some(lang) = Lang::from_path(path) {
        let tree = syntax::parse(lang, &text);
        let lines = text.lines().count().max(1);
        let mut symbols = Vec::new();
        all(&tree.symbols, &mut symbols);
        for (i, s) in symbols.iter().enumerate() {
            assert!(s.start_line >= 1 && s.start_line <= s.end_line, "{s:?}");
            assert!(s.end_line <= lines + 1, "{} past {lines} lines", s.end_line);
            let state = [
                MaskState::Def,
                MaskState::Sig,
                MaskState::Agg,
                MaskState::Hide,
            ][i % 4];
            item.ast_mask.insert(s.path.clone(), state);
        }
        item.mask_default = [MaskState::Sig, MaskState::Hide][pick as usize % 2];
        if lang == Lang::Python && !tree.has_errors && !tree.parse_stopped {
            let skeleton = views::render(path, &text, ViewMode::Skeleton, &item);
            let again = syntax::parse(lang, &skeleton.text);
            assert!(
                again.parse_stopped || !again.has_errors,
                "the skeleton of a clean file has syntax errors:\n{}",
                skeleton.text
            );
        }
    }
    for &mode in ViewMode::ALL {
        let view = views::render(path, &text, mode, &item);
        if mode == ViewMode::Full {
            assert_eq!(&*view.text, text.as_str());
        }
    }
});
