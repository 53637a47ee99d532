//! Anchored slices: making a slice stores its text's hash and up to three
//! lines around it; resolving finds the slice again in the current file
//! (docs/ARCHITECTURE.md, "core::anchor"). In order: the stored lines still hash the same (kept); the
//! exact text occurs once elsewhere, or once between its anchors (moved);
//! the anchors are found and the lines between them are taken (re-anchored,
//! the text was edited); otherwise the slice is stale. Wrong lines are never
//! shown as if they were the slice.

mod line_index;
mod work_debt;

use line_index::LineIndex;
pub use work_debt::WorkDebt;

use crate::core::model::Slice;
use crate::core::tokens::sha256_hex;
use crate::text::words::plural;

/// How many lines before and after a slice are stored as anchors.
pub const ANCHOR_LINES: usize = 3;

/// Where a slice stands in the current file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// At its stored lines, unchanged (or stored without a hash).
    Kept { start: usize, end: usize },
    /// Its exact text found elsewhere (once in the file, or once between
    /// its anchors); `by` is the line shift.
    Moved { start: usize, end: usize, by: i64 },
    /// Its text changed, but its anchors still bracket it: the lines
    /// between them.
    Reanchored { start: usize, end: usize },
    /// Not found: the reason says why.
    Stale { reason: String },
}

impl Resolution {
    /// The resolved 1-based inclusive line range, unless stale.
    pub fn range(&self) -> Option<(usize, usize)> {
        match self {
            Resolution::Kept { start, end }
            | Resolution::Moved { start, end, .. }
            | Resolution::Reanchored { start, end } => Some((*start, *end)),
            Resolution::Stale { .. } => None,
        }
    }

    /// One word or phrase for listings: `kept`, `moved by +3`,
    /// `re-anchored`, `stale`.
    pub fn describe(&self) -> String {
        match self {
            Resolution::Kept { .. } => "kept".into(),
            Resolution::Moved { by, .. } => format!("moved by {by:+}"),
            Resolution::Reanchored { .. } => "re-anchored".into(),
            Resolution::Stale { .. } => "stale".into(),
        }
    }
}

