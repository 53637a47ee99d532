//! The project's own macros: what each `#define` of a project (and each
//! `-D` of its `compile_commands.json`) stands for in a declaration, read
//! once per project into a [`Table`], and how an invocation is written
//! over in the text tree-sitter reads.
//!
//! A definition means one of three things:
//! - nothing a declaration needs (`#define EIGEN_DEVICE_FUNC`, `#define
//!   BROTLI_MODEL(M) __attribute__((model(M)))`, `__declspec(...)`,
//!   `[[...]]`, calling conventions, other such macros of the project):
//!   the name and its arguments are blanked;
//! - tokens to write (`#define SPDLOG_INLINE inline`, `#define
//!   PYBIND11_NAMESPACE_BEGIN(name) namespace name {`): the expansion, one
//!   level, parameters substituted, is written over the invocation when
//!   it fits in it, every name (not a keyword) of it an argument written
//!   where it stands in the file (a brace initializer shortened to `{}`
//!   when nothing else fits), so lines, columns and names stay those of
//!   the file as written; an invocation it does not fit in is left to the
//!   built-in list and the shapes of `macros`;
//! - a value (an expression, a number outside brackets and braces):
//!   left to the built-in list and the shapes, as if unknown.
//!
//! A definition the table cannot read (token pasting, an ALL_CAPS word it
//! does not know, a nested invocation of another macro with a meaning) is
//! not in the table: the built-in list and the shapes decide, as for a
//! macro the project does not define. Whether readable or not, the first
//! definition of a function-like macro also says (read from its body, and
//! through the macros it invokes) whether it expands to whole
//! declarations (`EIGEN_DENSE_PUBLIC_INTERFACE(X)`: an invocation alone
//! on its lines is blanked), to a type (`EIGEN_CWISE_BINARY_RETURN_TYPE(...)`,
//! `STACK_OF(X)`: before a declarator it reads as `int`, the signature
//! keeping the file's text) or to one variable named by pasting an
//! argument (`static _EIGEN_DECLARE_CONST_FAST_Packet4f(ZERO, 0);` declares
//! `ZERO`).
//!
//! Where a meaning does not fit: an object-like macro that names another
//! type (`#define BYTE xxh_u8`) is kept as a type's name where a type may
//! stand; one that expands to a `struct`/`union`/`enum` with its body
//! (`LIST_HEAD(name, type)`) reads as `int` before a declarator; a
//! generator after specifier macros on its line goes with them. A macro
//! defined as nothing that stands where a function is declared (`static
//! void sqlite3VtabClear(...);`, the macro from another branch) is the
//! function's name and is kept (`macros::declared_function`).

use std::fmt::Write as _;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use sha2::{Digest, Sha256};

use super::super::c_lex::{comment_end, line_end, literal_end};
use super::super::defines::{self, CDefines, Define};
use super::{Rule, Scan, builtin, is_caps, is_ident};

/// How deep definitions that use other definitions are followed.
const MAX_DEPTH: usize = 4;

/// Words that are attributes with an argument list (dropped with it).
const ATTRIBUTE_WORDS: [&str; 11] = [
    "__attribute__",
    "__attribute",
    "__declspec",
    "_Pragma",
    "__pragma",
    "alignas",
    "_Alignas",
    "__asm__",
    "__asm",
    "__nodiscard__",
    "__alignof__",
];

/// Words that change nothing a declaration's shape needs: calling
/// conventions, CUDA's qualifiers, extensions.
const DROPPED_WORDS: [&str; 15] = [
    "restrict",
    "__cdecl",
    "__stdcall",
    "__fastcall",
    "__thiscall",
    "__vectorcall",
    "__clrcall",
    "_cdecl",
    "_stdcall",
    "__host__",
    "__device__",
    "__global__",
    "__extension__",
    "__restrict",
    "__restrict__",
];

/// Spellings of `inline` tree-sitter does not know.
const INLINE_WORDS: [&str; 4] = ["__inline", "__inline__", "__forceinline", "__forceinline__"];

/// One piece of an expansion to write.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Piece {
    Text(String),
    /// The argument at this index (the variadic one takes the rest).
    Param(usize),
}

/// What a macro the project defines means in a declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Meaning {
    /// Nothing: the name (and the arguments of a function-like macro)
    /// blanked.
    Nothing { args: bool },
    /// This expansion written over the invocation (`params`: the number
    /// of parameters of a function-like macro, and whether the last one
    /// is variadic).
    Write {
        params: Option<(usize, bool)>,
        pieces: Vec<Piece>,
    },
    /// A value: as if the project did not define it.
    Value,
    /// A function-like macro that pastes its argument into a name
    /// (`FN(X)`, `CAT(X, suffix)`): in a declarator (`FN(Store)(`) or
    /// after `struct`, the argument is the name, as ctags reads it.
    Paste,
}

/// A function-like macro's name, first definition and its body's tokens.
type FunctionLike<'a> = (&'a str, &'a Define, Vec<(usize, BodyTok<'a>)>);

/// The definitions of each name, in order (borrowed from the scan).
type Raw<'a> = HashMap<&'a str, Vec<&'a Define>>;

/// What each name read so far means (`None`: unreadable, or being read).
type Memo<'a> = HashMap<&'a str, Option<Meaning>>;

/// The project's macros by name, and a digest of them for cache keys.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Table {
    map: HashMap<String, Meaning>,
    /// Function-like macros whose first definition expands to whole
    /// declarations (a `;` or a `}` outside any group: `EIGEN_DENSE_PUBLIC_INTERFACE(X)`,
    /// `EIGEN_CHOLMOD_SPECIALIZE0(int, start)`), readable or not: an
    /// invocation alone on its lines generates code no symbol can be
    /// named from.
    declares: HashSet<String>,
    /// Function-like macros whose first definition expands to a type
    /// (`EIGEN_CWISE_BINARY_RETURN_TYPE(L, R, OP)` is `CwiseBinaryOp<...>`,
    /// pasted names and nested macros included): an invocation before a
    /// declarator stands for a type.
    types: HashSet<String>,
    /// Function-like macros that declare a variable named by pasting an
    /// argument (`#define DECLARE_CONST(NAME, X) Packet4f p4f_##NAME = {X}`),
    /// with that argument's index: `static DECLARE_CONST(ZERO, 0);` reads
    /// as a variable named `ZERO`.
    pasted_variables: HashMap<String, usize>,
    key: String,
}

