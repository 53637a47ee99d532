//! Licence banners: the comment block many source files open with to state
//! their copyright and licence (`// Copyright 2009 The Go Authors…`,
//! `/*! express … MIT Licensed */`, `# SPDX-License-Identifier: MIT`).
//! It says nothing about the code, so the summary never starts with it
//! (the module doc is the first other comment block) and the skeleton
//! leaves it out — a banner under a title line too.
//!
//! It works on the syntax tree's leading comment nodes (the row's comment
//! kinds), so every language's comment syntax — `//`, `#`, `--`, `/* */` —
//! is covered without a per-language prefix list. Comments group into
//! blocks: a blank line, or a change of marker (`//` then `//!`), starts a
//! new one, so a crate's `//!` docs right under a `//` banner stay docs.

use std::ops::Range;

use tree_sitter::Node;

/// The leading comments of a file: the byte ranges of its licence blocks
/// (each with the blank lines after it) — the banner it opens with, or the
/// one under a title line (`// std::rel_ops implementation -*- C++ -*-`)
/// — and the text of the other comments (the module doc's candidates), in
/// order.
pub(super) struct Leading<'s> {
    pub licence: Vec<Range<usize>>,
    pub rest: Vec<&'s str>,
}

/// Split the leading comment nodes `comments` (in source order, `source`
/// their text) into licence blocks and the rest.
pub(super) fn split<'s>(comments: &[Node], source: &'s str) -> Leading<'s> {
    let mut licence: Vec<Range<usize>> = Vec::new();
    let mut rest = Vec::new();
    for block in blocks(comments, source) {
        if is_licence(&block.text(source)) {
            let end = past_blank_lines(source, block.range.end);
            match licence.last_mut() {
                // Two blocks of one banner: one cut.
                Some(last) if last.end == block.range.start => last.end = end,
                _ => licence.push(block.range.start..end),
            }
        } else {
            rest.extend(
                block
                    .parts
                    .iter()
                    .map(|r| source.get(r.clone()).unwrap_or("")),
            );
        }
    }
    Leading { licence, rest }
}

/// One block of adjacent comments.
struct Block {
    range: Range<usize>,
    parts: Vec<Range<usize>>,
}

impl Block {
    fn text(&self, source: &str) -> String {
        self.parts
            .iter()
            .map(|r| source.get(r.clone()).unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn blocks(comments: &[Node], source: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut last: Option<(usize, &str)> = None;
    for node in comments {
        let text = source.get(node.byte_range()).unwrap_or("");
        let row = node.start_position().row;
        let joins =
            last.is_some_and(|(end_row, marker)| row <= end_row + 1 && marker == marker_of(text));
        match out.last_mut() {
            Some(block) if joins => {
                block.range.end = node.end_byte();
                block.parts.push(node.byte_range());
            }
            _ => out.push(Block {
                range: node.byte_range(),
                parts: vec![node.byte_range()],
            }),
        }
        last = Some((last_row(node), marker_of(text)));
    }
    out
}

/// The row of a node's last character (a line comment node may end after
/// its newline, at column 0 of the next row).
fn last_row(node: &Node) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    }
}

/// What a comment opens with: `//`, `//!`, `///`, `#`, `--`, `/*`, `/**`
/// — two characters, and a third only when it makes a doc comment, so a
/// rule line (`//===---===//`) is a plain `//`.
fn marker_of(text: &str) -> &str {
    let end = text
        .find(|c: char| c.is_alphanumeric() || c.is_whitespace())
        .unwrap_or(text.len());
    let opener = &text[..end];
    let mut ends = opener.char_indices().map(|(i, c)| i + c.len_utf8());
    let two = ends.nth(1).unwrap_or(opener.len());
    match opener[two..].chars().next() {
        Some(c @ ('!' | '/' | '*')) => &opener[..two + c.len_utf8()],
        _ => &opener[..two],
    }
}

/// `end` moved past the rest of its line and the blank lines after it.
fn past_blank_lines(source: &str, end: usize) -> usize {
    let bytes = source.as_bytes();
    let mut at = end.min(bytes.len());
    let mut line_end = at;
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
        if bytes[at] == b'\n' {
            line_end = at + 1;
        }
        at += 1;
    }
    line_end.max(end.min(bytes.len()))
}

/// Phrases only a licence or copyright notice uses (lowercase).
const LICENCE_PHRASES: &[&str] = &[
    "spdx-license-identifier",
    "licensed under",
    "mit licensed",
    "mit license",
    "apache license",
    "general public license",
    "gpl version",
    "runtime library exception",
    "mozilla public license",
    "this source code form is subject to",
    "permission is hereby granted",
    "redistribution and use in source and binary forms",
    "use of this source code is governed by",
    "all rights reserved",
    "copyright (c)",
    "copyright(c)",
    "copyright ©",
];

