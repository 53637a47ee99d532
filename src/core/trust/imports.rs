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

mod dynamic;
mod env_path;
mod literal;
mod node;
mod node_env;
mod requires;
mod run_loads;
mod sys_path;

pub use literal::run_with;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::core::module_maps::composer::Autoload;
use crate::core::module_maps::configs_above;
use crate::core::module_maps::script::Project;

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
    let mut maps = Maps {
        named_deno: import_maps
            .iter()
            .flat_map(|rel| node::named_maps(real_root, rel))
            .collect(),
        ..Maps::default()
    };
    let mut ruby_path: Vec<PathBuf> = load_path.to_vec();
    let mut perl_path: Vec<PathBuf> = load_path.to_vec();
    let mut queue = first_queue(real_root, scripts, site, &mut folders, &mut out);
    let mut read: BTreeSet<PathBuf> = BTreeSet::new();
    let mut shell_scripts: Vec<PathBuf> = Vec::new();
    let mut python_env = PythonEnv::default();
    let mut sinks = Sinks::default();
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
            Kind::Other => {}
        }
        for (rel, real) in found {
            out.files.insert(rel.clone(), real.clone());
            queue.push_back((rel, real, search.clone()));
        }
    }
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
            requires::php(text, here, real_root, &autoload)
        }
        Kind::Lua => requires::lua(text, real_root),
        _ => {
            unknown.extend(run_loads::perl_unknown(text));
            requires::perl(text, here, real_root, paths.perl, &mut unknown)
        }
    };
    refuse_computed(rel, &unknown, out);
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
/// `read` so far, or [`MAX_PLACES`] places): a line of `out` says so.
fn past_bounds(read: usize, out: &mut Reached) -> bool {
    let why = if read > MAX_FILES {
        format!("more than {MAX_FILES} files: the rest not followed")
    } else if out.places.len() > MAX_PLACES {
        format!("more than {MAX_PLACES} places: the rest not followed")
    } else {
        return false;
    };
    out.places.insert(why);
    true
}

/// What the Python scripts read give their children's environment:
/// the variables set to what is known only as they run (each with how),
/// and the lines their strings hand a shell ([`python_shell_lines`]).
#[derive(Default)]
struct PythonEnv {
    /// Each variable once, with the first way it is set.
    unknown: BTreeMap<String, String>,
    shell_lines: Vec<String>,
}

impl PythonEnv {
    fn read(&mut self, rel: &str, text: &str) {
        let lines = python_shell_lines(text);
        for line in text.lines() {
            let code = line.trim_start();
            if code.starts_with('#') {
                continue;
            }
            for (name, shown) in env_path::unknown_variables(code) {
                self.unknown
                    .entry(name)
                    .or_insert_with(|| format!("is set in {rel} by `{shown}`"));
            }
        }
        self.add_lines(rel, lines);
    }

    /// `lines`, strings file `rel` hands a shell: each a shell line, and
    /// the variables it sets to what is known only as it runs
    /// (`os.system("R=$(cat f) sh tools/run.sh")`) count.
    fn add_lines(&mut self, rel: &str, lines: Vec<String>) {
        for line in &lines {
            for (name, how) in super::unknown::unknown_variables(line) {
                self.unknown
                    .entry(name)
                    .or_insert_with(|| format!("{how} in a line {rel} hands a shell"));
            }
        }
        let room = MAX_NAMES.saturating_sub(self.shell_lines.len());
        self.shell_lines.extend(lines.into_iter().take(room));
    }

    /// A file that hands a project function that runs a shell line its
    /// argument ([`Sinks`]): its strings holding a `$` are shell lines.
    fn read_handed(&mut self, rel: &str, text: &str) {
        let lines: Vec<String> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(env_path::literals)
            .filter(|s| s.contains('$'))
            .collect();
        self.add_lines(rel, lines);
    }

    /// The same of a Node script ([`node_env`]): `process.env.X = w`,
    /// a child's `env: {X: w}`, and the strings it hands a shell.
    fn read_node(&mut self, rel: &str, text: &str) {
        if !text.contains("env") {
            return;
        }
        for (name, shown) in node_env::unknown_variables(text) {
            self.unknown
                .entry(name)
                .or_insert_with(|| format!("is set in {rel} by `{shown}`"));
        }
        self.add_lines(rel, node_env::shell_lines(text));
    }
}

/// The programs that run a line of shell given with `-c`.
const SHELLS: [&str; 5] = ["sh", "bash", "dash", "zsh", "ksh"];

