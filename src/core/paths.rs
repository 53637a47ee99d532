//! Where things are: the project root (found by walking up to
//! `ctxcurate.toml`), the global config file, the user's state directory,
//! and the root-relative, `/`-separated form in which paths are stored in
//! the project file. Under it, the two rules that keep the tool inside the
//! root: writes ask [`confine`] (an output file the user names is written
//! through [`write_beneath`]), reads open through [`beneath`]. A leaf of
//! the core: everything that reads or writes under the root (the project
//! file, the walk, the on-disk store, trust) stands on it.
//!
//! The walk up stops where git's `safe.directory` check would: a project
//! file above the start that another user owns, or that lies at or beyond
//! a world-writable folder (`/tmp`, or any `0777` one), is not adopted — adopting one
//! would make that user's settings and presets govern the start folder and
//! pull in its siblings. The start folder is the root then, and a
//! [`RootNote`] says which file was passed over and how to use it on
//! purpose (`-C DIR`, which starts the search in the file's own folder).

use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::path::{Component, Path, PathBuf};

pub mod beneath;
pub mod confine;
#[cfg(unix)]
pub mod write_beneath;

/// The name of the project file, which marks the project root.
pub const PROJECT_FILE: &str = "ctxcurate.toml";

/// Folders of version-control systems: their configuration can hold
/// credentials (remote URLs with tokens, CI checkout headers) and their
/// objects are the whole history. No project un-ignore reaches them.
pub const VCS_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    "_darcs",
    "CVS",
    ".jj",
    ".pijul",
    // Sapling.
    ".sl",
    ".fslckout",
    "_FOSSIL_",
];

/// Environment variable naming the global config file directly. It wins
/// over the XDG location; `/dev/null` or an empty value means no global
/// config at all, silently (see [`global_config_path`]).
pub const CONFIG_ENV: &str = "CTXCURATE_CONFIG";

/// The root [`search_root`] found, and what the user should hear about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootSearch {
    pub root: PathBuf,
    pub note: Option<RootNote>,
}

/// A project file the root search passed over, or adopted with a caveat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootNote {
    /// Above the start, owned by another user: not adopted; `root` (the
    /// start) is the root instead.
    NotOwned {
        file: PathBuf,
        owner: u32,
        root: PathBuf,
    },
    /// At or beyond `shared`, a world-writable folder: not adopted;
    /// `root` (the start) is the root instead.
    Shared {
        file: PathBuf,
        shared: PathBuf,
        root: PathBuf,
    },
    /// The start folder's own file, owned by another user: adopted (the
    /// user is in that folder, or named it), but said.
    ForeignStart { file: PathBuf, owner: u32 },
}

impl fmt::Display for RootNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = |file: &Path| file.parent().unwrap_or(file).display().to_string();
        match self {
            RootNote::NotOwned { file, owner, root } => write!(
                f,
                "{} was not adopted: it belongs to another user (uid {owner}); the project \
                 root is {}. To use that project on purpose, run `ctxcurate -C {}`",
                file.display(),
                root.display(),
                dir(file),
            ),
            RootNote::Shared { file, shared, root } => write!(
                f,
                "{} was not adopted: reaching it crosses {}, a folder every user can write \
                 to; the project root is {}. To use that project on purpose, run \
                 `ctxcurate -C {}`",
                file.display(),
                shared.display(),
                root.display(),
                dir(file),
            ),
            RootNote::ForeignStart { file, owner } => write!(
                f,
                "{} belongs to another user (uid {owner}); its presets decide what is sent",
                file.display()
            ),
        }
    }
}

/// The nearest directory at or above `start` that holds `ctxcurate.toml`
/// and may be adopted (see [`search_root`]); `start` itself (made
/// absolute) when there is none. A `start` that is a file stands for its
/// directory.
pub fn find_root(start: &Path) -> PathBuf {
    search_root(start).root
}

