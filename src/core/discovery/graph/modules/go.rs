//! Go imports: the paths of `import` lines and blocks (between the
//! `package` clause and the first declaration: a doc comment showing an
//! import is no import); a path under the module path of one of the
//! project's `go.mod` files resolves to its package: the non-test files
//! of its folder, of which the graph keeps those whose names the importer
//! uses. A file's own package is such an import too ([`Modules::own`]):
//! Go files of one package use each other's names without one.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::{join, parent};
use crate::core::discovery::graph::layout::read_small;
use crate::core::discovery::graph::resolve::Resolution;

/// The project's Go modules (each `go.mod`'s folder and module path) and
/// the non-test `.go` files of each folder.
#[derive(Debug, Default)]
pub(super) struct Modules<'a> {
    modules: Vec<(String, String)>,
    packages: HashMap<&'a str, Arc<[&'a str]>>,
}

impl<'a> Modules<'a> {
    /// Read every `go.mod` among `files` (relative to `root`); a project
    /// without one has no Go edges.
    pub(super) fn read(root: &Path, files: &'a [String]) -> Self {
        let mut modules = Vec::new();
        let mut packages: HashMap<&str, Vec<&str>> = HashMap::new();
        for f in files {
            if f == "go.mod" || f.ends_with("/go.mod") {
                let text = read_small(root, f).unwrap_or_default();
                let module = text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("module "))
                    .map(|m| m.split("//").next().unwrap_or(m).trim().trim_matches('"'))
                    .filter(|m| !m.is_empty());
                if let Some(module) = module {
                    modules.push((parent(f).to_string(), module.to_string()));
                }
            } else if f.ends_with(".go") && !f.ends_with("_test.go") {
                packages.entry(parent(f)).or_default().push(f);
            }
        }
        // The longest module path first: a nested module wins.
        modules.sort_by_key(|(_, m)| std::cmp::Reverse(m.len()));
        let packages = packages
            .into_iter()
            .map(|(dir, mut files)| {
                files.sort_unstable();
                (dir, Arc::from(files))
            })
            .collect();
        Modules { modules, packages }
    }

    /// The package `file` (a `.go` file, a test too) belongs to: the
    /// non-test files of its folder, whether or not a `go.mod` names it.
    pub(super) fn own(&self, file: &str) -> Option<Arc<[&'a str]>> {
        if !file.ends_with(".go") {
            return None;
        }
        self.packages.get(parent(file)).cloned()
    }

    /// An import path under a module of the project: its package's files
    /// (each weighted so the package counts once), or unresolved when the
    /// folder holds no Go file. Go's own tree is the module `std`, whose
    /// packages are imported without a prefix (`net/http`, `fmt`: a first
    /// element with no dot). A path under no module is its vendored copy
    /// (`vendor/<path>` of a module) when the project has one, else
    /// external.
    pub(super) fn resolve(&self, path: &str) -> Resolution<'a> {
        for (dir, module) in &self.modules {
            let rest = if module == "std" {
                let first = path.split('/').next().unwrap_or(path);
                // cgo's pseudo-package `C` has no folder anywhere.
                if first.contains('.') || path == "C" {
                    continue;
                }
                path
            } else {
                match path.strip_prefix(module.as_str()) {
                    Some("") => "",
                    Some(rest) if rest.starts_with('/') => &rest[1..],
                    _ => continue,
                }
            };
            return match self.package(&join(dir, rest)) {
                Some(files) => files,
                None => Resolution::Unresolved,
            };
        }
        self.modules
            .iter()
            .find_map(|(dir, _)| self.package(&join(&join(dir, "vendor"), path)))
            .unwrap_or(Resolution::External)
    }

    /// The package in `folder`.
    fn package(&self, folder: &str) -> Option<Resolution<'a>> {
        let files = self.packages.get(folder).filter(|f| !f.is_empty())?;
        Some(Resolution::Package(files.clone()))
    }
}

