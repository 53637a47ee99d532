//! Tests of the clipboard chain: exact OSC 52 bytes, the `auto` routing
//! per environment, and the fallback, with fakes in place of X11.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A terminal whose bytes the test can read after handing it away.
#[derive(Clone, Default)]
struct SharedTerminal(Arc<Mutex<Vec<u8>>>);

impl SharedTerminal {
    fn bytes(&self) -> Vec<u8> {
        self.0.lock().expect("terminal lock").clone()
    }
}

impl Write for SharedTerminal {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().expect("terminal lock").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A stand-in system clipboard that works or fails and counts calls.
struct FakeSystem {
    works: bool,
    calls: Arc<AtomicUsize>,
}

impl Clipboard for FakeSystem {
    fn copy(&mut self, _text: &str) -> Result<Destination, ClipboardError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.works {
            Ok(Destination::System)
        } else {
            Err(ClipboardError::System(
                arboard::Error::ClipboardNotSupported,
            ))
        }
    }
}

fn fallback(system_works: bool) -> (FallbackClipboard, SharedTerminal, Arc<AtomicUsize>) {
    let terminal = SharedTerminal::default();
    let calls = Arc::new(AtomicUsize::new(0));
    let system = FakeSystem {
        works: system_works,
        calls: Arc::clone(&calls),
    };
    let osc52 = Osc52Clipboard::new(terminal.clone());
    let chain = FallbackClipboard::new(Box::new(system), Box::new(osc52));
    (chain, terminal, calls)
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

/// The text inside one OSC 52 clipboard sequence, or a panic.
fn osc52_payload(bytes: &[u8]) -> Vec<u8> {
    let body = bytes
        .strip_prefix(b"\x1b]52;c;")
        .and_then(|rest| rest.strip_suffix(b"\x1b\\"))
        .unwrap_or_else(|| panic!("not one OSC 52 sequence: {bytes:?}"));
    decode_base64(body)
}

fn env(vars: &[(&str, &str)]) -> EnvProbe {
    let mut probe = EnvProbe::default();
    for &(name, value) in vars {
        let slot = match name {
            "SSH_TTY" => &mut probe.ssh_tty,
            "SSH_CONNECTION" => &mut probe.ssh_connection,
            "DISPLAY" => &mut probe.display,
            "WAYLAND_DISPLAY" => &mut probe.wayland_display,
            "TMUX" => &mut probe.tmux,
            "TERM" => &mut probe.term,
            "TERM_PROGRAM" => &mut probe.term_program,
            "KITTY_WINDOW_ID" => &mut probe.kitty_window_id,
            "TERMUX_VERSION" => &mut probe.termux_version,
            other => panic!("not probed: {other}"),
        };
        *slot = Some(value.to_owned());
    }
    probe
}

#[test]
fn osc52_writes_the_exact_sequence() {
    let mut clipboard = Osc52Clipboard::new(Vec::new());
    assert_eq!(clipboard.copy("hi").ok(), Some(Destination::Osc52));
    let bytes = clipboard.into_inner();
    assert_eq!(bytes, b"\x1b]52;c;aGk=\x1b\\");
    assert_eq!(osc52_payload(&bytes), b"hi");
}

#[test]
fn osc52_payload_decodes_back_to_the_text() {
    let text = "fn main() {\n\t\"é ✓ \u{1f980}\"\n}\n\x1b[0m";
    let mut clipboard = Osc52Clipboard::new(Vec::new());
    clipboard.copy(text).expect("copy");
    assert_eq!(osc52_payload(&clipboard.into_inner()), text.as_bytes());
}

#[test]
fn osc52_refuses_text_over_the_cap_and_sends_nothing() {
    let mut clipboard = Osc52Clipboard::new(Vec::new()).with_max_bytes(4);
    assert!(clipboard.copy("éé").is_ok(), "4 bytes is at the cap");
    let sent = clipboard.into_inner();

    let mut clipboard = Osc52Clipboard::new(Vec::new()).with_max_bytes(4);
    match clipboard.copy("ééa") {
        Err(ClipboardError::TooLarge { len: 5, max: 4, .. }) => {}
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(clipboard.into_inner().is_empty());
    assert_eq!(osc52_payload(&sent), "éé".as_bytes());
}

#[test]
fn default_cap_fits_one_tmux_escape_sequence() {
    let base64_len = DEFAULT_OSC52_MAX_BYTES.div_ceil(3) * 4;
    let sequence_body = "52;c;".len() + base64_len;
    assert!(sequence_body < 1 << 20, "{sequence_body}");
}

#[test]
fn mode_names_parse_print_and_deserialize() {
    for (name, mode) in [
        ("auto", ClipboardMode::Auto),
        ("system", ClipboardMode::System),
        ("osc52", ClipboardMode::Osc52),
        ("off", ClipboardMode::Off),
    ] {
        assert_eq!(name.parse::<ClipboardMode>(), Ok(mode));
        assert_eq!(mode.to_string(), name);
        let json = format!("\"{name}\"");
        assert_eq!(
            serde_json::from_str::<ClipboardMode>(&json).ok(),
            Some(mode)
        );
        assert_eq!(serde_json::to_string(&mode).ok(), Some(json));
    }
    let err = "OSC52".parse::<ClipboardMode>().unwrap_err();
    assert!(err.contains("auto, system, osc52, off"), "{err}");
    assert_eq!(ClipboardMode::default(), ClipboardMode::Auto);
}

#[test]
fn auto_uses_osc52_over_ssh_even_with_a_display() {
    let auto = ClipboardMode::Auto;
    let ssh_tty = env(&[("SSH_TTY", "/dev/pts/3"), ("DISPLAY", ":0")]);
    assert_eq!(route(auto, &ssh_tty), Route::Osc52);
    let ssh_connection = env(&[("SSH_CONNECTION", "10.0.0.1 5 10.0.0.2 22")]);
    assert_eq!(route(auto, &ssh_connection), Route::Osc52);
}

#[cfg(not(any(target_os = "macos", windows)))]
#[test]
fn auto_uses_osc52_without_a_display() {
    assert_eq!(route(ClipboardMode::Auto, &env(&[])), Route::Osc52);
    let empty = env(&[("DISPLAY", ""), ("WAYLAND_DISPLAY", "")]);
    assert_eq!(route(ClipboardMode::Auto, &empty), Route::Osc52);
}

#[test]
fn auto_with_a_local_display_tries_system_then_osc52() {
    for vars in [[("DISPLAY", ":0")], [("WAYLAND_DISPLAY", "wayland-0")]] {
        assert_eq!(
            route(ClipboardMode::Auto, &env(&vars)),
            Route::SystemThenOsc52
        );
    }
}

#[test]
fn explicit_modes_ignore_the_environment() {
    let ssh = env(&[("SSH_TTY", "/dev/pts/0")]);
    let local = env(&[("DISPLAY", ":0")]);
    for probe in [&ssh, &local] {
        assert_eq!(route(ClipboardMode::System, probe), Route::System);
        assert_eq!(route(ClipboardMode::Osc52, probe), Route::Osc52);
        assert_eq!(route(ClipboardMode::Off, probe), Route::Off);
    }
}

#[test]
fn from_mode_over_ssh_sends_osc52_to_the_terminal() {
    let terminal = SharedTerminal::default();
    let ssh = env(&[("SSH_TTY", "/dev/pts/1"), ("DISPLAY", ":0")]);
    let mut clipboard = from_mode(ClipboardMode::Auto, &ssh, terminal.clone());
    assert_eq!(clipboard.copy("ctx").ok(), Some(Destination::Osc52));
    assert_eq!(osc52_payload(&terminal.bytes()), b"ctx");
}

#[test]
fn off_copies_nothing_and_says_so() {
    let terminal = SharedTerminal::default();
    let local = env(&[("DISPLAY", ":0")]);
    let mut clipboard = from_mode(ClipboardMode::Off, &local, terminal.clone());
    let destination = clipboard.copy("secret").expect("off never fails");
    assert_eq!(destination, Destination::Off);
    assert_eq!(destination.to_string(), "nowhere (clipboard is off)");
    assert!(terminal.bytes().is_empty());
}

#[test]
fn fallback_uses_a_working_system_clipboard() {
    let (mut chain, terminal, calls) = fallback(true);
    assert_eq!(chain.copy("a").ok(), Some(Destination::System));
    assert_eq!(chain.copy("b").ok(), Some(Destination::System));
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert!(!chain.system_failed());
    assert!(terminal.bytes().is_empty());
}

#[test]
fn fallback_switches_to_osc52_for_good_after_a_system_failure() {
    let (mut chain, terminal, calls) = fallback(false);
    assert_eq!(chain.copy("one").ok(), Some(Destination::Osc52));
    assert!(chain.system_failed());
    assert_eq!(osc52_payload(&terminal.bytes()), b"one");

    assert_eq!(chain.copy("two").ok(), Some(Destination::Osc52));
    assert_eq!(calls.load(Ordering::SeqCst), 1, "system not retried");
}

#[test]
fn fallback_reports_both_failures() {
    let calls = Arc::new(AtomicUsize::new(0));
    let system = FakeSystem {
        works: false,
        calls,
    };
    let osc52 = Osc52Clipboard::new(Vec::new()).with_max_bytes(1);
    let mut chain = FallbackClipboard::new(Box::new(system), Box::new(osc52));
    let err = chain.copy("too long").unwrap_err();
    assert!(matches!(err, ClipboardError::BothFailed { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "system clipboard failed (system clipboard unavailable), and so did OSC 52 \
         (8 bytes is too much for the terminal clipboard (OSC 52 limit 1 bytes))"
    );
}

#[test]
fn destinations_read_well_in_the_status_line() {
    assert_eq!(Destination::System.to_string(), "system clipboard");
    assert_eq!(
        Destination::Osc52.to_string(),
        "terminal clipboard (OSC 52)"
    );
}

/// An OSC 52 clipboard inside a tmux that answered `answer`.
fn in_tmux(answer: Option<TmuxClipboard>) -> Osc52Clipboard<Vec<u8>> {
    Osc52Clipboard::new(Vec::new()).with_tmux(TmuxProbe::answered(answer))
}

fn tmux_says(set_clipboard: SetClipboard, passthrough: bool) -> Option<TmuxClipboard> {
    Some(TmuxClipboard {
        set_clipboard,
        passthrough,
    })
}

#[test]
fn tmux_answers_parse() {
    let parse = TmuxClipboard::parse;
    assert_eq!(
        parse("external 0\n"),
        tmux_says(SetClipboard::External, false)
    );
    assert_eq!(parse("on 1"), tmux_says(SetClipboard::On, true));
    assert_eq!(parse("off all"), tmux_says(SetClipboard::Off, true));
    assert_eq!(parse("off on"), tmux_says(SetClipboard::Off, true));
    // tmux before 3.3: no allow-passthrough, an empty word.
    assert_eq!(
        parse("external \n"),
        tmux_says(SetClipboard::External, false)
    );
    assert_eq!(parse(""), None);
    assert_eq!(parse("no server running"), None);
}

#[test]
fn tmux_with_set_clipboard_on_takes_the_plain_sequence() {
    let mut clipboard = in_tmux(tmux_says(SetClipboard::On, false));
    assert_eq!(clipboard.copy("hi").ok(), Some(Destination::Osc52ViaTmux));
    assert_eq!(clipboard.into_inner(), b"\x1b]52;c;aGk=\x1b\\");
    assert_eq!(
        Destination::Osc52ViaTmux.to_string(),
        "terminal clipboard (OSC 52) through tmux (set-clipboard on)"
    );
}

#[test]
fn tmux_that_drops_osc52_copies_nothing_and_says_how_to_fix_it() {
    for setting in [SetClipboard::External, SetClipboard::Off] {
        let mut clipboard = in_tmux(tmux_says(setting, false));
        let err = clipboard.copy("ctx").unwrap_err();
        assert!(
            matches!(err, ClipboardError::TmuxDrops { setting: s } if s == setting),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "tmux's set-clipboard is {}, so tmux drops OSC 52 from programs: nothing was \
                 copied (run `tmux set -g set-clipboard on` (or `set -g allow-passthrough on`) \
                 and copy again, it counts at once; put it in ~/.tmux.conf to keep it)",
                setting.name()
            )
        );
        assert!(clipboard.into_inner().is_empty(), "nothing was sent");
    }
}

/// tmux's setting switched while the app runs counts from the next
/// copy: tmux is asked again once its last answer is stale, and a stale
/// answer is never used when tmux does not answer.
#[test]
fn tmux_is_asked_again_at_each_copy() {
    let says = Arc::new(Mutex::new(tmux_says(SetClipboard::On, false)));
    let asked = Arc::new(AtomicUsize::new(0));
    let (s, a) = (Arc::clone(&says), Arc::clone(&asked));
    let asker: Arc<tmux::Asker> = Arc::new(move |_| {
        a.fetch_add(1, Ordering::SeqCst);
        *s.lock().unwrap()
    });
    let mut clipboard = Osc52Clipboard::new(Vec::new())
        .with_tmux(TmuxProbe::asking(Arc::clone(&asker)).fresh_for(std::time::Duration::ZERO));
    assert_eq!(clipboard.copy("hi").ok(), Some(Destination::Osc52ViaTmux));
    *says.lock().unwrap() = tmux_says(SetClipboard::External, false);
    let err = clipboard.copy("hi").unwrap_err();
    assert!(
        matches!(
            err,
            ClipboardError::TmuxDrops {
                setting: SetClipboard::External
            }
        ),
        "{err:?}"
    );
    *says.lock().unwrap() = tmux_says(SetClipboard::On, false);
    assert_eq!(clipboard.copy("hi").ok(), Some(Destination::Osc52ViaTmux));
    *says.lock().unwrap() = None;
    assert_eq!(
        clipboard.copy("hi").ok(),
        Some(Destination::Osc52TmuxUnknown),
        "no answer: unknown, not the old `on`"
    );
    assert_eq!(asked.load(Ordering::SeqCst), 4);
    // A fresh answer is not asked again (a second by default).
    let mut cached = Osc52Clipboard::new(Vec::new()).with_tmux(TmuxProbe::asking(asker));
    *says.lock().unwrap() = tmux_says(SetClipboard::On, false);
    cached.copy("a").ok();
    cached.copy("b").ok();
    assert_eq!(
        asked.load(Ordering::SeqCst),
        5,
        "the second copy used the answer"
    );
}

#[test]
fn tmux_with_passthrough_gets_the_wrapped_sequence() {
    let mut clipboard = in_tmux(tmux_says(SetClipboard::External, true));
    assert_eq!(
        clipboard.copy("hi").ok(),
        Some(Destination::Osc52Passthrough)
    );
    // Every ESC of the sequence doubled inside `ESC P tmux; … ESC \`.
    assert_eq!(
        clipboard.into_inner(),
        b"\x1bPtmux;\x1b\x1b]52;c;aGk=\x1b\x1b\\\x1b\\"
    );
}

#[test]
fn tmux_that_did_not_answer_is_not_claimed_to_have_taken_the_copy() {
    let mut clipboard = in_tmux(None);
    assert_eq!(
        clipboard.copy("hi").ok(),
        Some(Destination::Osc52TmuxUnknown)
    );
    assert_eq!(clipboard.into_inner(), b"\x1b]52;c;aGk=\x1b\\");
    assert!(
        Destination::Osc52TmuxUnknown
            .to_string()
            .contains("if tmux passes it on")
    );
}

#[test]
fn the_terminal_is_told_by_its_variables() {
    use limits::detect;
    assert_eq!(detect(&env(&[("KITTY_WINDOW_ID", "1")])), Some("kitty"));
    assert_eq!(detect(&env(&[("TERM", "xterm-kitty")])), Some("kitty"));
    assert_eq!(detect(&env(&[("TERM_PROGRAM", "Tabby")])), Some("tabby"));
    assert_eq!(
        detect(&env(&[("TERMUX_VERSION", "0.118.0")])),
        Some("termux")
    );
    // Inside tmux the outer kitty's variable is still there.
    let kitty_in_tmux = env(&[("TERM", "tmux-256color"), ("KITTY_WINDOW_ID", "3")]);
    assert_eq!(detect(&kitty_in_tmux), Some("kitty"));
    assert_eq!(detect(&env(&[("TERM", "xterm-256color")])), None);
    assert_eq!(detect(&env(&[("KITTY_WINDOW_ID", "")])), None);
}

#[test]
fn limits_are_the_terminals_unless_the_setting_names_one() {
    use limits::limit_for;
    let none = BTreeMap::new();
    let kitty = env(&[("KITTY_WINDOW_ID", "1")]);
    let xterm = env(&[("TERM", "xterm-256color")]);
    let limit = |terminal: &str, max_bytes| Osc52Limit {
        terminal: terminal.to_string(),
        max_bytes,
    };
    assert_eq!(limit_for(&kitty, &none), limit("kitty", 6_138));
    assert_eq!(
        limit_for(&env(&[("TERM_PROGRAM", "Tabby")]), &none),
        limit("tabby", 768)
    );
    assert_eq!(
        limit_for(&env(&[("TERMUX_VERSION", "1")]), &none),
        limit("termux", 4_096)
    );
    assert_eq!(
        limit_for(&xterm, &none),
        limit("other", DEFAULT_OSC52_MAX_BYTES)
    );
    let mine: BTreeMap<String, usize> =
        [("kitty".to_string(), 100_000), ("other".to_string(), 50)].into();
    assert_eq!(limit_for(&kitty, &mine), limit("kitty", 100_000));
    assert_eq!(limit_for(&xterm, &mine), limit("other", 50));
    // Every built-in limit says where it comes from.
    for (name, bytes, source) in limits::KNOWN {
        assert!(*bytes > 0 && source.contains("issue"), "{name}");
    }
}

#[test]
fn a_copy_over_the_terminals_limit_names_the_terminal_and_sends_nothing() {
    let kitty: BTreeMap<String, usize> = BTreeMap::new();
    let probe = env(&[("SSH_TTY", "/dev/pts/1"), ("KITTY_WINDOW_ID", "1")]);
    let terminal = SharedTerminal::default();
    let mut clipboard = from_settings(ClipboardMode::Auto, &kitty, &probe, terminal.clone());
    let err = clipboard.copy(&"x".repeat(6_139)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "6139 bytes is too much for the terminal clipboard (OSC 52 limit 6138 bytes for kitty; \
         the osc52_limits setting changes it)"
    );
    assert!(terminal.bytes().is_empty());
    assert_eq!(
        clipboard.copy(&"x".repeat(6_138)).ok(),
        Some(Destination::Osc52)
    );
    assert_eq!(osc52_payload(&terminal.bytes()).len(), 6_138);
}

/// A refusal for size alone is found also inside a failed fallback, and
/// says whether tmux would drop even a small copy (then the TUI offers
/// the output file without copying its path).
#[test]
fn a_refusal_for_size_says_whether_a_smaller_copy_could_arrive() {
    let too_large = |clipboard: &mut dyn Clipboard| -> Option<Option<SetClipboard>> {
        match clipboard.copy("too long").unwrap_err().too_large()? {
            ClipboardError::TooLarge { tmux_drops, .. } => Some(*tmux_drops),
            _ => None,
        }
    };
    let mut plain = Osc52Clipboard::new(Vec::new()).with_max_bytes(1);
    assert_eq!(too_large(&mut plain), Some(None));
    for (answer, drops) in [
        (tmux_says(SetClipboard::On, false), None),
        (tmux_says(SetClipboard::External, true), None),
        (None, None),
        (
            tmux_says(SetClipboard::External, false),
            Some(SetClipboard::External),
        ),
        (tmux_says(SetClipboard::Off, false), Some(SetClipboard::Off)),
    ] {
        let mut clipboard = in_tmux(answer).with_max_bytes(1);
        assert_eq!(too_large(&mut clipboard), Some(drops), "{answer:?}");
        assert!(clipboard.into_inner().is_empty(), "nothing sent");
    }
    let system = FakeSystem {
        works: false,
        calls: Arc::new(AtomicUsize::new(0)),
    };
    let mut chain = FallbackClipboard::new(
        Box::new(system),
        Box::new(Osc52Clipboard::new(Vec::new()).with_max_bytes(1)),
    );
    assert_eq!(too_large(&mut chain), Some(None));
    // Other failures are not about size.
    let mut dropping = in_tmux(tmux_says(SetClipboard::External, false));
    assert!(dropping.copy("x").unwrap_err().too_large().is_none());
    assert_eq!(
        tmux_drops_why(SetClipboard::External),
        "tmux's set-clipboard is external, so tmux drops OSC 52 from programs \
         (run `tmux set -g set-clipboard on` (or `set -g allow-passthrough on`) and copy again, \
         it counts at once; put it in ~/.tmux.conf to keep it)"
    );
}
