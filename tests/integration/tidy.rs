//! Tidy checks on the source tree itself (as rust-analyzer's `tidy`): rules
//! of the house that no compiler enforces. Today one: every `.rs` file
//! under `src/` and `benches/` opens with a `//!` line saying what it is
//! (STYLE.md 8), so a reader who opens any file learns its purpose first.

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
