//! The project files a task's words name: a path (exactly, by suffix, or a
//! folder's files; else a module path without its extension, another
//! case, or its longest tail from a larger repository's root), a commit scope (files and folders of that name), a
//! module (`a/b.rs`, `a/b/mod.rs`, `pkg/sub/mod/__init__.py`, not the
//! file that declares `mod b;`), and the files that define an identifier
//! (as a symbol, or as a top-level variable the symbols do not hold:
//! `export const focusManager = …`, Python `X = …`, Go `var x`). Every
//! list is ranked source first: tests, benchmarks, fixtures, examples and
//! generated files after, then other text, then by path.

use std::collections::{BTreeMap, HashSet};

use crate::core::sources::Codebase;
use crate::core::syntax::is_code_path;
use crate::core::syntax::{Lang, Symbol, SymbolKind};

use super::words::module_parts;

/// The files one mention matched, ranked, and how many there were.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Matched {
    pub files: Vec<String>,
    pub total: usize,
}

impl Matched {
    /// `found` (with sort keys) ranked and cut to `cap`.
    fn ranked<K: Ord>(mut found: Vec<(K, &str)>, cap: usize) -> Self {
        found.sort();
        Matched {
            total: found.len(),
            files: found
                .into_iter()
                .take(cap)
                .map(|(_, f)| f.to_string())
                .collect(),
        }
    }
}

