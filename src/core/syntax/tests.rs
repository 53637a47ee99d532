//! Unit tests of the syntax module: golden outputs on small fixtures per
//! language (symbols, skeleton, outline, every mask state) and robustness
//! on garbage. Snapshots live in `snapshots/`; review a changed one by eye
//! before accepting it (`INSTA_UPDATE=always cargo test`).

mod c;
mod c_walk;
mod cpp;
mod kotlin_swift;
mod langs;
mod literals;
mod preproc;
mod project_macros;
mod python;
mod python_walk;
mod robust;
mod shapes;

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::core::model::MaskState;

use super::{Lang, SymbolTree, parse};

/// Every symbol on one line: path, kind, lines and signature.
fn listing(tree: &SymbolTree) -> String {
    let mut out = String::new();
    for s in tree.iter() {
        let _ = writeln!(
            out,
            "{} [{}] L{}-{} | {}",
            s.path,
            s.kind.as_str(),
            s.start_line,
            s.end_line,
            s.signature
        );
    }
    out
}

/// The paths of a tree, depth-first.
fn paths(tree: &SymbolTree) -> Vec<&str> {
    tree.iter().map(|s| s.path.as_str()).collect()
}

/// Every symbol's name and first line, in order.
fn names_and_lines(tree: &SymbolTree) -> Vec<(String, usize)> {
    tree.iter()
        .map(|s| (s.name.clone(), s.start_line))
        .collect()
}

/// A mask from `path=state` pairs.
fn mask(pairs: &[(&str, MaskState)]) -> BTreeMap<String, MaskState> {
    pairs.iter().map(|(p, s)| (p.to_string(), *s)).collect()
}

/// `masked` of `source` parsed as `lang`.
fn masked(lang: Lang, source: &str, default: MaskState, pairs: &[(&str, MaskState)]) -> String {
    let tree = parse(lang, source);
    super::masked(&tree, source, default, &mask(pairs))
}

#[test]
fn every_query_compiles_and_names_only_known_kinds() {
    use super::lang::{Capture, compile_query};
    for lang in Lang::all() {
        let query = compile_query(lang).unwrap_or_else(|e| panic!("{lang:?} query: {e}"));
        assert!(query.captures.contains(&Capture::Name));
        assert!(
            !query.captures.contains(&Capture::Other),
            "{lang:?} query has a capture that is neither @name nor @definition.<kind>"
        );
        assert!(lang.symbol_query().is_some());
    }
}

#[test]
fn languages_by_path_and_content() {
    assert_eq!(Lang::from_path("a/b.PY"), Some(Lang::Python));
    assert_eq!(Lang::from_path("x.hpp"), Some(Lang::Cpp));
    assert_eq!(Lang::from_path("Makefile"), None);
    let cpp_header = "#pragma once\nnamespace util {\nint f();\n}\n";
    assert_eq!(Lang::detect("util.h", cpp_header), Some(Lang::Cpp));
    assert_eq!(Lang::detect("util.h", "int f(void);\n"), Some(Lang::C));
    assert_eq!(Lang::detect("util.c", cpp_header), Some(Lang::C));
}

#[test]
fn the_cpp_query_inherits_the_c_query() {
    let cpp = Lang::Cpp.query_source();
    let c = Lang::C.query_source();
    assert!(cpp.contains(&c), "C's query is not inside C++'s");
    let inherits = |q: &str| q.lines().any(|l| l.trim().starts_with("; inherits:"));
    assert!(inherits(Lang::Cpp.query_file()));
    assert!(!inherits(&cpp) && !inherits(&c));
    // Symbols only the C patterns find, seen from C++.
    let src = "typedef struct { int x; } Point;\ntypedef int Row[3];\ntypedef char * * * Names;\n\
               #define LIMIT 64\nclass A { int f(); };\n";
    let tree = parse(Lang::Cpp, src);
    assert_eq!(
        paths(&tree),
        ["Point", "Row", "Names", "LIMIT", "A", "A::f"]
    );
}

/// The Python standard library's folder on this machine, if there is one.
pub(super) fn stdlib() -> Option<std::path::PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    let dir = std::path::PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.is_dir().then_some(dir)
}
