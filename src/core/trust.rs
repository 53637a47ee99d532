//! Trust: which settings a project file may set on its own, and the
//! remembered consent that lets it set the rest (docs/ARCHITECTURE.md, "Invariants").
//!
//! A `ctxcurate.toml` often comes from a repository the user just cloned,
//! so it is data, never a command. The settings in [`GUARDED`] run a
//! program or reach outside the project; a project file's value for one of
//! them takes effect only when the user has consented, direnv-style, with
//! `ctxcurate trust`: the [`fingerprint`] (SHA-256) of exactly those values
//! is recorded for the project's canonical path in a [`TrustStore`] under
//! the user's state directory. Any change to them needs consent again.
//! Until then they are dropped (the global config's value or the default
//! applies: built-in summaries, output inside the root) and the user is
//! told how to trust. The global config is the user's own file and is
//! always honoured.
//!
//! A consent covers content as well as values: a command that names a
//! script inside the root is consented to with that script's hash
//! (`trust/scripts.rs`), so a checkout replaced at the same path needs
//! consent again. The same record holds the explicit preset entries the
//! user allowed in this checkout (`trust/entries.rs`): a project preset's
//! entries to credential files, version control folders and ignored
//! files are held back until then.
//!
//! [`resolve`] is the one place settings are resolved from the layers;
//! `Project::refresh_settings` calls it, and both the CLI and the TUI read
//! the settings from the `Project`.

pub mod entries;
mod git_env;
mod imports;
pub mod one_scan;
mod php_ini;
pub mod scripts;
mod shell_globs;
mod tasks;
mod unknown;

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::core::model::{CommandLine, Settings, SettingsLayer};
use crate::core::tokens::hex;

/// A `[project]` key a project file may set only with consent, and when a
/// value of it needs that consent.
#[derive(Debug, Clone, Copy)]
pub struct Guarded {
    /// The key in `[project]`.
    pub key: &'static str,
    /// What a value that needs consent would do, for the user.
    pub why: &'static str,
    /// Whether this value needs consent (values that cannot do harm, such
    /// as an `output_dir` inside the root, do not).
    pub needs_consent: fn(&toml::Value) -> bool,
    /// The value is a command: the scripts it names inside the root are
    /// part of what is consented to (their content, see `trust/scripts.rs`).
    pub runs: bool,
}

/// Every guarded setting. A new setting that runs a program or reaches
/// outside the project is one more line here.
pub const GUARDED: &[Guarded] = &[
    Guarded {
        key: "summary_command",
        why: "runs a program",
        needs_consent: names_a_program,
        runs: true,
    },
    Guarded {
        key: "allow_outside_root",
        why: "reads files outside the project",
        needs_consent: is_true,
        runs: false,
    },
    Guarded {
        key: "output_dir",
        why: "writes outside the project",
        needs_consent: dir_leaves_root,
        runs: false,
    },
    Guarded {
        key: "namespace",
        why: "writes outside the project",
        needs_consent: dir_leaves_root,
        runs: false,
    },
];

