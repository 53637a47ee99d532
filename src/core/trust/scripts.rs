//! The scripts a guarded command names inside the project, and the hash
//! of their content that a consent covers.
//!
//! `summary_command = "./tools/sum.sh"` is one value whatever the script
//! says: a consent to the value alone would survive replacing the
//! checkout at the same path with another whose `tools/sum.sh` does
//! something else. So the fingerprint also covers the content of every
//! file of the root a command's words name (direnv's rule: allowed once,
//! for that content). A word is taken as a path from the root and from
//! the current directory (the command runs there); each that is a
//! regular file inside the root (links followed, and must stay inside)
//! is hashed. A word naming a folder inside the root (`make -C tools`,
//! `node tools`) covers the files in it, and a word that reads as a
//! Python module (`python3 -m sumtool`) covers `sumtool.py` or the
//! `sumtool/` package; up to [`MAX_FOLDER_FILES`] files a folder, links
//! not followed. A word naming no such file adds nothing, so a script that
//! appears, changes or goes away changes the fingerprint.
//!
//! What those scripts run inside the project is covered too
//! (`trust/imports.rs`: the Python modules they import, the shell files
//! they source, and the places a new file would shadow one). A shell
//! command that names files by a pattern (`tools/summ?rize.py`, `*.py`,
//! `{a,b}.sh` outside quotes) cannot be consented to at all: the shell
//! expands it when it runs, so a file added later would run unreviewed
//! ([`Covered::patterns`]).

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::core::model::CommandLine;

use super::shell_globs::shell_patterns;

/// A script is hashed up to this many bytes (with its length): a real
/// one is a few kilobytes.
const MAX_SCRIPT_BYTES: u64 = 16 << 20;

/// The most files hashed for one folder a command names (past it, the
/// rest of the folder is not covered; a real tool folder holds a few).
pub const MAX_FOLDER_FILES: usize = 256;

/// The most distinct words of a command (with the lines its tasks run)
/// looked up on disk: each costs a few lookups, and a task line of
/// 300,000 words took minutes. Past it, or with a task line longer than
/// [`super::tasks::MAX_TASK_LINE_BYTES`], the command cannot be consented
/// to ([`TOO_MANY_WORDS`] among its patterns): what it names is not all
/// reviewed.
pub const MAX_LOOKED_UP_WORDS: usize = 4096;

/// The entry of [`Covered::patterns`] that says a command has more words
/// than [`MAX_LOOKED_UP_WORDS`].
pub const TOO_MANY_WORDS: &str = "(more words than can be reviewed)";

/// The entry of [`Covered::patterns`] that says reading the command's
/// tasks stopped at a bound (task lines, goals, makefiles, their bytes,
/// tasks running tasks): what lies past it is not reviewed.
pub const TOO_MANY_TASKS: &str = "(more tasks than can be reviewed)";

/// One file of the root that a command names, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// Relative to the root, `/`-separated.
    pub path: String,
    /// SHA-256 of its content (see [`hash_file`]), or `None` when it could
    /// not be read (then any later reading differs).
    pub hash: Option<[u8; 32]>,
    /// Named by the command itself (not reached through an import or a
    /// `source`): what a consent covered before imports were followed.
    pub named: bool,
}

/// What a consent to one command covers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Covered {
    /// The files of the root it names or runs (imports, sourced files),
    /// sorted by path, each once.
    pub scripts: Vec<Script>,
    /// Each place an import was looked for, with what was there
    /// (`tools/json: nothing`), sorted: a file that appears later
    /// changes the fingerprint.
    pub places: Vec<String>,
    /// The words a shell would expand into file names (`tools/summ?rize.py`):
    /// a command with any cannot be consented to.
    pub patterns: Vec<String>,
}

/// The files inside `root` that `value` (a command setting) names, sorted
/// by path, each once (see [`covered`] for all a consent covers).
pub fn named_scripts(root: &Path, value: &toml::Value) -> Vec<Script> {
    covered(root, value).scripts
}

/// What a consent to `value` (a command setting) covers in `root`: the
/// files it names and what they run, the places looked at, the patterns.
/// Inside [`one_scan`], a command already scanned there is not scanned
/// again.
pub fn covered(root: &Path, value: &toml::Value) -> Covered {
    let key = (root.to_path_buf(), value.to_string());
    if let Some(known) = super::one_scan::get::<Covered>(&key) {
        return known;
    }
    let found = scan(root, value);
    super::one_scan::put(key, &found);
    found
}

/// [`covered`], read from the disk.
fn scan(root: &Path, value: &toml::Value) -> Covered {
    let Ok(command) = value.clone().try_into::<CommandLine>() else {
        return Covered::default();
    };
    let mut patterns = match &command {
        CommandLine::Shell(line) => line_patterns(line, 0),
        CommandLine::Argv(argv) => inner_patterns(argv, 0),
    };
    add_unknown(&mut patterns, &command);
    patterns.extend(super::unknown::program_read_from_input(&command_text(
        &command,
    )));
    let Ok(real_root) = fs::canonicalize(root) else {
        return Covered {
            patterns,
            ..Covered::default()
        };
    };
    let cwd = std::env::current_dir().ok();
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    // The lines the tasks it names run (`deno task`, `npm run`, `make`)
    // count as the command's own, and the file they are read from as a
    // file it names; each with the folder it runs in (a sub-make's).
    let tasks = super::tasks::task_lines(&real_root, &command);
    add_task_refusals(&mut patterns);
    // The files outside the project a task read (a linked work tree's
    // repository config): covered by a place each.
    let outside = super::tasks::outside_places();
    let mut lines = vec![(command, String::new())];
    for task in tasks {
        // A line too long to review (a generated one, or one built to
        // cost each reading) is not read word by word.
        if task.line.len() > super::tasks::MAX_TASK_LINE_BYTES {
            if !patterns.iter().any(|p| p == TOO_MANY_WORDS) {
                patterns.push(TOO_MANY_WORDS.to_string());
            }
            continue;
        }
        if task.named {
            add_line_refusals(&mut patterns, &task.line);
        }
        if let Some(file) = inside(&real_root, &real_root.join(&task.config))
            && !found.contains(&file)
        {
            found.push(file);
        }
        if !task.line.is_empty() {
            lines.push((CommandLine::Shell(task.line), task.dir));
        }
    }
    let links = look_up_words(
        root,
        &real_root,
        cwd.as_deref(),
        &lines,
        &mut found,
        &mut patterns,
    );
    let preloads = node_preloads(&real_root, &lines);
    for (rel, real) in &preloads.files {
        if !found.iter().any(|(p, _)| p == rel) {
            found.push((rel.clone(), real.clone()));
        }
    }
    found.sort();
    let named: Vec<String> = found.iter().map(|(p, _)| p.clone()).collect();
    let mut reached = reached(&real_root, root, &found, &lines);
    reached.places.extend(outside);
    reached
        .places
        .extend(python_path_places(&real_root, &lines));
    reached.places.extend(links);
    reached.places.extend(preloads.places);
    reached.patterns.extend(preloads.patterns);
    for pattern in &reached.patterns {
        if !patterns.contains(pattern) {
            patterns.push(pattern.clone());
        }
    }
    for (rel, real) in reached.files {
        if !found.iter().any(|(p, _)| *p == rel) {
            found.push((rel, real));
        }
    }
    found.sort();
    let scripts = found
        .into_iter()
        .map(|(path, real)| Script {
            hash: hash_file(&real).ok(),
            named: named.contains(&path),
            path,
        })
        .collect();
    Covered {
        scripts,
        places: reached.places.into_iter().collect(),
        patterns,
    }
}

