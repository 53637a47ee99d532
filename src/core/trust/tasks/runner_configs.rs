//! What a Ruby or Python runner reads from the project before it runs
//! the script a command names: `bundle exec` evaluates the `Gemfile` (Ruby
//! code, with the files it `eval_gemfile`s) and reads `Gemfile.lock` and
//! `.bundle/config`; `uv run` (`poetry run`, `pdm run`, `hatch run`)
//! syncs the project, so `pyproject.toml`, `uv.toml`, `setup.py` and
//! `setup.cfg` decide what is built and run; `pytest` imports the
//! `conftest.py` files from the root down to the tests it runs and reads
//! its options (`addopts = -p plugin`) from `pytest.ini`, `pyproject.toml`,
//! `tox.ini`, `setup.cfg` or the file `-c` names. Each of those files, from where the command
//! runs up to the root, is named as a word of a line (so one that appears
//! later withdraws the consent) and, when present, read as a config whose
//! values name files in turn (`trust/tasks/node_runner.rs` does the same
//! for npm's). A `pytest` that names no test collects what its
//! configuration's `python_files` match below where it runs
//! (`pytest_collect.rs`): each is covered, and one that appears later
//! withdraws the consent.

use std::path::Path;

use super::TaskLine;
use super::pytest_collect;

/// What `bundle` reads.
const BUNDLER: [&str; 5] = [
    "Gemfile",
    "gems.rb",
    "Gemfile.lock",
    "gems.locked",
    ".bundle/config",
];

/// What `rake` reads (the first Rakefile found is loaded).
const RAKE: [&str; 4] = ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"];

/// What a Python project runner reads to build and run the project.
const PYTHON_PROJECT: [&str; 6] = [
    "pyproject.toml",
    "uv.toml",
    "setup.py",
    "setup.cfg",
    "poetry.toml",
    "pdm.toml",
];

/// The Python project runners.
const PYTHON_RUNNERS: [&str; 6] = ["uv", "uvx", "poetry", "pdm", "hatch", "rye"];

/// Where `pytest` reads its options.
const PYTEST: [&str; 5] = [
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
];

/// The most Gemfiles read for one command (`eval_gemfile` chains).
const MAX_GEMFILES: usize = 16;

/// The lines for what the runners `words` (run in folder `dir`) read.
pub(super) fn lines(real_root: &Path, dir: &str, words: &[String]) -> Vec<TaskLine> {
    let programs: Vec<&str> = words
        .iter()
        .map(|w| w.rsplit('/').next().unwrap_or(w))
        .collect();
    let mut out = Vec::new();
    if programs.iter().any(|p| *p == "bundle" || *p == "bundler") {
        out.extend(configs(real_root, dir, &BUNDLER));
        out.extend(gemfiles(real_root, &out));
    }
    // `rake` loads its Rakefile and `rakelib/*.rake` (recheck 21, item
    // 9): named, so a change withdraws the consent, and read as Ruby.
    if programs.contains(&"rake") {
        out.extend(configs(real_root, dir, &RAKE));
        out.extend(rake_extras(dir, words));
    }
    // The Gemfile `BUNDLE_GEMFILE=` names, whoever loads Bundler (`bundle
    // exec`, `require 'bundler/setup'`), with its lock file.
    for gemfile in words
        .iter()
        .filter_map(|w| w.strip_prefix("BUNDLE_GEMFILE="))
    {
        let lock = format!("{gemfile}.lock");
        for file in [gemfile, lock.as_str()] {
            out.extend(config_file(real_root, dir, file));
        }
        out.extend(gemfiles(real_root, &out));
    }
    if programs.iter().any(|p| PYTHON_RUNNERS.contains(p)) {
        out.extend(configs(real_root, dir, &PYTHON_PROJECT));
    }
    if let Some(at) = pytest_at(&programs) {
        let args = &words[at + 1..];
        let (given, named) = pytest_collect::from_arguments(args);
        let mut read = configs(real_root, dir, &PYTEST);
        for file in named {
            read.extend(config_file(real_root, dir, &file));
        }
        out.push(conftests(dir, args));
        if !names_a_path(real_root, dir, args) {
            out.extend(pytest_collected(real_root, dir, given, &read));
        }
        out.extend(read);
    }
    out
}