/// What `ctxcurate trust` prints and records for a project.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The project file's values that need consent, in [`GUARDED`] order.
    pub values: Vec<(&'static Guarded, toml::Value)>,
    /// The scripts inside the root that those values name, with their
    /// content's hash (filled by [`Pending::at`]), and the files they
    /// run (what a script imports or sources inside the root).
    pub scripts: Vec<(&'static Guarded, scripts::Script)>,
    /// Where those scripts' imports were looked for, with what was there
    /// (`tools/json: nothing`): a file appearing there withdraws consent.
    pub places: Vec<(&'static Guarded, String)>,
    /// Words of a command that the shell expands into file names: a
    /// command with any is never trusted ([`Pending::consentable`]).
    pub patterns: Vec<(&'static Guarded, String)>,
}

impl Pending {
    /// The values of `layer` (a project file's `[project]`) that need
    /// consent.
    pub fn of(layer: &SettingsLayer) -> Pending {
        let values = GUARDED
            .iter()
            .filter_map(|g| {
                let value = layer.get(g.key)?;
                (g.needs_consent)(value).then(|| (g, value.clone()))
            })
            .collect();
        Pending {
            values,
            scripts: Vec::new(),
            places: Vec::new(),
            patterns: Vec::new(),
        }
    }

    /// [`Pending::of`] for the project at `root`: with the scripts inside
    /// the root that a command value names.
    pub fn at(layer: &SettingsLayer, root: &Path) -> Pending {
        let mut pending = Pending::of(layer);
        for (g, v) in pending.values.iter().filter(|(g, _)| g.runs) {
            let covered = scripts::covered(root, v);
            pending
                .scripts
                .extend(covered.scripts.into_iter().map(|s| (*g, s)));
            pending
                .places
                .extend(covered.places.into_iter().map(|p| (*g, p)));
            pending
                .patterns
                .extend(covered.patterns.into_iter().map(|p| (*g, p)));
        }
        pending
    }

    /// Whether consent can be given: no command names files by a pattern
    /// the shell expands when it runs (a file added later would run
    /// unreviewed).
    pub fn consentable(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Why consent cannot be given, for the user: `None` when it can.
    pub fn refusal(&self) -> Option<String> {
        let (g, first) = self.patterns.first()?;
        if first == scripts::TOO_MANY_TASKS {
            return Some(format!(
                "{} {}: too much to review, so it cannot be trusted; run \
                 the tool it ends up running directly",
                g.key,
                tasks_past_bounds()
            ));
        }
        if first == scripts::TOO_MANY_WORDS {
            return Some(format!(
                "{} runs more than {} distinct words or a line over 64 KiB (with the lines \
                 its tasks run): too much to review, so it cannot be trusted; shorten it",
                g.key,
                scripts::MAX_LOOKED_UP_WORDS
            ));
        }
        if first == imports::TOO_MUCH {
            return Some(format!(
                "{} runs, through what its scripts import, more project files (or more imports \
                 in one file) than are read for a review: too much to review, so it cannot be \
                 trusted; run a smaller script",
                g.key
            ));
        }
        if let Some(why) = first.strip_prefix(unknown::MARK) {
            return Some(format!(
                "{} {why}: what runs is decided only as it runs, after any review, so it \
                 cannot be trusted; name each file it runs exactly",
                g.key
            ));
        }
        Some(format!(
            "{} names files by a pattern (`{first}`) that the shell expands when it runs, \
             so a file added later would run without review: name each file exactly",
            g.key
        ))
    }

    /// Nothing needs consent.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The SHA-256 of the values, each as `key=<canonical JSON>`: what a
    /// consent is recorded for.
    pub fn fingerprint(&self) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update(b"ctxcurate trust v1\n");
        for (g, value) in &self.values {
            let json = serde_json::to_string(value).unwrap_or_default();
            hash.update(g.key.as_bytes());
            hash.update(b"=");
            hash.update(json.as_bytes());
            hash.update(b"\n");
        }
        // Without scripts this is the fingerprint of the first version,
        // so a consent given before scripts were hashed still holds.
        for (g, script) in &self.scripts {
            let content = script
                .hash
                .map_or_else(|| "unreadable".to_string(), |h| hex(&h));
            let path = serde_json::to_string(&script.path).unwrap_or_default();
            hash.update(format!("{} script {path} {content}\n", g.key).as_bytes());
        }
        for (g, place) in &self.places {
            let place = serde_json::to_string(place).unwrap_or_default();
            hash.update(format!("{} place {place}\n", g.key).as_bytes());
        }
        hash.finalize().into()
    }

    /// What the fingerprint covers, one line each (tab-separated, paths
    /// as JSON strings): each value (by the start of its hash), each
    /// script with its content's hash, each place looked at with what
    /// was there. Kept beside a consent so that when it lapses the user
    /// is told which of them changed ([`lapsed_by`]).
    pub fn items(&self) -> Vec<String> {
        let mut items = Vec::new();
        for (g, value) in &self.values {
            let json = serde_json::to_string(value).unwrap_or_default();
            let hash = hex(&Sha256::digest(json.as_bytes())[..8]);
            items.push(format!("value\t{}\t{hash}", g.key));
        }
        for (_, script) in &self.scripts {
            let content = script
                .hash
                .map_or_else(|| "unreadable".to_string(), |h| hex(&h));
            let path = serde_json::to_string(&script.path).unwrap_or_default();
            items.push(format!("script\t{path}\t{content}"));
        }
        for (_, place) in &self.places {
            let place = serde_json::to_string(place).unwrap_or_default();
            items.push(format!("place\t{place}"));
        }
        items
    }

    /// The fingerprint a consent had before it covered what the scripts
    /// run (the values and the scripts the commands name, nothing else).
    fn named_only_fingerprint(&self) -> [u8; 32] {
        let named = Pending {
            scripts: self
                .scripts
                .iter()
                .filter(|(_, s)| s.named)
                .cloned()
                .collect(),
            places: Vec::new(),
            ..self.clone()
        };
        named.fingerprint()
    }

    /// The fingerprint of the values alone: a consent's before scripts
    /// were hashed (and still the whole of it when no command names one).
    fn values_only_fingerprint(&self) -> [u8; 32] {
        Pending {
            scripts: Vec::new(),
            places: Vec::new(),
            ..self.clone()
        }
        .fingerprint()
    }

    /// The scripts' paths for a message: the first three, then how many
    /// more.
    fn script_list(&self) -> String {
        let paths: Vec<&str> = self.scripts.iter().map(|(_, s)| s.path.as_str()).collect();
        let mut list = paths.iter().take(3).copied().collect::<Vec<_>>().join(", ");
        if paths.len() > 3 {
            list.push_str(&format!(", and {} more", paths.len() - 3));
        }
        list
    }

    /// What the scripts run inside the project besides themselves: the
    /// first file they import or source, or the first place a module they
    /// import is shadowed or leads out. `None` when nothing does, and
    /// then a consent to the scripts alone covers all that runs.
    fn runs_besides_named(&self) -> Option<String> {
        let file = self.scripts.iter().find(|(_, s)| !s.named);
        if let Some((_, s)) = file {
            return Some(s.path.clone());
        }
        self.places
            .iter()
            // An empty listing (no compiled file, no `__init__` extension)
            // is nothing there too.
            .find(|(_, p)| {
                !p.ends_with(": nothing")
                    && !p.ends_with(": ")
                    && !p.contains(imports::PYTHON_FINDS)
            })
            .map(|(_, p)| p.clone())
    }

    /// One `key = value` line per value (TOML inline syntax; the caller
    /// escapes it for a terminal: it is the repository's text).
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .values
            .iter()
            .map(|(g, v)| format!("{} = {v}   ({})", g.key, g.why))
            .collect();
        for (g, script) in &self.scripts {
            let content = script
                .hash
                .map_or_else(|| "unreadable".to_string(), |h| hex(&h[..8]));
            lines.push(format!(
                "  runs {} (content sha256 {content}…; {} needs consent again when it changes)",
                script.path, g.key
            ));
        }
        let empty = self
            .places
            .iter()
            .filter(|(_, p)| p.ends_with(": nothing"))
            .count();
        if empty > 0 {
            lines.push(format!(
                "  and {empty} {} where a new file would shadow a module the scripts import \
                 (consent is needed again if one appears)",
                if empty == 1 { "place" } else { "places" }
            ));
        }
        for (g, place) in &self.places {
            // A linked work tree's repository config, which git reads.
            if let Some((file, hash)) = place.split_once(tasks::OUTSIDE_READ) {
                let content = match hash == tasks::NOTHING_THERE {
                    true => "no file there now".to_string(),
                    false => format!("content sha256 {}…", hash.get(..16).unwrap_or(hash)),
                };
                lines.push(format!(
                    "  reads {file} (git's config, outside the project; {content}; {} needs \
                     consent again when it changes)",
                    g.key
                ));
            }
            if let Some((folder, _)) = place.split_once(imports::PYTHON_FINDS) {
                let folder = place_name(folder);
                lines.push(format!(
                    "  and the modules in {folder} (Python finds a module there before any \
                     other; consent is needed again if one appears)"
                ));
            }
            // What make's rules remake from, and the links leading out
            // (recheck 26: they were covered but not shown).
            if place.starts_with("make: ") || place.contains(": a link to ") {
                lines.push(format!(
                    "  and {place} ({} needs consent again when it changes)",
                    g.key
                ));
            }
        }
        for (g, pattern) in &self.patterns {
            if pattern == scripts::TOO_MANY_TASKS {
                lines.push(format!(
                    "  {} {} (cannot be trusted)",
                    g.key,
                    tasks_past_bounds()
                ));
                continue;
            }
            if pattern == scripts::TOO_MANY_WORDS {
                lines.push(format!(
                    "  {} runs more than {} distinct words or a line over 64 KiB \
                     (cannot be trusted; shorten it)",
                    g.key,
                    scripts::MAX_LOOKED_UP_WORDS
                ));
                continue;
            }
            if let Some(why) = pattern.strip_prefix(unknown::MARK) {
                lines.push(format!(
                    "  {} {why} (cannot be trusted; name each file it runs)",
                    g.key
                ));
                continue;
            }
            lines.push(format!(
                "  {} names files by a pattern: {pattern} (cannot be trusted; name each file)",
                g.key
            ));
        }
        lines
    }
}

/// Shorthand for [`Pending::at`]`(layer, root).fingerprint()`.
pub fn fingerprint_at(layer: &SettingsLayer, root: &Path) -> [u8; 32] {
    Pending::at(layer, root).fingerprint()
}

/// [`Pending::of`]`(layer).fingerprint()`: the fingerprint of the values
/// alone, which is the whole of it when they name no script in the root.
pub fn fingerprint(layer: &SettingsLayer) -> [u8; 32] {
    Pending::of(layer).fingerprint()
}

/// Where the project's guarded settings stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The project file sets nothing that needs consent.
    NothingToTrust,
    /// It does, and the user consented to exactly these values.
    Trusted,
    /// It does, and the user never consented.
    Untrusted,
    /// It does, and the user consented to other values (they changed).
    Changed,
}

/// Settings resolved from the layers, and what was left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub settings: Settings,
    pub standing: Standing,
    /// The guarded keys whose project value was dropped.
    pub ignored: Vec<&'static str>,
    /// Keys whose value does not fit the setting (only possible for a
    /// layer changed in memory: files are checked when loaded); left out.
    pub invalid: Vec<String>,
    /// Why the guarded values cannot be trusted as they are
    /// ([`Pending::refusal`]).
    pub refusal: Option<String>,
    /// The consent was given to the commands' scripts alone (before
    /// consent covered what they run), and they now run this file of the
    /// project too: why it is asked again.
    pub widened: Option<String>,
    /// What the consent covers now ([`Pending::items`]).
    pub covered: Vec<String>,
    /// Which of what the consent covered changed, when the project
    /// keeps what it covered ([`Resolved::explain_lapse`]).
    pub lapsed: Option<String>,
    /// The consent was to the values alone (the first records, before
    /// scripts were hashed), and the commands now run these files of the
    /// project: why it is asked again.
    pub values_only: Option<String>,
    /// The consent lapsed and its record, from an earlier version, keeps
    /// no list of what it covered ([`Resolved::explain_lapse`]).
    pub earlier_record: bool,
}

