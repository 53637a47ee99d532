//! The folders a Python script adds to where Python finds modules, so
//! its imports are looked for there too: `sys.path.insert(0,
//! os.path.join(os.path.dirname(__file__), "..", "vendor"))`,
//! `sys.path.append("vendor")`, `site.addsitedir("tools/sd")` (whose
//! `.pth` files also run), and `PYTHONPATH` given to a Python child it
//! starts (`os.environ["PYTHONPATH"] = "vendor"`, `env=`, `os.putenv`;
//! read by `env_path.rs`). The folder is worked out from the string
//! literals and the parent steps of `__file__` (`dirname`, `.parent`,
//! `.parents[n]`), from the script's file, or from the root (where a
//! command runs) without it. A value that holds anything else (a
//! variable, a call of another function, an environment variable) is
//! known only as the script runs: a refusal (`trust/unknown.rs`), since
//! an import would then be looked for where no review looked. The
//! folders it gives its children's `PATH` (`os.environ["PATH"] = "tools"
//! + os.pathsep + …`) are read the same way: their programs run by a
//! bare name (`RUNNER = "app"; subprocess.run([RUNNER])`).

use std::path::{Path, PathBuf};

use super::env_path::{self, split_top};

/// What a Python text adds to its module search.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Added {
    /// Folders (lexical, absolute) imports are looked for in.
    pub(super) folders: Vec<PathBuf>,
    /// Of those, the ones added with `site.addsitedir` (their `.pth`
    /// files run).
    pub(super) sites: Vec<PathBuf>,
    /// How a value known only as it runs was added (a refusal each).
    pub(super) unknown: Vec<String>,
    /// Folders given to a child's `PATH` (lexical, absolute): their
    /// programs run by a bare name.
    pub(super) programs: Vec<PathBuf>,
}

/// The calls that add a folder to the search, and whether it is a site
/// folder. For `insert`, the folder is the second argument.
const CALLS: &[(&str, bool)] = &[
    ("sys.path.insert(", false),
    ("sys.path.append(", false),
    ("sys.path.extend(", false),
    ("site.addsitedir(", true),
    ("addsitedir(", true),
];

/// The names a folder's expression may hold and still be known.
const KNOWN: &[&str] = &[
    "os", "path", "join", "dirname", "abspath", "realpath", "normpath", "Path", "pathlib",
    "parent", "parents", "resolve", "absolute", "str", "__file__", "fspath", "getcwd", "sys",
];

/// What Python `text`, the file `file` (canonical), adds to its search;
/// `root` is where the command runs.
pub(super) fn added(text: &str, file: &Path, root: &Path) -> Added {
    let mut out = Added::default();
    for line in text.lines() {
        let code = line.split('#').next().unwrap_or("");
        for given in env_path::given(code, "PYTHONPATH") {
            pythonpath(&given, file, root, code, &mut out);
        }
        for given in env_path::given(code, "PATH") {
            path(&given, file, root, code, &mut out);
        }
        if code.contains("sys.path") && !CALLS.iter().any(|(c, _)| code.contains(c)) {
            // `sys.path = […]`, `sys.path += […]`, `sys.path[0:0] = […]`.
            if let Some((target, value)) = code.split_once('=')
                && target.trim().starts_with("sys.path")
                && !value.starts_with('=')
            {
                assigned(value, file, root, code, &mut out);
            }
            continue;
        }
        for (call, site) in CALLS {
            let Some(at) = code.find(call) else { continue };
            if *call == "addsitedir(" && code[..at].ends_with("site.") {
                continue;
            }
            let args = &code[at + call.len()..];
            let args = &args[..closing(args)];
            let value = match *call {
                "sys.path.insert(" => args.split_once(',').map_or(args, |(_, v)| v),
                _ => args,
            };
            folder(value, file, root, *site, code, &mut out);
        }
    }
    out
}

