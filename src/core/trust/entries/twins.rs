//! A file with more than one name (a hard link) is held when another of
//! its names is: `cfg.txt` linked to `.env` is `.env`, `gc.txt` linked to
//! `.git/config` is version control data. A hard link has no target to
//! follow, so the names looked at are the ones beside it, at the root and
//! in `.git/` (where a credential file or repository data lives).

use std::fs;
use std::path::Path;

use super::{Reason, lexical_reason};
use crate::core::walk;

/// The most entries read from one folder while looking for a twin.
const MAX_ENTRIES: usize = 4096;

/// Why `target` (a file inside `root`, links resolved) is held by another
/// of its names, if it has more than one.
#[cfg(unix)]
pub(super) fn held_twin(root: &Path, target: &Path) -> Option<Reason> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(target).ok()?;
    if !meta.is_file() || meta.nlink() < 2 {
        return None;
    }
    let key = (meta.dev(), meta.ino());
    let mut folders = vec![root.to_path_buf(), root.join(".git")];
    if let Some(parent) = target.parent().filter(|p| !folders.iter().any(|f| f == p)) {
        folders.push(parent.to_path_buf());
    }
    for folder in folders {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten().take(MAX_ENTRIES) {
            let path = entry.path();
            let Ok(rel) = path.strip_prefix(root) else {
                continue;
            };
            let Some(reason) = lexical_reason(&walk::rel_string(rel)) else {
                continue;
            };
            let same =
                fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && (m.dev(), m.ino()) == key);
            if same {
                return Some(reason);
            }
        }
    }
    None
}

#[cfg(not(unix))]
pub(super) fn held_twin(_root: &Path, _target: &Path) -> Option<Reason> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_hard_link_to_a_held_file_is_held_for_its_reason() {
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
        let root = fs::canonicalize(root).unwrap();
        assert_eq!(
            held_twin(&root, &root.join("docs/cfg.txt")),
            Some(Reason::Sensitive)
        );
        assert_eq!(held_twin(&root, &root.join("gc.txt")), Some(Reason::Vcs));
        // Two names, neither held; one name.
        assert_eq!(held_twin(&root, &root.join("docs/also.txt")), None);
        fs::write(root.join("one.txt"), "x\n").unwrap();
        assert_eq!(held_twin(&root, &root.join("one.txt")), None);
    }
}