impl Table {
    /// The table of the definitions of `groups`, in order (of a name
    /// defined more than once, the first definition the table can read
    /// wins).
    fn build_from(groups: &[&[Define]]) -> Table {
        let count = groups.iter().map(|g| g.len()).sum();
        let mut raw: Raw = HashMap::with_capacity_and_hasher(count, Default::default());
        for define in groups.iter().copied().flatten() {
            raw.entry(define.name.as_str()).or_default().push(define);
        }
        prefer_fitting_branches(groups, &mut raw);
        let mut memo: Memo = HashMap::with_capacity_and_hasher(raw.len(), Default::default());
        let mut names: Vec<&str> = raw.keys().copied().collect();
        names.sort_unstable();
        for name in &names {
            classify(name, &raw, &mut memo, 0);
        }
        let mut key = String::new();
        let mut hasher = Sha256::new();
        // A body that invokes such a macro declares too (`#define
        // EIGEN_SPARSE_PUBLIC_INTERFACE(D) EIGEN_GENERIC_PUBLIC_INTERFACE(D)`).
        // The first definitions of function-like macros, tokenized once.
        let function_like: Vec<FunctionLike> = names
            .iter()
            .filter_map(|name| {
                let define: &Define = raw.get(name)?.first()?;
                define.params.as_ref()?;
                Some((*name, define, tokens(&define.body)))
            })
            .collect();
        let mut declares: HashSet<&str> = HashSet::default();
        for _ in 0..=MAX_DEPTH {
            let before = declares.len();
            for (name, _, toks) in &function_like {
                if !declares.contains(*name) && declarations(toks, &declares) {
                    declares.insert(name);
                }
            }
            if declares.len() == before {
                break;
            }
        }
        let mut types: HashSet<&str> = HashSet::default();
        for _ in 0..=MAX_DEPTH {
            let before = types.len();
            for (name, _, toks) in &function_like {
                if !types.contains(*name) && type_body(toks, &types, &raw) {
                    types.insert(name);
                }
            }
            if types.len() == before {
                break;
            }
        }
        let mut pasted_variables = HashMap::default();
        for (name, define, toks) in &function_like {
            if let Some(params) = &define.params
                && let Some(index) = pasted_variable(toks, params)
            {
                hasher.update(format!("variable {name} {index}\n").as_bytes());
                pasted_variables.insert(name.to_string(), index);
            }
        }
        for name in &names {
            if declares.contains(*name) {
                hasher.update(format!("declares {name}\n").as_bytes());
            }
            if types.contains(*name) {
                hasher.update(format!("type {name}\n").as_bytes());
            }
        }
        let mut map = HashMap::with_capacity_and_hasher(memo.len(), Default::default());
        for name in names {
            if let Some(Some(meaning)) = memo.remove(name) {
                let _ = writeln!(key, "{name}={meaning:?}");
                hasher.update(key.as_bytes());
                key.clear();
                map.insert(name.to_string(), meaning);
            }
        }
        let digest = hasher.finalize();
        let key = if map.is_empty()
            && declares.is_empty()
            && types.is_empty()
            && pasted_variables.is_empty()
        {
            String::new()
        } else {
            digest.iter().fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
        };
        let owned = |set: HashSet<&str>| set.into_iter().map(str::to_string).collect();
        Table {
            map,
            declares: owned(declares),
            types: owned(types),
            pasted_variables,
            key,
        }
    }

    /// The table of the `#define`s of `texts`, in order, after `flags`
    /// (`NAME`, `NAME=VALUE`, `NAME(a)=VALUE`, as `-D` takes them).
    #[cfg(test)]
    pub(super) fn from_texts<'a>(
        flags: &[String],
        texts: impl IntoIterator<Item = &'a str>,
    ) -> Table {
        use rayon::prelude::*;
        let texts: Vec<&str> = texts.into_iter().collect();
        // Each text read on its own (in parallel), in order.
        let groups: Vec<CDefines> = texts.par_iter().map(|t| CDefines::scan(t)).collect();
        Table::from_defines(flags, &groups.iter().collect::<Vec<_>>())
    }

    /// The table of the definitions of `groups` (each file's, in order),
    /// after `flags` (as [`Table::from_texts`] takes them).
    pub(super) fn from_defines(flags: &[String], groups: &[&CDefines]) -> Table {
        let flags: Vec<Define> = flags.iter().filter_map(|f| flag(f)).collect();
        let mut all: Vec<&[Define]> = Vec::with_capacity(groups.len() + 1);
        all.push(&flags);
        all.extend(groups.iter().map(|g| g.0.as_slice()));
        Table::build_from(&all)
    }

    pub(super) fn get(&self, name: &str) -> Option<&Meaning> {
        self.map.get(name)
    }

    /// The index of the argument that names the variable `name` declares
    /// (see `pasted_variables`).
    pub(super) fn pasted_variable(&self, name: &str) -> Option<usize> {
        self.pasted_variables.get(name).copied()
    }

    /// Whether `name` is a function-like macro that expands to a type.
    pub(super) fn is_type(&self, name: &str) -> bool {
        self.types.contains(name)
    }

    /// Whether `name` is a function-like macro that expands to whole
    /// declarations.
    pub(super) fn declares(&self, name: &str) -> bool {
        self.declares.contains(name)
    }

    /// A digest of the table (empty for an empty one).
    pub(super) fn key(&self) -> &str {
        &self.key
    }

    pub(super) fn len(&self) -> usize {
        self.map.len()
    }
}

/// Framing of a kept table ([`Table::encode`]).
mod kept {
    pub(super) fn put_len(out: &mut Vec<u8>, n: usize) {
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }

    pub(super) fn put_str(out: &mut Vec<u8>, s: &str) {
        put_len(out, s.len());
        out.extend_from_slice(s.as_bytes());
    }

    pub(super) fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(head)
    }

    pub(super) fn byte(bytes: &mut &[u8]) -> Option<u8> {
        take(bytes, 1).map(|b| b[0])
    }

    pub(super) fn len(bytes: &mut &[u8]) -> Option<usize> {
        usize::try_from(u32::from_le_bytes(take(bytes, 4)?.try_into().ok()?)).ok()
    }

    pub(super) fn string(bytes: &mut &[u8]) -> Option<String> {
        let n = len(bytes)?;
        std::str::from_utf8(take(bytes, n)?)
            .ok()
            .map(str::to_string)
    }

    /// A count of items of at least `min` bytes each, no more than the
    /// bytes left hold.
    pub(super) fn count(bytes: &mut &[u8], min: usize) -> Option<usize> {
        let n = len(bytes)?;
        (n <= bytes.len() / min.max(1)).then_some(n)
    }
}

