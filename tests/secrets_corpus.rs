//! False positives of the secret scanner on real code: the whole Python
//! standard library composed with `**` (as a user would) and scanned.
//! The findings are printed (run with `--nocapture`) and must stay few.

mod corpus;

use ctxcurate::core::compose::{self, ComposeOptions};
use ctxcurate::core::model::{FileItem, Preset, Settings};
use ctxcurate::core::secrets;

#[test]
fn few_findings_on_the_python_stdlib() {
    let Some(root) = corpus::python_stdlib() else {
        eprintln!("note: python3 not installed; skipping");
        return;
    };
    let preset = Preset {
        files: vec![FileItem::new("**")],
        // Bytecode caches and the test suite's huge data files are noise.
        exclude: vec!["**/__pycache__".into(), "site-packages".into()],
        ..Preset::default()
    };
    let opts = ComposeOptions::from_settings(&Settings::default());
    let c = compose::compose(&root, &preset, &opts);
    let findings = secrets::scan_composition(&c);
    let bytes: usize = c.files.iter().map(|f| f.text.len()).sum();
    eprintln!(
        "{} findings in {} files ({} MB) of {}",
        findings.len(),
        c.files.len(),
        bytes / 1_000_000,
        root.display()
    );
    for f in &findings {
        eprintln!("  {f}");
    }
    assert!(c.files.len() > 1000, "the stdlib was not composed");
    // Real hits (test keys embedded in Python sources) count too; the
    // bound catches a scanner that starts flagging ordinary code.
    assert!(findings.len() <= 25, "{} findings", findings.len());

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
        let c = compose::compose(&root, &named, &opts);
        let found = secrets::scan_composition(&c);
        eprintln!(
            "{} private keys found in {} .pem files",
            found.len(),
            keys.len()
        );
        assert!(found.len() >= keys.len(), "{found:?}");
    }
}
