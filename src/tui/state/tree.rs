//! The project's files as a directory tree, grown as the background walk
//! streams paths in, and flattened into the visible rows of the tree pane
//! (open folders, name filter). Pure data: no terminal here.

use std::collections::{BTreeMap, BTreeSet, HashSet};

/// One folder of the tree.
#[derive(Debug, Clone, Default)]
struct Dir {
    dirs: BTreeMap<String, Dir>,
    files: BTreeSet<String>,
    /// Files in this folder and below.
    count: usize,
}

/// A visible row of the tree pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Relative path (`/`-separated); a folder's path has no trailing `/`.
    pub path: String,
    pub name: String,
    pub depth: usize,
    pub is_dir: bool,
}

/// Every known file of the project.
#[derive(Debug, Clone, Default)]
pub struct FileTree {
    root: Dir,
}

impl FileTree {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many files the tree holds.
    pub fn len(&self) -> usize {
        self.root.count
    }

    pub fn is_empty(&self) -> bool {
        self.root.count == 0
    }

    /// Add a file (no-op when present).
    pub fn insert(&mut self, rel: &str) {
        let rel = rel.trim_matches('/');
        if rel.is_empty() || self.contains(rel) || self.is_dir(rel) {
            return;
        }
        let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        let Some(name) = parts.pop() else { return };
        let mut dir = &mut self.root;
        dir.count += 1;
        for part in parts {
            dir = dir.dirs.entry(part.to_string()).or_default();
            dir.count += 1;
        }
        dir.files.insert(name.to_string());
    }

    /// Take a file out (no-op when absent); folders it leaves empty go
    /// too, so a deleted folder does not linger as an empty row.
    pub fn remove(&mut self, rel: &str) {
        let rel = rel.trim_matches('/');
        if !self.contains(rel) {
            return;
        }
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        remove_in(&mut self.root, &parts);
    }

    /// `true` when `rel` is a known file.
    pub fn contains(&self, rel: &str) -> bool {
        let (dir, name) = match rel.rsplit_once('/') {
            Some((d, n)) => (self.dir(d), n),
            None => (Some(&self.root), rel),
        };
        dir.is_some_and(|d| d.files.contains(name))
    }

    /// `true` when `rel` is a known folder.
    pub fn is_dir(&self, rel: &str) -> bool {
        self.dir(rel).is_some()
    }

    fn dir(&self, rel: &str) -> Option<&Dir> {
        let mut dir = &self.root;
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            dir = dir.dirs.get(part)?;
        }
        Some(dir)
    }

    /// How many files are in folder `rel` and below.
    pub fn count_under(&self, rel: &str) -> usize {
        self.dir(rel).map_or(0, |d| d.count)
    }

    /// Every file in folder `rel` and below, in tree order.
    pub fn files_under(&self, rel: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(dir) = self.dir(rel) {
            collect(dir, rel.trim_end_matches('/'), &mut out);
        }
        out
    }

    /// The visible rows: folders first then files, each sorted by name;
    /// children of open folders shown. With a `filter`, only files whose
    /// path contains it (case-insensitively) and their folders are shown,
    /// all folders open.
    pub fn rows(&self, open: &HashSet<String>, filter: &str) -> Vec<Row> {
        let mut out = Vec::new();
        let needle = filter.to_lowercase();
        push_rows(&self.root, "", 0, open, &needle, &mut out);
        out
    }
}

