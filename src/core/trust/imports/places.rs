//! Recording the places a script's loads are looked for: a file found
//! (hashed, read in turn), a folder (a package, or a `PATH` folder's
//! programs), or nothing, each one line of the fingerprint; a dotted
//! Python name looked up part by part; folder listings read once.
//! Moved out of `imports.rs` (consent round 7); no change of
//! behaviour.

use super::{MAX_ENTRIES, MAX_NAMES, MAX_PLACES, Reached};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A folder a script puts in `PATH` (`PATH=bin:$PATH`): every program in
/// it may run by a bare name, so each file is covered and its names are
/// recorded as one place (a new one withdraws the consent); nothing
/// there is recorded too.
pub(super) fn path_folder(
    real_root: &Path,
    dir: &Path,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let real = match fs::canonicalize(dir) {
        Ok(real) if real.starts_with(real_root) && real.is_dir() => real,
        Ok(_) => return,
        Err(_) => {
            out.places
                .insert(format!("{}: nothing", rel_of(real_root, dir)));
            return;
        }
    };
    let names = listing(&real);
    out.places.insert(format!(
        "{}/: programs {}",
        rel_of(real_root, &real),
        names.join(" ")
    ));
    for name in super::within(&names, MAX_NAMES, out) {
        place(real_root, &real.join(name), out, found);
    }
}

/// The names in each folder looked at, listed once.
#[derive(Default)]
pub(super) struct Folders {
    pub(super) listed: HashMap<PathBuf, Vec<String>>,
}

/// The names in `dir` (at most [`MAX_ENTRIES`]), sorted; none when it
/// cannot be read.
pub(super) fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_ENTRIES)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

impl Folders {
    pub(super) fn names(&mut self, dir: &Path) -> &[String] {
        self.listed
            .entry(dir.to_path_buf())
            .or_insert_with(|| listing(dir))
    }
}

/// Look `parts` up in `base` as Python would: for its first part, every
/// entry named `part` or `part.<suffix>` (`.py`, `.pyc`, `.so`, …) is
/// recorded (nothing there too); a file is reached; a folder is a package
/// whose `__init__.py` is reached and in which the next part is looked up.
pub(super) fn look_up(
    real_root: &Path,
    base: &Path,
    parts: &[String],
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let Some((first, rest)) = parts.split_first() else {
        // `from . import x` names `x` below; the package itself is here.
        place(real_root, &base.join("__init__.py"), out, found);
        return;
    };
    let Ok(real_base) = fs::canonicalize(base) else {
        return;
    };
    if !real_base.starts_with(real_root) {
        return;
    }
    let dotted = format!("{first}.");
    let matching: Vec<String> = folders
        .names(&real_base)
        .iter()
        .filter(|n| *n == first || n.starts_with(&dotted))
        .cloned()
        .collect();
    let shown = rel_of(real_root, &real_base.join(first));
    if matching.is_empty() {
        out.places.insert(format!("{shown}: nothing"));
        return;
    }
    out.places
        .insert(format!("{shown}: {}", matching.join(" ")));
    for name in matching {
        let path = real_base.join(&name);
        if name == *first && path.is_dir() {
            // `__init__.cpython-311-x86_64-linux-gnu.so` is imported
            // before `__init__.py` (recheck 28): the package's `__init__`
            // files are a place.
            let inits: Vec<String> = folders
                .names(&path)
                .iter()
                .filter(|n| n.starts_with("__init__.") && *n != "__init__.py")
                .cloned()
                .collect();
            // Recorded when there are some: one added later is a place new
            // to the consent.
            if !inits.is_empty() {
                out.places.insert(format!(
                    "{}/__init__.*: {}",
                    rel_of(real_root, &path),
                    inits.join(" ")
                ));
            }
            place(real_root, &path.join("__init__.py"), out, found);
            if !rest.is_empty() {
                look_up(real_root, &path, rest, folders, out, found);
            }
        } else {
            place(real_root, &path, out, found);
        }
    }
}

/// `path` reached when it is a regular file inside `real_root` (links
/// followed, and must stay inside); recorded as a place either way.
pub(super) fn place(
    real_root: &Path,
    path: &Path,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let real = match fs::canonicalize(path) {
        Ok(real) if real.starts_with(real_root) => real,
        Ok(_) => {
            out.places
                .insert(format!("{}: outside the project", rel_of(real_root, path)));
            return;
        }
        Err(_) => {
            out.places
                .insert(format!("{}: nothing", rel_of(real_root, path)));
            return;
        }
    };
    if !fs::metadata(&real).is_ok_and(|m| m.is_file()) {
        return;
    }
    let rel = rel_of(real_root, &real);
    if !out.files.contains_key(&rel) {
        found.push((rel, real));
    }
}

/// Record `candidates` in order up to the first that holds a file (a file
/// that appears at an earlier one later would be loaded instead): each
/// missing one as nothing, one leading out of the root as such, the file
/// reached. A folder is passed over. Whether a file (or a way out) ended
/// the search.
pub(super) fn first_of(
    real_root: &Path,
    candidates: &[PathBuf],
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) -> bool {
    for path in candidates {
        if out.places.len() > MAX_PLACES {
            out.places.insert(format!(
                "more than {MAX_PLACES} places: the rest not followed"
            ));
            return true;
        }
        let shown = rel_of(real_root, &crate::core::paths::lexical(path));
        // Most places hold nothing: one `lstat` says so, where resolving
        // the path costs a `readlink` per component.
        if fs::symlink_metadata(path).is_err() {
            out.places.insert(format!("{shown}: nothing"));
            continue;
        }
        match fs::canonicalize(path) {
            Ok(real) if !real.starts_with(real_root) => {
                out.places.insert(format!("{shown}: outside the project"));
                return true;
            }
            Ok(real) if real.is_dir() => {}
            Ok(real) => {
                let rel = rel_of(real_root, &real);
                out.places.insert(format!("{shown}: file"));
                if !out.files.contains_key(&rel) && !found.iter().any(|(r, _)| *r == rel) {
                    found.push((rel, real));
                }
                return true;
            }
            Err(_) => {
                out.places.insert(format!("{shown}: nothing"));
            }
        }
    }
    false
}

/// `path` relative to the root, `/`-separated (as given when outside).
pub(super) fn rel_of(real_root: &Path, path: &Path) -> String {
    match path.strip_prefix(real_root) {
        Ok(rel) => crate::core::walk::rel_string(rel),
        Err(_) => path.display().to_string(),
    }
}
