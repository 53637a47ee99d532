//! The core (`src/core`), tested through its public API and, where a
//! front end decides what a user sees, through the real binary.

mod anchor;
mod compose;
mod curation;
mod discovery;
mod fuzz_props;
mod project;
mod secrets;
mod summary;
mod syntax;
mod tokens;
mod trust;
mod walk;
