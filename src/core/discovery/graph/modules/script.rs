//! JavaScript and TypeScript imports: the specifiers of `import`/`export
//! … from`, `import()` and `require()`, a relative one resolved to the
//! file it names after the extensions and `index` files are tried.

use std::sync::LazyLock;

use regex::Regex;

use super::{join, parent};
use crate::core::discovery::graph::kind::ImportKind;
use crate::core::discovery::graph::resolve::{FileSet, Resolution};
use crate::core::module_maps::join_rel;
use crate::core::module_maps::script::mapped;
use crate::core::module_maps::stdlib;

#[cfg(test)]
use crate::core::module_maps::script as project;
pub(super) use crate::core::module_maps::script::Project;

static SCRIPT_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[^.\w$])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^.\w$])import\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)"#,
    )
    .expect("a constant pattern")
});

static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^///\s*<reference\s+path\s*=\s*["']([^"']+)["']"#).expect("a constant pattern")
});

/// Every module specifier imported, exported from or required, and the
/// files of `/// <reference path>` directives (as `./path`).
#[cfg(test)]
pub(super) fn encode(source: &str) -> Vec<String> {
    encode_kinded(source).into_iter().map(|(s, _)| s).collect()
}

/// [`encode`]'s specifiers, each with how it is imported: `import type`
/// and `export type … from` (or braces of `type` names only) type-only,
/// other `export … from` a re-export, `import()` lazy (as a
/// function-local import), the rest runtime.
pub(super) fn encode_kinded(source: &str) -> Vec<(String, ImportKind)> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in source.lines() {
        let t = line.trim_start();
        // `/// <reference path="x.d.ts" />`: a file named from its folder.
        if let Some(c) = REFERENCE.captures(t) {
            let path = &c[1];
            let spec = if path.starts_with('.') {
                path.to_string()
            } else {
                format!("./{path}")
            };
            out.push((spec, ImportKind::Runtime));
            continue;
        }
        if t.starts_with("//") || t.starts_with('*') {
            continue;
        }
        // A multi-line `import { a,\n b } from "x"` is read as one line.
        let text = if !pending.is_empty() {
            pending.push(' ');
            pending.push_str(line);
            if !line.contains('}') && pending.len() < 4096 {
                continue;
            }
            std::mem::take(&mut pending)
        } else if (t.starts_with("import ") || t.starts_with("export "))
            && t.contains('{')
            && !t.contains('}')
        {
            pending = line.to_string();
            continue;
        } else {
            line.to_string()
        };
        for c in SCRIPT_SPEC.captures_iter(&text) {
            if let Some(m) = c.get(1).or(c.get(2)).or(c.get(3)) {
                out.push((m.as_str().to_string(), kind_of(&c)));
            }
        }
    }
    out
}

/// How the statement [`SCRIPT_SPEC`] matched imports its specifier.
fn kind_of(c: &regex::Captures<'_>) -> ImportKind {
    let whole = c.get(0).map_or("", |m| m.as_str());
    // The pattern takes the character before the keyword too.
    let stmt = whole.trim_start_matches(|ch: char| !ch.is_ascii_alphabetic());
    let (keyword, clause) = stmt.split_at(stmt.len().min(6));
    let clause = clause.trim_start();
    if c.get(1).is_some() {
        let type_names_only = clause.strip_prefix('{').is_some_and(|inner| {
            let inner = inner.split('}').next().unwrap_or("");
            let mut names = inner.split(',').map(str::trim).filter(|n| !n.is_empty());
            names.clone().next().is_some() && names.all(|n| n.starts_with("type "))
        });
        if clause.starts_with("type ") || clause.starts_with("type{") || type_names_only {
            ImportKind::TypeOnly
        } else if keyword == "export" {
            ImportKind::ReExport
        } else {
            ImportKind::Runtime
        }
    } else if c.get(2).is_some() && keyword == "import" && clause.starts_with('(') {
        ImportKind::Local
    } else {
        ImportKind::Runtime
    }
}

