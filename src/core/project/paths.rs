//! Where things are: the project root (found by walking up to
//! `ctxcurate.toml`), the global config file, and the root-relative,
//! `/`-separated form in which paths are stored in the project file.

use std::ffi::OsString;
use std::fs;
use std::path::{Component, Path, PathBuf};

use super::PROJECT_FILE;

/// Environment variable naming the global config file directly. It wins
/// over the XDG location; `/dev/null` (an empty file) disables it.
pub const CONFIG_ENV: &str = "CTXCURATE_CONFIG";

/// The nearest directory at or above `start` that holds `ctxcurate.toml`;
/// `start` itself (made absolute) when there is none. A `start` that is a
/// file stands for its directory.
pub fn find_root(start: &Path) -> PathBuf {
    let start = fs::canonicalize(start)
        .or_else(|_| std::path::absolute(start))
        .unwrap_or_else(|_| start.to_path_buf());
    let start = match start.parent() {
        Some(parent) if start.is_file() => parent.to_path_buf(),
        _ => start,
    };
    start
        .ancestors()
        .find(|dir| dir.join(PROJECT_FILE).is_file())
        .map_or_else(|| start.clone(), Path::to_path_buf)
}

/// The global config file: `$CTXCURATE_CONFIG`, else
/// `$XDG_CONFIG_HOME/ctxcurate/config.toml`, else
/// `$HOME/.config/ctxcurate/config.toml`; `None` when none of those is set.
/// The file need not exist.
pub fn global_config_path() -> Option<PathBuf> {
    global_config_path_from(|name| std::env::var_os(name))
}

/// The user's state directory for ctxcurate: `$XDG_STATE_HOME/ctxcurate`
/// (an absolute XDG_STATE_HOME only, as the XDG spec says), else
/// `$HOME/.local/state/ctxcurate`; `None` when neither is set. It holds
/// what belongs to the user and never to a project: trust consents and the
/// key that seals the disk caches.
pub fn user_state_dir() -> Option<PathBuf> {
    user_state_dir_from(|name| std::env::var_os(name))
}

