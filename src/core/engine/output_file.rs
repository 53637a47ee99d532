//! The numbered output file of `ctxcurate build --save` and the TUI's `w`:
//! `{output_dir}/{namespace}_{NNN}.md` (`.xml` for XML output), NNN one
//! past the highest number already there, zero-padded to three digits.
//! When nothing is free above the highest (a repository may ship
//! `context_18446744073709551615.md`), the first free number from 1 is
//! used, so no planted name can stop saves.
//!
//! A path the user names (`-o`) is checked by [`check_named`]: beneath
//! the project no symlink on its way (the file itself included) may lead
//! out of the root; a path outside the project is the user's own.
//!
//! The file stays inside the project root: an output location that leaves
//! it, lexically (`..`, an absolute path) or through a symlink that the
//! project ships, is refused unless the settings allow it
//! (`Settings::output_outside_root`, set by `core::trust` only for a
//! location from the global config or a trusted project file).
//!
//! Numbering is race-free and atomic: the text goes to a temporary file
//! that is then given the next free name without replacing anything, and
//! a number another process took in the meantime is skipped, so parallel
//! saves never overwrite each other and no file is seen half-written.
//! Beneath the root this goes through descriptors
//! (`paths::write_beneath::create_new`), as a named `-o` path does: a
//! folder on the way swapped for a link after the check is refused, not
//! followed.

use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use thiserror::Error;

use crate::core::model::{Format, Settings};
use crate::core::paths::lexical;
use crate::core::secrets::Finding;

/// How many taken numbers are skipped before giving up.
const ATTEMPTS: usize = 10_000;

/// Why no output file was written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// `output_dir`/`namespace` lead outside the project root.
    #[error(
        "the output file {} would be outside the project root; \
         set output_dir in your global config (or `ctxcurate trust` the project) to write elsewhere",
        path.display()
    )]
    LeavesRoot { path: PathBuf },
    /// A folder on the way is a symlink out of the root (or a dangling one).
    #[error(
        "the output folder {} is a symlink that leads outside the project root; refusing to write through it",
        link.display()
    )]
    SymlinkOut { link: PathBuf },
    /// A path named for the output (`-o`) leads, beneath the project,
    /// through a symlink out of it (a link the repository may ship).
    #[error(
        "the output path {} is a symlink to {}, outside the project root; \
         refusing to write through it (name a path outside the project yourself to write there)",
        link.display(),
        target.display()
    )]
    LinkedOut { link: PathBuf, target: PathBuf },
    /// A path named for the output (`-o`) ends in a `/`: it names a
    /// folder, and the output is one file (`-o sub/` wrote a file `sub`).
    #[error(
        "the output path {} names a folder; name a file (such as {}context.md)",
        path.display(),
        path.display()
    )]
    NamesAFolder { path: PathBuf },
    /// A path named for the output (`-o`) is the project file: the
    /// output would replace the project's curation.
    #[error(
        "the output path {} is the project file; refusing to replace it with the output \
         (name another file)",
        path.display()
    )]
    ProjectFile { path: PathBuf },
    /// A path named for the output (`-o`) is, beneath the root, a symlink
    /// (a link the repository may ship: `context.md -> .git/hooks/pre-commit`
    /// made the next commit run the context). `--save` skips such names.
    #[error(
        "the output path {} is a symlink to {}; refusing to write through it \
         (remove the link, or name the file it leads to)",
        link.display(),
        target.display()
    )]
    LinkedFile { link: PathBuf, target: PathBuf },
    /// A path named for the output (`-o`) leads, through a folder link
    /// beneath the root, into the repository's or ctxcurate's own data.
    #[error(
        "the output path {} leads through a symlink into {}, the {}'s own data; refusing to write there",
        path.display(),
        landed.display(),
        owner
    )]
    LinkedIntoData {
        path: PathBuf,
        landed: PathBuf,
        owner: &'static str,
    },
    /// The output folder (`output_dir` of a project file not trusted) is
    /// in a version control folder: the repository's data, not a place
    /// for outputs (`output_dir = ".git/hooks"`).
    #[error(
        "the output folder {} is in a version control folder; refusing to write there \
         (set output_dir to another folder)",
        dir.display()
    )]
    IntoVcs { dir: PathBuf },
    /// The namespace cannot be part of a file name.
    #[error("namespace {0:?} cannot name a file (control characters)")]
    BadNamespace(String),
    /// Every number tried was taken.
    #[error("no free output number in {}", dir.display())]
    Exhausted { dir: PathBuf },
    #[error("cannot write {}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// Why a save (`Workspace::save`) wrote nothing.
