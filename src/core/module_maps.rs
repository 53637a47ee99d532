//! Where a project's own configuration sends its imports, and which names
//! are the standard libraries': `tsconfig.json` `paths`/`baseUrl` and
//! `package.json` `exports`/`imports` (`script`), composer's PSR-4 and
//! PSR-0 autoload maps (`composer`), and the standard libraries' module
//! names (`stdlib`). Read from bounded regular files beneath the root,
//! never run. Two readers share them, so both say the same of a project:
//! the import graph (`core::discovery::graph`, against the walked files)
//! and consent (`core::trust`, which follows what a consented script
//! loads on disk) — this module sits below both.

pub mod composer;
pub mod script;
pub mod stdlib;

use std::path::Path;

/// Files beyond this many resolver configs of one kind (`tsconfig.json`,
/// `package.json`, `composer.json`) are not read: a tree with more is not
/// one project, and each is tried by every import it may govern (8,000
/// nested `composer.json` files kept `map` busy 35 s: recheck 22, F3).
pub const MAX_MANIFESTS: usize = 2000;

/// The files among `files` named one of `names` and outside any folder
/// named `skip` (`node_modules`, `vendor`: dependencies' own configs), the
/// first [`MAX_MANIFESTS`] of them; past that, a note to `limits`.
pub fn manifests<'f>(
    files: &'f [String],
    names: &[&str],
    skip: &str,
    limits: &mut Vec<String>,
) -> Vec<&'f String> {
    let named = |f: &str| {
        let name = f.rsplit_once('/').map_or(f, |(_, n)| n);
        names.contains(&name) && !f.split('/').any(|p| p == skip)
    };
    let found: Vec<&String> = files.iter().filter(|f| named(f)).collect();
    if found.len() > MAX_MANIFESTS {
        limits.push(format!(
            "the project holds {} {} files; only the first {MAX_MANIFESTS} are read",
            found.len(),
            names.join("/")
        ));
    }
    found.into_iter().take(MAX_MANIFESTS).collect()
}

/// The folder of a root-relative path (`""` at the top).
pub fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `dir/name`, or `name` at the top (and `dir` for an empty name).
pub fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{name}"),
    }
}

/// `rel` (`./a`, `../b`, `c`) from `dir`, `.` and `..` folded; `None` when
/// it leaves the root or is absolute.
pub fn join_rel(dir: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
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

/// The text of a small configuration file (at most 1 MiB) beneath `root`,
/// opened with no link followed; `None` otherwise.
pub fn read_small(root: &Path, rel: &str) -> Option<String> {
    use crate::core::paths::beneath;
    beneath::read_small_text(root, rel, beneath::Links::Never, 1 << 20)
}

/// [`read_small`] of a resolver config (`tsconfig.json`, `package.json`,
/// `composer.json`); one past the bound is not read, and `limits` says so
/// (a 3 MB `tsconfig.json` of 100,000 `paths` was left out silently:
/// recheck 14, F6).
pub fn read_resolver_config(root: &Path, rel: &str, limits: &mut Vec<String>) -> Option<String> {
    let text = read_small(root, rel);
    if text.is_none()
        && let Ok(meta) = std::fs::symlink_metadata(root.join(rel))
        && meta.is_file()
        && meta.len() > 1 << 20
    {
        limits.push(format!(
            "{rel}: {} bytes, more than the 1 MiB a config is read to; not read, so the \
             imports it maps are not resolved",
            meta.len()
        ));
    }
    text
}

/// The root-relative paths of the files named `names` in `dir` and each
/// folder above it up to the root (nearest first), that exist: the
/// configs that may govern a file of `dir`.
pub fn configs_above(root: &Path, dir: &str, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut here = dir.trim_matches('/');
    loop {
        for name in names {
            let rel = join(here, name);
            if root.join(&rel).is_file() {
                out.push(rel);
            }
        }
        if here.is_empty() {
            return out;
        }
        here = parent(here);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_fold_and_stay_inside() {
        assert_eq!(join_rel("a/b", "../c/./d").as_deref(), Some("a/c/d"));
        assert_eq!(join_rel("", "./x").as_deref(), Some("x"));
        assert_eq!(join_rel("a", "../../x"), None);
        assert_eq!(join_rel("a", "/etc/x"), None);
        assert_eq!(join("", "x"), "x");
        assert_eq!(parent("a/b/c"), "a/b");
    }

    #[test]
    fn configs_above_a_folder_nearest_first() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("tsconfig.json"), "{}").unwrap();
        std::fs::write(dir.path().join("a/tsconfig.json"), "{}").unwrap();
        std::fs::write(dir.path().join("a/b/package.json"), "{}").unwrap();
        assert_eq!(
            configs_above(dir.path(), "a/b", &["tsconfig.json", "package.json"]),
            ["a/b/package.json", "a/tsconfig.json", "tsconfig.json"]
        );
    }
}
