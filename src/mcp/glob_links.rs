//! Whether a glob an agent's `include` would write aims through a link
//! the project holds that leads out of the root by a pattern (`dir*/x.py`
//! with `dir1` a link to `/etc`: recheck 25), found by matching each of its
//! components against what the folder holds, a bounded number of entries.

use std::fs;
use std::path::{Path, PathBuf};

use ctxcurate::core::walk;

use super::edit_globs::expanded;

/// The most folder entries read for one glob; past them the glob is judged
/// by what was read (a walk never follows a link, so this is a courtesy
/// check, not the guard).
const MAX_ENTRIES: usize = 20_000;

/// Whether a path `glob` (braces expanded) names passes through an entry
/// of the project that is a link leading outside `real_root` (the root
/// with its links resolved): a fixed folder that is one, or a pattern
/// whose matches in a folder are all such links (`dir*/x.py`, `l?k/*`;
/// `*/x.py` matching `src` beside the link is a glob of project files, as
/// `*` is, and a walk does not follow the link).
pub fn crosses_link_out(root: &Path, real_root: &Path, glob: &str) -> bool {
    let alternatives = expanded(glob).unwrap_or_else(|| vec![glob.to_string()]);
    let mut budget = MAX_ENTRIES;
    alternatives
        .iter()
        .any(|alternative| alternative_crosses(root, real_root, alternative, &mut budget))
}

/// [`crosses_link_out`] for one glob without braces.
fn alternative_crosses(root: &Path, real_root: &Path, glob: &str, budget: &mut usize) -> bool {
    let mut frontier = vec![PathBuf::new()];
    for component in glob.split('/').filter(|c| !c.is_empty() && *c != ".") {
        // A walk does not go through links below `**`, and `..` is refused
        // as a path elsewhere.
        if component == "**" || component == ".." {
            break;
        }
        let mut next = Vec::new();
        for rel in &frontier {
            if !walk::is_glob(component) {
                let path = rel.join(component);
                if leads_out(root, real_root, &path) {
                    return true;
                }
                next.push(path);
                continue;
            }
            let Ok(matcher) = walk::compile_glob(component) else {
                return false;
            };
            let Ok(entries) = fs::read_dir(root.join(rel)) else {
                continue;
            };
            let matched: Vec<PathBuf> = entries
                .flatten()
                .take(*budget)
                .inspect(|_| *budget -= 1)
                .filter(|entry| matcher.is_match(Path::new(&entry.file_name())))
                .map(|entry| rel.join(entry.file_name()))
                .collect();
            if !matched.is_empty() && matched.iter().all(|m| leads_out(root, real_root, m)) {
                return true;
            }
            next.extend(matched);
        }
        frontier = next
            .into_iter()
            .filter(|rel| root.join(rel).is_dir())
            .collect();
        if frontier.is_empty() || *budget == 0 {
            break;
        }
    }
    false
}

/// Whether `rel` is a link whose target lies outside `real_root`.
fn leads_out(root: &Path, real_root: &Path, rel: &Path) -> bool {
    let path = root.join(rel);
    fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink())
        && fs::canonicalize(&path).map_or(true, |real| !real.starts_with(real_root))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_matching_a_link_out_is_found_and_one_inside_is_not() {
        let outside = tempfile::tempdir().expect("tempdir");
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        fs::create_dir_all(root.join("src/inner")).expect("mkdir");
        fs::write(root.join("src/a.py"), "x = 1\n").expect("write");
        fs::create_dir_all(outside.path().join("etc")).expect("mkdir");
        std::os::unix::fs::symlink(outside.path().join("etc"), root.join("dir1")).expect("link");
        std::os::unix::fs::symlink(root.join("src/inner"), root.join("src/near")).expect("link");
        std::os::unix::fs::symlink(outside.path().join("etc"), root.join("src/inner/far"))
            .expect("link");
        let real = fs::canonicalize(root).expect("real");
        for glob in [
            "dir*/x.py",
            "d?r1/**",
            "{src,dir?}/*.py",
            "src/*/f*/a",
            "dir1/*",
            "src/inner/*",
        ] {
            assert!(crosses_link_out(root, &real, glob), "{glob}");
        }
        for glob in [
            "src/*.py",
            "src/n*/*.py",
            "**/dir1/x.py",
            "*.py",
            "[",
            "*",
            "*/x.py",
            "src/*",
        ] {
            assert!(!crosses_link_out(root, &real, glob), "{glob}");
        }
    }
}
