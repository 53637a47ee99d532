//! Explicit entries of a project preset that reach the user's own
//! secrets, and the consent that lets a composition read them.
//!
//! A glob never brings in a credential file or an ignored one (the walk
//! and `walk::is_sensitive` see to that), but a preset may name any file.
//! A project file comes from the repository, so its explicit entries to a
//! credential file (`.env`, filled after cloning), a version control
//! folder (`.git/config`) or a file the walk leaves out (gitignored:
//! what the developer keeps to themselves) are held back until the user
//! consents, either with `ctxcurate trust` or by adding the file
//! themselves in this checkout (`ctxcurate add`, the TUI). Both are
//! recorded in the user's [`TrustStore`](super::TrustStore), never in the
//! repository. The user's own presets (the global config) are never held.
//!
//! A consent is for what the entry leads to, not for its name: it is
//! recorded under a [`consent_key`] that names the link's target too, so
//! a file a later pull swaps for a link to `.env` is judged again. Only
//! entries that need consent at the time are recorded ([`needing_consent`]):
//! adding an ordinary file records nothing.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::core::model::{FileItem, Preset};
use crate::core::walk::{self, WalkPatterns};

/// Why an explicit entry needs consent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A credential file ([`walk::is_sensitive`]), or a link to one
    /// (symbolic, or another name of the same file).
    Sensitive,
    /// Inside a version control folder ([`is_vcs_path`]), or a link there.
    Vcs,
    /// A file the walk leaves out (gitignored, or another ignore rule).
    Ignored,
    /// Outside the project (`../x`, an absolute path): read only when
    /// `allow_outside_root` is set, and then only with consent too.
    Outside,
}

impl Reason {
    /// What the entry is, for the user.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Sensitive => "a credential file",
            Reason::Vcs => "version control data",
            Reason::Ignored => "an ignored file",
            Reason::Outside => "a file outside the project",
        }
    }
}

/// An explicit entry held back until the user consents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// The entry's path as the preset names it.
    pub path: String,
    pub reason: Reason,
    /// What a consent to it is recorded as ([`consent_key`]).
    pub key: String,
}

impl Held {
    /// Where the entry leads when it is a link (root-relative, or an
    /// absolute path outside the root), for the review.
    pub fn target(&self) -> Option<&str> {
        self.key.split_once(LINK).map(|(_, to)| to)
    }
}

/// Between an entry's name and its link's target in a [`consent_key`]: a
/// NUL, which no path holds, so no name can pass for a name and a target.
const LINK: char = '\0';

/// What a consent to the entry `path` is recorded as: its [`normal`] name
/// when it is what it says (a file, or nothing yet), else the name and
/// where it leads (`docs/notes.txt` NUL `.env`), root-relative or as an
/// absolute path outside the root. Through a link, or a linked folder on
/// the way, a consent is thus for the file read: the same name pointed
/// elsewhere later has another key and is held again. `None` for an
/// empty path.
pub fn consent_key(root: &Path, path: &str) -> Option<String> {
    let name = normal(path)?;
    let trimmed = path.trim_end_matches('/');
    let full = if walk::is_inside(trimmed) {
        root.join(&name)
    } else {
        // An absolute path replaces the root; `../x` is resolved below.
        root.join(trimmed)
    };
    let (Ok(real_root), Ok(real)) = (fs::canonicalize(root), fs::canonicalize(&full)) else {
        // Nothing there (or the root is gone): nothing is read, and a
        // link made later resolves to another key.
        return Some(name);
    };
    let target = match real.strip_prefix(&real_root) {
        Ok(rel) => walk::rel_string(rel),
        Err(_) => real.to_string_lossy().into_owned(),
    };
    if target == name {
        Some(name)
    } else {
        Some(format!("{name}{LINK}{target}"))
    }
}

