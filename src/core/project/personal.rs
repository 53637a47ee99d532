//! The user's own state in one checkout, kept out of the shared
//! `ctxcurate.toml`: the choices that are one person's (the active
//! preset, the tokenizer and strategy toggles) and where they were in the
//! TUI (the tree's cursor and open folders, whether a discovery was
//! shown). One small TOML file per
//! checkout under `$XDG_STATE_HOME/ctxcurate/checkouts/` (default
//! `~/.local/state/ctxcurate/checkouts/`), named by the SHA-256 of the
//! checkout's canonical path, as the trust records are: two clones of one
//! project keep their own state.
//!
//! The file is the user's, written only by us, and only a convenience: a
//! state file that cannot be read or parsed is never fatal. It is moved
//! aside (`<name>.bad`, the newest bad one kept) with a note that says
//! where, so nothing is lost silently and nothing is written over a file
//! we failed to parse; a value that does not fit its setting is left out,
//! with a note.
//!
//! Two programs may write it: the TUI keeps it open for a session while
//! `ctxcurate preset apply` switches the preset from a shell. A save
//! therefore writes over the file only what this program changed since
//! it last read or wrote it ([`merge_layers`]: a three-way merge per
//! key), and the TUI picks up the other's changes as they come
//! ([`PersonalStore::peek`]) by one path only, which says what changed:
//! a save keeps them in the file and leaves them to it.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::core::model::{Extra, SettingsLayer};
use crate::core::tokens::hex;

/// The `[project]` keys a person chooses for themselves: kept in the
/// state file, never written to `ctxcurate.toml` by a switch. A value the
/// shared file gives for one of them is the team's default.
pub const PERSONAL_KEYS: &[&str] = &["active_preset", "tokenizer", "strategy"];

/// A state file is a few lines; never more than this is read.
const STATE_LIMIT: u64 = 1 << 20;

/// What can go wrong writing the state file. (Reading never fails: see
/// [`PersonalStore::load`].)
#[derive(Debug, Error)]
pub enum PersonalError {
    #[error("no state directory: neither XDG_STATE_HOME nor HOME is set")]
    NoStateDir,
    #[error("cannot {op} your state file {}", path.display())]
    Io {
        path: PathBuf,
        op: &'static str,
        source: io::Error,
    },
    #[error("cannot write your state file {} as TOML: {reason}", path.display())]
    Serialize { path: PathBuf, reason: String },
}

/// Where the user was in the TUI's tree. Paths are root-relative, with
/// `/`, as everywhere in a project.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ViewState {
    /// The path under the tree's cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// The open folders, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expanded: Vec<String>,
    /// A discovery's proposals were shown: the next start packs around
    /// the preset's targets again (the same preset, targets and budget
    /// give the same proposals), rather than keep a pack that may be
    /// stale.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discovery: bool,
}

impl ViewState {
    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.cursor.is_none() && self.expanded.is_empty() && !self.discovery
    }
}

/// One checkout's state file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CheckoutState {
    /// The checkout's path, for a person reading the store (the file's
    /// name is what finds it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// The user's own `[project]` values ([`PERSONAL_KEYS`] only).
    #[serde(default, skip_serializing_if = "SettingsLayer::is_empty")]
    pub project: SettingsLayer,
    #[serde(default, skip_serializing_if = "ViewState::is_empty")]
    pub view: ViewState,
    /// Keys a newer version wrote: kept.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A state file as loaded, with what the user should hear about it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    pub state: CheckoutState,
    /// A file moved aside, a value left out (one line each).
    pub notes: Vec<String>,
}

/// The state files of one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonalStore {
    dir: PathBuf,
}

