//! Long results in parts: MCP clients cap what one tool result may hold,
//! so a text past the server's limit comes back as its first part, its
//! total size and a cursor; the `more` tool hands out the rest, part by
//! part. The texts are kept in memory for the last few results only.

use std::collections::VecDeque;
use std::sync::Arc;

use super::error::ToolError;

/// How many long results stay fetchable: an agent reads one to the end
/// before it builds the next, and each may be megabytes.
const KEPT: usize = 4;

/// One part of a text, and where the rest is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    /// Where this part starts and ends in the whole (bytes).
    pub start: usize,
    pub end: usize,
    pub total: usize,
    /// Present when more follows: pass it to `more`.
    pub cursor: Option<String>,
}

/// The long results handed out in parts.
#[derive(Debug)]
pub struct Pages {
    /// The most a result holds (bytes of UTF-8 text).
    limit: usize,
    next_id: u64,
    kept: VecDeque<(u64, Arc<str>)>,
}

impl Pages {
    pub fn new(limit: usize) -> Self {
        Pages {
            limit: limit.max(1),
            next_id: 1,
            kept: VecDeque::new(),
        }
    }

    /// The first part of `text` (all of it when it fits).
    pub fn first(&mut self, text: String) -> Part {
        let total = text.len();
        if total <= self.limit {
            return Part {
                text,
                start: 0,
                end: total,
                total,
                cursor: None,
            };
        }
        let id = self.next_id;
        self.next_id += 1;
        let text: Arc<str> = text.into();
        self.kept.push_back((id, text.clone()));
        while self.kept.len() > KEPT {
            self.kept.pop_front();
        }
        self.part(id, &text, 0)
    }

    /// The part a cursor points at.
    pub fn more(&self, cursor: &str) -> Result<Part, ToolError> {
        let bad = || {
            ToolError::new(format!(
                "unknown or expired cursor `{}`",
                super::request::shown_name(cursor)
            ))
        };
        let (id, at) = cursor.split_once(':').ok_or_else(bad)?;
        let id: u64 = id.parse().map_err(|_| bad())?;
        let at: usize = at.parse().map_err(|_| bad())?;
        let text = self
            .kept
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(_, t)| t.clone())
            .ok_or_else(bad)?;
        if at >= text.len() || !text.is_char_boundary(at) {
            return Err(bad());
        }
        Ok(self.part(id, &text, at))
    }

    /// The part of `text` from `start`, at most `limit` bytes, cut at a
    /// character boundary (at a line's end when one is in the part's
    /// second half).
    fn part(&self, id: u64, text: &str, start: usize) -> Part {
        let mut end = (start + self.limit).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end < text.len()
            && let Some(nl) = text[start..end].rfind('\n')
            && nl + 1 > (end - start) / 2
        {
            end = start + nl + 1;
        }
        if end == start {
            // A limit below one character still moves on.
            end = start + text[start..].chars().next().map_or(0, char::len_utf8);
        }
        Part {
            text: text[start..end].to_string(),
            start,
            end,
            total: text.len(),
            cursor: (end < text.len()).then(|| format!("{id}:{end}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_comes_whole() {
        let part = Pages::new(100).first("abc".into());
        assert_eq!(part.text, "abc");
        assert_eq!(part.cursor, None);
    }

    #[test]
    fn a_long_text_comes_back_in_parts_that_add_up() {
        let text: String = (0..50).map(|i| format!("line {i} é\n")).collect();
        let mut pages = Pages::new(64);
        let mut part = pages.first(text.clone());
        let mut joined = part.text.clone();
        while let Some(cursor) = part.cursor.clone() {
            part = pages.more(&cursor).unwrap();
            assert!(part.text.len() <= 64);
            joined.push_str(&part.text);
        }
        assert_eq!(joined, text);
        assert_eq!(part.end, text.len());
    }

    #[test]
    fn a_bad_cursor_is_a_tool_error() {
        let pages = Pages::new(10);
        assert!(pages.more("9:0").is_err());
        assert!(pages.more("nonsense").is_err());
    }
}