/// Look up on disk each word of the command's `lines` (with the files
/// PHP's settings load and Perl's `-M` modules), from the root, the
/// current folder and the line's own: the files of the root they name go
/// into `found`, refusals into `patterns`; the places of the project's
/// links that lead out of it are returned.
fn look_up_words(
    root: &Path,
    real_root: &Path,
    cwd: Option<&Path>,
    lines: &[(CommandLine, String)],
    found: &mut Vec<(String, PathBuf)>,
    patterns: &mut Vec<String>,
) -> Vec<String> {
    // Each word once per folder: a task line may repeat one thousands of
    // times, and each is looked up on disk.
    let mut looked_up: std::collections::HashSet<(String, &str)> = Default::default();
    let mut links: Vec<String> = Vec::new();
    for (line, dir) in lines {
        let in_dir = (!dir.is_empty()).then(|| root.join(dir));
        let php = super::php_ini::loads(real_root, Path::new(dir), &plain_words(line));
        for refusal in php.refusals {
            if !patterns.contains(&refusal) {
                patterns.push(refusal);
            }
        }
        // A file the line only writes (`2>> tools/err.log`, a recipe's
        // `cat > last_input.txt`) is none it runs (recheck 25).
        let written = |w: &String| match line {
            CommandLine::Shell(text) => super::imports::written::only_written(text, w),
            CommandLine::Argv(_) => false,
        };
        let fresh = words(line)
            .into_iter()
            .filter(|w| !written(w))
            .chain(perl_modules(line))
            .chain(php.words)
            // A program file given inside an option (`awk -ftools/p.awk`).
            .chain(
                super::imports::run_with(&plain_words(line))
                    .into_iter()
                    .map(|(file, _)| file),
            )
            .filter(|w| looked_up.insert((w.clone(), dir.as_str())))
            .collect::<Vec<_>>();
        if looked_up.len() > MAX_LOOKED_UP_WORDS {
            patterns.push(TOO_MANY_WORDS.to_string());
            break;
        }
        for candidate in fresh.iter().flat_map(|w| candidates(w)) {
            let bases = [Some(root), cwd, in_dir.as_deref()];
            for base in bases.into_iter().flatten() {
                // A link of the project's that the command names (`bin/py`
                // to the system's Python): where it leads is a place, so
                // pointing it at another program outside withdraws the
                // consent (recheck 25).
                if let Some(place) = link_place(root, real_root, &base.join(&candidate))
                    && !links.contains(&place)
                {
                    links.push(place);
                }
                for rel in inside_any(real_root, &base.join(&candidate)) {
                    if !found.iter().any(|(p, _)| *p == rel.0) {
                        found.push(rel);
                    }
                }
            }
        }
    }
    links
}

/// What the files `found` of a command (its lines `lines`) reach
/// (`trust/imports.rs`), with what its lines say about where modules are
/// looked for, what runs each file, and the variables they leave unknown.
fn reached(
    real_root: &Path,
    root: &Path,
    found: &[(String, PathBuf)],
    lines: &[(CommandLine, String)],
) -> super::imports::Reached {
    let load_path: Vec<PathBuf> = lines
        .iter()
        .flat_map(|(line, dir)| {
            let here = real_root.join(dir);
            load_path(line)
                .into_iter()
                .map(move |d| crate::core::paths::lexical(&here.join(d)))
        })
        // A folder named by its absolute path is searched when it lies
        // inside the root, as a relative one is (round 12, item 4); one
        // outside is the user's.
        .filter(|d| !d.starts_with("/") || lands_inside(real_root, d))
        .collect();
    let import_maps: Vec<String> = lines
        .iter()
        .flat_map(|(line, dir)| {
            super::tasks::import_map_args(line)
                .into_iter()
                .filter_map(move |map| crate::core::module_maps::join_rel(dir, &map))
        })
        .collect();
    let site = python_site(real_root, lines);
    let run_by = run_by(real_root, root, lines);
    let outer: Vec<(String, String)> = lines
        .iter()
        .filter_map(|(line, _)| match line {
            CommandLine::Shell(text) => Some(super::unknown::unknown_variables(text)),
            CommandLine::Argv(_) => None,
        })
        .flatten()
        .collect();
    super::imports::reached(
        real_root,
        found,
        &load_path,
        &import_maps,
        &site,
        &run_by,
        &outer,
    )
}

/// Add to `patterns` what reading the command's tasks could not review
/// (a bound stopped it, or a task runs what is known only as it runs).
fn add_task_refusals(patterns: &mut Vec<String>) {
    if super::tasks::was_cut() {
        patterns.push(TOO_MANY_TASKS.to_string());
    }
    for why in super::tasks::refusals() {
        patterns.push(format!("{}{why}", super::unknown::MARK));
    }
}

/// Add to `patterns` those of a task line the command names: the files
/// it names by a pattern, and what it runs that is decided only as it
/// runs.
fn add_line_refusals(patterns: &mut Vec<String>, line: &str) {
    for pattern in line_patterns(line, 0) {
        if !patterns.contains(&pattern) {
            patterns.push(pattern);
        }
    }
    add_unknown(patterns, &CommandLine::Shell(line.to_string()));
}

/// Add to `patterns` what `command` runs that is decided only as it
/// runs (`trust/unknown.rs`): a shell line's own, or the line an argv
/// hands a shell with `-c` (an argv's other words are not expanded).
fn add_unknown(patterns: &mut Vec<String>, command: &CommandLine) {
    let found = super::unknown::shell(&command_text(command));
    for refusal in found {
        let said = patterns.contains(&refusal)
            || super::unknown::repeats_a_pattern(&refusal, patterns.iter());
        if !said {
            patterns.push(refusal);
        }
    }
}

