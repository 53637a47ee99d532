//! The undo history: whole project-file snapshots to go back and forth
//! between, each with the name of the change it stands by ("included
//! src/**", "app.py: App.run = def"), so the history can be listed and
//! any step of it jumped to. A leaf the `state` holds (it imports only
//! the core's model).

use crate::core::model::ProjectFile;

/// One snapshot of the project file and the change it goes with: on the
/// undo stack the file *before* the change named, on the redo stack the
/// file *after* it (the name travels with the step between the stacks).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub file: ProjectFile,
    pub label: String,
}

/// Undo and redo stacks of whole project-file snapshots.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub undo: Vec<Step>,
    pub redo: Vec<Step>,
}

/// How many undo steps are kept.
pub const HISTORY_LIMIT: usize = 200;

/// One row of the history as a list: a state of the project file, named
/// by the change that led to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The change that made this state (`None`: the oldest state kept).
    pub label: Option<&'a str>,
    /// The state shown now.
    pub now: bool,
}

impl Entry<'_> {
    /// The row's name as the list and the status say it.
    pub fn name(&self) -> &str {
        self.label.unwrap_or("the oldest state kept")
    }
}

impl History {
    /// A change named `label` was made from `before`: it becomes the
    /// newest undo step (the oldest goes past [`HISTORY_LIMIT`]), and
    /// what was undone can no longer be redone.
    pub fn record(&mut self, before: ProjectFile, label: impl Into<String>) {
        self.undo.push(Step {
            file: before,
            label: label.into(),
        });
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undo (`undo`) or redo: the snapshot on top of that stack replaces
    /// `current`, which goes on the other one. The name of the change
    /// undone or redone, or `None` when there is nothing to undo or redo
    /// (`current` is untouched).
    pub fn step(&mut self, undo: bool, current: &mut ProjectFile) -> Option<String> {
        let (from, to) = if undo {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Step { file, label } = from.pop()?;
        to.push(Step {
            file: std::mem::replace(current, file),
            label: label.clone(),
        });
        Some(label)
    }

    /// The history as a list, oldest first: the oldest state kept, each
    /// state a change made (the undo steps), the state now, then the
    /// states redo would bring back, nearest first.
    pub fn entries(&self) -> Vec<Entry<'_>> {
        let mut out = vec![Entry {
            label: None,
            now: self.undo.is_empty(),
        }];
        let last = self.undo.len();
        out.extend(self.undo.iter().enumerate().map(|(i, step)| Entry {
            label: Some(step.label.as_str()),
            now: i + 1 == last,
        }));
        out.extend(self.redo.iter().rev().map(|step| Entry {
            label: Some(step.label.as_str()),
            now: false,
        }));
        out
    }

    /// The row of [`History::entries`] that is the state now.
    pub fn now_index(&self) -> usize {
        self.undo.len()
    }

    /// The project file of row `index` of [`History::entries`] (`current`
    /// is the state now); `None` past the end.
    pub fn file_at<'a>(
        &'a self,
        index: usize,
        current: &'a ProjectFile,
    ) -> Option<&'a ProjectFile> {
        let now = self.undo.len();
        match index.cmp(&now) {
            std::cmp::Ordering::Less => self.undo.get(index).map(|s| &s.file),
            std::cmp::Ordering::Equal => Some(current),
            // Redo's top (its last) is the state right after now.
            std::cmp::Ordering::Greater => {
                let back = index - now;
                self.redo
                    .len()
                    .checked_sub(back)
                    .and_then(|i| self.redo.get(i))
                    .map(|s| &s.file)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(tag: &str) -> ProjectFile {
        let mut f = ProjectFile::default();
        f.project.set("namespace", tag);
        f
    }

    /// Three changes, one undone: the list names each state by its change,
    /// marks the state now, and each row's file is that state.
    #[test]
    fn entries_name_each_state_and_rows_find_their_files() {
        let mut h = History::default();
        let mut current = file("a");
        for (next, label) in [("b", "include b"), ("c", "mask c"), ("d", "apply preset d")] {
            let before = std::mem::replace(&mut current, file(next));
            h.record(before, label);
        }
        assert_eq!(
            h.step(true, &mut current).as_deref(),
            Some("apply preset d")
        );
        let labels: Vec<(Option<&str>, bool)> =
            h.entries().iter().map(|e| (e.label, e.now)).collect();
        assert_eq!(
            labels,
            [
                (None, false),
                (Some("include b"), false),
                (Some("mask c"), true),
                (Some("apply preset d"), false),
            ]
        );
        assert_eq!(h.now_index(), 2);
        for (i, tag) in ["a", "b", "c", "d"].iter().enumerate() {
            assert_eq!(h.file_at(i, &current), Some(&file(tag)), "row {i}");
        }
        assert_eq!(h.file_at(4, &current), None);
    }
}