impl Resolved {
    /// The one-line warning for the user, if something was dropped.
    pub fn warning(&self, project_file: &Path) -> Option<String> {
        if !self.invalid.is_empty() {
            return Some(format!(
                "{}: ignoring {} (a value that does not fit the setting)",
                project_file.display(),
                self.invalid.join(", ")
            ));
        }
        if self.ignored.is_empty() {
            return None;
        }
        if let Some(refusal) = &self.refusal {
            return Some(format!(
                "{}: ignoring {} ({refusal})",
                project_file.display(),
                self.ignored.join(", "),
            ));
        }
        let mut todo = "review and allow with `ctxcurate trust`";
        let why = match (&self.widened, self.standing) {
            (Some(file), _) => format!(
                "your consent covered the command's scripts alone; consent now also covers \
                 the project files they import or source ({file})"
            ),
            (None, Standing::Changed) => {
                let again = "run `ctxcurate trust` again to review what it covers now";
                match (&self.lapsed, &self.values_only) {
                    (Some(what), _) => format!("changed since you trusted this project: {what}"),
                    (None, Some(files)) => {
                        todo = again;
                        let keys = &self.ignored;
                        format!(
                            "your consent covered the {} of {} alone; consent now also covers \
                             the files {} runs: {files}",
                            if keys.len() == 1 { "value" } else { "values" },
                            keys.join(", "),
                            if keys.len() == 1 { "it" } else { "they" },
                        )
                    }
                    (None, None) if self.earlier_record => {
                        todo = again;
                        "changed since you trusted this project; your consent was recorded \
                         by an earlier ctxcurate, which kept no list of what it covered"
                            .to_string()
                    }
                    (None, None) => "changed since you trusted this project".to_string(),
                }
            }
            (None, _) => "this project is not trusted".to_string(),
        };
        Some(format!(
            "{}: ignoring {} ({why}; built-in summaries, nothing read or written \
             outside the project): {todo}",
            project_file.display(),
            self.ignored.join(", "),
        ))
    }
}