/// The extensions tried after a specifier, in order.
const SCRIPT_EXTENSIONS: [&str; 9] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// A specifier of `from_file`: a relative one to the file it names; one
/// a `paths` pattern of the governing `tsconfig.json` matches, or one
/// under its `baseUrl`, to the file mapped; one naming a package of the
/// project (`@acme/core/utils`) through that package's `exports` or
/// entry points. A specifier that names the project (relative, a
/// matched `paths` pattern, a project package) but no file of it is
/// unresolved; any other is external (`react`, `node:fs`).
pub(super) fn resolve<'a>(
    set: &FileSet<'a>,
    project: &Project,
    from_file: &str,
    spec: &str,
) -> Resolution<'a> {
    // `fs`, `node:path`: Node's own, whatever a project file is named.
    if stdlib::is_node(spec) {
        return Resolution::External;
    }
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        return match join_rel(parent(from_file), spec).and_then(|base| probe(set, &base)) {
            Some(f) => Resolution::Files(vec![(f, 1.0)]),
            None => Resolution::Unresolved,
        };
    }
    // `#name`: the nearest package's `imports` map, nothing else.
    if spec.starts_with('#') {
        return match project.imported(from_file, spec) {
            Some(targets) => first_found(set, &targets),
            None => Resolution::Unresolved,
        };
    }
    if let Some(config) = project.config_of(from_file) {
        if let Some((pattern, targets)) = mapped(&config.paths, spec) {
            match first_found(set, &targets) {
                // `"*"` maps every specifier: one it does not find is a
                // package's, as `tsc` then looks in `node_modules`.
                Resolution::Unresolved if pattern == "*" => {}
                found => return found,
            }
        }
        if let Some(f) = config
            .base
            .as_deref()
            .and_then(|base| join_rel(base, spec))
            .and_then(|path| probe(set, &path))
        {
            return Resolution::Files(vec![(f, 1.0)]);
        }
    }
    for package in project.packages.iter().filter(|p| !p.name.is_empty()) {
        let sub = match spec.strip_prefix(package.name.as_str()) {
            Some("") => ".".to_string(),
            Some(rest) if rest.starts_with('/') => format!(".{rest}"),
            _ => continue,
        };
        let mut targets = mapped(&package.exports, &sub)
            .map(|(_, t)| t)
            .unwrap_or_default();
        if sub == "." {
            targets.extend(package.entries.iter().cloned());
            targets.push(join(&package.dir, "index"));
        } else if package.exports.is_empty() {
            targets.extend(join_rel(&package.dir, &sub));
        }
        return first_found(set, &targets);
    }
    Resolution::External
}

/// The first target that is a project source (TypeScript before
/// JavaScript), else the source a built output stands for (`dist/x.js` in a package that ships `src/x.ts`),
/// else a declaration file; unresolved when there is none.
fn first_found<'a>(set: &FileSet<'a>, targets: &[String]) -> Resolution<'a> {
    let found: Vec<&'a str> = targets.iter().filter_map(|t| probe(set, t)).collect();
    let declaration = |f: &&str| DECLARATION.iter().any(|d| f.ends_with(d));
    // A TypeScript source before built JavaScript (zod's `exports` list
    // `./src/index.ts` beside `./index.js`), in any condition order.
    let typescript = |f: &&str| {
        [".ts", ".tsx", ".mts", ".cts"]
            .iter()
            .any(|e| f.ends_with(e))
    };
    let source = found
        .iter()
        .find(|f| typescript(f) && !declaration(f))
        .or_else(|| found.iter().find(|f| !declaration(f)))
        .copied()
        .or_else(|| {
            targets.iter().find_map(|t| {
                let (dir, rest) = t
                    .split_once("/dist/")
                    .or_else(|| t.strip_prefix("dist/").map(|rest| ("", rest)))?;
                probe(set, &join(dir, &join("src", rest)))
            })
        })
        .or(found.first().copied());
    match source {
        Some(f) => Resolution::Files(vec![(f, 1.0)]),
        None => Resolution::Unresolved,
    }
}

/// The suffixes of TypeScript declaration files.
const DECLARATION: [&str; 3] = [".d.ts", ".d.mts", ".d.cts"];

