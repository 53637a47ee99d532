//! The repo map (docs/ARCHITECTURE.md, "Discovery"): the project's files in
//! rank order, as many as fit with a compact outline of their most used
//! symbols, the rest as bare paths.
//!
//! Like aider's map, it ranks symbols, not files: a symbol weighs more the
//! more other files name it ([`references`]) and the higher its file ranks
//! (the import graph puts the targets' imports first; a file they do not
//! reach weighs a fifth), and a file's second
//! symbol weighs half its first, its third a third, so a bigger budget
//! outlines more files before it deepens the top ones; a file's bare path
//! is a line of its own in that ranking, worth a fifth of its best symbol.
//! Its size is found by
//! binary search over how many of the ranked lines are shown and then how
//! many more files are listed as bare paths, counting the exact tokens of
//! every candidate, so the map never exceeds its budget and stops only
//! where one more line would not fit.

mod outline;
mod references;

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write;

use rayon::prelude::*;

use crate::core::discovery::graph::Ranked;
use crate::core::model::TokenizerKind;
use crate::core::sources::Codebase;
use crate::core::syntax::Lang;
use crate::core::tokens;
use crate::text::sanitize::escape_line;

use outline::Entry;
pub use references::Naming;
use references::References;

/// The heading of the map section.
pub const HEADING: &str = "## Repo Map";
/// At most this many outline lines per file.
const MAX_OUTLINE_LINES: usize = 30;
/// An outlined file costs at least this many tokens (its path and one
/// symbol line), which bounds how many files a budget can outline, and so
/// how many get parsed.
const MIN_OUTLINED_TOKENS: usize = 6;
/// The weight of a file the targets do not reach, against 1 for one they
/// do: its most used symbol still shows once the reached files have theirs.
const UNREACHED_WEIGHT: f64 = 0.2;
/// What listing a file's bare path is worth against its best symbol
/// (weight 1 for a name no other file uses).
const PATH_WORTH: f64 = 0.5;

/// A sized repo map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RepoMap {
    /// The section, heading included; empty when not even the heading fits.
    pub text: String,
    /// Exact tokens of `text`.
    pub tokens: usize,
    /// Files shown with an outline: the files the map covers.
    pub outlined: usize,
    /// Files listed, outlined ones included.
    pub listed: usize,
    /// Files that could have been listed.
    pub candidates: usize,
    /// Why files the budget could outline were listed by path only (the
    /// source bound), for the map's notes.
    pub note: Option<String>,
}

/// The most source the map parses for its outlines in one build: 240
/// files of 900 KB took `map` three minutes and 4.7 GB (recheck 17,
/// F17-8), every window file parsed and all its symbols ranked. The
/// files past it are listed by path; ordinary windows (a few hundred
/// files of tens of KB) stay well under it.
pub const MAX_OUTLINED_SOURCE: u64 = 16 << 20;

/// The map of `ranked` (minus `skip`) that best fills `budget` tokens,
/// the outlines read from `codebase`.
pub fn build(
    codebase: &Codebase,
    ranked: &[Ranked],
    skip: &HashSet<&str>,
    budget: usize,
    tokenizer: TokenizerKind,
) -> RepoMap {
    build_with(
        codebase,
        ranked,
        skip,
        budget,
        tokenizer,
        &Naming::default(),
    )
}

/// [`build`] with the counts of names `naming` kept from earlier maps of
/// the same `ranked` (a pack sizes its map several times).
pub fn build_with(
    codebase: &Codebase,
    ranked: &[Ranked],
    skip: &HashSet<&str>,
    budget: usize,
    tokenizer: TokenizerKind,
    naming: &Naming,
) -> RepoMap {
    let kept: Vec<&Ranked> = ranked
        .iter()
        .filter(|r| !skip.contains(r.path.as_str()))
        .collect();
    let files: Vec<&str> = kept.iter().map(|r| r.path.as_str()).collect();
    let wanted = files.len().min(budget / MIN_OUTLINED_TOKENS + 1);
    let window = within_source_bound(codebase, &files[..wanted]);
    // Each outline parses its file (cached per content): on every core.
    let outlines: Vec<Vec<Entry>> = files[..window]
        .par_iter()
        .map(|path| file_outline(codebase, path))
        .collect();
    let refs = if outlines.iter().all(Vec::is_empty) {
        References::default()
    } else {
        let all: Vec<&str> = ranked.iter().map(|r| r.path.as_str()).collect();
        References::count(codebase, &all, skip, &outlines, naming)
    };
    let picks = ranked_lines(&outlines, &file_weights(&kept[..window]), &refs);
    let mut map = Sizer {
        files: &files,
        outlines: &outlines,
        picks: &picks,
        tokenizer,
        budget,
    }
    .fit();
    if window < wanted {
        map.note = Some(format!(
            "the repo map outlined its first {window} files ({} MiB of source, the most it parses); \
             {} more that its budget could outline are listed by path",
            MAX_OUTLINED_SOURCE >> 20,
            wanted - window
        ));
    }
    map
}

