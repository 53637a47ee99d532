//! Defines: the `#define`s of a C/C++ text, as the macro pre-pass reads
//! them (`macros`): the name, the parameters of a function-like macro and
//! the body (continuation lines joined, comments dropped), in the order
//! of the text. Every branch of a conditional is read but `#if 0` ones
//! and those for C++ alone (`#ifdef __cplusplus`, so that a definition
//! holds for C too); a name defined in several branches has its
//! definitions in order, and the reader takes the first live one it can
//! read (`macros::project`).

use std::borrow::Cow;

use super::c_lex::{comment_end, directive_end, line_end, literal_end};

/// One `#define`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Define {
    pub name: String,
    /// The parameters of a function-like macro (`...` for a variadic
    /// one); `None` for an object-like one.
    pub params: Option<Vec<String>>,
    /// The replacement text on one line, comments dropped.
    pub body: String,
    /// The branch of the innermost conditional it stands in.
    pub branch: Branch,
}

/// Where a definition stands: the innermost conditional of its text
/// (numbered from 1 in the order they open; 0 outside any) and which of
/// its branches (`#if` 0, each `#elif`/`#else` one more), so that the
/// definitions of one configuration are read together
/// (`macros::project`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(super) struct Branch {
    pub group: u32,
    pub index: u32,
}

/// The `#define`s of one C/C++ text as a project's macro table reads
/// them ([`scan`]), kept per file so that a project's table is built
/// again without reading its files (`sources::c_project` caches them by
/// the file's content).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CDefines(pub(super) Vec<Define>);

impl CDefines {
    /// The definitions of `text` outside dead branches, in order.
    pub fn scan(text: &str) -> CDefines {
        CDefines(scan(text))
    }

    /// How many definitions there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The definitions as bytes [`CDefines::decode`] reads back.
    pub fn encode(&self, out: &mut Vec<u8>) {
        put_len(out, self.0.len());
        for define in &self.0 {
            put_str(out, &define.name);
            match &define.params {
                None => out.extend_from_slice(&u32::MAX.to_le_bytes()),
                Some(params) => {
                    put_len(out, params.len());
                    for param in params {
                        put_str(out, param);
                    }
                }
            }
            put_str(out, &define.body);
            out.extend_from_slice(&define.branch.group.to_le_bytes());
            out.extend_from_slice(&define.branch.index.to_le_bytes());
        }
    }

    /// What [`CDefines::encode`] wrote; `None` for bytes it did not write
    /// (cut short, not UTF-8, a name that is no identifier, a body longer
    /// than a scan keeps, bytes left over).
    pub fn decode(mut bytes: &[u8]) -> Option<CDefines> {
        fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, rest) = bytes.split_at_checked(n)?;
            *bytes = rest;
            Some(head)
        }
        fn u32_of(bytes: &mut &[u8]) -> Option<u32> {
            Some(u32::from_le_bytes(take(bytes, 4)?.try_into().ok()?))
        }
        fn str_of(bytes: &mut &[u8], max: usize) -> Option<String> {
            let len = usize::try_from(u32_of(bytes)?).ok()?;
            if len > max {
                return None;
            }
            std::str::from_utf8(take(bytes, len)?)
                .ok()
                .map(str::to_string)
        }
        let identifier = |s: &str| {
            !s.is_empty()
                && !s.as_bytes()[0].is_ascii_digit()
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        };
        let count = usize::try_from(u32_of(&mut bytes)?).ok()?;
        // Each definition takes at least 21 bytes: a count past that is
        // a lie.
        let mut found = Vec::with_capacity(count.min(bytes.len() / 21));
        for _ in 0..count {
            let name = str_of(&mut bytes, MAX_WORD)?;
            let params = match u32_of(&mut bytes)? {
                u32::MAX => None,
                n => {
                    let n = usize::try_from(n).ok()?;
                    let mut params = Vec::with_capacity(n.min(bytes.len() / 4));
                    for _ in 0..n {
                        params.push(str_of(&mut bytes, MAX_WORD)?);
                    }
                    Some(params)
                }
            };
            let body = str_of(&mut bytes, MAX_BODY)?;
            let branch = Branch {
                group: u32_of(&mut bytes)?,
                index: u32_of(&mut bytes)?,
            };
            if !identifier(&name) {
                return None;
            }
            found.push(Define {
                name,
                params,
                body,
                branch,
            });
        }
        bytes.is_empty().then_some(CDefines(found))
    }
}

fn put_len(out: &mut Vec<u8>, n: usize) {
    // Lengths are of a text's definitions, far below `u32::MAX`.
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX - 1).to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// The longest name or parameter [`CDefines::decode`] takes (a scan
/// keeps any; a longer one only costs its file a read).
const MAX_WORD: usize = 1 << 16;

/// The longest body kept: a longer one is a code template no declaration
/// needs to see through, kept cut to this length and ended with
/// [`CUT_MARK`], so that the table still learns from its start whether
/// it pastes names or expands to whole declarations (libevent's
/// `HT_GENERATE(...)`), and never writes it.
const MAX_BODY: usize = 2048;

