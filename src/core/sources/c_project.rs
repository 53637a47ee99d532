//! The C/C++ macros of a project as its parses read them: the user's
//! `[syntax] c_macros`, then the `-D` flags of the project's
//! `compile_commands.json` and the `#define`s of its own C/C++ files
//! (headers first, then sources, each in path order), read once, on the
//! first C/C++ parse (see `syntax::CMacros`).

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::core::paths::beneath::{Links, read_small_text};
use crate::core::syntax::CMacros;
use crate::core::walk::{self, Content, ReadPolicy, WalkPatterns};

/// Extensions of C/C++ headers (and implementation files included like
/// them).
const HEADERS: [&str; 9] = ["h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tcc", "tpp"];
/// Extensions of C/C++ sources.
const SOURCES: [&str; 5] = ["c", "cc", "cpp", "cxx", "c++"];

/// Where a compilation database may be, from the root.
const COMPILE_COMMANDS: [&str; 2] = ["compile_commands.json", "build/compile_commands.json"];

/// `user` with the macros of the project at `root`, its files as the walk
/// with `patterns` finds them and read under `policy`.
pub fn project_macros(
    user: CMacros,
    root: &Path,
    patterns: WalkPatterns,
    policy: ReadPolicy,
) -> CMacros {
    // For benchmarks alone (issue 36's time target): the same run without
    // reading the project's definitions.
    if std::env::var_os("CTXCURATE_BENCH_NO_PROJECT_MACROS").is_some() {
        return user;
    }
    let id = root.display().to_string();
    let root: PathBuf = root.to_path_buf();
    user.with_project(id, Vec::new(), move || {
        let files = walk::walk_files_with(&root, &patterns);
        let mut texts = vec![flag_defines(&root)];
        texts.extend(read_c_files(&root, &files, &policy));
        texts
    })
}

/// The project's C/C++ files among `files` (headers first, then sources,
/// each in the order given), read under `policy`; files that cannot be
/// read are left out.
pub fn read_c_files(root: &Path, files: &[String], policy: &ReadPolicy) -> Vec<String> {
    let ext = |f: &String| {
        let name = f.rsplit('/').next().unwrap_or(f);
        name.rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default()
    };
    let headers = files.iter().filter(|f| HEADERS.contains(&ext(f).as_str()));
    let sources = files.iter().filter(|f| SOURCES.contains(&ext(f).as_str()));
    let ordered: Vec<&String> = headers.chain(sources).collect();
    ordered
        .par_iter()
        .filter_map(
            |rel| match walk::read_content_with(root, rel, policy, false) {
                Content::Text { text, .. } => Some(text.to_string()),
                Content::Unreadable(_) => None,
            },
        )
        .collect()
}

/// A compilation database at `rel` under `root`: a regular file beneath
/// the root (opened without blocking: a FIFO is refused at once), at most
/// 64 MiB.
fn read_database(root: &Path, rel: &str) -> Option<String> {
    read_small_text(root, rel, Links::Inside, 64 << 20)
}

/// The `-D` flags of the project's `compile_commands.json` as `#define`
/// lines (the first definition of a name wins; empty without a database
/// or with one that does not parse).
fn flag_defines(root: &Path) -> String {
    let Some(text) = COMPILE_COMMANDS.iter().find_map(|p| read_database(root, p)) else {
        return String::new();
    };
    let Ok(serde_json::Value::Array(entries)) = serde_json::from_str::<serde_json::Value>(&text)
    else {
        return String::new();
    };
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    for entry in &entries {
        let args: Vec<String> = match (entry.get("arguments"), entry.get("command")) {
            (Some(serde_json::Value::Array(args)), _) => args
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect(),
            (_, Some(serde_json::Value::String(command))) => {
                command.split_whitespace().map(str::to_string).collect()
            }
            _ => continue,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let flag = match arg.strip_prefix("-D") {
                Some("") => args.next().unwrap_or_default(),
                Some(flag) => flag.to_string(),
                None => continue,
            };
            out.push_str(&define_line(&flag, &mut seen));
        }
    }
    out
}

/// `NAME=VALUE` (or `NAME`, which is `1`) as a `#define` line, or nothing
/// for a name seen before or a flag that names nothing.
fn define_line(flag: &str, seen: &mut std::collections::HashSet<String>) -> String {
    let (head, value) = flag.split_once('=').unwrap_or((flag, "1"));
    let name: String = head
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() || value.contains('\n') || !seen.insert(name) {
        return String::new();
    }
    let value = value.trim_matches(|c| c == '"' || c == '\'');
    format!("#define {head} {value}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::syntax::{self, Lang};

    fn macros_of(root: &Path) -> CMacros {
        project_macros(
            CMacros::new(&[]),
            root,
            WalkPatterns::default(),
            ReadPolicy::default(),
        )
    }

    /// A project's header decides its parses and their cache key; another
    /// project's parse is untouched; a changed definition is read again
    /// after a reload and changes the key.
    #[test]
    fn a_projects_headers_decide_its_parses_and_keys_alone() {
        let a = tempfile::tempdir().expect("tempdir");
        let b = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(a.path().join("include")).expect("mkdir");
        std::fs::write(
            a.path().join("include/api.h"),
            "#define MYLIB_BEGIN(name) namespace name {\n#define MYLIB_END(name) }\n",
        )
        .expect("write");
        let file = "MYLIB_BEGIN(mylib)\nint g(void);\nMYLIB_END(mylib)\n";
        let paths = |macros: &CMacros| -> Vec<String> {
            syntax::parse_with(Lang::Cpp, file, macros)
                .iter()
                .map(|s| s.path.clone())
                .collect()
        };
        let in_a = macros_of(a.path());
        let in_b = macros_of(b.path());
        assert_eq!(paths(&in_a), ["mylib", "mylib::g"]);
        assert_eq!(paths(&in_b), ["g"]);
        let key = in_a.key();
        assert!(key.starts_with("project="), "{key}");
        assert_eq!(in_b.key(), "");
        assert_eq!(in_a.entries_key(), "");
        std::fs::write(
            a.path().join("include/api.h"),
            "#define MYLIB_BEGIN(name)\n",
        )
        .expect("write");
        assert_eq!(in_a.key(), key, "read once");
        let again = in_a.reloaded();
        assert_ne!(again.key(), key);
    }

    #[test]
    fn flags_of_the_compilation_database_are_defines() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("compile_commands.json"),
            r#"[{"directory": ".", "command": "cc -DAPI= -D ONE -DTWO=2 -Iinc -c a.c", "file": "a.c"},
                {"directory": ".", "arguments": ["cc", "-DAPI=extern", "-DTHREE=3"], "file": "b.c"}]"#,
        )
        .expect("write");
        assert_eq!(
            flag_defines(dir.path()),
            "#define API \n#define ONE 1\n#define TWO 2\n#define THREE 3\n"
        );
        std::fs::write(dir.path().join("compile_commands.json"), "not json").expect("write");
        assert_eq!(flag_defines(dir.path()), "");
    }

    /// A compilation database swapped for a FIFO is refused at once.
    #[test]
    fn a_fifo_for_a_compilation_database_is_not_waited_on() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("compile_commands.json");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let root = dir.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(flag_defines(&root));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("not waited on");
        assert_eq!(got, "");
    }
}