fn lines_of(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn hash_lines(lines: &[&str]) -> String {
    sha256_hex(lines.join("\n").as_bytes())
}

/// What hashing `lines` costs in [`Resolver`] work: a visit a line and
/// one a byte (the hash reads every byte: counting lines alone let lines
/// of code cost twenty times what a line of one letter did).
fn hashed_cost(lines: &[&str]) -> usize {
    lines
        .iter()
        .fold(0usize, |n, l| n.saturating_add(l.len()).saturating_add(1))
}

/// FNV-1a (64-bit) of one line: stable across versions and platforms,
/// since fingerprints are stored in the project file.
fn line_hash(line: &str) -> u64 {
    line.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The base of the rolling hash over line hashes (odd, so powers never
/// vanish modulo 2^64).
const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// The rolling hash of `lines`: Σ h(line_k) · BASE^(len-1-k), wrapping.
fn fingerprint_of(lines: &[&str]) -> u64 {
    lines.iter().fold(0u64, |acc, l| {
        acc.wrapping_mul(BASE).wrapping_add(line_hash(l))
    })
}

/// A new slice of lines `start..=end` (1-based) of `text`, with its hash,
/// fingerprint and anchors; `None` when the range is empty or outside the
/// file.
pub fn create_slice(text: &str, start: usize, end: usize) -> Option<Slice> {
    let lines = lines_of(text);
    if start == 0 || end < start || end > lines.len() {
        return None;
    }
    let body = &lines[start - 1..end];
    let before_from = (start - 1).saturating_sub(ANCHOR_LINES);
    let after_to = (end + ANCHOR_LINES).min(lines.len());
    Some(Slice {
        start_line: start,
        end_line: end,
        content_hash: Some(hash_lines(body)),
        fingerprint: Some(format!("{:016x}", fingerprint_of(body))),
        anchor_before: lines[before_from..start - 1]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        anchor_after: lines[end..after_to].iter().map(|s| s.to_string()).collect(),
        ..Slice::default()
    })
}

/// Find `slice` in the current `text` (one slice; a file's slices are
/// found through one [`Resolver`]).
pub fn resolve(text: &str, slice: &Slice) -> Resolution {
    Resolver::new(text).resolve(slice)
}

/// The reason given for the slices of a file that were not looked for:
/// the file's bound of work ([`Resolver`]) was spent on the others.
pub const NOT_LOOKED_FOR: &str =
    "not looked for: finding this file's other slices again took all the work one file may take";

/// The reason given for the slices not looked for because finding slices
/// again in the files before took all the work the process may spend
/// lately ([`work_debt`]).
pub const NOT_LOOKED_FOR_LATELY: &str =
    "not looked for: finding slices again in other files took all the work allowed for a while";

/// Past the process's allowance ([`work_debt`]), a file may still go
/// through its lines and bytes this many times (check its slices in
/// place, index it) …
pub const FLOOR_PER_LINE: usize = 2;

/// … plus this many visits.
pub const FLOOR_SLACK: usize = 1 << 16;

/// Each line of a file, and each byte where lines are hashed, may be
/// visited this many times, in all, to find its slices again (hashed,
/// compared with an anchor, rolled through a fingerprint) …
pub const WORK_PER_LINE: usize = 32;

/// … plus this many visits: enough for one search of a slice made
/// without a fingerprint ([`MAX_HASHED_LINES`]).
pub const WORK_SLACK: usize = MAX_HASHED_LINES;

/// Finds the slices of one file again in its current text. The per-line
/// work is done once for all of them (the lines, their hashes, where each
/// distinct line is), and the whole is bounded: each stale slice costs a
/// pass over the file, so a project file giving a 500,000-line file 1,200
/// stale slices made `stats` take 97 s (recheck 15). Once the file's
/// bound ([`WORK_PER_LINE`] per line, plus [`WORK_SLACK`]) is spent, the
/// slices left are stale, not looked for ([`NOT_LOOKED_FOR`]). Work past
/// a floor ([`FLOOR_PER_LINE`]) counts to the process's allowance too,
/// and once that is spent, work stops at the floor
/// ([`NOT_LOOKED_FOR_LATELY`]): 130 files of a megabyte with 64 stale
/// slices each took `stats` half a minute (recheck 15b F3b).
pub struct Resolver<'a> {
    lines: Vec<&'a str>,
    /// Each line's hash, for the fingerprint search (made when needed).
    hashes: Option<Vec<u64>>,
    /// Where each line is, for the anchors (made when needed).
    index: Option<LineIndex<'a>>,
    /// Line visits so far, and how many the file may take.
    work: usize,
    bound: usize,
    /// The visits the file may take once the process's allowance is spent,
    /// and those past it charged to the allowance so far.
    floor: usize,
    charged: usize,
    debt: &'a WorkDebt,
}

impl<'a> Resolver<'a> {
    /// A resolver of `text`'s slices charging the process's allowance.
    pub fn new(text: &'a str) -> Self {
        Self::charging(text, WorkDebt::process())
    }

    /// A resolver charging `debt` (a test's own).
    pub fn charging(text: &'a str, debt: &'a WorkDebt) -> Self {
        let lines = lines_of(text);
        let size = lines.len().saturating_add(text.len());
        let bound = size
            .saturating_mul(WORK_PER_LINE)
            .saturating_add(WORK_SLACK);
        let floor = size
            .saturating_mul(FLOOR_PER_LINE)
            .saturating_add(FLOOR_SLACK)
            .min(bound);
        Resolver {
            lines,
            hashes: None,
            index: None,
            work: 0,
            bound,
            floor,
            charged: 0,
            debt,
        }
    }

    /// Why the slices not yet resolved are not looked for, once the file's
    /// bound of work is spent ([`NOT_LOOKED_FOR`]) or its floor and the
    /// process's allowance are ([`NOT_LOOKED_FOR_LATELY`]).
    pub fn spent(&self) -> Option<&'static str> {
        if self.work > self.bound {
            Some(NOT_LOOKED_FOR)
        } else if self.work > self.floor && self.debt.over_allowance() {
            Some(NOT_LOOKED_FOR_LATELY)
        } else {
            None
        }
    }

    /// Find `slice` in the file (stale, not looked for, once
    /// [`Resolver::spent`]). The work past the floor counts to the
    /// process's allowance.
    pub fn resolve(&mut self, slice: &Slice) -> Resolution {
        if let Some(reason) = self.spent() {
            return Resolution::Stale {
                reason: reason.into(),
            };
        }
        let resolution = self.resolve_within_bound(slice);
        let past_floor = self.work.saturating_sub(self.floor);
        self.debt.charge(past_floor.saturating_sub(self.charged));
        self.charged = self.charged.max(past_floor);
        resolution
    }

    /// The visits this file may still take: up to its bound, or up to its
    /// floor once the process's allowance is spent.
    fn allowed(&self) -> usize {
        let cap = if self.debt.over_allowance() {
            self.floor
        } else {
            self.bound
        };
        cap.saturating_sub(self.work)
    }

    fn resolve_within_bound(&mut self, slice: &Slice) -> Resolution {
        let not_looked_for = || Resolution::Stale {
            reason: NOT_LOOKED_FOR.into(),
        };
        // A search that hashes every window is skipped when it would take
        // more than this (one such search over a megabyte of code costs
        // seconds: it may not run in file after file once the process's
        // allowance is spent).
        let allowed = self.allowed();
        let lines = &self.lines;
        let (start, end) = (slice.start_line, slice.end_line);
        if start == 0 || end < start {
            return Resolution::Stale {
                reason: format!("invalid line range {start}-{end}"),
            };
        }
        let in_range = end <= lines.len();
        let Some(hash) = &slice.content_hash else {
            return if in_range {
                Resolution::Kept { start, end }
            } else {
                Resolution::Stale {
                    reason: format!(
                        "lines {start}-{end} are past the end of the file ({})",
                        plural(lines.len(), "line")
                    ),
                }
            };
        };
        let len = end - start + 1;
        if in_range {
            let range = &lines[start - 1..end];
            self.work = self.work.saturating_add(hashed_cost(range));
            if hash_lines(range) == *hash {
                return Resolution::Kept { start, end };
            }
        }
        let work = &mut self.work;
        let target = slice
            .fingerprint
            .as_deref()
            .and_then(|f| u64::from_str_radix(f, 16).ok())
            .filter(|_| len <= lines.len());
        let hashes = target.map(|_| {
            self.hashes
                .get_or_insert_with(|| {
                    *work = work.saturating_add(lines.len());
                    lines.iter().map(|l| line_hash(l)).collect()
                })
                .as_slice()
        });
        let index = self.index.get_or_insert_with(|| {
            *work = work.saturating_add(lines.len());
            LineIndex::new(lines)
        });
        let finder = Finder::new(lines, len, hash, hashes.zip(target), allowed);
        let moved = |i: usize| Resolution::Moved {
            start: i + 1,
            end: i + len,
            by: (i + 1) as i64 - start as i64,
        };
        // The anchors first: where they still bracket lines, those lines are
        // the slice (moved if its text is among them, else edited). Only when
        // they do not (the block was cut out, or the anchors were edited too)
        // does a unique copy of the text elsewhere count as the slice.
        let anchored = between_anchors(lines, index, slice, work);
        if let Some((from, to)) = anchored {
            // `from..to` (0-based, exclusive) lies between the anchors.
            if let Some(&i) = finder.find(from, to, 1, work).first() {
                return moved(i);
            }
            if to > from && to - from <= max_span(len) {
                return Resolution::Reanchored {
                    start: from + 1,
                    end: to,
                };
            }
        }
        if *work > self.bound {
            return not_looked_for();
        }
        let found = finder.find(0, lines.len(), 2, work);
        if let [i] = found[..] {
            return moved(i);
        }
        let reason = match anchored {
            Some((from, to)) if to <= from => {
                "the slice's lines were deleted (its anchors are now adjacent)"
            }
            Some(_) => "the slice's text changed and its anchors now enclose far more lines",
            None if found.len() > 1 => {
                "the slice's text occurs more than once and its anchors are gone"
            }
            None => "the slice's text changed and its anchors are gone",
        };
        Resolution::Stale {
            reason: reason.into(),
        }
    }
}

/// Finds the windows of `len` lines whose text hashes to the slice's hash.
/// With a fingerprint, one rolling pass picks the candidates and only
/// those are hashed (linear in the file); without one (slices made before
/// fingerprints), every window is hashed.
struct Finder<'a> {
    lines: &'a [&'a str],
    len: usize,
    hash: &'a str,
    rolling: Option<Rolling<'a>>,
    /// The most work ([`hashed_cost`]) a search without a fingerprint may
    /// take before it gives up.
    max_hashed: usize,
}

