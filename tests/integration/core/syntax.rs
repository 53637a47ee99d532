//! `core::syntax`: symbols, skeletons and masks on real code against
//! independent oracles (Python's `ast`, gcc, universal-ctags, a Swift
//! declaration scan), and C macros.

mod corpus;
mod costs;
mod ctags_compare;
mod macros;
mod skeleton_pip;
mod swift_scan;