impl Table {
    /// The table as bytes [`Table::decode`] reads back.
    pub(super) fn encode(&self) -> Vec<u8> {
        use kept::{put_len, put_str};
        let mut out = Vec::new();
        put_str(&mut out, &self.key);
        put_len(&mut out, self.map.len());
        for (name, meaning) in &self.map {
            put_str(&mut out, name);
            match meaning {
                Meaning::Nothing { args } => out.extend_from_slice(&[0, u8::from(*args)]),
                Meaning::Write { params, pieces } => {
                    out.push(1);
                    match params {
                        None => out.push(0),
                        Some((n, variadic)) => {
                            out.push(1 + u8::from(*variadic));
                            put_len(&mut out, *n);
                        }
                    }
                    put_len(&mut out, pieces.len());
                    for piece in pieces {
                        match piece {
                            Piece::Text(text) => {
                                out.push(0);
                                put_str(&mut out, text);
                            }
                            Piece::Param(i) => {
                                out.push(1);
                                put_len(&mut out, *i);
                            }
                        }
                    }
                }
                Meaning::Value => out.push(2),
                Meaning::Paste => out.push(3),
            }
        }
        for set in [&self.declares, &self.types] {
            put_len(&mut out, set.len());
            for name in set {
                put_str(&mut out, name);
            }
        }
        put_len(&mut out, self.pasted_variables.len());
        for (name, index) in &self.pasted_variables {
            put_str(&mut out, name);
            put_len(&mut out, *index);
        }
        out
    }

    /// What [`Table::encode`] wrote; `None` for bytes it did not write.
    pub(super) fn decode(mut bytes: &[u8]) -> Option<Table> {
        use kept::{byte, count, len, string};
        let b = &mut bytes;
        let key = string(b)?;
        let n = count(b, 5)?;
        let mut map = HashMap::with_capacity_and_hasher(n, Default::default());
        for _ in 0..n {
            let name = string(b)?;
            let meaning = match byte(b)? {
                0 => Meaning::Nothing {
                    args: match byte(b)? {
                        0 => false,
                        1 => true,
                        _ => return None,
                    },
                },
                1 => {
                    let params = match byte(b)? {
                        0 => None,
                        v @ (1 | 2) => Some((len(b)?, v == 2)),
                        _ => return None,
                    };
                    let n = count(b, 5)?;
                    let mut pieces = Vec::with_capacity(n);
                    for _ in 0..n {
                        pieces.push(match byte(b)? {
                            0 => Piece::Text(string(b)?),
                            1 => Piece::Param(len(b)?),
                            _ => return None,
                        });
                    }
                    Meaning::Write { params, pieces }
                }
                2 => Meaning::Value,
                3 => Meaning::Paste,
                _ => return None,
            };
            map.insert(name, meaning);
        }
        let mut sets = [HashSet::default(), HashSet::default()];
        for set in &mut sets {
            let n = count(b, 4)?;
            for _ in 0..n {
                set.insert(string(b)?);
            }
        }
        let n = count(b, 8)?;
        let mut pasted_variables = HashMap::default();
        for _ in 0..n {
            pasted_variables.insert(string(b)?, len(b)?);
        }
        let [declares, types] = sets;
        b.is_empty().then_some(Table {
            map,
            declares,
            types,
            pasted_variables,
            key,
        })
    }
}

/// Of a conditional whose first branch defines a word the table cannot
/// write over its name (`#define CATCH_TRY if ((true))`), the first
/// later branch whose words all fit (`#define CATCH_TRY try`) is read
/// for every name it defines, ahead of the other branches, so that
/// macros meant to go together come from one configuration
/// (`CATCH_TRY{…} CATCH_CATCH_ALL{`, never `try` with `if ((false))`).
fn prefer_fitting_branches<'a>(groups: &[&'a [Define]], raw: &mut Raw<'a>) {
    // Read with a scratch memo: the order is not settled yet.
    let mut memo: Memo = HashMap::default();
    let mut moves: Vec<(usize, &'a Define)> = Vec::new();
    for (file, defines) in groups.iter().enumerate() {
        // The definitions of each conditional with more than one branch
        // that defines something, in order.
        let mut by_group: HashMap<u32, Vec<&Define>> = HashMap::default();
        for define in defines.iter().filter(|d| d.branch.group != 0) {
            by_group
                .entry(define.branch.group)
                .or_default()
                .push(define);
        }
        for members in by_group.values() {
            let first = members[0].branch.index;
            if members.iter().all(|d| d.branch.index == first) {
                continue;
            }
            let mut fits = |index: u32| {
                members
                    .iter()
                    .filter(|d| d.branch.index == index && d.params.is_none())
                    .all(|d| match meaning_of(d, raw, &mut memo, 0) {
                        Some(Meaning::Write { pieces, .. }) => fits_over(&d.name, &pieces),
                        _ => true,
                    })
            };
            if fits(first) {
                continue;
            }
            let mut later: Vec<u32> = members.iter().map(|d| d.branch.index).collect();
            later.dedup();
            let Some(chosen) = later.into_iter().skip(1).find(|&i| fits(i)) else {
                continue;
            };
            moves.extend(
                members
                    .iter()
                    .filter(|d| d.branch.index == chosen)
                    .map(|d| (file, *d)),
            );
        }
    }
    // Each chosen definition goes before the first of its name in its
    // conditional.
    for (file, define) in moves {
        let Some(list) = raw.get_mut(define.name.as_str()) else {
            continue;
        };
        let range = groups[file].as_ptr_range();
        let same_group = |d: &&Define| {
            range.contains(&std::ptr::from_ref(*d)) && d.branch.group == define.branch.group
        };
        let first = list.iter().position(same_group);
        let at = list.iter().position(|d| std::ptr::eq(*d, define));
        if let (Some(first), Some(at)) = (first, at)
            && first < at
        {
            let moved = list.remove(at);
            list.insert(first, moved);
        }
    }
}

/// Whether an object-like macro's expansion `pieces` can be written over
/// its `name` alone (no name to write, short enough; a brace initializer
/// shortened as [`write`] does).
fn fits_over(name: &str, pieces: &[Piece]) -> bool {
    let mut items = Vec::with_capacity(pieces.len());
    for piece in pieces {
        match piece {
            Piece::Text(text) => items.push(Item {
                text: text.as_str().into(),
                origin: None,
            }),
            Piece::Param(_) => return false,
        }
    }
    let short = shortened(&items);
    place(name.as_bytes(), 0, name.len(), &short, false).is_some()
}

/// A `-D` flag as a definition (`NAME` alone is `NAME 1`).
fn flag(text: &str) -> Option<Define> {
    let (head, body) = text.split_once('=').unwrap_or((text, "1"));
    let line = format!("#define {head} {body}\n");
    defines::scan(&line).into_iter().next()
}

