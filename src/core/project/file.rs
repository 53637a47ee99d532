//! One TOML file of the project-file shape, on disk: parsing it with errors
//! that name the file, line and column; saving it atomically; and listing
//! the keys it holds that this version does not know.
//!
//! Both `ctxcurate.toml` and the global `config.toml` go through here. A
//! save is an edit of the text that was read and parsed (see
//! `preserve.rs`), so a file that failed to parse can never be saved over:
//! there is nothing to edit.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::hint::shown;
use super::preserve;
use crate::core::model::{Extra, ProjectFile};
use crate::core::paths::confine::Escape;

/// What can go wrong reading, writing or editing the project file.
///
/// `Display` is one line that names the file (and for a parse error the
/// line and column, 1-based, the column counted in characters). The
/// operating-system cause of an [`ProjectError::Io`] is its
/// [`source`](std::error::Error::source), so print the chain (`{:#}` of an
/// `anyhow::Error`) to see it.
#[derive(Debug, Error)]
pub enum ProjectError {
    /// The file is not valid TOML, or a value has the wrong type or name.
    #[error("{}:{line}:{col}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        col: usize,
        message: String,
    },
    /// Reading or writing the file failed.
    #[error("cannot {op} {}", path.display())]
    Io {
        path: PathBuf,
        /// What was being done: "read", "write", …
        op: &'static str,
        source: io::Error,
    },
    /// The file could not be turned into TOML (a value TOML cannot hold).
    // `reason` is shown, not chained as a source: the message stays one
    // line, as `{:#}` would otherwise repeat it.
    #[error("cannot write {} as TOML: {reason}", path.display())]
    Serialize {
        path: PathBuf,
        reason: super::preserve::RenderError,
    },
    /// No preset, project or global, has this name: the hint names the
    /// nearest one and lists them ([`super::Project::no_such_preset`]).
    #[error("no preset named `{}`{}", shown(.0), .1)]
    NoSuchPreset(String, super::hint::PresetHint),
    /// A preset of this name already exists.
    #[error("a preset named `{}` already exists", shown(.0))]
    PresetExists(String),
    /// The preset exists only in the global config, which the project
    /// never edits (apply it and change it to get a project copy).
    #[error(
        "preset `{}` is defined in the global config, not in this project",
        shown(.0)
    )]
    GlobalPreset(String),
    /// A preset name must have a visible character, none the terminal
    /// escaping escapes (controls, bidi controls, invisible characters),
    /// and at most 128 characters (the name is shown cut past 64, each
    /// such character escaped).
    #[error("invalid preset name \"{0}\"")]
    InvalidPresetName(String),
    /// Another process held the project lock for as long as a wait may
    /// last (`project::lock::give_up_after`).
    #[error(
        "gave up after {waited_secs} s waiting for {} held by another process \
         (is another ctxcurate still running?); nothing was written \
         (CTXCURATE_LOCK_TIMEOUT sets how many seconds to wait)",
        path.display()
    )]
    LockTimeout { path: PathBuf, waited_secs: u64 },
    /// The file, or the folder holding its lock, is a link out of the
    /// project: it is not written through.
    #[error(transparent)]
    Escape(#[from] Escape),
    /// The user's own state (the active preset) could not be saved.
    #[error(transparent)]
    Personal(#[from] super::personal::PersonalError),
}

pub(super) fn io_error(path: &Path, op: &'static str) -> impl FnOnce(io::Error) -> ProjectError {
    let path = path.to_path_buf();
    move |source| ProjectError::Io { path, op, source }
}

/// A project file as read: its text and what it parses into. A save
/// edits this text (keeping what the user wrote) into the new file.
#[derive(Debug, Clone, PartialEq)]
pub struct OnDisk {
    pub text: String,
    pub file: ProjectFile,
}

/// Read and parse `path`; `Ok(None)` when it does not exist.
pub fn load_file(path: &Path) -> Result<Option<ProjectFile>, ProjectError> {
    Ok(load_on_disk(path)?.map(|d| d.file))
}

/// Read and parse `path`, keeping its text; `Ok(None)` when it does not
/// exist.
pub fn load_on_disk(path: &Path) -> Result<Option<OnDisk>, ProjectError> {
    let bytes = match read_bounded(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path, "read")(e)),
    };
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let (line, col) = line_col(valid, valid.len());
            return Err(ProjectError::Parse {
                path: path.to_path_buf(),
                line,
                col,
                message: "invalid UTF-8".into(),
            });
        }
    };
    let file = parse_text(path, text)?;
    Ok(Some(OnDisk {
        text: text.to_owned(),
        file,
    }))
}

