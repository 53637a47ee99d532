//! `core::discovery`: the import graph, packing and the repo map on fixtures,
//! real layouts and the Python standard library; Ruby's and Lua's imports.

mod fixtures;
mod kotlin;
mod layouts;
mod ruby_lua;
mod stdlib;
