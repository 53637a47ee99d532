//! Languages as data: one [`Row`] per [`Lang`] — name, extensions,
//! shebang interpreters, grammar, comment node kinds, body placeholder,
//! how symbol paths nest and the symbol query (`queries/<name>/symbols.scm`)
//! — as helix's `languages.toml` and `runtime/queries/<lang>/` are. Adding a
//! language is a variant of [`Lang`], a row here and a query folder; the
//! tree walking stays generic (`symbols`, `spans`, `generic`).

use tree_sitter::Language;

use super::Lang;

/// How a symbol's path is made from its parent's and its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PathStyle {
    /// `Class.method` (Python, JavaScript, TypeScript, Go, Java).
    Dot,
    /// `ns::Class::method`, out-of-line `Class::f` kept (C++, Rust).
    Colons,
    /// One flat namespace for functions, one for tags (`struct Point`): C.
    CTags,
}

/// Everything the generic code needs to know about one language.
pub(super) struct Row {
    pub lang: Lang,
    /// Lowercase name: the query folder, the `; inherits:` name, the
    /// Markdown fence.
    pub name: &'static str,
    /// Lowercase file extensions, without the dot.
    pub extensions: &'static [&'static str],
    /// Interpreters named on a `#!` line (`#!/usr/bin/env node`).
    pub shebangs: &'static [&'static str],
    pub grammar: fn() -> Language,
    /// The syntax node kinds that are comments (doc comments included).
    pub comments: &'static [&'static str],
    /// What the skeleton puts where a function body was.
    pub placeholder: &'static str,
    pub paths: PathStyle,
    /// `queries/<name>/symbols.scm`: `@definition.<kind>` and `@name`.
    pub symbols: &'static str,
}

/// The placeholder of the brace languages added as data: a comment, so the
/// skeleton still parses (`{ ... }` is a syntax error in all of them).
const BRACES: &str = "{ /* ... */ }";

/// Comment node kinds of the C family and most grammars.
const COMMENT: &[&str] = &["comment"];
/// Rust and Java split line and block comments.
const LINE_BLOCK: &[&str] = &["line_comment", "block_comment"];

/// Every language, in [`Lang`] order (`Lang::row` indexes this).
pub(super) const ROWS: [Row; 14] = [
    Row {
        lang: Lang::Python,
        name: "python",
        extensions: &["py", "pyi"],
        shebangs: &["python", "python3", "python2"],
        grammar: || tree_sitter_python::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: "...",
        paths: PathStyle::Dot,
        symbols: include_str!("queries/python/symbols.scm"),
    },
    Row {
        lang: Lang::C,
        name: "c",
        extensions: &["c", "h"],
        shebangs: &[],
        grammar: || tree_sitter_c::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: "{ ... }",
        paths: PathStyle::CTags,
        symbols: include_str!("queries/c/symbols.scm"),
    },
    Row {
        lang: Lang::Cpp,
        name: "cpp",
        extensions: &["cc", "cpp", "cxx", "hpp", "hh", "hxx", "c++", "h++"],
        shebangs: &[],
        grammar: || tree_sitter_cpp::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: "{ ... }",
        paths: PathStyle::Colons,
        symbols: include_str!("queries/cpp/symbols.scm"),
    },
    Row {
        lang: Lang::Rust,
        name: "rust",
        extensions: &["rs"],
        shebangs: &[],
        grammar: || tree_sitter_rust::LANGUAGE.into(),
        comments: LINE_BLOCK,
        placeholder: BRACES,
        paths: PathStyle::Colons,
        symbols: include_str!("queries/rust/symbols.scm"),
    },
    Row {
        lang: Lang::TypeScript,
        name: "typescript",
        extensions: &["ts", "mts", "cts"],
        shebangs: &["ts-node", "tsx", "deno", "bun"],
        grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        comments: COMMENT,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/typescript/symbols.scm"),
    },
    Row {
        lang: Lang::Tsx,
        name: "tsx",
        extensions: &["tsx"],
        shebangs: &[],
        grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
        comments: COMMENT,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/tsx/symbols.scm"),
    },
    Row {
        lang: Lang::JavaScript,
        name: "javascript",
        extensions: &["js", "jsx", "mjs", "cjs"],
        shebangs: &["node", "nodejs"],
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/javascript/symbols.scm"),
    },
    Row {
        lang: Lang::Go,
        name: "go",
        extensions: &["go"],
        shebangs: &[],
        grammar: || tree_sitter_go::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/go/symbols.scm"),
    },
    Row {
        lang: Lang::Java,
        name: "java",
        extensions: &["java"],
        shebangs: &[],
        grammar: || tree_sitter_java::LANGUAGE.into(),
        comments: LINE_BLOCK,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/java/symbols.scm"),
    },
    Row {
        lang: Lang::CSharp,
        name: "csharp",
        extensions: &["cs"],
        shebangs: &[],
        grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/csharp/symbols.scm"),
    },
    Row {
        lang: Lang::Bash,
        name: "bash",
        extensions: &["sh", "bash"],
        shebangs: &["sh", "bash"],
        grammar: || tree_sitter_bash::LANGUAGE.into(),
        comments: COMMENT,
        // The shell's no-op: `{ ... }` would run a command named `...`.
        placeholder: "{ :; }",
        paths: PathStyle::Dot,
        symbols: include_str!("queries/bash/symbols.scm"),
    },
    Row {
        lang: Lang::Php,
        name: "php",
        extensions: &["php"],
        shebangs: &["php"],
        // PHP with its HTML around (`<?php ... ?>` inside a page).
        grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
        comments: COMMENT,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/php/symbols.scm"),
    },
    Row {
        lang: Lang::Kotlin,
        name: "kotlin",
        extensions: &["kt", "kts"],
        shebangs: &["kotlin"],
        grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
        comments: LINE_BLOCK,
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/kotlin/symbols.scm"),
    },
    Row {
        lang: Lang::Swift,
        name: "swift",
        extensions: &["swift"],
        shebangs: &["swift"],
        grammar: || tree_sitter_swift::LANGUAGE.into(),
        comments: &["comment", "multiline_comment"],
        placeholder: BRACES,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/swift/symbols.scm"),
    },
];

/// The row of the language with this name (`; inherits: c`).
pub(super) fn by_name(name: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.name == name)
}

/// The row whose extensions include `ext` (lowercase, no dot).
pub(super) fn by_extension(ext: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.extensions.contains(&ext))
}

/// The row whose interpreter the `#!` line of `source` names
/// (`#!/usr/bin/env node`, `#!/usr/bin/python3 -u`).
pub(super) fn by_shebang(source: &str) -> Option<&'static Row> {
    let line = source.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    ROWS.iter().find(|r| r.shebangs.contains(&program))
}