/// The largest project file read or written: 4 MiB. A real one holds a
/// few thousand entries in well under a megabyte; reading and editing
/// one takes about 130 bytes of memory per byte of it (its TOML table and
/// its editable document), so this keeps a hostile file to about 520 MiB,
/// within `memory_cache`'s default (32 MiB of keys could take 4 GB).
pub const MAX_PROJECT_FILE: u64 = 4 << 20;

/// The bytes of the project file at `path`, which must be a regular file
/// (a link to one is followed; a link to `/dev/zero` or a FIFO is refused,
/// without waiting for a writer) of at most [`MAX_PROJECT_FILE`] bytes.
pub fn read_bounded(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let (file, _) = crate::core::io_bounds::open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_PROJECT_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_PROJECT_FILE {
        return Err(io::Error::other(format!(
            "larger than {} MiB, the most a project file may hold",
            MAX_PROJECT_FILE >> 20
        )));
    }
    Ok(bytes)
}

/// Parse `text`, the contents of `path` (used only to name it in errors).
pub fn parse_text(path: &Path, text: &str) -> Result<ProjectFile, ProjectError> {
    // Editors on some systems start files with a byte-order mark; it is not
    // a visible column, so positions are counted without it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: ProjectFile = toml::from_str(text).map_err(|e| {
        let (line, col) = e.span().map_or((1, 1), |span| line_col(text, span.start));
        ProjectError::Parse {
            path: path.to_path_buf(),
            line,
            col,
            message: e.message().trim_end().to_owned(),
        }
    })?;
    // Typed values are checked now, at load, so a bad one is an error
    // naming the file, the key and its line, never a surprise later.
    file.project.check().map_err(|bad| {
        let (line, col) = setting_span(text, &bad.key).map_or((1, 1), |at| line_col(text, at));
        ProjectError::Parse {
            path: path.to_path_buf(),
            line,
            col,
            message: format!("{} (key `project.{}`)", bad.message, bad.key),
        }
    })?;
    Ok(file)
}

/// Where the value of `[project] key` starts in `text` (a second, spanned
/// parse: only on the error path).
fn setting_span(text: &str, key: &str) -> Option<usize> {
    #[derive(serde::Deserialize)]
    struct Spans {
        #[serde(default)]
        project: std::collections::BTreeMap<String, toml::Spanned<toml::Value>>,
    }
    let spans: Spans = toml::from_str(text).ok()?;
    spans.project.get(key).map(|v| v.span().start)
}

/// 1-based line and character column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The TOML text `save_atomic` writes: deterministic (maps are sorted),
/// one array element per line, defaults left out.
pub fn to_toml(file: &ProjectFile) -> Result<String, toml::ser::Error> {
    toml::to_string_pretty(file)
}

/// Write `file` to `path` in the clean layout of a new file (see
/// [`write_atomic`]). Use [`save_edit`] to keep what a file holds.
pub fn save_atomic(path: &Path, file: &ProjectFile) -> Result<(), ProjectError> {
    save_edit(path, None, file).map(drop)
}

