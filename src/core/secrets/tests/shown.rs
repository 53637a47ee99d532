//! A view that cuts a secret short (a summary's `value…`, an outline's
//! first hundred characters, a repo-map signature cut at 120) is judged
//! by the file's own text: a secret whose beginning it shows is a
//! finding on the file's line; one it leaves out is none.

use super::*;

const TOKEN: &str = "Zq8lm3xv9kp2rt7wHj4Kd9sLp0Qm3Xv7Rt2YbNcW5eF1gA6hB8jC4kD2mE7nG3pH9qJ5rK1sL8tM6uN4vP2wQ0xR7yS3zT9aU5bV1cW8dX6eY4fZ2gA0hB7iC3jD";

fn rendered(path: &str, mode: ViewMode, text: &str) -> RenderedFile {
    RenderedFile {
        path: path.into(),
        mode,
        text: text.into(),
        error: None,
        skipped: None,
        notes: Vec::new(),
        aggregate: true,
        key: String::new(),
        body_at: None,
    }
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = format!(
        "import os\n\nAPI_TOKEN = \"{TOKEN}\"\n\n\ndef connect():\n    password = \"Xk9vQ2mLr7TzWq4N\"\n    return password\n"
    );
    std::fs::write(dir.path().join("consts.py"), source).expect("write");
    dir
}

#[test]
fn an_outline_that_cuts_a_secret_is_a_finding_on_the_files_line() {
    let dir = project();
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let cut = format!(
        "import os\n\nAPI_TOKEN = \"{}...\n\ndef connect(): ...\n",
        &TOKEN[..90]
    );
    let findings = Scanner::new(&codebase).file(&rendered("consts.py", ViewMode::Outline, &cut));
    let places: Vec<String> = findings.iter().map(|f| f.place.to_string()).collect();
    assert_eq!(places, ["consts.py:3"]);
    assert!(!findings[0].to_string().contains(&TOKEN[..8]));
    // The password in the folded body is not shown: no finding.
    let folded = "import os\n\ndef connect(): ...\n";
    let findings = Scanner::new(&codebase).file(&rendered("consts.py", ViewMode::Outline, folded));
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_repo_map_signature_cut_short_is_a_finding_on_the_files_line() {
    let dir = project();
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let map = format!(
        "## Repo map\n\nProject files ranked by relevance (1 with outlines, 2 of 2 listed):\n\n\
         other.py\nconsts.py\n  API_TOKEN = \"{}…\n  def connect()\n",
        &TOKEN[..100]
    );
    assert_eq!(
        map_outlines(&map),
        [(
            "consts.py",
            &*format!("  API_TOKEN = \"{}…\n  def connect()\n", &TOKEN[..100])
        )]
    );
    let found = Scanner::new(&codebase).map_shown(&map);
    let places: Vec<String> = found.iter().map(|(f, _)| f.place.to_string()).collect();
    assert_eq!(places, ["consts.py:3 (repo map)"]);
    let folded = "## Repo map\n\nconsts.py\n  def connect()\n";
    assert!(Scanner::new(&codebase).map_shown(folded).is_empty());
}
