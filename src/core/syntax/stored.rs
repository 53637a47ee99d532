//! A symbol tree as bytes, for the disk cache: everything the views read
//! (spans, licence blocks, data-table stand-ins) kept, so a file parsed by
//! an earlier run is masked, skeletoned or outlined without a parse.
//!
//! The format is private to one build of ctxcurate (the cache key names
//! the build): LEB128 integers, strings as a length and UTF-8 bytes, an
//! option as a 0/1 byte before its value. [`decode`] checks every length
//! and every nesting against what is left and returns `None` for anything
//! it cannot read, never a partial tree.

use std::ops::Range;

use super::literals::LargeLiteral;
use super::spans::Spans;
use super::{Lang, Symbol, SymbolKind, SymbolTree};

/// The deepest nesting of symbols stored; a deeper tree is not stored
/// (parsed again next time), so neither side recurses without bound.
const MAX_DEPTH: usize = 256;

/// `tree` as bytes; `None` for a tree not worth keeping (a parse stopped
/// at its deadline, which a faster run may finish) or nested past
/// [`MAX_DEPTH`].
pub(crate) fn encode(tree: &SymbolTree) -> Option<Vec<u8>> {
    if tree.parse_stopped {
        return None;
    }
    let mut out = Vec::with_capacity(256);
    put_opt_str(&mut out, tree.module_doc.as_deref());
    put_ranges(&mut out, &tree.licence);
    out.push(u8::from(tree.has_errors));
    put_opt_usize(&mut out, tree.error_line);
    put_usize(&mut out, tree.large_literals.len());
    for lit in &tree.large_literals {
        put_range(&mut out, &lit.range);
        put_str(&mut out, &lit.stand_in);
        put_str(&mut out, &lit.note);
        out.push(u8::from(lit.note_in_code));
    }
    put_symbols(&mut out, &tree.symbols, 0)?;
    Some(out)
}

/// The tree [`encode`] wrote, as a tree of `lang`; `None` when `bytes` is
/// not one whole tree.
pub(crate) fn decode(lang: Lang, bytes: &[u8]) -> Option<SymbolTree> {
    let mut r = Reader { bytes, at: 0 };
    let module_doc = r.opt_str()?;
    let licence = r.ranges()?;
    let has_errors = r.flag()?;
    let error_line = r.opt_usize()?;
    let count = r.count()?;
    let mut large_literals = Vec::with_capacity(count);
    for _ in 0..count {
        large_literals.push(LargeLiteral {
            range: r.range()?,
            stand_in: r.str()?,
            note: r.str()?,
            note_in_code: r.flag()?,
        });
    }
    let symbols = r.symbols(0)?;
    if r.at != bytes.len() {
        return None;
    }
    Some(SymbolTree {
        lang,
        symbols,
        module_doc,
        licence,
        has_errors,
        large_literals,
        error_line,
        parse_stopped: false,
    })
}

fn put_symbols(out: &mut Vec<u8>, symbols: &[Symbol], depth: usize) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    put_usize(out, symbols.len());
    for s in symbols {
        put_str(out, &s.path);
        put_str(out, &s.name);
        put_str(out, s.kind.as_str());
        put_usize(out, s.start_line);
        put_usize(out, s.end_line);
        put_str(out, &s.signature);
        put_range(out, &s.range);
        let spans = &s.spans;
        put_usize(out, spans.lead);
        for part in [&spans.body, &spans.inner, &spans.elide, &spans.doc] {
            match part {
                Some(range) => {
                    out.push(1);
                    put_range(out, range);
                }
                None => out.push(0),
            }
        }
        put_opt_str(out, s.legacy.as_deref());
        put_symbols(out, &s.children, depth + 1)?;
    }
    Some(())
}

