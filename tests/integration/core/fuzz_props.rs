//! Property-based fuzzing (proptest; `cargo fuzz` needs a nightly
//! toolchain this project does not assume) of the code that takes input
//! from files nobody vetted: the project-file parser, symbol extraction for
//! Python, C and C++ (and the C/C++ pre-pass: macros, conditionals,
//! large initializers), every view renderer (with Python data tables to
//! collapse), the slice resolver and the secret scanner. Inputs mix random text with fragments of each grammar
//! and of TOML, so the parsers get past their first token.
//!
//! Each property runs `CTXCURATE_FUZZ_CASES` cases (default 48, so the
//! suite stays quick); a long run is e.g.
//! `CTXCURATE_FUZZ_CASES=20000 cargo test --release --test integration
//! fuzz_props`.
//! Inputs that fail are to be kept as plain tests at the bottom (the runs
//! so far found none; the two there are hand-picked seeds).

use std::collections::BTreeMap;
use std::path::Path;

use ctxcurate::core::anchor::{self, Resolution};
use ctxcurate::core::model::{FileItem, MaskState, Slice, ViewMode};
use ctxcurate::core::project::{parse_text, to_toml};
use ctxcurate::core::syntax::{self, CMacros, Lang, Symbol};
use ctxcurate::core::{secrets, views};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("CTXCURATE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

/// Text built from grammar fragments, odd characters and random runs.
fn codeish(fragments: &'static [&'static str]) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => proptest::sample::select(fragments).prop_map(str::to_string),
        2 => proptest::sample::select(ODD).prop_map(str::to_string),
        1 => "[a-zA-Z_][a-zA-Z0-9_]{0,8}",
        1 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ];
    proptest::collection::vec(piece, 0..120).prop_map(|v| v.concat())
}

const ODD: &[&str] = &[
    "\n", "\r\n", "\r", "\t", "    ", " ", "\0", "\x1b[2J", "\u{202e}", "\u{feff}", "é", "𝕏", "\\",
    "\"", "'", "`", "\u{fffd}", "\n\n\n",
];

const PYTHON: &[&str] = &[
    "def ",
    "class ",
    "async def ",
    "(",
    ")",
    ":",
    "\n    ",
    "\n        ",
    "return ",
    "pass",
    "\"\"\"",
    "'''",
    "@decorator\n",
    "lambda x: x",
    "if x:",
    "else:",
    "self",
    "=",
    ",",
    "*args",
    "**kw",
    "-> int",
    "# comment",
    "import os",
    "from . import x",
    "yield",
    "...",
    "[",
    "]",
];

const C_LIKE: &[&str] = &[
    "int ",
    "void ",
    "struct ",
    "union ",
    "enum ",
    "typedef ",
    "static ",
    "{",
    "}",
    ";",
    "(",
    ")",
    "#include <x.h>",
    "#include \"y.h\"",
    "#define X(a) a",
    "#if 0",
    "#endif",
    "/* c */",
    "// c",
    "/*",
    "*/",
    "*",
    "&",
    ",",
    "=",
    "return ",
    "namespace ",
    "class ",
    "template<typename T>",
    "::",
    "operator()",
    "~A()",
    "public:",
    "private:",
    "virtual ",
    "const ",
    "noexcept",
    "<",
    ">",
    "using ",
    "extern \"C\" ",
    "[[nodiscard]] ",
    "auto ",
    "->",
    "...",
    // The macro and conditional pre-pass (`core::syntax` macros/preproc).
    "#if 0\n",
    "#if X\n",
    "#ifdef X\n",
    "#elif Y\n",
    "#else\n",
    "#endif\n",
    "\\\n",
    "LUA_API ",
    "ZEXTERN ",
    "ZEXPORT ",
    " OF((",
    "PNG_EXPORT(1, int, f, (void))",
    "PNG_EXPORTA(",
    "FMT_BEGIN_NAMESPACE\n",
    "FMT_CONSTEXPR ",
    "__attribute__((x)) ",
    "__declspec(dllexport) ",
    "l_sinline ",
    "MY_ATTR",
    "operator bool",
    "/*",
];

