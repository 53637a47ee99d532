//! Where a project keeps its code, found from the tree itself: the folders
//! Python searches for top-level packages (the root, `src/`, folders that
//! hold packages, `pyproject.toml`/`setup.cfg` package dirs, and the root's
//! own dotted name when the root is itself a package) and the folders C and
//! C++ search for headers (`[project] include_dirs`, `compile_commands.json`,
//! every `include/` folder, `src/`). Import resolution tries them in this
//! order; a layout never names a folder outside the root.

use std::collections::BTreeSet;
use std::path::Path;

use crate::core::paths::beneath;

/// The search paths of one project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// Folders searched for top-level Python modules, root-relative (`""`
    /// is the root), most likely first.
    pub py_roots: Vec<String>,
    /// Dotted package names that live at a folder of the project: when the
    /// root is itself a package (`pip/` with `__init__.py`), `pip` → `""`,
    /// so `import pip._internal` resolves inside it.
    pub py_aliases: Vec<(String, String)>,
    /// The root folder's own name, for telling a project import that did
    /// not resolve from a third-party one.
    pub root_name: String,
    /// Folders searched for headers, root-relative, in order.
    pub include_dirs: Vec<String>,
    /// How many of the first `py_roots` the whole project searches (the
    /// root, `src/`, the metadata's package dirs); the folders after them
    /// only hold packages (a fixture project, a vendored tree), so a
    /// module there speaks for the files beneath them alone.
    pub py_shared_roots: usize,
}

impl Layout {
    /// The layout of the project at `root` with files `files`;
    /// `include_dirs` as in `[project] include_dirs`.
    pub fn find(root: &Path, files: &[String], include_dirs: &[String]) -> Self {
        let root_name = root
            .canonicalize()
            .ok()
            .and_then(|r| r.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        let (py_roots, py_shared_roots) = python_roots(root, files);
        let mut layout = Layout {
            py_roots,
            py_aliases: root_package(root).into_iter().collect(),
            root_name,
            include_dirs: Vec::new(),
            py_shared_roots,
        };
        let mut dirs: Vec<String> = include_dirs
            .iter()
            .filter_map(|d| normalize(d.trim_end_matches('/')))
            .collect();
        dirs.extend(compile_commands_dirs(root));
        dirs.extend(include_folders(files));
        if files.iter().any(|f| f.starts_with("src/")) {
            dirs.push("src".to_string());
        }
        push_unique(&mut layout.include_dirs, dirs);
        layout
    }
}

impl Layout {
    /// When the root is a package whose folder is not named as its code
    /// imports it (a checkout renamed: `pip-copy/` holding pip), learn its
    /// name from its own absolute imports: the first part `X` of `X.Y…`
    /// that is no top-level module here while `Y` is a top-level entry of
    /// the root, seen at least [`MIN_NAME_VOTES`] times (the most often).
    pub fn name_root_from_imports(
        &mut self,
        files: &[String],
        modules: impl IntoIterator<Item = String>,
    ) {
        if !files.iter().any(|f| f == "__init__.py") {
            return;
        }
        let top: BTreeSet<&str> = files
            .iter()
            .map(|f| {
                let first = f.split('/').next().unwrap_or(f);
                first.strip_suffix(".py").unwrap_or(first)
            })
            .collect();
        let mut votes: std::collections::BTreeMap<String, usize> = Default::default();
        for module in modules {
            let mut parts = module.split('.');
            let (Some(first), Some(second)) = (parts.next(), parts.next()) else {
                continue;
            };
            if !top.contains(first)
                && top.contains(second)
                && !self.py_aliases.iter().any(|(name, _)| name == first)
            {
                *votes.entry(first.to_string()).or_default() += 1;
            }
        }
        if let Some((name, n)) = votes.into_iter().max_by_key(|(_, n)| *n)
            && n >= MIN_NAME_VOTES
        {
            self.py_aliases.push((name, String::new()));
        }
    }
}

/// How many of its own imports must agree on a root package's name.
const MIN_NAME_VOTES: usize = 3;

fn push_unique(into: &mut Vec<String>, items: impl IntoIterator<Item = String>) {
    for item in items {
        if !into.contains(&item) {
            into.push(item);
        }
    }
}

/// The root, `src/`, the package dirs the project's metadata names, then
/// every other folder that holds a package without being one, shallowest
/// first.
fn python_roots(root: &Path, files: &[String]) -> (Vec<String>, usize) {
    let mut roots = vec![String::new()];
    if files.iter().any(|f| f.starts_with("src/")) {
        roots.push("src".to_string());
    }
    push_unique(&mut roots, metadata_package_dirs(root));
    let shared = roots.len();
    let set: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let is_package = |dir: &str| {
        ["__init__.py", "__init__.pyi"]
            .iter()
            .any(|init| set.contains(join(dir, init).as_str()))
    };
    let mut holders: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let pkg = f
                .strip_suffix("/__init__.py")
                .or_else(|| f.strip_suffix("/__init__.pyi"))?;
            let holder = parent(pkg);
            (!is_package(holder)).then(|| holder.to_string())
        })
        .collect();
    holders.sort_by(|a, b| {
        (a.matches('/').count(), a.as_str()).cmp(&(b.matches('/').count(), b.as_str()))
    });
    push_unique(&mut roots, holders);
    (roots, shared)
}

