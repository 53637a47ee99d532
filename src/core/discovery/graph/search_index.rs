//! Where the places an import is searched in hold something, found once
//! for the whole project: which Python roots hold a given top-level name,
//! and in which include folder a header path lies. Probing every root or
//! folder for every import cost their product: 3,000 folders holding
//! packages and 10,000 imports of missing modules, `map` 38 s; 8,000
//! include folders from `compile_commands.json` and 20,000 includes, 92 s
//! (recheck 15, F7/F8). A lookup now costs the places that hold the name.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use super::layout::{Layout, beneath_dir, normalize, parent};

/// The most Python roots one import is searched in ([`SearchIndex::roots_searched`]).
pub(super) const MAX_ROOTS_SEARCHED: usize = 64;

/// The index of one project's search places.
pub(super) struct SearchIndex<'a> {
    /// A top-level name (a folder, or a module file's stem) → the indices
    /// of the Python roots that hold it, ascending.
    py_heads: HashMap<&'a str, Vec<usize>>,
    /// An include folder → its first place in the layout's order.
    include_at: HashMap<String, usize>,
    /// For a climb of N folders (`../` N times): the folder N levels up
    /// from each include folder → the first place of such a folder; made
    /// the first time an include climbs that far.
    climbed: Mutex<HashMap<usize, Arc<HashMap<String, usize>>>>,
    /// The top-level names an import was searched for in only
    /// [`MAX_ROOTS_SEARCHED`] of the roots holding them, with how many do.
    cut: Mutex<BTreeMap<&'a str, usize>>,
}

impl<'a> SearchIndex<'a> {
    pub(super) fn new(files: &'a [String], layout: &Layout) -> Self {
        let root_at: HashMap<&str, usize> = layout
            .py_roots
            .iter()
            .enumerate()
            .rev()
            .map(|(i, r)| (r.as_str(), i))
            .collect();
        let mut py_heads: HashMap<&str, Vec<usize>> = HashMap::new();
        for f in files {
            // Each folder above the file (the root `""` too) that is a
            // Python root: the name the file gives it at its top.
            let mut dir = parent(f);
            loop {
                if let Some(&i) = root_at.get(dir) {
                    let rest = if dir.is_empty() {
                        &f[..]
                    } else {
                        &f[dir.len() + 1..]
                    };
                    if let Some(head) = top_name(rest) {
                        let roots = py_heads.entry(head).or_default();
                        if !roots.contains(&i) {
                            roots.push(i);
                        }
                    }
                }
                if dir.is_empty() {
                    break;
                }
                dir = parent(dir);
            }
        }
        for roots in py_heads.values_mut() {
            roots.sort_unstable();
        }
        // Keyed as the joined path is read (`a/./b` is `a/b`); a folder
        // that climbs out of the root holds nothing.
        let mut include_at = HashMap::new();
        for (i, dir) in layout.include_dirs.iter().enumerate() {
            if let Some(dir) = normalize(dir) {
                include_at.entry(dir).or_insert(i);
            }
        }
        SearchIndex {
            py_heads,
            include_at,
            climbed: Mutex::new(HashMap::new()),
            cut: Mutex::new(BTreeMap::new()),
        }
    }

    /// The indices of the Python roots that hold `head` (a folder, or a
    /// `.py`/`.pyi` module), ascending.
    #[cfg(test)]
    fn roots_holding(&self, head: &str) -> &[usize] {
        self.py_heads.get(head).map_or(&[], Vec::as_slice)
    }

    /// The Python roots searched for an import from `from_file` whose
    /// first name is `head`: those that hold it,
    /// at most [`MAX_ROOTS_SEARCHED`] — the roots the whole project
    /// searches and those above `from_file` first, then the rest in order
    /// — ascending. Thousands of roots holding a package of the same name
    /// (8,000 `rN/common/`) made each import that names it probe them all
    /// (recheck 15b, F8b: `map` past 150 s).
    pub(super) fn roots_searched(
        &self,
        layout: &Layout,
        from_file: &str,
        head: &str,
    ) -> Vec<usize> {
        let Some((head, holding)) = self.py_heads.get_key_value(head) else {
            return Vec::new();
        };
        if holding.len() <= MAX_ROOTS_SEARCHED {
            return holding.clone();
        }
        self.cut
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(head, holding.len());
        let near = |i: usize| {
            i < layout.py_shared_roots
                || layout
                    .py_roots
                    .get(i)
                    .is_some_and(|root| beneath_dir(from_file, root))
        };
        let mut chosen: Vec<usize> = holding.iter().copied().filter(|&i| near(i)).collect();
        let room = MAX_ROOTS_SEARCHED.saturating_sub(chosen.len());
        chosen.extend(holding.iter().copied().filter(|&i| !near(i)).take(room));
        chosen.truncate(MAX_ROOTS_SEARCHED);
        chosen.sort_unstable();
        chosen
    }