/// What the C/C++ pre-pass reacts to (conditionals, macros, shapes,
/// initializers, comments and literals around them), next to multibyte
/// UTF-8.
const PREPASS: &[&str] = &[
    "#if 0\n",
    "#if X\n",
    "#ifdef A /* open\n",
    "#elif Y\n",
    "#else\n",
    "#endif\n",
    "#endif",
    "#define M(x) \\\n  (x, /* c */ \\\n x)\n",
    "\\\n",
    "\n",
    "LUA_API ",
    "LUA_APIé",
    "é LUA_API",
    "ZEXTERN int ZEXPORT f OF((",
    "PNG_EXPORT(1, int, f, (void))",
    "PNG_FP_EXPORT(2, float, g,\n (int x))\n",
    "spread",
    "FMT_TYPE_CONSTANT(int, t);\n",
    "CURLWARNING(w,\n  \"m (\")\n",
    "YAML_DECLARE(const char *)\n",
    "FMT_MSC_WARNING(suppress : 1)\n",
    "decltype(",
    "decltype(a, b)",
    "decltype(é, 𝕏)",
    "extern template ",
    "template class ",
    "template <",
    "JSON_EXPLICIT operator T() const",
    "__stdcall ",
    // Issue 27's shapes: branches that each open a brace, calling
    // conventions, macros after `template<>` and before constructors.
    "#ifdef X\nint f(int a) {\n#else\nint f(void) {\n#endif\n",
    "#elif 0\n{ '}' \"{\" /* } */\n",
    "PVOID WINAPI ",
    "BOOL CALLBACK ",
    "NTSTATUS NTAPI f(",
    "template<> EIGEN_STRONG_INLINE ",
    "API_MACRO C::C(",
    "API_MACRO ns::C::~C(",
    " : msg_(m), data_{1, 2} ",
    "T *&",
    "FN(Name)(",
    "typedef struct tag ",
    "typedef void (APIENTRYP PFNPROC) (",
    "} ATTR_PACKED Name;",
    "class EXPORT_API Name FUTURE_FINAL\n : public B {",
    "PROTOBUF_EXPORT const ::ns::T* f(",
    "(FORMAT_STRING const char *fmt",
    "inline NO_DISCARD batch<T, A> batch<T, A>::f(",
    "MAP_HANDLER(STRING)\n",
    "} Name, *PName;",
    "__attribute__((é)) ",
    "MY_ATTR",
    "MY_ATTR(",
    "= {",
    "= {é, ",
    "{",
    "}",
    "(",
    ")",
    ",",
    ";",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "é",
    "𝕏",
    "\u{202e}",
];

/// User macro lists, valid and not.
const USER_MACROS: &[&str] = &[
    "MY_ATTR",
    "MY_ATTR()",
    "unwrap OF",
    "spread PNG_EXPORT",
    "MY_TRY = try",
    "MY_X = notakeyword",
    "bad name",
    "",
    "=",
    "spread",
    "é",
    "LUA_API",
];

const TOML_BITS: &[&str] = &[
    "[project]\n",
    "[presets.default]\n",
    "[[presets.default.files]]\n",
    "[[presets.default.files.custom_slices]]\n",
    "[[presets.default.discussion]]\n",
    "path = \"a.py\"\n",
    "view_mode = \"masked\"\n",
    "view_mode = \"bogus\"\n",
    "force_full = true\n",
    "auto_aggregate = false\n",
    "mask_default = \"sig\"\n",
    "ast_mask = { \"A.run\" = \"def\" }\n",
    "start_line = 3\n",
    "end_line = 1\n",
    "start_line = 0\n",
    "end_line = 18446744073709551615\n",
    "budget = -1\n",
    "budget = 99999999999999999999\n",
    "tokenizer = \"o200k\"\n",
    "max_file_size = 0\n",
    "allow_outside_root = true\n",
    "files = [\"a\", { path = \"b\" }]\n",
    "files = [3]\n",
    "role = \"User\"\ncontent = \"hi\"\n",
    "unknown = 1\n",
    "x.y.z = 2\n",
    "=",
    "\"",
    "'''",
    "[",
    "]",
    "{",
    "}",
    "\n",
    "# c\n",
    "\u{feff}",
];

