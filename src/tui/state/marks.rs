//! The files git sees changed, as marked in the tree. A leaf the `state`
//! holds.

/// The changed files marked in the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedMarks {
    /// What they were compared with (`HEAD`).
    pub against: String,
    /// The changed files the walk shows, sorted.
    pub paths: Vec<String>,
}

impl ChangedMarks {
    /// The marks of `paths`, changed against `against` (sorted here: the
    /// look-ups below search them).
    pub fn new(against: String, mut paths: Vec<String>) -> ChangedMarks {
        paths.sort_unstable();
        ChangedMarks { against, paths }
    }

    /// `true` when `path` is one of the changed files.
    pub fn contains(&self, path: &str) -> bool {
        self.paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }

    /// How many changed files folder `dir` holds.
    pub fn count_under(&self, dir: &str) -> usize {
        let prefix = format!("{dir}/");
        let start = self.paths.partition_point(|p| p.as_str() < prefix.as_str());
        self.paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .count()
    }
}