/// A token of a macro body.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BodyTok<'a> {
    Ident(&'a str),
    Number(&'a str),
    Str(&'a str),
    Punct(&'a str),
}

impl<'a> BodyTok<'a> {
    fn text(self) -> &'a str {
        match self {
            BodyTok::Ident(t) | BodyTok::Number(t) | BodyTok::Str(t) | BodyTok::Punct(t) => t,
        }
    }
}

/// The tokens of `text` with their offsets (comments skipped).
fn tokens(text: &str) -> Vec<(usize, BodyTok<'_>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let tok = match b {
            b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\\' => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = line_end(bytes, i);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = comment_end(bytes, i);
                continue;
            }
            b'"' | b'\'' => {
                i = literal_end(bytes, i).max(i + 1);
                BodyTok::Str(text.get(start..i).unwrap_or(""))
            }
            b'0'..=b'9' => {
                while i < bytes.len() && (is_ident(bytes[i]) || bytes[i] == b'.') {
                    i += 1;
                }
                BodyTok::Number(text.get(start..i).unwrap_or(""))
            }
            _ if is_ident(b) || b >= 0x80 => {
                while i < bytes.len() && (is_ident(bytes[i]) || bytes[i] >= 0x80) {
                    i += 1;
                }
                BodyTok::Ident(text.get(start..i).unwrap_or(""))
            }
            _ => {
                let two = text.get(i..i + 2).unwrap_or("");
                let three = text.get(i..i + 3).unwrap_or("");
                i += if three == "..." {
                    3
                } else if matches!(two, "::" | "##" | "->") {
                    2
                } else {
                    1
                };
                BodyTok::Punct(text.get(start..i).unwrap_or(""))
            }
        };
        out.push((start, tok));
    }
    out
}

/// The index after the group opening at `tokens[open]` (`(`, `[` or
/// `{`), or `None` if it does not close.
fn group_end(tokens: &[(usize, BodyTok)], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, (_, tok)) in tokens.iter().enumerate().skip(open) {
        match tok {
            BodyTok::Punct("(" | "[" | "{") => depth += 1,
            BodyTok::Punct(")" | "]" | "}") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Punctuation a declaration head may hold; anything else outside braces
/// makes the body a value.
fn declarative(p: &str) -> bool {
    matches!(
        p,
        "{" | "}"
            | "("
            | ")"
            | "["
            | "]"
            | ";"
            | ","
            | ":"
            | "::"
            | "*"
            | "&"
            | "<"
            | ">"
            | "="
            | "~"
            | "..."
    )
}

/// What `name` means (memoised in `memo`; `None`: not readable, left to
/// the list and the shapes).
fn classify<'a>(
    name: &'a str,
    raw: &Raw<'a>,
    memo: &mut Memo<'a>,
    depth: usize,
) -> Option<Meaning> {
    if let Some(known) = memo.get(name) {
        return known.clone();
    }
    let defines = raw.get(name)?;
    // A cycle or a deep chain reads as unreadable.
    memo.insert(name, None);
    let meaning = if depth > MAX_DEPTH {
        None
    } else {
        // An object-like macro takes the first definition the table can
        // read (`__global` for one compiler, `__attribute__(...)` for the
        // next); a function-like one its first (a later `#define
        // PNG_FP_EXPORT(...)` to nothing drops declarations).
        match defines.first() {
            Some(first) if first.params.is_some() => meaning_of(first, raw, memo, depth),
            _ => defines
                .iter()
                .find_map(|define| meaning_of(define, raw, memo, depth)),
        }
    };
    memo.insert(name, meaning.clone());
    meaning
}

fn meaning_of<'a>(
    define: &'a Define,
    raw: &Raw<'a>,
    memo: &mut Memo<'a>,
    depth: usize,
) -> Option<Meaning> {
    let toks = tokens(&define.body);
    let params = define.params.as_ref();
    let param_index = |word: &str| -> Option<usize> {
        let params = params?;
        params.iter().position(|p| {
            p == word
                || (word == "__VA_ARGS__" && p == "...")
                || p.strip_suffix("...") == Some(word)
        })
    };
    if params.is_some() && pastes(&toks, &param_index, raw, memo, depth) {
        return Some(Meaning::Paste);
    }
    let mut pieces: Vec<Piece> = Vec::new();
    let mut value = false;
    let mut depth_braces = 0usize;
    let mut j = 0;
    while j < toks.len() {
        let (_, tok) = toks[j];
        let next_is_group = matches!(toks.get(j + 1), Some((_, BodyTok::Punct("("))));
        let skip_group = |j: usize| group_end(&toks, j + 1);
        match tok {
            BodyTok::Punct("#" | "##") => return None,
            BodyTok::Punct("[") if matches!(toks.get(j + 1), Some((_, BodyTok::Punct("[")))) => {
                j = group_end(&toks, j)?;
                continue;
            }
            BodyTok::Punct(p) => {
                match p {
                    "{" | "[" => depth_braces += 1,
                    "}" | "]" => depth_braces = depth_braces.saturating_sub(1),
                    _ if depth_braces == 0 && !declarative(p) => value = true,
                    _ => {}
                }
                pieces.push(Piece::Text(p.to_string()));
            }
            BodyTok::Number(t) | BodyTok::Str(t) => {
                let linkage = matches!(pieces.last(), Some(Piece::Text(w)) if w == "extern");
                if depth_braces == 0 && !linkage {
                    value = true;
                }
                pieces.push(Piece::Text(t.to_string()));
            }
            BodyTok::Ident(word) => {
                if let Some(index) = param_index(word) {
                    pieces.push(Piece::Param(index));
                } else if ATTRIBUTE_WORDS.contains(&word) {
                    if next_is_group {
                        j = skip_group(j)?;
                        continue;
                    }
                } else if DROPPED_WORDS.contains(&word) {
                } else if INLINE_WORDS.contains(&word) {
                    pieces.push(Piece::Text("inline".to_string()));
                } else if let Some(inner) = raw.get(word) {
                    let meaning = classify(word, raw, memo, depth + 1);
                    let function_like = inner.iter().any(|d| d.params.is_some());
                    match (meaning, function_like) {
                        (Some(Meaning::Nothing { .. }), false) => {}
                        (Some(Meaning::Nothing { .. }), true) if next_is_group => {
                            j = skip_group(j)?;
                            continue;
                        }
                        (Some(Meaning::Write { pieces: inner, .. }), false) => {
                            pieces.extend(inner);
                        }
                        (Some(Meaning::Value), false) | (_, true) if !next_is_group => {
                            pieces.push(Piece::Text(word.to_string()));
                        }
                        _ => return None,
                    }
                } else if let Some(rule) = builtin().get(word) {
                    match rule {
                        Rule::Name => {}
                        Rule::WithArgs => {
                            if next_is_group {
                                j = skip_group(j)?;
                                continue;
                            }
                        }
                        Rule::Keyword(k) => pieces.push(Piece::Text(k.to_string())),
                        Rule::Unwrap | Rule::Spread => return None,
                    }
                } else if is_caps(word) || word.starts_with("__") {
                    // A macro defined elsewhere, or a compiler's own word
                    // (`__global`): unknown.
                    return None;
                } else {
                    pieces.push(Piece::Text(word.to_string()));
                }
            }
        }
        j += 1;
    }
    let function_like = define.params.is_some();
    if pieces.is_empty() {
        return Some(Meaning::Nothing {
            args: function_like,
        });
    }
    if value {
        return Some(Meaning::Value);
    }
    let params = params.map(|p| {
        let variadic = p.last().is_some_and(|l| l.ends_with("..."));
        (p.len(), variadic)
    });
    Some(Meaning::Write { params, pieces })
}

