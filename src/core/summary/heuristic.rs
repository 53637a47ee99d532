//! Heuristic summaries: instant, offline, per file type (docs/ARCHITECTURE.md, "core::summary"). Code
//! gets its module docstring (or leading comment) line and an outline of its
//! top-level symbols with line counts; Markdown its heading tree with each
//! section's first sentence; TOML, JSON, YAML and INI their key paths
//! (`keys`); anything else its first lines. Every summary ends with the
//! file's line and byte counts, and is never longer than the file: a file
//! too small to summarize is its own summary.
//!
//! These are pure functions of (path, text); caching them on disk and the
//! optional external summarizer live in `summarizer`.

mod keys;

use std::fmt::Write;

use crate::core::syntax::{self, Lang};
use crate::text::words::noun_for;

/// Lines of a plain text file kept in its summary.
const HEAD_LINES: usize = 10;
/// Bumped whenever a heuristic summary changes, so summaries cached on
/// disk by an older version are recomputed, never served.
pub const VERSION: &str = "heuristic-6";

/// A summary of `text`, chosen by the extension of `path`.
pub fn summarize(path: &str, text: &str) -> String {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    // Markdown has a grammar but is prose: its own summary below.
    let body = if let Some(lang) = Lang::detect(path, text).filter(|l| l.is_code()) {
        code_summary(lang, text)
    } else {
        match ext.as_str() {
            "md" | "markdown" => markdown_summary(text),
            "toml" => keys::toml(text),
            "json" => keys::json(text),
            "yaml" | "yml" => keys::yaml(text),
            "ini" | "cfg" | "conf" => keys::ini(text),
            _ => None,
        }
        .unwrap_or_else(|| head_summary(text))
    };
    let mut out = body.trim_end().to_string();
    let _ = write!(
        out,
        "\n({}, {})\n",
        count(line_count(text), "line"),
        count(text.len(), "byte")
    );
    // A tiny file says more than any summary of it, in fewer bytes.
    if out.len() >= text.len() {
        return text.to_string();
    }
    out
}

/// `1 line`, `4062 bytes`: the noun from the shared rule, the digits plain
/// (not `text::words::plural`'s `4,062`), because a summary is text the
/// model reads, cached on disk and pinned by golden outputs.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {}", noun_for(n, noun))
}

fn line_count(text: &str) -> usize {
    text.lines().count()
}

/// Keywords that open a signature and say what it defines.
const NAMES_ITS_KIND: &[&str] = &[
    "class",
    "def",
    "async",
    "struct",
    "union",
    "enum",
    "namespace",
    "typedef",
];

fn code_summary(lang: Lang, text: &str) -> String {
    let tree = syntax::parse(lang, text);
    let mut out = String::new();
    if let Some(doc) = &tree.module_doc {
        let _ = writeln!(out, "{doc}");
    }
    for sym in &tree.symbols {
        // `class Point` and `def f()` name their kind already.
        let first = sym.signature.split_whitespace().next().unwrap_or_default();
        let kind = if NAMES_ITS_KIND.contains(&first) {
            String::new()
        } else {
            format!("{} ", sym.kind.as_str())
        };
        let _ = writeln!(
            out,
            "- {kind}`{}` (L{}-{}, {})",
            sym.signature,
            sym.start_line,
            sym.end_line,
            count(sym.end_line + 1 - sym.start_line, "line")
        );
    }
    if tree.symbols.is_empty() && tree.module_doc.is_none() {
        // Its first lines, but never its licence banner.
        return head_summary(&tree.without_licence(text));
    }
    out
}

/// Heading tree with the first sentence under each heading.
fn markdown_summary(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut want_sentence = false;
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let level = trimmed.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&level) && trimmed[level..].starts_with(' ') {
            let _ = writeln!(
                out,
                "{}- {}",
                "  ".repeat(level - 1),
                trimmed[level..].trim()
            );
            want_sentence = true;
        } else if want_sentence && !trimmed.is_empty() {
            let _ = writeln!(out, "  {}", first_sentence(trimmed));
            want_sentence = false;
        }
    }
    (!out.is_empty()).then_some(out)
}

