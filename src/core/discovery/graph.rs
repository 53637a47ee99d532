//! The import graph of a project (docs/ARCHITECTURE.md, "Discovery"): one
//! node per code file (every language with a grammar), an edge from each
//! file to every project file it imports or
//! includes, weighted by how much it imports and how ([`ImportKind`]: a
//! type-only, function-local or re-exporting import weighs less than a
//! runtime one at the top of a module). A statement naming a whole
//! package (a Go package, a Go file's own package, Java's `p.*`, a C#
//! namespace, Kotlin's `p.*`) is an edge only to the files of it whose
//! names the importer uses, by how many and how rare (`names`), at most
//! [`PACKAGE_EDGE_CAP`] a file. Ranking personalizes
//! PageRank on the user's target files; discovery walks the edges out from
//! them. Imports that lead outside the project (the standard library,
//! system headers, third-party packages) are not edges and not errors.

mod cache;
mod explain;
mod imports;
mod kind;
mod layout;
mod modules;
mod names;
mod rank;
mod resolve;
mod search_index;
pub(crate) mod test_files;
mod view;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use rayon::prelude::*;
use serde::Serialize;

use crate::core::model::Preset;
use crate::core::sources::Codebase;
use crate::core::syntax::Lang;

pub use explain::{Explained, Outcome, explain};
pub use imports::{Include, PyImport};
pub use kind::ImportKind;
pub use layout::Layout;
pub use rank::{DAMPING, pagerank};

/// The most edges one file gets through package imports (a Go package,
/// its own one included, Java's `import p.*;`, a C# namespace, Kotlin's
/// `import p.*`): the files whose names it uses most.
pub const PACKAGE_EDGE_CAP: usize = 32;

/// A file with its rank.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub path: String,
    pub score: f64,
}

/// What a set of targets reaches through imports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Files a target imports directly (targets excluded), sorted.
    pub direct: Vec<String>,
    /// Files reached only through other imports, sorted.
    pub transitive: Vec<String>,
    /// Files that import a target directly (its callers and tests),
    /// neither targets nor imports of one, sorted.
    pub callers: Vec<String>,
}

/// An import statement that names the project but no file of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnresolvedImport {
    /// The file holding the statement.
    pub file: String,
    /// The statement, as written in the language (`from .x import y`,
    /// `#include "config.h"`).
    pub import: String,
}

/// An edge: how much the importer imports of the file, each statement
/// weighed by its kind, and the strongest kind among those statements.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Edge {
    weight: f64,
    kind: ImportKind,
}

/// The import graph over a project's code files.
#[derive(Debug, Default)]
pub struct ImportGraph {
    graph: DiGraph<String, Edge>,
    index: HashMap<String, NodeIndex>,
    /// Every unresolved statement, by file then order in it.
    unresolved: Vec<UnresolvedImport>,
    /// Files whose package edges the cap cut, with how many, by path.
    capped: Vec<(String, usize)>,
    /// What a bound on the project's metadata cut (tsconfig `paths`,
    /// composer maps), one line each.
    config_limits: Vec<String>,
}

impl ImportGraph {
    /// The graph over `codebase`'s walked files, read through its
    /// sources; `include_dirs` as in `[project] include_dirs`.
    pub fn build(codebase: &Codebase, include_dirs: &[String]) -> Self {
        ImportGraph::build_from(codebase, include_dirs, &HashMap::new())
    }

    /// [`ImportGraph::build`] with the files of `preset` read as it shows
    /// them: an import inside a symbol the preset hides is no edge
    /// (`graph/view.rs`).
    pub fn build_viewed(codebase: &Codebase, include_dirs: &[String], preset: &Preset) -> Self {
        let shown = view::shown_texts(codebase, preset);
        ImportGraph::build_from(codebase, include_dirs, &shown)
    }