/// Whether `path` is a test, a benchmark, a fixture, an example or a
/// generated file rather than the project's source: by a folder of the
/// path (`tests/`, `__tests__/`, `benches/`, `testdata/`, `examples/`, …)
/// or by the file's name (`test_x.py`, `x_test.go`, `x.test.ts`,
/// `x.spec.js`, `XTest.java`, `conftest.py`, `x_pb2.py`, `x.pb.go`,
/// `x.min.js`, `x.generated.cs`), or a build tool's configuration
/// (`vite.config.ts`) or a story (`Button.stories.tsx`).
pub fn is_auxiliary(path: &str) -> bool {
    const FOLDERS: &[&str] = &[
        "test",
        "tests",
        "__tests__",
        "testing",
        "testdata",
        "test_data",
        "spec",
        "specs",
        "__snapshots__",
        "bench",
        "benches",
        "benchmark",
        "benchmarks",
        "fixture",
        "fixtures",
        "__fixtures__",
        "example",
        "examples",
        "demo",
        "demos",
        "e2e",
        "mocks",
        "__mocks__",
        "generated",
        "__generated__",
    ];
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or(path);
    if parts
        .iter()
        .any(|d| FOLDERS.contains(&d.to_ascii_lowercase().as_str()))
    {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    let dotted = [
        "test",
        "spec",
        "bench",
        "generated",
        "gen",
        "pb",
        "min",
        "config",
        "stories",
    ];
    let underscored = ["spec", "bench", "generated", "pb2", "pb2_grpc"];
    stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem == "conftest"
        || (stem.len() > 4
            && ["Test", "Tests", "Spec", "Benchmark"]
                .iter()
                .any(|t| stem.ends_with(t)))
        || dotted.iter().any(|t| lower.contains(&format!(".{t}.")))
        || underscored.iter().any(|t| stem.ends_with(&format!("_{t}")))
}

/// A file's rank among equals (lower first): code before other text,
/// source before auxiliary files.
fn rank(path: &str) -> (bool, bool) {
    (!is_code_path(path), is_auxiliary(path))
}

/// The walked files `text` names: the path itself, files ending with
/// `/text` (for a bare name, files of that name), or else the files of
/// the folders it names, shallowest first. A path naming none of them may
/// be written from the root of a larger repository (the project is one
/// package of a monorepo; a forge link's branch holds a `/`): then its
/// longest tail of two parts or more that names something does.
pub(super) fn path(text: &str, walked: &[String], cap: usize) -> Matched {
    let text = text.trim_start_matches('/').trim_end_matches('/');
    let found = path_as_written(text, walked, cap);
    if !found.files.is_empty() {
        return found;
    }
    // A module's path without its extension (`parser/validator: …`).
    if text.contains('/') && !text.rsplit('/').next().unwrap_or(text).contains('.') {
        let found: Vec<_> = walked
            .iter()
            .filter(|f| is_module_file(f, text))
            .map(|f| (rank(f), f.as_str()))
            .collect();
        if !found.is_empty() {
            return Matched::ranked(found, cap);
        }
    }
    // Written in another case than the file's (`readme.md`).
    let lower = text.to_lowercase();
    let folded: Vec<String> = walked.iter().map(|f| f.to_lowercase()).collect();
    if lower != text || folded != walked {
        let found = path_as_written(&lower, &folded, cap);
        if !found.files.is_empty() {
            return Matched {
                files: found
                    .files
                    .iter()
                    .filter_map(|f| {
                        folded
                            .iter()
                            .position(|g| g == f)
                            .map(|i| walked[i].clone())
                    })
                    .collect(),
                total: found.total,
            };
        }
    }
    let mut tail = text;
    while let Some((_, rest)) = tail.split_once('/') {
        tail = rest;
        if !tail.contains('/') {
            break;
        }
        let found = path_as_written(tail, walked, cap);
        if !found.files.is_empty() {
            return found;
        }
    }
    found
}

/// [`path`] for `text` as written.
fn path_as_written(text: &str, walked: &[String], cap: usize) -> Matched {
    if text.is_empty() {
        return Matched::default();
    }
    if walked.iter().any(|f| f == text) {
        return Matched {
            files: vec![text.to_string()],
            total: 1,
        };
    }
    let suffix = format!("/{text}");
    let found: Vec<_> = walked
        .iter()
        .filter(|f| f.ends_with(&suffix))
        .map(|f| ((rank(f), f.len()), f.as_str()))
        .collect();
    if !found.is_empty() {
        return Matched::ranked(found, cap);
    }
    let prefix = format!("{text}/");
    let inner = format!("/{text}/");
    let found = walked
        .iter()
        .filter_map(|f| {
            let rest = match f.strip_prefix(&prefix) {
                Some(rest) => rest,
                None => &f[f.find(&inner)? + inner.len()..],
            };
            let (other, aux) = rank(f);
            Some(((other, aux, rest.matches('/').count()), f.as_str()))
        })
        .collect();
    Matched::ranked(found, cap)
}

/// A scope's words compared loosely: `powered-by`, `powered_by` and
/// `PoweredBy` are one name.
fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The walked files a commit scope names: files whose stem is the scope
/// (`docker_context.go` for `docker_context`; `core/router` for a
/// `core/router.ts`), then the files under folders of that name,
/// shallowest and source first. A scope with a `/` that names nothing
/// whole (`tanstack/query-core`) is tried by its last part.
pub(super) fn scope(text: &str, walked: &[String], cap: usize) -> Matched {
    let want: Vec<String> = text
        .split('/')
        .filter(|p| !p.is_empty())
        .map(loose)
        .collect();
    let mut found = scope_files(&want, walked);
    if found.is_empty() && want.len() > 1 {
        found = scope_files(&want[want.len() - 1..], walked);
    }
    if found.is_empty() {
        let last = text.rsplit('/').next().unwrap_or(text);
        found = scope_words_files(last, walked);
    }
    Matched::ranked(found, cap)
}

/// The files a scope names by its words when nothing bears its name: a
/// stem or a folder whose words hold the scope's in a row (`response` in
/// `response_writer.go` or `responseWriter.ts`; `broadcast-client` in
/// `query-broadcast-client-experimental/`).
fn scope_words_files<'a>(scope: &str, walked: &'a [String]) -> Vec<(ScopeKey, &'a str)> {
    let want = name_words(scope);
    if want.concat().len() < 3 {
        return Vec::new();
    }
    let holds = |name: &str| name_words(name).windows(want.len()).any(|w| w == want);
    let mut found = Vec::new();
    for f in walked {
        let mut parts: Vec<&str> = f.split('/').collect();
        let name = parts.pop().unwrap_or(f);
        let stem = name.split('.').next().unwrap_or_default();
        let (other, aux) = rank(f);
        if holds(stem) {
            found.push(((false, other, aux, 0), f.as_str()));
        } else if let Some(at) = parts.iter().position(|d| holds(d)) {
            found.push(((true, other, aux, parts.len() - at - 1), f.as_str()));
        }
    }
    found
}

/// The words of a name: `responseWriter`, `response-writer` and
/// `response_writer` are `[response, writer]`.
fn name_words(name: &str) -> Vec<String> {
    snake(name)
        .split(['_', '.'])
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// `responseWriter`, `response-writer` → `response_writer`.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.extend(if c == '-' { '_' } else { c }.to_lowercase());
    }
    out
}