pub(crate) fn first_sentence(text: &str) -> &str {
    let end = text
        .match_indices(['.', '!', '?'])
        .map(|(i, _)| i + 1)
        .find(|&i| text[i..].is_empty() || text[i..].starts_with(' '))
        .unwrap_or(text.len());
    clip(&text[..end], 160)
}

pub(crate) fn clip(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn head_summary(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().take(HEAD_LINES) {
        let _ = writeln!(out, "{}", clip(line, 200));
    }
    if line_count(text) > HEAD_LINES {
        out.push_str("…\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_headings_and_sentences() {
        let md = "# Title\n\nIntro here. More text that is long enough to be cut away.\n\n```\n# not a heading\n```\n## Part\nBody line! And the rest of the section, which the summary leaves out.\n";
        assert_eq!(
            summarize("README.md", md),
            "- Title\n  Intro here.\n  - Part\n  Body line!\n(9 lines, 170 bytes)\n"
        );
    }

    #[test]
    fn toml_key_paths() {
        let src =
            "[a]\nx = 1\nname = \"n\"\nlist = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]\n";
        assert_eq!(
            summarize("c.toml", src),
            "a.list = [14 items]\na.name = \"n\"\na.x = 1\n(4 lines, 76 bytes)\n"
        );
    }

    #[test]
    fn code_outline_with_line_counts() {
        let src = "\"\"\"Tools for things.\n\nMore detail.\n\"\"\"\n\ndef f(a, b):\n    x = a + b\n    y = x * 2\n    return y\n\n\nclass K:\n    def m(self):\n        return 1\n";
        assert_eq!(
            summarize("t.py", src),
            "Tools for things.\n- `def f(a, b)` (L6-9, 4 lines)\n- `class K` (L12-14, 3 lines)\n(14 lines, 139 bytes)\n"
        );
    }

    #[test]
    fn plain_text_head() {
        let text: String = (1..=12)
            .map(|i| format!("this is line number {i}\n"))
            .collect();
        let s = summarize("notes.txt", &text);
        assert!(s.starts_with("this is line number 1\n"));
        assert!(s.contains("line number 10\n…\n(12 lines, "), "{s}");
        assert!(!s.contains("line number 11"));
    }

    /// express's `index.js`: its banner, then one line of code. The
    /// summary starts with the code, not the licence.
    #[test]
    fn the_summary_never_starts_with_a_licence_banner() {
        let express = "/*!\n * express\n * Copyright(c) 2009-2013 TJ Holowaychuk\n \
                       * Copyright(c) 2013 Roman Shtylman\n * Copyright(c) 2014-2015 Douglas Christopher Wilson\n \
                       * MIT Licensed\n */\n\n'use strict';\n\nmodule.exports = require('./lib/express');\n";
        assert_eq!(
            summarize("index.js", express),
            "'use strict';\n\nmodule.exports = require('./lib/express');\n(11 lines, 224 bytes)\n"
        );
        let go = "// Copyright 2009 The Go Authors. All rights reserved.\n\
                  // Use of this source code is governed by a BSD-style\n\
                  // license that can be found in the LICENSE file.\n\n\
                  // Package sort sorts.\npackage sort\n\nfunc Ints(x []int) {\n\tsortInts(x)\n}\n";
        assert!(summarize("sort.go", go).starts_with("Package sort sorts.\n- "));
    }

    #[test]
    fn a_tiny_file_is_its_own_summary() {
        assert_eq!(summarize("x.json", "{oops"), "{oops");
        assert_eq!(summarize("a.md", "# A\n\nHi.\n"), "# A\n\nHi.\n");
    }
}