    /// The graph with the statements of the files in `shown` read from
    /// the text given there; an unchanged project's is loaded from the
    /// disk cache (`cache`).
    fn build_from(
        codebase: &Codebase,
        include_dirs: &[String],
        shown: &HashMap<String, String>,
    ) -> Self {
        let phases = crate::core::profile::Phases::start();
        let code = code_files(codebase.files());
        let key = cache::key(codebase, include_dirs, &code, shown);
        let kept = key.as_ref().and_then(|k| cache::load(codebase, k, &code));
        phases.mark("graph: cache");
        let parts = kept.unwrap_or_else(|| {
            let parts = resolve_parts(codebase, include_dirs, &code, shown);
            if let Some(key) = &key {
                cache::store(codebase, key, &code, &parts);
            }
            parts
        });
        let mut graph = DiGraph::with_capacity(code.len(), parts.edges.len());
        let mut index = HashMap::with_capacity(code.len());
        for path in &code {
            index.insert((*path).clone(), graph.add_node((*path).clone()));
        }
        for (from, to, edge) in parts.edges {
            graph.add_edge(
                NodeIndex::new(from as usize),
                NodeIndex::new(to as usize),
                edge,
            );
        }
        phases.mark("graph: nodes and edges");
        ImportGraph {
            graph,
            index,
            unresolved: parts.unresolved,
            capped: parts.capped,
            config_limits: parts.config_limits,
        }
    }

    /// What a bound left out of this graph, one line each for the user:
    /// a resolver config read in part (tsconfig `paths`, composer
    /// autoload maps), and the files whose package edges
    /// [`PACKAGE_EDGE_CAP`] cut.
    pub fn limits(&self) -> Vec<String> {
        let mut out = self.config_limits.clone();
        if let Some((first, cut)) = self.capped.first() {
            let others = match self.capped.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            out.push(format!(
                "{first}{others} use names of more package files than {PACKAGE_EDGE_CAP}: \
                 only the {PACKAGE_EDGE_CAP} used most are import edges ({cut} left out of {first})"
            ));
        }
        out
    }

    /// The files that used names of more package files than
    /// [`PACKAGE_EDGE_CAP`] allows, with how many edges the cap left out,
    /// by path.
    pub fn capped(&self) -> &[(String, usize)] {
        &self.capped
    }

    /// The import statements that name the project but no file of it, by
    /// file (sorted) then order in the file.
    pub fn unresolved(&self) -> &[UnresolvedImport] {
        &self.unresolved
    }

