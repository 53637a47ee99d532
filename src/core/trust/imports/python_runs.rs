//! What a Python script reaches as it runs: its imports looked up where
//! Python looks (the script's folder, the root under `-m`, `sys.path`
//! additions, `site`'s `.pth` files), the programs and scripts it runs,
//! the variables it gives its children, and the script folder's
//! importable names recorded as one place. Moved out of `imports.rs`
//! (consent round 7); no change of behaviour.

use super::{
    MAX_NAMES, Reached, dynamic, env_path, literal, node_env,
    places::{Folders, look_up, path_folder, place, rel_of},
    python_read::{dotted, package_dir, python_imports, python_shell_lines},
    refuse_computed, refuse_known_runs, refuse_runs, small_text, sys_path,
};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// What the Python scripts read give their children's environment:
/// the variables set to what is known only as they run (each with how),
/// and the lines their strings hand a shell ([`python_shell_lines`]).
#[derive(Default)]
pub(super) struct PythonEnv {
    /// Each variable once, with the first way it is set.
    pub(super) unknown: BTreeMap<String, String>,
    pub(super) shell_lines: Vec<String>,
}

impl PythonEnv {
    pub(super) fn read(&mut self, rel: &str, text: &str) {
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
    pub(super) fn add_lines(&mut self, rel: &str, lines: Vec<String>) {
        for line in &lines {
            for (name, how) in super::super::unknown::unknown_variables(line) {
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
    pub(super) fn read_handed(&mut self, rel: &str, text: &str) {
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
    pub(super) fn read_node(&mut self, rel: &str, text: &str) {
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

/// A variable one shell script (or the command's line, `outer`) sets to
/// what is known only as it runs (`export RUNNER=$(cat tools/which)` in
/// a script the command sources) and another runs (`sh "$RUNNER"`): a
/// refusal, as within one script.
/// Each script's such variables count in every other (more refusals,
/// never fewer: which sources or starts which is not followed).
/// A Python script's such variables (`os.environ["RUNNER"] = w`) count
/// in every shell script and in the shell lines of its strings.
pub(super) fn shared_variables(
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
        .flat_map(|t| super::super::unknown::unknown_variables(t))
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
        let found = super::super::unknown::shell_inheriting(text, &inherited);
        out.patterns.extend(found.into_iter().take(MAX_NAMES));
    }
    // A string naming none of them is left as it was read.
    let expands = |line: &&String| {
        inherited.iter().any(|(name, _)| {
            line.contains(&format!("${name}")) || line.contains(&format!("${{{name}"))
        })
    };
    for line in python.shell_lines.iter().filter(expands) {
        let found = super::super::unknown::shell_inheriting(line, &inherited);
        out.patterns.extend(found.into_iter().take(MAX_NAMES));
    }
}

/// Where a Python file is read: the folders a top-level import is
/// looked for in, in order, its own folder, and its name without `.py`.
pub(super) struct Here<'a> {
    /// The file, root-relative.
    pub(super) file: &'a str,
    pub(super) search: &'a [PathBuf],
    pub(super) dir: &'a Path,
    pub(super) stem: &'a str,
}

/// What Python file `text` runs: what its folder holds first
/// ([`python_folder`]), the files its strings name, and the modules it
/// imports, each looked up as Python would. The functions it defines
/// that run a parameter ([`dynamic::argv::Sink`]).
pub(super) fn python_runs(
    real_root: &Path,
    text: &str,
    at: Here,
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) -> Vec<dynamic::argv::Sink> {
    python_folder(real_root, &at, folders, out, found);
    for named in super::within(literal::python(text).paths, MAX_NAMES, out) {
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
    for name in super::within(names, MAX_NAMES, out) {
        let bases: Vec<PathBuf> = match name.level {
            0 => at.search.to_vec(),
            n => package_dir(at.dir, n).into_iter().collect(),
        };
        for base in &bases {
            look_up(real_root, base, &name.parts, folders, out, found);
        }
        // `import distutils` where setuptools' shim runs at start.
        let shimmed = match name.level {
            0 => out.shims.distutils(&name.parts),
            _ => Vec::new(),
        };
        for (site, parts) in shimmed {
            look_up(real_root, &site, &parts, folders, out, found);
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
pub(super) fn module_name(dir: &Path, stem: &str) -> String {
    match stem {
        "__init__" => dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string(),
        _ => stem.to_string(),
    }
}

/// What a Python file adds to its module search ([`sys_path::added`]):
/// each folder joins `search` (for it and what it imports), a site
/// folder's `.pth` files are covered, and a folder known only as it runs
/// is a refusal.
pub(super) fn python_search(
    real_root: &Path,
    added: sys_path::Added,
    search: &mut Vec<PathBuf>,
    folders: &mut Folders,
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    for why in added.unknown {
        out.patterns
            .insert(format!("{}{why}", super::super::unknown::MARK));
    }
    // `os.environ["PATH"] = "tools" + os.pathsep + …`: its programs.
    for dir in super::within(&added.programs, MAX_NAMES, out) {
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
pub(super) fn site_startup(
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
        for name in super::within(&pth, MAX_NAMES, out) {
            if out.shims.recognized(real_root, dir, name) {
                continue;
            }
            place(real_root, &dir.join(name), out, &mut found);
        }
        // Imported as it starts from anywhere on its path, the
        // environment's own folder first (recheck 25: one added there
        // ran unreviewed).
        for hook in ["sitecustomize.py", "usercustomize.py"] {
            place(real_root, &dir.join(hook), out, &mut found);
        }
    }
    found
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
/// compiled files that Python may run in place of its source
/// (`__pycache__/NAME.*.pyc` marked hash-based, PEP 552): covered, and
/// their names a place (one added later withdraws the consent). It never
/// writes those itself, so running the command leaves the consent as it
/// was.
pub(super) fn python_folder(
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
    // A `.pth` file or a script without `.py` is never imported: no
    // compiled file stands in for it.
    if !at.file.ends_with(".py") {
        return;
    }
    let cache = at.dir.join("__pycache__");
    let own = format!("{}.", at.stem);
    let compiled: Vec<String> = folders
        .names(&cache)
        .iter()
        .filter(|n| n.starts_with(&own) && n.ends_with(".pyc"))
        .filter(|n| hash_based_pyc(&cache.join(n)))
        .cloned()
        .collect();
    // Their names are a place (Python writes timestamp ones only, which
    // count for nothing here): one added later is a place new to the
    // consent, which withdraws it as a changed one does.
    if !compiled.is_empty() {
        out.places.insert(format!(
            "{}/__pycache__/{own}*.pyc (hash-based): {}",
            rel_of(real_root, at.dir),
            compiled.join(" ")
        ));
    }
    for name in compiled {
        place(real_root, &cache.join(name), out, found);
    }
}

/// Whether the compiled Python file at `path` is hash-based (its flags,
/// bytes 4–8): Python runs an unchecked one without its source, and a
/// checked one whenever it carries its source's hash, whatever code
/// follows (recheck 28: a checked pyc ran new code beside an unchanged
/// source). Python itself writes timestamp-based ones.
pub(super) fn hash_based_pyc(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    // A FIFO the repository ships under that name must not block.
    crate::core::io_bounds::open_regular(path)
        .and_then(|(mut f, _)| f.read_exact(&mut head))
        .is_ok_and(|()| head[4] & 0b01 == 0b01)
}
