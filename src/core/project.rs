//! The project: its root, its `ctxcurate.toml`, the global config under it,
//! the settings resolved from both, and the preset operations the TUI and
//! CLI offer (apply, save as, rename, delete) — see docs/ARCHITECTURE.md, "core::project".
//!
//! Three layers give the settings: the project file over the global config
//! over the embedded `config/config.toml`, resolved by `core::trust`, which
//! keeps a project file's settings that run programs or reach outside the
//! root only after the user's remembered consent. Presets come from the
//! project file and the global config; a project preset hides a global one
//! of the same name. Only the project file is ever written, and only as
//! the user's own layer: a key it does not name stays unnamed, so a later
//! change to the global config still applies. Editing a global preset
//! copies it into the project first (copy-on-write).
//!
//! One person's choices are not the team's: the active preset and the
//! tokenizer and strategy toggles ([`PERSONAL_KEYS`]) are a personal layer
//! over the project file's `[project]` table, kept per checkout in the
//! user's state directory (`project/personal.rs`), with where they were in
//! the TUI. A value the project file gives for one of them is the team's
//! default, read and left as it is; switching writes only the personal
//! layer.
//!
//! Reading, parsing and atomic saving of one file live in `project/file.rs`;
//! saves that keep the user's text in `project/preserve.rs`; a change replayed
//! on the file as it is now (undo, redo, a history jump) in `project/rebase.rs`; the lock and
//! [`Project::edit`] in `project/lock.rs`. Root discovery, path
//! normalisation and the rules that keep reads and writes inside the root
//! are `core::paths`, below the project.

mod bounds;
mod comments;
mod file;
mod hint;
mod lock;
mod personal;
mod preserve;
mod rebase;

use std::path::{Path, PathBuf};

use crate::core::model::{Preset, ProjectFile, Settings};
use crate::core::paths::{PROJECT_FILE, global_config_path, search_root};
use crate::core::sources::Sources;
use crate::core::store::DiskCache;
use crate::core::summary::Summarizer;
use crate::core::trust::{self, TrustStore};
use crate::text::sanitize::{escape_line, needs_escape};

pub use file::{
    MAX_PROJECT_FILE, OnDisk, ProjectError, load_file, load_on_disk, parse_text, read_bounded,
    save_atomic, save_edit, to_toml, unknown_keys,
};
pub use hint::PresetHint;
pub use lock::{
    GIVE_UP_AFTER, LOCK_FILE, LOCK_TIMEOUT_ENV, NOTICE_AFTER, ProjectLock, give_up_after,
    set_wait_notice,
};
pub use personal::{
    CheckoutState, Loaded, PERSONAL_KEYS, PersonalError, PersonalStore, ViewState, merge_layers,
};
pub use preserve::{RenderError, render_edit};
pub use rebase::replay;

/// The preset used when none is named and the one fallen back to after the
/// active preset is deleted.
pub const DEFAULT_PRESET: &str = "default";

/// Top-level tables of the global config that other modules read (the
/// keymap overrides); they are not reported as unknown keys.
const GLOBAL_SECTIONS: &[&str] = &["keymap"];

/// Where a preset is defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// In the project's `ctxcurate.toml`.
    Project,
    /// In the global config (and not overridden by the project).
    Global,
}

