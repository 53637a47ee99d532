//! The compressed streams [`super::unpack`] reads, each as one reader of
//! all its decoded bytes: gzip (every member), bzip2 (every stream, as
//! pbzip2 writes them) and zstd (every frame; a skippable frame's bytes
//! are passed on as they are, so nothing in the stream goes unread). xz
//! is not read: no decoder here bounds its memory.
//!
//! A bzip2 or zstd decoder's error (a cut or corrupt stream, a frame that
//! needs a dictionary, a window past [`MAX_WINDOW`]) is an error of the
//! reader, which the scanner takes for "not fully checked", never for the
//! stream's end; zeros after the last stream (padding to a block) end it
//! cleanly. A gzip stream's error ends it with what was inflated before,
//! as round 19 had it (padding after the stream reads as clean).

use std::io::{self, BufRead, BufReader, Read};

use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

/// The largest zstd window read: a frame asking for more is unchecked,
/// so a hostile header costs no more memory than this (zstd's own level
/// 19 uses 8 MiB; key files and configs compress in far less).
pub(super) const MAX_WINDOW: u64 = 8 << 20;

/// The kinds of compressed stream that can be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Gzip,
    Bzip2,
    Zstd,
}

/// Which readable stream `head` (a stream's first bytes) opens, by magic.
pub(super) fn kind(head: &[u8]) -> Option<Kind> {
    let zstd_skippable =
        head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18];
    if head.starts_with(&[0x1f, 0x8b]) {
        Some(Kind::Gzip)
    } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
        Some(Kind::Bzip2)
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || zstd_skippable {
        Some(Kind::Zstd)
    } else {
        None
    }
}

/// A reader of what the `kind` stream in `source` decodes to.
pub(super) fn open<'a>(kind: Kind, source: impl Read + 'a) -> Box<dyn Read + 'a> {
    match kind {
        Kind::Gzip => Box::new(Members::<flate2::bufread::GzDecoder<_>>::over(
            BufReader::new(source),
        )),
        Kind::Bzip2 => Box::new(Members::<bzip2::bufread::BzDecoder<_>>::over(
            BufReader::new(source),
        )),
        Kind::Zstd => Box::new(ZstdFrames::new(BufReader::new(source))),
    }
}

/// A deflate stream (a zip's member) read as [`open`] reads gzip.
pub(super) fn deflated<'a>(source: impl Read + 'a) -> Box<dyn Read + 'a> {
    Box::new(Lenient(flate2::read::DeflateDecoder::new(source)))
}

/// A reader whose error is its end: a zip's deflated member as the
/// scanner has always read it.
pub(super) struct Lenient<R>(pub(super) R);

impl<R: Read> Read for Lenient<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Ok(self.0.read(buf).unwrap_or(0))
    }
}

/// Every member of a gzip source or stream of a bzip2 one, one after
/// another, as `gzip -d` and `bzip2 -d` read them; `None` only while one
/// is replaced by the next. Zeros padding the last one to a block end it;
/// one cut short or corrupt is an error (round 21: gzip was read by
/// `MultiGzDecoder`, whose errors were taken for the end, so a value the
/// scanner had only the start of passed as clean).
struct Members<D> {
    decoder: Option<D>,
}

/// A decoder of one gzip member or bzip2 stream over a buffered source.
trait Member<R: BufRead>: Read + Sized {
    fn over(source: R) -> Self;
    fn source(&mut self) -> &mut R;
    fn into_source(self) -> R;
}

impl<R: BufRead> Member<R> for flate2::bufread::GzDecoder<R> {
    fn over(source: R) -> Self {
        flate2::bufread::GzDecoder::new(source)
    }
    fn source(&mut self) -> &mut R {
        self.get_mut()
    }
    fn into_source(self) -> R {
        self.into_inner()
    }
}

