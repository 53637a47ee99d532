//! File discovery: the gitignore-aware walk of a project, glob expansion of
//! preset entries, the blacklist, and reading a file's content with binary
//! and encoding checks.
//!
//! Globs are expanded against one walk of the tree, in sorted order, so a
//! preset renders the same files in the same order on every machine.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path};

use globset::{GlobBuilder, GlobMatcher};

use crate::core::model::FileItem;

mod builtin;
pub use builtin::{BuiltinIgnores, IGNORE_FILE, MAX_LOCK_BYTES, is_builtin_ignored};

/// The directory (relative to the root) holding caches and outputs; never
/// part of any composition.
pub const CACHE_DIR: &str = ".ctxcurate";

/// The default of the `max_file_size` setting: files larger than this are
/// not read into a composition (unless their entry forces it).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// How files may be read: the size cap and whether entries may resolve
/// outside the project root (from the settings; see `config/config.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadPolicy {
    /// Files over this many bytes are refused with [`FileProblem::TooLarge`].
    pub max_file_size: u64,
    /// Read paths outside the root (absolute, `..`, symlinks leading out).
    pub allow_outside_root: bool,
}

impl Default for ReadPolicy {
    fn default() -> Self {
        ReadPolicy {
            max_file_size: MAX_FILE_BYTES,
            allow_outside_root: false,
        }
    }
}

impl ReadPolicy {
    /// The policy the resolved settings ask for.
    pub fn from_settings(s: &crate::core::model::Settings) -> Self {
        ReadPolicy {
            max_file_size: s.max_file_size,
            allow_outside_root: s.allow_outside_root,
        }
    }

    /// `true` when `rel` may be looked at under this policy (lexically:
    /// symlinks are checked when the file is read).
    pub fn may_read(&self, rel: &str) -> bool {
        self.allow_outside_root || is_inside(rel)
    }
}

/// How many leading bytes are checked for NUL to call a file binary (git's rule).
const BINARY_SNIFF: usize = 8000;

/// `true` for paths no composition may include: discussion history files
/// and the tool's own cache directory.
pub fn is_blacklisted(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == "history.toml"
        || name.ends_with("_history.toml")
        || rel
            .strip_prefix(CACHE_DIR)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `true` for files that usually hold credentials: `.env` and `.env.*`,
/// private keys and certificates (`*.pem`, `*.key`, `*.p12`, `*.pfx`,
/// `id_rsa`, `id_ed25519`, … and their `.pub` siblings, PuTTY `*.ppk`),
/// kubeconfigs (`kubeconfig`, `*.kubeconfig`, `.kube/config`), `.netrc`,
/// `.pgpass`, `.git-credentials`. A glob never pulls them in; naming one
/// explicitly does.
pub fn is_sensitive(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    name == ".env"
        || name.starts_with(".env.")
        || name.ends_with(".env")
        || matches!(
            name,
            ".netrc"
                | "_netrc"
                | ".pgpass"
                | "credentials.json"
                | ".git-credentials"
                | "kubeconfig"
        )
        || rel == ".kube/config"
        || rel.ends_with("/.kube/config")
        || ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"]
            .iter()
            .any(|k| name.starts_with(k))
        || matches!(
            ext.as_deref(),
            Some("pem" | "key" | "p12" | "pfx" | "jks" | "keystore" | "ppk" | "kubeconfig")
        )
}

/// `true` when `s` contains glob syntax.
pub fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// `true` when a relative path stays inside the root lexically (no leading
/// `/`, no `..` escaping it).
pub fn is_inside(rel: &str) -> bool {
    let mut depth: i64 = 0;
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

/// Every file under `root` that git would not ignore (`.gitignore`,
/// `.ignore`, `.ctxcurateignore`, global excludes; hidden files skipped),
/// minus the blacklist, as sorted `/`-separated relative paths.
pub fn walk_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    walk_each(root, |rel| {
        out.push(rel);
        true
    });
    out.sort();
    out
}

/// Hand each file of the walk (as [`walk_files`] lists them, in walk
/// order) to `f` as it is found; `f` returns `false` to stop.
pub fn walk_each(root: &Path, mut f: impl FnMut(String) -> bool) {
    for entry in walker(root).build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel_string(rel);
        if !rel.is_empty() && !is_blacklisted(&rel) && !f(rel) {
            return;
        }
    }
}

