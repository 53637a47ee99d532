//! `core::discovery`: the import graph, packing and the repo map on fixtures,
//! real layouts and the Python standard library; imports weighed by kind;
//! Ruby's, Lua's and Kotlin's imports; package imports by the names used;
//! the repo map on rich and Brotli.

mod fixtures;
mod kotlin;
mod languages;
mod layouts;
mod packages;
mod packing;
mod repo_map;
mod ruby_lua;
mod stdlib;
mod weights;