/// The consent keys of those of `paths` (root-relative, or as an entry
/// names them) that need consent now, and are not in `allowed`: what the
/// user's own add of them records. An ordinary file, a glob or a folder
/// needs none and records nothing (a consent recorded for it would
/// cover a link swapped in at its name later, were it not keyed by the
/// target; recording only what is needed keeps the store to what the
/// user allowed). Files outside the root count as readable here: the
/// read policy still refuses them unless `allow_outside_root` is set.
pub fn needing_consent(
    root: &Path,
    paths: &[String],
    allowed: Arc<BTreeSet<String>>,
    patterns: &WalkPatterns,
) -> Vec<String> {
    let items: Vec<FileItem> = paths
        .iter()
        .filter(|p| !walk::is_glob(p))
        .map(|p| FileItem::new(p.as_str()))
        .collect();
    EntryConsent::project(allowed, true)
        .held(root, &items, None, patterns)
        .into_iter()
        .map(|h| h.key)
        .collect()
}

/// `true` for a path inside a version control folder (`.git/…`, `.hg/…`,
/// `.pijul/…`, `.sl/…` at any depth: [`walk::VCS_DIRS`], the one list the
/// walk uses too), or that folder itself: what is in them is the tool's
/// own data (`.git/config` holds the tokens a CI checkout writes).
pub fn is_vcs_path(rel: &str) -> bool {
    rel.split('/').any(|c| walk::VCS_DIRS.contains(&c))
}

/// What a composition may take from a preset's explicit entries: nothing
/// held for the user's own preset; for a project preset, the entries
/// that need consent unless the user allowed them in this checkout.
/// The default holds them all: forgetting to say is the safe side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryConsent {
    /// The preset is the user's own (from the global config).
    pub own: bool,
    /// The [`consent_key`]s of the entries the user allowed in this
    /// checkout.
    pub allowed: Arc<BTreeSet<String>>,
    /// Files outside the root may be read (`allow_outside_root`, from the
    /// user's config or a trusted project file): a project preset's
    /// entries out there are then held too. Otherwise the read policy
    /// refuses them with its own message.
    pub outside_readable: bool,
}

impl EntryConsent {
    /// For the user's own preset: nothing is held.
    pub fn own() -> EntryConsent {
        EntryConsent {
            own: true,
            ..EntryConsent::default()
        }
    }

    /// For a project preset, with the paths the user allowed and whether
    /// files outside the root may be read at all.
    pub fn project(allowed: Arc<BTreeSet<String>>, outside_readable: bool) -> EntryConsent {
        EntryConsent {
            own: false,
            allowed,
            outside_readable,
        }
    }

    /// Whether the entry whose [`consent_key`] is `key` is allowed.
    fn allows(&self, key: Option<&str>) -> bool {
        self.own || key.is_some_and(|k| self.allowed.contains(k))
    }

    /// The entries of `entries` held back, in entry order. `walked` is the
    /// project's walk when the caller has it (sorted or not); without it,
    /// or for a hidden path, the walk is made here (with hidden files).
    pub fn held(
        &self,
        root: &Path,
        entries: &[FileItem],
        walked: Option<&[String]>,
        patterns: &WalkPatterns,
    ) -> Vec<Held> {
        if self.own {
            return Vec::new();
        }
        // First what the names and the disk say; then one walk answers
        // for all the entries still in doubt.
        // A consent is looked up by what the entry leads to now. A path
        // named twice is checked once (an agent's request naming one file
        // a million times made ten system calls each).
        let mut seen = HashSet::new();
        let first: Vec<(&FileItem, Option<String>, Check)> = entries
            .iter()
            .filter(|e| seen.insert(e.path.as_str()))
            .map(|e| (e, consent_key(root, &e.path)))
            .filter(|(_, key)| !self.allows(key.as_deref()))
            .map(|(e, key)| (e, key, first_check(root, &e.path)))
            .collect();
        let doubtful: Vec<&str> = first
            .iter()
            .filter_map(|(_, _, c)| match c {
                Check::InWalk(rel) => Some(rel.as_str()),
                _ => None,
            })
            .collect();
        let walked_ok = in_walk(root, &doubtful, walked, patterns);
        first
            .into_iter()
            .filter_map(|(e, key, check)| {
                let reason = match check {
                    Check::Held(r) => r,
                    Check::Fine => return None,
                    Check::InWalk(rel) if walked_ok.contains(&rel) => return None,
                    Check::InWalk(_) => Reason::Ignored,
                };
                if reason == Reason::Outside && !self.outside_readable {
                    return None;
                }
                Some(Held {
                    path: e.path.clone(),
                    reason,
                    key: key.unwrap_or_else(|| e.path.clone()),
                })
            })
            .collect()
    }