/// An opened project. Change `file` through the methods below, or call
/// [`Project::refresh_settings`] after changing `file.project` directly.
#[derive(Debug, Clone)]
pub struct Project {
    /// The directory holding `ctxcurate.toml` (or the start directory).
    pub root: PathBuf,
    /// `root/ctxcurate.toml`, whether or not it exists yet.
    pub path: PathBuf,
    /// The project's own file, as stored (empty if there is none).
    pub file: ProjectFile,
    /// The global config consulted, if any (it need not exist).
    pub global_path: Option<PathBuf>,
    /// The global config (empty if there is none). Never written.
    pub global: ProjectFile,
    /// Project over global over embedded defaults.
    pub settings: Settings,
    /// Things the user should hear about, e.g. unknown keys.
    pub warnings: Vec<String>,
    /// The fingerprint of the guarded settings the user consented to for
    /// this project (`ctxcurate trust`), read once when opened.
    pub consent: Option<[u8; 32]>,
    /// What that consent covered (`trust::Pending::items`), to say what
    /// changed when it lapsed.
    pub consented: Vec<String>,
    /// The explicit entries the user allowed in this checkout (read with
    /// `consent`; see `core::trust::entries`).
    pub allowed: std::sync::Arc<std::collections::BTreeSet<String>>,
    /// Where the consents are kept (`None`: nowhere; nothing is allowed
    /// beyond what the project file may do on its own).
    pub store: Option<TrustStore>,
    /// Where the user's own state for this checkout is kept (`None`:
    /// nowhere; the personal layer lives only as long as this value).
    pub personal_store: Option<PersonalStore>,
    /// Where the user was in the TUI when it last closed (read with the
    /// personal layer, written by [`Project::save_personal`]).
    pub view: ViewState,
    /// The state file as this project has taken it in: as last read or
    /// written, with this project's own layer (another program's keys
    /// wait there for [`Project::adopt_personal`]). The base of the
    /// three-way merge of a save.
    personal_saved: Option<CheckoutState>,
}

impl Project {
    /// Open the project containing `start` (see [`search_root`]; a project
    /// file it passed over is the first warning) with the
    /// global config from [`global_config_path`] and the user's consents
    /// from [`TrustStore::user`].
    pub fn open(start: &Path) -> Result<Project, ProjectError> {
        let found = search_root(start);
        let store = TrustStore::user().ok();
        let mut project =
            Project::open_with(&found.root, global_config_path().as_deref(), store.as_ref())?;
        match PersonalStore::user() {
            Ok(personal) => project.use_personal(personal),
            Err(e) => project.warnings.push(format!(
                "{e}: the active preset and toggles are not remembered"
            )),
        }
        // A project file passed over (another user's, beyond /tmp) is said
        // first: it explains the root every other message is about.
        if let Some(note) = found.note {
            project.warnings.insert(0, note.to_string());
        }
        Ok(project)
    }

    /// Open the project whose root is exactly `root`, with the global config
    /// at `global` (`None`: no global config) and no consent: the project
    /// file's guarded settings are ignored. A file that fails to parse is
    /// an error: there is then no `Project` that could save over it.
    pub fn open_at(root: &Path, global: Option<&Path>) -> Result<Project, ProjectError> {
        Project::open_with(root, global, None)
    }

    /// [`Project::open_at`], with the consents in `store` (`None`: none).
    pub fn open_with(
        root: &Path,
        global: Option<&Path>,
        store: Option<&TrustStore>,
    ) -> Result<Project, ProjectError> {
        let path = root.join(PROJECT_FILE);
        let file = load_file(&path)?.unwrap_or_default();
        // A broken global config is the user's own file and is never
        // written by us: report it and go on with the defaults (a broken
        // project file, which we do write, is an error instead).
        let mut warnings = Vec::new();
        let global_file = match global.map(load_file) {
            Some(Ok(file)) => file.unwrap_or_default(),
            Some(Err(e)) => {
                warnings.push(format!("{e} (global config ignored; defaults apply)"));
                ProjectFile::default()
            }
            None => ProjectFile::default(),
        };

        warnings.extend(unknown_key_warnings(&path, unknown_keys(&file)));
        // A store that cannot be read is no consent (the safe side).
        let record = match store.map(|s| s.record(root)) {
            Some(Ok(record)) => record,
            Some(Err(e)) => {
                warnings.push(format!("{e}: treating the project as untrusted"));
                trust::Record::default()
            }
            None => trust::Record::default(),
        };
        if let Some(g) = global {
            let keys = unknown_keys(&global_file)
                .into_iter()
                .filter(|key| !GLOBAL_SECTIONS.contains(&key.as_str()));
            warnings.extend(unknown_key_warnings(g, keys));
        }

        let mut project = Project {
            root: root.to_path_buf(),
            path,
            file,
            global_path: global.map(Path::to_path_buf),
            global: global_file,
            settings: Settings::default(),
            warnings,
            consent: record.fingerprint,
            consented: record.covered,
            allowed: std::sync::Arc::new(record.allowed),
            store: store.cloned(),
            personal_store: None,
            view: ViewState::default(),
            personal_saved: None,
        };
        let (resolved, bound) = project.resolve_bounded();
        project.warnings.extend(resolved.warning(&project.path));
        project.warnings.extend(bound);
        // The root's ignore files are repository input too: one skipped
        // or cut is said once here, for every command and the TUI.
        project.warnings.extend(
            crate::core::walk::root_ignore_notes(root)
                .iter()
                .map(ToString::to_string),
        );
        project.settings = resolved.settings;
        project.warnings.extend(crate::core::walk::patterns_note(
            &crate::core::walk::WalkPatterns::from_settings(&project.settings),
        ));
        Ok(project)
    }

