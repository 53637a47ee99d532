//! How relevant every file of the project is to a task (a task is a seed,
//! like a target; docs/ARCHITECTURE.md, "Discovery"), as a search engine
//! ranks documents: a score that is a sum of named parts, each explainable.
//!
//! - **Lexical**: BM25F of the task's terms (`terms`) against each file's
//!   path, the names it defines and its text (`index`, cached by content
//!   hash), so rare words weigh more than common ones and a word in a
//!   file's name more than one in its body. Tests, benchmarks, examples,
//!   fixtures, generated, vendored, documentation and data files keep a
//!   share of it (`class`) unless the task speaks of their kind.
//! - **Mentions**: the paths, scopes, modules and identifiers the task names
//!   (`mentions`), each worth less the more files it matches.
//! - **Graph**: the best files pass a share of their score to the files
//!   they import and that import them.
//!
//! The result ranks every scored file; packing takes them best first, and
//! each pick says why ([`Why::reasons`]).

mod class;
mod index;
pub mod terms;

use std::collections::{BTreeMap, HashMap, HashSet};

use rayon::prelude::*;
use serde::Serialize;

use crate::core::discovery::graph::ImportGraph;
use crate::core::discovery::mentions::{Mention, MentionKind, is_path_word};
use crate::core::model::MaskState;
use crate::core::sources::Codebase;

pub use class::{FileClass, classify};

/// BM25's term-frequency saturation and length normalisation.
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// How much a term found in a file's path, or among the names it defines,
/// counts against one found in its text.
const PATH_WEIGHT: f64 = 3.0;
const DEF_WEIGHT: f64 = 2.0;
/// What a mention adds, in units of the best lexical score: a path named
/// outright, a module, a commit scope, an identifier the file defines
/// (each but the path divided among the files it matches).
const PATH_MENTION: f64 = 1.5;
const MODULE_MENTION: f64 = 1.2;
const SCOPE_MENTION: f64 = 0.8;
const IDENT_MENTION: f64 = 0.6;
/// The share of its score each of the best files passes along its edges,
/// and how many of the best files pass it.
const SPREAD: f64 = 0.25;
const SPREADERS: usize = 12;
/// Files scoring under this share of the best are not worth a candidate.
pub const CUTOFF: f64 = 0.04;

/// The task as terms, each with its weight (how often the task says it)
/// and its inverse document frequency over the project.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub terms: Vec<String>,
    /// Each term as the task first wrote it (lowercased, unstemmed).
    shown: Vec<String>,
    weights: Vec<f64>,
    idf: Vec<f64>,
    /// The classes of files the task's title speaks of (tests, docs, …).
    speaks_of: Vec<FileClass>,
    /// The classes only the rest of the task names.
    mentions_of: Vec<FileClass>,
}

