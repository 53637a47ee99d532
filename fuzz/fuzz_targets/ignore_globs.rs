//! Ignore files and preset globs: the first line of the input is a
//! preset glob (and an exclusion), the rest an ignore file. Compiling and
//! matching them against a few paths never panics (a glob past the
//! bounds is an error), expansion only yields paths of the walk, and the
//! ignore file's patterns, matched in chunks picked by their literals
//! (`walk::PatternSet`), say of each path what one matcher of all the
//! lines says.
//!
//! The ignore file is read within a walk budget of [`BUDGET`] patterns:
//! compiling the patterns (the `ignore` crate's regex set, about the
//! same cost per pattern as a real `.gitignore` of that size) was nearly
//! all of each run while the whole 16 KB input (a thousand patterns) was
//! compiled — 81 runs a second. A small budget spends the time on more
//! inputs, reaches the cut past the budget as well, and still makes
//! three chunks.
#![no_main]

use std::path::Path;

use ctxcurate::core::model::FileItem;
use ctxcurate::core::walk::{
    IgnoreFileProblem, compile_glob, expand_over, ignore_matcher, ignore_pattern_lines,
};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use libfuzzer_sys::fuzz_target;

/// The ignore file's share of the walk's pattern budget.
const BUDGET: usize = 80;

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
    let dir = Path::new("/fuzz");
    let (set, used, problem) = ignore_matcher(dir, ignore, BUDGET);
    assert!(used <= BUDGET);
    if let Some(IgnoreFileProblem::OverWalkBudget { used: said }) = problem {
        assert_eq!((said, used), (BUDGET, BUDGET));
    }
    let (lines, _) = ignore_pattern_lines(ignore, BUDGET);
    let mut whole = GitignoreBuilder::new(dir);
    for line in &lines {
        let _ = whole.add_line(None, line);
    }
    let whole = whole.build().unwrap_or_else(|_| Gitignore::empty());
    // The walk's files, and the glob line itself as a path (its literals
    // then occur in it).
    let asked = FILES.iter().copied().chain([glob]);
    for f in asked {
        let path = dir.join(f);
        for is_dir in [false, true] {
            let (got, want) = (set.matched(&path, is_dir), whole.matched(&path, is_dir));
            assert_eq!(
                (got.is_ignore(), got.is_whitelist()),
                (want.is_ignore(), want.is_whitelist()),
                "{f} dir={is_dir}"
            );
        }
    }
});