/// Whether a macro body holds whole declarations: a `;` or a `}` outside
/// parentheses and brackets (`typedef ... Scalar; ...`, `inline int f()
/// { ... }`) or an invocation of a macro in `declaring`, and no
/// `do`/`while` of a statement macro.
fn declarations(toks: &[(usize, BodyTok)], declaring: &HashSet<&str>) -> bool {
    let mut depth = 0usize;
    let mut braces = 0usize;
    let mut found = false;
    for (j, (_, tok)) in toks.iter().enumerate() {
        match tok {
            BodyTok::Punct("(" | "[") => depth += 1,
            BodyTok::Punct(")" | "]") => depth = depth.saturating_sub(1),
            BodyTok::Punct("{") => braces += 1,
            BodyTok::Punct("}") if depth == 0 => {
                braces = braces.saturating_sub(1);
                found = true
            }
            BodyTok::Punct(";") if depth == 0 => found = true,
            BodyTok::Ident(inner)
                if depth == 0
                    && declaring.contains(*inner)
                    && matches!(toks.get(j + 1), Some((_, BodyTok::Punct("(")))) =>
            {
                found = true
            }
            BodyTok::Ident("do" | "while" | "for" | "if" | "return") if depth + braces == 0 => {
                return false;
            }
            _ => {}
        }
    }
    found
}

/// The parameter pasted into the name of the one variable a body declares
/// (`[const] Type [<...>] prefix##NAME [= ...]`), or `None`.
fn pasted_variable(toks: &[(usize, BodyTok)], params: &[String]) -> Option<usize> {
    let param = |t: Option<&(usize, BodyTok)>| match t {
        Some((_, BodyTok::Ident(w))) => params.iter().position(|p| p == w),
        _ => None,
    };
    let mut j = 0;
    while matches!(
        toks.get(j),
        Some((_, BodyTok::Ident("const" | "static" | "constexpr")))
    ) {
        j += 1;
    }
    match toks.get(j) {
        Some((_, BodyTok::Ident(w))) if param(toks.get(j)).is_none() && !super::is_keyword(w) => {
            j += 1
        }
        _ => return None,
    }
    if matches!(toks.get(j), Some((_, BodyTok::Punct("<")))) {
        j = group_end_angle(toks, j)?;
    }
    // The declarator: words joined by `##`, one of them a parameter.
    let mut named = None;
    loop {
        if !matches!(toks.get(j), Some((_, BodyTok::Ident(_)))) {
            return None;
        }
        named = named.or(param(toks.get(j)));
        j += 1;
        if !matches!(toks.get(j), Some((_, BodyTok::Punct("##")))) {
            break;
        }
        j += 1;
    }
    let ends = matches!(toks.get(j), None | Some((_, BodyTok::Punct("=" | "["))));
    let pasted = toks.iter().any(|(_, t)| *t == BodyTok::Punct("##"));
    (ends && pasted).then_some(named).flatten()
}

/// The index after the `>` that closes the `<` at `tokens[open]`.
fn group_end_angle(tokens: &[(usize, BodyTok)], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, (_, tok)) in tokens.iter().enumerate().skip(open) {
        match tok {
            BodyTok::Punct("<") => depth += 1,
            BodyTok::Punct(">") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            BodyTok::Punct(";" | "{" | "}") => return None,
            _ => {}
        }
    }
    None
}

/// Whether a macro body reads as a type: `typename`/`const` at most, then
/// a name (pasted pieces `func##_retval` included), then `<...>` groups
/// and `::name` segments to its end (`typename internal::func##_retval<T>::type`,
/// `CwiseBinaryOp<EIGEN_CAT(...)<...>, const L, const R>`), or one
/// invocation of a macro in `types`.
fn type_body(toks: &[(usize, BodyTok)], types: &HashSet<&str>, raw: &Raw) -> bool {
    // A lone word is no sure type (`_GLIB_EXTERN`), nor a macro's name.
    let typed = toks.iter().any(|(_, t)| {
        matches!(
            t,
            BodyTok::Punct("<" | "::" | "##") | BodyTok::Ident("typename")
        )
    });
    let mut j = 0;
    while matches!(
        toks.get(j),
        Some((
            _,
            BodyTok::Ident("typename" | "const" | "volatile" | "struct" | "union" | "enum")
        ))
    ) {
        j += 1;
    }
    if let Some((_, BodyTok::Ident(first))) = toks.get(j)
        && types.contains(*first)
        && matches!(toks.get(j + 1), Some((_, BodyTok::Punct("("))))
    {
        return group_end(toks, j + 1) == Some(toks.len());
    }
    if !typed {
        return false;
    }
    // `typename ::NS::internal::DisableIf<...>::Type`: a global `::`
    // first, and a namespace's macro (`#define NS rapidjson`) before `::`.
    if matches!(toks.get(j), Some((_, BodyTok::Punct("::")))) {
        j += 1;
    }
    let mut named = false;
    while j < toks.len() {
        let scoped = matches!(toks.get(j + 1), Some((_, BodyTok::Punct("::"))));
        match toks[j].1 {
            BodyTok::Ident(w)
                if !named && !super::is_keyword(w) && (!raw.contains_key(w) || scoped) =>
            {
                named = true;
                j += 1;
                // `func##_retval`
                while matches!(toks.get(j), Some((_, BodyTok::Punct("##"))))
                    && matches!(toks.get(j + 1), Some((_, BodyTok::Ident(_))))
                {
                    j += 2;
                }
            }
            BodyTok::Punct("::") if named => {
                named = false;
                j += 1;
            }
            BodyTok::Punct("<") if named => {
                let mut depth = 0usize;
                let mut k = j;
                loop {
                    match toks.get(k).map(|t| t.1) {
                        Some(BodyTok::Punct("<")) => depth += 1,
                        Some(BodyTok::Punct(">")) => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some(BodyTok::Punct(";" | "{" | "}")) | None => return false,
                        _ => {}
                    }
                    k += 1;
                }
                j = k + 1;
            }
            _ => return false,
        }
    }
    named
}

