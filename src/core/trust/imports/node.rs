//! What a JavaScript or TypeScript script loads from the project, for a
//! consent to `node tools/sum.js` (also `deno`, `bun`, `tsx`, `ts-node`):
//! the specifiers of its `require("…")`, `import … from "…"`, `import
//! "…"`, `import("…")` and `export … from "…"`, and where Node looks for
//! each. A relative one (`./helper`) is the file itself, then with each
//! extension (`.js`, `.ts`, …), then a folder's `package.json` `main` or
//! `index` file; a bare one (`lodash`, `@scope/pkg/sub`) is looked for in
//! each `node_modules` from the script's folder up to the root, through
//! that package's `exports` when it has them. What the project's own
//! configuration maps is followed too, as `core::module_maps::script`
//! reads it for the import graph: a `#name` through the nearest
//! `package.json`'s `imports`, a bare one through the governing
//! `tsconfig.json`'s `paths` and `baseUrl` (tsx, Bun and ts-node with
//! tsconfig-paths honour them) and the package's own name (`exports`).
//! Every target a map names is followed, whichever condition Node would
//! pick. Deno's import maps are followed too (`imports` of the nearest
//! `deno.json`/`deno.jsonc` and the file its `importMap` names, or an
//! `import_map.json`, from the script's folder up to the root, and a map
//! the command names with `--import-map`): an exact key, else the longest
//! key ending in `/` that begins the specifier, first in the `scopes`
//! over the loading file (the longest scope first), then in `imports`.
//! Every map that maps a specifier is followed, not only the one Deno
//! would pick.
//! Like the Python reader, it reads lines, not a parse: more than
//! Node would (a specifier in a comment), never less of what a line says.

use std::path::{Path, PathBuf};

use super::places::{first_of, rel_of};
use super::{Maps, Reached};
use crate::core::module_maps::script::{Package, jsonc, mapped};
use crate::core::module_maps::{configs_above, join, join_rel, parent, stdlib};

/// The most entries read from one import map.
const MAX_MAP_ENTRIES: usize = 1000;

/// One Deno import map: each key (a specifier, or a prefix ending in
/// `/`) with its target, a root-relative path (targets that are URLs or
/// lead out of the root are left out), at the top level (`imports`) and
/// for the files of each scope.
#[derive(Debug, Default)]
pub(super) struct ImportMap {
    imports: Vec<(String, String)>,
    /// Each scope's root-relative path (a folder's ends in `/`, the root's
    /// is empty) with its entries, the longest scope first.
    scopes: Vec<(String, Vec<(String, String)>)>,
}

/// Where a specifier is loaded from: the file's folder, and the file
/// (root-relative).
#[derive(Clone, Copy)]
pub(super) struct From<'a> {
    pub(super) dir: &'a Path,
    pub(super) file: &'a str,
}

impl ImportMap {
    /// The `imports` and `scopes` of the JSON(C) file `rel`
    /// (root-relative), paths taken from its folder.
    pub(super) fn read(real_root: &Path, rel: &str) -> Option<ImportMap> {
        let text = super::small_text(&real_root.join(rel)).filter(|t| t.len() <= 1 << 20)?;
        let json = jsonc(&text)?;
        let dir = parent(rel);
        let mut budget = MAX_MAP_ENTRIES;
        let imports = json
            .get("imports")
            .and_then(|i| i.as_object())
            .map(|i| entries(dir, i, &mut budget))
            .unwrap_or_default();
        let mut scopes: Vec<(String, Vec<(String, String)>)> = json
            .get("scopes")
            .and_then(|s| s.as_object())
            .into_iter()
            .flatten()
            .filter_map(|(scope, map)| {
                let map = map.as_object()?;
                Some((relative_key(dir, scope)?, entries(dir, map, &mut budget)))
            })
            .collect();
        if imports.is_empty() && scopes.is_empty() && json.get("imports").is_none() {
            return None;
        }
        scopes.sort_by_key(|(scope, _)| std::cmp::Reverse(scope.len()));
        Some(ImportMap { imports, scopes })
    }

