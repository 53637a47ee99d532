//! Import statements resolved to project files. Only files in the walked
//! project set can be targets, so a resolved path is always inside the
//! project; anything else (the standard library, third-party packages,
//! system headers) is simply not an edge.

use std::collections::HashSet;

use super::imports::{Include, PyImport};

/// The project's files, for lookups while resolving.
pub struct FileSet<'a> {
    files: HashSet<&'a str>,
    /// Directories Python searches for top-level modules: the root and
    /// `src/` when it exists.
    py_roots: Vec<String>,
    /// `[project] include_dirs`, normalised, relative to the root.
    include_dirs: Vec<String>,
}

impl<'a> FileSet<'a> {
    pub fn new(files: &'a [String], include_dirs: &[String]) -> Self {
        let files: HashSet<&str> = files.iter().map(String::as_str).collect();
        let mut py_roots = vec![String::new()];
        if files.iter().any(|f| f.starts_with("src/")) {
            py_roots.push("src".to_string());
        }
        let include_dirs = include_dirs
            .iter()
            .filter_map(|d| normalize(d.trim_end_matches('/')))
            .collect();
        FileSet {
            files,
            py_roots,
            include_dirs,
        }
    }

    fn get(&self, rel: &str) -> Option<&'a str> {
        self.files.get(rel).copied()
    }

    /// The file a dotted module lives in, searched under `base`:
    /// `a/b.py`, `a/b.pyi` or the package's `a/b/__init__.py`. An empty
    /// module is the package `base` itself.
    fn module_file(&self, base: &str, dotted: &str) -> Option<&'a str> {
        let rel = join(base, &dotted.replace('.', "/"));
        let init = ["__init__.py", "__init__.pyi"]
            .iter()
            .find_map(|name| self.get(&join(&rel, name)));
        if dotted.is_empty() {
            return init;
        }
        [".py", ".pyi"]
            .iter()
            .find_map(|ext| self.get(&format!("{rel}{ext}")))
            .or(init)
    }

    /// The files `stmt` in `from_file` imports, each with its edge weight:
    /// a name that is a submodule is an edge to that module; the other
    /// names together weigh on the module they come from.
    pub fn resolve_python(&self, from_file: &str, stmt: &PyImport) -> Vec<(&'a str, f64)> {
        let bases: Vec<String> = if stmt.level > 0 {
            match package_of(from_file, stmt.level) {
                Some(base) => vec![base],
                None => return Vec::new(),
            }
        } else {
            let mut bases = self.py_roots.clone();
            // A script's own directory is on `sys.path` too.
            bases.push(parent(from_file).to_string());
            bases
        };
        for base in &bases {
            let mut found = Vec::new();
            let mut from_module = 0;
            for name in &stmt.names {
                let sub = match (name.as_str(), stmt.module.is_empty()) {
                    ("*", _) => None,
                    (_, true) => self.module_file(base, name),
                    (_, false) => self.module_file(base, &format!("{}.{name}", stmt.module)),
                };
                match sub {
                    Some(file) => found.push((file, 1.0)),
                    None => from_module += 1,
                }
            }
            let module = if stmt.module.is_empty() && stmt.level == 0 {
                None
            } else {
                self.module_file(base, &stmt.module)
            };
            if let Some(file) = module
                && (stmt.names.is_empty() || from_module > 0)
            {
                found.push((file, from_module.max(1) as f64));
            }
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    /// The file `inc` in `from_file` names: quoted includes relative to the
    /// including file, then the include dirs, then the root; angled ones in
    /// the include dirs only.
    pub fn resolve_include(&self, from_file: &str, inc: &Include) -> Option<&'a str> {
        let mut dirs: Vec<&str> = Vec::new();
        if !inc.angled {
            dirs.push(parent(from_file));
        }
        dirs.extend(self.include_dirs.iter().map(String::as_str));
        if !inc.angled {
            dirs.push("");
        }
        dirs.iter()
            .filter_map(|dir| normalize(&join(dir, &inc.path)))
            .find_map(|rel| self.get(&rel))
    }
}