    /// Recompute `settings` from the project and global `[project]` tables
    /// and the personal layer (see [`trust::resolve`]: a project file may
    /// come from a repository the user did not write).
    pub fn refresh_settings(&mut self) {
        self.settings = self.resolve().settings;
    }

    /// Read the user's own state for this checkout from `store` (and keep
    /// it there from now on): the personal layer over the project file,
    /// and [`Project::view`]. What could not be used is a warning; an
    /// active preset that no longer exists falls back to the team's.
    pub fn use_personal(&mut self, store: PersonalStore) {
        let Loaded { state, notes } = store.load(&self.root);
        self.warnings.extend(notes);
        self.file.personal = state.project.clone();
        self.view = state.view.clone();
        self.personal_saved = Some(state);
        if let Some(name) = self.file.personal.get_str("active_preset")
            && self.preset(name).is_none()
        {
            let name = name.to_owned();
            self.file.personal.remove("active_preset");
            self.refresh_settings();
            self.warnings.push(format!(
                "your last preset `{}` is no longer defined here: using `{}`",
                crate::text::sanitize::display_line(&name, 60),
                crate::text::sanitize::display_line(self.active_preset_name(), 60),
            ));
        }
        self.personal_store = Some(store);
        self.refresh_settings();
    }

    /// Write the user's own state for this checkout (the personal layer
    /// and [`Project::view`]) to the personal store, unless it holds that
    /// already. `Ok(false)`: nothing written (no change, or no store).
    ///
    /// Compare and write: another program (`ctxcurate preset apply`) may
    /// have written the file since this one read it. Only what changed
    /// here since goes over it ([`merge_layers`]); what the other changed
    /// is kept in the file, and never taken into this project here: a
    /// save is a side effect, and a preset switched under it would leave
    /// the app showing one preset while its settings said another, with
    /// nothing said and no undo step. What this project has taken in
    /// stays its own layer, so [`Project::personal_on_disk`] still sees
    /// the other's change and [`Project::adopt_personal`] takes it in, by
    /// the one path that reports the keys (the TUI says so, composes
    /// again and records the step).
    pub fn save_personal(&mut self) -> Result<bool, PersonalError> {
        let Some(store) = self.personal_store.clone() else {
            return Ok(false);
        };
        let base = self.personal_saved.clone().unwrap_or_default();
        let disk = store.peek(&self.root);
        if disk.is_none() {
            // Broken since it was read: set aside (never written over).
            let Loaded { notes, .. } = store.load(&self.root);
            self.warnings.extend(notes);
        }
        let mut state = disk.clone().unwrap_or_else(|| base.clone());
        state.project = merge_layers(&base.project, &self.file.personal, &state.project);
        if self.view != base.view || disk.is_none() {
            state.view = self.view.clone();
        }
        let written = disk.as_ref() != Some(&state);
        if written {
            store.save(&self.root, &state)?;
        }
        // Accounted for: the file as it now is, but for the other
        // program's keys not yet taken in (see above).
        self.personal_saved = Some(CheckoutState {
            project: self.file.personal.clone(),
            ..state
        });
        Ok(written)
    }

