//! A file with more than one name (a hard link) is held when another of
//! its names is: `cfg.txt` linked to `.env` is `.env`, `gc.txt` linked to
//! `.git/config` is version control data. A hard link has no target to
//! follow, so the names looked at are the ones beside it, at the root and
//! in `.git/` (where a credential file or repository data lives). Only a
//! file with two or more links is looked at, so an ordinary tree costs
//! nothing.

use std::fs;
use std::path::Path;

use super::{VCS_DIRS, is_sensitive, rel_string};

/// The most entries read from one folder while looking for a twin.
const MAX_ENTRIES: usize = 4096;

/// Whether a glob or a folder never brings `rel` in by its name: a
/// credential file (in any case: `.ENV` is `.env` on a case-insensitive
/// disk) or anything in a version control folder.
pub fn is_held_name(rel: &str) -> bool {
    is_sensitive(rel)
        || is_sensitive(&rel.to_ascii_lowercase())
        || rel.split('/').any(|c| VCS_DIRS.contains(&c))
}

/// Another name of the file `meta` describes (found at `path`, inside
/// `root`) that `held` holds, as a root-relative path; `None` for a file
/// with one name or none held.
#[cfg(unix)]
pub fn held_twin(
    root: &Path,
    path: &Path,
    meta: &fs::Metadata,
    held: impl Fn(&str) -> bool,
) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    if !meta.is_file() || meta.nlink() < 2 {
        return None;
    }
    let key = (meta.dev(), meta.ino());
    let mut folders = vec![root.to_path_buf(), root.join(".git")];
    if let Some(parent) = path.parent().filter(|p| !folders.iter().any(|f| f == p)) {
        folders.push(parent.to_path_buf());
    }
    for folder in folders {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten().take(MAX_ENTRIES) {
            let other = entry.path();
            let Ok(rel) = other.strip_prefix(root) else {
                continue;
            };
            let rel = rel_string(rel);
            if !held(&rel) {
                continue;
            }
            let same = fs::symlink_metadata(&other)
                .is_ok_and(|m| m.is_file() && (m.dev(), m.ino()) == key);
            if same {
                return Some(rel);
            }
        }
    }
    None
}

#[cfg(not(unix))]
pub fn held_twin(
    _root: &Path,
    _path: &Path,
    _meta: &fs::Metadata,
    _held: impl Fn(&str) -> bool,
) -> Option<String> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn twin(root: &Path, rel: &str) -> Option<String> {
        let path = root.join(rel);
        let meta = fs::metadata(&path).unwrap();
        held_twin(root, &path, &meta, is_held_name)
    }

    #[test]
    fn a_hard_link_to_a_held_file_names_that_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join(".git")).unwrap();
        fs::create_dir_all(root.join("docs")).unwrap();
        fs::write(root.join(".env"), "DB_HOST=db\n").unwrap();
        fs::write(root.join(".git/config"), "[core]\n").unwrap();
        fs::write(root.join("plain.txt"), "x\n").unwrap();
        fs::hard_link(root.join(".env"), root.join("docs/cfg.txt")).unwrap();
        fs::hard_link(root.join(".git/config"), root.join("gc.txt")).unwrap();
        fs::hard_link(root.join("plain.txt"), root.join("docs/also.txt")).unwrap();
        fs::write(root.join("docs/.ENV"), "A=1\n").unwrap();
        fs::hard_link(root.join("docs/.ENV"), root.join("docs/upper.txt")).unwrap();
        assert_eq!(twin(root, "docs/cfg.txt").as_deref(), Some(".env"));
        assert_eq!(twin(root, "gc.txt").as_deref(), Some(".git/config"));
        assert_eq!(twin(root, "docs/upper.txt").as_deref(), Some("docs/.ENV"));
        // Two names, neither held; one name.
        assert_eq!(twin(root, "docs/also.txt"), None);
        fs::write(root.join("one.txt"), "x\n").unwrap();
        assert_eq!(twin(root, "one.txt"), None);
    }
}
