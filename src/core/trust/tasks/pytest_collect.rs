//! What `pytest` with no test path collects, as its configuration says:
//! `python_files` (the names of test modules: `test_*.py` and
//! `*_test.py` unless set), `testpaths` (where to look) and
//! `norecursedirs` (folders passed over, replacing the default list), read
//! from each file pytest may take its options from (`pytest.ini`,
//! `.pytest.ini`, `pyproject.toml`'s `[tool.pytest.ini_options]` or
//! `[tool.pytest]`, `tox.ini`'s `[pytest]`, `setup.cfg`'s
//! `[tool:pytest]`), from the file `-c` names and from `-o NAME=VALUE`.
//! Where pytest would pick one file, all are read together: every
//! pattern counts, a folder is passed over only when every file that
//! sets `norecursedirs` passes it over (more files covered, never fewer).
//! Each file collected is named in a line, so each is covered and one
//! that appears later (a new `tests/check_b.py` under `python_files =
//! check_*.py`) withdraws the consent. A configuration that cannot be
//! read (a `pyproject.toml` that is no TOML, a pattern that is no glob,
//! a `testpaths` glob) is a refusal: what pytest collects is not known.

use std::path::Path;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::TaskLine;

/// The most folder entries looked at, and test files named, for a
/// `pytest` that collects by pattern; past either the command cannot be
/// trusted (what it collects is not all reviewed).
const MAX_COLLECTED_ENTRIES: usize = 20_000;
const MAX_COLLECTED_FILES: usize = 512;

/// The folders `pytest` does not collect from by default (its
/// `norecursedirs`; `.*` and `*.egg` are matched apart).
const NOT_COLLECTED: [&str; 7] = [
    "node_modules",
    "venv",
    "build",
    "dist",
    "CVS",
    "_darcs",
    "{arch}",
];

/// The test module names pytest collects by default.
const PYTHON_FILES: [&str; 2] = ["test_*.py", "*_test.py"];

/// The options that decide what is collected, as one configuration
/// file (or the command line) gives them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Options {
    python_files: Vec<String>,
    testpaths: Vec<String>,
    /// `None`: not set here (the default applies).
    norecursedirs: Option<Vec<String>>,
}

/// The options of configuration file `rel` (root-relative) with text
/// `text`; `Err` (why) when it cannot be read.
pub(super) fn options_of(rel: &str, text: &str) -> Result<Options, String> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if name.ends_with(".toml") {
        return toml_options(rel, text);
    }
    let sections: &[&str] = match name {
        "setup.cfg" => &["tool:pytest"],
        "tox.ini" => &["pytest"],
        // `pytest.ini`, `.pytest.ini`, a file `-c` names.
        _ => &["pytest", "tool:pytest"],
    };
    let mut out = Options::default();
    for (key, value) in ini_values(text, sections) {
        let words = value.split_whitespace().map(String::from);
        out.set(&key, words.collect());
    }
    Ok(out)
}

/// The options `-o NAME=VALUE` / `--override-ini=NAME=VALUE` of a
/// command's pytest arguments, and the file `-c` / `--config-file`
/// names (as written).
pub(super) fn from_arguments(args: &[String]) -> (Options, Vec<String>) {
    let mut out = Options::default();
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = |prefixes: &[&str], rest: &mut std::slice::Iter<String>| {
            if prefixes.contains(&arg.as_str()) {
                return rest.next().cloned();
            }
            prefixes
                .iter()
                .find_map(|p| arg.strip_prefix(p))
                .map(|v| v.trim_start_matches('=').to_string())
                .filter(|v| !v.is_empty())
        };
        if let Some(setting) = value(&["-o", "--override-ini"], &mut rest) {
            if let Some((key, v)) = setting.split_once('=') {
                out.set(key.trim(), v.split_whitespace().map(String::from).collect());
            }
        } else if let Some(file) = value(&["-c", "--config-file"], &mut rest) {
            files.push(file);
        }
    }
    (out, files)
}

impl Options {
    fn set(&mut self, key: &str, words: Vec<String>) {
        match key {
            "python_files" => self.python_files.extend(words),
            "testpaths" => self.testpaths.extend(words),
            "norecursedirs" => self.norecursedirs = Some(words),
            _ => {}
        }
    }
}

/// The `key = value` pairs of the sections `sections` of an ini text,
/// a value's indented continuation lines joined to it.
fn ini_values(text: &str, sections: &[&str]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut inside = false;
    for line in text.lines().take(20_000) {
        let code = line.trim_end();
        if code.trim_start().starts_with(['#', ';']) || code.trim().is_empty() {
            continue;
        }
        if let Some(head) = code.strip_prefix('[') {
            let head = head.split(']').next().unwrap_or("").trim();
            inside = sections.contains(&head);
            continue;
        }
        if !inside {
            continue;
        }
        if code.starts_with([' ', '\t']) {
            if let Some((_, value)) = out.last_mut() {
                value.push(' ');
                value.push_str(code.trim());
            }
            continue;
        }
        if let Some((key, value)) = code.split_once(['=', ':']) {
            out.push((key.trim().to_string(), value.trim().to_string()));
        }
    }
    out
}