/// The strings of Python `text` that hold a `$` when the file hands a
/// shell a line: it calls `os.system`, `os.popen`, `getoutput`, or
/// passes `shell=True`, or its strings name a shell and then `-c`
/// (`["sh", "-c", "sh \"$RUNNER\""]`). A file that does neither has no
/// shell lines (a `$` in a regular expression or a `string.Template`
/// is no command). The whole file counts, not the line: a call spans
/// lines.
fn python_shell_lines(text: &str) -> Vec<String> {
    if !text.contains('$') {
        return Vec::new();
    }
    let strings: Vec<String> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(env_path::literals)
        .collect();
    let calls = [
        "os.system(",
        "os.popen(",
        "shell=True",
        "getoutput(",
        "getstatusoutput(",
    ];
    let with_c = strings.windows(2).any(|w| {
        let name = w[0].rsplit('/').next().unwrap_or(&w[0]);
        SHELLS.contains(&name)
            && w[1].starts_with('-')
            && !w[1].starts_with("--")
            && w[1].contains('c')
    });
    if !with_c && !calls.iter().any(|c| text.contains(c)) {
        return Vec::new();
    }
    strings.into_iter().filter(|s| s.contains('$')).collect()
}

/// What file `rel` (at `real`, holding `text`) is read as: by its name
/// or `#!` line, else as the program that runs it reads it. A folder's
/// `__main__.py`, and a Python file known by the program that runs it,
/// run with their folder first in `search` (`python3 tools/app`,
/// `runpy.run_path("tools/app")`).
fn kind_of(
    rel: &str,
    real: &Path,
    text: &str,
    run_by: &HashMap<PathBuf, String>,
    search: &mut Vec<PathBuf>,
) -> Kind {
    let kind = match Kind::of(rel, text) {
        Kind::Other => Kind::of_program(run_by.get(real).map_or("", String::as_str)),
        kind => kind,
    };
    let by_program = kind == Kind::Python && Kind::of(rel, text) == Kind::Other;
    if (rel.ends_with("__main__.py") || by_program)
        && let Some(dir) = real.parent()
        && search.first().is_none_or(|first| first != dir)
    {
        search.insert(0, dir.to_path_buf());
    }
    kind
}

/// The program that runs each file (by its canonical path), as the
/// command's lines and the scripts read so far say, and the files read
/// as nothing in particular (`Kind::Other`) before one did.
struct Programs {
    of: HashMap<PathBuf, String>,
    read_as_other: BTreeSet<PathBuf>,
}

impl Programs {
    /// Learn what program a script of `kind` (in folder `here`, holding
    /// `text`) runs each file it names with
    /// (`subprocess.run([sys.executable, "tools/app"])`,
    /// `runpy.run_path("tools/app")`, `sh tools/app`): the files already
    /// read as nothing in particular, to be read again as that program
    /// reads them.
    fn learn(&mut self, real_root: &Path, here: &Path, kind: Kind, text: &str) -> Vec<PathBuf> {
        let named = match kind {
            Kind::Python => literal::python_programs(text),
            Kind::Shell => literal::shell_programs(text),
            Kind::Node => literal::js_programs(text),
            _ => Vec::new(),
        };
        let mut again = Vec::new();
        for (word, program) in named.into_iter().take(MAX_NAMES) {
            for base in [here, real_root] {
                let Ok(real) = fs::canonicalize(base.join(&word)) else {
                    continue;
                };
                if !real.starts_with(real_root) || self.of.contains_key(&real) {
                    continue;
                }
                self.of.insert(real.clone(), program.clone());
                if self.read_as_other.remove(&real) {
                    again.push(real);
                }
            }
        }
        again
    }
}

/// A variable one shell script (or the command's line, `outer`) sets to
/// what is known only as it runs (`export RUNNER=$(cat tools/which)` in
/// a script the command sources) and another runs (`sh "$RUNNER"`): a
/// refusal, as within one script.
/// Each script's such variables count in every other (more refusals,
/// never fewer: which sources or starts which is not followed).
/// A Python script's such variables (`os.environ["RUNNER"] = w`) count
/// in every shell script and in the shell lines of its strings.
fn shared_variables(
    scripts: &[PathBuf],
    outer: &[(String, String)],
    python: &PythonEnv,
    out: &mut Reached,
) {
    let shells_alone = python.unknown.is_empty() && outer.is_empty();
    if scripts.len() < 2 && shells_alone || scripts.is_empty() && python.unknown.is_empty() {
        return;
    }
    let texts: Vec<String> = scripts.iter().filter_map(|s| small_text(s)).collect();
    let mut inherited: Vec<(String, String)> = texts
        .iter()
        .flat_map(|t| super::unknown::unknown_variables(t))
        .chain(outer.iter().cloned())
        .chain(
            python
                .unknown
                .iter()
                .map(|(n, how)| (n.clone(), how.clone())),
        )
        .collect();
    inherited.sort();
    inherited.dedup_by(|a, b| a.0 == b.0);
    if inherited.is_empty() {
        return;
    }
    for text in &texts {
        let found = super::unknown::shell_inheriting(text, &inherited);
        out.patterns.extend(found.into_iter().take(MAX_NAMES));
    }
    // A string naming none of them is left as it was read.
    let expands = |line: &&String| {
        inherited.iter().any(|(name, _)| {
            line.contains(&format!("${name}")) || line.contains(&format!("${{{name}"))
        })
    };
    for line in python.shell_lines.iter().filter(expands) {
        let found = super::unknown::shell_inheriting(line, &inherited);
        out.patterns.extend(found.into_iter().take(MAX_NAMES));
    }
}

