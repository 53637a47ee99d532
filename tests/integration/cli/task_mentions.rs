//! What a task names, through the real binary: `build --task` in a project
//! with no preset, as a new user runs it. The stats list each mention with
//! its kind and files; the files it names are packed.

use crate::common;

use common::{Project, stderr};

/// A Go router, a Rust crate and a TypeScript package in one project.
fn project() -> Project {
    let p = Project::empty();
    p.write(
        "router/tree.go",
        "package router\n\nfunc (n *node) addRoute(path string) {}\n",
    );
    p.write(
        "router/tree_test.go",
        "package router\n\nfunc addRoute() {}\n",
    );
    p.write(
        "router/context.go",
        "package router\n\nvar Version = \"1\"\n",
    );
    p.write("crate/src/lib.rs", "mod cache;\npub fn run() {}\n");
    p.write("crate/src/cache.rs", "pub fn get() {}\n");
    p.write(
        "web/src/focusManager.ts",
        "export class FocusManager {}\nexport const focusManager = new FocusManager()\n",
    );
    p.write(
        "web/src/query.ts",
        "export class Query {\n  #updateRefetchInterval(n: number) {\n    return n\n  }\n}\n",
    );
    p.write("web/src/App.tsx", "export const App = () => null\n");
    p
}

/// One mention as `--stats-json` gives it: text, kind, files.
type Seen = (String, String, Vec<String>);

/// Each mention in `--stats-json`, and the role of each packed file.
fn run(p: &Project, task: &str) -> (Vec<Seen>, Vec<(String, String)>) {
    let out = p.run(&["build", "--task", task, "--budget", "4000", "--stats-json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stderr(&out).trim()).expect("json");
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let mentions = json["stats"]["mentions"]
        .as_array()
        .expect("mentions")
        .iter()
        .map(|m| {
            let files = m["files"]
                .as_array()
                .expect("files")
                .iter()
                .map(text)
                .collect();
            (text(&m["text"]), text(&m["kind"]), files)
        })
        .collect();
    let roles = json["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| (text(&i["path"]), text(&i["role"])))
        .collect();
    (mentions, roles)
}

fn m(text: &str, kind: &str, files: &[&str]) -> Seen {
    (
        text.to_string(),
        kind.to_string(),
        files.iter().map(|f| f.to_string()).collect(),
    )
}

/// Of `files`, those packed (the pack ranks them for the task: their role
/// is the ranking's, not `mentioned`).
fn mentioned<'a>(roles: &[(String, String)], files: &[&'a str]) -> Vec<&'a str> {
    files
        .iter()
        .copied()
        .filter(|f| roles.iter().any(|(p, _)| p == f))
        .collect()
}

#[test]
fn a_commit_scope_and_go_and_tsx_paths_are_read() {
    let p = project();
    let (mentions, roles) = run(&p, "fix(router): wrong when wildcard follows named param");
    assert_eq!(
        mentions,
        [m(
            "router",
            "scope",
            &["router/context.go", "router/tree.go", "router/tree_test.go"]
        )]
    );
    let named = ["router/context.go", "router/tree.go", "router/tree_test.go"];
    assert_eq!(mentioned(&roles, &named), named);
    let (mentions, _) = run(&p, "App.tsx renders twice; see tree.go:12");
    assert_eq!(
        mentions,
        [
            m("App.tsx", "path", &["web/src/App.tsx"]),
            m("tree.go", "path", &["router/tree.go"]),
        ]
    );
}

#[test]
fn modules_variables_and_private_names_match_their_files() {
    let p = project();
    let (mentions, roles) = run(
        &p,
        "`cache` misses; `focusManager` stays `false` after `#updateRefetchInterval`, Version too",
    );
    assert_eq!(
        mentions,
        [
            m("cache", "module", &["crate/src/cache.rs"]),
            m("focusManager", "module", &["web/src/focusManager.ts"]),
            m("focusManager", "identifier", &["web/src/focusManager.ts"]),
            m("updateRefetchInterval", "identifier", &["web/src/query.ts"]),
        ]
    );
    let named = [
        "crate/src/cache.rs",
        "web/src/focusManager.ts",
        "web/src/query.ts",
    ];
    assert_eq!(mentioned(&roles, &named), named);
}

/// A name defined in a source file and its test: the source file first.
#[test]
fn identifiers_rank_source_before_tests() {
    let p = project();
    let (mentions, _) = run(&p, "addRoute panics on a wildcard");
    assert_eq!(
        mentions,
        [m(
            "addRoute",
            "identifier",
            &["router/tree.go", "router/tree_test.go"]
        )]
    );
}

/// What an agent pastes: a link to the file on its forge (with a line
/// anchor), a path from the root of the repository the project is one
/// package of, `Class#method`, a Rust path through the crate's own name.
/// Each names its file, which is packed.
#[test]
fn forge_links_repository_paths_members_and_crate_paths_name_their_files() {
    let p = project();
    p.write("crate/src/store/disk.rs", "pub fn flush() {}\n");
    let (mentions, roles) = run(
        &p,
        "crash at https://github.com/acme/mono/blob/main/web/src/App.tsx#L3 on load",
    );
    assert_eq!(
        mentions,
        [m("web/src/App.tsx", "path", &["web/src/App.tsx"])]
    );
    assert_eq!(mentioned(&roles, &["web/src/App.tsx"]), ["web/src/App.tsx"]);
    let (mentions, _) = run(&p, "Why does packages/acme/router/tree.go#L12 panic");
    assert_eq!(
        mentions,
        [m(
            "packages/acme/router/tree.go",
            "path",
            &["router/tree.go"]
        )]
    );
    let (mentions, _) = run(&p, "Query#updateRefetchInterval runs twice");
    assert_eq!(
        mentions,
        [m(
            "updateRefetchInterval",
            "identifier",
            &["web/src/query.ts"]
        )]
    );
    let (mentions, roles) = run(&p, "mycrate::store::disk::flush loses writes");
    assert_eq!(
        mentions,
        [m(
            "mycrate::store::disk::flush",
            "module",
            &["crate/src/store/disk.rs"]
        )]
    );
    assert_eq!(
        mentioned(&roles, &["crate/src/store/disk.rs"]),
        ["crate/src/store/disk.rs"]
    );
}