/// Project over global over embedded defaults (merged as tables and
/// deserialized once, see [`Settings::merge`]), with the project's guarded
/// values kept only when `consent` is the fingerprint of exactly them (and
/// of the scripts they name inside `root`).
pub fn resolve(
    project: &SettingsLayer,
    global: &SettingsLayer,
    consent: Option<&[u8; 32]>,
    root: &Path,
) -> Resolved {
    let pending = Pending::at(project, root);
    // A consent from before consent covered what scripts run was to the
    // values and the named scripts alone: it still covers all that runs
    // while no other file of the project does.
    let named_only = consent.filter(|c| **c == pending.named_only_fingerprint());
    let besides = named_only.and_then(|_| pending.runs_besides_named());
    // A consent from before scripts were hashed was to the values alone.
    let values_only = consent
        .filter(|c| !pending.scripts.is_empty() && **c == pending.values_only_fingerprint())
        .map(|_| pending.script_list());
    let standing = match consent {
        _ if pending.is_empty() => Standing::NothingToTrust,
        Some(c) if *c == pending.fingerprint() && pending.consentable() => Standing::Trusted,
        Some(_) if named_only.is_some() && besides.is_none() && pending.consentable() => {
            Standing::Trusted
        }
        Some(_) => Standing::Changed,
        None => Standing::Untrusted,
    };
    let (layer, ignored) = match standing {
        Standing::Untrusted | Standing::Changed => {
            let keys: Vec<&'static str> = pending.values.iter().map(|(g, _)| g.key).collect();
            (without(project, &keys), keys)
        }
        Standing::NothingToTrust | Standing::Trusted => (project.clone(), Vec::new()),
    };
    let (mut settings, invalid) = Settings::merge(&[global, &layer]);
    // What is left of an output location that leaves the root came from
    // the global config or a trusted project file.
    settings.output_outside_root = output_leaves_root(&settings.output_dir, &settings.namespace);
    // A command the project file sets (and the user trusted) wins over
    // the global one; it alone may count on the project as its folder.
    settings.summary_command_from_project =
        layer.get("summary_command").is_some_and(names_a_program);
    Resolved {
        settings,
        standing,
        ignored,
        invalid,
        refusal: pending.refusal(),
        widened: besides.filter(|_| standing == Standing::Changed),
        covered: pending.items(),
        lapsed: None,
        values_only: values_only.filter(|_| standing == Standing::Changed),
        earlier_record: false,
    }
}

impl Resolved {
    /// Say which of `consented` (the items a consent was given for, as
    /// the trust record keeps them) changed, when the consent lapsed.
    /// An empty `consented` is a record from before the items were kept
    /// ([`Resolved::earlier_record`]).
    pub fn explain_lapse(&mut self, consented: &[String]) {
        if self.standing != Standing::Changed {
            return;
        }
        if consented.is_empty() {
            self.earlier_record = self.widened.is_none() && self.values_only.is_none();
        } else {
            self.lapsed = lapsed_by(consented, &self.covered);
        }
    }
}

/// What changed between the items a consent covered (`before`) and what
/// it would cover now (`now`), for the user: `tools/helper.py changed`,
/// `tools/json.py is new where a module is looked for`, at most three,
/// then how many more. `None` when nothing differs.
pub fn lapsed_by(before: &[String], now: &[String]) -> Option<String> {
    /// (kind, name, state) of one item.
    fn parse(item: &str) -> Option<(&str, String, String)> {
        let mut parts = item.split('\t');
        let kind = parts.next()?;
        let name = parts.next()?;
        let state = parts.next().unwrap_or_default().to_string();
        match kind {
            "value" => Some((kind, name.to_string(), state)),
            "script" => Some((kind, serde_json::from_str(name).ok()?, state)),
            "place" => {
                let place: String = serde_json::from_str(name).ok()?;
                let (at, what) = place.rsplit_once(": ")?;
                Some((kind, at.to_string(), what.to_string()))
            }
            _ => None,
        }
    }
    let index = |items: &[String]| -> std::collections::BTreeMap<(String, String), String> {
        items
            .iter()
            .filter_map(|i| parse(i))
            .map(|(k, n, s)| ((k.to_string(), n), s))
            .collect()
    };
    let (old, new) = (index(before), index(now));
    let mut changes = Vec::new();
    // A script folder's modules, less precise than the places: last.
    let mut listings = Vec::new();
    // A place newly looked at with nothing there follows from another
    // change (a new `.pth` file's imports): after those.
    let mut looked_at = Vec::new();
    let finds = imports::PYTHON_FINDS.trim_start_matches(": ");
    for ((kind, name), state) in &new {
        let was = old.get(&(kind.clone(), name.clone()));
        if let (Some(was), Some(names)) = (was, state.strip_prefix(finds)) {
            let before: BTreeSet<&str> = was.trim_start_matches(finds).split(' ').collect();
            let added: Vec<&str> = names.split(' ').filter(|n| !before.contains(n)).collect();
            if let Some(first) = added.first() {
                listings.push(format!(
                    "{first} is new in {}, where Python looks first",
                    place_name(name)
                ));
                continue;
            }
        }
        let place = place_name(name);
        let change = match (kind.as_str(), was) {
            (_, Some(was)) if was == state => continue,
            ("value", _) => format!("the value of {name} changed"),
            ("script", Some(_)) => format!("{name} changed"),
            ("script", None) => format!("{name} is new to what the command runs"),
            ("place", None) if state == "nothing" => {
                looked_at.push(format!("{place} is newly looked at"));
                continue;
            }
            ("place", None) if state.starts_with(finds) => {
                format!("Python now looks first in {place} ({state})")
            }
            (_, Some(was)) => format!(
                "{place} was {}, now {}",
                listing_shown(was),
                listing_shown(state)
            ),
            (_, None) => format!("{place} is now {}", listing_shown(state)),
        };
        changes.push(change);
    }
    for (kind, name) in old.keys() {
        if !new.contains_key(&(kind.clone(), name.clone())) {
            changes.push(match kind.as_str() {
                "value" => format!("{name} is no longer set"),
                _ => format!("{name} is no longer there"),
            });
        }
    }
    changes.extend(listings);
    changes.extend(looked_at);
    let more = changes.len().saturating_sub(3);
    changes.truncate(3);
    let mut text = changes.join("; ");
    if more > 0 {
        text.push_str(&format!("; and {more} more"));
    }
    (!text.is_empty()).then_some(text)
}

