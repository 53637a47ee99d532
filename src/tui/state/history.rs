//! The undo history: the changes made to the project file, each with the
//! file before and after it and the name of the change ("included
//! src/**", "app.py: App.run = def"), so the history can be listed and
//! any step of it jumped to. Undo, redo and a jump *replay* changes on
//! the file as it is now (`core::project::replay`) instead of putting an
//! old snapshot back: what was written in the file outside the app
//! meanwhile (a setting, a key this version does not know) stays. A leaf
//! the `state` holds (it imports only the core).

use crate::core::model::ProjectFile;
use crate::core::project::replay;

/// One change of the project file: the file before and after it, and
/// its name. It sits on the undo stack while made, on the redo stack
/// while undone.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub before: ProjectFile,
    pub after: ProjectFile,
    pub label: String,
}

impl Step {
    /// `current` with this change taken back (`undo`) or made again.
    fn replay_on(&self, current: &ProjectFile, undo: bool) -> ProjectFile {
        if undo {
            replay(current, &self.after, &self.before)
        } else {
            replay(current, &self.before, &self.after)
        }
    }
}

/// Undo and redo stacks of changes.
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

/// The name of a step from the status message of its change: the change
/// itself, without the hints and notes after it ("deleted preset minimal
/// (u undoes)" is "deleted preset minimal"; "app.py is a target (1 in
/// all): press i to discover" is "app.py is a target").
pub fn step_name(message: &str) -> String {
    let cut = [" (", " · ", ": press ", " — "]
        .iter()
        .filter_map(|sep| message.find(sep))
        .min()
        .unwrap_or(message.len());
    message[..cut].trim_end().to_string()
}

impl History {
    /// A change named `label` made `after` from `before`: it becomes the
    /// newest undo step (the oldest goes past [`HISTORY_LIMIT`]), and
    /// what was undone can no longer be redone.
    pub fn record(&mut self, before: ProjectFile, after: ProjectFile, label: impl Into<String>) {
        self.undo.push(Step {
            before,
            after,
            label: step_name(&label.into()),
        });
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undo (`undo`) or redo the change on top of that stack, on
    /// `current` as it is now; the step goes on the other stack. The
    /// name of the change undone or redone, or `None` when there is
    /// nothing to undo or redo (`current` is untouched).
    pub fn step(&mut self, undo: bool, current: &mut ProjectFile) -> Option<String> {
        let (from, to) = if undo {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let step = from.pop()?;
        *current = step.replay_on(current, undo);
        let label = step.label.clone();
        to.push(step);
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

    /// The project file row `index` of [`History::entries`] stands for,
    /// reached from `current` (the state now) by undoing or redoing the
    /// changes between, each on the file as it is: what was written in
    /// the file outside them stays. `None` past the end.
    pub fn file_at(&self, index: usize, current: &ProjectFile) -> Option<ProjectFile> {
        let now = self.undo.len();
        let mut file = current.clone();
        if index <= now {
            for step in self.undo[index..].iter().rev() {
                file = step.replay_on(&file, true);
            }
            return Some(file);
        }
        // Redo's top (its last) is the state right after now.
        let back = index - now;
        let first = self.redo.len().checked_sub(back)?;
        for step in self.redo[first..].iter().rev() {
            file = step.replay_on(&file, false);
        }
        Some(file)
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
            h.record(before, current.clone(), label);
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
            assert_eq!(h.file_at(i, &current), Some(file(tag)), "row {i}");
        }
        assert_eq!(h.file_at(4, &current), None);
    }

    /// A key written outside the app after the changes survives a jump
    /// back past them and the undo of that jump.
    #[test]
    fn a_jump_keeps_what_was_written_outside() {
        let mut h = History::default();
        let mut current = file("a");
        let before = std::mem::replace(&mut current, file("b"));
        h.record(before, current.clone(), "namespace b");
        // Written outside the app, and reloaded.
        current.project.set("model_window", 128000);
        let back = h.file_at(0, &current).expect("row 0");
        let mut want = file("a");
        want.project.set("model_window", 128000);
        assert_eq!(back, want);
        let before = std::mem::replace(&mut current, back);
        h.record(before, current.clone(), "back to: the oldest state kept");
        assert_eq!(
            h.step(true, &mut current).as_deref(),
            Some("back to: the oldest state kept")
        );
        let mut want = file("b");
        want.project.set("model_window", 128000);
        assert_eq!(current, want);
    }

    #[test]
    fn a_step_is_named_by_its_change_without_the_hints() {
        for (message, name) in [
            (
                "deleted preset minimal (u undoes)",
                "deleted preset minimal",
            ),
            (
                "app.py is a target (1 in all): press i to discover",
                "app.py is a target",
            ),
            (
                "included src/** · discovery proposals dropped (press i again)",
                "included src/**",
            ),
            ("removed 2 files", "removed 2 files"),
        ] {
            assert_eq!(step_name(message), name);
        }
    }
}
