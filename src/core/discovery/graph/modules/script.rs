//! JavaScript and TypeScript imports: the specifiers of `import`/`export
//! … from`, `import()` and `require()`, a relative one resolved to the
//! file it names after the extensions and `index` files are tried.

use std::sync::LazyLock;

use regex::Regex;

use super::{join, parent};
use crate::core::discovery::graph::kind::ImportKind;
use crate::core::discovery::graph::resolve::{FileSet, Resolution};
use crate::core::discovery::graph::stdlib;

static SCRIPT_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[^.\w$])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^.\w$])import\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)"#,
    )
    .expect("a constant pattern")
});

/// Every module specifier imported, exported from or required.
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

/// The extensions tried after a relative specifier, in order.
const SCRIPT_EXTENSIONS: [&str; 9] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];

pub(super) fn resolve<'a>(set: &FileSet<'a>, from_file: &str, spec: &str) -> Resolution<'a> {
    // `fs`, `node:path`: Node's own, whatever a project file is named.
    if stdlib::is_node(spec) {
        return Resolution::External;
    }
    if !(spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == "..") {
        return Resolution::External;
    }
    let Some(base) = normalize(parent(from_file), spec) else {
        return Resolution::Unresolved;
    };
    // TypeScript written for ES modules imports `./x.js` for `./x.ts`.
    let stem = [".js", ".jsx", ".mjs", ".cjs"]
        .iter()
        .find_map(|e| base.strip_suffix(e))
        .unwrap_or(&base);
    let mut candidates = vec![base.clone()];
    for root in [stem, base.as_str()] {
        candidates.extend(SCRIPT_EXTENSIONS.iter().map(|e| format!("{root}.{e}")));
    }
    candidates.extend(
        SCRIPT_EXTENSIONS
            .iter()
            .map(|e| join(&base, &format!("index.{e}"))),
    );
    match candidates.iter().find_map(|c| set.get(c)) {
        Some(f) => Resolution::Files(vec![(f, 1.0)]),
        None => Resolution::Unresolved,
    }
}

/// `dir` joined with a relative specifier, `.` and `..` folded; `None`
/// when it climbs above the project.
fn normalize(dir: &str, spec: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
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
                resolve(&set, "src/app.ts", spec),
                Resolution::External
            ));
        }
    }

    #[test]
    fn script_specifiers_and_relative_resolution() {
        let src = "import React from 'react';\nimport {\n  a,\n  b,\n} from \"./util\";\n\
                   export * from './types.js';\nconst x = require('../lib/x');\n\
                   const y = await import('./lazy');\nimport './side-effect';\n";
        assert_eq!(
            encode(src),
            [
                "react",
                "./util",
                "./types.js",
                "../lib/x",
                "./lazy",
                "./side-effect"
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
        let r = |spec: &str| targets(resolve(&set, "src/app.ts", spec));
        assert_eq!(r("./util"), Some(vec!["src/util.ts"]));
        assert_eq!(r("./types.js"), Some(vec!["src/types.ts"]));
        assert_eq!(r("./lazy"), Some(vec!["src/lazy/index.tsx"]));
        assert_eq!(r("../lib/x"), Some(vec!["lib/x.cjs"]));
        assert_eq!(r("./missing"), None);
        assert!(matches!(
            resolve(&set, "src/app.ts", "./missing"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            resolve(&set, "src/app.ts", "react"),
            Resolution::External
        ));
    }
}
