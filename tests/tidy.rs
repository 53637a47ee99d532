//! Tidy checks on the source tree itself (as rust-analyzer's `tidy`): rules
//! of the house that no compiler enforces. Today one: every `.rs` file
//! under `src/` and `benches/` opens with a `//!` line saying what it is
//! (STYLE.md 8), so a reader who opens any file learns its purpose first.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, sorted, so the failure lists offenders
/// in the same order on every machine.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

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
