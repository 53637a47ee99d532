//! Ignore files and preset globs: the first line of the input is a
//! preset glob (and an exclusion), the rest an ignore file. Compiling and
//! matching them against a few paths never panics (a glob past the
//! bounds is an error), and expansion only yields paths of the walk.
//!
//! The ignore file is read within a walk budget of [`BUDGET`] patterns:
//! compiling the patterns (the `ignore` crate's regex set, about the
//! same cost per pattern as a real `.gitignore` of that size) was nearly
//! all of each run while the whole 16 KB input (a thousand patterns) was
//! compiled — 81 runs a second. A small budget spends the time on more
//! inputs, and reaches the cut past the budget as well.
#![no_main]

use std::path::Path;

use ctxcurate::core::model::FileItem;
use ctxcurate::core::walk::{IgnoreFileProblem, compile_glob, expand_over, ignore_matcher};
use libfuzzer_sys::fuzz_target;

/// The ignore file's share of the walk's pattern budget.
const BUDGET: usize = 64;

const FILES: &[&str] = &[
    ".env",
    "README.md",
    "a.py",
    "docs/x.md",
    "src/a/b.rs",
    "src/main.rs",
    "src/{a,b}.rs",
    "target/debug/x",
    "weird [x].txt",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (glob, ignore) = text.split_once('\n').unwrap_or((&text, ""));
    if let Ok(m) = compile_glob(glob) {
        for f in FILES {
            m.is_match(f);
        }
    }
    let files: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    let entries = [FileItem::new(glob), FileItem::new("src/**")];
    let (resolved, _problems) = expand_over(&entries, &[glob.to_string()], &files);
    for r in &resolved {
        assert!(
            files.contains(&r.path) || r.path == glob || r.path == "src/**",
            "{} is not a walked file",
            r.path
        );
    }
    let (gitignore, used, problem) = ignore_matcher(Path::new("/fuzz"), ignore, BUDGET);
    assert!(used <= BUDGET);
    if let Some(IgnoreFileProblem::OverWalkBudget { used: said }) = problem {
        assert_eq!((said, used), (BUDGET, BUDGET));
    }
    for f in FILES {
        gitignore.matched_path_or_any_parents(Path::new("/fuzz").join(f), false);
    }
});
