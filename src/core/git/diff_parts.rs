//! Reading `git diff` output file by file: each part starts at its
//! `diff --git a/NAME b/NAME` line and is named by that line, never by
//! its position in some other list (a file replaced by a symlink is one
//! name and two parts; counting would shift every later name onto the
//! wrong part). Parts are kept whole while they fit a byte cap.
//!
//! `core::git` runs the diff with `--no-renames`, fixed `a/` and `b/`
//! prefixes and `--relative`, so both names of a header are the same
//! path: unquoted (`a/sp ace b/sp ace`, split where the two halves
//! agree) or C-quoted when the name holds a quote, a backslash or a
//! control character (`"a/new\nline" "b/new\nline"`). A header that reads
//! otherwise names no file: its part is left out with a note.

use std::io::BufRead;

use crate::core::compose::changes::FileDiff;

/// Reads a unified diff file by file, keeping the parts that fit in the
/// byte cap.
pub struct CappedDiff {
    left: u64,
    pub files: Vec<FileDiff>,
    pub notes: Vec<String>,
    /// The files whose parts are never kept ([`super::held_back`]:
    /// credential files), in git's order: dropped whole, they take
    /// nothing of the cap.
    pub held: Vec<String>,
    /// The part being read: its header's path (`Err`: the header as
    /// read, which named none), its bytes (until it outgrows `left`) and
    /// its size.
    path: Result<String, String>,
    part: Vec<u8>,
    part_size: u64,
}

impl CappedDiff {
    pub fn new(max_bytes: u64) -> Self {
        CappedDiff {
            left: max_bytes,
            files: Vec::new(),
            notes: Vec::new(),
            held: Vec::new(),
            path: Err(String::new()),
            part: Vec::new(),
            part_size: 0,
        }
    }

    pub fn read_all(&mut self, mut input: impl BufRead) -> std::io::Result<()> {
        let mut line = Vec::new();
        loop {
            line.clear();
            // Only what the part could still keep is held of a line (and
            // enough of it to read a header): a file that is one line of
            // hundreds of megabytes is counted, not buffered.
            let room = self.left.saturating_sub(self.part_size).saturating_add(1);
            let keep = usize::try_from(room).unwrap_or(usize::MAX).max(HEADER_KEEP);
            let size = read_line_capped(&mut input, &mut line, keep)?;
            if size == 0 {
                break;
            }
            if let Some(header) = line.strip_prefix(b"diff --git ") {
                self.finish_part();
                let header = header.strip_suffix(b"\n").unwrap_or(header);
                self.path =
                    header_path(header).ok_or_else(|| String::from_utf8_lossy(header).into_owned());
            }
            self.part_size += size;
            if self.part_size <= self.left {
                self.part.extend_from_slice(&line);
            }
        }
        self.finish_part();
        Ok(())
    }

