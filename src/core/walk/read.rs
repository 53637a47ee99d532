//! Reading one file for a composition: the read policy (size cap, paths
//! outside the root), the binary and encoding checks, and the problems a
//! file can have instead of content.

use std::fs;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use super::is_inside;
use crate::core::paths::beneath::{BeneathError, Links, open_beneath};

/// The default of the `max_file_size` setting: files larger than this are
/// not read into a composition (unless their entry forces it).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The most bytes of one file read into a composition even when its entry
/// forces it (`force_full`) or `max_file_size` is set higher: a
/// repository's project file can force any
/// file, and a 500 MB one took 1.2 GB (sweep 13, B1). 64 MiB is some 16
/// million tokens, past any model's window.
pub const FORCED_MAX_BYTES: u64 = 64 * 1024 * 1024;

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

/// A file's content as the composition sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Text; `lossy` when invalid UTF-8 was replaced.
    /// Shared (`Arc`): the cache, a full view and the rendered file hold
    /// one copy between them.
    Text { text: Arc<str>, lossy: bool },
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
    /// A hard link whose other name (`name`, root-relative) is held: a
    /// credential file or version control data under another name.
    HeldTwin {
        name: String,
    },
    Io(String),
}

impl FileProblem {
    /// Binary and oversize files are left out of a composition with one
    /// note for all of them, never shown as an error section: they are
    /// what a folder or a glob drags in, not something to read about.
    pub fn is_skip(&self) -> bool {
        matches!(self, FileProblem::Binary | FileProblem::TooLarge { .. })
    }
}

impl std::fmt::Display for FileProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileProblem::NotFound => f.write_str("file not found"),
            FileProblem::Binary => f.write_str("binary file skipped"),
            FileProblem::TooLarge { bytes, limit } if *limit >= FORCED_MAX_BYTES => write!(
                f,
                "file too large ({bytes} bytes) skipped: over {} MiB, the most read even \
                 with force_full",
                limit >> 20
            ),
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
            FileProblem::HeldTwin { name } => write!(
                f,
                "a hard link to {name}, a held file (credentials or version control data): \
                 not read; name {name} itself to share it"
            ),
            FileProblem::Io(e) => write!(f, "cannot read file: {e}"),
        }
    }
}

/// The one note for the files left out as binary or oversize
/// ([`FileProblem::is_skip`]), naming the first few; `None` for none.
pub fn skipped_note<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a FileProblem)>,
) -> Option<String> {
    let (mut binary, mut large, mut forced) = (0usize, 0usize, 0usize);
    let mut forced_cap = FORCED_MAX_BYTES;
    let mut cap = 0;
    let mut names = Vec::new();
    for (path, problem) in files {
        let name = match problem {
            FileProblem::Binary => {
                binary += 1;
                path.to_owned()
            }
            FileProblem::TooLarge { bytes, limit } if *limit >= FORCED_MAX_BYTES => {
                forced += 1;
                forced_cap = *limit;
                format!("{path} ({bytes} bytes)")
            }
            FileProblem::TooLarge { bytes, limit } => {
                large += 1;
                cap = *limit;
                format!("{path} ({bytes} bytes)")
            }
            _ => continue,
        };
        if names.len() < 3 {
            names.push(name);
        }
    }
    let total = binary + large + forced;
    if total == 0 {
        return None;
    }
    let mut kinds = Vec::new();
    if binary > 0 {
        kinds.push(format!("{binary} binary"));
    }
    if large > 0 {
        kinds.push(format!(
            "{large} over max_file_size = {cap}; force_full = true on its entry reads it"
        ));
    }
    if forced > 0 {
        kinds.push(format!(
            "{forced} over {} MiB, the most read even with force_full",
            forced_cap >> 20
        ));
    }
    let more = if total > names.len() { ", …" } else { "" };
    let files = if total == 1 { "file" } else { "files" };
    Some(format!(
        "skipped {total} {files} ({}): {}{more}",
        kinds.join(", "),
        names.join(", ")
    ))
}

/// Read `rel` under `root` with the default [`ReadPolicy`].
pub fn read_content(root: &Path, rel: &str) -> Content {
    read_content_with(root, rel, &ReadPolicy::default(), false)
}

/// Read `rel` under `root`: refuses paths outside the root (unless the
/// policy allows them), binary files (a NUL byte near the start) and files
/// over the policy's size cap (unless `force`) and a hard link whose other
/// name is held (`.env`, `.git/config`: [`FileProblem::HeldTwin`]);
/// invalid UTF-8 is decoded lossily and flagged.
pub fn read_content_with(root: &Path, rel: &str, policy: &ReadPolicy, force: bool) -> Content {
    read_content_stamped(root, rel, policy, force).0
}

