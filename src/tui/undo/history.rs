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
