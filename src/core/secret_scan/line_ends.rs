//! A file written with carriage returns alone between its lines (classic
//! Mac) is one line to the rules anchored at a line's start: a
//! `db.password=…` on its second line passed (recheck 16, F-CR). The scan
//! reads a copy where each carriage return that no line feed follows is a
//! line feed: as long in bytes, so every position found is the text's own.

use std::borrow::Cow;

/// `text` with each lone carriage return made a line feed, borrowed when
/// it has none.
pub(super) fn lone_cr_ended(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let ended: Vec<u8> = (0..bytes.len())
        .map(|i| if lone(i) { b'\n' } else { bytes[i] })
        .collect();
    // One ASCII byte for another: still UTF-8.
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
    }
}
