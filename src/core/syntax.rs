//! Syntax: tree-sitter parsing of Python, C, C++, Rust, TypeScript (and
//! TSX), JavaScript, Go, Java, C#, Bash, PHP, Kotlin, Swift, Ruby and Lua
//! into a symbol tree with stable symbol paths, and the symbol-aware views
//! built on it (skeleton, outline, masked); Markdown's headings as a tree
//! of sections.
//!
//! A language is data: a row in `languages` (extensions, grammar, comment
//! kinds, body placeholder, path style) and `queries/<lang>/symbols.scm`.
//! The flow is: [`parse`] finds the definitions the language's symbol
//! query specifies (`@definition.<kind>` + `@name` captures): Python, C
//! and C++ by a walk over the syntax tree that yields the query's matches
//! without compiling it (`python_defs`, `c_defs`), the other languages by
//! running the query (`symbols`); the definitions are nested by byte range
//! and named with stable paths (a path a symbol had before is kept as
//! `Symbol::legacy`, so old masks still apply; `spelling` resolves what a
//! person types). C and C++ are first freed of what tree-sitter cannot
//! read (`preproc`, `branches`, `macros`, `initializers`), keeping every
//! byte offset; `defines` and `macros::project` read the project's own
//! `#define`s, gathered once per project by `sources::c_project` and
//! carried in [`CMacros`], whose key is in every cache key of a C/C++
//! parse. A language defined only by its row gets its spans from
//! `generic`; code beside a row only where a query cannot say it
//! (`kotlin_swift`, `sections`). While the tree is at hand, the
//! spans the views need (body, docstring, leading comment) are recorded per
//! symbol (`spans`), so [`skeleton`], [`outline`] and [`masked`] work on
//! the [`SymbolTree`] and the source alone, without parsing again.
//!
//! Parsing never fails and never panics: a file with syntax errors yields
//! the symbols tree-sitter can see, and all slicing of the source is
//! checked. Parsers are reused per thread; the queries, compiled once per
//! process, are only run by the tests that check the walks against them.

pub mod allocator;
mod branches;
mod c_defs;
mod c_lex;
pub mod costs;
mod defines;
mod errors;
mod generic;
mod initializers;
mod kotlin_swift;
mod lang;
mod languages;
mod licence;
mod literals;
mod macros;
mod mask;
mod outline;
mod pairs;
mod parse_slots;
mod parse_waste;
mod preproc;
mod python_defs;
mod sections;
mod skeleton;
mod spans;
mod spelling;
mod stored;
mod symbols;
mod text;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Serialize;

use crate::core::model::MaskState;

pub use defines::CDefines;
pub use lang::parse_deadline;
pub use languages::is_code_path;
pub use macros::{CMacroTable, CMacros};

/// A language with a grammar and a symbol query. Its data (extensions,
/// grammar, query, placeholder) is its row in `languages::ROWS`, in this
/// order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Python,
    C,
    Cpp,
    Rust,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Java,
    CSharp,
    Bash,
    Php,
    Kotlin,
    Swift,
    Ruby,
    Lua,
    /// Markdown: its sections (a heading and the text up to the next
    /// heading of the same or a higher level) are the symbols.
    Markdown,
}

impl Lang {
    /// The language's row (see `languages`).
    fn row(self) -> &'static languages::Row {
        &languages::ROWS[self as usize]
    }

    /// The lowercase name (`python`, `cpp`, `typescript`), also the usual
    /// Markdown fence.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Every language with a grammar.
    pub fn all() -> impl Iterator<Item = Lang> {
        languages::ROWS.iter().map(|r| r.lang)
    }

    /// The language of a path by its extension (`.py .pyi`, `.c .h`,
    /// `.cc .cpp .hpp ...`, `.rs`, `.ts .tsx`, `.js .jsx .mjs .cjs`, `.go`,
    /// `.java`, `.cs`, `.sh .bash`, `.php`, `.kt .kts`, `.swift`,
    /// `.rb .rake .gemspec`, `.lua`, `.md .markdown`) or its whole name
    /// (`Rakefile`, `Gemfile`).
    pub fn from_path(path: &str) -> Option<Lang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if let Some(row) = languages::by_file_name(name) {
            return Some(row.lang);
        }
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        languages::by_extension(&ext).map(|r| r.lang)
    }

    /// Whether the language is code (Markdown is prose): the import graph,
    /// the focus build's skeletons and code summaries are for code only.
    pub fn is_code(self) -> bool {
        self != Lang::Markdown
    }

    /// Whether the C pre-pass (macros, conditionals) applies.
    pub(crate) fn is_c_family(self) -> bool {
        matches!(self, Lang::C | Lang::Cpp)
    }

    /// Like [`Lang::from_path`], but a `.h` file whose text uses C++
    /// (`namespace`, `template <`, `class X {`, access specifiers) is C++,
    /// and a file without an extension is known by its `#!` line.
    pub fn detect(path: &str, source: &str) -> Option<Lang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if !name.contains('.') {
            let named = languages::by_file_name(name);
            return named
                .or_else(|| languages::by_shebang(source))
                .map(|r| r.lang);
        }
        let lang = Lang::from_path(path)?;
        let is_h = path.to_ascii_lowercase().ends_with(".h");
        if lang == Lang::C && is_h && lang::looks_like_cpp(source) {
            return Some(Lang::Cpp);
        }
        Some(lang)
    }
}

