//! A file written with carriage returns alone between its lines (classic
//! Mac), or with Unicode's line breaks, is one line to the rules anchored at a line's start: a
//! `db.password=…` on its second line passed (recheck 16, F-CR). The scan
//! reads a copy where each carriage return that no line feed follows is a
//! line feed: as long in bytes, so every position found is the text's own.

use std::borrow::Cow;

/// `text` with each lone carriage return made a line feed, and each of
/// the other line breaks YAML and Unicode know (NEL U+0085, LINE and
/// PARAGRAPH SEPARATOR U+2028/9, recheck 16b F-CR2) a line feed then
/// blanks of the rest of its length; borrowed when it has none.
pub(super) fn lone_cr_ended(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    let unicode = ['\u{85}', '\u{2028}', '\u{2029}'];
    if !(0..bytes.len()).any(lone) && !text.contains(unicode) {
        return Cow::Borrowed(text);
    }
    let mut ended: Vec<u8> = (0..bytes.len())
        .map(|i| if lone(i) { b'\n' } else { bytes[i] })
        .collect();
    for (at, c) in text.match_indices(unicode) {
        ended[at] = b'\n';
        for b in &mut ended[at + 1..at + c.len()] {
            *b = b' ';
        }
    }
    // ASCII bytes for whole characters: still UTF-8.
    Cow::Owned(String::from_utf8(ended).unwrap_or_else(|_| text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_carriage_return_becomes_a_line_feed() {
        let text = "a=1\rdb.password=x\r\nb\r";
        let ended = lone_cr_ended(text);
        assert_eq!(ended, "a=1\ndb.password=x\r\nb\n");
        assert_eq!(ended.len(), text.len());
        assert!(matches!(lone_cr_ended("a\r\nb\n"), Cow::Borrowed(_)));
        let text = "a: 1\u{85}password: x\u{2028}b: 2\u{2029}";
        let ended = lone_cr_ended(text);
        assert_eq!(ended, "a: 1\n password: x\n  b: 2\n  ");
        assert_eq!(ended.len(), text.len());
    }
}