/// What JavaScript or TypeScript file `text` (at `at`) runs: the
/// modules its computed specifiers work out to (a refusal for those
/// known only as it runs), the files its strings name, and the modules
/// it loads, each looked up as Node would.
fn node_runs(
    real_root: &Path,
    text: &str,
    at: node::From,
    maps: &mut Maps,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let computed = dynamic::js(text);
    refuse_computed(at.file, &computed.unknown, out);
    let runs = dynamic::node_argv::js(text);
    refuse_runs(at.file, &runs.unknown, out);
    refuse_known_runs(at.file, &runs.refusals, out);
    node_path(real_root, text, at.file, maps, out);
    node_programs(real_root, text, at, out, found);
    let paths = run_loads::node_paths(text, at.dir, real_root);
    refuse_computed(at.file, &paths.unknown, out);
    for dir in paths.folders {
        let dir = fs::canonicalize(&dir).unwrap_or(dir);
        if dir.starts_with(real_root) && !maps.module_paths.contains(&dir) {
            maps.module_paths.push(dir);
        }
    }
    let specs = computed
        .names
        .iter()
        .map(|s| (s.as_str(), at.dir))
        .chain(computed.from_root.iter().map(|s| (s.as_str(), real_root)));
    let plain = node::specifiers(text);
    let specs = specs.chain(plain.iter().map(|s| (s.as_str(), at.dir)));
    for named in literal::js(text).paths.into_iter().take(MAX_NAMES) {
        for base in [at.dir, real_root] {
            place(real_root, &base.join(&named), out, found);
        }
    }
    for (spec, dir) in specs.take(2 * MAX_NAMES) {
        let from = node::From { dir, file: at.file };
        node::look_up(real_root, from, spec, maps, out, found);
    }
}

/// The folders JavaScript file `text` (`rel`) gives a Node child as
/// `NODE_PATH` (`process.env.NODE_PATH = "vendor"`, a child's `env:
/// {NODE_PATH: …}`; relative to where the command runs, the root): added
/// to `maps.node_path`; a value that is no literal is a refusal.
fn node_path(real_root: &Path, text: &str, rel: &str, maps: &mut Maps, out: &mut Reached) {
    for line in text.lines().filter(|l| l.contains("NODE_PATH")) {
        let code = match line.trim_start().starts_with("//") {
            true => continue,
            false => line,
        };
        for given in env_path::given(code, "NODE_PATH") {
            let parts = env_path::parts(&given, "NODE_PATH");
            if !parts.other.is_empty() {
                let shown: String = code.trim().chars().take(80).collect();
                refuse_computed(rel, &[shown], out);
            }
            for folder in parts.folders {
                let dir = crate::core::paths::lexical(&real_root.join(folder));
                let dir = fs::canonicalize(&dir).unwrap_or(dir);
                if dir.starts_with(real_root) && !maps.node_path.contains(&dir) {
                    maps.node_path.push(dir);
                }
            }
        }
    }
}

/// The folders JavaScript file `text` (`rel`) puts in its children's
/// `PATH` (`process.env.PATH = "bin:" + process.env.PATH`, a child's
/// `env: {PATH: …}`; relative to where the command runs, the root): the
/// programs of a project folder there are covered, as for Python's
/// ([`sys_path::added`]); a part that is no literal (nor the inherited
/// value) is a refusal.
fn node_programs(
    real_root: &Path,
    text: &str,
    at: node::From,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let rel = at.file;
    for line in text.lines().filter(|l| l.contains("PATH")) {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for given in env_path::given(line, "PATH") {
            let mut parts = env_path::parts(&given, "PATH");
            // `path.join(__dirname, "bin")`: the script's folder and
            // literals (round 7), a folder as a literal is.
            let mut local = Vec::new();
            parts.other.retain(|part| {
                let dir = part
                    .contains("__dirname")
                    .then(|| run_loads::js_folder(part, at.dir, real_root))
                    .flatten();
                dir.map(|dir| local.push(dir)).is_none()
            });
            for dir in local.into_iter().take(MAX_NAMES) {
                path_folder(real_root, &dir, out, found);
            }
            if !parts.other.is_empty() {
                let shown: String = line.trim().chars().take(80).collect();
                out.patterns.insert(format!(
                    "{}changes where programs are found by a value known only as it runs \
                     ({rel}: `{shown}`)",
                    super::unknown::MARK
                ));
            }
            for folder in parts.folders.iter().take(MAX_NAMES) {
                let dir = crate::core::paths::lexical(&real_root.join(folder));
                path_folder(real_root, &dir, out, found);
            }
        }
    }
}

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

/// What a file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Python,
    Shell,
    /// JavaScript or TypeScript (Node, Deno, Bun, tsx, ts-node).
    Node,
    Ruby,
    Php,
    Lua,
    Perl,
    Other,
}

