//! False alarms of the secret scanner on real code: whole real trees
//! composed with `**` (as a user would) and scanned the way `build` scans.
//! There must be none in ordinary code: every finding blocks a build. Run
//! with `--nocapture` to see the findings and how long each scan took
//! (printed, never asserted).
//!
//! Corpora: the Python standard library and `/usr/include`, pip
//! (installed with python3), and the projects `.ci/run` downloads from
//! PyPI into `target/corpora/` (Django, numpy, pygments, requests, urllib3;
//! plus any directories named in `CTXCURATE_CORPORA`, separated by `:`).
//! The tests run only with `CTXCURATE_SLOW_TESTS=1` (`common::machine`),
//! and then a missing corpus fails them.

use crate::common::{corpus, machine};

use std::path::{Path, PathBuf};
use std::time::Instant;

use ctxcurate::core::compose::{self, ComposeOptions, Composition};
use ctxcurate::core::model::{FileItem, Preset, Settings, ViewMode};
use ctxcurate::core::secrets::{Finding, Place, Scanner};
use ctxcurate::core::sources::{Codebase, Sources};

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
    let cache = Sources::new();
    let c = compose::compose_with(&Codebase::new(root, &cache), &preset, &opts);
    let started = Instant::now();
    let findings =
        Scanner::new(&Codebase::new(root, &cache)).composition(&c, &preset, opts.max_messages);
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
    let Some(root) = machine::python_stdlib() else {
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
        let cache = Sources::new();
        let c = compose::compose_with(&Codebase::new(&root, &cache), &named, &opts);
        let found =
            Scanner::new(&Codebase::new(&root, &cache)).composition(&c, &named, opts.max_messages);
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
    let Some(root) = machine::python_stdlib() else {
        return;
    };
    let exclude = ["**/__pycache__", "site-packages", "test", "idlelib"];
    let (c, findings) = scan_tree(&root, &exclude, ViewMode::Skeleton);
    assert!(c.files.len() > 500, "the stdlib was not composed");
    assert!(findings.is_empty(), "{} findings", findings.len());
}

#[test]
fn no_findings_on_system_headers() {
    let Some(root) = machine::usr_include() else {
        return;
    };
    let (c, findings) = scan_tree(root, &[], ViewMode::Full);
    assert!(c.files.len() > 100, "the headers were not composed");
    assert!(findings.is_empty(), "{} findings", findings.len());
}

/// The projects `.ci/run` downloads, by folder name in `target/corpora`.
const DOWNLOADED: [&str; 5] = [
    "django-5.2.19",
    "numpy-2.4.6",
    "pygments-2.21.0",
    "requests-2.34.2",
    "urllib3-2.8.0",
];

/// Downloaded projects: `target/corpora/*` (filled by `.ci/run`), pip's
/// own sources and the directories in `CTXCURATE_CORPORA`.
fn downloaded_corpora(pip: PathBuf) -> Vec<PathBuf> {
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
    dirs.push(pip);
    dirs
}

/// A finding in a test suite or the documentation (a docs folder, or a
/// Markdown or reStructuredText file): test fixtures plant
/// secret-shaped values on purpose (Django's tests of its own secret
/// cleansing, CSRF secrets) and docs show example passwords. They are
/// printed and counted, not held to zero; ordinary code is.
fn in_tests_or_docs(finding: &Finding) -> bool {
    let Place::File { path, .. } = &finding.place else {
        return false;
    };
    path.split('/')
        .any(|part| matches!(part, "tests" | "test" | "testing" | "docs" | "doc"))
        // A package's README and other prose (axios's README shows an
        // example login) are documentation wherever they sit.
        || [".md", ".rst"].iter().any(|ext| path.ends_with(ext))
}

#[test]
fn no_findings_on_downloaded_projects() {
    let what = format!(
        "target/corpora/{{{}}} (downloaded by .ci/run)",
        DOWNLOADED.join(",")
    );
    let all_there = || {
        DOWNLOADED
            .iter()
            .all(|name| machine::downloaded_dir(name).is_some())
            .then_some(())
    };
    let Some(()) = machine::need(&what, all_there) else {
        return;
    };
    let Some(pip) = machine::pip() else {
        return;
    };
    let dirs = downloaded_corpora(pip);
    let mut in_code = Vec::new();
    let mut in_tests = 0;
    for dir in &dirs {
        let (_, findings) = scan_tree(dir, &[], ViewMode::Full);
        let (tests, code): (Vec<Finding>, Vec<Finding>) =
            findings.into_iter().partition(in_tests_or_docs);
        in_tests += tests.len();
        in_code.extend(code.into_iter().map(|f| format!("{}: {f}", dir.display())));
    }
    eprintln!("{in_tests} findings in test suites and docs");
    assert!(
        in_code.is_empty(),
        "findings in code:\n{}",
        in_code.join("\n")
    );
}

/// Django's own package, in every view a build offers: issue 22 found its
/// template docstring (`>>> token = 'variable|default:"…"'`) blocking
/// every full, skeleton and packed build.
#[test]
fn no_findings_in_djangos_package_in_any_view() {
    let Some(root) = machine::downloaded("django-5.2.19") else {
        return;
    };
    for mode in [ViewMode::Full, ViewMode::Skeleton] {
        let (c, findings) = scan_tree(&root.join("django"), &[], mode);
        assert!(c.files.len() > 500, "Django was not composed");
        assert!(findings.is_empty(), "{mode}: {} findings", findings.len());
    }
}