/// Package dirs from `pyproject.toml` (setuptools `package-dir` and
/// `packages.find.where`, poetry `packages.from`, hatch wheel `packages`)
/// and `setup.cfg` (`[options] package_dir`), root-relative.
fn metadata_package_dirs(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(doc) = read_small(root, "pyproject.toml")
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok())
    {
        let tool = doc.get("tool");
        let setuptools = tool.and_then(|t| t.get("setuptools"));
        if let Some(dirs) = setuptools
            .and_then(|s| s.get("package-dir"))
            .and_then(|d| d.as_table_like())
        {
            out.extend(
                dirs.iter()
                    .filter_map(|(_, v)| v.as_str().map(String::from)),
            );
        }
        if let Some(wheres) = setuptools
            .and_then(|s| s.get("packages"))
            .and_then(|p| p.get("find"))
            .and_then(|f| f.get("where"))
            .and_then(|w| w.as_array())
        {
            out.extend(wheres.iter().filter_map(|v| v.as_str().map(String::from)));
        }
        if let Some(packages) = tool
            .and_then(|t| t.get("poetry"))
            .and_then(|p| p.get("packages"))
            .and_then(|p| p.as_array())
        {
            out.extend(
                packages
                    .iter()
                    .filter_map(|p| p.as_inline_table()?.get("from")?.as_str().map(String::from)),
            );
        }
        if let Some(packages) = tool
            .and_then(|t| t.get("hatch"))
            .and_then(|h| h.get("build"))
            .and_then(|b| b.get("targets"))
            .and_then(|t| t.get("wheel"))
            .and_then(|w| w.get("packages"))
            .and_then(|p| p.as_array())
        {
            out.extend(packages.iter().filter_map(|p| {
                p.as_str()
                    .map(|p| parent(p.trim_end_matches('/')).to_string())
            }));
        }
    }
    if let Some(text) = read_small(root, "setup.cfg") {
        out.extend(setup_cfg_package_dirs(&text));
    }
    let mut dirs: Vec<String> = out.iter().filter_map(|d| normalize(d)).collect();
    dirs.dedup();
    dirs
}

/// `package_dir = =src` or `package_dir =\n    =src\n    pkg = lib/pkg`
/// under `[options]`: the folders named (for `pkg = lib/pkg`, `lib`).
fn setup_cfg_package_dirs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut in_key = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed.to_string();
            in_key = false;
            continue;
        }
        if section != "[options]" {
            continue;
        }
        let continuation = line.starts_with([' ', '\t']) && in_key;
        let value = if continuation {
            trimmed
        } else if let Some((key, value)) = trimmed.split_once('=')
            && key.trim() == "package_dir"
        {
            in_key = true;
            value.trim()
        } else {
            in_key = false;
            continue;
        };
        if let Some((name, dir)) = value.split_once('=') {
            let (name, dir) = (name.trim(), dir.trim());
            out.push(if name.is_empty() {
                dir.to_string()
            } else {
                parent(dir).to_string()
            });
        }
    }
    out
}