impl Kind {
    /// What a program (`python3`, `/bin/sh`, `node`) reads its script as.
    fn of_program(program: &str) -> Kind {
        let name = program.rsplit('/').next().unwrap_or(program);
        match name {
            "" => Kind::Other,
            _ => Kind::of("", &format!("#!{name}\n")),
        }
    }

    fn of(rel: &str, text: &str) -> Kind {
        let first = text.lines().next().unwrap_or("");
        let shebang = first.strip_prefix("#!").unwrap_or("");
        // The interpreter: a word of the shebang, its folder cut
        // (`/usr/bin/env -S deno run`, `/usr/bin/node`).
        let words: Vec<&str> = shebang
            .split_whitespace()
            .map(|w| w.rsplit('/').next().unwrap_or(w))
            .collect();
        let ext = rel.rsplit_once('.').map_or("", |(_, e)| e);
        let named = |names: &[&str]| words.iter().any(|w| names.iter().any(|n| w.starts_with(n)));
        // A `.pth` file's `import` lines run as Python starts.
        if matches!(ext, "py" | "pyw" | "pth") || shebang.contains("python") {
            Kind::Python
        } else if matches!(ext, "sh" | "bash")
            || shebang.ends_with("sh")
            || shebang.contains("bash")
        {
            Kind::Shell
        } else if matches!(
            ext,
            "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx"
        ) || named(&["node", "nodejs", "deno", "bun", "tsx", "ts-node"])
        {
            Kind::Node
        } else if ext == "rb" || named(&["ruby"]) {
            Kind::Ruby
        } else if ext == "php" || named(&["php"]) {
            Kind::Php
        } else if ext == "lua" || named(&["lua", "luajit"]) {
            Kind::Lua
        } else if matches!(ext, "pl" | "pm") || named(&["perl"]) {
            Kind::Perl
        } else {
            Kind::Other
        }
    }
}

/// A file's text, when it is a regular file of at most 4 MiB (a FIFO
/// swapped in is refused without waiting).
pub(super) fn small_text(path: &Path) -> Option<String> {
    use std::io::Read;
    let (file, meta) = crate::core::io_bounds::open_regular(path).ok()?;
    if meta.len() > 4 << 20 {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(4 << 20).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// One imported name: how many dots lead it (`from ..a import b`: 2) and
/// its dotted parts (`["a", "b"]`, or `["b"]` for `from . import b`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Name {
    level: usize,
    parts: Vec<String>,
}

/// The names the import statements of a Python text name: `import a.b
/// as c, d`; `from a.b import c, d` (`a.b`, and `a.b.c`, `a.b.d` which
/// may be submodules); the relative forms; `import_module("a")` and
/// `__import__("a")`.
fn python_imports(text: &str) -> Vec<Name> {
    let mut out = Vec::new();
    for line in python_lines(text) {
        let line = line.split('#').next().unwrap_or("").trim();
        for stmt in line.split(';').map(str::trim) {
            if let Some(rest) = stmt.strip_prefix("import ") {
                for item in rest.split(',') {
                    let module = item.split(" as ").next().unwrap_or("").trim();
                    out.extend(dotted(module, 0));
                }
            } else if let Some(rest) = stmt.strip_prefix("from ") {
                let Some((module, names)) = rest.split_once(" import ") else {
                    continue;
                };
                let module = module.trim();
                let level = module.chars().take_while(|&c| c == '.').count();
                let module = &module[level..];
                let base = dotted(module, level);
                let names = names
                    .trim()
                    .trim_start_matches('(')
                    .trim_end_matches([')', '\\']);
                for item in names.split(',') {
                    let item = item.split(" as ").next().unwrap_or("").trim();
                    if item.is_empty() || item == "*" {
                        continue;
                    }
                    let full = if module.is_empty() {
                        item.to_string()
                    } else {
                        format!("{module}.{item}")
                    };
                    out.extend(dotted(&full, level));
                }
                out.extend(base);
            }
            // conftest.py's `pytest_plugins = ["tools.plug"]`: modules
            // pytest imports.
            if stmt.starts_with("pytest_plugins") && stmt.contains('=') {
                for name in literal::string_literals(stmt) {
                    out.extend(dotted(name, 0));
                }
            }
            for call in ["import_module(", "__import__("] {
                for (at, _) in stmt.match_indices(call) {
                    let arg = stmt[at + call.len()..].trim_start();
                    let Some(quote) = arg.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                        continue;
                    };
                    let inner = &arg[1..];
                    if let Some(end) = inner.find(quote) {
                        out.extend(dotted(&inner[..end], 0));
                    }
                }
            }
        }
    }
    out
}