#[derive(Debug, Error)]
pub enum SaveError {
    /// The secret scan found something and it was not allowed.
    #[error("{}, first {first}", crate::text::words::plural(*count, "likely secret"))]
    Secrets { count: usize, first: String },
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// The one rule for a context about to leave through a file (every save
/// goes through `Workspace::save`, which asks it first): likely
/// secrets (`findings`, from `core::secrets::Scanner`) refuse it unless
/// `allow_secrets`.
pub fn check_secrets(findings: &[Finding], allow_secrets: bool) -> Result<(), SaveError> {
    match findings.first() {
        Some(first) if !allow_secrets => Err(SaveError::Secrets {
            count: findings.len(),
            first: first.to_string(),
        }),
        _ => Ok(()),
    }
}

/// The file extension of `format`.
pub fn extension(format: Format) -> &'static str {
    match format {
        Format::Xml => "xml",
        Format::Markdown => "md",
    }
}

/// Write `text` to the next free numbered output file of the project at
/// `root` and return its path.
pub fn write_next(
    root: &Path,
    settings: &Settings,
    format: Format,
    text: &str,
) -> Result<PathBuf, OutputError> {
    write_next_with(root, settings, format, |file| {
        file.write_all(text.as_bytes())
    })
}

/// [`write_next`] of what `write` writes into the new file (a streamed
/// build copies its parts in).
pub fn write_next_with(
    root: &Path,
    settings: &Settings,
    format: Format,
    write: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> Result<PathBuf, OutputError> {
    let (dir, prefix) = location(root, settings)?;
    if !settings.output_outside_root {
        check_no_link_out(root, &dir)?;
        // Beneath the root the file is made through descriptors, as `-o`
        // writes: a folder swapped for a link meanwhile is refused.
        #[cfg(unix)]
        if let Some((real_root, rel)) = resolve_named(root, &dir, Names::Folder)? {
            if crate::core::paths::confine::in_git_data(&real_root, &rel) {
                return Err(OutputError::IntoVcs { dir });
            }
            let taken = taken_numbers(&dir, &prefix);
            let ext = extension(format);
            let names = candidates(&taken)
                .take(ATTEMPTS)
                .map(|number| format!("{prefix}{number:03}.{ext}"));
            let io_error = |source| OutputError::Io {
                path: dir.clone(),
                source,
            };
            let name =
                crate::core::paths::write_beneath::create_new(&real_root, &rel, names, write)
                    .map_err(io_error)?;
            return match name {
                Some(name) => Ok(dir.join(name)),
                None => Err(OutputError::Exhausted { dir }),
            };
        }
    }
    fs::create_dir_all(&dir).map_err(|source| OutputError::Io {
        path: dir.clone(),
        source,
    })?;
    if !settings.output_outside_root {
        // A link created between the check and here is caught now.
        check_no_link_out(root, &dir)?;
    }
    let taken = taken_numbers(&dir, &prefix);
    create_numbered(&dir, &prefix, extension(format), candidates(&taken), write)
}

/// An output path the user named (`-o`), checked before it is written:
/// the part of it beneath the project root (reached as the user wrote
/// it, or through their own link to the project) must not pass through a
/// symlink that leads out of the root (a dangling link by where it
/// points) or, through a folder link, into `.git` or `.ctxcurate`; the
/// output file itself must not be a symlink at all, nor the project
/// file, nor name a folder. A path outside the project is the user's own
/// and is not checked.
pub fn check_named(root: &Path, path: &Path) -> Result<(), OutputError> {
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(OutputError::NamesAFolder {
            path: path.to_path_buf(),
        });
    }
    match resolve_named(root, path, Names::File)? {
        Some((_, rel)) if rel == Path::new(crate::core::paths::PROJECT_FILE) => {
            Err(OutputError::ProjectFile {
                path: path.to_path_buf(),
            })
        }
        _ => Ok(()),
    }
}