    fn finish_part(&mut self) {
        if self.part_size == 0 {
            return;
        }
        let size = std::mem::take(&mut self.part_size);
        let part = std::mem::take(&mut self.part);
        let path = match std::mem::replace(&mut self.path, Err(String::new())) {
            Ok(path) => path,
            Err(header) => {
                self.notes.push(format!(
                    "a part of the diff ({size} bytes) is left out: its header names no \
                     file this tool can read ({header:?})"
                ));
                return;
            }
        };
        if super::held_back(&path) {
            if !self.held.contains(&path) {
                self.held.push(path);
            }
            return;
        }
        if size > self.left {
            self.notes.push(format!(
                "{path}: its diff ({size} bytes) is left out: the diff is capped at max_file_size"
            ));
            return;
        }
        self.left -= size;
        let text = match String::from_utf8(part) {
            Ok(text) => text,
            Err(e) => {
                self.notes.push(format!(
                    "{path}: invalid UTF-8 in the diff replaced with U+FFFD"
                ));
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        self.files.push(FileDiff { path, text });
    }
}

/// How much of a line is always kept, whatever the cap: room for a
/// `diff --git` header with two long paths.
const HEADER_KEEP: usize = 64 * 1024;

/// Read one line (through its `\n`, or to the end) from `input`, keeping
/// at most `keep` bytes of it in `line`; returns its whole length (0 at
/// the end).
fn read_line_capped(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    keep: usize,
) -> std::io::Result<u64> {
    let mut size = 0u64;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(size);
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = keep.saturating_sub(line.len()).min(take);
        line.extend_from_slice(&buf[..room]);
        input.consume(take);
        size += take as u64;
        if done {
            return Ok(size);
        }
    }
}

/// The path a `diff --git ` header names (what follows `diff --git `,
/// without the newline), when both names are the same path with the
/// `a/` and `b/` prefixes; `None` otherwise, or when it is not UTF-8.
pub fn header_path(header: &[u8]) -> Option<String> {
    let bytes = if header.first() == Some(&b'"') {
        let (a, rest) = unquote(header)?;
        let rest = rest.strip_prefix(b" ")?;
        let (b, tail) = unquote(rest)?;
        if !tail.is_empty() {
            return None;
        }
        let (a, b) = (a.strip_prefix(b"a/")?, b.strip_prefix(b"b/")?);
        (a == b).then(|| a.to_vec())?
    } else {
        // `a/X b/X`: X is half of what is left once the prefixes and the
        // space between are taken away.
        let inner = header.strip_prefix(b"a/")?;
        if inner.len() < 3 || (inner.len() - 3) % 2 != 0 {
            return None;
        }
        let n = (inner.len() - 3) / 2;
        let (a, rest) = inner.split_at(n);
        let b = rest.strip_prefix(b" b/")?;
        (a == b && !a.is_empty() && a.first() != Some(&b'"')).then(|| a.to_vec())?
    };
    String::from_utf8(bytes).ok().filter(|p| !p.is_empty())
}

/// A C-quoted name as git writes it (`"…"` with `\n`, `\t`, `\"`, `\\`,
/// `\ooo`, …) at the start of `s`: its bytes and what follows it.
fn unquote(s: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut out = Vec::new();
    let mut i = 1;
    if s.first() != Some(&b'"') {
        return None;
    }
    loop {
        let c = *s.get(i)?;
        i += 1;
        match c {
            b'"' => return Some((out, &s[i..])),
            b'\\' => {
                let e = *s.get(i)?;
                i += 1;
                out.push(match e {
                    b'a' => 7,
                    b'b' => 8,
                    b't' => b'\t',
                    b'n' => b'\n',
                    b'v' => 11,
                    b'f' => 12,
                    b'r' => b'\r',
                    b'"' => b'"',
                    b'\\' => b'\\',
                    b'0'..=b'3' => {
                        let digits = s.get(i..i + 2)?;
                        if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                            return None;
                        }
                        i += 2;
                        (e - b'0') * 64 + (digits[0] - b'0') * 8 + (digits[1] - b'0')
                    }
                    _ => return None,
                });
            }
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_diff_keeps_whole_parts_in_order() {
        let diff = "diff --git a/a b/a\n-1\n+2\ndiff --git a/big b/big\n+xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ndiff --git a/c b/c\n+3\n";
        let mut r = CappedDiff::new(60);
        r.read_all(diff.as_bytes()).unwrap();
        let kept: Vec<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(kept, ["a", "c"]);
        assert_eq!(r.files[0].text, "diff --git a/a b/a\n-1\n+2\n");
        assert_eq!(r.files[1].text, "diff --git a/c b/c\n+3\n");
        assert_eq!(r.notes.len(), 1);
        assert!(
            r.notes[0].starts_with("big: its diff (61 bytes) is left out"),
            "{:?}",
            r.notes
        );
    }

    /// A part that is one enormous line is counted through, not held:
    /// the line buffer keeps what the cap could keep (and a header's
    /// worth), and the parts after it are read as usual.
    #[test]
    fn a_one_line_part_is_counted_not_buffered() {
        struct Lazy(u64);
        impl std::io::Read for Lazy {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = (self.0.min(buf.len() as u64)) as usize;
                buf[..n].fill(b'x');
                self.0 -= n as u64;
                Ok(n)
            }
        }
        let big: u64 = 20 << 20;
        let input = std::io::Read::chain(
            std::io::Read::chain(&b"diff --git a/big b/big\n+"[..], Lazy(big)),
            &b"\ndiff --git a/c b/c\n+3\n"[..],
        );
        let mut r = CappedDiff::new(1000);
        r.read_all(std::io::BufReader::new(input)).unwrap();
        let kept: Vec<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(kept, ["c"]);
        let whole = 23 + 1 + big + 1;
        assert!(
            r.notes[0].starts_with(&format!("big: its diff ({whole} bytes) is left out")),
            "{:?}",
            r.notes
        );
        let mut line = Vec::new();
        let mut input = std::io::BufReader::new(std::io::Read::chain(Lazy(big), &b"\n"[..]));
        assert_eq!(
            read_line_capped(&mut input, &mut line, 100).unwrap(),
            big + 1
        );
        assert_eq!(line.len(), 100, "only what may be kept is held");
    }

    #[test]
    fn invalid_utf8_in_a_diff_is_replaced_with_a_note() {
        let mut r = CappedDiff::new(1000);
        r.read_all(&b"diff --git a/a b/a\n+\xff\n"[..]).unwrap();
        assert_eq!(r.files[0].text, "diff --git a/a b/a\n+\u{fffd}\n");
        assert_eq!(
            r.notes,
            ["a: invalid UTF-8 in the diff replaced with U+FFFD"]
        );
    }

    #[test]
    fn each_part_is_named_by_its_own_header() {
        // A file replaced by a symlink: one name, two parts.
        let diff = "diff --git a/link b/link\ndeleted file mode 100644\n-x\n\
                    diff --git a/link b/link\nnew file mode 120000\n+target\n\
                    diff --git a/secret b/secret\n-old\n+new\n";
        let mut r = CappedDiff::new(10_000);
        r.read_all(diff.as_bytes()).unwrap();
        let names: Vec<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["link", "link", "secret"]);
        assert!(r.files[2].text.contains("+new"));
    }