type ScopeKey = (bool, bool, bool, usize);

fn scope_files<'a>(want: &[String], walked: &'a [String]) -> Vec<(ScopeKey, &'a str)> {
    let n = want.len();
    if n == 0 {
        return Vec::new();
    }
    let mut found = Vec::new();
    for f in walked {
        let mut parts: Vec<String> = f.split('/').map(loose).collect();
        let Some(name) = f.rsplit('/').next() else {
            continue;
        };
        let stem = name.split('.').next().unwrap_or_default();
        parts.pop();
        let dirs = parts.len();
        if !stem.is_empty() {
            parts.push(loose(stem));
        }
        let (other, aux) = rank(f);
        if parts.len() >= n && parts[parts.len() - n..] == *want && !stem.is_empty() {
            found.push(((false, other, aux, 0), f.as_str()));
        } else if let Some(at) =
            (0..(dirs + 1).saturating_sub(n)).find(|&i| parts[i..i + n] == *want)
        {
            found.push(((true, other, aux, dirs - (at + n)), f.as_str()));
        }
    }
    found
}

/// For each language of `names` (`Japanese`), its locale files (`ja.ts`,
/// `values-ja/strings.xml`) of any of its codes, ranked and cut to `cap`.
pub(super) fn languages(names: &[&str], walked: &[String], cap: usize) -> Vec<Matched> {
    let codes: Vec<(usize, &str)> = names
        .iter()
        .enumerate()
        .flat_map(|(i, name)| super::languages::codes(name).map(move |c| (i, c)))
        .collect();
    let just_codes: Vec<&str> = codes.iter().map(|(_, c)| *c).collect();
    let found = super::languages::files_by_code(&just_codes, walked);
    let mut out: Vec<Vec<(_, &str)>> = vec![Vec::new(); names.len()];
    for ((i, _), files) in codes.iter().zip(found) {
        out[*i].extend(files.into_iter().map(|f| (rank(f), f)));
    }
    out.into_iter()
        .map(|mut found| {
            found.sort();
            found.dedup();
            Matched::ranked(found, cap)
        })
        .collect()
}

/// The file a module's name is: for `a::b` or `a.b`, `a/b.<ext>` of a
/// code language, or the package file of a folder `a/b` (`mod.rs`,
/// `__init__.py`, `index.ts`); the longest prefix that names one wins, so
/// `crate::a::Item` is `a.rs` and `pkg.mod.func` is `pkg/mod.py`. A
/// dotted name keeps two parts at least (`self.x` or `obj.attr` alone
/// names no file); a bare name is a file's stem.
pub(super) fn module(text: &str, walked: &[String], cap: usize) -> Matched {
    let parts = module_parts(text);
    let dotted = !text.contains("::") && parts.len() > 1;
    let least = if dotted { 2 } else { 1 };
    let found = module_of(&parts, least, walked, cap);
    // `clap_builder::parser::validator`: a path through the crate's own
    // name (not the standard library's) names the modules after it, two
    // at least (`tokio::time` is no module of this project).
    let written_first = text.split("::").next().unwrap_or_default();
    match parts.split_first() {
        Some((first, rest))
            if found.files.is_empty()
                && text.contains("::")
                && *first == written_first
                && !matches!(written_first, "std" | "core" | "alloc")
                && rest.len() >= 2 =>
        {
            module_of(rest, 2, walked, cap)
        }
        _ => found,
    }
}

/// The files of the longest prefix of `parts`, of `least` parts or more,
/// that is a module.
fn module_of(parts: &[&str], least: usize, walked: &[String], cap: usize) -> Matched {
    for k in (least..=parts.len()).rev() {
        let want = parts[..k].join("/");
        let found: Vec<_> = walked
            .iter()
            .filter(|f| is_module_file(f, &want))
            .map(|f| (rank(f), f.as_str()))
            .collect();
        if !found.is_empty() {
            return Matched::ranked(found, cap);
        }
    }
    Matched::default()
}

/// Whether `file` is the module `want` (`a/b`): `…a/b.<code ext>` or a
/// package file in `…a/b/`.
fn is_module_file(file: &str, want: &str) -> bool {
    if !is_code_path(file) {
        return false;
    }
    let names = |path: &str| path == want || path.ends_with(&format!("/{want}"));
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let own = names(&file[..file.len() - (name.len() - stem.len())]);
    let package_file = match stem {
        "mod" => ext == "rs",
        "__init__" => matches!(ext, "py" | "pyi"),
        "index" => matches!(
            ext,
            "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs"
        ),
        _ => false,
    };
    own || (package_file && names(dir))
}

