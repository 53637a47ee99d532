//! What a JavaScript/TypeScript project says about its own specifiers:
//! `tsconfig.json`/`jsconfig.json` `compilerOptions.baseUrl` and `paths`
//! (with `extends` followed one level, comments and trailing commas
//! allowed as `tsc` allows them), and the `package.json` of each package
//! of the project (a workspace of a monorepo, or the package itself), whose
//! `name` makes `import "name/sub"` a project import, resolved through its
//! `exports`, `types`, `module` or `main`, and whose `imports` map the
//! package's own `#name` specifiers. Read once per graph (or per folder a
//! consented script loads from), bounded regular files beneath the root,
//! never run.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use super::{join_rel, manifests, parent, read_resolver_config};

/// The specifier mappings of one `tsconfig.json` (or `jsconfig.json`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The folder of the config file, root-relative.
    pub dir: String,
    /// `baseUrl`, root-relative, when set (by the file or what it extends).
    pub base: Option<String>,
    /// `paths`: each pattern (at most one `*`) with its targets,
    /// root-relative (a target's `*` kept). Shared with every config that
    /// inherits them from the same file.
    pub paths: Arc<[(String, Vec<String>)]>,
}

/// One package of the project: its `package.json`'s folder, `name`, and
/// the targets each subpath leads to (`"."` for the bare name), in the
/// order they are tried.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Package {
    pub dir: String,
    pub name: String,
    /// `exports` flattened: (subpath pattern, targets root-relative).
    pub exports: Vec<(String, Vec<String>)>,
    /// `types`, `module`, `main`, root-relative, for the bare name when
    /// `exports` does not say.
    pub entries: Vec<String>,
    /// `imports` flattened: (`#` pattern, targets root-relative), what
    /// the package's own files mean by `#name`.
    pub imports: Vec<(String, Vec<String>)>,
}

/// The configs and packages of a project.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Project {
    /// Deepest folder first, so the nearest config above a file is found
    /// first.
    pub configs: Vec<Config>,
    pub packages: Vec<Package>,
    /// What a bound cut while reading them ([`super::MAX_MANIFESTS`],
    /// [`MAX_PATTERNS`], [`MAX_TARGETS`]), for the user to hear about.
    pub limits: Vec<String>,
}

impl Project {
    /// Read every `tsconfig.json`, `jsconfig.json` and `package.json`
    /// among `files` (outside `node_modules`); one that does not parse is
    /// skipped.
    pub fn read(root: &Path, files: &[String]) -> Self {
        let mut project = Project::default();
        let names = ["tsconfig.json", "jsconfig.json"];
        let configs = manifests(files, &names, "node_modules", &mut project.limits);
        let mut bases = Bases::new();
        for f in configs {
            if let Some(config) = read_config(root, f, &mut bases, &mut project.limits) {
                project.configs.push(config);
            }
        }
        project.configs.sort_by_key(|c| {
            std::cmp::Reverse(c.dir.matches('/').count() + !c.dir.is_empty() as usize)
        });
        let packages = manifests(
            files,
            &["package.json"],
            "node_modules",
            &mut project.limits,
        );
        for f in packages {
            if let Some(package) = read_package(root, f, &mut project.limits) {
                project.packages.push(package);
            }
        }
        // The longest name first: `@scope/a-b` before `@scope/a`.
        project
            .packages
            .sort_by_key(|p| std::cmp::Reverse(p.name.len()));
        project
    }

    /// The config that governs `file`: the nearest above it.
    pub fn config_of(&self, file: &str) -> Option<&Config> {
        self.configs.iter().find(|c| within(&c.dir, file))
    }

    /// The targets the `imports` of the nearest package above `file` map
    /// a `#name` specifier to (what Node reads: the nearest
    /// `package.json`, and only its map), `None` when none maps it.
    pub fn imported(&self, file: &str, spec: &str) -> Option<Vec<String>> {
        let package = self
            .packages
            .iter()
            .filter(|p| within(&p.dir, file))
            .max_by_key(|p| p.dir.len())?;
        mapped(&package.imports, spec).map(|(_, targets)| targets)
    }
}

