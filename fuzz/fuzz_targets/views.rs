//! Every language's symbols, skeleton, outline, masked view and the rest:
//! the first byte picks the language, the rest is the file. Never a
//! panic; `full` is the text itself; symbols stay inside the file; a
//! text file without syntax errors, in any language, keeps a skeleton and a
//! masked view without them, where no symbol appears that the file did
//! not have (they re-parse no worse than the input). Time is bounded by
//! the parse deadline (run with `-timeout`).
//!
//! The file is parsed once and every view is rendered from that tree
//! (`views::render_parsed`, as the build's cache does): rendering each
//! view with its own parse made one run four to five parses, and the
//! target made about 20 runs a second. The heuristic summary parses on
//! its own, so one input in four renders it.
#![no_main]

use std::sync::Arc;

use ctxcurate::core::model::{FileItem, MaskState, ViewMode};
use ctxcurate::core::summary::Summary;
use ctxcurate::core::summary::heuristic;
use ctxcurate::core::syntax::{self, Lang, Symbol, SymbolTree};
use ctxcurate::core::views;
use ctxcurate::core::walk;
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

/// A symbol path without the `#N` that numbers same-named siblings
/// (`ctxcurate > Usage#2 > Deep` is `ctxcurate > Usage > Deep`, `A.f#2.x`
/// is `A.f.x`; Ruby's `#method` has no digits after its `#`).
fn unnumbered(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'#' {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let end = i + 1 + digits;
            if digits > 0
                && bytes
                    .get(end)
                    .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'_')
            {
                i = end;
                continue;
            }
        }
        let ch = path[i..].chars().next().unwrap_or_default();
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}

fn all(symbols: &[Symbol], out: &mut Vec<Symbol>) {
    for s in symbols {
        out.push(s.clone());
        all(&s.children, out);
    }
}

fuzz_target!(
    // As the binary does: tree-sitter's memory counted, so a parse stops
    // at its memory bound here too (`lang::Budget`).
    // SAFETY: libFuzzer runs this once, before any input is parsed.
    init: unsafe { ctxcurate::core::syntax::allocator::install() },
    |data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let path = PATHS[pick as usize % PATHS.len()];
    let text = String::from_utf8_lossy(rest).into_owned();
    let mut item = FileItem::new(path);
    let mut parsed: Option<Arc<SymbolTree>> = None;
    // As `views::render` picks it: by name, else by a shebang.
    if let Some(lang) = Lang::detect(path, &text) {
        let tree = Arc::new(syntax::parse(lang, &text));
        parsed = Some(tree.clone());
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
        // The re-parse check is for what the product reads as text
        // (`walk::decode`): a NUL makes a file binary, never parsed, and
        // bytes that are not UTF-8 become U+FFFD, which some grammars take
        // without an error while it hides the rest of the file (the Kotlin
        // one does), so such a file only seems clean.
        let is_text = matches!(
            walk::decode(rest.to_vec()),
            walk::Content::Text { lossy: false, .. }
        );
        // A view ends its last line: a file without a final newline is
        // clean only if it stays clean with one (tree-sitter's Ruby reads
        // `w *` at the end of the file as a call, and with a newline as an
        // error: fuzzing, round 22).
        let ended = text.ends_with('\n') || !syntax::parse(lang, &format!("{text}\n")).has_errors;
        if is_text && ended && !tree.has_errors && !tree.parse_stopped {
            // A file without syntax errors keeps none in its skeleton or
            // masked view, in every language, and no symbol appears
            // there that the file did not have.
            // Compared without the `#2` that tells same-named siblings
            // apart: a hidden `Usage` makes the next one the first.
            let before: Vec<String> = symbols.iter().map(|s| unnumbered(&s.path)).collect();
            for mode in [ViewMode::Skeleton, ViewMode::Masked] {
                let view = render(&text, mode, &item, &parsed, path);
                let again = syntax::parse(lang, &view.text);
                if again.parse_stopped {
                    continue;
                }
                assert!(
                    !again.has_errors,
                    "the {mode} view of a clean {path} has a syntax error at {:?}:\n{}",
                    again.error_line, view.text
                );
                let mut after = Vec::new();
                all(&again.symbols, &mut after);
                for s in &after {
                    assert!(
                        before.contains(&unnumbered(&s.path)),
                        "{} appeared in the {mode} view of {path}:\n{}",
                        s.path,
                        view.text
                    );
                }
            }
        }
    }
    for &mode in ViewMode::ALL {
        // The heuristic summary parses the file again on its own (a third
        // of the time went there): one input in four asks for it.
        if mode == ViewMode::Summary && pick & 0x60 != 0 {
            continue;
        }
        let view = render(&text, mode, &item, &parsed, path);
        if mode == ViewMode::Full {
            assert_eq!(&*view.text, text.as_str());
        }
    }
});

/// `mode` of `text` from the tree parsed once (none: not a language).
fn render(
    text: &str,
    mode: ViewMode,
    item: &FileItem,
    tree: &Option<Arc<SymbolTree>>,
    path: &str,
) -> views::View {
    views::render_parsed(
        &Arc::from(text),
        mode,
        item,
        || tree.clone(),
        || Summary {
            text: heuristic::summarize(path, text),
            notes: Vec::new(),
        },
    )
}