    /// How many files are nodes.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every node's path, in no particular order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.graph.node_weights().map(String::as_str)
    }

    /// Whether `path` is a node (a readable code file of the project).
    pub fn contains(&self, path: &str) -> bool {
        self.index.contains_key(path)
    }

    /// Every edge as (importer, imported, weight), sorted.
    pub fn edges(&self) -> Vec<(&str, &str, f64)> {
        let mut out: Vec<(&str, &str, f64)> = self
            .graph
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = self.graph.edge_endpoints(e)?;
                Some((
                    self.graph[a].as_str(),
                    self.graph[b].as_str(),
                    self.graph[e].weight,
                ))
            })
            .collect();
        out.sort_by(|x, y| (x.0, x.1).cmp(&(y.0, y.1)));
        out
    }

    /// The files `path` imports directly, sorted.
    pub fn imports_of(&self, path: &str) -> Vec<&str> {
        let Some(&node) = self.index.get(path) else {
            return Vec::new();
        };
        let mut out: Vec<&str> = self
            .graph
            .neighbors_directed(node, Direction::Outgoing)
            .map(|n| self.graph[n].as_str())
            .collect();
        out.sort();
        out
    }

    /// How `from` imports `to`: the strongest kind among its statements
    /// naming it (`None`: it does not import it).
    pub fn import_kind(&self, from: &str, to: &str) -> Option<ImportKind> {
        let (&a, &b) = (self.index.get(from)?, self.index.get(to)?);
        self.graph.find_edge(a, b).map(|e| self.graph[e].kind)
    }

    /// How the targets import each file they import directly: the
    /// strongest kind over every target's statements naming it, by path.
    /// The packer reads it to tell a runtime import from a type-only one.
    pub fn direct_kinds(&self, targets: &[String]) -> BTreeMap<String, ImportKind> {
        let starts: Vec<NodeIndex> = targets
            .iter()
            .filter_map(|t| self.index.get(t).copied())
            .collect();
        self.kinds_from(&starts)
            .into_iter()
            .filter(|(n, _)| !starts.contains(n))
            .map(|(n, k)| (self.graph[n].clone(), k))
            .collect()
    }

    /// The strongest kind of an edge from `starts` to each node they
    /// import.
    fn kinds_from(&self, starts: &[NodeIndex]) -> HashMap<NodeIndex, ImportKind> {
        let mut kinds: HashMap<NodeIndex, ImportKind> = HashMap::new();
        for &start in starts {
            for e in self.graph.edges_directed(start, Direction::Outgoing) {
                let k = kinds.entry(e.target()).or_insert(e.weight().kind);
                *k = (*k).min(e.weight().kind);
            }
        }
        kinds
    }

    /// Every node ranked for relevance to `targets`: the targets, then
    /// what they import directly at runtime, then what they import
    /// directly otherwise (only for types, inside a function, as a
    /// re-export), then what they reach through other
    /// imports, then the rest — each group by personalized PageRank seeded
    /// on the targets (targets that are not nodes are ignored; none at all
    /// ranks the whole project evenly). Ties, and files the targets never
    /// reach (personalized rank 0), go by the project-wide PageRank, then
    /// by path, so the order is the same on every run and central files
    /// come before obscure ones rather than alphabetically.
    pub fn rank(&self, targets: &[String]) -> Vec<Ranked> {
        self.rank_with(targets, &[])
    }

    /// [`rank`](Self::rank) with `boost` (the files a task names) seeding
    /// the personalized PageRank beside the targets: they and what they
    /// import rank higher within each group, and the groups still follow
    /// the targets' imports.
    pub fn rank_with(&self, targets: &[String], boost: &[String]) -> Vec<Ranked> {
        let node = |t: &String| self.index.get(t).copied();
        let targets_only: Vec<NodeIndex> = targets.iter().filter_map(node).collect();
        let mut seeds = targets_only.clone();
        seeds.extend(boost.iter().filter_map(node));
        let weight = |e: &Edge| e.weight;
        let scores = pagerank(&self.graph, &seeds, weight);
        let global = if seeds.is_empty() {
            scores.clone()
        } else {
            pagerank(&self.graph, &[], weight)
        };
        let depth = self.depths(&targets_only);
        let direct = self.kinds_from(&targets_only);
        let (kin, calls) = self.callers_of(&targets_only);
        // Scores equal up to float noise are ties.
        let bucket = |s: f64| (s * 1e12).round() as i64;
        let calls = |n: NodeIndex| bucket(calls.get(&n).copied().unwrap_or(0.0));
        let is_test = |n: NodeIndex| test_files::is_test(&self.graph[n]);
        let mut order: Vec<NodeIndex> = self.graph.node_indices().collect();
        order.sort_by(|&a, &b| {
            // 0 targets, 1 runtime imports, 2 other direct imports, 3
            // transitive, 4 unreached.
            let tier = |n: NodeIndex| match depth.get(&n) {
                None => 4,
                Some(0) => 0,
                Some(1) if direct.get(&n).is_some_and(|k| k.is_runtime()) => 1,
                Some(1) => 2,
                Some(_) => 3,
            };
            tier(a)
                .cmp(&tier(b))
                .then_with(|| bucket(scores[b.index()]).cmp(&bucket(scores[a.index()])))
                .then_with(|| bucket(global[b.index()]).cmp(&bucket(global[a.index()])))
                // Source before tests; a target's own test first of
                // them, then what imports the targets most (a package's
                // tests, which nothing imports, tie at 0 before this).
                .then_with(|| is_test(a).cmp(&is_test(b)))
                .then_with(|| kin.contains(&b).cmp(&kin.contains(&a)))
                .then_with(|| calls(b).cmp(&calls(a)))
                .then_with(|| self.graph[a].cmp(&self.graph[b]))
        });
        order
            .into_iter()
            .map(|n| Ranked {
                path: self.graph[n].clone(),
                score: scores[n.index()],
            })
            .collect()
    }

    /// The tests named for one of `targets` (`flag_test.go` for
    /// `flag.go`, `FooTest.java` for `Foo.java`) that import it, and the
    /// weight of every file's edges into the targets.
    fn callers_of(&self, targets: &[NodeIndex]) -> (Vec<NodeIndex>, HashMap<NodeIndex, f64>) {
        let mut kin = Vec::new();
        let mut calls: HashMap<NodeIndex, f64> = HashMap::new();
        for &target in targets {
            let stem = test_files::stem(&self.graph[target]);
            for e in self.graph.edges_directed(target, Direction::Incoming) {
                let caller = e.source();
                *calls.entry(caller).or_default() += e.weight().weight;
                let path = &self.graph[caller];
                if test_files::is_test(path) && test_files::tested_stem(path) == stem {
                    kin.push(caller);
                }
            }
        }
        (kin, calls)
    }

    /// Import distance from the nearest seed, for every node reached.
    fn depths(&self, seeds: &[NodeIndex]) -> HashMap<NodeIndex, usize> {
        let mut depth: HashMap<NodeIndex, usize> = seeds.iter().map(|&n| (n, 0)).collect();
        let mut queue: VecDeque<NodeIndex> = seeds.iter().copied().collect();
        while let Some(node) = queue.pop_front() {
            let d = depth[&node];
            for next in self.graph.neighbors_directed(node, Direction::Outgoing) {
                if let std::collections::hash_map::Entry::Vacant(e) = depth.entry(next) {
                    e.insert(d + 1);
                    queue.push_back(next);
                }
            }
        }
        depth
    }

    /// The files the targets import, directly and through other imports.
    pub fn reach(&self, targets: &[String]) -> Reach {
        let starts: Vec<NodeIndex> = targets
            .iter()
            .filter_map(|t| self.index.get(t).copied())
            .collect();
        let depth = self.depths(&starts);
        let mut reach = Reach::default();
        for (&node, &d) in &depth {
            match d {
                0 => {}
                1 => reach.direct.push(self.graph[node].clone()),
                _ => reach.transitive.push(self.graph[node].clone()),
            }
        }
        for &start in &starts {
            for caller in self.graph.neighbors_directed(start, Direction::Incoming) {
                if !depth.contains_key(&caller) {
                    reach.callers.push(self.graph[caller].clone());
                }
            }
        }
        reach.direct.sort();
        reach.transitive.sort();
        reach.callers.sort();
        reach.callers.dedup();
        reach
    }
}