/// Write `new` to `path` as an edit of `base` (the file as last read):
/// only what differs changes in the text; comments, order, formatting and
/// unknown keys stay. `None`: a new file, clean layout. Returns the text
/// written. Atomic as [`write_atomic`]; callers hold the project lock.
pub fn save_edit(
    path: &Path,
    base: Option<&OnDisk>,
    new: &ProjectFile,
) -> Result<String, ProjectError> {
    let text = match base {
        Some(base) => preserve::render_edit(&base.text, &base.file, new),
        None => preserve::render_fresh(new),
    }
    .and_then(|text| match text.len() as u64 {
        bytes if bytes > MAX_PROJECT_FILE => Err(preserve::RenderError::TooLarge {
            bytes,
            limit: MAX_PROJECT_FILE,
        }),
        _ => Ok(text),
    })
    .map_err(|reason| ProjectError::Serialize {
        path: path.to_path_buf(),
        reason,
    })?;
    write_atomic(path, text.as_bytes())?;
    Ok(text)
}

/// Write `bytes` to `path` so that a reader sees the old file or the new
/// one, never a mix: a temporary file in the same directory is written,
/// given the old file's permissions, flushed to disk, and renamed over
/// `path`; then the directory is flushed so the rename survives a crash.
/// A symlinked `path` stays a symlink: its target is replaced (callers
/// check first that it stays inside the project).
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ProjectError> {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        fs::canonicalize(path).map_err(io_error(path, "resolve the link"))?
    } else {
        path.to_path_buf()
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let old_permissions = fs::metadata(&target).ok().map(|m| m.permissions());

    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    if old_permissions.is_none() {
        // A new file gets the usual 0666 minus umask, not tempfile's 0600:
        // the project file is meant to be shared.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(io_error(dir, "create a temporary file in"))?;
    tmp.write_all(bytes)
        .map_err(io_error(tmp.path(), "write"))?;
    if let Some(permissions) = old_permissions {
        tmp.as_file()
            .set_permissions(permissions)
            .map_err(io_error(tmp.path(), "set permissions of"))?;
    }
    tmp.as_file()
        .sync_all()
        .map_err(io_error(tmp.path(), "flush"))?;
    // On failure the temporary file is dropped, which deletes it.
    tmp.persist(&target)
        .map_err(|e| io_error(&target, "replace")(e.error))?;
    sync_dir(dir);
    remove_stale_temps(dir);
    Ok(())
}

/// Prefix and suffix of the temporary files [`save_atomic`] writes.
const TEMP_PREFIX: &str = ".ctxcurate-";
const TEMP_SUFFIX: &str = ".tmp";

/// A save cut short (the process killed between creating its temporary
/// file and renaming it) leaves the temporary file behind. Remove those
/// old enough that no running save can still own them; best effort.
fn remove_stale_temps(dir: &Path) {
    const STALE: std::time::Duration = std::time::Duration::from_secs(60);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let stale = entry
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Flush a directory entry change (the rename) to disk. Best effort: some
/// file systems and platforms cannot open or sync a directory.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The dotted paths of every key in `file` that the model does not know,
/// e.g. `presets.default.files[0].pinned`. They are kept on save; this
/// list is for telling the user (a typo is the usual cause).
pub fn unknown_keys(file: &ProjectFile) -> Vec<String> {
    let mut out = Vec::new();
    push_keys(&mut out, "", &file.extra);
    out.extend(
        file.project
            .unknown_keys()
            .map(|k| format!("project.{}", toml_key(k))),
    );
    for (name, preset) in &file.presets {
        let at = format!("presets.{}.", toml_key(name));
        push_keys(&mut out, &at, &preset.extra);
        for (i, item) in preset.files.iter().enumerate() {
            let at = format!("{at}files[{i}].");
            push_keys(&mut out, &at, &item.extra);
            for (j, slice) in item.custom_slices.iter().enumerate() {
                push_keys(&mut out, &format!("{at}custom_slices[{j}]."), &slice.extra);
            }
        }
        for (i, entry) in preset.discussion.iter().enumerate() {
            push_keys(&mut out, &format!("{at}discussion[{i}]."), &entry.extra);
        }
    }
    out
}

fn push_keys(out: &mut Vec<String>, prefix: &str, extra: &Extra) {
    out.extend(extra.keys().map(|k| format!("{prefix}{}", toml_key(k))));
}

/// A key as TOML writes it: bare when it can be, quoted otherwise.
fn toml_key(key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        key.to_owned()
    } else {
        toml::Value::String(key.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_shows_a_preset_name_from_the_file_escaped() {
        let bad = "\u{1b}]52;c;aGk=\u{7}x\u{202e}";
        let hint = super::super::hint::PresetHint::new(bad, &[bad.to_owned()]);
        for error in [
            ProjectError::NoSuchPreset(bad.to_owned(), hint),
            ProjectError::PresetExists(bad.to_owned()),
            ProjectError::GlobalPreset(bad.to_owned()),
        ] {
            let shown = error.to_string();
            assert!(
                !shown.contains(['\u{1b}', '\u{7}', '\u{202e}']),
                "{shown:?}"
            );
            assert!(shown.contains("]52;c;aGk="), "{shown:?}");
        }
    }

    #[test]
    fn line_col_counts_characters_from_one() {
        let text = "ab\nçé = 1\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        // `=` is after two 2-byte characters and a space.
        assert_eq!(line_col(text, text.find('=').unwrap()), (2, 4));
        // Mid-character and past-the-end offsets are clamped, not panics.
        assert_eq!(line_col(text, 4), (2, 1));
        assert_eq!(line_col(text, 999), (3, 1));
    }

    #[test]
    fn odd_keys_are_quoted() {
        assert_eq!(toml_key("pinned"), "pinned");
        assert_eq!(toml_key("my preset"), "\"my preset\"");
        assert_eq!(toml_key("a.b"), "\"a.b\"");
        assert_eq!(toml_key(""), "\"\"");
    }

    #[test]
    fn invalid_utf8_is_a_parse_error_at_its_position() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        fs::write(&path, b"[project]\nnamespace = \"a\xffb\"\n").unwrap();
        match load_file(&path) {
            Err(ProjectError::Parse { line, col, .. }) => assert_eq!((line, col), (2, 15)),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn a_save_keeps_permissions_and_removes_stale_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        fs::write(&path, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        }
        let stale = dir.path().join(".ctxcurate-killed.tmp");
        let fresh = dir.path().join(".ctxcurate-running.tmp");
        let other = dir.path().join("notes.tmp");
        for p in [&stale, &fresh, &other] {
            fs::write(p, "partial").unwrap();
        }
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for p in [&stale, &other] {
            fs::File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        let mut file = ProjectFile::default();
        file.project.set("budget", 5);
        save_atomic(&path, &file).unwrap();
        assert_eq!(load_file(&path).unwrap(), Some(file));
        assert!(!stale.exists(), "a killed save's temporary is cleaned up");
        assert!(fresh.exists(), "a running save's temporary is left alone");
        assert!(other.exists(), "other files are left alone");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o640);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_project_file_linked_to_a_device_is_an_error_not_a_flood() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctxcurate.toml");
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let e = load_file(&path).unwrap_err();
        assert!(format!("{:?}", e).contains("not a regular file"), "{e:?}");
    }

    #[test]
    fn a_byte_order_mark_is_ignored() {
        let f = parse_text(Path::new("x.toml"), "\u{feff}[project]\nbudget = 7\n").unwrap();
        assert_eq!(f.project.get("budget"), Some(&toml::Value::Integer(7)));
        let e = parse_text(Path::new("x.toml"), "\u{feff}budget = [").unwrap_err();
        // Column 11 is just past `[`; the mark does not count as a column.
        assert_eq!(e.to_string(), "x.toml:1:11: unclosed array, expected `]`");
    }
}
