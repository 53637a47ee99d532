//! Decoded bytes read for secrets: text as it is, a gzip, bzip2 or zstd
//! stream ([`super::streams`]) decoded and read in windows, a zip by its
//! members, a Java keystore by its entries, and (round seventeen) a tar
//! by its members ([`super::tar`]); an archive or compressed stream
//! inside another (a zip in a tar in a gzip, a `.gz` member of a zip) is
//! opened in turn, [`MAX_DEPTH`] levels at most, all of them within one
//! [`MAX_INFLATED`]. A reader's error (a bzip2 or zstd stream cut short
//! or corrupt) makes what it read unchecked, never a clean end.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{RuleSet, Verdict, binary, bks, keystore, streams, tar, zip};

impl RuleSet {
    /// Whether decoded `bytes` hold a secret: text the rules find one in
    /// (one level deep). A gzip, bzip2 or zstd stream is decoded (every
    /// member, stream or frame of it, as `gzip -d`, `bzip2 -d` and `zstd -d`
    /// do: a second one is no hiding place) and read in windows of
    /// [`WINDOW`] bytes, each overlapping the one before by [`OVERLAP`],
    /// so no more than a window is held however far it inflates; a stream
    /// still going past [`MAX_INFLATED`] (a bomb, or more than a key file
    /// and its kin ever are) is [`Verdict::Unchecked`], never passed
    /// unread. A zip is read by its members, a tar by its members, each
    /// member opened again when it is an archive or a gzip stream (down to
    /// [`MAX_DEPTH`]); other bytes that are not UTF-8 text (a binary file
    /// before a key file) are read by their text runs. What cannot be
    /// read (xz, a stream that errs, an archive deeper than the bound)
    /// makes the whole unchecked unless a secret is found anyway; bytes
    /// that are an xz stream themselves are unchecked.
    /// A text's values share one budget ([`MAX_TEXT_INFLATED`], counted
    /// from the top-level scan's [`text_budget`]): past it, every stream
    /// or archive left is unchecked, so a file of many bombs (a few bytes
    /// of bzip2 each) costs what one text may decode.
    pub(super) fn decoded(&self, bytes: &[u8]) -> Verdict {
        let used = TEXT_INFLATED.get();
        let mut inflated = 0;
        let verdict = if spent(used) && packed(bytes) {
            Verdict::Unchecked
        } else {
            self.decoded_within(bytes, &mut inflated)
        };
        count(used, inflated);
        verdict
    }

    /// Whether `bytes`, a zlib stream, hold a secret once inflated
    /// (within the text's budget, as [`RuleSet::decoded`] reads): only a
    /// secret found counts, since a zlib header (`78 9C`) is two bytes
    /// other data opens with too; a stream that errs or goes on past the
    /// bound is read as far as it goes. Past the budget it is not read,
    /// and unchecked.
    pub(super) fn zlib_decoded(&self, bytes: &[u8]) -> Verdict {
        let used = TEXT_INFLATED.get();
        if spent(used) {
            // Not read: never remembered as clean.
            return Verdict::Unchecked;
        }
        let mut inflated = 0;
        let mut stream = flate2::read::ZlibDecoder::new(bytes);
        let verdict = self.windows(&mut stream, &mut inflated, 0);
        count(used, inflated);
        match verdict {
            Verdict::Secret => Verdict::Secret,
            _ => Verdict::Clean,
        }
    }

