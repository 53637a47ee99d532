//! Our token counts against an independent implementation of OpenAI's
//! tokenizers (`tiktoken-rs`, which ships the o200k_base and cl100k_base
//! BPE files): on real files of the Python standard library and on text
//! that is hard for BPE (unicode, whitespace runs, long numbers).

mod corpus;

use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::tokens;

fn samples() -> Vec<(String, String)> {
    let root = corpus::python_stdlib().expect("python3's standard library");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .expect("stdlib readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    // Every 4th top-level module: about fifty real files of every style.
    let mut out: Vec<(String, String)> = files
        .iter()
        .step_by(4)
        .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(p).ok()?)))
        .collect();
    for (name, text) in [
        (
            "unicode",
            "naïve café — 日本語のテキスト, emoji 🦀🦀 and RTL שלום مرحبا",
        ),
        ("spaces", "a    b\t\t\tc\n\n\n\n   \r\n  d"),
        (
            "numbers",
            "3141592653589793238462643383279502884197 0x7fffffff 1e-10",
        ),
        ("code", "fn main() { println!(\"{:>8.3}\", 1.0f64 / 3.0); }"),
        ("empty", ""),
    ] {
        out.push((name.to_string(), text.to_string()));
    }
    out
}

#[test]
fn o200k_and_cl100k_counts_equal_tiktoken() {
    let o200k = tiktoken_rs::o200k_base().expect("o200k_base");
    let cl100k = tiktoken_rs::cl100k_base().expect("cl100k_base");
    let samples = samples();
    assert!(samples.len() > 40, "enough real files: {}", samples.len());
    let mut total = 0;
    for (name, text) in &samples {
        let want_o = o200k.encode_ordinary(text).len();
        let want_c = cl100k.encode_ordinary(text).len();
        assert_eq!(
            tokens::count(TokenizerKind::O200k, text),
            want_o,
            "o200k: {name}"
        );
        assert_eq!(
            tokens::count(TokenizerKind::Cl100k, text),
            want_c,
            "cl100k: {name}"
        );
        total += want_o;
    }
    assert!(total > 100_000, "counted real text: {total} tokens");
}
