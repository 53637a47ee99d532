//! Import statements resolved to project files. Only files in the walked
//! project set can be targets, so a resolved path is always inside the
//! project; anything else (the standard library, third-party packages,
//! system headers) is simply not an edge.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::imports::{Include, PyImport};
use super::layout::{Layout, beneath_dir, join, normalize, parent};
use super::search_index::{SearchIndex, ancestor, climb};
use crate::core::module_maps::stdlib;

/// What one statement led to.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution<'a> {
    /// Project files, each with its edge weight.
    Files(Vec<(&'a str, f64)>),
    /// Every file of a package (a Go package, Java's `p.*`, a C#
    /// namespace, Kotlin's `p.*`), sorted, shared by every statement
    /// naming it: the graph makes an edge only to the files whose names
    /// the importer uses (`graph::names`).
    Package(Arc<[&'a str]>),
    /// Outside the project (the standard library, a third-party package, a
    /// system header): not an edge, not a problem.
    External,
    /// It names the project but no file of it: a layout ctxcurate does not
    /// understand, a generated file, a macro include.
    Unresolved,
}

/// Edge weight of a package `__init__` that an import runs on the way to
/// its module.
const PACKAGE_INIT_WEIGHT: f64 = 0.5;

/// The project's files, for lookups while resolving.
pub struct FileSet<'a> {
    files: HashSet<&'a str>,
    layout: Layout,
    /// Files by their name, for includes found by path suffix.
    by_name: HashMap<&'a str, Vec<&'a str>>,
    /// Every folder name in the tree.
    dir_names: HashSet<&'a str>,
    /// Every folder path in the tree, root-relative.
    dirs: HashSet<&'a str>,
    /// Which Python roots hold a name, where the include folders are.
    index: SearchIndex<'a>,
}

impl<'a> FileSet<'a> {
    pub fn new(files: &'a [String], layout: Layout) -> Self {
        let mut by_name: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut dir_names = HashSet::new();
        let mut dirs = HashSet::new();
        for f in files {
            let mut parts: Vec<&str> = f.split('/').collect();
            if let Some(name) = parts.pop() {
                by_name.entry(name).or_default().push(f.as_str());
            }
            dir_names.extend(parts);
            dirs.extend(f.match_indices('/').map(|(i, _)| &f[..i]));
        }
        for list in by_name.values_mut() {
            list.sort_unstable();
        }
        let index = SearchIndex::new(files, &layout);
        FileSet {
            files: files.iter().map(String::as_str).collect(),
            layout,
            by_name,
            dir_names,
            dirs,
            index,
        }
    }

    /// What a bound on the places searched left out, one line for the user.
    pub(super) fn limits(&self) -> Option<String> {
        self.index.limits()
    }

    pub(super) fn get(&self, rel: &str) -> Option<&'a str> {
        self.files.get(rel).copied()
    }

    /// Whether the tree holds folder `dir` (root-relative; the root is
    /// `""`): a path under no folder of the tree names no file, whatever
    /// extension is tried.
    pub(super) fn holds_dir(&self, dir: &str) -> bool {
        dir.is_empty() || self.dirs.contains(dir)
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

    /// The places an absolute `module` may live: (folder, module under it).
    /// A folder reached through a package name (the root's own) comes
    /// first. A module whose first name is the standard library's
    /// (`abc`, `types`) is looked for only at the top of a Python root that
    /// is not itself a package: `from abc import ABC` in `rich/console.py`
    /// is the standard library's, not `rich/abc.py` (Python 3 has no
    /// implicit relative imports), while the standard library opened as a
    /// project, or a top-level module that shadows it, still resolves.
    fn absolute_bases(&self, from_file: &str, module: &str) -> Vec<(String, String)> {
        let mut bases = Vec::new();
        for (name, dir) in &self.layout.py_aliases {
            if module == name {
                bases.push((dir.clone(), String::new()));
            } else if let Some(rest) = module.strip_prefix(name.as_str())
                && let Some(rest) = rest.strip_prefix('.')
            {
                bases.push((dir.clone(), rest.to_string()));
            }
        }
        let head = module.split('.').next().unwrap_or(module);
        // Only the roots that hold `head` can hold the module (or a
        // namespace part of it): the others are not probed.
        let roots: Vec<&String> = if head.is_empty() {
            self.layout.py_roots.iter().collect()
        } else {
            self.index
                .roots_searched(&self.layout, from_file, head)
                .into_iter()
                .filter_map(|i| self.layout.py_roots.get(i))
                .collect()
        };
        if stdlib::is_python(head) {
            for root in roots {
                if self.module_file(root, "").is_none() {
                    bases.push((root.clone(), module.to_string()));
                }
            }
            return bases;
        }
        for root in roots {
            bases.push((root.clone(), module.to_string()));
        }
        // A script's own directory is on `sys.path` too.
        bases.push((parent(from_file).to_string(), module.to_string()));
        bases
    }

    /// The files `stmt` in `from_file` imports, each with its edge weight:
    /// a name that is a submodule is an edge to that module; the other
    /// names together weigh on the module they come from; the packages on
    /// the way (`a/__init__.py` for `import a.b`) weigh less.
    pub fn resolve_python(&self, from_file: &str, stmt: &PyImport) -> Resolution<'a> {
        let bases: Vec<(String, String)> = if stmt.level > 0 {
            match package_of(from_file, stmt.level) {
                Some(base) => vec![(base, stmt.module.clone())],
                None => return Resolution::Unresolved,
            }
        } else {
            self.absolute_bases(from_file, &stmt.module)
        };
        for (base, module) in &bases {
            // `import x` names a module; `from . import x` and an alias
            // for the root (`import pip` at `pip/`) name a package.
            let bare = module.is_empty() && stmt.level == 0 && stmt.module.is_empty();
            let mut found = self.resolve_at(base, module, &stmt.names, bare);
            if found.is_empty() {
                continue;
            }
            // Through the root's own package name: that package runs too.
            if stmt.level == 0
                && *module != stmt.module
                && let Some(init) = self.module_file(base, "")
                && !found.iter().any(|(f, _)| *f == init)
            {
                found.push((init, PACKAGE_INIT_WEIGHT));
            }
            return Resolution::Files(found);
        }
        if stmt.level > 0 {
            return Resolution::Unresolved;
        }
        if bases
            .iter()
            .any(|(base, module)| self.under_namespace(base, module))
        {
            // Another distribution's part of a shared namespace
            // (`poetry.core` beside poetry's own `src/poetry/`).
            return Resolution::External;
        }
        if self.names_project(from_file, &stmt.module, &stmt.names) {
            Resolution::Unresolved
        } else {
            Resolution::External
        }
    }

    fn resolve_at(
        &self,
        base: &str,
        module: &str,
        names: &[String],
        bare: bool,
    ) -> Vec<(&'a str, f64)> {
        let mut found = Vec::new();
        let mut from_module = 0;
        for name in names {
            let sub = match (name.as_str(), module.is_empty()) {
                ("*", _) => None,
                (_, true) => self.module_file(base, name),
                (_, false) => self.module_file(base, &format!("{module}.{name}")),
            };
            match sub {
                Some(file) => found.push((file, 1.0)),
                None => from_module += 1,
            }
        }
        let module_file = if bare {
            None
        } else {
            self.module_file(base, module)
        };
        if let Some(file) = module_file
            && (names.is_empty() || from_module > 0)
        {
            found.push((file, from_module.max(1) as f64));
        }
        if found.is_empty() {
            return found;
        }
        // The packages on the way run first: `a/__init__.py` and
        // `a/b/__init__.py` for `a.b.c` (the module's own package too
        // when only its submodules were named).
        let parts: Vec<&str> = module.split('.').filter(|p| !p.is_empty()).collect();
        for i in 1..=parts.len() {
            if let Some(init) = self.module_file(base, &parts[..i].join("."))
                && init.ends_with("/__init__.py")
                && !found.iter().any(|(f, _)| *f == init)
            {
                found.push((init, PACKAGE_INIT_WEIGHT));
            }
        }
        found
    }

    /// Whether the deepest project folder `module` reaches under `base`
    /// (at least its first name) is a namespace package (PEP 420: no
    /// `__init__.py`), so the part that is missing may be installed by
    /// another distribution sharing the namespace. A module missing under
    /// a regular package is the project's and stays unresolved.
    fn under_namespace(&self, base: &str, module: &str) -> bool {
        let mut deepest = None;
        let mut rel = base.to_string();
        for part in module.split('.').filter(|p| !p.is_empty()) {
            rel = join(&rel, part);
            if !self.dirs.contains(rel.as_str()) {
                break;
            }
            deepest = Some(rel.clone());
        }
        deepest.is_some_and(|dir| self.module_file(&dir, "").is_none())
    }

    /// Whether an absolute import that did not resolve still names the
    /// project: its first name is a module or package of the project (or
    /// the root's own name), so a file is missing rather than the package
    /// being third-party. A folder that merely holds packages (a fixture
    /// project deep in the tests) speaks for its own files only.
    fn names_project(&self, from_file: &str, module: &str, names: &[String]) -> bool {
        let head = match module.split('.').next() {
            Some(h) if !h.is_empty() => h,
            _ => match names.first() {
                Some(n) => n.as_str(),
                None => return false,
            },
        };
        // A standard name that did not resolve at a root is the standard
        // library's, whatever file shares its name inside a package.
        if stdlib::is_python(head) && head != self.layout.root_name {
            return false;
        }
        head == self.layout.root_name
            || self
                .layout
                .py_aliases
                .iter()
                .any(|(name, _)| name.split('.').next() == Some(head))
            || self
                .index
                .roots_searched(&self.layout, from_file, head)
                .into_iter()
                .filter_map(|i| Some((i, self.layout.py_roots.get(i)?)))
                .filter(|(i, root)| {
                    *i < self.layout.py_shared_roots || beneath_dir(from_file, root)
                })
                .any(|(_, root)| self.module_file(root, head).is_some())
    }

    /// The file `inc` in `from_file` names: quoted includes relative to the
    /// including file, then the include dirs, then the root; angled ones in
    /// the include dirs only. Failing those, a project file whose path ends
    /// with the include's (the folder it is included from is then an
    /// include dir no one declared), nearest the including file first.
    pub fn resolve_include(&self, from_file: &str, inc: &Include) -> Resolution<'a> {
        if inc.is_macro {
            return Resolution::Unresolved;
        }
        if let Some(file) = self.in_search_dirs(from_file, inc) {
            return Resolution::Files(vec![(file, 1.0)]);
        }
        let first_dir = inc.path.split_once('/').map(|(d, _)| d);
        // A bare `<name.h>` not in an include dir is a system header.
        if (!inc.angled || first_dir.is_some())
            && let Some(file) = self.by_suffix(from_file, &inc.path)
        {
            return Resolution::Files(vec![(file, 1.0)]);
        }
        let project_dir = first_dir.is_some_and(|d| d != ".." && self.dir_names.contains(d));
        if !inc.angled || project_dir {
            Resolution::Unresolved
        } else {
            Resolution::External
        }
    }

    /// The file `inc` names in the first folder of its search that holds
    /// it: the including file's folder (quoted includes), the include
    /// folders in order, the root (quoted). Found from the files of that
    /// name ([`SearchIndex`]), not by probing every folder.
    fn in_search_dirs(&self, from_file: &str, inc: &Include) -> Option<&'a str> {
        let (ups, rest) = climb(&inc.path)?;
        let name = rest.rsplit('/').next().filter(|n| !n.is_empty())?;
        let quoted = !inc.angled;
        let mut best: Option<(usize, &'a str)> = None;
        for &file in self.by_name.get(name)? {
            // The folder the file lies in, as `rest` reaches it.
            let dir = if file == rest {
                ""
            } else {
                match file
                    .strip_suffix(rest.as_str())
                    .and_then(|d| d.strip_suffix('/'))
                {
                    Some(dir) => dir,
                    None => continue,
                }
            };
            let place = if quoted && ancestor(parent(from_file), ups) == Some(dir) {
                Some(0)
            } else if let Some(i) = self.index.include_place(&self.layout, dir, ups) {
                Some(1 + i)
            } else if quoted && ups == 0 && dir.is_empty() {
                Some(usize::MAX)
            } else {
                None
            };
            if let Some(place) = place
                && best.is_none_or(|(b, _)| place < b)
            {
                best = Some((place, file));
            }
        }
        best.map(|(_, file)| file)
    }

    /// The project file whose path ends with `/{path}`, sharing the most
    /// folders with `from_file`, then the shortest, then by name.
    fn by_suffix(&self, from_file: &str, path: &str) -> Option<&'a str> {
        let normalized = normalize(path)?;
        if normalized.is_empty() || path.contains("..") {
            return None;
        }
        let name = normalized.rsplit('/').next()?;
        let suffix = format!("/{normalized}");
        let shared = |f: &str| {
            f.split('/')
                .zip(from_file.split('/'))
                .take_while(|(a, b)| a == b)
                .count()
        };
        self.by_name
            .get(name)?
            .iter()
            .filter(|f| f.ends_with(&suffix) || **f == normalized)
            .min_by_key(|f| (std::cmp::Reverse(shared(f)), f.len(), **f))
            .copied()
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
            kind: Default::default(),
        }
    }

    fn layout(py_roots: &[&str], aliases: &[(&str, &str)], include_dirs: &[&str]) -> Layout {
        Layout {
            py_roots: py_roots.iter().map(|s| s.to_string()).collect(),
            py_aliases: aliases
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            root_name: "proj".to_string(),
            include_dirs: include_dirs.iter().map(|s| s.to_string()).collect(),
            py_shared_roots: py_roots.len(),
        }
    }

    /// The files of a resolution, or `["?"]` for unresolved, `[]` for
    /// external.
    fn paths(r: Resolution<'_>) -> Vec<&str> {
        match r {
            Resolution::Files(f) => f.into_iter().map(|(f, _)| f).collect(),
            Resolution::Package(f) => f.to_vec(),
            Resolution::External => Vec::new(),
            Resolution::Unresolved => vec!["?"],
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
        let set = FileSet::new(&all, layout(&[""], &[], &[]));
        let r = |from: &str, i: PyImport| paths(set.resolve_python(from, &i));
        assert_eq!(
            r("tool.py", py(0, "app.core", &[])),
            ["app/core.py", "app/__init__.py"]
        );
        assert_eq!(
            r("tool.py", py(0, "app", &["core"])),
            ["app/core.py", "app/__init__.py"]
        );
        assert_eq!(r("tool.py", py(0, "app", &["main"])), ["app/__init__.py"]);
        assert_eq!(
            r("tool.py", py(0, "app.util.text", &[])),
            [
                "app/util/text.py",
                "app/__init__.py",
                "app/util/__init__.py"
            ]
        );
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
        // Too many dots, a missing module of the project's own package, a
        // missing relative module: unresolved, not an edge.
        assert_eq!(r("tool.py", py(3, "x", &[])), ["?"]);
        assert_eq!(r("tool.py", py(0, "app.gone", &[])), ["?"]);
        assert_eq!(r("app/core.py", py(1, "gone", &["x"])), ["?"]);
        assert_eq!(r("tool.py", py(0, "proj.x", &[])), ["?"]);
    }

    /// A fixture project's own top-level module (`build.py` beside its
    /// package, deep in the tests) does not make the project's source
    /// claim a third-party package of that name as a missing file; the
    /// fixture's own files still do.
    #[test]
    fn a_module_of_a_nested_package_holder_speaks_only_for_its_own_files() {
        let all = files(&[
            "src/tool/__init__.py",
            "src/tool/isolated.py",
            "tests/fixtures/extended/build.py",
            "tests/fixtures/extended/extended/__init__.py",
        ]);
        let mut lay = layout(&["", "src", "tests/fixtures/extended"], &[], &[]);
        lay.py_shared_roots = 2;
        let set = FileSet::new(&all, lay);
        let r = |from: &str, i: PyImport| paths(set.resolve_python(from, &i));
        assert_eq!(
            r("src/tool/isolated.py", py(0, "build.env", &["IsolatedEnv"])),
            Vec::<&str>::new()
        );
        assert_eq!(
            r(
                "tests/fixtures/extended/extended/__init__.py",
                py(0, "build.env", &["X"])
            ),
            ["?"]
        );
        // A package of a shared root still names the project everywhere.
        assert_eq!(
            r("tests/fixtures/extended/build.py", py(0, "tool.gone", &[])),
            ["?"]
        );
    }

    #[test]
    fn standard_library_names_are_not_project_files() {
        let all = files(&[
            "rich/__init__.py",
            "rich/abc.py",
            "rich/console.py",
            "rich/types.py",
            "tools/run.py",
            "tools/typing.py",
            "tools/helper.py",
        ]);
        let set = FileSet::new(&all, layout(&[""], &[], &[]));
        let r = |from: &str, i: PyImport| paths(set.resolve_python(from, &i));
        // The standard library's, from a package module and from a script.
        assert_eq!(
            r("rich/console.py", py(0, "abc", &["ABC"])),
            Vec::<&str>::new()
        );
        assert_eq!(
            r("rich/console.py", py(0, "types", &[])),
            Vec::<&str>::new()
        );
        assert_eq!(
            r("tools/run.py", py(0, "typing", &["Any"])),
            Vec::<&str>::new()
        );
        // Relative or package-qualified: the project's file.
        assert_eq!(r("rich/console.py", py(1, "abc", &["X"])), ["rich/abc.py"]);
        assert_eq!(r("rich/console.py", py(1, "", &["abc"])), ["rich/abc.py"]);
        assert_eq!(
            r("tools/run.py", py(0, "rich.abc", &["RichRenderable"])),
            ["rich/abc.py", "rich/__init__.py"]
        );
        // Not a standard name: a script's own folder as before.
        assert_eq!(r("tools/run.py", py(0, "helper", &[])), ["tools/helper.py"]);
        // The root opened as a package (`rich/` itself): its `abc.py` is
        // not the top-level `abc`.
        let inside = files(&["__init__.py", "abc.py", "console.py"]);
        let set = FileSet::new(&inside, layout(&[""], &[("rich", "")], &[]));
        assert_eq!(
            paths(set.resolve_python("console.py", &py(0, "abc", &["ABC"]))),
            Vec::<&str>::new()
        );
        // The standard library opened as a project: its own modules.
        let lib = files(&["abc.py", "os.py", "json/__init__.py", "json/decoder.py"]);
        let set = FileSet::new(&lib, layout(&[""], &[], &[]));
        assert_eq!(
            paths(set.resolve_python("json/decoder.py", &py(0, "os", &[]))),
            ["os.py"]
        );
    }

    #[test]
    fn src_layout() {
        let all = files(&["src/pkg/__init__.py", "src/pkg/a.py", "tests/test_a.py"]);
        let set = FileSet::new(&all, layout(&["", "src"], &[], &[]));
        assert_eq!(
            paths(set.resolve_python("tests/test_a.py", &py(0, "pkg.a", &["f"]))),
            ["src/pkg/a.py", "src/pkg/__init__.py"]
        );
    }

    /// poetry's `src/poetry/` has no `__init__.py`: a namespace package
    /// that poetry-core (installed elsewhere) shares as `poetry.core`. A
    /// module missing under a namespace folder is another distribution's;
    /// one missing under a regular package is still the project's.
    #[test]
    fn a_namespace_package_shares_its_name() {
        let all = files(&[
            "src/poetry/poetry.py",
            "src/poetry/factory.py",
            "src/poetry/console/__init__.py",
            "src/poetry/console/application.py",
            "src/poetry/json/__init__.py",
            "tests/test_factory.py",
        ]);
        // `src/poetry` holds packages without being one: a root as well.
        let set = FileSet::new(&all, layout(&["", "src", "src/poetry"], &[], &[]));
        let r = |i: PyImport| paths(set.resolve_python("src/poetry/factory.py", &i));
        assert_eq!(
            r(py(0, "poetry.core.packages.dependency", &["Dependency"])),
            Vec::<&str>::new()
        );
        assert_eq!(r(py(0, "poetry.core", &[])), Vec::<&str>::new());
        // The project's own modules still resolve; a module missing in a
        // regular package of it is still reported.
        assert_eq!(
            r(py(0, "poetry.factory", &["Factory"])),
            ["src/poetry/factory.py"]
        );
        assert_eq!(r(py(0, "poetry.console.gone", &["X"])), ["?"]);
        assert_eq!(
            paths(set.resolve_python("tests/test_factory.py", &py(0, "poetry.json.nothing", &[]))),
            ["?"]
        );
    }

    #[test]
    fn a_package_opened_at_its_own_folder() {
        // pip's `src/pip` opened as the root.
        let all = files(&[
            "__init__.py",
            "_internal/__init__.py",
            "_internal/operations/__init__.py",
            "_internal/operations/prepare.py",
            "_internal/cli/main.py",
        ]);
        let set = FileSet::new(&all, layout(&[""], &[("pip", "")], &[]));
        let r = |i: PyImport| paths(set.resolve_python("_internal/cli/main.py", &i));
        assert_eq!(
            r(py(0, "pip._internal.operations", &["prepare"])),
            [
                "_internal/operations/prepare.py",
                "_internal/__init__.py",
                "_internal/operations/__init__.py",
                "__init__.py"
            ]
        );
        assert_eq!(r(py(0, "pip", &[])), ["__init__.py"]);
        assert_eq!(r(py(0, "pip._internal.nothing", &[])), ["?"]);
        assert_eq!(r(py(0, "pip._vendor.rich", &["x"])), ["?"]);
        assert_eq!(r(py(0, "requests", &[])), Vec::<&str>::new());
    }

    #[test]
    fn includes_relative_then_dirs_then_suffix() {
        let all = files(&[
            "src/a.c",
            "src/a.h",
            "include/lib/b.h",
            "c.h",
            "deep/proj/x.h",
            "other/proj/x.h",
            "deep/tool.c",
        ]);
        let set = FileSet::new(&all, layout(&[""], &[], &["include"]));
        let inc = |p: &str, angled| Include {
            path: p.to_string(),
            angled,
            is_macro: false,
        };
        let r = |from: &str, i: Include| paths(set.resolve_include(from, &i));
        assert_eq!(r("src/a.c", inc("a.h", false)), ["src/a.h"]);
        assert_eq!(r("src/a.c", inc("lib/b.h", false)), ["include/lib/b.h"]);
        assert_eq!(r("src/a.c", inc("lib/b.h", true)), ["include/lib/b.h"]);
        assert_eq!(r("src/a.c", inc("../c.h", false)), ["c.h"]);
        assert_eq!(r("src/a.c", inc("../../etc/passwd", false)), ["?"]);
        assert_eq!(r("src/a.c", inc("stdio.h", true)), Vec::<&str>::new());
        assert_eq!(r("src/a.c", inc("c.h", true)), Vec::<&str>::new());
        // By path suffix, nearest the including file.
        assert_eq!(r("deep/tool.c", inc("proj/x.h", true)), ["deep/proj/x.h"]);
        assert_eq!(r("src/a.c", inc("proj/x.h", false)), ["deep/proj/x.h"]);
        // Named the project's folder but no file; a quoted or extensionless
        // header that is not there; a macro.
        assert_eq!(r("src/a.c", inc("proj/y.h", true)), ["?"]);
        assert_eq!(r("src/a.c", inc("config.h", false)), ["?"]);
        assert_eq!(r("src/a.c", inc("generated", false)), ["?"]);
        assert_eq!(r("src/a.c", inc("vector", true)), Vec::<&str>::new());
        let mac = Include {
            path: "CONFIG_H".to_string(),
            angled: false,
            is_macro: true,
        };
        assert_eq!(r("src/a.c", mac), ["?"]);
    }

    /// The search through the index finds what probing every folder in
    /// order found (the way it was done before recheck 15), for quoted and
    /// angled includes, climbs, folders named twice or not normalized.
    #[test]
    fn includes_found_through_the_index_are_those_probing_found() {
        let all = files(&[
            "a.h",
            "inc/a.h",
            "inc/sub/b.h",
            "lib/include/a.h",
            "lib/include/sub/b.h",
            "lib/c.h",
            "src/x.c",
            "src/a.h",
            "src/deep/y.c",
            "src/deep/c.h",
            "src/sub/b.h",
            "third/z/include/sub/b.h",
        ]);
        let dir_orders: [&[&str]; 4] = [
            &["inc", "lib/include", "src"],
            &["lib/include", "inc", "./src", "lib/include"],
            &["third/z/include", "src/deep", "../out"],
            &[],
        ];
        let paths = [
            "a.h",
            "sub/b.h",
            "c.h",
            "../c.h",
            "../a.h",
            "../../a.h",
            "./a.h",
            "sub/../a.h",
            "../include/a.h",
            "deep/../a.h",
            "../sub/b.h",
            "nope.h",
            "/abs/a.h",
            "..",
        ];
        for dirs in dir_orders {
            let set = FileSet::new(&all, layout(&[""], &[], dirs));
            for from in ["src/x.c", "src/deep/y.c", "lib/c.h", "a.h"] {
                for path in paths {
                    for angled in [false, true] {
                        let inc = Include {
                            path: path.to_string(),
                            angled,
                            is_macro: false,
                        };
                        let mut probed: Vec<&str> = Vec::new();
                        if !angled {
                            probed.push(parent(from));
                        }
                        probed.extend(set.layout.include_dirs.iter().map(String::as_str));
                        if !angled {
                            probed.push("");
                        }
                        let old = probed
                            .iter()
                            .filter_map(|dir| normalize(&join(dir, path)))
                            .find_map(|rel| set.get(&rel));
                        assert_eq!(
                            set.in_search_dirs(from, &inc),
                            old,
                            "{path} ({}) from {from} with {dirs:?}",
                            if angled { "angled" } else { "quoted" }
                        );
                    }
                }
            }
        }
    }
}
