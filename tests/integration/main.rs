//! Every integration test, in one binary (`cargo test --test integration`):
//! the library is linked once, where a file per test linked it 66 times.
//! The modules mirror `src`: `cli`, `core::<module>` and `tui`, plus
//! `architecture` (the layering, read from the source). `common` holds the
//! shared helpers; its `machine` module is the one switch
//! (`CTXCURATE_SLOW_TESTS=1`, set by `.ci/run`) behind which the tests
//! that need this machine's corpora and tools run.
//!
//! All tests share this process and run on parallel threads: a test never
//! changes the process's environment or working folder. The real binary
//! gets its environment on its `Command`; a test of an in-process API that
//! reads the environment runs in a child process (`common::isolated`).

mod architecture;
mod cli;
mod common;
mod core;
mod tidy;
mod tui;
