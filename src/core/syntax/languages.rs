//! Languages as data: one [`Row`] per [`Lang`] — name, extensions, file
//! names, shebang interpreters, grammar, comment node kinds, body
//! placeholder, how bodies are delimited (braces, a closing `end`,
//! Markdown's sections), how symbol paths nest and the symbol query
//! (`queries/<name>/symbols.scm`)
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
    /// Ruby's own notation, as `ri` and YARD write it: `Outer::Inner` for
    /// classes and modules, `Class#method` for an instance method,
    /// `Class.method` for a singleton (`def self.x`) method.
    Ruby,
    /// Markdown: the headings from the outermost in, `Usage > Install`.
    Headings,
}

/// How a body is delimited, which says what the skeleton replaces with the
/// placeholder and how the `agg` mask folds a symbol with a body into one
/// line. Python and the C family have their own code (`spans`) and are
/// `Braces` here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bodies {
    /// A `{ ... }` block, replaced whole; `agg` writes `head { /* summary */ }`.
    Braces,
    /// The statements between a head and its closing keyword (`def f(a)
    /// ... end`), replaced; a definition without that keyword (Ruby's
    /// endless `def f = x`) keeps its body. A placeholder that is a line
    /// comment (`own_line`) must end its line, so a body followed by
    /// code on its last line (`def f; x; end`) is kept too. `agg` writes
    /// `fold` with `{signature}` and `{summary}` filled in.
    Keyword {
        close: &'static str,
        own_line: bool,
        fold: &'static str,
    },
    /// Markdown sections: the text under a heading up to its first
    /// subsection is the body (subsections are symbols of their own);
    /// `fold` as above.
    Sections { fold: &'static str },
}

impl Bodies {
    /// The one-line `agg` form, when it is not the braces'.
    pub(super) fn fold(self) -> Option<&'static str> {
        match self {
            Bodies::Braces => None,
            Bodies::Keyword { fold, .. } | Bodies::Sections { fold } => Some(fold),
        }
    }
}

