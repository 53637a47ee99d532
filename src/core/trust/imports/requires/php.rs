//! What a PHP script loads from the project: `require`/`include` (and
//! `_once`) beside the script or from the include path, and the classes
//! it names that composer's autoloader maps to project files. Moved out
//! of `requires.rs` (consent round 7); no change of behaviour.

use super::{Candidates, call_args, leading_string};
use crate::core::module_maps::composer::{Autoload, use_names};
use std::path::Path;

/// PHP: what each `require`/`include` (`_once`) names, for a script in
/// `here` run from `root`, and the files `autoload` maps the classes it
/// names to.
pub(in crate::core::trust::imports) fn php(
    text: &str,
    here: &Path,
    root: &Path,
    autoload: &Autoload,
    unknown: &mut Vec<String>,
) -> Vec<Candidates> {
    let mut out: Vec<Candidates> = Vec::new();
    // Comments blanked by a lexer (recheck 21, item 5); a name built as
    // the script runs is refused (item 1).
    let code = super::super::comments::blanked(text, super::super::kinds::Kind::Php);
    out.extend(super::php_includes::computed(&code, here, unknown));
    for line in code.lines() {
        for keyword in ["require_once", "include_once", "require", "include"] {
            for arg in call_args(line, keyword) {
                let expr = arg.split(';').next().unwrap_or("");
                let Some(quote_at) = expr.find(['\'', '"']) else {
                    continue;
                };
                let Some(name) = leading_string(&expr[quote_at..]) else {
                    continue;
                };
                let prefix: String = expr[..quote_at]
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let prefix = prefix.trim_start_matches('(');
                let dir = if prefix.is_empty() {
                    None
                } else if prefix == "__DIR__." || prefix == "dirname(__FILE__)." {
                    Some(here.to_path_buf())
                } else if prefix == "dirname(__DIR__)." {
                    here.parent().map(Path::to_path_buf)
                } else {
                    // Built from a variable or a call: not followed.
                    continue;
                };
                let name = name.trim_start_matches('/');
                match dir {
                    Some(dir) => out.push(vec![dir.join(name)]),
                    None if name.starts_with("./") || name.starts_with("../") => {
                        out.push(vec![root.join(name)]);
                    }
                    None => out.push(vec![root.join(name), here.join(name)]),
                }
            }
        }
    }
    // After the files it names (the caller reads a bounded number).
    out.extend(
        php_classes(text)
            .iter()
            .map(|class| {
                let (files, _) = autoload.candidates(class);
                files.iter().map(|f| root.join(f)).collect::<Candidates>()
            })
            .filter(|c| !c.is_empty()),
    );
    out
}

/// The classes a PHP text may make the autoloader load, fully qualified
/// without the leading `\`: those its `use` statements import, each
/// qualified name it writes (`\A\B`, and `A\B` both as written and in
/// the file's namespace), and each bare name it instantiates, calls
/// statically, extends or implements (`new C`, `C::f()`) in its
/// namespace.
pub(super) fn php_classes(text: &str) -> Vec<String> {
    let mut out = use_names(text);
    let mut imported: Vec<String> = out
        .iter()
        .map(|n| n.rsplit('\\').next().unwrap_or(n).to_string())
        .collect();
    let mut namespace = None;
    let mut code = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(ns) = t.strip_prefix("namespace ") {
            let ns = ns.trim().trim_end_matches([';', '{']).trim();
            namespace = (!ns.is_empty()).then(|| ns.to_string());
        } else if t.starts_with("use ") {
            // Aliases (`use A\B as C`) name what `use_names` has.
            imported.extend(t.split(" as ").skip(1).map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            }));
        } else {
            code.push(line);
        }
    }
    let in_namespace = |name: &str| match &namespace {
        Some(ns) => format!("{ns}\\{name}"),
        None => name.to_string(),
    };
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '\\';
    for line in code {
        let mut at = 0;
        while let Some(start) = line[at..].find(word).map(|s| at + s) {
            let end = line[start..]
                .find(|c| !word(c))
                .map_or(line.len(), |e| start + e);
            at = end;
            let name = &line[start..end];
            let before = line[..start].trim_end();
            let after = line[end..].trim_start();
            let segments_ok = name
                .trim_start_matches('\\')
                .split('\\')
                .all(|s| s.starts_with(|c: char| c.is_alphabetic() || c == '_'));
            if !segments_ok || before.ends_with('$') || before.ends_with("->") {
                continue;
            }
            if let Some(absolute) = name.strip_prefix('\\') {
                out.push(absolute.to_string());
            } else if name.contains('\\') {
                out.push(name.to_string());
                out.push(in_namespace(name));
            } else {
                let keyword = |k: &&str| {
                    before.ends_with(k)
                        && !before[..before.len() - k.len()].ends_with(|c: char| word(c))
                };
                let used = ["new", "extends", "implements", "instanceof"]
                    .iter()
                    .any(keyword)
                    || (before.ends_with(',') && before.contains("implements"))
                    || after.starts_with("::");
                let special = ["self", "static", "parent"].contains(&name);
                if used && !special && !imported.iter().any(|i| i == name) {
                    out.push(in_namespace(name));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|n| !n.is_empty() && seen.insert(n.clone()));
    out
}