/// A Python data table, usually over the 1 KiB collapsing threshold:
/// an assignment (or a bare statement, or a call's arguments) opening a
/// container or string, a few hundred elements, and its closing (unless
/// `may_break`, which also allows indented and continued lines).
fn python_table(may_break: bool) -> impl Strategy<Value = String> {
    const TARGETS: &[&str] = &[
        "X = ",
        "x: dict = ",
        "a = b = ",
        "",
        "X += ",
        "class C:\n    T = ",
        "X = Y; Z = ",
        "    T = ",
        "\n    X = ",
    ];
    const OPENS: &[(&str, &str)] = &[
        ("{", "}"),
        ("[", "]"),
        ("(", ")"),
        ("frozenset({", "})"),
        ("array(\"I\", (", "))"),
        ("dict(t=[", "], n=1)"),
        ("b\"", "\""),
        ("\"", "\""),
        ("\"\"\"", "\"\"\""),
        ("r'", "'"),
        ("(\"", "\" \"x\")"),
        ("", ""),
    ];
    const ELEMENTS: &[&str] = &[
        "\"k\": 1, ",
        "1, ",
        "'s',\n    ",
        "\\x00",
        "abc ",
        "\"k\": [1, 2], ",
        "# c\n    ",
        "*rest, ",
        "**more, ",
        "(1, 2), ",
        "lambda: 0, ",
    ];
    const TAILS: &[&str] = &["", "  # noqa", "; y = 1", " \\"];
    let targets = if may_break { TARGETS } else { &TARGETS[..7] };
    let tails = if may_break { TAILS } else { &TAILS[..3] };
    (
        proptest::sample::select(targets),
        proptest::sample::select(OPENS),
        proptest::sample::select(ELEMENTS),
        prop_oneof![1..20usize, 150..400usize],
        any::<bool>().prop_map(move |closed| closed || !may_break),
        proptest::sample::select(tails),
    )
        .prop_map(|(target, (open, close), element, n, closed, tail)| {
            let close = if closed { close } else { "" };
            format!("{target}{open}{}{close}{tail}\n", element.repeat(n))
        })
}

/// Well-formed Python statements to put the tables among.
const PY_STATEMENTS: &[&str] = &[
    "import os\n",
    "\"\"\"Doc.\"\"\"\n",
    "class K:\n    X = 1\n",
    "class L(Base):\n    \"\"\"Doc.\"\"\"\n\n    def m(self):\n        return [1, 2]\n",
    "def f():\n    return {1: 2}\n",
    "@d\ndef g(a, b=[1]):\n    '''Doc.'''\n    return a\n",
    "if x:\n    pass\nelse:\n    Y = 2\n",
    "try:\n    import z\nexcept ImportError:\n    z = None\n",
    "\n",
];

/// Python text with data tables: either well-formed statements and
/// closed tables, or tables among random grammar fragments.
fn python_with_tables() -> impl Strategy<Value = String> {
    let clean = prop_oneof![
        2 => proptest::sample::select(PY_STATEMENTS).prop_map(str::to_string),
        1 => python_table(false),
    ];
    let noisy = prop_oneof![
        3 => codeish(PYTHON),
        2 => python_table(true),
        1 => proptest::sample::select(PY_STATEMENTS).prop_map(str::to_string),
    ];
    prop_oneof![
        proptest::collection::vec(clean, 0..10).prop_map(|v| v.concat()),
        proptest::collection::vec(noisy, 0..8).prop_map(|v| v.concat()),
    ]
}

/// The paths of the definitions outside function bodies (what a skeleton
/// must keep), in source order.
fn defs_outside_functions(symbols: &[Symbol], out: &mut Vec<String>) {
    for s in symbols {
        if s.kind == syntax::SymbolKind::Constant {
            continue;
        }
        out.push(s.path.clone());
        if !s.kind.is_function() {
            defs_outside_functions(&s.children, out);
        }
    }
}

fn lang() -> impl Strategy<Value = Lang> {
    prop_oneof![Just(Lang::Python), Just(Lang::C), Just(Lang::Cpp)]
}