/// What kind of thing a symbol is.
///
/// A C++ template is reported with the kind of what it defines (a
/// `template <class T> class Box` is a `Class` whose signature starts with
/// `template <class T>`); `Template` is kept for callers that match on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    Function,
    Method,
    Class,
    Struct,
    Union,
    Enum,
    Typedef,
    Namespace,
    Template,
    Constant,
    /// A Java/TypeScript/Go interface.
    Interface,
    /// A Rust trait.
    Trait,
    /// A Rust `impl` block (named `impl Type` or `impl Trait for Type`).
    Impl,
    /// A Rust `mod`.
    Module,
    /// A type alias (`type X = ...`) or a Go named type.
    Type,
    /// A Rust `macro_rules!`.
    Macro,
    /// A Markdown section: a heading and the text under it.
    Section,
}

impl SymbolKind {
    /// The lowercase name used in outlines and JSON (`function`, `class`).
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Class => "class",
            SymbolKind::Struct => "struct",
            SymbolKind::Union => "union",
            SymbolKind::Enum => "enum",
            SymbolKind::Typedef => "typedef",
            SymbolKind::Namespace => "namespace",
            SymbolKind::Template => "template",
            SymbolKind::Constant => "constant",
            SymbolKind::Interface => "interface",
            SymbolKind::Trait => "trait",
            SymbolKind::Impl => "impl",
            SymbolKind::Module => "module",
            SymbolKind::Type => "type",
            SymbolKind::Macro => "macro",
            SymbolKind::Section => "section",
        }
    }

    /// The kind named by a query capture suffix (`definition.<name>`).
    pub fn from_name(name: &str) -> Option<SymbolKind> {
        const ALL: [SymbolKind; 17] = [
            SymbolKind::Function,
            SymbolKind::Method,
            SymbolKind::Class,
            SymbolKind::Struct,
            SymbolKind::Union,
            SymbolKind::Enum,
            SymbolKind::Typedef,
            SymbolKind::Namespace,
            SymbolKind::Template,
            SymbolKind::Constant,
            SymbolKind::Interface,
            SymbolKind::Trait,
            SymbolKind::Impl,
            SymbolKind::Module,
            SymbolKind::Type,
            SymbolKind::Macro,
            SymbolKind::Section,
        ];
        ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Functions and methods: the symbols whose body the views elide.
    pub fn is_function(self) -> bool {
        matches!(self, SymbolKind::Function | SymbolKind::Method)
    }
}

/// One symbol of a file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Symbol {
    /// Stable path: `Class.method`, `ns::Class::method`, `f#2`; in C and
    /// C++ the definition of a function declared earlier in the file is
    /// `f#def` (its declaration's path plus `#def`).
    pub path: String,
    pub name: String,
    pub kind: SymbolKind,
    /// 1-based, inclusive.
    pub start_line: usize,
    /// 1-based, inclusive.
    pub end_line: usize,
    /// The declaration head on one line (whitespace folded), without body.
    pub signature: String,
    /// Byte range of the whole definition (decorators included).
    #[serde(skip)]
    pub range: Range<usize>,
    pub children: Vec<Symbol>,
    /// Where the views cut: body, docstring, leading comment.
    #[serde(skip)]
    spans: spans::Spans,
    /// The path this symbol had before paths followed what people write
    /// (`impl Point::dist` of a Rust method, now `Point::dist`), when it
    /// differs: a mask written with it still applies ([`Symbol::own_entry`]).
    #[serde(skip)]
    pub legacy: Option<String>,
}