/// When the root is itself a package (it holds `__init__.py`): its dotted
/// name — the root's folder name, under its parent packages' names — and
/// the root as the folder it lives at.
fn root_package(root: &Path) -> Option<(String, String)> {
    let is_package = |dir: &Path| dir.join("__init__.py").is_file();
    let mut dir = root.canonicalize().ok()?;
    if !is_package(&dir) {
        return None;
    }
    let mut name = dir.file_name()?.to_string_lossy().into_owned();
    while let Some(up) = dir.parent().map(Path::to_path_buf) {
        if !is_package(&up) {
            break;
        }
        let Some(up_name) = up.file_name() else {
            break;
        };
        name = format!("{}.{name}", up_name.to_string_lossy());
        dir = up;
    }
    Some((name, String::new()))
}

/// Every folder named `include` that holds files, shallowest first.
fn include_folders(files: &[String]) -> Vec<String> {
    let mut dirs = BTreeSet::new();
    for f in files {
        let mut prefix = String::new();
        let parts: Vec<&str> = f.split('/').collect();
        for part in &parts[..parts.len().saturating_sub(1)] {
            prefix = join(&prefix, part);
            if *part == "include" {
                dirs.insert(prefix.clone());
            }
        }
    }
    let mut dirs: Vec<String> = dirs.into_iter().collect();
    dirs.sort_by_key(|d| d.matches('/').count());
    dirs
}

/// The `-I`, `-iquote` and `-isystem` folders of `compile_commands.json`
/// (at the root or in `build/`) that lie inside the root.
fn compile_commands_dirs(root: &Path) -> Vec<String> {
    let Ok(canon_root) = root.canonicalize() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for place in ["compile_commands.json", "build/compile_commands.json"] {
        let Some(text) = read_small(root, place) else {
            continue;
        };
        let Ok(serde_json::Value::Array(entries)) = serde_json::from_str(&text) else {
            continue;
        };
        for entry in &entries {
            let dir = entry
                .get("directory")
                .and_then(|d| d.as_str())
                .unwrap_or("");
            let args: Vec<String> = match entry.get("arguments").and_then(|a| a.as_array()) {
                Some(a) => a
                    .iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect(),
                None => entry
                    .get("command")
                    .and_then(|c| c.as_str())
                    .map(|c| c.split_whitespace().map(String::from).collect())
                    .unwrap_or_default(),
            };
            for found in include_flags(&args) {
                let abs = Path::new(dir).join(found);
                if let Some(rel) = relative_inside(&canon_root, &abs) {
                    out.push(rel);
                }
            }
        }
    }
    out
}

/// The folders of `-Idir`, `-I dir`, `-iquote dir`, `-isystem dir`.
fn include_flags(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        for flag in ["-I", "-iquote", "-isystem"] {
            if let Some(rest) = arg.strip_prefix(flag) {
                if rest.is_empty() {
                    if let Some(next) = it.next() {
                        out.push(next.as_str());
                    }
                } else if flag == "-I" || !rest.starts_with('-') {
                    out.push(rest);
                }
                break;
            }
        }
    }
    out
}

/// `abs` relative to `root` when it lies inside it (lexically, after
/// resolving what exists).
fn relative_inside(root: &Path, abs: &Path) -> Option<String> {
    let abs = abs.canonicalize().ok()?;
    let rel = abs.strip_prefix(root).ok()?;
    let rel = rel.to_str()?.replace('\\', "/");
    normalize(&rel)
}

/// A project metadata file at `rel`, if it is a regular file small enough
/// to be one. It is opened beneath the root with no link followed (a
/// shipped link could point anywhere on the machine, and a folder swapped
/// for one between a check and the read would be followed), and a FIFO
/// does not block the open.
pub(super) fn read_small(root: &Path, rel: &str) -> Option<String> {
    beneath::read_small_text(root, rel, beneath::Links::Never, 1 << 20)
}