/// Everything the generic code needs to know about one language.
pub(super) struct Row {
    pub lang: Lang,
    /// Lowercase name: the query folder, the `; inherits:` name, the
    /// Markdown fence.
    pub name: &'static str,
    /// Lowercase file extensions, without the dot.
    pub extensions: &'static [&'static str],
    /// Whole file names without an extension (`Rakefile`).
    pub file_names: &'static [&'static str],
    /// Interpreters named on a `#!` line (`#!/usr/bin/env node`).
    pub shebangs: &'static [&'static str],
    pub grammar: fn() -> Language,
    /// The syntax node kinds that are comments (doc comments included).
    pub comments: &'static [&'static str],
    /// What the skeleton puts where a function body was.
    pub placeholder: &'static str,
    pub bodies: Bodies,
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
pub(super) const ROWS: [Row; 17] = [
    Row {
        lang: Lang::Python,
        name: "python",
        extensions: &["py", "pyi"],
        file_names: &[],
        shebangs: &["python", "python3", "python2"],
        grammar: || tree_sitter_python::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: "...",
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/python/symbols.scm"),
    },
    Row {
        lang: Lang::C,
        name: "c",
        extensions: &["c", "h"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_c::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: "{ ... }",
        bodies: Bodies::Braces,
        paths: PathStyle::CTags,
        symbols: include_str!("queries/c/symbols.scm"),
    },
    Row {
        lang: Lang::Cpp,
        name: "cpp",
        extensions: &["cc", "cpp", "cxx", "hpp", "hh", "hxx", "c++", "h++"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_cpp::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: "{ ... }",
        bodies: Bodies::Braces,
        paths: PathStyle::Colons,
        symbols: include_str!("queries/cpp/symbols.scm"),
    },
    Row {
        lang: Lang::Rust,
        name: "rust",
        extensions: &["rs"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_rust::LANGUAGE.into(),
        comments: LINE_BLOCK,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Colons,
        symbols: include_str!("queries/rust/symbols.scm"),
    },
    Row {
        lang: Lang::TypeScript,
        name: "typescript",
        extensions: &["ts", "mts", "cts"],
        file_names: &[],
        shebangs: &["ts-node", "tsx", "deno", "bun"],
        grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        comments: COMMENT,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/typescript/symbols.scm"),
    },
    Row {
        lang: Lang::Tsx,
        name: "tsx",
        extensions: &["tsx"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
        comments: COMMENT,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/tsx/symbols.scm"),
    },
    Row {
        lang: Lang::JavaScript,
        name: "javascript",
        extensions: &["js", "jsx", "mjs", "cjs"],
        file_names: &[],
        shebangs: &["node", "nodejs"],
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/javascript/symbols.scm"),
    },
    Row {
        lang: Lang::Go,
        name: "go",
        extensions: &["go"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_go::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/go/symbols.scm"),
    },
    Row {
        lang: Lang::Java,
        name: "java",
        extensions: &["java"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_java::LANGUAGE.into(),
        comments: LINE_BLOCK,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/java/symbols.scm"),
    },
    Row {
        lang: Lang::CSharp,
        name: "csharp",
        extensions: &["cs"],
        file_names: &[],
        shebangs: &[],
        grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
        comments: COMMENT,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/csharp/symbols.scm"),
    },
    Row {
        lang: Lang::Bash,
        name: "bash",
        extensions: &["sh", "bash"],
        file_names: &[],
        shebangs: &["sh", "bash"],
        grammar: || tree_sitter_bash::LANGUAGE.into(),
        comments: COMMENT,
        // The shell's no-op: `{ ... }` would run a command named `...`.
        placeholder: "{ :; }",
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/bash/symbols.scm"),
    },
    Row {
        lang: Lang::Php,
        name: "php",
        extensions: &["php"],
        file_names: &[],
        shebangs: &["php"],
        // PHP with its HTML around (`<?php ... ?>` inside a page).
        grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
        comments: COMMENT,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/php/symbols.scm"),
    },
    Row {
        lang: Lang::Kotlin,
        name: "kotlin",
        extensions: &["kt", "kts"],
        file_names: &[],
        shebangs: &["kotlin"],
        grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
        comments: LINE_BLOCK,
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/kotlin/symbols.scm"),
    },
    Row {
        lang: Lang::Swift,
        name: "swift",
        extensions: &["swift"],
        file_names: &[],
        shebangs: &["swift"],
        grammar: || tree_sitter_swift::LANGUAGE.into(),
        comments: &["comment", "multiline_comment"],
        placeholder: BRACES,
        bodies: Bodies::Braces,
        paths: PathStyle::Dot,
        symbols: include_str!("queries/swift/symbols.scm"),
    },
    Row {
        lang: Lang::Ruby,
        name: "ruby",
        extensions: &["rb", "rake", "gemspec", "ru"],
        file_names: &["Rakefile", "Gemfile", "Guardfile", "Vagrantfile"],
        shebangs: &["ruby"],
        grammar: || tree_sitter_ruby::LANGUAGE.into(),
        comments: COMMENT,
        // A comment where the statements were: `def f(a)\n  # ...\nend`.
        placeholder: "# ...",
        bodies: Bodies::Keyword {
            close: "end",
            own_line: true,
            fold: "{signature}; end  # {summary}",
        },
        paths: PathStyle::Ruby,
        symbols: include_str!("queries/ruby/symbols.scm"),
    },
    Row {
        lang: Lang::Lua,
        name: "lua",
        extensions: &["lua"],
        file_names: &[],
        shebangs: &["lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4"],
        grammar: || tree_sitter_lua::LANGUAGE.into(),
        comments: COMMENT,
        // A block comment, so `function f(a) return a end` keeps its `end`.
        placeholder: "--[[ ... ]]",
        bodies: Bodies::Keyword {
            close: "end",
            own_line: false,
            // A block comment: a table field's `,` may follow on the line.
            fold: "{signature} end --[[ {summary} ]]",
        },
        paths: PathStyle::Dot,
        symbols: include_str!("queries/lua/symbols.scm"),
    },
    Row {
        lang: Lang::Markdown,
        name: "markdown",
        extensions: &["md", "markdown", "mdown", "mkd"],
        file_names: &[],
        shebangs: &[],
        // The block grammar: headings, sections, code blocks (the inline
        // grammar is not needed for a heading tree).
        grammar: || tree_sitter_md::LANGUAGE.into(),
        comments: &[],
        // A section's own text goes; its heading and subsections stay.
        placeholder: "",
        bodies: Bodies::Sections {
            fold: "{signature} <!-- {summary} -->",
        },
        paths: PathStyle::Headings,
        symbols: include_str!("queries/markdown/symbols.scm"),
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

/// The row that names this whole file name (`Rakefile`).
pub(super) fn by_file_name(name: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.file_names.contains(&name))
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

/// Extensions of code the language table has no grammar for: shells
/// (`completion.zsh`), editors' plugins, components (`.vue`, `.svelte`),
/// grammars (`.y`) and other languages. Their files are source, not data.
const CODE_EXTENSIONS: &[&str] = &[
    "zsh", "fish", "ksh", "csh", "ps1", "psm1", "bat", "cmd", "vim", "el", "vue", "svelte",
    "astro", "pl", "pm", "r", "jl", "scala", "sc", "clj", "cljs", "ex", "exs", "erl", "hrl", "hs",
    "ml", "mli", "fs", "fsx", "dart", "zig", "nim", "groovy", "tcl", "awk", "m", "mm", "y", "l",
    "pyx", "cu", "sol", "v", "sv", "vhd", "asm", "s",
];

/// Whether `path` is code: a language of the table that is not prose, or
/// an extension of [`CODE_EXTENSIONS`].
pub fn is_code_path(path: &str) -> bool {
    if let Some(lang) = Lang::from_path(path) {
        return lang.is_code();
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && CODE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}
