//! Where each distinct line of a file is, so an anchor is found from its
//! rarest line's places rather than by a pass over the whole file.

use std::collections::HashMap;

/// The places (0-based, ascending) of each line of a file, compared
/// without trailing whitespace; blank lines are left out (they locate
/// nothing).
pub(super) struct LineIndex<'a> {
    at: HashMap<&'a str, Vec<usize>>,
}

impl<'a> LineIndex<'a> {
    pub(super) fn new(lines: &[&'a str]) -> Self {
        let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, line) in lines.iter().enumerate() {
            let key = line.trim_end();
            if !key.trim_start().is_empty() {
                at.entry(key).or_default().push(i);
            }
        }
        LineIndex { at }
    }

    fn places(&self, line: &str) -> &[usize] {
        self.at.get(line.trim_end()).map_or(&[], Vec::as_slice)
    }

    /// Up to `limit` start indices (at or after `from`, ascending) where
    /// `block` matches `lines`, comparing lines without trailing
    /// whitespace. A block made only of blank lines matches nothing. The
    /// candidates are the places of the block's rarest line; the lines
    /// compared are added to `work`.
    pub(super) fn matches(
        &self,
        lines: &[&str],
        block: &[String],
        from: usize,
        limit: usize,
        work: &mut usize,
    ) -> Vec<usize> {
        let Some((offset, places)) = block
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(k, l)| (k, self.places(l)))
            .min_by_key(|(_, places)| places.len())
        else {
            return Vec::new();
        };
        let first = places.partition_point(|&p| p < from.saturating_add(offset));
        let mut found = Vec::new();
        for &p in &places[first..] {
            let i = p - offset;
            if i + block.len() > lines.len() {
                break;
            }
            *work = work.saturating_add(block.len());
            let same = block
                .iter()
                .zip(&lines[i..])
                .all(|(b, l)| b.trim_end() == l.trim_end());
            if same {
                found.push(i);
                if found.len() == limit {
                    break;
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| (*l).to_string()).collect()
    }

    #[test]
    fn a_block_is_found_from_its_rarest_line() {
        let lines = ["a", "a", "b  ", "a", "a", "b", "", "  "];
        let index = LineIndex::new(&lines);
        let mut work = 0;
        let found = index.matches(&lines, &block(&["a", "b"]), 0, 9, &mut work);
        assert_eq!(found, vec![1, 4]);
        // Only the places of `b` were tried, two lines each.
        assert_eq!(work, 4);
        assert_eq!(
            index.matches(&lines, &block(&["a", "b"]), 2, 9, &mut work),
            vec![4]
        );
        assert_eq!(
            index.matches(&lines, &block(&["a", "a"]), 0, 2, &mut work),
            vec![0, 3]
        );
        assert!(
            index
                .matches(&lines, &block(&["", " "]), 0, 9, &mut work)
                .is_empty()
        );
        assert!(
            index
                .matches(&lines, &block(&["c"]), 0, 9, &mut work)
                .is_empty()
        );
        // A blank line of the block is compared, not looked up.
        assert_eq!(
            index.matches(&lines, &block(&["b", ""]), 0, 9, &mut work),
            vec![5]
        );
        // A block running past the end matches nothing there.
        assert!(
            index
                .matches(&lines, &block(&["b", "", "", "x"]), 0, 9, &mut work)
                .is_empty()
        );
    }
}
