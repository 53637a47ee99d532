//! `core::discovery`: the import graph, packing and the repo map on fixtures,
//! real layouts and the Python standard library; imports weighed by kind.

mod fixtures;
mod languages;
mod layouts;
mod stdlib;
mod weights;
