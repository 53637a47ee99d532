//! Counting a text that arrives in pieces (a streamed build): it is cut
//! into segments at the points where no pre-token spans the cut (the rule
//! of [`super::cuts`]), so the segments' counts add up to the count of
//! the whole, and only one segment is held at a time.
//!
//! Each segment is counted by the caller's function (a cached count, so
//! a warm build looks segments up instead of encoding them). The text
//! around the stream (what comes before and after it, known only at the
//! end) is counted with the first and the last segment, since the joins
//! are not cut points.

/// A count in progress (see the module doc).
#[derive(Debug)]
pub struct StreamCount {
    /// What arrived since the last cut.
    buf: String,
    /// Where in `buf` the search for a cut goes on (every earlier point
    /// was tried).
    searched: usize,
    /// The text up to the first cut, kept to be counted with the text
    /// before the stream.
    first: Option<String>,
    /// The counts of the segments between the first and the last.
    total: usize,
    /// Segments are at least this long (but for the last).
    segment: usize,
}

impl StreamCount {
    /// A count cutting segments of at least `segment` bytes.
    pub fn new(segment: usize) -> Self {
        StreamCount {
            buf: String::new(),
            searched: 0,
            first: None,
            total: 0,
            segment: segment.max(1),
        }
    }

    /// `s`, the next piece of the stream; whole segments are counted by
    /// `count`.
    pub fn push(&mut self, s: &str, count: &mut dyn FnMut(&str) -> usize) {
        // One buffer for the whole stream, a segment and the longest
        // piece long (grown by doubling, it would hold twice that).
        if self.buf.capacity() == 0 {
            self.buf.reserve_exact(self.segment.saturating_add(1 << 16));
        }
        if self.buf.len() + s.len() > self.buf.capacity() {
            self.buf.reserve_exact(s.len());
        }
        self.buf.push_str(s);
        while self.buf.len() > self.segment {
            let Some(cut) = self.next_cut() else { break };
            let piece = &self.buf[..cut];
            match self.first {
                // Its own length: it waits for the text before the stream.
                None => self.first = Some(piece.to_string()),
                Some(_) => self.total += count(piece),
            }
            self.buf.drain(..cut);
            self.searched = 0;
        }
    }

    /// The first cut point at or past `segment` bytes into `buf`: right
    /// after a `\n` where [`super::cuts_before`] allows (`None`: none yet).
    fn next_cut(&mut self) -> Option<usize> {
        let bytes = self.buf.as_bytes();
        let from = self.searched.max(self.segment).max(1);
        let found =
            (from..bytes.len()).find(|&at| bytes[at - 1] == b'\n' && super::cuts_before(bytes[at]));
        // Every point up to the end was tried (the last byte's own point
        // needs the byte after it).
        self.searched = bytes.len();
        found
    }

    /// The count of `before`, the stream and `after`, as one text.
    pub fn finish(self, before: &str, after: &str, count: &mut dyn FnMut(&str) -> usize) -> usize {
        match self.first {
            Some(first) => {
                self.total
                    + count(&format!("{before}{first}"))
                    + count(&format!("{}{after}", self.buf))
            }
            None => count(&format!("{before}{}{after}", self.buf)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::TokenizerKind;
    use crate::core::tokens::count;

    /// Any way of cutting a text into pieces, with any segment size,
    /// counts as the whole.
    #[test]
    fn segments_add_up_to_the_whole() {
        let text = "## Files\n\n### a.py\n\n```python\nimport os\n\n\ndef f(x):\n    return x  # ```\n```\n\n### b.py\n\n```\nclass B:\n    pass\n```\n\n## Task\n\ndo it\n"
            .repeat(7);
        let before = "## Directory Tree\n\n```\na.py\n```\n\n";
        let after = "\n\n## Task\n\nnow\n";
        let whole = count(TokenizerKind::O200k, &format!("{before}{text}{after}"));
        for segment in [1, 7, 40, 300, 10_000] {
            for piece in [1, 3, 16, 1000] {
                let mut counted = Vec::new();
                let mut c = |s: &str| {
                    counted.push(s.len());
                    count(TokenizerKind::O200k, s)
                };
                let mut stream = StreamCount::new(segment);
                let chars: Vec<char> = text.chars().collect();
                for part in chars.chunks(piece) {
                    stream.push(&part.iter().collect::<String>(), &mut c);
                }
                let n = stream.finish(before, after, &mut c);
                assert_eq!(n, whole, "segment {segment}, pieces of {piece}");
                if segment <= 40 {
                    assert!(counted.len() > 3, "cut into segments: {counted:?}");
                }
            }
        }
    }

    /// A files section with no line that starts with a letter (a project
    /// of pretty-printed JSON: `### a.json`, fences, `{`, `  "k": 1`) is
    /// cut too: with letters only, the count held the whole stream, and
    /// `build -o` of 2,000 such files (105 MB of output) peaked at 230 MB.
    #[test]
    fn a_stream_without_letters_at_line_starts_is_still_cut() {
        let block = "### d/f.json\n\n```json\n[\n  {\n    \"n\": 1,\n    \"v\": [\n      1\n    ]\n  }\n]\n```\n\n";
        let mut stream = StreamCount::new(1 << 12);
        let mut c = |s: &str| s.len();
        for _ in 0..2_000 {
            stream.push(block, &mut c);
        }
        assert!(
            stream.buf.len() < 4 << 12,
            "held {} bytes of a {}-byte stream",
            stream.buf.len(),
            block.len() * 2_000
        );
    }

    #[test]
    fn nothing_streamed() {
        let mut c = |s: &str| count(TokenizerKind::O200k, s);
        assert_eq!(StreamCount::new(8).finish("", "", &mut c), 0);
        assert_eq!(
            StreamCount::new(8).finish("hello", " world", &mut c),
            count(TokenizerKind::O200k, "hello world")
        );
    }
}