/// Whether a function-like macro's body pastes a parameter into a name:
/// `a ## b` next to a parameter, or the body is one invocation of such a
/// macro with a parameter among its arguments (`EXPAND_CAT(X, HASHER())`).
fn pastes<'a>(
    toks: &[(usize, BodyTok<'a>)],
    param_index: &dyn Fn(&str) -> Option<usize>,
    raw: &Raw<'a>,
    memo: &mut Memo<'a>,
    depth: usize,
) -> bool {
    let is_param = |t: Option<&(usize, BodyTok)>| matches!(t, Some((_, BodyTok::Ident(w))) if param_index(w).is_some());
    let direct = toks.iter().enumerate().any(|(j, (_, t))| {
        *t == BodyTok::Punct("##")
            && (is_param(toks.get(j + 1))
                || j.checked_sub(1).is_some_and(|k| is_param(toks.get(k))))
    });
    if direct {
        return true;
    }
    match toks {
        [(_, BodyTok::Ident(inner)), (_, BodyTok::Punct("(")), ..]
            if group_end(toks, 1) == Some(toks.len()) && raw.contains_key(*inner) =>
        {
            toks[2..].iter().any(|t| is_param(Some(t)))
                && classify(inner, raw, memo, depth + 1) == Some(Meaning::Paste)
        }
        _ => false,
    }
}

/// An item to write: its text and, for a token of an argument, where it
/// stands in the file.
struct Item<'a> {
    text: std::borrow::Cow<'a, str>,
    origin: Option<usize>,
}

/// Write `pieces` over the invocation at `start..` (the word ends at
/// `end`): the index to go on from, or `None` when it is no invocation
/// (a function-like macro without arguments) or the expansion does not
/// fit (nothing is changed then).
pub(super) fn write(
    scan: &mut Scan,
    table: &Table,
    params: Option<(usize, bool)>,
    pieces: &[Piece],
    start: usize,
    end: usize,
) -> Option<usize> {
    let (stop, args, inside) = match params {
        None => (end, Vec::new(), None),
        Some((count, variadic)) => {
            let (open, _) = scan
                .next(end, false)
                .filter(|(_, t)| *t == super::Tok::Punct(b'('))?;
            let close = scan.close(open)?;
            let args = arguments(scan, open, close, count, variadic);
            (close, args, Some(open + 1..close - 1))
        }
    };
    let mut items: Vec<Item> = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Text(t) => items.push(Item {
                text: t.as_str().into(),
                origin: None,
            }),
            Piece::Param(index) => {
                let Some(&(from, to)) = args.get(*index) else {
                    continue;
                };
                let arg = scan.text.get(from..to).unwrap_or("");
                let toks = tokens(arg);
                // A lone argument the project defines as nothing is left
                // out; any other stays as written, where it stands (a
                // name is read from the file as written).
                if let [(_, BodyTok::Ident(word))] = toks.as_slice()
                    && table.get(word) == Some(&Meaning::Nothing { args: false })
                {
                    continue;
                }
                for (at, tok) in toks {
                    items.push(Item {
                        text: tok.text().into(),
                        origin: Some(from + at),
                    });
                }
            }
        }
    }
    let src = scan.src;
    let placed = place(src, start, stop, &items, true)
        .or_else(|| place(src, start, stop, &items, false))
        .or_else(|| {
            let short = shortened(&items);
            place(src, start, stop, &short, false).map(|spots| {
                spots
                    .into_iter()
                    .map(|(at, text)| (at, text.into_owned().into()))
                    .collect()
            })
        });
    let Some(placed) = placed else {
        return unplaced(scan, params, pieces, start, end, stop);
    };
    scan.blank(start, stop);
    // A macro that closes braces no macro of the project wrote open
    // (`FMT_END_NAMESPACE` after a `FMT_BEGIN_NAMESPACE` that did not fit)
    // is blanked too, so braces stay balanced.
    let net: isize = placed
        .iter()
        .map(|(_, t)| match t.as_ref() {
            "{" => 1,
            "}" => -1,
            _ => 0,
        })
        .sum();
    if net < 0 && scan.opened < net.unsigned_abs() {
        return Some(stop);
    }
    scan.opened = scan.opened.saturating_add_signed(net);
    // When nothing was written between the arguments but themselves,
    // where they stand, the scan goes on inside them, so the macros they
    // hold are read too (`OF((void FAR *p))`).
    let resume = inside
        .filter(|inside| {
            placed
                .iter()
                .zip(&items_origins(&items, &placed))
                .all(|((at, _), origin)| origin.is_some() || !inside.contains(at))
        })
        .map_or(stop, |inside| inside.start);
    if let Some(out) = scan.out.as_mut() {
        for (at, text) in placed {
            out[at..at + text.len()].copy_from_slice(text.as_bytes());
        }
    }
    Some(resume)
}

/// An invocation whose expansion does not fit (see [`write`]): a type's
/// name kept, a struct read as a type, extra parameters or whole
/// declarations blanked; the index to go on from, or `None`.
fn unplaced(
    scan: &mut Scan,
    params: Option<(usize, bool)>,
    pieces: &[Piece],
    start: usize,
    end: usize,
    stop: usize,
) -> Option<usize> {
    if params.is_none() && type_alias(scan, pieces, start, end) {
        return Some(end);
    }
    if let Some(resume) = struct_type(scan, pieces, start, stop) {
        return Some(resume);
    }
    // Extra parameters at a list's end (Lemon's `sqlite3ParserCTX_PDECL`
    // is `,Parse *pParse`): blanked, the list reads without them.
    if params.is_none()
        && matches!(pieces.first(), Some(Piece::Text(t)) if t == ",")
        && matches!(next_code(scan, stop), Some(super::Tok::Punct(b')')))
    {
        scan.blank(start, stop);
        return Some(stop);
    }
    let count = |s: &str| {
        pieces
            .iter()
            .filter(|p| matches!(p, Piece::Text(t) if t == s))
            .count()
    };
    // An object-like macro of whole members (sqlite's Lemon parser:
    // `sqlite3ParserCTX_SDECL` is `Parse *pParse;`) goes alone on its
    // line too, when its braces are balanced (never `}` alone, which
    // closes what another macro opened).
    let declares = match params {
        Some(_) => count(";") + count("}") > 0,
        None => count(";") > 0 && count("{") == count("}"),
    };
    if !declares {
        return None;
    }
    generator(scan, start, stop)
}

/// The token at or after `at`, comments passed over.
fn next_code<'a>(scan: &Scan<'a>, mut at: usize) -> Option<super::Tok<'a>> {
    loop {
        let (pos, tok) = scan.next(at, false)?;
        match (tok, scan.src.get(pos + 1)) {
            (super::Tok::Punct(b'/'), Some(b'*')) => at = comment_end(scan.src, pos),
            (super::Tok::Punct(b'/'), Some(b'/')) => at = line_end(scan.src, pos),
            _ => return Some(tok),
        }
    }
}