/// Whether `file` lies in the folder `dir` (root-relative, `""` the top).
fn within(dir: &str, file: &str) -> bool {
    dir.is_empty()
        || file
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The pattern of a `paths`, `exports` or `imports` map that matches
/// `spec` (exact, else the one `*` with the longest prefix) and its
/// targets, `*` substituted.
pub fn mapped<'p>(
    patterns: &'p [(String, Vec<String>)],
    spec: &str,
) -> Option<(&'p str, Vec<String>)> {
    if let Some((pattern, targets)) = patterns.iter().find(|(p, _)| p == spec) {
        return Some((pattern, targets.clone()));
    }
    let (star, (pattern, targets)) = patterns
        .iter()
        .filter_map(|entry| {
            let (prefix, suffix) = entry.0.split_once('*')?;
            let middle = spec.strip_prefix(prefix)?.strip_suffix(suffix)?;
            Some(((prefix.len(), middle), entry))
        })
        .max_by_key(|((len, _), _)| *len)?;
    Some((
        pattern.as_str(),
        targets.iter().map(|t| t.replacen('*', star.1, 1)).collect(),
    ))
}

impl Package {
    /// The package a `package.json` (root-relative) describes: one with a
    /// `name`, or nameless with an `imports` map.
    pub fn read(root: &Path, file: &str) -> Option<Package> {
        read_package(root, file, &mut Vec::new())
    }
}

/// What each file a config `extends` gives the configs that extend it
/// (its `baseUrl` and `paths`; `None` when it cannot be read), by its
/// root-relative path: a file is read once however many configs extend
/// it. Thousands of configs that each extended a root whose `references`
/// named them all read the root once per config: `map` took 86 s
/// (recheck 22, F2).
type Bases = HashMap<String, Option<Config>>;

/// A config's `compilerOptions`, over those of the file it `extends` (a
/// relative path, one level: what a project's own configs do; read once
/// into `bases`); what a bound cut goes to `limits`.
fn read_config(
    root: &Path,
    file: &str,
    bases: &mut Bases,
    limits: &mut Vec<String>,
) -> Option<Config> {
    let value = jsonc(&read_resolver_config(root, file, limits)?)?;
    let dir = parent(file).to_string();
    let mut config = Config {
        dir: dir.clone(),
        ..Config::default()
    };
    let extends = value.get("extends").and_then(Value::as_str);
    if let Some(ext) = extends.filter(|e| e.starts_with('.')) {
        let mut path = join_rel(&dir, ext);
        if let Some(p) = path.as_ref()
            && !p.ends_with(".json")
        {
            path = Some(format!("{p}.json"));
        }
        if let Some(base_file) = path
            && let Some(inherited) = bases
                .entry(base_file.clone())
                .or_insert_with(|| read_base(root, &base_file, limits))
        {
            config.base.clone_from(&inherited.base);
            config.paths = Arc::clone(&inherited.paths);
        }
    }
    apply_options(&mut config, &dir, &value, file, limits);
    Some(config)
}

/// The `baseUrl` and `paths` a config extending `file` inherits.
fn read_base(root: &Path, file: &str, limits: &mut Vec<String>) -> Option<Config> {
    let value = jsonc(&read_resolver_config(root, file, limits)?)?;
    let mut inherited = Config::default();
    apply_options(&mut inherited, parent(file), &value, file, limits);
    Some(inherited)
}

/// At most this many `paths` patterns (and `exports`/`imports` subpaths
/// of a package), and targets per pattern, are read: real configs hold a
/// few of each, and every import of the project is tried against them (a
/// `*` with 100,000 targets took minutes).
const MAX_PATTERNS: usize = 1_000;
const MAX_TARGETS: usize = 16;