/// For each of `idents`, every code file that defines it, in path order:
/// a symbol of that name (a private `#name` too; a Rust `mod x;` that only
/// declares the module is no definition: its file is), or a top-level
/// variable. A file is parsed only when its text holds one of the names.
pub(super) fn definitions(codebase: &Codebase, idents: &[String]) -> BTreeMap<String, Vec<String>> {
    let Codebase { root, sources, .. } = *codebase;
    let wanted: HashSet<&str> = idents.iter().map(String::as_str).collect();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in codebase
        .files()
        .iter()
        .filter(|p| Lang::from_path(p).is_some_and(Lang::is_code))
    {
        let file = sources.file(root, path);
        let Some(text) = file.text() else {
            continue;
        };
        let present: Vec<&str> = idents
            .iter()
            .map(String::as_str)
            .filter(|i| text.contains(i))
            .collect();
        if present.is_empty() {
            continue;
        }
        let mut defined: HashSet<&str> = HashSet::new();
        if let Some(tree) = sources.symbols(root, path) {
            let mut stack: Vec<&Symbol> = tree.symbols.iter().collect();
            while let Some(s) = stack.pop() {
                let name = s.name.trim_start_matches('#');
                if let Some(&name) = wanted.get(name)
                    && !declares_only(s, text)
                {
                    defined.insert(name);
                }
                stack.extend(s.children.iter());
            }
        }
        for name in present {
            if defined.contains(name) || defines_variable(text, name) {
                out.entry(name.to_string()).or_default().push(path.clone());
            }
        }
    }
    out
}

/// A Rust `mod x;`: it declares the module, whose own file defines it.
fn declares_only(s: &Symbol, text: &str) -> bool {
    s.kind == SymbolKind::Module
        && text
            .get(s.range.clone())
            .is_some_and(|t| t.trim_end().ends_with(';'))
}

/// Whether `text` defines `name` as a top-level variable, by its lines:
/// `[export] const|let|var|val NAME`, `[pub] static|const NAME`,
/// `#define NAME`, an assignment `NAME = …` or `NAME: T = …` at the start
/// of a line (Python, Ruby), or a name in Go's `var (` / `const (` block.
fn defines_variable(text: &str, name: &str) -> bool {
    let mut in_block = false;
    for line in text.lines() {
        if in_block {
            if line.starts_with(')') {
                in_block = false;
            } else if starts_with_name(line.trim_start(), name) {
                return true;
            }
            continue;
        }
        if line.starts_with(|c: char| c.is_whitespace()) {
            continue;
        }
        if matches!(line.trim_end(), "var (" | "const (") {
            in_block = true;
            continue;
        }
        if declares(line, name) || assigns(line, name) {
            return true;
        }
    }
    false
}

/// `[export] [declare] const|let|var|val|static [mut] NAME`, `#define NAME`.
fn declares(line: &str, name: &str) -> bool {
    let mut rest = line;
    for prefix in ["export ", "declare ", "pub(crate) ", "pub "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest).trim_start();
    }
    ["const ", "let ", "var ", "val ", "static ", "#define "]
        .iter()
        .find_map(|kw| rest.strip_prefix(kw))
        .map(|r| {
            let r = r.trim_start();
            r.strip_prefix("mut ").unwrap_or(r).trim_start()
        })
        .is_some_and(|r| starts_with_name(r, name))
}

/// `NAME = …` (not `==`) or `NAME: T = …` at the start of a line.
fn assigns(line: &str, name: &str) -> bool {
    let Some(rest) = line.strip_prefix(name) else {
        return false;
    };
    let rest = rest.trim_start();
    if let Some(after) = rest.strip_prefix('=') {
        return !after.starts_with('=');
    }
    rest.strip_prefix(':')
        .is_some_and(|r| !r.starts_with(':') && r.contains(" = "))
}