/// The walk every discovery uses: `.gitignore` (even outside a git
/// repository), `.ignore`, `.ctxcurateignore`, global git excludes, the
/// [built-in ignores](BuiltinIgnores); hidden files skipped; links not
/// followed.
pub fn walker(root: &Path) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(root);
    let builtin = BuiltinIgnores::new(root);
    builder
        .require_git(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .follow_links(false)
        .filter_entry(move |e| {
            // The root itself is never skipped, whatever its name.
            e.depth() == 0 || !builtin.skips(e.path(), e.file_type().is_some_and(|t| t.is_dir()))
        });
    builder
}

/// A relative path as a `/`-separated string.
pub fn rel_string(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

/// Compile a preset glob: `*` stays within one directory, `**` crosses them.
pub fn compile_glob(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    Ok(GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()?
        .compile_matcher())
}

/// A preset entry resolved to one concrete file.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedItem {
    /// The concrete relative path.
    pub path: String,
    /// The entry's settings (for a glob entry: the glob's, with `path`
    /// replaced by the concrete file).
    pub item: FileItem,
    /// Index of the preset entry this file came from.
    pub entry: usize,
}

/// What went wrong while expanding a preset's entries.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpandProblem {
    /// The glob itself is malformed.
    BadGlob { pattern: String, message: String },
    /// The glob matched no file.
    NoMatch { pattern: String },
}

impl std::fmt::Display for ExpandProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandProblem::BadGlob { pattern, message } => {
                write!(f, "bad glob `{pattern}`: {message}")
            }
            ExpandProblem::NoMatch { pattern } => write!(f, "glob `{pattern}` matches no file"),
        }
    }
}

/// Expand a preset's entries into concrete files, in entry order with each
/// glob's matches sorted. An explicitly named file keeps its own entry even
/// when a glob also matches it; otherwise the first entry naming a file
/// wins. Blacklisted files never appear; [`is_sensitive`] ones only when
/// named explicitly. `walk` is called only when some
/// entry is a glob.
pub fn expand_items(
    entries: &[FileItem],
    exclude: &[String],
    walk: impl FnOnce() -> Vec<String>,
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    if entries.iter().any(|e| is_glob(&e.path)) {
        expand_over(entries, exclude, &walk())
    } else {
        expand_over(entries, exclude, &[])
    }
}

/// [`expand_items`] over a known, sorted file list. Glob matches that an
/// `exclude` path or glob names are skipped; explicit entries never are.
pub fn expand_over(
    entries: &[FileItem],
    exclude: &[String],
    files: &[String],
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    let excluded = Excluder::new(exclude);
    let explicit: HashSet<&str> = entries
        .iter()
        .filter(|e| !is_glob(&e.path) || files.binary_search(&e.path).is_ok())
        .map(|e| e.path.as_str())
        .collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        // `[id].tsx` is a file name before it is a pattern.
        let literal = !is_glob(&entry.path) || files.binary_search(&entry.path).is_ok();
        if literal {
            if !is_blacklisted(&entry.path) && seen.insert(entry.path.as_str()) {
                out.push(ResolvedItem {
                    path: entry.path.clone(),
                    item: entry.clone(),
                    entry: index,
                });
            }
            continue;
        }
        let matcher = match compile_glob(&entry.path) {
            Ok(m) => m,
            Err(e) => {
                problems.push(ExpandProblem::BadGlob {
                    pattern: entry.path.clone(),
                    message: e.kind().to_string(),
                });
                continue;
            }
        };
        let mut matched = false;
        for path in files.iter().filter(|p| matcher.is_match(p.as_str())) {
            matched = true;
            if is_blacklisted(path)
                || is_sensitive(path)
                || explicit.contains(path.as_str())
                || excluded.matches(path)
                || !seen.insert(path.as_str())
            {
                continue;
            }
            let mut item = entry.clone();
            item.path = path.clone();
            out.push(ResolvedItem {
                path: path.clone(),
                item,
                entry: index,
            });
        }
        if !matched {
            problems.push(ExpandProblem::NoMatch {
                pattern: entry.path.clone(),
            });
        }
    }
    (out, problems)
}

/// A preset's `exclude` list: exact paths, folders (everything below) and
/// globs. A malformed glob excludes nothing.
struct Excluder {
    exact: HashSet<String>,
    globs: Vec<GlobMatcher>,
}

impl Excluder {
    fn new(exclude: &[String]) -> Self {
        let mut exact = HashSet::new();
        let mut globs = Vec::new();
        for e in exclude {
            if is_glob(e) {
                globs.extend(compile_glob(e).ok());
            } else {
                exact.insert(e.trim_end_matches('/').to_string());
            }
        }
        Excluder { exact, globs }
    }

