//! Reading a task for what it names, before any file is looked at: the
//! words that are paths (by every extension the language table knows; a
//! forge link's path, without a `#L10` anchor or a `'s`),
//! the scopes of conventional-commit subjects (`fix(router): …`), the
//! module names (`pkg.sub.mod`, `crate::a::b`, a marked bare word) and the
//! identifiers of code — marked as code by their shape (`snake_case`,
//! `camelCase`), backticks, a call `f(`, a private `#name` or a member
//! `Class#method`. Plain English
//! words (`match`, `data`) and keywords (`false`, `self`) name nothing.

use std::collections::HashSet;

use crate::core::syntax::Lang;
use crate::core::syntax::is_code_path;

/// The words of a task, by what they may name; each once, in task order.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Words {
    /// Paths, path suffixes, file and folder names: `src/tree.go`.
    pub paths: Vec<String>,
    /// Conventional-commit scopes: `docker_context` of `fix(docker_context): …`.
    pub scopes: Vec<String>,
    /// Module names: `pkg.sub.mod`, `crate::a::b`, a marked bare word.
    pub modules: Vec<String>,
    /// Names a file may define.
    pub idents: Vec<String>,
}

/// Extensions of text files the language table does not hold that still
/// make a word a path (`Cargo.toml`, `go.mod`, `schema.sql`).
const TEXT_EXTENSIONS: &[&str] = &[
    "toml", "txt", "json", "yaml", "yml", "cfg", "ini", "xml", "html", "css", "scss", "sql",
    "proto", "gradle", "cmake", "mod", "lock", "vue", "svelte", "scala", "dart", "zig", "ex",
    "exs",
];

/// Keywords and literals of the languages ctxcurate reads: written in a
/// task (even in backticks) they name no definition of the project.
const KEYWORDS: &[&str] = &[
    "and",
    "assert",
    "async",
    "await",
    "begin",
    "break",
    "case",
    "catch",
    "class",
    "cls",
    "const",
    "continue",
    "crate",
    "def",
    "default",
    "define",
    "defer",
    "del",
    "delete",
    "elif",
    "else",
    "elsif",
    "end",
    "endif",
    "enum",
    "except",
    "export",
    "extends",
    "extern",
    "false",
    "False",
    "final",
    "finally",
    "for",
    "from",
    "fun",
    "func",
    "function",
    "global",
    "goto",
    "ifdef",
    "ifndef",
    "impl",
    "import",
    "include",
    "inline",
    "instanceof",
    "interface",
    "lambda",
    "let",
    "local",
    "loop",
    "mod",
    "mut",
    "namespace",
    "new",
    "nil",
    "None",
    "nonlocal",
    "not",
    "null",
    "nullptr",
    "NaN",
    "override",
    "package",
    "pass",
    "pragma",
    "private",
    "protected",
    "pub",
    "public",
    "raise",
    "return",
    "self",
    "Self",
    "sizeof",
    "static",
    "struct",
    "super",
    "switch",
    "then",
    "this",
    "throw",
    "throws",
    "trait",
    "true",
    "True",
    "try",
    "type",
    "typename",
    "typeof",
    "undef",
    "undefined",
    "unless",
    "unsafe",
    "until",
    "use",
    "using",
    "val",
    "var",
    "virtual",
    "void",
    "when",
    "where",
    "while",
    "with",
    "yield",
];