    /// The user's state file, when another program changed their own
    /// keys in it (the active preset, say) since this one last read or
    /// wrote it: for [`Project::adopt_personal`]. A file gone or broken
    /// is no change (the next save writes it again).
    pub fn personal_on_disk(&self) -> Option<CheckoutState> {
        let store = self.personal_store.as_ref()?;
        let disk = store.peek(&self.root)?;
        let base = self.personal_saved.clone().unwrap_or_default();
        (disk.project != base.project).then_some(disk)
    }

    /// Take in another program's change to the user's own keys (from
    /// [`Project::personal_on_disk`]): each key it changed and this
    /// project did not since the last read or write; the keys taken, in
    /// [`PERSONAL_KEYS`] order. An active preset this project file does
    /// not hold (yet: the other program may have saved it there too, and
    /// the file is reloaded on its own) waits for the next look.
    pub fn adopt_personal(&mut self, disk: CheckoutState) -> Vec<&'static str> {
        let mut base = self.personal_saved.clone().unwrap_or_default();
        let mut adopted = Vec::new();
        for key in PERSONAL_KEYS {
            let theirs = disk.project.get(key);
            if theirs == base.project.get(key) {
                continue;
            }
            if *key == "active_preset"
                && let Some(name) = theirs.and_then(|v| v.as_str())
                && self.preset(name).is_none()
            {
                continue;
            }
            let ours_unchanged = self.file.personal.get(key) == base.project.get(key);
            match theirs.cloned() {
                Some(value) => {
                    base.project.set(key, value.clone());
                    if ours_unchanged {
                        self.file.personal.set(key, value);
                    }
                }
                None => {
                    base.project.remove(key);
                    if ours_unchanged {
                        self.file.personal.remove(key);
                    }
                }
            }
            if ours_unchanged {
                adopted.push(*key);
            }
        }
        self.personal_saved = Some(base);
        if !adopted.is_empty() {
            self.refresh_settings();
        }
        adopted
    }

    /// The project's files as every walk of it sees them: the built-in
    /// ignores, `.ctxcurateignore` and the `[project] ignore`/`unignore`
    /// patterns applied (sorted, root-relative, `/`-separated).
    pub fn walk(&self) -> Vec<String> {
        crate::core::walk::walk_files_with(
            &self.root,
            &crate::core::walk::WalkPatterns::from_settings(&self.settings),
        )
    }

    /// The cache every command and the TUI read this project through: its
    /// disk cache under `.ctxcurate/`, its summarizer, its C/C++ macros
    /// and its memory bound (`memory_cache`, MiB).
    pub fn file_cache(&self) -> Sources {
        self.file_cache_on(DiskCache::open(&self.root))
    }

    /// [`Project::file_cache`] for one command that ends with it: what it
    /// adds to the disk cache is written as packs when the cache goes (or
    /// as it grows), not one file per entry.
    pub fn run_cache(&self) -> Sources {
        self.file_cache_on(DiskCache::open(&self.root).batched())
    }

    fn file_cache_on(&self, disk: DiskCache) -> Sources {
        let summarizer = Summarizer::new(
            disk.clone(),
            crate::core::summary::SummaryConfig::for_project(&self.settings, &self.root),
        );
        let cache = Sources::for_project(disk, summarizer);
        cache.set_c_macros(self.c_macros());
        cache.set_memory_bound(self.settings.memory_cache.saturating_mul(1 << 20));
        cache
    }

    /// The C/C++ macros of every parse of this project's files: the
    /// user's extra ones of the `[syntax]` tables (global, then project),
    /// then the project's own `#define`s and `-D` flags, read on first use
    /// (`sources::c_project`).
    pub fn c_macros(&self) -> crate::core::syntax::CMacros {
        let macros = [
            self.global.syntax.c_macros.as_slice(),
            self.file.syntax.c_macros.as_slice(),
        ];
        crate::core::sources::c_project::project_macros(
            crate::core::syntax::CMacros::new(&macros.concat()),
            &self.root,
            crate::core::walk::WalkPatterns::from_settings(&self.settings),
            crate::core::walk::ReadPolicy::from_settings(&self.settings),
        )
    }

    /// The settings as [`trust::resolve`] gives them, with what it left out
    /// (and the resource bounds held as [`bounds::clamp_raised`] holds them).
    pub fn resolve(&self) -> trust::Resolved {
        self.resolve_bounded().0
    }

    /// [`Project::resolve`], with the note of a bound the project file
    /// tried to raise.
    fn resolve_bounded(&self) -> (trust::Resolved, Option<String>) {
        // The personal keys are never guarded: over the project's layer,
        // they change nothing a consent covers.
        let mut layer = self.file.project.table().clone();
        for (key, value) in self.file.personal.table() {
            layer.insert(key.clone(), value.clone());
        }
        let mut resolved = trust::resolve(
            &crate::core::model::SettingsLayer::from_table(layer),
            &self.global.project,
            self.consent.as_ref(),
            &self.root,
        );
        resolved.explain_lapse(&self.consented);
        let note = bounds::clamp_raised(&mut resolved.settings, &self.global.project, &self.path);
        (resolved, note)
    }

    /// The user added `files` themselves (`ctxcurate add`, Space in the
    /// TUI): their own choice in this checkout, recorded in the trust
    /// store so that a project preset's entry to one of them (a credential
    /// or ignored file) is read from now on. Only the files that need
    /// consent now are recorded, each for what it leads to
    /// (`trust::entries::needing_consent`). Without a store, nothing is
    /// recorded and the entries stay held.
    pub fn allow_own(&mut self, files: &[String]) -> Result<(), trust::TrustError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let new = trust::entries::needing_consent(
            &self.root,
            files,
            self.allowed.clone(),
            &crate::core::walk::WalkPatterns::from_settings(&self.settings),
        );
        if new.is_empty() {
            return Ok(());
        }
        store.allow(&self.root, new.iter().map(String::as_str))?;
        std::sync::Arc::make_mut(&mut self.allowed).extend(new);
        Ok(())
    }

    /// What a composition of the preset `name` may take from its explicit
    /// entries: everything for the user's own (global) preset; for a
    /// project preset, held entries only when allowed in this checkout
    /// (see `core::trust::entries`). A preset that does not exist yet is
    /// taken as a project preset (its entries will be the project's).
    pub fn entry_consent(&self, name: &str) -> trust::entries::EntryConsent {
        match self.preset(name) {
            Some((_, Scope::Global)) => trust::entries::EntryConsent::own(),
            _ => trust::entries::EntryConsent::project(
                self.allowed.clone(),
                self.settings.allow_outside_root,
            ),
        }
    }

    /// Whether `ctxcurate.toml` exists (a new project has none until saved).
    pub fn exists_on_disk(&self) -> bool {
        self.path.is_file()
    }

    /// Every preset name, sorted, with where it is defined; a project
    /// preset hides a global one of the same name.
    pub fn preset_names(&self) -> Vec<(String, Scope)> {
        let mut names: Vec<(String, Scope)> = self
            .file
            .presets
            .keys()
            .map(|name| (name.clone(), Scope::Project))
            .collect();
        names.extend(
            self.global
                .presets
                .keys()
                .filter(|name| !self.file.presets.contains_key(*name))
                .map(|name| (name.clone(), Scope::Global)),
        );
        names.sort_by(|a, b| a.0.cmp(&b.0));
        names
    }

    /// The preset called `name`, project first, then global.
    pub fn preset(&self, name: &str) -> Option<(&Preset, Scope)> {
        if let Some(p) = self.file.presets.get(name) {
            return Some((p, Scope::Project));
        }
        self.global.presets.get(name).map(|p| (p, Scope::Global))
    }

    /// The error for `name`, which names no preset: with the nearest
    /// name and the list (see [`PresetHint`]), for every front end.
    pub fn no_such_preset(&self, name: &str) -> ProjectError {
        let names: Vec<String> = self.preset_names().into_iter().map(|(n, _)| n).collect();
        ProjectError::NoSuchPreset(name.to_owned(), PresetHint::new(name, &names))
    }

    /// The name of the active preset (it may not exist yet).
    pub fn active_preset_name(&self) -> &str {
        &self.settings.active_preset
    }

    /// A copy of the active preset; empty if it does not exist yet.
    pub fn active_preset(&self) -> Preset {
        self.preset(self.active_preset_name())
            .map(|(p, _)| p.clone())
            .unwrap_or_default()
    }

    /// The active preset, for editing, in the project file: a global preset
    /// is copied in first, a missing one is created empty.
    pub fn active_preset_mut(&mut self) -> &mut Preset {
        let name = self.settings.active_preset.clone();
        self.preset_mut(&name)
    }

    /// The preset `name`, for editing, in the project file: a global preset
    /// of that name is copied in first, a missing one is created empty.
    pub fn preset_mut(&mut self, name: &str) -> &mut Preset {
        if !self.file.presets.contains_key(name)
            && let Some(mine) = self.global.presets.get(name)
        {
            // The copy's entries are the user's own (their global
            // config), not the repository's: they stay allowed in this
            // checkout (`core::trust::entries`). Without a store they are
            // held, the safe side.
            let own: Vec<String> = mine.files.iter().map(|e| e.path.clone()).collect();
            let _ = self.allow_own(&own);
        }
        let global = &self.global.presets;
        self.file
            .presets
            .entry(name.to_string())
            .or_insert_with_key(|name| global.get(name).cloned().unwrap_or_default())
    }

    /// The preset `name` for an edit: created in the project file (copied
    /// from the global config, or empty) when there is none, and then only
    /// under a name [`check_preset_name`] allows.
    pub fn preset_to_edit(&mut self, name: &str) -> Result<&mut Preset, ProjectError> {
        if self.preset(name).is_none() {
            check_name(name)?;
        }
        Ok(self.preset_mut(name))
    }

    /// Make `name` the active preset: the user's own choice (the personal
    /// layer), never written to the project file.
    pub fn apply(&mut self, name: &str) -> Result<(), ProjectError> {
        if self.preset(name).is_none() {
            return Err(self.no_such_preset(name));
        }
        self.set_active(name);
        Ok(())
    }

    /// Copy the active preset to a new project preset `name` and make that
    /// the active one (for this user: see [`Project::apply`]).
    pub fn save_as(&mut self, name: &str) -> Result<(), ProjectError> {
        check_name(name)?;
        if self.preset(name).is_some() {
            return Err(ProjectError::PresetExists(name.to_owned()));
        }
        let copy = self.active_preset();
        self.file.presets.insert(name.to_owned(), copy);
        self.set_active(name);
        Ok(())
    }

    /// Rename the project preset `old` to `new`, which must not name any
    /// preset yet; the active preset follows the rename.
    pub fn rename(&mut self, old: &str, new: &str) -> Result<(), ProjectError> {
        self.check_project_preset(old)?;
        check_name(new)?;
        if old == new {
            return Ok(());
        }
        if self.preset(new).is_some() {
            return Err(ProjectError::PresetExists(new.to_owned()));
        }
        if let Some(preset) = self.file.presets.remove(old) {
            self.file.presets.insert(new.to_owned(), preset);
        }
        // The team's default follows a rename of the team's preset, as
        // the user's own choice does.
        if self.file.project.get_str("active_preset") == Some(old) {
            self.file.project.set("active_preset", new);
        }
        self.refresh_settings();
        if self.active_preset_name() == old {
            self.set_active(new);
        }
        Ok(())
    }

    /// Delete the project preset `name`. If it was active (the user's
    /// choice, or the team's default), that becomes [`DEFAULT_PRESET`]. A
    /// global preset of the same name becomes visible again.
    pub fn delete(&mut self, name: &str) -> Result<(), ProjectError> {
        self.check_project_preset(name)?;
        self.file.presets.remove(name);
        if name != DEFAULT_PRESET {
            if self.file.project.get_str("active_preset") == Some(name) {
                self.file.project.set("active_preset", DEFAULT_PRESET);
            }
            self.refresh_settings();
            if self.active_preset_name() == name {
                self.set_active(DEFAULT_PRESET);
            }
        }
        Ok(())
    }

    /// The entries of `preset` that name a single file (not a glob) which
    /// does not exist under the root, in preset order.
    pub fn missing_files(&self, preset: &Preset) -> Vec<String> {
        preset
            .files
            .iter()
            .map(|item| item.path.as_str())
            .filter(|path| !crate::core::walk::is_glob(path) && !self.root.join(path).exists())
            .map(str::to_owned)
            .collect()
    }

    fn set_active(&mut self, name: &str) {
        self.file.personal.set("active_preset", name);
        self.refresh_settings();
    }

    fn check_project_preset(&self, name: &str) -> Result<(), ProjectError> {
        match self.preset(name) {
            Some((_, Scope::Project)) => Ok(()),
            Some((_, Scope::Global)) => Err(ProjectError::GlobalPreset(name.to_owned())),
            None => Err(self.no_such_preset(name)),
        }
    }
}