/// Whether the macro at `start..end` names another type (`#define BYTE
/// xxh_u8`, `#define ARC4RANDOM_UINT32 uint32_t`: one name with an
/// underscore or a capital, no compiler's `_far` or `_Check_return_`, no
/// keyword like `consteval`) where a type may stand (after a keyword,
/// punctuation or a word the project's macros wrote, not after another
/// type's name: `MEM_STATIC BYTE f(`), and no list names it: it is kept,
/// read as a type.
fn type_alias(scan: &Scan, pieces: &[Piece], start: usize, end: usize) -> bool {
    let [Piece::Text(t)] = pieces else {
        return false;
    };
    let named = t.starts_with(|c: char| c.is_ascii_alphabetic())
        && t.bytes().all(is_ident)
        && t.bytes().any(|b| b == b'_' || b.is_ascii_uppercase())
        && !super::is_keyword(t);
    let listed = scan
        .text
        .get(start..end)
        .is_some_and(|w| builtin().contains_key(w));
    let mut at = start;
    let placed = loop {
        match scan.prev_token(at, false) {
            Some((w, super::Tok::Word(word))) if written(scan, w, word) => at = w,
            Some((_, super::Tok::Word(word))) => break super::is_keyword(word),
            _ => break true,
        }
    };
    named && !listed && placed
}

/// An invocation too long to write of a macro that expands to a struct,
/// union or enum with its body (`LIST_HEAD(name, type)` is `struct name {
/// struct type *lh_first; }`) before a declarator (`LIST_HEAD(list,
/// entry) members;`): blanked, `int` written in its place, a type
/// tree-sitter reads. The index to go on from, or `None`.
fn struct_type(scan: &mut Scan, pieces: &[Piece], start: usize, stop: usize) -> Option<usize> {
    let tag = matches!(pieces.first(), Some(Piece::Text(t)) if matches!(t.as_str(), "struct" | "union" | "enum"));
    let body = matches!(pieces.last(), Some(Piece::Text(t)) if t == "}");
    if !tag || !body || stop < start + 3 {
        return None;
    }
    match scan.next(stop, false)? {
        (_, super::Tok::Word(w)) if !super::is_keyword(w) => {}
        (_, super::Tok::Punct(b'*')) => {}
        // A declarator in parentheses (libevent's `TAILQ_HEAD(q, t)
        // (requests);`).
        (open, super::Tok::Punct(b'(')) => match scan.next(open + 1, false)? {
            (at, super::Tok::Word(w)) if !super::is_keyword(w) => {
                let (close, _) = scan
                    .next(at + w.len(), false)
                    .filter(|(_, t)| *t == super::Tok::Punct(b')'))?;
                scan.next(close + 1, false)
                    .filter(|(_, t)| matches!(t, super::Tok::Punct(b';' | b',' | b'[' | b'=')))?;
            }
            _ => return None,
        },
        _ => return None,
    }
    scan.blank(start, stop);
    if let Some(out) = scan.out.as_mut() {
        out[start..start + 3].copy_from_slice(b"int");
    }
    Some(stop)
}

/// For each spot placed, whether it is an argument's token where it
/// stands (its origin) or something written.
fn items_origins(items: &[Item], placed: &[(usize, std::borrow::Cow<str>)]) -> Vec<Option<usize>> {
    placed
        .iter()
        .map(|(at, text)| {
            items
                .iter()
                .find(|i| i.origin == Some(*at) && i.text == *text)
                .and_then(|i| i.origin)
        })
        .collect()
}

/// An invocation too long to write that stands alone on its lines and
/// expands to whole declarations (`EIGEN_DENSE_PUBLIC_INTERFACE(X)`,
/// `PYBIND11_TLS_KEY_INIT(k)`: its expansion holds a `;`): blanked with
/// the `;` after it, as nothing a symbol can be named from. The index to
/// go on from, or `None` for any other.
pub(super) fn generator(scan: &mut Scan, start: usize, stop: usize) -> Option<usize> {
    // Alone on its line, but for words the project's macros wrote or
    // blanked before it (`XXH_FORCE_INLINE XXH_TARGET_AVX512
    // XXH3_ACCUMULATE_TEMPLATE(avx512)`), which go with it below.
    let mut first = start;
    while let Some((at, tok)) = scan.prev(first) {
        match tok {
            super::Tok::Word(w) if written(scan, at, w) => first = at,
            _ => return None,
        }
    }
    // After `=`, `,`, `(` or `[` on a line above it is a value
    // (`global_debug_map =\n\tHT_INITIALIZER();`, a brace initializer).
    if matches!(
        scan.prev_token(first, false),
        Some((_, super::Tok::Punct(b'=' | b',' | b'(' | b'[')))
    ) {
        return None;
    }
    let mut end = stop;
    if let Some((semi, super::Tok::Punct(b';'))) = scan.next(end, true) {
        end = semi + 1;
    }
    match scan.next(end, true) {
        None => {}
        Some((at, super::Tok::Punct(b'/')))
            if matches!(scan.src.get(at + 1), Some(b'/' | b'*')) => {}
        Some(_) => return None,
    }
    // `DECLARE(x)` then `{` on the next line: a head, not a generator.
    if matches!(scan.next(end, false), Some((_, super::Tok::Punct(b'{')))) {
        return None;
    }
    scan.blank(start, end);
    // Specifiers the project's macros wrote before it (`GLIB_AVAILABLE_IN_2_72`
    // as `extern`, on the line above) go with it.
    let mut back = start;
    while let Some((at, super::Tok::Word(w))) = scan.prev_token(back, false) {
        if !written(scan, at, w) {
            break;
        }
        scan.blank(at, at + w.len());
        back = at;
    }
    Some(end)
}

/// Whether the word `w` at `at` was written over or blanked.
fn written(scan: &Scan, at: usize, w: &str) -> bool {
    scan.out
        .as_ref()
        .is_some_and(|out| out.get(at..at + w.len()) != scan.src.get(at..at + w.len()))
}