/// How many of `files` (in rank order) are outlined: up to
/// [`MAX_OUTLINED_SOURCE`] bytes of them, the first always.
fn within_source_bound(codebase: &Codebase, files: &[&str]) -> usize {
    let mut total = 0u64;
    for (i, path) in files.iter().enumerate() {
        let bytes = source_bytes(codebase, path);
        total = total.saturating_add(bytes);
        if total > MAX_OUTLINED_SOURCE && i > 0 {
            return i;
        }
    }
    files.len()
}

/// The size of `path` on disk, as the source bounds count it (0 when it
/// cannot be looked at: reading it will say why).
pub(crate) fn source_bytes(codebase: &Codebase, path: &str) -> u64 {
    std::fs::symlink_metadata(codebase.root.join(path)).map_or(0, |m| m.len())
}

/// A file's weight by its place in the ranking (the square root of it, so
/// the tenth file weighs a third of the first), and less for a file the
/// targets do not reach through imports (a personalized rank of 0 where
/// others have more): the map prefers what the targets use.
fn file_weights(ranked: &[&Ranked]) -> Vec<f64> {
    let any_reached = ranked.iter().any(|r| r.score > 0.0);
    ranked
        .iter()
        .enumerate()
        .map(|(place, r)| {
            let reach = if any_reached && r.score <= 0.0 {
                UNREACHED_WEIGHT
            } else {
                1.0
            };
            reach / ((1 + place) as f64).sqrt()
        })
        .collect()
}

/// The outline of a code file (none for prose or a file without a grammar).
fn file_outline(codebase: &Codebase, path: &str) -> Vec<Entry> {
    if !Lang::from_path(path).is_some_and(Lang::is_code) {
        return Vec::new();
    }
    let Codebase { root, sources, .. } = *codebase;
    sources
        .derived(root, path, "repo-map-outline-v2", |tree| {
            outline::encode(&outline::entries(&tree.symbols))
        })
        .map(|text| outline::decode(&text))
        .unwrap_or_default()
}

/// Every line the map could show, best first: a symbol as (file,
/// `Some(entry)`), weighing its references divided by its place among its
/// file's entries (best first) and times its file's weight
/// ([`file_weights`]); a file's bare path as (file, `None`), weighing
/// [`PATH_WORTH`] times its file's weight, so a low file is listed before a
/// top file's tenth symbol. Ties go by file rank, then source order, so the
/// map is the same on every run.
fn ranked_lines(
    outlines: &[Vec<Entry>],
    file_weights: &[f64],
    refs: &References,
) -> Vec<(usize, Option<usize>)> {
    let mut scored: Vec<(f64, usize, Option<usize>)> = Vec::new();
    for (f, entries) in outlines.iter().enumerate() {
        let mut own: Vec<(f64, usize)> = entries
            .iter()
            .enumerate()
            .map(|(e, entry)| (refs.weight(&entry.name), e))
            .collect();
        own.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let file_weight = file_weights.get(f).copied().unwrap_or(0.0);
        scored.push((PATH_WORTH * file_weight, f, None));
        for (place, (weight, e)) in own.into_iter().take(MAX_OUTLINE_LINES).enumerate() {
            scored.push((weight * file_weight / (1 + place) as f64, f, Some(e)));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    scored.into_iter().map(|(_, f, e)| (f, e)).collect()
}

struct Sizer<'a> {
    files: &'a [&'a str],
    /// The outlines of the first files, as far as the budget could reach.
    outlines: &'a [Vec<Entry>],
    /// Outline lines and bare paths, best first.
    picks: &'a [(usize, Option<usize>)],
    tokenizer: TokenizerKind,
    budget: usize,
}

