//! A byte order mark (U+FEFF, what Windows editors write before a file's
//! first line) stands before a line's first key and hides it from the
//! rules anchored at a line's start (`DB_PASSWORD=…` in a `.env`). The
//! scan reads a copy where each is three blanks: as long in bytes, so
//! every position found is the text's own.

use std::borrow::Cow;

/// `text` with every byte order mark blanked, borrowed when it has none.
pub(super) fn blanked(text: &str) -> Cow<'_, str> {
    if text.contains('\u{feff}') {
        Cow::Owned(text.replace('\u{feff}', "   "))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_becomes_blanks_of_its_length() {
        let text = "\u{feff}DB_PASSWORD=x\n";
        let blank = blanked(text);
        assert_eq!(blank.len(), text.len());
        assert!(blank.starts_with("   DB_PASSWORD"));
        assert!(matches!(blanked("a\n"), Cow::Borrowed(_)));
    }
}
