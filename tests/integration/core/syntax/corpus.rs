//! Real-code tests of `core::syntax` against independent oracles:
//!
//! - the whole Python standard library: every skeleton (and two masked
//!   renderings) must parse with Python's own `ast`, and every
//!   function/class name `ast` finds in the original must be one of our
//!   symbol names (one python3 process checks everything, overlapping our
//!   work);
//! - every C header directly in `/usr/include`: every function gcc
//!   declares from it (`gcc -aux-info`, which prints each prototype with
//!   its file and line) must be a function symbol spanning that line;
//! - libstdc++ headers: known classes and methods by path, and a
//!   non-trivial number of symbols overall;
//! - truncated real files of all three languages: every view renders
//!   without panicking.
//!
//! They run only with `CTXCURATE_SLOW_TESTS=1` (`common::machine`), and
//! then a missing tool or directory fails them, never passes silently.

use crate::common::{corpus, machine};

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use ctxcurate::core::model::MaskState;
use ctxcurate::core::syntax::{self, Lang, SymbolKind, SymbolTree};
use rayon::prelude::*;

use corpus::{PyChecker, gcc_declarations, read_sources};

/// Definitions tree-sitter-python cannot see, each with the reason. In
/// test_compile.py, `test_weird_attribute_position_regressions` dedents
/// inside parentheses (`(bar.\n        baz)`), which the grammar's
/// indentation scanner cannot follow; the two classes after it end up
/// inside an ERROR node.
const PYTHON_GAPS: [(&str, &[&str]); 1] = [(
    "/test/test_compile.py",
    &["TestExpressionStackSize", "TestStackSizeStability"],
)];

/// Whether every missing name of `file` is a documented gap.
fn is_documented_gap(file: &str, missing: &[String]) -> bool {
    PYTHON_GAPS.iter().any(|(suffix, names)| {
        file.ends_with(suffix) && missing.iter().all(|m| names.contains(&m.as_str()))
    })
}

#[test]
fn python_stdlib_skeletons_parse_and_keep_every_definition() {
    let started = Instant::now();
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let files = corpus::files_under(&stdlib, &|p| {
        p.extension().is_some_and(|e| e == "py")
            && !p.components().any(|c| c.as_os_str() == "site-packages")
    });
    let (sources, not_utf8) = read_sources(&files);
    let checker = machine::require("python3 to run its `ast` oracle", PyChecker::start());
    let with_errors = AtomicUsize::new(0);
    sources
        .par_iter()
        .for_each_with(checker.sender(), |sender, (path, text)| {
            let tree = syntax::parse(Lang::Python, text);
            if tree.has_errors {
                with_errors.fetch_add(1, Ordering::Relaxed);
            }
            let entry = corpus::PyEntry {
                file: path.clone(),
                renderings: python_renderings(&tree, text),
                names: tree.iter().map(|s| s.name.clone()).collect(),
            };
            sender.send(entry).expect("python3 checker gone");
        });
    let rust_time = started.elapsed();
    let report = checker.finish();
    eprintln!(
        "python corpus: {} files ({} not UTF-8: {:?}), {} skipped as invalid Python, \
         {} with tree-sitter errors, {} definitions checked; rust {:.1?}, total {:.1?}",
        files.len(),
        not_utf8.len(),
        not_utf8,
        report.invalid_original.len(),
        with_errors.load(Ordering::Relaxed),
        report.definitions,
        rust_time,
        started.elapsed()
    );
    assert!(
        report.invalid_original.len() < 20,
        "too many files Python rejects: {:?}",
        report.invalid_original
    );
    assert!(
        report.bad_rendering.is_empty(),
        "renderings that do not parse: {:#?}",
        report.bad_rendering
    );
    let missing: Vec<_> = report
        .missing
        .iter()
        .filter(|(file, names)| !is_documented_gap(file, names))
        .collect();
    assert!(
        missing.is_empty(),
        "definitions ast sees that are not symbols: {missing:#?}"
    );
    assert!(report.definitions > 10_000, "suspiciously few definitions");
}

/// Third-party headers whose prototypes are built from the library's own
/// macros (`NCURSES_EXPORT(type)`, `FORM_EXPORT(type)`, `SQLITE_API`,
/// `XMLPARSEAPI(type)`, `GPG_ERR_INLINE`, `_IDN2_API`) or, in form.h,
/// whose structs are split by `#if` inside their bodies: without a
/// preprocessor those lines are not C, so gcc's list is no oracle for
/// them. Their misses are printed, not asserted; they are still parsed.
const NOT_C_WITHOUT_CPP: [&str; 7] = [
    "curses.h",
    "term.h",
    "form.h",
    "gcrypt.h",
    "idn2.h",
    "sqlite3.h",
    "expat.h",
];