impl Sizer<'_> {
    fn fit(&self) -> RepoMap {
        let n = self.files.len();
        let empty = self.measure(0, 0);
        if empty.tokens > self.budget || n == 0 {
            return RepoMap {
                candidates: n,
                ..RepoMap::default()
            };
        }
        // Ranked lines first: gallop to an upper bound, then bisect.
        let fits = |k: usize| self.measure(k, 0).tokens <= self.budget;
        let total = self.picks.len();
        let mut lo = 0; // fits
        let mut hi = 1; // first size not known to fit
        while hi <= total && fits(hi) {
            lo = hi;
            hi *= 2;
        }
        let mut hi = hi.min(total + 1);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let k = lo;
        // Then bare paths of the files not listed yet. Every line is at least
        // one token, which bounds the search.
        let rest = n - self.measure(k, 0).listed;
        let mut m = 0;
        let mut over = rest.min(self.budget) + 1;
        while over - m > 1 {
            let mid = m + (over - m) / 2;
            if self.measure(k, mid).tokens <= self.budget {
                m = mid;
            } else {
                over = mid;
            }
        }
        let map = self.measure(k, m);
        if map.listed == 0 {
            // A heading over no files helps nobody.
            return RepoMap {
                candidates: n,
                ..RepoMap::default()
            };
        }
        map
    }

    /// The map showing the best `k` lines (and the parents of the children
    /// among them), with `m` more files listed as bare paths.
    fn measure(&self, k: usize, m: usize) -> RepoMap {
        let mut shown: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); self.outlines.len()];
        let mut named = vec![false; self.outlines.len()];
        for &(f, e) in &self.picks[..k.min(self.picks.len())] {
            named[f] = true;
            let Some(e) = e else { continue };
            shown[f].insert(e);
            if let Some(parent) = parent_of(&self.outlines[f], e) {
                shown[f].insert(parent);
            }
        }
        let mut body = String::new();
        let (mut outlined, mut listed, mut bare) = (0, 0, 0);
        for (i, path) in self.files.iter().enumerate() {
            let lines = shown.get(i).filter(|s| !s.is_empty());
            if !named.get(i).copied().unwrap_or(false) {
                if bare == m {
                    continue;
                }
                bare += 1;
            }
            listed += 1;
            body.push('\n');
            // A name with a newline must not forge a line of the map.
            body.push_str(&escape_line(path));
            if let Some(lines) = lines {
                outlined += 1;
                for &e in lines {
                    let entry = &self.outlines[i][e];
                    let indent = if entry.depth == 0 { "  " } else { "    " };
                    let _ = write!(body, "\n{indent}{}", entry.text);
                }
            }
        }
        let mut text = format!(
            "{HEADING}\n\nProject files ranked by relevance \
             ({outlined} with outlines, {listed} of {} listed):\n{body}\n",
            self.files.len()
        );
        text.shrink_to_fit();
        RepoMap {
            tokens: tokens::count(self.tokenizer, &text),
            text,
            outlined,
            listed,
            candidates: self.files.len(),
            note: None,
        }
    }
}