    /// Whether `bytes`, which may be a raw deflate stream (no header: PHP's
    /// `gzdeflate`, .NET's `DeflateStream`, Java's `Deflater(…, true)`),
    /// hold a secret once inflated (round 22). Nothing marks such a
    /// stream, so it is tried only on binary that a first block header can
    /// open ([`may_deflate`]), only what inflates to text (its first
    /// [`TEXT_GATE`] bytes, [`binary::mostly_text`]) is read on, within
    /// the text's budget and [`MAX_RAW_INFLATED`]: text past them is
    /// unchecked, other data (noise, or a stream that errs within a few
    /// bytes) is no secret.
    pub(super) fn raw_deflated(&self, bytes: &[u8]) -> Verdict {
        use std::io::Read;
        let used = TEXT_INFLATED.get();
        let raw = RAW_INFLATED.get();
        if !may_deflate(bytes) {
            return Verdict::Clean;
        }
        let mut stream = flate2::read::DeflateDecoder::new(bytes);
        let mut head = Vec::with_capacity(TEXT_GATE);
        let _ = (&mut stream).take(TEXT_GATE as u64).read_to_end(&mut head);
        if head.len() < MIN_INFLATED_TEXT || !binary::mostly_text(&head) {
            return Verdict::Clean;
        }
        // Text past the allowance is not read, and so not passed as clean
        // (recheck 22b: one decoy value before it hid a secret).
        if spent(used) || raw >= MAX_RAW_INFLATED {
            return Verdict::Unchecked;
        }
        let mut inflated = 0;
        let whole = head.as_slice().chain(streams::Lenient(stream));
        let room = MAX_RAW_INFLATED - raw;
        let mut within = whole.take(room + 1);
        let verdict = self.windows(&mut within, &mut inflated, MAX_DEPTH);
        RAW_INFLATED.set(raw + inflated);
        count(used, inflated);
        match verdict {
            Verdict::Secret => Verdict::Secret,
            _ if inflated > room => Verdict::Unchecked,
            _ => Verdict::Clean,
        }
    }

    /// [`RuleSet::decoded`] of one value, `inflated` counting what its
    /// streams and archives decode.
    fn decoded_within(&self, bytes: &[u8], inflated: &mut u64) -> Verdict {
        if zip::is_zip(bytes) {
            return self.zipped(bytes, inflated, 0);
        }
        if let Some(found) = any_keystore(bytes) {
            return keystore_verdict(found);
        }
        if let Some(kind) = streams::kind(bytes) {
            return self.windows(&mut *streams::open(kind, bytes), inflated, 0);
        }
        if tar::is_header(bytes) {
            return self.tarred(&mut { bytes }, inflated, 0);
        }
        if binary::is_packed(bytes) {
            // xz (or a bzip2 of no block size): no decoder here, so never
            // passed unread.
            return Verdict::Unchecked;
        }
        if self.scan_at(&as_text(bytes), true, None).is_empty() {
            Verdict::Clean
        } else {
            Verdict::Secret
        }
    }

    /// Whether the zip `bytes` hold a secret: each stored or deflated
    /// member read as [`RuleSet::windows`] reads a gzip stream, all of
    /// them within one [`MAX_INFLATED`] (`inflated` counts, with what was
    /// read before), at nesting `depth`; a member that cannot be read
    /// (encrypted, another method), more than [`zip::MAX_MEMBERS`] (the
    /// first ones are read), or an archive cut short make it
    /// [`Verdict::Unchecked`] unless a secret is found anyway.
    fn zipped(&self, bytes: &[u8], inflated: &mut u64, depth: usize) -> Verdict {
        let Some((members, more)) = zip::members(bytes) else {
            return Verdict::Unchecked;
        };
        let mut unread = more;
        for member in members {
            let verdict = match member {
                zip::Member::Stored(range) => {
                    let data = &bytes[range];
                    match any_keystore(data) {
                        Some(found) => keystore_verdict(found),
                        None => self.windows(&mut { data }, inflated, depth + 1),
                    }
                }
                zip::Member::Deflated(range) => {
                    let mut data = streams::deflated(&bytes[range]);
                    self.windows(&mut *data, inflated, depth + 1)
                }
                zip::Member::Unreadable => Verdict::Unchecked,
            };
            match verdict {
                Verdict::Secret => return Verdict::Secret,
                Verdict::Unchecked => unread = true,
                Verdict::Clean => {}
            }
            if *inflated > MAX_INFLATED {
                return Verdict::Unchecked;
            }
        }
        if unread {
            Verdict::Unchecked
        } else {
            Verdict::Clean
        }
    }

