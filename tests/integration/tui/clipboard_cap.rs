//! A copy larger than the terminal takes over OSC 52 (`osc52_limits`) is
//! not sent to be dropped: the app offers to write it to the output file
//! (where `w` writes, through the same secret gate) and copy that file's
//! path instead. Driven through the real keymap, with the copies going
//! through a real OSC 52 clipboard writing into a buffer, so what the
//! terminal would receive is checked byte for byte.

use crate::common;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use common::Project;
use ctxcurate::tui::clipboard::{
    self, Clipboard, ClipboardError, ClipboardMode, Destination, EnvProbe, FallbackClipboard,
    Osc52Clipboard, SetClipboard, TmuxClipboard, TmuxProbe,
};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::Overlay;

/// What the app writes to the terminal, kept for the test.
#[derive(Clone, Default)]
struct Terminal(Arc<Mutex<Vec<u8>>>);

impl Terminal {
    fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap().clone()
    }
}

impl Write for Terminal {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Standard base64 (RFC 4648, padded), decoded independently of the
/// crate crossterm uses to encode.
fn decode_base64(text: &[u8]) -> Vec<u8> {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let (mut bits, mut nbits, mut out) = (0u32, 0, Vec::new());
    for &b in text.iter().filter(|&&b| b != b'=') {
        let digit = DIGITS.iter().position(|&d| d == b).expect("base64 digit");
        bits = (bits << 6) | digit as u32;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    out
}

/// The text of the one OSC 52 sequence the terminal received.
fn osc52_text(bytes: &[u8]) -> String {
    let body = bytes
        .strip_prefix(b"\x1b]52;c;")
        .and_then(|rest| rest.strip_suffix(b"\x1b\\"))
        .unwrap_or_else(|| panic!("not one OSC 52 sequence: {bytes:?}"));
    String::from_utf8(decode_base64(body)).expect("utf-8")
}

/// The fixture with both source files in the preset and `osc52_limits`
/// in the user's global config.
fn project(limits: &str) -> Project {
    let p = Project::fixture();
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"src/app.py\", \"src/util.c\"]\n",
    );
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(&global, format!("[project]\nosc52_limits = {limits}\n")).unwrap();
    p
}

/// The TUI on `p` with its global config, 100×24.
fn open(p: &Project) -> Harness {
    Harness::open(p.root(), Some(&p.global_config()), 100, 24).expect("open the TUI")
}

/// The OSC 52 clipboard the app builds from its settings (`clipboard =
/// "osc52"`) in the terminal `env` names, writing into a buffer.
fn osc52(h: &mut Harness, env: &EnvProbe) -> Terminal {
    let terminal = Terminal::default();
    let clipboard = clipboard::from_settings(
        ClipboardMode::Osc52,
        &h.state.project.settings.osc52_limits,
        env,
        terminal.clone(),
    );
    h.use_clipboard(clipboard);
    terminal
}

fn kitty() -> EnvProbe {
    EnvProbe {
        kitty_window_id: Some("1".into()),
        ..EnvProbe::default()
    }
}

/// The numbered output files written so far.
fn outputs(p: &Project) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(p.path(".ctxcurate/out")) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// The status line's text (the last message said).
fn status(h: &Harness) -> String {
    h.state
        .status
        .as_ref()
        .map(|(text, _)| text.clone())
        .unwrap_or_default()
}

#[test]
fn a_copy_over_the_cap_writes_the_output_file_and_copies_its_path() {
    let p = project("{ kitty = 300 }");
    let built = p.ok(&["build"]);
    assert!(built.len() > 300, "the context is over the cap");
    let mut h = open(&p);
    let terminal = osc52(&mut h, &kitty());

    h.key("y");
    assert!(
        matches!(h.state.overlay, Some(Overlay::ConfirmWrite(_))),
        "the question is open"
    );
    assert!(terminal.bytes().is_empty(), "nothing sent to the terminal");
    assert!(outputs(&p).is_empty(), "nothing written before the answer");
    let screen = h.screen();
    insta::assert_snapshot!("confirm_write_over_cap", screen);
    let size = ctxcurate::text::words::bytes(built.len());
    assert!(
        screen.contains(&format!(
            "context (2 files) is {size}; kitty takes at most 300 B over OSC 52."
        )),
        "{screen}"
    );
    assert!(
        screen.contains("Write it to .ctxcurate/out/context_NNN.md and copy that path instead?"),
        "{screen}"
    );
    assert!(
        screen.contains("c writes it and copies the path · n / Esc cancel"),
        "{screen}"
    );

    // A key typed ahead does not answer, nor does a stray key.
    h.keys("c j");
    assert!(matches!(h.state.overlay, Some(Overlay::ConfirmWrite(_))));
    assert!(outputs(&p).is_empty());

    h.wait(1000);
    h.key("c");
    assert!(h.state.overlay.is_none());
    let written = outputs(&p);
    assert_eq!(written.len(), 1, "{written:?}");
    assert_eq!(written[0].file_name().unwrap(), "context_001.md");
    assert_eq!(
        std::fs::read_to_string(&written[0]).unwrap(),
        built,
        "the file holds exactly what the copy would have: what `build` prints"
    );
    let path = written[0].canonicalize().unwrap().display().to_string();
    let sent = osc52_text(&terminal.bytes());
    assert_eq!(
        std::path::Path::new(&sent)
            .canonicalize()
            .unwrap()
            .display()
            .to_string(),
        path,
        "the terminal got the file's path"
    );
    assert!(std::path::Path::new(&sent).is_absolute(), "{sent}");
    assert_eq!(h.copied, vec![sent]);
    assert_eq!(
        status(&h),
        format!(
            "wrote .ctxcurate/out/context_001.md ({size}); copied its path → terminal clipboard (OSC 52)"
        )
    );
}

#[test]
fn no_to_the_offer_writes_nothing_and_copies_nothing() {
    let p = project("{ other = 300 }");
    let mut h = open(&p);
    let terminal = osc52(&mut h, &EnvProbe::default());
    h.key("y");
    let screen = h.screen();
    assert!(
        screen.contains("the terminal clipboard (OSC 52) takes at most 300 B here"),
        "no terminal recognised: the default's words: {screen}"
    );
    h.wait(1000);
    h.key("n");
    assert!(h.state.overlay.is_none());
    assert_eq!(status(&h), "not written, not copied");
    // Esc says no as well.
    h.key("y");
    h.wait(1000);
    h.key("esc");
    assert!(h.state.overlay.is_none());
    assert_eq!(status(&h), "not written, not copied");
    assert!(outputs(&p).is_empty());
    assert!(terminal.bytes().is_empty());
    assert!(h.copied.is_empty());
}

/// A cap below even the path's length: the file is written (the user
/// said so), the path is not sent, and the status says both.
#[test]
fn a_path_over_an_absurd_cap_is_not_copied_either() {
    let p = project("{ other = 10 }");
    let mut h = open(&p);
    let terminal = osc52(&mut h, &EnvProbe::default());
    h.key("y");
    h.wait(1000);
    h.key("c");
    assert_eq!(outputs(&p).len(), 1);
    assert!(terminal.bytes().is_empty(), "nothing sent");
    assert!(h.copied.is_empty());
    let status = status(&h);
    assert!(
        status.starts_with("wrote .ctxcurate/out/context_001.md (")
            && status.contains("); its path was not copied: ")
            && status.contains("too much for the terminal clipboard (OSC 52 limit 10 bytes)"),
        "{status}"
    );
    assert!(h.state.overlay.is_none(), "no second question");
}

/// Inside tmux that drops OSC 52 (`set-clipboard external`, no
/// passthrough) nothing of any size arrives: the offer is to write the
/// file only, and says why; no path is sent.
#[test]
fn in_tmux_that_drops_osc52_the_offer_is_the_file_alone() {
    let p = project("{}");
    let mut h = open(&p);
    let terminal = Terminal::default();
    let dropping = TmuxProbe::answered(Some(TmuxClipboard {
        set_clipboard: SetClipboard::External,
        passthrough: false,
    }));
    h.use_clipboard(Box::new(
        Osc52Clipboard::new(terminal.clone())
            .with_max_bytes(100)
            .with_tmux(dropping),
    ));
    h.key("y");
    let screen = h.screen();
    insta::assert_snapshot!("confirm_write_tmux_drops", screen);
    // (wrapped where the screen wraps it)
    assert!(
        screen.contains("and copy again, it counts at once;")
            && screen.contains(
                "│put it in ~/.tmux.conf to keep it); not even a file's path can be copied."
            ),
        "{screen}"
    );
    assert!(screen.contains("c writes it · n / Esc cancel"), "{screen}");
    h.wait(1000);
    h.key("c");
    assert_eq!(outputs(&p).len(), 1);
    assert!(terminal.bytes().is_empty());
    let status = status(&h);
    assert!(
        status.starts_with("wrote .ctxcurate/out/context_001.md (")
            && status.contains(
                "its path was not copied: tmux's set-clipboard is external, so tmux drops OSC 52"
            )
            && status.contains("set -g set-clipboard on"),
        "{status}"
    );
}

/// The question about likely secrets comes first; the file is written
/// only once the user has let them go, and then holds them as the copy
/// would have.
#[test]
fn the_secrets_question_comes_first_and_gates_the_file() {
    const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let p = project("{ other = 100 }");
    p.write("src/keys.py", &format!("GITHUB = \"{TOKEN}\"\n"));
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"src/app.py\", \"src/keys.py\"]\n",
    );
    let mut h = open(&p);
    let terminal = osc52(&mut h, &EnvProbe::default());
    h.key("y");
    assert!(
        matches!(h.state.overlay, Some(Overlay::ConfirmCopy(_))),
        "the secrets question first"
    );
    // No to the secrets: no size question, nothing written.
    h.key("n");
    assert!(h.state.overlay.is_none());
    assert!(outputs(&p).is_empty());
    // Yes to the secrets, then to the file.
    h.key("y");
    h.wait(1000);
    h.key("c");
    assert!(matches!(h.state.overlay, Some(Overlay::ConfirmWrite(_))));
    h.wait(1000);
    h.key("c");
    let written = outputs(&p);
    assert_eq!(written.len(), 1);
    assert!(
        std::fs::read_to_string(&written[0])
            .unwrap()
            .contains(TOKEN)
    );
    assert!(!terminal.bytes().is_empty(), "the path went");
}

