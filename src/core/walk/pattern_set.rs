//! One ignore file's patterns (or the `[project]` patterns), matched so
//! that a path pays for the patterns that could match it, not for all of
//! them: the lines are compiled in chunks, and a chunk is asked only when
//! the path holds a literal one of its patterns requires (one
//! Aho-Corasick pass over the path finds which), or when one of them
//! requires none (`*`).
//!
//! The `ignore` crate matches a path against every glob of a file that
//! shares its extension, one regex each: 5,000 globs like
//! `**/zz1*/**/*q1.py` over 12,000 files took `map` 41 s (recheck 16b,
//! F-DEEPIGN2). Git's precedence holds: the last matching line of a file
//! decides, and the chunks are contiguous runs of lines, asked from the
//! last, so the first chunk with a match holds the last matching line.

use std::path::Path;

use aho_corasick::AhoCorasick;
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder, Glob};

/// Lines compiled together: small enough that a chunk asked for one
/// literal costs little, large enough that ordinary files are one chunk.
const CHUNK_LINES: usize = 32;

/// The most chunks a set has (longer files take longer chunks), so which
/// are asked for a path fits in one `u128`, with no allocation a path.
const MAX_CHUNKS: usize = 128;

/// The compiled patterns of one file.
#[derive(Clone)]
pub struct PatternSet {
    chunks: Vec<Gitignore>,
    /// Chunks with a line that requires no literal (bit per chunk): always
    /// asked.
    always: u128,
    /// The literals the lines require, and the chunk of each.
    finder: Option<AhoCorasick>,
    chunk_of: Vec<usize>,
}

impl std::fmt::Debug for PatternSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternSet({} patterns)", self.len())
    }
}

impl PatternSet {
    /// Nothing to match.
    pub fn empty() -> PatternSet {
        PatternSet {
            chunks: Vec::new(),
            always: 0,
            finder: None,
            chunk_of: Vec::new(),
        }
    }

    /// The gitignore `lines` (pattern lines, in file order) relative to
    /// `dir`. A malformed line matches nothing, as with git; the others
    /// still count.
    pub fn new<'a>(dir: &Path, lines: impl IntoIterator<Item = &'a str>) -> PatternSet {
        let lines: Vec<&str> = lines.into_iter().collect();
        if lines.len() <= CHUNK_LINES {
            // One chunk: nothing to pick, no literal to look for.
            let only = compile(dir, &lines);
            if only.is_empty() {
                return PatternSet::empty();
            }
            return PatternSet {
                chunks: vec![only],
                always: 1,
                finder: None,
                chunk_of: Vec::new(),
            };
        }
        let mut set = PatternSet::empty();
        let mut literals: Vec<&str> = Vec::new();
        let size = CHUNK_LINES.max(lines.len().div_ceil(MAX_CHUNKS));
        for chunk in lines.chunks(size) {
            let index = set.chunks.len();
            let mut always = false;
            for line in chunk {
                match required_literal(line) {
                    Some(literal) => {
                        literals.push(literal);
                        set.chunk_of.push(index);
                    }
                    None => always = true,
                }
            }
            set.chunks.push(compile(dir, chunk));
            if always {
                set.always |= 1 << index;
            }
        }
        match AhoCorasick::new(&literals) {
            Ok(finder) => set.finder = Some(finder),
            // Cannot be built (it never fails for a few thousand short
            // literals): every chunk is asked.
            Err(_) => set.always = u128::MAX,
        }
        set
    }

    /// How many patterns are compiled.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Gitignore::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.iter().all(Gitignore::is_empty)
    }

    /// What the patterns say about `path` (a folder when `is_dir`), as
    /// [`Gitignore::matched`] would over all the lines: the last matching
    /// line decides.
    pub fn matched(&self, path: impl AsRef<Path>, is_dir: bool) -> Match<&Glob> {
        let path = path.as_ref();
        if let [only] = self.chunks.as_slice() {
            return only.matched(path, is_dir);
        }
        let mut asked = self.always;
        if let Some(finder) = &self.finder {
            for found in finder.find_overlapping_iter(path.as_os_str().as_encoded_bytes()) {
                if let Some(&chunk) = self.chunk_of.get(found.pattern().as_usize()) {
                    asked |= 1 << chunk;
                }
            }
        }
        for (index, chunk) in self.chunks.iter().enumerate().rev() {
            if asked & (1 << index) == 0 {
                continue;
            }
            let found = chunk.matched(path, is_dir);
            if !found.is_none() {
                return found;
            }
        }
        Match::None
    }
}

