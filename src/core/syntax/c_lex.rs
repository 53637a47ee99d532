//! C/C++ lexemes: where a line, a block comment, a directive and a string
//! or character literal end, for the byte scanners of the C/C++ pre-pass
//! (`defines`, `macros`, `initializers`). A leaf of its own so that those
//! scanners share it without importing one another.

/// The end of the directive starting at `i` (continuation lines included).
pub(super) fn directive_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let before = bytes[..i].iter().rev().find(|&&b| b != b'\r');
            if before != Some(&b'\\') {
                return i + 1;
            }
        }
        i += 1;
    }
    i
}

/// The index of the line break ending the line at `i` (the text's end
/// when there is none).
pub(super) fn line_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| i + p)
}

/// The index after the `*/` closing the comment opening at `i` (the
/// text's end when it does not close).
pub(super) fn comment_end(bytes: &[u8], i: usize) -> usize {
    // A byte search for `*` then a look at the next (not `windows(2)`,
    // which compares slices: the definitions of a whole project are read
    // through here).
    let mut j = i + 2;
    while let Some(p) = bytes
        .get(j..)
        .and_then(|rest| rest.iter().position(|&b| b == b'*'))
    {
        let star = j + p;
        if bytes.get(star + 1) == Some(&b'/') {
            return star + 2;
        }
        j = star + 1;
    }
    bytes.len()
}

/// The index after the string or character literal opening at `i` (its
/// line's end when it does not close; a `'` after a digit is a C++14
/// digit separator, not a literal).
pub(super) fn literal_end(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    if quote == b'\'' && i > 0 && bytes[i - 1].is_ascii_alphanumeric() {
        return i + 1;
    }
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            b if b == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}