impl<R: BufRead> Member<R> for bzip2::bufread::BzDecoder<R> {
    fn over(source: R) -> Self {
        bzip2::bufread::BzDecoder::new(source)
    }
    fn source(&mut self) -> &mut R {
        self.get_mut()
    }
    fn into_source(self) -> R {
        self.into_inner()
    }
}

impl<D> Members<D> {
    fn over<R: BufRead>(source: R) -> Self
    where
        D: Member<R>,
    {
        Members {
            decoder: Some(D::over(source)),
        }
    }

    fn next<R: BufRead>(&mut self, buf: &mut [u8]) -> io::Result<usize>
    where
        D: Member<R>,
    {
        loop {
            let Some(decoder) = self.decoder.as_mut() else {
                return Ok(0);
            };
            let n = decoder.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // This one ended: another, padding, or the end.
            if !next_stream(decoder.source())? {
                return Ok(0);
            }
            self.decoder = self.decoder.take().map(|done| D::over(done.into_source()));
        }
    }
}

impl<R: BufRead> Read for Members<flate2::bufread::GzDecoder<R>> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.next(buf)
    }
}

impl<R: BufRead> Read for Members<bzip2::bufread::BzDecoder<R>> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.next(buf)
    }
}

/// Every frame of a zstd source, one after another, as `zstd -d` reads
/// them, within [`MAX_WINDOW`].
struct ZstdFrames<R: BufRead> {
    source: R,
    frame: FrameDecoder,
    state: Zstd,
}

/// Where [`ZstdFrames`] is in its source.
#[derive(Clone, Copy)]
enum Zstd {
    /// Before the first frame: the source must open with one.
    Start,
    /// Inside a frame.
    Frame,
    /// Inside a skippable frame, with this many of its bytes left.
    Skippable(u64),
    /// After a frame.
    Between,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(source: R) -> Self {
        let mut frame = FrameDecoder::new();
        frame.set_max_window_size(MAX_WINDOW);
        ZstdFrames {
            source,
            frame,
            state: Zstd::Start,
        }
    }

    /// Reads the next frame's header: the state it leaves.
    fn next_frame(&mut self) -> io::Result<Zstd> {
        match self.frame.reset(&mut self.source) {
            Ok(()) => Ok(Zstd::Frame),
            Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                length,
                ..
            })) => Ok(Zstd::Skippable(u64::from(length))),
            Err(e) => Err(io::Error::other(e)),
        }
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.state {
                Zstd::Start => self.state = self.next_frame()?,
                Zstd::Between => {
                    if !next_stream(&mut self.source)? {
                        return Ok(0);
                    }
                    self.state = self.next_frame()?;
                }
                Zstd::Skippable(0) => self.state = Zstd::Between,
                Zstd::Skippable(left) => {
                    let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                    let n = self.source.read(&mut buf[..want])?;
                    if n == 0 {
                        return Err(io::ErrorKind::UnexpectedEof.into());
                    }
                    self.state = Zstd::Skippable(left - n as u64);
                    return Ok(n);
                }
                Zstd::Frame => {
                    while self.frame.can_collect() == 0 && !self.frame.is_finished() {
                        self.frame
                            .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                            .map_err(io::Error::other)?;
                    }
                    let n = self.frame.read(buf)?;
                    if n > 0 {
                        return Ok(n);
                    }
                    self.state = Zstd::Between;
                }
            }
        }
    }
}

/// What follows a stream's end in `source`: `false` for nothing or only
/// zeros (padding to a block, which the stream's end leaves), `true` for
/// more bytes, which must be the next stream; bytes after zeros are an
/// error.
fn next_stream(source: &mut impl BufRead) -> io::Result<bool> {
    if source.fill_buf()?.first().is_some_and(|&b| b != 0) {
        return Ok(true);
    }
    loop {
        let zeros = source.fill_buf()?;
        if zeros.is_empty() {
            return Ok(false);
        }
        if zeros.iter().any(|&b| b != 0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "data after the padding",
            ));
        }
        let n = zeros.len();
        source.consume(n);
    }
}