/// Remove the file at `parts` below `dir` (known to be there), counting
/// down on the way and dropping folders left empty.
fn remove_in(dir: &mut Dir, parts: &[&str]) {
    dir.count = dir.count.saturating_sub(1);
    match parts {
        [] => {}
        [name] => {
            dir.files.remove(*name);
        }
        [first, rest @ ..] => {
            if let Some(sub) = dir.dirs.get_mut(*first) {
                remove_in(sub, rest);
                if sub.count == 0 {
                    dir.dirs.remove(*first);
                }
            }
        }
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

fn collect(dir: &Dir, prefix: &str, out: &mut Vec<String>) {
    for (name, sub) in &dir.dirs {
        collect(sub, &join(prefix, name), out);
    }
    for name in &dir.files {
        out.push(join(prefix, name));
    }
}

fn any_match(dir: &Dir, prefix: &str, needle: &str) -> bool {
    dir.files
        .iter()
        .any(|f| join(prefix, f).to_lowercase().contains(needle))
        || dir
            .dirs
            .iter()
            .any(|(n, d)| any_match(d, &join(prefix, n), needle))
}

fn push_rows(
    dir: &Dir,
    prefix: &str,
    depth: usize,
    open: &HashSet<String>,
    needle: &str,
    out: &mut Vec<Row>,
) {
    for (name, sub) in &dir.dirs {
        let path = join(prefix, name);
        if !needle.is_empty() && !any_match(sub, &path, needle) {
            continue;
        }
        let is_open = !needle.is_empty() || open.contains(&path);
        out.push(Row {
            path: path.clone(),
            name: name.clone(),
            depth,
            is_dir: true,
        });
        if is_open {
            push_rows(sub, &path, depth + 1, open, needle, out);
        }
    }
    for name in &dir.files {
        let path = join(prefix, name);
        if !needle.is_empty() && !path.to_lowercase().contains(needle) {
            continue;
        }
        out.push(Row {
            path,
            name: name.clone(),
            depth,
            is_dir: false,
        });
    }
}

/// The tree pane: the project's files, which folders are open, the
/// filter, the visible rows and the cursor over them.
#[derive(Debug, Default)]
pub struct TreePane {
    pub files: FileTree,
    pub open_dirs: HashSet<String>,
    pub filter: String,
    /// Visible tree rows (derived from files, open_dirs and filter).
    pub rows: Vec<Row>,
    pub cursor: usize,
    /// Where a range selection (`v`) started.
    pub range_anchor: Option<usize>,
    /// Where the cursor rests while the walk streams in (see [`Start`]).
    pub start: Option<Start>,
}

/// Where the cursor starts: on the remembered path once the walk lists
/// it, on the first row until then. Files streaming in above the cursor
/// would otherwise carry the first screen to an arbitrary folder (the
/// first one the walk or the preset named). It holds until the user
/// moves the cursor off the row it put it on, or the walk is done.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Start {
    /// The remembered path (`None`: the top).
    pub path: Option<String>,
    /// The row the cursor was put on.
    row: usize,
}

impl Start {
    /// Start at `path` (`None`: at the top).
    pub fn at(path: Option<String>) -> Start {
        Start { path, row: 0 }
    }
}

impl TreePane {
    /// The row under the cursor.
    pub fn current_row(&self) -> Option<&Row> {
        self.rows.get(self.cursor)
    }

    /// The file under the cursor (not a folder).
    pub fn current_file(&self) -> Option<&str> {
        self.current_row()
            .filter(|r| !r.is_dir)
            .map(|r| r.path.as_str())
    }

    /// The rows a range selection covers, first to last.
    pub fn selection(&self) -> Option<(usize, usize)> {
        let anchor = self.range_anchor?;
        Some((anchor.min(self.cursor), anchor.max(self.cursor)))
    }

    /// Recompute the visible rows, keeping the cursor on the same path
    /// (or, before the user moved it, where [`Start`] puts it).
    pub fn refresh_rows(&mut self) {
        let current = self.current_row().map(|r| r.path.clone());
        self.rows = self.files.rows(&self.open_dirs, &self.filter);
        match &mut self.start {
            Some(start) if start.row == self.cursor => {
                let wanted = start.path.as_ref();
                self.cursor = wanted
                    .and_then(|p| self.rows.iter().position(|r| r.path == *p))
                    .unwrap_or(0);
                start.row = self.cursor;
            }
            _ => {
                self.start = None;
                if let Some(path) = current
                    && let Some(i) = self.rows.iter().position(|r| r.path == path)
                {
                    self.cursor = i;
                }
            }
        }
        self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
    }

    /// Start at `path` (`None`: the top) as the walk streams in, with its
    /// folders open so the row shows.
    pub fn start_at(&mut self, path: Option<String>) {
        if let Some(path) = &path {
            for (i, _) in path.match_indices('/') {
                self.open_dirs.insert(path[..i].to_string());
            }
        }
        self.cursor = 0;
        self.start = Some(Start::at(path));
    }

    /// The open folders, sorted (what is remembered).
    pub fn open_folders(&self) -> Vec<String> {
        let mut open: Vec<String> = self.open_dirs.iter().cloned().collect();
        open.sort();
        open
    }

    /// Clear the filter with the cursor still on the row it was on: the
    /// folders above it are opened, so it stays visible unfiltered.
    pub fn clear_filter(&mut self) {
        let current = self.current_row().map(|r| r.path.clone());
        self.filter.clear();
        if let Some(path) = current {
            for (i, _) in path.match_indices('/') {
                self.open_dirs.insert(path[..i].to_string());
            }
        }
        self.refresh_rows();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> FileTree {
        let mut t = FileTree::new();
        for p in [
            "src/app.py",
            "src/core/x.c",
            "README.md",
            "src/b.py",
            "src/app.py",
        ] {
            t.insert(p);
        }
        t
    }

    fn names(rows: &[Row]) -> Vec<String> {
        rows.iter()
            .map(|r| format!("{}{}", "  ".repeat(r.depth), r.name))
            .collect()
    }

    #[test]
    fn a_removed_file_takes_its_emptied_folders_along() {
        let mut t = tree();
        t.remove("src/core/x.c");
        assert_eq!(t.len(), 3);
        assert!(!t.is_dir("src/core") && t.is_dir("src"));
        assert_eq!(t.count_under("src"), 2);
        t.remove("src/nothing.py");
        t.remove("src");
        assert_eq!(t.len(), 3, "absent files and folders: no-op");
        for f in ["src/app.py", "src/b.py", "README.md"] {
            t.remove(f);
        }
        assert!(t.is_empty() && !t.is_dir("src"));
        assert!(t.rows(&HashSet::new(), "").is_empty());
    }

    #[test]
    fn rows_follow_open_folders() {
        let t = tree();
        assert_eq!(t.len(), 4);
        assert_eq!(names(&t.rows(&HashSet::new(), "")), ["src", "README.md"]);
        let open: HashSet<String> = ["src".to_string()].into();
        assert_eq!(
            names(&t.rows(&open, "")),
            ["src", "  core", "  app.py", "  b.py", "README.md"]
        );
        assert_eq!(t.count_under("src"), 3);
        assert_eq!(
            t.files_under("src"),
            ["src/core/x.c", "src/app.py", "src/b.py"]
        );
        assert!(t.contains("src/core/x.c") && !t.contains("src/core"));
        assert!(t.is_dir("src/core") && !t.is_dir("src/app.py"));
    }

    /// Files streaming in above the cursor leave it on the first row (or
    /// on the remembered path once listed) until the user moves it.
    #[test]
    fn the_cursor_starts_at_the_top_while_files_stream_in() {
        let mut pane = TreePane::default();
        pane.start_at(None);
        pane.files.insert("src/app.py");
        pane.refresh_rows();
        for p in ["a/x.py", "b/y.py"] {
            pane.files.insert(p);
            pane.refresh_rows();
        }
        assert_eq!(pane.current_row().unwrap().path, "a");
        // The remembered place, once it is listed.
        let mut pane = TreePane::default();
        pane.start_at(Some("src/core/x.c".into()));
        pane.files.insert("z.md");
        pane.refresh_rows();
        assert_eq!(
            pane.current_row().unwrap().path,
            "z.md",
            "the top until then"
        );
        for p in ["src/core/x.c", "a/b.py", "src/a.py"] {
            pane.files.insert(p);
            pane.refresh_rows();
        }
        assert_eq!(pane.current_row().unwrap().path, "src/core/x.c");
        // Moved by the user: the cursor stays on its row's path.
        pane.cursor = 0;
        pane.files.insert("0/first.py");
        pane.refresh_rows();
        assert_eq!(pane.current_row().unwrap().path, "a");
        assert_eq!(pane.start, None);
    }

    #[test]
    fn filter_opens_matching_folders() {
        let t = tree();
        assert_eq!(
            names(&t.rows(&HashSet::new(), "X.C")),
            ["src", "  core", "    x.c"]
        );
        assert!(t.rows(&HashSet::new(), "zzz").is_empty());
    }
}
