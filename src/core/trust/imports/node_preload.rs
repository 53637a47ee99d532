//! The modules Node loads before a command's script (consent round 12,
//! item 1): `node -r ./tools/pre`, `--require`, `--import`, `--loader`,
//! `--experimental-loader` (also written `--require=…`), and the same
//! inside a `NODE_OPTIONS=` assignment. Each is looked up as the script's
//! own `require` would be ([`super::node::look_up`]: the name with each
//! extension, a folder's `main` or `index`, a bare name in every
//! `node_modules` up to the root), so `-r ./tools/pre` covers
//! `tools/pre.js` and `-r dotenv/config` the project's
//! `node_modules/dotenv/config.js`; every place tried is recorded, so a
//! file added there later lapses the consent. A value known only as the
//! command runs is refused where the shell line is read
//! (`unknown::loader_variable`).

use std::path::{Path, PathBuf};

use super::places::rel_of;
use super::{MAX_NAMES, Maps, Reached, node};

/// The options whose value is a module Node loads first, in any tool that
/// passes them on (`mocha --require`, `tsx --import`).
const LONG: [&str; 5] = [
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--preload",
];

/// The programs after which `-r` is Node's `--require` (ts-node's,
/// mocha's and Bun's `-r` load a module first too; so do the runners
/// that pass it to Node or read it so: nodemon, ts-node-dev, node-dev,
/// babel-node, Electron, ts-mocha). Not nyc's or c8's: their `-r` is a
/// reporter.
const NODES: [&str; 14] = [
    "node",
    "nodejs",
    "ts-node",
    "tsx",
    "mocha",
    "_mocha",
    "ts-mocha",
    "bun",
    "nodemon",
    "ts-node-dev",
    "tsnd",
    "node-dev",
    "babel-node",
    "electron",
];

/// The specifiers a command's words (quotes removed) preload, in order.
pub fn specifiers(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = Vec::new();
    for word in words {
        match word.strip_prefix("NODE_OPTIONS=") {
            Some(value) => {
                let inner: Vec<String> = value.split_whitespace().map(String::from).collect();
                read(&inner, true, &mut out);
            }
            None => rest.push(word.clone()),
        }
    }
    read(&rest, false, &mut out);
    out
}

/// The `NODE_OPTIONS=…` lines of the files Node reads its environment
/// from (`--env-file=.env`, `--env-file-if-exists`, Node 20: it honours
/// `NODE_OPTIONS` there), each as a word `NODE_OPTIONS=value` for
/// [`specifiers`]; files read from `dir` (root-relative), inside the root.
pub fn env_file_words(real_root: &Path, dir: &str, words: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        match word.split_once('=') {
            Some(("--env-file" | "--env-file-if-exists", file)) => files.push(file.to_string()),
            _ if word == "--env-file" || word == "--env-file-if-exists" => {
                files.extend(rest.next().cloned())
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for file in files.iter().take(MAX_NAMES) {
        let Ok(real) = std::fs::canonicalize(real_root.join(dir).join(file)) else {
            continue;
        };
        if !real.starts_with(real_root) {
            continue;
        }
        let text = super::small_text(&real).unwrap_or_default();
        for line in text.lines().take(10_000) {
            let line = line.trim().trim_start_matches("export ").trim_start();
            if let Some(value) = line.strip_prefix("NODE_OPTIONS=") {
                let value = value.trim().trim_matches(['"', '\'']);
                out.push(format!("NODE_OPTIONS={value}"));
            }
        }
    }
    out
}

/// Add to `out` what `words` preload; `node`: `-r` is Node's from the
/// start (inside `NODE_OPTIONS`).
fn read(words: &[String], mut node: bool, out: &mut Vec<String>) {
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let program = word.rsplit('/').next().unwrap_or(word);
        if NODES.contains(&program) {
            node = true;
        } else if let Some((flag, value)) = word.split_once('=')
            && LONG.contains(&flag)
        {
            out.push(value.to_string());
        } else if LONG.contains(&word.as_str()) || (node && word == "-r") {
            out.extend(words.next().cloned());
        }
    }
}

/// What `specs`, loaded from the folder `dir` (root-relative) where the
/// command runs, reach: the files (in [`Reached::files`]) and each place
/// tried. Past [`MAX_NAMES`] of them, the command is too much to review.
pub fn preloaded(real_root: &Path, dir: &str, specs: &[String]) -> Reached {
    let mut out = Reached::default();
    let specs = super::within(specs, MAX_NAMES, &mut out);
    let mut maps = Maps::default();
    let here: PathBuf = real_root.join(dir);
    let file = crate::core::module_maps::join(&rel_of(real_root, &here), "-");
    for spec in specs.iter().filter(|s| !s.is_empty()) {
        let mut found = Vec::new();
        // An absolute name inside the root is loaded as a relative one
        // from the root (round 12, item 4); one outside is the user's.
        let (dir, spec) = match Path::new(spec.as_str()).strip_prefix(real_root) {
            Ok(rel) if spec.starts_with('/') => (
                real_root.to_path_buf(),
                format!("./{}", crate::core::walk::rel_string(rel)),
            ),
            _ => (here.clone(), spec.to_string()),
        };
        let from = node::From {
            dir: &dir,
            file: &file,
        };
        node::look_up(real_root, from, &spec, &mut maps, &mut out, &mut found);
        out.files.extend(found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn preload_options_are_read() {
        assert_eq!(
            specifiers(&words(
                "node -r ./a --require=b --import ./c.mjs --loader=d --experimental-loader e x.js"
            )),
            ["./a", "b", "./c.mjs", "d", "e"]
        );
        let mut with_env = words("env");
        with_env.push("NODE_OPTIONS=-r ./f --import g".into());
        with_env.extend(words("node x.js"));
        assert_eq!(specifiers(&with_env), ["./f", "g"]);
        // `-r` of another program is no preload.
        assert!(specifiers(&words("cp -r a b")).is_empty());
        assert!(specifiers(&words("ruby -r ./q x.rb")).is_empty());
        assert!(specifiers(&words("nyc -r html x.js")).is_empty());
        // Runners that hand `-r` to Node, or read it as Node does.
        for runner in [
            "nodemon",
            "ts-node-dev",
            "node-dev",
            "babel-node",
            "electron",
        ] {
            assert_eq!(
                specifiers(&words(&format!("{runner} -r ./tools/pre app.js"))),
                ["./tools/pre"],
                "{runner}"
            );
        }
    }

    #[test]
    fn a_hostile_megabyte_is_read_in_bounded_time() {
        let line = "--require x ".repeat(90_000);
        let found = specifiers(&words(&line));
        assert_eq!(found.len(), 90_000);
        let root = tempfile::tempdir().expect("temp dir");
        let real = std::fs::canonicalize(root.path()).expect("canonical");
        let reached = preloaded(&real, "", &found);
        assert!(reached.patterns.contains(super::super::TOO_MUCH));
        // No timed assertion (benchmarks time things): a quadratic reading
        // of this input would not end.
    }
}
