//! Token counting: exact BPE counts for OpenAI's `o200k_base` and
//! `cl100k_base` (through `bpe-openai`, which gives the same counts as
//! tiktoken), `estimate` as characters / 4, and a per-text count cache so
//! the budget gauge does not re-count what did not change. Large texts are
//! cut where no pre-token can span the cut and counted on every core: the
//! sum is the exact count (see `cuts`).

pub mod stream;

use crate::core::lru::{Lru, LruStats};
use std::sync::Mutex;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::core::model::TokenizerKind;

/// Count the tokens of `text` with `kind`. Texts over [`PARALLEL_FROM`]
/// bytes are counted in pieces on every core; the count is the same.
pub fn count(kind: TokenizerKind, text: &str) -> usize {
    if text.len() < PARALLEL_FROM || kind == TokenizerKind::Estimate {
        return count_serial(kind, text);
    }
    let pieces = rayon::current_num_threads().max(1) * 4;
    cuts(text, text.len() / pieces)
        .par_iter()
        .map(|piece| count_serial(kind, piece))
        .sum()
}

/// Below this many bytes a text is counted in one piece.
pub const PARALLEL_FROM: usize = 256 * 1024;

fn count_serial(kind: TokenizerKind, text: &str) -> usize {
    let (tokenizer, slot) = match kind {
        TokenizerKind::O200k => (loaded(&O200K, bpe_openai::o200k_base), 0),
        TokenizerKind::Cl100k => (loaded(&CL100K, bpe_openai::cl100k_base), 1),
        TokenizerKind::Estimate => return text.chars().count().div_ceil(4),
    };
    // What `Tokenizer::count` does (neither tokenizer normalizes its
    // input), with each short pre-token's count remembered: code repeats
    // the same few thousand pieces (` self`, `\n    `, ` =`) millions of
    // times, and a lookup is much cheaper than encoding one.
    PIECES.with(|pieces| {
        let mut pieces = pieces.borrow_mut();
        let known = &mut pieces[slot];
        if known.len() > MAX_KNOWN_PIECES {
            known.clear();
        }
        let mut count_piece = |piece: &str| {
            if piece.len() > MAX_PIECE_BYTES {
                return tokenizer.bpe.count(piece.as_bytes());
            }
            if let Some(&n) = known.get(piece) {
                return n as usize;
            }
            let n = tokenizer.bpe.count(piece.as_bytes());
            known.insert(piece.into(), u32::try_from(n).unwrap_or(u32::MAX));
            n
        };
        // o200k's pieces come from the hand-written splitter (the same
        // pieces as its regex, see `pretokens`), cl100k's from its regex.
        match kind {
            TokenizerKind::O200k => crate::core::pretokens::split(text, tokenizer)
                .map(&mut count_piece)
                .sum(),
            _ => tokenizer.split(text).map(&mut count_piece).sum(),
        }
    })
}

/// Start building `kind`'s tokenizer on a thread of its own, for a caller
/// that will count soon but has other work first: building it takes a
/// tenth of a second and tens of MB of tables, and a packed build ranks
/// and fits for longer than that before its first uncached count. A
/// count that comes first waits for the one build.
pub fn warm_up(kind: TokenizerKind) {
    let (slot, load): (&'static std::sync::OnceLock<Tokenizer>, fn() -> Tokenizer) = match kind {
        TokenizerKind::O200k => (&O200K, bpe_openai::o200k_base),
        TokenizerKind::Cl100k => (&CL100K, bpe_openai::cl100k_base),
        TokenizerKind::Estimate => return,
    };
    if slot.get().is_some() {
        return;
    }
    // Without a thread (the system refused one) the first count builds it.
    let _ = std::thread::Builder::new()
        .name("tokenizer".into())
        .spawn(move || {
            loaded(slot, load);
        });
}

type Tokenizer = &'static bpe_openai::Tokenizer;
static O200K: std::sync::OnceLock<Tokenizer> = std::sync::OnceLock::new();
static CL100K: std::sync::OnceLock<Tokenizer> = std::sync::OnceLock::new();

/// The tokenizer `load` builds, built once; the tables it was built from
/// (embedded in the binary, tens of MB) are then given back to the kernel,
/// as nothing reads them again.
fn loaded(slot: &std::sync::OnceLock<Tokenizer>, load: fn() -> Tokenizer) -> Tokenizer {
    slot.get_or_init(|| {
        let tokenizer = load();
        crate::core::memory::release_image();
        tokenizer
    })
}

/// Pre-tokens up to this long have their counts remembered.
const MAX_PIECE_BYTES: usize = 24;

/// A thread forgets the pieces it knows past this many (a few MB).
const MAX_KNOWN_PIECES: usize = 65_536;

thread_local! {
    /// Per thread and tokenizer (o200k, cl100k): pre-token → its count.
    static PIECES: std::cell::RefCell<[rustc_hash::FxHashMap<Box<str>, u32>; 2]> =
        std::cell::RefCell::new(Default::default());
}

