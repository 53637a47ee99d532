//! Files that change on disk: a [`ProjectWatch`] watches the folders the
//! walk enters (never one it skips, never one outside the root), gathers
//! the kernel's events for a short quiet spell, and hands the paths that
//! changed to its caller, by the walk's rules. The TUI turns a report into
//! a patch of its walk; `build --watch` into a rebuild. No terminal code
//! here.
//!
//! The rules follow the project: each report is sifted with the ignore
//! files as they are then, and when an ignore file changes or the caller
//! hands new `[project]` patterns ([`ProjectWatch::set_patterns`], after
//! `ctxcurate.toml` changed) the folders watched are chosen again — a
//! folder newly un-ignored is watched from then on, one newly ignored no
//! longer is.
//!
//! Bounded twice, so a `git checkout` storm or a 100k-file tree cannot
//! flood the caller: raw events wait in a channel of [`MAX_PENDING_EVENTS`]
//! (past it they are dropped and the report says "overflowed"), and a
//! report names at most [`MAX_REPORTED_PATHS`] paths (past it, the same).
//! An overflowed report means "anything may have changed: walk again".

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};
use notify::{EventKind, RecursiveMode, Watcher as _};

use crate::core::walk::{self, IGNORE_FILE, SkipCheck, WalkPatterns};

/// A report goes out once no event came for this long…
pub const QUIET: Duration = Duration::from_millis(150);
/// …or this long after the first event of a busy spell, whichever is
/// first (a file written without pause still shows).
pub const MAX_WAIT: Duration = Duration::from_secs(1);
/// Raw events waiting for the gatherer; past this they are dropped and
/// the next report is [`Changes::overflowed`].
pub const MAX_PENDING_EVENTS: usize = 8192;
/// Paths one report names; past this it is [`Changes::overflowed`].
pub const MAX_REPORTED_PATHS: usize = 2000;
/// Folders watched at most (each costs the kernel a watch); a larger
/// tree is reported as [`WatchError::TooManyFolders`].
pub const MAX_WATCHED_FOLDERS: usize = 100_000;

/// What changed during one quiet spell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Root-relative, `/`-separated, sorted: files (or folders) created,
    /// written, removed or renamed that the walk would show, and the
    /// project's own control files (`ctxcurate.toml`, ignore files) even
    /// when hidden.
    pub paths: Vec<String>,
    /// More changed than a report names (events dropped or too many
    /// paths): the caller should assume anything changed.
    pub overflowed: bool,
}

impl Changes {
    /// `true` when the caller must look at `rel`: it is named, or the
    /// report overflowed.
    pub fn touches(&self, rel: &str) -> bool {
        self.overflowed || self.paths.binary_search_by(|p| p.as_str().cmp(rel)).is_ok()
    }
}

/// Why watching stopped (or never started). Watching is a convenience:
/// the caller reports this once and carries on without it.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch {}", root.display())]
    Start {
        root: PathBuf,
        #[source]
        source: notify::Error,
    },
    #[error(
        "cannot watch {}: the system's limit of watched folders is reached after {watched} \
         (raise fs.inotify.max_user_watches)",
        dir.display()
    )]
    Limit { dir: PathBuf, watched: usize },
    #[error("the project has more than {MAX_WATCHED_FOLDERS} folders: not watched")]
    TooManyFolders,
}

/// What a watch hands its caller.
#[derive(Debug)]
pub enum WatchReport {
    /// The set-up is done: every kept folder is watched (a change from
    /// now on is reported; one before may not be).
    Watching { folders: usize },
    /// Paths changed (after a quiet spell).
    Changed(Changes),
    /// Watching has stopped; no report follows.
    Failed(WatchError),
}

/// A running watch of a project; dropping it stops it (within a quarter
/// of a second).
pub struct ProjectWatch {
    stop: Arc<AtomicBool>,
    rules: Arc<Rules>,
}

/// The `[project]` patterns a watch sifts with, replaced by its owner.
struct Rules {
    patterns: Mutex<WalkPatterns>,
    /// New patterns wait for the watch's thread to choose its folders again.
    changed: AtomicBool,
    /// Wakes the watch's thread for new patterns (the kernel's events
    /// travel the same channel).
    wake: SyncSender<Raw>,
}