/// What ends a body cut at [`MAX_BODY`]: a `#` no expansion the table
/// writes holds (`macros::project` reads such a body as unreadable).
const CUT_MARK: &str = " #";

/// The definitions of `text` outside dead branches, in order.
pub(super) fn scan(text: &str) -> Vec<Define> {
    let mut found: Vec<Define> = Vec::new();
    if !text.contains("define") {
        return found;
    }
    let bytes = text.as_bytes();
    // Per open conditional: whether the current branch is live, and
    // where it stands.
    let mut stack: Vec<(bool, Branch)> = Vec::new();
    let mut groups = 0u32;
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = comment_end(bytes, i),
            b'#' if line_start => {
                let end = directive_end(bytes, i);
                let line = directive_line(text.get(i + 1..end).unwrap_or(""));
                follow(&line, &mut stack, &mut groups, &mut found);
                i = end;
                line_start = true;
            }
            b'"' | b'\'' => {
                i = literal_end(bytes, i);
                line_start = false;
            }
            _ => {
                line_start = false;
                i = plain_end(bytes, i + 1);
            }
        }
    }
    found
}

/// Follow one directive (`line`: after the `#`, joined; `groups`: the
/// conditionals opened so far).
fn follow(line: &str, stack: &mut Vec<(bool, Branch)>, groups: &mut u32, found: &mut Vec<Define>) {
    let line = line.trim_start();
    let word_len = line.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
    let (word, rest) = line.split_at(word_len);
    let live = stack.iter().all(|(live, _)| *live);
    let dead = || match word {
        "if" | "elif" => {
            let cond = rest.trim().trim_matches(['(', ')', ' ']);
            cond == "0" || cond == "false" || cplusplus(rest) || documentation(rest)
        }
        "ifdef" | "elifdef" => rest.trim() == "__cplusplus" || documentation(rest),
        _ => false,
    };
    match word {
        "if" | "ifdef" | "ifndef" => {
            *groups = groups.saturating_add(1);
            let branch = Branch {
                group: *groups,
                index: 0,
            };
            stack.push((!dead(), branch));
        }
        "elif" | "elifdef" | "elifndef" | "else" => {
            let dead = dead();
            if let Some((live, branch)) = stack.last_mut() {
                *live = !dead;
                branch.index = branch.index.saturating_add(1);
            }
        }
        "endif" => {
            stack.pop();
        }
        "define" if live => {
            if let Some(mut define) = parse_define(rest) {
                define.branch = stack.last().map(|(_, b)| *b).unwrap_or_default();
                found.push(define);
            }
        }
        _ => {}
    }
}

/// Whether a condition asks for C++ (`defined(__cplusplus)`, `__cplusplus
/// >= 201103L`, not `!defined(__cplusplus)`): such a branch is not the
/// one read, so a definition holds for C files too (`extern "C"` is no
/// C, `extern` is both).
fn cplusplus(condition: &str) -> bool {
    condition.match_indices("__cplusplus").any(|(at, _)| {
        let before = condition[..at].trim_end_matches(|c: char| c == '(' || c.is_whitespace());
        let before = before.strip_suffix("defined").unwrap_or(before);
        !before.trim_end().ends_with('!')
    })
}

/// Whether a condition asks for a documentation build (`FMT_DOC`,
/// `EVENT_IN_DOXYGEN_`, `__DOXYGEN__`), whose definitions are stand-ins
/// (`#define FMT_ENABLE_IF(...)`, `#define f(x) ...`).
pub(super) fn documentation(condition: &str) -> bool {
    condition
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w.contains("DOXYGEN") || w.ends_with("_DOC") || w.ends_with("_DOCS") || w == "DOC")
}

/// `NAME body` or `NAME(a, b) body` (the text after `define`).
fn parse_define(rest: &str) -> Option<Define> {
    let rest = rest.trim_start();
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let name = rest.get(..name_len)?;
    if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let after = &rest[name_len..];
    let (params, body) = match after.strip_prefix('(') {
        Some(inner) => {
            let (list, body) = inner.split_once(')')?;
            let params: Vec<String> = list
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            let valid = params.iter().all(|p| {
                p == "..."
                    || p.trim_end_matches("...")
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            });
            if !valid {
                return None;
            }
            (Some(params), body)
        }
        None => (None, after),
    };
    let body = body.trim();
    let body = if body.len() > MAX_BODY {
        // Cut at a space, so no word is cut in two.
        let mut cut = MAX_BODY - CUT_MARK.len();
        while cut > 0 && !(body.is_char_boundary(cut) && body.as_bytes()[cut] == b' ') {
            cut -= 1;
        }
        format!("{}{CUT_MARK}", &body[..cut])
    } else {
        body.to_string()
    };
    Some(Define {
        name: name.to_string(),
        params,
        body,
        branch: Branch::default(),
    })
}