/// Line hashes and the fingerprint to look for.
struct Rolling<'a> {
    line_hashes: &'a [u64],
    target: u64,
    /// BASE^(len-1): the weight of the line leaving the window.
    top: u64,
}

/// The most lines hashed to find one slice without a fingerprint (made
/// before fingerprints, or written by hand in the project file): every
/// window is hashed, so a long slice in a long file costs their product
/// (a 40,000-line slice over 50,000 lines took 6 s). Past it the slice is
/// not looked for elsewhere (stale, unless its anchors place it). A
/// 100-line slice over 110,000 lines (11M, about half a second) is still
/// found (`benches/anchor_resolve.rs`).
pub const MAX_HASHED_LINES: usize = 16_000_000;

/// Candidates whose fingerprint matches but whose text does not are
/// collisions; past this many the stored fingerprint is not trusted
/// (it comes from the project file) and the search stops.
const MAX_COLLISIONS: usize = 16;

impl<'a> Finder<'a> {
    /// `rolling`: the file's line hashes and the fingerprint to look
    /// for, when the slice has one.
    fn new(
        lines: &'a [&'a str],
        len: usize,
        hash: &'a str,
        rolling: Option<(&'a [u64], u64)>,
        allowed: usize,
    ) -> Self {
        let rolling = rolling.map(|(line_hashes, target)| Rolling {
            line_hashes,
            target,
            top: (1..len).fold(1u64, |p, _| p.wrapping_mul(BASE)),
        });
        Finder {
            lines,
            len,
            hash,
            rolling,
            max_hashed: allowed,
        }
    }