fn source_for(lang: Lang) -> BoxedStrategy<String> {
    match lang {
        Lang::Python => codeish(PYTHON).boxed(),
        // `lang()` draws only Python, C and C++.
        _ => codeish(C_LIKE).boxed(),
    }
}

fn path_for(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "m.py",
        Lang::C => "m.c",
        Lang::Cpp => "m.cpp",
        other => unreachable!("lang() never draws {other:?}"),
    }
}

fn all_symbols(symbols: &[Symbol], out: &mut Vec<Symbol>) {
    for s in symbols {
        out.push(s.clone());
        all_symbols(&s.children, out);
    }
}

fn mask_state() -> impl Strategy<Value = MaskState> {
    proptest::sample::select(MaskState::ALL)
}

fn slice() -> impl Strategy<Value = Slice> {
    (
        prop_oneof![0..5usize, 0..200usize, Just(usize::MAX)],
        prop_oneof![0..5usize, 0..200usize, Just(usize::MAX)],
        proptest::option::of("[0-9a-f]{64}"),
        proptest::collection::vec(".{0,10}", 0..4),
        proptest::collection::vec(".{0,10}", 0..4),
    )
        .prop_map(
            |(start_line, end_line, content_hash, before, after)| Slice {
                start_line,
                end_line,
                content_hash,
                anchor_before: before,
                anchor_after: after,
                ..Slice::default()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// The project-file parser never panics, and whatever it accepts is
    /// saved as TOML that parses back to the same file.
    #[test]
    fn project_file_parses_or_errors_and_round_trips(text in codeish(TOML_BITS)) {
        if let Ok(file) = parse_text(Path::new("ctxcurate.toml"), &text) {
            let saved = to_toml(&file).expect("a parsed file serializes");
            let again = parse_text(Path::new("ctxcurate.toml"), &saved)
                .unwrap_or_else(|e| panic!("saved text does not parse: {e}\n{saved}"));
            prop_assert_eq!(again, file);
        }
    }

    /// Arbitrary bytes through the file loader (invalid UTF-8 included).
    #[test]
    fn project_file_loader_survives_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        std::fs::write(&path, &bytes).unwrap();
        match ctxcurate::core::project::load_file(&path) {
            Ok(Some(_)) | Err(_) => {}
            Ok(None) => prop_assert!(false, "an existing file reads as missing"),
        }
    }

    /// Symbol extraction never panics; ranges are in the file, and every
    /// symbol path can be found again.
    #[test]
    fn symbols_are_extracted_from_anything((lang, text) in lang().prop_flat_map(|l| (Just(l), source_for(l)))) {
        let tree = syntax::parse(lang, &text);
        let lines = text.lines().count().max(1);
        let mut all = Vec::new();
        all_symbols(&tree.symbols, &mut all);
        for s in &all {
            prop_assert!(s.start_line >= 1 && s.start_line <= s.end_line, "{s:?}");
            prop_assert!(s.end_line <= lines + 1, "{} past {lines} lines", s.end_line);
            prop_assert!(tree.find(&s.path).is_some(), "{} not found again", s.path);
        }
        prop_assert_eq!(tree.has_errors, tree.error_line.is_some());
        if let Some(line) = tree.error_line {
            prop_assert!(line >= 1 && line <= lines + 1, "error line {line} past {lines} lines");
        }
    }

    /// The C/C++ pre-pass (macros, conditionals, large initializers) on
    /// text dense with what it reacts to, unbalanced `#if`/`#endif` and
    /// macros at the end included: never a panic, byte offsets and line
    /// breaks kept, and what it changed is ASCII written over ASCII or
    /// over whole characters.
    #[test]
    fn prepass_keeps_offsets_and_lines(
        lang in prop_oneof![Just(Lang::C), Just(Lang::Cpp)],
        text in codeish(PREPASS),
        user in proptest::collection::vec(proptest::sample::select(USER_MACROS), 0..4),
    ) {
        check_prepass(lang, &text, &user)?;
    }

    /// The same on random bytes (read as UTF-8 lossily, as files are).
    #[test]
    fn prepass_survives_random_bytes(
        lang in prop_oneof![Just(Lang::C), Just(Lang::Cpp)],
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        check_prepass(lang, &String::from_utf8_lossy(&bytes), &[])?;
    }

    /// A large initializer (blanked inside its braces), closed or not,
    /// with the pre-pass's triggers inside and around it.
    #[test]
    fn prepass_blanks_large_initializers_safely(
        lang in prop_oneof![Just(Lang::C), Just(Lang::Cpp)],
        head in codeish(PREPASS),
        entry in codeish(PREPASS),
        closed in any::<bool>(),
        tail in codeish(PREPASS),
    ) {
        let repeat = 5000 / entry.len().max(1) + 1;
        let close = if closed { "};\n" } else { "" };
        let text = format!("{head}\nint t[] = {{{}{close}{tail}", entry.repeat(repeat.min(5000)));
        check_prepass(lang, &text, &[])?;
    }

    /// Every view mode renders anything without panicking; `full` is the
    /// text itself and `none` never shows it.
    #[test]
    fn every_view_renders(
        (lang, text) in lang().prop_flat_map(|l| (Just(l), source_for(l))),
        default in mask_state(),
        states in proptest::collection::vec(mask_state(), 0..8),
        slices in proptest::collection::vec(slice(), 0..3),
    ) {
        let path = path_for(lang);
        let tree = syntax::parse(lang, &text);
        let mut all = Vec::new();
        all_symbols(&tree.symbols, &mut all);
        let mut item = FileItem::new(path);
        item.mask_default = default;
        item.ast_mask = all
            .iter()
            .zip(states)
            .map(|(s, st)| (s.path.clone(), st))
            .collect::<BTreeMap<_, _>>();
        item.ast_mask.insert("No.such::symbol".into(), MaskState::Def);
        item.custom_slices = slices;
        for &mode in ViewMode::ALL {
            let view = views::render(path, &text, mode, &item);
            match mode {
                ViewMode::Full => prop_assert_eq!(&*view.text, text.as_str()),
                ViewMode::None => prop_assert_eq!(&*view.text, views::EXCLUDED),
                _ => {}
            }
        }
        // And as plain text (no grammar): symbol modes fall back.
        for &mode in ViewMode::ALL {
            views::render("notes.txt", &text, mode, &item);
        }
    }

    /// Python with large literals: every view renders; a file without
    /// syntax errors keeps a skeleton without syntax errors and every def
    /// and class outside function bodies.
    #[test]
    fn python_tables_collapse_safely(
        text in python_with_tables(),
        default in mask_state(),
        states in proptest::collection::vec(mask_state(), 0..8),
    ) {
        check_python_tables(&text, default, states)?;
    }

    /// The slice resolver never panics, never returns a range outside the
    /// file, and finds a fresh slice where it was made.
    #[test]
    fn slices_resolve_inside_the_file(
        text in codeish(PYTHON),
        s in slice(),
        edit in proptest::collection::vec(".{0,10}", 0..5),
    ) {
        let lines = text.lines().count();
        if let Some((a, b)) = anchor::resolve(&text, &s).range() {
            prop_assert!(a >= 1 && a <= b && b <= lines, "{a}-{b} of {lines}");
        }
        if lines > 0 {
            let start = (s.start_line % lines) + 1;
            let end = (start + s.end_line % 4).min(lines);
            let fresh = anchor::create_slice(&text, start, end).expect("a valid range");
            prop_assert_eq!(
                anchor::resolve(&text, &fresh),
                Resolution::Kept { start, end }
            );
            // Lines inserted above: it moves or goes stale, never wrong.
            let edited = format!("{}\n{text}", edit.join("\n"));
            if let Some((a, b)) = anchor::resolve(&edited, &fresh).range() {
                let got: Vec<&str> = edited.lines().skip(a - 1).take(b - a + 1).collect();
                let want: Vec<&str> = text.lines().skip(start - 1).take(end - start + 1).collect();
                prop_assert_eq!(got, want);
            }
        }
    }

    /// The secret scanner never panics and never shows a whole token.
    #[test]
    fn secret_scan_masks(text in codeish(&["ghp_", "AKIA", "sk-ant-", "sk-", "xoxb-", "AIza",
        "password = \"", "token: '", "-----BEGIN RSA PRIVATE KEY-----\n", "\\n", "=", ":",
        "0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOP", "_-", "\""])) {
        for hit in secrets::scan(&text) {
            prop_assert!(hit.line >= 1 && hit.line <= text.lines().count());
            prop_assert!(hit.masked.contains('…'));
        }
    }
}

/// The pre-pass's output against its input: same length, same line
/// breaks, changed bytes ASCII over ASCII (or over every byte of a
/// multibyte character); and the parse with these macros is sound.
fn check_prepass(lang: Lang, text: &str, user: &[&str]) -> Result<(), TestCaseError> {
    let user: Vec<String> = user.iter().map(|s| s.to_string()).collect();
    let macros = CMacros::new(&user);
    let out = syntax::preprocessed(lang, text, &macros);
    prop_assert_eq!(out.len(), text.len());
    let (a, b) = (text.as_bytes(), out.as_bytes());
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        let newline = |c: u8| c == b'\n' || c == b'\r';
        prop_assert_eq!(newline(x), newline(y), "line break moved at byte {}", i);
        if x != y {
            prop_assert!(y.is_ascii(), "non-ASCII written at byte {}", i);
        }
    }
    // A changed multibyte character is changed whole.
    for (i, c) in text.char_indices() {
        let len = c.len_utf8();
        if len > 1 && out.get(i..i + len) != Some(&text[i..i + len]) {
            prop_assert!(
                b[i..i + len].iter().all(u8::is_ascii),
                "character at byte {} half blanked",
                i
            );
        }
    }
    let tree = syntax::parse_with(lang, text, &macros);
    let lines = text.lines().count().max(1);
    for s in tree.iter() {
        prop_assert!(s.range.end <= text.len(), "{:?}", s.range);
        prop_assert!(s.start_line >= 1 && s.end_line <= lines + 1);
    }
    Ok(())
}