/// `compilerOptions.baseUrl` and `paths` of `value` (a config file in
/// `dir`) over what `config` holds. `paths` are relative to `baseUrl`
/// when it is set, else to the file that names them. Past the bounds, the
/// rest is left out and one note for `file` goes to `limits`.
fn apply_options(
    config: &mut Config,
    dir: &str,
    value: &Value,
    file: &str,
    limits: &mut Vec<String>,
) {
    let Some(options) = value.get("compilerOptions") else {
        return;
    };
    if let Some(base) = options.get("baseUrl").and_then(Value::as_str) {
        config.base = join_rel(dir, base);
    }
    let Some(paths) = options.get("paths").and_then(Value::as_object) else {
        return;
    };
    let against = config.base.clone().unwrap_or_else(|| dir.to_string());
    if paths.len() > MAX_PATTERNS {
        limits.push(format!(
            "{file}: `paths` holds {} patterns; only the first {MAX_PATTERNS} are read",
            paths.len()
        ));
    }
    let mut over: Vec<(&str, usize)> = Vec::new();
    config.paths = paths
        .iter()
        .take(MAX_PATTERNS)
        .map(|(pattern, targets)| {
            let targets = targets.as_array().map(Vec::as_slice).unwrap_or_default();
            if targets.len() > MAX_TARGETS {
                over.push((pattern, targets.len()));
            }
            let targets = targets
                .iter()
                .filter_map(Value::as_str)
                .take(MAX_TARGETS)
                .filter_map(|t| join_rel(&against, t))
                .collect();
            (pattern.clone(), targets)
        })
        .collect::<Vec<_>>()
        .into();
    if let Some((pattern, count)) = over.first() {
        let others = match over.len() {
            1 => String::new(),
            n => format!(" (and {} more patterns)", n - 1),
        };
        limits.push(format!(
            "{file}: `paths` maps `{pattern}` to {count} targets{others}; only the first \
             {MAX_TARGETS} of a pattern are tried"
        ));
    }
}

/// A `package.json` with a `name` (or, nameless, with `imports`: an
/// application's own `#name` map).
fn read_package(root: &Path, file: &str, limits: &mut Vec<String>) -> Option<Package> {
    let value: Value = serde_json::from_str(&read_resolver_config(root, file, limits)?).ok()?;
    let name = value.get("name").and_then(Value::as_str).unwrap_or("");
    let dir = parent(file).to_string();
    let mut imports = Vec::new();
    if let Some(Value::Object(map)) = value.get("imports") {
        let patterns = map.iter().filter(|(k, _)| k.starts_with('#'));
        for (pattern, target) in patterns.take(MAX_PATTERNS) {
            imports.push((pattern.clone(), leaves(&dir, target)));
        }
    }
    if (name.is_empty() && imports.is_empty()) || name.contains(['\t', '\n']) {
        return None;
    }
    let mut exports = Vec::new();
    match value.get("exports") {
        // `"exports": "./x.js"` or conditions only: the bare name.
        Some(e @ (Value::String(_) | Value::Array(_))) => {
            exports.push((".".to_string(), leaves(&dir, e)));
        }
        Some(Value::Object(map)) if map.keys().all(|k| !k.starts_with('.')) => {
            exports.push((".".to_string(), leaves(&dir, &Value::Object(map.clone()))));
        }
        Some(Value::Object(map)) => {
            for (sub, target) in map.iter().take(MAX_PATTERNS) {
                exports.push((sub.clone(), leaves(&dir, target)));
            }
        }
        _ => {}
    }
    let entries = ["types", "typings", "module", "main"]
        .iter()
        .filter_map(|k| value.get(*k)?.as_str())
        .filter_map(|t| join_rel(&dir, t))
        .collect();
    Some(Package {
        dir,
        name: name.to_string(),
        exports,
        entries,
        imports,
    })
}

/// Every target string of an `exports` entry (nested conditions
/// flattened), root-relative. Conditions come in the order the JSON map
/// keeps (key order without serde_json's `preserve_order`): the resolver
/// prefers a source to a declaration, whatever the order.
fn leaves(dir: &str, value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    // Past [`MAX_TARGETS`] the rest is not tried (a map of 100,000
    // conditions would be probed on every import of the package).
    while let Some(v) = stack.pop().filter(|_| out.len() < MAX_TARGETS) {
        match v {
            Value::String(s) => out.extend(join_rel(dir, s)),
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => stack.extend(map.values().rev()),
            _ => {}
        }
    }
    out
}