/// What rake loads besides the Rakefile it finds (round 12, item 3):
/// every file of each `rakelib` folder from `dir` up to the root (rake
/// runs from the Rakefile's folder, and imports each `*.rake` there), of
/// the folders `-R`/`--rakelibdir` name, and the Rakefile `-f` or
/// `--rakefile` names, as a line of words (a folder covers its files, so
/// one added later lapses the consent).
fn rake_extras(dir: &str, words: &[String]) -> Vec<TaskLine> {
    let mut named: Vec<String> = Vec::new();
    let mut here = Some(dir.to_string());
    while let Some(folder) = here {
        named.push(crate::core::module_maps::join(&folder, "rakelib"));
        here = match folder.rsplit_once('/') {
            Some((parent, _)) => Some(parent.to_string()),
            None if !folder.is_empty() => Some(String::new()),
            None => None,
        };
    }
    let mut rest = words
        .iter()
        .skip_while(|w| w.rsplit('/').next() != Some("rake"));
    while let Some(word) = rest.next() {
        let value = match word.as_str() {
            "-f" | "--rakefile" | "-R" | "--rakelibdir" | "--rakelib" => rest.next().cloned(),
            _ => ["--rakefile=", "--rakelibdir=", "--rakelib=", "-f", "-R"]
                .iter()
                .find_map(|p| word.strip_prefix(p).filter(|v| !v.is_empty()))
                .map(String::from),
        };
        if let Some(v) = value.as_deref().filter(|v| v.contains(['$', '`'])) {
            super::refuse(format!(
                "runs rake with a Rakefile or rakelib folder known only as it runs (`{v}`)"
            ));
        }
        named.extend(value.and_then(|v| crate::core::module_maps::join_rel(dir, &v)));
    }
    vec![TaskLine {
        config: String::new(),
        dir: String::new(),
        line: named.join(" "),
        named: false,
    }]
}

/// The file `-c FILE` names (run in `dir`) as a config of its values,
/// and a line naming it (one that appears later is read).
fn config_file(real_root: &Path, dir: &str, file: &str) -> Vec<TaskLine> {
    let Some(rel) = crate::core::module_maps::join_rel(dir, file) else {
        return Vec::new();
    };
    let text = crate::core::trust::imports::small_text(&real_root.join(&rel));
    let mut out = vec![TaskLine {
        config: String::new(),
        dir: String::new(),
        line: rel.clone(),
        named: false,
    }];
    out.extend(text.map(|text| TaskLine {
        config: rel,
        dir: dir.to_string(),
        line: super::node_runner::values(&text),
        named: false,
    }));
    out
}

/// The line naming what `pytest` with no path collects in `dir`, with
/// the options `given` on the command line and those of the configs
/// `read`; none, and a refusal, when that cannot be known.
fn pytest_collected(
    real_root: &Path,
    dir: &str,
    given: pytest_collect::Options,
    read: &[TaskLine],
) -> Option<TaskLine> {
    let mut all = vec![given];
    for task in read.iter().filter(|t| !t.config.is_empty()) {
        let text = crate::core::trust::imports::small_text(&real_root.join(&task.config))
            .unwrap_or_default();
        match pytest_collect::options_of(&task.config, &text) {
            Ok(options) => all.push(options),
            Err(why) => super::refuse(format!("runs pytest, whose configuration {why}")),
        }
    }
    pytest_collect::collected(real_root, dir, &all)
        .map_err(|why| super::refuse(format!("runs pytest, whose configuration {why}")))
        .ok()
}

/// The files `names` from folder `dir` up to the root: a line naming
/// each (root-relative), and each present one as a config of its values.
fn configs(real_root: &Path, dir: &str, names: &[&str]) -> Vec<TaskLine> {
    let mut out = Vec::new();
    let mut all = Vec::new();
    let mut here = Some(dir.to_string());
    while let Some(folder) = here {
        for name in names {
            let rel = crate::core::module_maps::join(&folder, name);
            all.push(rel.clone());
            let Some(text) = crate::core::trust::imports::small_text(&real_root.join(&rel))
                .filter(|t| t.len() <= 1 << 20)
            else {
                continue;
            };
            let ruby = name.starts_with("Gemfile") || *name == "gems.rb" || RAKE.contains(name);
            let line = match ruby {
                true => quoted(&text).join(" "),
                false => super::node_runner::values(&text),
            };
            out.push(TaskLine {
                config: rel,
                dir: folder.clone(),
                line,
                named: false,
            });
        }
        here = match folder.rsplit_once('/') {
            Some((parent, _)) => Some(parent.to_string()),
            None if !folder.is_empty() => Some(String::new()),
            None => None,
        };
    }
    out.push(TaskLine {
        config: String::new(),
        dir: String::new(),
        line: all.join(" "),
        named: false,
    });
    out
}

/// The files the Gemfiles of `read` name that are Gemfiles themselves
/// (`eval_gemfile "tools/extra.gemfile"`), read in turn, as configs.
fn gemfiles(real_root: &Path, read: &[TaskLine]) -> Vec<TaskLine> {
    let mut out: Vec<TaskLine> = Vec::new();
    let mut queue: Vec<(String, String)> = read
        .iter()
        .filter(|t| t.config.ends_with("Gemfile") || t.config.ends_with("gems.rb"))
        .map(|t| (t.dir.clone(), t.line.clone()))
        .collect();
    while let Some((dir, line)) = queue.pop() {
        for word in line.split_whitespace() {
            if !word.to_ascii_lowercase().contains("gemfile") || word.starts_with('/') {
                continue;
            }
            let Some(rel) = crate::core::module_maps::join_rel(&dir, word) else {
                continue;
            };
            if out.iter().any(|t| t.config == rel) || out.len() >= MAX_GEMFILES {
                continue;
            }
            let Some(text) = crate::core::trust::imports::small_text(&real_root.join(&rel))
                .filter(|t| t.len() <= 1 << 20)
            else {
                continue;
            };
            let line = quoted(&text).join(" ");
            queue.push((dir.clone(), line.clone()));
            out.push(TaskLine {
                config: rel,
                dir: dir.clone(),
                line,
                named: false,
            });
        }
    }
    out
}