/// A place's folder as the user reads it: the root's (`/`, or empty) is
/// "the project root", not the filesystem's.
fn place_name(name: &str) -> &str {
    match name {
        "" | "/" => "the project root",
        name => name,
    }
}

/// A place's state as the user reads it: a listing with no names
/// (`.pth files `, or nothing at all) says "none".
fn listing_shown(state: &str) -> String {
    if state.is_empty() {
        return "(none)".to_string();
    }
    match state.strip_suffix(' ') {
        Some(head) if head.ends_with("files") || head.ends_with("programs") => {
            format!("{head} (none)")
        }
        _ => state.to_string(),
    }
}

/// `layer` without `keys`: the trusted-only keys stripped from the table,
/// so a new guarded key needs no code here.
fn without(layer: &SettingsLayer, keys: &[&str]) -> SettingsLayer {
    let mut layer = layer.clone();
    for key in keys {
        layer.remove(key);
    }
    layer
}

fn names_a_program(value: &toml::Value) -> bool {
    // Anything that is not an empty command counts, even a value of the
    // wrong shape: the safe side.
    value
        .clone()
        .try_into::<CommandLine>()
        .map_or(true, |c| c.argv().is_some())
}

fn is_true(value: &toml::Value) -> bool {
    value.as_bool() != Some(false)
}

/// For `output_dir`, and for `namespace` too: a namespace that does not
/// climb out on its own cannot take a folder inside the root out of it.
fn dir_leaves_root(value: &toml::Value) -> bool {
    value.as_str().is_none_or(|dir| climbs_out(Path::new(dir)))
}

/// Whether `{output_dir}/{namespace}_NNN.ext`, taken lexically from the
/// root, may end up outside it.
pub fn output_leaves_root(output_dir: &str, namespace: &str) -> bool {
    climbs_out(&Path::new(output_dir).join(format!("{namespace}_")))
}

/// `p` is absolute, or its `..` climb above where it starts.
fn climbs_out(p: &Path) -> bool {
    let mut depth = 0usize;
    for component in p.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            },
            Component::RootDir | Component::Prefix(_) => return true,
        }
    }
    // A backslash is a separator on Windows and a name elsewhere; treat a
    // `..\` as climbing everywhere so a file behaves the same on both.
    p.to_str()
        .is_none_or(|s| s.contains("..\\") || s.starts_with('\\'))
}

/// What can go wrong reading or writing a consent.
#[derive(Debug, Error)]
pub enum TrustError {
    #[error("no state directory: neither XDG_STATE_HOME nor HOME is set")]
    NoStateDir,
    #[error("cannot {op} the trust record {}", path.display())]
    Io {
        path: PathBuf,
        op: &'static str,
        source: io::Error,
    },
}

/// The consents of one user: one small file per project path under
/// `$XDG_STATE_HOME/ctxcurate/trust/` (default
/// `~/.local/state/ctxcurate/trust/`), named by the SHA-256 of the
/// project's canonical path and holding the fingerprint consented to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustStore {
    dir: PathBuf,
}

/// A record is a fingerprint line, the path and the allowed entries:
/// never more than this is read.
const RECORD_LIMIT: u64 = 1 << 20;

/// What the user consented to for one project path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// The fingerprint of the guarded settings ([`Pending::fingerprint`]).
    pub fingerprint: Option<[u8; 32]>,
    /// The explicit entries allowed in this checkout, as their
    /// [`entries::consent_key`]s (a link's target is part of it).
    pub allowed: BTreeSet<String>,
    /// What the consent covered ([`Pending::items`]), to say what changed
    /// when it lapses; empty in a record from before it was kept.
    pub covered: Vec<String>,
}