/// The options of a `pyproject.toml` (`[tool.pytest.ini_options]`, and
/// pytest 9's `[tool.pytest]`): a value a string of words or a list.
fn toml_options(rel: &str, text: &str) -> Result<Options, String> {
    let table: toml::Table = match text.parse() {
        Ok(table) => table,
        Err(_) if !text.contains("pytest") => return Ok(Options::default()),
        Err(_) => return Err(format!("{rel} is no TOML pytest can read the same way")),
    };
    let mut out = Options::default();
    let pytest = table.get("tool").and_then(|t| t.get("pytest"));
    let tables = [
        pytest.and_then(|p| p.get("ini_options")),
        pytest.filter(|p| p.get("ini_options").is_none()),
    ];
    for options in tables.into_iter().flatten() {
        for key in ["python_files", "testpaths", "norecursedirs"] {
            let words: Vec<String> = match options.get(key) {
                Some(toml::Value::String(s)) => s.split_whitespace().map(String::from).collect(),
                Some(toml::Value::Array(items)) => items
                    .iter()
                    .filter_map(|i| i.as_str())
                    .map(String::from)
                    .collect(),
                Some(_) => return Err(format!("{rel}: `{key}` is neither words nor a list")),
                None => continue,
            };
            out.set(key, words);
        }
    }
    Ok(out)
}

/// What `pytest` with no path, run in `dir` with the options `all` (each
/// file's and the command line's), collects: every `conftest.py` and
/// every `.py` matching `python_files`, below `dir` and each of the
/// `testpaths`, in folders not passed over; named in a line. `Err` (why)
/// when that cannot be known. Pytest takes `testpaths` only when it runs
/// in its rootdir, and then relative to where it runs (pytest 9.2:
/// `Config._decide_args`; `-c tools/x.ini --rootdir=.` reads `t3` of
/// `testpaths = t3` as `./t3`, not `tools/t3`); run elsewhere it
/// collects where it runs, which is read too.
pub(super) fn collected(real_root: &Path, dir: &str, all: &[Options]) -> Result<TaskLine, String> {
    let mut patterns: Vec<&str> = all
        .iter()
        .flat_map(|o| o.python_files.iter().map(String::as_str))
        .collect();
    if patterns.is_empty() {
        patterns.extend(PYTHON_FILES);
    }
    let files = glob_set(&patterns)?;
    let passed_over: Vec<GlobSet> = all
        .iter()
        .filter_map(|o| o.norecursedirs.as_ref())
        .map(|dirs| glob_set(&dirs.iter().map(String::as_str).collect::<Vec<_>>()))
        .collect::<Result<_, _>>()?;
    let mut starts = vec![dir.to_string()];
    for path in all.iter().flat_map(|o| o.testpaths.iter()) {
        if path.contains(['*', '?', '[']) {
            return Err(format!("`testpaths` names folders by a pattern (`{path}`)"));
        }
        starts.extend(crate::core::module_maps::join_rel(dir, path));
    }
    let skipped = |name: &str| {
        name == "__pycache__"
            || match passed_over.is_empty() {
                true => {
                    name.starts_with('.') || name.ends_with(".egg") || NOT_COLLECTED.contains(&name)
                }
                false => passed_over.iter().all(|set| set.is_match(name)),
            }
    };
    let mut names = Vec::new();
    let mut entries = 0usize;
    let mut folders = starts;
    while let Some(folder) = folders.pop() {
        let Ok(read) = std::fs::read_dir(real_root.join(&folder)) else {
            continue;
        };
        for entry in read.flatten() {
            entries += 1;
            if entries > MAX_COLLECTED_ENTRIES || names.len() > MAX_COLLECTED_FILES {
                super::cut();
                folders.clear();
                break;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = crate::core::module_maps::join(&folder, &name);
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !skipped(&name) {
                    folders.push(rel);
                }
            } else if name == "conftest.py" || (name.ends_with(".py") && files.is_match(&name)) {
                names.push(rel);
            }
        }
    }
    names.sort();
    names.dedup();
    Ok(TaskLine {
        config: String::new(),
        dir: String::new(),
        line: names.join(" "),
        named: false,
    })
}

/// The globs `patterns` as pytest matches a name (`fnmatch`: `*` any
/// characters); `Err` for one that is no glob.
fn glob_set(patterns: &[&str]) -> Result<GlobSet, String> {
    let mut set = GlobSetBuilder::new();
    for pattern in patterns.iter().take(256) {
        let glob = Glob::new(pattern)
            .map_err(|_| format!("`{pattern}` is no pattern pytest reads the same way"))?;
        set.add(glob);
    }
    set.build().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_pytest_reads_its_options_from_is_read() {
        let options = |rel: &str, text: &str| options_of(rel, text).unwrap();
        let check = Options {
            python_files: vec!["check_*.py".into(), "*_spec.py".into()],
            testpaths: vec!["t2".into()],
            norecursedirs: None,
        };
        assert_eq!(
            options(
                "pytest.ini",
                "[pytest]\npython_files =\n    check_*.py\n    *_spec.py\ntestpaths = t2\n"
            ),
            check
        );
        assert_eq!(
            options(
                "tox.ini",
                "[tox]\npython_files = x\n[pytest]\npython_files = check_*.py *_spec.py\ntestpaths=t2\n"
            ),
            check
        );
        assert_eq!(
            options(
                "pyproject.toml",
                "[tool.pytest.ini_options]\npython_files = [\"check_*.py\", \"*_spec.py\"]\ntestpaths = \"t2\"\n"
            ),
            check
        );
        assert_eq!(
            options("setup.cfg", "[tool:pytest]\nnorecursedirs = foo .*\n").norecursedirs,
            Some(vec!["foo".into(), ".*".into()])
        );
        assert!(options_of("pyproject.toml", "[tool.pytest.ini_options\n").is_err());
        let args: Vec<String> = ["-q", "-o", "python_files=check_*.py", "-c", "x.ini"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (from_args, files) = from_arguments(&args);
        assert_eq!(from_args.python_files, ["check_*.py"]);
        assert_eq!(files, ["x.ini"]);
    }
}