    /// Whether the tar read from `reader` holds a secret: each member read
    /// as [`RuleSet::windows`] reads a stream (so one packed again is
    /// opened in turn), within [`MAX_INFLATED`] with what was read before
    /// (each member costs a 512-byte header at least, so their number is
    /// bounded too); a header that cannot be read makes it
    /// [`Verdict::Unchecked`] unless a secret is found anyway.
    fn tarred(&self, reader: &mut dyn std::io::Read, inflated: &mut u64, depth: usize) -> Verdict {
        use std::io::Read;
        let mut reader = reader.take(MAX_INFLATED.saturating_sub(*inflated) + 1);
        let mut unread = false;
        loop {
            let mut block = [0u8; tar::BLOCK];
            let mut got = 0;
            while got < block.len() {
                match reader.read(&mut block[got..]) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    // A stream that errs under the archive.
                    Err(_) => return Verdict::Unchecked,
                }
            }
            *inflated += got as u64;
            if got < block.len() && reader.limit() == 0 {
                // Cut by the bound, not by the archive's end.
                return Verdict::Unchecked;
            }
            if got < block.len() || block.iter().all(|&b| b == 0) {
                // The archive's end (two zero blocks), or cut short.
                break;
            }
            let Some(size) = tar::member_size(&block) else {
                return Verdict::Unchecked;
            };
            let mut data = (&mut reader).take(size);
            let verdict = self.windows(&mut data, inflated, depth + 1);
            if verdict == Verdict::Secret {
                return Verdict::Secret;
            }
            unread |= verdict == Verdict::Unchecked;
            // What the member's reading left, and the padding to a block.
            let pad = (tar::BLOCK as u64 - size % tar::BLOCK as u64) % tar::BLOCK as u64;
            let skipped = std::io::copy(&mut data, &mut std::io::sink()).and_then(|rest| {
                let pad = std::io::copy(&mut (&mut reader).take(pad), &mut std::io::sink())?;
                Ok(rest + pad)
            });
            let Ok(skipped) = skipped else {
                return Verdict::Unchecked;
            };
            *inflated += skipped;
            if *inflated > MAX_INFLATED {
                return Verdict::Unchecked;
            }
        }
        if unread {
            Verdict::Unchecked
        } else {
            Verdict::Clean
        }
    }

    /// Whether the bytes `reader` gives (an inflating stream, an archive's
    /// member, at nesting `depth`) hold a secret, read in windows of
    /// [`WINDOW`] bytes, each overlapping the one before by [`OVERLAP`],
    /// so no more than a window is held however far it inflates.
    /// `inflated` counts the bytes read, with those of streams read before
    /// (an archive's members); past [`MAX_INFLATED`] the stream is
    /// [`Verdict::Unchecked`], never passed unread, and so is one whose
    /// reader errs (after what it read is judged). A stream that opens as
    /// a zip, a gzip, bzip2 or zstd stream or a tar is opened in turn
    /// (above [`MAX_DEPTH`], or xz: unchecked unless a secret is found
    /// anyway); a Java keystore is judged by its entries.
    fn windows(&self, reader: &mut dyn std::io::Read, inflated: &mut u64, depth: usize) -> Verdict {
        use std::io::Read;
        let mut gz = reader.take(MAX_INFLATED.saturating_sub(*inflated) + 1);
        let mut window: Vec<u8> = Vec::with_capacity(WINDOW);
        let mut chunk = vec![0u8; 16 << 10];
        // Where the window starts in the inflated stream.
        let mut offset = 0u64;
        let mut unread = false;
        loop {
            let kept = window.len();
            // Fills the window; an error (a cut or corrupt stream) ends it
            // with what was decoded before, which is judged, but not as
            // the whole.
            let mut ended = false;
            while window.len() < WINDOW {
                let want = chunk.len().min(WINDOW - window.len());
                match gz.read(&mut chunk[..want]) {
                    Ok(0) => {
                        ended = true;
                        break;
                    }
                    Ok(n) => window.extend_from_slice(&chunk[..n]),
                    Err(_) => {
                        (ended, unread) = (true, true);
                        break;
                    }
                }
            }
            *inflated += (window.len() - kept) as u64;
            if *inflated > MAX_INFLATED {
                return Verdict::Unchecked;
            }
            if offset == 0 {
                if let Some(found) = any_keystore(&window) {
                    return keystore_verdict(found);
                }
                if depth < MAX_DEPTH {
                    let mut stream = window.as_slice().chain(&mut gz);
                    if zip::is_zip(&window) {
                        // A zip is read from its end: held whole.
                        let mut all = Vec::new();
                        let read = stream.read_to_end(&mut all);
                        *inflated += (all.len() - window.len()) as u64;
                        if read.is_err() || *inflated > MAX_INFLATED {
                            return Verdict::Unchecked;
                        }
                        return self.zipped(&all, inflated, depth + 1);
                    }
                    if let Some(kind) = streams::kind(&window) {
                        let mut inner = streams::open(kind, stream);
                        return self.windows(&mut *inner, inflated, depth + 1);
                    }
                    if tar::is_header(&window) {
                        return self.tarred(&mut stream, inflated, depth);
                    }
                }
                unread |= binary::is_packed(&window);
            }
            if !self.scan_at(&as_text(&window), true, None).is_empty() {
                return Verdict::Secret;
            }
            unread |= binary::packed_member(&window, offset);
            if ended {
                return if unread {
                    Verdict::Unchecked
                } else {
                    Verdict::Clean
                };
            }
            // The next window starts with the end of this one, from a
            // line's start when one is near: a secret on the boundary is
            // read whole in one of the two. A character cut at the end is
            // read whole in the next.
            let from = window.len().saturating_sub(OVERLAP);
            let from = window[from..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(from, |i| from + i + 1);
            window.drain(..from);
            offset += from as u64;
        }
    }
}

