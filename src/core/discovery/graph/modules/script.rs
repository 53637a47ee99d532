//! JavaScript and TypeScript imports: the specifiers of `import`/`export
//! … from`, `import()` and `require()`, a relative one resolved to the
//! file it names after the extensions and `index` files are tried.

use std::sync::LazyLock;

use regex::Regex;

use super::{join, parent};
use crate::core::discovery::graph::resolve::{FileSet, Resolution};

static SCRIPT_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[^.\w$])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^.\w$])import\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)"#,
    )
    .expect("a constant pattern")
});

/// Every module specifier imported, exported from or required.
pub(super) fn encode(source: &str) -> Vec<String> {
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
                out.push(m.as_str().to_string());
            }
        }
    }
    out
}

/// The extensions tried after a relative specifier, in order.
const SCRIPT_EXTENSIONS: [&str; 9] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];

pub(super) fn resolve<'a>(set: &FileSet<'a>, from_file: &str, spec: &str) -> Resolution<'a> {
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