    /// What [`MAX_ROOTS_SEARCHED`] left unsearched, one line for the user
    /// (`None`: nothing).
    pub(super) fn limits(&self) -> Option<String> {
        let cut = self.cut.lock().unwrap_or_else(PoisonError::into_inner);
        let (first, holding) = cut.iter().next()?;
        let others = match cut.len() {
            1 => String::new(),
            n => format!(" (and {} more names)", n - 1),
        };
        Some(format!(
            "imports of `{first}`{others} were searched in {MAX_ROOTS_SEARCHED} of the {holding} Python roots that hold it: those above the importing file and the shared ones first"
        ))
    }

    /// The first place, among the layout's include folders, of a folder
    /// whose ancestor `ups` levels up is `dir`.
    pub(super) fn include_place(&self, layout: &Layout, dir: &str, ups: usize) -> Option<usize> {
        if ups == 0 {
            return self.include_at.get(dir).copied();
        }
        let map = {
            let mut climbed = self.climbed.lock().unwrap_or_else(PoisonError::into_inner);
            climbed
                .entry(ups)
                .or_insert_with(|| {
                    let mut map = HashMap::new();
                    for (i, d) in layout.include_dirs.iter().enumerate() {
                        if let Some(d) = normalize(d)
                            && let Some(up) = ancestor(&d, ups)
                        {
                            map.entry(up.to_string()).or_insert(i);
                        }
                    }
                    Arc::new(map)
                })
                .clone()
        };
        map.get(dir).copied()
    }
}

/// The name a root-relative path gives the root at its top: its first
/// folder, or the stem of a module file lying at the top.
fn top_name(rest: &str) -> Option<&str> {
    match rest.split_once('/') {
        Some((dir, _)) => Some(dir),
        None => rest
            .strip_suffix(".py")
            .or_else(|| rest.strip_suffix(".pyi")),
    }
}

/// `dir` with its last `ups` folders taken off (`""` is the root);
/// `None` when it has fewer.
pub(super) fn ancestor(dir: &str, ups: usize) -> Option<&str> {
    let mut at = dir;
    for _ in 0..ups {
        if at.is_empty() {
            return None;
        }
        at = parent(at);
    }
    Some(at)
}

/// A relative include path as a climb out of the folder it is joined to
/// and what follows: `../../a/./b.h` → (2, `a/b.h`); `a/../b.h` → (0,
/// `b.h`). `None` for an absolute path.
pub(super) fn climb(path: &str) -> Option<(usize, String)> {
    if path.starts_with('/') {
        return None;
    }
    let mut ups = 0;
    let mut rest: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if rest.pop().is_none() {
                    ups += 1;
                }
            }
            p => rest.push(p),
        }
    }
    Some((ups, rest.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_climb_is_split_from_what_follows() {
        assert_eq!(climb("../../a/./b.h"), Some((2, "a/b.h".into())));
        assert_eq!(climb("a/../b.h"), Some((0, "b.h".into())));
        assert_eq!(climb("a/../../b.h"), Some((1, "b.h".into())));
        assert_eq!(climb("/usr/x.h"), None);
        assert_eq!(ancestor("a/b/c", 2), Some("a"));
        assert_eq!(ancestor("a/b", 2), Some(""));
        assert_eq!(ancestor("a", 2), None);
    }

    #[test]
    fn the_roots_holding_a_name_are_found_once() {
        let files: Vec<String> = [
            "src/pkg/__init__.py",
            "src/mod.py",
            "lib/pkg/x.py",
            "top.py",
            "src/data.txt",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let layout = Layout {
            py_roots: vec!["".into(), "src".into(), "lib".into()],
            ..Layout::default()
        };
        let index = SearchIndex::new(&files, &layout);
        assert_eq!(index.roots_holding("pkg"), [1, 2]);
        assert_eq!(index.roots_holding("mod"), [1]);
        assert_eq!(index.roots_holding("src"), [0]);
        assert_eq!(index.roots_holding("top"), [0]);
        assert!(index.roots_holding("data").is_empty());
        assert!(index.roots_holding("nope").is_empty());
    }

    /// Past the bound, the roots above the importing file and the shared
    /// ones are searched first, then the others in order.
    #[test]
    fn the_roots_searched_for_a_name_are_bounded() {
        let n = MAX_ROOTS_SEARCHED + 50;
        let files: Vec<String> = (0..n).map(|i| format!("r{i}/common/__init__.py")).collect();
        let layout = Layout {
            py_roots: (0..n).map(|i| format!("r{i}")).collect(),
            py_shared_roots: 1,
            ..Layout::default()
        };
        let index = SearchIndex::new(&files, &layout);
        assert_eq!(index.roots_holding("common").len(), n);
        let searched = index.roots_searched(&layout, &format!("r{}/app.py", n - 1), "common");
        assert_eq!(searched.len(), MAX_ROOTS_SEARCHED);
        assert_eq!(searched.first(), Some(&0));
        assert_eq!(searched.last(), Some(&(n - 1)), "its own root");
        assert!(searched.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            index.limits().as_deref(),
            Some(
                "imports of `common` were searched in 64 of the 114 Python roots that hold it: those above the importing file and the shared ones first"
            )
        );
        let few = SearchIndex::new(&files[..MAX_ROOTS_SEARCHED], &layout);
        assert_eq!(few.roots_searched(&layout, "r0/app.py", "common").len(), 64);
        assert!(few.limits().is_none());
    }
}