/// The views of a Python file that must still be Python: the skeleton,
/// and — when tree-sitter read the file without error, so its symbols are
/// whole — every top-level symbol folded to one line (`agg`), and a hidden
/// file showing only its last nested symbol in full and its first
/// top-level symbol as a signature (`shell`: containers around visible
/// members).
fn python_renderings(tree: &SymbolTree, text: &str) -> Vec<(&'static str, String)> {
    let skeleton = ("skeleton", syntax::skeleton(tree, text));
    if tree.has_errors {
        return vec![skeleton];
    }
    let mut shell = BTreeMap::new();
    if let Some(first) = tree.symbols.first() {
        shell.insert(first.path.clone(), MaskState::Sig);
    }
    let nested = tree
        .symbols
        .iter()
        .flat_map(|s| s.children.iter().flat_map(|c| c.iter()));
    if let Some(last) = nested.last() {
        shell.insert(last.path.clone(), MaskState::Def);
    }
    vec![
        skeleton,
        (
            "agg",
            syntax::masked(tree, text, MaskState::Agg, &BTreeMap::new()),
        ),
        ("shell", syntax::masked(tree, text, MaskState::Hide, &shell)),
    ]
}

#[test]
fn c_headers_have_every_function_gcc_declares() {
    let Some(dir) = machine::usr_include() else {
        return;
    };
    let Some(()) = machine::program("gcc", "--version", "gcc") else {
        return;
    };
    let headers = corpus::files_in(dir, "h");
    let (sources, _) = read_sources(&headers);
    let results: Vec<(String, usize, Vec<String>)> = sources
        .par_iter()
        .map(|(path, text)| {
            let tree = syntax::parse(Lang::C, text);
            let decls = gcc_declarations(path, text).unwrap_or_default();
            (path.clone(), decls.len(), missing_functions(&tree, &decls))
        })
        .collect();
    let checked: usize = results.iter().map(|r| r.1).sum();
    eprintln!(
        "C headers: {} files, {checked} gcc declarations checked",
        results.len()
    );
    let excluded = |path: &str| {
        NOT_C_WITHOUT_CPP
            .iter()
            .any(|h| path.ends_with(&format!("/{h}")))
    };
    for (path, total, missing) in results.iter().filter(|r| excluded(&r.0)) {
        eprintln!(
            "  (not asserted) {path}: {} of {total} found",
            total - missing.len()
        );
    }
    let failures: Vec<_> = results
        .iter()
        .filter(|(path, _, missing)| !excluded(path) && !missing.is_empty())
        .collect();
    assert!(
        failures.is_empty(),
        "functions gcc sees that we miss: {failures:#?}"
    );
    assert!(
        checked > 1000,
        "suspiciously few gcc declarations: {checked}"
    );
}

/// `decls` (name, line) that no function symbol of that name spans.
fn missing_functions(tree: &SymbolTree, decls: &[(String, usize)]) -> Vec<String> {
    let functions: Vec<_> = tree.iter().filter(|s| s.kind.is_function()).collect();
    decls
        .iter()
        .filter(|(name, line)| {
            !functions
                .iter()
                .any(|s| &s.name == name && s.start_line <= *line && *line <= s.end_line)
        })
        .map(|(name, line)| format!("{name} (line {line})"))
        .collect()
}

#[test]
fn c_headers_have_known_names() {
    let expect: &[(&str, &[(&str, SymbolKind)])] = &[
        (
            "stdio.h",
            &[
                ("fopen", SymbolKind::Function),
                ("printf", SymbolKind::Function),
                ("va_list", SymbolKind::Typedef),
                ("fpos_t", SymbolKind::Typedef),
            ],
        ),
        (
            "string.h",
            &[
                ("strlen", SymbolKind::Function),
                ("memcpy", SymbolKind::Function),
            ],
        ),
        (
            "stdlib.h",
            &[
                ("malloc", SymbolKind::Function),
                ("qsort", SymbolKind::Function),
                ("div_t", SymbolKind::Struct),
            ],
        ),
        (
            "zlib.h",
            &[
                ("struct z_stream_s", SymbolKind::Struct),
                ("struct gz_header_s", SymbolKind::Struct),
                ("ZLIB_VERSION", SymbolKind::Constant),
            ],
        ),
    ];
    let Some(include) = machine::usr_include() else {
        return;
    };
    for (header, names) in expect {
        let path = include.join(header);
        let text = machine::require(
            &path.display().to_string(),
            std::fs::read_to_string(&path).ok(),
        );
        let tree = syntax::parse(Lang::C, &text);
        for (name, kind) in *names {
            let found = tree.iter().find(|s| s.path == *name || s.name == *name);
            assert_eq!(
                found.map(|s| s.kind),
                Some(*kind),
                "{header}: {name} missing or of the wrong kind"
            );
        }
    }
}