/// The code files among `files` (every language with a grammar), sorted.
/// The graph over `code` made from every file's statements: each edge
/// (from, to by index into `code`) in the order the graph adds them.
fn resolve_parts(
    codebase: &Codebase,
    include_dirs: &[String],
    code: &[&String],
    shown: &HashMap<String, String>,
) -> cache::Parts {
    let phases = crate::core::profile::Phases::start();
    let statements = read_statements(codebase, code, shown);
    phases.mark("graph: statements");
    let (set, packages) = resolver(codebase, include_dirs, code, &statements);
    phases.mark("graph: resolver");
    let mut config_limits = packages.limits();
    let found: Vec<FileEdges> = code
        .par_iter()
        .zip(&statements)
        .map(|(path, stmts)| {
            let mut found = stmts
                .as_ref()
                .map(|stmts| file_edges(&set, &packages, path, stmts))
                .unwrap_or_default();
            if let Some(own) = modules::own_package(&packages, path) {
                found.packages.push((own, ImportKind::Runtime));
            }
            found
        })
        .collect();
    phases.mark("graph: file edges");
    config_limits.extend(set.limits());
    let mut unresolved = Vec::new();
    let mut edges = Vec::with_capacity(found.len());
    let mut refs = Vec::with_capacity(found.len());
    for (path, f) in code.iter().zip(found) {
        edges.push(f.edges);
        refs.push(f.packages);
        unresolved.extend(f.unresolved.into_iter().map(|import| UnresolvedImport {
            file: (*path).clone(),
            import,
        }));
    }
    let mut capped = Vec::new();
    for ((path, list), narrowed) in code
        .iter()
        .zip(edges.iter_mut())
        .zip(names::package_edges(codebase, code, &refs))
    {
        list.extend(narrowed.edges);
        if narrowed.capped > 0 {
            capped.push(((*path).clone(), narrowed.capped));
        }
    }
    drop(refs);
    phases.mark("graph: package edges");

    let index: HashMap<&str, u32> = code
        .iter()
        .enumerate()
        .map(|(i, path)| (path.as_str(), i as u32))
        .collect();
    let mut out = Vec::new();
    for (from, targets) in (0u32..).zip(edges) {
        let mut merged: BTreeMap<u32, Edge> = BTreeMap::new();
        for (to, w, kind) in targets {
            // A header may exist outside the code set (`.inc`); only
            // code files are nodes.
            if let Some(&to) = index.get(to)
                && to != from
            {
                let edge = merged.entry(to).or_insert(Edge {
                    weight: 0.0,
                    kind: ImportKind::TypeOnly,
                });
                edge.weight += w * kind.weight();
                edge.kind = edge.kind.min(kind);
            }
        }
        out.extend(merged.into_iter().map(|(to, edge)| (from, to, edge)));
    }
    cache::Parts {
        edges: out,
        unresolved,
        capped,
        config_limits,
    }
}

