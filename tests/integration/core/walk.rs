//! `core::walk`: built-in ignores, ignore files as bounded repository input,
//! credential names, and a folder swapped for a link while it is read.

mod builtin;
mod ignore_file;
mod read_race;
mod sensitive;
