//! Unit tests of the syntax module: golden outputs on small fixtures per
//! language (symbols, skeleton, outline, masked) and robustness on garbage.
