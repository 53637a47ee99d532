//! The on-disk store under `.ctxcurate/cache`: sealed entries kept across
//! runs (token counts, views, summaries), loose or in packs.

pub mod disk;
mod pack;
mod seal;

pub use disk::DiskCache;