/// What the keystore `bytes` opens with holds: a Java one (JKS, JCEKS)
/// by its magic, else a Bouncy Castle one (BKS, UBER) by its header;
/// `None` when it is neither.
fn any_keystore(bytes: &[u8]) -> Option<keystore::Keystore> {
    keystore::read(bytes).or_else(|| bks::read(bytes))
}

/// The verdict on a Java keystore: a private or secret key entry is a
/// secret, trusted certificates alone are not, one not read whole is
/// unchecked.
fn keystore_verdict(found: keystore::Keystore) -> Verdict {
    match found {
        keystore::Keystore::Key => Verdict::Secret,
        keystore::Keystore::Certificates => Verdict::Clean,
        keystore::Keystore::Unreadable => Verdict::Unchecked,
    }
}

/// `bytes` as text: itself when it is UTF-8 without control characters,
/// else its text runs (round 21: a NUL or an escape before a
/// `DB_PASSWORD=` line no longer glues it to what came before, so the
/// line is read as it stands in the file it came from).
pub(super) fn as_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) if !binary::has_controls(text) => text.into(),
        _ => binary::text_runs(bytes).into(),
    }
}

/// How much of a raw deflate stream's output is looked at before it is
/// read on: text there, or the stream is taken for other data.
const TEXT_GATE: usize = 1 << 10;

/// The least a raw deflate stream must inflate to for a secret to be
/// looked for in it (`pwd=Xk9mQ2vL`).
const MIN_INFLATED_TEXT: usize = 12;

/// Whether `bytes` can open a raw deflate stream: a block of a known type
/// (not the reserved `11`), and a stored block's length and its
/// complement agreeing.
fn may_deflate(bytes: &[u8]) -> bool {
    let Some(&first) = bytes.first() else {
        return false;
    };
    match (first >> 1) & 3 {
        0 => bytes.len() >= 5 && bytes[1] == !bytes[3] && bytes[2] == !bytes[4],
        3 => false,
        _ => true,
    }
}

thread_local! {
    /// What the values of the text being scanned decoded so far (reset by
    /// [`text_budget`]; a scan runs on one thread).
    static TEXT_INFLATED: Cell<u64> = const { Cell::new(0) };
    /// What raw deflate tried on the text's binary values inflated so far
    /// (reset with it): within [`MAX_RAW_INFLATED`].
    static RAW_INFLATED: Cell<u64> = const { Cell::new(0) };
}

/// How much the raw deflate tried on one text's binary values may
/// inflate in all: it is a guess (no magic marks such a stream), tried on
/// every binary value, so a text of many small values inflating to prose
/// cost a scan of twenty times its size (5.7 s for a megabyte in a debug
/// build); a key file or a `.env` is far smaller.
const MAX_RAW_INFLATED: u64 = 2 << 20;