/// Whether a comment block is a licence or copyright notice: an SPDX tag,
/// a licence's own wording, or a line that opens with `Copyright`, `(c)`
/// or `©` (a doc that mentions copyright in passing is not one).
pub(super) fn is_licence(text: &str) -> bool {
    let lower = text.to_lowercase();
    LICENCE_PHRASES.iter().any(|p| lower.contains(p))
        || lower.lines().any(|line| {
            let line =
                line.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '(' && c != '©');
            line.starts_with("copyright ") || line.starts_with("(c) ") || line.starts_with('©')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn licence_wording_and_copyright_lines() {
        assert!(is_licence("// SPDX-License-Identifier: MIT"));
        assert!(is_licence(
            "/*!\n * express\n * Copyright(c) 2009-2013 TJ Holowaychuk\n * MIT Licensed\n */"
        ));
        assert!(is_licence(
            "// Copyright 2009 The Go Authors. All rights reserved."
        ));
        assert!(is_licence("-- (c) 2020 Someone"));
        assert!(is_licence(
            "# Licensed under the Apache License, Version 2.0"
        ));
        assert!(!is_licence(
            "//! Checks that copyright headers are present."
        ));
        assert!(!is_licence(
            "/// The licence of a package, as its manifest names it."
        ));
        assert!(!is_licence("// Geometry helpers for the sample."));
    }

    #[test]
    fn markers() {
        assert_eq!(marker_of("//! docs"), "//!");
        assert_eq!(marker_of("// x"), "//");
        assert_eq!(marker_of("/*!\n * x */"), "/*!");
        assert_eq!(marker_of("--[[ x ]]"), "--");
        assert_eq!(marker_of("//===---===//"), "//");
        assert_eq!(marker_of("# x"), "#");
        assert_eq!(marker_of("/**"), "/**");
        assert_eq!(marker_of(""), "");
        assert_eq!(past_blank_lines("// a\n\n\nfn f", 4), 7);
        assert_eq!(past_blank_lines("/* (c) x */ int a;", 11), 11);
    }

    use crate::core::syntax::{Lang, parse, skeleton};

    /// Each language's banner, then its real doc: the doc is the module
    /// doc and the skeleton starts after the banner.
    #[test]
    fn every_comment_syntax_skips_its_banner() {
        let cases = [
            (
                Lang::Go,
                "// Copyright 2009 The Go Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style\n// license that can be found in the LICENSE file.\n\n// Package fmt formats.\npackage fmt\n\nfunc F() { x() }\n",
                "Package fmt formats.",
                "// Package fmt formats.\n",
            ),
            (
                Lang::Rust,
                "// SPDX-License-Identifier: MIT OR Apache-2.0\n//! Tables of things.\n\nfn f() { g() }\n",
                "Tables of things.",
                "//! Tables of things.\n",
            ),
            (
                Lang::JavaScript,
                "/*!\n * express\n * Copyright(c) 2009-2013 TJ Holowaychuk\n * MIT Licensed\n */\n\n'use strict';\n",
                "",
                "'use strict';\n",
            ),
            (
                Lang::Swift,
                "//===--- Array.swift ---===//\n//\n// This source file is part of the Swift.org open source project\n//\n// Copyright (c) 2014 - 2017 Apple Inc. and the Swift project authors\n// Licensed under Apache License v2.0 with Runtime Library Exception\n//\n//===---------------===//\n\n/// Arrays.\nimport Swift\n",
                "Arrays.",
                "/// Arrays.\n",
            ),
            (
                Lang::Python,
                "# Copyright (c) 2001 Python Software Foundation.\n# Licensed under the PSF License.\n\"\"\"Tools.\"\"\"\n",
                "Tools.",
                "\"\"\"Tools.\"\"\"\n",
            ),
            (
                Lang::Bash,
                "#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n\n# Build the thing.\nf() { :; }\n",
                "Build the thing.",
                "#!/bin/sh\n# Build the thing.\n",
            ),
            (
                Lang::C,
                "/* Copyright (C) 1991-2022 Free Software Foundation, Inc.\n   This file is part of the GNU C Library.  */\n\n/* Lists.  */\nint f(void) { return 1; }\n",
                "Lists.",
                "/* Lists.  */\n",
            ),
        ];
        for (lang, src, doc, skeleton_starts) in cases {
            let tree = parse(lang, src);
            assert_eq!(tree.module_doc.as_deref().unwrap_or(""), doc, "{lang:?}");
            let skel = skeleton(&tree, src);
            assert!(skel.starts_with(skeleton_starts), "{lang:?}: {skel:?}");
            assert!(!skel.to_lowercase().contains("licen"), "{lang:?}: {skel:?}");
        }
    }

    #[test]
    fn a_doc_that_is_no_licence_stays() {
        let src = "// Geometry helpers.\n\nfn f() {}\n";
        let tree = parse(Lang::Rust, src);
        assert_eq!(tree.module_doc.as_deref(), Some("Geometry helpers."));
        assert!(tree.licence.is_empty());
        assert_eq!(skeleton(&tree, src), src);
        // A file that is only a banner: nothing left to cut past.
        let only = "// Copyright 2020 A\n";
        let tree = parse(Lang::Go, only);
        assert_eq!(tree.module_doc, None);
        assert_eq!(
            tree.licence,
            vec![Range {
                start: 0,
                end: only.len()
            }]
        );
        // GNU's shape: a title line, then the banner.
        let gnu = "// std::rel_ops implementation -*- C++ -*-\n\n// Copyright (C) 2001-2022 Free Software Foundation, Inc.\n//\n// This file is part of the GNU ISO C++ Library.\n\n/** @file */\nint f();\n";
        let tree = parse(Lang::Cpp, gnu);
        assert_eq!(
            tree.module_doc.as_deref(),
            Some("std::rel_ops implementation -*- C++ -*-")
        );
        assert_eq!(
            skeleton(&tree, gnu),
            "// std::rel_ops implementation -*- C++ -*-\n\n/** @file */\nint f();\n"
        );
    }
}