/// [`find_root`] with its note: the start folder's own project file is
/// always adopted; above it, the walk adopts the nearest project file the
/// current user owns, unless reaching it crosses a world-writable
/// folder. A file it does not adopt ends the walk: the start folder is the
/// root, and the note names the file.
pub fn search_root(start: &Path) -> RootSearch {
    let start = fs::canonicalize(start)
        .or_else(|_| std::path::absolute(start))
        .unwrap_or_else(|_| start.to_path_buf());
    let start = match start.parent() {
        Some(parent) if start.is_file() => parent.to_path_buf(),
        _ => start,
    };
    let me = current_user();
    if let Some(owner) = project_file_owner(&start) {
        let note = (owner != me).then(|| RootNote::ForeignStart {
            file: start.join(PROJECT_FILE),
            owner,
        });
        return RootSearch { root: start, note };
    }
    let mut shared: Option<&Path> = None;
    for dir in start.ancestors().skip(1) {
        // `dir` itself shared: its own file is beyond the boundary too (the
        // root would be the shared folder).
        if shared.is_none() && is_shared(dir) {
            shared = Some(dir);
        }
        let Some(owner) = project_file_owner(dir) else {
            continue;
        };
        let file = dir.join(PROJECT_FILE);
        let note = match shared {
            Some(shared) => RootNote::Shared {
                file,
                shared: shared.to_path_buf(),
                root: start.clone(),
            },
            None if owner != me => RootNote::NotOwned {
                file,
                owner,
                root: start.clone(),
            },
            None => {
                return RootSearch {
                    root: dir.to_path_buf(),
                    note: None,
                };
            }
        };
        return RootSearch {
            root: start,
            note: Some(note),
        };
    }
    RootSearch {
        root: start,
        note: None,
    }
}

/// The owner of `dir`'s project file, if it has one (a regular file, or a
/// link to one). A link and its target must both be the user's to count as
/// the user's: the other owner is reported.
fn project_file_owner(dir: &Path) -> Option<u32> {
    let file = dir.join(PROJECT_FILE);
    let meta = fs::metadata(&file).ok().filter(|m| m.is_file())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = current_user();
        let link = fs::symlink_metadata(&file).map_or(me, |m| m.uid());
        Some(if link != me { link } else { meta.uid() })
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Some(current_user())
    }
}

/// Writable by every user, like `/tmp` (sticky) or a careless `0777`
/// folder (not sticky, where anyone may even replace the user's own
/// files): anyone may have put a project file there.
fn is_shared(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o002 == 0o002)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        false
    }
}

/// The effective user id (0 where there is none).
fn current_user() -> u32 {
    #[cfg(unix)]
    {
        // SAFETY: geteuid has no preconditions and cannot fail.
        unsafe { libc::geteuid() }
    }
    #[cfg(not(unix))]
    {
        0
    }
}