    /// Where `spec`, loaded by `file` (root-relative), leads through this
    /// map (root-relative): through each scope over `file`, the longest
    /// first, then the top level. Every mapping found, in that order.
    fn resolve(&self, spec: &str, file: &str) -> Vec<String> {
        let over = |scope: &str| {
            scope.is_empty() || scope == file || (scope.ends_with('/') && file.starts_with(scope))
        };
        self.scopes
            .iter()
            .filter(|(scope, _)| over(scope))
            .map(|(_, entries)| entries)
            .chain([&self.imports])
            .filter_map(|entries| resolve_in(entries, spec))
            .collect()
    }
}

/// The entries of one map object, targets taken from `dir`; at most
/// `budget` more (it counts them down).
fn entries(
    dir: &str,
    map: &serde_json::Map<String, serde_json::Value>,
    budget: &mut usize,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (key, target) in map {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let Some(path) = target.as_str().and_then(|t| relative_key(dir, t)) else {
            continue;
        };
        out.push((key.clone(), path));
    }
    out
}

/// `target`, written in a map of `dir`, as a root-relative path: a prefix
/// keeps its slash (the root's is empty), so the rest joins under it.
/// `None` for a URL or a path leading out of the root.
fn relative_key(dir: &str, target: &str) -> Option<String> {
    if target.contains(':') {
        return None;
    }
    let path = join_rel(dir, target)?;
    Some(if target.ends_with('/') {
        let path = path.trim_end_matches('/');
        if path.is_empty() {
            String::new()
        } else {
            format!("{path}/")
        }
    } else {
        path
    })
}

/// `spec` through one map's entries: an exact key, else the longest key
/// ending in `/` that begins it.
fn resolve_in(entries: &[(String, String)], spec: &str) -> Option<String> {
    if let Some((_, target)) = entries.iter().find(|(k, _)| k == spec) {
        return Some(target.clone());
    }
    let (key, target) = entries
        .iter()
        .filter(|(k, _)| k.ends_with('/') && spec.starts_with(k.as_str()))
        .max_by_key(|(k, _)| k.len())?;
    Some(format!("{target}{}", &spec[key.len()..]))
}

/// The import maps of a file a command names (`--import-map`, deno's
/// `--config`): its own `imports`, and the map its `importMap` names.
pub(super) fn named_maps(real_root: &Path, rel: &str) -> Vec<ImportMap> {
    let mut out: Vec<ImportMap> = ImportMap::read(real_root, rel).into_iter().collect();
    let named = super::small_text(&real_root.join(rel))
        .filter(|t| t.len() <= 1 << 20)
        .and_then(|t| jsonc(&t))
        .and_then(|j| j.get("importMap")?.as_str().map(str::to_string))
        .filter(|m| !m.contains(':'))
        .and_then(|m| join_rel(parent(rel), &m));
    out.extend(named.and_then(|map| ImportMap::read(real_root, &map)));
    out
}

/// The Deno import maps over a file of `dir`, nearest first: each
/// `deno.json`/`deno.jsonc` (and the map its `importMap` names) and each
/// `import_map.json` from `dir` up to the root.
pub(super) fn import_maps(real_root: &Path, dir: &str) -> Vec<ImportMap> {
    let names = ["deno.json", "deno.jsonc", "import_map.json"];
    let mut out = Vec::new();
    for rel in configs_above(real_root, dir, &names) {
        out.extend(ImportMap::read(real_root, &rel));
        if rel.ends_with("import_map.json") {
            continue;
        }
        let named = super::small_text(&real_root.join(&rel))
            .filter(|t| t.len() <= 1 << 20)
            .and_then(|t| jsonc(&t))
            .and_then(|j| j.get("importMap")?.as_str().map(str::to_string))
            .filter(|m| !m.contains(':'))
            .and_then(|m| join_rel(parent(&rel), &m));
        if let Some(map) = named {
            out.extend(ImportMap::read(real_root, &map));
        }
    }
    out
}

/// The extensions tried after the name itself, in Node's order and then
/// the ones TypeScript runners add.
const EXTENSIONS: [&str; 9] = ["js", "json", "mjs", "cjs", "ts", "tsx", "mts", "cts", "jsx"];

