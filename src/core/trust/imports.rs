//! What a consented script runs besides itself, inside the project: the
//! Python modules it imports (and they import), the shell files it
//! `source`s, the JavaScript/TypeScript modules it loads (`node.rs`), and
//! the files Ruby, PHP, Lua and Perl scripts `require` (`requires.rs`),
//! so a consent to `python3 tools/summarize.py` also covers
//! `tools/helper.py` that it imports, and a new `tools/json.py` that would
//! shadow the standard library's `json` withdraws it.
//!
//! Python looks a top-level name up in the script's own folder first
//! (`sys.path[0]`), then the current folder under `-m` (the root: a
//! project command runs there), then elsewhere. So each name a script
//! imports is looked for in each of those folders, and what is there is
//! recorded whatever it is: a file (hashed, and read for its own imports),
//! a folder (a package: its `__init__.py` and the submodules named), or
//! nothing. "Nothing" is recorded too: a file that appears there later
//! changes the fingerprint. The other languages record each place their
//! interpreter tries, in its order, up to the one holding a file. The
//! reading is line by line (`import a.b`, `from a import b`, `from .
//! import c`, `import_module("d")`, `require("./e")`), not a parse: it
//! reads more than the interpreter would (an import in a string, a branch
//! never taken), never less of what a line says. A file without an
//! extension or `#!` line is read as the program that runs it reads it,
//! as the command or a script read before says (`runpy.run_path(
//! "tools/app")`: Python). A variable a Python script gives its children
//! a value known only as it runs counts in the shell scripts and shell
//! lines it reaches, as one a shell script exports does. This module
//! stays below `core::discovery` (the layer test), so it keeps its own
//! small readers rather than the import graph's resolvers; both say the
//! same of these statements.

mod built_names;
mod comments;
mod distutils_shim;
mod dynamic;
mod elf_loads;
mod env_path;
mod js_runs;
mod kinds;
mod literal;
mod node;
mod node_env;
mod node_preload;
mod places;
mod python_read;
mod python_runs;
mod requires;
mod run_loads;
mod script_runs;
mod shell_runs;
mod sys_path;
pub(super) mod written;

pub use literal::run_with;
pub use node_preload::{
    env_file_words as node_env_file_words, preloaded as node_preloaded, specifiers as node_preloads,
};
pub use python_runs::PYTHON_FINDS;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::core::module_maps::composer::Autoload;
use crate::core::module_maps::configs_above;
use crate::core::module_maps::script::Project;
use built_names::BuiltNames;
use js_runs::node_runs;
use kinds::{Kind, Programs, kind_of};
use places::{Folders, first_of, place, rel_of};
use python_runs::{
    Here, PythonEnv, module_name, python_runs, python_search, shared_variables, site_startup,
};
use shell_runs::shell_runs;

/// Files followed at most for one command (past it the rest is left out
/// and a line of the fingerprint says so).
const MAX_FILES: usize = 512;
/// Import names read at most from one file.
const MAX_NAMES: usize = 512;
/// Entries of one folder looked at at most.
const MAX_ENTRIES: usize = 20_000;
/// Places looked at at most for one command (a script of a few thousand
/// bare `require`s, each tried in every `node_modules` up to the root,
/// would otherwise cost millions of `stat`s on every build).
const MAX_PLACES: usize = 10_000;

/// What a command's scripts reach: files (root-relative path → canonical
/// path), and every place looked at with what was there, one line each
/// (`tools/json: nothing`, `pkg: folder`), sorted.
#[derive(Debug, Default)]
pub struct Reached {
    pub files: BTreeMap<String, PathBuf>,
    pub places: BTreeSet<String>,
    /// Scripts a shell script names by a pattern (`tools/conf.d/*.sh`):
    /// one added later would run unreviewed.
    pub patterns: BTreeSet<String>,
    /// setuptools' distutils shims met in the command's environments.
    shims: distutils_shim::Shims,
    /// The `DT_RPATH` folders of the programs read, inside the project:
    /// the loader looks there for their libraries' libraries too.
    elf_rpath: Vec<PathBuf>,
}