    /// Up to `limit` start indices of windows inside `from..to` (0-based,
    /// half-open) holding the slice's exact text, in order; the lines
    /// visited are added to `work`.
    fn find(&self, from: usize, to: usize, limit: usize, work: &mut usize) -> Vec<usize> {
        let to = to.min(self.lines.len());
        if to < from || to - from < self.len {
            return Vec::new();
        }
        let last = to - self.len;
        let hashed = std::cell::Cell::new(0usize);
        let matches = |i: usize| {
            let window = &self.lines[i..i + self.len];
            hashed.set(hashed.get().saturating_add(hashed_cost(window)));
            hash_lines(window) == self.hash
        };
        let Some(r) = &self.rolling else {
            if (last - from + 1).saturating_mul(self.len) > MAX_HASHED_LINES {
                return Vec::new();
            }
            // Given up, as past the bound above, once the hashing took all
            // the file may still take.
            let mut found = Vec::new();
            for i in from..=last {
                if hashed.get() > self.max_hashed {
                    found.clear();
                    break;
                }
                if matches(i) {
                    found.push(i);
                    if found.len() == limit {
                        break;
                    }
                }
            }
            *work = work.saturating_add(hashed.get());
            return found;
        };
        *work = work.saturating_add(last - from + 1);
        let mut found = Vec::new();
        let mut collisions = 0;
        let window = &r.line_hashes[from..from + self.len];
        let mut h = window
            .iter()
            .fold(0u64, |acc, &x| acc.wrapping_mul(BASE).wrapping_add(x));
        for i in from..=last {
            if i > from {
                let out = r.line_hashes[i - 1].wrapping_mul(r.top);
                h = h
                    .wrapping_sub(out)
                    .wrapping_mul(BASE)
                    .wrapping_add(r.line_hashes[i + self.len - 1]);
            }
            if h != r.target {
                continue;
            }
            if matches(i) {
                found.push(i);
                if found.len() == limit {
                    break;
                }
            } else {
                collisions += 1;
                if collisions > MAX_COLLISIONS {
                    break;
                }
            }
        }
        *work = work.saturating_add(hashed.get());
        found
    }
}

