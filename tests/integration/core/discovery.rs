//! `core::discovery`: the import graph, packing and the repo map on fixtures,
//! real layouts and the Python standard library.

mod fixtures;
mod layouts;
mod packing;
mod stdlib;