/// Follow the imports of `scripts` (root-relative, with their canonical
/// paths) inside `real_root`; `load_path` holds the folders the command
/// adds to Ruby's and Perl's search (`-I`, `RUBYLIB`, `PERL5LIB`),
/// `import_maps` the Deno import maps it names (`--import-map`,
/// root-relative), `site` the `site-packages` folders of a virtual
/// environment inside the project whose Python the command runs (looked
/// in after the script's folder and the root; their `.pth` files run
/// as it starts), `run_by` the program the command runs a file with
/// (`python3 tools/app`: a file without an extension or a `#!` line is
/// read as that program reads it), `outer` the variables the command's
/// own lines set to what is known only as it runs (its scripts inherit
/// them).
pub fn reached(
    real_root: &Path,
    scripts: &[(String, PathBuf)],
    load_path: &[PathBuf],
    import_maps: &[String],
    site: &[PathBuf],
    run_by: &HashMap<PathBuf, String>,
    outer: &[(String, String)],
) -> Reached {
    let mut out = Reached::default();
    let mut folders = Folders::default();
    let mut maps = Maps::named(real_root, import_maps);
    let mut ruby_path: Vec<PathBuf> = load_path.to_vec();
    let mut perl_path: Vec<PathBuf> = load_path.to_vec();
    let mut queue = first_queue(real_root, scripts, site, &mut folders, &mut out);
    let mut read: BTreeSet<PathBuf> = BTreeSet::new();
    let mut shell_scripts: Vec<PathBuf> = Vec::new();
    let mut python_env = PythonEnv::default();
    let mut sinks = Sinks::default();
    let mut built_names = BuiltNames::default();
    let mut run_by = Programs {
        of: run_by.clone(),
        read_as_other: BTreeSet::new(),
    };
    while let Some((rel, real, mut search)) = queue.pop_front() {
        if !read.insert(real.clone()) {
            continue;
        }
        if past_bounds(read.len(), &mut out) {
            break;
        }
        let Some(text) = small_text(&real) else {
            continue;
        };
        let kind = kind_of(&rel, &real, &text, &run_by.of, &mut search);
        let here = real.parent().map(Path::to_path_buf).unwrap_or_default();
        if kind == Kind::Other {
            run_by.read_as_other.insert(real.clone());
        }
        for again in run_by.learn(real_root, &here, kind, &text) {
            read.remove(&again);
            queue.push_back((rel_of(real_root, &again), again, search.clone()));
        }
        let mut found: Vec<(String, PathBuf)> = Vec::new();
        match kind {
            Kind::Python => {
                python_env.read(&rel, &text);
                sinks.files.push((rel.clone(), real.clone()));
                let added = sys_path::added(&text, &real, real_root);
                python_search(
                    real_root,
                    added,
                    &mut search,
                    &mut folders,
                    &mut out,
                    &mut found,
                );
                let at = Here {
                    file: &rel,
                    search: &search,
                    dir: &here,
                    stem: real.file_stem().and_then(|s| s.to_str()).unwrap_or(""),
                };
                let sink = python_runs(real_root, &text, at, &mut folders, &mut out, &mut found);
                sinks.add(sink);
            }
            Kind::Shell => {
                shell_scripts.push(real.clone());
                shell_runs(real_root, &text, &here, &mut out, &mut found);
            }
            Kind::Node => {
                python_env.read_node(&rel, &text);
                let at = node::From {
                    dir: &here,
                    file: &rel,
                };
                node_runs(real_root, &text, at, &mut maps, &mut out, &mut found);
            }
            Kind::Ruby | Kind::Php | Kind::Lua | Kind::Perl => {
                let paths = LoadPaths {
                    ruby: &mut ruby_path,
                    perl: &mut perl_path,
                    maps: &mut maps,
                };
                let at = (rel.as_str(), real.as_path(), here.as_path());
                script_loads(real_root, kind, &text, at, paths, &mut out, &mut found);
            }
            Kind::Other => {
                other_runs(
                    real_root,
                    (&rel, &real),
                    &text,
                    &run_by.of,
                    &mut out,
                    &mut found,
                );
            }
        }
        // Round 8: git's settings variables set by the script itself
        // (shell text is read by `unknown::shell`).
        if !matches!(kind, Kind::Shell | Kind::Other) {
            let comment = match kind {
                Kind::Node | Kind::Php => "//",
                Kind::Lua => "--",
                _ => "#",
            };
            refuse_known_runs(&rel, &super::git_env::script(&text, comment), &mut out);
        }
        built_names.read(&rel, kind, &text);
        for (rel, real) in found {
            out.files.insert(rel.clone(), real.clone());
            queue.push_back((rel, real, search.clone()));
        }
    }
    built_names.refuse(&mut out);
    std::mem::take(&mut out.shims).cover(real_root, &mut out);
    sinks.refuse_calls(&mut python_env, &mut out);
    shared_variables(&shell_scripts, outer, &python_env, &mut out);
    out
}

