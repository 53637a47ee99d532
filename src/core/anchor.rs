//! Anchored slices: making a slice stores its text's hash and the lines
//! around it; resolving finds the slice again in the current file, or says
//! it is stale. Wrong lines are never shown as if they were the slice.

use crate::core::model::Slice;
use crate::core::tokens::sha256_hex;

/// How many lines before and after a slice are stored as anchors.
pub const ANCHOR_LINES: usize = 3;

/// Where a slice stands in the current file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// At its stored lines, unchanged (or stored without a hash).
    Kept { start: usize, end: usize },
    /// Its exact text found once elsewhere; `by` is the line shift.
    Moved { start: usize, end: usize, by: i64 },
    /// Not found: the reason says why.
    Stale { reason: String },
}

impl Resolution {
    /// The resolved 1-based inclusive line range, unless stale.
    pub fn range(&self) -> Option<(usize, usize)> {
        match self {
            Resolution::Kept { start, end } | Resolution::Moved { start, end, .. } => {
                Some((*start, *end))
            }
            Resolution::Stale { .. } => None,
        }
    }
}

fn lines_of(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn hash_lines(lines: &[&str]) -> String {
    sha256_hex(lines.join("\n").as_bytes())
}

/// A new slice of lines `start..=end` (1-based) of `text`, with its hash
/// and anchors; `None` when the range is empty or outside the file.
pub fn create_slice(text: &str, start: usize, end: usize) -> Option<Slice> {
    let lines = lines_of(text);
    if start == 0 || end < start || end > lines.len() {
        return None;
    }
    let body = &lines[start - 1..end];
    let before_from = (start - 1).saturating_sub(ANCHOR_LINES);
    let after_to = (end + ANCHOR_LINES).min(lines.len());
    Some(Slice {
        start_line: start,
        end_line: end,
        content_hash: Some(hash_lines(body)),
        anchor_before: lines[before_from..start - 1]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        anchor_after: lines[end..after_to].iter().map(|s| s.to_string()).collect(),
        ..Slice::default()
    })
}

/// Find `slice` in the current `text`.
pub fn resolve(text: &str, slice: &Slice) -> Resolution {
    let lines = lines_of(text);
    let (start, end) = (slice.start_line, slice.end_line);
    if start == 0 || end < start {
        return Resolution::Stale {
            reason: format!("invalid line range {start}-{end}"),
        };
    }
    let in_range = end <= lines.len();
    let Some(hash) = &slice.content_hash else {
        return if in_range {
            Resolution::Kept { start, end }
        } else {
            Resolution::Stale {
                reason: format!(
                    "lines {start}-{end} are past the end of the file ({} lines)",
                    lines.len()
                ),
            }
        };
    };
    if in_range && hash_lines(&lines[start - 1..end]) == *hash {
        return Resolution::Kept { start, end };
    }
    let len = end - start + 1;
    let mut found = (0..lines.len().saturating_sub(len - 1))
        .filter(|&i| hash_lines(&lines[i..i + len]) == *hash);
    match (found.next(), found.next()) {
        (Some(i), None) => Resolution::Moved {
            start: i + 1,
            end: i + len,
            by: (i + 1) as i64 - start as i64,
        },
        (Some(_), Some(_)) => Resolution::Stale {
            reason: "the slice's text occurs more than once".into(),
        },
        _ => Resolution::Stale {
            reason: "the slice's text changed".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "a\nb\nc\nd\ne\nf\ng\n";

    #[test]
    fn create_stores_hash_and_anchors() {
        let s = create_slice(TEXT, 4, 5).unwrap();
        assert_eq!(s.anchor_before, ["a", "b", "c"]);
        assert_eq!(s.anchor_after, ["f", "g"]);
        assert_eq!(
            s.content_hash.as_deref(),
            Some(sha256_hex(b"d\ne").as_str())
        );
        assert!(create_slice(TEXT, 0, 1).is_none());
        assert!(create_slice(TEXT, 3, 9).is_none());
    }

    #[test]
    fn kept_moved_stale() {
        let s = create_slice(TEXT, 4, 5).unwrap();
        assert_eq!(resolve(TEXT, &s), Resolution::Kept { start: 4, end: 5 });
        assert_eq!(
            resolve("x\ny\na\nb\nc\nd\ne\nf\ng\n", &s),
            Resolution::Moved {
                start: 6,
                end: 7,
                by: 2
            }
        );
        assert!(matches!(
            resolve("a\nb\nc\nD\ne\n", &s),
            Resolution::Stale { .. }
        ));
        assert!(matches!(
            resolve("d\ne\nd\ne\n", &s),
            Resolution::Stale { .. }
        ));
    }

    #[test]
    fn unhashed_slice_checks_range_only() {
        let s = Slice {
            start_line: 2,
            end_line: 9,
            ..Slice::default()
        };
        assert!(matches!(resolve(TEXT, &s), Resolution::Stale { .. }));
        let s = Slice {
            start_line: 2,
            end_line: 3,
            ..Slice::default()
        };
        assert_eq!(resolve(TEXT, &s), Resolution::Kept { start: 2, end: 3 });
    }
}