/// The names a Go file defines at the top level that its symbol tree
/// does not hold: each `var` and `const` (`var X = …`, `const (` blocks
/// with one name or several a line), read at gofmt's indentation.
pub(super) fn values(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in source.lines() {
        let spec = if in_block {
            if line.starts_with(')') {
                in_block = false;
                continue;
            }
            // One tab deep: a spec; deeper: a value spread over lines.
            match line.strip_prefix('\t') {
                Some(rest) if !rest.starts_with(['\t', ' ', '/']) => rest,
                _ => continue,
            }
        } else if let Some(rest) = line
            .strip_prefix("var ")
            .or_else(|| line.strip_prefix("const "))
        {
            let rest = rest.trim_start();
            if rest.starts_with('(') {
                in_block = !rest.contains(')');
                continue;
            }
            rest
        } else {
            continue;
        };
        let names = spec.split(['=', '/']).next().unwrap_or(spec);
        // `a, b int`: the names before the type.
        for part in names.split(',') {
            let name = part.split_whitespace().next().unwrap_or("");
            if name != "_" && is_identifier(name) {
                out.push(name.to_string());
            }
        }
    }
    out
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The import paths of a Go file: `import "x"`, `import alias "x"` and
/// each line of an `import ( ... )` block, read after the `package`
/// clause (outside block comments) up to the first declaration, where Go
/// allows imports.
pub(super) fn encode(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut in_comment = false;
    let mut in_package = false;
    for line in source.lines() {
        let t = line.split("//").next().unwrap_or(line).trim();
        if in_comment {
            in_comment = !t.contains("*/");
            continue;
        }
        if !in_block && t.starts_with("/*") {
            in_comment = !t[2..].contains("*/");
            continue;
        }
        if !in_package {
            in_package = t.starts_with("package ");
            continue;
        }
        if !in_block
            && ["func", "type", "var", "const"]
                .iter()
                .any(|k| t.strip_prefix(k).is_some_and(|r| r.starts_with([' ', '('])))
        {
            break;
        }
        let spec = if in_block {
            if t.starts_with(')') {
                in_block = false;
                continue;
            }
            t
        } else if let Some(rest) = t.strip_prefix("import") {
            let rest = rest.trim_start();
            if rest.starts_with('(') {
                in_block = !rest.contains(')');
                rest.trim_start_matches('(')
            } else {
                rest
            }
        } else {
            continue;
        };
        if let Some(path) = spec.split('"').nth(1).filter(|p| !p.is_empty()) {
            out.push(path.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::modules::testing::{files, targets};

    #[test]
    fn imports_are_read_between_the_package_clause_and_the_first_declaration() {
        // pflag's `flag.go` shows its own import in its doc comment.
        let src = "/*\nPackage pflag.\n\n\timport flag \"github.com/spf13/pflag\"\n*/\n\
                   package pflag\n\n/* one line */\nimport (\n\t\"bytes\"\n\tgoflag \"flag\"\n)\n\n\
                   func f() {\n\ts := `\nimport \"os\"\n`\n}\nimport \"late\"\n";
        assert_eq!(encode(src), ["bytes", "flag"]);
        assert_eq!(encode("// import \"x\"\npackage a\nimport \"y\"\n"), ["y"]);
    }

    #[test]
    fn values_are_the_top_level_vars_and_consts() {
        let src = "package a\n\nvar ErrHelp = errors.New(\"x\")\nconst Max = 3\n\
                   var a, b int\nvar _ = f()\nconst (\n\tContinueOnError ErrorHandling = iota\n\
                   \tExitOnError\n\t// a comment\n\tx, y = 1,\n\t\t2\n)\nvar (\n\tcache = map[string]int{\n\
                   \t\t\"k\": 1,\n\t}\n)\nfunc f() {\n\tvar local = 1\n}\n";
        assert_eq!(
            values(src),
            [
                "ErrHelp",
                "Max",
                "a",
                "b",
                "ContinueOnError",
                "ExitOnError",
                "x",
                "y",
                "cache"
            ]
        );
    }

    #[test]
    fn go_imports_resolve_to_the_package_files_of_the_module() {
        let src = "package main\n\nimport \"fmt\"\nimport (\n\t\"example.com/app/internal/db\"\n\
                   \tlog \"example.com/app/pkg/log\" // logging\n\t_ \"example.com/app/gone\"\n)\n";
        assert_eq!(
            encode(src),
            [
                "fmt",
                "example.com/app/internal/db",
                "example.com/app/pkg/log",
                "example.com/app/gone"
            ]
        );
        let list = files(&[
            "main.go",
            "internal/db/db.go",
            "internal/db/tx.go",
            "internal/db/db_test.go",
            "pkg/log/log.go",
        ]);
        let mut go = Modules::read(Path::new("/nonexistent"), &list);
        go.modules
            .push((String::new(), "example.com/app".to_string()));
        let r = |p: &str| targets(go.resolve(p));
        assert_eq!(
            r("example.com/app/internal/db"),
            Some(vec!["internal/db/db.go", "internal/db/tx.go"])
        );
        assert_eq!(r("example.com/app/pkg/log"), Some(vec!["pkg/log/log.go"]));
        assert!(matches!(
            go.resolve("example.com/app/gone"),
            Resolution::Unresolved
        ));
        assert!(matches!(go.resolve("fmt"), Resolution::External));
        // Go's own tree: module `std`, packages without a prefix, the
        // vendored ones under `vendor/`.
        let list = files(&[
            "net/http/server.go",
            "net/http/internal/chunked.go",
            "vendor/golang.org/x/net/idna/idna.go",
        ]);
        let mut std = Modules::read(Path::new("/nonexistent"), &list);
        std.modules.push((String::new(), "std".to_string()));
        let r = |p: &str| targets(std.resolve(p));
        assert_eq!(
            r("net/http/internal"),
            Some(vec!["net/http/internal/chunked.go"])
        );
        assert_eq!(
            r("golang.org/x/net/idna"),
            Some(vec!["vendor/golang.org/x/net/idna/idna.go"])
        );
        assert!(matches!(std.resolve("net/gone"), Resolution::Unresolved));
        assert!(matches!(std.resolve("C"), Resolution::External));
        assert!(matches!(std.resolve("example.com/x"), Resolution::External));
    }
}