/// The search folders Ruby's and Perl's scripts share (the command's
/// `-I` and what the scripts read add), and the module maps (PHP's
/// composer autoload).
struct LoadPaths<'a> {
    ruby: &'a mut Vec<PathBuf>,
    perl: &'a mut Vec<PathBuf>,
    maps: &'a mut Maps,
}

/// What a Ruby, PHP, Lua or Perl script (`at`: its root-relative path,
/// canonical path and folder) loads ([`requires`]), and a refusal for
/// each load decided only as it runs ([`run_loads`]).
fn script_loads(
    real_root: &Path,
    kind: Kind,
    text: &str,
    at: (&str, &Path, &Path),
    paths: LoadPaths,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let (rel, real, here) = at;
    let mut unknown = Vec::new();
    let loads = match kind {
        Kind::Ruby => requires::ruby(text, real, real_root, paths.ruby, &mut unknown),
        Kind::Php => {
            let autoload = paths.maps.composer(real_root, &rel_of(real_root, here));
            requires::php(text, here, real_root, &autoload, &mut unknown)
        }
        Kind::Lua => {
            // `package.path = "tools/?.lua;" .. package.path`: where its
            // `require`s look is set as it runs (recheck 25).
            unknown.extend(
                text.lines()
                    .map(|l| l.split("--").next().unwrap_or(""))
                    .filter(|l| {
                        [
                            "package.path",
                            "package.cpath",
                            "package.searchers",
                            "package.loaders",
                        ]
                        .iter()
                        .any(|p| l.contains(p) && l[l.find(p).unwrap_or(0)..].contains('='))
                    })
                    .map(|l| l.trim().chars().take(80).collect::<String>())
                    .take(MAX_NAMES),
            );
            requires::lua(text, real_root)
        }
        _ => {
            unknown.extend(run_loads::perl_unknown(text));
            let loads = requires::perl(text, here, real_root, &mut *paths.perl, &mut unknown);
            // A module perl loads in turn (`POSIX` loads `Fcntl`) is looked
            // for in these folders first: what they hold is a place, so a
            // module added there withdraws the consent (recheck 25).
            for dir in paths
                .perl
                .iter()
                .filter(|d| d.starts_with(real_root))
                .take(MAX_NAMES)
            {
                perl_listing(real_root, dir, out);
            }
            loads
        }
    };
    refuse_computed(rel, &unknown, out);
    let runs = script_runs::script(text, kind);
    refuse_runs(rel, &runs.unknown, out);
    refuse_known_runs(rel, &runs.refusals, out);
    let comment = match kind {
        Kind::Php => "//",
        Kind::Lua => "--",
        _ => "#",
    };
    for named in runs
        .named
        .into_iter()
        .chain(literal::script(text, comment).paths)
        .take(MAX_NAMES)
    {
        for base in [here, real_root] {
            place(real_root, &base.join(&named), out, found);
        }
    }
    for candidates in loads.into_iter().take(MAX_NAMES) {
        if matches!(kind, Kind::Ruby | Kind::Perl) {
            // Each place is looked at: the search folders a script adds
            // are read in any order, and a file new in an earlier one
            // would shadow the one found (covering both is more, never
            // less).
            for place in &candidates {
                first_of(real_root, std::slice::from_ref(place), out, found);
            }
        } else {
            first_of(real_root, &candidates, out, found);
        }
    }
}

/// The Perl modules (`.pm`, `.pmc`) folder `dir` holds, as a place.
fn perl_listing(real_root: &Path, dir: &Path, out: &mut Reached) {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".pm") || n.ends_with(".pmc"))
        .take(MAX_NAMES)
        .collect();
    names.sort();
    out.places.insert(format!(
        "{}/: Perl finds {}",
        rel_of(real_root, dir),
        names.join(" ")
    ));
}