/// Whether a text may be cut right after a `\n` that the byte `next`
/// follows: `next` is a visible ASCII character other than `/`. No
/// pre-token of `o200k_base` or `cl100k_base` spans such a point: a word,
/// a number or a contraction never starts with a line break; a run of
/// whitespace that holds the line break ends before a non-space; and a
/// run of punctuation ends with its line breaks (o200k's also takes a `/`
/// after them, hence the exception: `}\n/` in a C header is one
/// pre-token). The pre-tokens of the whole are those of the pieces, so
/// their counts add up exactly (tested on real corpora against counting
/// the whole, in tests/integration/core/tokens.rs). Every heading and
/// fence of a composition starts such a point, and so does most code at
/// its margin (a JSON file's closing brace, a `#` comment), though not a
/// line that starts with `/`, a control or a non-ASCII character.
pub fn cuts_before(next: u8) -> bool {
    next.is_ascii_graphic() && next != b'/'
}

/// `text` cut into consecutive pieces of at least `min_len` bytes (the last
/// may be shorter), each at a point [`cuts_before`] allows.
pub fn cuts(text: &str, min_len: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let step = min_len.max(1);
    let mut pieces = Vec::new();
    let mut from = 0;
    let mut at = step;
    while at < bytes.len() {
        let Some(nl) = bytes[at - 1..].iter().position(|&b| b == b'\n') else {
            break;
        };
        let cut = at + nl;
        if cut < bytes.len() && cuts_before(bytes[cut]) {
            pieces.push(&text[from..cut]);
            from = cut;
            at = cut + step;
        } else {
            at = cut + 1;
        }
    }
    pieces.push(&text[from..]);
    pieces
}

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `bytes` as lowercase hex digits.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// Token counts keyed by (tokenizer, SHA-256 of the counted text). The key
/// is the rendered text itself, so any change of content or view state is
/// a new key and nothing stale is ever served. Safe to share across threads.
#[derive(Debug, Default)]
pub struct TokenCache {
    counts: Mutex<Lru<(TokenizerKind, [u8; 32]), usize>>,
}

/// Bytes one cached count takes (key, value and the maps' bookkeeping).
const COUNT_BYTES: usize = 96;

impl TokenCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The count of `text`, from the cache when it was counted before.
    pub fn count(&self, kind: TokenizerKind, text: &str) -> usize {
        let hash = Sha256::digest(text.as_bytes()).into();
        if let Some(n) = self.get(kind, &hash) {
            return n;
        }
        let n = count(kind, text);
        self.insert(kind, hash, n);
        n
    }

    /// The cached count of the text whose SHA-256 is `hash`.
    pub fn get(&self, kind: TokenizerKind, hash: &[u8; 32]) -> Option<usize> {
        self.lock().get(&(kind, *hash))
    }

    /// Remember the count of the text whose SHA-256 is `hash`.
    pub fn insert(&self, kind: TokenizerKind, hash: [u8; 32], n: usize) {
        self.lock().insert((kind, hash), n, COUNT_BYTES);
    }

    /// Keep at most `bytes` of counts (the least recently used go first).
    pub fn set_capacity(&self, bytes: usize) {
        self.lock().set_capacity(bytes);
    }

    /// What the counts take, their bound and how many were let go.
    pub fn stats(&self) -> LruStats {
        self.lock().stats()
    }

    /// How many counts are cached.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lru<(TokenizerKind, [u8; 32]), usize>> {
        // A poisoned lock only means another thread panicked mid-insert of
        // a plain integer: the map is still consistent.
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_counts() {
        // Reference counts from OpenAI's tiktoken.
        assert_eq!(count(TokenizerKind::O200k, "hello world"), 2);
        assert_eq!(count(TokenizerKind::Cl100k, "hello world"), 2);
        assert_eq!(count(TokenizerKind::Estimate, "abcde"), 2);
        assert_eq!(count(TokenizerKind::Estimate, ""), 0);
    }

    #[test]
    fn cache_hits_and_separates_tokenizers() {
        let cache = TokenCache::new();
        let a = cache.count(TokenizerKind::O200k, "fn main() {}");
        assert_eq!(a, count(TokenizerKind::O200k, "fn main() {}"));
        cache.count(TokenizerKind::O200k, "fn main() {}");
        assert_eq!(cache.len(), 1);
        cache.count(TokenizerKind::Estimate, "fn main() {}");
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn cuts_fall_after_a_line_break_before_a_visible_character() {
        assert_eq!(cuts("ab\ncd\n ef\n\ngh", 1), ["ab\n", "cd\n ef\n\n", "gh"]);
        assert_eq!(
            cuts("{\n  1\n}\n```\n/x\n\u{1c}y", 1),
            ["{\n  1\n", "}\n", "```\n/x\n\u{1c}y"]
        );
        assert_eq!(cuts("ab\ncd\nef\ngh", 5), ["ab\ncd\n", "ef\ngh"]);
        assert_eq!(cuts("no line breaks", 1), ["no line breaks"]);
        assert_eq!(cuts("", 1), [""]);
        assert_eq!(cuts("x\n", 0), ["x\n"]);
        assert_eq!(cuts("日本\nd\n語", 1), ["日本\n", "d\n語"]);
    }

    #[test]
    fn sha_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