impl PersonalStore {
    /// The store in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> PersonalStore {
        PersonalStore { dir: dir.into() }
    }

    /// The user's store, `checkouts/` in [`crate::core::paths::user_state_dir`].
    pub fn user() -> Result<PersonalStore, PersonalError> {
        let base = crate::core::paths::user_state_dir().ok_or(PersonalError::NoStateDir)?;
        Ok(PersonalStore::at(base.join("checkouts")))
    }

    /// The directory of the state files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The state file of the checkout at `root`.
    pub fn path(&self, root: &Path) -> PathBuf {
        let canonical = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let name = hex(&Sha256::digest(canonical.as_os_str().as_encoded_bytes()));
        self.dir.join(format!("{name}.toml"))
    }

    /// The state of the checkout at `root`: empty when there is none. A
    /// file that cannot be read or parsed is moved aside and named in a
    /// note; a key that is not the user's to set, or a value that does
    /// not fit, is left out with a note.
    pub fn load(&self, root: &Path) -> Loaded {
        let path = self.path(root);
        let text = match read_text(&path) {
            Ok(Some(text)) => text,
            Ok(None) => return Loaded::default(),
            Err(e) => return self.set_aside(&path, &e.to_string()),
        };
        let state: CheckoutState = match toml::from_str(&text) {
            Ok(state) => state,
            Err(e) => {
                let at = e.span().map(|s| line_col(&text, s.start));
                let why = match at {
                    Some((line, col)) => format!("{line}:{col}: {}", e.message().trim_end()),
                    None => e.message().trim_end().to_owned(),
                };
                return self.set_aside(&path, &why);
            }
        };
        let mut notes = Vec::new();
        let state = checked(state, &path, &mut notes);
        Loaded { state, notes }
    }

    /// The state file of the checkout at `root` as it is now, for a check
    /// while a session runs: `None` when there is none, or it cannot be
    /// read or parsed (then it is left where it is, for the next start to
    /// report and set aside). Values that do not fit are left out.
    pub fn peek(&self, root: &Path) -> Option<CheckoutState> {
        let path = self.path(root);
        let text = read_text(&path).ok()??;
        let state: CheckoutState = toml::from_str(&text).ok()?;
        Some(checked(state, &path, &mut Vec::new()))
    }

    /// Move the unreadable state file at `path` aside, and say so.
    fn set_aside(&self, path: &Path, why: &str) -> Loaded {
        let aside = path.with_extension("toml.bad");
        let note = match fs::rename(path, &aside) {
            Ok(()) => format!(
                "your state file {} could not be read ({why}): moved to {}; \
                 starting from the project's defaults",
                path.display(),
                aside.display()
            ),
            Err(e) => format!(
                "your state file {} could not be read ({why}) nor moved aside ({e}); \
                 starting from the project's defaults",
                path.display()
            ),
        };
        Loaded {
            state: CheckoutState::default(),
            notes: vec![note],
        }
    }

    /// Write `state` for the checkout at `root`, atomically (a temporary
    /// file in the store renamed over it). Not flushed to disk: losing
    /// the last state to a crash costs a cursor position, and the TUI
    /// writes it on the UI thread.
    pub fn save(&self, root: &Path, state: &CheckoutState) -> Result<PathBuf, PersonalError> {
        let path = self.path(root);
        let io_err = |op: &'static str| {
            let path = path.clone();
            move |source| PersonalError::Io { path, op, source }
        };
        let mut state = state.clone();
        if state.root.is_none() {
            let canonical = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
            state.root = Some(canonical.display().to_string());
        }
        let body = toml::to_string_pretty(&state).map_err(|e| PersonalError::Serialize {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let text = format!(
            "# ctxcurate: your own state in one checkout (not shared; safe to delete)\n{body}"
        );
        fs::create_dir_all(&self.dir).map_err(io_err("create the directory of"))?;
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir).map_err(io_err("write"))?;
        tmp.write_all(text.as_bytes()).map_err(io_err("write"))?;
        tmp.persist(&path).map_err(|e| io_err("write")(e.error))?;
        Ok(path)
    }
}