impl Symbol {
    /// Depth-first (pre-order) iteration over this symbol and all below it.
    pub fn iter(&self) -> SymbolIter<'_> {
        SymbolIter { stack: vec![self] }
    }

    /// This symbol's own entry in `mask`: under its path, else under the
    /// path it had before ([`Symbol::legacy`]).
    pub fn own_entry<T: Copy>(&self, mask: &std::collections::BTreeMap<String, T>) -> Option<T> {
        mask.get(&self.path)
            .or_else(|| self.legacy.as_ref().and_then(|old| mask.get(old)))
            .copied()
    }

    /// The name a list of symbols shows (the symbols pane): the name with
    /// the `#n` of a duplicate (`noop#2`, the second overload) or the
    /// `#def` of a definition paired with its declaration; at the top
    /// level, where no parent says it, the scope the path gives the name
    /// too (a Go method `boolValue.Set`, a C++ `Table::push` defined out
    /// of line).
    pub fn display_name(&self, top_level: bool) -> String {
        let (base, suffix) = split_numbering(&self.path);
        let scoped = top_level
            && base.len() > self.name.len()
            && (base.ends_with(&format!(".{}", self.name))
                || base.ends_with(&format!("::{}", self.name)));
        let name = if scoped { base } else { &self.name };
        format!("{name}{suffix}")
    }
}

/// A path and its numbering: the `#n` of a duplicate and the `#def` of a
/// definition paired with its declaration, read from the end (a Ruby
/// method's path has a `#` of its own, `Class#m#2`).
pub fn split_numbering(path: &str) -> (&str, &str) {
    let suffix = |s: &str| s == "def" || (!s.is_empty() && s.chars().all(|c| c.is_ascii_digit()));
    let mut rest = path;
    while let Some((head, tail)) = rest.rsplit_once('#')
        && suffix(tail)
    {
        rest = head;
    }
    (rest, &path[rest.len()..])
}

/// The symbols of one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SymbolTree {
    pub lang: Lang,
    pub symbols: Vec<Symbol>,
    /// First line of the module docstring / leading file comment (a
    /// licence banner is not one: see `licence`).
    pub module_doc: Option<String>,
    /// The licence blocks among the comments the file opens with (each
    /// with the blank lines after it), which the skeleton and the summary
    /// leave out.
    #[serde(skip)]
    pub licence: Vec<Range<usize>>,
    /// The parse hit syntax errors (symbols are still extracted).
    pub has_errors: bool,
    /// Python data tables outside function bodies, which the views show as
    /// one-line stand-ins (`literals`).
    #[serde(skip)]
    large_literals: Vec<literals::LargeLiteral>,
    /// 1-based line of the first syntax error, when `has_errors`.
    pub error_line: Option<usize>,
    /// The parse ran past its deadline (`lang::parse_deadline`) and was
    /// stopped: no symbols, and the views show the text as it is.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parse_stopped: bool,
}

impl SymbolTree {
    /// About the bytes this tree holds in memory (its symbols, their
    /// strings and children, with an allocation's overhead each), for a
    /// cache that counts what it keeps (`core::sources`).
    pub fn weight(&self) -> usize {
        /// What the allocator adds to each heap block, about.
        const BLOCK: usize = 16;
        fn text(s: &str) -> usize {
            if s.is_empty() { 0 } else { s.len() + BLOCK }
        }
        fn one(s: &Symbol) -> usize {
            let own = std::mem::size_of::<Symbol>()
                + text(&s.path)
                + text(&s.name)
                + text(&s.signature)
                + s.legacy.as_deref().map_or(0, text);
            own + s.children.iter().map(one).sum::<usize>() + BLOCK
        }
        std::mem::size_of::<Self>()
            + self.symbols.iter().map(one).sum::<usize>()
            + self.module_doc.as_deref().map_or(0, text)
            + self.licence.len() * std::mem::size_of::<Range<usize>>()
            + self.large_literals.len() * std::mem::size_of::<literals::LargeLiteral>()
    }

    /// The symbol with exactly this path.
    pub fn find(&self, path: &str) -> Option<&Symbol> {
        self.iter().find(|s| s.path == path)
    }

    /// The symbol a person means by `typed` (`core::syntax::spelling`):
    /// its path, the path it had before, or another way to write it.
    pub fn resolve(&self, typed: &str) -> Option<&Symbol> {
        spelling::resolve(self, typed)
    }

