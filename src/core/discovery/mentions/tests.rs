//! `find` on small projects written to a temporary folder: each kind of
//! mention, what it matches and in which order, with exact expectations.

use std::path::Path;

use super::*;
use crate::core::sources::Sources;

/// The project of `files` (path, text) under a temporary folder.
fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let abs = dir.path().join(path);
        std::fs::create_dir_all(abs.parent().expect("parent")).expect("mkdir");
        std::fs::write(abs, text).expect("write");
    }
    let mut walked: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
    walked.sort();
    (dir, walked)
}

fn mentions(root: &Path, walked: &[String], task: &str) -> Vec<(String, MentionKind, Vec<String>)> {
    let sources = Sources::new();
    let codebase = Codebase::new(root, &sources).with_walk(walked);
    find(&codebase, task)
        .into_iter()
        .map(|m| (m.text, m.kind, m.files))
        .collect()
}

fn m(text: &str, kind: MentionKind, files: &[&str]) -> (String, MentionKind, Vec<String>) {
    (
        text.to_string(),
        kind,
        files.iter().map(|f| f.to_string()).collect(),
    )
}

use MentionKind::{Identifier, Module, Path as PathKind, Scope};

#[test]
fn paths_by_every_extension_and_folders() {
    let (dir, walked) = project(&[
        ("tree.go", "package router\n"),
        ("src/App.tsx", "export const App = 1\n"),
        ("lib/cli.mjs", "export default 1\n"),
        ("lib/api/index.ts", "export {}\n"),
        ("lib/api/client.ts", "export {}\n"),
        ("lib/api/client.test.ts", "export {}\n"),
    ]);
    assert_eq!(
        mentions(
            dir.path(),
            &walked,
            "fix: wrong when wildcard follows named param in tree.go:120 (App.tsx, cli.mjs); see lib/api"
        ),
        [
            m("tree.go", PathKind, &["tree.go"]),
            m("App.tsx", PathKind, &["src/App.tsx"]),
            m("cli.mjs", PathKind, &["lib/cli.mjs"]),
            m(
                "lib/api",
                PathKind,
                &[
                    "lib/api/client.ts",
                    "lib/api/index.ts",
                    "lib/api/client.test.ts"
                ]
            ),
        ]
    );
}

#[test]
fn a_scope_names_its_module() {
    let (dir, walked) = project(&[
        ("cli/command/context/docker_context.go", "package context\n"),
        (
            "cli/command/context/docker_context_test.go",
            "package context\n",
        ),
        ("cli/command/context/list.go", "package context\n"),
        ("site/powered-by/PoweredBy.tsx", "export const x = 1\n"),
        ("site/powered-by/PoweredBy.test.tsx", "export const y = 1\n"),
    ]);
    assert_eq!(
        mentions(
            dir.path(),
            &walked,
            "fix(docker_context): load the endpoint before the TLS data"
        ),
        [m(
            "docker_context",
            Scope,
            &["cli/command/context/docker_context.go"]
        )]
    );
    assert_eq!(
        mentions(dir.path(), &walked, "feat(powered-by): link the logo"),
        [m(
            "powered-by",
            Scope,
            &[
                "site/powered-by/PoweredBy.tsx",
                "site/powered-by/PoweredBy.test.tsx"
            ]
        )]
    );
    assert_eq!(
        mentions(dir.path(), &walked, "chore(deps): bump"),
        [m("deps", Scope, &[])]
    );
}

/// `router` names `src/router.rs`, not `src/lib.rs` that declares
/// `mod router;`; `crate::cache::store` and a Python dotted name their own
/// files too.
#[test]
fn a_module_name_matches_its_own_file() {
    let (dir, walked) = project(&[
        ("src/lib.rs", "mod router;\nmod cache;\npub fn run() {}\n"),
        ("src/router.rs", "pub fn route() {}\n"),
        ("src/cache/mod.rs", "pub mod store;\n"),
        ("src/cache/store.rs", "pub struct Store;\n"),
        ("pkg/__init__.py", ""),
        ("pkg/sub/__init__.py", ""),
        ("pkg/sub/mod.py", "def f():\n    pass\n"),
    ]);
    assert_eq!(
        mentions(
            dir.path(),
            &walked,
            "The `router` drops params; `crate::cache::store` and pkg.sub.mod.f are slow"
        ),
        [
            m("router", Module, &["src/router.rs"]),
            m("crate::cache::store", Module, &["src/cache/store.rs"]),
            m("pkg.sub.mod.f", Module, &["pkg/sub/mod.py"]),
        ]
    );
}