/// The lines of Python source `text` as its statements run on: a line
/// ended by `\\` goes on with the next, and `from m import (` with the
/// lines up to its `)` (64 at most).
fn python_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // The last line goes on; lines left inside `import (`.
    let mut joining = false;
    let mut open = 0usize;
    for line in text.lines() {
        let (body, continues) = match line.strip_suffix('\\') {
            Some(body) => (body, true),
            None => (line, false),
        };
        match out.last_mut() {
            Some(last) if joining => {
                last.push(' ');
                last.push_str(body.trim());
            }
            _ => out.push(body.to_string()),
        }
        let code = body.split('#').next().unwrap_or("");
        if open > 0 {
            open = if code.contains([')', ']']) {
                0
            } else {
                open - 1
            };
        } else if (code.trim_start().starts_with("from ") && code.contains("import (")
            || code.trim_start().starts_with("pytest_plugins") && code.contains(['[', '(']))
            && !code.contains([')', ']'])
        {
            open = 64;
        }
        joining = continues || open > 0;
    }
    out
}

/// `a.b.c` as a [`Name`], `None` when it is not a dotted name.
fn dotted(module: &str, level: usize) -> Option<Name> {
    if module.is_empty() {
        return (level > 0).then_some(Name {
            level,
            parts: Vec::new(),
        });
    }
    let parts: Vec<String> = module.split('.').map(str::to_string).collect();
    let ok = parts.iter().all(|p| {
        !p.is_empty()
            && p.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !p.starts_with(|c: char| c.is_ascii_digit())
    });
    ok.then_some(Name { level, parts })
}

/// The folder `level` dots name from a module in `here` (`.`: `here`).
fn package_dir(here: &Path, level: usize) -> Option<PathBuf> {
    let mut dir = here.to_path_buf();
    for _ in 1..level {
        dir = dir.parent()?.to_path_buf();
    }
    Some(dir)
}

/// The files a shell text `source`s or `.`s by a relative path.
fn shell_sources(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        for stmt in statements(line) {
            let rest = stmt
                .strip_prefix("source ")
                .or_else(|| stmt.strip_prefix(". "));
            let Some(rest) = rest else { continue };
            let word = first_word(rest);
            // `"$(dirname "$0")/lib.sh"`, `${BASH_SOURCE%/*}/lib.sh`,
            // `$DIR/lib.sh`: the folder is the script's (looked for there
            // and in the root, as any sourced path).
            let word = after_expansion(&word).unwrap_or(&word);
            if !word.is_empty() && !word.starts_with('/') && !word.contains('$') {
                out.push(word.to_string());
            }
        }
    }
    out
}