/// The global config file: `$CTXCURATE_CONFIG`, else
/// `$XDG_CONFIG_HOME/ctxcurate/config.toml`, else
/// `$HOME/.config/ctxcurate/config.toml`; `None` when none of those is set,
/// and when `$CTXCURATE_CONFIG` is empty or `/dev/null`: the documented way
/// to run without a global config (scripts, tests), which must not warn
/// that a device "cannot be read" on every command. The file need not exist.
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
    if let Some(value) = var(CONFIG_ENV) {
        return (!value.is_empty() && value != "/dev/null").then(|| PathBuf::from(value));
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
        // Empty and relative XDG values are ignored, as the XDG spec says.
        let odd = [("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")];
        assert_eq!(path(&odd), Some("/h/.config/ctxcurate/config.toml".into()));
        let empty_xdg = [("XDG_CONFIG_HOME", ""), ("HOME", "/h")];
        assert_eq!(
            path(&empty_xdg),
            Some("/h/.config/ctxcurate/config.toml".into())
        );
        assert_eq!(path(&[]), None);
        // CTXCURATE_CONFIG empty or /dev/null: no global config at all,
        // not the XDG one behind it.
        for off in ["", "/dev/null"] {
            let vars = [
                (CONFIG_ENV, off),
                ("XDG_CONFIG_HOME", "/xdg"),
                ("HOME", "/h"),
            ];
            assert_eq!(global_config_path_from(env(&vars)), None, "{off:?}");
        }
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

    /// `dir` owned by `uid` (tests run as root, so any owner can be set).
    #[cfg(unix)]
    fn chown(path: &Path, uid: u32) {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; -1 leaves the group as is.
        let rc = unsafe { libc::chown(c.as_ptr(), uid, u32::MAX) };
        assert_eq!(rc, 0, "chown {}", path.display());
    }

    #[cfg(unix)]
    fn chmod(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    /// Another user's project file in a parent is not adopted; the start
    /// is the root and the note says which file and how to use it. In the
    /// start folder itself it is adopted, with a note.
    #[cfg(unix)]
    #[test]
    fn another_users_project_file_is_not_adopted_from_below() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let nested = root.join("theirs/mine");
        fs::create_dir_all(&nested).unwrap();
        let theirs = root.join("theirs").join(PROJECT_FILE);
        fs::write(&theirs, "").unwrap();
        let me = current_user();
        let other = if me == 65534 { 65533 } else { 65534 };
        chown(&theirs, other);
        let found = search_root(&nested);
        assert_eq!(found.root, nested);
        let note = found.note.expect("a note");
        assert_eq!(
            note,
            RootNote::NotOwned {
                file: theirs.clone(),
                owner: other,
                root: nested.clone(),
            }
        );
        let text = note.to_string();
        assert!(
            text.contains(&format!("ctxcurate -C {}", root.join("theirs").display())),
            "{text}"
        );
        assert!(text.contains(&format!("uid {other}")), "{text}");
        // Named on purpose (`-C`): adopted, and said.
        let found = search_root(&root.join("theirs"));
        assert_eq!(found.root, root.join("theirs"));
        assert_eq!(
            found.note,
            Some(RootNote::ForeignStart {
                file: theirs.clone(),
                owner: other
            })
        );
        // A link of the user's own to another user's file is not theirs.
        fs::remove_file(&theirs).unwrap();
        let elsewhere = root.join("elsewhere.toml");
        fs::write(&elsewhere, "").unwrap();
        chown(&elsewhere, other);
        std::os::unix::fs::symlink(&elsewhere, &theirs).unwrap();
        assert_eq!(search_root(&nested).root, nested);
        // The user's own file is adopted as before.
        fs::remove_file(&theirs).unwrap();
        fs::write(&theirs, "").unwrap();
        assert_eq!(
            search_root(&nested),
            RootSearch {
                root: root.join("theirs"),
                note: None
            }
        );
    }

    /// A sticky world-writable folder (like /tmp) is a boundary: a project
    /// file in it or above it is not adopted, even the user's own; below
    /// it, and in it as the start folder, project files work as always.
    #[cfg(unix)]
    #[test]
    fn the_walk_does_not_cross_a_shared_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let shared = root.join("shared");
        let nested = shared.join("work/src");
        fs::create_dir_all(&nested).unwrap();
        chmod(&shared, 0o1777);
        let planted = shared.join(PROJECT_FILE);
        fs::write(&planted, "").unwrap();
        let found = search_root(&nested);
        assert_eq!(found.root, nested);
        assert_eq!(
            found.note,
            Some(RootNote::Shared {
                file: planted.clone(),
                shared: shared.clone(),
                root: nested.clone(),
            })
        );
        // Beyond it, too.
        fs::remove_file(&planted).unwrap();
        let above = root.join(PROJECT_FILE);
        fs::write(&above, "").unwrap();
        let found = search_root(&nested);
        assert_eq!(found.root, nested);
        assert!(matches!(found.note, Some(RootNote::Shared { ref file, .. }) if *file == above));
        // Below it, the walk works as always.
        fs::write(shared.join("work").join(PROJECT_FILE), "").unwrap();
        assert_eq!(
            search_root(&nested),
            RootSearch {
                root: shared.join("work"),
                note: None
            }
        );
        // Started in the shared folder itself: its file is the user's choice.
        fs::write(&planted, "").unwrap();
        assert_eq!(
            search_root(&shared),
            RootSearch {
                root: shared.clone(),
                note: None
            }
        );
        // World-writable without the sticky bit is shared too (anyone may
        // even replace the user's own file there).
        chmod(&shared, 0o777);
        fs::remove_file(shared.join("work").join(PROJECT_FILE)).unwrap();
        assert_eq!(search_root(&nested).root, nested, "0777 is shared");
        fs::write(shared.join("work").join(PROJECT_FILE), "").unwrap();
        // Sticky alone is not shared.
        for mode in [0o1755, 0o755] {
            chmod(&shared, mode);
            fs::remove_file(shared.join("work").join(PROJECT_FILE)).unwrap();
            assert_eq!(search_root(&nested).root, shared, "{mode:o}");
            fs::write(shared.join("work").join(PROJECT_FILE), "").unwrap();
        }
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
