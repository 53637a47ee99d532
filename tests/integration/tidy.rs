//! Tidy checks on the source tree itself (as rust-analyzer's `tidy`): rules
//! of the house that no compiler enforces: every `.rs` file under `src/`
//! and `benches/` opens with a `//!` line saying what it is (STYLE.md 8),
//! so a reader who opens any file learns its purpose first; and modules
//! follow one file convention (no `mod.rs`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::source::rust_files;

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = ["src", "benches"]
        .iter()
        .flat_map(|dir| rust_files(&root.join(dir)))
        .collect();
    // A walk that found nothing would pass whatever the files say.
    assert!(files.len() > 100, "only {} files found", files.len());
    let offenders: Vec<String> = files
        .iter()
        .filter(|path| {
            let text =
                fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            !text.starts_with("//!")
        })
        .map(|path| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "these files do not open with a `//!` line on their purpose \
         (STYLE.md 8):\n  {}",
        offenders.join("\n  ")
    );
}

/// One module-file convention: a module with children is `foo.rs` beside
/// its folder `foo/`, never `foo/mod.rs` (a newcomer finds a module by its
/// name, and editors' tabs do not all read `mod.rs`).
#[test]
fn no_module_is_a_mod_rs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = ["src", "tests", "benches"]
        .iter()
        .flat_map(|dir| rust_files(&root.join(dir)))
        .collect();
    assert!(files.len() > 100, "only {} files found", files.len());
    let offenders: Vec<String> = files
        .iter()
        .filter(|path| path.file_name().is_some_and(|n| n == "mod.rs"))
        .map(|path| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "these modules are `mod.rs` files; move each to `<folder>.rs` beside its folder:\n  {}",
        offenders.join("\n  ")
    );
}