/// The folders of a value assigned to (a slice of) `sys.path`: each
/// element of a list display (`sys.path[0:0] = ["vendor"]`,
/// `["vendor"] + sys.path`), the list itself left out; anything else is
/// one folder expression (so unknown unless it is one).
fn assigned(value: &str, file: &Path, root: &Path, code: &str, out: &mut Added) {
    for part in split_top(value, '+') {
        let part = part.trim();
        if part == "sys.path" {
            continue;
        }
        match part.strip_prefix('[').and_then(|p| p.strip_suffix(']')) {
            Some(items) => {
                for item in split_top(items, ',')
                    .iter()
                    .filter(|i| !i.trim().is_empty())
                {
                    folder(item, file, root, false, code, out);
                }
            }
            None => folder(part, file, root, false, code, out),
        }
    }
}

/// The folders of a value given to a child's `PYTHONPATH`
/// ([`env_path`]): a Python the script starts looks its imports up there
/// (relative to where it runs, the root), so they are searched as if
/// added to `sys.path`; a part that is no literal is worked out as a
/// `sys.path` folder is, or known only as it runs.
fn pythonpath(given: &env_path::Given, file: &Path, root: &Path, code: &str, out: &mut Added) {
    let parts = env_path::parts(given, "PYTHONPATH");
    pythonpath_parts(parts, given, file, root, code, out);
}

/// The folders of `parts` (of `given`), into [`Added::folders`].
fn pythonpath_parts(
    parts: env_path::Parts,
    given: &env_path::Given,
    file: &Path,
    root: &Path,
    code: &str,
    out: &mut Added,
) {
    for literal in parts.folders {
        let dir = crate::core::paths::lexical(&root.join(literal));
        if !out.folders.contains(&dir) {
            out.folders.push(dir);
        }
    }
    for part in parts.other {
        match given {
            env_path::Given::Expression(_) => folder(&part, file, root, false, code, out),
            env_path::Given::Shell(_) => unknown(code, out),
        }
    }
}

/// The folders of a value given to a child's `PATH`: worked out as
/// `PYTHONPATH`'s are, into [`Added::programs`]; a part known only as
/// it runs is a refusal.
fn path(given: &env_path::Given, file: &Path, root: &Path, code: &str, out: &mut Added) {
    let mut found = Added::default();
    pythonpath_parts(
        env_path::parts(given, "PATH"),
        given,
        file,
        root,
        code,
        &mut found,
    );
    for dir in found.folders {
        if !out.programs.contains(&dir) {
            out.programs.push(dir);
        }
    }
    if !found.unknown.is_empty() {
        let shown: String = code.trim().chars().take(80).collect();
        let why = format!(
            "changes where programs are found by a value known only as it runs (`{shown}`)"
        );
        if !out.unknown.contains(&why) {
            out.unknown.push(why);
        }
    }
}

/// Note that line `code` sets where Python finds modules by a value
/// known only as it runs.
fn unknown(code: &str, out: &mut Added) {
    let shown: String = code.trim().chars().take(80).collect();
    let why =
        format!("changes where Python finds modules by a value known only as it runs (`{shown}`)");
    if !out.unknown.contains(&why) {
        out.unknown.push(why);
    }
}

/// Work out the folder of expression `value` (of line `code`) and note it
/// in `out`, or note that it is known only as it runs.
fn folder(value: &str, file: &Path, root: &Path, site: bool, code: &str, out: &mut Added) {
    let (literals, rest) = split_literals(value);
    let is_unknown = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
        .any(|w| !KNOWN.contains(&w))
        || (literals.is_empty() && !rest.contains("__file__") && !rest.contains("getcwd"))
        || rest.contains("[") && !rest.contains("parents[");
    if is_unknown {
        unknown(code, out);
        return;
    }
    let mut base = match rest.contains("__file__") {
        true => file.to_path_buf(),
        false => root.to_path_buf(),
    };
    if rest.contains("__file__") {
        for _ in 0..parent_steps(&rest) {
            base.pop();
        }
    }
    for literal in literals {
        base.push(literal);
    }
    let dir = crate::core::paths::lexical(&base);
    if site && !out.sites.contains(&dir) {
        out.sites.push(dir.clone());
    }
    if !out.folders.contains(&dir) {
        out.folders.push(dir);
    }
}