#[test]
fn libstdcxx_headers_have_known_classes_and_methods() {
    let Some(dir) = machine::cpp_include() else {
        return;
    };
    let expect: &[(&str, &[&str])] = &[
        (
            "bits/stl_vector.h",
            &[
                "std::_Vector_base",
                "std::vector",
                "std::vector::push_back",
                "std::vector::size",
                "std::vector::operator[]",
                "std::vector::_M_fill_initialize",
            ],
        ),
        (
            "bits/basic_string.h",
            &[
                "std::basic_string",
                "std::basic_string::size",
                "std::to_string",
            ],
        ),
        (
            "bits/shared_ptr_base.h",
            &[
                "std::_Sp_counted_base",
                "std::__shared_ptr",
                "std::__shared_ptr::get",
                "std::__weak_ptr",
            ],
        ),
        (
            "optional",
            &[
                "std::optional",
                "std::bad_optional_access",
                "std::optional::value_or",
                "std::make_optional",
            ],
        ),
        (
            "variant",
            &[
                "std::variant",
                "std::visit",
                "std::get_if",
                "std::variant::index",
            ],
        ),
    ];
    for (file, paths) in expect {
        let path = dir.join(file);
        let text = machine::require(
            &path.display().to_string(),
            std::fs::read_to_string(&path).ok(),
        );
        let tree = syntax::parse(Lang::Cpp, &text);
        let have: BTreeSet<String> = tree.iter().map(|s| strip_dup(&s.path)).collect();
        for want in *paths {
            assert!(
                have.contains(*want),
                "{file}: {want} not found; outline:\n{}",
                syntax::outline(&tree)
            );
        }
    }
}

#[test]
fn libstdcxx_headers_all_parse_to_many_symbols() {
    let Some(dir) = machine::cpp_include() else {
        return;
    };
    let mut files = corpus::files_in(&dir.join("bits"), "h");
    files.extend(corpus::files_in(&dir, ""));
    let (sources, _) = read_sources(&files);
    let counts: Vec<(String, usize)> = sources
        .par_iter()
        .map(|(path, text)| {
            let tree = syntax::parse(Lang::Cpp, text);
            let _ = syntax::skeleton(&tree, text);
            let _ = syntax::outline(&tree);
            let _ = syntax::masked(&tree, text, MaskState::Sig, &BTreeMap::new());
            (path.clone(), tree.iter().count())
        })
        .collect();
    let total: usize = counts.iter().map(|c| c.1).sum();
    eprintln!("libstdc++: {} files, {total} symbols", counts.len());
    assert!(counts.len() > 50, "few libstdc++ headers found");
    assert!(total > 10_000, "suspiciously few C++ symbols: {total}");
    let empty: Vec<_> = counts.iter().filter(|c| c.1 == 0).map(|c| &c.0).collect();
    assert!(
        empty.len() < counts.len() / 5,
        "many headers without symbols: {empty:?}"
    );
}

#[test]
fn truncated_real_files_render_without_panicking() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let Some(include) = machine::usr_include() else {
        return;
    };
    let Some(cpp) = machine::cpp_include() else {
        return;
    };
    let mut samples: Vec<(Lang, String)> = Vec::new();
    for (lang, dir, names) in [
        (
            Lang::Python,
            stdlib.as_path(),
            ["argparse.py", "dataclasses.py"],
        ),
        (Lang::C, include, ["stdlib.h", "zlib.h"]),
        (Lang::Cpp, cpp.as_path(), ["bits/stl_vector.h", "optional"]),
    ] {
        for name in names {
            let path = dir.join(name);
            let text = machine::require(
                &path.display().to_string(),
                std::fs::read_to_string(&path).ok(),
            );
            samples.push((lang, text));
        }
    }
    samples.par_iter().for_each(|(lang, text)| {
        for cut in cut_points(text, 4) {
            corpus::render_every_view(*lang, &text[..cut]);
            corpus::render_every_view(*lang, &text[cut..]);
        }
    });
}

/// `n` char-boundary offsets spread over `text`.
fn cut_points(text: &str, n: usize) -> Vec<usize> {
    (1..n)
        .map(|i| {
            let mut at = text.len() * i / n;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        })
        .collect()
}

/// A path without its duplicate number or definition mark
/// (`std::vector::vector#3`, `f#def`).
fn strip_dup(path: &str) -> String {
    let mut base = path;
    while let Some((head, n)) = base.rsplit_once('#') {
        if n != "def" && !n.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        base = head;
    }
    base.to_string()
}