impl Query {
    /// The terms of `task` (commit trailers and links left out).
    pub fn new(task: &str) -> Self {
        let text: String = task
            .lines()
            .filter(|l| !is_trailer(l))
            .map(without_links)
            .collect::<Vec<_>>()
            .join("\n");
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut order = Vec::new();
        let mut shown = Vec::new();
        terms::for_each_written(&without_extensions(&text), |t, written| {
            let n = counts.entry(t.to_string()).or_default();
            if *n == 0 {
                order.push(t.to_string());
                shown.push(written.to_string());
            }
            *n += 1;
        });
        let weights = order
            .iter()
            .map(|t| 1.0 + 0.5 * (counts[t].min(3) as f64 - 1.0))
            .collect();
        // The title (the first line) says what the task is about; the
        // rest explains it, and a kind it names there (`a test case was
        // missing`) ranks only partway up.
        let (title, body) = text.trim_start().split_once('\n').unwrap_or((&text, ""));
        let speaks_of = spoken_kinds(title);
        let mentions_of = spoken_kinds(body)
            .into_iter()
            .filter(|c| !speaks_of.contains(c))
            .collect();
        Query {
            idf: vec![0.0; order.len()],
            terms: order,
            shown,
            weights,
            speaks_of,
            mentions_of,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// What a term weighs in this query over this project (0: not asked).
    pub fn weight_of(&self, term: &str) -> f64 {
        self.terms
            .iter()
            .position(|t| t == term)
            .map_or(0.0, |i| self.weights[i] * self.idf[i])
    }

    /// The share of its lexical score a file of `class` keeps.
    pub fn class_weight(&self, class: FileClass) -> f64 {
        if self.speaks_of.contains(&class) {
            1.0
        } else if self.mentions_of.contains(&class) {
            (1.0 + class.weight()) / 2.0
        } else {
            class.weight()
        }
    }
}

/// The kinds of files `text` speaks of, in words: not by a path it names
/// (`Update context_test.go` speaks of one file, not of tests).
fn spoken_kinds(text: &str) -> Vec<FileClass> {
    let mut spoken = HashSet::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| !(c.is_alphanumeric() || "_/.".contains(c)));
        if !is_path_word(word) {
            terms::for_each_term(word, |t| {
                spoken.insert(t.to_string());
            });
        }
    }
    [
        FileClass::Test,
        FileClass::Bench,
        FileClass::Example,
        FileClass::Fixture,
        FileClass::Generated,
        FileClass::Vendored,
        FileClass::Doc,
        FileClass::Data,
    ]
    .into_iter()
    .filter(|c| c.words().iter().any(|w| spoken.contains(*w)))
    .collect()
}