/// The package a relative import of `level` dots in `file` starts from:
/// one dot is the file's own package, each further dot one level up.
fn package_of(file: &str, level: usize) -> Option<String> {
    let mut parts: Vec<&str> = file.split('/').collect();
    parts.pop();
    for _ in 1..level {
        parts.pop()?;
    }
    Some(parts.join("/"))
}

fn parent(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn join(dir: &str, rel: &str) -> String {
    match (dir.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{rel}"),
    }
}

/// `a/./b/../c` → `a/c`; `None` when it climbs above the root or is
/// absolute.
fn normalize(path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            p => out.push(p),
        }
    }
    Some(out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn py(level: usize, module: &str, names: &[&str]) -> PyImport {
        PyImport {
            level,
            module: module.to_string(),
            names: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn python_modules_packages_and_relative() {
        let all = files(&[
            "app/__init__.py",
            "app/core.py",
            "app/util/__init__.py",
            "app/util/text.py",
            "tool.py",
            "helper.py",
        ]);
        let set = FileSet::new(&all, &[]);
        let r = |from: &str, i: PyImport| -> Vec<&str> {
            set.resolve_python(from, &i)
                .into_iter()
                .map(|(f, _)| f)
                .collect()
        };
        assert_eq!(r("tool.py", py(0, "app.core", &[])), ["app/core.py"]);
        assert_eq!(r("tool.py", py(0, "app", &["core"])), ["app/core.py"]);
        assert_eq!(r("tool.py", py(0, "app", &["main"])), ["app/__init__.py"]);
        assert_eq!(r("tool.py", py(0, "os", &[])), Vec::<&str>::new());
        assert_eq!(
            r("app/core.py", py(1, "", &["util"])),
            ["app/util/__init__.py"]
        );
        assert_eq!(
            r("app/util/text.py", py(2, "core", &["x"])),
            ["app/core.py"]
        );
        assert_eq!(
            r("app/util/__init__.py", py(1, "text", &["y"])),
            ["app/util/text.py"]
        );
        assert_eq!(r("app/core.py", py(0, "helper", &[])), ["helper.py"]);
        // Too many dots: not an error, not an edge.
        assert_eq!(r("tool.py", py(3, "x", &[])), Vec::<&str>::new());
    }

    #[test]
    fn src_layout() {
        let all = files(&["src/pkg/__init__.py", "src/pkg/a.py", "tests/test_a.py"]);
        let set = FileSet::new(&all, &[]);
        let got: Vec<&str> = set
            .resolve_python("tests/test_a.py", &py(0, "pkg.a", &["f"]))
            .into_iter()
            .map(|(f, _)| f)
            .collect();
        assert_eq!(got, ["src/pkg/a.py"]);
    }

    #[test]
    fn includes_relative_then_dirs() {
        let all = files(&["src/a.c", "src/a.h", "include/lib/b.h", "c.h"]);
        let set = FileSet::new(&all, &["include/".to_string()]);
        let inc = |p: &str, angled| Include {
            path: p.to_string(),
            angled,
        };
        assert_eq!(
            set.resolve_include("src/a.c", &inc("a.h", false)),
            Some("src/a.h")
        );
        assert_eq!(
            set.resolve_include("src/a.c", &inc("lib/b.h", false)),
            Some("include/lib/b.h")
        );
        assert_eq!(
            set.resolve_include("src/a.c", &inc("lib/b.h", true)),
            Some("include/lib/b.h")
        );
        assert_eq!(
            set.resolve_include("src/a.c", &inc("../c.h", false)),
            Some("c.h")
        );
        assert_eq!(
            set.resolve_include("src/a.c", &inc("../../etc/passwd", false)),
            None
        );
        assert_eq!(set.resolve_include("src/a.c", &inc("stdio.h", true)), None);
        assert_eq!(set.resolve_include("src/a.c", &inc("c.h", true)), None);
    }
}
