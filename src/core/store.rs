//! The on-disk store under `.ctxcurate/cache`: sealed entries kept across
//! runs (token counts, views, summaries), loose or in packs.
//!
//! `store::disk` ([`DiskCache`]) keeps one file per entry and `store::pack`
//! a command's entries in one file. Every entry is sealed with an
//! HMAC-SHA256 under a per-user key, so an entry planted by a cloned
//! repository is a miss (a pack's index is checked before one record is
//! parsed); anything unsealed is a miss. Every failure of the store is
//! silent and costs only recomputation. Neither half may serve a value for
//! content it was not computed from; keys are built from values, never
//! from `Debug` output.

pub mod disk;
mod pack;
mod seal;

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

pub use disk::DiskCache;

/// What names this build of ctxcurate: its version and its executable's
/// size and time, so that what an older build kept (definitions a scan
/// read otherwise, a table classified otherwise, a tree parsed otherwise)
/// is never used.
pub fn build_id() -> [u8; 32] {
    static ID: OnceLock<[u8; 32]> = OnceLock::new();
    *ID.get_or_init(|| {
        let mut h = Sha256::new();
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        if let Some(meta) = std::env::current_exe()
            .ok()
            .and_then(|exe| std::fs::metadata(exe).ok())
        {
            h.update(meta.len().to_le_bytes());
            let time = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            h.update(time.to_le_bytes());
        }
        h.finalize().into()
    })
}