/// How many folders up from `__file__` an expression goes: one per
/// `dirname(` and `.parent`, `n + 1` for `.parents[n]`.
fn parent_steps(rest: &str) -> usize {
    let mut steps = rest.matches("dirname(").count();
    for (at, _) in rest.match_indices(".parent") {
        let after = &rest[at + ".parent".len()..];
        match after.strip_prefix("s[") {
            Some(index) => {
                let n: String = index.chars().take_while(char::is_ascii_digit).collect();
                steps += n.parse::<usize>().unwrap_or(0) + 1;
            }
            None => steps += 1,
        }
    }
    steps
}

/// The string literals of an expression, and the expression with them
/// taken out.
fn split_literals(value: &str) -> (Vec<String>, String) {
    let mut literals = Vec::new();
    let mut rest = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\'' || c == '"' {
            let literal: String = chars.by_ref().take_while(|&d| d != c).collect();
            literals.push(literal);
            rest.push_str("''");
        } else {
            rest.push(c);
        }
    }
    // `f"…"`, `r"…"` prefixes stay in `rest` as names: drop them.
    let rest = rest.replace("f''", "''").replace("r''", "''");
    (literals, rest)
}

/// The index of the `)` that closes a call whose arguments start `args`
/// (or its end).
fn closing(args: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in args.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 0 => return i,
            ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    args.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_given_a_child_s_path_hold_its_programs() {
        let file = Path::new("/p/tools/s.py");
        let root = Path::new("/p");
        let given = added(
            "import os\nos.environ['PATH'] = 'bin' + os.pathsep + os.environ['PATH']\n\
             env = dict(os.environ, PATH=os.path.dirname(__file__) + ':/usr/bin')\n\
             print(os.environ['PATH'], os.environ.get('PYTHONPATH'))\n",
            file,
            root,
        );
        assert_eq!(
            given.programs,
            ["/p/bin", "/usr/bin", "/p/tools"].map(PathBuf::from)
        );
        assert!(given.folders.is_empty() && given.unknown.is_empty());
        let computed = added(
            "import os\nos.environ['PATH'] = w + ':' + os.environ['PATH']\n",
            file,
            root,
        );
        assert_eq!(computed.unknown.len(), 1);
        assert!(computed.unknown[0].starts_with("changes where programs are found"));
    }

    #[test]
    fn folders_added_from_literals_and_the_script_s_file_are_known() {
        let file = Path::new("/p/tools/s.py");
        let root = Path::new("/p");
        let added = added(
            "import os, sys, site\n\
             sys.path.insert(0, os.path.join(os.path.dirname(__file__), \"..\", \"vendor\"))\n\
             sys.path.append('lib')\n\
             sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'third'))\n\
             site.addsitedir(\"tools/sd\")\n\
             sys.path[0:0] = [\"v1\", 'v2']\nsys.path = ['v3'] + sys.path\n",
            file,
            root,
        );
        assert_eq!(
            added.folders,
            [
                PathBuf::from("/p/vendor"),
                PathBuf::from("/p/lib"),
                PathBuf::from("/p/third"),
                PathBuf::from("/p/tools/sd"),
                PathBuf::from("/p/v1"),
                PathBuf::from("/p/v2"),
                PathBuf::from("/p/v3"),
            ]
        );
        assert_eq!(added.sites, [PathBuf::from("/p/tools/sd")]);
        assert!(added.unknown.is_empty(), "{:?}", added.unknown);
    }

    #[test]
    fn a_folder_from_a_variable_or_the_environment_is_unknown() {
        for text in [
            "sys.path.insert(0, where)\n",
            "sys.path.append(os.environ['X'])\n",
            "site.addsitedir(open('tools/d').read())\n",
            "sys.path = [d] + sys.path\n",
            "sys.path[:] = ws.entries\n",
            "sys.path[0:0] = [where]\n",
        ] {
            let added = added(text, Path::new("/p/s.py"), Path::new("/p"));
            assert_eq!(added.unknown.len(), 1, "{text}: {added:?}");
        }
    }
}