/// `line` without its links: the words of `https://github.com/owner/repo/pull/7`
/// (the host, the owner, the project's name) say where, not what.
fn without_links(line: &str) -> String {
    line.split_whitespace()
        .filter(|w| {
            !w.contains("://") && !w.trim_start_matches(['(', '<', '[']).starts_with("www.")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` with each path's extension dropped: `tree.go` speaks of the
/// tree, and `go` would match every Go file's text.
fn without_extensions(text: &str) -> String {
    text.lines()
        .map(|l| {
            l.split_whitespace()
                .map(without_extension)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `word` (a path such as `tree.go:42`, `` `App.tsx` ``) without its
/// extension; any other word as it is.
fn without_extension(word: &str) -> String {
    let core = word
        .trim_start_matches(|c: char| !(c.is_alphanumeric() || "_/.".contains(c)))
        .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
    // `tree.go:42:7`: the line and column are no part of the path.
    let path = core.split(':').next().unwrap_or(core);
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && is_path_word(path) =>
        {
            word.replacen(&format!("{stem}.{ext}"), stem, 1)
        }
        _ => word.to_string(),
    }
}

/// `Signed-off-by:`, `Co-authored-by:`, a bare link: not the task.
fn is_trailer(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    l.starts_with("signed-off-by:")
        || l.starts_with("co-authored-by:")
        || l.starts_with("reviewed-by:")
        || l.starts_with("change-id:")
        || l.starts_with("(cherry picked")
        || (l.starts_with("http") && !l.contains(' '))
}

/// Why a file ranks where it does: the parts of its score and what made
/// them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Why {
    pub score: f64,
    pub lexical: f64,
    pub mentioned: f64,
    pub graph: f64,
    /// The task's words found in the file, best first (as the task wrote
    /// them, lowercased).
    pub words: Vec<String>,
    /// The task's words found in its path.
    pub in_path: Vec<String>,
    /// The mentions that named it (`path`, `identifier` …: text).
    pub mentions: Vec<String>,
    /// The best file it is linked to, and how.
    pub neighbour: Option<String>,
    /// Its kind, when that ranked it lower.
    pub demoted: Option<&'static str>,
}

impl Why {
    /// The reasons as a person would say them.
    pub fn reasons(&self) -> Vec<String> {
        let mut out = Vec::new();
        for m in &self.mentions {
            out.push(format!("the task names {m}"));
        }
        if !self.in_path.is_empty() {
            out.push(format!("matched {} in its path", quoted(&self.in_path)));
        }
        let rest: Vec<String> = self
            .words
            .iter()
            .filter(|w| !self.in_path.contains(w))
            .cloned()
            .collect();
        if !rest.is_empty() {
            let n = rest.len();
            let shown: Vec<String> = rest.into_iter().take(SHOWN_WORDS).collect();
            let more = match n - shown.len() {
                0 => String::new(),
                m => format!(" and {m} more"),
            };
            out.push(format!(
                "{n} task {}: {}{more}",
                if n == 1 { "word" } else { "words" },
                quoted(&shown)
            ));
        }
        if let Some(n) = &self.neighbour {
            out.push(n.clone());
        }
        if let Some(kind) = self.demoted {
            out.push(format!("a {kind}, ranked below source"));
        }
        out.push(format!("score {:.2}", self.score));
        out
    }
}

/// How many of a file's task words its reasons name.
const SHOWN_WORDS: usize = 5;

fn quoted(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One scored file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scored {
    pub path: String,
    #[serde(flatten)]
    pub why: Why,
}

/// The project's files ranked for a task, best first (only files with a
/// score), with the query they were ranked for.
#[derive(Debug, Clone, Default)]
pub struct Relevance {
    pub files: Vec<Scored>,
    pub query: Query,
}

impl Relevance {
    /// The scored file at `path`.
    pub fn get(&self, path: &str) -> Option<&Scored> {
        self.files.iter().find(|s| s.path == path)
    }

    /// The files worth a candidate: at least [`CUTOFF`] of the best
    /// score, at most `limit` of them.
    pub fn candidates(&self, limit: usize) -> impl Iterator<Item = &Scored> {
        let best = self.files.first().map_or(0.0, |s| s.why.score);
        self.files
            .iter()
            .take_while(move |s| s.why.score >= best * CUTOFF && s.why.score > 0.0)
            .take(limit)
    }

    /// A mask that shows in full the symbols the task is about (a name
    /// sharing a weighty term with the task) among `symbols` (`path<TAB>name`
    /// lines, `Sources::symbol_names`); `None` when none is.
    pub fn task_mask(&self, symbols: &str) -> Option<BTreeMap<String, MaskState>> {
        self.task_focus(symbols, usize::MAX)
    }

    /// [`Self::task_mask`] of at most `most` symbols, the weightiest
    /// (the name sharing the most and rarest terms with the task), earlier
    /// in the file first among equals: the part of a file too large for
    /// even its outline that the task is most about.
    pub fn task_focus(&self, symbols: &str, most: usize) -> Option<BTreeMap<String, MaskState>> {
        if self.query.is_empty() {
            return None;
        }
        let best_idf = self.query.idf.iter().copied().fold(0.0, f64::max);
        let mut about: Vec<(&str, &str, f64)> = Vec::new();
        for (path, name) in symbols.lines().filter_map(|l| l.split_once('\t')) {
            let mut weight = 0.0;
            terms::for_each_term(name, |t| weight += self.query.weight_of(t));
            // A name made only of common words (`get`, `data`) is not
            // what the task is about.
            if weight > 0.0 && weight >= best_idf * 0.35 {
                about.push((path, name, weight));
            }
        }
        // A container holding a member the task is about too
        // (`ArgMatches::get_one`) is what the member is in, not the
        // subject: left to the mask's default, it shows the member in
        // full among signatures (or opens around it when the rest is
        // hidden), not every member in full.
        // Found by a search in the sorted paths, not by pairs: a generated
        // file may define thousands of names the task shares a word with.
        let mut paths: Vec<&str> = about.iter().map(|&(path, _, _)| path).collect();
        paths.sort_unstable();
        let holds_member = |outer: &str| {
            ["::", "."].iter().any(|sep| {
                let prefix = format!("{outer}{sep}");
                let at = paths.partition_point(|p| *p < prefix.as_str());
                paths.get(at).is_some_and(|p| p.starts_with(&prefix))
            })
        };
        let mut subjects: Vec<(&str, f64)> = about
            .iter()
            .filter(|&&(path, name, _)| !holds_member(path) && !holds_member(name))
            .map(|&(path, _, weight)| (path, weight))
            .collect();
        if subjects.len() > most {
            subjects.sort_by(|a, b| b.1.total_cmp(&a.1));
            subjects.truncate(most);
        }
        let mask: BTreeMap<String, MaskState> = subjects
            .into_iter()
            .map(|(path, _)| (path.to_string(), MaskState::Def))
            .collect();
        (!mask.is_empty()).then_some(mask)
    }
}

/// Rank `files` (the walked files discovery may use) for `task`, with
/// its `mentions` and the import graph.
pub fn rank(
    codebase: &Codebase,
    files: &[&str],
    task: &str,
    mentions: &[Mention],
    graph: &ImportGraph,
) -> Relevance {
    let mut query = Query::new(task);
    if query.is_empty() && mentions.iter().all(|m| m.files.is_empty()) {
        return Relevance {
            files: Vec::new(),
            query,
        };
    }
    let wanted: HashMap<&str, usize> = query
        .terms
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    let progress = codebase.sources.progress();
    progress.start("files ranked for the task", files.len());
    let counted: Vec<Option<(index::Counts, Vec<u32>)>> =
        index::counts(codebase, files, &query.terms)
            .into_par_iter()
            .zip(files)
            .map(|(counts, path)| {
                progress.step();
                Some((counts?, path_counts(path, &wanted, query.terms.len())))
            })
            .collect();
    let docs: Vec<(&str, index::Counts, Vec<u32>)> = files
        .iter()
        .zip(counted)
        .filter_map(|(p, c)| c.map(|(counts, path)| (*p, counts, path)))
        .collect();
    let n = docs.len() as f64;
    let mut df = vec![0usize; query.terms.len()];
    for (_, counts, path) in &docs {
        for (i, d) in df.iter_mut().enumerate() {
            if counts.body.contains_key(&i) || counts.defs.contains_key(&i) || path[i] > 0 {
                *d += 1;
            }
        }
    }
    query.idf = df
        .iter()
        .map(|&d| (1.0 + (n - d as f64 + 0.5) / (d as f64 + 0.5)).ln())
        .collect();
    let avg_len = (docs.iter().map(|(_, c, _)| c.len as f64).sum::<f64>() / n.max(1.0)).max(1.0);

    let mut scored: HashMap<&str, Why> = HashMap::new();
    for (path, counts, in_path) in &docs {
        let why = lexical(&query, counts, in_path, avg_len);
        if why.lexical > 0.0 {
            let class = classify(path);
            let mut why = why;
            let keep = query.class_weight(class);
            if keep < 1.0 {
                why.lexical *= keep;
                why.demoted = Some(class.noun());
            }
            scored.insert(path, why);
        }
    }
    let known: HashSet<&str> = files.iter().copied().collect();
    add_mentions(&mut scored, mentions, &known, &query);
    for why in scored.values_mut() {
        why.score = why.lexical + why.mentioned;
    }
    spread(&mut scored, graph, &known);
    let mut files: Vec<Scored> = scored
        .into_iter()
        .map(|(path, mut why)| {
            why.score = why.lexical + why.mentioned + why.graph;
            Scored {
                path: path.to_string(),
                why,
            }
        })
        .filter(|s| s.why.score > 0.0)
        .collect();
    files.sort_by(|a, b| {
        b.why
            .score
            .total_cmp(&a.why.score)
            .then_with(|| a.path.cmp(&b.path))
    });
    Relevance { files, query }
}

/// What the task's `mentions` add to the files they match (of the
/// `known` ones), in units of the best lexical score.
fn add_mentions<'a>(
    scored: &mut HashMap<&'a str, Why>,
    mentions: &[Mention],
    known: &HashSet<&'a str>,
    query: &Query,
) {
    let best_lexical = scored.values().map(|w| w.lexical).fold(0.0, f64::max);
    let unit = if best_lexical > 0.0 {
        best_lexical
    } else {
        1.0
    };
    for m in mentions {
        let matched: Vec<&String> = m
            .files
            .iter()
            .filter(|f| known.contains(f.as_str()))
            .collect();
        if matched.is_empty() {
            continue;
        }
        let (worth, label) = match m.kind {
            MentionKind::Path => (PATH_MENTION, "the path"),
            MentionKind::Module => (MODULE_MENTION / (matched.len() as f64).sqrt(), "the module"),
            MentionKind::Scope => (SCOPE_MENTION / (matched.len() as f64).sqrt(), "the scope"),
            MentionKind::Language => (
                MODULE_MENTION / (matched.len() as f64).sqrt(),
                "the language",
            ),
            MentionKind::Identifier => (
                IDENT_MENTION / (matched.len() as f64).sqrt(),
                "the identifier",
            ),
        };
        for f in matched {
            let Some(&path) = known.get(f.as_str()) else {
                continue;
            };
            let why = scored.entry(path).or_default();
            // An auxiliary file the task names by path is the user's
            // pick; by identifier it still ranks below the source.
            let keep = match m.kind {
                MentionKind::Path => 1.0,
                _ => query.class_weight(classify(path)),
            };
            why.mentioned += worth * unit * keep;
            why.mentions.push(format!("{label} `{}`", m.text));
        }
    }
}

/// How often each query term occurs in `path`: the file's own name counts
/// twice, its folders once.
fn path_counts(path: &str, wanted: &HashMap<&str, usize>, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    // The extension is no word of the name (`.go`, `.py`).
    let name = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    terms::for_each_term(name, |t| {
        if let Some(&i) = wanted.get(t) {
            out[i] += 2;
        }
    });
    terms::for_each_term(dirs, |t| {
        if let Some(&i) = wanted.get(t) {
            out[i] += 1;
        }
    });
    out
}

/// BM25F of one file: path, names defined and text, with the words that
/// matched.
fn lexical(query: &Query, counts: &index::Counts, in_path: &[u32], avg_len: f64) -> Why {
    let norm = 1.0 - B + B * counts.len as f64 / avg_len;
    let mut why = Why::default();
    let mut matched: Vec<(f64, usize)> = Vec::new();
    for (i, &path) in in_path.iter().enumerate().take(query.terms.len()) {
        let body = counts.body.get(&i).copied().unwrap_or(0) as f64;
        let defs = counts.defs.get(&i).copied().unwrap_or(0) as f64;
        let path = path as f64;
        // A long file's names are normalised with its text: a header that
        // declares everything matches everything.
        let tf = PATH_WEIGHT * path + (DEF_WEIGHT * defs + body) / norm;
        if tf <= 0.0 {
            continue;
        }
        let part = query.weights[i] * query.idf[i] * tf * (K1 + 1.0) / (K1 + tf);
        why.lexical += part;
        matched.push((part, i));
        if path > 0.0 {
            why.in_path.push(query.shown[i].clone());
        }
    }
    matched.sort_by(|a, b| b.0.total_cmp(&a.0));
    why.words = matched
        .into_iter()
        .map(|(_, i)| query.shown[i].clone())
        .collect();
    why
}

/// The best files pass [`SPREAD`] of their score to what they import and
/// what imports them, shared by edge weight; each file remembers the
/// best file that passed it most.
fn spread<'a>(scored: &mut HashMap<&'a str, Why>, graph: &ImportGraph, known: &HashSet<&'a str>) {
    if graph.is_empty() || scored.is_empty() {
        return;
    }
    let mut best: Vec<(&str, f64)> = scored.iter().map(|(p, w)| (*p, w.score)).collect();
    best.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    best.truncate(SPREADERS);
    let spreaders: HashMap<&str, f64> = best.iter().copied().collect();
    // (neighbour, weight, the spreader imports it?) per spreader.
    let mut links: HashMap<&str, Vec<(&str, f64, bool)>> = HashMap::new();
    for (from, to, w) in graph.edges() {
        if spreaders.contains_key(from) && from != to {
            links.entry(from).or_default().push((to, w, true));
        }
        if spreaders.contains_key(to) && from != to {
            links.entry(to).or_default().push((from, w, false));
        }
    }
    let mut passed: HashMap<&'a str, (f64, f64, String)> = HashMap::new();
    for (spreader, score) in best {
        let Some(list) = links.get(spreader) else {
            continue;
        };
        let total: f64 = list.iter().map(|(_, w, _)| w).sum();
        if total <= 0.0 {
            continue;
        }
        for (to, w, imported) in list {
            let Some(to): Option<&'a str> = known.get(*to).copied() else {
                continue;
            };
            let share = SPREAD * score * w / total;
            let entry = passed.entry(to).or_insert((0.0, 0.0, String::new()));
            entry.0 += share;
            if share > entry.1 {
                entry.1 = share;
                entry.2 = if *imported {
                    format!("imported by `{spreader}`")
                } else {
                    format!("imports `{spreader}`")
                };
            }
        }
    }
    for (path, (share, _, how)) in passed {
        let why = scored.entry(path).or_default();
        why.graph += share;
        if why.neighbour.is_none() && !how.is_empty() {
            why.neighbour = Some(how);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_mask_opens_a_container_for_the_member_the_task_names() {
        let relevance = |task: &str| {
            let mut query = Query::new(task);
            query.idf = vec![1.0; query.terms.len()];
            Relevance {
                files: Vec::new(),
                query,
            }
        };
        let symbols = "ArgMatches\tArgMatches\nimpl ArgMatches\tArgMatches\n\
                       ArgMatches::get_one\tget_one\nArgMatches::remove_many\tremove_many\n\
                       Color\tColor\n";
        // `ArgMatches::get_one`: the method in full, its type and impl
        // not (the rest of the impl as the mask's default: signatures,
        // or hidden around the method).
        let mask = relevance("ArgMatches::get_one panics").task_mask(symbols);
        assert_eq!(
            mask.expect("a mask").into_iter().collect::<Vec<_>>(),
            [("ArgMatches::get_one".to_string(), MaskState::Def)]
        );
        // The type alone: the type and its impl in full.
        let mask = relevance("ArgMatches is slow").task_mask(symbols);
        assert_eq!(
            mask.expect("a mask").into_keys().collect::<Vec<_>>(),
            ["ArgMatches", "impl ArgMatches"]
        );
    }

    /// A focus keeps the symbols that share the most of the task's words,
    /// the earlier first among equals.
    #[test]
    fn a_task_focus_keeps_the_weightiest_symbols() {
        let mut query = Query::new("yank the joined selections to a register");
        query.idf = vec![1.0; query.terms.len()];
        let relevance = Relevance {
            files: Vec::new(),
            query,
        };
        let symbols = "yank\tyank\nyank_joined_selections\tyank_joined_selections\n\
                       paste\tpaste\nselect_register\tselect_register\n\
                       yank_to_register\tyank_to_register\n";
        let keys = |most| {
            relevance
                .task_focus(symbols, most)
                .expect("a focus")
                .into_keys()
                .collect::<Vec<_>>()
        };
        assert_eq!(keys(1), ["yank_joined_selections"]);
        assert_eq!(keys(2), ["yank_joined_selections", "yank_to_register"]);
        assert_eq!(
            keys(usize::MAX),
            [
                "select_register",
                "yank",
                "yank_joined_selections",
                "yank_to_register"
            ]
        );
    }

    #[test]
    fn reasons_count_every_word_they_do_not_show() {
        let words = |n: usize| (1..=n).map(|i| format!("w{i}")).collect::<Vec<_>>();
        let why = Why {
            score: 3.0,
            words: words(7),
            in_path: vec!["w1".to_string()],
            ..Why::default()
        };
        assert_eq!(
            why.reasons(),
            [
                "matched `w1` in its path",
                "6 task words: `w2`, `w3`, `w4`, `w5`, `w6` and 1 more",
                "score 3.00"
            ]
        );
        let why = Why {
            words: words(5),
            ..Why::default()
        };
        assert_eq!(
            why.reasons()[0],
            "5 task words: `w1`, `w2`, `w3`, `w4`, `w5`"
        );
    }

    #[test]
    fn a_query_drops_trailers_and_knows_what_it_speaks_of() {
        let q = Query::new(
            "Fix flaky tests for the router\n\nSigned-off-by: A <a@b.c>\nhttps://x.y/z\n",
        );
        assert_eq!(q.terms, ["flak", "test", "router"]);
        assert!(q.speaks_of.contains(&FileClass::Test));
        assert!(!q.speaks_of.contains(&FileClass::Doc));
    }

    #[test]
    fn a_paths_extension_is_no_word_of_the_task() {
        let q = Query::new("wrong result in tree.go:42 and `App.tsx`; see router/params.py");
        for gone in ["go", "tsx", "py"] {
            assert!(!q.terms.iter().any(|t| t == gone), "{gone}: {:?}", q.terms);
        }
        for kept in ["tre", "app", "router", "param"] {
            assert!(
                q.terms.iter().any(|t| t.starts_with(kept)),
                "{kept}: {:?}",
                q.terms
            );
        }
        // Prose with dots keeps its words.
        let q = Query::new("e.g. version 1.2.3 of the go toolchain");
        assert!(q.terms.iter().any(|t| t == "go"), "{:?}", q.terms);
    }

    #[test]
    fn links_are_no_words_of_the_task() {
        let q = Query::new(
            "Add --listen option\n\nSee also:\n* https://github.com/junegunn/fzf.vim/pull/1044 \
             (<https://example.org/a_b>) and www.example.com/docs for the port",
        );
        assert_eq!(q.terms, ["listen", "option", "port"]);
    }

    #[test]
    fn a_path_the_task_names_does_not_speak_of_its_kind() {
        let q =
            Query::new("feat: added `AbortWithStatus()` in `Context`\n\n* Update context_test.go");
        assert_eq!(q.speaks_of, Vec::<FileClass>::new());
        assert_eq!(q.mentions_of, Vec::<FileClass>::new());
        assert_eq!(
            q.terms,
            [
                "abort",
                "status",
                "abortwithstatus",
                "context",
                "test",
                "contexttest"
            ]
        );
        assert_eq!(q.class_weight(FileClass::Test), 0.3);
        let q = Query::new("Update docs/usage.md and the tests of tests/test_app.py");
        assert_eq!(q.speaks_of, [FileClass::Test]);
        assert_eq!(q.class_weight(FileClass::Test), 1.0);
        assert_eq!(q.class_weight(FileClass::Doc), 0.3);
    }

    #[test]
    fn a_kind_only_the_body_names_ranks_partway_up() {
        let q = Query::new(
            "\nfix: pointer support for query params\n\nIt was removed as there was no test case.",
        );
        assert_eq!(q.speaks_of, Vec::<FileClass>::new());
        assert_eq!(q.mentions_of, [FileClass::Test]);
        assert_eq!(q.class_weight(FileClass::Test), 0.65);
        assert_eq!(q.class_weight(FileClass::Bench), 0.3);
    }
}
