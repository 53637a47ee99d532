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

pub use disk::DiskCache;