impl TrustStore {
    /// The store in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> TrustStore {
        TrustStore { dir: dir.into() }
    }

    /// The user's store: `$XDG_STATE_HOME/ctxcurate/trust` (an absolute
    /// XDG_STATE_HOME only, as the XDG spec says), else
    /// `$HOME/.local/state/ctxcurate/trust`.
    pub fn user() -> Result<TrustStore, TrustError> {
        Self::user_from(|name| std::env::var_os(name))
    }

    fn user_from(
        var: impl Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Result<TrustStore, TrustError> {
        let base = crate::core::paths::user_state_dir_from(var).ok_or(TrustError::NoStateDir)?;
        Ok(TrustStore::at(base.join("trust")))
    }

    /// The directory of the records.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The record file of the project at `root`.
    pub fn record_path(&self, root: &Path) -> PathBuf {
        let canonical = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let name = hex(&Sha256::digest(canonical.as_os_str().as_encoded_bytes()));
        self.dir.join(name)
    }

    /// The fingerprint consented to for `root`, if any. A malformed
    /// record is no consent.
    pub fn consent(&self, root: &Path) -> Result<Option<[u8; 32]>, TrustError> {
        Ok(self.record(root)?.fingerprint)
    }

    /// The explicit entries the user allowed for `root` (see
    /// [`entries`]).
    pub fn allowed(&self, root: &Path) -> Result<BTreeSet<String>, TrustError> {
        Ok(self.record(root)?.allowed)
    }

    /// Everything recorded for `root`: the first line is the fingerprint
    /// (`-` for none), the second the project's path, then one
    /// `allow "<path>"` line (a JSON string) per allowed entry. What does
    /// not parse is left out: no consent.
    pub fn record(&self, root: &Path) -> Result<Record, TrustError> {
        let path = self.record_path(root);
        let mut text = String::new();
        // Opened without waiting for a writer and checked to be a file: a
        // FIFO there hung every front end (sweep 13, ST1). What is not a
        // file is no consent, as what does not parse.
        match crate::core::io_bounds::open_regular(&path) {
            Ok((file, _)) => {
                // Not UTF-8 or too long: no consent.
                if file.take(RECORD_LIMIT).read_to_string(&mut text).is_err() {
                    return Ok(Record::default());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Record::default()),
            Err(e) if e.kind() == io::ErrorKind::Other => return Ok(Record::default()),
            Err(source) => {
                return Err(TrustError::Io {
                    path,
                    op: "read",
                    source,
                });
            }
        }
        let mut lines = text.lines();
        let fingerprint = lines.next().and_then(parse_hex);
        let rest: Vec<&str> = lines.skip(1).collect();
        let allowed = rest
            .iter()
            .filter_map(|l| l.strip_prefix("allow "))
            .filter_map(|json| serde_json::from_str::<String>(json).ok())
            .collect();
        let covered = rest
            .iter()
            .filter_map(|l| l.strip_prefix("covers "))
            .map(str::to_string)
            .collect();
        Ok(Record {
            fingerprint,
            allowed,
            covered,
        })
    }

    /// Record consent to `fingerprint` for `root` (the allowed entries
    /// stay).
    pub fn grant(&self, root: &Path, fingerprint: &[u8; 32]) -> Result<PathBuf, TrustError> {
        let mut record = self.record(root)?;
        record.fingerprint = Some(*fingerprint);
        record.covered.clear();
        self.write(root, &record)
    }

    /// Record consent to `pending` for `root`: its fingerprint, and what
    /// it covers ([`Pending::items`]) to say what changed when it lapses.
    pub fn grant_pending(&self, root: &Path, pending: &Pending) -> Result<PathBuf, TrustError> {
        let mut record = self.record(root)?;
        record.fingerprint = Some(pending.fingerprint());
        record.covered = pending.items();
        self.write(root, &record)
    }

    /// Allow the explicit entries `paths` (root-relative) for `root`, as
    /// `ctxcurate trust` does for a project's held entries and an edit of
    /// the user's own does for the file it adds.
    pub fn allow<'a>(
        &self,
        root: &Path,
        paths: impl IntoIterator<Item = &'a str>,
    ) -> Result<PathBuf, TrustError> {
        let mut record = self.record(root)?;
        let before = record.allowed.len();
        record.allowed.extend(paths.into_iter().map(str::to_owned));
        if record.allowed.len() == before {
            return Ok(self.record_path(root));
        }
        self.write(root, &record)
    }

    /// Write `record` for `root`, atomically (a temporary file in the
    /// store renamed over the record).
    fn write(&self, root: &Path, record: &Record) -> Result<PathBuf, TrustError> {
        let path = self.record_path(root);
        let io_err = |op: &'static str| {
            let path = path.clone();
            move |source| TrustError::Io { path, op, source }
        };
        fs::create_dir_all(&self.dir).map_err(io_err("create the directory of"))?;
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir).map_err(io_err("write"))?;
        let canonical = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut text = format!(
            "{}\n{}\n",
            record
                .fingerprint
                .as_ref()
                .map_or("-".to_string(), |f| hex(f)),
            // The path is for a person reading the store: one line.
            canonical.display().to_string().replace(['\n', '\r'], "?"),
        );
        for entry in &record.allowed {
            let json = serde_json::to_string(entry).unwrap_or_default();
            text.push_str(&format!("allow {json}\n"));
        }
        for item in &record.covered {
            // One line each (the items' paths are JSON strings).
            text.push_str(&format!("covers {}\n", item.replace(['\n', '\r'], "?")));
        }
        tmp.write_all(text.as_bytes()).map_err(io_err("write"))?;
        tmp.as_file().sync_all().map_err(io_err("write"))?;
        tmp.persist(&path).map_err(|e| io_err("write")(e.error))?;
        Ok(path)
    }

    /// Forget the consent for `root`; whether there was one.
    pub fn revoke(&self, root: &Path) -> Result<bool, TrustError> {
        let path = self.record_path(root);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(source) => Err(TrustError::Io {
                path,
                op: "remove",
                source,
            }),
        }
    }
}

