//! The credential-file names (`walk::is_sensitive`) flag no ordinary
//! source file: every file of the Python standard library, pip and
//! `/usr/include` is checked and the few flagged are printed, and must be
//! files that really are keys, certificates or credential stores.

mod corpus;

use std::path::{Path, PathBuf};
use std::process::Command;

use ctxcurate::core::walk;

/// pip's sources, if pip is installed.
fn pip_dir() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import pip,os;print(os.path.dirname(pip.__file__))"])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.is_dir().then_some(dir)
}

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
    let roots: Vec<PathBuf> = [
        corpus::python_stdlib(),
        pip_dir(),
        Some(PathBuf::from("/usr/include")).filter(|p| p.is_dir()),
    ]
    .into_iter()
    .flatten()
    .collect();
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