/// The most lines a re-anchored slice of `len` lines may span: edits may
/// grow it, but anchors that enclose far more than the slice ever had have
/// matched something else.
fn max_span(len: usize) -> usize {
    // A hand-edited range can claim any length.
    len.saturating_mul(2).saturating_add(10)
}

/// The 0-based half-open span between the slice's anchors in `lines`:
/// the before-anchor's end and the after-anchor's start. An empty anchor
/// means the slice touched the start (or end) of the file. Each anchor is
/// matched as a whole block first, then by fewer lines (those nearest the
/// slice), and must match exactly once (the after-anchor: first match after
/// the before-anchor). The lines visited are added to `work`.
fn between_anchors(
    lines: &[&str],
    index: &LineIndex<'_>,
    slice: &Slice,
    work: &mut usize,
) -> Option<(usize, usize)> {
    // Anchors are the few lines around a slice; one written longer (the
    // project file is the repository's) is read by its nearest lines, so
    // the search stays linear in the file.
    let before = &slice.anchor_before;
    let before = &before[before.len().saturating_sub(ANCHOR_LINES * 2)..];
    let after = &slice.anchor_after[..slice.anchor_after.len().min(ANCHOR_LINES * 2)];
    let from = if before.is_empty() {
        0
    } else {
        let b = before;
        (1..=b.len()).rev().find_map(|k| {
            let block = &b[b.len() - k..];
            unique(index.matches(lines, block, 0, 2, work)).map(|i| i + k)
        })?
    };
    let to = if after.is_empty() {
        lines.len()
    } else {
        let a = after;
        (1..=a.len()).rev().find_map(|k| {
            index
                .matches(lines, &a[..k], from, 1, work)
                .into_iter()
                .next()
        })?
    };
    (to >= from).then_some((from, to))
}