    /// `preset` without its held entries, and those entries. Its targets
    /// are entries too (a packed build reads a target in full).
    pub fn gate<'a>(
        &self,
        root: &Path,
        preset: &'a Preset,
        walked: Option<&[String]>,
        patterns: &WalkPatterns,
    ) -> (Cow<'a, Preset>, Vec<Held>) {
        let mut named = preset.files.clone();
        let listed: HashSet<&str> = preset.files.iter().map(|e| e.path.as_str()).collect();
        named.extend(
            preset
                .targets
                .iter()
                .filter(|t| !listed.contains(t.as_str()))
                .map(|t| FileItem::new(t.as_str())),
        );
        let held = self.held(root, &named, walked, patterns);
        if held.is_empty() {
            return (Cow::Borrowed(preset), held);
        }
        let out: HashSet<&str> = held.iter().map(|h| h.path.as_str()).collect();
        let mut gated = preset.clone();
        gated.files.retain(|e| !out.contains(e.path.as_str()));
        gated.targets.retain(|t| !out.contains(t.as_str()));
        (Cow::Owned(gated), held)
    }
}

/// The one note for the held entries, naming the first few and saying how
/// to allow them; `None` for none.
pub fn held_note(held: &[Held]) -> Option<String> {
    let first = held.first()?;
    let names: Vec<String> = held
        .iter()
        .take(3)
        .map(|h| format!("{} ({})", h.path, h.reason.describe()))
        .collect();
    let more = match held.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let (entries, need, them) = match held.len() {
        1 => ("entry", "needs", "it"),
        _ => ("entries", "need", "them"),
    };
    Some(format!(
        "left out {} {entries} of the project file that {need} your consent: {}{more}; \
         review and allow {them} with `ctxcurate trust`, or add {them} yourself \
         (`ctxcurate add {}`)",
        held.len(),
        names.join(", "),
        first.path,
    ))
}

/// What the name and the disk say of an entry.
enum Check {
    Held(Reason),
    /// Nothing to read (a glob, a folder, a missing file).
    Fine,
    /// Held unless the walk has this root-relative path.
    InWalk(String),
}

/// Why the entry `path` needs consent by its name, or where a link
/// leads; or that the walk must say. A glob that names no file is never
/// held (a glob brings in only walked, non-credential files).
fn first_check(root: &Path, path: &str) -> Check {
    let trimmed = path.trim_end_matches('/');
    if !walk::is_inside(trimmed) {
        return Check::Held(Reason::Outside);
    }
    let Some(rel) = normal(path) else {
        return Check::Fine;
    };
    if walk::is_glob(&rel) && !root.join(&rel).is_file() {
        return Check::Fine;
    }
    if let Some(r) = lexical_reason(&rel) {
        return Check::Held(r);
    }
    let full = root.join(&rel);
    let Ok(meta) = fs::symlink_metadata(&full) else {
        return Check::Fine;
    };
    if meta.is_dir() {
        // A folder entry renders nothing (it is not a file).
        return Check::Fine;
    }
    // Through links (the file itself, or a folder on the way) the entry
    // is the file they lead to: a link to `.env` is `.env`, one out of the
    // root is outside it, one that leads nowhere reads nothing.
    let real = |p: &Path| fs::canonicalize(p).ok();
    let (Some(real_root), Some(target)) = (real(root), real(&full)) else {
        return Check::Fine;
    };
    if target.is_dir() {
        return Check::Fine;
    }
    let Ok(to) = target.strip_prefix(&real_root) else {
        return Check::Held(Reason::Outside);
    };
    let to = walk::rel_string(to);
    // A hard link is held as its held name (`walk::held_twin`).
    let twin = || {
        let meta = fs::metadata(&target).ok()?;
        walk::held_twin(&real_root, &target, &meta, walk::is_held_name)
            .and_then(|other| lexical_reason(&other))
    };
    if let Some(r) = lexical_reason(&to).or_else(twin) {
        return Check::Held(r);
    }
    // The walk lists a linked file under its own name only, so the
    // target's place is what is asked.
    Check::InWalk(to)
}