/// `text` starts with `name` followed by no name character.
fn starts_with_name(text: &str, name: &str) -> bool {
    text.strip_prefix(name).is_some_and(|rest| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn paths_match_exactly_by_suffix_name_or_folder() {
        let w = walked(&[
            "a/prepare.py",
            "b/prepare.py",
            "tests/prepare.py",
            "pip/_internal/req/__init__.py",
            "pip/_internal/req/tests/test_x.py",
            "pip/_internal/req/req_file.py",
            "pip/_internal/req/sub/deep.py",
            "pip/_internal/req/README.md",
            "x/y/z.c",
        ]);
        let files = |text: &str| path(text, &w, 8).files;
        assert_eq!(files("x/y/z.c"), ["x/y/z.c"]);
        assert_eq!(files("./y/z.c".trim_start_matches("./")), ["x/y/z.c"]);
        assert_eq!(
            files("prepare.py"),
            ["a/prepare.py", "b/prepare.py", "tests/prepare.py"]
        );
        assert_eq!(
            files("_internal/req/"),
            [
                "pip/_internal/req/__init__.py",
                "pip/_internal/req/req_file.py",
                "pip/_internal/req/sub/deep.py",
                "pip/_internal/req/tests/test_x.py",
                "pip/_internal/req/README.md",
            ]
        );
        assert_eq!(path("pip/_internal/req", &w, 2).total, 5);
        assert!(files("nope.py").is_empty());
        assert!(files("/").is_empty());
        // A path from the root of a larger repository (the project is one
        // package of a monorepo, or a forge link's branch has a `/`): its
        // longest tail of two parts or more that names a file.
        assert_eq!(
            files("packages/core/pip/_internal/req/req_file.py"),
            ["pip/_internal/req/req_file.py"]
        );
        assert_eq!(files("feature/x/y/z.c"), ["x/y/z.c"]);
        // Never down to a bare name another folder holds too.
        assert!(files("other/prepare.py").is_empty());
        // A module path without its extension (`parser/validator: …`):
        // the module's own file.
        assert_eq!(
            files("_internal/req/req_file"),
            ["pip/_internal/req/req_file.py"]
        );
        // Written in another case than the file's (`readme.md`), when
        // nothing matches as written.
        assert_eq!(files("readme.md"), ["pip/_internal/req/README.md"]);
        assert_eq!(files("X/Y/Z.C"), ["x/y/z.c"]);
    }

    #[test]
    fn scopes_name_files_and_folders() {
        let w = walked(&[
            "cli/command/context/docker_context.go",
            "cli/command/context/docker_context_test.go",
            "docs/docker-context.md",
            "src/components/PoweredBy.tsx",
            "src/components/powered-by/index.ts",
            "src/components/powered-by/logo.svg",
            "src/components/powered-by/__tests__/index.test.ts",
            "packages/query-core/src/query.ts",
            "packages/query-core/package.json",
            "src/core/router/tree.go",
            "src/core/router.go",
            "src/core/routing.go",
        ]);
        let files = |text: &str| scope(text, &w, 8).files;
        assert_eq!(
            files("docker_context"),
            [
                "cli/command/context/docker_context.go",
                "docs/docker-context.md"
            ]
        );
        assert_eq!(
            files("powered-by"),
            [
                "src/components/PoweredBy.tsx",
                "src/components/powered-by/index.ts",
                "src/components/powered-by/__tests__/index.test.ts",
                "src/components/powered-by/logo.svg",
            ]
        );
        assert_eq!(
            files("core/router"),
            ["src/core/router.go", "src/core/router/tree.go"]
        );
        assert_eq!(
            files("tanstack/query-core"),
            [
                "packages/query-core/src/query.ts",
                "packages/query-core/package.json"
            ]
        );
        assert!(files("deps").is_empty());
        assert_eq!(scope("powered-by", &w, 1).total, 4);
        // Nothing of that name: the stems and folders whose words hold it.
        let w = walked(&[
            "response_writer.go",
            "responses.go",
            "web/responseWriter.ts",
            "packages/query-broadcast-client-experimental/src/index.ts",
            "packages/query-broadcast-client-experimental/vite.config.ts",
            "packages/query-broadcast-client-experimental/package.json",
            "packages/query-core/src/broadcast.ts",
        ]);
        assert_eq!(
            scope("response", &w, 8).files,
            ["response_writer.go", "web/responseWriter.ts"]
        );
        assert_eq!(
            scope("broadcast-client", &w, 8).files,
            [
                "packages/query-broadcast-client-experimental/src/index.ts",
                "packages/query-broadcast-client-experimental/vite.config.ts",
                "packages/query-broadcast-client-experimental/package.json",
            ]
        );
    }

    #[test]
    fn modules_name_their_own_files() {
        let w = walked(&[
            "src/lib.rs",
            "src/cache.rs",
            "src/cache/store.rs",
            "src/router/mod.rs",
            "src/pip/_internal/req/__init__.py",
            "src/pip/_internal/req/req_install.py",
            "web/focusManager.ts",
            "web/hooks/index.ts",
            "docs/router.md",
        ]);
        let files = |text: &str| module(text, &w, 8).files;
        assert_eq!(files("crate::cache::store"), ["src/cache/store.rs"]);
        assert_eq!(files("crate::cache::Store"), ["src/cache.rs"]);
        assert_eq!(files("super::router"), ["src/router/mod.rs"]);
        assert_eq!(files("router"), ["src/router/mod.rs"]);
        assert_eq!(
            files("pip._internal.req.req_install"),
            ["src/pip/_internal/req/req_install.py"]
        );
        assert_eq!(
            files("pip._internal.req.InstallRequirement"),
            ["src/pip/_internal/req/__init__.py"]
        );
        assert_eq!(files("focusManager"), ["web/focusManager.ts"]);
        assert_eq!(files("hooks"), ["web/hooks/index.ts"]);
        // A dotted name keeps two parts: `req.x` is no `req` module.
        assert!(files("req.x").is_empty());
        assert!(files("lib.rs.x").is_empty());
        assert!(files("std::io::Error").is_empty());
        // A path through the crate's own name (`clap_builder::parser::validator`):
        // the modules after it, at least two of them; never through `std`.
        assert_eq!(files("mycrate::cache::store::Disk"), ["src/cache/store.rs"]);
        assert!(files("mycrate::router").is_empty());
        assert!(files("core::cache::store").is_empty());
    }

    #[test]
    fn auxiliary_files() {
        for aux in [
            "tests/test_a.py",
            "pkg/test_a.py",
            "pkg/a_test.py",
            "router/tree_test.go",
            "src/__tests__/a.ts",
            "src/a.test.tsx",
            "src/a.spec.js",
            "src/test/java/AppTest.java",
            "app/src/FooTests.cs",
            "conftest.py",
            "benches/parse.rs",
            "benchmarks/bench_a.py",
            "testdata/x.go",
            "fixtures/a.json",
            "examples/basic.rs",
            "api/v1/service_pb2.py",
            "api/v1/service.pb.go",
            "dist/app.min.js",
            "Foo.generated.cs",
            "packages/query-core/vite.config.ts",
            "src/Button.stories.tsx",
        ] {
            assert!(is_auxiliary(aux), "{aux}");
        }
        for source in [
            "src/lib.rs",
            "pkg/latest.py",
            "pkg/contest.py",
            "src/testing_utils_are_source_here.py",
            "src/Test.java",
            "router/tree.go",
            "src/protest.ts",
            "src/attest.rs",
        ] {
            assert!(!is_auxiliary(source), "{source}");
        }
    }

    #[test]
    fn top_level_variables_count_as_definitions() {
        let ts = "import x from 'y'\n\nexport const focusManager = new FocusManager()\nlet other: number = 1\nfunction f() {\n  const inner = 2\n}\n";
        assert!(defines_variable(ts, "focusManager"));
        assert!(defines_variable(ts, "other"));
        assert!(!defines_variable(ts, "inner"));
        assert!(!defines_variable(ts, "focus"));
        let py =
            "DEFAULTS = {}\nTIMEOUT: float = 2.0\nif DEFAULTS == 1:\n    LOCAL = 3\nobj.attr = 4\n";
        assert!(defines_variable(py, "DEFAULTS"));
        assert!(defines_variable(py, "TIMEOUT"));
        assert!(!defines_variable(py, "LOCAL"));
        assert!(!defines_variable(py, "attr"));
        let go = "package v\n\nvar Version = \"1\"\nconst (\n\tMax = 3\n\tmin int = 1\n)\nfunc f() {\n\tvar local = 1\n}\n";
        assert!(defines_variable(go, "Version"));
        assert!(defines_variable(go, "Max"));
        assert!(defines_variable(go, "min"));
        assert!(!defines_variable(go, "local"));
        let rs = "pub static mut COUNTER: u32 = 0;\n#define LIMIT 4\n";
        assert!(defines_variable(rs, "COUNTER"));
        assert!(defines_variable(rs, "LIMIT"));
    }
}
