//! The `ctxcurate` binary: command-line entry point.

fn main() {}