/// The project file a path names: itself, with an extension (`./x.js`
/// written for `x.ts`, as TypeScript's ES modules do), or its folder's
/// `index` file.
fn probe<'a>(set: &FileSet<'a>, base: &str) -> Option<&'a str> {
    if base.is_empty() {
        return None;
    }
    // Under no folder of the tree, no candidate is a file: two lookups
    // instead of some thirty (recheck 25: a `tsconfig.json` of 1,000
    // `paths` patterns of 16 targets each, over 100,000 imports, took
    // `map` 38 s probing targets that name no folder).
    let plain = !base
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..");
    let parent = base.rsplit_once('/').map_or("", |(dir, _)| dir);
    if plain && !set.holds_dir(parent) && !set.holds_dir(base) {
        return None;
    }
    // TypeScript written for ES modules imports `./x.js` for `./x.ts`.
    let stem = [".js", ".jsx", ".mjs", ".cjs"]
        .iter()
        .find_map(|e| base.strip_suffix(e))
        .unwrap_or(base);
    let mut candidates = vec![base.to_string()];
    for root in [stem, base] {
        candidates.extend(SCRIPT_EXTENSIONS.iter().map(|e| format!("{root}.{e}")));
    }
    candidates.extend(
        SCRIPT_EXTENSIONS
            .iter()
            .map(|e| join(base, &format!("index.{e}"))),
    );
    candidates.iter().find_map(|c| set.get(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::modules::testing::{files, set, targets};

    #[test]
    fn type_only_imports_and_re_exports_are_told_apart() {
        let src = "import type { A } from './a';\nimport { type B, type C } from './b';\n\
                   import { type D, e } from './d';\nexport type { F } from './f';\n\
                   export * from './g';\nexport { h } from './h';\nimport i from './i';\n\
                   const j = await import('./j');\nimport './k';\nconst l = require('./l');\n\
                   import type {\n  M,\n} from './m';\n";
        use ImportKind::*;
        let want = [
            ("./a", TypeOnly),
            ("./b", TypeOnly),
            ("./d", Runtime),
            ("./f", TypeOnly),
            ("./g", ReExport),
            ("./h", ReExport),
            ("./i", Runtime),
            ("./j", Local),
            ("./k", Runtime),
            ("./l", Runtime),
            ("./m", TypeOnly),
        ];
        assert_eq!(
            encode_kinded(src),
            want.map(|(s, k)| (s.to_string(), k)).to_vec()
        );
        let list = files(&["src/fs.ts", "src/app.ts"]);
        let set = set(&list);
        for spec in ["fs", "node:fs", "fs/promises"] {
            assert!(matches!(
                resolve(&set, &Project::default(), "src/app.ts", spec),
                Resolution::External
            ));
        }
    }

    #[test]
    fn script_specifiers_and_relative_resolution() {
        let src = "import React from 'react';\nimport {\n  a,\n  b,\n} from \"./util\";\n\
                   export * from './types.js';\nconst x = require('../lib/x');\n\
                   const y = await import('./lazy');\nimport './side-effect';\n\
                   /// <reference path=\"globals.d.ts\" />\n// import './commented';\n";
        assert_eq!(
            encode(src),
            [
                "react",
                "./util",
                "./types.js",
                "../lib/x",
                "./lazy",
                "./side-effect",
                "./globals.d.ts"
            ]
        );
        let list = files(&[
            "src/app.ts",
            "src/util.ts",
            "src/types.ts",
            "src/lazy/index.tsx",
            "lib/x.cjs",
        ]);
        let set = set(&list);
        let r = |spec: &str| targets(resolve(&set, &Project::default(), "src/app.ts", spec));
        assert_eq!(r("./util"), Some(vec!["src/util.ts"]));
        assert_eq!(r("./types.js"), Some(vec!["src/types.ts"]));
        assert_eq!(r("./lazy"), Some(vec!["src/lazy/index.tsx"]));
        assert_eq!(r("../lib/x"), Some(vec!["lib/x.cjs"]));
        assert_eq!(r("./missing"), None);
        assert!(matches!(
            resolve(&set, &Project::default(), "src/app.ts", "./missing"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            resolve(&set, &Project::default(), "src/app.ts", "react"),
            Resolution::External
        ));
    }

    /// A path under no folder of the tree is not probed further; one
    /// under a folder, its folder's `index`, and one written with `./`
    /// are found as before.
    #[test]
    fn a_path_under_no_folder_of_the_tree_names_no_file() {
        let list = files(&["lib/x.ts", "lib/y/index.ts", "top.ts"]);
        let set = set(&list);
        assert_eq!(probe(&set, "lib/x"), Some("lib/x.ts"));
        assert_eq!(probe(&set, "lib/x.js"), Some("lib/x.ts"));
        assert_eq!(probe(&set, "lib/y"), Some("lib/y/index.ts"));
        assert_eq!(probe(&set, "top"), Some("top.ts"));
        assert_eq!(probe(&set, "nolib/x"), None);
        assert_eq!(probe(&set, "nolib/deeper/x"), None);
    }

    #[test]
    fn paths_base_url_and_project_packages_resolve() {
        let list = files(&[
            "tsconfig.json",
            "src/app.ts",
            "src/lib/util.ts",
            "src/lib/index.ts",
            "src/env.d.ts",
            "packages/core/src/index.ts",
            "packages/core/src/deep/x.ts",
            "packages/core/types.d.ts",
            "packages/core/both.js",
            "packages/core/src/both.ts",
        ]);
        let set = set(&list);
        let project = Project {
            configs: vec![project::Config {
                dir: String::new(),
                base: Some("src".to_string()),
                paths: vec![
                    ("@lib/*".to_string(), vec!["src/lib/*".to_string()]),
                    ("@lib".to_string(), vec!["src/lib".to_string()]),
                    ("@gone/*".to_string(), vec!["src/gone/*".to_string()]),
                ]
                .into(),
            }],
            packages: vec![project::Package {
                dir: "packages/core".to_string(),
                name: "@acme/core".to_string(),
                exports: vec![
                    (
                        ".".to_string(),
                        vec![
                            "packages/core/types.d.ts".to_string(),
                            "packages/core/dist/index.js".to_string(),
                        ],
                    ),
                    (
                        "./both".to_string(),
                        vec![
                            "packages/core/both.js".to_string(),
                            "packages/core/src/both.ts".to_string(),
                        ],
                    ),
                    (
                        "./deep/*".to_string(),
                        vec!["packages/core/dist/deep/*.js".to_string()],
                    ),
                ],
                entries: Vec::new(),
                imports: vec![("#db".to_string(), vec!["src/lib/util.ts".to_string()])],
            }],
            limits: Vec::new(),
        };
        let r = |spec: &str| targets(resolve(&set, &project, "src/app.ts", spec));
        assert_eq!(r("@lib/util.js"), Some(vec!["src/lib/util.ts"]));
        assert_eq!(r("@lib"), Some(vec!["src/lib/index.ts"]));
        assert_eq!(r("lib/util"), Some(vec!["src/lib/util.ts"]));
        assert_eq!(r("env"), Some(vec!["src/env.d.ts"]));
        // `#db` is the package's own name for a file, for its files only.
        let in_core =
            |spec: &str| targets(resolve(&set, &project, "packages/core/src/index.ts", spec));
        assert_eq!(in_core("#db"), Some(vec!["src/lib/util.ts"]));
        assert_eq!(r("#db"), None);
        assert_eq!(
            r("@acme/core/both"),
            Some(vec!["packages/core/src/both.ts"])
        );
        // A built output leads to its source, which beats a declaration.
        assert_eq!(r("@acme/core"), Some(vec!["packages/core/src/index.ts"]));
        assert_eq!(
            r("@acme/core/deep/x"),
            Some(vec!["packages/core/src/deep/x.ts"])
        );
        assert!(matches!(
            resolve(&set, &project, "src/app.ts", "@gone/thing"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            resolve(&set, &project, "src/app.ts", "@acme/core/private"),
            Resolution::Unresolved
        ));
        for external in ["react", "@acme/corex", "node:fs", "lodash/fp"] {
            assert!(
                matches!(
                    resolve(&set, &project, "src/app.ts", external),
                    Resolution::External
                ),
                "{external}"
            );
        }
    }
}
