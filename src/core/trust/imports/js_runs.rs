//! What a JavaScript or TypeScript script reaches as it runs: its
//! computed and plain specifiers looked up as Node would, the programs
//! it runs through `child_process` and its kin, and the folders it
//! gives its children as `NODE_PATH` and `PATH`. Moved out of
//! `imports.rs` (consent round 7); no change of behaviour.

use super::{
    MAX_NAMES, Maps, Reached, dynamic, env_path, literal, node,
    places::{path_folder, place},
    refuse_computed, refuse_known_runs, refuse_runs, run_loads,
};
use std::fs;
use std::path::{Path, PathBuf};

/// What JavaScript or TypeScript file `text` (at `at`) runs: the
/// modules its computed specifiers work out to (a refusal for those
/// known only as it runs), the files its strings name, and the modules
/// it loads, each looked up as Node would.
pub(super) fn node_runs(
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
    for named in super::within(literal::js(text).paths, MAX_NAMES, out) {
        for base in [at.dir, real_root] {
            place(real_root, &base.join(&named), out, found);
        }
    }
    for (spec, dir) in super::within(specs, 2 * MAX_NAMES, out) {
        let from = node::From { dir, file: at.file };
        node::look_up(real_root, from, spec, maps, out, found);
    }
}

/// The folders JavaScript file `text` (`rel`) gives a Node child as
/// `NODE_PATH` (`process.env.NODE_PATH = "vendor"`, a child's `env:
/// {NODE_PATH: …}`; relative to where the command runs, the root): added
/// to `maps.node_path`; a value that is no literal is a refusal.
pub(super) fn node_path(
    real_root: &Path,
    text: &str,
    rel: &str,
    maps: &mut Maps,
    out: &mut Reached,
) {
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
pub(super) fn node_programs(
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
            for dir in super::within(local, MAX_NAMES, out) {
                path_folder(real_root, &dir, out, found);
            }
            if !parts.other.is_empty() {
                let shown: String = line.trim().chars().take(80).collect();
                out.patterns.insert(format!(
                    "{}changes where programs are found by a value known only as it runs \
                     ({rel}: `{shown}`)",
                    super::super::unknown::MARK
                ));
            }
            for folder in super::within(&parts.folders, MAX_NAMES, out) {
                let dir = crate::core::paths::lexical(&real_root.join(folder));
                path_folder(real_root, &dir, out, found);
            }
        }
    }
}