/// The Python files read, and the functions among them that run a
/// parameter ([`dynamic::argv::Sink`]): once all are read, every call
/// of one that hands it what is known only as it runs is a refusal
/// (`from tools.util import run; run(f"sh {name}")`), and a call that
/// hands it its own caller's parameter makes that caller one too.
#[derive(Default)]
struct Sinks {
    files: Vec<(String, PathBuf)>,
    found: Vec<dynamic::argv::Sink>,
}

/// How many times callers of callers are looked for.
const MAX_SINK_ROUNDS: usize = 4;

impl Sinks {
    fn add(&mut self, sinks: Vec<dynamic::argv::Sink>) {
        for sink in sinks {
            if !self.found.contains(&sink) && self.found.len() < dynamic::argv::MAX_SINKS {
                self.found.push(sink);
            }
        }
    }

    /// Refuse the calls; a file that hands a shell sink an argument
    /// has its `$` strings read as shell lines ([`PythonEnv::read_handed`]).
    fn refuse_calls(&mut self, env: &mut PythonEnv, out: &mut Reached) {
        let mut handing: BTreeSet<usize> = BTreeSet::new();
        let mut fresh = self.found.clone();
        let module_of = |real: &Path| {
            let stem = real.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            module_name(real.parent().unwrap_or(Path::new("")), stem)
        };
        let mut defined = dynamic::argv::Defined::new();
        if !fresh.is_empty() {
            for (_, real) in &self.files {
                let Some(text) = small_text(real) else {
                    continue;
                };
                let module = module_of(real);
                for name in dynamic::python_defs(&text) {
                    defined.insert((module.clone(), name));
                }
            }
        }
        for _ in 0..MAX_SINK_ROUNDS {
            if fresh.is_empty() {
                break;
            }
            let mut next = Vec::new();
            for (n, (rel, real)) in self.files.iter().enumerate() {
                let Some(text) = small_text(real) else {
                    continue;
                };
                if !fresh.iter().any(|s| text.contains(&format!("{}(", s.name))) {
                    continue;
                }
                let runs = dynamic::python_sink_calls(&text, &fresh, &module_of(real), &defined);
                refuse_runs(rel, &runs.unknown, out);
                refuse_known_runs(rel, &runs.refusals, out);
                if runs.hands_a_shell && handing.insert(n) {
                    env.read_handed(rel, &text);
                }
                next.extend(runs.sinks.into_iter().filter(|s| !self.found.contains(s)));
            }
            next.dedup();
            self.add(next.clone());
            fresh = next;
        }
    }
}

/// What a file read as nothing in particular (`at`: root-relative and
/// canonical) runs: an awk program's commands are refused (one the
/// command runs with awk, `run_by`, whatever its name), a compiled
/// program's project libraries ([`elf_loads`]) are reached.
fn other_runs(
    real_root: &Path,
    at: (&str, &Path),
    text: &str,
    run_by: &HashMap<PathBuf, String>,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let (rel, real) = at;
    let by_awk = run_by.get(real).is_some_and(|p| p.contains("awk"));
    refuse_awk_commands(rel, text, by_awk, out);
    if text.starts_with("\u{7f}ELF")
        && let Some(bytes) = small_bytes(real)
    {
        elf_loads::libraries(real_root, real, &bytes, out, found);
    }
}

/// A refusal for an awk program file (`awk -f tools/x.awk`, `#!/usr/bin/awk
/// -f`, one `by_awk` the command runs with awk whatever its name) whose `system` or pipes run commands: awk's strings, not read.
fn refuse_awk_commands(rel: &str, text: &str, by_awk: bool, out: &mut Reached) {
    if super::unknown::awk_file_runs_commands(rel, text, by_awk) {
        out.patterns.insert(format!(
            "{}runs an awk program that runs commands, which are not read ({rel})",
            super::unknown::MARK
        ));
    }
}

/// A refusal for each call of script `rel` whose known argv or shell
/// line runs what no review covers (`["git", "commit"]`), with why.
fn refuse_known_runs(rel: &str, found: &[(String, String)], out: &mut Reached) {
    for (why, shown) in found.iter().take(MAX_NAMES) {
        out.patterns
            .insert(format!("{}{why} ({rel}: `{shown}`)", super::unknown::MARK));
    }
}

