//! The C/C++ pre-pass (conditionals, macros, large initializers): the
//! first byte picks C or C++ and a few user macros, the rest is the file.
//! Never a panic; the output keeps every byte offset and line break; one
//! input in four is also parsed for its symbols.
#![no_main]

use ctxcurate::core::syntax::{self, CMacros, Lang};
use libfuzzer_sys::fuzz_target;

const USER: &[&str] = &[
    "API",
    "EXPORT=__attribute__((visibility(\"default\")))",
    "BEGIN_NS(x)=namespace x {",
    "END_NS=}",
];

fuzz_target!(
    // As the binary does: tree-sitter's memory counted, so a parse stops
    // at its memory bound here too (`lang::Budget`).
    // SAFETY: libFuzzer runs this once, before any input is parsed.
    init: unsafe { ctxcurate::core::syntax::allocator::install() },
    |data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let lang = if pick & 1 == 0 { Lang::C } else { Lang::Cpp };
    let user: Vec<String> = USER
        .iter()
        .enumerate()
        .filter(|(i, _)| pick >> (i + 1) & 1 == 1)
        .map(|(_, s)| s.to_string())
        .collect();
    let text = String::from_utf8_lossy(rest);
    let macros = CMacros::new(&user);
    let out = syntax::preprocessed(lang, &text, &macros);
    assert_eq!(out.len(), text.len(), "offsets moved");
    for (a, b) in text.bytes().zip(out.bytes()) {
        assert_eq!(a == b'\n', b == b'\n', "a line break moved");
    }
    // The symbols' parse runs the pre-pass again and parses once more
    // (two thirds of a run; the views target parses C and C++ too): one
    // input in four asks for it.
    if pick & 0x60 == 0 {
        syntax::parse_with(lang, &text, &macros);
    }
});
