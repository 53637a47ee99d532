//! git's view of a change for a front end that holds no terminal: the
//! changed files the project shows (a server's `changed`), and the
//! `## Changes` section of a build (`diff`), both filtered as
//! `ctxcurate build --changed/--diff` filter them: what the walk never
//! shows and what the preset excludes stay out, each kind named in a note.

use std::collections::HashSet;

use crate::core::compose::changes::Changes;
use crate::core::git::{self, ChangedInProject, GitError, Repo};
use crate::core::walk;

use super::Workspace;

impl Workspace<'_> {
    /// The files git sees changed against `rev` that the project's walk
    /// shows and `exclude` (a preset's) does not name.
    pub fn changed_files(
        &mut self,
        rev: &str,
        exclude: &[String],
    ) -> Result<ChangedInProject, GitError> {
        let repo = Repo::open(&self.root)?;
        let changed = repo.changed_files(Some(rev))?;
        let walked = self.walk();
        Ok(changed.in_walk(&walked).without_excluded(exclude))
    }

    /// The changes against `rev` to the files the project shows and
    /// `exclude` does not name, each diff capped at `max_file_size`; what
    /// was left out is among the changes' notes.
    pub fn diff(&mut self, rev: &str, exclude: &[String]) -> Result<Changes, GitError> {
        let repo = Repo::open(&self.root)?;
        let mut changes = repo.diff(Some(rev), self.settings.max_file_size)?;
        let walked: HashSet<String> = self.walk().iter().cloned().collect();
        // A deleted file is judged by the built-in list alone.
        let root = self.root.clone();
        let shown = |path: &str| {
            walked.contains(path) || (!root.join(path).exists() && !walk::is_blacklisted(path))
        };
        let before = changes.files.len();
        changes.files.retain(|f| shown(&f.path));
        let hidden = before - changes.files.len();
        if hidden > 0 {
            changes.notes.push(format!(
                "{} the project ignores left out of the diff",
                crate::text::words::plural(hidden, "file")
            ));
        }
        changes.untracked.retain(|p| walked.contains(p));
        let named: Vec<String> = changes
            .files
            .iter()
            .map(|f| f.path.clone())
            .chain(changes.untracked.iter().cloned())
            .collect();
        let out = git::excluded(&named, exclude);
        if !out.is_empty() {
            let before = changes.files.len() + changes.untracked.len();
            changes.files.retain(|f| !out.contains(&f.path));
            changes.untracked.retain(|p| !out.contains(p));
            let left = before - changes.files.len() - changes.untracked.len();
            changes.notes.push(format!(
                "{} the preset excludes left out of the diff",
                crate::text::words::plural(left, "file")
            ));
        }
        Ok(changes)
    }
}