/// `lines` as one matcher at `dir`.
fn compile(dir: &Path, lines: &[&str]) -> Gitignore {
    let mut builder = GitignoreBuilder::new(dir);
    for line in lines {
        // `None`: no path kept per glob (memory); a bad line is dropped.
        let _ = builder.add_line(None, line);
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

/// A run of characters that every path the gitignore `line` matches
/// holds as is: the longest run of plain characters between its
/// wildcards, classes, alternations, escapes and slashes. `None` when it
/// has none (`*`, `**/?`), or is a line that matches nothing.
pub fn required_literal(line: &str) -> Option<&str> {
    // Git drops trailing blanks (an escaped one splits below anyway) and
    // reads a leading `!` as "re-include".
    let line = line.trim_end();
    let line = line.strip_prefix('!').unwrap_or(line);
    let bytes = line.as_bytes();
    let (mut best, mut start, mut i) = (0..0, 0, 0);
    let take = |from: usize, to: usize, best: &mut std::ops::Range<usize>| {
        if to > from && to - from > best.len() {
            *best = from..to;
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'*' | b'?' | b'/' | b'\\' => {
                take(start, i, &mut best);
                // What follows a backslash is one character, taken as
                // is: step over it whole.
                let escaped = match bytes[i] {
                    b'\\' => line[i + 1..].chars().next().map_or(0, char::len_utf8),
                    _ => 0,
                };
                i += 1 + escaped;
                start = i;
            }
            b'[' => {
                take(start, i, &mut best);
                // A class is one character: past its closing `]` (one
                // first in the class, or after `!`/`^`, is a member).
                let mut j = i + 1;
                if matches!(bytes.get(j), Some(b'!' | b'^')) {
                    j += 1;
                }
                if bytes.get(j) == Some(&b']') {
                    j += 1;
                }
                match bytes[j.min(bytes.len())..].iter().position(|&b| b == b']') {
                    Some(end) => i = j + end + 1,
                    // Unclosed: the line is malformed, no literal is sure.
                    None => return None,
                }
                start = i;
            }
            b'{' => {
                take(start, i, &mut best);
                // An alternation: past its matching `}`.
                let mut depth = 0usize;
                let mut j = i;
                loop {
                    match bytes.get(j) {
                        Some(b'{') => depth += 1,
                        Some(b'}') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some(b'\\') => j += 1,
                        Some(_) => {}
                        None => return None,
                    }
                    j += 1;
                }
                i = j + 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    take(start, bytes.len().min(i), &mut best);
    line.get(best).filter(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_runs_every_match_holds() {
        for (line, literal) in [
            ("*.pyc", Some(".pyc")),
            ("**/zz12*/**/*q12.py", Some("q12.py")),
            ("/build/", Some("build")),
            ("!keep.me", Some("keep.me")),
            ("node_modules   ", Some("node_modules")),
            ("a[bcd]efgh", Some("efgh")),
            ("x[]abc]yz", Some("yz")),
            ("x[!abc]", Some("x")),
            ("pre{fix,fixes}tail_long", Some("tail_long")),
            ("{a,{b,c}}", None),
            ("foo\\*bar_longer", Some("bar_longer")),
            ("\\#hash", Some("hash")),
            ("*", None),
            ("**/?", None),
            ("a[bc", None),
            ("a{b,c", None),
            ("ünïcode*", Some("ünïcode")),
        ] {
            assert_eq!(required_literal(line), literal, "{line}");
        }
    }

    /// Pieces of gitignore lines: literals, wildcards, classes,
    /// alternations, escapes, anchors, negation.
    const LINE_PARTS: [&str; 20] = [
        "a", "b", "ab", "c.d", "*", "**", "?", "a?", "?b", "/", "[ab]", "[!a]", "{a,b}", "\\*",
        "!", " ", "\\ ", "[", "{", "é",
    ];
    /// Pieces of paths (joined by `/`).
    const PATH_PARTS: [&str; 7] = ["a", "b", "ab", "c.d", "ba", "*", "é"];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1500))]
        /// Any lines, any paths: chunked matching says what one matcher
        /// of all the lines says.
        #[test]
        fn any_lines_match_as_one_matcher_would(
            lines in proptest::collection::vec(
                proptest::collection::vec(0..LINE_PARTS.len(), 1..4), 33..90),
            paths in proptest::collection::vec(
                proptest::collection::vec(0..PATH_PARTS.len(), 1..4), 1..12),
        ) {
            let dir = Path::new("/p");
            let lines: Vec<String> = lines
                .iter()
                .map(|l| l.iter().map(|&i| LINE_PARTS[i]).collect())
                .collect();
            let set = PatternSet::new(dir, lines.iter().map(String::as_str));
            let mut whole = GitignoreBuilder::new(dir);
            for line in &lines {
                let _ = whole.add_line(None, line);
            }
            let whole = whole.build().unwrap_or_else(|_| Gitignore::empty());
            for path in &paths {
                let rel: Vec<&str> = path.iter().map(|&i| PATH_PARTS[i]).collect();
                let full = dir.join(rel.join("/"));
                for is_dir in [false, true] {
                    let (got, want) = (set.matched(&full, is_dir), whole.matched(&full, is_dir));
                    proptest::prop_assert_eq!(
                        (got.is_ignore(), got.is_whitelist()),
                        (want.is_ignore(), want.is_whitelist()),
                        "{:?} dir={} lines={:?}", full, is_dir, lines
                    );
                }
            }
        }
    }

    /// Past [`MAX_CHUNKS`] chunks of [`CHUNK_LINES`] the chunks grow: the
    /// last line still decides.
    #[test]
    fn long_files_take_longer_chunks() {
        let dir = Path::new("/p");
        let mut lines: Vec<String> = (0..5_000).map(|i| format!("**/zz{i}*/*q{i}.py")).collect();
        lines.push("!**/zz4999x/*q4999.py".to_string());
        lines.push("*".to_string());
        lines.push("!keep.me".to_string());
        let set = PatternSet::new(dir, lines.iter().map(String::as_str));
        assert!(set.chunks.len() <= MAX_CHUNKS);
        assert_eq!(set.len(), lines.len());
        assert!(set.matched(dir.join("a/zz7y/q7.py"), false).is_ignore());
        assert!(set.matched(dir.join("zz4999x/q4999.py"), false).is_ignore());
        assert!(set.matched(dir.join("keep.me"), false).is_whitelist());
    }

    /// Over many lines, each path gets what one matcher of all the lines
    /// gives it: the last matching line decides, `!` lines re-include,
    /// folder-only lines match folders only.
    #[test]
    fn chunks_match_as_one_matcher_would() {
        let dir = Path::new("/p");
        let mut lines: Vec<String> = (0..200).map(|i| format!("**/zz{i}*/**/*q{i}.py")).collect();
        lines.extend([
            "*.log".to_string(),
            "!keep.log".to_string(),
            "build/".to_string(),
            "a[bc]d".to_string(),
            "*".to_string(),
            "!*.rs".to_string(),
            "!src/".to_string(),
            "src/gen/".to_string(),
            "pre{x,y}".to_string(),
        ]);
        for i in 0..100 {
            lines.push(format!("!src/zz{i}*/q{i}.py"));
        }
        let set = PatternSet::new(dir, lines.iter().map(String::as_str));
        let mut whole = GitignoreBuilder::new(dir);
        for line in &lines {
            let _ = whole.add_line(None, line);
        }
        let whole = whole.build().expect("builds");
        assert_eq!(set.len(), whole.len());
        let paths = [
            "a/zz3x/b/c/q3.py",
            "a/zz3x/b/c/q4.py",
            "src/zz7/q7.py",
            "src/zz150/deep/q150.py",
            "x.log",
            "keep.log",
            "build",
            "abd",
            "acd",
            "main.rs",
            "src",
            "src/gen",
            "prex",
            "prez",
            "plain.txt",
        ];
        for path in paths {
            for is_dir in [false, true] {
                let full = dir.join(path);
                let want = whole.matched(&full, is_dir);
                let got = set.matched(&full, is_dir);
                assert_eq!(
                    (got.is_ignore(), got.is_whitelist()),
                    (want.is_ignore(), want.is_whitelist()),
                    "{path} dir={is_dir}"
                );
            }
        }
    }
}