/// The contents of the quoted strings of Ruby text (comments left out),
/// blanks inside them kept out.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().take(20_000) {
        let code = line.trim_start();
        if code.starts_with('#') {
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find(['\'', '"']) {
            let quote = rest[at..].chars().next().unwrap_or('"');
            let body = &rest[at + 1..];
            let Some(end) = body.find(quote) else { break };
            out.extend(body[..end].split_whitespace().map(String::from));
            rest = &body[end + 1..];
        }
    }
    out
}

/// Where `pytest` starts in `programs`: `pytest`, `py.test`, or a
/// Python's `-m pytest`; the index of the word before its arguments.
fn pytest_at(programs: &[&str]) -> Option<usize> {
    programs.iter().enumerate().find_map(|(at, p)| {
        let module = p.starts_with("python")
            && programs.get(at + 1) == Some(&"-m")
            && programs.get(at + 2) == Some(&"pytest");
        match (*p == "pytest" || *p == "py.test", module) {
            (true, _) => Some(at),
            (_, true) => Some(at + 2),
            _ => None,
        }
    })
}

/// The `conftest.py` files `pytest` imports for the tests `args` name
/// (run in `dir`): in the root, `dir`, and each folder from there down
/// to each test path.
fn conftests(dir: &str, args: &[String]) -> TaskLine {
    let mut all = vec!["conftest.py".to_string()];
    let mut folders = vec![dir.to_string()];
    for arg in args.iter().filter(|a| !a.starts_with('-')) {
        let path = arg.split("::").next().unwrap_or(arg);
        let Some(rel) = crate::core::module_maps::join_rel(dir, path) else {
            continue;
        };
        let mut folder = String::new();
        for part in rel.split('/') {
            folders.push(folder.clone());
            folder = crate::core::module_maps::join(&folder, part);
        }
        if !rel.ends_with(".py") {
            folders.push(folder);
        }
    }
    for folder in folders {
        let rel = crate::core::module_maps::join(&folder, "conftest.py");
        if !all.contains(&rel) {
            all.push(rel);
        }
    }
    TaskLine {
        config: String::new(),
        dir: String::new(),
        line: all.join(" "),
        named: false,
    }
}

/// The options of `pytest` whose value is the next word (a path among
/// them names no test: `-c tools/other.ini`, `--ignore tests/slow`).
const PYTEST_VALUES: [&str; 14] = [
    "-c",
    "--config-file",
    "-o",
    "--override-ini",
    "-p",
    "-k",
    "-m",
    "--rootdir",
    "--confcutdir",
    "--basetemp",
    "--ignore",
    "--ignore-glob",
    "--deselect",
    "--junitxml",
];

/// Whether any argument of `pytest` (run in `dir`) names a file or
/// folder that is there: else it collects from where it runs.
fn names_a_path(real_root: &Path, dir: &str, args: &[String]) -> bool {
    let values = args.iter().enumerate().filter(|(at, _)| {
        let before = at.checked_sub(1).and_then(|b| args.get(b));
        !before.is_some_and(|b| PYTEST_VALUES.contains(&b.as_str()))
    });
    values
        .map(|(_, arg)| arg)
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| crate::core::module_maps::join_rel(dir, a.split("::").next().unwrap_or(a)))
        .any(|rel| !rel.is_empty() && real_root.join(rel).exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pytest_reads_the_conftests_down_to_its_tests() {
        let words: Vec<&str> = vec!["python3", "-m", "pytest", "-q", "tools/t/test_s.py::test_a"];
        assert_eq!(pytest_at(&words), Some(2));
        let args: Vec<String> = words[3..].iter().map(|w| w.to_string()).collect();
        assert_eq!(
            conftests("", &args).line,
            "conftest.py tools/conftest.py tools/t/conftest.py"
        );
        assert_eq!(pytest_at(&["pytest"]), Some(0));
        assert_eq!(pytest_at(&["python3", "tools/s.py"]), None);
    }

    #[test]
    fn a_gemfile_s_strings_are_words() {
        assert_eq!(
            quoted(
                "source 'https://rubygems.org'\n# eval_gemfile 'x'\neval_gemfile \"tools/extra.gemfile\"\n"
            ),
            ["https://rubygems.org", "tools/extra.gemfile"]
        );
    }
}