/// Whether `word` is a keyword or literal, never an identifier mention.
pub(super) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// The words of `task`, sorted by what they may name.
pub(super) fn read(task: &str) -> Words {
    let mut words = Words::default();
    let mut seen = HashSet::new();
    let mut body = String::with_capacity(task.len());
    for line in task.lines() {
        let (scopes, rest) = commit_scopes(line);
        for scope in scopes {
            if seen.insert(format!("({scope})")) {
                words.scopes.push(scope);
            }
        }
        body.push_str(rest);
        body.push('\n');
    }
    let mut in_code = false;
    for raw in body.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let ticks = raw.matches('`').count();
        let quoted = in_code || raw.starts_with('`');
        if ticks % 2 == 1 {
            in_code = !in_code;
        }
        let private = raw
            .trim_start_matches(['`', '(', '"', '\'', '<'])
            .starts_with('#');
        let word = raw
            .trim_start_matches(|c: char| !(c.is_alphanumeric() || "_/.".contains(c)))
            .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
        // A link is no code; one to a file on a forge names its path.
        if word.starts_with("http://") || word.starts_with("https://") {
            if let Some(path) = forge_path(word)
                && !words.paths.iter().any(|p| p == path)
            {
                words.paths.push(path.to_string());
            }
            continue;
        }
        let word = without_possessive(without_line_number(without_anchor(word)));
        // A Windows path (`src\app\main.py`, `C:\proj\x.rs`) in `/` form:
        // a file by its extension, or two folders deep (not `a\b`).
        let slashed;
        let word = if word.contains('\\') && !word.contains('/') {
            slashed = word.replace('\\', "/");
            let file = slashed.rsplit('/').next().unwrap_or_default();
            match slashed.matches('/').count() >= 2 || looks_like_path(file) {
                true => slashed.as_str(),
                false => word,
            }
        } else {
            word
        };
        // `match(x)`: the name called.
        let word = match word.split_once('(') {
            Some((name, _)) if !name.is_empty() => name,
            _ => word,
        };
        let called = raw.contains('(');
        // A word seen plain may come back marked (`match`, then `match(x)`).
        if word.is_empty() || !seen.insert(format!("{word} {quoted} {called} {private}")) {
            continue;
        }
        // `Class#method` (JSDoc, Ruby) and `this.#name`: a member.
        let member = (!word.starts_with('#') && word.contains('#'))
            .then(|| word.replace(".#", ".").replacen('#', ".", 1));
        let marked = Marks {
            quoted,
            called,
            private: private || member.is_some(),
        };
        if let Some(member) = member {
            words.take_code(&member, marked, false);
            continue;
        }
        if looks_like_path(word) {
            let path = word.trim_start_matches("./");
            if !path.is_empty() && !words.paths.iter().any(|p| p == path) {
                words.paths.push(path.to_string());
            }
            // `Hijack/CloseNotify`: names joined by a slash may be code.
            if !word.contains('.') {
                words.take_code(word, marked, false);
            }
            continue;
        }
        words.take_code(word, marked, true);
    }
    words
}

/// What marks a word as code besides its shape.
#[derive(Debug, Clone, Copy)]
struct Marks {
    /// In backticks.
    quoted: bool,
    /// Followed by `(`.
    called: bool,
    /// A JavaScript private name, `#name`.
    private: bool,
}

impl Words {
    /// The modules (with `modules`) and identifiers one word names.
    fn take_code(&mut self, word: &str, marks: Marks, modules: bool) {
        let rust = word.contains("::");
        let parts: Vec<&str> = if rust {
            word.split("::").filter(|p| !p.is_empty()).collect()
        } else {
            word.split(['.', '/']).collect()
        };
        let Some((last, before)) = parts.split_last() else {
            return;
        };
        let names_module = if rust {
            module_parts(word).iter().all(|p| is_name(p)) && !module_parts(word).is_empty()
        } else if parts.len() > 1 {
            // `pkg.sub.mod`, never `self.x` or `this.x`.
            parts.iter().all(|p| is_name(p)) && !is_keyword(parts[0])
        } else {
            // A bare word that is marked as code may be a module's name.
            is_identifier(word) && !is_keyword(word) && (marks.quoted || looks_like_code(word))
        };
        if modules && names_module {
            push_once(&mut self.modules, word);
        }
        // `a.b.c` names its last part when that is marked; the parts before
        // it only when they look like code (`BuildTracker.add()`).
        let marked = marks.quoted || marks.called || marks.private;
        for part in before {
            if is_identifier(part) && !is_keyword(part) && looks_like_code(part) {
                push_once(&mut self.idents, part);
            }
        }
        if is_identifier(last) && !is_keyword(last) && (marked || looks_like_code(last)) {
            push_once(&mut self.idents, last);
        }
    }
}

fn push_once(list: &mut Vec<String>, item: &str) {
    if !list.iter().any(|i| i == item) {
        list.push(item.to_string());
    }
}

