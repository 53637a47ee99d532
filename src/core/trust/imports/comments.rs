//! A script's comments blanked before its lines are read, by a small
//! lexer per language that keeps its state across lines (recheck 21,
//! item 5): a string that spans lines and holds `#`, `//` or `/*` is no
//! comment, so the code after it is read. PHP ([`php`]) and Ruby
//! ([`ruby`]); other languages' text is given back as it is (their
//! readers pass over whole comment lines themselves).

use std::borrow::Cow;

use super::kinds::Kind;

mod php;
mod ruby;

/// `text` with its comments' characters, but not their newlines, made
/// spaces; lines keep their numbers.
pub(super) fn blanked(text: &str, kind: Kind) -> Cow<'_, str> {
    match kind {
        Kind::Php => Cow::Owned(php::blanked(text)),
        Kind::Ruby => Cow::Owned(ruby::blanked(text)),
        _ => Cow::Borrowed(text),
    }
}

/// Whether [`blanked`] reads `kind`'s comments (its lines need no
/// comment filter of their own).
pub(super) fn lexed(kind: Kind) -> bool {
    matches!(kind, Kind::Php | Kind::Ruby)
}