/// The module specifiers a JavaScript or TypeScript text loads.
pub(super) fn specifiers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        for opener in ["require(", "import(", "from ", "import "] {
            for (at, _) in line.match_indices(opener) {
                // `import` inside a name (`reimport `) is no statement.
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                    continue;
                }
                let rest = line[at + opener.len()..].trim_start();
                if let Some(spec) = quoted(rest) {
                    out.push(spec.to_string());
                }
            }
        }
    }
    out
}

/// The text of the string literal `rest` opens with, if it opens with one
/// (`'…'`, `"…"`, or a backquoted one without `${`).
fn quoted(rest: &str) -> Option<&str> {
    let quote = rest
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = &rest[1..];
    let spec = &inner[..inner.find(quote)?];
    (!spec.is_empty() && !spec.contains("${")).then_some(spec)
}

/// Look `spec`, loaded by a file in `here`, up as Node would, recording
/// each place tried (up to the one that holds a file) in `out` and the
/// file reached in `found`.
pub(super) fn look_up(
    real_root: &Path,
    from: From,
    spec: &str,
    maps: &mut Maps,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let here = from.dir;
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        let _ = load(real_root, &here.join(spec), out, found);
        return;
    }
    if spec.starts_with('/') || stdlib::is_node(spec) {
        // Absolute (outside the project's say), or Node's own.
        return;
    }
    let dir = rel_of(real_root, here);
    let project = maps.script(real_root, &dir);
    // A file of `dir` stands for the file (the maps look at its folder).
    let file = join(&dir, "-");
    if spec.starts_with('#') {
        for target in project.imported(&file, spec).unwrap_or_default() {
            let _ = load(real_root, &real_root.join(target), out, found);
        }
        return;
    }
    // Deno's import maps come first where Deno runs the script: those
    // the command names, then those beside the file. Every mapping is
    // loaded (Deno picks one; which depends on flags and config).
    let mut mapped_here = false;
    let beside = maps.deno(real_root, &dir);
    for map in maps.named_deno.iter().chain(beside.iter()) {
        for target in map.resolve(spec, from.file) {
            mapped_here |= load(real_root, &real_root.join(target), out, found);
        }
    }
    if mapped_here {
        return;
    }
    if spec.contains(':') {
        // `https:…`, `npm:x`: not a project file.
        return;
    }
    // The folders a script adds to `module.paths`: every one is looked
    // at (where each goes in the list is not read).
    for dir in maps.module_paths.clone() {
        let _ = load(real_root, &dir.join(spec), out, found);
    }
    if let Some(config) = project.config_of(&file) {
        let mut reached = false;
        if let Some((_, targets)) = mapped(&config.paths, spec) {
            for target in targets {
                reached |= load(real_root, &real_root.join(target), out, found);
            }
        }
        if let Some(base) = &config.base {
            reached |= load(real_root, &real_root.join(base).join(spec), out, found);
        }
        if reached {
            return;
        }
    }
    // The package's own name leads into its `exports`.
    for package in project.packages.iter().filter(|p| !p.name.is_empty()) {
        if exported(real_root, package, &package.name, spec, out, found) {
            return;
        }
    }
    let package = package_name(spec);
    let mut at = here.to_path_buf();
    loop {
        if !at.starts_with(real_root) {
            break;
        }
        let folder = at.join("node_modules").join(package);
        if let Some(installed) = installed(real_root, &folder)
            && exported(real_root, &installed, package, spec, out, found)
        {
            return;
        }
        if load(real_root, &at.join("node_modules").join(spec), out, found) {
            return;
        }
        if !at.pop() {
            break;
        }
    }
    // Then the folders a `NODE_PATH` given to a child names.
    for dir in &maps.node_path {
        if load(real_root, &dir.join(spec), out, found) {
            return;
        }
    }
}

/// The package a `node_modules` folder holds, when it leads to a folder of
/// the project with a `package.json` (a workspace's link, or a vendored
/// package).
fn installed(real_root: &Path, folder: &Path) -> Option<Package> {
    if std::fs::symlink_metadata(folder).is_err() {
        return None;
    }
    let real = std::fs::canonicalize(folder).ok()?;
    let rel = real.strip_prefix(real_root).ok()?;
    let manifest = join(&crate::core::walk::rel_string(rel), "package.json");
    Package::read(real_root, &manifest)
}

