//! `core::compose`: golden outputs on real code, and output no file can forge.

mod golden_real;
mod output_forgery;