impl Rules {
    fn get(&self) -> WalkPatterns {
        self.patterns
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for ProjectWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl ProjectWatch {
    /// Watch `root` on a thread of its own: it first walks the folders
    /// (with `patterns`, as the walk does), then hands each report to
    /// `report`, until `report` returns `false`, the handle is dropped or
    /// watching fails (the failure is the last report).
    pub fn start(
        root: &Path,
        patterns: WalkPatterns,
        mut report: impl FnMut(WatchReport) -> bool + Send + 'static,
    ) -> ProjectWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let (tx, rx) = mpsc::sync_channel::<Raw>(MAX_PENDING_EVENTS);
        let rules = Arc::new(Rules {
            patterns: Mutex::new(patterns),
            changed: AtomicBool::new(false),
            wake: tx.clone(),
        });
        let shared = rules.clone();
        let root = root.to_path_buf();
        thread::spawn(move || {
            if let Err(e) = watch(&root, &shared, (tx, rx), &stopped, &mut report) {
                report(WatchReport::Failed(e));
            }
        });
        ProjectWatch { stop, rules }
    }

    /// Sift with `patterns` from now on (the project's `[project]
    /// ignore`/`unignore` changed) and choose the folders watched again;
    /// the same patterns again change nothing.
    pub fn set_patterns(&self, patterns: WalkPatterns) {
        let mut held = self
            .rules
            .patterns
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if *held != patterns {
            *held = patterns;
            self.rules.changed.store(true, Ordering::Release);
            // A full channel wakes it anyway.
            let _ = self.rules.wake.try_send(Raw::Repatterned);
        }
    }
}

/// One raw event, as the gatherer needs it.
enum Raw {
    Paths(Vec<PathBuf>),
    /// The kernel's queue overflowed, or ours did.
    Overflow,
    /// New patterns came ([`ProjectWatch::set_patterns`]): no path.
    Repatterned,
}

/// The watch's thread: set up, then gather and report until stopped.
fn watch(
    root: &Path,
    rules: &Rules,
    (tx, rx): (SyncSender<Raw>, Receiver<Raw>),
    stop: &AtomicBool,
    report: &mut dyn FnMut(WatchReport) -> bool,
) -> Result<(), WatchError> {
    let overflowed = Arc::new(AtomicBool::new(false));
    let mut watcher = start_watcher(root, tx, overflowed.clone())?;
    let mut watched = HashSet::new();
    rules.changed.store(false, Ordering::Release);
    for dir in kept_folders(root, &rules.get()) {
        add_folder(&mut watcher, &dir, &mut watched)?;
    }
    if !report(WatchReport::Watching {
        folders: watched.len(),
    }) {
        return Ok(());
    }
    while !stop.load(Ordering::Relaxed) {
        let Some(raw) = gather(&rx, stop) else {
            return Ok(());
        };
        let repatterned = rules.changed.swap(false, Ordering::AcqRel);
        let patterns = rules.get();
        let check = SkipCheck::new(root, &patterns);
        let mut changes = sift(root, &check, raw);
        changes.overflowed |= overflowed.swap(false, Ordering::Relaxed);
        if repatterned || changes.paths.iter().any(|p| is_ignore_file(p)) {
            // What the walk enters may differ anywhere: choose again.
            rewatch(&mut watcher, &mut watched, kept_folders(root, &patterns))?;
        }
        // A folder that appeared is watched from now on (and what is in
        // it already is reported through it: the caller looks at it).
        for rel in &changes.paths {
            let dir = root.join(rel);
            if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
                for sub in folders_below(&dir, root, &check) {
                    add_folder(&mut watcher, &sub, &mut watched)?;
                }
            }
        }
        if (!changes.paths.is_empty() || changes.overflowed)
            && !report(WatchReport::Changed(changes))
        {
            return Ok(());
        }
    }
    Ok(())
}

/// The kernel watcher, its events sent on `tx` (dropped, with
/// `overflowed` set, when the gatherer is that far behind).
fn start_watcher(
    root: &Path,
    tx: SyncSender<Raw>,
    overflowed: Arc<AtomicBool>,
) -> Result<notify::RecommendedWatcher, WatchError> {
    notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let raw = match event {
            Ok(e) if e.need_rescan() => Raw::Overflow,
            Ok(e) if is_change(&e.kind) => Raw::Paths(e.paths),
            Ok(_) => return,
            // An error mid-stream (a watch lost): assume anything changed.
            Err(_) => Raw::Overflow,
        };
        if let Err(TrySendError::Full(_)) = tx.try_send(raw) {
            overflowed.store(true, Ordering::Relaxed);
        }
    })
    .map_err(|source| WatchError::Start {
        root: root.to_path_buf(),
        source,
    })
}