/// `spec` through the `exports` of `package` when it names the package
/// as `name` (`name` or `name/sub`) and the package has them: each
/// target loaded. Whether `exports` decided (Node looks no further, found
/// or not).
fn exported(
    real_root: &Path,
    package: &Package,
    name: &str,
    spec: &str,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) -> bool {
    if package.exports.is_empty() {
        return false;
    }
    let sub = match spec.strip_prefix(name) {
        Some("") => ".".to_string(),
        Some(rest) if rest.starts_with('/') => format!(".{rest}"),
        _ => return false,
    };
    for target in mapped(&package.exports, &sub)
        .map(|(_, t)| t)
        .unwrap_or_default()
    {
        let _ = load(real_root, &real_root.join(target), out, found);
    }
    true
}

/// `@scope/name` or `name`: the package a bare specifier names.
fn package_name(spec: &str) -> &str {
    let mut parts = spec.splitn(3, '/');
    match (parts.next(), parts.next()) {
        (Some(scope), Some(name)) if scope.starts_with('@') => {
            &spec[..scope.len() + 1 + name.len()]
        }
        (Some(name), _) => name,
        _ => spec,
    }
}

/// Load `x` as a file, then as a folder; whether a file was reached.
fn load(real_root: &Path, x: &Path, out: &mut Reached, found: &mut Vec<(String, PathBuf)>) -> bool {
    let mut candidates = vec![x.to_path_buf()];
    let name = x.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(name) = &name {
        candidates.extend(
            EXTENSIONS
                .iter()
                .map(|e| x.with_file_name(format!("{name}.{e}"))),
        );
        // TypeScript runners read `./a.js` as `./a.ts` when only that exists.
        if let Some(stem) = name.strip_suffix(".js") {
            candidates.extend(["ts", "tsx"].map(|e| x.with_file_name(format!("{stem}.{e}"))));
        }
    }
    if first_of(real_root, &candidates, out, found) {
        return true;
    }
    if !x.is_dir() {
        return false;
    }
    let manifest = x.join("package.json");
    let mut folder = Vec::new();
    if first_of(real_root, std::slice::from_ref(&manifest), out, found)
        && let Some(main) = main_of(&manifest)
    {
        let main = x.join(main);
        folder.push(main.clone());
        if let Some(name) = main.file_name().map(|n| n.to_string_lossy().into_owned()) {
            folder.extend(
                EXTENSIONS
                    .iter()
                    .map(|e| main.with_file_name(format!("{name}.{e}"))),
            );
        }
    }
    folder.extend(EXTENSIONS.iter().map(|e| x.join(format!("index.{e}"))));
    first_of(real_root, &folder, out, found)
}

/// The `main` of a `package.json` (at most 1 MiB), if it names one.
fn main_of(manifest: &Path) -> Option<String> {
    let text = super::small_text(manifest).filter(|t| t.len() <= 1 << 20)?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let main = json.get("main")?.as_str()?;
    (!main.is_empty() && !main.starts_with('/')).then(|| main.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_loading_is_read() {
        let text = "const h = require('./helper');\n\
                    import fs from \"node:fs\";\n\
                    import { a } from './lib/a.js'\n\
                    import './side'\n\
                    export * from \"../shared\";\n\
                    const m = await import(`./plug/${name}`);\n\
                    const n = await import(`./plug/x`);\n\
                    reimport 'no'; myrequire('./no')\n";
        assert_eq!(
            specifiers(text),
            [
                "./helper",
                "node:fs",
                "./lib/a.js",
                "./side",
                "../shared",
                "./plug/x"
            ]
        );
    }

    #[test]
    fn package_names_keep_their_scope() {
        assert_eq!(package_name("lodash/fp"), "lodash");
        assert_eq!(package_name("@scope/pkg/sub"), "@scope/pkg");
        assert_eq!(package_name("fs"), "fs");
    }
}