    /// Every symbol, depth-first in source order (a parent before its
    /// children).
    pub fn iter(&self) -> SymbolIter<'_> {
        SymbolIter {
            stack: self.symbols.iter().rev().collect(),
        }
    }

    /// The full source text of the symbol at `path` (decorators and
    /// template heads included), or `None` if there is no such symbol or
    /// `source` is not the text this tree was parsed from.
    pub fn definition<'a>(&self, source: &'a str, path: &str) -> Option<&'a str> {
        let symbol = self.find(path)?;
        source.get(symbol.range.clone())
    }
}

impl SymbolTree {
    /// `source` (the text this tree was parsed from) without its licence
    /// blocks (see `licence`).
    pub fn without_licence<'a>(&self, source: &'a str) -> std::borrow::Cow<'a, str> {
        if self.licence.is_empty() {
            return std::borrow::Cow::Borrowed(source);
        }
        let mut out = String::with_capacity(source.len());
        let mut at = 0;
        for cut in &self.licence {
            out.push_str(source.get(at..cut.start).unwrap_or(""));
            at = cut.end.max(at);
        }
        out.push_str(source.get(at..).unwrap_or(""));
        std::borrow::Cow::Owned(out)
    }
}

/// Depth-first iterator over symbols; see [`SymbolTree::iter`].
pub struct SymbolIter<'a> {
    stack: Vec<&'a Symbol>,
}

impl<'a> Iterator for SymbolIter<'a> {
    type Item = &'a Symbol;

    fn next(&mut self) -> Option<&'a Symbol> {
        let symbol = self.stack.pop()?;
        self.stack.extend(symbol.children.iter().rev());
        Some(symbol)
    }
}

/// Parse `source` and extract its symbol tree, with the built-in C/C++
/// macro list alone. Never fails: a file with syntax errors yields the
/// symbols it can.
pub fn parse(lang: Lang, source: &str) -> SymbolTree {
    parse_with(lang, source, &CMacros::default())
}

/// [`parse`] with the user's extra C/C++ macros (`[syntax] c_macros`).
pub fn parse_with(lang: Lang, source: &str, macros: &CMacros) -> SymbolTree {
    let mut tree = symbols::extract(lang, source, macros);
    literals::retitle(&mut tree.symbols, &tree.large_literals, source);
    tree
}

/// `tree` as bytes for the disk cache (`stored`); `None` for a tree not
/// worth keeping (a parse stopped at its deadline, nesting past a bound).
/// The bytes are read back only by this build: the cache key must name it.
pub fn tree_bytes(tree: &SymbolTree) -> Option<Vec<u8>> {
    stored::encode(tree)
}

/// The tree [`tree_bytes`] wrote, as a tree of `lang`; `None` for bytes
/// that are not one whole tree.
pub fn tree_from_bytes(lang: Lang, bytes: &[u8]) -> Option<SymbolTree> {
    stored::decode(lang, bytes)
}

/// The text tree-sitter reads for `source`: the C/C++ pre-pass's output
/// (macros, and when they help conditionals, blanked; see `preproc`),
/// `source` itself for Python. Same length and same line breaks as
/// `source`.
pub fn preprocessed(lang: Lang, source: &str, macros: &CMacros) -> String {
    if !lang.is_c_family() && lang != Lang::Python {
        return source.to_string();
    }
    macros.load();
    let _slot = parse_slots::take();
    let mut budget = lang::Budget::for_len(source.len());
    match preproc::parse(lang, source, macros, &mut budget) {
        Some((_, text)) => text.into_owned(),
        None => preproc::blank_ignored(lang, source, macros, &mut budget).into_owned(),
    }
}

/// The code with every function/method body replaced by `...` (Python),
/// `{ ... }` (C/C++), the row's placeholder (`# ...` before Ruby's `end`);
/// docstrings and leading comments kept. A Markdown file keeps its
/// headings only. Python data
/// tables outside functions become one-line stand-ins
/// (`_EMOJI = {...}  # dict, 3,608 entries`).
pub fn skeleton(tree: &SymbolTree, source: &str) -> String {
    skeleton::render(tree, source)
}

/// One line per symbol, indented by nesting: kind, name, signature, lines.
pub fn outline(tree: &SymbolTree) -> String {
    outline::render(tree)
}

/// The mask rule both the masked view and the symbols pane follow.
pub use mask::state_of as mask_state_of;

/// Each symbol rendered by its mask state; unnamed symbols take their
/// parent's state, top-level ones `default`.
pub fn masked(
    tree: &SymbolTree,
    source: &str,
    default: MaskState,
    mask: &BTreeMap<String, MaskState>,
) -> String {
    mask::render(tree, source, default, mask)
}
