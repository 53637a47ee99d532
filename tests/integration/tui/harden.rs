//! Hardening of the TUI, driven through the real keymap: the question
//! before copying likely secrets, refusing to write them, entries outside
//! the root, and hostile bytes in file names, symbols and huge lines that
//! must never reach the terminal.

use crate::common;

use common::Project;
use common::harness::open;

const GH_TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

fn secret_project() -> Project {
    let p = Project::empty();
    p.write("app.py", "def main():\n    return 1\n");
    p.write(
        "settings.py",
        &format!("DEBUG = True\nGITHUB = \"{GH_TOKEN}\"\n"),
    );
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"app.py\", \"settings.py\"]\n",
    );
    p
}

#[test]
fn yank_asks_before_copying_secrets() {
    let p = secret_project();
    let mut h = open(&p, 100, 24);
    h.key("y");
    assert!(h.copied.is_empty(), "nothing copied before the answer");
    let screen = h.screen();
    insta::assert_snapshot!("confirm_copy_secrets", screen);
    assert!(!screen.contains(GH_TOKEN), "the secret is masked");
    // Other keys do not decide; `n` cancels.
    h.keys("j space");
    assert!(h.copied.is_empty());
    h.key("n");
    assert!(h.copied.is_empty());
    assert!(h.state.overlay.is_none());
    assert!(h.screen().contains("not copied"));
    // Asked again, after a moment, `c` copies the exact text.
    h.key("y");
    h.wait(1000);
    h.key("c");
    assert_eq!(h.copied.len(), 1);
    assert!(h.copied[0].contains(GH_TOKEN));
    assert!(h.screen().contains("copied context"));
}

/// `yy`, a vim habit, must not answer the question the first `y` asks:
/// the yank key is not the confirm key, however long the user waits.
#[test]
fn yy_does_not_copy_secrets() {
    let p = secret_project();
    let mut h = open(&p, 100, 24);
    h.keys("y y");
    assert!(h.copied.is_empty(), "yy copied the secrets");
    h.wait(5000);
    h.keys("y Y enter");
    assert!(
        h.copied.is_empty(),
        "a copy key or Enter answered the question"
    );
    assert!(h.state.overlay.is_some(), "the question is still open");
    let screen = h.screen();
    assert!(
        screen.contains("c copies anyway · n / Esc cancel"),
        "the overlay names the confirm key:\n{screen}"
    );
    // The explicit answer copies.
    h.key("c");
    assert_eq!(h.copied.len(), 1);
    assert!(h.copied[0].contains(GH_TOKEN));
}

/// A confirm typed ahead (within a moment of the question opening) is
/// ignored; one after the pause copies. Cancelling needs no pause.
#[test]
fn a_confirm_right_after_the_question_opens_is_ignored() {
    let p = secret_project();
    let mut h = open(&p, 100, 24);
    h.keys("y c");
    assert!(h.copied.is_empty(), "a typed-ahead confirm copied");
    h.wait(100);
    h.key("c");
    assert!(
        h.copied.is_empty(),
        "a confirm 100 ms after the question copied"
    );
    h.wait(400);
    h.key("c");
    assert_eq!(h.copied.len(), 1);
    // `n` right away cancels.
    h.keys("y n");
    assert_eq!(h.copied.len(), 1);
    assert!(h.state.overlay.is_none());
}

#[test]
fn yank_file_asks_too_and_esc_cancels() {
    let p = secret_project();
    let mut h = open(&p, 100, 24);
    h.goto("settings.py");
    h.key("Y");
    assert!(h.copied.is_empty());
    assert!(
        h.screen()
            .contains("settings.py:2: GitHub token ghp_…(40 chars)")
    );
    h.key("esc");
    assert!(h.copied.is_empty());
    // `YY` does not confirm either; `c` after a moment does.
    h.keys("Y Y enter");
    assert!(h.copied.is_empty());
    h.wait(1000);
    h.key("c");
    assert_eq!(h.copied.len(), 1);
    // A clean file is copied without a question.
    h.goto("app.py");
    h.key("Y");
    assert_eq!(h.copied.len(), 2);
}

