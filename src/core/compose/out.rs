//! Where the renderers write: an [`Out`] counts the bytes that went
//! through it (a body's place in the output) and hands each piece to a
//! [`Sink`], telling it which pieces are a file's body verbatim. A
//! `String` is the in-memory sink; the engine's streamed build
//! (`core::engine::stream`) writes to a file as it goes and scans only the
//! text around the bodies, whose own scan came before.

use std::fmt;

/// What receives the output, piece by piece, in order.
pub trait Sink {
    /// Text of the output's own making: headings, fences, tags, notes,
    /// and a body that is not there verbatim (escaped XML).
    fn text(&mut self, s: &str);
    /// A file's body, verbatim (the secret scan saw it whole).
    fn body(&mut self, s: &str) {
        self.text(s);
    }
}

impl Sink for String {
    fn text(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// The renderers' writer over a [`Sink`].
pub struct Out<'s> {
    sink: &'s mut dyn Sink,
    len: usize,
}

impl<'s> Out<'s> {
    pub fn new(sink: &'s mut dyn Sink) -> Self {
        Out { sink, len: 0 }
    }

    /// A writer going on where another over the same sink stopped, after
    /// `len` bytes.
    pub fn resume(sink: &'s mut dyn Sink, len: usize) -> Self {
        Out { sink, len }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push_str(&mut self, s: &str) {
        self.len += s.len();
        self.sink.text(s);
    }

    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// A file's body, verbatim; where it starts.
    pub fn body(&mut self, s: &str) -> usize {
        let at = self.len;
        self.len += s.len();
        self.sink.body(s);
        at
    }
}

impl fmt::Write for Out<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}