#[test]
fn identifiers_defined_as_symbols_private_names_and_variables() {
    let (dir, walked) = project(&[
        (
            "src/focusManager.ts",
            "export class FocusManager {}\nexport const focusManager = new FocusManager()\n",
        ),
        (
            "src/query.ts",
            "export class Query {\n  #updateRefetchInterval(n: number) {\n    return n\n  }\n}\n",
        ),
        (
            "src/use.ts",
            "import { focusManager } from './focusManager'\nconst x = false\n",
        ),
        ("settings.py", "DEFAULT_TIMEOUT = 15\n"),
        ("version.go", "package v\n\nvar Version = \"1\"\n"),
    ]);
    assert_eq!(
        mentions(
            dir.path(),
            &walked,
            "`focusManager` stays `false` after `#updateRefetchInterval`; DEFAULT_TIMEOUT and `Version` are off"
        ),
        [
            m("focusManager", Module, &["src/focusManager.ts"]),
            m("focusManager", Identifier, &["src/focusManager.ts"]),
            m("updateRefetchInterval", Identifier, &["src/query.ts"]),
            m("DEFAULT_TIMEOUT", Identifier, &["settings.py"]),
            m("Version", Identifier, &["version.go"]),
        ]
    );
}

/// Every file that defines a name, source before tests, benchmarks and
/// examples, not the first few in path order.
#[test]
fn identifier_files_are_ranked_source_first() {
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..10 {
        files.push((
            format!("benches/b{i}.rs"),
            "fn match_route() {}\n".to_string(),
        ));
    }
    files.push((
        "examples/basic.rs".to_string(),
        "fn match_route() {}\n".to_string(),
    ));
    files.push((
        "src/tree.rs".to_string(),
        "pub fn match_route() {}\n".to_string(),
    ));
    files.push((
        "src/tree_test.rs".to_string(),
        "fn match_route() {}\n".to_string(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let (dir, walked) = project(&refs);
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources).with_walk(&walked);
    let found = find(&codebase, "match_route is wrong");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].total, 13);
    assert_eq!(found[0].files.len(), 13);
    assert_eq!(found[0].files[0], "src/tree.rs");
    assert_eq!(found[0].files[1], "benches/b0.rs");
    assert_eq!(found[0].files[12], "src/tree_test.rs");
}

#[test]
fn plain_words_and_keywords_name_nothing() {
    let (dir, walked) = project(&[
        ("src/match.rs", "pub fn files() {}\npub fn data() {}\n"),
        ("src/url.rs", "pub fn url() {}\npub fn use_it() {}\n"),
    ]);
    assert_eq!(
        mentions(
            dir.path(),
            &walked,
            "match files use url data: `null` and `self` and true"
        ),
        []
    );
}

#[test]
fn matched_files_once_in_mention_order() {
    let ms = [
        Mention {
            text: "a".into(),
            kind: PathKind,
            files: vec!["x.py".into(), "y.py".into()],
            total: 2,
        },
        Mention {
            text: "b".into(),
            kind: Identifier,
            files: vec!["y.py".into(), "z.py".into()],
            total: 2,
        },
    ];
    assert_eq!(matched_files(&ms), ["x.py", "y.py", "z.py"]);
}

/// A language the task names matches its locale files; a task naming
/// more than [`languages::MAX_NAMED`] has only its first ones looked for
/// (each costs a look at every path).
#[test]
fn languages_match_their_locale_files_up_to_the_bound() {
    let codes = [
        "de", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "sv", "zh",
    ];
    let files: Vec<(String, &str)> = codes
        .iter()
        .map(|c| (format!("locales/{c}.ts"), "export default {};\n"))
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let (dir, walked) = project(&files);
    assert_eq!(
        mentions(dir.path(), &walked, "Fix adjectives in Japanese"),
        [m("Japanese", MentionKind::Language, &["locales/ja.ts"])]
    );
    let all = "German Spanish French Italian Japanese Korean Dutch Polish Portuguese Russian \
               Swedish Chinese";
    let found = mentions(dir.path(), &walked, all);
    let languages: Vec<&str> = found
        .iter()
        .filter(|(_, kind, _)| *kind == MentionKind::Language)
        .map(|(text, _, _)| text.as_str())
        .collect();
    assert_eq!(
        languages,
        [
            "German", "Spanish", "French", "Italian", "Japanese", "Korean", "Dutch", "Polish"
        ]
    );
}