fn parse_hex(line: &str) -> Option<[u8; 32]> {
    let line = line.trim();
    if line.len() != 64 || !line.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&line[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// What a command past the bounds of reading its tasks does, for the
/// user: `runs tasks past …`.
fn tasks_past_bounds() -> String {
    format!(
        "runs tasks past what can be read for review (more than {} task lines, {} goals, \
         {} makefiles or {} MiB of them, or tasks running tasks {} deep)",
        tasks::MAX_TASK_LINES,
        tasks::MAX_GOALS,
        tasks::MAX_MAKEFILES,
        tasks::MAX_MAKE_BYTES >> 20,
        tasks::MAX_TASK_DEPTH,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No scripts: a root that does not exist.
    const NO_ROOT: &str = "/nonexistent/ctxcurate-root";

    fn layer(src: &str) -> SettingsLayer {
        toml::from_str(src).unwrap()
    }

    #[test]
    fn only_harmful_values_need_consent() {
        let keys = |src: &str| -> Vec<&str> {
            Pending::of(&layer(src))
                .values
                .iter()
                .map(|(g, _)| g.key)
                .collect()
        };
        assert!(keys("budget = 5\noutput_dir = \"out/x\"\nnamespace = \"ctx\"\n").is_empty());
        assert!(keys("summary_command = \"\"\nallow_outside_root = false\n").is_empty());
        assert!(keys("summary_command = []\noutput_dir = \"a/../b\"\n").is_empty());
        assert_eq!(keys("summary_command = \"id\"\n"), ["summary_command"]);
        assert_eq!(keys("summary_command = [\"id\"]\n"), ["summary_command"]);
        assert_eq!(keys("allow_outside_root = true\n"), ["allow_outside_root"]);
        for dir in ["../../escape", "/tmp/x", "a/../../b", "..\\\\up"] {
            assert_eq!(
                keys(&format!("output_dir = '{dir}'\n")),
                ["output_dir"],
                "{dir}"
            );
        }
        assert_eq!(keys("namespace = \"../x\"\n"), ["namespace"]);
        assert_eq!(keys("namespace = \"..\\\\x\"\n"), ["namespace"]);
        assert!(keys("namespace = \"sub/ctx\"\n").is_empty());
    }

    #[test]
    fn untrusted_values_are_dropped_and_consent_is_per_value() {
        let project =
            layer("summary_command = \"id > pwned\"\nbudget = 7\nnamespace = \"../../../x\"\n");
        let global = layer("summary_timeout = 3\n");
        let untrusted = resolve(&project, &global, None, Path::new(NO_ROOT));
        assert_eq!(untrusted.standing, Standing::Untrusted);
        assert_eq!(untrusted.ignored, ["summary_command", "namespace"]);
        assert_eq!(untrusted.settings.summary_command.argv(), None);
        assert!(!untrusted.settings.summary_command_from_project);
        assert_eq!(untrusted.settings.namespace, "context");
        assert!(!untrusted.settings.output_outside_root);
        assert_eq!(untrusted.settings.budget, 7, "harmless keys stay");
        assert_eq!(untrusted.settings.summary_timeout, 3);
        assert!(
            untrusted
                .warning(Path::new("p/ctxcurate.toml"))
                .unwrap()
                .contains("ctxcurate trust")
        );

        let consent = fingerprint(&project);
        let trusted = resolve(&project, &global, Some(&consent), Path::new(NO_ROOT));
        assert_eq!(trusted.standing, Standing::Trusted);
        assert!(trusted.ignored.is_empty() && trusted.warning(Path::new("x")).is_none());
        assert_eq!(
            trusted.settings.summary_command.argv().unwrap()[2],
            "id > pwned"
        );
        assert!(trusted.settings.output_outside_root);
        assert!(trusted.settings.summary_command_from_project);

        let edited =
            layer("summary_command = \"id > pwned2\"\nbudget = 7\nnamespace = \"../../../x\"\n");
        let changed = resolve(&edited, &global, Some(&consent), Path::new(NO_ROOT));
        assert_eq!(changed.standing, Standing::Changed);
        assert_eq!(changed.settings.summary_command.argv(), None);
        // A harmless edit keeps the consent.
        let harmless =
            layer("summary_command = \"id > pwned\"\nbudget = 9\nnamespace = \"../../../x\"\n");
        assert_eq!(
            resolve(&harmless, &global, Some(&consent), Path::new(NO_ROOT)).standing,
            Standing::Trusted
        );
    }

    #[test]
    fn the_global_config_is_always_honoured() {
        let global = layer(
            "summary_command = \"llm\"\nallow_outside_root = true\noutput_dir = \"/tmp/ctx\"\n",
        );
        let r = resolve(&SettingsLayer::default(), &global, None, Path::new(NO_ROOT));
        assert_eq!(r.standing, Standing::NothingToTrust);
        assert!(r.settings.allow_outside_root && r.settings.output_outside_root);
        assert!(r.settings.summary_command.argv().is_some());
        assert!(
            !r.settings.summary_command_from_project,
            "the user's own command runs outside the checkout"
        );
    }

    #[test]
    fn store_grants_reads_and_revokes() {
        let state = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let store = TrustStore::at(state.path().join("trust"));
        assert_eq!(store.consent(project.path()).unwrap(), None);
        let fp = [7u8; 32];
        let record = store.grant(project.path(), &fp).unwrap();
        assert_eq!(store.consent(project.path()).unwrap(), Some(fp));
        let text = fs::read_to_string(&record).unwrap();
        assert!(text.starts_with(&hex(&fp)), "{text}");
        // Only the record is left in the store (the temporary was renamed).
        assert_eq!(fs::read_dir(store.dir()).unwrap().count(), 1);
        fs::write(&record, "not hex\n").unwrap();
        assert_eq!(store.consent(project.path()).unwrap(), None);
        assert!(store.revoke(project.path()).unwrap());
        assert!(!store.revoke(project.path()).unwrap());
    }

    /// A FIFO where the record goes is no consent, read without waiting
    /// for a writer (sweep 13, ST1: every front end hung on it); a grant
    /// replaces it.
    #[cfg(unix)]
    #[test]
    fn a_record_that_is_a_fifo_is_no_consent_and_never_waited_on() {
        use std::os::unix::ffi::OsStrExt;
        let state = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let store = TrustStore::at(state.path().join("trust"));
        let record = store.grant(project.path(), &[7u8; 32]).unwrap();
        fs::remove_file(&record).unwrap();
        let c = std::ffi::CString::new(record.as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(store.consent(project.path()).unwrap(), None);
        assert!(store.allowed(project.path()).unwrap().is_empty());
        store.grant(project.path(), &[8u8; 32]).unwrap();
        assert_eq!(store.consent(project.path()).unwrap(), Some([8u8; 32]));
    }

    #[test]
    fn allowed_entries_and_the_fingerprint_live_side_by_side() {
        let state = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let store = TrustStore::at(state.path().join("trust"));
        let root = project.path();
        store.allow(root, [".env", "odd\nname"]).unwrap();
        assert_eq!(store.consent(root).unwrap(), None, "no settings consent");
        store.grant(root, &[3u8; 32]).unwrap();
        store.allow(root, [".git/config"]).unwrap();
        let record = store.record(root).unwrap();
        assert_eq!(record.fingerprint, Some([3u8; 32]));
        assert_eq!(
            record
                .allowed
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            [".env", ".git/config", "odd\nname"]
        );
        assert!(store.revoke(root).unwrap());
        assert!(store.allowed(root).unwrap().is_empty());
    }

    #[test]
    fn a_changed_script_withdraws_the_consent() {
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        fs::create_dir_all(root.join("tools")).unwrap();
        fs::write(root.join("tools/sum.sh"), "cat\n").unwrap();
        let layer = layer("summary_command = \"./tools/sum.sh\"\n");
        let consent = fingerprint_at(&layer, root);
        let global = SettingsLayer::default();
        let r = resolve(&layer, &global, Some(&consent), root);
        assert_eq!(r.standing, Standing::Trusted);
        // Same setting, new script: the checkout was replaced.
        fs::write(root.join("tools/sum.sh"), "id > pwned\n").unwrap();
        let r = resolve(&layer, &global, Some(&consent), root);
        assert_eq!(r.standing, Standing::Changed);
        assert_eq!(r.settings.summary_command.argv(), None);
    }

    /// A consent given before consent covered what scripts import (the
    /// values and the named scripts alone) still holds while nothing else
    /// of the project runs: no file imported or sourced, no module
    /// shadowed. Once one is, consent is asked again, saying why.
    #[test]
    fn a_consent_from_before_imports_were_covered_holds_while_nothing_else_runs() {
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        fs::create_dir_all(root.join("tools")).unwrap();
        fs::write(
            root.join("tools/sum.py"),
            "import json, sys\nprint(sys.stdin.read())\n",
        )
        .unwrap();
        let layer = layer("summary_command = \"python3 tools/sum.py\"\n");
        // The fingerprint as it was made then: the values and the script.
        let content = scripts::hash_file(&root.join("tools/sum.py")).unwrap();
        let mut hash = Sha256::new();
        hash.update(b"ctxcurate trust v1\n");
        hash.update(b"summary_command=\"python3 tools/sum.py\"\n");
        hash.update(
            format!(
                "summary_command script \"tools/sum.py\" {}\n",
                hex(&content)
            )
            .as_bytes(),
        );
        let old: [u8; 32] = hash.finalize().into();
        assert_ne!(old, fingerprint_at(&layer, root), "places are covered now");
        let global = SettingsLayer::default();
        let r = resolve(&layer, &global, Some(&old), root);
        assert_eq!(r.standing, Standing::Trusted);
        assert!(r.warning(Path::new("ctxcurate.toml")).is_none());
        // A module that shadows `json` appears: asked again, saying why.
        fs::write(root.join("tools/json.py"), "import os\n").unwrap();
        let r = resolve(&layer, &global, Some(&old), root);
        assert_eq!(r.standing, Standing::Changed);
        assert_eq!(r.settings.summary_command.argv(), None);
        let warning = r.warning(Path::new("ctxcurate.toml")).unwrap();
        assert!(
            warning.contains(
                "your consent covered the command's scripts alone; consent now also covers \
                 the project files they import or source (tools/json.py)"
            ),
            "{warning}"
        );
        // An edited script is a change like any other.
        fs::remove_file(root.join("tools/json.py")).unwrap();
        fs::write(root.join("tools/sum.py"), "import os\nos.system('id')\n").unwrap();
        let r = resolve(&layer, &global, Some(&old), root);
        assert_eq!(r.standing, Standing::Changed);
        let warning = r.warning(Path::new("ctxcurate.toml")).unwrap();
        assert!(warning.contains("changed since you trusted"), "{warning}");
    }

    #[test]
    fn user_store_follows_xdg() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let at = |pairs| TrustStore::user_from(vars(pairs)).ok().map(|s| s.dir);
        assert_eq!(
            at(&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")]),
            Some("/s/ctxcurate/trust".into())
        );
        assert_eq!(
            at(&[("XDG_STATE_HOME", "rel"), ("HOME", "/h")]),
            Some("/h/.local/state/ctxcurate/trust".into())
        );
        assert_eq!(at(&[]), None);
    }
}