/// [`check_named`], and where the path lands when that is beneath the
/// root: the root's real path and the path below it, every link on the
/// way resolved (`None`: outside the project, the user's own).
fn resolve_named(
    root: &Path,
    path: &Path,
    names: Names,
) -> Result<Option<(PathBuf, PathBuf)>, OutputError> {
    let Ok(real_root) = fs::canonicalize(root) else {
        return Ok(None);
    };
    // Taken as the system reads it: `..` after a link is the link's
    // parent, so the path is not made lexical first. A path that climbs
    // out of the root and comes back (`-o ../proj/context.md`, `-C ../p
    // -o ../p/x`) is followed on from where it really is: each turn
    // starts from a real place and consumes at least one component, so
    // the turns end.
    let mut path = path.to_path_buf();
    'turn: loop {
        let components: Vec<_> = path.components().collect();
        let mut prefix = PathBuf::new();
        for (i, component) in components.iter().enumerate() {
            let parent = prefix.clone();
            prefix.push(component);
            match fs::canonicalize(&prefix) {
                Ok(real) if real.starts_with(&real_root) => {
                    let rest = &components[i + 1..];
                    return match check_beneath(&real_root, real, &prefix, rest, names)? {
                        Beneath::Landed(at) => Ok(at
                            .strip_prefix(&real_root)
                            .ok()
                            .map(|rel| (real_root.clone(), rel.to_path_buf()))),
                        Beneath::Left(elsewhere) => {
                            path = elsewhere;
                            continue 'turn;
                        }
                    };
                }
                Ok(_) => {}
                Err(_) => {
                    // Nothing from here down exists. Made (the folders of
                    // an output are), its `..` are lexical from the real
                    // place above: they may still come back into the root.
                    let rest = &components[i..];
                    if !rest.contains(&Component::ParentDir) {
                        return Ok(None);
                    }
                    let above = fs::canonicalize(&parent).unwrap_or(parent);
                    path = lexical(&rest.iter().fold(above, |p, c| p.join(c)));
                    continue 'turn;
                }
            }
        }
        return Ok(None);
    }
}

/// Where [`check_beneath`] took a path: to a place beneath the root, or
/// out of it by a `..` (the real place it left to, with the rest of the
/// path), to be followed on from there.
enum Beneath {
    Landed(PathBuf),
    Left(PathBuf),
}

/// What a checked path names: the output file, or the folder it goes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    File,
    Folder,
}

