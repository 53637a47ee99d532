//! The help overlay's text, laid out for a width: every action with its
//! keys (by context) and its doc, wrapped — never cut — to the overlay,
//! then notes on what the screen shows (the gauge's `≈`, the mouse).
//! Rendering draws these lines; the help's keys count them to know where
//! scrolling ends. A plain function of the keymap and a width.

pub mod keys;
pub mod render;

use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use crate::tui::input::action::ACTIONS;
use crate::tui::input::keymap::Keymap;

/// What the gauge's `≈` means (the help and the tokens overlay say it).
pub const APPROX_NOTE: &str = "≈ before the gauge's count: an estimate, the files' \
    counts summed (while a count runs, or for a text over 2 MiB)";

/// Notes after the key table.
const NOTES: &[&str] = &[
    APPROX_NOTE,
    "Mouse: a click focuses the pane under it and picks the row clicked; the \
     wheel scrolls the pane under the pointer (mouse = false in [project] \
     turns it off, so the terminal selects text again)",
    "z zooms the focused pane to the whole width; b shows where the tokens go",
    "Symbols pane: the number after a symbol is what it costs in tokens (the \
     active tokenizer) shown in full, with everything nested in it: a \
     class's holds its methods'. Hiding a shown symbol takes about that off \
     the gauge (a token or so either way where the text is cut)",
    "Clipboard: a copy larger than the terminal takes over OSC 52 (kitty 6.1 KB, \
     Tabby 768 B, Termux 4.1 KB, others 768 KB; osc52_limits in [project] changes \
     them) is never sent to be dropped: the app offers to write it to the output \
     file, as w does, and copy that file's path instead",
];

/// The help overlay's width and height on a `width`×`height` screen.
pub fn help_rect_size((width, height): (u16, u16)) -> (u16, u16) {
    (width.min(110), height.saturating_sub(2))
}

/// The help's lines for an overlay of `size` (borders included).
pub fn help_lines(keymap: &Keymap, width: usize) -> Vec<Line<'static>> {
    let keys_w = if width >= 100 { 24 } else { 16 };
    let name_w = 18;
    let mut indent = keys_w + 1 + name_w + 1;
    if width < indent + 20 {
        indent = 4;
    }
    let doc_w = width.saturating_sub(indent).max(10);
    let cyan = Style::default().fg(Color::Cyan);
    let gray = Style::default().fg(Color::Gray);
    let mut lines = Vec::new();
    for info in ACTIONS {
        let keys = keymap.keys_label(info.action);
        let mut first: Vec<Span<'static>> = Vec::new();
        if keys.chars().count() <= keys_w && indent > 4 {
            first.push(Span::styled(format!("{keys:<keys_w$} "), cyan));
        } else {
            for part in wrap(&keys, width) {
                lines.push(Line::styled(part, cyan));
            }
            first.push(Span::raw(" ".repeat(if indent > 4 {
                keys_w + 1
            } else {
                2
            })));
        }
        first.push(Span::raw(format!("{:<name_w$} ", info.name)));
        let mut doc = wrap(info.doc, doc_w).into_iter();
        if indent > 4 {
            first.push(Span::styled(doc.next().unwrap_or_default(), gray));
        }
        lines.push(Line::from(first));
        for rest in doc {
            lines.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(rest, gray),
            ]));
        }
    }
    lines.push(Line::raw(""));
    for note in NOTES {
        for part in wrap(note, width) {
            lines.push(Line::styled(part, gray));
        }
    }
    lines
}

/// The last scroll position of the help on a `size` screen: its last
/// line at the bottom of the overlay.
pub fn help_max_scroll(keymap: &Keymap, size: (u16, u16)) -> usize {
    let (w, h) = help_rect_size(size);
    let inner = h.saturating_sub(2) as usize;
    help_lines(keymap, w.saturating_sub(2) as usize)
        .len()
        .saturating_sub(inner)
}

/// `text` broken at spaces into lines of at most `width` characters (a
/// word longer than that is split).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > width {
            if len > 0 {
                out.push(std::mem::take(&mut line));
                len = 0;
            }
            out.push(word.drain(..width).collect());
        }
        let n = word.len();
        if n == 0 {
            continue;
        }
        if len > 0 && len + 1 + n > width {
            out.push(std::mem::take(&mut line));
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        line.extend(word);
        len += n;
    }
    if len > 0 || out.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_spaces_and_splits_long_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 5), [""]);
    }

    #[test]
    fn no_help_line_is_wider_than_the_overlay() {
        let (keymap, _) = Keymap::load(None);
        for width in [30, 50, 78, 108] {
            for line in help_lines(&keymap, width) {
                assert!(line.width() <= width, "{width}: {line:?}");
            }
        }
    }
}
