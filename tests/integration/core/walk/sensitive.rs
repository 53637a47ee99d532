//! The credential-file names (`walk::is_sensitive`) flag no ordinary
//! source file: every file of the Python standard library, pip and
//! `/usr/include` is checked and the few flagged are printed, and must be
//! files that really are keys, certificates or credential stores.

use crate::common::{corpus, machine};

use std::path::{Path, PathBuf};

use ctxcurate::core::walk;

/// The files of `root` that `is_sensitive` flags, relative to `root`.
fn flagged(root: &Path) -> (usize, Vec<String>) {
    let files = corpus::files_under(root, &|_| true);
    let flagged = files
        .iter()
        .filter_map(|f| f.strip_prefix(root).ok())
        .map(walk::rel_string)
        .filter(|rel| walk::is_sensitive(rel))
        .collect();
    (files.len(), flagged)
}

#[test]
fn no_ordinary_source_file_is_flagged() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let Some(pip) = machine::pip() else {
        return;
    };
    let Some(include) = machine::usr_include() else {
        return;
    };
    let roots: Vec<PathBuf> = vec![stdlib, pip, include.to_path_buf()];
    for root in roots {
        let (total, flagged) = flagged(&root);
        println!(
            "{}: {} of {total} files flagged",
            root.display(),
            flagged.len()
        );
        for rel in &flagged {
            println!("  {rel}");
            // Test certificates and keys the stdlib ships are what the
            // rule is for; nothing else may be flagged.
            let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
            assert!(
                [".pem", ".key", ".p12", ".pfx", ".crt"]
                    .iter()
                    .any(|e| name.ends_with(e)),
                "{}: {rel} flagged as a credential file",
                root.display()
            );
        }
    }
}
