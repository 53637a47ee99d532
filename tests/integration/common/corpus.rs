//! Helpers of the real-code tests: finding the real files, and the
//! independent oracles (Python's `ast` in one subprocess, `gcc
//! -aux-info`), for the tests that `machine` lets run and for the benches
//! (which include this file by its path, so it names nothing of `common`).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

use ctxcurate::core::model::MaskState;
use ctxcurate::core::syntax::{self, Lang};

/// The Python standard library directory, if python3 is installed.
pub fn python_stdlib() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.is_dir().then_some(dir)
}

/// The newest `/usr/include/c++/<version>` directory.
pub fn cpp_include_dir() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/include/c++")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("bits").is_dir())
        .collect();
    dirs.sort_by_key(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.split('.')
            .map(|n| n.parse::<u32>().unwrap_or(0))
            .collect::<Vec<_>>()
    });
    dirs.pop()
}

/// Every regular file below `dir` (symlinks not followed) that `keep`
/// accepts, sorted.
pub fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && keep(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Regular files directly in `dir` with extension `ext` (`""`: none).
pub fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.path())
                .filter(|p| p.extension().map_or(ext.is_empty(), |e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The files' text keyed by path, and the paths that are not UTF-8.
pub fn read_sources(files: &[PathBuf]) -> (Vec<(String, String)>, Vec<String>) {
    let mut sources = Vec::new();
    let mut not_utf8 = Vec::new();
    for path in files {
        let name = path.display().to_string();
        match std::fs::read(path).map(String::from_utf8) {
            Ok(Ok(text)) => sources.push((name, text)),
            _ => not_utf8.push(name),
        }
    }
    (sources, not_utf8)
}

/// Every view of `text`, for the no-panic tests.
pub fn render_every_view(lang: Lang, text: &str) {
    let tree = syntax::parse(lang, text);
    let _ = syntax::skeleton(&tree, text);
    let _ = syntax::outline(&tree);
    let mut mask = BTreeMap::new();
    for (i, symbol) in tree.iter().enumerate() {
        mask.insert(symbol.path.clone(), MaskState::ALL[i % 4]);
    }
    for default in MaskState::ALL {
        let _ = syntax::masked(&tree, text, *default, &mask);
        let _ = syntax::masked(&tree, text, *default, &BTreeMap::new());
    }
}

/// One Python file for the `ast` oracle: our symbol names, and renderings
/// that must parse, each with its name (`skeleton`, `agg`, ...).
pub struct PyEntry {
    pub file: String,
    pub renderings: Vec<(&'static str, String)>,
    pub names: Vec<String>,
}

/// What Python's `ast` said about our skeletons and symbols.
pub struct PyReport {
    /// Files Python itself cannot parse (not checked).
    pub invalid_original: Vec<String>,
    /// (file, error) for renderings that do not parse.
    pub bad_rendering: Vec<(String, String)>,
    /// (file, names) of definitions `ast` sees that are not our symbols.
    pub missing: Vec<(String, Vec<String>)>,
    /// How many definitions `ast` found in the checked files.
    pub definitions: usize,
}

const PY_CHECK: &str = r#"
import ast, gc, json, sys, warnings
warnings.filterwarnings("ignore")
gc.disable()
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
def def_names(tree):
    # Definitions are statements, so only statement lists need walking
    # (same result as ast.walk, ten times faster).
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, DEFS):
            out.append(node.name)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(value)
    return out
report = {"invalid": [], "bad": [], "missing": [], "defs": 0}
for line in sys.stdin:
    entry = json.loads(line)
    try:
        original = ast.parse(open(entry["file"], "rb").read())
    except (SyntaxError, ValueError):
        report["invalid"].append(entry["file"])
        continue
    names = def_names(original)
    report["defs"] += len(names)
    missing = sorted(set(names) - set(entry["names"]))
    if missing:
        report["missing"].append([entry["file"], missing])
    for kind, text in entry["renderings"]:
        try:
            ast.parse(text)
        except (SyntaxError, ValueError) as e:
            where = "%s line %s: %s" % (kind, getattr(e, "lineno", "?"), e)
            report["bad"].append([entry["file"], where])
json.dump(report, sys.stdout)
"#;

/// One python3 process checking entries as they are sent, so Python's
/// work overlaps ours.
pub struct PyChecker {
    child: Child,
    sender: Option<SyncSender<PyEntry>>,
    writer: Option<JoinHandle<()>>,
}

impl PyChecker {
    /// Start python3 (`None` if it cannot run).
    pub fn start() -> Option<PyChecker> {
        let mut child = Command::new("python3")
            .arg("-c")
            .arg(PY_CHECK)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take()?;
        let (sender, receiver) = sync_channel::<PyEntry>(64);
        let writer = std::thread::spawn(move || {
            let mut stdin = std::io::BufWriter::new(stdin);
            for entry in receiver {
                let line = serde_json::json!({
                    "file": entry.file,
                    "renderings": entry.renderings,
                    "names": entry.names,
                });
                if writeln!(stdin, "{line}").is_err() {
                    break;
                }
            }
        });
        Some(PyChecker {
            child,
            sender: Some(sender),
            writer: Some(writer),
        })
    }

    /// Where to send entries.
    pub fn sender(&self) -> SyncSender<PyEntry> {
        self.sender.clone().expect("checker already finished")
    }

    /// Close the input and read python3's report.
    pub fn finish(mut self) -> PyReport {
        drop(self.sender.take());
        if let Some(writer) = self.writer.take() {
            writer.join().expect("writer thread");
        }
        let mut stdout = String::new();
        self.child
            .stdout
            .take()
            .expect("python3 stdout")
            .read_to_string(&mut stdout)
            .expect("read python3 report");
        assert!(
            self.child.wait().expect("python3").success(),
            "python3 check failed"
        );
        parse_report(&stdout)
    }
}

fn parse_report(stdout: &str) -> PyReport {
    let report: serde_json::Value = serde_json::from_str(stdout).expect("python3 report");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let pairs = |key: &str| -> Vec<(String, serde_json::Value)> {
        report[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| (p[0].as_str().unwrap_or("?").to_string(), p[1].clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    PyReport {
        invalid_original: strings(&report["invalid"]),
        bad_rendering: pairs("bad")
            .into_iter()
            .map(|(f, e)| (f, e.as_str().unwrap_or("?").to_string()))
            .collect(),
        missing: pairs("missing")
            .into_iter()
            .map(|(f, names)| (f, strings(&names)))
            .collect(),
        definitions: report["defs"].as_u64().unwrap_or(0) as usize,
    }
}

/// The functions gcc declares from `header` as (name, line), keeping only
/// those whose name is written out as `name (` in the header (a
/// declaration made by a macro such as `__REDIRECT (fopen, ...)` is
/// invisible without a preprocessor). `None` if gcc is missing or the
/// header does not compile on its own.
pub fn gcc_declarations(header: &str, text: &str) -> Option<Vec<(String, usize)>> {
    let dir = tempfile::tempdir().ok()?;
    let aux = dir.path().join("aux.txt");
    let mut child = Command::new("gcc")
        .args([
            "-D_GNU_SOURCE",
            "-fsyntax-only",
            "-w",
            "-x",
            "c",
            "-",
            "-aux-info",
        ])
        .arg(&aux)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    {
        let mut stdin = child.stdin.take()?;
        writeln!(stdin, "#include \"{header}\"").ok()?;
    }
    if !child.wait().ok()?.success() {
        return None;
    }
    let listing = std::fs::read_to_string(&aux).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let prefix = format!("/* {header}:");
    let mut out: Vec<(String, usize)> = listing
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| {
            let (line, decl) = rest.split_once(':')?;
            let line: usize = line.parse().ok()?;
            let name = declared_name(decl.split_once("*/")?.1)?;
            Some((name, line))
        })
        .filter(|(name, line)| written_as_call(&lines, *line, name))
        .collect();
    out.dedup();
    Some(out)
}

/// The name in a gcc prototype `int (*signal (int, ...)) (int)`: the
/// identifier before the first `(` that does not open a declarator.
fn declared_name(decl: &str) -> Option<String> {
    let bytes = decl.as_bytes();
    for (i, _) in decl.match_indices('(') {
        if bytes.get(i + 1) == Some(&b'*') {
            continue;
        }
        let before = decl[..i].trim_end();
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |p| p + 1);
        let ident = &before[start..];
        if !ident.is_empty() && !ident.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(ident.to_string());
        }
    }
    None
}

/// Whether `name (` appears on line `line` (1-based) or the next one.
fn written_as_call(lines: &[&str], line: usize, name: &str) -> bool {
    let start = line.saturating_sub(1);
    let near = lines
        .iter()
        .skip(start)
        .take(2)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    near.match_indices(name).any(|(i, _)| {
        let before_ok = near[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        before_ok && near[i + name.len()..].trim_start().starts_with('(')
    })
}

/// The newest `prefix<version>` crate folder in cargo's registry sources
/// (`clap_builder-` → `~/.cargo/registry/src/<index>/clap_builder-4.5.x`).
pub fn registry_crate(prefix: &str) -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let mut found = Vec::new();
    for index in std::fs::read_dir(home.join("registry/src")).ok()?.flatten() {
        for entry in std::fs::read_dir(index.path()).ok()?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let rest = name.strip_prefix(prefix);
            if rest.is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())) {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    found.pop()
}

/// Go's library sources (Debian's `golang-*-src`): the newest
/// `go-1.NN/src` under `/usr/share` or `/usr/lib` that holds a `go.mod`
/// (the module `std`).
pub fn go_src() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = ["/usr/share", "/usr/lib"]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|entries| entries.flatten())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("go-"))
        })
        .map(|p| p.join("src"))
        .filter(|p| p.join("go.mod").is_file())
        .collect();
    found.sort();
    found.pop()
}