/// The module names of a `::` path without its `crate`, `self`, `super`
/// and `::` prefixes: `crate::a::b` → `[a, b]`.
pub(super) fn module_parts(word: &str) -> Vec<&str> {
    let sep: &[char] = if word.contains("::") { &[':'] } else { &['.'] };
    let parts: Vec<&str> = word.split(sep).filter(|p| !p.is_empty()).collect();
    let skip = parts
        .iter()
        .take_while(|p| matches!(**p, "crate" | "self" | "super"))
        .count();
    parts[skip..].to_vec()
}

/// The scopes of a conventional-commit subject at the start of `line`
/// (`fix(docker_context): …`, `feat(api, cli)!: …`, `- refactor(core/router): …`)
/// and the line after the subject's `type(scope):`; no scope: the line.
fn commit_scopes(line: &str) -> (Vec<String>, &str) {
    let start = line.trim_start();
    let start = start
        .strip_prefix("- ")
        .or_else(|| start.strip_prefix("* "))
        .unwrap_or(start)
        .trim_start();
    // The type is lowercase (`fix`), or one of the usual types written
    // with a capital (`Fix(output): …`; not `Run(x): fails`).
    let capital = start.starts_with(|c: char| c.is_ascii_uppercase());
    let kind_len = start
        .char_indices()
        .skip(usize::from(capital))
        .find(|(_, c)| !c.is_ascii_lowercase())
        .map_or(start.len(), |(i, _)| i);
    if capital && !COMMIT_TYPES.contains(&start[..kind_len].to_ascii_lowercase().as_str()) {
        return (Vec::new(), line);
    }
    let Some(rest) = start[kind_len..].strip_prefix('(') else {
        return (Vec::new(), line);
    };
    if !(2..=12).contains(&kind_len) {
        return (Vec::new(), line);
    }
    let Some((inside, after)) = rest.split_once(')') else {
        return (Vec::new(), line);
    };
    let after = after.strip_prefix('!').unwrap_or(after);
    let Some(after) = after.strip_prefix(':') else {
        return (Vec::new(), line);
    };
    let scopes = inside
        .split(',')
        .map(|s| s.trim().trim_start_matches('@').trim_matches('/'))
        .filter(|s| {
            !s.is_empty()
                && s.len() <= 80
                && s.chars().all(|c| c.is_alphanumeric() || "-_./".contains(c))
        })
        .map(String::from)
        .collect();
    (scopes, after)
}

/// The path of a link to a file or folder on a forge: GitHub's and
/// Gitea's `…/blob/REF/PATH` and `…/tree/REF/PATH`, GitLab's `…/-/blob/…`,
/// without its query and anchor. A branch holding a `/` leaves part of
/// itself in front, which the matching sees past (a path from the root of
/// a larger repository).
fn forge_path(link: &str) -> Option<&str> {
    let link = link.split(['#', '?']).next().unwrap_or(link);
    let at = ["/blob/", "/tree/", "/src/branch/", "/src/commit/"]
        .iter()
        .filter_map(|m| link.find(m).map(|i| i + m.len()))
        .min()?;
    let (_reference, path) = link[at..].split_once('/')?;
    let path = path.trim_end_matches('/');
    (!path.is_empty()).then_some(path)
}

/// `src/app.ts#L10` or `#L10-L12` (a forge's line anchor) without it.
fn without_anchor(word: &str) -> &str {
    match word.rsplit_once("#L") {
        Some((head, lines))
            if !head.is_empty()
                && !lines.is_empty()
                && lines
                    .split("-L")
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            head
        }
        _ => word,
    }
}

/// `Button.tsx's` without its `'s`.
fn without_possessive(word: &str) -> &str {
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix("\u{2019}s"))
        .unwrap_or(word)
}

/// The usual types of conventional commits, which some projects write
/// with a capital.
const COMMIT_TYPES: &[&str] = &[
    "build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
    "tests", "bugfix", "hotfix", "feature",
];

/// `src/tree.go:42` or `tree.go:42:7` without its line and column.
fn without_line_number(word: &str) -> &str {
    let mut w = word;
    for _ in 0..2 {
        match w.rsplit_once(':') {
            Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => w = head,
            _ => break,
        }
    }
    w
}

