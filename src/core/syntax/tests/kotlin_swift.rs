//! Kotlin and Swift beyond the golden fixtures: the per-symbol masks on
//! their own shapes (a companion object, an extension function, a Swift
//! extension named by its protocols), and robustness: token soup made of
//! their keywords, every prefix and suffix of the fixtures, and deep
//! nesting never panic and keep the tree's invariants.

use insta::assert_snapshot;

use super::masked;
use super::robust::check;
use crate::core::model::MaskState::{Agg, Def, Hide, Sig};
use crate::core::syntax::{Lang, parse};

const KOTLIN: &str = include_str!("fixtures/sample.kt");
const SWIFT: &str = include_str!("fixtures/Sample.swift");

#[test]
fn kotlin_masks_per_symbol() {
    let out = masked(
        Lang::Kotlin,
        KOTLIN,
        Hide,
        &[
            ("Point", Sig),
            ("Point.Companion.of", Def),
            ("Point.scale", Agg),
            ("Registry.add#2", Def),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn swift_masks_per_symbol() {
    let out = masked(
        Lang::Swift,
        SWIFT,
        Agg,
        &[
            ("Point", Sig),
            ("Point.dist", Def),
            ("extension Point: CustomStringConvertible", Hide),
            ("perimeter", Sig),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn kotlin_names_that_need_care() {
    let src = "fun <K, V> Map.Entry<K, V>.pretty(): String = \"$key\"\n\
               fun String?.orNone(): String = this ?: \"none\"\n\
               fun `a test name`() {}\n\
               class A {\n    companion object Factory {\n        fun make() = A()\n    }\n}\n";
    let tree = parse(Lang::Kotlin, src);
    let paths: Vec<&str> = tree.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "Map.Entry.pretty",
            "String.orNone",
            "a test name",
            "A",
            "A.Factory",
            "A.Factory.make"
        ]
    );
}

/// Keywords and punctuation of both languages.
const TOKENS: &[&str] = &[
    "fun ",
    "class ",
    "object ",
    "companion ",
    "interface ",
    "enum ",
    "val ",
    "var ",
    "get() ",
    "set(v) ",
    "init ",
    "constructor",
    "typealias ",
    "func ",
    "struct ",
    "protocol ",
    "extension ",
    "subscript",
    "deinit ",
    "actor ",
    "static ",
    "@A ",
    "`",
    "<T>",
    "->",
    ".",
    "(",
    ")",
    "{",
    "}",
    ":",
    "=",
    ",",
    "\n",
    "\"",
    "\"\"\"",
    "${",
    "\\(",
    "/*",
    "*/",
    "// c\n",
    "x",
    "Point",
    "é",
    "𝄞",
    "\0",
];

#[test]
fn token_soup_never_panics() {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    };
    for _ in 0..120 {
        let len = next(250);
        let source: String = (0..len).map(|_| TOKENS[next(TOKENS.len())]).collect();
        check(Lang::Kotlin, &source);
        check(Lang::Swift, &source);
    }
}

#[test]
fn every_prefix_and_suffix_of_the_fixtures() {
    for (lang, text) in [(Lang::Kotlin, KOTLIN), (Lang::Swift, SWIFT)] {
        for (at, _) in text.char_indices().step_by(11) {
            check(lang, &text[..at]);
            check(lang, &text[at..]);
        }
    }
}

#[test]
fn deep_nesting_is_bounded() {
    let kotlin = "class A {\n".repeat(3_000) + &"}\n".repeat(3_000);
    check(Lang::Kotlin, &kotlin);
    let functions = "fun f() {\n".repeat(3_000) + &"}\n".repeat(3_000);
    check(Lang::Kotlin, &functions);
    let swift = "struct S {\n".repeat(3_000) + &"}\n".repeat(3_000);
    check(Lang::Swift, &swift);
    let closures = format!("let x = {}1{}\n", "{ ".repeat(5_000), " }".repeat(5_000));
    check(Lang::Swift, &closures);
    let line = "func f() -> Int { return 1 } ".repeat(3_000);
    assert_eq!(parse(Lang::Swift, &line).iter().count(), 3_000);
    check(Lang::Swift, &line);
}