pub(super) fn parent(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Whether root-relative `file` lies in folder `dir` (`""` is the root).
pub(super) fn beneath_dir(file: &str, dir: &str) -> bool {
    dir.is_empty()
        || file
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

pub(super) fn join(dir: &str, rel: &str) -> String {
    match (dir.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{rel}"),
    }
}

/// `a/./b/../c` → `a/c`; `None` when it climbs above the root or is
/// absolute.
pub(super) fn normalize(path: &str) -> Option<String> {
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

    #[test]
    fn python_roots_are_the_root_src_and_package_holders() {
        let dir = tempfile::tempdir().unwrap();
        let all = files(&[
            "src/app/__init__.py",
            "src/app/core.py",
            "lib/vendored/thing/__init__.py",
            "tests/test_x.py",
            "top/__init__.py",
            "top/inner/__init__.py",
        ]);
        let (roots, shared) = python_roots(dir.path(), &all);
        assert_eq!(roots, ["", "src", "lib/vendored"]);
        assert_eq!(shared, 2);
    }

    #[test]
    fn metadata_names_package_dirs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[tool.setuptools.package-dir]\n\"\" = \"code\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("setup.cfg"),
            "[metadata]\nname = x\n[options]\npackage_dir =\n    =lib\n    pkg = other/pkg\n",
        )
        .unwrap();
        assert_eq!(metadata_package_dirs(dir.path()), ["code", "lib", "other"]);
        std::fs::write(dir.path().join("pyproject.toml"), "not [ toml").unwrap();
        assert_eq!(metadata_package_dirs(dir.path()), ["lib", "other"]);
        // Dirs that leave the root are not roots; a linked file is not read.
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[tool.setuptools.package-dir]\na = \"../..\"\nb = \"/etc\"\n",
        )
        .unwrap();
        std::fs::remove_file(dir.path().join("setup.cfg")).unwrap();
        assert!(metadata_package_dirs(dir.path()).is_empty());
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(
            elsewhere.path().join("setup.cfg"),
            "[options]\npackage_dir = =far\n",
        )
        .unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(
                elsewhere.path().join("setup.cfg"),
                dir.path().join("setup.cfg"),
            )
            .unwrap();
            assert!(metadata_package_dirs(dir.path()).is_empty());
        }
    }

    /// A shipped FIFO in place of a metadata file (or of the folder that
    /// holds `compile_commands.json`) is skipped, not waited on, and a
    /// folder linked out of the root is not followed.
    #[cfg(unix)]
    #[test]
    fn fifos_and_linked_folders_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["pyproject.toml", "setup.cfg", "compile_commands.json"] {
            let c =
                std::ffi::CString::new(dir.path().join(name).into_os_string().into_encoded_bytes())
                    .unwrap();
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        }
        assert!(metadata_package_dirs(dir.path()).is_empty());
        assert!(compile_commands_dirs(dir.path()).is_empty());
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(
            elsewhere.path().join("compile_commands.json"),
            r#"[{"directory": "/", "file": "a.c", "command": "cc -Ifar a.c"}]"#,
        )
        .unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("build")).unwrap();
        assert_eq!(read_small(dir.path(), "build/compile_commands.json"), None);
    }

    #[test]
    fn a_root_that_is_a_package_is_named_by_its_chain() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("pip").join("_internal");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(dir.path().join("pip/__init__.py"), "").unwrap();
        assert_eq!(root_package(&inner), None);
        std::fs::write(inner.join("__init__.py"), "").unwrap();
        assert_eq!(
            root_package(&inner),
            Some(("pip._internal".to_string(), String::new()))
        );
        assert_eq!(
            root_package(&dir.path().join("pip")),
            Some(("pip".to_string(), String::new()))
        );
    }

    #[test]
    fn include_dirs_from_the_tree_and_compile_commands() {
        let dir = tempfile::tempdir().unwrap();
        for d in ["inc", "lib/include/proj", "src", "outside"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        let cc = format!(
            r#"[{{"directory": "{0}", "command": "cc -Iinc -I /etc -iquote {0}/src -c src/a.c"}},
               {{"directory": "{0}/src", "arguments": ["cc", "-I", "../inc", "-I../../..", "a.c"]}}]"#,
            dir.path().display()
        );
        std::fs::write(dir.path().join("compile_commands.json"), cc).unwrap();
        let all = files(&["lib/include/proj/x.h", "src/a.c", "inc/y.h"]);
        let layout = Layout::find(dir.path(), &all, &["conf/".to_string()]);
        assert_eq!(layout.include_dirs, ["conf", "inc", "src", "lib/include"]);
        std::fs::write(dir.path().join("compile_commands.json"), "{ broken").unwrap();
        let layout = Layout::find(dir.path(), &all, &[]);
        assert_eq!(layout.include_dirs, ["lib/include", "src"]);
    }
}