/// A refusal for each call of script `rel` that runs a program or
/// script known only as it runs ([`dynamic::argv`]).
fn refuse_runs(rel: &str, lines: &[String], out: &mut Reached) {
    for shown in lines.iter().take(MAX_NAMES) {
        out.patterns.insert(format!(
            "{}runs a program or script known only as it runs ({rel}: `{shown}`)",
            super::unknown::MARK
        ));
    }
}

/// The files to read first, each with where its imports are looked
/// for: the command's scripts (an entry script's folder is
/// `sys.path[0]`, then the root, then `site`), and the `.pth` files of
/// `site` that its Python runs as it starts.
fn first_queue(
    real_root: &Path,
    scripts: &[(String, PathBuf)],
    site: &[PathBuf],
    folders: &mut Folders,
    out: &mut Reached,
) -> VecDeque<(String, PathBuf, Vec<PathBuf>)> {
    let mut queue: VecDeque<(String, PathBuf, Vec<PathBuf>)> = VecDeque::new();
    for (rel, real) in scripts {
        // An entry script's folder is `sys.path[0]`, then the root.
        let dir = real.parent().map(Path::to_path_buf);
        let search: Vec<PathBuf> = dir
            .into_iter()
            .chain([real_root.to_path_buf()])
            .chain(site.iter().cloned())
            .collect();
        queue.push_back((rel.clone(), real.clone(), search));
    }
    for (rel, real) in site_startup(real_root, site, folders, out) {
        out.files.insert(rel.clone(), real.clone());
        let search: Vec<PathBuf> = real
            .parent()
            .into_iter()
            .map(Path::to_path_buf)
            .chain(site.iter().cloned())
            .collect();
        queue.push_back((rel, real, search));
    }
    queue
}

/// Whether reading stops at a bound ([`MAX_FILES`] files read, with
/// `read` so far, or [`MAX_PLACES`] places): a line of `out` says so,
/// and [`TOO_MUCH`] keeps the command from being trusted (a script
/// importing 513 modules ran an edited 513th unreviewed, recheck 17
/// F17-5).
fn past_bounds(read: usize, out: &mut Reached) -> bool {
    let why = if read > MAX_FILES {
        format!("more than {MAX_FILES} files: the rest not followed")
    } else if out.places.len() > MAX_PLACES {
        format!("more than {MAX_PLACES} places: the rest not followed")
    } else {
        return false;
    };
    out.places.insert(why);
    out.patterns.insert(TOO_MUCH.to_string());
    true
}

/// The entry of [`Reached::patterns`] that says reading stopped at a
/// bound: what lies past it is not reviewed, so the command cannot be
/// trusted (`Guarded::refusal` says why).
pub const TOO_MUCH: &str = "(more imports or files than can be reviewed)";

/// The first `most` of `items`; past them, [`TOO_MUCH`] goes into `out`:
/// a name left unread is a file that could run unreviewed.
fn within<T>(items: impl IntoIterator<Item = T>, most: usize, out: &mut Reached) -> Vec<T> {
    let mut kept: Vec<T> = items.into_iter().take(most.saturating_add(1)).collect();
    if kept.len() > most {
        kept.truncate(most);
        out.patterns.insert(TOO_MUCH.to_string());
    }
    kept
}

/// The programs that run a line of shell given with `-c`.
const SHELLS: [&str; 5] = ["sh", "bash", "dash", "zsh", "ksh"];

/// The project's module maps as seen from each folder a script loads
/// from: the `tsconfig.json`, `jsconfig.json` and `package.json` files
/// (or the `composer.json` files) from that folder up to the root, read
/// once a folder.
#[derive(Default)]
struct Maps {
    script: HashMap<String, Rc<Project>>,
    composer: HashMap<String, Rc<Autoload>>,
    deno: HashMap<String, Rc<Vec<node::ImportMap>>>,
    /// The import maps the command names (`--import-map`): before the
    /// ones found beside the scripts.
    named_deno: Vec<node::ImportMap>,
    /// The folders a script gives a Node child as `NODE_PATH`
    /// (canonical, inside the root): bare names are looked for there
    /// after `node_modules`.
    node_path: Vec<PathBuf>,
    /// The folders scripts add to `module.paths` (canonical, inside the
    /// root): bare names are looked for in each, before `node_modules`.
    module_paths: Vec<PathBuf>,
}