    #[test]
    fn headers_with_hostile_names_read_exact() {
        for (header, path) in [
            (&b"a/sp ace.py b/sp ace.py"[..], Some("sp ace.py")),
            (b"a/a b/c b/a b/c", Some("a b/c")),
            (b"a/x b/x b/x b/x", Some("x b/x")),
            (br#""a/new\nline" "b/new\nline""#, Some("new\nline")),
            (br#""a/\"q\".py" "b/\"q\".py""#, Some("\"q\".py")),
            (br#""a/t\tb\\s" "b/t\tb\\s""#, Some("t\tb\\s")),
            (br#""a/\303\251" "b/\303\251""#, Some("é")),
            ("a/é b/é".as_bytes(), Some("é")),
            (b"a/x b/y", None),
            (b"a/x", None),
            (b"x/a y/a", None),
            (br#""a/x" "b/y""#, None),
            (br#""a/x" "b/x" junk"#, None),
            (br#""a/\377" "b/\377""#, None),
            (br#""a/x\q" "b/x\q""#, None),
            (b"", None),
        ] {
            assert_eq!(
                header_path(header).as_deref(),
                path,
                "{}",
                String::from_utf8_lossy(header)
            );
        }
    }

    #[test]
    fn a_part_whose_header_names_nothing_is_left_out_with_a_note() {
        let mut r = CappedDiff::new(1000);
        r.read_all(&b"diff --git x y\n+1\ndiff --git a/k b/k\n+2\n"[..])
            .unwrap();
        assert_eq!(r.files.len(), 1);
        assert_eq!(r.files[0].path, "k");
        assert!(r.notes[0].contains("names no file"), "{:?}", r.notes);
    }
}