/// [`user_state_dir`] with the environment given as a lookup.
pub fn user_state_dir_from(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = set("XDG_STATE_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| set("HOME").map(|home| home.join(".local/state")))?;
    Some(base.join("ctxcurate"))
}

fn global_config_path_from(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(path) = set(CONFIG_ENV) {
        return Some(path);
    }
    // The XDG spec says to ignore a relative XDG_CONFIG_HOME.
    let base = set("XDG_CONFIG_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| set("HOME").map(|home| home.join(".config")))?;
    Some(base.join("ctxcurate").join("config.toml"))
}

/// `p` (absolute, or relative to the current directory) as a path relative
/// to `root` with `/` separators, the form stored in the project file;
/// `None` when `p` is outside `root` or not valid UTF-8. `root` itself is
/// `""`. `.` and `..` are resolved lexically and `p` need not exist; only
/// when that says "outside" are symlinks resolved, so a path reached
/// through a link into the project is still accepted.
pub fn normalize_rel(root: &Path, p: &Path) -> Option<String> {
    let cwd = std::env::current_dir().ok();
    normalize_rel_from(root, p, cwd.as_deref())
}

fn normalize_rel_from(root: &Path, p: &Path, cwd: Option<&Path>) -> Option<String> {
    let root = lexical(&absolutize(root, cwd)?);
    let path = lexical(&absolutize(p, cwd)?);
    if path.starts_with(&root) {
        return relative_to(&path, &root);
    }
    let real_root = fs::canonicalize(&root).ok()?;
    relative_to(&canonical_existing_prefix(&path)?, &real_root)
}

fn absolutize(p: &Path, cwd: Option<&Path>) -> Option<PathBuf> {
    if p.is_absolute() {
        Some(p.to_path_buf())
    } else {
        cwd.map(|cwd| cwd.join(p))
    }
}

/// `p` with `.` dropped and each `..` removing the component before it
/// (never climbing above the root).
pub fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in p.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn relative_to(path: &Path, base: &Path) -> Option<String> {
    let rest = path.strip_prefix(base).ok()?;
    let parts = rest
        .components()
        .map(|c| match c {
            Component::Normal(part) => part.to_str(),
            _ => None,
        })
        .collect::<Option<Vec<&str>>>()?;
    Some(parts.join("/"))
}

/// The real path of the longest existing ancestor of `p`, with the rest of
/// `p` appended unchanged.
fn canonical_existing_prefix(p: &Path) -> Option<PathBuf> {
    p.ancestors().find_map(|ancestor| {
        let real = fs::canonicalize(ancestor).ok()?;
        Some(real.join(p.strip_prefix(ancestor).ok()?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn global_config_precedence() {
        let path = |vars| global_config_path_from(env(vars));
        let all = [
            (CONFIG_ENV, "/etc/ctx.toml"),
            ("XDG_CONFIG_HOME", "/xdg"),
            ("HOME", "/home/u"),
        ];
        assert_eq!(path(&all), Some("/etc/ctx.toml".into()));
        assert_eq!(path(&all[1..]), Some("/xdg/ctxcurate/config.toml".into()));
        assert_eq!(
            path(&all[2..]),
            Some("/home/u/.config/ctxcurate/config.toml".into())
        );
        // Empty and relative values are ignored, as the XDG spec says.
        let odd = [(CONFIG_ENV, ""), ("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")];
        assert_eq!(path(&odd), Some("/h/.config/ctxcurate/config.toml".into()));
        assert_eq!(path(&[]), None);
    }

    #[test]
    fn normalize_rel_is_lexical_and_root_relative() {
        let root = Path::new("/work/proj");
        let cwd = Path::new("/work/proj/src/sub");
        let rel = |p: &str| normalize_rel_from(root, Path::new(p), Some(cwd));
        assert_eq!(rel("x.py").as_deref(), Some("src/sub/x.py"));
        assert_eq!(rel("./x.py").as_deref(), Some("src/sub/x.py"));
        assert_eq!(rel("../x.c").as_deref(), Some("src/x.c"));
        assert_eq!(rel("../../a/./b/../c.h").as_deref(), Some("a/c.h"));
        assert_eq!(rel("/work/proj/README.md").as_deref(), Some("README.md"));
        assert_eq!(rel("../..").as_deref(), Some(""));
        assert_eq!(rel("../../../other/x"), None);
        assert_eq!(
            rel("/work/project2/x"),
            None,
            "a prefix of a name is not a parent"
        );
        assert_eq!(rel("/../../work/proj/y").as_deref(), Some("y"));
        // Without a current directory a relative path cannot be placed.
        assert_eq!(normalize_rel_from(root, Path::new("x"), None), None);
    }

    #[cfg(unix)]
    #[test]
    fn normalize_rel_follows_links_into_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        fs::create_dir_all(root.join("src")).unwrap();
        std::os::unix::fs::symlink(&root, dir.path().join("link")).unwrap();
        let via_link = dir.path().join("link/src/new.py");
        assert_eq!(
            normalize_rel(&root, &via_link).as_deref(),
            Some("src/new.py")
        );
        let outside = dir.path().join("elsewhere.py");
        assert_eq!(normalize_rel(&root, &outside), None);
    }

    #[test]
    fn find_root_walks_up_to_the_project_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let nested = root.join("a/b/c");
        fs::create_dir_all(&nested).unwrap();
        // No project file anywhere below the temp dir: the start is the root.
        // (Assumes no ctxcurate.toml above the system temp dir.)
        assert_eq!(find_root(&nested), nested);

        fs::write(root.join("a").join(PROJECT_FILE), "").unwrap();
        assert_eq!(find_root(&nested), root.join("a"));
        fs::write(nested.join("file.py"), "").unwrap();
        assert_eq!(find_root(&nested.join("file.py")), root.join("a"));
        // The nearest one wins.
        fs::write(root.join("a/b").join(PROJECT_FILE), "").unwrap();
        assert_eq!(find_root(&nested), root.join("a/b"));
        // A directory named ctxcurate.toml is not a project file.
        fs::create_dir(nested.join(PROJECT_FILE)).unwrap();
        assert_eq!(find_root(&nested), root.join("a/b"));
    }
}