/// JSON with `//` and `/* */` comments and trailing commas, as `tsc`
/// reads its configs.
pub fn jsonc(text: &str) -> Option<Value> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                while let Some(s) = chars.next() {
                    out.push(s);
                    match s {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for s in chars.by_ref() {
                    if s == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for s in chars.by_ref() {
                    if last == '*' && s == '/' {
                        break;
                    }
                    last = s;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    serde_json::from_str(&drop_trailing_commas(&out)).ok()
}

/// `[1, 2,]` → `[1, 2]`, outside strings.
fn drop_trailing_commas(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' {
                out.extend(chars.get(i + 1));
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if !matches!(next, Some('}' | ']')) {
                out.push(c);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_reads_comments_and_trailing_commas_not_inside_strings() {
        let v = jsonc(
            "{\n  // a comment\n  \"a\": \"http://x/*y*/\", /* block */\n  \"b\": [1, 2,],\n}\n",
        )
        .unwrap();
        assert_eq!(v["a"], "http://x/*y*/");
        assert_eq!(v["b"], serde_json::json!([1, 2]));
        assert_eq!(jsonc("{ broken"), None);
        assert_eq!(jsonc("{\"a\": \"unterminated"), None);
    }

    #[test]
    fn configs_extend_one_level_and_paths_follow_base_url() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("app")).unwrap();
        std::fs::write(
            dir.path().join("tsconfig.base.json"),
            "{ \"compilerOptions\": { \"baseUrl\": \"./src\", \"paths\": { \"@lib/*\": [\"lib/*\"] } } }",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("app/tsconfig.json"),
            "{ \"extends\": \"../tsconfig.base\", // shared\n \"compilerOptions\": { \"strict\": true, } }",
        )
        .unwrap();
        let config = read_config(
            dir.path(),
            "app/tsconfig.json",
            &mut Bases::new(),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(config.dir, "app");
        assert_eq!(config.base.as_deref(), Some("src"));
        assert_eq!(
            *config.paths,
            [("@lib/*".to_string(), vec!["src/lib/*".to_string()])]
        );
        // A config that names paths outside the root keeps none of them.
        std::fs::write(
            dir.path().join("tsconfig.json"),
            "{ \"compilerOptions\": { \"paths\": { \"x\": [\"../../etc/x\", \"/abs\"] } } }",
        )
        .unwrap();
        let config = read_config(
            dir.path(),
            "tsconfig.json",
            &mut Bases::new(),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(*config.paths, [("x".to_string(), Vec::new())]);
    }

    #[test]
    fn packages_flatten_exports_in_condition_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("packages/core")).unwrap();
        std::fs::write(
            dir.path().join("packages/core/package.json"),
            r#"{ "name": "@acme/core", "main": "./dist/index.js", "types": "dist/index.d.ts",
                "exports": { ".": { "import": "./dist/index.js", "types": "./dist/index.d.ts" },
                             "./utils/*": "./src/utils/*.ts" } }"#,
        )
        .unwrap();
        let p = Package::read(dir.path(), "packages/core/package.json").unwrap();
        assert_eq!(p.name, "@acme/core");
        assert_eq!(
            p.exports,
            [
                (
                    ".".to_string(),
                    vec![
                        "packages/core/dist/index.js".to_string(),
                        "packages/core/dist/index.d.ts".to_string()
                    ]
                ),
                (
                    "./utils/*".to_string(),
                    vec!["packages/core/src/utils/*.ts".to_string()]
                ),
            ]
        );
        assert_eq!(
            p.entries,
            [
                "packages/core/dist/index.d.ts",
                "packages/core/dist/index.js"
            ]
        );
        std::fs::write(dir.path().join("package.json"), "{ \"private\": true }").unwrap();
        assert_eq!(Package::read(dir.path(), "package.json"), None);
        // A nameless application with an `imports` map: its `#` names.
        std::fs::write(
            dir.path().join("package.json"),
            r##"{ "imports": { "#db": "./src/db.js", "#lib/*": { "node": "./lib/*.js" },
                            "bad": "./x.js" } }"##,
        )
        .unwrap();
        let project = Project::read(
            dir.path(),
            &[
                "package.json".to_string(),
                "packages/core/package.json".to_string(),
            ],
        );
        assert_eq!(
            project.imported("tools/sum.js", "#lib/a"),
            Some(vec!["lib/a.js".to_string()])
        );
        assert_eq!(
            project.imported("tools/sum.js", "#db"),
            Some(vec!["src/db.js".to_string()])
        );
        assert_eq!(project.imported("tools/sum.js", "bad"), None);
        // The nearest package's map only: `packages/core` has none.
        assert_eq!(project.imported("packages/core/x.js", "#db"), None);
    }

    /// Thousands of configs that each `extends` the root, whose own
    /// `references` name them all (recheck 22, F2: `map` took 86 s at
    /// 10,000): the root is read twice (as a config, and as what the
    /// others extend), not once per config. Each reading of its 1,001
    /// `paths` says so in a note, so the notes count them (41 before).
    #[test]
    fn a_base_many_configs_extend_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<String> = (0..=MAX_PATTERNS)
            .map(|i| format!("\"p{i}/*\": [\"src/*\"]"))
            .collect();
        let refs: Vec<String> = (0..40)
            .map(|i| format!("{{\"path\": \"./pk/{i}\"}}"))
            .collect();
        std::fs::write(
            dir.path().join("tsconfig.json"),
            format!(
                "{{\"compilerOptions\": {{\"baseUrl\": \".\", \"paths\": {{{}}}}}, \
                 \"references\": [{}]}}",
                paths.join(","),
                refs.join(",")
            ),
        )
        .unwrap();
        let mut files = vec!["tsconfig.json".to_string()];
        for i in 0..40 {
            std::fs::create_dir_all(dir.path().join(format!("pk/{i}"))).unwrap();
            let file = format!("pk/{i}/tsconfig.json");
            std::fs::write(
                dir.path().join(&file),
                format!(
                    "{{\"extends\": \"../../tsconfig.json\", \"references\": [{{\"path\": \"../{}\"}}]}}",
                    (i + 1) % 40
                ),
            )
            .unwrap();
            files.push(file);
        }
        let project = Project::read(dir.path(), &files);
        assert_eq!(project.configs.len(), 41);
        // Every config still inherits the root's `baseUrl` and `paths`.
        let nested = project.config_of("pk/7/a.ts").unwrap();
        assert_eq!(nested.dir, "pk/7");
        assert_eq!(nested.base.as_deref(), Some(""));
        assert_eq!(nested.paths.len(), MAX_PATTERNS);
        assert_eq!(nested.paths[0].1, ["src/*"]);
        let readings = project
            .limits
            .iter()
            .filter(|l| l.starts_with("tsconfig.json: `paths` holds"))
            .count();
        assert_eq!(readings, 2, "{:?}", project.limits);
    }

    /// A `package.json` of thousands of subpaths and conditions keeps
    /// [`MAX_PATTERNS`] of them, each with [`MAX_TARGETS`] targets.
    #[test]
    fn package_maps_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let many: Vec<String> = (0..5000).map(|i| format!("\"./t{i}.js\"")).collect();
        let imports: Vec<String> = (0..2000)
            .map(|i| format!("\"#p{i}\": [{}]", many[..20].join(",")))
            .collect();
        let text = format!(
            "{{ \"name\": \"x\", \"imports\": {{ {} }}, \"exports\": {{ \"./a\": [{}] }} }}",
            imports.join(","),
            many.join(",")
        );
        std::fs::write(dir.path().join("package.json"), text).unwrap();
        let p = Package::read(dir.path(), "package.json").unwrap();
        assert_eq!(p.imports.len(), MAX_PATTERNS);
        assert!(p.imports.iter().all(|(_, t)| t.len() == MAX_TARGETS));
        assert_eq!(p.exports[0].1.len(), MAX_TARGETS);
    }
}