/// Whatever asks for the file, likely secrets the user did not let go
/// are refused by `w`'s own rule: nothing is written.
#[test]
fn the_file_keeps_the_secret_rule_of_w() {
    use ctxcurate::core::secrets::{Finding, Place};
    use ctxcurate::tui::messages::Event;
    use ctxcurate::tui::state::model::{OverCap, PendingWrite};
    let p = project("{}");
    let mut h = open(&p);
    let text = "GITHUB = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n".to_string();
    let findings = vec![Finding {
        place: Place::File {
            path: "keys.py".into(),
            line: 1,
        },
        rule: "github-token".into(),
        kind: "GitHub token".into(),
        masked: "ghp_…".into(),
    }];
    h.send(Event::CopyOverCap(Box::new(PendingWrite {
        text,
        label: "context (1 file)".into(),
        findings,
        allow_secrets: false,
        over: OverCap {
            bytes: 52,
            max: 10,
            terminal: None,
            unreachable: None,
        },
        opened: std::time::Instant::now(),
    })));
    h.wait(1000);
    h.key("c");
    assert!(outputs(&p).is_empty());
    let status = status(&h);
    assert!(
        status.starts_with("not written: 1 likely secret,") && status.ends_with("; nothing copied"),
        "{status}"
    );
}

/// A working system clipboard has no cap: no question. When it fails,
/// the OSC 52 fallback's cap applies and the offer comes.
#[test]
fn the_system_clipboard_has_no_cap_and_its_fallback_has() {
    struct System(bool);
    impl Clipboard for System {
        fn copy(&mut self, _text: &str) -> Result<Destination, ClipboardError> {
            if self.0 {
                Ok(Destination::System)
            } else {
                Err(ClipboardError::Terminal(io::Error::other("no display")))
            }
        }
    }
    let p = project("{}");
    let mut h = open(&p);
    let capped = || Box::new(Osc52Clipboard::new(Terminal::default()).with_max_bytes(100));
    h.use_clipboard(Box::new(FallbackClipboard::new(
        Box::new(System(true)),
        capped(),
    )));
    h.key("y");
    assert!(h.state.overlay.is_none());
    assert!(status(&h).contains("→ system clipboard"), "{}", status(&h));

    let terminal = Terminal::default();
    h.use_clipboard(Box::new(FallbackClipboard::new(
        Box::new(System(false)),
        Box::new(Osc52Clipboard::new(terminal.clone()).with_max_bytes(100)),
    )));
    h.key("y");
    assert!(matches!(h.state.overlay, Some(Overlay::ConfirmWrite(_))));
    h.wait(1000);
    h.key("c");
    assert_eq!(outputs(&p).len(), 1);
    // The fallback went to OSC 52 for good: the path is there.
    assert!(osc52_text(&terminal.bytes()).ends_with("context_001.md"));
}

/// `Y` (one file's view) shares the copy's way out: the same offer.
#[test]
fn a_file_view_over_the_cap_gets_the_same_offer() {
    let p = project("{ other = 50 }");
    let mut h = open(&p);
    let terminal = osc52(&mut h, &EnvProbe::default());
    h.goto("src/app.py");
    h.key("Y");
    let Some(Overlay::ConfirmWrite(pending)) = &h.state.overlay else {
        panic!("no question: {}", status(&h));
    };
    let view = pending.text.clone();
    h.wait(1000);
    h.key("c");
    let written = outputs(&p);
    assert_eq!(written.len(), 1);
    assert_eq!(std::fs::read_to_string(&written[0]).unwrap(), view);
    assert!(osc52_text(&terminal.bytes()).ends_with("context_001.md"));
}