/// The body of `python_tables_collapse_safely`.
fn check_python_tables(
    text: &str,
    default: MaskState,
    states: Vec<MaskState>,
) -> Result<(), TestCaseError> {
    let tree = syntax::parse(Lang::Python, text);
    let skeleton = syntax::skeleton(&tree, text);
    let _ = syntax::outline(&tree);
    let mut all = Vec::new();
    all_symbols(&tree.symbols, &mut all);
    let mask: BTreeMap<String, MaskState> = all
        .iter()
        .zip(states)
        .map(|(s, st)| (s.path.clone(), st))
        .collect();
    let _ = syntax::masked(&tree, text, default, &mask);
    for &mode in ViewMode::ALL {
        views::render("m.py", text, mode, &FileItem::new("m.py"));
    }
    if !tree.has_errors {
        let again = syntax::parse(Lang::Python, &skeleton);
        prop_assert!(!again.has_errors, "skeleton has syntax errors:\n{skeleton}");
        let (mut want, mut got) = (Vec::new(), Vec::new());
        defs_outside_functions(&tree.symbols, &mut want);
        defs_outside_functions(&again.symbols, &mut got);
        prop_assert_eq!(got, want);
    }
    Ok(())
}

/// Found by `python_tables_collapse_safely` in CI: a long string, then a
/// `\` continuation into a second statement (invalid Python, read by
/// tree-sitter with a missing hidden newline) counted as error-free, so
/// its skeleton (`X = "..." \`) was held to parse.
#[test]
fn regression_continuation_after_a_long_string() {
    let text = format!(
        "X = \"\"\"{}\"\"\" \\\nX = {{\"k\": [1, 2], }}\n",
        "'s',\n    ".repeat(150)
    );
    check_python_tables(&text, MaskState::Def, Vec::new()).unwrap();
}

