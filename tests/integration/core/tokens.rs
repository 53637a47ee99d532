//! Our token counts against an independent implementation of OpenAI's
//! tokenizers (`tiktoken-rs`, which ships the o200k_base and cl100k_base
//! BPE files): on real files of the Python standard library and on text
//! that is hard for BPE (unicode, whitespace runs, long numbers).

use crate::common::{corpus, machine};

use std::path::Path;

use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::tokens;

fn samples(stdlib: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(stdlib)
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
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let o200k = tiktoken_rs::o200k_base().expect("o200k_base");
    let cl100k = tiktoken_rs::cl100k_base().expect("cl100k_base");
    let samples = samples(&stdlib);
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

/// Real C and C++ headers: every 8th `.h` of /usr/include and a few of
/// libstdc++'s headers (in `cpp`).
fn c_and_cpp_samples(include: &Path, cpp: &Path) -> Vec<(String, String)> {
    let mut files = corpus::files_in(include, "h");
    files.retain(|p| p.parent() == Some(include));
    let mut out: Vec<(String, String)> = files
        .iter()
        .step_by(8)
        .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(p).ok()?)))
        .collect();
    for name in ["vector", "string", "algorithm", "bits/stl_tree.h"] {
        if let Ok(text) = std::fs::read_to_string(cpp.join(name)) {
            out.push((name.to_string(), text));
        }
    }
    out
}

/// Large texts are counted in pieces on every core (`tokens::cuts`). Cut at
/// every point it allows, the pieces' counts add up to the count of the
/// whole: on real Python, C and C++ files, on text built to straddle a cut
/// (whitespace, punctuation, contractions and non-ASCII before a line
/// break), and on a concatenation past the parallel threshold checked
/// against tiktoken.
#[test]
fn counts_of_pieces_add_up_to_the_count_of_the_whole() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let Some(include) = machine::usr_include() else {
        return;
    };
    let Some(cpp) = machine::cpp_include() else {
        return;
    };
    let mut texts = samples(&stdlib);
    texts.extend(c_and_cpp_samples(include, &cpp));
    assert!(texts.len() > 60, "enough real files: {}", texts.len());
    let tricky = [
        "a \n b",
        "x  \r\nY",
        "it'\ns",
        "]\n\nd",
        "  \n\tq",
        "é\nd",
        "1\nd",
        " \nd",
        "x\n\n  \nd",
        "/\nd",
        "//\nd",
        "x;\r\n\r\nd",
        "\u{3000}\nd",
        "\u{a0}\nd",
        "'s\nS",
        "a\n'd",
        "\nd",
        "}\n}",
        "}\n/x",
        "x\n//y",
        ";\n#d",
        "a\n{",
        "\"x\":\n\"y\"",
        "a\n1",
        "a\n(",
        ".\n.",
        "!\n!\n",
        "\n~",
        "'\n's",
        "x\n\u{1c}y",
        "x \n\t\n}",
        "é\n}",
        "\u{3000}\n)",
    ];
    for t in tricky {
        texts.push((format!("{t:?}"), t.to_string()));
        texts.push((format!("{t:?} x3"), t.repeat(3)));
    }
    // Pretty-printed JSON: most of its lines start with spaces or quotes.
    let json: Vec<serde_json::Value> = texts
        .iter()
        .take(40)
        .map(|(name, text)| serde_json::json!({"name": name, "lines": text.lines().take(30).collect::<Vec<_>>(), "n": [1, 2.5, null]}))
        .collect();
    let pretty = serde_json::to_string_pretty(&json).expect("json");
    texts.push(("pretty JSON".into(), pretty));
    for (name, text) in &texts {
        let pieces = tokens::cuts(text, 1);
        assert_eq!(pieces.concat(), *text, "{name}: the pieces are the text");
        for kind in [TokenizerKind::O200k, TokenizerKind::Cl100k] {
            let sum: usize = pieces.iter().map(|p| tokens::count(kind, p)).sum();
            assert_eq!(sum, tokens::count(kind, text), "{kind:?}: {name}");
        }
    }
    let big: String = texts.iter().map(|(_, t)| t.as_str()).collect();
    assert!(big.len() > 4 * tokens::PARALLEL_FROM, "{} bytes", big.len());
    let o200k = tiktoken_rs::o200k_base().expect("o200k_base");
    assert_eq!(
        tokens::count(TokenizerKind::O200k, &big),
        o200k.encode_ordinary(&big).len()
    );
}

/// The hand-written o200k pre-tokenizer (`core::pretokens`) gives the
/// regex's pieces, one by one, on the whole Python standard library's
/// top-level modules, on C and C++ headers, and on text outside ASCII.
#[test]
fn o200k_pieces_equal_the_regex_on_real_files() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let Some(include) = machine::usr_include() else {
        return;
    };
    let Some(cpp) = machine::cpp_include() else {
        return;
    };
    let regex = bpe_openai::o200k_base();
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [stdlib.as_path(), include, &cpp.join("bits")] {
        let mut found: Vec<_> = std::fs::read_dir(dir)
            .expect("readable")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        found.sort();
        files.extend(found);
    }
    let mut checked = 0;
    let mut samples: Vec<(String, String)> = files
        .iter()
        .filter_map(|p| {
            let bytes = std::fs::read(p).ok()?;
            Some((
                p.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ))
        })
        .collect();
    samples.extend(samples_outside_ascii());
    for (name, text) in &samples {
        let mut by_regex = regex.split(text);
        for (i, piece) in ctxcurate::core::pretokens::split(text, regex).enumerate() {
            assert_eq!(Some(piece), by_regex.next(), "{name}: piece {i}");
        }
        assert_eq!(by_regex.next(), None, "{name}: the regex has more pieces");
        checked += text.len();
    }
    assert!(checked > 5_000_000, "{checked} bytes");
}

fn samples_outside_ascii() -> Vec<(String, String)> {
    [
        "naïve café — 日本語のテキスト, emoji 🦀🦀 and RTL שלום مرحبا",
        "x\u{a0}= 1  # no-break space\u{2028}line separator\u{85}next line",
        "it'ſ Straße ǅemal e\u{301}t\u{301}e\u{301} ²³ ٣٤٥ x²",
        "  \u{3000}ideographic space\t\u{200b}zero width",
    ]
    .iter()
    .enumerate()
    .map(|(i, t)| (format!("outside ascii {i}"), t.to_string()))
    .collect()
}