    fn matches(&self, path: &str) -> bool {
        if self.exact.contains(path) {
            return true;
        }
        if !self.exact.is_empty() {
            for (i, _) in path.match_indices('/') {
                if self.exact.contains(&path[..i]) {
                    return true;
                }
            }
        }
        self.globs.iter().any(|g| g.is_match(path))
    }
}

/// A file's content as the composition sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Text; `lossy` when invalid UTF-8 was replaced.
    Text { text: String, lossy: bool },
    /// The file could not be used; the message is shown in its place.
    Unreadable(FileProblem),
}

/// Why a file's content is not shown.
#[derive(Debug, Clone, PartialEq)]
pub enum FileProblem {
    NotFound,
    Binary,
    /// Over the `max_file_size` cap (`limit`).
    TooLarge {
        bytes: u64,
        limit: u64,
    },
    NotAFile,
    OutsideRoot,
    Io(String),
}

impl std::fmt::Display for FileProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileProblem::NotFound => f.write_str("file not found"),
            FileProblem::Binary => f.write_str("binary file skipped"),
            FileProblem::TooLarge { bytes, limit } => write!(
                f,
                "file too large ({bytes} bytes, max_file_size {limit}) skipped; \
                 force_full = true on the entry includes it"
            ),
            FileProblem::NotAFile => f.write_str("not a regular file"),
            FileProblem::OutsideRoot => f.write_str(
                "path is outside the project root, refused \
                 (allow_outside_root = true in your global config permits it)",
            ),
            FileProblem::Io(e) => write!(f, "cannot read file: {e}"),
        }
    }
}

/// Read `rel` under `root` with the default [`ReadPolicy`].
pub fn read_content(root: &Path, rel: &str) -> Content {
    read_content_with(root, rel, &ReadPolicy::default(), false)
}

/// Read `rel` under `root`: refuses paths outside the root (unless the
/// policy allows them), binary files (a NUL byte near the start) and files
/// over the policy's size cap (unless `force`); invalid UTF-8 is decoded
/// lossily and flagged.
pub fn read_content_with(root: &Path, rel: &str, policy: &ReadPolicy, force: bool) -> Content {
    if !policy.may_read(rel) {
        return Content::Unreadable(FileProblem::OutsideRoot);
    }
    // A symlink may lead out of the project: what is read must resolve
    // inside the (resolved) root. The resolved path is what is read, so a
    // link swapped in after this check is not followed.
    let mut path = root.join(rel);
    if let (Ok(real), Ok(real_root)) = (path.canonicalize(), root.canonicalize()) {
        if !policy.allow_outside_root && !real.starts_with(&real_root) {
            return Content::Unreadable(FileProblem::OutsideRoot);
        }
        path = real;
    }
    let limit = if force {
        u64::MAX
    } else {
        policy.max_file_size
    };
    match read_bytes(&path, limit) {
        Ok(bytes) => decode(bytes),
        Err(p) => Content::Unreadable(p),
    }
}

fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, FileProblem> {
    let meta = fs::metadata(path).map_err(io_problem)?;
    if !meta.is_file() {
        return Err(FileProblem::NotAFile);
    }
    if meta.len() > limit {
        return Err(FileProblem::TooLarge {
            bytes: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // The file may grow between the size check and the read: never read
    // more than the cap allows.
    fs::File::open(path)
        .and_then(|f| f.take(limit.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(io_problem)?;
    if bytes.len() as u64 > limit {
        return Err(FileProblem::TooLarge {
            bytes: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

fn io_problem(e: io::Error) -> FileProblem {
    match e.kind() {
        io::ErrorKind::NotFound => FileProblem::NotFound,
        _ => FileProblem::Io(e.to_string()),
    }
}

/// Bytes to text, or binary.
pub fn decode(bytes: Vec<u8>) -> Content {
    if bytes[..bytes.len().min(BINARY_SNIFF)].contains(&0) {
        return Content::Unreadable(FileProblem::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Content::Text { text, lossy: false },
        Err(e) => Content::Text {
            text: String::from_utf8_lossy(e.as_bytes()).into_owned(),
            lossy: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(paths: &[&str]) -> Vec<FileItem> {
        paths.iter().map(|p| FileItem::new(*p)).collect()
    }

    #[test]
    fn blacklist() {
        assert!(is_blacklisted("history.toml"));
        assert!(is_blacklisted("a/b/chat_history.toml"));
        assert!(is_blacklisted(".ctxcurate/out/context_001.md"));
        assert!(!is_blacklisted("src/history.py"));
        assert!(!is_blacklisted(".ctxcurate_x/a"));
    }

    #[test]
    fn credential_files_need_an_explicit_entry() {
        let files: Vec<String> = [
            ".env",
            "app/.env.local",
            "certs/server.pem",
            "deploy/id_rsa",
            "deploy/id_ed25519.pub",
            "prod.env",
            "src/env.py",
            "src/keys.py",
            "tls.KEY",
            "deploy/server.ppk",
            "ops/.kube/config",
            "ops/prod.kubeconfig",
            "kubeconfig",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (out, _) = expand_over(&items(&["**"]), &[], &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["src/env.py", "src/keys.py"]);
        let (out, _) = expand_over(&items(&["**", "certs/server.pem", ".env"]), &[], &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(
            paths,
            ["src/env.py", "src/keys.py", "certs/server.pem", ".env"]
        );
    }

    #[test]
    fn inside_root() {
        assert!(is_inside("a/../b"));
        assert!(!is_inside("../b"));
        assert!(!is_inside("a/../../b"));
        assert!(!is_inside("/etc/passwd"));
    }

    #[test]
    fn globs_expand_sorted_and_explicit_wins() {
        let walk = || {
            vec![
                "src/a.py".to_string(),
                "src/b.py".into(),
                "src/sub/c.py".into(),
                "x_history.toml".into(),
            ]
        };
        let mut entries = items(&["src/*.py", "src/b.py", "src/**/*.py", "nope/*.rs"]);
        entries[1].view_mode = crate::core::model::ViewMode::Skeleton;
        let (out, problems) = expand_items(&entries, &[], walk);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["src/a.py", "src/b.py", "src/sub/c.py"]);
        assert_eq!(
            out[1].item.view_mode,
            crate::core::model::ViewMode::Skeleton
        );
        assert_eq!(out.iter().map(|r| r.entry).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(
            problems,
            [ExpandProblem::NoMatch {
                pattern: "nope/*.rs".into()
            }]
        );
    }

    #[test]
    fn no_walk_without_globs() {
        let (out, _) = expand_items(&items(&["a", "history.toml", "a"]), &[], || {
            panic!("walked")
        });
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn file_names_with_glob_characters_are_literal() {
        let files: Vec<String> = ["pages/[id].tsx", "pages/i.tsx"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (out, problems) = expand_over(&items(&["pages/[id].tsx"]), &[], &files);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].path, "pages/[id].tsx");
        assert!(problems.is_empty());
    }

    #[test]
    fn excludes_apply_to_globs_only() {
        let files: Vec<String> = ["a/x.py", "a/y.py", "b/gen/z.py", "b/k.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let entries = items(&["**/*.py", "a/y.py"]);
        let exclude = vec!["a/y.py".to_string(), "b/gen".into(), "b/*.py".into()];
        let (out, _) = expand_over(&entries, &exclude, &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["a/x.py", "a/y.py"]);
    }

    #[test]
    fn walk_respects_gitignore_and_cache_dir() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for p in [
            "a.py",
            "ignored.log",
            "sub/b.c",
            ".ctxcurate/cache/x",
            ".hidden",
        ] {
            let path = root.join(p);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        fs::write(root.join(".gitignore"), "*.log\n").unwrap();
        assert_eq!(walk_files(root), ["a.py", "sub/b.c"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "key").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        std::fs::write(dir.path().join("ok.txt"), "fine").unwrap();
        std::os::unix::fs::symlink(dir.path().join("ok.txt"), dir.path().join("inner")).unwrap();
        assert_eq!(
            read_content(dir.path(), "link/secret"),
            Content::Unreadable(FileProblem::OutsideRoot)
        );
        assert!(matches!(
            read_content(dir.path(), "inner"),
            Content::Text { .. }
        ));
    }

    #[test]
    fn content_checks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("bin"), b"ab\0cd").unwrap();
        fs::write(root.join("latin"), b"caf\xe9").unwrap();
        assert_eq!(
            read_content(root, "bin"),
            Content::Unreadable(FileProblem::Binary)
        );
        assert_eq!(
            read_content(root, "missing"),
            Content::Unreadable(FileProblem::NotFound)
        );
        assert_eq!(
            read_content(root, "../x"),
            Content::Unreadable(FileProblem::OutsideRoot)
        );
        assert_eq!(
            read_content(root, "."),
            Content::Unreadable(FileProblem::NotAFile)
        );
        assert_eq!(
            read_content(root, "latin"),
            Content::Text {
                text: "caf\u{fffd}".into(),
                lossy: true
            }
        );
    }
}