/// The statements of a shell line: split at `;`, `&` and `|` outside
/// `$(…)` and `${…}`, trimmed.
fn statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        let after = std::mem::replace(&mut previous, c);
        match c {
            '(' | '{' if after == '$' || depth > 0 => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            // A function's `{ … }`, a subshell's `( … )`: commands inside.
            ';' | '&' | '|' | '{' | '}' | '(' | ')' if depth == 0 => {
                out.push(line[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    out.push(line[start..].trim());
    out
}

/// The first shell word of `text`: up to a blank outside `$(…)` and
/// `${…}`, its quotes dropped.
fn first_word(text: &str) -> String {
    let mut depth = 0usize;
    let mut word = String::new();
    for c in text.trim_start().chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth == 0 => break,
            _ => {}
        }
        if c != '"' && c != '\'' {
            word.push(c);
        }
    }
    word
}

/// What follows the last expansion of `word` (`$(…)`, `${…}`, `$NAME`)
/// after a `/`, when that holds no expansion: `lib.sh` of
/// `$(dirname $0)/lib.sh`.
fn after_expansion(word: &str) -> Option<&str> {
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

/// Where a Python file is read: the folders a top-level import is
/// looked for in, in order, its own folder, and its name without `.py`.
struct Here<'a> {
    /// The file, root-relative.
    file: &'a str,
    search: &'a [PathBuf],
    dir: &'a Path,
    stem: &'a str,
}

/// What Python file `text` runs: what its folder holds first
/// ([`python_folder`]), the files its strings name, and the modules it
/// imports, each looked up as Python would. The functions it defines
/// that run a parameter ([`dynamic::argv::Sink`]).
fn python_runs(
    real_root: &Path,
    text: &str,
    at: Here,
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) -> Vec<dynamic::argv::Sink> {
    python_folder(real_root, &at, folders, out, found);
    for named in literal::python(text).paths.into_iter().take(MAX_NAMES) {
        for base in [at.dir, real_root] {
            let path = base.join(&named);
            // `runpy.run_path("tools/app")`: a folder runs its `__main__.py`.
            match path.is_dir() {
                true => place(real_root, &path.join("__main__.py"), out, found),
                false => place(real_root, &path, out, found),
            }
        }
    }
    // `exec("import helper")`: the source a string holds is read too;
    // `import_module(name)` with `name = "helper"` names it.
    let code = literal::python_code(text);
    let computed = dynamic::python(text);
    refuse_computed(at.file, &computed.unknown, out);
    refuse_runs(at.file, &computed.runs, out);
    refuse_known_runs(at.file, &computed.refusals, out);
    // `python3 -m pkg` in a string runs `pkg/__main__.py` too.
    let run = literal::python_modules(text, &['\'', '"']);
    let mains = run.iter().map(|m| format!("{m}.__main__"));
    let names = python_imports(text)
        .into_iter()
        .chain(python_imports(&code))
        .chain(computed.names.iter().filter_map(|n| dotted(n, 0)))
        .chain(
            run.iter()
                .cloned()
                .chain(mains)
                .filter_map(|n| dotted(&n, 0)),
        );
    for name in names.take(MAX_NAMES) {
        let bases: Vec<PathBuf> = match name.level {
            0 => at.search.to_vec(),
            n => package_dir(at.dir, n).into_iter().collect(),
        };
        for base in &bases {
            look_up(real_root, base, &name.parts, folders, out, found);
        }
    }
    let module = module_name(at.dir, at.stem);
    computed
        .sinks
        .into_iter()
        .map(|s| s.in_module(&module))
        .collect()
}

/// The name a Python file is imported by (its last part): its stem, or
/// for a package's `__init__.py` its folder's name.
fn module_name(dir: &Path, stem: &str) -> String {
    match stem {
        "__init__" => dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string(),
        _ => stem.to_string(),
    }
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

/// What a Python file adds to its module search ([`sys_path::added`]):
/// each folder joins `search` (for it and what it imports), a site
/// folder's `.pth` files are covered, and a folder known only as it runs
/// is a refusal.
fn python_search(
    real_root: &Path,
    added: sys_path::Added,
    search: &mut Vec<PathBuf>,
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    for why in added.unknown {
        out.patterns
            .insert(format!("{}{why}", super::unknown::MARK));
    }
    // `os.environ["PATH"] = "tools" + os.pathsep + …`: its programs.
    for dir in added.programs.iter().take(MAX_NAMES) {
        path_folder(real_root, dir, out, found);
    }
    let real = |dir: &PathBuf| fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
    for dir in added.folders.iter().map(real) {
        if !search.contains(&dir) {
            search.push(dir);
        }
    }
    let sites: Vec<PathBuf> = added
        .sites
        .iter()
        .map(real)
        .filter(|d| d.starts_with(real_root))
        .collect();
    found.extend(site_startup(real_root, &sites, folders, out));
}

/// The `.pth` files of `site` (a project virtual environment's
/// `site-packages`), which its Python runs as it starts: each covered,
/// and their names recorded as one place per folder (a new one withdraws
/// the consent). The files found, to be read in turn.
fn site_startup(
    real_root: &Path,
    site: &[PathBuf],
    folders: &mut Folders,
    out: &mut Reached,
) -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for dir in site {
        let pth: Vec<String> = folders
            .names(dir)
            .iter()
            .filter(|n| n.ends_with(".pth"))
            .cloned()
            .collect();
        out.places.insert(format!(
            "{}/: .pth files {}",
            rel_of(real_root, dir),
            pth.join(" ")
        ));
        for name in pth.iter().take(MAX_NAMES) {
            place(real_root, &dir.join(name), out, &mut found);
        }
    }
    found
}

/// What shell script `text` (in folder `here`) runs: the files it
/// sources and those its commands name, looked for beside it and in the
/// root; the scripts it names by a pattern.
fn shell_runs(
    real_root: &Path,
    text: &str,
    here: &Path,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let named = literal::shell(text);
    out.patterns
        .extend(named.patterns.into_iter().take(MAX_NAMES));
    out.patterns
        .extend(super::unknown::shell(text).into_iter().take(MAX_NAMES));
    let sourced = shell_sources(text).into_iter().chain(named.paths);
    for sourced in sourced.take(2 * MAX_NAMES) {
        for base in [here, real_root] {
            place(real_root, &base.join(&sourced), out, found);
        }
    }
    for folder in named.folders.iter().take(MAX_NAMES) {
        for base in [here, real_root] {
            path_folder(real_root, &base.join(folder), out, found);
        }
    }
}

/// A folder a script puts in `PATH` (`PATH=bin:$PATH`): every program in
/// it may run by a bare name, so each file is covered and its names are
/// recorded as one place (a new one withdraws the consent); nothing
/// there is recorded too.
fn path_folder(
    real_root: &Path,
    dir: &Path,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let real = match fs::canonicalize(dir) {
        Ok(real) if real.starts_with(real_root) && real.is_dir() => real,
        Ok(_) => return,
        Err(_) => {
            out.places
                .insert(format!("{}: nothing", rel_of(real_root, dir)));
            return;
        }
    };
    let names = listing(&real);
    out.places.insert(format!(
        "{}/: programs {}",
        rel_of(real_root, &real),
        names.join(" ")
    ));
    for name in names.iter().take(MAX_NAMES) {
        place(real_root, &real.join(name), out, found);
    }
}

/// What a place that lists a script folder's importable names says
/// between the folder and the names.
pub const PYTHON_FINDS: &str = ": Python finds ";

/// What Python finds before any module a script imports, or the
/// standard library's modules import in turn (`argparse` imports
/// `gettext`): the importable names in the script's own folder
/// (`sys.path[0]`, the first of `search`): its modules and packages,
/// recorded as one place, so a module added there withdraws the consent
/// (not `__pycache__`, which Python writes itself). And the module's own
/// compiled files that Python runs without checking them against its
/// source (`__pycache__/NAME.*.pyc` marked unchecked-hash, PEP 552):
/// covered. It never writes those itself, so running the command leaves
/// the consent as it was.
fn python_folder(
    real_root: &Path,
    at: &Here,
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    if let Some(first) = at.search.first() {
        // A file Python imports, or a package (a folder without
        // `__init__` is a namespace portion: found only when no module
        // of the name is, so it shadows nothing).
        let importable: Vec<String> = folders
            .names(first)
            .iter()
            .filter(|n| match n.rsplit_once('.') {
                Some((stem, ext)) => {
                    !stem.is_empty() && ["py", "pyc", "pyw", "so", "pyd"].contains(&ext)
                }
                None => ["__init__.py", "__init__.pyc"]
                    .iter()
                    .any(|i| first.join(n).join(i).is_file()),
            })
            .cloned()
            .collect();
        out.places.insert(format!(
            "{}/{PYTHON_FINDS}{}",
            rel_of(real_root, first),
            importable.join(" ")
        ));
    }
    let cache = at.dir.join("__pycache__");
    let own = format!("{}.", at.stem);
    let compiled: Vec<String> = folders
        .names(&cache)
        .iter()
        .filter(|n| n.starts_with(&own) && n.ends_with(".pyc"))
        .filter(|n| unchecked_pyc(&cache.join(n)))
        .cloned()
        .collect();
    for name in compiled {
        place(real_root, &cache.join(name), out, found);
    }
}

/// Whether the compiled Python file at `path` is one Python runs without
/// checking it against its source: its flags (bytes 4–8) say hash-based
/// and not checked.
fn unchecked_pyc(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    // A FIFO the repository ships under that name must not block.
    crate::core::io_bounds::open_regular(path)
        .and_then(|(mut f, _)| f.read_exact(&mut head))
        .is_ok_and(|()| head[4] & 0b11 == 0b01)
}

/// The names in each folder looked at, listed once.
#[derive(Default)]
struct Folders {
    listed: HashMap<PathBuf, Vec<String>>,
}

/// The names in `dir` (at most [`MAX_ENTRIES`]), sorted; none when it
/// cannot be read.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_ENTRIES)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

impl Folders {
    fn names(&mut self, dir: &Path) -> &[String] {
        self.listed
            .entry(dir.to_path_buf())
            .or_insert_with(|| listing(dir))
    }
}

/// Look `parts` up in `base` as Python would: for its first part, every
/// entry named `part` or `part.<suffix>` (`.py`, `.pyc`, `.so`, …) is
/// recorded (nothing there too); a file is reached; a folder is a package
/// whose `__init__.py` is reached and in which the next part is looked up.
fn look_up(
    real_root: &Path,
    base: &Path,
    parts: &[String],
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let Some((first, rest)) = parts.split_first() else {
        // `from . import x` names `x` below; the package itself is here.
        place(real_root, &base.join("__init__.py"), out, found);
        return;
    };
    let Ok(real_base) = fs::canonicalize(base) else {
        return;
    };
    if !real_base.starts_with(real_root) {
        return;
    }
    let dotted = format!("{first}.");
    let matching: Vec<String> = folders
        .names(&real_base)
        .iter()
        .filter(|n| *n == first || n.starts_with(&dotted))
        .cloned()
        .collect();
    let shown = rel_of(real_root, &real_base.join(first));
    if matching.is_empty() {
        out.places.insert(format!("{shown}: nothing"));
        return;
    }
    out.places
        .insert(format!("{shown}: {}", matching.join(" ")));
    for name in matching {
        let path = real_base.join(&name);
        if name == *first && path.is_dir() {
            place(real_root, &path.join("__init__.py"), out, found);
            if !rest.is_empty() {
                look_up(real_root, &path, rest, folders, out, found);
            }
        } else {
            place(real_root, &path, out, found);
        }
    }
}

/// `path` reached when it is a regular file inside `real_root` (links
/// followed, and must stay inside); recorded as a place either way.
fn place(real_root: &Path, path: &Path, out: &mut Reached, found: &mut Vec<(String, PathBuf)>) {
    let real = match fs::canonicalize(path) {
        Ok(real) if real.starts_with(real_root) => real,
        Ok(_) => {
            out.places
                .insert(format!("{}: outside the project", rel_of(real_root, path)));
            return;
        }
        Err(_) => {
            out.places
                .insert(format!("{}: nothing", rel_of(real_root, path)));
            return;
        }
    };
    if !fs::metadata(&real).is_ok_and(|m| m.is_file()) {
        return;
    }
    let rel = rel_of(real_root, &real);
    if !out.files.contains_key(&rel) {
        found.push((rel, real));
    }
}

/// Record `candidates` in order up to the first that holds a file (a file
/// that appears at an earlier one later would be loaded instead): each
/// missing one as nothing, one leading out of the root as such, the file
/// reached. A folder is passed over. Whether a file (or a way out) ended
/// the search.
fn first_of(
    real_root: &Path,
    candidates: &[PathBuf],
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) -> bool {
    for path in candidates {
        if out.places.len() > MAX_PLACES {
            out.places.insert(format!(
                "more than {MAX_PLACES} places: the rest not followed"
            ));
            return true;
        }
        let shown = rel_of(real_root, &crate::core::paths::lexical(path));
        // Most places hold nothing: one `lstat` says so, where resolving
        // the path costs a `readlink` per component.
        if fs::symlink_metadata(path).is_err() {
            out.places.insert(format!("{shown}: nothing"));
            continue;
        }
        match fs::canonicalize(path) {
            Ok(real) if !real.starts_with(real_root) => {
                out.places.insert(format!("{shown}: outside the project"));
                return true;
            }
            Ok(real) if real.is_dir() => {}
            Ok(real) => {
                let rel = rel_of(real_root, &real);
                out.places.insert(format!("{shown}: file"));
                if !out.files.contains_key(&rel) && !found.iter().any(|(r, _)| *r == rel) {
                    found.push((rel, real));
                }
                return true;
            }
            Err(_) => {
                out.places.insert(format!("{shown}: nothing"));
            }
        }
    }
    false
}

/// `path` relative to the root, `/`-separated (as given when outside).
fn rel_of(real_root: &Path, path: &Path) -> String {
    match path.strip_prefix(real_root) {
        Ok(rel) => crate::core::walk::rel_string(rel),
        Err(_) => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_statements_are_read_as_python_reads_them() {
        let names = |text: &str| -> Vec<(usize, String)> {
            python_imports(text)
                .into_iter()
                .map(|n| (n.level, n.parts.join(".")))
                .collect()
        };
        assert_eq!(
            names("import json, os.path as p\nfrom helper import run, Tool as T\n"),
            [
                (0, "json".to_string()),
                (0, "os.path".to_string()),
                (0, "helper.run".to_string()),
                (0, "helper.Tool".to_string()),
                (0, "helper".to_string()),
            ]
        );
        assert_eq!(
            names(
                "from . import a\nfrom ..b import c  # x\nm = importlib.import_module('plug.x')\n"
            ),
            [
                (1, "a".to_string()),
                (1, String::new()),
                (2, "b.c".to_string()),
                (2, "b".to_string()),
                (0, "plug.x".to_string()),
            ]
        );
        assert!(names("x = 'import'\nprint(1)\n").is_empty());
    }

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

    /// An import continued by `\\` or inside `from m import (` names
    /// what follows (recheck of sweep 10: `import os, \\` / `helper` was
    /// read as `os` alone).
    #[test]
    fn continued_imports_are_read_whole() {
        let names = |text: &str| -> Vec<String> {
            python_imports(text)
                .into_iter()
                .map(|n| n.parts.join("."))
                .collect()
        };
        assert_eq!(
            names("import os, \\\n    helper\nx = 1\n"),
            ["os", "helper"]
        );
        assert_eq!(
            names("from . import (\n    a,\n    b,  # c\n)\nimport d\n"),
            // `""`: the package itself (`from . import`).
            ["a", "b", "", "d"]
        );
    }

    /// A Python file's strings are shell lines only when it hands a
    /// shell a line (round 13: pip's `$base` scheme templates and a
    /// regular expression's `$(?:…)` read as commands were refusals).
    #[test]
    fn strings_a_python_file_hands_a_shell_are_its_shell_lines() {
        assert_eq!(
            python_shell_lines("subprocess.run(['sh', '-c', 'sh \"$R\"'])\n"),
            ["sh \"$R\""]
        );
        assert_eq!(
            python_shell_lines("subprocess.run('x $R',\n    shell=True)\n"),
            ["x $R"]
        );
        assert!(
            python_shell_lines("re.compile(r'^a$(?:b|c)')\nt = Template('$base/lib')\n").is_empty()
        );
    }

    #[test]
    fn sourced_shell_files_are_read() {
        assert_eq!(
            shell_sources("source ./lib.sh\n. \"common.sh\"; echo\nsource $X\nsource /etc/x\n"),
            ["./lib.sh", "common.sh"]
        );
    }

    /// The idioms that source a file beside the script name it by the
    /// script's folder: what follows that folder is read (round eight).
    #[test]
    fn files_sourced_from_the_scripts_folder_are_read() {
        let text = ". \"$(dirname \"$0\")/lib.sh\"\n\
                    source \"${BASH_SOURCE%/*}/../common/env.sh\"\n\
                    source $HERE/util.sh\n\
                    . \"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)/more.sh\"\n\
                    source \"$DIR/$NAME.sh\"\n";
        assert_eq!(
            shell_sources(text),
            ["lib.sh", "../common/env.sh", "util.sh", "more.sh"]
        );
    }
}