fn put_usize(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_usize(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

fn put_opt_str(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => {
            out.push(1);
            put_str(out, s);
        }
        None => out.push(0),
    }
}

fn put_opt_usize(out: &mut Vec<u8>, n: Option<usize>) {
    match n {
        Some(n) => {
            out.push(1);
            put_usize(out, n);
        }
        None => out.push(0),
    }
}

fn put_range(out: &mut Vec<u8>, range: &Range<usize>) {
    put_usize(out, range.start);
    put_usize(out, range.end);
}

fn put_ranges(out: &mut Vec<u8>, ranges: &[Range<usize>]) {
    put_usize(out, ranges.len());
    for range in ranges {
        put_range(out, range);
    }
}

/// Reads what the `put_` functions wrote; every read checks what is left.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn flag(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn usize(&mut self) -> Option<usize> {
        let mut n: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return usize::try_from(n).ok();
            }
        }
        None
    }

    /// A count of items still to read: each takes at least one byte, so a
    /// count past what is left is no count (and allocates nothing).
    fn count(&mut self) -> Option<usize> {
        let n = self.usize()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    fn str(&mut self) -> Option<String> {
        let len = self.usize()?;
        let end = self.at.checked_add(len)?;
        let s = std::str::from_utf8(self.bytes.get(self.at..end)?).ok()?;
        self.at = end;
        Some(s.to_string())
    }

    fn opt_str(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? {
            Some(self.str()?)
        } else {
            None
        })
    }

    fn opt_usize(&mut self) -> Option<Option<usize>> {
        Some(if self.flag()? {
            Some(self.usize()?)
        } else {
            None
        })
    }

    fn range(&mut self) -> Option<Range<usize>> {
        let start = self.usize()?;
        let end = self.usize()?;
        (start <= end).then_some(start..end)
    }

    fn opt_range(&mut self) -> Option<Option<Range<usize>>> {
        Some(if self.flag()? {
            Some(self.range()?)
        } else {
            None
        })
    }

    fn ranges(&mut self) -> Option<Vec<Range<usize>>> {
        let n = self.count()?;
        (0..n).map(|_| self.range()).collect()
    }

    fn symbols(&mut self, depth: usize) -> Option<Vec<Symbol>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = self.count()?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let path = self.str()?;
            let name = self.str()?;
            let kind = SymbolKind::from_name(&self.str()?)?;
            let start_line = self.usize()?;
            let end_line = self.usize()?;
            let signature = self.str()?;
            let range = self.range()?;
            let spans = Spans {
                lead: self.usize()?,
                body: self.opt_range()?,
                inner: self.opt_range()?,
                elide: self.opt_range()?,
                doc: self.opt_range()?,
            };
            let legacy = self.opt_str()?;
            let children = self.symbols(depth + 1)?;
            out.push(Symbol {
                path,
                name,
                kind,
                start_line,
                end_line,
                signature,
                range,
                children,
                spans,
                legacy,
            });
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdlib_file(name: &str) -> Option<String> {
        std::fs::read_to_string(super::super::tests::stdlib()?.join(name)).ok()
    }

    /// Every tree comes back equal, spans and stand-ins included, and
    /// renders the same views: real files of several languages, with
    /// licences, docstrings, data tables and syntax errors.
    #[test]
    fn a_tree_comes_back_whole() {
        let mut cases: Vec<(Lang, String)> = vec![
            (Lang::Rust, include_str!("stored.rs").to_string()),
            (
                Lang::Python,
                "# Copyright 2020 X\n# Licensed under MIT\n\n\"\"\"Doc.\"\"\"\nT = {\n".to_string()
                    + &"  'k': 1,\n".repeat(400)
                    + "}\nclass A:\n    def f(self):\n        return (\n",
            ),
            (
                Lang::C,
                "/* c */\nstatic int f(int a) { return a; }\nstruct s { int x; };\n".to_string(),
            ),
            (Lang::Markdown, "# T\n\ntext\n\n## U\n\nmore\n".to_string()),
        ];
        for name in [
            "email/message.py",
            "json/decoder.py",
            "unicodedata.py",
            "tarfile.py",
        ] {
            if let Some(text) = stdlib_file(name) {
                cases.push((Lang::Python, text));
            }
        }
        for (lang, source) in cases {
            let tree = super::super::parse(lang, &source);
            let bytes = encode(&tree).expect("a parsed tree is kept");
            let back = decode(lang, &bytes).expect("and read back");
            assert_eq!(back, tree, "{lang:?}");
            assert_eq!(
                back.symbols.iter().map(|s| &s.spans).collect::<Vec<_>>(),
                tree.symbols.iter().map(|s| &s.spans).collect::<Vec<_>>()
            );
            assert_eq!(back.large_literals, tree.large_literals);
            assert_eq!(back.licence, tree.licence);
            assert_eq!(
                super::super::skeleton(&back, &source),
                super::super::skeleton(&tree, &source)
            );
        }
    }

    /// Bytes that are not one whole tree read as none: every cut of a real
    /// tree, every byte flipped, a count past the end, nesting past the
    /// bound.
    #[test]
    fn bad_bytes_read_as_no_tree() {
        let source = "class A:\n    def f(self):\n        pass\n\ndef g():\n    '''d'''\n";
        let bytes = encode(&super::super::parse(Lang::Python, source)).expect("kept");
        for cut in 0..bytes.len() {
            assert!(
                decode(Lang::Python, &bytes[..cut]).is_none(),
                "cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(Lang::Python, &longer).is_none());
        for i in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[i] ^= 0xff;
            let _ = decode(Lang::Python, &flipped); // never panics
        }
        // A count of 2^62 symbols allocates nothing.
        let mut huge = vec![0, 0, 0, 0, 0];
        huge.extend([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f]);
        assert!(decode(Lang::Python, &huge).is_none());
        // Nesting past the bound is neither written nor read.
        let mut tree = super::super::parse(Lang::Python, source);
        for _ in 0..=MAX_DEPTH {
            let mut outer = tree.symbols[0].clone();
            outer.children = std::mem::take(&mut tree.symbols);
            tree.symbols = vec![outer];
        }
        assert!(encode(&tree).is_none());
        let nested = |levels: usize| {
            let mut bytes = vec![0, 0, 0, 0, 0];
            for _ in 0..levels {
                bytes.extend([1, 1, b'f', 1, b'f', 8]);
                bytes.extend(b"function");
                bytes.extend([1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
            }
            bytes.push(0);
            bytes
        };
        assert_eq!(
            decode(Lang::Python, &nested(10)).map(|t| t.iter().count()),
            Some(10)
        );
        let deep = nested(MAX_DEPTH + 2);
        assert!(decode(Lang::Python, &deep).is_none());
    }
}