/// Hand-picked seed: a table defined twice is an error, not a panic.
#[test]
fn regression_duplicate_table_is_an_error() {
    let text = "[project]\nbudget = 1\n[project]\nbudget = 2\n";
    assert!(parse_text(Path::new("x.toml"), text).is_err());
}

/// Hand-picked seed: each language's parser and every view on unclosed
/// constructs and control characters.
#[test]
fn regression_unclosed_constructs() {
    for (lang, text) in [
        (Lang::Python, "class A(:\n    def f(\n\"\"\"\x00"),
        (Lang::C, "struct { int x; /* \n#define X( \x1b"),
        (Lang::Cpp, "template<typename T> class A { ~A( operator()"),
    ] {
        let tree = syntax::parse(lang, text);
        for &mode in ViewMode::ALL {
            views::render(path_for(lang), text, mode, &FileItem::new(path_for(lang)));
        }
        let _ = tree.symbols.len();
    }
}

/// Found by `prepass_keeps_offsets_and_lines`: the `0` written into a
/// `decltype(a, b)` landed on a line break.
#[test]
fn regression_decltype_comma_after_a_line_break() {
    for text in ["decltype(\n,)", "int t[] = {decltype(\n\n\n,)"] {
        for lang in [Lang::C, Lang::Cpp] {
            check_prepass(lang, text, &[]).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        }
    }
}