/// The index of the next byte at or after `i` that may change what the
/// scan reads (a line break, a comment's `/`, a quote): any other byte
/// after a byte of code changes nothing (a `#` is no directive there).
fn plain_end(bytes: &[u8], i: usize) -> usize {
    const fn stops() -> [bool; 256] {
        let mut table = [false; 256];
        table[b'\n' as usize] = true;
        table[b'/' as usize] = true;
        table[b'"' as usize] = true;
        table[b'\'' as usize] = true;
        table
    }
    const STOPS: [bool; 256] = stops();
    bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| STOPS[usize::from(b)]))
        .map_or(bytes.len(), |p| i + p)
}

/// A directive's text (after the `#`, its line break included) on one
/// line: as [`joined`] makes it, borrowed when nothing is to be joined or
/// dropped (no backslash, no `/`, no line break but the last).
fn directive_line(text: &str) -> Cow<'_, str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let plain = !body
        .bytes()
        .any(|b| matches!(b, b'\\' | b'/' | b'\n' | b'\r'));
    if plain {
        Cow::Borrowed(body)
    } else {
        Cow::Owned(joined(text))
    }
}

/// A directive's text on one line: continuation backslashes and comments
/// dropped (string literals kept as written).
fn joined(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut from = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => {
                out.push_str(&text[from..i]);
                out.push(' ');
                i += 1;
                while matches!(bytes.get(i), Some(b'\n' | b'\r')) {
                    i += 1;
                }
                from = i;
            }
            b'\n' | b'\r' => {
                out.push_str(&text[from..i]);
                out.push(' ');
                i += 1;
                from = i;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[from..i]);
                out.push(' ');
                i = comment_end(bytes, i).min(bytes.len());
                from = i;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[from..i]);
                return out;
            }
            b'"' | b'\'' => i = literal_end(bytes, i).min(bytes.len()),
            _ => i += 1,
        }
    }
    out.push_str(text.get(from..).unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Option<Vec<String>>, String)> {
        scan(text)
            .into_iter()
            .map(|d| (d.name, d.params, d.body))
            .collect()
    }

    #[test]
    fn object_and_function_like_with_continuations_and_comments() {
        let text = "#define A inline /* note */\n# define B(x, y) \\\n  namespace x { \\\n  y\n/* #define C 1 */\n// #define D 1\nint x = '#'; \"#define E\"\n#define F(...) __VA_ARGS__\n#define A static\n";
        assert_eq!(
            names(text),
            [
                ("A".into(), None, "inline".into()),
                (
                    "B".into(),
                    Some(vec!["x".into(), "y".into()]),
                    "namespace x {    y".into()
                ),
                ("F".into(), Some(vec!["...".into()]), "__VA_ARGS__".into()),
                ("A".into(), None, "static".into()),
            ]
        );
    }

    #[test]
    fn branches_for_cplusplus_or_documentation_are_not_read() {
        let text = "#ifdef FMT_DOC\n#define D(...)\n#elif defined(EVENT_IN_DOXYGEN_)\n#define D(x) ...\n#else\n#define D(x) x\n#endif\n#ifdef __cplusplus\n#define A extern \"C\"\n#else\n#define A extern\n#endif\n#if !defined(__cplusplus)\n#define B 1\n#endif\n#if defined(__cplusplus) && __cplusplus >= 201103L\n#define C noexcept\n#else\n#define C\n#endif\n";
        let got: Vec<String> = names(text)
            .into_iter()
            .map(|(n, _, b)| format!("{n}={b}"))
            .collect();
        assert_eq!(got, ["D=x", "A=extern", "B=1", "C="]);
    }

    #[test]
    fn every_branch_but_dead_ones_counts_in_order() {
        let text = "#if 0\n#define A 0\n#elif defined(X)\n#define A 1\n#ifdef Y\n#define B 1\n#else\n#define B 2\n#define C 2\n#endif\n#else\n#define A 2\n#define D 2\n#endif\n#define E\n";
        let got: Vec<String> = names(text)
            .into_iter()
            .map(|(n, _, b)| format!("{n}={b}"))
            .collect();
        assert_eq!(got, ["A=1", "B=1", "B=2", "C=2", "A=2", "D=2", "E="]);
    }

    #[test]
    fn each_definition_knows_its_conditional_and_branch() {
        let text = "#define A 0\n#ifndef G\n#define B 1\n#if X\n#define C 1\n#elif Y\n#define C 2\n#else\n#define C 3\n#endif\n#define D 1\n#endif\n#ifdef Z\n#define E 1\n#endif\n";
        let got: Vec<String> = scan(text)
            .into_iter()
            .map(|d| format!("{}={}.{}", d.name, d.branch.group, d.branch.index))
            .collect();
        assert_eq!(
            got,
            [
                "A=0.0", "B=1.0", "C=2.0", "C=2.1", "C=2.2", "D=1.0", "E=3.0"
            ]
        );
        let defines = CDefines::scan(text);
        let mut bytes = Vec::new();
        defines.encode(&mut bytes);
        assert_eq!(CDefines::decode(&bytes), Some(defines));
    }
}