/// `command` as shell text: an argv's words each quoted (they are not
/// expanded).
fn command_text(command: &CommandLine) -> String {
    match command {
        CommandLine::Shell(line) => line.clone(),
        CommandLine::Argv(argv) => argv
            .iter()
            .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// How deep shells inside shells are read (`sh -c "bash -c '…'"`).
const MAX_SHELL_DEPTH: usize = 4;

/// The shells that run a script line given with `-c`.
const SHELLS: [&str; 9] = [
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh",
];

/// [`shell_patterns`] of `line`, and of the script lines of the shells it
/// runs with `-c` ([`inner_patterns`]).
fn line_patterns(line: &str, depth: usize) -> Vec<String> {
    let mut out = shell_patterns(line);
    for p in inner_patterns(&shell_words(line), depth) {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The patterns in the script lines that `words` (a command's words,
/// quotes removed) hand to a shell with `-c` (`sh -c "python3 t/*.py"`,
/// an argv `["bash", "-lc", "…"]`, after `env` or `busybox`): that shell
/// expands them when it runs, as the outer one would.
fn inner_patterns(words: &[String], depth: usize) -> Vec<String> {
    if depth >= MAX_SHELL_DEPTH {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let name = word.rsplit('/').next().unwrap_or(word);
        if !SHELLS.contains(&name) {
            continue;
        }
        // Options up to the one holding `c`; the next word is the line.
        let mut rest = words[i + 1..].iter();
        while let Some(option) = rest.next() {
            if !option.starts_with('-') || option == "--" {
                break;
            }
            if !option.starts_with("--") && option.contains('c') {
                if let Some(line) = rest.next() {
                    for p in line_patterns(line, depth + 1) {
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
                break;
            }
            // `-o opt` takes a value.
            if option == "-o" || option == "+o" {
                rest.next();
            }
        }
    }
    out
}

/// The words of a shell line as the shell hands them to a program: split
/// at blanks and shell punctuation, quotes and backslashes removed.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => word.extend(chars.next()),
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                quoted = true;
            }
            (None, '\\') => word.extend(chars.next()),
            (None, c) if c.is_whitespace() || ";&|<>()`".contains(c) => {
                if !word.is_empty() || quoted {
                    out.push(std::mem::take(&mut word));
                }
                quoted = false;
            }
            (None, c) => word.push(c),
        }
    }
    if !word.is_empty() || quoted {
        out.push(word);
    }
    out
}

/// The words of a command: an argv's elements, or a shell line split at
/// blanks, quotes and shell punctuation (and `=`, for `--opt=path`).
fn words(command: &CommandLine) -> Vec<String> {
    let Some(argv) = command.argv() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let texts: Vec<&str> = match command {
        CommandLine::Shell(_) => argv.get(2).map(String::as_str).into_iter().collect(),
        CommandLine::Argv(_) => argv.iter().map(String::as_str).collect(),
    };
    for text in texts {
        out.push(text.to_string());
        out.extend(
            text.split(|c: char| c.is_whitespace() || ";&|<>()'\"`=$:".contains(c))
                .filter(|w| !w.is_empty() && *w != text)
                .map(str::to_string),
        );
        // As the shell hands them over: `'tools/my s.py'` and
        // `tools/my\ s.py` are one word with a blank (split above, they
        // named no file and the script was not covered).
        if let CommandLine::Shell(_) = command {
            for word in shell_words(text) {
                if let Some((_, value)) = word.split_once('=') {
                    out.push(value.to_string());
                }
                // `sh ${S:-tools/w.sh}`: the word the variable falls back to.
                out.extend(super::unknown::parameter_words(&word));
                out.push(word);
            }
        }
    }
    out.extend(ruby_libraries(&out));
    out
}

/// The words of `line` as its program gets them: an argv's, or a shell
/// line's with quotes and backslashes removed ([`shell_words`]).
fn plain_words(line: &CommandLine) -> Vec<String> {
    match line {
        CommandLine::Shell(text) => shell_words(text),
        CommandLine::Argv(argv) => argv.clone(),
    }
}

/// What Node loads before the script for each of `lines` (`node -r
/// ./tools/pre`, `NODE_OPTIONS=--import …`: [`super::imports::node_preloads`]),
/// looked up from the folder the line runs in.
fn node_preloads(real_root: &Path, lines: &[(CommandLine, String)]) -> super::imports::Reached {
    let mut all = super::imports::Reached::default();
    for (line, dir) in lines {
        let mut words = plain_words(line);
        words.extend(super::imports::node_env_file_words(real_root, dir, &words));
        let specs = super::imports::node_preloads(&words);
        if specs.is_empty() {
            continue;
        }
        let found = super::imports::node_preloaded(real_root, dir, &specs);
        all.files.extend(found.files);
        all.places.extend(found.places);
        all.patterns.extend(found.patterns);
    }
    all
}

/// The files Ruby's `-r` requires before the script (recheck 21, item
/// 9): `ruby -r./tools/q x.rb` (also in `RUBYOPT=`) loads
/// `./tools/q.rb`, so it is named as the script is. Each word after
/// `-r`, or written onto it, with and without `.rb`.
fn ruby_libraries(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let library = match word.strip_prefix("-r") {
            Some("") => words.get(at + 1).map(String::as_str),
            Some(name) if name.starts_with(['.', '/']) => Some(name),
            _ => None,
        };
        if let Some(library) = library.filter(|l| !l.is_empty() && !l.ends_with(".rb")) {
            out.push(library.to_string());
            out.push(format!("{library}.rb"));
        }
    }
    out
}

/// The file each program of `lines` that reads a script runs (`python3
/// tools/app`, `sh tools/app`: [`super::imports::run_with`]), by its
/// canonical path: a file without an extension or `#!` line is read as
/// that program reads it.
fn run_by(
    real_root: &Path,
    root: &Path,
    lines: &[(CommandLine, String)],
) -> std::collections::HashMap<PathBuf, String> {
    let mut out = std::collections::HashMap::new();
    for (line, dir) in lines {
        for (script, program) in super::imports::run_with(&plain_words(line)) {
            for base in [root.to_path_buf(), root.join(dir)] {
                if let Some((_, real)) = inside(real_root, &base.join(&script)) {
                    out.entry(real).or_insert_with(|| program.clone());
                }
            }
        }
    }
    out
}

/// The module files a Perl line loads with `-M`/`-m` before its script
/// (`perl -Itools -MH s.pl`: `tools/H.pm`), in each folder its `-I` and
/// `PERL5LIB` name (recheck 25: they were not covered).
fn perl_modules(line: &CommandLine) -> Vec<String> {
    let words = plain_words(line);
    let perl = words.iter().any(|w| {
        let name = w.rsplit('/').next().unwrap_or(w);
        name.strip_prefix("perl")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    });
    if !perl {
        return Vec::new();
    }
    let dirs = load_path(line);
    let mut out = Vec::new();
    for word in &words {
        let Some(module) = word.strip_prefix("-M").or_else(|| word.strip_prefix("-m")) else {
            continue;
        };
        let module = module.trim_start_matches('-');
        let module = module.split('=').next().unwrap_or(module);
        if module.is_empty()
            || !module
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        {
            continue;
        }
        let rel = format!("{}.pm", module.replace("::", "/"));
        out.extend(
            dirs.iter()
                .map(|d| format!("{}/{rel}", d.trim_end_matches('/'))),
        );
    }
    out
}

/// The folders a command adds to Ruby's or Perl's search, as written
/// (relative to where it runs): each `-I dir` and `-Idir`, and the parts
/// of `RUBYLIB=`, `PERL5LIB=` and `PERLLIB=` assignments. Shell words are
/// split at blanks and their quotes dropped.
fn load_path(command: &CommandLine) -> Vec<String> {
    let words = super::tasks::plain_words(command);
    let mut out = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if word == "-I" {
            out.extend(words.next().cloned());
        } else if let Some(dir) = word.strip_prefix("-I") {
            out.push(dir.to_string());
        } else if let Some((name, value)) = word.split_once('=')
            && ["RUBYLIB", "PERL5LIB", "PERLLIB"].contains(&name)
        {
            out.extend(value.split(':').filter(|d| !d.is_empty()).map(String::from));
        }
    }
    // `PERL5LIB=$PWD/lib`: from where the command runs (recheck 25).
    for dir in &mut out {
        for pwd in ["$PWD", "${PWD}", "$(pwd)"] {
            if let Some(rest) = dir.strip_prefix(pwd)
                && (rest.is_empty() || rest.starts_with('/'))
            {
                *dir = format!(".{rest}");
            }
        }
    }
    out.retain(|d| !d.contains('$'));
    out
}

/// The largest file outside the project a link of it leads to whose
/// content is covered: a script any size up to this, a program only
/// outside the system's folders.
const MAX_OUTSIDE_SCRIPT: u64 = 8 * 1024 * 1024;

/// Where the system keeps its programs (updated by the system, not the
/// project): a link there is named, not hashed.
const SYSTEM_FOLDERS: &[&str] = &[
    "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/opt/", "/nix/", "/snap/", "/etc/",
];

/// The hash of the file at `path` outside the project that a link of the
/// project leads to: a link running it runs what it holds, so an edit
/// there withdraws the consent (recheck 26: a script, then any program
/// in a folder a user writes). A program in the system's folders (the
/// system's Python, updated by the system) is named only.
fn outside_hash(path: &Path) -> Option<String> {
    use std::io::Read;
    let (file, meta) = crate::core::io_bounds::open_regular(path).ok()?;
    if meta.len() > MAX_OUTSIDE_SCRIPT {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_OUTSIDE_SCRIPT + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    let system = SYSTEM_FOLDERS
        .iter()
        .any(|f| path.to_string_lossy().starts_with(f));
    if system && bytes.starts_with(b"\x7fELF") {
        return None;
    }
    Some(crate::core::tokens::sha256_hex(&bytes))
}

/// `path`, when it is a link inside the root that leads out of it, or a
/// file under one (`root`: the root as the command names it): a place
/// saying where it leads, with the file's hash ([`outside_hash`]; one
/// that leads inside is covered as the file it leads to).
fn link_place(root: &Path, real_root: &Path, path: &Path) -> Option<String> {
    let linked = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let rel = match linked {
        true => {
            let dir = fs::canonicalize(path.parent()?).ok()?;
            dir.join(path.file_name()?)
                .strip_prefix(real_root)
                .ok()?
                .to_path_buf()
        }
        // A file under a folder link leading out (`tools` to `/tmp/x`:
        // recheck 26), named by its path in the project.
        false => {
            let lexical = crate::core::paths::lexical(path);
            let rel = lexical
                .strip_prefix(root)
                .or_else(|_| lexical.strip_prefix(real_root))
                .ok()?
                .to_path_buf();
            if !path.exists()
                || fs::canonicalize(path.parent()?)
                    .ok()?
                    .starts_with(real_root)
            {
                return None;
            }
            rel
        }
    };
    let target = match fs::canonicalize(path) {
        Ok(t) if t.starts_with(real_root) => return None,
        Ok(t) => match outside_hash(&t) {
            Some(hash) => format!("{}, sha256 {hash}", t.display()),
            None => t.display().to_string(),
        },
        Err(_) => "nothing".to_string(),
    };
    Some(format!(
        "{}: a link to {target}",
        crate::core::walk::rel_string(&rel)
    ))
}

/// The folders of the project a command puts on Python's path through
/// `PYTHONPATH` that the import reader does not list (recheck 25): the
/// folder the line runs in, named by `.`, an empty part (`PYTHONPATH=:/x`,
/// or `lib:$PYTHONPATH` with it unset), `$PWD`, `$(pwd)` or its absolute
/// path. Python imports `sitecustomize` and any module its code imports
/// from there first, so what is importable there is a place: a module
/// added there withdraws the consent.
fn python_path_places(real_root: &Path, lines: &[(CommandLine, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (line, dir) in lines {
        let here = real_root.join(dir);
        let on_path = plain_words(line).iter().any(|word| {
            let value = word
                .strip_prefix("PYTHONPATH=")
                .or_else(|| word.strip_prefix("export PYTHONPATH="));
            value.is_some_and(|v| {
                v.split(':').any(|part| {
                    let part = part.trim_end_matches('/');
                    matches!(part, "" | "." | "$PWD" | "${PWD}" | "$(pwd)" | "`pwd`")
                        || part.contains("PYTHONPATH")
                        || (part.starts_with('/')
                            && fs::canonicalize(part).is_ok_and(|p| p == here))
                })
            })
        });
        if !on_path {
            continue;
        }
        let Ok(entries) = fs::read_dir(&here) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| match n.rsplit_once('.') {
                Some((stem, ext)) => {
                    !stem.is_empty() && ["py", "pyc", "pyw", "so", "pyd"].contains(&ext)
                }
                None => ["__init__.py", "__init__.pyc"]
                    .iter()
                    .any(|i| here.join(n).join(i).is_file()),
            })
            .take(MAX_FOLDER_FILES)
            .collect();
        names.sort();
        let rel = here
            .strip_prefix(real_root)
            .map(crate::core::walk::rel_string)
            .unwrap_or_default();
        out.push(format!(
            "{rel}/{}{}",
            super::imports::PYTHON_FINDS,
            names.join(" ")
        ));
    }
    out
}

/// Whether `path` lies inside `real_root`, as written or once resolved.
fn lands_inside(real_root: &Path, path: &Path) -> bool {
    path.starts_with(real_root) || fs::canonicalize(path).is_ok_and(|p| p.starts_with(real_root))
}

/// The `site-packages` folders of the virtual environments inside the
/// root whose Python one of `lines` runs ([`venv_site_packages`]), each
/// once.
fn python_site(real_root: &Path, lines: &[(CommandLine, String)]) -> Vec<PathBuf> {
    lines
        .iter()
        .flat_map(|(line, _)| words(line))
        // `. .venv/bin/activate && python …`: the environment's Python
        // runs what follows (recheck 25).
        .map(|w| match w.strip_suffix("/activate") {
            Some(bin) if bin.ends_with("bin") || bin.ends_with("Scripts") => {
                format!("{bin}/python")
            }
            _ => w,
        })
        .flat_map(|w| venv_site_packages(real_root, &w))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The `site-packages` folders of the virtual environment inside the root
/// whose Python `word` names (`venv/bin/python`, `.venv/bin/python3.11`,
/// `env/Scripts/python.exe`): what it imports from there, and the `.pth`
/// files it runs as it starts, run as the script does.
fn venv_site_packages(real_root: &Path, word: &str) -> Vec<PathBuf> {
    let path = Path::new(word);
    let is_python = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("python"));
    let Some(env) = path
        .parent()
        .filter(|bin| is_python && (bin.ends_with("bin") || bin.ends_with("Scripts")))
        .and_then(Path::parent)
    else {
        return Vec::new();
    };
    let Ok(env) = fs::canonicalize(real_root.join(env)) else {
        return Vec::new();
    };
    if !env.starts_with(real_root) || !env.join("pyvenv.cfg").is_file() {
        return Vec::new();
    }
    let mut out: Vec<PathBuf> = fs::read_dir(env.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .take(64)
        .map(|e| e.path().join("site-packages"))
        .chain([env.join("Lib/site-packages")])
        .filter(|p| p.is_dir())
        .filter_map(|p| fs::canonicalize(p).ok())
        .filter(|p| p.starts_with(real_root))
        .collect();
    out.sort();
    out
}

/// The paths a word may name: itself, and for a word that reads as a
/// dotted Python module name, its module file and package folder.
fn candidates(word: &str) -> Vec<PathBuf> {
    // `LUA_INIT=@tools/init.lua`: the file after the `@` (recheck 25).
    let word = word.strip_prefix('@').unwrap_or(word);
    let mut out = vec![PathBuf::from(word)];
    // `$PWD/tools/s.py`, `"$(pwd)"/tools/s.py`: the path after the folder
    // an expansion names (recheck 25: such a script was not covered).
    if let Some(rest) = super::imports::after_expansion(word) {
        out.push(PathBuf::from(rest));
    }
    let module = !word.is_empty()
        && !word.starts_with('.')
        && !word.ends_with('.')
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if module {
        let path = word.replace('.', "/");
        out.push(PathBuf::from(format!("{path}.py")));
        // `lua -l tools.init`.
        out.push(PathBuf::from(format!("{path}.lua")));
        out.push(PathBuf::from(path));
        // `python3 -m tools.summarize` runs `tools/__init__.py` first.
        let parts: Vec<&str> = word.split('.').collect();
        for end in 1..parts.len() {
            out.push(PathBuf::from(format!(
                "{}/__init__.py",
                parts[..end].join("/")
            )));
            // A module file of the package's name runs first, and in its
            // place (`python3 -m json.tool` with a `json.py` beside it,
            // recheck 25).
            out.push(PathBuf::from(format!("{}.py", parts[..end].join("/"))));
        }
    }
    out
}

/// What `path` covers inside `real_root`: the file itself, or the regular
/// files of a folder (not the root itself), in name order, links not
/// followed, at most [`MAX_FOLDER_FILES`].
fn inside_any(real_root: &Path, path: &Path) -> Vec<(String, PathBuf)> {
    if let Some(file) = inside(real_root, path) {
        return vec![file];
    }
    let Ok(real) = fs::canonicalize(path) else {
        return Vec::new();
    };
    if real == real_root || !real.starts_with(real_root) || !real.is_dir() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut folders = vec![real];
    while let Some(dir) = folders.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            if out.len() >= MAX_FOLDER_FILES {
                return out;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            // What Python writes as it runs (the compiled modules it runs
            // unchecked are covered with their source, `imports.rs`).
            if is_sample_hook(&path) || path.file_name().is_some_and(|n| n == "__pycache__") {
                continue;
            }
            if kind.is_dir() {
                folders.push(path);
            } else if kind.is_file()
                && let Ok(rel) = path.strip_prefix(real_root)
            {
                out.push((crate::core::walk::rel_string(rel), path));
            }
        }
    }
    out
}

/// Whether `path` is one of the hooks `git init` writes as examples
/// (`.git/hooks/pre-commit.sample`): git never runs a hook by that name,
/// so it is no script a command runs (read as one, each nested clone's
/// `$commitmsg` was a refusal).
fn is_sample_hook(path: &Path) -> bool {
    let parent = path.parent();
    // A repository's folder: `.git`, or a bare one's (`other.git`,
    // `.git/modules/sub`), which holds `HEAD`.
    path.extension().is_some_and(|e| e == "sample")
        && parent
            .and_then(Path::file_name)
            .is_some_and(|n| n == "hooks")
        && parent
            .and_then(Path::parent)
            .is_some_and(|git| git.ends_with(".git") || git.join("HEAD").is_file())
}

/// `(relative path, canonical path)` when `path` is a regular file whose
/// canonical path lies inside `real_root`.
fn inside(real_root: &Path, path: &Path) -> Option<(String, PathBuf)> {
    let real = fs::canonicalize(path).ok()?;
    if !fs::metadata(&real).ok()?.is_file() {
        return None;
    }
    let rel = real.strip_prefix(real_root).ok()?;
    let rel = crate::core::walk::rel_string(rel);
    (!rel.is_empty()).then_some((rel, real))
}

/// SHA-256 of the length and the first [`MAX_SCRIPT_BYTES`] bytes of a
/// regular file (a FIFO swapped in is refused without waiting).
pub fn hash_file(path: &Path) -> io::Result<[u8; 32]> {
    let (file, meta) = crate::core::io_bounds::open_regular(path)?;
    let mut hash = Sha256::new();
    hash.update(meta.len().to_le_bytes());
    let mut reader = file.take(MAX_SCRIPT_BYTES);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = reader.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hash.update(&buf[..n]);
    }
    Ok(hash.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(src: &str) -> toml::Value {
        toml::from_str::<toml::Table>(&format!("v = {src}")).unwrap()["v"].clone()
    }

    #[test]
    fn scripts_inside_the_root_are_found_and_hashed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("tools")).unwrap();
        fs::write(root.join("tools/sum.sh"), "cat\n").unwrap();
        fs::write(root.join("tools/x.py"), "print(1)\n").unwrap();
        let paths = |src: &str| -> Vec<String> {
            named_scripts(root, &value(src))
                .into_iter()
                .map(|s| s.path)
                .collect()
        };
        assert_eq!(paths("\"./tools/sum.sh\""), ["tools/sum.sh"]);
        assert_eq!(
            paths("\"python3 tools/x.py --in=tools/sum.sh\""),
            ["tools/sum.sh", "tools/x.py"]
        );
        assert_eq!(paths("[\"python3\", \"tools/x.py\"]"), ["tools/x.py"]);
        assert!(paths("\"cat; tr a-z A-Z\"").is_empty());
        assert!(
            paths("\"cat /etc/hostname\"").is_empty(),
            "outside the root"
        );

        let before = named_scripts(root, &value("\"./tools/sum.sh\""));
        fs::write(root.join("tools/sum.sh"), "id > pwned\n").unwrap();
        let after = named_scripts(root, &value("\"./tools/sum.sh\""));
        assert_ne!(before, after, "a changed script hashes differently");
    }

    /// `python3 -m sumtool` and `make -C tools` name no file, yet run
    /// the root's code: consent covers the module and the folder.
    #[test]
    fn modules_and_folders_a_command_names_are_covered() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("sumtool/inner")).unwrap();
        fs::write(root.join("sumtool/__main__.py"), "print(1)\n").unwrap();
        fs::write(root.join("sumtool/inner/util.py"), "X = 1\n").unwrap();
        fs::write(root.join("single.py"), "print(2)\n").unwrap();
        let paths = |src: &str| -> Vec<String> {
            named_scripts(root, &value(src))
                .into_iter()
                .map(|s| s.path)
                .collect()
        };
        assert_eq!(
            paths("\"python3 -m sumtool\""),
            ["sumtool/__main__.py", "sumtool/inner/util.py"]
        );
        assert_eq!(paths("\"python3 -m single\""), ["single.py"]);
        assert_eq!(
            paths("\"make -C sumtool/inner\""),
            ["sumtool/inner/util.py"]
        );
        assert!(paths("\"make -C .\"").is_empty(), "not the whole root");
        let before = named_scripts(root, &value("\"python3 -m sumtool\""));
        fs::write(root.join("sumtool/inner/util.py"), "import os\n").unwrap();
        let after = named_scripts(root, &value("\"python3 -m sumtool\""));
        assert_ne!(before, after, "a changed module withdraws the consent");
    }

    #[test]
    fn words_the_shell_expands_into_file_names_are_patterns() {
        assert_eq!(
            shell_patterns("python3 tools/summ?rize.py --x 'a*b' \"c?\" d\\*"),
            ["tools/summ?rize.py"]
        );
        assert_eq!(
            shell_patterns("sh tools/{a,b}.sh; cat *.md"),
            ["tools/{a,b}.sh", "*.md"]
        );
        assert!(shell_patterns("sed 's/x*/y/' | tr -d '[:space:]'").is_empty());
        // The shell's parameters, and a recipe's `$$?` (make's `$?`), are
        // no patterns; a glob after them still is.
        assert!(shell_patterns("test $? -eq 0 && echo $* $$? $$*").is_empty());
        assert_eq!(shell_patterns("echo $?x*"), ["$?x*"]);
        assert!(shell_patterns("if [ -d build ]; then [[ -n x ]]; fi").is_empty());
        assert_eq!(shell_patterns("sh tools/[ab].sh"), ["tools/[ab].sh"]);
        // A case's patterns match a word, not file names; its commands
        // and what follows `esac` are read as before.
        assert!(
            shell_patterns(
                "case $$(go version) in \"go version go\"1.[0-5].*) EQ=\" \" ;; *.c|*.h) x ;; *) EQ=\"=\" ;; esac"
            )
            .is_empty()
        );
        assert_eq!(
            shell_patterns("case $x in a*) sh tools/*.sh ;; esac; cat *.md"),
            ["tools/*.sh", "*.md"]
        );
        // `case` only as a command: as an argument it hides nothing.
        assert_eq!(
            shell_patterns("echo case in tools/*.sh | sh; x case y in z*)"),
            ["tools/*.sh", "z*"]
        );
        assert_eq!(
            shell_patterns("if true; then case $v in *) ;; esac; fi"),
            Vec::<String>::new()
        );
    }

    /// A shell the command runs with `-c` expands the patterns of its
    /// script line too: in a shell line (`sh -c "…"`, quoted for the outer
    /// shell) and in an argv (`["bash", "-lc", "…"]`, after `env`), nested.
    #[test]
    fn patterns_inside_a_shell_the_command_runs_are_patterns() {
        let root = Path::new("/nonexistent/ctxcurate-root");
        let patterns = |src: &str| covered(root, &value(src)).patterns;
        assert_eq!(
            patterns(r#"["sh", "-c", "python3 tools/summ?rize.py"]"#),
            ["tools/summ?rize.py"]
        );
        assert_eq!(
            patterns(r#"["env", "X=1", "/bin/bash", "-lc", "python3 tools/*.py"]"#),
            ["tools/*.py"]
        );
        assert_eq!(
            patterns(r#"'sh -c "python3 tools/summ?rize.py"'"#),
            ["tools/summ?rize.py"]
        );
        assert_eq!(
            patterns(r#"'bash -e -c "sh -c \"cat t/[ab].py\""'"#),
            ["t/[ab].py"]
        );
        assert!(patterns(r#"["sh", "-c", "python3 tools/summarize.py"]"#).is_empty());
        assert!(patterns(r#"["python3", "-c", "print('*')"]"#).is_empty());
    }

    /// Recheck 25: the logs a command and its scripts only write are
    /// none of what it runs: writing them does not change what a consent
    /// covers (it lapsed after the first run).
    #[test]
    fn files_a_command_only_writes_are_not_covered() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("tools")).unwrap();
        fs::write(
            root.join("tools/s.py"),
            "with open(\"tools/summaries.log\", \"a\") as f:\n    f.write('x')\n",
        )
        .unwrap();
        fs::write(
            root.join("tools/w.sh"),
            "cat > last_input.txt\necho s | tee -a sum.log\n",
        )
        .unwrap();
        let cmd = value("\"python3 tools/s.py 2>>tools/err.log; sh tools/w.sh\"");
        let before = covered(root, &cmd);
        for log in [
            "tools/summaries.log",
            "tools/err.log",
            "last_input.txt",
            "sum.log",
        ] {
            fs::write(root.join(log), "ran\n").unwrap();
        }
        assert_eq!(covered(root, &cmd), before);
        let paths: Vec<&str> = before.scripts.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths, ["tools/s.py", "tools/w.sh"]);
    }

    /// Recheck 25: `PYTHONPATH` naming the folder the command runs in
    /// (`.`, an empty part, `$PWD`, the absolute path, an argv's `env`) and
    /// `-m pkg.mod` with a `pkg.py` beside it: a module added there
    /// changes what the consent covers.
    #[test]
    fn a_module_added_where_pythonpath_or_dash_m_looks_changes_the_cover() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("tools")).unwrap();
        fs::write(root.join("tools/s.py"), "import json\n").unwrap();
        let absolute = format!("\"PYTHONPATH={} python3 tools/s.py\"", root.display());
        let commands = [
            "\"PYTHONPATH=. python3 tools/s.py\"",
            "\"PYTHONPATH=:/nonexistent python3 tools/s.py\"",
            "\"PYTHONPATH=$PWD python3 tools/s.py\"",
            "\"PYTHONPATH=lib:$PYTHONPATH python3 tools/s.py\"",
            absolute.as_str(),
            r#"["env", "PYTHONPATH=.", "python3", "tools/s.py"]"#,
            "\"python3 -m json.tool\"",
        ];
        let before: Vec<Covered> = commands.iter().map(|c| covered(&root, &value(c))).collect();
        fs::write(root.join("sitecustomize.py"), "print('x')\n").unwrap();
        fs::write(root.join("json.py"), "print('x')\n").unwrap();
        for (command, was) in commands.iter().zip(&before) {
            assert_ne!(&covered(&root, &value(command)), was, "{command}");
        }
        // A path that leaves the root off stays as it was.
        let cmd = value("\"PYTHONPATH=lib python3 tools/s.py\"");
        let was = covered(&root, &cmd);
        fs::write(root.join("other.py"), "").unwrap();
        assert_eq!(covered(&root, &cmd), was);
    }

    /// Recheck 25: Perl's `-M`, `PERL5LIB=$PWD/…`, a `use lib` folder's
    /// modules; Lua's `LUA_INIT=@file`, `-l`, `LUA_PATH` and `package.path`;
    /// a virtual environment's Python after `activate`, and its
    /// `sitecustomize.py`.
    #[test]
    fn perl_lua_and_venv_loads_are_covered_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let site = root.join(".venv/lib/python3.11/site-packages");
        fs::create_dir_all(&site).unwrap();
        fs::create_dir_all(root.join("tools")).unwrap();
        fs::create_dir_all(root.join("lib")).unwrap();
        fs::write(root.join(".venv/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
        fs::write(root.join("tools/s.pl"), "use strict;\nprint 1;\n").unwrap();
        fs::write(
            root.join("tools/u.pl"),
            "use lib \"tools\";\nuse POSIX ();\n",
        )
        .unwrap();
        fs::write(root.join("tools/H.pm"), "1;\n").unwrap();
        fs::write(root.join("tools/s.lua"), "print(1)\n").unwrap();
        fs::write(root.join("tools/init.lua"), "x = 1\n").unwrap();
        fs::write(root.join("tools/s.py"), "print(1)\n").unwrap();
        let paths = |command: &str| -> Vec<String> {
            covered(&root, &value(command))
                .scripts
                .into_iter()
                .map(|s| s.path)
                .collect()
        };
        assert!(paths("\"perl -Itools -MH tools/s.pl\"").contains(&"tools/H.pm".to_string()));
        assert!(
            paths("\"LUA_INIT=@tools/init.lua lua tools/s.lua\"")
                .contains(&"tools/init.lua".to_string())
        );
        assert!(paths("\"lua -l tools.init tools/s.lua\"").contains(&"tools/init.lua".to_string()));
        assert!(
            !covered(&root, &value("\"LUA_PATH='lib/?.lua' lua tools/s.lua\""))
                .patterns
                .is_empty()
        );
        fs::write(
            root.join("tools/p.lua"),
            "package.path = \"tools/?.lua;\" .. package.path\nrequire(\"helper\")\n",
        )
        .unwrap();
        assert!(
            !covered(&root, &value("\"lua tools/p.lua\""))
                .patterns
                .is_empty()
        );
        // A module added where the command's Perl or Python looks first.
        let commands = [
            "\"PERL5LIB=$PWD/lib perl tools/s.pl\"",
            "\"perl tools/u.pl\"",
            "\". .venv/bin/activate && python tools/s.py\"",
            "\".venv/bin/python tools/s.py\"",
        ];
        let before: Vec<Covered> = commands.iter().map(|c| covered(&root, &value(c))).collect();
        fs::write(root.join("lib/strict.pm"), "1;\n").unwrap();
        fs::write(root.join("tools/Fcntl.pm"), "1;\n").unwrap();
        fs::write(site.join("evil.pth"), "import os\n").unwrap();
        fs::write(site.join("sitecustomize.py"), "import os\n").unwrap();
        for (command, was) in commands.iter().zip(&before) {
            assert_ne!(&covered(&root, &value(command)), was, "{command}");
        }
    }

    /// Recheck 25: a link of the project's that the command runs, leading
    /// out of it (`bin/py` to the system's Python): pointed elsewhere, it
    /// changes what the consent covers; a folder a script hands
    /// `run-parts` covers the programs in it.
    #[cfg(unix)]
    #[test]
    fn a_link_leading_out_and_a_run_parts_folder_are_covered() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let outside = tempfile::tempdir().unwrap();
        for name in ["a", "b"] {
            fs::write(outside.path().join(name), "#!/bin/sh\n").unwrap();
        }
        fs::create_dir_all(root.join("bin")).unwrap();
        fs::create_dir_all(root.join("tools/conf.d")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("a"), root.join("bin/py")).unwrap();
        fs::write(root.join("tools/s.py"), "print(1)\n").unwrap();
        fs::write(root.join("tools/x.sh"), "run-parts tools/conf.d\n").unwrap();
        let cmd = value("\"bin/py tools/s.py\"");
        let before = covered(&root, &cmd);
        fs::remove_file(root.join("bin/py")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("b"), root.join("bin/py")).unwrap();
        assert_ne!(covered(&root, &cmd), before);
        let cmd = value("\"sh tools/x.sh\"");
        let before = covered(&root, &cmd);
        fs::write(root.join("tools/conf.d/b"), "#!/bin/sh\n").unwrap();
        assert_ne!(covered(&root, &cmd), before);
        // A program outside the system's folders, and a script under a
        // folder link leading out, edited (recheck 26).
        fs::write(outside.path().join("prog"), b"\x7fELF\x02\x01").unwrap();
        std::os::unix::fs::symlink(outside.path().join("prog"), root.join("bin/prog")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("ext")).unwrap();
        for (command, edited) in [("\"bin/prog x\"", "prog"), ("\"sh ext/b\"", "b")] {
            let before = covered(&root, &value(command));
            fs::write(outside.path().join(edited), "#!/bin/sh\ntouch y\n").unwrap();
            assert_ne!(covered(&root, &value(command)), before, "{command}");
        }
        // The script outside a link leads to, edited (recheck 26).
        std::os::unix::fs::symlink(outside.path().join("a"), root.join("tools/o.sh")).unwrap();
        let cmd = value("\"sh tools/o.sh\"");
        let before = covered(&root, &cmd);
        fs::write(outside.path().join("a"), "#!/bin/sh\ntouch x\n").unwrap();
        assert_ne!(covered(&root, &cmd), before);
    }

    /// Recheck 25: an awk program that runs commands (`system`, pipes),
    /// on a script's line or in a program file, is refused; one that only
    /// prints is not.
    #[test]
    fn an_awk_program_running_commands_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("tools")).unwrap();
        let scripts = [
            (
                "tools/a.sh",
                "awk 'BEGIN{system(\"python3 tools/x.py\")}'\n",
            ),
            ("tools/b.sh", "awk -f tools/p.awk data.txt\n"),
            ("tools/p.awk", "{ print $1 | \"sh\" }\n"),
            ("tools/c.sh", "awk -F: '{print $1}' data.txt\n"),
            ("tools/q.awk", "#!/usr/bin/awk -f\n{ print $1 }\n"),
        ];
        for (name, text) in scripts {
            fs::write(root.join(name), text).unwrap();
        }
        let refused = |command: &str| !covered(root, &value(command)).patterns.is_empty();
        assert!(refused("\"sh tools/a.sh\""));
        assert!(refused("\"sh tools/b.sh\""));
        assert!(refused("\"awk -f tools/p.awk x\""));
        assert!(!refused("\"sh tools/c.sh\""));
        assert!(!refused("\"awk -f tools/q.awk x\""));
        // The program file however it is named (recheck 26).
        fs::write(root.join("tools/prog"), "BEGIN { system(\"sh\") }\n").unwrap();
        fs::write(root.join("tools/d.sh"), "awk -ftools/p.awk data.txt\n").unwrap();
        for command in [
            "\"awk -ftools/p.awk x\"",
            "\"gawk --file=tools/p.awk x\"",
            "\"awk -v a=1 -f tools/prog x\"",
            "\"awk -ftools/prog x\"",
            "\"sh tools/d.sh\"",
        ] {
            assert!(refused(command), "{command}");
        }
        let paths: Vec<String> = covered(root, &value("\"awk -ftools/q.awk x\""))
            .scripts
            .into_iter()
            .map(|s| s.path)
            .collect();
        assert_eq!(paths, ["tools/q.awk"]);
    }

    /// A Python script covers what it imports inside the project, and the
    /// places a new module would shadow one it imports.
    #[test]
    fn what_a_python_script_imports_is_covered() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("tools/lib")).unwrap();
        fs::write(
            root.join("tools/summarize.py"),
            "import json\nfrom helper import run\nfrom lib import deep\n",
        )
        .unwrap();
        fs::write(
            root.join("tools/helper.py"),
            "from . import x\nimport sys\n",
        )
        .unwrap();
        fs::write(root.join("tools/lib/__init__.py"), "").unwrap();
        fs::write(root.join("tools/lib/deep.py"), "import other\n").unwrap();
        fs::write(root.join("tools/unrelated.py"), "").unwrap();
        let cmd = value("\"python3 tools/summarize.py\"");
        let covered = covered(root, &cmd);
        let paths: Vec<&str> = covered.scripts.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "tools/helper.py",
                "tools/lib/__init__.py",
                "tools/lib/deep.py",
                "tools/summarize.py"
            ]
        );
        assert!(
            covered.places.contains(&"tools/json: nothing".to_string()),
            "{:?}",
            covered.places
        );
        let before = fingerprint_of(&covered);
        fs::write(root.join("tools/json.py"), "import os; os.system('id')\n").unwrap();
        assert_ne!(
            before,
            fingerprint_of(&super::covered(root, &cmd)),
            "json shadowed"
        );
        fs::remove_file(root.join("tools/json.py")).unwrap();
        assert_eq!(before, fingerprint_of(&super::covered(root, &cmd)));
        fs::write(root.join("tools/lib/deep.py"), "import other\nprint(1)\n").unwrap();
        assert_ne!(
            before,
            fingerprint_of(&super::covered(root, &cmd)),
            "an import changed"
        );
    }

    fn fingerprint_of(c: &Covered) -> (Vec<Script>, Vec<String>) {
        (c.scripts.clone(), c.places.clone())
    }

    #[cfg(unix)]
    #[test]
    fn a_link_leaving_the_root_or_a_fifo_is_not_a_script() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("s.sh"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path().join("s.sh"), dir.path().join("s.sh")).unwrap();
        assert!(named_scripts(dir.path(), &value("\"./s.sh\"")).is_empty());
        let fifo = dir.path().join("f.sh");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(named_scripts(dir.path(), &value("\"./f.sh\"")).is_empty());
        assert!(hash_file(&fifo).is_err(), "refused without waiting");
    }

    /// A command whose lines hold thousands of distinct words (a task
    /// line built to make each a disk lookup) is not looked through word
    /// by word: it cannot be consented to, and says so.
    #[test]
    fn a_command_of_too_many_words_cannot_be_consented_to() {
        let dir = tempfile::tempdir().unwrap();
        let words: Vec<String> = (0..MAX_LOOKED_UP_WORDS + 10)
            .map(|i| format!("w{i}"))
            .collect();
        let command = format!("\"echo {}\"", words.join(" "));
        let long = covered(dir.path(), &value(&command));
        assert_eq!(long.patterns, [TOO_MANY_WORDS]);
        assert!(long.scripts.is_empty());
        let short = covered(dir.path(), &value("\"echo w1 w2\""));
        assert!(short.patterns.is_empty());
    }

    /// A task line over the length bound (here a makefile's recipe) is
    /// not read word by word: the command cannot be consented to.
    #[test]
    fn a_task_line_too_long_to_review_cannot_be_consented_to() {
        let dir = tempfile::tempdir().unwrap();
        let recipe = "w ".repeat(super::super::tasks::MAX_TASK_LINE_BYTES);
        std::fs::write(dir.path().join("Makefile"), format!("all:\n\t{recipe}\n")).unwrap();
        let long = covered(dir.path(), &value("\"make all\""));
        assert_eq!(long.patterns, [TOO_MANY_WORDS]);
        assert_eq!(long.scripts.len(), 1, "the makefile is still covered");
    }

    /// A reading of a command's tasks stopped at a bound leaves what lies
    /// past it unreviewed: a script the last recipe line runs, a makefile
    /// included past the count, a sub-make past the depth. The command
    /// cannot be consented to; one within every bound can.
    #[test]
    fn tasks_past_a_bound_cannot_be_consented_to() {
        use super::super::tasks::{MAX_GOALS, MAX_MAKEFILES, MAX_TASK_DEPTH, MAX_TASK_LINES};
        let consentable = |files: &[(String, String)]| {
            let dir = tempfile::tempdir().unwrap();
            for (path, text) in files {
                let path = dir.path().join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            std::fs::write(dir.path().join("hidden.sh"), "echo hi\n").unwrap();
            let covered = covered(dir.path(), &value("\"make all\""));
            let hidden = covered.scripts.iter().any(|s| s.path == "hidden.sh");
            (covered.patterns, hidden)
        };
        let recipe = |n: usize| -> String {
            let mut text = "all:\n".to_string();
            for i in 0..n {
                text.push_str(&format!("\techo step {i}\n"));
            }
            text + "\tsh hidden.sh\n"
        };
        // Within the bound: the script is covered.
        let (patterns, hidden) = consentable(&[("Makefile".into(), recipe(MAX_TASK_LINES - 2))]);
        assert!(patterns.is_empty(), "{patterns:?}");
        assert!(hidden);
        // Past it: refused.
        let (patterns, _) = consentable(&[("Makefile".into(), recipe(MAX_TASK_LINES))]);
        assert_eq!(patterns, [TOO_MANY_TASKS]);

        // Goals: one rule per prerequisite, past the bound.
        let goals = |n: usize| {
            let mut text = "all:".to_string();
            for i in 0..n {
                text.push_str(&format!(" g{i}"));
            }
            text.push('\n');
            for i in 0..n {
                text.push_str(&format!("g{i}:\n\ttrue\n"));
            }
            text
        };
        let (patterns, _) = consentable(&[("Makefile".into(), goals(MAX_GOALS + 1))]);
        assert_eq!(patterns, [TOO_MANY_TASKS]);
        // A C project's 300 objects made by one pattern rule are one
        // recipe line to review, within every bound.
        let mut objects = "all:".to_string();
        for i in 0..300 {
            objects.push_str(&format!(" o{i}.o"));
        }
        objects.push_str("\n%.o: %.c\n\tsh hidden.sh $<\n");
        let (patterns, hidden) = consentable(&[("Makefile".into(), objects)]);
        assert!(patterns.is_empty(), "{patterns:?}");
        assert!(hidden);

        // A rule past the bound, or a variable past its size, refuses
        // only a command that reaches it.
        let long_rule = format!(
            "clean:\n\trm -f out.txt\nbig:\n{}\tsh hidden.sh\n",
            "\techo step\n".repeat(MAX_TASK_LINES + 1)
                + &(0..=MAX_TASK_LINES)
                    .map(|i| format!("\techo {i}\n"))
                    .collect::<String>()
        );
        let huge = format!("GEN = {}\n", "x".repeat(70_000));
        for (makefile, goal, refused) in [
            (long_rule.clone(), "clean", false),
            (long_rule, "big", true),
            (format!("{huge}clean:\n\trm -f out.txt\n"), "clean", false),
            (format!("{huge}clean:\n\t$(GEN) out.txt\n"), "clean", true),
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("Makefile"), makefile).unwrap();
            let command = value(&format!("\"make {goal}\""));
            let patterns = covered(dir.path(), &command).patterns;
            assert_eq!(
                patterns.contains(&TOO_MANY_TASKS.to_string()),
                refused,
                "make {goal}"
            );
        }

        // Included makefiles past the count.
        let mut files = vec![(
            "Makefile".to_string(),
            "include m0.mk\nall:\n\ttrue\n".to_string(),
        )];
        for i in 0..MAX_MAKEFILES {
            files.push((format!("m{i}.mk"), format!("include m{}.mk\n", i + 1)));
        }
        let (patterns, _) = consentable(&files);
        assert_eq!(patterns, [TOO_MANY_TASKS]);

        // Sub-makes past the depth, each in a folder of its own.
        let mut files = Vec::new();
        let mut dir = String::new();
        for level in 0..=MAX_TASK_DEPTH + 1 {
            let make = format!("all:\n\t$(MAKE) -C d{level}\n");
            files.push((format!("{dir}Makefile"), make));
            dir.push_str(&format!("d{level}/"));
        }
        let (patterns, _) = consentable(&files);
        assert_eq!(patterns, [TOO_MANY_TASKS]);
        // Within the depth: fine.
        let (patterns, _) = consentable(&files[..MAX_TASK_DEPTH - 1]);
        assert!(patterns.is_empty(), "{patterns:?}");
    }
}