fn code_files(files: &[String]) -> Vec<&String> {
    let mut code: Vec<&String> = files
        .iter()
        .filter(|f| Lang::from_path(f).is_some_and(Lang::is_code))
        .collect();
    code.sort();
    code.dedup();
    code
}

/// The encoded import statements of each of `code` (a file that does not
/// read has none), cached per content (memory and disk): an unchanged
/// project is not scanned again.
fn read_statements(
    codebase: &Codebase,
    code: &[&String],
    shown: &HashMap<String, String>,
) -> Vec<Option<Arc<str>>> {
    let Codebase { root, sources, .. } = *codebase;
    let progress = sources.progress();
    progress.start("files read for imports", code.len());
    code.par_iter()
        .map(|path| {
            progress.step();
            let lang = Lang::from_path(path);
            if let Some(text) = shown.get(path.as_str()) {
                return Some(Arc::from(modules::encode(lang, text)));
            }
            sources.scanned_from_text(root, path, modules::cache_key(lang), |text| {
                modules::encode(lang, text)
            })
        })
        .collect()
}

/// What resolving needs to know of the project: its files in their
/// layout, and what its metadata files and declarations say.
fn resolver<'a>(
    codebase: &Codebase<'a>,
    include_dirs: &[String],
    code: &[&'a String],
    statements: &[Option<Arc<str>>],
) -> (resolve::FileSet<'a>, modules::Packages<'a>) {
    let (root, files) = (codebase.root, codebase.files());
    let mut layout = Layout::find(root, files, include_dirs);
    layout.name_root_from_imports(
        files,
        statements
            .iter()
            .flatten()
            .flat_map(|s| imports::decode(s).0)
            .filter(|i| i.level == 0)
            .map(|i| i.module),
    );
    let set = resolve::FileSet::new(files, layout);
    let packages = modules::Packages::read(
        root,
        files,
        code.iter()
            .zip(statements)
            .filter_map(|(path, s)| Some((path.as_str(), s.as_deref()?))),
    );
    (set, packages)
}

/// What one file's statements led to.
#[derive(Default)]
struct FileEdges<'a> {
    /// Each file reached, with the statement's weight and kind.
    edges: Vec<(&'a str, f64, ImportKind)>,
    /// Each package named, with the statement's kind: narrowed to the
    /// files whose names are used (`names`).
    packages: Vec<(names::Package<'a>, ImportKind)>,
    /// The statements that did not resolve, as written.
    unresolved: Vec<String>,
}

/// The edges out of one file, from its encoded import statements.
fn file_edges<'a>(
    set: &resolve::FileSet<'a>,
    packages: &modules::Packages<'a>,
    path: &str,
    stmts: &str,
) -> FileEdges<'a> {
    use resolve::Resolution;
    let (python, includes) = imports::decode(stmts);
    let mut out = FileEdges::default();
    let with = |files: Vec<(&'a str, f64)>, kind: ImportKind| {
        files.into_iter().map(move |(f, w)| (f, w, kind))
    };
    // A package's `__init__` importing names from its modules passes them
    // on: a re-export, whoever imports the package. (Python and C never
    // name a whole package.)
    let name = path.rsplit('/').next().unwrap_or(path);
    let is_init = name == "__init__.py" || name == "__init__.pyi";
    for stmt in &python {
        let kind = match stmt.kind {
            ImportKind::Runtime if is_init && !stmt.names.is_empty() => ImportKind::ReExport,
            kind => kind,
        };
        match set.resolve_python(path, stmt) {
            Resolution::Files(files) => out.edges.extend(with(files, kind)),
            Resolution::Package(files) => out.packages.push((files, ImportKind::Runtime)),
            Resolution::Unresolved => out.unresolved.push(stmt.to_string()),
            Resolution::External => {}
        }
    }
    for inc in &includes {
        match set.resolve_include(path, inc) {
            Resolution::Files(files) => out.edges.extend(with(files, ImportKind::Runtime)),
            Resolution::Package(files) => out.packages.push((files, ImportKind::Runtime)),
            Resolution::Unresolved => out.unresolved.push(inc.to_string()),
            Resolution::External => {}
        }
    }
    for (stmt, kind) in modules::decode_kinded(stmts) {
        match modules::resolve(set, packages, path, &stmt) {
            Resolution::Files(files) => out.edges.extend(with(files, kind)),
            Resolution::Package(files) => out.packages.push((files, kind)),
            Resolution::Unresolved => out.unresolved.push(stmt.to_string()),
            Resolution::External => {}
        }
    }
    out
}