/// The byte ranges of the arguments between `open` and `close` (commas at
/// the top level split; the variadic parameter takes the rest).
pub(super) fn arguments(
    scan: &Scan,
    open: usize,
    close: usize,
    count: usize,
    variadic: bool,
) -> Vec<(usize, usize)> {
    let src = scan.src;
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut from = open + 1;
    let mut i = open + 1;
    let last = close - 1;
    while i < last {
        match src[i] {
            b'"' | b'\'' => {
                i = literal_end(src, i).max(i + 1);
                continue;
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 && !(variadic && args.len() + 1 >= count) => {
                args.push((from, i));
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    args.push((from, last));
    args
}

/// `items` with the contents of brace groups left out (`{ "a", "b" }`
/// reads as `{}`).
fn shortened<'a>(items: &'a [Item<'a>]) -> Vec<Item<'a>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for item in items {
        match item.text.as_ref() {
            "{" => {
                if depth == 0 {
                    out.push(Item {
                        text: "{".into(),
                        origin: None,
                    });
                }
                depth += 1;
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(Item {
                        text: "}".into(),
                        origin: None,
                    });
                }
            }
            _ if depth > 0 => {}
            text => out.push(Item {
                text: text.to_string().into(),
                origin: None,
            }),
        }
    }
    out
}

/// Whether a space must separate `a` and `b` written one after the other.
fn separated(a: &str, b: &str) -> bool {
    let open = |t: &str| matches!(t, "(" | ")" | "[" | "]" | "{" | "}" | ";" | ",");
    let word = |c: Option<u8>| c.is_some_and(|c| is_ident(c) || c >= 0x80 || c == b'"');
    let (last, first) = (a.bytes().last(), b.bytes().next());
    (word(last) && word(first)) || (!word(last) && !word(first) && !open(a) && !open(b))
}

/// Where each item goes in `start..stop` of `src` (a token never across a
/// line break), the tokens of arguments where they stand when `aligned`;
/// `None` when they do not fit, or a name would not stand where the file
/// has it.
fn place<'a>(
    src: &[u8],
    start: usize,
    stop: usize,
    items: &'a [Item<'a>],
    aligned: bool,
) -> Option<Vec<(usize, std::borrow::Cow<'a, str>)>> {
    let mut spots = Vec::with_capacity(items.len());
    let mut cursor = start;
    let mut prev: Option<&str> = None;
    let mut prev_from_file = false;
    for item in items {
        let text = item.text.as_ref();
        // Two tokens of the file next to each other stay so (`>::`).
        let from_file = aligned && item.origin.is_some();
        let apart = !(from_file && prev_from_file) && prev.is_some_and(|p| separated(p, text));
        let min = cursor + usize::from(apart);
        // A name (not a keyword) is only written where the file has it:
        // symbols are named from the file as written.
        let name = text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !super::is_keyword(text)
            && !matches!(
                text,
                "_Noreturn"
                    | "thread_local"
                    | "_Thread_local"
                    | "__thread"
                    | "true"
                    | "false"
                    | "nullptr"
            );
        let at = match (aligned, item.origin) {
            (true, Some(origin)) => (origin >= min).then_some(origin)?,
            _ if name => return None,
            _ => {
                let mut at = min;
                while let Some(nl) = src
                    .get(at..(at + text.len()).min(stop))?
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                {
                    at += nl + 1;
                }
                at
            }
        };
        if at + text.len() > stop {
            return None;
        }
        spots.push((at, item.text.clone()));
        cursor = at + text.len();
        prev = Some(text);
        prev_from_file = from_file;
    }
    // A specifier that ends a declaration head (`EIGEN_NOEXCEPT` as
    // `noexcept`) is written at the end of the invocation, so the head
    // (and the signature sliced from the file) ends where the macro does.
    let trailing = matches!(
        items.first().map(|i| i.text.as_ref()),
        Some("noexcept" | "override" | "final" | "const" | "throw")
    );
    if trailing
        && items.iter().all(|i| i.origin.is_none())
        && let Some(&(first, _)) = spots.first()
        && !src[first..stop].iter().any(|&b| b == b'\n' || b == b'\r')
    {
        let shift = stop - cursor;
        for spot in &mut spots {
            spot.0 += shift;
        }
    }
    Some(spots)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        Table::from_texts(&[], [text])
    }

    #[test]
    fn a_type_under_a_global_scope_and_a_namespace_macro_is_a_type() {
        // rapidjson's `RAPIDJSON_DISABLEIF_RETURN(cond, type)`, the return
        // type of its templated members.
        let t = table(
            "#define NS rapidjson\n#define REMOVEFPTR_(type) typename ::NS::internal::RemoveSfinaeTag< ::NS::internal::SfinaeTag&(*) type>::Type\n#define DISABLEIF_RETURN(cond,returntype) typename ::NS::internal::DisableIf <REMOVEFPTR_(cond), REMOVEFPTR_(returntype)>::Type\n#define VALUE(x) ::x + 1\n",
        );
        assert!(t.is_type("DISABLEIF_RETURN") && t.is_type("REMOVEFPTR_"));
        assert!(!t.is_type("VALUE"));
    }

    #[test]
    fn definitions_read_as_nothing_words_or_values() {
        let t = table(
            "#define A\n#define B(M) __attribute__((model(M)))\n#define C inline\n\
             #define D(name) namespace name { D_PUSH\n#define D_PUSH _Pragma(\"x\")\n\
             #define E (1 << 3)\n#define F(a, b) a##b\n#define G MYLIB_CALL\n#define H [[nodiscard]] A\n",
        );
        assert_eq!(t.get("A"), Some(&Meaning::Nothing { args: false }));
        assert_eq!(t.get("B"), Some(&Meaning::Nothing { args: true }));
        assert_eq!(
            t.get("C"),
            Some(&Meaning::Write {
                params: None,
                pieces: vec![Piece::Text("inline".into())]
            })
        );
        assert_eq!(
            t.get("D"),
            Some(&Meaning::Write {
                params: Some((1, false)),
                pieces: vec![
                    Piece::Text("namespace".into()),
                    Piece::Param(0),
                    Piece::Text("{".into())
                ]
            })
        );
        assert_eq!(t.get("E"), Some(&Meaning::Value));
        assert_eq!(t.get("F"), Some(&Meaning::Paste));
        assert_eq!(t.get("G"), None);
        assert_eq!(t.get("H"), Some(&Meaning::Nothing { args: false }));
        assert_eq!(t.key().len(), 64);
        assert_eq!(Table::from_texts(&[], [""]).key(), "");
    }

    /// A table reads back as it was written; bytes cut anywhere, or
    /// with more after them, are no table.
    #[test]
    fn a_kept_table_reads_back_and_refuses_a_cut() {
        let t = table(
            "#define A\n#define B(M) __attribute__((model(M)))\n#define C inline\n\
             #define D(name, ...) namespace name { __VA_ARGS__\n#define E (1 << 3)\n#define F(a, b) a##b\n\
             #define G(X) struct X { int a; };\n#define H(L, R) Pair<L, R>\n\
             #define I(NAME, X) Packet4f p4f_##NAME = {X}\n",
        );
        assert!(t.declares("G") && t.is_type("H") && t.pasted_variable("I").is_some());
        let bytes = t.encode();
        assert_eq!(Table::decode(&bytes), Some(t));
        for cut in 0..bytes.len() {
            assert_eq!(Table::decode(&bytes[..cut]), None, "cut at {cut}");
        }
        let mut longer = bytes;
        longer.push(0);
        assert_eq!(Table::decode(&longer), None);
        assert_eq!(
            Table::decode(&Table::default().encode()),
            Some(Table::default())
        );
    }

    #[test]
    fn flags_come_first() {
        let t = Table::from_texts(
            &["API=".to_string(), "ONE".to_string()],
            ["#define API extern\n"],
        );
        assert_eq!(t.get("API"), Some(&Meaning::Nothing { args: false }));
        assert_eq!(t.get("ONE"), Some(&Meaning::Value));
    }
}