/// Found by the `views` fuzz target: a Kotlin function the grammar ended
/// at a lambda's `}` (an invalid byte, read as U+FFFD, after it), hidden
/// in the masked view, left `\u{fffd}sum()` on a line of its own.
#[test]
fn regression_a_hidden_function_takes_the_rest_of_its_line() {
    let text = "typealias Polygon = List<Point>\n\n\
                fun Polygon.perimeter(): Double = zipWithNext { a, b -> a.dist(b) }\u{fffd}sum()\n\n\
                fun main() {\n    println(1)\n}\n";
    let mut item = FileItem::new("m.kt");
    item.ast_mask
        .insert("Polygon.perimeter".to_string(), MaskState::Hide);
    let view = views::render("m.kt", text, ViewMode::Masked, &item);
    assert!(!view.text.contains("sum()"), "{}", view.text);
    assert!(view.text.contains("fun main()"), "{}", view.text);
}

/// Found by the `views` fuzz target: a hidden Kotlin property whose
/// accessors show (one in full, one as its signature) held them twice,
/// in its header and after its closing, so `get()` came twice and a
/// symbol the file did not have appeared on re-parsing.
#[test]
fn regression_a_hidden_property_shows_its_accessors_once() {
    let text = "class Point {\n    /** A label, kept trimmed. */\n    var label: String = \"\"\n        \
                get() {\n            return field.ifEmpty { \"point\" }\n        }\n        \
                set(value) {\n            field = value.trim()\n        }\n}\n";
    let mut item = FileItem::new("m.kt");
    for (path, state) in [
        ("Point.label", MaskState::Hide),
        ("Point.label.get", MaskState::Def),
        ("Point.label.set", MaskState::Sig),
    ] {
        item.ast_mask.insert(path.to_string(), state);
    }
    let view = views::render("m.kt", text, ViewMode::Masked, &item);
    assert_eq!(view.text.matches("get()").count(), 1, "{}", view.text);
    assert_eq!(view.text.matches("set(value)").count(), 1, "{}", view.text);
    assert!(
        !syntax::parse(Lang::Kotlin, &view.text).has_errors,
        "{}",
        view.text
    );
}

/// Found by the `views` fuzz target (a timeout under ASan on a loaded
/// machine): a chain of `!!` in a Kotlin call after broken lines makes
/// the grammar's error recovery take its whole memory bound for 1.3 KB
/// (about 0.9 s of CPU). The parse is stopped there, and every view
/// still renders: the skeleton falls back to the file in full, with a
/// note (every view's fallback is this one's: the other views are not
/// rendered here, each would take the bound again).
#[test]
fn regression_a_kotlin_chain_of_not_null_assertions_stops_at_its_bound() {
    let text = r#"    fun dist(other: Point): Double {
      ed. */
    var label: S    get() {
        }
        set(value) {
        }
   ��������     require(both >= 2)
/** A polygon built by a trailing lambda, as Kotlin DSLs are. */
fun square(side: Dkuble): Pol8gon = buildList {
      �     add(Point(0.0, 0.0))
    0.0, 0.0))
    add(Point(side, side))
}

fun main() {
    println(Point(3.0, 4.0).!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!)!!!!!!!!!!!!!!!!!!!!norm)
}