/// [`read_content_with`], and the metadata of the file as opened (from
/// its descriptor, so it describes the bytes read): `None` when nothing
/// was opened.
pub fn read_content_stamped(
    root: &Path,
    rel: &str,
    policy: &ReadPolicy,
    force: bool,
) -> (Content, Option<fs::Metadata>) {
    if !policy.may_read(rel) {
        return (Content::Unreadable(FileProblem::OutsideRoot), None);
    }
    let file = match open_for_reading(root, rel, policy) {
        Ok(file) => file,
        Err(problem) => return (Content::Unreadable(problem), None),
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return (Content::Unreadable(io_problem(e)), None),
    };
    // A file held by its own name is read only when named and allowed
    // (`trust::entries`); one held by its other name is never read.
    if is_inside(rel)
        && !super::is_held_name(rel)
        && let Some(name) = super::held_twin(root, &root.join(rel), &meta, super::is_held_name)
    {
        return (
            Content::Unreadable(FileProblem::HeldTwin { name }),
            Some(meta),
        );
    }
    // No setting reads past the forced cap: the repository's project file
    // sets `max_file_size` too, and `i64::MAX` read a 404 MB file whole
    // (1.26 GB, recheck 16).
    let limit = if force {
        FORCED_MAX_BYTES
    } else {
        policy.max_file_size.min(FORCED_MAX_BYTES)
    };
    let content = match read_bytes(file, &meta, limit) {
        Ok(bytes) => decode(bytes),
        Err(p) => Content::Unreadable(p),
    };
    (content, Some(meta))
}

/// Open `rel` under `root`. A symlink may lead out of the project, and a
/// folder may be swapped for one while the file is opened (another
/// process, a racing script): so the open itself refuses anything outside
/// the root ([`open_beneath`]) rather than a check before it. Links that
/// stay inside are followed. Only a policy that allows reading outside
/// the root opens the path as given.
fn open_for_reading(root: &Path, rel: &str, policy: &ReadPolicy) -> Result<fs::File, FileProblem> {
    if policy.allow_outside_root {
        let mut options = fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            // A FIFO must not hang the open; its type is checked after.
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        return options.open(root.join(rel)).map_err(io_problem);
    }
    open_beneath(root, Path::new(rel), Links::Inside).map_err(|e| match e {
        BeneathError::Outside { .. } => FileProblem::OutsideRoot,
        BeneathError::Io { source, .. } => io_problem(source),
    })
}

/// The bytes of the opened `file`, if it is a regular file of at most
/// `limit` bytes (type and size from the descriptor, not the path).
fn read_bytes(file: fs::File, meta: &fs::Metadata, limit: u64) -> Result<Vec<u8>, FileProblem> {
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
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
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
        Ok(text) => Content::Text {
            text: Arc::from(text),
            lossy: false,
        },
        Err(e) => Content::Text {
            text: Arc::from(String::from_utf8_lossy(e.as_bytes())),
            lossy: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

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

    /// `force_full` reads a file over `max_file_size`, up to
    /// [`FORCED_MAX_BYTES`] (a sparse file stands in for a big one).
    #[test]
    fn force_full_reads_past_the_cap_up_to_its_own_bound() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("big.txt"), "y = 1\n".repeat(400_000)).unwrap();
        let huge = fs::File::create(root.join("huge.txt")).unwrap();
        huge.set_len(FORCED_MAX_BYTES + 1).unwrap();
        let policy = ReadPolicy::default();
        assert!(matches!(
            read_content_with(root, "big.txt", &policy, true),
            Content::Text { .. }
        ));
        let problem = match read_content_with(root, "huge.txt", &policy, true) {
            Content::Unreadable(problem) => problem,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            problem,
            FileProblem::TooLarge {
                bytes: FORCED_MAX_BYTES + 1,
                limit: FORCED_MAX_BYTES
            }
        );
        assert!(
            problem
                .to_string()
                .contains("over 64 MiB, the most read even with force_full")
        );
        let note = skipped_note([("huge.txt", &problem)]).unwrap();
        assert!(note.contains("1 over 64 MiB"), "{note}");
        // A `max_file_size` set past it (the repository's file may) reads
        // no further (recheck 16: `i64::MAX` read 404 MB whole).
        let raised = ReadPolicy {
            max_file_size: u64::MAX,
            ..policy
        };
        for force in [false, true] {
            assert_eq!(
                read_content_with(root, "huge.txt", &raised, force),
                Content::Unreadable(problem.clone())
            );
        }
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