impl Maps {
    /// With the import maps the command names (`import_maps`,
    /// root-relative).
    fn named(real_root: &Path, import_maps: &[String]) -> Maps {
        Maps {
            named_deno: import_maps
                .iter()
                .flat_map(|rel| node::named_maps(real_root, rel))
                .collect(),
            ..Maps::default()
        }
    }

    fn script(&mut self, real_root: &Path, dir: &str) -> Rc<Project> {
        let names = ["tsconfig.json", "jsconfig.json", "package.json"];
        self.script
            .entry(dir.to_string())
            .or_insert_with(|| {
                Rc::new(Project::read(
                    real_root,
                    &configs_above(real_root, dir, &names),
                ))
            })
            .clone()
    }

    /// The Deno import maps that govern a file of `dir`, nearest first
    /// (those the command names are in [`Maps::named_deno`]).
    fn deno(&mut self, real_root: &Path, dir: &str) -> Rc<Vec<node::ImportMap>> {
        self.deno
            .entry(dir.to_string())
            .or_insert_with(|| Rc::new(node::import_maps(real_root, dir)))
            .clone()
    }

    fn composer(&mut self, real_root: &Path, dir: &str) -> Rc<Autoload> {
        self.composer
            .entry(dir.to_string())
            .or_insert_with(|| {
                let files = configs_above(real_root, dir, &["composer.json"]);
                Rc::new(Autoload::read(real_root, &files))
            })
            .clone()
    }
}

/// A file's text, when it is a regular file of at most 4 MiB (a FIFO
/// swapped in is refused without waiting).
pub(super) fn small_text(path: &Path) -> Option<String> {
    small_bytes(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// [`small_text`]'s bytes.
fn small_bytes(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let (file, meta) = crate::core::io_bounds::open_regular(path).ok()?;
    if meta.len() > 4 << 20 {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(4 << 20).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// What follows the last expansion of `word` (`$(…)`, `${…}`, `$NAME`)
/// after a `/`, when that holds no expansion: `lib.sh` of
/// `$(dirname $0)/lib.sh`.
pub(super) fn after_expansion(word: &str) -> Option<&str> {
    let bytes = word.as_bytes();
    let mut end = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        i += 1;
        match bytes.get(i) {
            Some(b'(' | b'{') => {
                let mut depth = 0usize;
                while i < bytes.len() {
                    match bytes[i] {
                        b'(' | b'{' => depth += 1,
                        b')' | b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || b"_#@*?!-".contains(&bytes[i]))
                {
                    i += 1;
                }
            }
        }
        end = Some(i);
    }
    let rest = word.get(end?..)?.strip_prefix('/')?;
    (!rest.is_empty() && !rest.contains('$')).then_some(rest)
}

/// A refusal for each call of script `rel` that loads code by a name
/// or path known only as it runs ([`dynamic`]).
fn refuse_computed(rel: &str, lines: &[String], out: &mut Reached) {
    for shown in lines.iter().take(MAX_NAMES) {
        out.patterns.insert(format!(
            "{}loads code by a name or path known only as it runs ({rel}: `{shown}`)",
            super::unknown::MARK
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A script of thousands of bare `require`s deep in the project:
    /// the places looked at stop at [`MAX_PLACES`], with a line saying so.
    #[test]
    fn places_looked_at_are_bounded() {
        let root = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(root.path()).unwrap();
        let dir = real.join("a/b/c/d/e/f/g/h");
        fs::create_dir_all(&dir).unwrap();
        let text: String = (0..3000).map(|i| format!("require('pkg{i}');\n")).collect();
        fs::write(dir.join("sum.js"), text).unwrap();
        let script = ("a/b/c/d/e/f/g/h/sum.js".to_string(), dir.join("sum.js"));
        let reached = reached(&real, &[script], &[], &[], &[], &HashMap::new(), &[]);
        assert!(
            reached.places.len() <= MAX_PLACES + 2,
            "{} places",
            reached.places.len()
        );
        assert!(reached.places.contains(&format!(
            "more than {MAX_PLACES} places: the rest not followed"
        )));
    }
}