fn unique(found: Vec<usize>) -> Option<usize> {
    match found[..] {
        [i] => Some(i),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stale slice `i` of 10,000 lines over a file of `a` lines, whose
    /// anchors recur everywhere.
    fn stale(i: usize) -> Slice {
        Slice {
            start_line: 1 + i,
            end_line: 10_000,
            content_hash: Some(format!("{i:064x}")),
            fingerprint: Some(format!("{i:016x}")),
            anchor_before: vec!["a".into(); 3],
            anchor_after: vec!["a".into(), "a".into(), "b".into()],
            ..Slice::default()
        }
    }

    /// Stale slices whose anchors recur everywhere: each costs a pass
    /// over the file, so the file's bound stops the search, and the rest
    /// are stale without being looked for. The work stays within the
    /// bound and one slice's passes.
    #[test]
    fn the_slices_of_a_file_are_looked_for_within_a_bound() {
        let text = "a\n".repeat(20_000);
        let mut resolver = Resolver::new(&text);
        let results: Vec<Resolution> = (0..2_000).map(|i| resolver.resolve(&stale(i))).collect();
        assert_eq!(resolver.spent(), Some(NOT_LOOKED_FOR));
        let unsearched = results
            .iter()
            .filter(|r| matches!(r, Resolution::Stale { reason } if reason == NOT_LOOKED_FOR))
            .count();
        assert!(unsearched > 1_000, "{unsearched} of 2,000 not looked for");
        assert!(
            results
                .iter()
                .all(|r| matches!(r, Resolution::Stale { .. }))
        );
        // One slice costs at most: its range, the line hashes and the
        // index once, the anchors and a pass over the file.
        assert!(
            resolver.work <= resolver.bound + 10 * 20_000,
            "{}",
            resolver.work
        );
    }

    /// Stale slices over lines of code: their hashing counts by the byte,
    /// so the bytes hashed stay within the bound (counted by the line,
    /// lines of forty bytes were hashed twenty times what the bound meant).
    #[test]
    fn hashing_long_lines_counts_their_bytes() {
        let line = "x".repeat(40);
        let text: String = (0..5_000).map(|i| format!("{line} {i}\n")).collect();
        let whole = |i: usize| Slice {
            start_line: 1,
            end_line: 5_000,
            content_hash: Some(format!("{i:064x}")),
            ..Slice::default()
        };
        let debt = WorkDebt::unforgiving();
        let mut resolver = Resolver::charging(&text, &debt);
        let checked = (0..2_000)
            .map(|i| resolver.resolve(&whole(i)))
            .filter(|r| !matches!(r, Resolution::Stale { reason } if reason == NOT_LOOKED_FOR))
            .count();
        // Each check hashes the whole text: the bound allows about
        // `WORK_PER_LINE` of them and the slack's worth, not 2,000.
        let slack_checks = WORK_SLACK / text.len();
        assert!(
            checked <= WORK_PER_LINE + slack_checks + 2,
            "{checked} whole-file checks"
        );
        assert!(resolver.work <= resolver.bound + 2 * text.len());
    }

    /// Once the work of other files has spent the allowance, a file gets
    /// its floor: slices still in place are kept, the stale ones past the
    /// floor are not looked for, and the work stays near the floor.
    #[test]
    fn past_the_allowance_a_file_gets_its_floor() {
        let text = "a\n".repeat(20_000);
        let kept = create_slice(&text, 5, 20).expect("in range");
        let debt = WorkDebt::unforgiving();
        // Another file's work first: the allowance and one more visit.
        debt.charge(work_debt::ALLOWANCE + 1);
        let mut resolver = Resolver::charging(&text, &debt);
        assert_eq!(
            resolver.resolve(&kept),
            Resolution::Kept { start: 5, end: 20 }
        );
        let results: Vec<Resolution> = (0..100).map(|i| resolver.resolve(&stale(i))).collect();
        assert_eq!(resolver.spent(), Some(NOT_LOOKED_FOR_LATELY));
        let unsearched = results
            .iter()
            .filter(
                |r| matches!(r, Resolution::Stale { reason } if reason == NOT_LOOKED_FOR_LATELY),
            )
            .count();
        assert!(unsearched > 90, "{unsearched} of 100 not looked for");
        // The floor and one slice's passes, far under the file's bound.
        assert!(
            resolver.work <= resolver.floor + 10 * 20_000,
            "{}",
            resolver.work
        );
        assert!(resolver.work < resolver.bound / 10);
        // The same file under an allowance not yet spent looks further.
        let fresh = WorkDebt::unforgiving();
        let mut resolver = Resolver::charging(&text, &fresh);
        for i in 0..100 {
            resolver.resolve(&stale(i));
        }
        assert!(resolver.work > resolver.floor * 10, "{}", resolver.work);
        assert!(!fresh.over_allowance(), "one file's work stays under it");
    }

    /// A file's many slices, moved by an edit above them, are all found:
    /// the anchors are found from their own lines' places, not by a pass
    /// over the file each, so the bound is far off.
    #[test]
    fn many_moved_slices_are_all_found_well_within_the_bound() {
        let lines: Vec<String> = (0..10_000).map(|i| format!("line {i}")).collect();
        let text = lines.join("\n");
        let slices: Vec<Slice> = (0..1_000)
            .map(|i| create_slice(&text, 5 + i * 9, 9 + i * 9).expect("in range"))
            .collect();
        let edited = format!(
            "new\nlines\n{}",
            text.replace("line 5000\n", "line 5000 edited\n")
        );
        let mut resolver = Resolver::new(&edited);
        for s in &slices {
            assert!(
                matches!(
                    resolver.resolve(s),
                    Resolution::Moved { by: 2, .. } | Resolution::Reanchored { .. }
                ),
                "{s:?}"
            );
        }
        assert!(
            resolver.work < resolver.bound / 4,
            "{} of {}",
            resolver.work,
            resolver.bound
        );
    }

    /// Found by the fuzz target `slices_resolve_inside_the_file`: a range
    /// whose length overflowed the re-anchoring bound.
    #[test]
    fn a_huge_hand_written_range_is_no_panic() {
        let slice = Slice {
            start_line: 1,
            end_line: usize::MAX,
            content_hash: Some("0".repeat(64)),
            anchor_before: vec!["a".into()],
            anchor_after: vec!["c".into()],
            ..Slice::default()
        };
        // The anchors still enclose line 2: re-anchored there, in the file.
        assert_eq!(resolve("a\nb\nc\n", &slice).range(), Some((2, 2)));
    }

    const TEXT: &str = "a\nb\nc\nd\ne\nf\ng\n";

    #[test]
    fn create_stores_hash_and_anchors() {
        let s = create_slice(TEXT, 4, 5).unwrap();
        assert_eq!(s.anchor_before, ["a", "b", "c"]);
        assert_eq!(s.anchor_after, ["f", "g"]);
        assert_eq!(
            s.content_hash.as_deref(),
            Some(sha256_hex(b"d\ne").as_str())
        );
        assert!(create_slice(TEXT, 0, 1).is_none());
        assert!(create_slice(TEXT, 3, 9).is_none());
    }

    #[test]
    fn kept_moved_stale() {
        let s = create_slice(TEXT, 4, 5).unwrap();
        assert_eq!(resolve(TEXT, &s), Resolution::Kept { start: 4, end: 5 });
        assert_eq!(
            resolve("x\ny\na\nb\nc\nd\ne\nf\ng\n", &s),
            Resolution::Moved {
                start: 6,
                end: 7,
                by: 2
            }
        );
        assert!(matches!(
            resolve("a\nb\nc\nD\ne\n", &s),
            Resolution::Stale { .. }
        ));
        assert!(matches!(
            resolve("d\ne\nd\ne\n", &s),
            Resolution::Stale { .. }
        ));
    }

    #[test]
    fn anchors_find_an_edited_or_duplicated_slice() {
        let s = create_slice(TEXT, 4, 5).unwrap();
        // Edited inside, lines added above: the span between the anchors.
        assert_eq!(
            resolve("new\na\nb\nc\nD\nE\nX\nf\ng\n", &s),
            Resolution::Reanchored { start: 5, end: 7 }
        );
        // The text occurs twice; the anchors pick the right one.
        assert_eq!(
            resolve("d\ne\na\nb\nc\nd\ne\nf\ng\n", &s),
            Resolution::Moved {
                start: 6,
                end: 7,
                by: 2
            }
        );
        // Deleted: the anchors are adjacent.
        let r = resolve("a\nb\nc\nf\ng\n", &s);
        assert!(
            matches!(&r, Resolution::Stale { reason } if reason.contains("deleted")),
            "{r:?}"
        );
        // A slice at the start of the file has no before-anchor.
        let s = create_slice(TEXT, 1, 2).unwrap();
        assert_eq!(
            resolve("A\nB\nB2\nc\nd\ne\n", &s),
            Resolution::Reanchored { start: 1, end: 3 }
        );
    }

    /// The rolling search finds exactly what hashing every window finds,
    /// on texts full of repeated lines (many equal windows, many equal
    /// line hashes).
    #[test]
    fn the_fingerprint_search_agrees_with_hashing_every_window() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..400 {
            let make = |next: &mut dyn FnMut(u64) -> u64| -> String {
                (0..next(30) + 1)
                    .map(|_| ["a", "b", "c", "", "  x"][next(5) as usize])
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let before = make(&mut next);
            let after = make(&mut next);
            let n = before.lines().count();
            if n == 0 {
                continue;
            }
            let start = next(n as u64) as usize + 1;
            let end = (start + next(4) as usize).min(n);
            let Some(with) = create_slice(&before, start, end) else {
                continue;
            };
            let without = Slice {
                fingerprint: None,
                ..with.clone()
            };
            assert_eq!(
                resolve(&after, &with),
                resolve(&after, &without),
                "{before:?} -> {after:?}, lines {start}-{end}"
            );
        }
    }

    #[test]
    fn a_moved_slice_is_found_by_its_fingerprint_in_a_large_file() {
        let lines: Vec<String> = (0..20_000).map(|i| format!("line {i}")).collect();
        let text = lines.join("\n");
        let s = create_slice(&text, 100, 2_099).unwrap();
        assert_eq!(s.fingerprint.as_deref().map(str::len), Some(16));
        // 500 lines inserted above, the anchors edited away.
        let mut moved: Vec<String> = (0..500).map(|i| format!("new {i}")).collect();
        moved.extend(lines[..96].iter().cloned());
        moved.push("edited anchor".into());
        moved.extend(lines[99..2_099].iter().cloned());
        moved.push("edited anchor".into());
        moved.extend(lines[2_102..].iter().cloned());
        assert_eq!(
            resolve(&moved.join("\n"), &s),
            Resolution::Moved {
                start: 598,
                end: 2_597,
                by: 498
            }
        );
    }

    /// The fingerprint comes from the project file: a wrong or hostile one
    /// hides the slice at worst, and never selects wrong lines.
    #[test]
    fn a_hostile_fingerprint_never_selects_wrong_lines() {
        let s = create_slice(TEXT, 4, 5).unwrap();
        for f in ["zz", "", "0000000000000000", "ffffffffffffffffff", "-1"] {
            let hostile = Slice {
                fingerprint: Some(f.into()),
                ..s.clone()
            };
            let r = resolve("x\ny\nd\ne\n", &hostile);
            assert!(
                matches!(
                    r,
                    Resolution::Stale { .. }
                        | Resolution::Moved {
                            start: 3,
                            end: 4,
                            ..
                        }
                ),
                "{f}: {r:?}"
            );
        }
        // A fingerprint that every window matches (all lines equal), with a
        // content hash no window has: bounded work, stale.
        let same = vec!["same"; 50_000].join("\n");
        let all = Slice {
            start_line: 1,
            end_line: 1_000,
            content_hash: Some("0".repeat(64)),
            fingerprint: Some(format!("{:016x}", fingerprint_of(&vec!["same"; 1_000]))),
            ..Slice::default()
        };
        assert!(matches!(resolve(&same, &all), Resolution::Stale { .. }));
    }

    /// A hand-written slice without a fingerprint, long, in a long file,
    /// with long anchors matching nothing: stale without hashing every
    /// window (it took seconds a slice; sweep round 10).
    #[test]
    fn a_long_slice_without_a_fingerprint_is_not_searched_past_a_bound() {
        let text: String = (0..50_000).map(|i| format!("line {i}\n")).collect();
        let slice = Slice {
            start_line: 1,
            end_line: 40_000,
            content_hash: Some("deadbeef".into()),
            anchor_before: (0..5_000).map(|i| format!("nomatch {i}")).collect(),
            anchor_after: vec!["nomatch".into(); 5_000],
            ..Slice::default()
        };
        assert!(matches!(resolve(&text, &slice), Resolution::Stale { .. }));
        // Within the bound a slice without fingerprint is still found.
        let small: String = (0..2_000).map(|i| format!("line {i}\n")).collect();
        let lines: Vec<&str> = small.lines().collect();
        let hash = hash_lines(&lines[100..110]);
        let slice = Slice {
            start_line: 1,
            end_line: 10,
            content_hash: Some(hash),
            ..Slice::default()
        };
        assert!(matches!(
            resolve(&small, &slice),
            Resolution::Moved { start: 101, .. }
        ));
    }

    #[test]
    fn unhashed_slice_checks_range_only() {
        let s = Slice {
            start_line: 2,
            end_line: 9,
            ..Slice::default()
        };
        assert!(matches!(resolve(TEXT, &s), Resolution::Stale { .. }));
        let s = Slice {
            start_line: 2,
            end_line: 3,
            ..Slice::default()
        };
        assert_eq!(resolve(TEXT, &s), Resolution::Kept { start: 2, end: 3 });
    }
}