/// [`check_named`] below `at` (the real place of `shown`, in the root):
/// each existing component of `rest` that is a symlink must lead into
/// `real_root`. Where the path lands (the missing rest taken lexically),
/// or, when a `..` climbs out of the root, the real place it climbed to
/// joined with what follows.
fn check_beneath(
    real_root: &Path,
    mut at: PathBuf,
    shown: &Path,
    rest: &[Component<'_>],
    names: Names,
) -> Result<Beneath, OutputError> {
    let mut shown = shown.to_path_buf();
    let mut missing = false;
    let mut through_link = false;
    let last = rest.len().saturating_sub(1);
    for (i, component) in rest.iter().enumerate() {
        shown.push(component);
        match component {
            Component::CurDir => continue,
            Component::ParentDir => {
                at.pop();
                if !at.starts_with(real_root) {
                    // Out of the project: followed on from there (it may
                    // come back in, `../proj/context.md`).
                    let after = rest.get(i + 1..).unwrap_or_default();
                    return Ok(Beneath::Left(after.iter().fold(at, |p, c| p.join(c))));
                }
                // Back above a missing folder (`new/../context.md`), the
                // path may be on what exists again.
                missing = fs::symlink_metadata(&at).is_err();
                continue;
            }
            _ => at.push(component),
        }
        if missing {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(&at) else {
            // Nothing further down exists: no link on the way.
            missing = true;
            continue;
        };
        if !meta.file_type().is_symlink() {
            continue;
        }
        through_link = true;
        // A dangling link's target may be a link again (`a -> b`, `b ->
        // ../outside`): each is followed, and each must stay inside.
        for _ in 0..40 {
            let target = link_target(&at);
            if !target.starts_with(real_root) {
                return Err(OutputError::LinkedOut {
                    link: shown,
                    target,
                });
            }
            at = target;
            if !fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
                break;
            }
        }
        if i == last && names == Names::File {
            // The file itself, a link that stays inside: it leads to a
            // file of the project (a source, a hook, `.git/config`),
            // never one the user named.
            return Err(OutputError::LinkedFile {
                link: shown,
                target: at
                    .strip_prefix(real_root)
                    .map_or(at.clone(), Path::to_path_buf),
            });
        }
    }
    if through_link && let Some(owner) = data_owner(real_root, &at) {
        return Err(OutputError::LinkedIntoData {
            path: shown,
            landed: at
                .strip_prefix(real_root)
                .map_or(at.clone(), Path::to_path_buf),
            owner,
        });
    }
    Ok(Beneath::Landed(at))
}

/// Whose data `at` (beneath `real_root`) is, when it is in a version
/// control folder or ctxcurate's own: what an output must not land in
/// through a link.
fn data_owner(real_root: &Path, at: &Path) -> Option<&'static str> {
    let rel = at.strip_prefix(real_root).ok()?;
    if crate::core::paths::confine::in_git_data(real_root, rel) {
        return Some("version control");
    }
    let first = rel.components().next()?;
    (first.as_os_str() == crate::core::paths::confine::STATE_DIR).then_some("ctxcurate")
}

/// Write the path the user named (checked by [`check_named`]): beneath
/// the root through descriptors, so a link swapped in after the check is
/// refused rather than followed (`paths::write_beneath`); outside it, as
/// [`write_path`] does.
pub fn write_named(
    root: &Path,
    path: &Path,
    write: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> io::Result<()> {
    match resolve_named(root, path, Names::File) {
        #[cfg(unix)]
        Ok(Some((real_root, rel))) => {
            crate::core::paths::write_beneath::write_file(&real_root, &rel, write)
        }
        Ok(_) => write_path(path, write),
        Err(e) => Err(io::Error::other(e.to_string())),
    }
}

/// Where the symlink `link` leads, made real: its target, or for a
/// dangling one the real folder it names joined with the missing rest.
fn link_target(link: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(link) {
        return real;
    }
    let named = match fs::read_link(link) {
        Ok(target) => lexical(&link.parent().unwrap_or(Path::new("/")).join(target)),
        Err(_) => return link.to_path_buf(),
    };
    // The longest part of it that exists, made real, and the rest.
    let mut missing = Vec::new();
    let mut base = named.as_path();
    loop {
        if let Ok(real) = fs::canonicalize(base) {
            return missing.iter().rev().fold(real, |p, c| p.join(c));
        }
        match (base.parent(), base.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                base = parent;
            }
            _ => return named,
        }
    }
}

