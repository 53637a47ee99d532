//! `ctxcurate build --target F --budget N` on a small Rust crate and a
//! small TypeScript package, as the real binary: the target and what it
//! imports (Rust `mod`/`use crate::`/`super::` paths; TypeScript relative
//! `./x.js` written for `x.ts`, `index` files, `tsconfig.json` paths and
//! the package's own name) are packed, and a file nothing imports is not.

use crate::common;

use common::{Project, stderr};

fn rust_crate() -> Project {
    let p = Project::empty();
    p.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
    );
    p.write(
        "src/main.rs",
        "mod config;\nmod net;\nmod gone;\n\nuse crate::net::client::Client;\n\nfn main() {\n    Client::new(config::load()).run();\n}\n",
    );
    p.write(
        "src/config.rs",
        "pub struct Settings {\n    pub url: String,\n}\n\npub fn load() -> Settings {\n    Settings { url: String::new() }\n}\n",
    );
    p.write("src/net.rs", "pub mod client;\n");
    p.write(
        "src/net/client.rs",
        "use super::super::config::Settings;\nuse std::fmt;\n\npub struct Client(Settings);\n\nimpl Client {\n    pub fn new(s: Settings) -> Self {\n        Client(s)\n    }\n\n    pub fn run(&self) {}\n}\n",
    );
    p.write("src/unused.rs", "pub fn nobody_declares_me() {}\n");
    p
}

fn ts_package() -> Project {
    let p = Project::empty();
    p.write(
        "package.json",
        "{ \"name\": \"@acme/app\", \"exports\": { \"./extra\": \"./src/extra/index.ts\" } }\n",
    );
    p.write(
        "tsconfig.json",
        "{\n  // the aliases\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@lib/*\": [\"src/lib/*\"], },\n  },\n}\n",
    );
    p.write(
        "src/main.ts",
        "import { util } from \"./util.js\";\nimport { add } from \"@lib/math\";\nimport { extra } from \"@acme/app/extra\";\nimport React from \"react\";\nimport \"@lib/gone\";\n\nexport const run = () => util(add(1, 2), extra);\n",
    );
    p.write(
        "src/util.ts",
        "export function util(a: number, b: unknown) {\n  return a;\n}\n",
    );
    p.write(
        "src/lib/math.ts",
        "export const add = (a: number, b: number) => a + b;\n",
    );
    p.write("src/extra/index.ts", "export const extra = 1;\n");
    p.write("src/unused.ts", "export const nobody = 0;\n");
    p
}

/// The `### ` headers of the packed files, in order, and the directory
/// tree block; `--stats-json`'s numbers.
fn build(p: &Project, target: &str) -> (Vec<String>, String, serde_json::Value) {
    let args = [
        "build",
        "--target",
        target,
        "--budget",
        "20000",
        "--stats-json",
    ];
    let out = p.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let files = text
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(String::from)
        .collect();
    let tree = text.split("```\n").nth(1).unwrap_or_default().to_string();
    let json = serde_json::from_str(stderr(&out).trim()).expect("stats json");
    (files, tree, json)
}

#[test]
fn a_rust_target_is_packed_with_its_modules() {
    let p = rust_crate();
    let (files, tree, json) = build(&p, "src/main.rs");
    assert_eq!(
        files,
        [
            "src/main.rs",
            "src/config.rs",
            "src/net/client.rs",
            "src/net.rs"
        ]
    );
    assert_eq!(
        tree,
        "src/\n  net/\n    client.rs\n  config.rs\n  main.rs\n  net.rs\n"
    );
    assert_eq!(json["stats"]["discovered"], 3, "{json}");
    assert_eq!(json["stats"]["unresolved_imports"], 1, "{json}");
    assert_eq!(
        json["stats"]["unresolved_examples"][0]["file"],
        "src/main.rs"
    );
    assert_eq!(
        json["stats"]["unresolved_examples"][0]["import"],
        "mod gone;"
    );
}

#[test]
fn a_typescript_target_is_packed_with_its_imports() {
    let p = ts_package();
    let (files, tree, json) = build(&p, "src/main.ts");
    assert_eq!(
        files,
        [
            "src/main.ts",
            "src/extra/index.ts",
            "src/lib/math.ts",
            "src/util.ts"
        ]
    );
    assert_eq!(
        tree,
        "src/\n  extra/\n    index.ts\n  lib/\n    math.ts\n  main.ts\n  util.ts\n"
    );
    assert_eq!(json["stats"]["discovered"], 3, "{json}");
    assert_eq!(json["stats"]["unresolved_imports"], 1, "{json}");
    assert_eq!(
        json["stats"]["unresolved_examples"][0]["import"],
        "import \"@lib/gone\""
    );
}