/// A word with an extension of a language or text file, or with a `/`.
pub(super) fn looks_like_path(word: &str) -> bool {
    if word.contains("::") || word.starts_with("http") {
        return false;
    }
    let name = word.rsplit('/').next().unwrap_or(word);
    let ext = name
        .rsplit_once('.')
        .map(|(stem, e)| (stem, e.to_ascii_lowercase()));
    let has_ext = ext.is_some_and(|(stem, e)| {
        !stem.is_empty()
            && (Lang::from_path(name).is_some()
                || (e.len() >= 3 && !["cmd", "bat"].contains(&e.as_str()) && is_code_path(name))
                || TEXT_EXTENSIONS.contains(&e.as_str()))
    });
    has_ext || (word.contains('/') && word.len() > 2)
}

/// A name in a module path: `[A-Za-z_][A-Za-z0-9_]*`, any length.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A name of three characters or more.
fn is_identifier(s: &str) -> bool {
    is_name(s) && s.len() >= 3
}

/// `snake_case`, `camelCase`, `PascalCase` with two capitals: code, not
/// prose.
fn looks_like_code(s: &str) -> bool {
    let snake = s.trim_matches('_').contains('_');
    let interior_upper = s.chars().skip(1).any(|c| c.is_ascii_uppercase());
    snake || (interior_upper && s.chars().any(|c| c.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_look_like_code_or_paths() {
        let words = read(
            "Fix the bug in `prepare.py`: prepare_linked_requirement calls \
             BuildTracker.add() and the Reader is slow; see pip/_internal/req, \
             `Link` and run(). Then update README.md.",
        );
        assert_eq!(
            words.paths,
            ["prepare.py", "pip/_internal/req", "README.md"]
        );
        assert_eq!(words.scopes, Vec::<String>::new());
        assert_eq!(
            words.modules,
            ["prepare_linked_requirement", "BuildTracker.add", "Link"]
        );
        assert_eq!(
            words.idents,
            [
                "prepare_linked_requirement",
                "BuildTracker",
                "add",
                "Link",
                "run"
            ]
        );
    }

    #[test]
    fn every_extension_of_the_language_table_is_a_path() {
        let words = read(
            "see tree.go, App.tsx, button.jsx, cli.mjs, api.mts, Main.kt, \
             app.rb, Rakefile.rake, lib.rs:12, src/x.cs:3:9, go.mod and Cargo.toml",
        );
        assert_eq!(
            words.paths,
            [
                "tree.go",
                "App.tsx",
                "button.jsx",
                "cli.mjs",
                "api.mts",
                "Main.kt",
                "app.rb",
                "Rakefile.rake",
                "lib.rs",
                "src/x.cs",
                "go.mod",
                "Cargo.toml"
            ]
        );
        // Code without a grammar (shells, components); not a short
        // extension that is as often a field (`point.y`, `self.cmd`).
        let words =
            read("fix completion.zsh, key-bindings.fish, Card.svelte, point.y and self.cmd");
        assert_eq!(
            words.paths,
            ["completion.zsh", "key-bindings.fish", "Card.svelte"]
        );
        // Names joined by a slash are a path and may be code too.
        let words = read("panic on Hijack/CloseNotify and max/min");
        assert_eq!(words.paths, ["Hijack/CloseNotify", "max/min"]);
        assert_eq!(words.idents, ["CloseNotify"]);
        assert_eq!(words.modules, Vec::<String>::new());
        // Prose with dots is not a path: `e.g.`, a version, a sentence end.
        let words = read("e.g. version 1.2.3 is out. Use the http://x.io/a.py link");
        assert_eq!(words.paths, Vec::<String>::new());
    }

    #[test]
    fn conventional_commit_scopes() {
        let scopes = |task: &str| read(task).scopes;
        assert_eq!(
            scopes("fix(docker_context): a bad context"),
            ["docker_context"]
        );
        assert_eq!(scopes("feat(powered-by): show it"), ["powered-by"]);
        assert_eq!(scopes("refactor(core/router)!: split"), ["core/router"]);
        assert_eq!(scopes("feat(api, cli): both"), ["api", "cli"]);
        // A type written with a capital, as some projects do.
        assert_eq!(scopes("Fix(output): usage"), ["output"]);
        assert_eq!(read("Fix(output): usage").idents, Vec::<String>::new());
        assert_eq!(
            scopes("chore: bump\n\n- fix(@tanstack/query-core): x"),
            ["tanstack/query-core"]
        );
        // Not a subject: a call in prose, no colon, a type too long.
        assert_eq!(scopes("Why does run(x): fail"), Vec::<String>::new());
        assert_eq!(scopes("Run(x): fail"), Vec::<String>::new());
        assert_eq!(scopes("fix(parser) wrong"), Vec::<String>::new());
        assert_eq!(scopes("reorganisations(x): y"), Vec::<String>::new());
        assert_eq!(scopes("(x): y"), Vec::<String>::new());
        assert_eq!(scopes("fix(a b): y"), Vec::<String>::new());
        // The subject's type is no identifier; the rest is read as usual.
        let words = read("fix(router): `match_route` drops a param");
        assert_eq!(words.idents, ["match_route"]);
    }

    #[test]
    fn module_names() {
        let words = read(
            "In `crate::cache::store` and pip._internal.req.req_install, \
             self.client and `router`, also std::io::Error and `Foo::new()`",
        );
        assert_eq!(
            words.modules,
            [
                "crate::cache::store",
                "pip._internal.req.req_install",
                "router",
                "std::io::Error",
                "Foo::new"
            ]
        );
        assert_eq!(module_parts("crate::cache::store"), ["cache", "store"]);
        assert_eq!(module_parts("super::super::x"), ["x"]);
        assert_eq!(module_parts("a.b.c"), ["a", "b", "c"]);
        assert_eq!(words.idents, ["store", "req_install", "router"]);
    }

    #[test]
    fn keywords_and_plain_words_are_no_identifiers() {
        let words = read(
            "It returns `false` (not `true`), `null`, `nil`, `None`, `self`, `this`, \
             `return`; match files use url data all wrong, match(x) too",
        );
        assert_eq!(words.idents, ["match"]);
        assert_eq!(words.modules, Vec::<String>::new());
        // A private name is the name; quoted or not.
        let words = read("`#updateRefetchInterval` and #timerId break");
        assert_eq!(words.idents, ["updateRefetchInterval", "timerId"]);
        // A member written `Class#method` (JSDoc, Ruby) or reached through
        // `this.#name`.
        let words = read(
            "QueryObserver#updateRefetchInterval runs twice; this.#updateStaleTimeout() leaks",
        );
        assert_eq!(
            words.idents,
            [
                "QueryObserver",
                "updateRefetchInterval",
                "updateStaleTimeout"
            ]
        );
    }

    #[test]
    fn windows_paths_name_the_files_in_slash_form() {
        let words = read(
            "crash in src\\flask\\json\\tag.py:12, see .\\lib\\x.rs and \
             C:\\Users\\me\\proj\\src\\app.ts; not a \\n escape or a\\b",
        );
        assert_eq!(
            words.paths,
            [
                "src/flask/json/tag.py",
                "lib/x.rs",
                "C:/Users/me/proj/src/app.ts"
            ]
        );
    }

    #[test]
    fn forge_links_line_anchors_and_possessives_name_paths() {
        let words = read(
            "see https://github.com/o/r/blob/main/src/ui/Card.jsx#L3 and \
             <https://gitlab.com/g/p/-/blob/v1.2/lib/x.rs?plain=1#L2-L9>, \
             src/ui/Button.tsx#L10-L12 and Button.tsx's props; \
             https://github.com/o/r/tree/main/src/ui too, not https://example.com/a.py",
        );
        assert_eq!(
            words.paths,
            [
                "src/ui/Card.jsx",
                "lib/x.rs",
                "src/ui/Button.tsx",
                "Button.tsx",
                "src/ui"
            ]
        );
        // A link's owner and project are no identifiers.
        assert_eq!(words.idents, Vec::<String>::new());
    }
}