/// A preset name needs a visible character and no control characters (it
/// is shown on one line in the picker and the status line).
fn check_name(name: &str) -> Result<(), ProjectError> {
    check_preset_name(name)
}

/// The most characters of a preset name (one key a person picks).
pub const MAX_PRESET_NAME_CHARS: usize = 128;

/// Whether `name` may name a new preset: a visible character, at most
/// [`MAX_PRESET_NAME_CHARS`], and none that the terminal escaping would
/// show as an escape ([`needs_escape`]: controls, bidi controls such as
/// U+202E, and the invisible Default_Ignorable and Cf characters), so a
/// name reads as what it is wherever it is shown. Every front end that
/// makes a preset asks this (MCP's `set_mode` made ones `save_preset`
/// refused).
pub fn check_preset_name(name: &str) -> Result<(), ProjectError> {
    if name.trim().is_empty()
        || name.chars().any(needs_escape)
        || name.chars().count() > MAX_PRESET_NAME_CHARS
    {
        let cut: String = name.chars().take(64).collect();
        let mut shown = escape_line(&cut).into_owned();
        if cut.len() < name.len() {
            shown.push('…');
        }
        return Err(ProjectError::InvalidPresetName(shown));
    }
    Ok(())
}

/// The most unknown keys of one file named one by one; the rest are
/// counted in one line (a file of 500,000 made as many warnings).
const MAX_UNKNOWN_KEY_WARNINGS: usize = 20;

/// One warning per unknown key of the file at `path`, up to
/// [`MAX_UNKNOWN_KEY_WARNINGS`], then one for the rest.
fn unknown_key_warnings(path: &Path, keys: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut more = 0usize;
    for key in keys {
        if out.len() < MAX_UNKNOWN_KEY_WARNINGS {
            out.push(format!("{}: unknown key {key}", path.display()));
        } else {
            more += 1;
        }
    }
    if more > 0 {
        out.push(format!("{}: and {more} more unknown keys", path.display()));
    }
    out
}