/// `true` for events that change what a file holds or whether it is
/// there; reading a file (open, close after reading, atime) is not one,
/// or the app's own reads would wake it.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        _ => true,
    }
}

/// Watch exactly `kept` (the walk's folders under new rules): those not
/// watched yet are added, those no longer kept let go.
fn rewatch(
    watcher: &mut notify::RecommendedWatcher,
    watched: &mut HashSet<PathBuf>,
    kept: Vec<PathBuf>,
) -> Result<(), WatchError> {
    let kept: HashSet<PathBuf> = kept.into_iter().collect();
    let dropped: Vec<PathBuf> = watched.difference(&kept).cloned().collect();
    for dir in dropped {
        // Gone already: nothing to let go of.
        let _ = watcher.unwatch(&dir);
        watched.remove(&dir);
    }
    for dir in kept {
        add_folder(watcher, &dir, watched)?;
    }
    Ok(())
}

/// Watch one folder (not its subfolders: each kept one has its own watch,
/// so a skipped folder such as `node_modules/` costs nothing); one
/// watched already is left as it is.
fn add_folder(
    watcher: &mut notify::RecommendedWatcher,
    dir: &Path,
    watched: &mut HashSet<PathBuf>,
) -> Result<(), WatchError> {
    if watched.contains(dir) {
        return Ok(());
    }
    if watched.len() >= MAX_WATCHED_FOLDERS {
        return Err(WatchError::TooManyFolders);
    }
    match watcher.watch(dir, RecursiveMode::NonRecursive) {
        Ok(()) => {
            watched.insert(dir.to_path_buf());
            Ok(())
        }
        Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => Err(WatchError::Limit {
            dir: dir.to_path_buf(),
            watched: watched.len(),
        }),
        // Gone already, or unreadable: nothing there to follow.
        Err(_) => Ok(()),
    }
}

/// The root and every folder the walk enters, by the walk itself.
fn kept_folders(root: &Path, patterns: &WalkPatterns) -> Vec<PathBuf> {
    walk::walker_with(root, patterns)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_dir()))
        .map(|e| e.into_path())
        .take(MAX_WATCHED_FOLDERS + 1)
        .collect()
}

/// `dir` (a folder that appeared) and the folders under it that the walk
/// keeps; links are not followed, and the count is bounded.
fn folders_below(dir: &Path, root: &Path, check: &SkipCheck) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        if found.len() > MAX_WATCHED_FOLDERS {
            break;
        }
        let Some(rel) = d.strip_prefix(root).ok().map(walk::rel_string) else {
            continue;
        };
        if check.skips(&rel) {
            continue;
        }
        if let Ok(entries) = std::fs::read_dir(&d) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    todo.push(entry.path());
                }
            }
        }
        found.push(d);
    }
    found
}

/// Wait for the first raw event, then gather until [`QUIET`] passes with
/// none (or [`MAX_WAIT`] since the first); `None` once stopped or
/// disconnected with nothing gathered.
fn gather(rx: &Receiver<Raw>, stop: &AtomicBool) -> Option<Vec<Raw>> {
    let first = loop {
        match rx.recv_timeout(Duration::from_millis(250)) {
            Ok(raw) => break raw,
            Err(RecvTimeoutError::Timeout) if !stop.load(Ordering::Relaxed) => {}
            Err(_) => return None,
        }
    };
    let started = Instant::now();
    let mut gathered = vec![first];
    loop {
        let left = MAX_WAIT.saturating_sub(started.elapsed());
        if left.is_zero() {
            break;
        }
        match rx.recv_timeout(QUIET.min(left)) {
            Ok(raw) => gathered.push(raw),
            Err(_) => break,
        }
    }
    Some(gathered)
}

/// The gathered events as root-relative paths, sorted and deduplicated,
/// without those the walk skips (or outside the root), bounded.
fn sift(root: &Path, check: &SkipCheck, raw: Vec<Raw>) -> Changes {
    let mut paths = BTreeSet::new();
    let mut overflowed = false;
    for r in raw {
        match r {
            Raw::Overflow => overflowed = true,
            Raw::Repatterned => {}
            Raw::Paths(ps) => {
                for p in ps {
                    if paths.len() >= MAX_REPORTED_PATHS {
                        overflowed = true;
                        break;
                    }
                    // Never anything outside the root (a link's target,
                    // a path the kernel named oddly).
                    let Ok(rel) = p.strip_prefix(root) else {
                        continue;
                    };
                    let rel = walk::rel_string(rel);
                    if !rel.is_empty() {
                        paths.insert(rel);
                    }
                }
            }
        }
    }
    let paths = paths
        .into_iter()
        .filter(|rel| is_control_file(rel) || !check.skips(rel))
        .collect();
    Changes { paths, overflowed }
}