/// Why `rel` needs consent by its name alone (a credential file, version
/// control data), without looking at the disk or the walk.
pub fn lexical_reason(rel: &str) -> Option<Reason> {
    if is_vcs_path(rel) {
        Some(Reason::Vcs)
    } else if walk::is_sensitive(rel) || walk::is_sensitive(&rel.to_ascii_lowercase()) {
        // Lower case too: `.ENV` is `.env` on a case-insensitive disk.
        Some(Reason::Sensitive)
    } else {
        None
    }
}

/// The form in which an allowed entry is recorded: a path inside the root
/// as a root-relative, `/`-separated path without `.` and `..`; one
/// outside as written (`None` for an empty path).
pub fn normal(path: &str) -> Option<String> {
    let path = path.trim_end_matches('/');
    if !walk::is_inside(path) {
        return Some(path.to_string());
    }
    let rel = walk::rel_string(&crate::core::paths::lexical(Path::new(path)));
    (!rel.is_empty()).then_some(rel)
}

/// Which of `rels` the walk has. The caller's walk answers yes quickly; a
/// no is confirmed by a walk of our own (`walk::walker_with_hidden`, so every
/// ignore rule applies) that keeps hidden files (`.github/ci.yml` is not
/// ignored), leaves out the project file's own `ignore` patterns (a
/// project that ignores `docs/` and names `docs/guide.md` asks nothing of
/// the user's) and descends only into the folders that lead to `rels`, so
/// it costs a few directory listings, not the tree.
fn in_walk(
    root: &Path,
    rels: &[&str],
    given: Option<&[String]>,
    patterns: &WalkPatterns,
) -> HashSet<String> {
    let mut found: HashSet<String> = HashSet::new();
    let mut rest: Vec<&str> = Vec::new();
    let sorted = given.is_some_and(|g| g.is_sorted());
    let given_set: Option<HashSet<&str>> = match given {
        Some(g) if !sorted && !rels.is_empty() => Some(g.iter().map(String::as_str).collect()),
        _ => None,
    };
    for rel in rels {
        let known = match (given, &given_set) {
            (_, Some(set)) => set.contains(rel),
            (Some(g), None) => g.binary_search_by(|p| p.as_str().cmp(rel)).is_ok(),
            (None, _) => false,
        };
        if known {
            found.insert((*rel).to_string());
        } else {
            rest.push(rel);
        }
    }
    if rest.is_empty() {
        return found;
    }
    let wanted: HashSet<&str> = rest.iter().copied().collect();
    let folders: HashSet<&str> = rest
        .iter()
        .flat_map(|rel| rel.match_indices('/').map(move |(i, _)| &rel[..i]))
        .collect();
    let patterns = WalkPatterns {
        ignore: Vec::new(),
        unignore: patterns.unignore.clone(),
    };
    let seen = Mutex::new(Vec::new());
    walk::walker_with_hidden(root, &patterns)
        .threads(1)
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                use ignore::WalkState;
                let Ok(entry) = entry else {
                    return WalkState::Continue;
                };
                let Ok(rel) = entry.path().strip_prefix(root) else {
                    return WalkState::Continue;
                };
                let rel = walk::rel_string(rel);
                let kind = entry.file_type();
                if entry.depth() == 0 {
                    WalkState::Continue
                } else if kind.is_some_and(|t| t.is_dir()) {
                    if folders.contains(rel.as_str()) {
                        WalkState::Continue
                    } else {
                        WalkState::Skip
                    }
                } else {
                    if kind.is_some_and(|t| t.is_file()) && wanted.contains(rel.as_str()) {
                        seen.lock()
                            .unwrap_or_else(|poisoned| poisoned.into_inner())
                            .push(rel);
                    }
                    WalkState::Continue
                }
            })
        });
    found.extend(seen.into_inner().unwrap_or_else(|p| p.into_inner()));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (p, text) in [
            ("src/app.py", "x = 1\n"),
            (".env", "KEY=1\n"),
            (".git/config", "[core]\n"),
            ("secret/prod.yaml", "k: v\n"),
            (".github/ci.yml", "on: push\n"),
            (".gitignore", "secret/\n"),
        ] {
            fs::create_dir_all(root.join(p).parent().unwrap()).unwrap();
            fs::write(root.join(p), text).unwrap();
        }
        dir
    }

    fn items(paths: &[&str]) -> Vec<FileItem> {
        paths.iter().map(|p| FileItem::new(*p)).collect()
    }

    #[test]
    fn sensitive_vcs_and_ignored_entries_are_held() {
        let dir = project();
        let root = dir.path();
        let entries = items(&[
            "src/app.py",
            ".env",
            "./.git/config",
            "secret/prod.yaml",
            ".github/ci.yml",
            "src/*.py",
            "missing.py",
            "../outside.txt",
        ]);
        let consent = EntryConsent::project(Arc::default(), true);
        let held = consent.held(root, &entries, None, &WalkPatterns::default());
        let got: Vec<(&str, Reason)> = held.iter().map(|h| (h.path.as_str(), h.reason)).collect();
        assert_eq!(
            got,
            [
                (".env", Reason::Sensitive),
                ("./.git/config", Reason::Vcs),
                ("secret/prod.yaml", Reason::Ignored),
                ("../outside.txt", Reason::Outside),
            ]
        );
        // With the caller's walk: the same answer.
        let walked = walk::walk_files(root);
        let again = consent.held(root, &entries, Some(&walked), &Default::default());
        assert_eq!(again, held);
        // Where the read policy refuses what is outside, it says so itself.
        let unreadable = EntryConsent::default().held(root, &entries, None, &Default::default());
        assert_eq!(unreadable, held[..3]);
        // An entry named again is held once (and checked once).
        let twice: Vec<FileItem> = entries.iter().chain(&entries).cloned().collect();
        assert_eq!(
            consent.held(root, &twice, None, &WalkPatterns::default()),
            held
        );
        // Allowed paths and the user's own preset hold nothing.
        let allowed: BTreeSet<String> =
            [".env", ".git/config", "secret/prod.yaml", "../outside.txt"]
                .map(String::from)
                .into();
        assert!(
            EntryConsent::project(Arc::new(allowed), true)
                .held(root, &entries, None, &Default::default())
                .is_empty()
        );
        assert!(
            EntryConsent::own()
                .held(root, &entries, None, &Default::default())
                .is_empty()
        );
    }

    #[test]
    fn every_vcs_folder_is_version_control_data() {
        for rel in [
            ".git/config",
            ".hg/hgrc",
            "sub/.pijul/config",
            ".sl/config",
            ".sl/store/x",
            ".jj/repo/store/x",
            "_FOSSIL_",
        ] {
            assert_eq!(lexical_reason(rel), Some(Reason::Vcs), "{rel}");
        }
        for rel in ["src/sl/x.py", "docs/git.md", "pijul.txt"] {
            assert_eq!(lexical_reason(rel), None, "{rel}");
        }
    }

    #[test]
    fn the_project_files_own_ignore_patterns_hold_nothing() {
        let dir = project();
        let patterns = WalkPatterns {
            ignore: vec!["src/".into()],
            unignore: Vec::new(),
        };
        let walked = walk::walk_files_with(dir.path(), &patterns);
        assert!(!walked.contains(&"src/app.py".to_string()));
        let held = EntryConsent::default().held(
            dir.path(),
            &items(&["src/app.py", "secret/prod.yaml"]),
            Some(&walked),
            &patterns,
        );
        assert_eq!(
            held.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
            ["secret/prod.yaml"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_credential_file_is_held_as_one() {
        let dir = project();
        std::os::unix::fs::symlink(".env", dir.path().join("notes.txt")).unwrap();
        std::os::unix::fs::symlink("src/app.py", dir.path().join("app_link.py")).unwrap();
        std::os::unix::fs::symlink("src", dir.path().join("code")).unwrap();
        std::os::unix::fs::symlink("nowhere", dir.path().join("dangling")).unwrap();
        std::os::unix::fs::symlink("secret", dir.path().join("open")).unwrap();
        let consent = EntryConsent::project(Arc::default(), true);
        let held = consent.held(
            dir.path(),
            &items(&[
                "notes.txt",
                "app_link.py",
                "code/app.py",
                "dangling",
                "open/prod.yaml",
            ]),
            None,
            &Default::default(),
        );
        let got: Vec<(&str, Reason)> = held.iter().map(|h| (h.path.as_str(), h.reason)).collect();
        assert_eq!(
            got,
            [
                ("notes.txt", Reason::Sensitive),
                ("open/prod.yaml", Reason::Ignored)
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_consent_is_for_where_the_entry_leads() {
        let dir = project();
        let root = dir.path();
        fs::write(root.join("notes.txt"), "plain\n").unwrap();
        let patterns = WalkPatterns::default();
        // An ordinary file needs no consent: nothing to record.
        let none = needing_consent(root, &["notes.txt".into()], Arc::default(), &patterns);
        assert!(none.is_empty(), "{none:?}");
        assert_eq!(
            consent_key(root, "./notes.txt").as_deref(),
            Some("notes.txt")
        );
        // A consent by name (what older records hold) does not cover the
        // name become a link to `.env`.
        fs::remove_file(root.join("notes.txt")).unwrap();
        std::os::unix::fs::symlink(".env", root.join("notes.txt")).unwrap();
        let by_name = EntryConsent::project(Arc::new(["notes.txt".to_string()].into()), true);
        let held = by_name.held(root, &items(&["notes.txt"]), None, &patterns);
        assert_eq!(held.len(), 1);
        assert_eq!(held[0].key, "notes.txt\0.env");
        assert_eq!(held[0].target(), Some(".env"));
        // Consent to the link as it is covers it; pointed elsewhere, not.
        let keys = needing_consent(root, &["notes.txt".into()], Arc::default(), &patterns);
        assert_eq!(keys, ["notes.txt\0.env"]);
        let allowed = EntryConsent::project(Arc::new(keys.into_iter().collect()), true);
        assert!(
            allowed
                .held(root, &items(&["notes.txt"]), None, &patterns)
                .is_empty()
        );
        fs::remove_file(root.join("notes.txt")).unwrap();
        std::os::unix::fs::symlink(".git/config", root.join("notes.txt")).unwrap();
        let held = allowed.held(root, &items(&["notes.txt"]), None, &patterns);
        assert_eq!(held.len(), 1);
        assert_eq!(held[0].reason, Reason::Vcs);
        // A linked folder on the way counts as a link.
        std::os::unix::fs::symlink("secret", root.join("open")).unwrap();
        assert_eq!(
            consent_key(root, "open/prod.yaml").as_deref(),
            Some("open/prod.yaml\0secret/prod.yaml")
        );
        // `.env` itself stays keyed by its name (older records still hold).
        assert_eq!(consent_key(root, ".env").as_deref(), Some(".env"));
    }

    #[test]
    fn gate_keeps_the_rest_and_the_note_says_how_to_allow() {
        let dir = project();
        let preset = Preset {
            files: items(&["src/app.py", ".env"]),
            targets: vec![".git/config".into(), "src/app.py".into()],
            ..Preset::default()
        };
        let (gated, held) =
            EntryConsent::default().gate(dir.path(), &preset, None, &Default::default());
        assert_eq!(gated.files, items(&["src/app.py"]));
        assert_eq!(gated.targets, ["src/app.py"]);
        assert_eq!(held.len(), 2);
        let note = held_note(&held).unwrap();
        assert!(note.contains(".env (a credential file)"), "{note}");
        assert!(
            note.contains("ctxcurate trust") && note.contains("ctxcurate add .env"),
            "{note}"
        );
        assert_eq!(held_note(&[]), None);
    }
}
