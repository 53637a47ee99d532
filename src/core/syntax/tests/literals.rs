//! Python data tables: large literals outside function bodies become
//! one-line stand-ins in the skeleton, the outline and `masked` under
//! `sig`/`agg`; small literals, docstrings and literals inside functions
//! stay as they are.

use std::fmt::Write;

use insta::assert_snapshot;

use super::masked;
use crate::core::model::MaskState::{Agg, Def, Sig};
use crate::core::syntax::literals::LARGE_LITERAL_BYTES;
use crate::core::syntax::{Lang, outline, parse, skeleton};

/// `n` lines of `line(i)`, each indented by four spaces.
fn rows(n: usize, line: impl Fn(usize) -> String) -> String {
    (0..n).fold(String::new(), |mut out, i| {
        let _ = writeln!(out, "    {}", line(i));
        out
    })
}

/// A module with one table of each kind, small literals that stay, and
/// a function whose literal is its own business.
fn tables() -> String {
    let emoji = rows(120, |i| format!("\"name_{i}\": \"\\U0001F{i:03X}\","));
    let names = rows(150, |i| format!("\"word{i}\","));
    let order = rows(40, |i| {
        (0..12)
            .map(|j| (i * 12 + j).to_string())
            .collect::<Vec<_>>()
            .join(", ")
            + ","
    });
    let keywords = rows(150, |i| format!("\"kw{i}\","));
    let license = (0..30).fold(String::new(), |mut out, i| {
        let _ = writeln!(out, "Line {i} of a license text that goes on.");
        out
    });
    let blob = "\\x00".repeat(300);
    let rules = rows(80, |i| format!("(r\"rule{i}\", Token.Name),"));
    let local = rows(70, |i| format!("\"local{i}\","));
    format!(
        r#""""Tables of a module."""
import sys

__all__ = ["Lexer", "lookup"]

# Emoji by name.
_EMOJI = {{
{emoji}}}

NAMES = [
{names}]  # noqa: E501

ORDER = (
{order})
KEYWORDS = frozenset({{
{keywords}}})
STARTS = array("I", (
{order}), order=[
{names}])
LICENSE = """
{license}"""
BLOB = b"{blob}"
first = second = [
{names}]
INLINE = [
{names}]; after = 1
small = {{"a": 1, "b": 2}}

if sys.version_info >= (3, 8):
    TABLE = (
{order}    )


class Lexer:
    """A lexer with a class-level table."""

    name = "demo"
    tokens = {{
        "root": [
{rules}        ],
    }}

    def get(self, key):
        """A literal inside a function stays whole."""
        table = [
{local}        ]
        return table[key]


def lookup(name):
    return _EMOJI[name]
"#
    )
}

#[test]
fn skeleton_collapses_every_table_and_keeps_small_literals() {
    let source = tables();
    let tree = parse(Lang::Python, &source);
    let skeleton = skeleton(&tree, &source);
    assert!(!parse(Lang::Python, &skeleton).has_errors, "{skeleton}");
    assert_snapshot!(skeleton);
}

#[test]
fn outline_shows_the_stand_in_in_constant_signatures() {
    let source = tables();
    assert_snapshot!(outline(&parse(Lang::Python, &source)));
}

#[test]
fn masked_sig_collapses_tables_and_def_shows_them_whole() {
    let source = tables();
    let tree = parse(Lang::Python, &source);
    assert_eq!(
        masked(Lang::Python, &source, Sig, &[]),
        skeleton(&tree, &source),
        "sig everywhere is still the skeleton"
    );
    assert_eq!(masked(Lang::Python, &source, Def, &[]), source);
    let mixed = masked(
        Lang::Python,
        &source,
        Sig,
        &[("Lexer.get", Def), ("_EMOJI", Def), ("NAMES", Agg)],
    );
    assert_snapshot!(mixed);
    let agg = masked(Lang::Python, &source, Agg, &[]);
    assert_snapshot!(agg);
}

#[test]
fn threshold_is_on_the_literal_source_size() {
    let items = |n: usize| (0..n).map(|i| format!("{i:>4},")).collect::<String>();
    // `[` + n × 5 bytes + `]`: 204 items are 1022 bytes, 205 are 1027.
    let just_under = format!("A = [{}]\n", items(204));
    let just_over = format!("A = [{}]\n", items(205));
    assert!(just_under.len() - 5 <= LARGE_LITERAL_BYTES);
    assert!(just_over.len() - 5 > LARGE_LITERAL_BYTES);
    let skel = |s: &str| skeleton(&parse(Lang::Python, s), s);
    assert_eq!(skel(&just_under), just_under);
    assert_eq!(skel(&just_over), "A = [...]  # list, 205 items\n");
}

#[test]
fn docstrings_stay_whole_and_one_line_tables_collapse_under_agg() {
    let long_doc = "x".repeat(2000);
    let source = format!(
        "\"\"\"{long_doc}\"\"\"\nclass K:\n    (\"\"\"{long_doc}\"\"\")\nW = \"{long_doc}\"\n\"{long_doc}\"\n"
    );
    let tree = parse(Lang::Python, &source);
    let skel = skeleton(&tree, &source);
    assert_eq!(
        skel,
        format!(
            "\"\"\"{long_doc}\"\"\"\nclass K:\n    (\"\"\"{long_doc}\"\"\")\nW = \"...\"  # str, 2,002 chars\n\"...\"  # str, 2,002 chars\n"
        )
    );
    let agg = masked(Lang::Python, &source, Agg, &[]);
    assert!(agg.contains("W = \"...\"  # str, 2,002 chars\n"), "{agg}");
    assert!(!agg.contains(&format!("W = \"{long_doc}")), "{agg}");
}

#[test]
fn a_literal_collapses_whatever_call_builds_the_value() {
    let words = rows(300, |i| format!("\"word{i}\","));
    let spaced: String = (0..300).map(|i| format!(" word{i}")).collect();
    let cases = [
        (
            format!("A = frozenset({{\n{words}}})\n"),
            "A = frozenset({...})  # set, 300 items",
        ),
        (
            format!("B = frozenset(\"\"\"{spaced}\"\"\".split())\n"),
            "B = frozenset(\"...\".split())  # str, 2,296 chars",
        ),
        (
            format!("C = frozenset(map(str.lower, [\n{words}]))\n"),
            "C = frozenset(map(str.lower, [...]))  # list, 300 items",
        ),
        (
            format!("D = set([\n{words}]) | {{\n{words}}}\n"),
            "D = set([...]) | {...}  # list, 300 items; set, 300 items",
        ),
        (
            format!("E = tuple(sorted({{\n{words}}}))\n"),
            "E = tuple(sorted({...}))  # set, 300 items",
        ),
        (
            format!("F = frozenset(x for x in [\n{words}])\n"),
            "F = frozenset(x for x in [...])  # list, 300 items",
        ),
    ];
    for (src, want) in cases {
        let tree = parse(Lang::Python, &src);
        assert_eq!(skeleton(&tree, &src).trim_end(), want);
    }
}
