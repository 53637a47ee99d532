//! The undo history: whole project-file snapshots to go back and forth
//! between. A leaf the `state` holds (it imports only the core's model).

use crate::core::model::ProjectFile;

/// Undo and redo stacks of whole project-file snapshots.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub undo: Vec<ProjectFile>,
    pub redo: Vec<ProjectFile>,
}

/// How many undo steps are kept.
pub const HISTORY_LIMIT: usize = 200;

impl History {
    /// A change was made from `before`: it becomes the newest undo step
    /// (the oldest goes past [`HISTORY_LIMIT`]), and what was undone can
    /// no longer be redone.
    pub fn record(&mut self, before: ProjectFile) {
        self.undo.push(before);
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undo (`undo`) or redo: the snapshot on top of that stack replaces
    /// `current`, which goes on the other one. `false` when there is
    /// nothing to undo or redo (`current` is untouched).
    pub fn step(&mut self, undo: bool, current: &mut ProjectFile) -> bool {
        let (from, to) = if undo {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Some(snapshot) = from.pop() else {
            return false;
        };
        to.push(std::mem::replace(current, snapshot));
        true
    }
}
