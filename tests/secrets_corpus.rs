//! False alarms of the secret scanner on real code: whole real trees
//! composed with `**` (as a user would) and scanned the way `build` scans.
//! There must be none: every finding blocks a build. Run with
//! `--nocapture` to see the findings and how long each scan took (printed,
//! never asserted).
//!
//! Corpora: the Python standard library and `/usr/include` (on every
//! machine), and the projects `.ci/run` downloads from PyPI into
//! `target/corpora/` (pygments, requests, urllib3; or any directories
//! named in `CTXCURATE_CORPORA`, separated by `:`).

mod corpus;

use std::path::{Path, PathBuf};
use std::time::Instant;

use ctxcurate::core::cache::FileCache;
use ctxcurate::core::compose::{self, ComposeOptions, Composition};
use ctxcurate::core::model::{FileItem, Preset, Settings, ViewMode};
use ctxcurate::core::secrets::{Finding, Scanner};

/// `root` composed with `**` in `mode` (minus `exclude`), and its findings.
fn scan_tree(root: &Path, exclude: &[&str], mode: ViewMode) -> (Composition, Vec<Finding>) {
    let mut item = FileItem::new("**");
    item.view_mode = mode;
    let preset = Preset {
        files: vec![item],
        exclude: exclude.iter().map(|s| s.to_string()).collect(),
        ..Preset::default()
    };
    let opts = ComposeOptions::from_settings(&Settings::default());
    let cache = FileCache::new();
    let c = compose::compose_with(root, &preset, &opts, &cache, None);
    let started = Instant::now();
    let findings = Scanner::new(root, &cache).composition(&c, &preset, opts.max_messages);
    let bytes: usize = c.files.iter().map(|f| f.text.len()).sum();
    eprintln!(
        "{} findings in {} files ({} MB, {mode} view) of {}: scanned in {:?} ({} build)",
        findings.len(),
        c.files.len(),
        bytes / 1_000_000,
        root.display(),
        started.elapsed(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    for f in &findings {
        eprintln!("  {f}");
    }
    (c, findings)
}

#[test]
fn no_findings_on_the_python_stdlib() {
    let Some(root) = corpus::python_stdlib() else {
        eprintln!("note: python3 not installed; skipping");
        return;
    };
    // Bytecode caches and installed third-party packages are not the stdlib.
    let exclude = ["**/__pycache__", "site-packages"];
    let (c, findings) = scan_tree(&root, &exclude, ViewMode::Full);
    assert!(c.files.len() > 1000, "the stdlib was not composed");
    assert!(findings.is_empty(), "{} findings", findings.len());

    // The test suite's key files are kept out by `**` (credential files
    // join only when named); named explicitly, their keys are found.
    let keys: Vec<FileItem> = corpus::files_under(&root, &|p| {
        p.extension().is_some_and(|e| e == "pem")
            && std::fs::read_to_string(p).is_ok_and(|t| t.contains("PRIVATE KEY-----"))
    })
    .iter()
    .filter_map(|p| p.strip_prefix(&root).ok())
    .map(|p| FileItem::new(p.to_string_lossy()))
    .collect();
    assert!(
        c.files.iter().all(|f| !f.path.ends_with(".pem")),
        "a glob pulled in a key file"
    );
    if !keys.is_empty() {
        let named = Preset {
            files: keys.clone(),
            ..Preset::default()
        };
        // Named by the user (not a repository's preset): no consent asked.
        let opts = ComposeOptions {
            consent: ctxcurate::core::trust::entries::EntryConsent::own(),
            ..ComposeOptions::from_settings(&Settings::default())
        };
        let cache = FileCache::new();
        let c = compose::compose_with(&root, &named, &opts, &cache, None);
        let found = Scanner::new(&root, &cache).composition(&c, &named, opts.max_messages);
        eprintln!(
            "{} private keys found in {} .pem files",
            found.len(),
            keys.len()
        );
        assert!(found.len() >= keys.len(), "{found:?}");
    }
}

#[test]
fn no_findings_in_skeletons_of_the_python_stdlib() {
    let Some(root) = corpus::python_stdlib() else {
        return;
    };
    let exclude = ["**/__pycache__", "site-packages", "test", "idlelib"];
    let (c, findings) = scan_tree(&root, &exclude, ViewMode::Skeleton);
    assert!(c.files.len() > 500, "the stdlib was not composed");
    assert!(findings.is_empty(), "{} findings", findings.len());
}

#[test]
fn no_findings_on_system_headers() {
    let root = Path::new("/usr/include");
    if !root.join("stdio.h").is_file() {
        eprintln!("note: no /usr/include; skipping");
        return;
    }
    let (c, findings) = scan_tree(root, &[], ViewMode::Full);
    assert!(c.files.len() > 100, "the headers were not composed");
    assert!(findings.is_empty(), "{} findings", findings.len());
}

/// Downloaded projects: `target/corpora/*` (filled by `.ci/run`) and the
/// directories in `CTXCURATE_CORPORA`.
fn downloaded_corpora() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var("CTXCURATE_CORPORA")
        .map(|v| {
            v.split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default();
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpora");
    if let Ok(entries) = std::fs::read_dir(local) {
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        dirs.extend(found);
    }
    dirs
}

#[test]
fn no_findings_on_downloaded_projects() {
    let dirs = downloaded_corpora();
    if dirs.is_empty() {
        eprintln!("note: no downloaded corpora (see .ci/run); skipping");
        return;
    }
    let mut total = 0;
    for dir in &dirs {
        let (_, findings) = scan_tree(dir, &[], ViewMode::Full);
        total += findings.len();
    }
    assert_eq!(total, 0, "findings in {dirs:?}");
}