/// The top-level entry a child entry sits under.
fn parent_of(entries: &[Entry], e: usize) -> Option<usize> {
    if entries.get(e)?.depth == 0 {
        return None;
    }
    entries[..e].iter().rposition(|p| p.depth == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sources::Sources;

    fn ranked(paths: &[&str]) -> Vec<Ranked> {
        paths
            .iter()
            .map(|p| Ranked {
                path: p.to_string(),
                score: 0.0,
            })
            .collect()
    }

    fn write(dir: &tempfile::TempDir, files: &[(&str, &str)]) {
        for (path, body) in files {
            std::fs::write(dir.path().join(path), body).unwrap();
        }
    }

    fn map_of(dir: &tempfile::TempDir, paths: &[&str], budget: usize) -> RepoMap {
        let sources = Sources::new();
        build(
            &Codebase::new(dir.path(), &sources),
            &ranked(paths),
            &HashSet::new(),
            budget,
            TokenizerKind::O200k,
        )
    }

    fn project() -> (tempfile::TempDir, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..40 {
            let body: String = (0..5)
                .map(|j| format!("def function_{i}_{j}(a, b):\n    return a + b\n\n"))
                .collect();
            std::fs::write(dir.path().join(format!("m{i:02}.py")), body).unwrap();
        }
        (dir, (0..40).map(|i| format!("m{i:02}.py")).collect())
    }

    /// Past [`MAX_OUTLINED_SOURCE`] bytes of source the files the budget
    /// could outline are listed by path, with a note (240 files of 900 KB
    /// took `map` three minutes, recheck 17 F17-8). A large file of prose
    /// ranked first (no parse) uses up the bound here.
    #[test]
    fn past_the_source_bound_files_are_listed_by_path_with_a_note() {
        let (dir, names) = project();
        let big = "word ".repeat((MAX_OUTLINED_SOURCE as usize) / 5 + 1);
        write(&dir, &[("big.txt", &big)]);
        let mut refs: Vec<&str> = vec!["big.txt"];
        refs.extend(names.iter().map(String::as_str));
        let map = map_of(&dir, &refs, 5000);
        assert!(!map.text.contains("function_0_0"), "{}", map.text);
        assert!(map.text.contains("m00.py"), "{}", map.text);
        assert_eq!(
            map.note.as_deref(),
            Some(
                "the repo map outlined its first 1 files (16 MiB of source, the most it parses); \
                 40 more that its budget could outline are listed by path"
            )
        );
        let map = map_of(&dir, &refs[1..], 5000);
        assert!(map.text.contains("function_0_0") && map.note.is_none());
    }

    #[test]
    fn never_over_and_tight() {
        let (dir, names) = project();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        for budget in [0, 10, 40, 100, 333, 1000, 5000] {
            let map = map_of(&dir, &refs, budget);
            assert!(map.tokens <= budget, "{budget}: {}", map.tokens);
            assert_eq!(map.tokens, tokens::count(TokenizerKind::O200k, &map.text));
            if map.listed > 0 && !map.text.contains("function_39_4") {
                // One more line (at most a path and a signature) would not fit.
                assert!(map.tokens + 20 > budget, "{budget}: {}", map.tokens);
            }
        }
        let all = map_of(&dir, &refs, 100_000);
        assert_eq!((all.outlined, all.listed), (40, 40));
        assert!(all.text.contains("m00.py\n  def function_0_0(a, b)\n"));
    }

    #[test]
    fn coverage_grows_with_the_budget_breadth_first() {
        let (dir, names) = project();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let covered: Vec<usize> = [100, 200, 400, 800]
            .iter()
            .map(|&b| map_of(&dir, &refs, b).outlined)
            .collect();
        assert!(covered.windows(2).all(|w| w[0] < w[1]), "{covered:?}");
        // Every file's first symbol comes before the second one of a file
        // halfway down, and before the top file's last.
        let map = (800..2000)
            .step_by(20)
            .map(|b| map_of(&dir, &refs, b))
            .find(|m| m.outlined == 40)
            .unwrap();
        assert!(map.text.contains("m39.py\n  def function_39_0(a, b)\n"));
        assert!(!map.text.contains("function_20_1"), "{}", map.text);
        assert!(map.text.contains("function_0_1"), "{}", map.text);
    }

    #[test]
    fn maps_that_share_their_counts_are_the_maps_made_alone() {
        // A pack sizes several maps of one ranking, skipping other files
        // each time: the counts kept between them take the skipped files
        // off, so each map is the one a fresh count would make. `beta` is
        // used by three files, `alpha` by two; skip beta's users and alpha
        // is the name worth showing.
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir,
            &[
                (
                    "lib.py",
                    "def alpha(x):\n    return x\n\ndef beta(x):\n    return x\n",
                ),
                ("a1.py", "alpha(1)\n"),
                ("a2.py", "alpha(2)\n"),
                ("b1.py", "beta(1)\n"),
                ("b2.py", "beta(2)\n"),
                ("b3.py", "beta(3)\n"),
            ],
        );
        let paths = ["lib.py", "a1.py", "a2.py", "b1.py", "b2.py", "b3.py"];
        let sources = Sources::new();
        let codebase = Codebase::new(dir.path(), &sources);
        let naming = Naming::default();
        let smallest = |skip: &HashSet<&str>, shared: bool| {
            (1..200)
                .map(|b| {
                    if shared {
                        build_with(
                            &codebase,
                            &ranked(&paths),
                            skip,
                            b,
                            TokenizerKind::O200k,
                            &naming,
                        )
                    } else {
                        build(&codebase, &ranked(&paths), skip, b, TokenizerKind::O200k)
                    }
                })
                .find(|m| m.outlined > 0)
                .unwrap()
        };
        let none = HashSet::new();
        let first = smallest(&none, true);
        assert!(first.text.contains("def beta(x)"), "{}", first.text);
        assert_eq!(first, smallest(&none, false));
        let users: HashSet<&str> = ["b1.py", "b2.py", "b3.py"].into();
        let later = smallest(&users, true);
        assert!(later.text.contains("def alpha(x)"), "{}", later.text);
        assert_eq!(later, smallest(&users, false));
    }

    #[test]
    fn a_referenced_symbol_outranks_an_unreferenced_one() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir,
            &[
                (
                    "lib.py",
                    "class Table:\n    def __repr__(self):\n        pass\n    def render(self):\n        pass\n\n\
                     def unused_helper():\n    pass\n\ndef build_table():\n    pass\n",
                ),
                (
                    "app.py",
                    "from lib import build_table\nbuild_table().render()\n",
                ),
                ("cli.py", "import lib\nlib.build_table()\n"),
            ],
        );
        let paths = ["lib.py", "app.py", "cli.py"];
        let full = map_of(&dir, &paths, 10_000);
        assert!(full.text.contains("def unused_helper()"), "{}", full.text);
        // The smallest map that outlines anything shows the most used name.
        let small = (1..400)
            .map(|b| map_of(&dir, &paths, b))
            .find(|m| m.outlined > 0)
            .unwrap();
        assert!(
            small.text.contains("lib.py\n  def build_table()\n"),
            "{}",
            small.text
        );
        // `render` (used) comes before `__repr__` (a dunder nobody names).
        let some = (1..400)
            .map(|b| map_of(&dir, &paths, b))
            .find(|m| m.text.contains("def render"))
            .unwrap();
        assert!(!some.text.contains("__repr__"), "{}", some.text);
        assert!(!some.text.contains("unused_helper"), "{}", some.text);
        assert!(
            some.text.contains("  class Table\n    def render(self)"),
            "{}",
            some.text
        );
    }

    #[test]
    fn defining_a_name_is_not_using_it() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir,
            &[
                (
                    "lib.py",
                    "def render():\n    pass\n\ndef called():\n    pass\n",
                ),
                ("other.py", "def render():\n    pass\n"),
                ("app.py", "from lib import called\ncalled()\n"),
            ],
        );
        let paths = ["lib.py", "other.py", "app.py"];
        let small = (1..400)
            .map(|b| map_of(&dir, &paths, b))
            .find(|m| m.outlined > 0)
            .unwrap();
        assert!(
            small.text.contains("lib.py\n  def called()\n"),
            "{}",
            small.text
        );
        assert!(!small.text.contains("render"), "{}", small.text);
    }

    #[test]
    fn files_the_targets_do_not_reach_weigh_less() {
        let r = |path: &str, score: f64| Ranked {
            path: path.into(),
            score,
        };
        let (a, b, c) = (r("a", 0.5), r("b", 0.1), r("c", 0.0));
        assert_eq!(
            file_weights(&[&a, &b, &c]),
            vec![1.0, 1.0 / 2f64.sqrt(), UNREACHED_WEIGHT / 3f64.sqrt()]
        );
        // No targets (no scores): the ranking alone.
        let (a, b) = (r("a", 0.0), r("b", 0.0));
        assert_eq!(file_weights(&[&a, &b]), vec![1.0, 1.0 / 2f64.sqrt()]);
    }

    #[test]
    fn preprocessor_variants_are_one_entry() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir,
            &[(
                "port.h",
                "#if defined(A)\n#define MY_INLINE inline\n#elif defined(B)\n#define MY_INLINE __forceinline\n\
                 #elif defined(C)\n#define MY_INLINE static\n#else\n#define MY_INLINE\n#endif\n\
                 int reader_init(void);\n",
            )],
        );
        let map = map_of(&dir, &["port.h"], 1000);
        assert_eq!(map.text.matches("MY_INLINE").count(), 1, "{}", map.text);
        // The C pre-pass drops the empty `#else` one.
        assert!(map.text.contains("(3 definitions)"), "{}", map.text);
        assert!(map.text.contains("reader_init"), "{}", map.text);
    }

    #[test]
    fn prose_is_listed_not_outlined() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir,
            &[
                ("README.md", "# Title\n\n## Usage\n\ntext\n"),
                ("a.py", "def run():\n    pass\n"),
            ],
        );
        let map = map_of(&dir, &["README.md", "a.py"], 1000);
        assert_eq!((map.outlined, map.listed), (1, 2), "{}", map.text);
        assert!(
            map.text.contains("\nREADME.md\na.py\n  def run()\n"),
            "{}",
            map.text
        );
    }

    #[test]
    fn skipped_files_are_not_listed() {
        let (dir, _) = project();
        let sources = Sources::new();
        let skip: HashSet<&str> = ["m00.py"].into_iter().collect();
        let map = build(
            &Codebase::new(dir.path(), &sources),
            &ranked(&["m00.py", "m01.py"]),
            &skip,
            1000,
            TokenizerKind::O200k,
        );
        assert!(!map.text.contains("m00.py"));
        assert!(map.text.contains("m01.py"));
        assert_eq!(map.candidates, 1);
    }
}
