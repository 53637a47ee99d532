//! `core::discovery`: the import graph, packing and the repo map on fixtures,
//! real layouts and the Python standard library.

mod fixtures;
mod languages;
mod layouts;
mod stdlib;
