//! A password in SQL's `INSERT INTO users (email, password) VALUES
//! ('a@b.c', '…')` (round 24): the column names the value, the value
//! stands apart from it in the row. What lies between the column's name
//! and its value's opening quote is cut for a `=`, so the copy reads
//! `password='…'` and the rules judge it as an assignment.

use std::sync::OnceLock;

use regex::Regex;

use super::Cut;

/// How far a statement's column list and first row are read.
const MAX_STATEMENT: usize = 4 << 10;

/// The most columns read in one statement.
const MAX_COLUMNS: usize = 64;

/// The cuts that join each `INSERT`'s first secret-named column to its
/// value in the first row, when that value is a quoted literal.
pub(super) fn cuts(text: &str) -> Vec<Cut> {
    static INSERT: OnceLock<Regex> = OnceLock::new();
    let insert = INSERT.get_or_init(|| {
        Regex::new(r"(?i)(?:insert|replace)[ \t]+(?:ignore[ \t]+|or[ \t]+(?:replace|ignore)[ \t]+)?into[ \t]+[^\s(]{1,128}[ \t]*\(")
            .expect("a valid regex")
    });
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Where the last statement's reading stopped: an `INSERT` before it
    // was read as part of that one, so each byte is read about once.
    let mut read_to = 0;
    for m in insert.find_iter(text) {
        if m.start() < read_to {
            continue;
        }
        let end = (m.end() + MAX_STATEMENT).min(bytes.len());
        let mut stop = m.end();
        if let Some(cut) = statement(bytes, m.end(), end, &mut stop) {
            out.push(cut);
        }
        read_to = stop;
    }
    out
}

/// The cut for the statement whose column list opens at `start` (past
/// its `(`), read no further than `end`; `stop` is left where reading
/// stopped.
fn statement(bytes: &[u8], start: usize, end: usize, stop: &mut usize) -> Option<Cut> {
    *stop = end;
    let close = start + bytes[start..end].iter().position(|&b| b == b')')?;
    *stop = close;
    let mut columns = Vec::new();
    let mut from = start;
    for (i, &b) in bytes[start..=close].iter().enumerate() {
        if matches!(b, b',' | b')') {
            columns.push(trimmed(bytes, from, start + i)?);
            from = start + i + 1;
        }
        if columns.len() > MAX_COLUMNS {
            return None;
        }
    }
    let k = columns
        .iter()
        .position(|c| secret_column(&bytes[c.clone()]))?;
    let mut i = blanks(bytes, close + 1, end);
    if !bytes.get(i..i + 6)?.eq_ignore_ascii_case(b"values") {
        return None;
    }
    i = blanks(bytes, i + 6, end);
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    i += 1;
    for item in 0..=k {
        i = blanks(bytes, i, end);
        *stop = i;
        let first = *bytes.get(i).filter(|_| i < end)?;
        if item == k {
            return (first == b'\'' || first == b'"')
                .then(|| Cut::standing(columns[k].end..i, '='));
        }
        i = if first == b'\'' || first == b'"' {
            past_literal(bytes, i, end)?
        } else {
            i + bytes[i..end]
                .iter()
                .position(|&b| matches!(b, b',' | b')'))?
        };
        i = blanks(bytes, i, end);
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i += 1;
    }
    None
}

/// A column's name between `from` and `to`, without blanks, quotes,
/// backticks or brackets; none when it is not one word.
fn trimmed(bytes: &[u8], mut from: usize, mut to: usize) -> Option<std::ops::Range<usize>> {
    let wrap = |b: u8| b.is_ascii_whitespace() || matches!(b, b'"' | b'`' | b'[' | b']');
    while from < to && wrap(bytes[from]) {
        from += 1;
    }
    while to > from && wrap(bytes[to - 1]) {
        to -= 1;
    }
    let word = bytes[from..to]
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'_');
    (from < to && word).then_some(from..to)
}

/// Whether a column is named for a secret a row would hold in clear.
fn secret_column(name: &[u8]) -> bool {
    let name = name.to_ascii_lowercase();
    let has = |w: &[u8]| name.windows(w.len()).any(|x| x == w);
    (has(b"password") || has(b"passwd") || has(b"secret") || has(b"api_key") || has(b"apikey"))
        && !has(b"hash")
        && !has(b"digest")
        && !has(b"question")
        && !has(b"hint")
}

/// Past the literal opening at `i`, its doubled quotes and a backslash's
/// escape read as part of it.
fn past_literal(bytes: &[u8], i: usize, end: usize) -> Option<usize> {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < end {
        match bytes[j] {
            b'\\' => j += 2,
            b if b == quote && bytes.get(j + 1) == Some(&quote) => j += 2,
            b if b == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

fn blanks(bytes: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with its cuts made, each stand-in in place.
    fn read(text: &str) -> String {
        super::super::with_cuts_made(text, cuts(text))
    }

    #[test]
    fn the_value_of_a_password_column_reads_as_its_assignment() {
        assert_eq!(
            read("INSERT INTO users (email, password) VALUES ('a@b.c', 'Xy9');"),
            "INSERT INTO users (email, password='Xy9');"
        );
        assert_eq!(
            read("insert into `u` (`id`, `db_password`, `role`)\n  values\n  (1, 'it''s', 'x')"),
            "insert into `u` (`id`, `db_password='it''s', 'x')"
        );
    }

    /// A megabyte of `INSERT`s that never close is read about once.
    #[test]
    fn a_hostile_run_of_inserts_is_read_once() {
        let text = "INSERT INTO t (".repeat(1 << 16);
        assert!(cuts(&text).is_empty());
        let text = "INSERT INTO t (a, password) VALUES ('x', 'y');\n".repeat(1 << 12);
        assert_eq!(cuts(&text).len(), 1 << 12);
    }

    #[test]
    fn hashes_other_columns_and_values_not_quoted_stay() {
        for text in [
            "INSERT INTO u (email, password_hash) VALUES ('a', '$2b$x');",
            "INSERT INTO u (email, name) VALUES ('a', 'b');",
            "INSERT INTO u (email, password) VALUES ('a', NULL);",
            "INSERT INTO u (email, password) VALUES (?, ?);",
            "INSERT INTO u (email, password) SELECT a, b FROM t;",
            "INSERT INTO u (email, password) VALUES ('a'",
        ] {
            assert_eq!(read(text), text, "{text}");
        }
    }
}