/// How much all the streams and archives of one text decode before the
/// rest are unchecked: two values read to their bound.
const MAX_TEXT_INFLATED: u64 = 2 * MAX_INFLATED;

/// How much all the texts of one job ([`DecodeBudget`]: a composition's
/// files) decode before the rest are unchecked: what one text may (round
/// 21: the budget was per text only, so N small files of bombs cost N
/// times a text's; eight files of four 68-byte bzip2 bombs took 33 s to
/// build in a debug build, 11 s now, bounded whatever their number).
const MAX_JOB_INFLATED: u64 = MAX_TEXT_INFLATED;

/// What the texts of one job may decode in all, shared by the threads
/// that scan them ([`DecodeBudget::run`]).
#[derive(Debug, Default)]
pub struct DecodeBudget(AtomicU64);

impl DecodeBudget {
    /// A new job's budget, none of it spent.
    pub fn new() -> Arc<Self> {
        Arc::new(DecodeBudget::default())
    }

    /// `scan` run on this thread within this budget: what the texts it
    /// scans decode counts here too, and once it is spent their values
    /// are unchecked. The thread's budget before comes back after, even
    /// when `scan` panics.
    pub fn run<T>(self: &Arc<Self>, scan: impl FnOnce() -> T) -> T {
        struct Restore(Option<Arc<DecodeBudget>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                JOB.set(self.0.take());
            }
        }
        let _restore = Restore(JOB.replace(Some(Arc::clone(self))));
        scan()
    }

    fn used(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

thread_local! {
    /// The job the texts scanned on this thread belong to, if any.
    static JOB: std::cell::RefCell<Option<Arc<DecodeBudget>>> = const { std::cell::RefCell::new(None) };
}

/// Whether a value may not be decoded: its text spent `used` of its own
/// budget, or its job spent its own.
fn spent(used: u64) -> bool {
    used >= MAX_TEXT_INFLATED
        || JOB.with_borrow(|job| job.as_ref().is_some_and(|j| j.used() >= MAX_JOB_INFLATED))
}

/// Counts `inflated` more decoded bytes to the text (which had `used`)
/// and to its job.
fn count(used: u64, inflated: u64) {
    TEXT_INFLATED.set(used.saturating_add(inflated));
    JOB.with_borrow(|job| {
        if let Some(job) = job {
            job.0.fetch_add(inflated, Ordering::Relaxed);
        }
    });
}

/// A text's own decode budget, from now until the guard drops (when the
/// budget of the scan around it, if any, comes back).
pub(super) fn text_budget() -> TextBudget {
    TextBudget(TEXT_INFLATED.replace(0), RAW_INFLATED.replace(0))
}

/// The guard [`text_budget`] gives: the outer scan's counts.
pub(super) struct TextBudget(u64, u64);

impl Drop for TextBudget {
    fn drop(&mut self) {
        TEXT_INFLATED.set(self.0);
        RAW_INFLATED.set(self.1);
    }
}

/// Whether `bytes` open as something [`RuleSet::decoded`] decodes (an
/// archive, a compressed stream): what the text's budget bounds.
pub(super) fn packed(bytes: &[u8]) -> bool {
    zip::is_zip(bytes) || streams::kind(bytes).is_some() || tar::is_header(bytes)
}

/// How much of a gzip stream [`RuleSet::decoded`] inflates in all: far
/// past any credential file, so a stream that goes on inflating (a bomb)
/// costs a bounded time and is reported as not checked.
const MAX_INFLATED: u64 = 16 << 20;

/// How much inflated text is held and scanned at once: the memory bound
/// of reading a gzip stream.
const WINDOW: usize = 256 << 10;

/// How much of a window the next one reads again: longer than any one
/// secret (a 4096-bit RSA key in PEM is about 3.3 kB).
const OVERLAP: usize = 16 << 10;

/// How many archives or compressed streams inside one another are opened
/// (a zip in a tar in a gzip stream is three): deeper ones are unchecked,
/// so a hostile nesting costs a bounded stack.
const MAX_DEPTH: usize = 4;
