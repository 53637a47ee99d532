//! Room kept ahead for the next files the task is about (docs/ARCHITECTURE.md,
//! "Discovery"): the files ranked for a task are fitted best first, each
//! in the best form that fits, but a greedy fill lets the first few large
//! files take the room the next ones needed, so a right file ranked
//! eleventh is left out while the fifth is whole. Before they are fitted,
//! the cheapest form of each (its outline, or the symbols the task is
//! about alone) is reserved, in rank order, up to [`AHEAD_SHARE`] of the
//! room: a file may use what is left minus what the files after it keep,
//! so every file within the reservation is held at least in its cheapest
//! form, and the best ones still grow to their best.

use crate::core::walk::ResolvedItem;

use super::{Packer, Role};

/// The share of the room the cheapest forms of the next files may keep.
const AHEAD_SHARE: f64 = 0.5;

/// The room kept for each candidate still to come, by its index in the
/// candidate list.
#[derive(Debug, Default)]
pub(super) struct Ahead {
    /// (candidate index, its cheapest cost), in candidate order.
    kept: Vec<(usize, usize)>,
}

impl Ahead {
    /// Reserve the cheapest forms of the files ranked for the task among
    /// `list` (from index `from` on), best first, within a share of `room`.
    pub fn new(packer: &Packer, list: &[(ResolvedItem, Role)], from: usize, room: usize) -> Ahead {
        let limit = (room as f64 * AHEAD_SHARE) as usize;
        let mut kept = Vec::new();
        let mut total = 0usize;
        for (i, (resolved, role)) in list.iter().enumerate().skip(from) {
            if *role != Role::Relevant {
                continue;
            }
            let Some(cost) = packer.floor_cost(resolved, *role) else {
                continue;
            };
            // A file too large for the rest is skipped, not an end: the
            // next may be small.
            if total + cost > limit {
                continue;
            }
            total += cost;
            kept.push((i, cost));
        }
        Ahead { kept }
    }

    /// The room the candidates after index `i` keep.
    pub fn after(&self, i: usize) -> usize {
        self.kept
            .iter()
            .filter(|(j, _)| *j > i)
            .map(|(_, cost)| cost)
            .sum()
    }

    /// Give up the room of the lowest ranked files after index `i` until
    /// `need` fits in `left`: a better file comes before a worse one's
    /// floor. Whether it fits now.
    pub fn release_for(&mut self, i: usize, need: usize, left: usize) -> bool {
        while left.saturating_sub(self.after(i)) < need {
            match self.kept.last() {
                Some((j, _)) if *j > i => {
                    self.kept.pop();
                }
                _ => break,
            }
        }
        left.saturating_sub(self.after(i)) >= need
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_after_a_file_is_what_the_later_files_keep_and_the_worst_give_it_up_first() {
        let mut ahead = Ahead {
            kept: vec![(2, 100), (5, 300), (9, 50)],
        };
        assert_eq!(ahead.after(0), 450);
        assert_eq!(ahead.after(2), 350);
        assert_eq!(ahead.after(9), 0);
        // 1,000 left, 800 needed by file 3: files 9 then 5 give theirs up.
        assert!(ahead.release_for(3, 800, 1000));
        assert_eq!(ahead.kept, vec![(2, 100)]);
        // Nothing after it to give up: it does not fit.
        assert!(!ahead.release_for(9, 2000, 1000));
    }
}
