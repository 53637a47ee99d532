//! The question before copying likely secrets names each finding by file
//! and line, as `ctxcurate build` does, and scrolls when there are more
//! than the screen holds; the status line names the first.

use crate::common;

use common::Project;
use common::harness::open;

/// `n` GitHub tokens, one per line from line 2 of `keys.py`.
fn many_secrets(n: usize) -> Project {
    let p = Project::empty();
    let mut text = String::from("\"\"\"Tokens.\"\"\"\n");
    for i in 0..n {
        text.push_str(&format!(
            "TOKEN_{i} = \"ghp_{i:02}cdefghijklmnopqrstuvwxyz0123456789\"\n"
        ));
    }
    p.write("keys.py", &text);
    p.write("app.py", "def main():\n    return 1\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"app.py\", \"keys.py\"]\n",
    );
    p
}

#[test]
fn the_secrets_question_lists_file_and_line_and_scrolls() {
    let p = many_secrets(30);
    let mut h = open(&p, 100, 24);
    h.key("y");
    assert!(h.copied.is_empty());
    let screen = h.screen();
    insta::assert_snapshot!("confirm_secrets_first_page", screen);
    assert!(screen.contains("keys.py:2: GitHub token"), "{screen}");
    assert!(
        !screen.contains("keys.py:31:"),
        "the last is below: {screen}"
    );
    assert!(
        screen.contains("30 likely secrets in context (2 files), first keys.py:2"),
        "the status line names the first: {screen}"
    );
    // Down to the end: the last finding shows, the first has scrolled off.
    h.keys("G");
    let screen = h.screen();
    insta::assert_snapshot!("confirm_secrets_last_page", screen);
    assert!(screen.contains("keys.py:31: GitHub token"), "{screen}");
    assert!(!screen.contains("keys.py:2: "), "{screen}");
    // j past the end stays at the end; k goes back one.
    h.keys("j j k");
    let screen = h.screen();
    assert!(!screen.contains("keys.py:31: "), "{screen}");
    // Scrolling decided nothing: the question is still open, `n` cancels.
    assert!(h.copied.is_empty() && h.state.overlay.is_some());
    h.key("n");
    assert!(h.copied.is_empty() && h.state.overlay.is_none());
}

#[test]
fn a_few_secrets_fit_without_scrolling() {
    let p = many_secrets(2);
    let mut h = open(&p, 100, 24);
    h.key("y");
    let screen = h.screen();
    assert!(
        screen.contains("context (2 files) holds 2 likely secrets:"),
        "{screen}"
    );
    assert!(screen.contains("keys.py:2: GitHub token"), "{screen}");
    assert!(screen.contains("keys.py:3: GitHub token"), "{screen}");
}