/// The files that change what the walk or the build sees, reported even
/// though some are hidden: the project file and the ignore files.
pub fn is_control_file(rel: &str) -> bool {
    rel == "ctxcurate.toml" || is_ignore_file(rel)
}

/// An ignore file the walk reads (`.gitignore`, `.ignore`,
/// `.ctxcurateignore`, at any depth): a change to one may change what
/// any path below its folder shows.
pub fn is_ignore_file(rel: &str) -> bool {
    if walk::is_blacklisted(rel) {
        return false;
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    matches!(name, ".gitignore" | ".ignore") || name == IGNORE_FILE
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// The next report within `within`, or `None`.
    fn next(rx: &Receiver<WatchReport>, within: Duration) -> Option<WatchReport> {
        rx.recv_timeout(within).ok()
    }

    fn started(root: &Path) -> (ProjectWatch, Receiver<WatchReport>) {
        let (tx, rx) = mpsc::channel();
        let w = ProjectWatch::start(root, WalkPatterns::default(), move |r| tx.send(r).is_ok());
        match next(&rx, Duration::from_secs(5)) {
            Some(WatchReport::Watching { folders }) => assert!(folders >= 1),
            other => panic!("expected the set-up's end, got {other:?}"),
        }
        (w, rx)
    }

    /// The paths of the reports until they name all of `expected` (a
    /// loaded machine may split one burst over two spells), and any that
    /// come soon after.
    fn changed_until(rx: &Receiver<WatchReport>, expected: &[&str]) -> Vec<String> {
        let mut named = BTreeSet::new();
        let deadline = Instant::now() + Duration::from_secs(5);
        while !expected.iter().all(|e| named.contains(*e)) && Instant::now() < deadline {
            if let Some(WatchReport::Changed(c)) = next(rx, Duration::from_millis(500)) {
                assert!(!c.overflowed);
                named.extend(c.paths);
            }
        }
        while let Some(WatchReport::Changed(c)) = next(rx, Duration::from_millis(400)) {
            named.extend(c.paths);
        }
        named.into_iter().collect()
    }

    fn changed(rx: &Receiver<WatchReport>) -> Changes {
        match next(rx, Duration::from_secs(5)) {
            Some(WatchReport::Changed(c)) => c,
            other => panic!("expected a change, got {other:?}"),
        }
    }

    #[test]
    fn create_modify_delete_are_reported_once_each_spell_and_ignored_paths_never() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("src")).unwrap();
        fs::create_dir_all(root.join("logs")).unwrap();
        fs::create_dir_all(root.join("node_modules/m")).unwrap();
        fs::write(root.join("src/a.py"), "a = 1\n").unwrap();
        fs::write(root.join("src/gone.py"), "x\n").unwrap();
        fs::write(root.join(".gitignore"), "logs/\n*.log\n").unwrap();
        let (_w, rx) = started(root);

        // One spell: a create, a write, a delete, and noise the walk skips.
        fs::write(root.join("src/new.py"), "n\n").unwrap();
        fs::write(root.join("src/a.py"), "a = 2\n").unwrap();
        fs::remove_file(root.join("src/gone.py")).unwrap();
        fs::write(root.join("debug.log"), "x").unwrap();
        fs::write(root.join("logs/today.txt"), "x").unwrap();
        fs::write(root.join("node_modules/m/i.js"), "x").unwrap();
        fs::write(root.join(".env"), "K=v").unwrap();
        fs::create_dir_all(root.join(".ctxcurate")).unwrap();
        fs::write(root.join(".ctxcurate/out.md"), "x").unwrap();
        let expected = ["src/a.py", "src/gone.py", "src/new.py"];
        assert_eq!(changed_until(&rx, &expected), expected);
        // Reading a file is no change.
        let _ = fs::read(root.join("src/a.py")).unwrap();
        assert!(next(&rx, Duration::from_millis(600)).is_none());
    }

    #[test]
    fn a_new_folder_is_watched_and_the_project_file_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("ctxcurate.toml"), "").unwrap();
        let (_w, rx) = started(root);
        fs::create_dir_all(root.join("pkg/sub")).unwrap();
        assert_eq!(changed(&rx).paths, ["pkg"]);
        fs::write(root.join("pkg/sub/m.rs"), "fn f() {}\n").unwrap();
        assert_eq!(changed(&rx).paths, ["pkg/sub/m.rs"]);
        fs::write(root.join("ctxcurate.toml"), "[project]\n").unwrap();
        assert_eq!(changed(&rx).paths, ["ctxcurate.toml"]);
        let c = Changes {
            paths: vec!["a".into(), "c".into()],
            overflowed: false,
        };
        assert!(c.touches("c") && !c.touches("b"));
    }

    #[test]
    fn a_storm_is_reported_bounded_and_whole() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let (_w, rx) = started(root);
        let n = MAX_REPORTED_PATHS + 500;
        for i in 0..n {
            fs::write(root.join(format!("f{i}.txt")), "x").unwrap();
        }
        let mut reports = vec![changed(&rx)];
        while let Some(WatchReport::Changed(c)) = next(&rx, Duration::from_millis(800)) {
            reports.push(c);
        }
        // However the spells fell: each report bounded, and every file
        // named or covered by an overflow.
        assert!(reports.iter().all(|c| c.paths.len() <= MAX_REPORTED_PATHS));
        let named: BTreeSet<&String> = reports.iter().flat_map(|c| &c.paths).collect();
        assert!(
            reports.iter().any(|c| c.overflowed) || named.len() == n,
            "{} named in {} reports",
            named.len(),
            reports.len()
        );
    }

    #[test]
    fn one_spell_past_the_bound_overflows() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let check = SkipCheck::new(root, &WalkPatterns::default());
        let raw: Vec<Raw> = (0..MAX_REPORTED_PATHS + 10)
            .map(|i| Raw::Paths(vec![root.join(format!("f{i}"))]))
            .chain([Raw::Paths(vec![PathBuf::from("/etc/passwd")])])
            .collect();
        let c = sift(root, &check, raw);
        assert!(c.overflowed);
        assert_eq!(c.paths.len(), MAX_REPORTED_PATHS);
        // Outside the root: never named.
        let c = sift(
            root,
            &check,
            vec![Raw::Paths(vec![
                PathBuf::from("/etc/passwd"),
                root.join("ok.txt"),
            ])],
        );
        assert_eq!(c.paths, ["ok.txt"]);
        assert!(!c.overflowed);
        let c = sift(root, &check, vec![Raw::Overflow]);
        assert!(c.overflowed && c.paths.is_empty());
    }

    #[test]
    fn new_patterns_and_a_changed_ignore_file_choose_the_watched_folders_again() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("gen/deep")).unwrap();
        fs::create_dir_all(root.join("src")).unwrap();
        let (tx, rx) = mpsc::channel();
        let ignore_gen = WalkPatterns {
            ignore: vec!["gen/".into()],
            unignore: Vec::new(),
        };
        let w = ProjectWatch::start(root, ignore_gen, move |r| tx.send(r).is_ok());
        assert!(matches!(
            next(&rx, Duration::from_secs(5)),
            Some(WatchReport::Watching { folders: 2 })
        ));
        fs::write(root.join("gen/deep/g.py"), "g").unwrap();
        fs::write(root.join("src/a.py"), "a").unwrap();
        assert_eq!(changed_until(&rx, &["src/a.py"]), ["src/a.py"]);

        // The project's patterns lifted: gen/ and below are watched now.
        w.set_patterns(WalkPatterns::default());
        thread::sleep(Duration::from_millis(600));
        fs::write(root.join("gen/deep/g.py"), "g2").unwrap();
        assert_eq!(changed_until(&rx, &["gen/deep/g.py"]), ["gen/deep/g.py"]);

        // An ignore file now skips src/: reported, and src/ let go.
        fs::write(root.join(".gitignore"), "src/\n").unwrap();
        assert_eq!(changed_until(&rx, &[".gitignore"]), [".gitignore"]);
        fs::write(root.join("src/a.py"), "a2").unwrap();
        fs::write(root.join("gen/deep/g.py"), "g3").unwrap();
        assert_eq!(changed_until(&rx, &["gen/deep/g.py"]), ["gen/deep/g.py"]);
    }

    #[test]
    fn dropping_the_handle_stops_the_reports() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let (w, rx) = started(root);
        drop(w);
        thread::sleep(Duration::from_millis(400));
        fs::write(root.join("late.txt"), "x").unwrap();
        assert!(next(&rx, Duration::from_millis(600)).is_none());
    }
}