/// Write the file at `path` (its folders made) with what `write` writes:
/// into a temporary file beside it, renamed over `path` only once all
/// was written, so a failed write leaves the file there as it was and
/// no reader sees it half-written. Made with the permissions a new file
/// gets (`0o666` less the umask), as `std::fs::write` would.
pub fn write_path(
    path: &Path,
    write: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> io::Result<()> {
    let existing = fs::symlink_metadata(path).ok();
    // What is there and is not a plain file — a link the user made, a
    // FIFO, a device (`-o /dev/stdout`) — is written through, as
    // `std::fs::write` does: renaming over it would replace it.
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(path)?;
        return write(&mut file);
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tmp-ctxcurate-");
    // A file there keeps its permissions (a 0600 context stays 0600).
    let permissions = match &existing {
        Some(m) => Some(m.permissions()),
        None => new_file_permissions(),
    };
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let mut temp = builder.tempfile_in(dir)?;
    write(temp.as_file_mut())?;
    if let Some(m) = &existing {
        // Exactly the old bits, the umask aside.
        temp.as_file().set_permissions(m.permissions())?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The permissions a new file gets (`0o666` less the umask, applied by
/// the system when the file is made).
fn new_file_permissions() -> Option<fs::Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(fs::Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The numbers a save tries, in order: those above the highest taken one,
/// then (when they run out at `u64::MAX`) the free ones from 1 up. Numbers
/// taken by another process after `taken` was read are skipped when the
/// name is claimed.
fn candidates(taken: &std::collections::BTreeSet<u64>) -> impl Iterator<Item = u64> + '_ {
    let highest = taken.last().copied().unwrap_or(0);
    let above = highest.checked_add(1).map(|first| first..=u64::MAX);
    above
        .into_iter()
        .flatten()
        .chain((1..=u64::MAX).filter(move |n| !taken.contains(n)))
}

/// Create `{dir}/{prefix}{NNN}.{ext}` for the first NNN of `numbers`
/// that no entry has, holding what `write` writes (at most [`ATTEMPTS`]
/// are tried). The text is written and synced to a
/// temporary file first and then given its name without replacing
/// anything (`persist_noclobber`), so a numbered file is never seen
/// half-written, an interrupted save leaves no partial file holding a
/// number, and an existing entry (a symlink included) is neither
/// overwritten nor followed.
fn create_numbered(
    dir: &Path,
    prefix: &str,
    ext: &str,
    numbers: impl Iterator<Item = u64>,
    write: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> Result<PathBuf, OutputError> {
    let exhausted = || OutputError::Exhausted {
        dir: dir.to_path_buf(),
    };
    let io_error = |source| OutputError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".tmp-output-")
        .tempfile_in(dir)
        .map_err(io_error)?;
    write(temp.as_file_mut()).map_err(io_error)?;
    temp.as_file().sync_all().map_err(io_error)?;
    for number in numbers.take(ATTEMPTS) {
        let path = dir.join(format!("{prefix}{number:03}.{ext}"));
        match temp.persist_noclobber(&path) {
            Ok(_) => return Ok(path),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
                temp = e.file;
            }
            Err(e) => {
                return Err(OutputError::Io {
                    path,
                    source: e.error,
                });
            }
        }
    }
    Err(exhausted())
}

/// The folder of the output files and their name prefix (`{namespace}_`),
/// with `.` and `..` resolved lexically; refused when it leaves the root
/// and that is not allowed.
fn location(root: &Path, settings: &Settings) -> Result<(PathBuf, String), OutputError> {
    if settings.namespace.chars().any(char::is_control) {
        return Err(OutputError::BadNamespace(settings.namespace.clone()));
    }
    let root = lexical(root);
    let base = lexical(
        &root
            .join(&settings.output_dir)
            .join(format!("{}_", settings.namespace)),
    );
    let leaves = || OutputError::LeavesRoot { path: base.clone() };
    if !settings.output_outside_root && !base.starts_with(&root) {
        return Err(leaves());
    }
    let prefix = base
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(leaves)?
        .to_string();
    let dir = base.parent().ok_or_else(leaves)?.to_path_buf();
    if !settings.output_outside_root && !dir.starts_with(&root) {
        return Err(leaves());
    }
    Ok((dir, prefix))
}

/// Every existing folder from `root` down to `dir` that is a symlink must
/// lead to a place inside the root.
fn check_no_link_out(root: &Path, dir: &Path) -> Result<(), OutputError> {
    let real_root = fs::canonicalize(root).map_err(|source| OutputError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    let rest = dir.strip_prefix(lexical(root)).unwrap_or(dir);
    let mut at = root.to_path_buf();
    for component in rest.components() {
        at.push(component);
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(&at) {
                Ok(real) if real.starts_with(&real_root) => {}
                _ => return Err(OutputError::SymlinkOut { link: at }),
            },
            Ok(_) => {}
            // Nothing further down exists yet: create_dir_all makes real
            // folders there.
            Err(_) => break,
        }
    }
    Ok(())
}

/// The NNN of every `{prefix}NNN.md` / `.xml` in `dir`: the numbers of
/// both formats are one sequence.
fn taken_numbers(dir: &Path, prefix: &str) -> std::collections::BTreeSet<u64> {
    fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let name = name.to_str()?;
            let rest = name.strip_prefix(prefix)?;
            let num = rest
                .strip_suffix(".md")
                .or_else(|| rest.strip_suffix(".xml"))?;
            if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            num.parse::<u64>().ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(output_dir: &str, namespace: &str) -> Settings {
        Settings {
            output_dir: output_dir.into(),
            namespace: namespace.into(),
            ..Settings::default()
        }
    }

    fn text(s: &str) -> impl FnOnce(&mut fs::File) -> io::Result<()> + '_ {
        move |file| file.write_all(s.as_bytes())
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn numbering_skips_taken_numbers_and_follows_the_format() {
        let dir = tempfile::tempdir().unwrap();
        let s = Settings::default();
        let first = write_next(dir.path(), &s, Format::Markdown, "one").unwrap();
        assert!(
            first.ends_with(".ctxcurate/out/context_001.md"),
            "{first:?}"
        );
        assert_eq!(fs::read_to_string(&first).unwrap(), "one");
        let out = first.parent().unwrap();
        for name in [
            "context_007.md",
            "context_x.md",
            "other_020.md",
            "context_1000.txt",
        ] {
            fs::write(out.join(name), "").unwrap();
        }
        let xml = write_next(dir.path(), &s, Format::Xml, "<documents/>").unwrap();
        assert!(xml.ends_with("context_008.xml"), "{xml:?}");
        let md = write_next(dir.path(), &s, Format::Markdown, "x").unwrap();
        assert!(md.ends_with("context_009.md"), "{md:?}");
    }

    #[test]
    fn a_name_taken_after_the_scan_is_skipped_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        // As if other processes created 001 and 002 after this one scanned.
        fs::write(out.join("c_001.md"), "theirs").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(out.join("target"), out.join("c_002.md")).unwrap();
        #[cfg(not(unix))]
        fs::write(out.join("c_002.md"), "theirs").unwrap();
        let path = create_numbered(out, "c_", "md", 1.., text("mine")).unwrap();
        assert_eq!(path, out.join("c_003.md"));
        assert_eq!(fs::read_to_string(out.join("c_001.md")).unwrap(), "theirs");
        assert!(!out.join("target").exists(), "a symlink is not followed");
        let last = create_numbered(out, "c_", "md", u64::MAX..=u64::MAX, text("x")).unwrap();
        assert!(last.ends_with(format!("c_{}.md", u64::MAX)), "{last:?}");
        assert!(matches!(
            create_numbered(out, "c_", "md", u64::MAX..=u64::MAX, text("x")),
            Err(OutputError::Exhausted { .. })
        ));
    }

    /// A write that fails halfway leaves the file there as it was and no
    /// temporary file; one that succeeds replaces it whole.
    #[test]
    fn a_path_is_replaced_only_by_a_whole_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.md");
        fs::write(&path, "older").unwrap();
        let failed = write_path(&path, |file| {
            file.write_all(b"half of it")?;
            Err(io::Error::other("disk full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "disk full");
        assert_eq!(fs::read_to_string(&path).unwrap(), "older");
        assert_eq!(names(dir.path()), ["ctx.md"]);
        write_path(&path, text("newer")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "newer");
        let deep = dir.path().join("a/b/c.md");
        write_path(&deep, text("x")).unwrap();
        assert_eq!(fs::read_to_string(&deep).unwrap(), "x");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            let plain = dir.path().join("plain");
            fs::write(&plain, "x").unwrap();
            assert_eq!(mode(&deep), mode(&plain), "as a new file is made");
        }
    }

    #[test]
    fn a_shipped_highest_number_does_not_stop_saves() {
        let dir = tempfile::tempdir().unwrap();
        let s = Settings::default();
        let out = dir.path().join(".ctxcurate/out");
        fs::create_dir_all(&out).unwrap();
        // What a repository can ship: the last number there is, and the
        // one before it.
        for n in [u64::MAX, u64::MAX - 1, 1] {
            fs::write(out.join(format!("context_{n:03}.md")), "shipped").unwrap();
        }
        let saved = write_next(dir.path(), &s, Format::Markdown, "mine").unwrap();
        assert_eq!(saved, out.join("context_002.md"));
        assert_eq!(fs::read_to_string(&saved).unwrap(), "mine");
        let next = write_next(dir.path(), &s, Format::Xml, "<documents/>").unwrap();
        assert_eq!(next, out.join("context_003.xml"));
        for n in [u64::MAX, u64::MAX - 1, 1] {
            let shipped = out.join(format!("context_{n:03}.md"));
            assert_eq!(fs::read_to_string(shipped).unwrap(), "shipped");
        }
    }

    #[test]
    fn an_output_folder_in_a_version_control_folder_is_refused() {
        // Recheck 14, F2: an untrusted `output_dir = ".git/hooks"` put
        // `context_001.md` among the hooks.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        fs::create_dir_all(root.join(".git/hooks")).unwrap();
        for out in [".git/hooks", "src/../.git", ".hg"] {
            let err =
                write_next(&root, &settings(out, "context"), Format::Markdown, "x").unwrap_err();
            assert!(matches!(err, OutputError::IntoVcs { .. }), "{out}: {err}");
        }
        assert!(
            fs::read_dir(root.join(".git/hooks"))
                .unwrap()
                .next()
                .is_none()
        );
        assert!(!root.join(".hg").exists());
        // The default place is written as ever.
        write_next(
            &root,
            &settings(".ctxcurate/out", "context"),
            Format::Markdown,
            "x",
        )
        .unwrap();
    }

    #[test]
    fn locations_outside_the_root_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        fs::create_dir(&root).unwrap();
        for (out, ns) in [
            ("../../escape", "context"),
            (".ctxcurate/out", "../../../x"),
            ("/tmp", "c"),
        ] {
            let err = write_next(&root, &settings(out, ns), Format::Markdown, "x").unwrap_err();
            assert!(
                matches!(err, OutputError::LeavesRoot { .. }),
                "{out} {ns}: {err}"
            );
        }
        assert_eq!(names(dir.path()), ["proj"], "nothing written outside");
        let err = write_next(&root, &settings("out", "a\nb"), Format::Markdown, "x").unwrap_err();
        assert!(matches!(err, OutputError::BadNamespace(_)), "{err}");
        // Allowed (a trusted location): written where it says.
        let mut allowed = settings("../elsewhere", "c");
        allowed.output_outside_root = true;
        let path = write_next(&root, &allowed, Format::Markdown, "x").unwrap();
        assert_eq!(path, dir.path().join("elsewhere/c_001.md"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_folders_out_of_the_root_are_refused() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        let outside = dir.path().join("outside");
        fs::create_dir_all(root.join("inside")).unwrap();
        fs::create_dir(&outside).unwrap();
        symlink(&outside, root.join(".ctxcurate")).unwrap();
        symlink(dir.path().join("missing"), root.join("dangling")).unwrap();
        symlink(root.join("inside"), root.join("in_link")).unwrap();
        let err = write_next(&root, &Settings::default(), Format::Markdown, "x").unwrap_err();
        assert!(matches!(err, OutputError::SymlinkOut { .. }), "{err}");
        let err =
            write_next(&root, &settings("dangling/out", "c"), Format::Markdown, "x").unwrap_err();
        assert!(matches!(err, OutputError::SymlinkOut { .. }), "{err}");
        assert!(names(&outside).is_empty() && !dir.path().join("missing").exists());
        // A link that stays inside the root is fine.
        let path = write_next(&root, &settings("in_link", "c"), Format::Markdown, "x").unwrap();
        assert!(root.join("inside/c_001.md").is_file(), "{path:?}");
    }

    /// What is at an output path and is not a plain file is written
    /// through, never replaced: a link the user made stays a link (its
    /// target gets the text); a plain file keeps its permissions.
    #[cfg(unix)]
    #[test]
    fn write_path_writes_through_a_link_and_keeps_a_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.md");
        fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_path(&link, text("new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");

        let private = dir.path().join("private.md");
        fs::write(&private, "old").unwrap();
        fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
        write_path(&private, text("secret context")).unwrap();
        assert_eq!(fs::read_to_string(&private).unwrap(), "secret context");
        let mode = fs::metadata(&private).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(left.len(), 3, "no temporary file left: {left:?}");
    }
}