/// The text of `path`; `None` when there is no file. Bounded, and a
/// regular file only (a link to a device or a FIFO is an error, not a
/// hang).
fn read_text(path: &Path) -> io::Result<Option<String>> {
    let file = match crate::core::io_bounds::open_regular(path) {
        Ok((file, _)) => file,
        // No store folder (or a file in its place, which a save reports):
        // no state yet.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(STATE_LIMIT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > STATE_LIMIT {
        return Err(io::Error::other(format!("larger than {STATE_LIMIT} bytes")));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))
}

/// The user's own keys after two programs changed them: per key of
/// [`PERSONAL_KEYS`], `mine` where it differs from `base` (what both
/// started from), else `disk` (another program's change, or none). A key
/// both changed keeps `mine`: the newer save.
pub fn merge_layers(
    base: &SettingsLayer,
    mine: &SettingsLayer,
    disk: &SettingsLayer,
) -> SettingsLayer {
    let mut merged = disk.clone();
    for key in PERSONAL_KEYS {
        let ours = mine.get(key);
        if ours == base.get(key) {
            continue;
        }
        match ours {
            Some(value) => merged.set(key, value.clone()),
            None => {
                merged.remove(key);
            }
        }
    }
    merged
}

/// `state` with what it may not hold left out, each named in `notes`:
/// keys that are not the user's own choices, and values that do not fit.
fn checked(mut state: CheckoutState, path: &Path, notes: &mut Vec<String>) -> CheckoutState {
    let mut table = state.project.table().clone();
    let foreign: Vec<String> = table
        .keys()
        .filter(|k| !PERSONAL_KEYS.contains(&k.as_str()))
        .cloned()
        .collect();
    for key in &foreign {
        table.remove(key);
        notes.push(format!(
            "{}: ignoring `{key}` (only {} are kept there; other settings go in ctxcurate.toml)",
            path.display(),
            PERSONAL_KEYS.join(", ")
        ));
    }
    let mut layer = SettingsLayer::from_table(table);
    while let Err(bad) = layer.check() {
        if layer.remove(&bad.key).is_none() {
            // No single key to blame: nothing of it is used.
            layer = SettingsLayer::default();
        }
        notes.push(format!(
            "{}: ignoring `{}` ({})",
            path.display(),
            bad.key,
            bad.message
        ));
    }
    state.project = layer;
    state
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

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, tempfile::TempDir, PersonalStore) {
        let state = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        let store = PersonalStore::at(state.path().join("checkouts"));
        (state, root, store)
    }

    #[test]
    fn a_state_round_trips() {
        let (_s, root, store) = store();
        assert_eq!(store.load(root.path()), Loaded::default(), "none yet");
        let mut state = CheckoutState::default();
        state.project.set("active_preset", "tables");
        state.project.set("tokenizer", "estimate");
        state.view.cursor = Some("src/app.py".into());
        state.view.expanded = vec!["src".into(), "src/core".into()];
        let path = store.save(root.path(), &state).unwrap();
        assert!(path.starts_with(store.dir()));
        let back = store.load(root.path());
        assert!(back.notes.is_empty(), "{:?}", back.notes);
        assert_eq!(back.state.project, state.project);
        assert_eq!(back.state.view, state.view);
        let canonical = fs::canonicalize(root.path()).unwrap();
        assert_eq!(
            back.state.root.as_deref(),
            Some(canonical.display().to_string().as_str())
        );
    }

    #[test]
    fn the_file_reads_as_a_person_would_write_it() {
        let (_s, root, store) = store();
        let mut state = CheckoutState {
            root: Some("/work/proj".into()),
            ..CheckoutState::default()
        };
        store.save(root.path(), &state).unwrap();
        let path = store.path(root.path());
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# ctxcurate: your own state in one checkout (not shared; safe to delete)\n\
             root = \"/work/proj\"\n"
        );
        state.project.set("active_preset", "tables");
        state.view.cursor = Some("src/a.py".into());
        state.view.expanded = vec!["src".into()];
        store.save(root.path(), &state).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# ctxcurate: your own state in one checkout (not shared; safe to delete)\n\
             root = \"/work/proj\"\n\n[project]\nactive_preset = \"tables\"\n\n\
             [view]\ncursor = \"src/a.py\"\nexpanded = [\"src\"]\n"
        );
    }

    #[test]
    fn a_corrupt_file_is_moved_aside_with_a_note() {
        let (_s, root, store) = store();
        let path = store.path(root.path());
        fs::create_dir_all(store.dir()).unwrap();
        fs::write(&path, "[project\nactive_preset = 1\n").unwrap();
        let loaded = store.load(root.path());
        assert_eq!(loaded.state, CheckoutState::default());
        assert_eq!(loaded.notes.len(), 1);
        let note = &loaded.notes[0];
        assert!(note.contains("(1:9: unclosed table"), "{note}");
        let aside = path.with_extension("toml.bad");
        assert!(note.contains(&aside.display().to_string()), "{note}");
        assert_eq!(
            fs::read_to_string(&aside).unwrap(),
            "[project\nactive_preset = 1\n",
            "the bad file is kept as it was"
        );
        assert!(!path.exists());
        // The next save writes a fresh file; the bad one stays aside.
        store.save(root.path(), &CheckoutState::default()).unwrap();
        assert!(aside.exists());
        assert!(store.load(root.path()).notes.is_empty());
    }

    #[test]
    fn bad_values_and_foreign_keys_are_left_out_with_a_note() {
        let (_s, root, store) = store();
        fs::create_dir_all(store.dir()).unwrap();
        fs::write(
            store.path(root.path()),
            "[project]\ntokenizer = \"gpt9\"\nsummary_command = \"rm\"\nactive_preset = \"a\"\n",
        )
        .unwrap();
        let loaded = store.load(root.path());
        assert_eq!(loaded.state.project.get_str("active_preset"), Some("a"));
        assert_eq!(loaded.state.project.get("tokenizer"), None);
        assert_eq!(loaded.state.project.get("summary_command"), None);
        assert_eq!(loaded.notes.len(), 2, "{:?}", loaded.notes);
        assert!(loaded.notes.iter().any(|n| n.contains("`summary_command`")));
        assert!(loaded.notes.iter().any(|n| n.contains("`tokenizer`")));
    }

    #[test]
    fn two_checkouts_keep_their_own_state() {
        let (_s, one, store) = store();
        let two = tempfile::tempdir().unwrap();
        let mut state = CheckoutState::default();
        state.project.set("active_preset", "mine");
        store.save(one.path(), &state).unwrap();
        assert_ne!(store.path(one.path()), store.path(two.path()));
        assert_eq!(store.load(two.path()).state, CheckoutState::default());
        assert_eq!(
            store
                .load(one.path())
                .state
                .project
                .get_str("active_preset"),
            Some("mine")
        );
    }

    use crate::core::project::Project;

    /// Two programs on one checkout, each a `Project` on the same store:
    /// the app (`ours`, at preset `a`, saved) and a shell's `preset
    /// apply` (`theirs`). The temporary directories come first.
    type Handles = (
        tempfile::TempDir,
        tempfile::TempDir,
        PersonalStore,
        Project,
        Project,
    );

    fn two_handles() -> Handles {
        let (state, root, store) = store();
        fs::write(
            root.path().join("ctxcurate.toml"),
            "[presets.a]\nfiles = []\n\n[presets.b]\nfiles = []\n\n[presets.c]\nfiles = []\n",
        )
        .unwrap();
        let open = || {
            let mut project = Project::open_at(root.path(), None).unwrap();
            project.use_personal(store.clone());
            project
        };
        let mut ours = open();
        ours.apply("a").unwrap();
        assert!(ours.save_personal().unwrap());
        let theirs = open();
        (state, root, store, ours, theirs)
    }

    /// The change of one personal key, as the TUI's toggles make it.
    fn toggle(project: &mut Project, key: &str, value: Option<&str>) {
        match value {
            Some(v) => project.file.personal.set(key, v),
            None => drop(project.file.personal.remove(key)),
        }
        project.refresh_settings();
    }

    /// The review's finding: a save after another program switched the
    /// preset wrote both changes but switched this project silently. The
    /// save keeps this project as it was; the idle check then takes the
    /// other's change in and names it; this project's own change is
    /// never lost.
    #[test]
    fn a_save_keeps_anothers_change_on_disk_and_leaves_it_to_the_idle_check() {
        let (_s, root, store, mut ours, mut theirs) = two_handles();
        theirs.apply("c").unwrap();
        assert!(theirs.save_personal().unwrap());

        toggle(&mut ours, "tokenizer", Some("estimate"));
        assert!(ours.save_personal().unwrap(), "our change is written");
        assert_eq!(ours.active_preset_name(), "a", "not switched by a save");
        let disk = store.load(root.path()).state.project;
        assert_eq!(disk.get_str("active_preset"), Some("c"), "theirs kept");
        assert_eq!(disk.get_str("tokenizer"), Some("estimate"), "ours written");

        // Saving again writes nothing and still switches nothing.
        assert!(!ours.save_personal().unwrap());
        assert_eq!(ours.active_preset_name(), "a");

        // The idle check sees it, and adopting names it.
        let seen = ours.personal_on_disk().expect("the other's change is seen");
        assert_eq!(ours.adopt_personal(seen), vec!["active_preset"]);
        assert_eq!(ours.active_preset_name(), "c");
        assert_eq!(ours.file.personal.get_str("tokenizer"), Some("estimate"));
        assert!(ours.personal_on_disk().is_none(), "taken in once");
        assert!(!ours.save_personal().unwrap(), "the file holds it already");
    }

    /// Bad timing the other way: this project switched too before it saw
    /// the other's switch, and its own (the later choice) goes over. A
    /// key the other removed (back to the team's) waits for the idle
    /// check as a value does.
    #[test]
    fn our_own_change_wins_and_a_removal_waits_for_the_idle_check() {
        let (_s, root, store, mut ours, mut theirs) = two_handles();
        theirs.apply("c").unwrap();
        toggle(&mut theirs, "tokenizer", Some("estimate"));
        assert!(theirs.save_personal().unwrap());
        ours.apply("b").unwrap();
        assert!(ours.save_personal().unwrap());
        let disk = store.load(root.path()).state.project;
        assert_eq!(disk.get_str("active_preset"), Some("b"), "ours, the later");
        assert_eq!(disk.get_str("tokenizer"), Some("estimate"));
        assert_eq!(ours.active_preset_name(), "b");
        assert_eq!(ours.file.personal.get("tokenizer"), None, "not yet taken");
        let seen = ours.personal_on_disk().expect("the tokenizer is seen");
        assert_eq!(ours.adopt_personal(seen), vec!["tokenizer"]);

        toggle(&mut theirs, "tokenizer", None);
        assert!(theirs.save_personal().unwrap());
        toggle(&mut ours, "strategy", Some("summarize"));
        assert!(ours.save_personal().unwrap());
        let disk = store.load(root.path()).state.project;
        assert_eq!(disk.get("tokenizer"), None, "their removal kept");
        assert_eq!(disk.get_str("strategy"), Some("summarize"));
        assert_eq!(disk.get_str("active_preset"), Some("b"));
        assert_eq!(ours.file.personal.get_str("tokenizer"), Some("estimate"));
        let seen = ours.personal_on_disk().expect("the removal is seen");
        assert_eq!(ours.adopt_personal(seen), vec!["tokenizer"]);
        assert_eq!(ours.file.personal.get("tokenizer"), None);
        assert_eq!(ours.file.personal.get_str("strategy"), Some("summarize"));
    }

    #[cfg(unix)]
    #[test]
    fn a_state_file_linked_to_a_device_is_set_aside_not_read() {
        let (_s, root, store) = store();
        fs::create_dir_all(store.dir()).unwrap();
        let path = store.path(root.path());
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let loaded = store.load(root.path());
        assert_eq!(loaded.state, CheckoutState::default());
        assert!(loaded.notes[0].contains("moved to"), "{:?}", loaded.notes);
    }
}
