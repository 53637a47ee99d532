//! Robustness: garbage, truncated, deeply nested, CRLF and tab-indented
//! input never panics, and the trees keep their invariants (ranges inside
//! the source and inside their parent, lines ordered, paths unique;
//! `masked` with every symbol in `def` gives the file back).

use std::collections::{BTreeMap, HashSet};

use crate::core::model::MaskState;
use crate::core::syntax::text::tidy;
use crate::core::syntax::{Lang, Symbol, SymbolTree, masked, outline, parse, skeleton};

/// Tokens that make random input look enough like code to reach deep
/// into the grammars.
const TOKENS: &[&str] = &[
    "def ",
    "class ",
    "async ",
    "@d\n",
    "(",
    ")",
    ":",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "\n",
    "\r\n",
    "\t",
    "    ",
    "#",
    "# c\n",
    "\"\"\"",
    "'",
    "\"",
    "/*",
    "*/",
    "// c\n",
    "\\\n",
    "template <class T> ",
    "namespace n ",
    "struct S ",
    "union U ",
    "enum E ",
    "typedef ",
    "int ",
    "void ",
    "f",
    "g",
    "x",
    "=",
    "*",
    "&",
    "::",
    "~",
    "operator==",
    "#define X 1\n",
    "#if A\n",
    "#else\n",
    "#endif\n",
    "__THROW ",
    "return ",
    "é",
    "€",
    "𝄞",
    "\0",
    "...",
    "lambda: ",
    "pass\n",
    "MAX = 1\n",
];

/// A small deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_source(rng: &mut Rng) -> String {
    let len = rng.below(300);
    (0..len).map(|_| TOKENS[rng.below(TOKENS.len())]).collect()
}

/// Every view of `source`, plus the tree invariants.
pub(super) fn check(lang: Lang, source: &str) {
    let tree = parse(lang, source);
    check_invariants(&tree, source);
    let _ = skeleton(&tree, source);
    let _ = outline(&tree);
    let mut mask = BTreeMap::new();
    for (i, s) in tree.iter().enumerate() {
        mask.insert(s.path.clone(), MaskState::ALL[i % MaskState::ALL.len()]);
    }
    mask.insert("no such symbol".into(), MaskState::Def);
    for default in MaskState::ALL {
        let _ = masked(&tree, source, *default, &mask);
    }
    if lang != Lang::Python {
        // (Python may add `...` to a class whose body holds no statement.)
        let all_def = masked(&tree, source, MaskState::Def, &BTreeMap::new());
        assert_eq!(all_def, tidy(source), "def everywhere must be the file");
    }
}

fn check_invariants(tree: &SymbolTree, source: &str) {
    let mut seen = HashSet::new();
    for s in tree.iter() {
        assert!(seen.insert(s.path.as_str()), "duplicate path {}", s.path);
        assert!(s.range.start <= s.range.end && s.range.end <= source.len());
        assert!(
            source.get(s.range.clone()).is_some(),
            "range off a char boundary"
        );
        assert!(s.start_line >= 1 && s.start_line <= s.end_line);
        assert!(!s.signature.contains('\n'));
        for child in &s.children {
            assert!(within(child, s), "{} outside {}", child.path, s.path);
        }
    }
}

