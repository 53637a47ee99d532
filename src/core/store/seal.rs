//! What keeps a stored entry safe, loose or in a pack: the user's seal key
//! and its HMAC, the bound on an entry's size, the hex names entries go
//! by, and the open that takes only a regular file reached without a link.

use std::fs;
use std::path::Path;

use hmac::{Hmac, KeyInit};
use sha2::Sha256;

use crate::core::paths::beneath::{Links, open_beneath};

/// The largest entry read back; a bigger file is a miss (entries hold
/// counts, summaries and views of files that are themselves capped).
pub const MAX_ENTRY: u64 = 64 << 20;

/// The secret that seals a user's cache entries.
pub type SealKey = [u8; 32];

/// Whether `name` is `len` lowercase hex digits (a shard, an entry, a pack).
pub(super) fn is_lower_hex(name: &str, len: usize) -> bool {
    name.len() == len && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The file at `path` (under `root`) if it is a regular file reached
/// without a link on any component below `root` (and never waiting on a
/// FIFO): how entries and packs are opened, through the one race-free
/// open of project files ([`open_beneath`]).
pub(super) fn open_regular(root: &Path, path: &Path) -> Option<fs::File> {
    let rel = path.strip_prefix(root).ok()?;
    let file = open_beneath(root, rel, Links::Never).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}

/// The HMAC-SHA256 that seals entries under `key`.
pub(super) fn mac(key: &SealKey) -> Hmac<Sha256> {
    // HMAC takes keys of any length: 32 bytes cannot fail.
    <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!())
}