@Target(AnnotationTarget.CLASS)
annotation class Marker
"#;
    let tree = syntax::parse(Lang::Kotlin, text);
    let skeleton = views::render("m.kt", text, ViewMode::Skeleton, &FileItem::new("m.kt"));
    if tree.parse_stopped {
        assert_eq!(&*skeleton.text, text);
        assert!(
            skeleton.notes.iter().any(|n| n.contains("stopped after")),
            "{:?}",
            skeleton.notes
        );
    }
}

/// Found by the `project_file` fuzz target: a CR before a line's LF in a
/// multi-line string (its value), and an edit that removes a file entry
/// with comments above it. The comment guard wrote lines back without
/// the CR, the text read back otherwise, and the save fell back to the
/// text the edit left: the entry's comments were lost.
#[test]
fn regression_an_edit_keeps_comments_when_a_string_holds_a_carriage_return() {
    use ctxcurate::core::project::render_edit;
    let text = "# top\nx=\"\"\" 1\r\n\"\"\"# after the string\nk = 3e19 # beside k\n\
                #\n# above the first entry\n[[presets.default.files]]\n\
                path = \"src/a.py\"   # beside the first path\n\
                [[presets.default.files]]\npath = \"src/b.py\"\n";
    let old = parse_text(Path::new("ctxcurate.toml"), text).expect("parses");
    let mut new = old.clone();
    new.presets
        .entry("default".to_string())
        .or_default()
        .files
        .remove(0);
    let saved = render_edit(text, &old, &new).expect("renders");
    let back = parse_text(Path::new("ctxcurate.toml"), &saved).expect("reads back");
    assert!(back.same_shared(&new), "{saved}");
    assert_eq!(back.extra, new.extra, "{saved}");
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            assert!(saved.contains(line), "comment {line:?} lost:\n{saved}");
        }
    }
    assert!(saved.contains(" 1\r\n\"\"\""), "the string's CR: {saved:?}");
}

/// Found by `secret_scan_masks` in CI: once a lone carriage return ended a
/// line for the scan (recheck 16 F-CR), a hit after one was named on a
/// line past the text's own (counted by line feed). Hits keep the text's
/// lines.
#[test]
fn regression_a_lone_carriage_return_keeps_a_hit_on_the_texts_lines() {
    for text in [
        "\rghp_sk-ant-sk-ant-ghp__AaAa0123456789ghp_aaadj",
        "a=1\rdb.password=Zr7kQ2wLp9xQ\r",
        "a: 1\u{2028}password: Zr7kQ2wLp9xQ",
    ] {
        let hits = secrets::scan(text);
        assert!(!hits.is_empty(), "{text:?}");
        for hit in hits {
            assert!(
                hit.line >= 1 && hit.line <= text.lines().count(),
                "{text:?}: {hit:?}"
            );
            assert!(hit.masked.contains('…'), "{text:?}: {hit:?}");
        }
    }
}

/// Found by the `views` target (session 26): in a C file whose parse had
/// errors, the flattening retry blanked a directive-shaped line inside a
/// block comment (`# if … */`) with the `*/` that closed it, so the next
/// `#define` sank into the comment; the masked view, parsed again, showed
/// a macro the symbols lacked. Such lines are comment now.
#[test]
fn regression_a_directive_shaped_line_inside_a_comment_keeps_its_close() {
    let text = "#ifndef _STDIO_H\n\
                #define SEEK_SET\t0\t/* Seek\n\
                # endif\n\
                # define __off_t_defined\n\
                # endif\n\
                # if defined __USE_LARGEFILE64 from beginning of file.  */\n\
                #define SEEK_CUR\t1\t/* Seek from current position.  */\n\
                #define SEEK_END\t2\n";
    let tree = syntax::parse(Lang::C, text);
    let names: Vec<&str> = tree.symbols.iter().map(|s| s.name.as_str()).collect();
    for name in ["SEEK_SET", "SEEK_CUR", "SEEK_END"] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }
    let seek_set = tree.symbols.iter().find(|s| s.name == "SEEK_SET");
    assert_eq!(seek_set.map(|s| s.end_line), Some(6), "{names:?}");
}