fn within(child: &Symbol, parent: &Symbol) -> bool {
    parent.range.start <= child.range.start && child.range.end <= parent.range.end
}

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..150 {
        let source = random_source(&mut rng);
        for lang in [Lang::Python, Lang::C, Lang::Cpp] {
            check(lang, &source);
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..60 {
        let bytes: Vec<u8> = (0..rng.below(500)).map(|_| rng.next() as u8).collect();
        let source = String::from_utf8_lossy(&bytes);
        for lang in [Lang::Python, Lang::C, Lang::Cpp] {
            check(lang, &source);
        }
    }
}

#[test]
fn every_prefix_and_suffix_of_the_fixtures() {
    let fixtures = [
        (
            Lang::Python,
            "@d\nclass A(B):\n    \"\"\"Doc.\"\"\"\n    def f(self, x):\n        def g():\n            return 1\n        return g\n\nX_MAX = 3\n",
        ),
        (
            Lang::C,
            "/* c */\n#define N 3\ntypedef struct { int a; } T;\nint f(int x) __THROW;\nstatic int g(void) {\n  return 1;\n}\n",
        ),
        (
            Lang::Cpp,
            "namespace n {\ntemplate <class T>\nclass A {\n  int f() const { return 1; }\n};\n}\nvoid n::A::g() {}\n",
        ),
    ];
    for (lang, text) in fixtures {
        for (at, _) in text.char_indices().step_by(3) {
            check(lang, &text[..at]);
            check(lang, &text[at..]);
        }
    }
}

#[test]
fn deep_nesting_is_bounded() {
    let mut python = String::new();
    for depth in 0..2_000 {
        python.push_str(&" ".repeat(depth));
        python.push_str("def f():\n");
    }
    let tree = parse(Lang::Python, &python);
    assert!(tree.iter().count() <= super::super::symbols::MAX_DEPTH);
    check(Lang::Python, &python);
    let braces = format!("void f() {}{}", "{".repeat(20_000), "}".repeat(20_000));
    check(Lang::C, &braces);
    let classes = "struct A { ".repeat(3_000) + &"};".repeat(3_000);
    check(Lang::Cpp, &classes);
    let parens = format!("x = {}1{}\n", "(".repeat(5_000), ")".repeat(5_000));
    check(Lang::Python, &parens);
}

#[test]
fn crlf_and_tabs_keep_python_valid() {
    let src = "class A:\r\n\tdef f(self):\r\n\t\t\"\"\"Doc.\"\"\"\r\n\t\treturn 1\r\n\r\n\tdef g(self): pass\r\n";
    let tree = parse(Lang::Python, src);
    assert_eq!(
        skeleton(&tree, src),
        "class A:\r\n\tdef f(self):\r\n\t\t\"\"\"Doc.\"\"\"\r\n\t\t...\r\n\r\n\tdef g(self): ...\r\n"
    );
    let hidden = masked(
        &tree,
        src,
        MaskState::Def,
        &[("A.f".to_string(), MaskState::Hide)].into(),
    );
    assert_eq!(hidden, "class A:\r\n\tdef g(self): pass\r\n");
    assert_eq!(
        tree.find("A.f").map(|s| (s.start_line, s.end_line)),
        Some((2, 4))
    );
}

#[test]
fn a_long_single_line_file() {
    let c = "int f(int a) { return a; } ".repeat(5_000);
    let tree = parse(Lang::C, &c);
    assert_eq!(tree.iter().count(), 5_000);
    assert_eq!(tree.find("f#5000").map(|s| s.start_line), Some(1));
    check(Lang::C, &c);
}

#[test]
fn views_of_a_tree_with_another_source_do_not_panic() {
    let original = "class A:\n    def f(self):\n        \"\"\"Dé.\"\"\"\n        return 1\n";
    let tree = parse(Lang::Python, original);
    for other in ["", "x", "é€𝄞", &original[..20], &original.repeat(2)] {
        let _ = skeleton(&tree, other);
        for default in MaskState::ALL {
            let _ = masked(&tree, other, *default, &BTreeMap::new());
        }
        let _ = tree.definition(other, "A.f");
    }
}

/// Tokens of Ruby, Lua and Markdown, to reach into their grammars.
const KEYWORD_TOKENS: &[&str] = &[
    "def ",
    "end",
    "\n",
    " ",
    "class ",
    "module ",
    "self.",
    "class << self\n",
    "function ",
    "local ",
    "return ",
    "=",
    "(",
    ")",
    "{",
    "}",
    ",",
    ".",
    ":",
    "#",
    "# ",
    "## ",
    "--",
    "--[[",
    "]]",
    "f",
    "M",
    "x",
    "```\n",
    "===\n",
    "---\n",
    "> ",
    "- ",
    "    ",
    "\t",
    "\r\n",
    "<<-EOS\n",
    "EOS\n",
    "\"",
    "'",
    "=begin\n",
    "=end\n",
    "é",
    "😀",
];

#[test]
fn ruby_lua_and_markdown_garbage_never_panics() {
    let mut rng = Rng(0x5EED_0B5E_55ED);
    for _ in 0..150 {
        let source: String = (0..rng.below(120))
            .map(|_| KEYWORD_TOKENS[rng.below(KEYWORD_TOKENS.len())])
            .collect();
        for lang in [Lang::Ruby, Lang::Lua, Lang::Markdown] {
            check(lang, &source);
        }
    }
    for _ in 0..40 {
        let bytes: Vec<u8> = (0..rng.below(400)).map(|_| rng.next() as u8).collect();
        let source = String::from_utf8_lossy(&bytes);
        for lang in [Lang::Ruby, Lang::Lua, Lang::Markdown] {
            check(lang, &source);
        }
    }
}

#[test]
fn every_prefix_and_suffix_of_the_ruby_lua_and_markdown_fixtures() {
    let fixtures = [
        (Lang::Ruby, include_str!("fixtures/sample.rb")),
        (Lang::Lua, include_str!("fixtures/sample.lua")),
        (Lang::Markdown, include_str!("fixtures/sample.md")),
    ];
    for (lang, text) in fixtures {
        for (at, _) in text.char_indices().step_by(7) {
            check(lang, &text[..at]);
            check(lang, &text[at..]);
        }
    }
}

#[test]
fn deep_ruby_lua_and_markdown_nesting_is_bounded() {
    let ruby = "module M\n".repeat(2_000) + &"end\n".repeat(2_000);
    let tree = parse(Lang::Ruby, &ruby);
    assert!(tree.iter().count() <= super::super::symbols::MAX_DEPTH);
    check(Lang::Ruby, &ruby);
    let lua = "function f()\n".repeat(3_000) + &"end\n".repeat(3_000);
    check(Lang::Lua, &lua);
    let markdown: String = (0..3_000)
        .map(|i| format!("{} h{i}\n\ntext\n\n", "#".repeat(1 + i % 6)))
        .collect();
    check(Lang::Markdown, &markdown);
}

/// One file's symbols get one deadline, whatever they take: the parse, the
/// C/C++ pre-pass's second and third parses and the symbol query share it,
/// each step getting what the ones before it left. With a deadline per
/// step, 300 KB of `(` took twice the deadline (a parse, then a query).
#[test]
fn the_parse_and_the_query_share_one_deadline() {
    use crate::core::syntax::lang::BUDGETS_STARTED;
    let cases = [
        (Lang::Rust, "fn f() { (((( }\nfn g() {}\n".to_string()),
        (Lang::TypeScript, "(".repeat(2_000)),
        (Lang::Go, "package p\nfunc f() { ((( }\n".to_string()),
        // Errors under `#if` make the pre-pass parse twice more.
        (
            Lang::C,
            "#if A\nint f( {\n#else\nint f() {\n#endif\n  return 1;\n}\n".to_string(),
        ),
        (
            Lang::Cpp,
            "template <class T> class A { (((( };\n".to_string(),
        ),
        (Lang::Python, "def f(:\n    pass\n".to_string()),
    ];
    for (lang, source) in cases {
        let before = BUDGETS_STARTED.with(std::cell::Cell::get);
        parse(lang, &source);
        let started = BUDGETS_STARTED.with(std::cell::Cell::get) - before;
        assert_eq!(started, 1, "{lang:?}: {started} deadlines for one file");
    }
}