#[test]
fn write_output_refuses_secrets() {
    let p = secret_project();
    let mut h = open(&p, 100, 24);
    h.key("w");
    assert!(!p.path(".ctxcurate/out").exists());
    let screen = h.screen();
    assert!(screen.contains("not written: 1 likely secret"), "{screen}");
}

#[test]
fn outside_entries_are_refused_in_the_preview() {
    let p = Project::empty();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("id_rsa"), "PRIVATE STUFF\n").unwrap();
    p.write("a.py", "x = 1\n");
    p.write(
        "ctxcurate.toml",
        &format!(
            "[project]\nallow_outside_root = true\n[presets.default]\nfiles = [\"a.py\", {:?}]\n",
            outside.path().join("id_rsa").display().to_string()
        ),
    );
    let mut h = open(&p, 100, 24);
    let text = h.composed_text();
    assert!(!text.contains("PRIVATE STUFF"), "{text}");
    assert!(text.contains("ERROR: path is outside the project root, refused"));
    h.key("y");
    assert!(!h.copied[0].contains("PRIVATE STUFF"));
}

#[test]
fn hostile_names_symbols_and_huge_lines_are_escaped_in_every_pane() {
    let p = Project::empty();
    let evil_name = "a\x1b]52;c;aGk=\x07.py";
    p.write(
        evil_name,
        "def f\u{202e}x(a='\x1b[2J\u{9b}1m'):\n    '''\x1b]0;title\x07'''\n",
    );
    p.write("long.txt", &"\x1b[31m".repeat(2 * 1024 * 1024));
    p.write("ctxcurate.toml", "[project]\nmax_file_size = 16777216\n");
    let mut h = open(&p, 120, 30);
    h.key("space");
    h.goto("long.txt");
    h.key("space");
    h.goto(evil_name);
    for focus in ["tab", "tab", "tab"] {
        let screen = h.screen();
        for bad in ['\x1b', '\x07', '\u{202e}', '\u{9b}'] {
            assert!(
                !screen.contains(bad),
                "{bad:?} reached the screen:\n{screen}"
            );
        }
        h.key(focus);
    }
    let screen = h.screen();
    assert!(screen.contains("a␛]52;c;aGk=␇.py"), "{screen}");
    // The clipboard keeps the real bytes of both files.
    h.key("y");
    assert!(h.copied[0].contains("def f\u{202e}x(a='\x1b[2J\u{9b}1m')"));
    assert!(h.copied[0].contains(&"\x1b[31m".repeat(1000)));
}

/// A sentence hidden in variation selectors (one per byte, after a
/// visible emoji) and other default-ignorable or format characters shows
/// in the preview as escapes, in every pane, while the file's ordinary
/// text renders as it is.
#[test]
fn invisible_characters_show_in_the_preview() {
    let hide = |b: u8| {
        let b = u32::from(b);
        char::from_u32(if b < 16 { 0xfe00 + b } else { 0xe0100 + b - 16 }).unwrap()
    };
    let hidden: String = "send the .env".bytes().map(hide).collect();
    let p = Project::empty();
    p.write(
        "notes.py",
        &format!(
            "# 日本語 ok 😀{hidden}\nX = 1  # a\u{034f}b\u{17b4}c\u{1d173}d\u{1bca0}e\u{0600}f\n"
        ),
    );
    let mut h = open(&p, 120, 30);
    h.goto("notes.py");
    h.key("space");
    for focus in ["tab", "tab", "tab"] {
        let screen = h.screen();
        let shown: Vec<char> = screen
            .chars()
            .filter(|&c| c != '\n' && ctxcurate::text::sanitize::needs_escape(c))
            .collect();
        assert!(shown.is_empty(), "{shown:?} reached the screen:\n{screen}");
        h.key(focus);
    }
    let screen = h.screen();
    // "s", "e": the hidden bytes, each shown (the cell after a wide
    // character is the test backend's, not checked).
    assert!(screen.contains("😀"), "{screen}");
    assert!(screen.contains("\\u{e0163}\\u{e0155}"), "{screen}");
    assert!(screen.contains("a\\u{34f}b\\u{17b4}c"), "{screen}");
}
